"""Playing ladder matches in this process with the arena's duplicate games
(docs/ladder-core.md#runner), and a stronger house bot rising above random on the ladder."""

from __future__ import annotations

import random
from datetime import date

import pytest

from cardroom.arena import ArenaError
from cardroom.ladder import (
    Entrant,
    InProcessRunner,
    LadderError,
    LadderFormat,
    LadderMatch,
    LadderPool,
    Limits,
    Played,
    Roster,
    Scheduler,
    UnknownEntrantError,
    house_entrants,
    house_makers,
)
from cardroom.ladder.runner import BotMaker
from cardroom.records import replay
from tests.arena.bots import OutOfTurnBot

MATCH = LadderMatch(("heuristic#1", "r1#1"), ("random#1", "r2#1"), 11)


def makers() -> dict[str, BotMaker]:
    found = house_makers(house_entrants(("random", "heuristic")))
    found["r1#1"] = found["r2#1"] = found["random#1"]
    return found


def test_a_match_plays_every_deal_twice_with_the_teams_swapped() -> None:
    result = InProcessRunner(makers(), LadderFormat(deal_pairs=2)).play(MATCH)
    assert [(o.index, o.swapped, o.team_a) for o in result.outcomes] == [
        (0, False, 0),
        (0, True, 1),
        (1, False, 0),
        (1, True, 1),
    ]
    assert len(result.records) == 4
    direct, swapped = result.records[:2]
    assert direct["seats"] == ["A heuristic#1", "B random#1", "A r1#1", "B r2#1"]
    assert swapped["seats"] == ["B random#1", "A heuristic#1", "B r2#1", "A r1#1"]
    assert direct["deals"][0]["hands"] == swapped["deals"][0]["hands"]
    assert direct["meta"]["ladder"] == {
        "team_a": ["heuristic#1", "r1#1"],
        "team_b": ["random#1", "r2#1"],
        "seed": 11,
    }
    for record in result.records:
        assert replay(record).ok


def test_the_same_match_gives_the_same_result_and_another_seed_another() -> None:
    runner = InProcessRunner(makers(), keep_records=False)
    first = runner.play(MATCH)
    assert first == runner.play(MATCH)
    assert first.records == ()
    other = runner.play(LadderMatch(MATCH.team_a, MATCH.team_b, 12))
    assert other.outcomes != first.outcomes


def test_a_refused_action_stops_the_match_naming_the_entrant_and_its_seat() -> None:
    bots = makers()
    bots["r2#1"] = lambda seed: OutOfTurnBot(random.Random(seed))
    with pytest.raises(ArenaError, match=r"deal 0 \(direct\), deal 1: bot 'r2#1' at seat 3 answered"):
        InProcessRunner(bots).play(MATCH)


def test_an_entrant_without_a_bot_here_or_an_unregistered_house_bot_is_refused() -> None:
    with pytest.raises(UnknownEntrantError, match="no bot in this process for r2#1"):
        InProcessRunner({key: maker for key, maker in makers().items() if key != "r2#1"}).play(MATCH)
    with pytest.raises(UnknownEntrantError, match=r"nobody#1: no registered bot 'nobody'; known: .*random"):
        house_makers([Entrant("nobody", "house")])
    with pytest.raises(LadderError, match="at least one pair of deals, got 0"):
        LadderFormat(deal_pairs=0)


def test_the_heuristic_rises_above_random_on_the_ladder() -> None:
    """Five entrants (the house's random and heuristic bots, three outsiders' random bots), 36 matches
    of one deal pair each scheduled, played and rated: the heuristic heads the standings, its low end
    above every random bot's rating."""
    outsiders = [Entrant(f"r{number}", f"owner{number}") for number in range(3)]
    roster = Roster.of([*house_entrants(("random", "heuristic")), *outsiders])
    bots = house_makers(house_entrants(("random", "heuristic")))
    for entrant in outsiders:
        bots[entrant.key] = bots["random#1"]
    pool = LadderPool(roster)
    scheduler = Scheduler(Limits(per_day=1000))
    runner = InProcessRunner(bots, LadderFormat(deal_pairs=1), keep_records=False)
    rng = random.Random(2026)
    history: list[Played] = []
    today = date(2026, 12, 6)
    for _ in range(36):
        match = scheduler.next_match(pool, list(roster.entrants), history=history, today=today, rng=rng)
        result = runner.play(match)
        pool = pool.rate(match.team_a, match.team_b, result.winner)
        history.append(Played(match, today))
    standings = pool.standings()
    assert standings[0].entrant.key == "heuristic#1"
    assert all(standings[0].low > row.mu for row in standings[1:])
    assert sum(row.matches for row in standings) == 36 * 4
