"""The card room's ASGI app: the lobby's HTTP API, one websocket per client, the static front end.

``create_app()`` builds it; the store is opened (and migrated) when the app starts, and every waiting
or running table is rebuilt from its log, its clocks started again. See docs/server.md and
docs/protocol.md.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import os
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from functools import cache
from pathlib import Path
from typing import Any, Final
from urllib.parse import quote

from argon2 import PasswordHasher
from fastapi import FastAPI, Request, WebSocket
from fastapi.responses import FileResponse, HTMLResponse, JSONResponse, Response
from fastapi.staticfiles import StaticFiles
from starlette.websockets import WebSocketDisconnect

from cardroom.games import GAMES
from cardroom.server.accounts.accounts import Account, Accounts, account_name
from cardroom.server.accounts.bot_names import bot_names_checked
from cardroom.server.accounts.bots import BotAccounts
from cardroom.server.accounts.fair_play import rated_table_refusal
from cardroom.server.accounts.ratings import Ratings
from cardroom.server.api.account_api import SAFE_METHODS, account_api, csrf_guard
from cardroom.server.api.bot_api import bot_api
from cardroom.server.api.bot_socket import BotSignIn
from cardroom.server.api.cluster import Cluster
from cardroom.server.api.gate import Gate, message_data, rate_limited
from cardroom.server.api.headers import SecurityHeaders, server_error
from cardroom.server.api.ladder_api import ladder_api
from cardroom.server.api.ladder_bot_api import ladder_bot_api
from cardroom.server.api.requests import (
    SESSION_COOKIE,
    accounts_of,
    address,
    bot_token_guard,
    limited,
    read_body,
    refusal_response,
    require_account,
    signed_in,
)
from cardroom.server.api.status_api import status_api
from cardroom.server.events.director import HEADER, Director, LiveEvent, sheet_json
from cardroom.server.ladder import LadderService, LadderSettings
from cardroom.server.ladder.seat_players import SeatPlayers
from cardroom.server.live.bot_sockets import BotSockets
from cardroom.server.live.forwarding import Forwarder, forward_client
from cardroom.server.live.limits import ClientLimits
from cardroom.server.live.outage import StoreOutage
from cardroom.server.live.recovery import UnavailableError
from cardroom.server.live.rooms import Connection, Room, Rooms
from cardroom.server.live.session_sockets import SIGNED_OUT_CLOSE, SessionSockets
from cardroom.server.live.settings import Settings
from cardroom.server.storage.leases import LEASE_TTL, Leases, Node
from cardroom.server.storage.store import Store
from cardroom.server.storage.store import database_url as resolve_database_url
from cardroom.server.tables.codec import ProtocolError, parse_message, server_message, strict_json
from cardroom.server.tables.config import HUMAN, MAX_NAME, TableConfig, bot_seat
from cardroom.server.tables.refusals import RefusedError
from cardroom.server.tables.seats import shown_text
from cardroom.server.tables.shengji import ShengjiTable
from cardroom.server.tables.shengji_replay import deal_frames
from cardroom.tournament import results_csv, standings_csv
from cardroom.tournament.printouts import pairing_list, results_page, score_sheets, table_cards
from cardroom.tournament.printouts.markup import label, page, text

log = logging.getLogger(__name__)

WEB: Final = Path(__file__).resolve().parents[1] / "web"
"""The static front end (index.html, table.html, scripts and styles), served under ``/static``."""
DEFAULT_LADDER: Final = LadderSettings()
"""The bot ladder as ``cardroom serve`` runs it by default (docs/ladder.md)."""

UNKNOWN_TABLE_CLOSE: Final = 4404
"""The websocket close code after an ``unknown_table`` error."""
COSTLY_MESSAGES: Final = frozenset({"legal", "hint"})
"""Table messages that cost the server much (``Settings.costly_rate``)."""
QUICK_SUFFIX: Final = " vs three bots"
"""A quick table's name follows its player's: named for what it is, it does not read as the viewer's."""


def default_data_dir() -> Path:
    """``$CARDROOM_DATA``, else ``$XDG_DATA_HOME/cardroom``, else ``~/.local/share/cardroom``."""
    explicit = os.environ.get("CARDROOM_DATA", "").strip()
    if explicit:
        return Path(explicit).expanduser()
    base = os.environ.get("XDG_DATA_HOME", "").strip()
    return (Path(base).expanduser() if base else Path.home() / ".local" / "share") / "cardroom"


