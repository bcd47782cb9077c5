"""The director's records in an event (docs/tournaments.md, "The director's day"): penalties by hand,
results entered and corrected inside the correction window or past it by override, withdrawals and
disqualifications, late entries, appeals with their rulings, and event data written before these
records existed still read."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta

import pytest

from cardroom.tournament import (
    CorrectionWindowError,
    Event,
    EventConfig,
    EventPhase,
    MatchFormat,
    PairingSystem,
    Penalty,
    ResultKind,
    TableResult,
    results_csv,
)
from tests.tournament.helpers import event_of, team

START = datetime(2026, 5, 1, 14, 0, tzinfo=UTC)


def after(minutes: float) -> datetime:
    return START + timedelta(minutes=minutes)


def swiss(count: int = 4, rounds: int = 3) -> Event:
    return event_of(count, EventConfig("淮安杯", MatchFormat.fixed_deals(8), rounds, PairingSystem.SWISS))


def finish_round(event: Event, at: datetime) -> Event:
    played = event.current_round
    assert played is not None
    for pairing in played.pairings:
        if played.result(pairing.table) is None:
            event = event.record(played.number, pairing.table, TableResult.played((10, 6), 8), at=at, by="Li")
    return event


# -- results and corrections -------------------------------------------------------------------------


def test_every_entry_is_kept_with_who_when_and_why() -> None:
    event = swiss().pair_next_round().start_round(START)
    event = event.record(1, 1, TableResult.played((10, 6), 8), at=after(50), by="Li", reason="score sheet")
    event = event.record(1, 1, TableResult.played((10, 7), 8), at=after(52), by="Li", reason="sheet misread")
    first, correction = event.round(1).changes
    assert (first.is_correction, first.by, first.reason, first.at) == (False, "Li", "score sheet", after(50))
    assert correction.previous == first.result
    assert (correction.result.levels, correction.reason, correction.override) == (
        (10, 7),
        "sheet misread",
        False,
    )
    assert event.round(1).ended_at is None, "table 2 is still playing: the round has not ended"


def test_rule_correction_window_ten_minutes_after_the_round() -> None:
    """Corrections: "录入错误，应在一轮比赛结束后10分钟之内指出，可以更正" — 10:00 after the end is inside,
    later needs the director's override with a reason."""
    event = finish_round(swiss().pair_next_round().start_round(START), after(60))
    assert event.round(1).ended_at == after(60)
    assert event.correction_deadline(1) == after(70)
    fixed = event.record(1, 2, TableResult.played((9, 6), 8), at=after(70), by="Li", reason="typed 10 for 9")
    assert fixed.round(1).result(2) == TableResult.played((9, 6), 8)
    with pytest.raises(CorrectionWindowError, match="closed at 2026-05-01T15:10:00"):
        event.record(1, 2, TableResult.played((9, 6), 8), at=after(70.02), by="Li", reason="typed 10 for 9")
    overridden = event.record(
        1,
        2,
        TableResult.played((9, 6), 8),
        at=after(90),
        by="Zhang",
        reason="typed 10 for 9",
        override="sheet signed 9",
    )
    change = overridden.round(1).changes[-1]
    assert change.override
    assert change.by == "Zhang"
    assert "override: sheet signed 9" in change.reason
    assert overridden.round(1).pairings == event.round(1).pairings, "成绩更正不改变已公布的编排"


def test_correction_window_set_by_the_chief_referee() -> None:
    """Corrections: "裁判长可以另行规定更短或更长的更正时限"."""
    config = EventConfig("短", MatchFormat.fixed_deals(8), 3, PairingSystem.SWISS, correction_minutes=2)
    event = finish_round(event_of(4, config).pair_next_round(), after(60))
    with pytest.raises(CorrectionWindowError):
        event.record(1, 1, TableResult.played((9, 6), 8), at=after(63))


# -- penalties by hand ---------------------------------------------------------------------------------


def test_rule_penalties_by_hand_escalate_and_forfeit() -> None:
    """penalties: each penalty names the player, the seat, the reason, who and when; two violations
    make a foul, two fouls a forfeit, and a 判负 makes the table's result the side's forfeit."""
    event = swiss().pair_next_round().start_round(START)
    pairing = event.round(1).pairing(1)
    players = event.seat_players(pairing)
    east = players[1].id
    with pytest.raises(ValueError, match="needs its reason"):
        event.penalise(1, 1, east, Penalty.WARNING, " ")
    with pytest.raises(ValueError, match="no player 'p9a' at table 1"):
        event.penalise(1, 1, "p9a", Penalty.WARNING, "x")
    event = event.penalise(1, 1, east, Penalty.VIOLATION, "信号", at=after(12), by="Wang")
    entry = event.round(1).penalties[0]
    assert (entry.team, entry.player, entry.seat, entry.penalty) == (
        pairing.teams[1],
        east,
        1,
        Penalty.VIOLATION,
    )
    assert (entry.reason, entry.by, entry.at) == ("信号", "Wang", after(12))
    event = event.penalise(1, 1, players[3].id, Penalty.VIOLATION, "信号", at=after(20), by="Wang")
    assert [entry.penalty for entry in event.round(1).penalties] == [
        Penalty.VIOLATION,
        Penalty.VIOLATION,
        Penalty.FOUL,
    ]
    assert event.round(1).result(1) is None
    event = event.penalise(1, 1, east, Penalty.FORFEIT, "拒绝服从判罚", at=after(30), by="Zhang")
    result = event.round(1).result(1)
    assert result is not None
    assert result.kind is ResultKind.FORFEIT
    assert result.forfeited_by == 1
    assert event.round(1).changes[-1].reason == "判负: 拒绝服从判罚"
    with pytest.raises(ValueError, match="already decided by a forfeit"):
        event.penalise(1, 1, players[0].id, Penalty.WARNING, "late", at=after(31))


