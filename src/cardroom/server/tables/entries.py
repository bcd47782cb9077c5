"""A table's log entries as typed values: one frozen dataclass per kind (docs/protocol.md, "The log").

The log itself stays JSON (what the store keeps and the wire carries): ``to_json()`` gives an entry's
stored dict, :func:`entry_from_json` reads one back by its ``type``. Entries that applying annotates
(a ``deal``'s ``anti_tribute``, an ``action``'s ``private_to`` and ``tributes``, a ``ruling``'s
``lead_to`` and ``places``) carry those fields, ``None`` until the table applied them; they come last in
the dict, in the order the table adds them.

Who writes which: :class:`~cardroom.server.tables.seated.SeatedTable` the seats' (``sit``, ``start``,
``auto``); both games ``action`` and ``match_end`` (built by :func:`cardroom.server.tables.outcomes.match_end`
for Guandan); Guandan's table ``deal``, ``deal_end``, with :mod:`cardroom.server.tables.conduct` the
conduct entries (``penalty``, ``ruling``, ``choice``, ``chosen``) and with
:mod:`cardroom.server.tables.faults` bot accounts' ``fault``; Shengji's table its own ``deal`` and
``deal_end`` (:class:`ShengjiDealEntry`, :class:`ShengjiDealEndEntry`).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, Final, Literal, cast

from cardroom.guandan.deal import Action as GuandanAction
from cardroom.server.tables.codec import ChoiceKind
from cardroom.shengji import Action as ShengjiAction

Entry = dict[str, Any]
"""One log entry as stored and sent: a JSON object with a ``type`` (docs/protocol.md)."""

By = Literal["player", "bot", "auto", "default"]
"""Who took an action or answered a choice: its player, its bot, the 托管 bot, or the deadline."""

RulingKind = Literal["skip_turn", "foul"]

FaultKind = Literal["clock", "illegal"]
"""A bot account's fault (docs/ladder.md, "Clocks and faults"): its clock ran out, or the rules refused
its action."""


def _choice_kind(value: object) -> ChoiceKind:
    if value == "skip_turn" or value == "leader":
        return value
    raise ValueError(f"unknown choice {value!r}")


def _maybe_int(value: object) -> int | None:
    return None if value is None else int(cast(int, value))


@dataclass(frozen=True)
class SitEntry:
    """A person took an empty seat (the token's hash is never sent); ``account`` is the key of the
    signed-in account that owns the seat (``None``: a guest)."""

    seat: int
    name: str
    token_hash: str
    at: float
    account: str | None = None

    def to_json(self) -> Entry:
        entry: Entry = {
            "type": "sit",
            "seat": self.seat,
            "name": self.name,
            "token_hash": self.token_hash,
            "at": self.at,
        }
        if self.account is not None:
            entry["account"] = self.account
        return entry

    @classmethod
    def from_json(cls, value: Mapping[str, Any]) -> SitEntry:
        account = value.get("account")
        return cls(
            int(value["seat"]),
            str(value["name"]),
            str(value["token_hash"]),
            float(value["at"]),
            None if account is None else str(account),
        )


@dataclass(frozen=True)
class KeyEntry:
    """A seat's owner, signed in, took a new token for it (another device): the old one stops
    working. Never sent."""

    seat: int
    token_hash: str
    at: float

    def to_json(self) -> Entry:
        return {"type": "key", "seat": self.seat, "token_hash": self.token_hash, "at": self.at}

    @classmethod
    def from_json(cls, value: Mapping[str, Any]) -> KeyEntry:
        return cls(int(value["seat"]), str(value["token_hash"]), float(value["at"]))


@dataclass(frozen=True)
class StartEntry:
    """Every seat was taken: the match starts (the shuffle's seed is never sent)."""

    seed: str
    at: float

    def to_json(self) -> Entry:
        return {"type": "start", "seed": self.seed, "at": self.at}

    @classmethod
    def from_json(cls, value: Mapping[str, Any]) -> StartEntry:
        return cls(str(value["seed"]), float(value["at"]))


@dataclass(frozen=True)
class AutoEntry:
    """A seat goes into 托管 (its clock ran out) or comes back (``on`` false)."""

    seat: int
    on: bool
    at: float

    def to_json(self) -> Entry:
        return {"type": "auto", "seat": self.seat, "on": self.on, "at": self.at}

    @classmethod
    def from_json(cls, value: Mapping[str, Any]) -> AutoEntry:
        return cls(int(value["seat"]), bool(value["on"]), float(value["at"]))


@dataclass(frozen=True)
class DealEntry:
    """A Guandan deal dealt: the four hands, the leader (``None`` after a deal: tribute decides) and the
    first deal's turned card; ``anti_tribute`` (the seats exempt by 抗贡) once applied."""

    deal_number: int
    level: str
    hands: tuple[str, ...]
    leader: int | None
    turned_card: str | None
    at: float
    anti_tribute: tuple[int, ...] | None = None

    def to_json(self) -> Entry:
        value: Entry = {
            "type": "deal",
            "deal_number": self.deal_number,
            "level": self.level,
            "hands": list(self.hands),
            "leader": self.leader,
            "turned_card": self.turned_card,
            "at": self.at,
        }
        if self.anti_tribute is not None:
            value["anti_tribute"] = list(self.anti_tribute)
        return value

    @classmethod
    def from_json(cls, value: Mapping[str, Any]) -> DealEntry:
        exempt = value.get("anti_tribute")
        return cls(
            int(value["deal_number"]),
            str(value["level"]),
            tuple(str(hand) for hand in value["hands"]),
            _maybe_int(value.get("leader")),
            str(value["turned_card"]) if value.get("turned_card") else None,
            float(value["at"]),
            None if exempt is None else tuple(int(seat) for seat in exempt),
        )


@dataclass(frozen=True)
class ActionEntry:
    """A seat's action (the record's shape) and who took it; applied, a Guandan action notes who may
    see its card (``private_to``: a face-down tribute, a return) and the tributes it handed over.

    ``verified`` is the engine's action as the rules verified it when the table took it: applying the
    entry then applies it as it is, without reading the record's shape back or checking it again. An
    entry read from the store has none: its action is read and verified as it is applied."""

    seat: int
    action: Mapping[str, Any]
    by: By
    at: float
    private_to: tuple[int, ...] | None = None
    tributes: tuple[Mapping[str, Any], ...] | None = None
    verified: GuandanAction | ShengjiAction | None = field(default=None, compare=False, repr=False)

    def to_json(self) -> Entry:
        value: Entry = {
            "type": "action",
            "seat": self.seat,
            "action": self.action,
            "by": self.by,
            "at": self.at,
        }
        if self.private_to is not None:
            value["private_to"] = list(self.private_to)
        if self.tributes is not None:
            value["tributes"] = [dict(handed) for handed in self.tributes]
        return value

    @classmethod
    def from_json(cls, value: Mapping[str, Any]) -> ActionEntry:
        private = value.get("private_to")
        tributes = value.get("tributes")
        return cls(
            int(value["seat"]),
            value["action"],
            cast(By, value.get("by")),
            float(value["at"]),
            None if private is None else tuple(int(seat) for seat in private),
            None if tributes is None else tuple(tributes),
        )


@dataclass(frozen=True)
class PenaltyEntry:
    """A penalty under the table's conduct policy: the records it adds and the ruling's effect
    (``none``, ``skip_turn``, ``end_deal``, ``end_match``)."""

    seat: int
    side: int
    offence: str
    records: tuple[Mapping[str, Any], ...]
    effect: str
    deal_number: int
    at: float

    def to_json(self) -> Entry:
        return {
            "type": "penalty",
            "seat": self.seat,
            "side": self.side,
            "offence": self.offence,
            "records": [dict(record) for record in self.records],
            "effect": self.effect,
            "deal_number": self.deal_number,
            "at": self.at,
        }

    @classmethod
    def from_json(cls, value: Mapping[str, Any]) -> PenaltyEntry:
        return cls(
            int(value["seat"]),
            int(value["side"]),
            str(value["offence"]),
            tuple(value["records"]),
            str(value["effect"]),
            int(value["deal_number"]),
            float(value["at"]),
        )


@dataclass(frozen=True)
class RulingEntry:
    """A ruling's effect carried out: a skipped turn (``lead_to``: where the lead went, when the
    offender led) or a foul that ends the deal (``places``: the deal's places)."""

    kind: RulingKind
    seat: int
    at: float
    lead_to: int | None = None
    places: tuple[int, ...] | None = None

    def to_json(self) -> Entry:
        value: Entry = {"type": "ruling", "kind": self.kind, "seat": self.seat, "at": self.at}
        if self.lead_to is not None:
            value["lead_to"] = self.lead_to
        if self.places is not None:
            value["places"] = list(self.places)
        return value

    @classmethod
    def from_json(cls, value: Mapping[str, Any]) -> RulingEntry:
        kind = value["kind"]
        if kind not in ("skip_turn", "foul"):
            raise ValueError(f"unknown ruling {kind!r}")
        places = value.get("places")
        return cls(
            cast(RulingKind, kind),
            int(value["seat"]),
            float(value["at"]),
            _maybe_int(value.get("lead_to")),
            None if places is None else tuple(int(seat) for seat in places),
        )


@dataclass(frozen=True)
class ChoiceEntry:
    """A choice put to the offender's 下家 (``seat``), open until ``deadline``."""

    kind: ChoiceKind
    seat: int
    offender: int
    deadline: float
    at: float

    def to_json(self) -> Entry:
        return {
            "type": "choice",
            "kind": self.kind,
            "seat": self.seat,
            "offender": self.offender,
            "deadline": self.deadline,
            "at": self.at,
        }

    @classmethod
    def from_json(cls, value: Mapping[str, Any]) -> ChoiceEntry:
        return cls(
            _choice_kind(value["kind"]),
            int(value["seat"]),
            int(value["offender"]),
            float(value["deadline"]),
            float(value["at"]),
        )


@dataclass(frozen=True)
class ChosenEntry:
    """The answer to an open choice (``by`` the player, or the ``default`` at the deadline): ``skip``
    for a ``skip_turn`` choice, ``leader`` for a ``leader`` one."""

    kind: ChoiceKind
    seat: int
    offender: int
    by: By
    at: float
    skip: bool | None = None
    leader: int | None = None

    def to_json(self) -> Entry:
        value: Entry = {
            "type": "chosen",
            "kind": self.kind,
            "seat": self.seat,
            "offender": self.offender,
            "by": self.by,
            "at": self.at,
        }
        if self.kind == "skip_turn":
            value["skip"] = self.skip
        else:
            value["leader"] = self.leader
        return value

    @classmethod
    def from_json(cls, value: Mapping[str, Any]) -> ChosenEntry:
        kind = _choice_kind(value["kind"])
        common = (kind, int(value["seat"]), int(value["offender"]), cast(By, value["by"]), float(value["at"]))
        if kind == "skip_turn":
            skip = value["skip"]
            if not isinstance(skip, bool):
                raise ValueError("skip: true or false")
            return cls(*common, skip=skip)
        leader = value["leader"]
        if isinstance(leader, bool) or not isinstance(leader, int) or leader not in range(4):
            raise ValueError(f"leader: a seat 0 to 3, got {leader!r}")
        return cls(*common, leader=leader)


@dataclass(frozen=True)
class FaultEntry:
    """A bot account's fault at a Guandan table: its decision clock ran out (``clock``) or the rules
    refused its action (``illegal``, with the refusal's ``reason``); ``count`` is the seat's faults in
    the match with this one. The fallback plays the move; the limit's fault forfeits the match."""

    seat: int
    kind: FaultKind
    count: int
    at: float
    reason: str | None = None

    def to_json(self) -> Entry:
        value: Entry = {"type": "fault", "seat": self.seat, "kind": self.kind, "count": self.count}
        if self.reason is not None:
            value["reason"] = self.reason
        value["at"] = self.at
        return value

    @classmethod
    def from_json(cls, value: Mapping[str, Any]) -> FaultEntry:
        kind = value["kind"]
        if kind not in ("clock", "illegal"):
            raise ValueError(f"unknown fault {kind!r}")
        reason = value.get("reason")
        return cls(
            int(value["seat"]),
            cast(FaultKind, kind),
            int(value["count"]),
            float(value["at"]),
            None if reason is None else str(reason),
        )


@dataclass(frozen=True)
class DealEndEntry:
    """A Guandan deal is over: its places, the winners' rise and both levels after it."""

    deal_number: int
    places: tuple[int, ...]
    rise: int
    levels: tuple[str, ...]
    at: float

    def to_json(self) -> Entry:
        return {
            "type": "deal_end",
            "deal_number": self.deal_number,
            "places": list(self.places),
            "rise": self.rise,
            "levels": list(self.levels),
            "at": self.at,
        }

    @classmethod
    def from_json(cls, value: Mapping[str, Any]) -> DealEndEntry:
        return cls(
            int(value["deal_number"]),
            tuple(int(seat) for seat in value["places"]),
            int(value["rise"]),
            tuple(str(level) for level in value["levels"]),
            float(value["at"]),
        )


@dataclass(frozen=True)
class MatchEndEntry:
    """The match is over, and why (``reason``): the winner (``None``: a draw), both levels and, at a
    Guandan table, the 28-point ``score`` and the ``level_values`` (above A for a format's time limit);
    a forfeit names the side (``forfeited_by``), the levels at the table (``table_levels``) and a note.
    Fields a kind of end does not have are ``None`` and left out of the dict (an old log's entry may
    lack ``reason`` too)."""

    winner: int | None
    levels: tuple[str, ...]
    reason: str | None
    at: float
    score: tuple[int, int] | None = None
    level_values: tuple[int, int] | None = None
    forfeited_by: int | None = None
    table_levels: tuple[int, int] | None = None
    note: str | None = None

    def to_json(self) -> Entry:
        value: Entry = {"type": "match_end", "winner": self.winner, "levels": list(self.levels)}
        if self.score is not None:
            value["score"] = list(self.score)
        if self.reason is not None:
            value["reason"] = self.reason
        if self.level_values is not None:
            value["level_values"] = list(self.level_values)
        if self.forfeited_by is not None:
            value["forfeited_by"] = self.forfeited_by
        if self.table_levels is not None:
            value["table_levels"] = list(self.table_levels)
        if self.note is not None:
            value["note"] = self.note
        value["at"] = self.at
        return value

    @classmethod
    def from_json(cls, value: Mapping[str, Any]) -> MatchEndEntry:
        return cls(
            _maybe_int(value.get("winner")),
            tuple(str(level) for level in value["levels"]),
            None if value.get("reason") is None else str(value["reason"]),
            float(value["at"]),
            score=_pair(value.get("score")),
            level_values=_pair(value.get("level_values")),
            forfeited_by=_maybe_int(value.get("forfeited_by")),
            table_levels=_pair(value.get("table_levels")),
            note=None if value.get("note") is None else str(value["note"]),
        )


def _pair(value: object) -> tuple[int, int] | None:
    if value is None:
        return None
    first, second = cast(list[int], value)
    return int(first), int(second)


@dataclass(frozen=True)
class ShengjiDealEntry:
    """A Shengji deal: the 108 cards in dealing order (never sent), the first deal's first drawer and
    the dealer (``None`` in the first deal)."""

    deal_number: int
    level: str
    deck: str
    first_drawer: int | None
    dealer: int | None
    at: float

    def to_json(self) -> Entry:
        return {
            "type": "deal",
            "deal_number": self.deal_number,
            "level": self.level,
            "deck": self.deck,
            "first_drawer": self.first_drawer,
            "dealer": self.dealer,
            "at": self.at,
        }

    @classmethod
    def from_json(cls, value: Mapping[str, Any]) -> ShengjiDealEntry:
        return cls(
            int(value["deal_number"]),
            str(value["level"]),
            str(value["deck"]),
            _maybe_int(value.get("first_drawer")),
            _maybe_int(value.get("dealer")),
            float(value["at"]),
        )


@dataclass(frozen=True)
class ShengjiDealEndEntry:
    """A Shengji deal is over: its result as the record holds it (``score``, ``levels_after`` …) and the
    kitty revealed."""

    deal_number: int
    result: Mapping[str, Any]
    kitty: str
    at: float

    def to_json(self) -> Entry:
        return {
            "type": "deal_end",
            "deal_number": self.deal_number,
            **self.result,
            "kitty": self.kitty,
            "at": self.at,
        }

    @classmethod
    def from_json(cls, value: Mapping[str, Any]) -> ShengjiDealEndEntry:
        result = {
            key: item for key, item in value.items() if key not in ("type", "deal_number", "kitty", "at")
        }
        return cls(int(value["deal_number"]), result, str(value["kitty"]), float(value["at"]))


LogEntry = (
    SitEntry
    | KeyEntry
    | StartEntry
    | AutoEntry
    | DealEntry
    | ActionEntry
    | PenaltyEntry
    | RulingEntry
    | ChoiceEntry
    | ChosenEntry
    | FaultEntry
    | DealEndEntry
    | MatchEndEntry
    | ShengjiDealEntry
    | ShengjiDealEndEntry
)
"""Any typed log entry."""

Reader = Callable[[Mapping[str, Any]], LogEntry]

SEATED_ENTRIES: Final[Mapping[str, Reader]] = {
    "sit": SitEntry.from_json,
    "key": KeyEntry.from_json,
    "start": StartEntry.from_json,
    "auto": AutoEntry.from_json,
}
"""The entries every table writes, by ``type``."""

GUANDAN_ENTRIES: Final[Mapping[str, Reader]] = {
    **SEATED_ENTRIES,
    "deal": DealEntry.from_json,
    "action": ActionEntry.from_json,
    "penalty": PenaltyEntry.from_json,
    "ruling": RulingEntry.from_json,
    "choice": ChoiceEntry.from_json,
    "chosen": ChosenEntry.from_json,
    "fault": FaultEntry.from_json,
    "deal_end": DealEndEntry.from_json,
    "match_end": MatchEndEntry.from_json,
}
"""A Guandan table's entries, by ``type``."""

SHENGJI_ENTRIES: Final[Mapping[str, Reader]] = {
    **SEATED_ENTRIES,
    "deal": ShengjiDealEntry.from_json,
    "action": ActionEntry.from_json,
    "deal_end": ShengjiDealEndEntry.from_json,
    "match_end": MatchEndEntry.from_json,
}
"""A Shengji table's entries, by ``type``."""


def entry_from_json(value: Mapping[str, Any], kinds: Mapping[str, Reader] = GUANDAN_ENTRIES) -> LogEntry:
    """The typed entry of a stored one (a Guandan table's unless ``kinds`` says); an unknown ``type``
    or a malformed field is a ``ValueError`` (or ``KeyError``, ``TypeError``)."""
    reader = kinds.get(value.get("type"))  # type: ignore[arg-type]
    if reader is None:
        raise ValueError(f"unknown entry type {value.get('type')!r}")
    return reader(value)


__all__ = [
    "GUANDAN_ENTRIES",
    "SEATED_ENTRIES",
    "SHENGJI_ENTRIES",
    "ActionEntry",
    "AutoEntry",
    "By",
    "ChoiceEntry",
    "ChoiceKind",
    "ChosenEntry",
    "DealEndEntry",
    "DealEntry",
    "Entry",
    "FaultEntry",
    "FaultKind",
    "KeyEntry",
    "LogEntry",
    "MatchEndEntry",
    "PenaltyEntry",
    "RulingEntry",
    "RulingKind",
    "ShengjiDealEndEntry",
    "ShengjiDealEntry",
    "SitEntry",
    "StartEntry",
    "entry_from_json",
]
