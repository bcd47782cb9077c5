"""The ladder's scheduler (docs/ladder-core.md#scheduling): each limit enforced, partners rotated, near
ratings meeting, and bad input refused naming what is wrong."""

from __future__ import annotations

import random
from collections import Counter
from itertools import combinations

import pytest

from cardroom.ladder import (
    HOUSE,
    BadLimitsError,
    Entrant,
    LadderError,
    LadderMatch,
    Limits,
    NotEnoughEntrantsError,
    Played,
    Scheduler,
    UnknownEntrantError,
    house_entrants,
)
from tests.ladder.helpers import TODAY, YESTERDAY, independent_draws, outsiders, pool_of, schedule_many

UNLIMITED = Scheduler(Limits(per_day=10_000))
"""No day limit: many matches are scheduled on one day."""


def keys_of(match: LadderMatch) -> set[str]:
    return set(match.entrants)


def test_a_match_is_four_different_eligible_entrants_in_two_teams_of_two() -> None:
    pool = pool_of(outsiders(6))
    for match in independent_draws(Scheduler(), pool, 30):
        assert len(match.team_a) == len(match.team_b) == 2
        assert len(keys_of(match)) == 4
        assert keys_of(match) <= set(pool.roster.entrants)
        assert 0 <= match.seed < 2**63


def test_the_same_draws_give_the_same_match() -> None:
    pool = pool_of(outsiders(9))
    assert schedule_many(UNLIMITED, pool, 20, seed=3) == schedule_many(UNLIMITED, pool, 20, seed=3)
    assert schedule_many(UNLIMITED, pool, 20, seed=3) != schedule_many(UNLIMITED, pool, 20, seed=4)


def test_matches_per_entrant_per_day() -> None:
    """An entrant that has played ``per_day`` matches today is left out until the next day; yesterday's
    matches do not count."""
    entrants = outsiders(7)
    tired, *others = [entrant.key for entrant in entrants]
    pool = pool_of(entrants)
    scheduler = Scheduler(Limits(per_day=2))
    two = [
        LadderMatch((tired, others[0]), (others[1], others[2]), 1),
        LadderMatch((tired, others[3]), (others[4], others[5]), 2),
    ]
    today = [Played(match, TODAY) for match in two]
    assert all(tired not in keys_of(match) for match in independent_draws(scheduler, pool, 40, history=today))
    assert scheduler.exclusions(pool.roster, [tired, *others], today, (), TODAY) == {
        tired: "has played 2 matches today (the limit is 2)"
    }
    yesterday = [Played(match, YESTERDAY) for match in two]
    assert any(tired in keys_of(match) for match in independent_draws(scheduler, pool, 40, history=yesterday))


def test_an_entrant_plays_one_match_at_a_time() -> None:
    entrants = outsiders(8)
    pool = pool_of(entrants)
    running = [Played(LadderMatch(("bot0#1", "bot1#1"), ("bot2#1", "bot3#1"), 1), TODAY)]
    for match in independent_draws(Scheduler(), pool, 20, running=running):
        assert keys_of(match) == {"bot4#1", "bot5#1", "bot6#1", "bot7#1"}


def test_one_owners_entrants_never_share_a_table() -> None:
    """Two entrants of one owner are never partners nor opponents in a rated ladder match."""
    entrants = [Entrant("alpha", "ann"), Entrant("beta", "ann"), *outsiders(4)]
    pool = pool_of(entrants)
    for match in [*independent_draws(Scheduler(), pool, 60), *schedule_many(UNLIMITED, pool, 60, seed=1)]:
        assert not {"alpha#1", "beta#1"} <= keys_of(match)
    # Five entrants of three owners make no table of four without two of one owner.
    crowded = [*entrants[:3], Entrant("gamma", "bob"), Entrant("delta", "bob")]
    with pytest.raises(NotEnoughEntrantsError, match=r"without two of one owner \(ann, bob, owner0\)"):
        independent_draws(Scheduler(), pool_of(crowded), 1)


