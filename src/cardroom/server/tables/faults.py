"""Bot accounts' faults at a Guandan table (docs/ladder.md, "Clocks and faults").

A seat held by a bot account (``bot:<id>``) has the table's bot clock (``clocks.bot``) for each decision.
A decision it lets run out, or an ``act`` the rules refuse (:data:`FAULT_CODES`) while it is to act, is a
fault: a ``fault`` entry, then the fallback (the 托管 bot) plays the move; the bot gets no retry. The
seat's fault that reaches the table's ``fault_limit`` forfeits the match for its side instead.

:class:`BotFaults` is a table's count of them. Like :class:`~cardroom.server.tables.conduct.Conduct`, it
reads only what it is given and never writes the log: it builds the ``fault`` entry, which the table
(:class:`~cardroom.server.tables.guandan.Table`) records, and :meth:`BotFaults.apply` is how the table
applies one, live or replayed.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from cardroom.guandan.match import Match
from cardroom.server.tables.codec import ProtocolError
from cardroom.server.tables.entries import FaultEntry, FaultKind
from cardroom.server.tables.seated import Due

FAULT_CODES: Final = frozenset({"illegal_action", "ambiguous_play", "bad_message"})
"""The refusals of a bot's ``act`` that are faults: an action the rules refuse, cards that read several
ways without ``kind`` and ``rank``, an action that cannot be read. Acting out of turn is none (a move
sent after the clock ran out, say)."""


@dataclass(frozen=True)
class Turn:
    """A seat's turn the fallback plays after an illegal action: the deal and how many events it had."""

    seat: int
    at: float
    deal: int
    events: int


class BotFaults:
    """The faults of each seat in the match, and the turn the fallback is to play (after an illegal
    action; a clock's fault is played for at once)."""

    def __init__(self) -> None:
        self.counts = [0, 0, 0, 0]
        """Each seat's faults in the match."""
        self.pending: Turn | None = None
        """The turn whose illegal action the fallback has not yet played for."""

    def entry(self, seat: int, kind: FaultKind, now: float, reason: str | None = None) -> FaultEntry:
        """The ``fault`` entry of ``seat``'s next fault."""
        return FaultEntry(seat, kind, self.counts[seat] + 1, now, reason)

    @staticmethod
    def counts_as_fault(error: ProtocolError) -> bool:
        """Whether a refusal of a bot's ``act`` on its turn is a fault."""
        return error.code in FAULT_CODES

    def waiting(self, match: Match) -> Turn | None:
        """The turn the fallback is to play now, if the table is still at it."""
        turn = self.pending
        deal = match.current_deal
        if turn is None or deal is None or len(match.deals) != turn.deal:
            return None
        if len(deal.events) != turn.events or deal.current_player != turn.seat:
            return None
        return turn

    def fallback_due(self, match: Match) -> Due | None:
        """The fallback's move after an illegal action (a ``Due`` of kind ``auto``), or ``None``."""
        turn = self.waiting(match)
        return None if turn is None else Due(turn.at, "auto", turn.seat)

    def apply(self, entry: FaultEntry, match: Match) -> None:
        """Count a ``fault`` entry (its ``count`` must be the seat's next); an illegal action's turn waits
        for the fallback."""
        if entry.seat not in range(4):
            raise ValueError(f"seat: 0 to 3, got {entry.seat}")
        if entry.count != self.counts[entry.seat] + 1:
            raise ValueError(
                f"seat {entry.seat}'s fault {entry.count}: it has {self.counts[entry.seat]} so far"
            )
        deal = match.current_deal
        if deal is None or deal.current_player != entry.seat:
            raise ValueError(f"a fault of seat {entry.seat} while it is not to act")
        self.counts[entry.seat] = entry.count
        if entry.kind == "illegal":
            self.pending = Turn(entry.seat, entry.at, len(match.deals), len(deal.events))


__all__ = ["FAULT_CODES", "BotFaults", "Turn"]
