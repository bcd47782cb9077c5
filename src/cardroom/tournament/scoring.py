"""Scoring a round (docs/rules/competition.md#round-points, #score-28, #score-26): round points 2 / 1 / 0, the
28-point table (the round's score), the 13-level 26-point table (级差分, a tie-break), forfeits and byes.

A :class:`TableResult` is one table's result in one round, side 0 being the team at seats 0 & 2: the
levels recorded, the winner, and every score derived from them, computed once by its constructors so
that the data stands on its own (score sheets, standings, CSV).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from enum import Enum
from typing import Any, Final

from cardroom.guandan.match import Match
from cardroom.guandan.scoring import MAX_GAP, PASSED_ACE
from cardroom.guandan.scoring import round_points as table28
from cardroom.tournament.formats import START_LEVEL, EndReason, MatchFormat, MatchOutcome, decide_match

WIN: Final = 2
DRAW: Final = 1
LOSS: Final = 0
"""Round points (积分): "每轮比赛胜者积2分、负者积0分，平则各积1分"."""

MAX_GAP_26: Final = 13
"""The 26-point table spans 13 levels (2…A): a gap of 13 gives 26 : 0."""

JACK: Final = 11

LEVEL_TABLES: Final = (26, 28)
"""The tables an event may count its 级差分 in: the 13-level 26-point table (摜彈's) or the 28-point one."""


def table26(gap: int) -> tuple[int, int]:
    """Winner's and loser's 级差分 in the 13-level 26-point table: 13 + gap and 13 − gap (gap 0…13).

    摜彈 names the table ("级差分：每轮级差分（按13级26分制计算）之和") without printing it; it is the
    28-point table's pattern (14 ± gap over 14 gaps) over the 13 levels 2…A. 摜彈's forfeit score
    17 : 0 is this table's winning score for the forfeit's 4-level gap (13 + 4)."""
    if gap < 0:
        raise ValueError(f"a level gap is at least 0, got {gap}")
    gap = min(gap, MAX_GAP_26)
    return 13 + gap, 13 - gap


class ResultKind(Enum):
    """How a table's result came about."""

    PLAYED = "played"
    FORFEIT = "forfeit"
    """判负 or 弃权: one side lost the round by a penalty or did not play."""
    BYE = "bye"
    """轮空: a team without an opponent (side 1 is nobody)."""


@dataclass(frozen=True)
class ScoringRules:
    """The numbers of round scoring, 摜彈's by default."""

    win: int = WIN
    draw: int = DRAW
    loss: int = LOSS
    forfeit_levels: int = 4
    """"按违规方级数升4级记级": the winner is recorded 4 levels above the offender."""
    forfeit_floor: int = JACK
    """"违规方级数可降至J": the offender's level is lowered to J at most, so the winner can reach 过A."""
    forfeit_score: tuple[int, int] = (17, 0)
    """"弃权记分17:0", in both tables, unless the table's gap is larger than ``forfeit_levels``."""
    level_table: int = 26
    """The table whose scores are the 级差分 tie-break (docs/rules/competition.md#score-26): 26, as 摜彈
    says ("按13级26分制计算"), or 28 for an event that ranks by the round's 28-point scores."""

    def __post_init__(self) -> None:
        if not self.win > self.draw > self.loss:
            raise ValueError("round points must order win > draw > loss")
        if self.level_table not in LEVEL_TABLES:
            raise ValueError(
                f"the level difference (级差分) is counted in the 26-point or the 28-point table, "
                f"got {self.level_table!r}"
            )
        if (
            self.forfeit_levels < 1
            or not START_LEVEL <= self.forfeit_floor <= PASSED_ACE - self.forfeit_levels
        ):
            raise ValueError("forfeit levels must keep the winner within 2…15")

    def round_points(self, winner: int | None, side: int) -> int:
        if winner is None:
            return self.draw
        return self.win if winner == side else self.loss


COMPETITION_SCORING: Final = ScoringRules()


@dataclass(frozen=True)
class TableResult:
    """One table's result in one round; every pair is (side 0: seats 0 & 2, side 1: seats 1 & 3).

    ``levels`` are the levels recorded (2…14, 15 for 过A); ``score28`` the round's score in the
    28-point table; ``score26`` the 级差分 of the 26-point table; ``round_points`` 2 / 1 / 0."""

    kind: ResultKind
    winner: int | None
    levels: tuple[int, int]
    round_points: tuple[int, int]
    score28: tuple[int, int]
    score26: tuple[int, int]
    deals: int = 0
    forfeited_by: int | None = None
    table_levels: tuple[int, int] | None = None
    """For a forfeit: the levels on the table when it was called."""

    def __post_init__(self) -> None:
        if self.winner not in (None, 0, 1):
            raise ValueError(f"the winner is side 0, side 1 or None (a draw), got {self.winner}")
        for value in self.levels:
            if not START_LEVEL <= value <= PASSED_ACE:
                raise ValueError(f"a level value is 2…15, got {value}")
        if (self.kind is ResultKind.FORFEIT) != (self.forfeited_by is not None):
            raise ValueError("a forfeit, and only a forfeit, names the side that forfeited")
        if self.forfeited_by is not None and self.winner != 1 - self.forfeited_by:
            raise ValueError("the side that forfeits loses")
        if self.deals < 0:
            raise ValueError("deals played are not negative")

    # -- constructors ------------------------------------------------------------------------------

    @classmethod
    def played(
        cls,
        levels: tuple[int, int],
        deals: int,
        rules: ScoringRules = COMPETITION_SCORING,
    ) -> TableResult:
        """A match played out, ``levels`` at its end: the higher level wins (a team that passed A is
        at 15); equal levels are a draw (a format without the extra deal)."""
        first, second = levels
        winner = None if first == second else (0 if first > second else 1)
        gap = abs(first - second)
        if winner is None:
            score28, score26 = (14, 14), (13, 13)
        else:
            score28 = _by_side(winner, table28(gap))
            score26 = _by_side(winner, table26(gap))
        points = (rules.round_points(winner, 0), rules.round_points(winner, 1))
        return cls(ResultKind.PLAYED, winner, levels, points, score28, score26, deals)

    @classmethod
    def from_outcome(cls, outcome: MatchOutcome, rules: ScoringRules = COMPETITION_SCORING) -> TableResult:
        """The result of a match :func:`~cardroom.tournament.formats.decide` (or
        :func:`~cardroom.tournament.formats.decide_match`) ended."""
        if outcome.reason is EndReason.FORFEIT and outcome.winner is not None:
            return cls.forfeit(1 - outcome.winner, outcome.levels, outcome.deals, rules)
        return cls.played(outcome.levels, outcome.deals, rules)

    @classmethod
    def from_match(
        cls,
        match: Match,
        rules: ScoringRules = COMPETITION_SCORING,
        *,
        fmt: MatchFormat | None = None,
        elapsed_s: float = 0.0,
    ) -> TableResult:
        """The result of an engine match that is over: by itself (passed A, its ``max_deals``, or a
        forfeit: 判负), or, given its format ``fmt``, as :func:`decide_match` ends it (after
        ``elapsed_s`` seconds of a timed format)."""
        if fmt is not None and match.forfeited_by is None:
            outcome = decide_match(fmt, match, elapsed_s)
            if outcome is None:
                raise ValueError(
                    f"the match is not over: its format wants another deal after {len(match.summaries)}"
                )
            return cls.from_outcome(outcome, rules)
        if not match.is_over:
            raise ValueError(
                "the match is not over: it has neither passed A, nor played its max_deals, nor been "
                "forfeited (for a match that a format ends, give the format: from_match(match, fmt=...))"
            )
        if match.forfeited_by is not None:
            return cls.forfeit(match.forfeited_by, match.level_values(), len(match.summaries), rules)
        return cls.played(match.level_values(), len(match.summaries), rules)

    @classmethod
    def forfeit(
        cls,
        by: int,
        table_levels: tuple[int, int] = (START_LEVEL, START_LEVEL),
        deals: int = 0,
        rules: ScoringRules = COMPETITION_SCORING,
    ) -> TableResult:
        """Side ``by`` forfeits (判负 after two fouls, or 弃权). 摜彈: "判本轮比赛结束，非违规方胜，
        按违规方级数升4级记级（违规方级数可降至J），弃权记分17:0。如场上级差超过4级，则以场上比分为准。" """
        if by not in (0, 1):
            raise ValueError(f"the forfeiting side is 0 or 1, got {by}")
        winner = 1 - by
        lead = table_levels[winner] - table_levels[by]
        if lead > rules.forfeit_levels:
            levels = table_levels
            score28 = _by_side(winner, table28(lead))
            score26 = _by_side(winner, table26(lead))
        else:
            offender = min(table_levels[by], rules.forfeit_floor)
            recorded = [0, 0]
            recorded[by], recorded[winner] = offender, offender + rules.forfeit_levels
            levels = (recorded[0], recorded[1])
            score28 = score26 = _by_side(winner, rules.forfeit_score)
        points = (rules.round_points(winner, 0), rules.round_points(winner, 1))
        return cls(ResultKind.FORFEIT, winner, levels, points, score28, score26, deals, by, table_levels)

    @classmethod
    def bye(cls, rules: ScoringRules = COMPETITION_SCORING) -> TableResult:
        """轮空, side 0 the team: scored as a forfeit won against an absent team at level 2 (摜彈
        is silent; a bye counts as a round won, as is common practice)."""
        won = cls.forfeit(1, rules=rules)
        return replace(won, kind=ResultKind.BYE, forfeited_by=None, table_levels=None)

    # -- per side ----------------------------------------------------------------------------------

    def level_points(self, table: int) -> tuple[int, int]:
        """Both sides' scores in the table of 26 or 28 points (the 级差分 of an event that counts it so)."""
        if table == 26:
            return self.score26
        if table == 28:
            return self.score28
        raise ValueError(f"a level table is 26 or 28 points, got {table!r}")

    def levels_gained(self, side: int) -> int:
        """升级数: the levels the side rose from 2."""
        return self.levels[side] - START_LEVEL

    def swapped(self) -> TableResult:
        """The same result with the sides exchanged."""

        def flip(pair: tuple[int, int]) -> tuple[int, int]:
            return pair[1], pair[0]

        return TableResult(
            self.kind,
            None if self.winner is None else 1 - self.winner,
            flip(self.levels),
            flip(self.round_points),
            flip(self.score28),
            flip(self.score26),
            self.deals,
            None if self.forfeited_by is None else 1 - self.forfeited_by,
            None if self.table_levels is None else flip(self.table_levels),
        )

    def to_dict(self) -> dict[str, Any]:
        return {
            "kind": self.kind.value,
            "winner": self.winner,
            "levels": list(self.levels),
            "round_points": list(self.round_points),
            "score28": list(self.score28),
            "score26": list(self.score26),
            "deals": self.deals,
            "forfeited_by": self.forfeited_by,
            "table_levels": None if self.table_levels is None else list(self.table_levels),
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> TableResult:
        def pair(value: Any) -> tuple[int, int]:
            first, second = value
            return int(first), int(second)

        table = data.get("table_levels")
        return cls(
            ResultKind(data["kind"]),
            data["winner"],
            pair(data["levels"]),
            pair(data["round_points"]),
            pair(data["score28"]),
            pair(data["score26"]),
            int(data.get("deals", 0)),
            data.get("forfeited_by"),
            None if table is None else pair(table),
        )


def _by_side(winner: int, scores: tuple[int, int]) -> tuple[int, int]:
    """(winner's, loser's) → (side 0's, side 1's)."""
    return scores if winner == 0 else (scores[1], scores[0])


__all__ = [
    "COMPETITION_SCORING",
    "DRAW",
    "LEVEL_TABLES",
    "LOSS",
    "MAX_GAP",
    "MAX_GAP_26",
    "WIN",
    "ResultKind",
    "ScoringRules",
    "TableResult",
    "table26",
    "table28",
]
