"""Commands that serve or join over the network: ``serve`` (the web card room), ``compete`` (a server
of the AI competition's protocol, or of OpenGuanDan's with ``--protocol openguandan``) and ``connect``
(one of our bots at such a server; the OpenGuanDan side is :mod:`cardroom.cli.openguandan`)."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Annotated

import typer
from rich.markup import escape

from cardroom.bots import BOTS
from cardroom.cli.openguandan import Protocol
from cardroom.cli.openguandan import compete as compete_openguandan
from cardroom.cli.openguandan import connect as connect_openguandan
from cardroom.cli.openguandan import connect_ladder as connect_openguandan_ladder
from cardroom.cli.options import (
    DatabaseUrlOption,
    DataFolderOption,
    bot_name,
    client_errors,
    competition_logging,
    guandan_rules,
    open_console,
)
from cardroom.ladder.entrants import HOUSE_BOTS

LADDER_CONNECTIONS = 4
"""``connect --token``'s connections by default: the ladder seats a bot once 2 connections per deal pair
of a match wait, and a match has 2 deal pairs by default (docs/ladder.md, "Its matches")."""


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
    address_sockets: Annotated[
        int,
        typer.Option(
            min=0,
            help="Websockets one client address may hold open at once (0: no limit). A load test from "
            "one machine sets 0.",
        ),
    ] = 50,
    address_tables: Annotated[
        int,
        typer.Option(
            min=0, help="Tables waiting for players one address may have open at once (0: no limit)."
        ),
    ] = 10,
    waiting_expiry: Annotated[
        float,
        typer.Option(
            min=0,
            max=30 * 24 * 3600,
            help="Seconds a table may wait for its players before it expires (0: never).",
        ),
    ] = 3600.0,
    unload_after: Annotated[
        float,
        typer.Option(
            min=0,
            max=24 * 3600,
            help="Seconds a table nobody is connected to, with nothing due, stays in memory before it is "
            "unloaded (it is replayed from its log when asked for again).",
        ),
    ] = 30.0,
    idle_tables: Annotated[
        int,
        typer.Option(
            min=0, help="Idle tables kept in memory at most; past it the longest idle are unloaded."
        ),
    ] = 100,
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
    ladder: Annotated[
        bool,
        typer.Option(help="Run the bot ladder (docs/ladder.md): ready bots play rated duplicate matches."),
    ] = True,
    ladder_house: Annotated[
        str, typer.Option(help="The ladder's house bots, comma-separated (permanent entrants).")
    ] = ",".join(HOUSE_BOTS),
    ladder_deal_pairs: Annotated[
        int, typer.Option(min=1, max=10, help="Deal pairs in a ladder match (two tables each).")
    ] = 2,
    ladder_interval: Annotated[
        float, typer.Option(min=0.01, max=3600, help="Seconds between two looks for ladder matches.")
    ] = 5.0,
    ladder_matches: Annotated[
        int, typer.Option(min=1, max=1000, help="Ladder matches running at once at most.")
    ] = 4,
    ladder_clock: Annotated[
        float,
        typer.Option(
            min=0.01, max=60, help="Seconds a bot has for each decision at a ladder table (every bot's)."
        ),
    ] = 5.0,
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

    from cardroom.server.api.access_log import log_config
    from cardroom.server.api.app import create_app
    from cardroom.server.api.workers import WorkerOptions, serve_workers
    from cardroom.server.ladder import LadderSettings
    from cardroom.server.live.settings import GC_THRESHOLDS, Settings
    from cardroom.server.storage.leases import LEASE_TTL, Node
    from cardroom.server.tables.config import TableDefaults

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
        table_defaults=TableDefaults(bot_delay=bot_delay, deal_pause=deal_pause, deal_pace=deal_pace),
        idle_timeout=idle_timeout or None,
        bot_workers=bot_workers,
        address_sockets=address_sockets or None,
        address_waiting_tables=address_tables or None,
        waiting_expiry=waiting_expiry or None,
        unload_after=unload_after,
        idle_tables=idle_tables,
    ).with_rate_limits(rate_limits)
    if workers > 1:
        serve_workers(
            workers,
            WorkerOptions(
                database_url, data, settings, host, port, lease_time, forwarded_allow_ips, log_level
            ),
        )
        return
    try:
        ladder_settings = (
            LadderSettings(
                house=tuple(name.strip() for name in ladder_house.split(",") if name.strip()),
                deal_pairs=ladder_deal_pairs,
                interval=ladder_interval,
                most_matches=ladder_matches,
                clock=ladder_clock,
            )
            if ladder
            else None
        )
    except ValueError as error:
        raise typer.BadParameter(str(error), param_hint="--ladder-house") from None
    gc.set_threshold(*GC_THRESHOLDS)
    uvicorn.run(
        create_app(
            database_url, data, settings=settings, node=node, lease_ttl=lease_time, ladder=ladder_settings
        ),
        host=host,
        port=port,
        ws_max_size=settings.max_message * 4,
        ws_per_message_deflate=False,
        forwarded_allow_ips=forwarded_allow_ips,
        log_level=log_level,
        log_config=log_config(),
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


ProtocolOption = Annotated[
    Protocol,
    typer.Option(
        help="competition: the Guandan AI competition's protocol (docs/competition-protocol.md); "
        "openguandan: OpenGuanDan's platform, rooms made by its clients (docs/openguandan-protocol.md)."
    ),
]


def compete_command(
    protocol: ProtocolOption = Protocol.COMPETITION,
    port: Annotated[
        int | None,
        typer.Option(
            min=0, max=65535, help="Port to listen on (0: any free port); default 23456, openguandan 8181."
        ),
    ] = None,
    host: Annotated[str, typer.Option(help="Address to listen on.")] = "127.0.0.1",
    bot: Annotated[
        list[str] | None,
        typer.Option(
            help=f"competition: SEAT=BOT: our bot plays that seat (repeatable); other seats wait for clients "
            f"at ws://HOST:PORT/game/client{{SEAT}}. Bots: {', '.join(sorted(BOTS))}."
        ),
    ] = None,
    matches: Annotated[int, typer.Option(min=1, help="competition: matches to play.")] = 1,
    games: Annotated[
        int,
        typer.Option(min=1, help="openguandan: the games of a room whose CREATE_ROOM gives no round."),
    ] = 1,
    rooms: Annotated[
        int | None,
        typer.Option(
            min=1, help="openguandan: stop once this many rooms are over (default: serve until Ctrl-C)."
        ),
    ] = None,
    deals: Annotated[
        int | None,
        typer.Option(min=1, help="Deals per match or game (default: play until a team passes A)."),
    ] = None,
    seed: Annotated[int | None, typer.Option(help="Seed of the shuffles and of our bots.")] = None,
    rules: Annotated[str, typer.Option(help="Rule-set preset.")] = "competition",
    timeout: Annotated[
        float, typer.Option(min=0.01, help="competition: seconds a client has for each decision.")
    ] = 20.0,
    fallback: Annotated[
        str,
        typer.Option(
            help="competition: the bot that plays a decision a client fails to answer in time or legibly."
        ),
    ] = "heuristic",
    out: Annotated[
        Path,
        typer.Option(
            help="Folder for the records (match-001.json, …; openguandan: room-001-game-01.json, …)."
        ),
    ] = Path("compete-records"),
    error_messages: Annotated[
        bool,
        typer.Option(
            "--error-messages/--no-error-messages",
            help="competition: send a client an error message when its answer cannot be used (else only log "
            "it).",
        ),
    ] = True,
    quiet: Annotated[bool, typer.Option(help="Log only warnings.")] = False,
) -> None:
    """Run matches in the Guandan AI competition's websocket protocol (docs/competition-protocol.md), or
    serve OpenGuanDan's rooms (--protocol openguandan, docs/openguandan-protocol.md).

    competition: seats not given to our bots wait for external clients; the matches start once every
    one has connected. openguandan: clients make rooms (CREATE_ROOM) and take their seats (JOIN_ROOM);
    a room's games start at its fourth seat. A record of each match or game is written to OUT (replay
    it with `cardroom replay`).
    """
    if protocol is Protocol.OPENGUANDAN:
        if bot:
            raise typer.BadParameter(
                "openguandan rooms are played by clients: run `cardroom connect "
                "--protocol openguandan` for our bots",
                param_hint="--bot",
            )
        compete_openguandan(
            host=host,
            port=port,
            games=games,
            rooms=rooms,
            deals=deals,
            seed=seed,
            rules=guandan_rules(rules),
            out=out,
            quiet=quiet,
        )
        return
    from cardroom.competition.report import print_compete_report
    from cardroom.competition.server import CompeteConfig, run_compete

    config = CompeteConfig(
        host=host,
        port=23456 if port is None else port,
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
        console.print(f"[bold red]Cannot listen on {escape(host)}:{config.port}[/]: {escape(str(error))}")
        raise typer.Exit(1) from None
    print_compete_report(report, config, console)


def connect_command(
    url: Annotated[
        str,
        typer.Argument(
            help="The seat's address, e.g. ws://127.0.0.1:23456/game/client1; openguandan: the server's, "
            "e.g. ws://127.0.0.1:8181."
        ),
    ],
    protocol: ProtocolOption = Protocol.COMPETITION,
    room: Annotated[int | None, typer.Option(help="openguandan: the room to join (JOIN_ROOM).")] = None,
    seat: Annotated[
        int | None, typer.Option(min=0, max=3, help="openguandan: the seat to take (default: any free one).")
    ] = None,
    create: Annotated[
        bool, typer.Option(help="openguandan: make the room (CREATE_ROOM) and print its id, then play.")
    ] = False,
    games: Annotated[
        int, typer.Option(min=1, help="openguandan, with --create: the room's games (round).")
    ] = 1,
    user: Annotated[
        str | None,
        typer.Option(
            help="openguandan: the userId to sit as (default cardroom-SEAT); the same id takes a "
            "dropped seat back on our server."
        ),
    ] = None,
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
            min=0.1, help="Seconds without a message from the server before giving up (default 300)."
        ),
    ] = None,
    quiet: Annotated[bool, typer.Option(help="Log only warnings.")] = False,
    token: Annotated[
        str | None,
        typer.Option(
            envvar="CARDROOM_BOT_TOKEN",
            show_envvar=True,
            help="A card room bot's API token, sent as 'Authorization: Bearer' (the ladder: "
            "ws://HOST/ws/ladder/competition, or ws://HOST/ws/ladder/openguandan with --protocol "
            "openguandan). Never printed.",
        ),
    ] = None,
    connections: Annotated[
        int | None,
        typer.Option(
            min=1,
            max=40,
            help="Connections opened at once, each a seat (default 1; with --token 4: the ladder seats a "
            "bot once 2 per deal pair of a match wait, 2 deal pairs by default).",
        ),
    ] = None,
    episodes: Annotated[
        int | None,
        typer.Option(
            min=1, help="Stop each connection after this many deals (default: until the server closes)."
        ),
    ] = None,
) -> None:
    """Play one seat of a server that speaks the Guandan AI competition's protocol with one of our bots,
    a card room's ladder over it (--token, --connections), or a seat of an OpenGuanDan room
    (--protocol openguandan --room N --seat S, or --create), or the ladder over OpenGuanDan's protocol
    (--protocol openguandan --token, --connections).

    The client rebuilds the seat's view from the messages and answers each request with the bot's
    choice from `actionList`. competition: a connection that drops before the games end is made again.
    openguandan: the client stops at gameOver; the platform has no reconnection, so a dropped connection
    loses the seat. Exit code 0 when the games end, 1 when it cannot connect, the server refuses the
    seat or a frame, stays silent for `--idle` seconds, drops the connection (openguandan) or speaks
    another protocol.
    """
    if connections is None:
        connections = LADDER_CONNECTIONS if token is not None else 1
    if protocol is Protocol.OPENGUANDAN and token is not None:
        if room is not None or seat is not None or create or user is not None:
            raise typer.BadParameter(
                "the ladder gives each connection its seats: no --room, --seat, --create or --user with "
                "--token",
                param_hint="--token",
            )
        connect_openguandan_ladder(
            url,
            token,
            bot=bot_name(bot, "--bot"),
            seed=seed,
            fallback=bot_name(fallback, "--fallback"),
            rules=guandan_rules(rules),
            wait=wait,
            idle=idle,
            quiet=quiet,
            connections=connections,
            episodes=episodes,
        )
        return
    if protocol is Protocol.OPENGUANDAN:
        if connections != 1 or episodes is not None:
            raise typer.BadParameter(
                "--connections and --episodes are for the ladder (with --token) or the competition protocol",
                param_hint="--protocol",
            )
        connect_openguandan(
            url,
            room=room,
            seat=seat,
            create=create,
            games=games,
            user=user,
            bot=bot_name(bot, "--bot"),
            seed=seed,
            fallback=bot_name(fallback, "--fallback"),
            rules=guandan_rules(rules),
            wait=wait,
            idle=idle,
            quiet=quiet,
        )
        return
    if room is not None or seat is not None or create or user is not None:
        raise typer.BadParameter(
            "--room, --seat, --create and --user are for --protocol openguandan", param_hint="--protocol"
        )
    from cardroom.competition.client import DEFAULT_IDLE, run_connections
    from cardroom.competition.report import print_connect_report

    competition_logging(not quiet)
    console = open_console()
    if idle is None:  # a ladder's connection waits for its seat as long as it takes
        idle = None if token is not None else DEFAULT_IDLE
    with client_errors(console):
        reports = run_connections(
            url,
            bot_name(bot, "--bot"),
            seed=seed,
            fallback=bot_name(fallback, "--fallback"),
            rules=guandan_rules(rules),
            wait=wait,
            idle=idle,
            token=token,
            connections=connections,
            episodes=episodes,
        )
    refused = False
    for report in reports:
        if report.token_refused:
            reason = next((str(error.get("message")) for error in report.errors), report.close_reason)
            console.print(f"[bold red]The token was refused or revoked[/] (close 4401): {escape(reason)}")
            refused = True
        elif report.close_code == 1008:
            reason = next((str(error.get("message")) for error in report.errors), report.close_reason)
            console.print(f"[bold red]The server refused the seat[/]: {escape(reason)}")
            refused = True
        print_connect_report(report, console)
    if refused:
        raise typer.Exit(1)
