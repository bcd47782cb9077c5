"""The ladder's web side (docs/ladder.md, "The ladder in the card room"): the bots' ladder websocket
``/ws/ladder`` (sign in with the bot's API token, then ``ready``; told ``seat`` for each table of a match
and ``result`` once it is rated), ``/ws/ladder/competition`` and ``/ws/ladder/openguandan`` (the same
over the competition protocol and OpenGuanDan's: :mod:`cardroom.server.api.competition_socket`),
``GET /api/ladder``, ``GET /api/ladder/live``, ``GET /api/ladder/{bot}`` and the ``/ladder`` page.
"""

from __future__ import annotations

import asyncio
import json
import logging
from pathlib import Path
from typing import Any

from fastapi import FastAPI, Request, WebSocket
from fastapi.responses import FileResponse
from starlette.websockets import WebSocketDisconnect

from cardroom.server.api.bot_socket import BotSignIn
from cardroom.server.api.competition_socket import competition_socket, openguandan_socket
from cardroom.server.api.gate import Gate, message_data
from cardroom.server.ladder import LadderService
from cardroom.server.ladder.about import bot_about, house_bots
from cardroom.server.ladder.versus import versus
from cardroom.server.live.bot_sockets import BotSockets
from cardroom.server.live.rooms import Connection
from cardroom.server.storage.store import Store
from cardroom.server.tables.codec import ProtocolError, parse_message, server_message
from cardroom.server.tables.refusals import RefusedError

log = logging.getLogger(__name__)


def ladder_of(request: Request | WebSocket) -> LadderService:
    service: LadderService | None = getattr(request.app.state, "ladder", None)
    if service is None:
        raise RefusedError(404, "not_found", text="this card room runs no ladder")
    return service


async def ladder_socket(websocket: WebSocket) -> None:
    """One bot's ladder socket: signed in first (the ``Authorization`` header or an ``auth`` first
    message), then ``ready``; ready while it stays open."""
    await websocket.accept()
    service: LadderService | None = getattr(websocket.app.state, "ladder", None)
    if service is None:
        await websocket.send_json(ProtocolError("bad_message", "this card room runs no ladder").frame())
        await websocket.close(1008)
        return
    gate = Gate(websocket)
    if not await gate.admit(websocket):
        return
    store: Store = service.store
    connection = Connection()
    sign_in = BotSignIn(websocket, connection)
    if not await sign_in.from_header():
        gate.release()
        await sign_in.refused()
        return
    limit: int = websocket.app.state.settings.max_message

    async def pump() -> None:
        try:
            while True:
                message = await connection.queue.get()
                if message is None:
                    await websocket.close(*connection.ending)
                    return
                await websocket.send_text(json.dumps(message, ensure_ascii=False))
        except Exception:
            connection.close()

    sender = asyncio.create_task(pump())
    ready_as: str | None = None
    sockets: BotSockets = websocket.app.state.bot_sockets

    def not_ready(_why: str = "") -> None:
        """The bot's token ended (or its socket closed): it is ready no more, at once."""
        if ready_as is not None:
            service.unready(ready_as, connection.send)

    try:
        while not connection.closed:
            received = await gate.next(websocket, connection.send)
            if received is None or connection.closed:
                break
            raw = message_data(received)
            if await sign_in.first_message(raw, limit):
                continue
            try:
                message = parse_message(raw, limit)
                kind = message["type"]
                if kind == "ping":
                    connection.send(server_message("pong"))
                elif connection.account is None:
                    raise ProtocolError(
                        "bad_message",
                        'sign in first: {"type": "auth", "token": …} or an Authorization header',
                    )
                elif kind == "ready":
                    if set(message) != {"type"}:
                        raise ProtocolError("bad_message", 'ready: send {"type": "ready"}')
                    row = await asyncio.to_thread(store.bot, connection.account)
                    if row is None:
                        raise ProtocolError("bad_bot_token", "this bot is gone")
                    entrant = service.mark_ready(
                        row.key, row.owner, row.generation, row.name, connection.send, connection.close
                    )
                    if ready_as is None:
                        sockets.add(sign_in.digest or "", not_ready)
                    ready_as = row.key
                    connection.send(server_message("ready", entrant=entrant.key, name=row.name))
                    service.schedule()
                elif kind == "unready":
                    if set(message) != {"type"}:
                        raise ProtocolError("bad_message", 'unready: send {"type": "unready"}')
                    if ready_as is None or not service.pause(ready_as, connection.send):
                        raise ProtocolError("bad_message", "unready: this socket is not ready")
                    connection.send(server_message("unready"))
                else:
                    raise ProtocolError(
                        "bad_message", f"unknown message type {kind!r} on the ladder: ready, unready, ping"
                    )
            except ProtocolError as error:
                connection.send(error.frame())
            except Exception:
                log.exception("the ladder socket of %s: a message could not be handled", connection.account)
                connection.send(
                    server_message("error", code="server_error", message="the server failed; try again")
                )
    except WebSocketDisconnect:
        pass
    finally:
        not_ready()
        sockets.discard(sign_in.digest, not_ready)
        sign_in.forget()
        if connection.ending[0] != 1000:  # closed saying why (a revoked token): let the sender say it
            await asyncio.wait([sender], timeout=5.0)
        await gate.close(websocket, sender)


def ladder_api(app: FastAPI, page: Path) -> None:
    """``/ws/ladder``, ``GET /api/ladder``, ``GET /api/ladder/live``, ``GET /api/ladder/{bot}`` and the
    ``/ladder`` page."""
    app.add_api_websocket_route("/ws/ladder", ladder_socket)
    app.add_api_websocket_route("/ws/ladder/competition", competition_socket)
    app.add_api_websocket_route("/ws/ladder/openguandan", openguandan_socket)

    @app.get("/api/ladder")
    async def ladder(request: Request) -> dict[str, Any]:
        """``{"entrants": [...]}``: the ladder's standings, best first (docs/ladder.md)."""
        return {"entrants": ladder_of(request).standings()}

    @app.get("/api/ladder/live")
    async def ladder_live(request: Request) -> dict[str, Any]:
        """``{"matches": [...]}``: the matches running now, each table with where to watch it (registered
        before ``/api/ladder/{bot}``: ``live`` is no bot's name)."""
        return {"matches": ladder_of(request).live()}

    @app.get("/api/ladder/{bot}")
    async def ladder_bot(request: Request, bot: str) -> dict[str, Any]:
        """One bot: who it is, its entrants (its generations, or a house bot's) each with its record
        against each house bot, and its matches, newest first."""
        service = ladder_of(request)
        entrants = [row for row in service.standings() if row["bot"] == bot]
        if not entrants:
            raise RefusedError(404, "not_found", text=f"no ladder entrant {bot!r}")
        matches = await asyncio.to_thread(service.matches_of, bot)
        houses = house_bots(service)
        for entrant in entrants:
            entrant["versus"] = versus(entrant["key"], houses, matches)
        about = await asyncio.to_thread(bot_about, service, bot, entrants)
        return {"bot": about, "entrants": entrants, "matches": matches}

    @app.get("/ladder", include_in_schema=False)
    async def ladder_page() -> FileResponse:
        return FileResponse(page)


__all__ = ["ladder_api", "ladder_of", "ladder_socket"]
