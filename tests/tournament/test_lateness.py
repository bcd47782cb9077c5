"""Lateness (迟到) by the competition rules, docs/rules/competition.md#late: the round is published, then
declared started; a side seated up to 5:00 late is warned, up to 10:00 fouled, later forfeits; of two late
sides the earlier is warned and the later judged by its time. "以内" includes its bound (docs/tournaments.md,
"Lateness"). Every time is given, no clock is read: the tests take no real time."""

from __future__ import annotations

import random
from datetime import UTC, datetime, timedelta

import pytest

from cardroom.guandan.deal import Phase
from cardroom.guandan.match import Match
from cardroom.guandan.rulings import foul_places
from cardroom.tournament import (
    Clocks,
    Event,
    EventConfig,
    MatchFormat,
    Offence,
    Penalty,
    ResultKind,
    Team,
    judge_lateness,
    late_penalty,
)
from cardroom.tournament.lateness import late_foul_deals, late_foul_seat, rule_late_foul
from tests.tournament.helpers import event_of

START = datetime(2026, 5, 1, 14, 0, tzinfo=UTC)


def after(minutes: int, seconds: int = 0) -> datetime:
    return START + timedelta(minutes=minutes, seconds=seconds)


@pytest.mark.parametrize(
    ("minutes", "seconds", "penalty"),
    [
        (0, 0, None),
        (0, 1, Penalty.WARNING),
        (5, 0, Penalty.WARNING),
        (5, 1, Penalty.FOUL),
        (10, 0, Penalty.FOUL),
        (10, 1, Penalty.FORFEIT),
    ],
)
def test_rule_late_boundaries(minutes: int, seconds: int, penalty: Penalty | None) -> None:
    """late: "迟到5分钟以内，给予警告。迟到10分钟以内，判犯规。迟到超过10分钟，按弃权处理" — 以内
    includes 5:00 and 10:00; seated at the start is on time."""
    assert late_penalty(minutes * 60 + seconds) is penalty
    seated, on_time = judge_lateness(START, (after(minutes, seconds), START), after(20))
    assert (seated.penalty, seated.final, on_time.penalty) == (penalty, True, None)


def test_rule_late_seated_before_the_start_is_on_time() -> None:
    """late: only a side not seated once the round is declared started is late."""
    early, on_time = judge_lateness(START, (START - timedelta(minutes=9), START), after(1))
    assert (early.penalty, early.late_s, on_time.penalty) == (None, 0.0, None)


def test_rule_late_missing_side_forfeits_only_after_ten_minutes() -> None:
    """late: a side still missing is not judged until it comes, unless it passes 10:00 (弃权)."""
    _, missing = judge_lateness(START, (START, None), after(10))
    assert (missing.seated, missing.penalty, missing.final) == (False, Penalty.FOUL, False)
    _, missing = judge_lateness(START, (START, None), after(10, 1))
    assert (missing.penalty, missing.final) == (Penalty.FORFEIT, True)


@pytest.mark.parametrize(
    ("first", "second", "penalties"),
    [
        ((3, 0), (7, 0), (Penalty.WARNING, Penalty.FOUL)),
        ((7, 0), (9, 0), (Penalty.WARNING, Penalty.FOUL)),
        ((7, 0), (12, 0), (Penalty.WARNING, Penalty.FORFEIT)),
        ((5, 1), (5, 2), (Penalty.WARNING, Penalty.FOUL)),
        ((6, 0), (6, 0), (Penalty.FOUL, Penalty.FOUL)),
    ],
)
def test_rule_late_both_sides(
    first: tuple[int, int], second: tuple[int, int], penalties: tuple[Penalty, Penalty]
) -> None:
    """late: "如双方均迟到，较早到的一方给予警告，较晚到的一方按迟到时间给予判罚" (seated at the same
    moment, neither came first: each is judged by its time)."""
    verdicts = judge_lateness(START, (after(*first), after(*second)), after(30))
    assert tuple(verdict.penalty for verdict in verdicts) == penalties


