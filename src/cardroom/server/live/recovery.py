"""What a live table does when it cannot store (docs/server.md, "When the database goes away"): a
table whose write failed is *halted* (no moves, clocks or bots; its clients told so) and rebuilt from
its stored log as soon as the store answers again, or let go when another process owns it by then.

:class:`Recovery` keeps the halted tables and one task that tries the store for all of them, at once
and then every :data:`RETRY_FIRST` to :data:`RETRY_MOST` seconds: an outage of the database costs one
failed query a round, however many tables wait. The rooms (:mod:`cardroom.server.live.rooms`) halt and
rebuild themselves; the ASGI side (:mod:`cardroom.server.live.outage`) answers requests meanwhile.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable
from typing import Any, Final

from cardroom.server.tables.codec import ProtocolError, server_message

log = logging.getLogger(__name__)

RECONNECT_CLOSE: Final = 1012
"""The websocket close code (RFC 6455's "service restart") when the table's process stops serving
it: it moved to another process, or this one is shutting down. Reconnect at once."""
TRY_AGAIN_CLOSE: Final = 1013
"""The websocket close code ("try again later") when nobody can serve the table now: its process
died and its lease has not expired yet, or the database cannot be reached. Reconnect after the
``retry_after`` of the ``unavailable`` error sent just before."""
RETRY_AFTER: Final = 1
"""Seconds a client is told to wait before trying again (``retry_after``, ``Retry-After``)."""
RETRY_FIRST: Final = 0.25
"""Seconds between the first tries of a store that failed (then doubled up to :data:`RETRY_MOST`)."""
RETRY_MOST: Final = 2.0
"""The longest wait between two tries: a table is rebuilt at most this long after the store is back."""

Entries = list[dict[str, Any]]


class UnavailableError(ProtocolError):
    """The table cannot take this now (it cannot store, or nobody may serve it yet): nothing changed;
    try again after ``retry_after`` seconds."""

    def __init__(self, message: str, retry_after: float = RETRY_AFTER) -> None:
        super().__init__("unavailable", message)
        self.retry_after = retry_after

    def frame(self) -> dict[str, Any]:
        return {**super().frame(), "retry_after": self.retry_after}


def halted_frame() -> dict[str, Any]:
    """The ``halted`` message: the table cannot store, so it waits; the next ``state`` ends it."""
    return server_message(
        "halted",
        reason="storage",
        message="the table cannot store its moves now (the database does not answer); "
        "it goes on by itself when it can, and nothing stored is lost",
    )


def cannot_store() -> UnavailableError:
    """The refusal of a move while the table is halted."""
    return UnavailableError("the table cannot store moves now: it goes on when the database answers")


class Recovery:
    """The halted tables, each tried until the store answers: ``read(table_id)`` (in a thread) gives
    its stored log, or ``None`` when another process owns it now; ``restore(table_id, entries)`` (on
    the event loop) rebuilds or lets it go. ``settle`` waits for the writes queued before a try, so a
    write still on its way is not stored after the log was read."""

    def __init__(
        self,
        read: Callable[[str], Entries | None],
        restore: Callable[[str, Entries | None], None],
        settle: Callable[[], Awaitable[None]],
    ) -> None:
        self.read = read
        self.restore = restore
        self.settle = settle
        self.waiting: set[str] = set()
        self._task: asyncio.Task[None] | None = None

    def add(self, table_id: str) -> None:
        """Try ``table_id`` until the store answers."""
        self.waiting.add(table_id)
        if self._task is None or self._task.done():
            self._task = asyncio.create_task(self._run(), name="cardroom recovery")

    def discard(self, table_id: str) -> None:
        """Stop trying ``table_id`` (it was let go otherwise)."""
        self.waiting.discard(table_id)

    async def _run(self) -> None:
        delay = RETRY_FIRST
        failing = False
        while self.waiting:
            await self.settle()
            try:
                await self._round()
            except Exception as error:
                if not failing:
                    log.warning("the store cannot be read (%s); %d tables wait", error, len(self.waiting))
                    failing = True
                await asyncio.sleep(delay)
                delay = min(2 * delay, RETRY_MOST)
                continue
            if failing:
                log.warning("the store answers again; the tables that waited are rebuilt")
                failing = False
            delay = RETRY_FIRST

    async def _round(self) -> None:
        """Read and restore each waiting table in turn; the first failure ends the round."""
        for table_id in sorted(self.waiting):
            entries = await asyncio.to_thread(self.read, table_id)
            if table_id not in self.waiting:  # let go meanwhile
                continue
            self.waiting.discard(table_id)
            try:
                self.restore(table_id, entries)
            except Exception:
                log.exception("table %s: rebuilding it failed", table_id)

    async def close(self) -> None:
        self.waiting.clear()
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
            self._task = None


__all__ = [
    "RECONNECT_CLOSE",
    "RETRY_AFTER",
    "RETRY_MOST",
    "TRY_AGAIN_CLOSE",
    "Recovery",
    "UnavailableError",
    "cannot_store",
    "halted_frame",
]
