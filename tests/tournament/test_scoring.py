"""Round scoring (docs/rules/competition.md#round-points, #score-28, #score-26): 2 / 1 / 0 round points, the
28-point table, the 13-level 26-point table (级差分), forfeits (判负, 弃权) and byes."""

from __future__ import annotations

import random

import pytest

from cardroom.guandan.match import Match
from cardroom.guandan.scoring import round_points
from cardroom.tournament import ResultKind, ScoringRules, TableResult, table26, table28
from cardroom.tournament.formats import EndReason, MatchFormat, decide_match
from tests.tournament.helpers import forced_match


def test_rule_round_points() -> None:
    """胜负 2: "每轮比赛胜者积2分、负者积0分，平则各积1分"."""
    assert TableResult.played((9, 5), 8).round_points == (2, 0)
    assert TableResult.played((5, 9), 8).round_points == (0, 2)
    assert TableResult.played((7, 7), 8).round_points == (1, 1)


def test_rule_28_point_table() -> None:
    """级差与得分换算（28分制）: "级差 0 … 14; 胜方 14 … 28; 负方 14 … 0"; "一方过A，一方打K，级差为2级"."""
    assert table28 is round_points
    assert [table28(gap) for gap in (0, 1, 7, 14)] == [(14, 14), (15, 13), (21, 7), (28, 0)]
    result = TableResult.played((15, 13), 20)
    assert result.score28 == (16, 12)


def test_rule_26_point_table() -> None:
    """级差分: "每轮级差分（按13级26分制计算）之和" — 13 ± gap over the 13 levels, capped at 13."""
    assert [table26(gap) for gap in (0, 1, 4, 13, 14)] == [(13, 13), (14, 12), (17, 9), (26, 0), (26, 0)]
    assert TableResult.played((15, 2), 13).score26 == (26, 0)
    assert TableResult.played((6, 10), 8).score26 == (9, 17)
    with pytest.raises(ValueError, match="at least 0"):
        table26(-1)


def test_a_draw_scores_evenly() -> None:
    result = TableResult.played((7, 7), 8)
    assert (result.winner, result.score28, result.score26) == (None, (14, 14), (13, 13))
    assert (result.levels_gained(0), result.levels_gained(1)) == (5, 5)


def test_rule_forfeit_scores_17_to_0_and_four_levels() -> None:
    """判负: "非违规方胜，按违规方级数升4级记级（违规方级数可降至J），弃权记分17:0"."""
    result = TableResult.forfeit(1, table_levels=(5, 9), deals=6)
    assert result.kind is ResultKind.FORFEIT
    assert (result.winner, result.forfeited_by) == (0, 1)
    assert result.levels == (13, 9)
    assert (result.score28, result.score26, result.round_points) == ((17, 0), (17, 0), (2, 0))
    assert (result.levels_gained(0), result.levels_gained(1)) == (11, 7)


def test_rule_forfeit_offender_level_lowered_to_jack() -> None:
    """ "违规方级数可降至J": an offender at K is recorded at J, so the winner is recorded 过A."""
    result = TableResult.forfeit(0, table_levels=(13, 4))
    assert result.levels == (11, 15)
    assert result.score28 == (0, 17)


def test_rule_forfeit_larger_gap_keeps_the_table_score() -> None:
    """ "如场上级差超过4级，则以场上比分为准": a lead of 6 keeps the levels and the tables' scores."""
    result = TableResult.forfeit(1, table_levels=(12, 6))
    assert result.levels == (12, 6)
    assert (result.score28, result.score26) == ((20, 8), (19, 7))
    exactly_four = TableResult.forfeit(1, table_levels=(10, 6))
    assert (exactly_four.levels, exactly_four.score28) == ((10, 6), (17, 0))


def test_a_forfeit_before_play() -> None:
    """弃权 before a deal: both at 2, the winner recorded at 6."""
    result = TableResult.forfeit(0)
    assert (result.levels, result.score28, result.round_points) == ((2, 6), (0, 17), (0, 2))