def test_rule_late_seated_side_is_the_earlier_while_the_other_is_missing() -> None:
    """late: a side seated 7:00 late while the other is still missing came first: a warning, final."""
    seated, missing = judge_lateness(START, (after(7), None), after(8))
    assert (seated.penalty, seated.final) == (Penalty.WARNING, True)
    assert (missing.penalty, missing.final) == (Penalty.FOUL, False)


def test_rule_late_limits_follow_the_clocks() -> None:
    """late: the limits are the conduct policy's clocks (a chief referee may set others)."""
    assert late_penalty(4 * 60, Clocks(late_warning_minutes=3, late_foul_minutes=6)) is Penalty.FOUL


# -- the event: publish, start, arrivals -------------------------------------------------------------


def four_teams() -> Event:
    event = event_of(4, EventConfig("淮安杯", MatchFormat.fixed_deals(8), rounds=3)).pair_next_round()
    return event


def test_publishing_and_starting_are_two_steps() -> None:
    event = four_teams()
    played = event.round(1)
    assert played.started_at is None, "pairing publishes the round; it is not started"
    with pytest.raises(ValueError, match="not started"):
        played.lateness(1, START, event.config.conduct.clocks)
    early = played.pairings[0].teams[0]
    event = event.arrive(early, START - timedelta(minutes=5))
    assert event.round(1).penalties == (), "a team seated before the start is not judged"
    event = event.start_round(START)
    assert event.round(1).started_at == START
    with pytest.raises(ValueError, match="was started at"):
        event.start_round(after(1))
    with pytest.raises(ValueError, match="UTC offset"):
        four_teams().start_round(datetime(2026, 5, 1, 14, 0))


def test_rule_late_recorded_per_side_at_the_event() -> None:
    """late: warnings and fouls are recorded as the sides sit down, a forfeit at 10:01 makes the table's
    result the missing side's forfeit (17 : 0), and nothing is judged at a table of sides on time."""
    event = four_teams().start_round(START)
    (one_a, one_b), (two_a, two_b) = (pairing.teams for pairing in event.round(1).pairings)
    event = event.arrive(one_a, START).arrive(one_b, after(5, 1))
    (foul,) = event.round(1).penalties
    assert (foul.team, foul.penalty, foul.offence, foul.reason) == (
        one_b,
        Penalty.FOUL,
        Offence.LATE,
        "迟到5分01秒",
    )
    event = event.arrive(two_a, after(5))
    (_, warning) = event.round(1).penalties
    assert (warning.team, warning.penalty) == (two_a, Penalty.WARNING), "seated first while two_b is missing"
    assert event.settle_lateness(after(10)).round(1).result(2) is None, "10:00 is still a foul, not a forfeit"
    event = event.settle_lateness(after(10, 1))
    forfeit = event.round(1).penalties[-1]
    assert (forfeit.team, forfeit.penalty, forfeit.reason) == (two_b, Penalty.FORFEIT, "迟到10分01秒仍未入座")
    assert (forfeit.label, foul.label, warning.label) == ("弃权", "犯规", "警告"), (
        "按弃权处理: its name is 弃权"
    )
    result = event.round(1).result(2)
    assert result is not None
    assert result.kind is ResultKind.FORFEIT
    assert result.score28 == (17, 0)
    assert result.forfeited_by == 1
    (change,) = event.round(1).changes
    assert change.reason.startswith("弃权")
    assert change.at == after(10, 1)
    assert event.settle_lateness(after(30)).round(1).penalties == event.round(1).penalties, "judged once"
    with pytest.raises(ValueError, match="has its result already"):
        event.arrive(two_b, after(11))


def test_rule_late_both_sides_missing_both_forfeit() -> None:
    """late: two sides missing past 10:00 both forfeit (弃权); the rules give no result for the table, so
    it is left to the director."""
    event = four_teams().start_round(START)
    first, second = event.round(1).pairings[0].teams
    event = event.settle_lateness(after(10, 1))
    penalties = event.round(1).table_penalties(1)
    assert {(entry.team, entry.penalty) for entry in penalties} == {
        (first, Penalty.FORFEIT),
        (second, Penalty.FORFEIT),
    }
    assert event.round(1).result(1) is None


