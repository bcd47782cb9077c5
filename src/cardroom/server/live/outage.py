"""How the card room says "try again later" (docs/server.md, "When the database goes away"): an HTTP
request is answered 503 with a JSON ``detail`` and ``Retry-After``; a websocket is accepted, sent an
``unavailable`` error with ``retry_after``, and closed with 1013 (a refusal at the handshake would
read as a real one, HTTP 403, to a browser).

:class:`StoreOutage` is the ASGI middleware that gives that answer to whatever request fails because
the database cannot be reached (or a table cannot store, :mod:`cardroom.server.live.recovery`), instead of
a bare 500 or a dropped connection; :func:`refuse` is the answer itself, also given by the forwarding
(:mod:`cardroom.server.live.forwarding`) while a table moves between processes.
"""

from __future__ import annotations

import contextlib
import json
import logging
from typing import Final

from sqlalchemy.exc import InterfaceError, OperationalError
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from cardroom.server.live.recovery import RETRY_AFTER, TRY_AGAIN_CLOSE, UnavailableError
from cardroom.server.storage.writer import WriteFailedError

log = logging.getLogger(__name__)

OUTAGES: Final = (OperationalError, InterfaceError, WriteFailedError, UnavailableError)
"""The failures that mean "not now" rather than a fault of the request or the server's code."""
NO_DATABASE: Final = "the card room's database does not answer; try again in a moment"


async def refuse(
    scope: Scope,
    receive: Receive,
    send: Send,
    reason: str,
    *,
    connected: bool = False,
    accepted: bool = False,
) -> None:
    """Answer "try again later": 503 (``Retry-After``) to a request; to a websocket, accepted (unless
    ``accepted`` already; ``connected``: its connect message was read), an ``unavailable`` error,
    then close code 1013 with ``reason``."""
    if scope["type"] == "websocket":
        if not accepted:
            if not connected:
                await receive()  # the connect
            await send({"type": "websocket.accept"})
        frame = {
            "type": "error",
            "v": 1,
            "code": "unavailable",
            "message": reason,
            "retry_after": RETRY_AFTER,
        }
        await send({"type": "websocket.send", "text": json.dumps(frame, ensure_ascii=False)})
        await send({"type": "websocket.close", "code": TRY_AGAIN_CLOSE, "reason": _short(reason)})
        return
    body = json.dumps({"detail": reason, "retry_after": RETRY_AFTER}, ensure_ascii=False).encode()
    await send(
        {
            "type": "http.response.start",
            "status": 503,
            "headers": [
                (b"content-type", b"application/json"),
                (b"retry-after", str(RETRY_AFTER).encode()),
                (b"content-length", str(len(body)).encode()),
            ],
        }
    )
    await send({"type": "http.response.body", "body": body})


def _short(reason: str) -> str:
    """A close reason within the protocol's 123 bytes."""
    encoded = reason.encode()
    return reason if len(encoded) <= 123 else encoded[:120].decode(errors="ignore") + "…"


class StoreOutage:
    """ASGI middleware: a request or websocket that fails for an outage (:data:`OUTAGES`) before its
    answer began gets :func:`refuse`'s answer."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        seen = {"connected": False, "started": False, "closed": False}

        async def receiving() -> Message:
            message = await receive()
            if message["type"] == "websocket.connect":
                seen["connected"] = True
            return message

        async def sending(message: Message) -> None:
            if message["type"] in ("http.response.start", "websocket.accept"):
                seen["started"] = True
            elif message["type"] == "websocket.close":
                seen["closed"] = True
            await send(message)

        try:
            await self.app(scope, receiving, sending)
        except OUTAGES as error:
            if (scope["type"] == "http" and seen["started"]) or seen["closed"]:
                raise
            log.warning("%s %s: try again later (%s)", scope["type"], scope["path"], type(error).__name__)
            reason = error.message if isinstance(error, UnavailableError) else NO_DATABASE
            with contextlib.suppress(Exception):  # the client may be gone
                await refuse(
                    scope, receive, send, reason, connected=seen["connected"], accepted=seen["started"]
                )


__all__ = ["NO_DATABASE", "OUTAGES", "StoreOutage", "refuse"]
