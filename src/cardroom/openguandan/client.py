"""``cardroom connect --protocol openguandan``: one of our bots at a seat of a room on OpenGuanDan's
platform (its Java server, or ``cardroom compete --protocol openguandan``).

The client joins the room (``JOIN_ROOM``) or makes it (``CREATE_ROOM`` with ``round``), rebuilds the
seat's view from the server's frames (:class:`~cardroom.openguandan.view.OpenGuanDanView`), and answers
each ``act`` request with the entry of its ``actionList`` the bot chooses (the competition client's
:class:`~cardroom.competition.client.Player`: the fallback bot decides when the first fails), as
``PLAY``, ``TRIBUTE`` or ``PAYTRIBUTE``. It stops at ``gameOver``. It stops with a
:class:`~cardroom.competition.client.ConnectError` saying why when the server refuses a frame
(``code: -1``), sends one it cannot read, stays silent for ``idle`` seconds, or drops the connection:
the platform has no reconnection, so the seat is lost.

On a card room's ladder (``ws://HOST/ws/ladder/openguandan`` with a bot's API token, docs/ladder.md,
"Over OpenGuanDan's protocol"; :func:`play_ladder`) there is no room to make or join: each connection is
given seat after seat, each opening with a ``JOIN_ROOM`` reply, and a refused answer is no reason to stop
(the ladder's fallback played the move).
"""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Final

from websockets.asyncio.client import ClientConnection
from websockets.exceptions import ConnectionClosed

from cardroom.bots import Bot, make_bot
from cardroom.competition.client import (
    IDLE_CLOSE,
    LADDER_WAIT,
    TOKEN_REFUSED_CLOSE,
    ConnectError,
    Player,
    connection_bots,
    open_connection,
    run_all,
)
from cardroom.guandan.ruleset import COMPETITION, RuleSet
from cardroom.openguandan import frames
from cardroom.openguandan.frames import OK, REFUSED, Frame, Stage
from cardroom.openguandan.view import OpenGuanDanView

log = logging.getLogger("cardroom.openguandan")

DEFAULT_IDLE: Final = 300.0
"""Seconds without a frame before the client gives up (``--idle``): a room is silent until its fourth
seat is taken, so a few minutes."""
QUOTED: Final = 200
"""Characters of an unreadable frame quoted in the error."""


@dataclass
class SeatReport:
    """What the client did: the room and seat, the games and deals seen, the decisions made, how often
    the bot failed (the fallback decided) or chose off the list, and the ``gameResult`` frame."""

    room: int | None = None
    seat: int | None = None
    games: int = 0
    deals: int = 0
    decisions: int = 0
    bot_failures: int = 0
    off_list: int = 0
    result: Frame | None = None
    refusals: list[str] = field(default_factory=list)
    """On the ladder: the server's refusals (``data.msg``), in order."""
    close_code: int | None = None
    close_reason: str = ""
    number: int = 0
    """On the ladder: which of the run's connections this is (0, 1, …)."""

    @property
    def token_refused(self) -> bool:
        """The card room refused or revoked the bot's token (close code 4401)."""
        return self.close_code == TOKEN_REFUSED_CLOSE


@dataclass(frozen=True)
class Seating:
    """Where to sit: room ``room`` (``None``: make one of ``games`` games), ``seat`` (``None``: any
    free one), as ``user_id``."""

    user_id: str
    room: int | None = None
    seat: int | None = None
    games: int = 1

    def request(self) -> Frame:
        if self.room is None:
            return frames.create_room(self.user_id, self.games, self.seat)
        return frames.join_room(self.user_id, self.room, self.seat)


@dataclass
class _Session:
    url: str
    connection: ClientConnection
    player: Player
    idle: float
    report: SeatReport = field(default_factory=SeatReport)

    async def receive(self) -> Frame:
        """The next frame; :class:`ConnectError` when the server goes quiet, drops the connection,
        sends what cannot be read, or refuses a frame."""
        try:
            raw = await asyncio.wait_for(self.connection.recv(), self.idle)
        except TimeoutError:
            await self.connection.close()
            raise ConnectError(
                f"{self.url} sent nothing for {self.idle:g} s (--idle): the room may be waiting for its "
                "other seats, or the server not speak OpenGuanDan's protocol"
            ) from None
        except ConnectionClosed as closed:
            raise ConnectError(self._lost(closed)) from None
        try:
            frame = json.loads(raw)
        except (json.JSONDecodeError, UnicodeDecodeError):
            frame = None
        if not isinstance(frame, dict):
            await self.connection.close()
            raise ConnectError(f"{self.url} sent a frame that is not a JSON object: {str(raw)[:QUOTED]}")
        if frame.get("code") == REFUSED:
            await self.connection.close()
            data = frame.get("data")
            reason = data.get("msg") if isinstance(data, dict) else None
            raise ConnectError(
                f"the server refused {frame.get('type')}: {reason or json.dumps(frame)[:QUOTED]}"
            )
        return frame

    def _lost(self, closed: ConnectionClosed) -> str:
        report = self.report
        code = closed.rcvd.code if closed.rcvd is not None else "none"
        where = f"seat {report.seat} of room {report.room}" if report.room is not None else "the seat"
        return (
            f"the connection to {self.url} dropped before gameOver (close code {code}): {where} is lost, "
            "as OpenGuanDan's server has no reconnection (`cardroom compete --protocol openguandan` lets "
            "the same userId take its seat again: run the same command)"
        )

    async def send(self, frame: Frame) -> None:
        try:
            await self.connection.send(json.dumps(frame, ensure_ascii=False, separators=(",", ":")))
        except ConnectionClosed as closed:
            raise ConnectError(self._lost(closed)) from None