def test_rule_late_warning_counts_towards_a_violation() -> None:
    """penalties: a late warning is one of the side's two warnings that make a violation."""
    event = four_teams().start_round(START)
    first, second = event.round(1).pairings[0].teams
    event = event.arrive(first, after(2)).arrive(second, START)
    player = event.team(first).players[1].id
    event = event.penalise(1, 1, player, Penalty.WARNING, "talking across the table", at=after(20), by="Wang")
    assert [(e.penalty, e.escalated) for e in event.round(1).table_penalties(1)] == [
        (Penalty.WARNING, False),
        (Penalty.WARNING, False),
        (Penalty.VIOLATION, True),
    ]


def test_bots_are_seated_at_the_start() -> None:
    bots = Event(EventConfig(rounds=3))
    for index in range(1, 5):
        bots = bots.register(Team.of_bots(f"B{index}", "random"))
    bots = bots.start(random.Random(1)).pair_next_round().start_round(START)
    assert {arrival.team for arrival in bots.round(1).arrivals} == {"B1", "B2", "B3", "B4"}
    assert bots.settle_lateness(after(30)).round(1).penalties == ()


def test_rule_late_foul_ends_the_first_deal_as_the_late_sides_double_down() -> None:
    """late and foul (docs/rules/competition.md#late, #foul): a side judged a foul for lateness loses
    its match's first deal as a foul: the deal ends at once as its 双下, the other side rises 3 levels,
    and the next deal has no tribute, its leader named by the offender's 下家."""
    event = four_teams().start_round(START)
    pairing = event.round(1).pairings[0]
    event = event.arrive(pairing.teams[0], START).arrive(pairing.teams[1], after(5, 1))
    assert event.round(1).late_fouls(pairing.table) == (1,)
    assert event.round(1).late_fouls(event.round(1).pairings[1].table) == ()
    seat = late_foul_seat(1)
    assert seat == 1, "without the seats' arrivals: the side's first seat"
    match = Match()
    rng = random.Random(3)
    with pytest.raises(ValueError, match="ends deal 1 of the match: the match has dealt 0"):
        rule_late_foul(match, seat)
    match.deal_random(rng)
    rule_late_foul(match, seat)
    (first,) = match.summaries
    assert first.result.foul_by == seat
    assert first.result.places == foul_places(seat)
    assert first.result.double_down
    assert match.level_values() == (5, 2), "the other side rises 3 (双下), the late side stays at 2"
    assert match.needs_named_leader
    assert match.leader_chooser == 2, "the offender's 下家 names the leader"
    second = match.deal_random(rng, leader=2)
    assert second.phase is Phase.PLAY, "no tribute after a foul"
    with pytest.raises(ValueError, match="ends deal 1 of the match: the match has dealt 2"):
        rule_late_foul(match, seat)


def test_rule_late_foul_offender_is_the_side_s_last_seated() -> None:
    """late, foul: the foul of a side names a seat (its 下家 names the next leader): the side's player
    seated last when the arrivals are known."""
    assert late_foul_seat(0, (after(6), after(1), after(7), None)) == 2
    assert late_foul_seat(1, (after(6), after(8), after(7), after(2))) == 1
    assert late_foul_seat(1, (None, None, None, None)) == 1
    with pytest.raises(ValueError, match="a side is 0 or 1"):
        late_foul_seat(2)


def test_rule_late_foul_deals_as_a_score_sheet_writes_them() -> None:
    """late, foul: the deals that fouls for lateness end, in the order judged, as the engine plays them
    (a sheet's first lines): the first deal at 2, the other side up 3 each time."""
    (only,) = late_foul_deals((1,))
    assert (int(only.level), only.result.foul_by) == (2, 1)
    assert [int(level) for level in only.levels_after] == [5, 2]
    first, second = late_foul_deals((0, 1))
    assert (first.result.foul_by, second.result.foul_by) == (0, 1)
    assert [int(level) for level in second.levels_after] == [5, 5]
    assert late_foul_deals(()) == ()
