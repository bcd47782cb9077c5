"""A table's settings (the game, its rule-set preset, match length, who sits where, clocks) and the
server's defaults.

:class:`TableConfig` is stored with each table (``to_dict``) and read back (``from_dict``); the lobby's
``POST /api/tables`` body goes through ``from_dict`` too, so every bad field is a ``ValueError`` that
names it.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Any, Final, Literal

from cardroom.bots import BOTS
from cardroom.games import GAMES
from cardroom.guandan.ruleset import RuleSet
from cardroom.server.limits import MAX_KEYS, Rate
from cardroom.shengji.ruleset import ShengjiRules
from cardroom.tournament.conduct import Clocks as ConductClocks
from cardroom.tournament.conduct import ConductPolicy, Penalty
from cardroom.tournament.formats import MatchFormat

SeatKind = Literal["human", "bot"]

MAX_NAME: Final = 40
"""The longest player or table name, in characters."""
MAX_CLOCK: Final = 3600.0
"""The longest clock a table may set, in seconds."""
MAX_BOT_DELAY: Final = 10.0
MAX_DEAL_PAUSE: Final = 120.0
MAX_DEALS: Final = 1000
MAX_DEAL_PACE: Final = 2.0
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
class Clocks:
    """Seconds a human seat has to act (docs/rules/competition.md#clocks): 进贡 tribute, 还贡 return, the
    first play of a trick (lead) and a play on someone else's (follow); Shengji's ``declare`` (each time a
    card reaches a seat that could declare, 叫主 or 反主: then the dealing goes on) and ``bury`` (the dealer's
    扣底)."""

    tribute: float = 20.0
    return_: float = 40.0
    lead: float = 40.0
    follow: float = 20.0
    declare: float = 3.0
    bury: float = 60.0

    def to_dict(self) -> dict[str, float]:
        return {
            "tribute": self.tribute,
            "return": self.return_,
            "lead": self.lead,
            "follow": self.follow,
            "declare": self.declare,
            "bury": self.bury,
        }

    @classmethod
    def from_dict(cls, values: object, defaults: Clocks | None = None) -> Clocks:
        """Read ``{"tribute": 20, "return": 40, "lead": 40, "follow": 20, "declare": 3, "bury": 60}``;
        missing keys keep ``defaults``."""
        base = defaults or cls()
        if not isinstance(values, Mapping):
            raise ValueError(f"clocks: expected an object, got {values!r}")
        current = base.to_dict()
        unknown = set(values) - set(current)
        if unknown:
            raise ValueError(f"clocks: unknown clocks {', '.join(sorted(map(str, unknown)))}")
        read = {
            key: _number(
                f"clocks.{key}", values.get(key, current[key]), low=0.0, high=MAX_CLOCK, open_low=True
            )
            for key in current
        }
        return cls(
            read["tribute"], read["return"], read["lead"], read["follow"], read["declare"], read["bury"]
        )


@dataclass(frozen=True)
class SeatConfig:
    """Who sits at a seat: a human (who takes it with a name) or a bot by name (Guandan's ``random``,
    ``heuristic``, ``search``; Shengji's ``random``, ``heuristic``: the table checks it is its game's)."""

    kind: SeatKind = "human"
    bot: str | None = None
    name: str | None = None
    """A bot seat's player name (default ``"<bot> bot"``); a human seat's comes when it is taken."""

    def __post_init__(self) -> None:
        if self.kind not in ("human", "bot"):
            raise ValueError(f"a seat is 'human' or 'bot', got {self.kind!r}")
        if self.kind == "human" and self.bot is not None:
            raise ValueError("a human seat names no bot")
        if self.kind == "bot" and not any(self.bot in game.bots for game in GAMES.values()):
            raise ValueError(f"unknown bot {self.bot!r}; known: {', '.join(sorted(BOTS))}")
        if self.name is not None:
            if self.kind == "human":
                raise ValueError("a human seat is named when it is taken")
            if not isinstance(self.name, str) or not self.name.strip() or len(self.name) > MAX_NAME:
                raise ValueError(f"name: 1 to {MAX_NAME} characters, got {self.name!r}")

    @property
    def player_name(self) -> str | None:
        """The name a bot seat plays under; ``None`` for a human seat."""
        if self.kind == "human":
            return None
        return self.name or f"{self.bot} bot"

    def to_dict(self) -> dict[str, Any]:
        values: dict[str, Any] = {"kind": self.kind, "bot": self.bot}
        if self.name is not None:
            values["name"] = self.name
        return values

    @classmethod
    def from_dict(cls, values: object, where: str = "seat") -> SeatConfig:
        if not isinstance(values, Mapping):
            raise ValueError(f'{where}: expected an object like {{"kind": "human"}}, got {values!r}')
        unknown = set(values) - {"kind", "bot", "name"}
        if unknown:
            raise ValueError(f"{where}: unknown fields {', '.join(sorted(map(str, unknown)))}")
        kind = values.get("kind", "human")
        bot = values.get("bot")
        if kind == "bot" and bot is None:
            bot = "heuristic"
        try:
            return cls(kind, bot, values.get("name"))
        except ValueError as error:
            raise ValueError(f"{where}: {error}") from None


HUMAN: Final = SeatConfig()


def bot_seat(name: str = "heuristic") -> SeatConfig:
    """A seat played by the bot of that name."""
    return SeatConfig("bot", name)


@dataclass(frozen=True)
class EventLink:
    """A tournament table's link back to its event: the event's id and name, the round, the table."""

    id: str
    name: str
    round: int
    table: int

    def to_dict(self) -> dict[str, Any]:
        return {"id": self.id, "name": self.name, "round": self.round, "table": self.table}

    @classmethod
    def from_dict(cls, values: object) -> EventLink:
        if not isinstance(values, Mapping):
            raise ValueError(f"event: expected an object, got {values!r}")
        try:
            return cls(
                str(values["id"]), str(values.get("name", "")), int(values["round"]), int(values["table"])
            )
        except (KeyError, TypeError, ValueError) as error:
            raise ValueError(f"event: {error}") from None


PENALTY_NAMES: Final = tuple(penalty.name for penalty in Penalty)
CONDUCT_CLOCKS: Final = ("tribute_s", "return_s", "first_lead_s", "play_s", "countdown_s")


def format_from_dict(values: object) -> MatchFormat:
    """A match format ``{"deals", "minutes", "tie_extra_deal"}``; a ``ValueError`` names the bad field."""
    if not isinstance(values, Mapping):
        raise ValueError(f"format: expected an object, got {values!r}")
    unknown = set(values) - {"deals", "minutes", "tie_extra_deal"}
    if unknown:
        raise ValueError(f"format: unknown fields {', '.join(sorted(map(str, unknown)))}")
    deals = values.get("deals")
    if deals is not None and (
        isinstance(deals, bool) or not isinstance(deals, int) or not 1 <= deals <= MAX_DEALS
    ):
        raise ValueError(f"format.deals: a whole number from 1 to {MAX_DEALS}, or null, got {deals!r}")
    minutes = values.get("minutes")
    if minutes is not None:
        minutes = _number("format.minutes", minutes, high=24 * 60.0, open_low=True)
    tie = values.get("tie_extra_deal", True)
    if not isinstance(tie, bool):
        raise ValueError(f"format.tie_extra_deal: true or false, got {tie!r}")
    return MatchFormat(deals, minutes, tie)


def conduct_from_dict(values: object) -> ConductPolicy:
    """A conduct policy (``ConductPolicy.to_dict``'s shape), checked field by field."""
    if not isinstance(values, Mapping):
        raise ValueError(f"conduct: expected an object, got {values!r}")
    unknown = set(values) - {"timeout", "disconnection", "escalate_after", "clocks"}
    if unknown:
        raise ValueError(f"conduct: unknown fields {', '.join(sorted(map(str, unknown)))}")
    penalties: dict[str, Penalty | None] = {}
    for key in ("timeout", "disconnection"):
        name = values.get(key, "WARNING")
        if name is not None and name not in PENALTY_NAMES:
            raise ValueError(f"conduct.{key}: one of {', '.join(PENALTY_NAMES)} or null, got {name!r}")
        penalties[key] = None if name is None else Penalty[name]
    counts = values.get("escalate_after", [2, 2, 2])
    if (
        not isinstance(counts, list | tuple)
        or len(counts) != 3
        or any(isinstance(c, bool) or not isinstance(c, int) or not 1 <= c <= 9 for c in counts)
    ):
        raise ValueError(f"conduct.escalate_after: three whole numbers 1–9, got {counts!r}")
    clocks = values.get("clocks", {})
    if not isinstance(clocks, Mapping):
        raise ValueError(f"conduct.clocks: expected an object, got {clocks!r}")
    allowed = set(vars(ConductClocks()))
    unknown = set(clocks) - allowed
    if unknown:
        raise ValueError(f"conduct.clocks: unknown clocks {', '.join(sorted(map(str, unknown)))}")
    read: dict[str, Any] = {}
    for key, value in clocks.items():
        low_open = key != "countdown_s"
        number = _number(f"conduct.clocks.{key}", value, high=MAX_CLOCK, open_low=low_open)
        read[key] = int(number) if number.is_integer() else number
    return ConductPolicy(
        penalties["timeout"],
        penalties["disconnection"],
        (counts[0], counts[1], counts[2]),
        ConductClocks(**read),
    )


@dataclass(frozen=True)
class TableConfig:
    """Everything that decides how a table plays: its name, the game (``guandan`` or ``shengji``) and
    its rule-set preset (default: the game's default), ``max_deals`` (``None``: until a team passes
    A), the four seats, the clocks, how long bots wait before acting, the pause between deals and
    Shengji's pace of dealing (seconds)."""

    name: str = "Table"
    rules: str = ""
    max_deals: int | None = None
    seats: tuple[SeatConfig, SeatConfig, SeatConfig, SeatConfig] = (HUMAN, HUMAN, HUMAN, HUMAN)
    clocks: Clocks = field(default_factory=Clocks)
    bot_delay: float = 0.6
    deal_pause: float = 4.0
    event: EventLink | None = None
    """The tournament table's event, round and table number (``None``: a casual table)."""
    format: MatchFormat | None = None
    """A tournament's match format: the server decides the end between deals (``max_deals`` is then
    ``None``)."""
    conduct: ConductPolicy | None = None
    """A tournament's conduct policy: its clocks replace ``clocks``, timeouts and disconnections are
    penalised (docs/tournaments-api.md)."""
    disconnect_grace: float = 60.0
    """With ``conduct``: seconds a human seat may stay disconnected before it is penalised."""
    game: str = "guandan"
    deal_pace: float = 0.3
    """Shengji: seconds between two cards while the cards are dealt one by one (a seat with nothing to
    declare lets the dealing go on after this)."""
    rated: bool = False
    """A rated table (every tournament table is one): its seats are taken only by signed-in accounts,
    and its match counts for their ratings."""

    def __post_init__(self) -> None:
        if not isinstance(self.name, str) or not self.name.strip() or len(self.name) > MAX_NAME:
            raise ValueError(f"name: a table name has 1 to {MAX_NAME} characters, got {self.name!r}")
        if self.game not in GAMES:
            raise ValueError(f"game: unknown game {self.game!r}; known: {', '.join(GAMES)}")
        game = GAMES[self.game]
        if self.rules == "":
            object.__setattr__(self, "rules", game.default_preset)
        if not isinstance(self.rules, str) or self.rules not in game.presets:
            known = ", ".join(sorted(game.presets))
            raise ValueError(f"rules: unknown {self.game} rule set {self.rules!r}; known: {known}")
        for index, seat in enumerate(self.seats):
            if seat.bot is not None and seat.bot not in game.bots:
                known = ", ".join(sorted(game.bots))
                raise ValueError(f"seats[{index}]: unknown {self.game} bot {seat.bot!r}; known: {known}")
        if self.game != "guandan" and (self.event, self.format, self.conduct) != (None, None, None):
            raise ValueError(f"event, format, conduct: {self.game} tables are not played in tournaments")
        if self.max_deals is not None and (
            isinstance(self.max_deals, bool)
            or not isinstance(self.max_deals, int)
            or not 1 <= self.max_deals <= MAX_DEALS
        ):
            raise ValueError(
                f"max_deals: a whole number from 1 to {MAX_DEALS}, or null, got {self.max_deals!r}"
            )
        if len(self.seats) != 4:
            raise ValueError(f"seats: a table has four seats, got {len(self.seats)}")
        if self.format is not None and self.max_deals is not None:
            raise ValueError("max_deals: a table with a match format sets no max_deals")
        if not isinstance(self.rated, bool):
            raise ValueError(f"rated: true or false, got {self.rated!r}")
        if self.rated and self.game != "guandan":
            raise ValueError(f"rated: ratings are Guandan's; a {self.game} table is not rated")

    @property
    def is_rated(self) -> bool:
        """Whether the match counts for ratings: a rated table, or a tournament's."""
        return self.rated or self.event is not None

    @property
    def ruleset(self) -> RuleSet | ShengjiRules:
        """The rule set of the game's preset."""
        rules: RuleSet | ShengjiRules = GAMES[self.game].rules(self.rules)
        return rules

    @property
    def human_seats(self) -> tuple[int, ...]:
        return tuple(seat for seat, config in enumerate(self.seats) if config.kind == "human")

    def to_dict(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "rules": self.rules,
            "max_deals": self.max_deals,
            "seats": [seat.to_dict() for seat in self.seats],
            "clocks": self.clocks.to_dict(),
            "bot_delay": self.bot_delay,
            "deal_pause": self.deal_pause,
            "event": None if self.event is None else self.event.to_dict(),
            "format": None if self.format is None else self.format.to_dict(),
            "conduct": None if self.conduct is None else self.conduct.to_dict(),
            "disconnect_grace": self.disconnect_grace,
            "game": self.game,
            "deal_pace": self.deal_pace,
            "rated": self.rated,
        }

    @classmethod
    def from_dict(cls, values: object, defaults: Settings | None = None) -> TableConfig:
        """Read a stored config or a lobby request; fields left out take the ``defaults`` (the server's
        settings). A ``ValueError`` names the bad field."""
        settings = defaults or Settings()
        if not isinstance(values, Mapping):
            raise ValueError(f"a table config is a JSON object, got {values!r}")
        unknown = set(values) - {
            "name",
            "rules",
            "max_deals",
            "seats",
            "clocks",
            "bot_delay",
            "deal_pause",
            "event",
            "format",
            "conduct",
            "disconnect_grace",
            "game",
            "deal_pace",
            "rated",
        }
        if unknown:
            raise ValueError(f"unknown fields: {', '.join(sorted(map(str, unknown)))}")
        name = values.get("name", "Table")
        if isinstance(name, str):
            name = name.strip()
        seats_field = values.get("seats", [{"kind": "human"}] * 4)
        if not isinstance(seats_field, list) or len(seats_field) != 4:
            raise ValueError(f"seats: a list of four seats, got {seats_field!r}")
        seats = tuple(SeatConfig.from_dict(seat, f"seats[{index}]") for index, seat in enumerate(seats_field))
        clocks = Clocks.from_dict(values.get("clocks", {}), settings.clocks)
        bot_delay = _number("bot_delay", values.get("bot_delay", settings.bot_delay), high=MAX_BOT_DELAY)
        deal_pause = _number("deal_pause", values.get("deal_pause", settings.deal_pause), high=MAX_DEAL_PAUSE)
        game = values.get("game", "guandan")
        if not isinstance(game, str):
            raise ValueError(f"game: guandan or shengji, got {game!r}")
        return cls(
            name=name,
            game=game,
            rules=values.get("rules", ""),
            max_deals=values.get("max_deals"),
            seats=(seats[0], seats[1], seats[2], seats[3]),
            clocks=clocks,
            bot_delay=bot_delay,
            deal_pause=deal_pause,
            event=None if values.get("event") is None else EventLink.from_dict(values["event"]),
            format=None if values.get("format") is None else format_from_dict(values["format"]),
            conduct=None if values.get("conduct") is None else conduct_from_dict(values["conduct"]),
            disconnect_grace=_number(
                "disconnect_grace", values.get("disconnect_grace", 60.0), high=MAX_CLOCK
            ),
            deal_pace=_number("deal_pace", values.get("deal_pace", settings.deal_pace), high=MAX_DEAL_PACE),
            rated=values.get("rated", False),
        )


@dataclass(frozen=True)
class Settings:
    """The server's defaults for new tables and its limits: ``clocks``, ``bot_delay``, ``deal_pause``
    and ``deal_pace`` as in :class:`TableConfig`; ``max_message`` caps a client message (bytes); the
    rate limits (a :class:`Rate`, or ``None`` for none; docs/server.md, "Limits") and ``idle_timeout``."""

    clocks: Clocks = field(default_factory=Clocks)
    bot_delay: float = 0.6
    deal_pause: float = 4.0
    max_message: int = 16 * 1024
    deal_pace: float = 0.3
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
        _number("bot_delay", self.bot_delay, high=MAX_BOT_DELAY)
        _number("deal_pause", self.deal_pause, high=MAX_DEAL_PAUSE)
        _number("deal_pace", self.deal_pace, high=MAX_DEAL_PACE)
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
            _number("idle_timeout", self.idle_timeout, high=MAX_IDLE_TIMEOUT, open_low=True)
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
            _number("waiting_expiry", self.waiting_expiry, high=MAX_WAITING_EXPIRY, open_low=True)
        _number("unload_after", self.unload_after, high=MAX_IDLE_TIMEOUT)
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


def _number(where: str, value: object, *, low: float = 0.0, high: float, open_low: bool = False) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value):
        raise ValueError(f"{where}: expected a number of seconds, got {value!r}")
    if value < low or (open_low and value == low) or value > high:
        above = "above" if open_low else "from"
        raise ValueError(f"{where}: a number {above} {low:g} up to {high:g}, got {value!r}")
    return float(value)
