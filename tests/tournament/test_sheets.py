"""Score sheets (记分表): the deals line by line, penalties, the result, and both sides' sign-off."""

from __future__ import annotations

import pytest

from cardroom.tournament import MatchConduct, Offence, ScoreSheet, TableResult, deal_lines, sheet_from_match
from tests.tournament.helpers import forced_match

TEAMS = ("T1", "T2")
PLAYERS = ("p1a", "p2a", "p1b", "p2b")


def test_lines_follow_the_deals() -> None:
    """Seat 1 takes 上游 with its partner 三游 (+2), then seat 0 with its partner 二游 (+3)."""
    match = forced_match([(1, 3), (0, 2)])
    first, second = deal_lines(match)
    assert (first.number, first.level, first.level_side, first.places[0], first.winner, first.rise) == (
        1,
        2,
        None,
        1,
        1,
        2,
    )
    assert first.levels_after == (2, 4)
    assert (second.level, second.level_side, second.winner, second.rise, second.levels_after) == (
        4,
        1,
        0,
        3,
        (5, 4),
    )
    assert second.describe() == "第2副 打4 上游seat 0 +3 → 5 : 4"


def test_passing_a_is_noted() -> None:
    lines = deal_lines(forced_match([(2, 2)] * 5))
    assert lines[-1].levels_after == (15, 2)
    assert lines[-1].note == "过A"
    assert lines[-1].describe().endswith("→ 过A : 2 (过A)")


def test_rule_both_sides_sign() -> None:
    """记分: "一轮比赛结束，双方在记分表上签字确认比赛成绩。" A change after a signature clears both."""
    match = forced_match([(0, 2)] * 5)
    sheet = sheet_from_match(1, 3, TEAMS, PLAYERS, match)
    assert sheet.result == TableResult.from_match(match)
    assert len(sheet.lines) == 5
    assert not sheet.final
    half = sheet.sign(0)
    assert half.signed == (True, False)
    assert not half.final
    final = half.sign(1)
    assert final.final
    conduct, _ = MatchConduct().penalise(Offence.TIMEOUT, at_s=30, deal=2, seat=1)
    amended = final.with_penalties(conduct.records)
    assert amended.signed == (False, False)
    assert final.with_result(TableResult.forfeit(1)).signed == (False, False)
    assert final.with_lines(()).signed == (False, False)


def test_a_sheet_without_a_result_cannot_be_signed() -> None:
    sheet = sheet_from_match(1, 1, TEAMS, PLAYERS, forced_match([(0, 3)]))
    assert sheet.result is None
    with pytest.raises(ValueError, match="result"):
        sheet.sign(0)
    with pytest.raises(ValueError, match="side"):
        sheet.with_result(TableResult.played((4, 2), 1)).sign(2)


def test_round_trip() -> None:
    conduct, _ = MatchConduct().penalise(Offence.TIMEOUT, at_s=30, deal=2, seat=1)
    sheet = sheet_from_match(2, 4, TEAMS, PLAYERS, forced_match([(1, 4), (3, 2)]), penalties=conduct.records)
    sheet = sheet.with_result(TableResult.played((2, 6), 2)).sign(1)
    assert ScoreSheet.from_dict(sheet.to_dict()) == sheet
