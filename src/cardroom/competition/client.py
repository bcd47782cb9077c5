"""``cardroom connect``: one of our bots at a seat of a server that speaks the Guandan AI competition's
protocol (the competition's own simulator, or ``cardroom compete``).

The client rebuilds the seat's view from the server's messages (:class:`SeatView`), asks the bot for
its action at each ``act`` message and answers with that action's index in ``actionList``. When the
bot fails (an exception) the fallback bot decides; when neither choice is in the list, index 0.
"""

from __future__ import annotations

import asyncio
import json
import logging
import time
from collections.abc import Mapping, Sequence
from contextlib import suppress
from dataclasses import dataclass, field
from typing import Any, Protocol

from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed, InvalidHandshake, InvalidStatus, InvalidURI

from cardroom.bots import Bot, make_bot
from cardroom.competition.messages import Message, action_identity, parse_message
from cardroom.competition.view import SeatView
from cardroom.guandan.deal import Action
from cardroom.guandan.ruleset import COMPETITION, RuleSet

log = logging.getLogger("cardroom.competition")

MAX_MESSAGE = 2**24
"""Largest message accepted from the server (an ``actionList`` of a full hand is about 100 kB)."""
DEFAULT_IDLE = 300.0
"""Seconds without a message from the server before the client gives up (``--idle``): a server waits
for its four seats before it speaks, so a few minutes."""
STRANGE_MESSAGES = 3
"""Messages of another kind (not JSON objects of type ``notify``, ``act`` or ``error``) that, coming
before any message of the protocol, mean the server speaks another protocol."""
PROTOCOL_TYPES = frozenset({"notify", "act", "error"})
FINAL_CLOSES = frozenset({1000, 1008})
"""Close codes after which the client does not reconnect: the games are over, or the seat was refused."""


class ConnectError(Exception):
    """The client could not connect, or the server refused it."""


class DecisionTally(Protocol):
    """Where :meth:`Player.choose` counts the bot's failures and its choices off the list."""

    bot_failures: int
    off_list: int


@dataclass
class ConnectReport:
    """What the client did: its seat, the deals and matches seen, the decisions made, how often the bot
    failed (the fallback decided) or chose off the list, the server's error messages, and the final
    ``gameResult`` (``victoryNum``, ``draws``) when one came."""

    seat: int | None = None
    deals: int = 0
    matches: int = 0
    decisions: int = 0
    bot_failures: int = 0
    off_list: int = 0
    errors: list[Message] = field(default_factory=list)
    result: Message | None = None
    close_code: int | None = None
    close_reason: str = ""
    reconnections: int = 0


@dataclass
class Player:
    """The bot at the seat, its fallback, and the seat's view."""

    bot: Bot
    fallback: Bot
    view: SeatView

    def choose(self, message: Mapping[str, Any], report: DecisionTally) -> int:
        """The index to answer an ``act`` message with (the view has taken the message in)."""
        entries = self.view.legal_actions(message)
        legal = [entry for entry in entries if entry is not None]
        if not legal:
            log.warning("no entry of the actionList could be read; answering 0")
            return 0
        observation = self.view.observation(message, legal)
        for bot in (self.bot, self.fallback):
            try:
                choice = bot.act(observation)
            except Exception:  # a failing bot must not cost the seat its turn
                report.bot_failures += 1
                log.exception("the %s bot failed; its fallback decides", bot.name)
                continue
            index = _index_in(choice, entries)
            if index is not None:
                return index
            report.off_list += 1
            log.warning("the %s bot chose %r, which is not in the actionList", bot.name, choice)
        return entries.index(legal[0])


def _index_in(choice: Action, entries: Sequence[Action | None]) -> int | None:
    """The index of the bot's choice in the list: the same action (as a bot answers from its
    observation's legal actions), else the entry of the same kind, key rank and cards."""
    if choice in entries:
        return entries.index(choice)
    identity = action_identity(choice)
    for index, entry in enumerate(entries):
        if entry is not None and action_identity(entry) == identity:
            return index
    return None


