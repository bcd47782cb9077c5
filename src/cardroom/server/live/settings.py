"""The card room process's settings: the defaults of new tables, the limits on what clients send, the
bots' processes, how long tables wait for players and stay in memory (``cardroom serve``'s options;
docs/server.md)."""

from __future__ import annotations

import math
from dataclasses import dataclass, field, replace
from typing import Any, Final

from cardroom.server.live.limits import MAX_KEYS, Rate
from cardroom.server.tables.config import TableDefaults, read_seconds

MAX_IDLE_TIMEOUT: Final = 24 * 3600.0
MAX_WAITING_EXPIRY: Final = 30 * 24 * 3600.0

MESSAGE_RATE: Final = Rate(40, 10.0)
"""A page sends a ``check`` on each change of the selection: a quick drag across the hand is a burst;
a person keeps up a few a second at most."""
ADDRESS_MESSAGE_RATE: Final = Rate(200, 50.0)
"""Five connections at full tilt: the many players and tabs behind one address (a club's NAT) seldom
are all at once."""
CREATE_RATE: Final = Rate(10, 10 / 60)
"""10 tables or events at once, then 10 a minute: each is stored for good."""
REGISTER_RATE: Final = Rate(64, 1.0)
"""An organiser's script may register a whole field of teams at once, then one a second."""
GC_THRESHOLDS: Final = (20_000, 50, 100)
"""The garbage collector's thresholds in ``cardroom serve`` (CPython's default is 700, 10, 10). A
server with hundreds of tables holds half a million objects (most of them its websockets' asyncio
machinery); each full collection walks them all, 0.1–0.4 s with the event loop stopped, and with the
default thresholds one came every few seconds under load. Collected 30 times less often, the young
objects die before they are promoted, full collections come minutes apart, and the tail of the
latency falls from 0.3–0.4 s to 20–60 ms (docs/performance.md, "The card room under load")."""
COSTLY_RATE: Final = Rate(5, 1.0)
"""``legal`` lists every legal action (up to ~200 KB to compute and send) and ``hint`` runs a bot: a
page asks for a hint now and then, a tool for the legal actions once a turn."""
SIGN_IN_RATE: Final = Rate(10, 1 / 6)
"""Ten tries at once, then ten a minute: a person mistyping is not held up, guessing passwords is."""
ADDRESS_COSTLY_RATE: Final = Rate(10, 2.0)
"""All of one address's ``legal`` and ``hint`` together: 40 sockets asking ``legal`` once a second each
raised every table's latency from 1 ms to 89 ms; two a second is a club's tables' worth of hints."""
SEAT_RATE: Final = Rate(20, 1 / 3)
"""Seats taken (or claimed again for a new token) from one address: a club behind one address seats
a round's players at once, then 20 a minute; each seat is a log entry stored for good."""
ADDRESS_SOCKETS: Final = 50
"""Websockets one address may hold open: a club's players with a table and an event page each."""
ADDRESS_WAITING_TABLES: Final = 10
"""Tables waiting for players that one address may have open at once: the lobby lists the 200 newest,
so one address could otherwise push everyone else's off it."""
WAITING_EXPIRY: Final = 3600.0
"""Seconds a table may wait for its players before it expires (it is deleted: no card was dealt)."""
UNLOAD_AFTER: Final = 30.0
"""Seconds a table stays in memory once nobody is connected and nothing is due (a page reloaded
comes back within them without the table being replayed)."""
IDLE_TABLES: Final = 100
"""Idle tables kept in memory at most, however recently used: past it the longest idle are unloaded
at once, so opening old tables one after another cannot fill the memory (~1 MiB each)."""


