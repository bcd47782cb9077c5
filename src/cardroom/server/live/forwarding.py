"""Several server processes on one database: a client may reach any of them; a request for a table
another process owns is forwarded there (HTTP through httpx, a websocket relayed frame by frame
through a websockets client), and so is every request of the events API when this process is not
the primary one (the primary runs the events). See docs/server.md, "Several processes".

Forwarded requests carry the cluster's secret (stored in the database, so only its processes know
it) and the client's address: the owner counts its rate limits by that address and never forwards a
forwarded request again.
"""

from __future__ import annotations

import asyncio
import contextlib
import hmac
import logging
import re
from collections.abc import AsyncIterator
from typing import Final

import httpx
from starlette.types import ASGIApp, Message, Receive, Scope, Send
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed

from cardroom.server.live.outage import refuse
from cardroom.server.live.recovery import RECONNECT_CLOSE
from cardroom.server.live.rooms import Rooms, TableMovingError
from cardroom.server.storage.leases import PRIMARY

log = logging.getLogger(__name__)

SECRET_HEADER: Final = "x-cardroom-forwarded"
"""Carries the cluster's secret on a request one process forwards to another."""
CLIENT_HEADER: Final = "x-cardroom-client"
"""The address of the client a forwarded request came from."""
HOP_HEADERS: Final = frozenset(
    {
        "connection",
        "keep-alive",
        "proxy-authenticate",
        "proxy-authorization",
        "te",
        "trailer",
        "transfer-encoding",
        "upgrade",
        "host",
        "forwarded",
        "x-forwarded-for",
        "x-forwarded-proto",
        "x-forwarded-host",
        SECRET_HEADER,
        CLIENT_HEADER,
    }
)
"""Headers not passed on (hop-by-hop ones, and what a client must not be able to claim)."""
WEBSOCKET_HEADERS: Final = frozenset({"cookie", "origin", "user-agent", "accept-language", "authorization"})
"""A relayed websocket's headers kept (the handshake's own are the client library's); ``authorization``
carries a bot's API token (docs/ladder.md)."""
TABLE_PATH: Final = re.compile(r"^/(?:api|ws)/tables/([^/]+)")
EVENT_PATH: Final = re.compile(r"^/(?:api/events|ws/events/|events/[^/]+/print)")
MAX_FRAME: Final = 1 << 22


class Forwarder:
    """ASGI middleware: serve here what this process owns, forward the rest to its owner."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        state = scope["app"].state
        secret: str | None = getattr(state, "cluster_secret", None)
        if secret is None:
            await self.app(scope, receive, send)
            return
        headers = dict(scope["headers"])
        forwarded = hmac.compare_digest(headers.get(SECRET_HEADER.encode(), b""), secret.encode())
        try:
            owner = self._owner(state.rooms, scope["path"])
        except TableMovingError as error:
            await refuse(scope, receive, send, str(error))
            return
        if forwarded:  # from another process: served here, never forwarded again
            if owner is not None:
                await refuse(scope, receive, send, "the table moved to another process; try again")
                return
            client = headers.get(CLIENT_HEADER.encode(), b"unknown").decode("latin-1")
            await self.app({**scope, "client": (client, 0)}, receive, send)
        elif owner is None:
            await self.app(scope, receive, send)
        elif scope["type"] == "http":
            await _forward_http(state.forward_client, owner, secret, scope, receive, send)
        else:
            await _relay_websocket(owner, secret, scope, receive, send)

    @staticmethod
    def _owner(rooms: Rooms, path: str) -> str | None:
        """The URL of the process to forward ``path`` to; ``None`` to serve it here."""
        table = TABLE_PATH.match(path)
        if table is not None:
            lease = rooms.owner(table.group(1))
            return None if lease is None else lease.url
        if EVENT_PATH.match(path) is not None and not rooms.primary:
            leases = rooms.leases
            lease = None if leases is None else leases.owner(PRIMARY)
            if lease is None:
                raise TableMovingError("the events' server process is starting; try again")
            return lease.url
        return None


def forward_client() -> httpx.AsyncClient:
    """The HTTP client a process forwards requests with (one per process, closed at shutdown)."""
    return httpx.AsyncClient(timeout=httpx.Timeout(30.0, connect=3.0))


async def _forward_http(
    client: httpx.AsyncClient, owner: str, secret: str, scope: Scope, receive: Receive, send: Send
) -> None:
    """Pass the request to ``owner`` as it arrives and its answer back as it comes."""
    query = scope.get("query_string", b"").decode("latin-1")
    request = client.build_request(
        scope["method"],
        owner + scope["path"] + (f"?{query}" if query else ""),
        headers=_passed_headers(scope, secret),
        content=_body(receive) if scope["method"] not in ("GET", "HEAD") else None,
    )
    try:
        response = await client.send(request, stream=True)
    except httpx.HTTPError as error:
        log.warning("forwarding %s %s to %s failed: %s", scope["method"], scope["path"], owner, error)
        await refuse(scope, receive, send, "the table's server process cannot be reached; try again")
        return
    try:
        await send(
            {
                "type": "http.response.start",
                "status": response.status_code,
                "headers": [
                    (name.encode("latin-1"), value.encode("latin-1"))
                    for name, value in response.headers.multi_items()
                    if name.lower() not in HOP_HEADERS
                ],
            }
        )
        async for chunk in response.aiter_raw():
            await send({"type": "http.response.body", "body": chunk, "more_body": True})
        await send({"type": "http.response.body", "body": b"", "more_body": False})
    finally:
        await response.aclose()


def _passed_headers(scope: Scope, secret: str) -> list[tuple[str, str]]:
    client = scope.get("client")
    passed = [
        (name.decode("latin-1"), value.decode("latin-1"))
        for name, value in scope["headers"]
        if name.decode("latin-1").lower() not in HOP_HEADERS
    ]
    return [*passed, (SECRET_HEADER, secret), (CLIENT_HEADER, client[0] if client else "unknown")]


async def _body(receive: Receive) -> AsyncIterator[bytes]:
    """The request's body as it arrives (the owner caps its size)."""
    while True:
        message = await receive()
        if message["type"] != "http.request":
            return
        yield message.get("body", b"")
        if not message.get("more_body", False):
            return