def test_rule_forfeit_a_table_decided_by_forfeit_keeps_its_result() -> None:
    """forfeit (docs/rules/competition.md#forfeit): 判负 ends the match at once. A table whose result is a
    forfeit (the card room's clocks escalated to 判负, or a 弃权) takes no more penalties: a 犯规 that
    would escalate to 判负 never rewrites the decided result (its levels and deals)."""
    event = swiss().pair_next_round().start_round(START)
    players = event.seat_players(event.round(1).pairing(1))
    event = event.penalise(1, 1, players[1].id, Penalty.FOUL, "信号", at=after(5), by="Wang")
    clocks = TableResult.forfeit(1, (5, 2), 1)
    event = event.record(1, 1, clocks, at=after(20))
    for penalty in (Penalty.FOUL, Penalty.WARNING, Penalty.FORFEIT):
        with pytest.raises(ValueError, match="table 1 is already decided by a forfeit"):
            event.penalise(1, 1, players[1].id, penalty, "骂人", at=after(21), by="Wang")
        with pytest.raises(ValueError, match="already decided by a forfeit"):
            event.penalty_outcome(1, 1, players[1].id, penalty)
    assert event.round(1).result(1) == clocks
    assert len(event.round(1).penalties) == 1


def test_rule_penalties_a_foul_escalating_to_forfeit_keeps_the_table_levels() -> None:
    """penalties (docs/rules/competition.md#penalties, #forfeit): the second 犯规 of a side is a 判负;
    :meth:`Event.penalty_outcome` says so before it is given (the director confirms it), and the
    forfeit that corrects a result already entered keeps its table levels and deals played."""
    event = swiss().pair_next_round().start_round(START)
    players = event.seat_players(event.round(1).pairing(1))
    assert event.penalty_outcome(1, 1, players[1].id, Penalty.FOUL) is Penalty.FOUL
    event = event.penalise(1, 1, players[1].id, Penalty.FOUL, "信号", at=after(5), by="Wang")
    assert event.penalty_outcome(1, 1, players[3].id, Penalty.FOUL) is Penalty.FORFEIT
    assert event.penalty_outcome(1, 1, players[3].id, Penalty.WARNING) is Penalty.WARNING
    assert event.penalty_outcome(1, 1, players[0].id, Penalty.FOUL) is Penalty.FOUL, "the other side's first"
    event = event.record(1, 1, TableResult.played((2, 5), 1), at=after(20))
    event = event.penalise(1, 1, players[3].id, Penalty.FOUL, "骂人", at=after(21), by="Wang")
    result = event.round(1).result(1)
    assert result is not None
    assert result.forfeited_by == 1
    assert (result.table_levels, result.deals) == ((2, 5), 1)


def test_penalties_show_in_the_results_csv() -> None:
    event = swiss().pair_next_round().start_round(START)
    player = event.seat_players(event.round(1).pairing(2))[0]
    event = event.penalise(1, 2, player.id, Penalty.WARNING, "slow play", at=after(5), by="Wang")
    rows = results_csv(event).splitlines()
    assert "penalties" in rows[0].split(",")
    table_2 = next(row for row in rows[1:] if row.split(",")[1] == "2")
    assert f"{player.display} 警告 (slow play)" in table_2


# -- withdrawals, disqualifications, late entries ---------------------------------------------------


def test_withdrawal_forfeits_the_current_table_and_leaves_swiss_pairing() -> None:
    event = swiss(5).pair_next_round()
    leaving = event.round(1).pairings[0].teams[1]
    with pytest.raises(ValueError, match="needs its reason"):
        event.withdraw(leaving, "")
    event = event.withdraw(leaving, "illness", at=after(3), by="Zhang")
    result = event.round(1).result(1)
    assert result is not None
    assert result.forfeited_by == 1
    assert event.round(1).changes[-1].reason == "退赛: illness"
    with pytest.raises(ValueError, match="out of the event already"):
        event.withdraw(leaving, "again")
    event = finish_round(event, after(60)).pair_next_round()
    paired = [team for pairing in event.round(2).pairings for team in pairing.teams]
    assert leaving not in paired, "a Swiss round leaves a withdrawn team out"
    assert len(paired) == 4
    assert event.round(2).draw.bye is None, "four teams left: no bye"
    assert leaving in [row.team for row in event.standings()], "its results stand"


