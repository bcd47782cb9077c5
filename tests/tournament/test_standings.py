"""Standings and tie-breaks (docs/rules/competition.md#tie-breaks), against hand-computed examples.

摜彈: "多轮比赛排名办法：每轮比赛胜者积2分、负者积0分，平则各积1分，总积分多者名次列前。总积分相等，
依次比较相等者（去首）累进分、胜轮次、级差分、升级数，多者名次列前；仍相等，则抽签决定。"
"""

from __future__ import annotations

import pytest

from cardroom.tournament import Criterion, TableResult, progressive_score, standings
from cardroom.tournament.standings import TeamRound, separated_by, tallies


def rounds_of(*levels: tuple[int, int]) -> list[TeamRound]:
    """A team's rounds from (its level, the opponent's level) at the end of each match."""
    return [
        TeamRound(number, "X", 0, TableResult.played(pair, 8)) for number, pair in enumerate(levels, start=1)
    ]


WIN_BIG = (8, 4)  # gap 4: 26-point 17, levels gained 6
WIN_SMALL = (8, 6)  # gap 2: 15, gained 6
WIN_SMALL_LOW = (7, 5)  # gap 2: 15, gained 5
LOSS_SMALL = (4, 6)  # gap 2: 11, gained 2
LOSS_SMALL_LOW = (3, 5)  # gap 2: 11, gained 1
LOSS_BIG = (4, 8)  # gap 4: 9, gained 2
DRAW = (5, 5)  # 13, gained 3

ENTRIES = {
    "T1": rounds_of((15, 13), (15, 13), (15, 13)),  # W W W: 6 points
    "T2": rounds_of(WIN_BIG, WIN_BIG, LOSS_BIG),  # W W L: 4, 累进 2+4+4, 去首 8
    "T3": rounds_of(WIN_BIG, LOSS_SMALL, WIN_BIG),  # W L W: 4, 去首 2+4 = 6, wins 2, 级差分 45
    "T4": rounds_of(LOSS_SMALL, WIN_SMALL, WIN_SMALL),  # L W W: 4, 去首 2+4 = 6, wins 2, 41, gained 14
    "T5": rounds_of(DRAW, DRAW, WIN_BIG),  # D D W: 4, 去首 2+4 = 6, wins 1
    "T6": rounds_of(LOSS_SMALL_LOW, WIN_SMALL_LOW, WIN_SMALL),  # L W W: 41, gained 12
    "T7": rounds_of(LOSS_SMALL_LOW, WIN_SMALL_LOW, WIN_SMALL),  # the same as T6
    "T8": rounds_of(LOSS_BIG, LOSS_BIG, LOSS_BIG),  # L L L: 0 points
}
LOTS = {"T1": 8, "T2": 7, "T3": 6, "T4": 4, "T5": 1, "T6": 3, "T7": 5, "T8": 2}
"""Lots against the order everywhere but T6/T7, to show they only break the last tie."""


def test_rule_progressive_score_excluding_round_one() -> None:
    """(去首)累进分: "从第二轮开始计算的每轮累计积分之和" — the running totals after rounds 2, 3, … summed
    (round one's points stay in the running totals; only its own running total is dropped)."""
    assert progressive_score([2, 2, 0]) == 2 + 4 + 4 - 2 == 8
    assert progressive_score([2, 0, 2]) == 2 + 4 == 6
    assert progressive_score([0, 2, 2]) == 2 + 4 == 6
    assert progressive_score([1, 1, 2]) == 2 + 4 == 6
    assert progressive_score([2, 0, 2], cut=0) == 2 + 2 + 4 == 8
    assert progressive_score([2]) == 0
    assert progressive_score([]) == 0


def test_hand_computed_totals() -> None:
    by_team = {tally.team: tally for tally in tallies(ENTRIES, LOTS)}
    expected = {  # points, 去首累进分, 胜轮次, 级差分, 升级数
        "T1": (6, 10, 3, 45, 39),
        "T2": (4, 8, 2, 43, 14),
        "T3": (4, 6, 2, 45, 14),
        "T4": (4, 6, 2, 41, 14),
        "T5": (4, 6, 1, 43, 12),
        "T6": (4, 6, 2, 41, 12),
        "T7": (4, 6, 2, 41, 12),
        "T8": (0, 0, 0, 27, 6),
    }
    for team, (points, progressive, wins, difference, gained) in expected.items():
        tally = by_team[team]
        assert (tally.points, tally.progressive, tally.wins, tally.level_difference, tally.levels_gained) == (
            points,
            progressive,
            wins,
            difference,
            gained,
        ), team


