"""A table's settings (the game, its rule-set preset, match length, who sits where, clocks) and the
defaults a new table takes from the process (:class:`TableDefaults`).

:class:`TableConfig` is stored with each table (``to_dict``) and read back (``from_dict``); the lobby's
``POST /api/tables`` body goes through ``from_dict`` too, so every bad field is a ``ValueError`` that
names it.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Final, Literal

from cardroom.bots import BOTS
from cardroom.games import GAMES
from cardroom.guandan.ruleset import RuleSet
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
BOT_CLOCK: Final = 5.0
"""Seconds a bot account has for each decision (docs/ladder.md, "Clocks and faults")."""
FAULT_LIMIT: Final = 10
"""A bot account's faults in a match that forfeit it (docs/ladder.md, "Clocks and faults")."""
MAX_FAULT_LIMIT: Final = 100


@dataclass(frozen=True)
class Clocks:
    """Seconds a human seat has to act (docs/rules/competition.md#clocks): 进贡 tribute, 还贡 return, the
    first play of a trick (lead) and a play on someone else's (follow); Shengji's ``declare`` (each time a
    card reaches a seat that could declare, 叫主 or 反主: then the dealing goes on) and ``bury`` (the dealer's
    扣底). ``bot`` is a bot account's, for every decision of a Guandan match (docs/ladder.md, "Clocks and
    faults")."""

    tribute: float = 20.0
    return_: float = 40.0
    lead: float = 40.0
    follow: float = 20.0
    declare: float = 3.0
    bury: float = 60.0
    bot: float = BOT_CLOCK

    def to_dict(self) -> dict[str, float]:
        return {
            "tribute": self.tribute,
            "return": self.return_,
            "lead": self.lead,
            "follow": self.follow,
            "declare": self.declare,
            "bury": self.bury,
            "bot": self.bot,
        }

    @classmethod
    def from_dict(cls, values: object, defaults: Clocks | None = None) -> Clocks:
        """Read ``{"tribute": 20, "return": 40, "lead": 40, "follow": 20, "declare": 3, "bury": 60,
        "bot": 5}``; missing keys keep ``defaults``."""
        base = defaults or cls()
        if not isinstance(values, Mapping):
            raise ValueError(f"clocks: expected an object, got {values!r}")
        current = base.to_dict()
        unknown = set(values) - set(current)
        if unknown:
            raise ValueError(f"clocks: unknown clocks {', '.join(sorted(map(str, unknown)))}")
        read = {
            key: read_seconds(
                f"clocks.{key}", values.get(key, current[key]), low=0.0, high=MAX_CLOCK, open_low=True
            )
            for key in current
        }
        return cls(
            read["tribute"],
            read["return"],
            read["lead"],
            read["follow"],
            read["declare"],
            read["bury"],
            read["bot"],
        )


@dataclass(frozen=True)
class TableDefaults:
    """What a new table takes from the process where its configuration is silent: the clocks, how long
    bots wait before acting, the pause between deals and Shengji's pace of dealing (seconds), as in
    :class:`TableConfig`. The operator sets them (``cardroom serve --bot-delay``, ``--deal-pause``,
    ``--deal-pace``); the process's settings hold them."""

    clocks: Clocks = field(default_factory=Clocks)
    bot_delay: float = 0.6
    deal_pause: float = 4.0
    deal_pace: float = 0.3

    def __post_init__(self) -> None:
        if not isinstance(self.clocks, Clocks):
            raise ValueError(f"clocks: a Clocks, got {self.clocks!r}")
        read_seconds("bot_delay", self.bot_delay, high=MAX_BOT_DELAY)
        read_seconds("deal_pause", self.deal_pause, high=MAX_DEAL_PAUSE)
        read_seconds("deal_pace", self.deal_pace, high=MAX_DEAL_PACE)


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