def test_an_owner_with_one_entrant_plays_beside_anyone() -> None:
    """The owner rule keeps apart only one owner's several entrants: four owners of one entrant each
    always make a table."""
    pool = pool_of(outsiders(4))
    assert all(len(keys_of(match)) == 4 for match in independent_draws(Scheduler(), pool, 10))


def test_the_house_bots_share_tables_unless_the_house_is_held_to_the_owner_rule() -> None:
    house = house_entrants()
    pool = pool_of(house)
    matches = independent_draws(Scheduler(), pool, 5)
    assert all(keys_of(match) == {entrant.key for entrant in house} for match in matches)
    strict = Scheduler(Limits(house_owners=frozenset()))
    with pytest.raises(NotEnoughEntrantsError, match=f"without two of one owner \\({HOUSE}\\)"):
        independent_draws(strict, pool, 1)
    mixed = pool_of([*house, *outsiders(4)])
    for match in independent_draws(strict, mixed, 60):
        assert len(keys_of(match) & {entrant.key for entrant in house}) <= 1


def test_matches_at_once_per_owner() -> None:
    """An owner with ``per_owner`` matches running has none of its entrants in another."""
    ann = [Entrant(f"ann{number}", "ann") for number in range(3)]
    others = outsiders(7)
    pool = pool_of([*ann, *others])
    running = [Played(LadderMatch((ann[0].key, others[0].key), (others[1].key, others[2].key), 5), TODAY)]
    held = Scheduler(Limits(per_owner=1))
    for match in independent_draws(held, pool, 60, running=running):
        assert not keys_of(match) & {entrant.key for entrant in ann}
        assert not keys_of(match) & keys_of(running[0].match)
    reasons = held.exclusions(pool.roster, [ann[1].key], (), running, TODAY)
    assert reasons == {ann[1].key: "its owner 'ann' has 1 matches running (the limit is 1)"}
    looser = Scheduler(Limits(per_owner=2))
    assert any(
        keys_of(match) & {ann[1].key, ann[2].key}
        for match in independent_draws(looser, pool, 60, running=running)
    )


def test_the_house_is_not_held_to_matches_at_once() -> None:
    house = house_entrants()
    pool = pool_of([*house, *outsiders(4)])
    running = [Played(LadderMatch((house[0].key, "bot0#1"), ("bot1#1", "bot2#1"), 5), TODAY)]
    matches = independent_draws(Scheduler(Limits(per_owner=1)), pool, 30, running=running)
    assert any(keys_of(match) & {entrant.key for entrant in house[1:]} for match in matches)


def test_partners_rotate_over_many_matches() -> None:
    """Over 150 matches of six entrants each of the 15 pairs partners about 300 / 15 = 20 times: the
    scheduler prefers the pairs that have partnered least (drawing partners at random spreads them
    over 12 or more)."""
    entrants = outsiders(6)
    counts = Counter(
        pair for match in schedule_many(UNLIMITED, pool_of(entrants), 150, seed=8) for pair in match.partners
    )
    pairs = [frozenset((a.key, b.key)) for a, b in combinations(entrants, 2)]
    assert sum(counts.values()) == 300
    assert max(counts[pair] for pair in pairs) - min(counts[pair] for pair in pairs) <= 2
    rng = random.Random(8)
    shuffled: Counter[frozenset[str]] = Counter()
    for _ in range(150):
        four = rng.sample([entrant.key for entrant in entrants], 4)
        shuffled.update((frozenset(four[:2]), frozenset(four[2:])))
    assert max(shuffled.values()) - min(shuffled[pair] for pair in pairs) > 2


def test_partners_rotate_with_ratings_apart_too() -> None:
    """With the entrants' ratings spread, every pair still partners, and none twice as often as even."""
    entrants = outsiders(6)
    mus = {entrant.key: 15.0 + 3 * number for number, entrant in enumerate(entrants)}
    counts = Counter(
        pair
        for match in schedule_many(UNLIMITED, pool_of(entrants, mus), 150, seed=9)
        for pair in match.partners
    )
    assert len(counts) == 15
    assert max(counts.values()) <= 2 * 20


