"""A table websocket's bot sign-in: a bot's API token, from the upgrade request's ``Authorization:
Bearer`` header or from the socket's first message, ``{"type": "auth", "token": "…"}``.

Signed in, the socket is the bot account's (answered ``authenticated``): it may join the seats the
bot holds, and it is noted under its token's hash so that rotating, revoking or deleting the bot cuts
it off at once (``token_revoked``, then close :data:`TOKEN_ENDED_CLOSE`). A token that is no bot's is
answered ``bad_bot_token`` and the socket closed with the same code. The token is never in a URL,
never logged, never sent back. See docs/ladder.md, "Bot accounts".
"""

from __future__ import annotations

import asyncio
import contextlib

from fastapi import WebSocket

from cardroom.server.accounts.bots import BotAccounts
from cardroom.server.live.bot_sockets import TOKEN_ENDED_CLOSE, BotSockets
from cardroom.server.live.rooms import Connection
from cardroom.server.tables.codec import ProtocolError, parse_message, server_message

BAD_TOKEN = (
    "this API token is no bot's (revoked, rotated, or its bot deleted): connect with the bot's current token"
)
"""Why a sign-in with a wrong token is refused."""


class BotSignIn:
    """The bot sign-in of one table websocket and its ``connection``."""

    def __init__(self, websocket: WebSocket, connection: Connection) -> None:
        self.websocket = websocket
        self.connection = connection
        self.bots: BotAccounts = websocket.app.state.bots
        self.sockets: BotSockets = websocket.app.state.bot_sockets
        self.first = True
        """No message has come yet (an ``auth`` message is taken only first)."""
        self.digest: str | None = None
        self.problem = BAD_TOKEN

    async def _sign_in(self, token: str) -> bool:
        bot = await asyncio.to_thread(self.bots.signed_in, token)
        if bot is None or not await self.sockets.add_live(self.bots.store, bot.token_hash, self._cut_off):
            return False
        self.connection.account = bot.account.key
        self.digest = bot.token_hash
        self.connection.send(
            server_message("authenticated", account=bot.account.to_dict(), generation=bot.generation)
        )
        return True

    def _cut_off(self, why: str) -> None:
        self.connection.end(
            ProtocolError("token_revoked", f"this bot's API token was {why}: it holds nothing now"),
            TOKEN_ENDED_CLOSE,
        )

    async def from_header(self) -> bool:
        """Sign in with the upgrade request's ``Authorization`` header, if it has one; ``False`` when
        it is refused (then :meth:`refused`)."""
        header = self.websocket.headers.get("authorization")
        if header is None:
            return True
        self.first = False
        scheme, _, token = header.strip().partition(" ")
        if scheme.lower() != "bearer" or not token.strip():
            self.problem = "Authorization: send a bot's API token as 'Bearer <token>'"
            return False
        return await self._sign_in(token.strip())

    async def refused(self) -> None:
        """Tell the client its header's token is refused, and close."""
        with contextlib.suppress(Exception):
            await self.websocket.send_json(ProtocolError("bad_bot_token", self.problem).frame())
            await self.websocket.close(TOKEN_ENDED_CLOSE, "bad bot token")

    async def first_message(self, raw: str | bytes, limit: int) -> bool:
        """Take ``raw`` if it is the first message and an ``auth``: ``True`` when it was (signed in,
        or refused and the connection closed), ``False`` for a message to handle as usual."""
        if not self.first:
            return False
        self.first = False
        try:
            value = parse_message(raw, limit)
        except ProtocolError:
            return False
        if value["type"] != "auth":
            return False
        token = value.get("token")
        if set(value) != {"type", "token"} or not isinstance(token, str):
            self.connection.end(
                ProtocolError("bad_bot_token", 'auth: send {"type": "auth", "token": "<API token>"}'),
                TOKEN_ENDED_CLOSE,
            )
        elif not await self._sign_in(token):
            self.connection.end(ProtocolError("bad_bot_token", BAD_TOKEN), TOKEN_ENDED_CLOSE)
        return True

    def forget(self) -> None:
        """The socket closed: no longer cut off with its token."""
        self.sockets.discard(self.digest, self._cut_off)


__all__ = ["BAD_TOKEN", "BotSignIn"]