async def open_connection(url: str, wait: float) -> ClientConnection:
    """Connect, retrying for ``wait`` seconds while nothing listens there."""
    deadline = time.monotonic() + wait
    while True:
        try:
            return await connect(url, max_size=MAX_MESSAGE, open_timeout=10)
        except InvalidURI as error:
            raise ConnectError(f"not a websocket URL: {error}") from None
        except InvalidStatus as error:
            raise ConnectError(
                f"the server refused the connection: HTTP {error.response.status_code}"
            ) from None
        except InvalidHandshake as error:
            raise ConnectError(f"{url} is not a websocket server: {error}") from None
        except TimeoutError:
            raise ConnectError(f"{url} did not answer the websocket handshake within 10 s") from None
        except OSError as error:
            if time.monotonic() >= deadline:
                raise ConnectError(f"cannot connect to {url}: {error.strerror or error}") from None
        await asyncio.sleep(0.2)


async def play(
    url: str,
    bot: Bot,
    *,
    fallback: Bot,
    rules: RuleSet = COMPETITION,
    wait: float = 10.0,
    idle: float = DEFAULT_IDLE,
) -> ConnectReport:
    """Play the seat at ``url`` until the server closes the connection. A connection that drops before
    the games end is made again (for up to ``wait`` seconds; the server lets a seat's client return, and
    its fallback plays the seat meanwhile). :class:`ConnectError` when the server sends nothing for
    ``idle`` seconds or speaks another protocol."""
    report = ConnectReport()
    player = Player(bot, fallback, SeatView(rules))
    connection = await open_connection(url, wait)
    log.info("connected to %s with the %s bot", url, bot.name)
    while True:
        with suppress(ConnectionClosed):
            await _serve(url, connection, player, report, idle)
        report.close_code = connection.close_code
        report.close_reason = connection.close_reason or ""
        if report.close_code in FINAL_CLOSES or report.result is not None:
            return report
        log.warning(
            "the connection to %s dropped (close code %s); connecting again for up to %g s",
            url,
            report.close_code,
            wait,
        )
        try:
            connection = await open_connection(url, wait)
        except ConnectError as error:
            log.warning("could not connect again: %s", error)
            return report
        report.reconnections += 1


async def _serve(
    url: str, connection: ClientConnection, player: Player, report: ConnectReport, idle: float
) -> None:
    """Take the server's messages until it closes the connection."""
    strange: list[str] = []
    spoken = report.decisions > 0 or player.view.seat is not None
    while True:
        try:
            raw = await asyncio.wait_for(connection.recv(), idle)
        except TimeoutError:
            await connection.close()
            raise ConnectError(
                f"{url} sent nothing for {idle:g} s (--idle): the server may be waiting for its other "
                "seats, or not speak the competition protocol"
            ) from None
        try:
            message = parse_message(raw)
        except ValueError:
            message = {}
        if message.get("type") not in PROTOCOL_TYPES:
            if spoken:
                log.warning("a message that is not the competition protocol's: %.200s", raw)
                continue
            strange.append(str(raw)[:200])
            if len(strange) == STRANGE_MESSAGES:
                await connection.close()
                raise ConnectError(
                    f"{url} does not speak the competition protocol; its first messages: "
                    + " | ".join(strange)
                )
            continue
        spoken = True
        await _take(message, player, report, connection)


async def _take(
    message: Message, player: Player, report: ConnectReport, connection: ClientConnection
) -> None:
    kind, stage = message.get("type"), message.get("stage")
    if kind == "error":
        report.errors.append(message)
        log.warning("the server says: %s: %s", message.get("code"), message.get("message"))
        return
    player.view.update(message)
    report.seat = player.view.seat
    if kind == "act":
        index = await asyncio.to_thread(player.choose, message, report)
        report.decisions += 1
        await connection.send(json.dumps({"actIndex": index}))
    elif stage == "episodeOver":
        report.deals += 1
    elif stage == "gameOver":
        report.matches += 1
    elif stage == "gameResult":
        report.result = message


def run_connect(
    url: str,
    bot: str = "heuristic",
    *,
    seed: int | None = None,
    fallback: str = "heuristic",
    rules: RuleSet = COMPETITION,
    wait: float = 10.0,
    idle: float = DEFAULT_IDLE,
) -> ConnectReport:
    """Run ``cardroom connect`` to the end (blocking); :class:`ConnectError` if it cannot connect, the
    server stays silent for ``idle`` seconds or speaks another protocol."""
    fallback_seed = None if seed is None else seed + 1
    bots = make_bot(bot, seed), make_bot(fallback, fallback_seed)
    return asyncio.run(play(url, bots[0], fallback=bots[1], rules=rules, wait=wait, idle=idle))


__all__ = ["ConnectError", "ConnectReport", "DecisionTally", "Player", "play", "run_connect"]