def test_disqualification_in_a_round_robin_forfeits_the_remaining_rounds() -> None:
    event = event_of(4, EventConfig("循环", MatchFormat.fixed_deals(8)))
    event = finish_round(event.pair_next_round(), after(60))
    out = event.lots[0]
    event = event.withdraw(out, "冒名顶替", by="组委会", disqualify=True)
    assert event.withdrawal_of(out).label == "取消资格"
    assert event.withdrawal_of(out).last_round == 1
    event = event.pair_next_round()
    table = event.round(2).table_of(out)
    result = event.round(2).result(table.table)
    assert result is not None
    assert result.forfeited_by == table.teams.index(out)
    assert event.round(2).changes[0].reason == "取消资格: 冒名顶替"


def test_withdrawal_before_the_start_unregisters() -> None:
    event = Event(EventConfig()).register(team(1)).register(team(2))
    assert [t.id for t in event.withdraw("T2", "changed plans").teams] == ["T1"]


def test_late_entry_before_a_swiss_round() -> None:
    event = finish_round(swiss().pair_next_round(), after(60))
    event = event.enter_late(team(5))
    assert event.lot("T5") == 5
    event = event.pair_next_round()
    assert "T5" in event.round(2).draw.teams()
    with pytest.raises(ValueError, match="under way"):
        event.enter_late(team(6))
    round_robin = event_of(4, EventConfig()).pair_next_round()
    with pytest.raises(ValueError, match="no late entries"):
        round_robin.enter_late(team(6))


def test_pairing_a_finished_event_says_so() -> None:
    event = swiss(rounds=1).pair_next_round()
    event = finish_round(event, after(60))
    assert event.phase is EventPhase.FINISHED
    with pytest.raises(ValueError, match=r"^the event is finished: its last round \(round 1\) is complete"):
        event.pair_next_round()


def test_a_forfeit_by_a_team_not_at_the_table_names_the_teams_there() -> None:
    event = swiss().pair_next_round()
    first, _second = event.round(1).pairing(1).teams
    elsewhere = event.round(1).pairing(2).teams[0]
    with pytest.raises(
        ValueError, match=f"team {elsewhere} is not at table 1 in round 1: the teams there are {first}"
    ):
        event.record_forfeit(1, 1, elsewhere)


# -- appeals -------------------------------------------------------------------------------------------


def test_rule_appeal_window_and_ruling() -> None:
    """Appeals: "应在该轮比赛结束后30分钟内提出"; the ruling and who made it are recorded, and final."""
    event = finish_round(swiss().pair_next_round(), after(60))
    appellant = event.round(1).pairing(1).teams[0]
    event = event.file_appeal(1, 1, appellant, "the foul in deal 3", at=after(90), by="队长")
    with pytest.raises(ValueError, match="closed 30 minutes after"):
        event.file_appeal(1, 1, appellant, "another", at=after(90.5))
    late = event.file_appeal(1, 1, appellant, "another", at=after(95), override="the referee was away")
    assert late.appeals[-1].override
    with pytest.raises(ValueError, match="not at table 1"):
        event.file_appeal(1, 1, event.round(1).pairing(2).teams[0], "x", at=after(61))
    event = event.rule_appeal(1, "判罚正确，维持原判", upheld=False, by="仲裁委员会", at=after(120))
    appeal = event.appeals[0]
    assert (appeal.decided, appeal.upheld, appeal.ruled_by, appeal.ruled_at) == (
        True,
        False,
        "仲裁委员会",
        after(120),
    )
    with pytest.raises(ValueError, match="decided already"):
        event.rule_appeal(1, "changed", upheld=True, by="x")


# -- persistence ---------------------------------------------------------------------------------------


def test_the_director_records_round_trip_and_old_data_reads() -> None:
    event = swiss().pair_next_round().start_round(START)
    first, second = event.round(1).pairing(1).teams
    event = event.arrive(first, after(1)).arrive(second, after(6))
    event = event.penalise(
        1, 2, event.seat_players(event.round(1).pairing(2))[2].id, Penalty.WARNING, "x", at=after(7)
    )
    event = finish_round(event, after(60)).withdraw(second, "tired", at=after(61), by="Li")
    event = event.file_appeal(1, 1, first, "levels", at=after(62))
    data = json.loads(json.dumps(event.to_dict()))
    assert Event.from_dict(data) == event
    old = json.loads(json.dumps(data))
    for key in ("withdrawals", "appeals"):
        del old[key]
    for key in ("correction_minutes", "appeal_minutes"):
        del old["config"][key]
    for played in old["rounds"]:
        for key in ("started_at", "ended_at", "arrivals", "penalties", "changes"):
            del played[key]
    restored = Event.from_dict(old)
    assert restored.round(1).results == event.round(1).results
    assert restored.round(1).started_at is None
    assert restored.config.correction_minutes == 10
