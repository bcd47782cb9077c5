"""Limits on what clients send: a token bucket (:class:`Bucket`), buckets kept per key in a bounded
memory (:class:`RateLimiter`), open connections counted per key (:class:`Occupancy`), and
:class:`ClientLimits`, the card room's limits on websocket messages (per connection and per client
address), on the websockets one address holds open, and on creating tables, events and teams and
taking seats (per address).

Pure: no I/O and no clock of its own; every call takes ``now`` (seconds of a monotonic clock). The numbers are
:class:`~cardroom.server.live.settings.Settings` fields; the app (:mod:`cardroom.server.api.app`) turns a
:class:`Refusal` into a ``rate_limited`` error, a websocket close or HTTP 429 (docs/protocol.md, "Limits").
"""

from __future__ import annotations

import math
from collections import OrderedDict
from collections.abc import Hashable, Sequence
from dataclasses import dataclass
from typing import Final

MAX_KEYS: Final = 10_000
"""Keys (client addresses) one limiter tracks by default: a flood of addresses costs at most this many
buckets, the least recently seen forgotten first."""


@dataclass(frozen=True)
class Rate:
    """A token bucket's shape: ``burst`` at once, then ``per_second`` sustained."""

    burst: int
    per_second: float

    def __post_init__(self) -> None:
        if isinstance(self.burst, bool) or not isinstance(self.burst, int) or self.burst < 1:
            raise ValueError(f"burst: a whole number of at least 1, got {self.burst!r}")
        if (
            isinstance(self.per_second, bool)
            or not isinstance(self.per_second, int | float)
            or not math.isfinite(self.per_second)
            or self.per_second <= 0
        ):
            raise ValueError(f"per_second: a number above 0, got {self.per_second!r}")

    @property
    def refill(self) -> float:
        """Seconds an empty bucket takes to fill: after this long untouched, a bucket is as new."""
        return self.burst / self.per_second

    def scaled(self, factor: float) -> Rate:
        """The rate ``factor`` times as generous (burst and sustained rate alike; the burst stays ≥ 1)."""
        if not math.isfinite(factor) or factor <= 0:
            raise ValueError(f"factor: a number above 0, got {factor!r}")
        return Rate(max(1, round(self.burst * factor)), self.per_second * factor)

    def __str__(self) -> str:
        for unit, seconds in (("second", 1), ("minute", 60), ("hour", 3600)):
            if self.per_second * seconds >= 1 or unit == "hour":
                return f"at most {self.burst} at once, then {self.per_second * seconds:.3g} a {unit}"
        raise AssertionError("unreachable")


class Bucket:
    """One token bucket: full (``burst`` tokens) when made, one token a message, refilled at
    ``per_second`` up to ``burst``."""

    __slots__ = ("at", "rate", "tokens")

    def __init__(self, rate: Rate, now: float) -> None:
        self.rate = rate
        self.tokens = float(rate.burst)
        self.at = now
        """When ``tokens`` was last brought up to date."""

    def _refill(self, now: float) -> None:
        if now > self.at:
            self.tokens = min(float(self.rate.burst), self.tokens + (now - self.at) * self.rate.per_second)
            self.at = now

    def wait(self, now: float) -> float:
        """Seconds until a token is here; 0.0 when one is."""
        self._refill(now)
        return 0.0 if self.tokens >= 1 else (1 - self.tokens) / self.rate.per_second

    def take(self, now: float) -> float:
        """Take a token if one is here (0.0); else nothing is taken and the seconds to wait."""
        wait = self.wait(now)
        if wait == 0.0:
            self.tokens -= 1
        return wait


def take_all(buckets: Sequence[Bucket], now: float) -> float:
    """A token from each bucket when every one has one (0.0); else none is taken and the longest wait."""
    wait = max((bucket.wait(now) for bucket in buckets), default=0.0)
    if wait == 0.0:
        for bucket in buckets:
            bucket.take(now)
    return wait