def test_rule_every_tie_break_in_order_down_to_lots() -> None:
    """ "总积分相等，依次比较相等者（去首）累进分、胜轮次、级差分、升级数 …；仍相等，则抽签决定。" Each row
    names the criterion that separated it from the row above and the row below."""
    rows = standings(ENTRIES, LOTS)
    assert [row.team for row in rows] == ["T1", "T2", "T3", "T4", "T6", "T7", "T5", "T8"]
    assert [row.rank for row in rows] == list(range(1, 9))
    assert [row.above for row in rows] == [
        None,
        Criterion.POINTS,  # T2 below T1: 4 points against 6
        Criterion.PROGRESSIVE,  # T3 below T2: 去首累进分 6 against 8
        Criterion.LEVEL_DIFFERENCE,  # T4 below T3: 级差分 41 against 45 (wins equal)
        Criterion.LEVELS_GAINED,  # T6 below T4: 升级数 12 against 14 (级差分 equal)
        Criterion.LOTS,  # T7 below T6: identical, lot 5 against 3
        Criterion.WINS,  # T5 below T7: 胜轮次 1 against 2
        Criterion.POINTS,  # T8 below T5
    ]
    assert [row.below for row in rows] == [row.above for row in rows[1:]] + [None]


def test_round_one_is_excluded_not_weighted() -> None:
    """T3 (W L W) and T4 (L W W): a full 累进分 would rank T3 first (8 against 6); 去首 makes them equal,
    so 级差分 decides."""
    by_team = {tally.team: tally for tally in tallies(ENTRIES, LOTS)}
    assert progressive_score(by_team["T3"].points_by_round, cut=0) == 8
    assert progressive_score(by_team["T4"].points_by_round, cut=0) == 6
    assert separated_by(by_team["T3"], by_team["T4"]) is Criterion.LEVEL_DIFFERENCE


def test_a_round_without_a_result_counts_zero_in_the_running_total() -> None:
    """A team missing round 2's result (not yet entered) has 0 for it: running totals 2, 2, 4."""
    entries = {
        "A": [
            TeamRound(1, "B", 0, TableResult.played((5, 3), 8)),
            TeamRound(3, "B", 0, TableResult.played((5, 3), 8)),
        ]
    }
    (tally,) = tallies(entries, {"A": 1})
    assert tally.points_by_round == (2, 0, 2)
    assert tally.progressive == 6


def test_labels_and_definitions() -> None:
    assert [criterion.label for criterion in Criterion] == [
        "总积分",
        "去首累进分",
        "胜轮次",
        "级差分",
        "升级数",
        "抽签",
    ]
    assert Criterion.PROGRESSIVE.definition == "（去首）累进分：从第二轮开始计算的每轮累计积分之和。"


def test_lots_must_differ() -> None:
    with pytest.raises(ValueError, match="different lot"):
        standings({}, {"A": 1, "B": 1})
    with pytest.raises(ValueError, match="without a lot"):
        standings({"C": []}, {"A": 1})


def test_rule_level_difference_in_the_chosen_table() -> None:
    """competition.md#tie-breaks (*Reading*: the event's ``level_table``) and #score-26: the 级差分 sums
    the 26-point table by the rules, or the 28-point table when the event chooses it. A forfeit won
    scores 17 in both tables, a 4-level win 17 in the 26-point table and 18 in the 28-point one: tied
    on 级差分 and 升级数 in the first (lots decide), the 28-point table puts the played win first."""
    forfeit_won = [TeamRound(1, "X", 1, TableResult.forfeit(0))]  # recorded 2 : 6, 17 : 0
    played_won = rounds_of((6, 2))  # gap 4: 17 : 9 and 18 : 10
    entries = {"F": forfeit_won, "P": played_won}
    lots = {"F": 1, "P": 2}
    by_26 = standings(entries, lots)
    assert [row.team for row in by_26] == ["F", "P"]
    assert by_26[1].above is Criterion.LOTS
    assert [row.tally.level_difference for row in by_26] == [17, 17]
    by_28 = standings(entries, lots, level_table=28)
    assert [row.team for row in by_28] == ["P", "F"]
    assert by_28[1].above is Criterion.LEVEL_DIFFERENCE
    assert [(row.tally.level_difference, row.tally.level_table) for row in by_28] == [(18, 28), (17, 28)]
    with pytest.raises(ValueError, match="26 or 28"):
        standings(entries, lots, level_table=27)
