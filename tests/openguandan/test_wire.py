"""Cards and triples in the Java server's order (docs/openguandan-protocol.md, "Cards"), checked against
every hand and every play the recordings show."""

from __future__ import annotations

import pytest

from cardroom.cards import Card, Rank, parse_cards
from cardroom.guandan.deal import PlayAction, ReturnAction, TributeAction
from cardroom.guandan.plays import PASS
from cardroom.guandan.triple import from_triple
from cardroom.openguandan.wire import action_entry, card_names, java_order, play_triple
from tests.openguandan.recordings import ONE_GAME, TWO_GAMES, lines


def test_suits_held_once_come_before_suits_held_twice_within_a_rank() -> None:
    hand = parse_cards("H5 C5 H5 SB HR D2 S2 S2 HA")
    assert card_names(hand) == ["S2", "D2", "S2", "H5", "C5", "H5", "HA", "SB", "HR"]
    assert java_order([Card.parse("DT"), Card.parse("HT")]) == [Card.parse("HT"), Card.parse("DT")]


@pytest.mark.parametrize("name", [ONE_GAME, TWO_GAMES])
def test_every_recorded_hand_and_play_is_in_the_java_order(name: str) -> None:
    """handCards, restCards, and the cards of every play a notify or a request names (curAction,
    greaterAction), as the server printed them, are in :func:`java_order` of themselves."""
    checked = 0
    for line in lines(name):
        frame = line.frame
        if line.direction != "in" or frame.get("type") not in ("notify", "act"):
            continue
        lists = [frame.get("handCards")] + [cards for _, cards in frame.get("restCards", [])]
        lists += [
            triple[2]
            for triple in (frame.get("curAction"), frame.get("greaterAction"))
            if isinstance(triple, list) and triple[0] != "PASS"
        ]
        for names in lists:
            if names is not None:
                assert card_names(Card.parse(text) for text in names) == names
                checked += 1
    assert checked > 10_000


@pytest.mark.parametrize("name", [ONE_GAME, TWO_GAMES])
def test_a_played_triple_reads_back_as_the_server_wrote_it(name: str) -> None:
    """play_triple(from_triple(t)) == t for every play the server announced (notify/play), read at its
    deal's level (the ``levelCard`` of the seat's last ``beginning``)."""
    levels = [Rank.TWO] * 4
    kinds = set()
    for line in lines(name):
        frame = line.frame
        if line.direction != "in":
            continue
        if frame.get("stage") == "beginning":
            levels[line.seat] = Rank.from_letter(frame["levelCard"])
        elif frame.get("type") == "notify" and frame.get("stage") == "play":
            triple = frame["curAction"]
            play = PASS if triple[0] == "PASS" else from_triple(triple, levels[line.seat])
            assert play_triple(play) == triple
            kinds.add(triple[0])
    assert {"PASS", "Single", "Pair", "Trips", "ThreeWithTwo", "Straight", "Bomb"} <= kinds


def test_tribute_and_return_entries() -> None:
    assert action_entry(TributeAction(0, Card.parse("SB"))) == ["tribute", "tribute", ["SB"]]
    assert action_entry(ReturnAction(3, Card.parse("C8"))) == ["back", "back", ["C8"]]
    assert action_entry(PlayAction(1, PASS)) == ["PASS", "PASS", "PASS"]
    four = from_triple(["FourKings", "B", ["HR", "SB", "HR", "SB"]], Rank.TWO)
    assert play_triple(four) == ["FourKings", "B", ["SB", "SB", "HR", "HR"]]