class RateLimiter:
    """Buckets of one :class:`Rate` by key (a client address). A bucket untouched long enough to be
    full again is forgotten (it would be made anew the same); beyond ``max_keys`` the least recently
    used is forgotten too, so memory stays bounded whatever the number of keys."""

    def __init__(self, rate: Rate, max_keys: int = MAX_KEYS) -> None:
        if max_keys < 1:
            raise ValueError(f"max_keys: at least 1, got {max_keys}")
        self.rate = rate
        self.max_keys = max_keys
        self._buckets: OrderedDict[Hashable, Bucket] = OrderedDict()
        """Least recently used first."""

    def __len__(self) -> int:
        return len(self._buckets)

    def bucket(self, key: Hashable, now: float) -> Bucket:
        """The key's bucket (a full one for a key not seen, or forgotten), now the most recently used."""
        self._forget_idle(now)
        found = self._buckets.get(key)
        if found is None:
            found = self._buckets[key] = Bucket(self.rate, now)
            while len(self._buckets) > self.max_keys:
                self._buckets.popitem(last=False)
        else:
            self._buckets.move_to_end(key)
        return found

    def take(self, key: Hashable, now: float) -> float:
        """:meth:`Bucket.take` on the key's bucket."""
        return self.bucket(key, now).take(now)

    def _forget_idle(self, now: float) -> None:
        refill = self.rate.refill
        while self._buckets:
            oldest = next(iter(self._buckets.values()))
            if now - oldest.at < refill:
                return
            self._buckets.popitem(last=False)


@dataclass(frozen=True)
class Refusal:
    """A client over a limit: what it sent too much of, the limit, the seconds until it may go on, and
    whether it floods (sends past ``flood_factor`` times its limit: its connection is closed)."""

    what: str
    rate: Rate
    retry_after: float
    flood: bool = False

    @property
    def message(self) -> str:
        """Names the limit and the wait: ``too many messages on one connection: at most 40 at once,
        then 10 a second; wait 0.1 s``."""
        return f"too many {self.what}: {self.rate}; wait {math.ceil(self.retry_after * 10) / 10:g} s"

    @property
    def retry_seconds(self) -> int:
        """The wait in whole seconds (HTTP's ``Retry-After``), at least 1."""
        return max(1, math.ceil(self.retry_after))


class Occupancy:
    """How many connections each key (a client address) holds open, at most ``most`` each: a key is
    forgotten when its last one closes, so memory grows with the connections open, nothing else."""

    def __init__(self, most: int) -> None:
        if isinstance(most, bool) or not isinstance(most, int) or most < 1:
            raise ValueError(f"most: a whole number of at least 1, got {most!r}")
        self.most = most
        self._open: dict[Hashable, int] = {}

    def __len__(self) -> int:
        """The connections open, all keys together."""
        return sum(self._open.values())

    def enter(self, key: Hashable) -> bool:
        """Count one more connection of ``key`` if it holds fewer than ``most`` (``True``); else
        nothing is counted (``False``)."""
        held = self._open.get(key, 0)
        if held >= self.most:
            return False
        self._open[key] = held + 1
        return True

    def leave(self, key: Hashable) -> None:
        """One connection of ``key`` closed (one :meth:`enter` allowed before)."""
        held = self._open.get(key, 0) - 1
        if held > 0:
            self._open[key] = held
        else:
            self._open.pop(key, None)


class MessageLimit:
    """One websocket connection's buckets: its messages, a wider one (``flood_factor`` times the
    rate) that every message takes from, allowed or not (when that is empty, the client floods), and
    one for its costly messages (``legal``, ``hint``) besides."""

    def __init__(
        self, rate: Rate | None, flood_factor: float, now: float, costly: Rate | None = None
    ) -> None:
        self.messages = None if rate is None else Bucket(rate, now)
        self.flood = None if rate is None else Bucket(rate.scaled(flood_factor), now)
        self.costly = None if costly is None else Bucket(costly, now)


