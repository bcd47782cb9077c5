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
from collections.abc import Awaitable, Callable, Mapping, Sequence
from contextlib import suppress
from dataclasses import dataclass, field
from typing import Any, Protocol, TypeVar

from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed, InvalidHandshake, InvalidStatus, InvalidURI

from cardroom.bots import Bot, make_bot
from cardroom.competition.messages import Message, action_identity, parse_message
from cardroom.competition.progress import table_line
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
TOKEN_REFUSED_CLOSE = 4401
"""The card room's close code of a bot connection whose API token was refused, rotated or revoked
(docs/ladder.md, "Over the competition protocol")."""
IDLE_CLOSE = 4408
"""The card room's close code of a connection idle too long (its own sockets, such as
``/ws/ladder``, which expect pings)."""
FINAL_CLOSES = frozenset({1000, 1008, TOKEN_REFUSED_CLOSE})
LADDER_WAIT = (
    "waiting for the ladder to seat this bot: it needs 2 connections per deal pair of a match, 4 by default"
)
"""Said once the first connection of a bot with a token is open (docs/ladder.md, "Its matches")."""
"""Close codes after which the client does not reconnect: the games are over, the seat was refused, or
the bot's token was."""

R = TypeVar("R")


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
    episodes: int = 0
    """Tables (deals) ended: each ``episodeOver``, and a ``gameOver`` that ends a deal without one (a
    forfeit)."""
    dealing: bool = False
    """A ``beginning`` came and its deal has not ended yet."""
    number: int = 0
    """Which of the run's connections this is (0, 1, …)."""

    @property
    def spoken(self) -> bool:
        """A message of the competition protocol came on some connection."""
        return self.decisions > 0 or self.seat is not None or self.episodes > 0

    @property
    def token_refused(self) -> bool:
        """The card room refused or revoked the bot's token (close code 4401)."""
        return self.close_code == TOKEN_REFUSED_CLOSE


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


async def open_connection(url: str, wait: float, token: str | None = None) -> ClientConnection:
    """Connect, retrying for ``wait`` seconds while nothing listens there; a card room bot's API
    ``token`` goes in the ``Authorization: Bearer`` header (never in the URL)."""
    deadline = time.monotonic() + wait
    headers = None if token is None else {"Authorization": f"Bearer {token}"}
    while True:
        try:
            return await connect(url, max_size=MAX_MESSAGE, open_timeout=10, additional_headers=headers)
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
    idle: float | None = DEFAULT_IDLE,
    token: str | None = None,
    episodes: int | None = None,
    number: int = 0,
) -> ConnectReport:
    """Play the seat at ``url`` until the server closes the connection, or until ``episodes`` deals
    have ended (then the client closes it). A connection that drops before the games end is made again
    (for up to ``wait`` seconds; the server lets a seat's client return, and its fallback plays the seat
    meanwhile); one whose ``token`` the card room refused or revoked is not (close code 4401).
    :class:`ConnectError` when the server sends nothing for ``idle`` seconds (``None``: no limit) or
    speaks another protocol."""
    report = ConnectReport(number=number)
    player = Player(bot, fallback, SeatView(rules))
    connection = await open_connection(url, wait, token)
    log.info("connected to %s with the %s bot", url, bot.name)
    if token is not None and number == 0:
        log.info(LADDER_WAIT)
    while True:
        with suppress(ConnectionClosed):
            await _serve(url, connection, player, report, idle, episodes, ladder=token is not None)
        report.close_code = connection.close_code
        report.close_reason = connection.close_reason or ""
        if report.token_refused:
            log.error("the card room refused or revoked the bot's token: %s", report.close_reason)
            return report
        if report.close_code == IDLE_CLOSE and not report.spoken:
            raise ConnectError(
                f"{url} closed the connection as idle (close {IDLE_CLOSE}) before any message of the "
                f"competition protocol: {report.close_reason or 'no reason given'}; a card room's ladder "
                "over this protocol is ws://HOST/ws/ladder/competition"
            )
        if report.close_code in FINAL_CLOSES or report.result is not None or _enough(report, episodes):
            return report
        log.warning(
            "the connection to %s dropped (close code %s); connecting again for up to %g s",
            url,
            report.close_code,
            wait,
        )
        try:
            connection = await open_connection(url, wait, token)
        except ConnectError as error:
            log.warning("could not connect again: %s", error)
            return report
        report.reconnections += 1


