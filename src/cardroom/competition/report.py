"""The reports of ``cardroom compete`` and ``cardroom connect``
(:class:`~cardroom.competition.server.CompeteReport`, :class:`~cardroom.competition.client.ConnectReport`)
printed for people."""

from __future__ import annotations

from typing import TYPE_CHECKING

from rich.console import Console
from rich.markup import escape
from rich.table import Table

from cardroom.competition.progress import connection_label
from cardroom.records.render import plural

if TYPE_CHECKING:
    from cardroom.competition.client import ConnectReport
    from cardroom.competition.server import CompeteConfig, CompeteReport


def print_compete_report(report: CompeteReport, config: CompeteConfig, console: Console) -> None:
    """Each match's winner, levels, score and record; each seat's player and what the fallback played."""
    table = Table("match", "winner", "levels", "28-point score", "record")
    for number, (result, path) in enumerate(zip(report.results, report.records, strict=True), start=1):
        winner = "draw" if result["winner"] is None else f"team {result['winner']}"
        points = " : ".join(str(value) for value in result["points"]) if result["points"] else "-"
        table.add_row(str(number), winner, " : ".join(result["levels"]), points, escape(str(path)))
    console.print(table)
    for seat in report.seats:
        kind = "client" if seat.external else "bot"
        faults = ", ".join(f"{code} ×{count}" for code, count in sorted(seat.errors.items()))
        line = f"seat {seat.seat}: {escape(seat.name)} ({kind})"
        if seat.substitutions:
            line += f", {config.fallback} played {plural(seat.substitutions, 'decision')} ({escape(faults)})"
        console.print(line)


def print_connect_report(report: ConnectReport, console: Console) -> None:
    """The seat, the matches, deals and decisions, the bot's failures, the server's errors, the result."""
    console.print(
        f"{connection_label(report)}: {plural(report.matches, 'match')}, {plural(report.deals, 'deal')}, "
        f"{plural(report.decisions, 'decision')}; the bot failed {report.bot_failures}×, chose off the "
        f"list {report.off_list}×; {plural(len(report.errors), 'error message')} from the server"
        + (f"; connected again {report.reconnections}×." if report.reconnections else ".")
    )
    if report.result is not None:
        victories, draws = report.result.get("victoryNum"), report.result.get("draws")
        console.print(f"Result: victories {victories}, draws {draws} (per seat)")