def create_app(
    database_url: str | None = None,
    data_dir: str | Path | None = None,
    *,
    settings: Settings | None = None,
    limits_clock: Callable[[], float] = time.monotonic,
    password_hasher: PasswordHasher | None = None,
    node: Node | None = None,
    lease_ttl: float = LEASE_TTL,
    event_clock: Callable[[], float] = time.time,
    ladder: LadderSettings | None = DEFAULT_LADDER,
) -> FastAPI:
    """The card room app. The database is ``database_url``, else ``DATABASE_URL``, else SQLite in
    ``data_dir`` (default :func:`default_data_dir`); ``settings`` hold the defaults of new tables and
    the limits on clients, whose buckets run on ``limits_clock`` (seconds; tests pass their own);
    passwords are hashed by ``password_hasher`` (argon2-cffi's defaults unless given). Alone, the
    process owns every table of the database; given its ``node`` (name and URL), it shares the
    database with other processes through leases of ``lease_ttl`` seconds (docs/server.md). Events
    read the time from ``event_clock`` (seconds since the epoch): rounds' starts, arrivals, lateness and
    the correction window (a test passes a clock it moves). ``ladder``: how the bot ladder runs
    (docs/ladder.md), ``None`` for none; a process of several runs none."""
    config = settings or Settings()
    folder = Path(data_dir) if data_dir is not None else None

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        url = resolve_database_url(database_url, folder if folder is not None else default_data_dir())
        store = Store(url)
        leases = None if node is None else Leases(store, node, lease_ttl)
        rooms = Rooms(store, config, leases=leases)
        ratings = Ratings(store, config.table_defaults)
        rooms.listeners.append(lambda room, stored: ratings.listener(room, stored) if rooms.primary else None)
        accounts = Accounts(store, password_hasher)
        director = Director(store, rooms, accounts.get, event_clock, lookalike=accounts.lookalike)
        app.state.rooms = rooms
        app.state.director = director
        app.state.ratings = ratings
        app.state.accounts = accounts
        app.state.bots = BotAccounts(store, accounts)
        async with contextlib.AsyncExitStack() as stack:
            stack.callback(store.close)
            stack.push_async_callback(rooms.close)
            if ladder is not None and leases is None:
                service = LadderService(store, rooms, ladder)
                service.load()
                rooms.listeners.append(service.listener)
                app.state.ladder = service
                app.state.seat_players = SeatPlayers(service)
                service.start()
                stack.push_async_callback(service.stop)
            rooms.start()
            if leases is None:
                resumed, events, rated = rooms.resume_all(), director.load_all(), ratings.catch_up()
            else:
                cluster = Cluster(leases, rooms, director, ratings)
                resumed, events, rated = cluster.start()
                app.state.cluster_secret = store.cluster_secret()
                app.state.forward_client = forward_client()
                stack.push_async_callback(app.state.forward_client.aclose)
                tending = asyncio.create_task(cluster.run(), name="cluster")
                stack.push_async_callback(_cancel, tending)
            sweeping = asyncio.create_task(app.state.session_sockets.run(store), name="session sockets")
            stack.push_async_callback(_cancel, sweeping)
            bot_sweep = asyncio.create_task(app.state.bot_sockets.run(store), name="bot sockets")
            stack.push_async_callback(_cancel, bot_sweep)
            ticking = asyncio.create_task(_tick_events(director), name="event clock")
            stack.push_async_callback(_cancel, ticking)
            log.info(
                "card room: %s%s, %d tables resumed, %d events, %d matches rated",
                store,
                "" if node is None else f" as {node.name} at {node.url}",
                resumed,
                events,
                rated,
            )
            yield

    app = FastAPI(
        title="cardroom",
        summary="The Guandan (掼蛋) and Shengji (升级) card room",
        lifespan=lifespan,
        docs_url=None,  # FastAPI's API pages run inline scripts from a CDN: /openapi.json stays
        redoc_url=None,
    )
    app.state.settings = config
    app.state.node = node
    app.state.lease_ttl = lease_ttl
    app.state.limits = ClientLimits(
        messages=config.message_rate,
        address_messages=config.address_message_rate,
        flood_factor=config.flood_factor,
        creations=config.create_rate,
        registrations=config.register_rate,
        sign_ins=config.sign_in_rate,
        costly=config.costly_rate,
        address_costly=config.address_costly_rate,
        seats=config.seat_rate,
        sockets=config.address_sockets,
        max_keys=config.tracked_addresses,
    )
    app.state.limits_clock = limits_clock
    app.state.session_sockets = SessionSockets()
    app.state.bot_sockets = BotSockets()
    app.mount("/static", StaticFiles(directory=WEB, check_dir=False), name="static")

    @app.middleware("http")
    async def settle(request: Request, call_next: Callable[[Request], Awaitable[Response]]) -> Response:
        """A request that changes tables is answered once its changes are stored and told."""
        response = await call_next(request)
        if request.method not in SAFE_METHODS and hasattr(request.app.state, "rooms"):
            await _rooms(request).settled()
        return response

    app.middleware("http")(csrf_guard)
    app.middleware("http")(bot_token_guard)
    app.add_middleware(Forwarder)
    app.add_middleware(StoreOutage)
    # outermost: forwarded answers and refusals get them too; the pages may connect to the live
    # processes the table page fails over to (GET /api/nodes)
    app.add_middleware(SecurityHeaders, origins=lambda: _public_urls(app))
    app.add_exception_handler(Exception, server_error)  # Starlette's 500, outside every middleware
    app.add_exception_handler(RefusedError, _refused)
    _pages(app)
    account_api(app)
    bot_api(app)
    ladder_api(app, WEB / "ladder.html")
    ladder_bot_api(app, WEB / "ladder-bot.html")
    _api(app, config)
    _event_api(app, config)
    _rating_api(app)
    status_api(app)
    app.add_api_websocket_route("/ws/tables/{table_id}", _websocket)
    app.add_api_websocket_route("/ws/events/{event_id}", _event_websocket)
    return app