def _enough(report: ConnectReport, episodes: int | None) -> bool:
    return episodes is not None and report.episodes >= episodes


async def _serve(
    url: str,
    connection: ClientConnection,
    player: Player,
    report: ConnectReport,
    idle: float | None,
    episodes: int | None = None,
    *,
    ladder: bool = False,
) -> None:
    """Take the server's messages until it closes the connection (or ``episodes`` deals have ended:
    then close it). On a ``ladder`` (with a token) a first message of another protocol ends it at once."""
    strange: list[str] = []
    spoken = report.spoken
    while not _enough(report, episodes):
        try:
            raw = await asyncio.wait_for(connection.recv(), idle)
        except TimeoutError:
            await connection.close()
            raise ConnectError(
                f"{url} sent nothing for {idle or 0:g} s (--idle): the server may be waiting for its other "
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
            if ladder:
                await connection.close()
                raise ConnectError(
                    f"{url} speaks another protocol (its first message: {strange[0]}): for the card "
                    "room's ladder over the competition protocol use ws://HOST/ws/ladder/competition"
                )
            if len(strange) == STRANGE_MESSAGES:
                await connection.close()
                raise ConnectError(
                    f"{url} does not speak the competition protocol; its first messages: "
                    + " | ".join(strange)
                )
            continue
        spoken = True
        await _take(message, player, report, connection)
    await connection.close()


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
    if stage == "beginning":
        report.dealing = True
    elif stage == "episodeOver" or (stage == "gameOver" and report.dealing):
        report.dealing = False
        report.episodes += 1
        log.info("%s", table_line(report, message))
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
    idle: float | None = DEFAULT_IDLE,
    token: str | None = None,
    episodes: int | None = None,
) -> ConnectReport:
    """Run ``cardroom connect`` to the end (blocking); :class:`ConnectError` if it cannot connect, the
    server stays silent for ``idle`` seconds or speaks another protocol."""
    (report,) = run_connections(
        url,
        bot,
        seed=seed,
        fallback=fallback,
        rules=rules,
        wait=wait,
        idle=idle,
        token=token,
        episodes=episodes,
    )
    return report


def run_connections(
    url: str,
    bot: str = "heuristic",
    *,
    seed: int | None = None,
    fallback: str = "heuristic",
    rules: RuleSet = COMPETITION,
    wait: float = 10.0,
    idle: float | None = DEFAULT_IDLE,
    token: str | None = None,
    connections: int = 1,
    episodes: int | None = None,
) -> list[ConnectReport]:
    """:func:`run_connect` with ``connections`` connections at once (a card room's ladder seats a bot at
    several tables of a match, one per connection), each with its own bots (seeded ``seed``, ``seed +
    2``, …) and its own report."""

    async def each(number: int) -> ConnectReport:
        chosen, fallback_bot = connection_bots(bot, fallback, seed, number)
        return await play(
            url,
            chosen,
            fallback=fallback_bot,
            rules=rules,
            wait=wait,
            idle=idle,
            token=token,
            episodes=episodes,
            number=number,
        )

    return run_all(each, connections)


def connection_bots(bot: str, fallback: str, seed: int | None, number: int) -> tuple[Bot, Bot]:
    """Connection ``number``'s bot and fallback, seeded ``seed + 2 * number`` and the next (unseeded
    without ``seed``)."""
    own = None if seed is None else seed + 2 * number
    return make_bot(bot, own), make_bot(fallback, None if own is None else own + 1)


def run_all(each: Callable[[int], Awaitable[R]], connections: int) -> list[R]:
    """``each`` connection number's run, all at once (blocking): their results in order."""

    async def all_of() -> list[R]:
        return list(await asyncio.gather(*(each(number) for number in range(connections))))

    return asyncio.run(all_of())


__all__ = [
    "TOKEN_REFUSED_CLOSE",
    "ConnectError",
    "ConnectReport",
    "DecisionTally",
    "Player",
    "connection_bots",
    "play",
    "run_all",
    "run_connect",
    "run_connections",
]