class ClientLimits:
    """The card room's limits (``None``: no such limit): ``messages`` on one websocket connection,
    ``address_messages`` on all of one address's websockets together, a connection closed when it
    sends past ``flood_factor`` times its limit, and its ``costly`` messages (``legal``, ``hint``) on
    their own, per connection and (``address_costly``) per address; ``sockets``, the websockets one
    address may hold open at once; ``creations`` (tables, quick tables, events), ``registrations``
    (an event's teams), ``sign_ins`` (sign-ins and new accounts) and ``seats`` (seats taken, a seat
    claimed again for a new token) per address."""

    def __init__(
        self,
        *,
        messages: Rate | None,
        address_messages: Rate | None,
        flood_factor: float,
        creations: Rate | None,
        registrations: Rate | None,
        sign_ins: Rate | None = None,
        costly: Rate | None = None,
        address_costly: Rate | None = None,
        seats: Rate | None = None,
        sockets: int | None = None,
        max_keys: int = MAX_KEYS,
    ) -> None:
        if not math.isfinite(flood_factor) or flood_factor < 1:
            raise ValueError(f"flood_factor: a number of at least 1, got {flood_factor!r}")
        self.messages = messages
        self.flood_factor = flood_factor
        self.costly_rate = costly

        def keyed(rate: Rate | None) -> RateLimiter | None:
            return None if rate is None else RateLimiter(rate, max_keys)

        self.address_messages = keyed(address_messages)
        self.creations = keyed(creations)
        self.registrations = keyed(registrations)
        self.sign_ins = keyed(sign_ins)
        self.account_sign_ins = keyed(sign_ins)
        self.address_costly = keyed(address_costly)
        self.seats = keyed(seats)
        self.sockets = None if sockets is None else Occupancy(sockets)

    def open_socket(self, address: str) -> str | None:
        """Count a websocket of ``address`` as open (``None``), else why it may not be: the address
        holds as many as it may (close it with :meth:`close_socket` once it ends)."""
        if self.sockets is None or self.sockets.enter(address):
            return None
        return f"too many connections from one address: at most {self.sockets.most} open at once"

    def close_socket(self, address: str) -> None:
        """A websocket of ``address`` counted by :meth:`open_socket` ended."""
        if self.sockets is not None:
            self.sockets.leave(address)

    def connection(self, now: float) -> MessageLimit:
        """A new connection's buckets."""
        return MessageLimit(self.messages, self.flood_factor, now, self.costly_rate)

    def message(
        self, connection: MessageLimit, address: str, now: float, *, free: bool = False
    ) -> Refusal | None:
        """Whether a message from ``connection`` at ``address`` may be handled now (``None``), else
        why not; a refused message takes no token but the flood bucket's. A ``free`` one (a ladder
        bot's about its own decision) takes only from the flood bucket."""
        if connection.flood is not None and connection.messages is not None:
            flooding = connection.flood.take(now)
            if flooding:
                rate = connection.messages.rate
                return Refusal("messages on one connection", rate, flooding, flood=True)
        if free:
            return None
        buckets = [] if connection.messages is None else [connection.messages]
        if self.address_messages is not None:
            buckets.append(self.address_messages.bucket(address, now))
        if not take_all(buckets, now):
            return None
        waits = [(bucket.wait(now), bucket) for bucket in buckets]
        wait, bucket = max(waits, key=lambda pair: pair[0])
        what = "messages on one connection" if bucket is connection.messages else "messages from one address"
        return Refusal(what, bucket.rate, wait)

    def costly(self, connection: MessageLimit, address: str, now: float) -> Refusal | None:
        """Whether ``connection`` at ``address`` may send a costly message (``legal``, ``hint``) now,
        besides the message's own token (``None``), else why not: each connection has its bucket, and
        all of one address's connections share one, so that many sockets do not multiply the cost."""
        buckets = [] if connection.costly is None else [connection.costly]
        if self.address_costly is not None:
            buckets.append(self.address_costly.bucket(address, now))
        if not take_all(buckets, now):
            return None
        wait, bucket = max(((bucket.wait(now), bucket) for bucket in buckets), key=lambda pair: pair[0])
        where = "on one connection" if bucket is connection.costly else "from one address"
        return Refusal(f"costly messages (legal, hint) {where}", bucket.rate, wait)

    def create(self, address: str, now: float) -> Refusal | None:
        """Whether ``address`` may create a table or an event now (``None``), else why not."""
        return _keyed(self.creations, "tables and events created from one address", address, now)

    def register(self, address: str, now: float) -> Refusal | None:
        """Whether ``address`` may register a team now (``None``), else why not."""
        return _keyed(self.registrations, "teams registered from one address", address, now)

    def seat(self, address: str, now: float) -> Refusal | None:
        """Whether ``address`` may take a seat, or claim one again for a new token, now (``None``),
        else why not."""
        return _keyed(self.seats, "seats taken from one address", address, now)

    def sign_in(self, address: str, now: float) -> Refusal | None:
        """Whether ``address`` may try to sign in or open an account now (``None``), else why not."""
        return _keyed(self.sign_ins, "sign-ins and new accounts from one address", address, now)

    def account_sign_in(self, key: str, now: float) -> Refusal | None:
        """Whether the account ``key`` (a case-folded name) may be tried now, from any address, at
        the same rate as one address (``None``), else why not: guessing a password from many
        addresses is as slow as from one."""
        return _keyed(self.account_sign_ins, "sign-ins to one account", key, now)


def _keyed(limiter: RateLimiter | None, what: str, key: str, now: float) -> Refusal | None:
    if limiter is None:
        return None
    wait = limiter.take(key, now)
    return Refusal(what, limiter.rate, wait) if wait else None
