"""Score sheets (记分表): one per table and round, the deals' results line by line, the penalties, the
result, and both sides' signatures.

摜彈 (记分): "由西家在记分表上工整记录（不得涂改）逐副比赛结果，北家复查。一轮比赛结束，双方在记分表上
签字确认比赛成绩。" A sheet is data: adding a line or a penalty clears the signatures; once both sides
have signed, the sheet is final and its result can be entered in the event.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from cardroom.guandan.match import Match
from cardroom.tournament.conduct import PenaltyRecord
from cardroom.tournament.formats import level_name
from cardroom.tournament.scoring import TableResult


@dataclass(frozen=True)
class DealLine:
    """One deal on the sheet: its number, the level played and whose it was (side, ``None`` before
    anyone's), the finishing order (seats, 上游 first), the winning side and its rise, both levels after
    (15: 过A), and a note (e.g. a deal ended by a foul)."""

    number: int
    level: int
    level_side: int | None
    places: tuple[int, int, int, int]
    winner: int
    rise: int
    levels_after: tuple[int, int]
    note: str = ""

    def describe(self) -> str:
        """The line as written: ``第3副 打5 上游seat 1 +3 → 5 : 8``."""
        after = f"{level_name(self.levels_after[0])} : {level_name(self.levels_after[1])}"
        note = f" ({self.note})" if self.note else ""
        played = f"第{self.number}副 打{level_name(self.level)}"
        return f"{played} 上游seat {self.places[0]} +{self.rise} → {after}{note}"

    def to_dict(self) -> dict[str, Any]:
        return {
            "number": self.number,
            "level": self.level,
            "level_side": self.level_side,
            "places": list(self.places),
            "winner": self.winner,
            "rise": self.rise,
            "levels_after": list(self.levels_after),
            "note": self.note,
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> DealLine:
        a, b, c, d = data["places"]
        first, second = data["levels_after"]
        return cls(
            int(data["number"]),
            int(data["level"]),
            data.get("level_side"),
            (int(a), int(b), int(c), int(d)),
            int(data["winner"]),
            int(data["rise"]),
            (int(first), int(second)),
            str(data.get("note", "")),
        )


def deal_lines(match: Match) -> tuple[DealLine, ...]:
    """The sheet's lines for every finished deal of an engine match."""
    lines = []
    before = (2, 2)
    for number, summary in enumerate(match.summaries, start=1):
        after = (int(summary.levels_after[0]), int(summary.levels_after[1]))
        winner = summary.result.winning_team
        if summary.passed_ace:
            after = (15, after[1]) if winner == 0 else (after[0], 15)
        rise = after[winner] - before[winner]
        note = "过A" if summary.passed_ace else ("A级失败" if summary.failed_at_ace else "")
        lines.append(
            DealLine(
                number,
                int(summary.level),
                summary.level_team,
                summary.result.places,
                winner,
                max(rise, 0),
                after,
                note,
            )
        )
        before = after
    return tuple(lines)


@dataclass(frozen=True)
class ScoreSheet:
    """A table's sheet for one round. ``teams`` (side 0 at seats 0 & 2), ``players`` by seat 0–3."""

    round: int
    table: int
    teams: tuple[str, str]
    players: tuple[str, str, str, str]
    lines: tuple[DealLine, ...] = ()
    penalties: tuple[PenaltyRecord, ...] = ()
    result: TableResult | None = None
    signed: tuple[bool, bool] = (False, False)

    @property
    def final(self) -> bool:
        """Both sides signed a sheet with a result (双方签字确认)."""
        return self.result is not None and all(self.signed)

    def with_lines(self, lines: tuple[DealLine, ...]) -> ScoreSheet:
        return replace(self, lines=lines, signed=(False, False))

    def with_penalties(self, penalties: tuple[PenaltyRecord, ...]) -> ScoreSheet:
        return replace(self, penalties=penalties, signed=(False, False))

    def with_result(self, result: TableResult) -> ScoreSheet:
        return replace(self, result=result, signed=(False, False))

    def sign(self, side: int) -> ScoreSheet:
        """Side ``side`` signs; only a sheet with a result can be signed, and a final sheet stays so."""
        if side not in (0, 1):
            raise ValueError(f"a side is 0 or 1, got {side}")
        if self.result is None:
            raise ValueError("a sheet is signed when the round's result is on it")
        signed = (True, self.signed[1]) if side == 0 else (self.signed[0], True)
        return replace(self, signed=signed)

    def to_dict(self) -> dict[str, Any]:
        return {
            "round": self.round,
            "table": self.table,
            "teams": list(self.teams),
            "players": list(self.players),
            "lines": [line.to_dict() for line in self.lines],
            "penalties": [record.to_dict() for record in self.penalties],
            "result": None if self.result is None else self.result.to_dict(),
            "signed": list(self.signed),
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> ScoreSheet:
        first, second = data["teams"]
        a, b, c, d = data["players"]
        left, right = data.get("signed", (False, False))
        result = data.get("result")
        return cls(
            int(data["round"]),
            int(data["table"]),
            (str(first), str(second)),
            (str(a), str(b), str(c), str(d)),
            tuple(DealLine.from_dict(line) for line in data.get("lines", ())),
            tuple(PenaltyRecord.from_dict(record) for record in data.get("penalties", ())),
            None if result is None else TableResult.from_dict(result),
            (bool(left), bool(right)),
        )


def sheet_from_match(
    round_number: int,
    table: int,
    teams: tuple[str, str],
    players: tuple[str, str, str, str],
    match: Match,
    result: TableResult | None = None,
    penalties: tuple[PenaltyRecord, ...] = (),
) -> ScoreSheet:
    """A sheet filled from an engine match: a line per finished deal; the result given, or the
    match's own when it is over; unsigned."""
    if result is None and match.is_over:
        result = TableResult.from_match(match)
    return ScoreSheet(round_number, table, teams, players, deal_lines(match), penalties, result)


__all__ = ["DealLine", "ScoreSheet", "deal_lines", "sheet_from_match"]
