"""The card room's ASGI app: the lobby's HTTP API, one websocket per client, the static front end.

``create_app()`` builds it; the store is opened (and migrated) when the app starts, and every waiting
or running table is rebuilt from its log, its clocks started again. See docs/server.md and
docs/protocol.md.
"""

from __future__ import annotations

import asyncio
import json
import logging
import os
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any, Final

from fastapi import FastAPI, HTTPException, Request, WebSocket
from fastapi.responses import FileResponse, JSONResponse
from fastapi.staticfiles import StaticFiles
from starlette.websockets import WebSocketDisconnect

from cardroom.bots import BOTS
from cardroom.guandan.ruleset import PRESETS
from cardroom.server.codec import ProtocolError, parse_message, server_message
from cardroom.server.config import HUMAN, Settings, TableConfig, bot_seat
from cardroom.server.rooms import Connection, Room, Rooms
from cardroom.server.store import Store
from cardroom.server.store import database_url as resolve_database_url
from cardroom.server.table import clean_name

log = logging.getLogger(__name__)

WEB: Final = Path(__file__).resolve().parent / "web"
"""The static front end (index.html, table.html, scripts and styles), served under ``/static``."""

UNKNOWN_TABLE_CLOSE: Final = 4404
"""The websocket close code after an ``unknown_table`` error."""


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
) -> FastAPI:
    """The card room app. The database is ``database_url``, else ``DATABASE_URL``, else SQLite in
    ``data_dir`` (default :func:`default_data_dir`); ``settings`` hold the defaults of new tables."""
    config = settings or Settings()
    folder = Path(data_dir) if data_dir is not None else None

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        url = resolve_database_url(database_url, folder if folder is not None else default_data_dir())
        store = Store(url)
        rooms = Rooms(store, config)
        resumed = rooms.resume_all()
        log.info("card room: %s, %d tables resumed", store, resumed)
        app.state.rooms = rooms
        try:
            yield
        finally:
            await rooms.close()
            store.close()

    app = FastAPI(title="cardroom", summary="The Guandan (掼蛋) card room", lifespan=lifespan)
    app.state.settings = config
    app.mount("/static", StaticFiles(directory=WEB, check_dir=False), name="static")
    _pages(app)
    _api(app, config)
    app.add_api_websocket_route("/ws/tables/{table_id}", _websocket)
    return app


def _rooms(request: Request | WebSocket) -> Rooms:
    rooms: Rooms = request.app.state.rooms
    return rooms


def _pages(app: FastAPI) -> None:
    @app.get("/", include_in_schema=False)
    async def lobby() -> FileResponse:
        return FileResponse(WEB / "index.html")

    @app.get("/tables/{table_id}", include_in_schema=False)
    async def table_page(table_id: str) -> FileResponse:
        return FileResponse(WEB / "table.html")


async def _body(request: Request) -> dict[str, Any]:
    raw = await request.body()
    if len(raw) > 64 * 1024:
        raise HTTPException(413, "request body too large")
    try:
        value = json.loads(raw or b"{}")
    except ValueError as error:
        raise HTTPException(400, f"not valid JSON: {error}") from None
    if not isinstance(value, dict):
        raise HTTPException(400, "the body is a JSON object")
    return value


def _room(request: Request, table_id: str) -> Room:
    room = _rooms(request).get(table_id)
    if room is None:
        raise HTTPException(404, f"unknown table {table_id!r}")
    return room


def _sit(room: Room, seat: int, name: object) -> dict[str, Any]:
    try:
        token = room.sit(seat, name)
    except ProtocolError as error:
        raise HTTPException(400 if error.code == "bad_message" else 409, error.message) from None
    return {"id": room.table.id, "seat": seat, "token": token}


