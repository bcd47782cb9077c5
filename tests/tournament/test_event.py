"""Events: registration, the recorded lots, pairing systems, results, standings, persistence, and a
whole 8-team, 5-round Swiss event of real bot matches."""

from __future__ import annotations

import json
import random
from collections import Counter

import pytest

from cardroom.tournament import (
    Criterion,
    Event,
    EventConfig,
    EventPhase,
    MatchFormat,
    PairingSystem,
    Player,
    RatingBook,
    ResultKind,
    ScoringRules,
    TableResult,
    Team,
    leaderboard,
    results_csv,
    sheet_from_match,
    standings_csv,
)
from cardroom.tournament.event import round_robin_rounds
from tests.tournament.helpers import bot_match, event_of, team


def test_registration() -> None:
    event = Event(EventConfig("淮安杯")).register(team(1))
    with pytest.raises(ValueError, match="registered already"):
        event.register(team(1))
    with pytest.raises(ValueError, match="another team"):
        event.register(Team("T9", (Player("p1a"), Player("x"))))
    with pytest.raises(ValueError, match="two different"):
        event.register(Team("T9", (Player("x"), Player("x"))))
    with pytest.raises(ValueError, match="two or more"):
        event.start(random.Random(1))
    event = event.register(team(2)).register(team(3))
    assert event.phase is EventPhase.REGISTRATION
    filled = event.fill_with_bots("heuristic")
    assert len(filled.teams) == 4
    assert filled.teams[-1].is_bot
    assert filled.teams[-1].players[0].bot == "heuristic"
    assert filled.fill_with_bots() == filled


def test_lots_are_seeded_and_recorded() -> None:
    """The lots come from the injected ``random.Random`` and are written into the event."""
    first = event_of(6, EventConfig(), seed=11)
    again = event_of(6, EventConfig(), seed=11)
    other = event_of(6, EventConfig(), seed=12)
    assert first.lots == again.lots
    assert sorted(first.lots) == sorted(t.id for t in first.teams)
    assert first.lots != other.lots
    assert [first.lot(team_id) for team_id in first.lots] == [1, 2, 3, 4, 5, 6]
    with pytest.raises(ValueError, match="closed"):
        first.register(team(7))


def test_systems() -> None:
    """Auto: a round robin when every team can meet every other, else Swiss."""
    assert event_of(4, EventConfig()).system is PairingSystem.ROUND_ROBIN
    assert event_of(4, EventConfig()).total_rounds == 3
    assert event_of(5, EventConfig()).total_rounds == 5
    assert event_of(8, EventConfig(rounds=5)).system is PairingSystem.SWISS
    assert event_of(8, EventConfig(rounds=7)).system is PairingSystem.ROUND_ROBIN
    short = event_of(8, EventConfig(rounds=3, system=PairingSystem.ROUND_ROBIN))
    assert short.total_rounds == 3
    with pytest.raises(ValueError, match="choose Swiss"):
        event_of(4, EventConfig(rounds=4))
    with pytest.raises(ValueError, match="number of rounds"):
        EventConfig(system=PairingSystem.SWISS)
    assert [round_robin_rounds(n) for n in (2, 3, 8, 9)] == [1, 3, 7, 9]


def test_round_robin_event_to_the_end() -> None:
    """Four teams, three rounds; pairing waits for every result; the lower lot wins every match, so
    the standings follow the lots by points alone."""
    event = event_of(4, EventConfig(format=MatchFormat.fixed_deals(8)))
    with pytest.raises(KeyError):
        event.round(1)
    for number in range(1, 4):
        event = event.pair_next_round()
        with pytest.raises(ValueError, match="without a result"):
            event.pair_next_round()
        for pairing in event.round(number).pairings:
            better = min(pairing.teams, key=event.lot)
            levels = (9, 5) if pairing.teams[0] == better else (5, 9)
            event = event.record(number, pairing.table, TableResult.played(levels, 8))
    assert event.phase is EventPhase.FINISHED
    with pytest.raises(ValueError, match="finished"):
        event.pair_next_round()
    rows = event.standings()
    assert [row.team for row in rows] == list(event.lots)
    assert [row.tally.points for row in rows] == [6, 4, 2, 0]
    assert [row.above for row in rows] == [None, Criterion.POINTS, Criterion.POINTS, Criterion.POINTS]
    met = Counter(frozenset(p.teams) for played in event.rounds for p in played.pairings)
    assert len(met) == 6
    assert set(met.values()) == {1}


def test_rule_all_drawn_goes_to_the_lots() -> None:
    """ "仍相等，则抽签决定": every match drawn at the same levels leaves only the lots."""
    event = event_of(
        4, EventConfig(format=MatchFormat.fixed_deals(8, tie_extra_deal=False))
    ).pair_next_round()
    for pairing in event.round(1).pairings:
        event = event.record(1, pairing.table, TableResult.played((7, 7), 8))
    rows = event.standings()
    assert [row.team for row in rows] == list(event.lots)
    assert [row.above for row in rows][1:] == [Criterion.LOTS] * 3


def test_forfeit_and_correction() -> None:
    event = event_of(4, EventConfig()).pair_next_round()
    pairing = event.round(1).pairings[0]
    event = event.record_forfeit(1, pairing.table, pairing.teams[0])
    result = event.round(1).result(pairing.table)
    assert result is not None
    assert result.kind is ResultKind.FORFEIT
    assert result.winner == 1
    corrected = event.record(1, pairing.table, TableResult.played((8, 3), 10))
    assert corrected.round(1).pairings == event.round(1).pairings
    assert corrected.round(1).result(pairing.table) == TableResult.played((8, 3), 10)
    with pytest.raises(KeyError, match="no table 9"):
        event.record(1, 9, result)