async def _relay_websocket(owner: str, secret: str, scope: Scope, receive: Receive, send: Send) -> None:
    """Open the same websocket at ``owner`` and relay every frame both ways until either side closes."""
    connect_message = await receive()
    if connect_message["type"] != "websocket.connect":
        return
    url = "ws" + owner.removeprefix("http") + scope["path"]
    query = scope.get("query_string", b"").decode("latin-1")
    headers = [
        (name, value)
        for name, value in _passed_headers(scope, secret)
        if name.lower() in WEBSOCKET_HEADERS or name in (SECRET_HEADER, CLIENT_HEADER)
    ]
    try:
        upstream = await connect(
            url + (f"?{query}" if query else ""),
            additional_headers=headers,
            max_size=MAX_FRAME,
            compression=None,
            open_timeout=3.0,
        )
    except Exception as error:  # refused, timed out, a bad handshake: the client tries again
        log.warning("relaying a websocket of %s to %s failed: %s", scope["path"], owner, error)
        await refuse(
            scope, receive, send, "the table's server process cannot be reached; try again", connected=True
        )
        return
    await send({"type": "websocket.accept"})
    async with upstream:
        inbound = asyncio.create_task(_client_to_owner(receive, upstream))
        outbound = asyncio.create_task(_owner_to_client(upstream, send))
        done, pending = await asyncio.wait({inbound, outbound}, return_when=asyncio.FIRST_COMPLETED)
        for task in pending:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        if outbound in done:
            code, reason = _close_of(upstream)
            with contextlib.suppress(Exception):
                await send({"type": "websocket.close", "code": code, "reason": reason})


async def _client_to_owner(receive: Receive, upstream: ClientConnection) -> None:
    while True:
        message: Message = await receive()
        if message["type"] == "websocket.disconnect":
            await upstream.close()
            return
        if message["type"] != "websocket.receive":
            continue
        text = message.get("text")
        await upstream.send(text if text is not None else message.get("bytes") or b"")


async def _owner_to_client(upstream: ClientConnection, send: Send) -> None:
    with contextlib.suppress(ConnectionClosed):
        async for frame in upstream:
            if isinstance(frame, str):
                await send({"type": "websocket.send", "text": frame})
            else:
                await send({"type": "websocket.send", "bytes": frame})


def _close_of(upstream: ClientConnection) -> tuple[int, str]:
    """The owner's close code and reason, or 1012 when its connection just broke (it stopped)."""
    code = upstream.close_code
    if code is None or code in (1005, 1006):
        return RECONNECT_CLOSE, "the table's server process stopped; reconnect"
    return code, upstream.close_reason or ""


__all__ = ["CLIENT_HEADER", "SECRET_HEADER", "Forwarder", "forward_client"]