async def play(
    url: str,
    seating: Seating,
    bot: Bot,
    *,
    fallback: Bot,
    rules: RuleSet = COMPETITION,
    wait: float = 10.0,
    idle: float = DEFAULT_IDLE,
    on_room: Callable[[int, int], None] | None = None,
) -> SeatReport:
    """Take a seat at ``url`` and play it until ``gameOver``; ``on_room(room, seat)`` is called once
    seated. :class:`ConnectError` says why when it cannot go on."""
    connection = await open_connection(url, wait)
    session = _Session(url, connection, Player(bot, fallback, OpenGuanDanView(rules)), idle)
    try:
        await _sit(session, seating, on_room)
        while not await _take(session, await session.receive()):
            pass
    finally:
        await connection.close()
    return session.report


async def _sit(session: _Session, seating: Seating, on_room: Callable[[int, int], None] | None) -> None:
    request = seating.request()
    await session.send(request)
    while True:
        reply = await session.receive()
        if reply.get("type") == request["type"] and reply.get("code") == OK:
            break
        log.debug("before the reply to %s: %.200s", request["type"], json.dumps(reply))
    data = reply.get("data")
    room = data.get("roomId") if isinstance(data, dict) else None
    seat = data.get("userNum") if isinstance(data, dict) else None
    if not isinstance(room, int) or not isinstance(seat, int) or seat not in range(4):
        raise ConnectError(
            f"cannot read the room and seat in the reply to {request['type']}: {json.dumps(reply)}"
        )
    report = session.report
    report.room, report.seat = room, seat
    session.player.view.seat = seat
    log.info("seat %d of room %d, with the %s bot", seat, room, session.player.bot.name)
    if on_room is not None:
        on_room(room, seat)


async def _take(session: _Session, frame: Frame) -> bool:
    """Take in one frame (answering a request); whether it was ``gameOver``."""
    kind, stage = frame.get("type"), frame.get("stage")
    player, report = session.player, session.report
    if kind not in ("notify", "act"):
        log.debug("ignored: %.200s", json.dumps(frame))
        return False
    player.view.update(frame)
    if kind == "act":
        entries = frame.get("actionList")
        if stage not in frames.ANSWER_OF_STAGE or not isinstance(entries, list) or not entries:
            raise ConnectError(f"cannot read the request: {json.dumps(frame)[:QUOTED]}")
        index = await asyncio.to_thread(player.choose, frame, report)
        report.decisions += 1
        assert report.room is not None
        assert report.seat is not None
        await session.send(frames.answer(frame, report.room, report.seat, entries[index]))
    elif stage == Stage.EPISODE_OVER:
        report.deals += 1
    elif stage == Stage.GAME_RESULT:
        report.result = frame
    elif stage == Stage.GAME_OVER:
        games = frame.get("curTimes")
        report.games = games if isinstance(games, int) else report.games
        return True
    return False