EVENT_TICK: Final = 1.0
"""Seconds between two looks at the events' clocks: scheduled rounds start, lateness is judged."""


async def _tick_events(director: Director) -> None:
    while True:
        await asyncio.sleep(EVENT_TICK)
        director.tick()


async def _cancel(task: asyncio.Task[None]) -> None:
    task.cancel()
    with contextlib.suppress(asyncio.CancelledError):
        await task


def _public_urls(app: FastAPI) -> list[str]:
    """The live processes' public URLs (``--public-url``) as this process last listed them."""
    rooms: Rooms | None = getattr(app.state, "rooms", None)
    leases = None if rooms is None else rooms.leases
    return [] if leases is None else leases.public_urls


async def _refused(_request: Request, error: Exception) -> Response:
    """A refused request's answer: ``{"detail", "reason", "args"}`` (docs/server.md, "Errors")."""
    assert isinstance(error, RefusedError)
    return refusal_response(error)


def _rooms(request: Request | WebSocket) -> Rooms:
    rooms: Rooms = request.app.state.rooms
    return rooms


@cache
def shengji_page() -> str:
    """The table page with Shengji's script, title and class in place of Guandan's."""
    page = (WEB / "table.html").read_text(encoding="utf-8")
    for guandan, shengji in (
        ('src="/static/table.js"', 'src="/static/shengji.js"'),
        ("<title>掼蛋 · cardroom", "<title>升级 · cardroom"),
        ('<body class="table-page">', '<body class="table-page shengji-page">'),
    ):
        if guandan not in page:
            raise RuntimeError(f"web/table.html lacks {guandan!r}")
        page = page.replace(guandan, shengji)
    return page


def _pages(app: FastAPI) -> None:
    @app.get("/", include_in_schema=False)
    async def lobby() -> FileResponse:
        return FileResponse(WEB / "index.html")

    @app.get("/tables/{table_id}", include_in_schema=False)
    async def table_page(request: Request, table_id: str) -> Response:
        if _rooms(request).game(table_id) != "shengji":
            return FileResponse(WEB / "table.html")
        return HTMLResponse(shengji_page())

    @app.get("/events", include_in_schema=False)
    async def events_page() -> FileResponse:
        return FileResponse(WEB / "events.html")

    @app.get("/events/{event_id}", include_in_schema=False)
    async def event_page(event_id: str) -> FileResponse:
        return FileResponse(WEB / "event.html")

    @app.get("/events/{event_id}/projector", include_in_schema=False)
    async def event_projector(event_id: str) -> FileResponse:
        return FileResponse(WEB / "projector.html")

    @app.get("/favicon.ico", include_in_schema=False)
    async def favicon() -> FileResponse:
        """The icon browsers ask for by themselves (the printouts link no icon)."""
        return FileResponse(WEB / "favicon.svg", media_type="image/svg+xml")

    @app.get("/events/{event_id}/print", include_in_schema=False)
    async def event_print(request: Request, event_id: str) -> HTMLResponse:
        try:
            live = _event(request, event_id)
        except RefusedError as error:
            return printout_refused(event_id, error)
        return HTMLResponse(results_page(live.event, title=live.name, sheets=live.sheets))

    @app.get("/events/{event_id}/print/{what}", include_in_schema=False)
    async def event_print_round(
        request: Request, event_id: str, what: str, round: str | None = None, table: str | None = None
    ) -> HTMLResponse:
        try:
            number, table_number = _query_number("round", round), _query_number("table", table)
            return HTMLResponse(_round_printout(_event(request, event_id), what, number, table_number))
        except RefusedError as error:
            return printout_refused(event_id, error)

    @app.get("/account", include_in_schema=False)
    async def account_page() -> FileResponse:
        return FileResponse(WEB / "account.html")

    @app.get("/leaderboard", include_in_schema=False)
    async def leaderboard_page() -> FileResponse:
        return FileResponse(WEB / "leaderboard.html")

    @app.get("/players/{name}", include_in_schema=False)
    async def player_page(name: str) -> FileResponse:
        return FileResponse(WEB / "player.html")


def _room(request: Request, table_id: str) -> Room:
    room = _rooms(request).get(table_id)
    if room is None:
        raise RefusedError(404, "unknown_table", table=table_id)
    return room


async def _player_name(request: Request, account: Account | None, name: object) -> str:
    """The name a seat is taken under: the signed-in account's; else the guest's own, unless an
    account holds it or one that looks the same (409), or it ends in " bot" (400)."""
    if account is not None:
        return account.name
    guest = account_name(name)
    holder = await asyncio.to_thread(accounts_of(request).lookalike, guest)
    if holder is not None:
        raise RefusedError(409, "name_of_account", name=guest, holder=holder.name)
    return guest