def _api(app: FastAPI, settings: Settings) -> None:
    @app.get("/api/presets")
    async def presets() -> dict[str, Any]:
        """Rule-set presets, bot names and the default clocks, for the lobby's form."""
        return {
            "rules": sorted(PRESETS, key=lambda name: name != "competition"),
            "bots": sorted(BOTS),
            "clocks": settings.clocks.to_dict(),
            "bot_delay": settings.bot_delay,
            "deal_pause": settings.deal_pause,
        }

    @app.get("/api/tables")
    async def tables(request: Request, status: str = "waiting,running") -> dict[str, Any]:
        """Open and running tables, newest first (``?status=finished`` for finished ones)."""
        wanted = tuple(part.strip() for part in status.split(",") if part.strip())
        unknown = set(wanted) - {"waiting", "running", "finished"}
        if unknown:
            raise HTTPException(
                400, f"unknown status {', '.join(sorted(unknown))}: waiting, running, finished"
            )
        return {"tables": _rooms(request).listed(wanted)}

    @app.post("/api/tables", status_code=201)
    async def create(request: Request) -> dict[str, Any]:
        """Create a table: ``{"name", "rules", "max_deals", "seats", "clocks"?}``."""
        try:
            config = TableConfig.from_dict(await _body(request), settings)
        except ValueError as error:
            raise HTTPException(400, str(error)) from None
        return _rooms(request).create(config).table.summary()

    @app.get("/api/tables/{table_id}")
    async def table(request: Request, table_id: str) -> dict[str, Any]:
        return _room(request, table_id).table.summary()

    @app.post("/api/tables/{table_id}/seats/{seat}")
    async def sit(request: Request, table_id: str, seat: int) -> dict[str, Any]:
        """Take a human seat: ``{"name"}`` → ``{"id", "seat", "token"}`` (409 when taken or a bot's)."""
        room = _room(request, table_id)
        return _sit(room, seat, (await _body(request)).get("name"))

    @app.post("/api/quick", status_code=201)
    async def quick(request: Request) -> dict[str, Any]:
        """Play at once: a table with three heuristic bots, the caller at seat 0."""
        try:
            name = clean_name((await _body(request)).get("name"))
        except ProtocolError as error:
            raise HTTPException(400, error.message) from None
        config = TableConfig(
            name=name,
            seats=(HUMAN, bot_seat(), bot_seat(), bot_seat()),
            clocks=settings.clocks,
            bot_delay=settings.bot_delay,
            deal_pause=settings.deal_pause,
        )
        return _sit(_rooms(request).create(config), 0, name)

    @app.get("/api/tables/{table_id}/record")
    async def record(request: Request, table_id: str) -> JSONResponse:
        """The match record (``cardroom replay`` reads it); only the finished deals while it runs."""
        room = _room(request, table_id)
        return JSONResponse(room.table.record())


async def _websocket(websocket: WebSocket, table_id: str) -> None:
    """One client: messages in, the room's queue out (docs/protocol.md)."""
    await websocket.accept()
    rooms = _rooms(websocket)
    room = rooms.get(table_id)
    if room is None:
        await websocket.send_json(ProtocolError("unknown_table", f"unknown table {table_id!r}").frame())
        await websocket.close(UNKNOWN_TABLE_CLOSE)
        return
    connection = Connection()
    limit = rooms.settings.max_message

    async def pump() -> None:
        """Send the connection's queue in order; a socket that fails ends it quietly."""
        try:
            while True:
                message = await connection.queue.get()
                if message is None:
                    await websocket.close()
                    return
                await websocket.send_text(json.dumps(message, ensure_ascii=False))
        except Exception:  # the client went away; the receive loop sees the disconnect
            connection.close()

    sender = asyncio.create_task(pump())
    try:
        while not connection.closed:
            received = await websocket.receive()
            if received["type"] == "websocket.disconnect":
                break
            raw = received.get("text")
            if raw is None:
                raw = received.get("bytes") or b""
            try:
                await room.handle(connection, parse_message(raw, limit))
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
        room.leave(connection)
        sender.cancel()
