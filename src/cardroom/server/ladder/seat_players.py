"""Bots on the ladder over another protocol than the card room's (docs/ladder.md, "Over the competition
protocol", "Over OpenGuanDan's protocol"): each of their connections plays one seat at a time, and a
bot's connections count together whichever protocol each speaks.

A bot connected that way opens several connections, each a :class:`SeatPlayer`. It is ready on the
ladder while it has :attr:`SeatPlayers.needed` of them idle (one for each of its seats in a match: two
per deal pair); when the ladder seats it, each seat goes to one idle connection, which plays it and is
idle again when the table's match ends.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field
from typing import Any, Protocol

from cardroom.server.ladder.service import LadderService, Send

log = logging.getLogger(__name__)


class SeatPlayer(Protocol):
    """One connection of a bot that plays ladder seats."""

    def take_seat(self, notice: dict[str, Any]) -> None:
        """Play the seat of this ``seat`` notice (``table``, ``seat``, ``token``: docs/ladder.md)."""


@dataclass(frozen=True)
class BotIdentity:
    """Who the connections play for: the bot's key, owner, token generation and name."""

    key: str
    owner: str
    generation: int
    name: str


@dataclass(eq=False)
class _Pool:
    """One bot's connections, idle and busy, and what the ladder tells it through (:attr:`send`)."""

    bot: BotIdentity
    send: Send
    idle: list[SeatPlayer] = field(default_factory=list)
    busy: list[SeatPlayer] = field(default_factory=list)
    ready: bool = False


class SeatPlayers:
    """The connections of the bots that play the ladder one seat per connection, by bot."""

    def __init__(self, service: LadderService) -> None:
        self.service = service
        self._pools: dict[str, _Pool] = {}

    @property
    def needed(self) -> int:
        """Idle connections a bot needs to be ready: one per seat of a match."""
        return 2 * self.service.settings.deal_pairs

    def add(self, bot: BotIdentity, player: SeatPlayer) -> None:
        """A connection signed in and waits for a seat."""
        pool = self._pools.get(bot.key)
        if pool is None or pool.bot != bot:  # a new generation's connections start afresh
            if pool is not None:
                self._unready(pool)
            pool = self._pools[bot.key] = self._pool(bot)
        pool.idle.append(player)
        self._check(pool)

    def _pool(self, bot: BotIdentity) -> _Pool:
        pool = _Pool(bot, lambda frame: self._told(pool, frame))
        return pool

    def _told(self, pool: _Pool, frame: dict[str, Any]) -> None:
        """What the ladder tells the bot: each ``seat`` goes to an idle connection (ready no more when
        too few are left); the rest (``result``) is for the bots on ``/ws/ladder``."""
        if frame.get("type") != "seat":
            return
        if not pool.idle:
            log.warning("ladder: %s was seated with no idle connection; the seat is unplayed", pool.bot.key)
            return
        player = pool.idle.pop(0)
        pool.busy.append(player)
        if len(pool.idle) < self.needed:
            self._unready(pool)
        player.take_seat(frame)

    def done(self, bot: BotIdentity, player: SeatPlayer) -> None:
        """A connection's table ended: it waits for its next seat."""
        pool = self._pools.get(bot.key)
        if pool is None or player not in pool.busy:
            return
        pool.busy.remove(player)
        pool.idle.append(player)
        self._check(pool)

    def remove(self, bot: BotIdentity, player: SeatPlayer) -> None:
        """A connection closed."""
        pool = self._pools.get(bot.key)
        if pool is None:
            return
        for players in (pool.idle, pool.busy):
            if player in players:
                players.remove(player)
        if not pool.idle and not pool.busy:
            self._unready(pool)
            del self._pools[bot.key]
            return
        self._check(pool)

    def idle(self, bot: str) -> int:
        """How many of the bot's connections wait for a seat."""
        pool = self._pools.get(bot)
        return 0 if pool is None else len(pool.idle)

    def _check(self, pool: _Pool) -> None:
        """Ready with enough idle connections (the ladder looks for a match at once), not ready below."""
        if len(pool.idle) < self.needed:
            self._unready(pool)
            return
        if pool.ready:
            return
        bot = pool.bot
        self.service.mark_ready(bot.key, bot.owner, bot.generation, bot.name, pool.send)
        pool.ready = True
        self.service.schedule()

    def _unready(self, pool: _Pool) -> None:
        if pool.ready:
            pool.ready = False
            self.service.unready(pool.bot.key, pool.send)


__all__ = ["BotIdentity", "SeatPlayer", "SeatPlayers"]