async def _checked_table(request: Request, config: TableConfig) -> TableConfig:
    """A new table as asked, its bots' names cleaned (400 for a bad one, 409 for an account's or a
    lookalike of one); a rated one only from a signed-in account (401) and without bots (400); its
    name without control, bidirectional or invisible characters (400)."""
    try:
        shown_text(config.name)
    except ProtocolError as error:
        raise RefusedError.of(400, error, field="name") from None
    creator = await signed_in(request) if config.rated else None
    if config.rated and creator is None:
        raise RefusedError(401, "rated_needs_sign_in")
    if creator is not None and creator.bot:
        raise RefusedError(403, "rated_for_people")
    problem = rated_table_refusal(config)
    if problem is not None:
        raise problem
    return await asyncio.to_thread(bot_names_checked, config, accounts_of(request).lookalike)


async def _sit(request: Request, find: Callable[[], Room], seat: int, name: object) -> dict[str, Any]:
    """Take the seat (as the signed-in account, or a guest) of the room ``find`` gives, asked after the
    last wait (an idle room may leave memory meanwhile); answered once the seat is stored."""
    account = await signed_in(request)
    player = await _player_name(request, account, name)
    room = find()
    if account is not None and account.bot and room.table.config.is_rated:
        raise RefusedError(403, "rated_for_people")
    try:
        token, stored = room.sit(seat, player, None if account is None else account.key)
    except UnavailableError:
        raise  # 503 (cardroom.server.live.outage)
    except ProtocolError as error:
        status = {"bad_message": 400, "not_signed_in": 403}.get(error.code, 409)
        raise RefusedError.of(status, error) from None
    await stored
    return {"id": room.table.id, "seat": seat, "token": token}


def _api(app: FastAPI, settings: Settings) -> None:
    @app.get("/api/presets")
    async def presets() -> dict[str, Any]:
        """Rule-set presets and bot names (Guandan's, then each game's under ``games``) and the
        default clocks, for the lobby's form."""
        games = {
            name: {
                "rules": sorted(game.presets, key=lambda preset: preset != game.default_preset),
                "bots": sorted(game.bots),
            }
            for name, game in GAMES.items()
        }
        return {
            **games["guandan"],
            "games": games,
            "clocks": settings.table_defaults.clocks.to_dict(),
            "bot_delay": settings.table_defaults.bot_delay,
            "deal_pause": settings.table_defaults.deal_pause,
        }

    @app.get("/api/nodes")
    async def nodes(request: Request) -> dict[str, Any]:
        """The public URLs of the card room's live processes (the table page tries them when its own
        stops answering; docs/server.md, "Several processes"); none for a process alone."""
        leases = _rooms(request).leases
        return {"nodes": [] if leases is None else leases.public_urls}

    @app.get("/api/tables")
    async def tables(request: Request, status: str = "waiting,running") -> dict[str, Any]:
        """Open and running tables, newest first (``?status=finished`` for finished ones)."""
        wanted = tuple(part.strip() for part in status.split(",") if part.strip())
        unknown = set(wanted) - {"waiting", "running", "finished"}
        if unknown:
            raise RefusedError(400, "unknown_status", status=", ".join(sorted(unknown)))
        return {"tables": _rooms(request).listed(wanted)}

    @app.post("/api/tables", status_code=201)
    async def create(request: Request) -> dict[str, Any]:
        """Create a table: ``{"name", "rules", "max_deals", "seats", "clocks"?}``."""
        limited(request, "create")
        body = await read_body(request)
        if body.get("event") is not None:
            raise RefusedError(400, "event_table")
        if body.get("ladder") is not None:
            raise RefusedError(400, "ladder_table")
        try:
            config = TableConfig.from_dict(body, settings.table_defaults)
        except ValueError as error:
            raise RefusedError(400, "bad_request", text=str(error)) from None
        config = await _checked_table(request, config)
        creator = address(request) if config.human_seats else None
        refusal = None if creator is None else _rooms(request).waiting_refusal(creator)
        if refusal is not None:
            raise refusal
        return _rooms(request).create(config, creator=creator).summary()

    @app.get("/api/tables/{table_id}")
    async def table(request: Request, table_id: str) -> dict[str, Any]:
        summary = _rooms(request).summary_of(table_id)
        if summary is None:
            raise RefusedError(404, "unknown_table", table=table_id)
        return summary

    @app.post("/api/tables/{table_id}/seats/{seat}")
    async def sit(request: Request, table_id: str, seat: int) -> dict[str, Any]:
        """Take a human seat: ``{"name"}`` → ``{"id", "seat", "token"}`` (409 when taken or a bot's).
        Signed in, the seat is the account's, under its name; a seat the account owns already gives a
        new token (the same player on another device): every connection of the old token is closed."""
        limited(request, "seat")
        if _rooms(request).game(table_id) is None:
            raise RefusedError(404, "unknown_table", table=table_id)
        name = (await read_body(request)).get("name")
        refusal = _director(request).seat_refusal(_room(request, table_id), seat, await signed_in(request))
        if refusal is not None:
            raise refusal
        return await _sit(request, lambda: _room(request, table_id), seat, name)

    @app.post("/api/quick", status_code=201)
    async def quick(request: Request) -> dict[str, Any]:
        """Play at once: a table with three heuristic bots, the caller at seat 0 (``{"name", "game"?}``:
        Guandan unless ``game`` says ``shengji``)."""
        limited(request, "create")
        body = await read_body(request)
        name = await _player_name(request, await signed_in(request), body.get("name"))
        game = body.get("game", "guandan")
        if game not in GAMES:
            raise RefusedError(400, "unknown_game", games=", ".join(GAMES), game=game)
        config = TableConfig(
            name=name[: MAX_NAME - len(QUICK_SUFFIX)].strip() + QUICK_SUFFIX,
            game=game,
            seats=(HUMAN, bot_seat(), bot_seat(), bot_seat()),
            clocks=settings.table_defaults.clocks,
            bot_delay=settings.table_defaults.bot_delay,
            deal_pause=settings.table_defaults.deal_pause,
            deal_pace=settings.table_defaults.deal_pace,
        )
        return await _sit(request, lambda: _rooms(request).create(config), 0, name)

    @app.get("/api/tables/{table_id}/deals/{deal_number}/replay")
    async def deal_replay(request: Request, table_id: str, deal_number: int) -> dict[str, Any]:
        """A finished Shengji deal step by step, every hand open (Guandan's page replays the record)."""
        table = _room(request, table_id).table
        if not isinstance(table, ShengjiTable):
            raise RefusedError(404, "replay_from_record")
        try:
            return deal_frames(table.match, deal_number - 1)
        except ValueError as error:
            raise RefusedError(404, "not_found", text=str(error)) from None

    @app.get("/api/tables/{table_id}/record")
    async def record(request: Request, table_id: str) -> JSONResponse:
        """The match record (``cardroom replay`` reads it); only the finished deals while it runs."""
        record = _rooms(request).record_of(table_id)
        if record is None:
            raise RefusedError(404, "unknown_table", table=table_id)
        return JSONResponse(record)


