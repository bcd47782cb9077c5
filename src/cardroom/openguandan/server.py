"""``cardroom compete --protocol openguandan``: a server of OpenGuanDan's platform protocol
(docs/openguandan-protocol.md) with our rules core as referee.

Clients connect at ``ws://HOST:PORT`` (any path), make rooms with ``CREATE_ROOM`` and fill them with
``JOIN_ROOM``; a room's first game starts when its fourth seat is taken. Each room is a pure
:class:`~cardroom.openguandan.room.Room`; this module does the I/O: it reads each client frame once
(:func:`~cardroom.openguandan.frames.parse_client_frame`), checks that an answer comes from the
connection that holds the seat, hands it to the room, and sends the room's frames, in order, through
one queue per connection. A refused frame is answered with ``code: -1`` and the reason; text that is not
JSON closes the connection (code 1007), as the Java server closes it. Each finished game is written as
a record when ``out`` is given.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import random
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from websockets.asyncio.server import ServerConnection, serve
from websockets.exceptions import ConnectionClosed

from cardroom.guandan.ruleset import COMPETITION, RuleSet
from cardroom.openguandan import frames
from cardroom.openguandan.frames import (
    Answer,
    CreateRoom,
    Frame,
    FrameError,
    JoinRoom,
    NotJsonError,
    parse_client_frame,
)
from cardroom.openguandan.room import Dealer, Outbox, RefusedError, Room, RoomPhase, random_dealer
from cardroom.records import record_of, write_record

log = logging.getLogger("cardroom.openguandan")

MAX_FRAME = 2**16
"""Largest client frame taken, in bytes (an answer is a few hundred)."""
NOT_JSON = 1007
"""The close code for a text frame that is not JSON (invalid frame payload data)."""


@dataclass(frozen=True)
class ServeConfig:
    """How to run the server: where to listen, the games of a room whose ``CREATE_ROOM`` names no
    ``round``, the deals of a game (``None``: to A), the seed of the shuffles, the rules, the folder for
    the records (``None``: none), how many rooms to finish before stopping (``None``: never), and how
    each room deals (room id → :data:`Dealer`; ``None``: shuffles from ``seed``)."""

    host: str = "127.0.0.1"
    port: int = 8181
    games: int = 1
    max_deals: int | None = None
    seed: int | None = None
    rules: RuleSet = COMPETITION
    out: Path | None = None
    rooms: int | None = None
    dealers: Callable[[int], Dealer] | None = None

    def __post_init__(self) -> None:
        if self.games < 1:
            raise ValueError(f"games must be at least 1, got {self.games}")
        if self.max_deals is not None and self.max_deals < 1:
            raise ValueError(f"max_deals must be at least 1, got {self.max_deals}")
        if self.rooms is not None and self.rooms < 1:
            raise ValueError(f"rooms must be at least 1, got {self.rooms}")


@dataclass
class RoomReport:
    """A finished room: its id, its users by seat, each game's winner (team 0 or 1) and final levels,
    and the records written."""

    room_id: int
    users: list[str]
    winners: list[int | None] = field(default_factory=list)
    levels: list[tuple[str, str]] = field(default_factory=list)
    records: list[Path] = field(default_factory=list)


@dataclass
class ServeReport:
    """What the server did: the rooms finished, the frames sent, and the client frames refused."""

    rooms: list[RoomReport] = field(default_factory=list)
    frames_sent: int = 0
    refused: int = 0


class _Peer:
    """One connection: its seat once it has one, and the queue its frames go out through in order."""

    def __init__(self, connection: ServerConnection) -> None:
        self.connection = connection
        self.room: Room | None = None
        self.seat: int | None = None
        self.queue: asyncio.Queue[str] = asyncio.Queue()

    def send(self, frame: Frame) -> None:
        self.queue.put_nowait(json.dumps(frame, ensure_ascii=False, separators=(",", ":")))

    async def write(self) -> None:
        """Send the queued frames as they come (dropping them once the connection is closed)."""
        while True:
            text = await self.queue.get()
            try:
                with contextlib.suppress(ConnectionClosed):
                    await self.connection.send(text)
            finally:
                self.queue.task_done()

    async def flush(self) -> None:
        """Wait until every frame queued so far has gone out (or been dropped)."""
        await self.queue.join()


class OpenGuanDanServer:
    """Serves rooms until ``config.rooms`` rooms are over (or forever); :meth:`run` returns the report.
    ``port`` is the port listened on once ``listening`` is set (useful with port 0)."""

    def __init__(self, config: ServeConfig) -> None:
        self.config = config
        self.report = ServeReport()
        self.rooms: dict[int, Room] = {}
        self.listening = asyncio.Event()
        self.port = config.port
        self._peers: dict[int, list[_Peer | None]] = {}
        self._next_room = 1
        self._rooms_over = 0
        self._done = asyncio.Event()

    async def run(self) -> ServeReport:
        config = self.config
        async with serve(self._handle, config.host, config.port, max_size=MAX_FRAME) as server:
            sockets = list(server.sockets)
            if sockets:
                self.port = sockets[0].getsockname()[1]
            self.listening.set()
            log.info("serving OpenGuanDan rooms at ws://%s:%d", config.host, self.port)
            await self._done.wait()
            for peers in list(self._peers.values()):
                for peer in peers:
                    if peer is not None:
                        await peer.flush()
                        await peer.connection.close(1000, "the rooms are over")
        return self.report

    def stop(self) -> None:
        """Stop serving: :meth:`run` closes the connections and returns."""
        self._done.set()

    # -- connections -------------------------------------------------------------------------------

    async def _handle(self, connection: ServerConnection) -> None:
        peer = _Peer(connection)
        writer = asyncio.create_task(peer.write())
        try:
            async for raw in connection:
                try:
                    request = parse_client_frame(raw)
                except NotJsonError as error:
                    log.warning("%s: %s; closing the connection", connection.remote_address, error)
                    await peer.flush()
                    await connection.close(NOT_JSON, str(error)[:120])
                    break
                except FrameError as error:
                    self._refuse(peer, error.frame_type, error.message)
                    continue
                self._take(peer, request)
        except ConnectionClosed:
            pass
        finally:
            self._left(peer)
            writer.cancel()

    def _left(self, peer: _Peer) -> None:
        room, seat = peer.room, peer.seat
        if room is None or seat is None:
            return
        peers = self._peers.get(room.room_id)
        if peers is None or peers[seat] is not peer:
            return
        peers[seat] = None
        room.leave(seat)
        if room.phase is RoomPhase.PLAYING:
            log.warning(
                "room %d: seat %d's connection dropped; it may come back with JOIN_ROOM", room.room_id, seat
            )
        if room.is_empty and room.phase is not RoomPhase.PLAYING:
            self.rooms.pop(room.room_id, None)
            self._peers.pop(room.room_id, None)

    # -- requests ----------------------------------------------------------------------------------

    def _take(self, peer: _Peer, request: CreateRoom | JoinRoom | Answer) -> None:
        try:
            if isinstance(request, CreateRoom):
                self._create(peer, request)
            elif isinstance(request, JoinRoom):
                self._join(peer, request)
            else:
                self._answer(peer, request)
        except RefusedError as refusal:
            kind = request.kind.value if isinstance(request, Answer) else _type_of(request)
            self._refuse(peer, kind, refusal.message)

    def _refuse(self, peer: _Peer, frame_type: str | None, message: str) -> None:
        self.report.refused += 1
        where = f"room {peer.room.room_id} seat {peer.seat}" if peer.room is not None else "a connection"
        log.info("%s: refused %s: %s", where, frame_type, message)
        peer.send(frames.refusal(frame_type, message))
        self.report.frames_sent += 1

    def _seated_already(self, peer: _Peer) -> None:
        """Refuse a second seat to a connection whose room is still on; one whose room is over may go
        on to another."""
        if peer.room is None:
            return
        if peer.room.phase is not RoomPhase.OVER:
            raise RefusedError(f"this connection already holds seat {peer.seat} of room {peer.room.room_id}")
        self._left(peer)
        peer.room, peer.seat = None, None

    def _create(self, peer: _Peer, request: CreateRoom) -> None:
        self._seated_already(peer)
        config = self.config
        room_id = self._next_room
        room = Room(
            room_id,
            request.games or config.games,
            self._dealer(room_id),
            rules=config.rules,
            max_deals=config.max_deals,
        )
        out = room.join(request.user_id, request.user_name, request.seat, creating=True)
        self._next_room += 1
        self.rooms[room_id] = room
        self._peers[room_id] = [None] * 4
        self._seat(peer, room, out[0][0])
        log.info("room %d created by %r for %d games", room_id, request.user_id, room.games)
        self._send(room, out)

    def _join(self, peer: _Peer, request: JoinRoom) -> None:
        self._seated_already(peer)
        room = self.rooms.get(request.room_id)
        if room is None:
            raise RefusedError(f"房间不存在 (room {request.room_id} does not exist)")
        out = room.join(request.user_id, request.user_name, request.seat)
        self._seat(peer, room, out[0][0])
        log.info("room %d: %r took seat %d", room.room_id, request.user_id, out[0][0])
        self._send(room, out)

    def _dealer(self, room_id: int) -> Dealer:
        config = self.config
        if config.dealers is not None:
            return config.dealers(room_id)
        return random_dealer(random.Random(None if config.seed is None else config.seed * 100_003 + room_id))

    def _seat(self, peer: _Peer, room: Room, seat: int) -> None:
        peer.room, peer.seat = room, seat
        self._peers[room.room_id][seat] = peer

    def _answer(self, peer: _Peer, answer: Answer) -> None:
        room, seat = peer.room, peer.seat
        if room is None or seat is None:
            raise RefusedError("this connection holds no seat: CREATE_ROOM or JOIN_ROOM first")
        if answer.room_id != room.room_id:
            raise RefusedError(f"this connection plays room {room.room_id}, not room {answer.room_id}")
        if answer.player != seat:
            raise RefusedError(f"this connection holds seat {seat}; it cannot act for seat {answer.player}")
        games = len(room.matches)
        out = room.answer(seat, answer)
        self._send(room, out)
        if len(room.matches) > games or room.phase is RoomPhase.OVER:
            self._game_over(room, games)

    def _send(self, room: Room, out: Outbox) -> None:
        peers = self._peers[room.room_id]
        for seat, frame in out:
            peer = peers[seat]
            if peer is not None:
                peer.send(frame)
                self.report.frames_sent += 1

    # -- games and rooms over ----------------------------------------------------------------------

    def _game_over(self, room: Room, number: int) -> None:
        """Game ``number`` of ``room`` is over (and maybe the room): record it, report the room."""
        match = room.matches[number - 1]
        users = [
            sitter.user_id if sitter is not None else f"seat {seat}" for seat, sitter in enumerate(room.seats)
        ]
        report = next((entry for entry in self.report.rooms if entry.room_id == room.room_id), None)
        if report is None:
            report = RoomReport(room.room_id, users)
            self.report.rooms.append(report)
        report.winners.append(match.winner)
        report.levels.append((match.levels[0].letter, match.levels[1].letter))
        log.info("room %d, game %d of %d: team %s wins", room.room_id, number, room.games, match.winner)
        out = self.config.out
        if out is not None:
            out.mkdir(parents=True, exist_ok=True)
            path = out / f"room-{room.room_id:03d}-game-{number:02d}.json"
            meta = {"openguandan": {"room": room.room_id, "game": number, "games": room.games}}
            write_record(path, record_of(match, users, seed=self.config.seed, meta=meta))
            report.records.append(path)
        if room.phase is RoomPhase.OVER:
            self._rooms_over += 1
            if self.config.rooms is not None and self._rooms_over >= self.config.rooms:
                self._done.set()


def _type_of(request: CreateRoom | JoinRoom) -> str:
    return (
        frames.FrameType.CREATE_ROOM if isinstance(request, CreateRoom) else frames.FrameType.JOIN_ROOM
    ).value


def run_serve(config: ServeConfig) -> ServeReport:
    """Run ``cardroom compete --protocol openguandan`` until ``config.rooms`` rooms are over (blocking)."""
    return asyncio.run(OpenGuanDanServer(config).run())


__all__ = ["OpenGuanDanServer", "RoomReport", "ServeConfig", "ServeReport", "run_serve"]
