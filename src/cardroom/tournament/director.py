"""What a tournament director (裁判长) records during an event, as plain values: arrivals at the tables,
penalties given (by hand or by the lateness rule), every entry and correction of a table's result, team
withdrawals and disqualifications, and appeals (申诉) with their rulings.

Times are timezone-aware :class:`~datetime.datetime` values passed in by the caller (the core reads no
clock); they are stored as ISO 8601 text. ``by`` names who did it (a director's name; ``""`` when the
rules did it by themselves, such as a forfeit for lateness).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from cardroom.tournament.conduct import Offence, Penalty
from cardroom.tournament.refusals import EventError
from cardroom.tournament.scoring import TableResult


def check_time(at: datetime, what: str = "a time") -> datetime:
    """``at`` if it carries its UTC offset; naive times are refused (they cannot be compared safely)."""
    if at.tzinfo is None or at.utcoffset() is None:
        raise EventError("time_without_offset", what=what, at=at.isoformat())
    return at


def time_to_text(at: datetime | None) -> str | None:
    return None if at is None else at.isoformat()


def time_from_text(text: str | None) -> datetime | None:
    return None if text is None else check_time(datetime.fromisoformat(text))


@dataclass(frozen=True)
class Arrival:
    """A team seated at its table (入座) at ``at``."""

    team: str
    at: datetime

    def to_dict(self) -> dict[str, Any]:
        return {"team": self.team, "at": time_to_text(self.at)}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Arrival:
        at = time_from_text(data["at"])
        assert at is not None
        return cls(str(data["team"]), at)


@dataclass(frozen=True)
class PenaltyEntry:
    """A penalty at a table: the team, the player (``None``: the side, as for lateness) and the seat
    (0–3) the player held, the penalty, its offence and reason, when and by whom; ``escalated`` when it
    came from accumulated lesser penalties (two warnings make a violation:
    docs/rules/competition.md#penalties)."""

    table: int
    team: str
    player: str | None
    seat: int | None
    penalty: Penalty
    offence: Offence
    reason: str
    at: datetime | None
    by: str
    escalated: bool = False

    @property
    def label(self) -> str:
        """The penalty's Chinese name: 弃权 for a side missing past 10 minutes ("迟到超过10分钟，按弃权处理",
        docs/rules/competition.md#late), else 警告, 违例, 犯规 or 判负."""
        if self.penalty is Penalty.FORFEIT and self.offence is Offence.LATE and not self.escalated:
            return "弃权"
        return self.penalty.label

    def to_dict(self) -> dict[str, Any]:
        return {
            "table": self.table,
            "team": self.team,
            "player": self.player,
            "seat": self.seat,
            "penalty": self.penalty.name,
            "offence": self.offence.value,
            "reason": self.reason,
            "at": time_to_text(self.at),
            "by": self.by,
            "escalated": self.escalated,
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> PenaltyEntry:
        seat = data.get("seat")
        return cls(
            int(data["table"]),
            str(data["team"]),
            data.get("player"),
            None if seat is None else int(seat),
            Penalty[data["penalty"]],
            Offence(data["offence"]),
            str(data.get("reason", "")),
            time_from_text(data.get("at")),
            str(data.get("by", "")),
            bool(data.get("escalated", False)),
        )


@dataclass(frozen=True)
class ResultChange:
    """One entry of a table's result: ``previous`` is ``None`` for the first entry, else the result it
    corrected (成绩更正); ``override`` marks a correction the director allowed after the window closed."""

    table: int
    result: TableResult
    previous: TableResult | None
    at: datetime | None
    by: str
    reason: str
    override: bool = False

    @property
    def is_correction(self) -> bool:
        return self.previous is not None

    def to_dict(self) -> dict[str, Any]:
        return {
            "table": self.table,
            "result": self.result.to_dict(),
            "previous": None if self.previous is None else self.previous.to_dict(),
            "at": time_to_text(self.at),
            "by": self.by,
            "reason": self.reason,
            "override": self.override,
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> ResultChange:
        previous = data.get("previous")
        return cls(
            int(data["table"]),
            TableResult.from_dict(data["result"]),
            None if previous is None else TableResult.from_dict(previous),
            time_from_text(data.get("at")),
            str(data.get("by", "")),
            str(data.get("reason", "")),
            bool(data.get("override", False)),
        )


@dataclass(frozen=True)
class Withdrawal:
    """A team out of the event after ``last_round`` rounds: withdrawn (退赛) or disqualified (取消参赛
    资格, the organisers' decision), with the reason, when and by whom."""

    team: str
    last_round: int
    reason: str
    at: datetime | None
    by: str
    disqualified: bool = False

    @property
    def label(self) -> str:
        return "取消资格" if self.disqualified else "退赛"

    def to_dict(self) -> dict[str, Any]:
        return {
            "team": self.team,
            "last_round": self.last_round,
            "reason": self.reason,
            "at": time_to_text(self.at),
            "by": self.by,
            "disqualified": self.disqualified,
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Withdrawal:
        return cls(
            str(data["team"]),
            int(data["last_round"]),
            str(data.get("reason", "")),
            time_from_text(data.get("at")),
            str(data.get("by", "")),
            bool(data.get("disqualified", False)),
        )


@dataclass(frozen=True)
class Appeal:
    """An appeal (申诉) by a team against a ruling or result at a table, numbered in the event; the
    ruling, whether it was upheld, who ruled and when, once decided ("仲裁委员会的裁决为最终裁决")."""

    number: int
    round: int
    table: int
    team: str
    text: str
    filed_at: datetime | None
    filed_by: str = ""
    override: bool = False
    ruling: str | None = None
    upheld: bool | None = None
    ruled_by: str = ""
    ruled_at: datetime | None = None

    @property
    def decided(self) -> bool:
        return self.ruling is not None

    def to_dict(self) -> dict[str, Any]:
        return {
            "number": self.number,
            "round": self.round,
            "table": self.table,
            "team": self.team,
            "text": self.text,
            "filed_at": time_to_text(self.filed_at),
            "filed_by": self.filed_by,
            "override": self.override,
            "ruling": self.ruling,
            "upheld": self.upheld,
            "ruled_by": self.ruled_by,
            "ruled_at": time_to_text(self.ruled_at),
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Appeal:
        upheld = data.get("upheld")
        return cls(
            int(data["number"]),
            int(data["round"]),
            int(data["table"]),
            str(data["team"]),
            str(data.get("text", "")),
            time_from_text(data.get("filed_at")),
            str(data.get("filed_by", "")),
            bool(data.get("override", False)),
            data.get("ruling"),
            None if upheld is None else bool(upheld),
            str(data.get("ruled_by", "")),
            time_from_text(data.get("ruled_at")),
        )


__all__ = [
    "Appeal",
    "Arrival",
    "PenaltyEntry",
    "ResultChange",
    "Withdrawal",
    "check_time",
    "time_from_text",
    "time_to_text",
]