def _director(request: Request | WebSocket) -> Director:
    director: Director = request.app.state.director
    return director


def _event(request: Request, event_id: str) -> LiveEvent:
    return _director(request).get(event_id)


def _query_number(field: str, value: str | None) -> int | None:
    """A printout's ``round`` or ``table``: a whole number, or absent."""
    if value is None:
        return None
    if not value.isascii() or not value.isdigit():
        raise RefusedError(400, "bad_printout_query", field=field, value=value)
    return int(value)


PRINTOUT_REFUSALS_ZH: Final = {
    "unknown_event": "没有这项赛事",
    "no_printout": "没有这种打印件：可打印配对表（pairings）、桌卡（cards）或记分表（sheets）",
    "printout_table": "只有记分表可以指定桌号",
    "no_round_paired": "还没有编排任何轮次",
    "no_round": "没有这一轮",
    "no_table": "这一轮没有这张桌",
    "bad_printout_query": "轮次（round）和桌号（table）须是整数",
}
"""The Chinese words of the refusals a printout's page may meet (the English are :data:`REASONS`')."""


def printout_refused(event_id: str, error: RefusedError) -> HTMLResponse:
    """A printout refused, as a short page in both languages with its status: a browser opened it (the
    API answers JSON, docs/server.md "Errors")."""
    chinese = PRINTOUT_REFUSALS_ZH.get(error.reason, "无法打印")
    back = f"/events/{quote(event_id, safe='')}"
    body = [
        f"<h1>{label('无法打印', 'No printout')}</h1>",
        f'<p>{text(chinese)} <span class="en">{text(error.message)}</span></p>',
        f'<p><a href="{text(back)}">{label("返回赛事", "Back to the event")}</a></p>',
    ]
    html = page("无法打印 · No printout", body, kind="printout-refused")
    return HTMLResponse(html, status_code=error.status, headers=error.headers)


ROUND_PRINTOUTS: Final = {"pairings": pairing_list, "cards": table_cards}
"""A round's printouts of every table; ``sheets`` (blank score sheets) may also name one table."""


def _round_printout(live: LiveEvent, what: str, number: int | None, table: int | None) -> str:
    """A round's pairing list, table cards or blank score sheets (docs/tournaments.md, "Printouts"): the
    last round paired unless ``number`` names one; 404 naming what is not there."""
    if what not in (*ROUND_PRINTOUTS, "sheets"):
        raise RefusedError(404, "no_printout", what=what)
    event = live.event
    if not event.rounds:
        raise RefusedError(404, "no_round_paired")
    try:
        played = event.round(len(event.rounds) if number is None else number)
        if table is not None:
            if what != "sheets":
                raise RefusedError(400, "printout_table")
            played.pairing(table)
    except KeyError as error:
        raise RefusedError.of_event(404, error) from None
    if what == "sheets":
        return score_sheets(event, played.number, table)
    return ROUND_PRINTOUTS[what](event, played.number)


