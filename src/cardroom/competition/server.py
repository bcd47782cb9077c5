"""``cardroom compete``: a server that speaks the Guandan AI competition's protocol
(docs/competition-protocol.md). Each seat is one of our bots or an external client connected at
``ws://HOST:PORT/game/client{i}``; the matches are played with the rules core and written as records.

The server owns the only randomness (``seed``) and the only clock (the per-decision ``timeout``). An
answer that cannot be used — bad JSON, not an integer, out of range, too late — is answered with an
``error`` message and the seat's fallback bot plays that decision; the match goes on.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import random
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from http import HTTPStatus
from pathlib import Path
from typing import Any

from websockets.asyncio.server import ServerConnection, serve
from websockets.exceptions import ConnectionClosed
from websockets.http11 import Request, Response

from cardroom.bots import Bot, make_bot
from cardroom.competition.messages import (
    AnswerError,
    Message,
    act,
    action_identity,
    after_action,
    anti_tribute_seats,
    beginning,
    episode_over,
    error_message,
    game_over,
    game_result,
    notify_anti_tribute,
    parse_answer,
)
from cardroom.competition.order import order_actions
from cardroom.guandan.deal import Action, Phase
from cardroom.guandan.match import Match
from cardroom.guandan.observation import Observation
from cardroom.guandan.ruleset import COMPETITION, RuleSet
from cardroom.records import record_of, write_record

log = logging.getLogger("cardroom.competition")

PATH_PREFIX = "/game/"
SEAT_NAME = re.compile(r"client([0-3])")
MAX_ERRORS_KEPT = 200
"""Errors kept in a record's ``meta`` (the log has them all)."""


@dataclass(frozen=True)
class CompeteConfig:
    """How to run ``cardroom compete``: where to listen, which seats are our bots (the rest wait for
    external clients), how many matches of how many deals, the seed, the rules, the per-decision
    timeout, the fallback bot, and the folder for the records (``None``: write none)."""

    host: str = "127.0.0.1"
    port: int = 23456
    bots: Mapping[int, str] = field(default_factory=dict)
    matches: int = 1
    max_deals: int | None = None
    seed: int | None = None
    rules: RuleSet = COMPETITION
    timeout: float = 20.0
    fallback: str = "heuristic"
    out: Path | None = None
    send_errors: bool = True

    def __post_init__(self) -> None:
        if any(seat not in range(4) for seat in self.bots):
            raise ValueError(f"bot seats are 0–3, got {sorted(self.bots)}")
        if self.matches < 1:
            raise ValueError(f"matches must be at least 1, got {self.matches}")
        if self.max_deals is not None and self.max_deals < 1:
            raise ValueError(f"max_deals must be at least 1, got {self.max_deals}")
        if self.timeout <= 0:
            raise ValueError(f"the timeout must be positive, got {self.timeout}")

    @property
    def external_seats(self) -> list[int]:
        return [seat for seat in range(4) if seat not in self.bots]


@dataclass
class SeatReport:
    """One seat over all matches: who played it and how often its fallback bot stepped in."""

    seat: int
    name: str
    external: bool
    substitutions: int = 0
    errors: dict[str, int] = field(default_factory=dict)


@dataclass
class CompeteReport:
    """What ``compete`` did: the records written, each match's result (``result_of``), the seats, and
    the matches won and drawn per seat (the ``gameResult`` message)."""

    records: list[Path] = field(default_factory=list)
    results: list[dict[str, Any]] = field(default_factory=list)
    seats: list[SeatReport] = field(default_factory=list)
    victories: list[int] = field(default_factory=lambda: [0, 0, 0, 0])
    draws: list[int] = field(default_factory=lambda: [0, 0, 0, 0])


class _RefusedError(Exception):
    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


class _DisconnectedError(Exception):
    """The seat's client went away while an answer was awaited."""


@dataclass
class _Seat:
    index: int
    bot: str | None
    report: SeatReport
    connection: ServerConnection | None = None
    pending: asyncio.Future[str | bytes] | None = None
    absence_noted: bool = False