async def play_ladder(
    url: str,
    token: str,
    bot: Bot,
    *,
    fallback: Bot,
    rules: RuleSet = COMPETITION,
    wait: float = 10.0,
    idle: float | None = None,
    episodes: int | None = None,
    number: int = 0,
) -> SeatReport:
    """Play seat after seat of a card room's ladder at ``url`` with the bot's API ``token`` (in the
    ``Authorization: Bearer`` header) until the server closes the connection (4401: the token was refused
    or revoked) or ``episodes`` deals have ended. :class:`ConnectError` when it cannot connect, or the
    server sends nothing for ``idle`` seconds (``None``: no limit)."""
    connection = await open_connection(url, wait, token)
    player = Player(bot, fallback, OpenGuanDanView(rules))
    report = SeatReport(number=number)
    log.info("connected to %s with the %s bot", url, bot.name)
    if number == 0:
        log.info(LADDER_WAIT)
    spoken = False
    try:
        while episodes is None or report.deals < episodes:
            try:
                raw = await asyncio.wait_for(connection.recv(), idle)
            except TimeoutError:
                raise ConnectError(f"{url} sent nothing for {idle or 0:g} s (--idle)") from None
            if not spoken and not _of_the_protocol(raw):
                raise ConnectError(
                    f"{url} speaks another protocol (its first frame: {str(raw)[:QUOTED]}): for the card "
                    "room's ladder over OpenGuanDan's protocol use ws://HOST/ws/ladder/openguandan"
                )
            spoken = True
            await _take_ladder(connection, player, report, raw)
    except ConnectionClosed:
        pass
    finally:
        await connection.close()
    report.close_code = connection.close_code
    report.close_reason = connection.close_reason or ""
    if report.close_code == IDLE_CLOSE and not spoken:
        raise ConnectError(
            f"{url} closed the connection as idle (close {IDLE_CLOSE}) before any frame of OpenGuanDan's "
            f"protocol: {report.close_reason or 'no reason given'}; a card room's ladder over this protocol "
            "is ws://HOST/ws/ladder/openguandan"
        )
    return report


def _of_the_protocol(raw: object) -> bool:
    """Whether a frame is one of OpenGuanDan's: a JSON object that answers a request (``code``) or
    whose ``type`` is ``notify``/``act``."""
    try:
        frame = json.loads(raw)  # type: ignore[arg-type]
    except (json.JSONDecodeError, TypeError, UnicodeDecodeError):
        return False
    if not isinstance(frame, dict):
        return False
    return frame.get("code") in (OK, REFUSED) or frame.get("type") in ("notify", "act")


async def _take_ladder(connection: ClientConnection, player: Player, report: SeatReport, raw: object) -> None:
    """One frame of the ladder: a new seat, a refusal (noted), or a frame of the seat's table."""
    try:
        frame = json.loads(raw)  # type: ignore[arg-type]
    except (json.JSONDecodeError, TypeError, UnicodeDecodeError):
        frame = None
    if not isinstance(frame, dict):
        log.warning("a frame that is not a JSON object: %.200s", raw)
        return
    data = frame.get("data")
    data = data if isinstance(data, dict) else {}
    if frame.get("code") == REFUSED:
        reason = str(data.get("msg"))
        report.refusals.append(reason)
        log.warning("the server refused %s: %s", frame.get("type"), reason)
        return
    if frame.get("type") == frames.FrameType.JOIN_ROOM.value:
        room, seat = data.get("roomId"), data.get("userNum")
        if isinstance(room, int) and isinstance(seat, int) and seat in range(4):
            report.room, report.seat = room, seat
            player.view = OpenGuanDanView(player.view.rules)
            player.view.seat = seat
            log.info("seat %d of ladder table %d", seat, room)
        return
    await _take(_Session("", connection, player, 0.0, report), frame)


def run_ladder(
    url: str,
    token: str,
    bot: str = "heuristic",
    *,
    seed: int | None = None,
    fallback: str = "heuristic",
    rules: RuleSet = COMPETITION,
    wait: float = 10.0,
    idle: float | None = None,
    connections: int = 1,
    episodes: int | None = None,
) -> list[SeatReport]:
    """:func:`play_ladder` with ``connections`` connections at once (blocking), each with its own bots
    (seeded ``seed``, ``seed + 2``, …) and its own report."""

    async def each(number: int) -> SeatReport:
        chosen, fallback_bot = connection_bots(bot, fallback, seed, number)
        return await play_ladder(
            url,
            token,
            chosen,
            fallback=fallback_bot,
            rules=rules,
            wait=wait,
            idle=idle,
            episodes=episodes,
            number=number,
        )

    return run_all(each, connections)


def run_connect(
    url: str,
    seating: Seating,
    bot: str = "heuristic",
    *,
    seed: int | None = None,
    fallback: str = "heuristic",
    rules: RuleSet = COMPETITION,
    wait: float = 10.0,
    idle: float = DEFAULT_IDLE,
    on_room: Callable[[int, int], None] | None = None,
) -> SeatReport:
    """Run ``cardroom connect --protocol openguandan`` to the end (blocking)."""
    fallback_seed = None if seed is None else seed + 1
    bots = make_bot(bot, seed), make_bot(fallback, fallback_seed)
    return asyncio.run(
        play(url, seating, bots[0], fallback=bots[1], rules=rules, wait=wait, idle=idle, on_room=on_room)
    )


__all__ = ["DEFAULT_IDLE", "SeatReport", "Seating", "play", "play_ladder", "run_connect", "run_ladder"]