def _event_api(app: FastAPI, settings: Settings) -> None:
    """Tournaments: docs/tournaments-api.md."""

    async def admin(request: Request, event_id: str) -> LiveEvent:
        """The event, when the request comes from its director (signed in, or its token)."""
        live = _event(request, event_id)
        _director(request).check_director(live, request.headers.get(HEADER), await signed_in(request))
        return live

    @app.get("/api/events")
    async def events(request: Request) -> dict[str, Any]:
        """Every event, newest first."""
        return {"events": _director(request).listed()}

    @app.post("/api/events", status_code=201)
    async def create_event(request: Request) -> dict[str, Any]:
        """Create an event, signed in as an account of the director role; the answer holds the
        director token for the director's scripts (shown once)."""
        limited(request, "create")
        account = await require_account(request, "sign_in_to_create_event")
        director = _director(request)
        live, token = director.create(await read_body(request), settings.table_defaults, account)
        return {"event": director.view(live), "director_token": token}

    @app.get("/api/events/{event_id}")
    async def event(request: Request, event_id: str) -> dict[str, Any]:
        return _director(request).view(_event(request, event_id))

    @app.post("/api/events/{event_id}/teams", status_code=201)
    async def register(request: Request, event_id: str) -> dict[str, Any]:
        """Register a team (director): people by their accounts' names, or bots."""
        limited(request, "register")
        live = await admin(request, event_id)
        team = _director(request).register(live, await read_body(request))
        view = next(t for t in _director(request).view(live)["teams"] if t["id"] == team.id)
        return {"team": view}

    @app.delete("/api/events/{event_id}/teams/{team_id}")
    async def withdraw(request: Request, event_id: str, team_id: str) -> dict[str, Any]:
        live = await admin(request, event_id)
        _director(request).withdraw(live, team_id)
        return _director(request).view(live)

    @app.post("/api/events/{event_id}/start")
    async def start(request: Request, event_id: str) -> dict[str, Any]:
        """Close registration and draw the lots (director)."""
        live = await admin(request, event_id)
        _director(request).start(live, await read_body(request))
        return _director(request).view(live)

    async def by_director(request: Request, event_id: str) -> tuple[LiveEvent, str]:
        """The event and the name its director's changes are recorded under (the account's name, or
        "director token" for a script)."""
        live = await admin(request, event_id)
        account = await signed_in(request)
        return live, account.name if account is not None else "director token"

    async def director_change(
        request: Request, event_id: str, change: Callable[[LiveEvent, dict[str, Any], str], None]
    ) -> dict[str, Any]:
        live, by = await by_director(request, event_id)
        change(live, await read_body(request), by)
        await _rooms(request).settled()  # a table the change ended has entered its result
        return _director(request).view(live)

    @app.post("/api/events/{event_id}/rounds", status_code=201)
    async def pair(request: Request, event_id: str) -> dict[str, Any]:
        """Publish the next round's pairings (director); ``{"start": true}`` starts it at once,
        ``{"start_at": ISO time}`` at that time."""
        return await director_change(
            request, event_id, lambda live, body, _by: _director(request).pair(live, body)
        )

    @app.post("/api/events/{event_id}/rounds/{round_number}/start")
    async def start_round(request: Request, event_id: str, round_number: int) -> dict[str, Any]:
        """Declare the round started (director): its tables are made, lateness counts from now."""
        return await director_change(
            request, event_id, lambda live, _body, _by: _director(request).start_round(live, round_number)
        )

    @app.post("/api/events/{event_id}/rounds/{round_number}/tables/{table}/arrivals")
    async def arrival(request: Request, event_id: str, round_number: int, table: int) -> dict[str, Any]:
        """The director records a person seated: ``{"seat": 0–3}``."""
        return await director_change(
            request,
            event_id,
            lambda live, body, _by: _director(request).arrive(live, round_number, table, body.get("seat")),
        )

    @app.post("/api/events/{event_id}/arrive")
    async def arrive(request: Request, event_id: str) -> dict[str, Any]:
        """A player (signed in) says it is at its table (签到): whoami's answer."""
        live = _event(request, event_id)
        token = (await read_body(request)).get("token")
        return _director(request).player_arrives(live, token, await signed_in(request))

    @app.post("/api/events/{event_id}/rounds/{round_number}/tables/{table}/penalties", status_code=201)
    async def penalty(request: Request, event_id: str, round_number: int, table: int) -> dict[str, Any]:
        """A penalty by hand (director): ``{"player", "penalty", "reason", "confirm"?, "override"?}``."""
        return await director_change(
            request,
            event_id,
            lambda live, body, by: _director(request).penalise(live, round_number, table, body, by),
        )

    @app.post("/api/events/{event_id}/rounds/{round_number}/tables/{table}/result")
    async def result(request: Request, event_id: str, round_number: int, table: int) -> dict[str, Any]:
        """Enter or correct a table's result (director): ``{"levels", "deals", "reason", "override"?}``
        or ``{"forfeit": team, "reason"}``."""
        return await director_change(
            request,
            event_id,
            lambda live, body, by: _director(request).enter_result(live, round_number, table, body, by),
        )

    @app.post("/api/events/{event_id}/teams/{team_id}/withdraw")
    async def withdraw_team(request: Request, event_id: str, team_id: str) -> dict[str, Any]:
        """A team out after the start (director): ``{"reason", "disqualify"?}``."""
        return await director_change(
            request,
            event_id,
            lambda live, body, by: _director(request).withdraw_team(live, team_id, body, by),
        )

    @app.post("/api/events/{event_id}/appeals", status_code=201)
    async def appeal(request: Request, event_id: str) -> dict[str, Any]:
        """Record an appeal (director): ``{"round", "table", "team", "text", "override"?}``."""
        return await director_change(
            request, event_id, lambda live, body, by: _director(request).file_appeal(live, body, by)
        )

    @app.post("/api/events/{event_id}/appeals/{number}/ruling")
    async def ruling(request: Request, event_id: str, number: int) -> dict[str, Any]:
        """The ruling on an appeal (director): ``{"ruling", "upheld", "by"?}``."""
        return await director_change(
            request, event_id, lambda live, body, by: _director(request).rule_appeal(live, number, body, by)
        )

    @app.patch("/api/events/{event_id}")
    async def edit_event(request: Request, event_id: str) -> dict[str, Any]:
        """Change an event not started (director): the fields of ``POST /api/events``."""
        return await director_change(
            request,
            event_id,
            lambda live, body, _by: _director(request).edit(live, body, settings.table_defaults),
        )

    @app.delete("/api/events/{event_id}")
    async def delete_event(request: Request, event_id: str) -> dict[str, Any]:
        """Delete an event not started (director)."""
        live = await admin(request, event_id)
        _director(request).delete(live)
        return {"deleted": event_id}

    @app.post("/api/events/{event_id}/whoami")
    async def whoami(request: Request, event_id: str) -> dict[str, Any]:
        live = _event(request, event_id)
        token = (await read_body(request)).get("token")
        return _director(request).whoami(live, token, await signed_in(request))

    @app.post("/api/events/{event_id}/rounds/{round_number}/tables/{table}/forfeit")
    async def forfeit(request: Request, event_id: str, round_number: int, table: int) -> dict[str, Any]:
        live = await admin(request, event_id)
        _director(request).forfeit(live, round_number, table, await read_body(request))
        await _rooms(request).settled()  # the stopped match has entered its result
        return _director(request).view(live)

    @app.get("/api/events/{event_id}/rounds/{round_number}/tables/{table}/sheet")
    async def sheet(request: Request, event_id: str, round_number: int, table: int) -> dict[str, Any]:
        return _director(request).sheet(_event(request, event_id), round_number, table)

    @app.post("/api/events/{event_id}/rounds/{round_number}/tables/{table}/sign")
    async def sign(request: Request, event_id: str, round_number: int, table: int) -> dict[str, Any]:
        """A seated player (signed in) signs the sheet for its team."""
        live = _event(request, event_id)
        token = (await read_body(request)).get("token")
        account = await signed_in(request)
        signed = _director(request).sign(live, round_number, table, token, account)
        return sheet_json(live, signed)

    @app.get("/api/events/{event_id}/standings")
    async def standings(request: Request, event_id: str) -> dict[str, Any]:
        return {"standings": _director(request).standings(_event(request, event_id))}

    @app.get("/api/events/{event_id}/results.csv")
    async def results_csv_file(request: Request, event_id: str) -> Response:
        live = _event(request, event_id)
        return _csv(results_csv(live.event, bom=True), f"{event_id}-results.csv")

    @app.get("/api/events/{event_id}/standings.csv")
    async def standings_csv_file(request: Request, event_id: str) -> Response:
        live = _event(request, event_id)
        if not live.event.lots:
            raise RefusedError(409, "standings_not_started")
        return _csv(standings_csv(live.event, bom=True), f"{event_id}-standings.csv")


