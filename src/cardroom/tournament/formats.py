"""Match formats of a round (docs/rules/competition.md#match-formats:
"一轮可能是一局、一定的副数或一定的时间"): to passing A, a fixed number of deals, or a time limit; and the one
function that says, from a match's progress, whether the match is over and how it ended.

A format is data (:class:`MatchFormat`); the match's progress (:class:`MatchProgress`) is what a server
knows after each deal: both levels, the deals finished and the time elapsed. :func:`decide` answers
``None`` (deal again) or a :class:`MatchOutcome`. Time is passed in, never read.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from typing import Any, Final

from cardroom.guandan.match import Match
from cardroom.guandan.scoring import PASSED_ACE

START_LEVEL: Final = 2
ACE: Final = 14

LEVEL_NAMES: Final = {11: "J", 12: "Q", 13: "K", 14: "A", PASSED_ACE: "过A"}


def level_name(value: int) -> str:
    """A level value as players write it: ``2``…``10``, ``J``, ``Q``, ``K``, ``A``, and ``过A`` (15)."""
    if not START_LEVEL <= value <= PASSED_ACE:
        raise ValueError(f"a level value is 2…15, got {value}")
    return LEVEL_NAMES.get(value, str(value))


class EndReason(Enum):
    """Why a match ended."""

    PASSED_ACE = "passed_ace"
    """打过A: a team passed A (ends every format)."""
    DEAL_LIMIT = "deal_limit"
    """打完规定的副数: the fixed number of deals was played (and the levels differ, or may be equal)."""
    TIME_LIMIT = "time_limit"
    """在规定时间内: the time ran out (the deal in progress is finished first)."""
    FORFEIT = "forfeit"
    """判负: a side lost the match by a ruling (:meth:`cardroom.guandan.match.Match.forfeit`)."""


@dataclass(frozen=True)
class MatchFormat:
    """How a match ends: at passing A (no limit), after ``deals`` deals, after ``minutes`` minutes, or
    whichever of the two comes first. After a limit the higher level wins; equal levels play one more
    deal at a time until they differ (``tie_extra_deal``, 摜彈's "如升级数相同，可加打一副牌，决出胜负"),
    or draw when it is off. Passing A ends any format."""

    deals: int | None = None
    minutes: float | None = None
    tie_extra_deal: bool = True

    def __post_init__(self) -> None:
        if self.deals is not None and self.deals < 1:
            raise ValueError(f"a deal limit is at least 1, got {self.deals}")
        if self.minutes is not None and self.minutes <= 0:
            raise ValueError(f"a time limit is positive, got {self.minutes} minutes")

    @classmethod
    def to_ace(cls) -> MatchFormat:
        """一局: from 2 until a team passes A."""
        return cls()

    @classmethod
    def fixed_deals(cls, deals: int, *, tie_extra_deal: bool = True) -> MatchFormat:
        """A fixed number of deals (计副)."""
        return cls(deals=deals, tie_extra_deal=tie_extra_deal)

    @classmethod
    def timed(cls, minutes: float, *, deals: int | None = None, tie_extra_deal: bool = True) -> MatchFormat:
        """A time limit (计时), optionally with a deal limit too: whichever comes first."""
        return cls(deals=deals, minutes=minutes, tie_extra_deal=tie_extra_deal)

    @property
    def time_limit_s(self) -> float | None:
        return None if self.minutes is None else self.minutes * 60

    @property
    def to_ace_only(self) -> bool:
        return self.deals is None and self.minutes is None

    def describe(self) -> str:
        """The format in words: ``打过A``, ``8副``, ``50分钟``, ``50分钟或8副`` (+ ``，平局加赛一副``)."""
        if self.to_ace_only:
            return "打过A (一局)"
        parts = []
        if self.minutes is not None:
            parts.append(f"{self.minutes:g}分钟")
        if self.deals is not None:
            parts.append(f"{self.deals}副")
        tie = "，平级加打一副" if self.tie_extra_deal else "，平级为平局"
        return "或".join(parts) + tie

    def to_dict(self) -> dict[str, Any]:
        return {"deals": self.deals, "minutes": self.minutes, "tie_extra_deal": self.tie_extra_deal}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> MatchFormat:
        return cls(data.get("deals"), data.get("minutes"), bool(data.get("tie_extra_deal", True)))


@dataclass(frozen=True)
class MatchProgress:
    """What the server knows of a match between deals: both teams' levels (2…14, 15 once passed A;
    side 0 is the team at seats 0 & 2), the deals finished, and the seconds elapsed since the start."""

    levels: tuple[int, int]
    deals_played: int
    elapsed_s: float = 0.0

    def __post_init__(self) -> None:
        for value in self.levels:
            if not START_LEVEL <= value <= PASSED_ACE:
                raise ValueError(f"a level value is 2…15, got {value}")
        if self.levels.count(PASSED_ACE) > 1:
            raise ValueError("only one team can pass A")
        if self.deals_played < 0 or self.elapsed_s < 0:
            raise ValueError("deals played and time elapsed are not negative")


@dataclass(frozen=True)
class MatchOutcome:
    """A finished match: the winning side (``None``: a draw), the final levels, the deals, and why."""

    winner: int | None
    levels: tuple[int, int]
    deals: int
    reason: EndReason


def limit_reached(fmt: MatchFormat, progress: MatchProgress) -> EndReason | None:
    """Which limit the match has reached (the deal limit is named first), or ``None``."""
    if fmt.deals is not None and progress.deals_played >= fmt.deals:
        return EndReason.DEAL_LIMIT
    limit = fmt.time_limit_s
    if limit is not None and progress.elapsed_s >= limit:
        return EndReason.TIME_LIMIT
    return None


def decide(fmt: MatchFormat, progress: MatchProgress) -> MatchOutcome | None:
    """Whether the match is over after its last finished deal, and its outcome; ``None``: deal again.

    Call it between deals: when the time runs out during a deal, that deal is played to its end (the
    seed times a round, never a deal) and this is asked after it. Rule
    (docs/rules/competition.md#match-formats):
    "先打过A级，或在规定时间内、打完规定的副数后，升级数高的一方获胜。如升级数相同，可加打一副牌，决出胜负。"
    """
    first, second = progress.levels
    if PASSED_ACE in progress.levels:
        winner = 0 if first == PASSED_ACE else 1
        return MatchOutcome(winner, progress.levels, progress.deals_played, EndReason.PASSED_ACE)
    reason = limit_reached(fmt, progress)
    if reason is None:
        return None
    if first != second:
        return MatchOutcome(0 if first > second else 1, progress.levels, progress.deals_played, reason)
    if fmt.tie_extra_deal:
        return None
    return MatchOutcome(None, progress.levels, progress.deals_played, reason)


def progress_of(match: Match, elapsed_s: float = 0.0) -> MatchProgress:
    """The progress of an engine :class:`~cardroom.guandan.match.Match` (its finished deals)."""
    return MatchProgress(match.level_values(), len(match.summaries), elapsed_s)


def decide_match(fmt: MatchFormat, match: Match, elapsed_s: float = 0.0) -> MatchOutcome | None:
    """:func:`decide` for an engine match, between its deals (``ValueError`` while a deal is played); a
    forfeited match is over at once, the other side the winner."""
    if match.forfeited_by is not None:
        return MatchOutcome(
            1 - match.forfeited_by, match.level_values(), len(match.summaries), EndReason.FORFEIT
        )
    if match.current_deal is not None:
        raise ValueError("decide between deals: a deal is being played")
    return decide(fmt, progress_of(match, elapsed_s))


__all__ = [
    "EndReason",
    "MatchFormat",
    "MatchOutcome",
    "MatchProgress",
    "decide",
    "decide_match",
    "level_name",
    "limit_reached",
    "progress_of",
]
