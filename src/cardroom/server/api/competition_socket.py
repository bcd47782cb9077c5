"""The ladder over another protocol than the card room's, one seat per connection: the Guandan AI
competition's at ``ws://HOST/ws/ladder/competition`` (docs/ladder.md, "Over the competition protocol")
and OpenGuanDan's at ``ws://HOST/ws/ladder/openguandan`` ("Over OpenGuanDan's protocol"); what differs is
the bridge's :class:`~cardroom.server.ladder.bridge.SeatProtocol`.

A bot signs in with its API token in the upgrade request's ``Authorization: Bearer`` header (the protocol
has no message for it); a missing or wrong token is told so in the protocol's error message and closed with
:data:`TOKEN_ENDED_CLOSE`, and rotating, revoking or deleting the bot closes an open connection the same
way at once. Each connection is a :class:`~cardroom.server.ladder.seat_players.SeatPlayer`: given a seat
by the ladder, it joins the table as the bot and speaks the seat to the bot with a
:class:`~cardroom.server.ladder.bridge.SeatBridge`; the bot's answers are played through the room as any
seat's ``act``.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from collections.abc import Callable
from typing import Any

from fastapi import WebSocket
from starlette.websockets import WebSocketDisconnect

from cardroom.competition.messages import Message
from cardroom.server.accounts.bots import BotAccounts
from cardroom.server.api.bot_socket import BAD_TOKEN
from cardroom.server.api.gate import Gate, message_data
from cardroom.server.ladder.bridge import CompetitionProtocol, Move, SeatBridge, SeatProtocol
from cardroom.server.ladder.openguandan_seat import OpenGuanDanProtocol
from cardroom.server.ladder.seat_players import BotIdentity, SeatPlayers
from cardroom.server.live.bot_sockets import TOKEN_ENDED_CLOSE, BotSockets
from cardroom.server.live.rooms import Connection, Room, Rooms
from cardroom.server.tables.codec import ProtocolError
from cardroom.server.tables.guandan import Table

log = logging.getLogger(__name__)

NO_LADDER_CLOSE = 1008

Speaking = Callable[[int], SeatProtocol]
"""A protocol for the ``n``-th table a connection plays."""


def bearer_token(websocket: WebSocket) -> str | None:
    """The token of the upgrade request's ``Authorization: Bearer`` header (a ``?token=`` is ignored)."""
    header = websocket.headers.get("authorization")
    if header is None:
        return None
    scheme, _, token = header.strip().partition(" ")
    return token.strip() or None if scheme.lower() == "bearer" else None


async def refuse(websocket: WebSocket, message: Message, close: int, text: str) -> None:
    """Say why in the protocol's error message, and close."""
    with contextlib.suppress(Exception):
        await websocket.send_text(json.dumps(message, ensure_ascii=False))
        await websocket.close(close, text[:120])


class SeatConnection:
    """One connection of a bot (over the competition protocol unless ``speaking`` says another): idle
    until the ladder seats it, then one table's seat."""

    def __init__(
        self, bot: BotIdentity, rooms: Rooms, players: SeatPlayers, speaking: Speaking | None = None
    ) -> None:
        self.bot = bot
        self.rooms = rooms
        self.players = players
        self.speaking: Speaking = speaking or (lambda _: CompetitionProtocol())
        self.out = Connection()
        """What is sent to the bot, in order (its queue), and how the socket ends."""
        self.room: Room | None = None
        self.seat_connection: Connection | None = None
        self.bridge: SeatBridge | None = None
        self.relay: asyncio.Task[None] | None = None
        self.finished = 0
        """The ladder tables this connection played to their end."""

    def send(self, message: Message) -> None:
        self.out.send(message)

    def error(self, code: str, text: str, received: str | None = None) -> Message:
        """An error of this connection's protocol, about no request."""
        return self.speaking(self.finished + 1).error(code, text, None, received)

    def take_seat(self, notice: dict[str, Any]) -> None:
        """Join the notice's table at its seat as the bot, and relay the table to the bot."""
        room = self.rooms.get(str(notice["table"]))
        if room is None or not isinstance(room.table, Table) or self.out.closed:
            log.warning("ladder: table %s of %s cannot be joined", notice.get("table"), self.bot.key)
            self.players.done(self.bot, self)
            return
        connection = Connection()
        connection.account = self.bot.key
        room.attach(connection)
        try:
            room.join(connection, str(notice["token"]), 0)
        except ProtocolError:
            log.exception("ladder: %s could not join table %s", self.bot.key, room.table.id)
            room.leave(connection)
            self.players.done(self.bot, self)
            return
        self.room, self.seat_connection = room, connection
        self.bridge = SeatBridge(room.table, int(notice["seat"]), self.speaking(self.finished + 1))
        for message in self.bridge.protocol.seated(self.bridge):
            self.send(message)
        self.relay = asyncio.create_task(self._relay(room, connection, self.bridge), name="ladder seat")

    async def _relay(self, room: Room, connection: Connection, bridge: SeatBridge) -> None:
        """The table's frames for the seat, as the competition protocol's messages, until its match ends."""
        try:
            while not bridge.over:
                frame = await connection.queue.get()
                if frame is None:
                    break
                if isinstance(room.table, Table):
                    bridge.table = room.table  # rebuilt after a halt
                for message in bridge.frame(frame, self.finished + 1):
                    self.send(message)
        except Exception:
            log.exception("ladder: relaying table %s to %s failed", room.table.id, self.bot.key)
        finally:
            self._leave()
            self.finished += 1
            self.players.done(self.bot, self)

    def _leave(self) -> None:
        if self.room is not None and self.seat_connection is not None:
            self.room.leave(self.seat_connection)
        self.room = self.seat_connection = self.bridge = None

    async def received(self, raw: str | bytes, limit: int) -> None:
        """The bot's answer: played through the room, or refused (a fault when it is a bad answer to
        the seat's own request)."""
        bridge, room, connection = self.bridge, self.room, self.seat_connection
        if bridge is None or room is None or connection is None:
            text = "no action is asked for now: wait for an act message"
            self.send(self.error("unexpected", text, _text(raw)))
            return
        outcome = bridge.answer(raw if len(raw) <= limit else raw[:limit])
        if isinstance(outcome, Move):
            try:
                await room.handle(connection, {"type": "act", "action": outcome.action})
            except ProtocolError as error:
                self.send(bridge.protocol.error(error.code, error.message, bridge.stage, _text(raw)))
            return
        if outcome.fault:
            room.refuse_act(bridge.seat, outcome.reason)
        self.send(outcome.message)

    def cut_off(self, why: str) -> None:
        """The bot's token ended: say so, and close (:data:`TOKEN_ENDED_CLOSE`)."""
        self.send(self.error("token-revoked", f"this bot's API token was {why}: it holds nothing now"))
        self.out.close(TOKEN_ENDED_CLOSE, "token revoked")

    async def close(self) -> None:
        if self.relay is not None:
            self.relay.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self.relay
        self._leave()