def _csv(text: str, filename: str) -> Response:
    return Response(
        text.encode("utf-8"),
        media_type="text/csv; charset=utf-8",
        headers={"Content-Disposition": f'attachment; filename="{filename}"'},
    )


def _rating_api(app: FastAPI) -> None:
    """The leaderboard and player pages' data."""

    @app.get("/api/leaderboard")
    async def leaderboard(
        request: Request, by: str = "rating", limit: int = 100, min_matches: int = 0
    ) -> dict[str, Any]:
        if by not in ("rating", "points"):
            raise RefusedError(400, "bad_order", value=by)
        if not 1 <= limit <= 500:
            raise RefusedError(400, "bad_limit", value=limit)
        if min_matches < 0:
            raise RefusedError(400, "bad_min_matches", value=min_matches)
        ratings: Ratings = request.app.state.ratings
        return {"by": by, "players": ratings.leaderboard(by, limit, min_matches)}

    @app.get("/api/players/{name}")
    async def player(request: Request, name: str) -> dict[str, Any]:
        ratings: Ratings = request.app.state.ratings
        found = ratings.player(name)
        if found is None:
            raise RefusedError(404, "no_rated_player", name=name)
        return found


async def _event_websocket(websocket: WebSocket, event_id: str) -> None:
    """An event page: the event now and after every change (docs/tournaments-api.md)."""
    await websocket.accept()
    gate = Gate(websocket)
    if not await gate.admit(websocket):
        return
    director = _director(websocket)
    live = director.events.get(event_id)
    if live is None:
        message = {"type": "error", "v": 1, "code": "unknown_event", "message": f"unknown event {event_id!r}"}
        await websocket.send_json(message)
        await websocket.close(UNKNOWN_TABLE_CLOSE)
        gate.release()
        return
    queue: asyncio.Queue[dict[str, Any] | None] = asyncio.Queue()
    live.subscribers.add(queue)
    queue.put_nowait({"type": "event", "v": 1, "event": director.view(live)})

    def signed_out() -> None:
        gate.closing = (SIGNED_OUT_CLOSE, "signed out")
        queue.put_nowait(None)

    sockets: SessionSockets = websocket.app.state.session_sockets
    session = sockets.add(websocket.cookies.get(SESSION_COOKIE), signed_out)

    async def pump() -> None:
        try:
            while True:
                message = await queue.get()
                if message is None:
                    if gate.closing is not None:
                        await websocket.close(*gate.closing)
                    return
                while message.get("type") == "event" and not queue.empty():
                    newer = queue.get_nowait()  # only the latest snapshot matters
                    if newer is None:
                        return
                    message = newer
                await websocket.send_text(json.dumps(message, ensure_ascii=False))
        except Exception:
            return

    sender = asyncio.create_task(pump())
    try:
        while (received := await gate.next(websocket, queue.put_nowait)) is not None:
            try:
                value = strict_json(received.get("text") or "{}")
            except ValueError:
                value = None
            if isinstance(value, dict) and value.get("type") == "ping":
                queue.put_nowait({"type": "pong", "v": 1})
            else:
                queue.put_nowait(
                    {"type": "error", "v": 1, "code": "bad_message", "message": 'send {"type": "ping"} only'}
                )
    except WebSocketDisconnect:
        pass
    finally:
        sockets.discard(session, signed_out)
        live.subscribers.discard(queue)
        await gate.close(websocket, sender)


