"""Entrants: a bot's versions are entrants of their own; the house bots are permanent entrants."""

from __future__ import annotations

import pytest

from cardroom.bots import BOTS
from cardroom.ladder import (
    HOUSE,
    HOUSE_BOTS,
    BadEntrantError,
    Entrant,
    Roster,
    UnknownEntrantError,
    house_entrants,
)


def test_a_new_generation_is_a_new_entrant_of_the_same_bot_and_owner() -> None:
    first = Entrant("bot:7", "ann")
    second = first.next_generation()
    assert (first.key, second.key) == ("bot:7#1", "bot:7#2")
    assert (second.id, second.owner) == (first.id, first.owner)
    roster = Roster.of([first]).add(second)
    assert [entrant.key for entrant in roster] == ["bot:7#1", "bot:7#2"]
    assert roster.owned_by("ann") == (first, second)


def test_the_house_bots_are_registered_bots_owned_by_the_house() -> None:
    house = house_entrants()
    assert [entrant.id for entrant in house] == list(HOUSE_BOTS)
    assert all(entrant.owner == HOUSE and entrant.is_house and entrant.id in BOTS for entrant in house)
    assert not Entrant("bot:1", "ann").is_house


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        (("", "ann"), "an entrant's id is non-empty text, got ''"),
        (("bot:1", " "), "an entrant's owner is non-empty text, got ' '"),
        (("bot#1", "ann"), "has no '#'"),
        (("bot:1", "ann", 0), "generation is a whole number of at least 1, got 0"),
        (("bot:1", "ann", True), "generation is a whole number of at least 1, got True"),
    ],
)
def test_bad_entrants_are_refused(arguments: tuple[object, ...], message: str) -> None:
    with pytest.raises(BadEntrantError, match=message):
        Entrant(*arguments)  # type: ignore[arg-type]


def test_a_roster_holds_each_entrant_once_and_names_an_unknown_one() -> None:
    ann = Entrant("bot:1", "ann")
    with pytest.raises(BadEntrantError, match="'bot:1#1' is on the roster twice"):
        Roster.of([ann, Entrant("bot:1", "bob")])
    with pytest.raises(UnknownEntrantError, match="no entrant 'bot:2#1'"):
        Roster.of([ann])["bot:2#1"]