def test_bye_scores_in_the_standings() -> None:
    event = event_of(3, EventConfig()).pair_next_round()
    bye = event.round(1).draw.bye
    assert bye is not None
    (pairing,) = event.round(1).pairings
    event = event.record(1, pairing.table, TableResult.played((5, 5), 8))
    rows = {row.team: row for row in event.standings()}
    assert rows[bye].tally.points == 2
    assert rows[bye].rank == 1
    assert rows[bye].tally.rounds[0].is_bye


def test_json_round_trip() -> None:
    config = EventConfig("秋季赛", MatchFormat.timed(50, deals=8), rounds=3)
    event = event_of(7, config).pair_next_round()
    pairing = event.round(1).pairings[1]
    event = event.record(1, pairing.table, TableResult.played((10, 6), 7))
    data = json.loads(json.dumps(event.to_dict(), ensure_ascii=False))
    assert Event.from_dict(data) == event


def test_seat_players() -> None:
    event = event_of(2, EventConfig()).pair_next_round()
    (pairing,) = event.round(1).pairings
    seats = event.seat_players(pairing)
    first, second = (event.team(team_id) for team_id in pairing.teams)
    assert seats == (first.players[0], second.players[0], first.players[1], second.players[1])


def test_whole_swiss_event_with_bot_matches() -> None:
    """8 teams, 5 Swiss rounds, every match four random bots playing 2 deals (one more while level):
    the results, sheets, standings, ratings and CSV of a whole event, end to end."""
    fmt = MatchFormat.fixed_deals(2)
    event = event_of(8, EventConfig("八队瑞士制", fmt, rounds=5), seed=2024)
    assert event.system is PairingSystem.SWISS
    book = RatingBook()
    seed = 0
    while event.phase is EventPhase.RUNNING:
        event = event.pair_next_round()
        played = event.rounds[-1]
        assert len(played.pairings) == 4
        assert played.draw.bye is None
        for pairing in played.pairings:
            seed += 1
            match, outcome = bot_match(fmt, seed)
            result = TableResult.from_outcome(outcome)
            assert result.levels == match.level_values()
            assert result.deals == len(match.summaries) >= 2
            seats = event.seat_players(pairing)
            ids = (seats[0].id, seats[1].id, seats[2].id, seats[3].id)
            sheet = sheet_from_match(played.number, pairing.table, pairing.teams, ids, match, result)
            sheet = sheet.sign(0).sign(1)
            assert sheet.final
            assert sheet.result == result
            assert sheet.lines[-1].levels_after == result.levels
            event = event.record(played.number, pairing.table, result)
            sides = ((seats[0].id, seats[2].id), (seats[1].id, seats[3].id))
            book = book.rate(sides, result.winner, match)
    assert event.phase is EventPhase.FINISHED
    assert len(event.rounds) == 5
    met = Counter(frozenset(p.teams) for played in event.rounds for p in played.pairings)
    assert sum(met.values()) == 20
    assert set(met.values()) == {1}, "no pairing repeats"
    rows = event.standings()
    assert sum(row.tally.points for row in rows) == 2 * 20
    keys = [row.tally.key() for row in rows]
    assert keys == sorted(keys)
    assert all(len(row.tally.rounds) == 5 for row in rows)
    at_02 = Counter(p.teams[0] for played in event.rounds for p in played.pairings)
    assert all(at_02[t.id] in (2, 3) for t in event.teams), "sides alternate: 2 or 3 rounds of 5 at 0 & 2"
    assert all(book.get(player.id).matches == 5 for t in event.teams for player in t.players)
    board = leaderboard(book)
    assert len(board) == 16
    assert len(results_csv(event).splitlines()) == 1 + 20
    assert len(standings_csv(event).splitlines()) == 1 + 8
    assert Event.from_dict(json.loads(json.dumps(event.to_dict()))) == event
    assert RatingBook().rate_event(event).get(event.teams[0].players[0].id).matches == 5


def test_rule_an_event_ranks_by_its_level_difference_table() -> None:
    """competition.md#tie-breaks (*Reading*): the event's scoring names the table of its 级差分; it is
    kept through JSON, an event stored before the choice reads as 26, and the CSV names it."""
    config = EventConfig("秋季赛", MatchFormat.fixed_deals(8), scoring=ScoringRules(level_table=28))
    event = event_of(2, config).pair_next_round()
    (pairing,) = event.round(1).pairings
    event = event.record(1, pairing.table, TableResult.played((6, 2), 8))
    rows = event.standings()
    assert [(row.tally.level_difference, row.tally.level_table) for row in rows] == [(18, 28), (10, 28)]
    data = json.loads(json.dumps(event.to_dict(), ensure_ascii=False))
    assert data["config"]["scoring"]["level_table"] == 28
    assert Event.from_dict(data) == event
    del data["config"]["scoring"]["level_table"]
    older = Event.from_dict(data)
    assert older.config.scoring.level_table == 26
    assert [row.tally.level_difference for row in older.standings()] == [17, 9]
    csv_rows = standings_csv(event).splitlines()
    assert csv_rows[0].split(",")[-1] == "level_table"
    assert [line.split(",")[-1] for line in csv_rows[1:]] == ["28", "28"]