async def _websocket(websocket: WebSocket, table_id: str) -> None:
    """One client: messages in, the room's queue out (docs/protocol.md)."""
    await websocket.accept()
    gate = Gate(websocket)
    if not await gate.admit(websocket):
        return
    rooms = _rooms(websocket)
    try:
        room = rooms.get(table_id)
    except BaseException:
        gate.release()
        raise
    if room is None:
        gate.release()
        await websocket.send_json(ProtocolError("unknown_table", f"unknown table {table_id!r}").frame())
        await websocket.close(UNKNOWN_TABLE_CLOSE)
        return
    connection = Connection()
    room.attach(connection)  # before any wait: an idle room leaves memory only with no socket attached
    limit = rooms.settings.max_message
    bot = BotSignIn(websocket, connection)
    if not await bot.from_header():
        room.leave(connection)
        gate.release()
        await bot.refused()
        return

    def signed_out() -> None:
        connection.close(SIGNED_OUT_CLOSE, "signed out")

    sockets: SessionSockets = websocket.app.state.session_sockets
    session = sockets.add(websocket.cookies.get(SESSION_COOKIE), signed_out)

    async def pump() -> None:
        """Send the connection's queue in order; a socket that fails ends it quietly."""
        try:
            while True:
                message = await connection.queue.get()
                if message is None:
                    await websocket.close(*connection.ending)
                    return
                await websocket.send_text(json.dumps(message, ensure_ascii=False))
        except Exception:  # the client went away; the receive loop sees the disconnect
            connection.close()

    sender = asyncio.create_task(pump())
    try:
        while not connection.closed:
            received = await gate.next(websocket, connection.send, lambda: room.decision_message(connection))
            if received is None or connection.closed:
                break
            raw = message_data(received)
            if await bot.first_message(raw, limit):
                if connection.closed:
                    break
                continue
            try:
                message = parse_message(raw, limit)
                if message["type"] in COSTLY_MESSAGES and not gate.free:
                    refusal = gate.limits.costly(gate.bucket, gate.address, gate.clock())
                    if refusal is not None:
                        connection.send(rate_limited(refusal, received))
                        continue
                await room.handle(connection, message)
            except ProtocolError as error:
                connection.send(error.frame())
            except Exception:
                log.exception("table %s: a message could not be handled", table_id)
                connection.send(
                    server_message("error", code="server_error", message="the server failed; try again")
                )
    except WebSocketDisconnect:
        pass
    finally:
        sockets.discard(session, signed_out)
        bot.forget()
        room.leave(connection)
        if connection.ending[0] != 1000:  # the room closed it saying why: let the sender say it
            await asyncio.wait([sender], timeout=5.0)
        await gate.close(websocket, sender)
