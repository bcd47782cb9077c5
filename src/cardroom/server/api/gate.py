"""What a websocket and its messages pass before they are handled (:class:`Gate`): one address's open
websockets, the idle timeout and the rate limits (:mod:`cardroom.server.live.limits`), for the tables',
the events' and the ladder's sockets alike."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable
from typing import Any, Final

from fastapi import WebSocket
from starlette.types import Message

from cardroom.server.api.requests import address
from cardroom.server.live.limits import ClientLimits, MessageLimit
from cardroom.server.live.limits import Refusal as LimitRefusal
from cardroom.server.tables.codec import ProtocolError, server_message, strict_json

log = logging.getLogger(__name__)

IDLE_CLOSE: Final = 4408
"""The websocket close code of a client that sent nothing for ``Settings.idle_timeout`` (HTTP's 408)."""
FLOOD_CLOSE: Final = 4429
"""The websocket close code of a client over a limit (HTTP's 429): it sent past ``flood_factor`` times
its rate, or its address holds ``Settings.address_sockets`` websockets already (the reason says which)."""


class Gate:
    """What a websocket and its messages pass before they are handled: the limit on one address's
    open websockets (:meth:`admit`), the idle timeout and the rate limits
    (:mod:`cardroom.server.live.limits`). Over a limit, a message is answered with ``rate_limited`` and
    dropped; a client silent for ``idle_timeout``, or flooding, is closed (:data:`IDLE_CLOSE`,
    :data:`FLOOD_CLOSE`)."""

    def __init__(self, websocket: WebSocket) -> None:
        state = websocket.app.state
        self.limits: ClientLimits = state.limits
        self.clock: Callable[[], float] = state.limits_clock
        self.idle: float | None = state.settings.idle_timeout
        self.address = address(websocket)
        self.bucket: MessageLimit = self.limits.connection(self.clock())
        self.closing: tuple[int, str] | None = None
        """The close code and reason, once the server decided to close."""
        self.admitted = False
        self.free = False
        """Whether the last message :meth:`next` returned was free of the rate limits."""

    async def admit(self, websocket: WebSocket) -> bool:
        """Count the accepted websocket against its address's open ones; over the limit it is told
        ``too_many_connections`` and closed (:data:`FLOOD_CLOSE`) before anything is loaded for it."""
        refusal = self.limits.open_socket(self.address)
        if refusal is None:
            self.admitted = True
            return True
        log.warning("refusing a websocket of %s: %s", self.address, refusal)
        with contextlib.suppress(Exception):
            await websocket.send_json(ProtocolError("too_many_connections", refusal).frame())
            await websocket.close(FLOOD_CLOSE, refusal[:120])
        return False

    def release(self) -> None:
        """The websocket ended: it no longer counts against its address."""
        if self.admitted:
            self.admitted = False
            self.limits.close_socket(self.address)

    async def next(
        self,
        websocket: WebSocket,
        reply: Callable[[dict[str, Any]], None],
        free: Callable[[], bool] | None = None,
    ) -> Message | None:
        """The next message to handle; ``None`` when the client left or is to be closed. A message over
        the limit is answered through ``reply`` and skipped. A message ``free()`` says is free (a ladder
        bot's about its own decision) takes from no limit but the flood one (:attr:`free`)."""
        while True:
            try:
                async with asyncio.timeout(self.idle):
                    received = await websocket.receive()
            except TimeoutError:
                self.closing = (IDLE_CLOSE, f"idle: no message for {self.idle:g} s")
                return None
            if received["type"] == "websocket.disconnect":
                return None
            self.free = free is not None and free()
            refusal = self.limits.message(self.bucket, self.address, self.clock(), free=self.free)
            if refusal is None:
                return received
            if refusal.flood:
                log.warning("closing a websocket of %s: %s", self.address, refusal.message)
                self.closing = (FLOOD_CLOSE, "too many messages")
                return None
            reply(rate_limited(refusal, received))

    async def close(self, websocket: WebSocket, sender: asyncio.Task[None]) -> None:
        """Stop the sender; then close the socket with the code decided, if any (a client already gone
        is no matter)."""
        self.release()
        sender.cancel()
        if self.closing is None:
            return
        await asyncio.wait([sender])
        with contextlib.suppress(Exception):
            await websocket.close(*self.closing)


def message_data(received: Message) -> str | bytes:
    """A websocket message's text, or its bytes (empty for neither)."""
    text = received.get("text")
    return text if text is not None else received.get("bytes") or b""


def rate_limited(refusal: LimitRefusal, received: Message) -> dict[str, Any]:
    """The ``error`` frame of a message over its limit: the limit, how long to wait (``retry_after``,
    seconds), the refused message's ``type`` (``refused``) and its ``id`` when it had one (a
    ``check``), so a page knows what to ask again."""
    frame = server_message(
        "error", code="rate_limited", message=refusal.message, retry_after=round(refusal.retry_after, 3)
    )
    try:
        sent = strict_json(message_data(received) or b"")
    except ValueError:
        return frame
    if not isinstance(sent, dict):
        return frame
    kind, ident = sent.get("type"), sent.get("id")
    if isinstance(kind, str) and len(kind) <= 16:
        frame["refused"] = kind
    if (isinstance(ident, int) and not isinstance(ident, bool)) or (
        isinstance(ident, str) and len(ident) <= 64
    ):
        frame["id"] = ident
    return frame


__all__ = ["FLOOD_CLOSE", "IDLE_CLOSE", "Gate", "message_data", "rate_limited"]
