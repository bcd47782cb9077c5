"""One round of an event as a value: its tables (the published pairings), each table's result, and
what the director recorded in it: when the round was declared started and when it ended, each team's
arrival, the penalties and every entry and correction of a result.

Publishing the pairings and starting the round are two steps (docs/tournaments.md, "Lateness"): a round
is paired with ``started_at`` ``None``; lateness counts from ``started_at``.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from cardroom.tournament.conduct import Clocks, Offence, Penalty
from cardroom.tournament.director import Arrival, PenaltyEntry, ResultChange, time_from_text, time_to_text
from cardroom.tournament.lateness import SideLateness, judge_lateness
from cardroom.tournament.pairing import Pairing, RoundDraw
from cardroom.tournament.refusals import EventError, EventLookupError
from cardroom.tournament.scoring import TableResult


@dataclass(frozen=True)
class Round:
    """A paired round and the results entered so far, one per table (``None``: not yet)."""

    number: int
    draw: RoundDraw
    results: tuple[TableResult | None, ...]
    started_at: datetime | None = None
    """When the director declared the round started (宣布比赛开始); ``None``: published, not started."""
    ended_at: datetime | None = None
    """When the round's last result was entered: the correction window counts from here."""
    arrivals: tuple[Arrival, ...] = ()
    penalties: tuple[PenaltyEntry, ...] = ()
    changes: tuple[ResultChange, ...] = ()
    """Every entry of a result, first entries and corrections, in order."""

    @property
    def pairings(self) -> tuple[Pairing, ...]:
        return self.draw.pairings

    @property
    def complete(self) -> bool:
        return all(result is not None for result in self.results)

    def pairing(self, table: int) -> Pairing:
        for pairing in self.pairings:
            if pairing.table == table:
                return pairing
        tables = ", ".join(str(pairing.table) for pairing in self.pairings) or "none"
        raise EventLookupError("no_table", round=self.number, table=table, tables=tables)

    def table_of(self, team: str) -> Pairing:
        """The table where ``team`` plays this round."""
        for pairing in self.pairings:
            if team in pairing.teams:
                return pairing
        if self.draw.bye == team:
            raise EventError("bye_no_table", team=team, round=self.number)
        raise EventError("no_table_for_team", team=team, round=self.number)

    def side_of(self, table: int, team: str) -> int:
        """The side (0: seats 0 & 2, 1: seats 1 & 3) of ``team`` at ``table``, or a clear error."""
        pairing = self.pairing(table)
        if team not in pairing.teams:
            first, second = pairing.teams
            raise EventError(
                "team_not_at_table", team=team, table=table, round=self.number, first=first, second=second
            )
        return pairing.teams.index(team)

    def result(self, table: int) -> TableResult | None:
        return self.results[self.pairings.index(self.pairing(table))]

    def arrival(self, team: str) -> datetime | None:
        """When ``team`` was seated (the first record), or ``None``."""
        return next((arrival.at for arrival in self.arrivals if arrival.team == team), None)

    def lateness(self, table: int, now: datetime, clocks: Clocks) -> tuple[SideLateness, SideLateness]:
        """Both sides' lateness at ``table`` at ``now`` (:func:`.lateness.judge_lateness`)."""
        if self.started_at is None:
            raise EventError("lateness_before_start", round=self.number)
        first, second = self.pairing(table).teams
        return judge_lateness(self.started_at, (self.arrival(first), self.arrival(second)), now, clocks)

    def table_penalties(self, table: int) -> tuple[PenaltyEntry, ...]:
        return tuple(entry for entry in self.penalties if entry.table == table)

    def late_fouls(self, table: int) -> tuple[int, ...]:
        """The sides judged a foul (犯规) for lateness at ``table``, in the order judged: each loses a
        deal of its match as a foul, from the first deal on (docs/rules/competition.md#late, #foul). Of
        two late sides the one seated first is warned, so there is at most one."""
        teams = self.pairing(table).teams
        return tuple(
            teams.index(entry.team)
            for entry in self.table_penalties(table)
            if entry.offence is Offence.LATE and entry.penalty is Penalty.FOUL
        )

    def table_changes(self, table: int) -> tuple[ResultChange, ...]:
        return tuple(change for change in self.changes if change.table == table)

    def to_dict(self) -> dict[str, Any]:
        return {
            "number": self.number,
            "pairings": [pairing.to_dict() for pairing in self.pairings],
            "bye": self.draw.bye,
            "results": [None if result is None else result.to_dict() for result in self.results],
            "started_at": time_to_text(self.started_at),
            "ended_at": time_to_text(self.ended_at),
            "arrivals": [arrival.to_dict() for arrival in self.arrivals],
            "penalties": [entry.to_dict() for entry in self.penalties],
            "changes": [change.to_dict() for change in self.changes],
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Round:
        """A round from :meth:`to_dict`; the director's records are optional (files written before
        they existed have none)."""
        return cls(
            int(data["number"]),
            RoundDraw(tuple(Pairing.from_dict(p) for p in data["pairings"]), data.get("bye")),
            tuple(None if r is None else TableResult.from_dict(r) for r in data["results"]),
            time_from_text(data.get("started_at")),
            time_from_text(data.get("ended_at")),
            tuple(Arrival.from_dict(a) for a in data.get("arrivals", ())),
            tuple(PenaltyEntry.from_dict(p) for p in data.get("penalties", ())),
            tuple(ResultChange.from_dict(c) for c in data.get("changes", ())),
        )


__all__ = ["Round"]
