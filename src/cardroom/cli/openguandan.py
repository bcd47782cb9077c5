"""``compete`` and ``connect`` with ``--protocol openguandan`` (docs/openguandan-protocol.md): the
server of OpenGuanDan's platform protocol and our bots' client for it, run and reported for people."""

from __future__ import annotations

import os
from enum import StrEnum
from pathlib import Path
from typing import TYPE_CHECKING

import typer
from rich.console import Console
from rich.markup import escape
from rich.table import Table

from cardroom.cli.options import client_errors, competition_logging, open_console
from cardroom.competition.progress import connection_label
from cardroom.guandan.ruleset import RuleSet
from cardroom.records.render import plural

if TYPE_CHECKING:
    from cardroom.openguandan.client import SeatReport

LOGGERS = ("cardroom.competition", "cardroom.openguandan")
DEFAULT_PORT = 8181
"""The Java server's port, ours too by default."""


class Protocol(StrEnum):
    """The protocols ``compete`` serves and ``connect`` speaks."""

    COMPETITION = "competition"
    OPENGUANDAN = "openguandan"


def compete(
    *,
    host: str,
    port: int | None,
    games: int,
    rooms: int | None,
    deals: int | None,
    seed: int | None,
    rules: RuleSet,
    out: Path | None,
    quiet: bool,
) -> None:
    """Serve OpenGuanDan rooms until ``rooms`` are over (or Ctrl-C), then print each room's games."""
    from cardroom.openguandan.server import ServeConfig, run_serve

    config = ServeConfig(
        host=host,
        port=DEFAULT_PORT if port is None else port,
        games=games,
        max_deals=deals,
        seed=seed,
        rules=rules,
        out=out,
        rooms=rooms,
    )
    competition_logging(not quiet, LOGGERS)
    console = open_console()
    try:
        report = run_serve(config)
    except KeyboardInterrupt:
        console.print("[bold yellow]Stopped[/]: the games finished so far are recorded")
        raise typer.Exit(130) from None
    except OSError as error:
        console.print(f"[bold red]Cannot listen on {escape(host)}:{config.port}[/]: {escape(str(error))}")
        raise typer.Exit(1) from None
    table = Table("room", "users (seats 0–3)", "game", "winner", "levels", "record")
    for room in report.rooms:
        for number, (winner, levels) in enumerate(zip(room.winners, room.levels, strict=True), start=1):
            record = escape(str(room.records[number - 1])) if number <= len(room.records) else "-"
            team = "-" if winner is None else f"team {winner}"
            table.add_row(
                str(room.room_id),
                escape(", ".join(room.users)),
                str(number),
                team,
                " : ".join(levels),
                record,
            )
    console.print(table)
    console.print(
        f"{plural(len(report.rooms), 'room')}; {plural(report.frames_sent, 'frame')} sent, "
        f"{plural(report.refused, 'client frame')} refused."
    )


def connect(
    url: str,
    *,
    room: int | None,
    seat: int | None,
    create: bool,
    games: int,
    user: str | None,
    bot: str,
    seed: int | None,
    fallback: str,
    rules: RuleSet,
    wait: float,
    idle: float | None,
    quiet: bool,
) -> None:
    """Take a seat (or make the room) at ``url`` and play it to ``gameOver``; exit 1 with the reason when
    the client cannot go on."""
    from cardroom.openguandan.client import DEFAULT_IDLE, Seating, run_connect

    if create == (room is not None):
        raise typer.BadParameter("give --room N to join a room, or --create to make one", param_hint="--room")
    user_id = user or (f"cardroom-{seat}" if seat is not None else f"cardroom-{os.getpid()}")
    seating = Seating(user_id, room, seat, games)
    competition_logging(not quiet, LOGGERS)
    console = open_console()

    def seated(room_id: int, seat_taken: int) -> None:
        if create:
            console.print(
                f"Created room {room_id} ({plural(games, 'game')}): others join it with --room {room_id}"
            )
        console.print(f"Seat {seat_taken} of room {room_id} as {escape(user_id)}, with the {escape(bot)} bot")

    with client_errors(console):
        report = run_connect(
            url,
            seating,
            bot,
            seed=seed,
            fallback=fallback,
            rules=rules,
            wait=wait,
            idle=DEFAULT_IDLE if idle is None else idle,
            on_room=seated,
        )
    print_seat_report(report, console)


def connect_ladder(
    url: str,
    token: str,
    *,
    bot: str,
    seed: int | None,
    fallback: str,
    rules: RuleSet,
    wait: float,
    idle: float | None,
    quiet: bool,
    connections: int,
    episodes: int | None,
) -> None:
    """Play a card room's ladder over OpenGuanDan's protocol with ``connections`` connections; exit 1
    when it cannot connect or the token is refused or revoked (never printing the token)."""
    from cardroom.openguandan.client import run_ladder

    competition_logging(not quiet, LOGGERS)
    console = open_console()
    with client_errors(console):
        reports = run_ladder(
            url,
            token,
            bot,
            seed=seed,
            fallback=fallback,
            rules=rules,
            wait=wait,
            idle=idle,
            connections=connections,
            episodes=episodes,
        )
    refused = False
    for report in reports:
        if report.token_refused:
            reason = report.refusals[-1] if report.refusals else report.close_reason
            console.print(f"[bold red]The token was refused or revoked[/] (close 4401): {escape(reason)}")
            refused = True
        console.print(
            f"{connection_label(report)}: {plural(report.games, 'table')}, "
            f"{plural(report.deals, 'deal')}, {plural(report.decisions, 'decision')}; the bot failed "
            f"{report.bot_failures}×, chose off the list {report.off_list}×; "
            f"{plural(len(report.refusals), 'refusal')} from the server."
        )
    if refused:
        raise typer.Exit(1)


def print_seat_report(report: SeatReport, console: Console) -> None:
    """The room and seat, the games, deals and decisions, the bot's failures, the room's result."""
    console.print(
        f"Room {report.room}, seat {report.seat}: {plural(report.games, 'game')}, "
        f"{plural(report.deals, 'deal')}, {plural(report.decisions, 'decision')}; the bot failed "
        f"{report.bot_failures}×, chose off the list {report.off_list}×."
    )
    result = report.result
    if result is not None:
        console.print(
            f"Result: team {result.get('victory')} won the last game; levels {result.get('victoryRank')}, "
            f"gameResult {result.get('gameResult')}, victoryNum {result.get('victoryNum')}"
        )