@dataclass(frozen=True)
class LadderLink:
    """A ladder table's link to its match (docs/ladder.md, "Ladder tables"): the match's id, the deal
    pair (0, 1 …) and whether the teams sit swapped (team A at seats 1 and 3)."""

    match: str
    pair: int
    swapped: bool

    def __post_init__(self) -> None:
        if not isinstance(self.match, str) or not self.match:
            raise ValueError(f"ladder.match: a match id, got {self.match!r}")
        if isinstance(self.pair, bool) or not isinstance(self.pair, int) or self.pair < 0:
            raise ValueError(f"ladder.pair: a whole number from 0, got {self.pair!r}")
        if not isinstance(self.swapped, bool):
            raise ValueError(f"ladder.swapped: true or false, got {self.swapped!r}")

    def to_dict(self) -> dict[str, Any]:
        return {"match": self.match, "pair": self.pair, "swapped": self.swapped}

    @classmethod
    def from_dict(cls, values: object) -> LadderLink:
        if not isinstance(values, Mapping) or set(values) != {"match", "pair", "swapped"}:
            raise ValueError(f'ladder: expected {{"match", "pair", "swapped"}}, got {values!r}')
        return cls(values["match"], values["pair"], values["swapped"])


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
        minutes = read_seconds("format.minutes", minutes, high=24 * 60.0, open_low=True)
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
        number = read_seconds(f"conduct.clocks.{key}", value, high=MAX_CLOCK, open_low=low_open)
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
    fault_limit: int = FAULT_LIMIT
    """The faults a bot account may make in a match here: the one that reaches it forfeits the match
    for the bot's side (docs/ladder.md, "Clocks and faults")."""
    ladder: LadderLink | None = None
    """A ladder table's match and deal pair (``None``: not the ladder's). A ladder table plays one
    Guandan deal, casual for people's ratings, with the documented bot clock and fault limit."""

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
        if (
            isinstance(self.fault_limit, bool)
            or not isinstance(self.fault_limit, int)
            or not 1 <= self.fault_limit <= MAX_FAULT_LIMIT
        ):
            raise ValueError(
                f"fault_limit: a whole number from 1 to {MAX_FAULT_LIMIT}, got {self.fault_limit!r}"
            )
        if self.rated and self.game != "guandan":
            raise ValueError(f"rated: ratings are Guandan's; a {self.game} table is not rated")
        if self.ladder is not None:
            self._check_ladder()

    def _check_ladder(self) -> None:
        """A ladder table: one Guandan deal, casual, no event, the documented fault limit (its bot clock is
        the room's ladder clock, the same at each of its tables: docs/ladder.md, "Ladder tables")."""
        if self.game != "guandan" or self.max_deals != 1:
            raise ValueError("ladder: a ladder table plays one Guandan deal (max_deals 1)")
        if self.rated or self.event is not None or self.format is not None or self.conduct is not None:
            raise ValueError("ladder: a ladder table is rated on the ladder only: not rated, no event")
        if self.fault_limit != FAULT_LIMIT:
            raise ValueError(
                f"ladder: a ladder table keeps the fault limit ({FAULT_LIMIT}) of docs/ladder.md, "
                f"got {self.fault_limit}"
            )

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
            "fault_limit": self.fault_limit,
            "ladder": None if self.ladder is None else self.ladder.to_dict(),
        }

    @classmethod
    def from_dict(cls, values: object, defaults: TableDefaults | None = None) -> TableConfig:
        """Read a stored config or a lobby request; fields left out take the ``defaults`` (the
        process's). A ``ValueError`` names the bad field."""
        base = defaults or TableDefaults()
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
            "fault_limit",
            "ladder",
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
        clocks = Clocks.from_dict(values.get("clocks", {}), base.clocks)
        bot_delay = read_seconds("bot_delay", values.get("bot_delay", base.bot_delay), high=MAX_BOT_DELAY)
        deal_pause = read_seconds(
            "deal_pause", values.get("deal_pause", base.deal_pause), high=MAX_DEAL_PAUSE
        )
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
            disconnect_grace=read_seconds(
                "disconnect_grace", values.get("disconnect_grace", 60.0), high=MAX_CLOCK
            ),
            deal_pace=read_seconds("deal_pace", values.get("deal_pace", base.deal_pace), high=MAX_DEAL_PACE),
            rated=values.get("rated", False),
            fault_limit=values.get("fault_limit", FAULT_LIMIT),
            ladder=None if values.get("ladder") is None else LadderLink.from_dict(values["ladder"]),
        )


def read_seconds(
    where: str, value: object, *, low: float = 0.0, high: float, open_low: bool = False
) -> float:
    """``value`` as a number of seconds from ``low`` (above it with ``open_low``) up to ``high``; a
    ``ValueError`` names ``where`` otherwise."""
    if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value):
        raise ValueError(f"{where}: expected a number of seconds, got {value!r}")
    if value < low or (open_low and value == low) or value > high:
        above = "above" if open_low else "from"
        raise ValueError(f"{where}: a number {above} {low:g} up to {high:g}, got {value!r}")
    return float(value)
