"""The websockets each bot's API token opened, so that rotating or revoking the token cuts them off.

A bot's socket signs in with its token (``Authorization: Bearer`` on the upgrade request, or an
``auth`` first message: docs/ladder.md) and is noted under the token's SHA-256. Rotating, revoking
or deleting the bot closes its sockets here at once with :data:`TOKEN_ENDED_CLOSE`, after an
``error`` ``token_revoked``; :meth:`BotSockets.sweep` closes, every :data:`SWEEP_SECONDS`, those whose
token ended in another process of a cluster.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Iterable
from typing import Final

from cardroom.server.storage.store import Store

log = logging.getLogger(__name__)

TOKEN_ENDED_CLOSE: Final = 4401
"""The close code of a bot's websocket whose API token was rotated, revoked or deleted (HTTP's 401,
as a signed-out session's): its credentials hold nothing now; reconnect only with a new token."""
SWEEP_SECONDS: Final = 10.0
"""How often the sockets of tokens ended elsewhere are looked for."""

Closer = Callable[[str], None]
"""Closes one socket, told why (``rotated``, ``revoked``)."""


class BotSockets:
    """The open websockets of bots by the hash of the API token they signed in with."""

    def __init__(self) -> None:
        self._by_token: dict[str, set[Closer]] = {}

    def add(self, digest: str, close: Closer) -> None:
        """Note a socket signed in with the token of hash ``digest``."""
        self._by_token.setdefault(digest, set()).add(close)

    async def add_live(self, store: Store, digest: str, close: Closer) -> bool:
        """Note a socket that signed in with the token of hash ``digest``, then look the token up
        again: one rotated or revoked after the sign-in read it and before this note would otherwise
        keep its socket open until the next sweep. ``False``, and nothing noted, when it is no
        bot's live token now."""
        self.add(digest, close)
        if digest in await asyncio.to_thread(store.live_bot_tokens, {digest}):
            return True
        self.discard(digest, close)
        return False

    def discard(self, digest: str | None, close: Closer) -> None:
        """Forget a socket that closed."""
        if digest is None:
            return
        closers = self._by_token.get(digest)
        if closers is not None:
            closers.discard(close)
            if not closers:
                del self._by_token[digest]

    def close(self, digests: Iterable[str | None], why: str) -> int:
        """Close the sockets of these tokens (ended: ``why``); how many."""
        count = 0
        for digest in digests:
            for close in self._by_token.pop(digest or "", set()):
                close(why)
                count += 1
        return count

    @property
    def tokens(self) -> set[str]:
        """The hashes of the tokens with a socket open."""
        return set(self._by_token)

    async def sweep(self, store: Store) -> int:
        """Close the sockets whose token is no bot's live token any more; how many."""
        held = self.tokens
        if not held:
            return 0
        live = await asyncio.to_thread(store.live_bot_tokens, held)
        return self.close(held - live, "revoked")

    async def run(self, store: Store, every: float = SWEEP_SECONDS) -> None:
        """Sweep every ``every`` seconds, until cancelled."""
        while True:
            await asyncio.sleep(every)
            try:
                await self.sweep(store)
            except Exception:
                log.exception("looking for the websockets of ended bot tokens failed")


__all__ = ["SWEEP_SECONDS", "TOKEN_ENDED_CLOSE", "BotSockets"]