def test_bye_counts_as_a_forfeit_won() -> None:
    """轮空 (摜彈 is silent): a round won against an absent team, 17 in both tables, 4 levels."""
    result = TableResult.bye()
    assert result.kind is ResultKind.BYE
    assert (result.round_points[0], result.score28[0], result.score26[0], result.levels_gained(0)) == (
        2,
        17,
        17,
        4,
    )


def test_swapped_and_round_trip() -> None:
    result = TableResult.forfeit(1, table_levels=(5, 9), deals=6)
    swapped = result.swapped()
    assert (swapped.winner, swapped.forfeited_by, swapped.levels, swapped.table_levels) == (
        1,
        0,
        (9, 13),
        (9, 5),
    )
    assert swapped.swapped() == result
    assert TableResult.from_dict(result.to_dict()) == result


def test_from_an_engine_match() -> None:
    """Seat 1 passes A: +3 four times and 上游 with the partner 二游 at A."""
    result = TableResult.from_match(forced_match([(1, 2)] * 5))
    assert (result.winner, result.levels, result.deals) == (1, (2, 15), 5)
    assert result.score28 == (1, 27)
    with pytest.raises(ValueError, match=r"not over: .* give the format"):
        TableResult.from_match(forced_match([(1, 2)]))


def test_a_match_that_its_format_ends_is_scored_from_the_match() -> None:
    """docs/tournaments.md's path: a Match made without max_deals, ended by decide_match, scored by
    from_match given the format (the same as from_outcome of decide_match's outcome)."""
    match = forced_match([(1, 2)] * 3)
    fmt = MatchFormat.fixed_deals(3)
    outcome = decide_match(fmt, match)
    assert outcome is not None
    result = TableResult.from_match(match, fmt=fmt)
    assert result == TableResult.from_outcome(outcome)
    assert (result.winner, result.deals) == (1, 3)
    with pytest.raises(ValueError, match="its format wants another deal after 3"):
        TableResult.from_match(match, fmt=MatchFormat.fixed_deals(4))


def test_scoring_rules_validated() -> None:
    with pytest.raises(ValueError, match="win > draw > loss"):
        ScoringRules(win=1, draw=1)
    with pytest.raises(ValueError, match="forfeit"):
        ScoringRules(forfeit_floor=13)
    with pytest.raises(ValueError, match="forfeit"):
        TableResult.forfeit(2)
    three_points = ScoringRules(win=3, draw=1, loss=0)
    assert TableResult.played((4, 3), 1, three_points).round_points == (3, 0)


def test_a_forfeited_engine_match_is_scored_as_a_forfeit() -> None:
    """判负: "判本轮比赛结束，非违规方胜 … 弃权记分17:0" — a match the engine ended by a forfeit ruling is
    scored as a forfeit, not as the levels played, through both from_match and decide_match."""
    match = Match()
    match.deal_random(random.Random(5))
    match.forfeit(1, "left the table")
    result = TableResult.from_match(match)
    assert result.kind is ResultKind.FORFEIT
    assert result.winner == 0
    assert result.score28 == (17, 0)
    outcome = decide_match(MatchFormat.to_ace(), match)
    assert outcome is not None
    assert outcome.reason is EndReason.FORFEIT
    assert outcome.winner == 0
    assert TableResult.from_outcome(outcome) == result


def test_rule_the_event_chooses_the_level_difference_table() -> None:
    """competition.md#tie-breaks (*Reading*), #score-26, #score-28: ``level_table`` is 26 (the rules',
    the default) or 28; a result gives both sides' points in either table."""
    assert ScoringRules().level_table == 26
    assert ScoringRules(level_table=28).level_table == 28
    with pytest.raises(ValueError, match="26-point or the 28-point table, got 27"):
        ScoringRules(level_table=27)
    result = TableResult.played((6, 2), 8)
    assert result.level_points(26) == result.score26 == (17, 9)
    assert result.level_points(28) == result.score28 == (18, 10)
    with pytest.raises(ValueError, match="26 or 28"):
        result.level_points(13)