@dataclass(frozen=True)
class Settings:
    """The process's settings: the defaults of new tables (``table_defaults``), ``max_message`` (the
    largest client message, in bytes), the rate limits (a :class:`Rate`, or ``None`` for none;
    docs/server.md, "Limits"), ``idle_timeout``, the bots' processes and how long tables wait and stay
    in memory."""

    table_defaults: TableDefaults = field(default_factory=TableDefaults)
    """What a new table's configuration takes where it is silent (clocks, bot delay, deal pause and
    pace)."""
    max_message: int = 16 * 1024
    message_rate: Rate | None = MESSAGE_RATE
    """Messages one websocket may send (``None``: no limit)."""
    address_message_rate: Rate | None = ADDRESS_MESSAGE_RATE
    """Messages all websockets from one client address may send together."""
    flood_factor: float = 5.0
    """A websocket that sends past this many times ``message_rate`` is closed (code 4429)."""
    create_rate: Rate | None = CREATE_RATE
    """Tables (quick ones too) and events one address may create."""
    register_rate: Rate | None = REGISTER_RATE
    """Teams one address may register in events."""
    costly_rate: Rate | None = COSTLY_RATE
    """``legal`` and ``hint`` messages one websocket may send, besides ``message_rate``."""
    sign_in_rate: Rate | None = SIGN_IN_RATE
    """Sign-ins and new accounts one address may try (a wrong password counts)."""
    idle_timeout: float | None = 120.0
    """Seconds a websocket may send nothing before it is closed (code 4408); ``None``: never. The
    page pings every 20 s, and a background tab's timers may run only once a minute."""
    tracked_addresses: int = MAX_KEYS
    """Addresses each per-address limit remembers; past this the least recently seen is forgotten."""
    bot_workers: int | None = None
    """Processes the bots think in (``None``: one per core; 0: threads of the server's process)."""
    address_costly_rate: Rate | None = ADDRESS_COSTLY_RATE
    """``legal`` and ``hint`` messages all websockets of one address may send together."""
    seat_rate: Rate | None = SEAT_RATE
    """Seats one address may take, or claim again for a new token (``POST …/seats/{seat}``)."""
    address_sockets: int | None = ADDRESS_SOCKETS
    """Websockets one address may hold open at once (``None``: no limit)."""
    address_waiting_tables: int | None = ADDRESS_WAITING_TABLES
    """Tables waiting for players one address may have created and open at once (``None``: no limit)."""
    waiting_expiry: float | None = WAITING_EXPIRY
    """Seconds a table may wait for its players before it expires; ``None``: never."""
    unload_after: float = UNLOAD_AFTER
    """Seconds an idle table (nobody connected, nothing due) stays in memory before it is unloaded."""
    idle_tables: int = IDLE_TABLES
    """Idle tables kept in memory at most; past it the longest idle are unloaded at once."""

    def __post_init__(self) -> None:
        if not isinstance(self.table_defaults, TableDefaults):
            raise ValueError(f"table_defaults: a TableDefaults, got {self.table_defaults!r}")
        if self.max_message < 256:
            raise ValueError(f"max_message: at least 256 bytes, got {self.max_message}")
        for name in (
            "message_rate",
            "address_message_rate",
            "create_rate",
            "register_rate",
            "sign_in_rate",
            "costly_rate",
            "address_costly_rate",
            "seat_rate",
        ):
            rate = getattr(self, name)
            if rate is not None and not isinstance(rate, Rate):
                raise ValueError(f"{name}: a Rate(burst, per_second) or None, got {rate!r}")
        factor = self.flood_factor
        if isinstance(factor, bool) or not isinstance(factor, int | float) or not 1 <= factor <= 1000:
            raise ValueError(f"flood_factor: a number from 1 to 1000, got {factor!r}")
        if self.idle_timeout is not None:
            read_seconds("idle_timeout", self.idle_timeout, high=MAX_IDLE_TIMEOUT, open_low=True)
        if (
            isinstance(self.tracked_addresses, bool)
            or not isinstance(self.tracked_addresses, int)
            or self.tracked_addresses < 1
        ):
            raise ValueError(f"tracked_addresses: at least 1, got {self.tracked_addresses!r}")
        workers = self.bot_workers
        if workers is not None and (
            isinstance(workers, bool) or not isinstance(workers, int) or not 0 <= workers <= 64
        ):
            raise ValueError(f"bot_workers: 0 to 64, or None for one per core, got {workers!r}")
        for name in ("address_sockets", "address_waiting_tables"):
            most = getattr(self, name)
            if most is not None and (isinstance(most, bool) or not isinstance(most, int) or most < 1):
                raise ValueError(f"{name}: a whole number of at least 1, or None for no limit, got {most!r}")
        if self.waiting_expiry is not None:
            read_seconds("waiting_expiry", self.waiting_expiry, high=MAX_WAITING_EXPIRY, open_low=True)
        read_seconds("unload_after", self.unload_after, high=MAX_IDLE_TIMEOUT)
        idle = self.idle_tables
        if isinstance(idle, bool) or not isinstance(idle, int) or idle < 0:
            raise ValueError(f"idle_tables: a whole number of 0 or more, got {self.idle_tables!r}")

    def with_(self, **changes: Any) -> Settings:
        """A copy with some settings changed."""
        return replace(self, **changes)

    def with_rate_limits(self, factor: float) -> Settings:
        """A copy with every rate limit ``factor`` times as generous; ``0`` turns them all off."""
        if not math.isfinite(factor) or factor < 0:
            raise ValueError(f"rate limits: a factor of 0 (off) or more, got {factor!r}")

        def scaled(rate: Rate | None) -> Rate | None:
            return None if rate is None or factor == 0 else rate.scaled(factor)

        return replace(
            self,
            message_rate=scaled(self.message_rate),
            address_message_rate=scaled(self.address_message_rate),
            create_rate=scaled(self.create_rate),
            register_rate=scaled(self.register_rate),
            sign_in_rate=scaled(self.sign_in_rate),
            costly_rate=scaled(self.costly_rate),
            address_costly_rate=scaled(self.address_costly_rate),
            seat_rate=scaled(self.seat_rate),
        )