class CompetitionServer:
    """Runs :class:`CompeteConfig`'s matches over websockets; :meth:`run` returns the report.

    ``port`` is the port listened on once ``listening`` is set (useful with port 0).
    """

    def __init__(self, config: CompeteConfig) -> None:
        self.config = config
        self.rng = random.Random(config.seed)
        self.report = CompeteReport()
        self.seats = [
            _Seat(
                seat,
                config.bots.get(seat),
                SeatReport(seat, _bot_name(config.bots.get(seat)), seat not in config.bots),
            )
            for seat in range(4)
        ]
        self.report.seats = [seat.report for seat in self.seats]
        self.listening = asyncio.Event()
        self.port = config.port
        self._all_connected = asyncio.Event()
        self._errors: list[dict[str, Any]] = []
        self._closing = False
        if not config.external_seats:
            self._all_connected.set()

    # -- running ---------------------------------------------------------------------------------

    async def run(self) -> CompeteReport:
        """Listen, wait for the external clients, play every match, say the result, close."""
        config = self.config
        async with serve(
            self._handle, config.host, config.port, process_request=self._check_path, max_size=2**16
        ) as server:
            sockets = list(server.sockets)
            if sockets:
                self.port = sockets[0].getsockname()[1]
            self.listening.set()
            if not self._all_connected.is_set():
                paths = ", ".join(
                    f"ws://{config.host}:{self.port}{PATH_PREFIX}client{seat}"
                    for seat in config.external_seats
                )
                log.info("waiting for the external seats: %s", paths)
            await self._all_connected.wait()
            for number in range(1, config.matches + 1):
                match = await self._play_match(number)
                self._tally(match)
                await self._broadcast(game_over(number, config.matches))
            await self._broadcast(game_result(self.report.victories, self.report.draws))
            self._closing = True
            for seat in self.seats:
                if seat.connection is not None:
                    await seat.connection.close(1000, "the games are over")
        return self.report

    def _tally(self, match: Match) -> None:
        if match.winner is None:
            self.report.draws = [count + 1 for count in self.report.draws]
            return
        for seat in (match.winner, match.winner + 2):
            self.report.victories[seat] += 1

    async def _play_match(self, number: int) -> Match:
        config, rules = self.config, self.config.rules
        match = Match(rules, max_deals=config.max_deals)
        bots = {
            seat.index: make_bot(seat.bot, self._bot_seed(number, seat.index))
            for seat in self.seats
            if seat.bot
        }
        fallbacks = {
            seat.index: make_bot(config.fallback, self._bot_seed(number, seat.index + 4))
            for seat in self.seats
            if seat.bot is None
        }
        log.info("match %d of %d begins", number, config.matches)
        try:
            while not match.is_over:
                deal = match.deal_random(self.rng)
                await self._send_each(
                    [
                        [beginning(seat, deal.dealt_hands[seat], deal.level, match.levels, rules)]
                        for seat in range(4)
                    ]
                )
                excused = anti_tribute_seats(deal)
                if excused:
                    await self._broadcast(notify_anti_tribute(excused))
                while deal.phase is not Phase.OVER:
                    seat = deal.current_player
                    assert seat is not None
                    observation = match.observation(seat)
                    ordered = order_actions(observation)
                    if seat in bots:
                        action = await self._bot_action(bots[seat], observation, ordered)
                    else:
                        action = await self._ask(seat, observation, ordered, fallbacks[seat], number)
                    before = deal.last_play
                    match.apply(action)
                    await self._send_each(after_action(deal, action, before))
                assert deal.result is not None
                places = deal.result.places
                await self._send_each(
                    [
                        [
                            episode_over(
                                places,
                                deal.level,
                                [(seat, deal.hand(seat))] if deal.card_count(seat) else [],
                                rules,
                            )
                        ]
                        for seat in range(4)
                    ]
                )
                log.info("match %d, deal %d: places %s", number, len(match.deals), list(places))
        finally:
            self._write_record(match, number)
        return match

    def _bot_seed(self, number: int, salt: int) -> int | None:
        seed = self.config.seed
        return None if seed is None else seed * 1000 + number * 10 + salt

    # -- decisions -------------------------------------------------------------------------------

    async def _bot_action(self, bot: Bot, observation: Observation, ordered: Sequence[Action]) -> Action:
        action = await asyncio.to_thread(bot.act, observation)
        return _listed(action, ordered)

    async def _ask(
        self, seat: int, observation: Observation, ordered: Sequence[Action], fallback: Bot, number: int
    ) -> Action:
        """The external client's action, or the fallback bot's when the answer cannot be used."""
        entry = self.seats[seat]
        message = act(observation, ordered)
        stage = message["stage"]
        received: str | None = None
        if entry.connection is not None:
            future: asyncio.Future[str | bytes] = asyncio.get_running_loop().create_future()
            entry.pending = future
            try:
                await entry.connection.send(json.dumps(message))
                raw = await asyncio.wait_for(future, self.config.timeout)
                received = raw if isinstance(raw, str) else raw.decode("utf-8", "replace")
                return ordered[parse_answer(raw, len(ordered) - 1)]
            except AnswerError as error:
                code, text = error.code, error.message
            except TimeoutError:
                code, text = "timeout", f"no answer within {self.config.timeout:g} s"
            except (ConnectionClosed, _DisconnectedError):
                code, text = "disconnected", "the client is not connected"
            finally:
                entry.pending = None
        else:
            code, text = "disconnected", "the client is not connected"
        action = _listed(await asyncio.to_thread(fallback.act, observation), ordered)
        index = _index_of(action, ordered)
        text = f"{text}; {self.config.fallback} played index {index} for you"
        self._note_error(seat, number, observation.deal_number, code, text)
        if code != "disconnected" and self.config.send_errors:
            await self._send(
                seat, error_message(code, text, stage=stage, received=received, substitute=index)
            )
        return action

    def _note_error(self, seat: int, match: int, deal: int, code: str, text: str) -> None:
        entry = self.seats[seat]
        report = entry.report
        report.substitutions += 1
        report.errors[code] = report.errors.get(code, 0) + 1
        if code == "disconnected":
            if entry.absence_noted:
                return
            entry.absence_noted = True
            text = (
                f"the client is gone; the {self.config.fallback} bot plays the seat until one connects again"
            )
        log.warning("seat %d (%s), match %d, deal %d: %s: %s", seat, report.name, match, deal, code, text)
        if len(self._errors) < MAX_ERRORS_KEPT:
            self._errors.append({"seat": seat, "match": match, "deal": deal, "code": code, "message": text})

    # -- connections -----------------------------------------------------------------------------

    def _check_path(self, connection: ServerConnection, request: Request) -> Response | None:
        if not request.path.startswith(PATH_PREFIX):
            return connection.respond(
                HTTPStatus.NOT_FOUND, f"connect at {PATH_PREFIX}client0 … {PATH_PREFIX}client3\n"
            )
        return None

    async def _handle(self, connection: ServerConnection) -> None:
        name = connection.request.path[len(PATH_PREFIX) :].rstrip("/") if connection.request else ""
        try:
            seat = self._claim(name)
        except _RefusedError as refusal:
            log.warning("refused a client at %s%s: %s", PATH_PREFIX, name, refusal.message)
            await connection.send(json.dumps(error_message(refusal.code, refusal.message)))
            await connection.close(1008, refusal.code)
            return
        entry = self.seats[seat]
        entry.connection = connection
        entry.absence_noted = False
        if entry.report.name == "":
            entry.report.name = name.rsplit("/", 1)[-1] or f"client{seat}"
        log.info("seat %d: %s connected from %s", seat, entry.report.name, connection.remote_address)
        if all(self.seats[s].connection is not None for s in self.config.external_seats):
            self._all_connected.set()
        try:
            async for raw in connection:
                await self._received(entry, raw)
        except ConnectionClosed:
            pass
        finally:
            if entry.connection is connection:
                entry.connection = None
                if entry.pending is not None and not entry.pending.done():
                    entry.pending.set_exception(_DisconnectedError())
                if not self._closing:
                    log.warning("seat %d: %s disconnected", seat, entry.report.name)

    def _claim(self, name: str) -> int:
        external = self.config.external_seats
        wanted = SEAT_NAME.fullmatch(name.rsplit("/", 1)[-1])
        if wanted is not None:
            seat = int(wanted.group(1))
            if seat not in external:
                bot = self.config.bots[seat]
                raise _RefusedError(
                    "bot-seat", f"seat {seat} is played by our {bot} bot; external seats: {_seats(external)}"
                )
            if self.seats[seat].connection is not None:
                raise _RefusedError("seat-taken", f"seat {seat} already has a client")
            return seat
        free = [seat for seat in external if self.seats[seat].connection is None]
        if not free:
            raise _RefusedError("no-free-seat", f"every external seat ({_seats(external)}) has a client")
        return free[0]

    async def _received(self, entry: _Seat, raw: str | bytes) -> None:
        if entry.pending is not None and not entry.pending.done():
            entry.pending.set_result(raw)
            return
        text = raw if isinstance(raw, str) else raw.decode("utf-8", "replace")
        log.warning("seat %d: an answer when none was asked for: %s", entry.index, text[:80])
        if self.config.send_errors:
            await self._send(
                entry.index,
                error_message(
                    "unexpected", "no action is asked for now (a late answer?); ignored", received=text
                ),
            )

    # -- sending ---------------------------------------------------------------------------------

    async def _send(self, seat: int, message: Message) -> None:
        connection = self.seats[seat].connection
        if connection is None:
            return
        with contextlib.suppress(ConnectionClosed):
            await connection.send(json.dumps(message))

    async def _send_each(self, messages: Sequence[Sequence[Message]]) -> None:
        """Send each seat its own messages, in order."""
        for seat, own in enumerate(messages):
            for message in own:
                await self._send(seat, message)

    async def _broadcast(self, message: Message) -> None:
        await self._send_each([[message]] * 4)

    # -- records ---------------------------------------------------------------------------------

    def _write_record(self, match: Match, number: int) -> None:
        out = self.config.out
        if out is None or not match.deals:
            return
        out.mkdir(parents=True, exist_ok=True)
        path = out / f"match-{number:03d}.json"
        names = [self._seat_label(seat) for seat in self.seats]
        meta = {
            "competition": {
                "match": number,
                "matches": self.config.matches,
                "timeout": self.config.timeout,
                "fallback": self.config.fallback,
                "seats": [
                    {
                        "seat": seat.index,
                        "kind": "external" if seat.report.external else "bot",
                        "name": seat.report.name,
                        "substitutions": seat.report.substitutions,
                    }
                    for seat in self.seats
                ],
                "errors": [error for error in self._errors if error["match"] == number],
            }
        }
        record = record_of(match, names, seed=self.config.seed, meta=meta)
        write_record(path, record)
        self.report.records.append(path)
        self.report.results.append(record["result"])
        log.info("match %d: record written to %s", number, path)

    @staticmethod
    def _seat_label(seat: _Seat) -> str:
        if seat.report.external:
            return f"{seat.report.name or f'client{seat.index}'} (external)"
        return f"{seat.report.name} (bot)"


def _bot_name(name: str | None) -> str:
    return name or ""


def _seats(seats: Sequence[int]) -> str:
    return ", ".join(str(seat) for seat in seats) or "none"


def _index_of(action: Action, ordered: Sequence[Action]) -> int:
    identity = action_identity(action)
    return next(index for index, entry in enumerate(ordered) if action_identity(entry) == identity)


def _listed(action: Action, ordered: Sequence[Action]) -> Action:
    """The ``actionList`` entry that is ``action`` (a bot answering off the list gets the first)."""
    identity = action_identity(action)
    for entry in ordered:
        if action_identity(entry) == identity:
            return entry
    log.error("a bot chose %r, which is not a legal action; the first is played", action)
    return ordered[0]


def run_compete(config: CompeteConfig) -> CompeteReport:
    """Run ``cardroom compete`` to the end (blocking)."""
    return asyncio.run(CompetitionServer(config).run())


__all__ = ["CompeteConfig", "CompeteReport", "CompetitionServer", "SeatReport", "run_compete"]
