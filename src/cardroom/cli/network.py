"""Commands that serve or join over the network: ``serve`` (the web card room), ``compete`` (a server
of the AI competition's protocol) and ``connect`` (one of our bots at such a server)."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Annotated

import typer
from rich.markup import escape

from cardroom.bots import BOTS
from cardroom.cli.options import (
    DatabaseUrlOption,
    DataFolderOption,
    bot_name,
    competition_logging,
    guandan_rules,
    open_console,
)


def serve_command(
    host: Annotated[str, typer.Option(help="Address to listen on.")] = "127.0.0.1",
    port: Annotated[int, typer.Option(min=1, max=65535, help="Port to listen on.")] = 8000,
    database_url: DatabaseUrlOption = None,
    data: DataFolderOption = None,
    bot_delay: Annotated[
        float, typer.Option(min=0, max=10, help="Seconds a bot waits before it acts.")
    ] = 0.6,
    deal_pause: Annotated[float, typer.Option(min=0, max=120, help="Seconds between two deals.")] = 4.0,
    deal_pace: Annotated[
        float, typer.Option(min=0, max=2, help="Shengji: seconds between two cards dealt.")
    ] = 0.3,
    idle_timeout: Annotated[
        float,
        typer.Option(
            min=0,
            max=24 * 3600,
            help="Seconds a websocket may send nothing before it is closed (0: never). The page pings "
            "every 20 s, a background tab's timers may run once a minute: keep it above 60.",
        ),
    ] = 120.0,
    rate_limits: Annotated[
        float,
        typer.Option(
            min=0,
            help="Multiply every rate limit (messages per connection and per address, tables and "
            "events created, teams registered) by this; 0 turns them off.",
        ),
    ] = 1.0,
    forwarded_allow_ips: Annotated[
        str | None,
        typer.Option(
            help="Proxies trusted to name the client's address (X-Forwarded-For), comma-separated, or '*'; "
            "default: $FORWARDED_ALLOW_IPS, else 127.0.0.1. The rate limits count by that address.",
        ),
    ] = None,
    bot_workers: Annotated[
        int | None,
        typer.Option(min=0, max=64, help="Processes the bots think in (default: one per core; 0: threads)."),
    ] = None,
    log_level: Annotated[str, typer.Option(help="uvicorn's log level.")] = "info",
    workers: Annotated[
        int,
        typer.Option(
            min=1,
            max=64,
            help="Server processes sharing this address and the database (tables owned through leases; "
            "PostgreSQL recommended). Default 1.",
        ),
    ] = 1,
    node_url: Annotated[
        str | None,
        typer.Option(
            help="Share the database with other `cardroom serve` processes: the URL where they reach this "
            "one (http://HOST:PORT). Requests for another process's tables are forwarded to it."
        ),
    ] = None,
    node_name: Annotated[
        str | None,
        typer.Option(
            help="With --node-url: this process's name, kept across restarts (default: host name and port)."
        ),
    ] = None,
    public_url: Annotated[
        str | None,
        typer.Option(
            help="With --node-url: where players' browsers reach this process (http(s)://HOST:PORT). "
            "The table page tries the live processes' public URLs when its own stops answering."
        ),
    ] = None,
    lease_time: Annotated[
        float | None,
        typer.Option(
            min=1,
            max=600,
            help="With several processes: seconds before a dead process's tables move on (default 10).",
        ),
    ] = None,
) -> None:
    """Run the web card room (docs/server.md): the lobby at http://HOST:PORT/, tables, bots, clocks.

    Every table's log is stored as it happens; a restarted server resumes its tables where they were.
    Several processes share one database with --workers N (one address) or --node-url (one each).
    """
    import gc

    import uvicorn

    from cardroom.server.app import create_app
    from cardroom.server.config import GC_THRESHOLDS, Settings
    from cardroom.server.leases import LEASE_TTL, Node
    from cardroom.server.workers import WorkerOptions, serve_workers

    if workers > 1 and node_url is not None:
        raise typer.BadParameter("give --workers or --node-url, not both", param_hint="--node-url")
    if public_url is not None and node_url is None:
        raise typer.BadParameter(
            "a public URL is for a process of several: give --node-url too", param_hint="--public-url"
        )
    try:
        node = None if node_url is None else Node.at(node_url, node_name, public_url)
    except ValueError as error:
        hint = "--public-url" if str(error).startswith("public URL") else "--node-url"
        raise typer.BadParameter(str(error), param_hint=hint) from None
    lease_time = lease_time or LEASE_TTL
    if workers > 1 and bot_workers is None:
        bot_workers = max(1, (os.cpu_count() or 1) // workers)
    settings = Settings(
        bot_delay=bot_delay,
        deal_pause=deal_pause,
        deal_pace=deal_pace,
        idle_timeout=idle_timeout or None,
        bot_workers=bot_workers,
    ).with_rate_limits(rate_limits)
    if workers > 1:
        serve_workers(
            workers,
            WorkerOptions(
                database_url, data, settings, host, port, lease_time, forwarded_allow_ips, log_level
            ),
        )
        return
    gc.set_threshold(*GC_THRESHOLDS)
    uvicorn.run(
        create_app(database_url, data, settings=settings, node=node, lease_ttl=lease_time),
        host=host,
        port=port,
        ws_max_size=settings.max_message * 4,
        ws_per_message_deflate=False,
        forwarded_allow_ips=forwarded_allow_ips,
        log_level=log_level,
    )


def _bot_seats(options: list[str]) -> dict[int, str]:
    seats: dict[int, str] = {}
    for option in options:
        seat_text, sep, name = option.partition("=")
        if not sep or seat_text.strip() not in ("0", "1", "2", "3"):
            raise typer.BadParameter(
                f"{option!r}: write SEAT=BOT with SEAT 0–3, e.g. 1=heuristic", param_hint="--bot"
            )
        seat = int(seat_text)
        if seat in seats:
            raise typer.BadParameter(f"seat {seat} is given twice", param_hint="--bot")
        seats[seat] = bot_name(name.strip(), "--bot")
    return seats


def compete_command(
    port: Annotated[
        int, typer.Option(min=0, max=65535, help="Port to listen on (0: any free port).")
    ] = 23456,
    host: Annotated[str, typer.Option(help="Address to listen on.")] = "127.0.0.1",
    bot: Annotated[
        list[str] | None,
        typer.Option(
            help=f"SEAT=BOT: our bot plays that seat (repeatable); other seats wait for clients at "
            f"ws://HOST:PORT/game/client{{SEAT}}. Bots: {', '.join(sorted(BOTS))}."
        ),
    ] = None,
    matches: Annotated[int, typer.Option(min=1, help="Matches to play.")] = 1,
    deals: Annotated[
        int | None, typer.Option(min=1, help="Deals per match (default: play until a team passes A).")
    ] = None,
    seed: Annotated[int | None, typer.Option(help="Seed of the shuffles and of our bots.")] = None,
    rules: Annotated[str, typer.Option(help="Rule-set preset.")] = "competition",
    timeout: Annotated[float, typer.Option(min=0.01, help="Seconds a client has for each decision.")] = 20.0,
    fallback: Annotated[
        str, typer.Option(help="Bot that plays a decision a client fails to answer in time or legibly.")
    ] = "heuristic",
    out: Annotated[Path, typer.Option(help="Folder for the match records (match-001.json, …).")] = Path(
        "compete-records"
    ),
    error_messages: Annotated[
        bool,
        typer.Option(
            "--error-messages/--no-error-messages",
            help="Send a client an error message when its answer cannot be used (else only log it).",
        ),
    ] = True,
    quiet: Annotated[bool, typer.Option(help="Log only warnings.")] = False,
) -> None:
    """Run matches in the Guandan AI competition's websocket protocol (docs/competition-protocol.md).

    Seats not given to our bots wait for external clients; the matches start once every one has
    connected. A record of each match is written to OUT (replay it with `cardroom replay`).
    """
    from cardroom.competition.report import print_compete_report
    from cardroom.competition.server import CompeteConfig, run_compete

    config = CompeteConfig(
        host=host,
        port=port,
        bots=_bot_seats(bot or []),
        matches=matches,
        max_deals=deals,
        seed=seed,
        rules=guandan_rules(rules),
        timeout=timeout,
        fallback=bot_name(fallback, "--fallback"),
        out=out,
        send_errors=error_messages,
    )
    competition_logging(not quiet)
    console = open_console()
    try:
        report = run_compete(config)
    except KeyboardInterrupt:
        console.print(
            f"[bold yellow]Stopped[/]: the match in progress is recorded as it stood in {escape(str(out))}"
        )
        raise typer.Exit(130) from None
    except OSError as error:
        console.print(f"[bold red]Cannot listen on {escape(host)}:{port}[/]: {escape(str(error))}")
        raise typer.Exit(1) from None
    print_compete_report(report, config, console)


def connect_command(
    url: Annotated[str, typer.Argument(help="The seat's address, e.g. ws://127.0.0.1:23456/game/client1.")],
    bot: Annotated[str, typer.Option(help=f"Our bot at the seat; available: {', '.join(sorted(BOTS))}.")] = (
        "heuristic"
    ),
    seed: Annotated[int | None, typer.Option(help="Seed of the bot.")] = None,
    fallback: Annotated[str, typer.Option(help="Bot that decides when the first one fails.")] = "heuristic",
    rules: Annotated[str, typer.Option(help="Rule-set preset the server plays.")] = "competition",
    wait: Annotated[
        float,
        typer.Option(
            min=0, help="Seconds to keep trying while nothing listens at URL (also when connecting again)."
        ),
    ] = 10.0,
    idle: Annotated[
        float | None,
        typer.Option(
            min=0.1, help="Seconds without a message from the server before giving up [default: 300]."
        ),
    ] = None,
    quiet: Annotated[bool, typer.Option(help="Log only warnings.")] = False,
) -> None:
    """Play one seat of a server that speaks the Guandan AI competition's protocol with one of our bots.

    The client rebuilds the seat's view from the messages and answers each `act` message with the
    index of the bot's choice in `actionList`; a connection that drops before the games end is made
    again. Exit code 0 when the server ends the games, 1 when it cannot connect, the server refuses the
    seat, stays silent for `--idle` seconds or speaks another protocol.
    """
    from cardroom.competition.client import DEFAULT_IDLE, ConnectError, run_connect
    from cardroom.competition.report import print_connect_report

    competition_logging(not quiet)
    console = open_console()
    try:
        report = run_connect(
            url,
            bot_name(bot, "--bot"),
            seed=seed,
            fallback=bot_name(fallback, "--fallback"),
            rules=guandan_rules(rules),
            wait=wait,
            idle=DEFAULT_IDLE if idle is None else idle,
        )
    except ConnectError as error:
        console.print(f"[bold red]Cannot play[/]: {escape(str(error))}")
        raise typer.Exit(1) from None
    except KeyboardInterrupt:
        console.print("[bold yellow]Stopped[/]")
        raise typer.Exit(130) from None
    if report.close_code == 1008:
        reason = next((str(error.get("message")) for error in report.errors), report.close_reason)
        console.print(f"[bold red]The server refused the seat[/]: {escape(reason)}")
        raise typer.Exit(1)
    print_connect_report(report, console)
