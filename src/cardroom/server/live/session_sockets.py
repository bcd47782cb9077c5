"""The websockets each signed-in session opened, so that ending a session closes them at once.

A browser's websocket carries its cookies, the session's among them: the socket is noted under the
SHA-256 of that secret (never looked up in the store on the way in, so a socket costs nothing more to
open). Signing out, signing out the other sessions and a change of password end sessions and close
their sockets here with :data:`SIGNED_OUT_CLOSE`; :meth:`SessionSockets.sweep` closes, every
:data:`SWEEP_SECONDS`, the sockets whose session ended some other way (the operator's password reset,
its expiry, or a request to another process of a cluster). A socket that holds a seat keeps none of
the session's rights: closing it tells the page it was signed out (docs/accounts.md).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Iterable
from datetime import UTC, datetime
from typing import Final

from cardroom.server.storage.store import Store
from cardroom.server.tables.seats import token_hash

log = logging.getLogger(__name__)

SIGNED_OUT_CLOSE: Final = 4401
"""The close code of a websocket whose session ended (HTTP's 401): the page stops reconnecting and
says so."""
SWEEP_SECONDS: Final = 10.0
"""How often the sockets of sessions ended elsewhere are looked for."""

Closer = Callable[[], None]


class SessionSockets:
    """The open websockets by the hash of the session cookie they came with."""

    def __init__(self) -> None:
        self._by_session: dict[str, set[Closer]] = {}
        self._live: set[str] = set()
        """The sessions found signing someone in at the last sweep."""

    def add(self, secret: str | None, close: Closer) -> str | None:
        """Note a socket opened with the session cookie ``secret`` (``None``: no cookie, nothing to
        note); the session's hash, for :meth:`discard`."""
        if not secret:
            return None
        digest = token_hash(secret)
        self._by_session.setdefault(digest, set()).add(close)
        return digest

    def discard(self, digest: str | None, close: Closer) -> None:
        """Forget a socket that closed."""
        if digest is None:
            return
        closers = self._by_session.get(digest)
        if closers is not None:
            closers.discard(close)
            if not closers:
                del self._by_session[digest]

    def close(self, digests: Iterable[str]) -> int:
        """Close the sockets of these sessions (ended); how many."""
        count = 0
        for digest in digests:
            for close in self._by_session.pop(digest, set()):
                close()
                count += 1
        return count

    def close_secret(self, secret: str) -> int:
        """Close the sockets of the session whose cookie holds ``secret``."""
        return self.close([token_hash(secret)])

    @property
    def sessions(self) -> set[str]:
        """The hashes of the sessions with a socket open."""
        return set(self._by_session)

    async def sweep(self, store: Store) -> int:
        """Close the sockets whose session signed someone in at the last sweep and no longer does;
        how many. A cookie that signed no one in when the sweep first saw it (a guest's stale
        cookie) is forgotten, its sockets left open."""
        held = self.sessions
        if not held:
            self._live = set()
            return 0
        live = await asyncio.to_thread(store.live_sessions, held, datetime.now(UTC))
        ended = (held - live) & self._live
        for digest in held - live - ended:
            self._by_session.pop(digest, None)
        self._live = live
        return self.close(ended)

    async def run(self, store: Store, every: float = SWEEP_SECONDS) -> None:
        """Sweep every ``every`` seconds, until cancelled."""
        while True:
            await asyncio.sleep(every)
            try:
                await self.sweep(store)
            except Exception:
                log.exception("looking for the websockets of ended sessions failed")


__all__ = ["SIGNED_OUT_CLOSE", "SWEEP_SECONDS", "SessionSockets"]