def _text(raw: str | bytes) -> str:
    return raw if isinstance(raw, str) else raw.decode("utf-8", "replace")


async def competition_socket(websocket: WebSocket) -> None:
    """One competition connection of a bot: signed in by its header, then seat after seat."""
    await seat_socket(websocket, lambda _: CompetitionProtocol())


async def openguandan_socket(websocket: WebSocket) -> None:
    """One OpenGuanDan connection of a bot: signed in by its header, then seat after seat."""
    await seat_socket(websocket, OpenGuanDanProtocol)


async def seat_socket(websocket: WebSocket, speaking: Speaking) -> None:
    """One connection of a bot speaking ``speaking``'s protocol: signed in by its header, then seat after
    seat."""
    await websocket.accept()
    state = websocket.app.state
    players: SeatPlayers | None = getattr(state, "seat_players", None)
    told = speaking(1)
    if players is None:
        text = "this card room runs no ladder"
        await refuse(websocket, told.error("no-ladder", text, None, None), NO_LADDER_CLOSE, text)
        return
    gate = Gate(websocket)
    if not await gate.admit(websocket):
        return
    gate.idle = None  # the server speaks first in this protocol: a connection waits for its seat
    bots: BotAccounts = state.bots
    token = bearer_token(websocket)
    signed = None if token is None else await asyncio.to_thread(bots.signed_in, token)
    row = None if signed is None else await asyncio.to_thread(players.service.store.bot, signed.account.key)
    sockets: BotSockets = state.bot_sockets
    bot = None if row is None else BotIdentity(row.key, row.owner, row.generation, row.name)
    player = None if bot is None else SeatConnection(bot, state.rooms, players, speaking)
    if (
        signed is None
        or bot is None
        or player is None
        or not await sockets.add_live(players.service.store, signed.token_hash, player.cut_off)
    ):
        gate.release()
        why = "send the bot's API token as 'Authorization: Bearer <token>'" if token is None else BAD_TOKEN
        await refuse(websocket, told.error("bad-token", why, None, None), TOKEN_ENDED_CLOSE, why)
        return
    limit: int = state.settings.max_message

    async def pump() -> None:
        try:
            while True:
                message = await player.out.queue.get()
                if message is None:
                    await websocket.close(*player.out.ending)
                    return
                await websocket.send_text(json.dumps(message, ensure_ascii=False))
        except Exception:
            player.out.close()

    sender = asyncio.create_task(pump())
    players.add(bot, player)
    try:
        while not player.out.closed:
            received = await gate.next(websocket, player.send)
            if received is None or player.out.closed:
                break
            try:
                await player.received(message_data(received), limit)
            except Exception:
                log.exception("a ladder seat connection of %s: an answer could not be handled", bot.key)
                player.send(player.error("server-error", "the server failed; try again"))
    except WebSocketDisconnect:
        pass
    finally:
        players.remove(bot, player)
        sockets.discard(signed.token_hash, player.cut_off)
        await player.close()
        if player.out.ending[0] != 1000:  # closed saying why (a revoked token): let the sender say it
            await asyncio.wait([sender], timeout=5.0)
        await gate.close(websocket, sender)


__all__ = ["SeatConnection", "bearer_token", "competition_socket", "openguandan_socket", "seat_socket"]
