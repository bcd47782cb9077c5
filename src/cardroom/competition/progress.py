"""What ``cardroom connect`` says of each connection as it goes: which one it is, and each table (deal) as
it ends."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Protocol


class Connection(Protocol):
    """A connection's report as far as these lines need it: which connection of the run, its seat."""

    @property
    def number(self) -> int: ...

    @property
    def seat(self) -> int | None: ...


def connection_label(report: Connection) -> str:
    """``Connection 1 (seat 2)``: which connection of the run, and its seat (``?`` before one came)."""
    seat = "?" if report.seat is None else str(report.seat)
    return f"Connection {report.number + 1} (seat {seat})"


def table_line(report: Connection, message: Mapping[str, Any]) -> str:
    """The line said as a table (deal) ends: the connection, its seat and how the deal ended."""
    label = connection_label(report)
    if message.get("stage") != "episodeOver":
        return f"{label}: the table ended without its deal (a forfeit: gameOver without episodeOver)"
    order = message.get("order")
    if not isinstance(order, list) or not order or report.seat is None:
        return f"{label}: deal over"
    ours = "our team" if order[0] in (report.seat % 2, report.seat % 2 + 2) else "their team"
    places = " ".join(str(seat) for seat in order)
    return f"{label}: deal over, finishing order {places} ({ours} went out first)"