def test_near_ratings_meet_and_exploration_mixes_them() -> None:
    """Eight entrants, four rated near 40 and four near 10: without exploration every table is four of
    one group; exploring every time, mixed tables come too."""
    entrants = outsiders(8)
    mus = {
        entrant.key: (40.0 if number < 4 else 10.0) + number % 4 for number, entrant in enumerate(entrants)
    }
    pool = pool_of(entrants, mus)
    groups = [{entrant.key for entrant in entrants[:4]}, {entrant.key for entrant in entrants[4:]}]
    near = independent_draws(Scheduler(explore=0.0), pool, 40)
    assert all(keys_of(match) in groups for match in near)
    explored = independent_draws(Scheduler(explore=1.0), pool, 40)
    assert any(keys_of(match) not in groups for match in explored)


def test_the_teams_are_balanced_by_rating() -> None:
    """Of four entrants rated 40, 30, 20 and 10 the balanced teams are 40 + 10 against 30 + 20."""
    entrants = outsiders(4)
    mus = dict(zip([entrant.key for entrant in entrants], (40.0, 30.0, 20.0, 10.0), strict=True))
    for match in independent_draws(Scheduler(explore=0.0), pool_of(entrants, mus), 20):
        assert {match.partners[0], match.partners[1]} == {
            frozenset({"bot0#1", "bot3#1"}),
            frozenset({"bot1#1", "bot2#1"}),
        }


def test_those_who_have_played_least_today_are_seated_first() -> None:
    entrants = outsiders(8)
    pool = pool_of(entrants)
    keys = [entrant.key for entrant in entrants]
    busy = [Played(LadderMatch((keys[0], keys[1]), (keys[2], keys[3]), 1), TODAY)]
    for match in independent_draws(Scheduler(), pool, 20, history=busy):
        assert keys_of(match) & set(keys[4:])


def test_an_unknown_entrant_is_refused_by_name() -> None:
    pool = pool_of(outsiders(4))
    with pytest.raises(UnknownEntrantError, match="no entrant 'ghost#1' on the ladder's roster"):
        independent_draws(Scheduler(), pool, 1, ready=[*pool.roster.entrants, "ghost#1"])
    stranger = [Played(LadderMatch(("ghost#1", "bot0#1"), ("bot1#1", "bot2#1"), 1), TODAY)]
    with pytest.raises(UnknownEntrantError, match="ghost#1"):
        independent_draws(Scheduler(), pool, 1, history=stranger)


def test_fewer_than_four_eligible_is_refused_saying_why() -> None:
    entrants = outsiders(5)
    pool = pool_of(entrants)
    with pytest.raises(NotEnoughEntrantsError, match=r"four eligible entrants; 3 of the 3 ready are$"):
        independent_draws(Scheduler(), pool, 1, ready=[entrant.key for entrant in entrants[:3]])
    running = [Played(LadderMatch(("bot0#1", "bot1#1"), ("bot2#1", "bot3#1"), 1), TODAY)]
    with pytest.raises(NotEnoughEntrantsError, match=r"1 of the 5 ready are \(bot0#1 is playing a match;"):
        independent_draws(Scheduler(), pool, 1, running=running)


@pytest.mark.parametrize(
    ("limits", "message"),
    [
        ({"per_day": 0}, "per_day is a whole number of at least 1, got 0"),
        ({"per_day": 2.5}, "per_day is a whole number of at least 1, got 2.5"),
        ({"per_owner": -1}, "per_owner is a whole number of at least 1, got -1"),
        ({"per_owner": True}, "per_owner is a whole number of at least 1, got True"),
        ({"house_owners": {"house"}}, "house_owners is a frozenset of owners"),
    ],
)
def test_bad_limits_are_refused(limits: dict[str, object], message: str) -> None:
    with pytest.raises(BadLimitsError, match=message):
        Limits(**limits)  # type: ignore[arg-type]


def test_bad_exploration_and_bad_matches_are_refused() -> None:
    with pytest.raises(BadLimitsError, match=r"explore is a probability from 0 to 1, got 1\.5"):
        Scheduler(explore=1.5)
    with pytest.raises(LadderError, match="four different entrants"):
        LadderMatch(("a#1", "b#1"), ("a#1", "c#1"), 1)
