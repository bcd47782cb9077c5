"""JSON of cards, plays and actions for the websocket protocol (docs/protocol.md) and the table log.

Two shapes of an action travel:

- the **client's** (``act`` messages, ``legal``, ``hint``): ``{"type": "play", "kind": "Pair", "rank": "5",
  "cards": ["H5", "S5"]}``, ``{"type": "pass"}``, ``{"type": "tribute", "card": "HA"}``,
  ``{"type": "return", "card": "S3"}``;
- the **record's** (the log's ``action`` entries, docs/records.md): ``{"seat": 0, "play": [type, rank,
  cards]}``, ``{"seat": 1, "tribute": "HA"}``, ``{"seat": 0, "return": "S3"}``.

Whatever a client sends that cannot be read is a :class:`ProtocolError` with code ``bad_message``.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any, ClassVar, Final, Literal

from cardroom.cards import Card, NotationError, Rank, Suit, parse_cards
from cardroom.guandan import classify, rank_order
from cardroom.guandan.deal import Action, PlayAction, ReturnAction, TributeAction
from cardroom.guandan.plays import PASS, Play
from cardroom.guandan.ruleset import RuleSet
from cardroom.guandan.triple import KINDS_BY_TYPE, TripleError, from_triple, to_triple
from cardroom.rule_errors import OutOfTurnError, RuleError, WrongPhaseError
from cardroom.server.tables.refusals import words

PROTOCOL: Final = 1
"""The protocol version every server message carries as ``"v"``."""

ErrorCode = Literal[
    "bad_message",
    "not_seated",
    "out_of_turn",
    "wrong_phase",
    "illegal_action",
    "ambiguous_play",
    "unknown_table",
    "bad_token",
    "not_signed_in",
    "seat_replaced",
    "table_expired",
    "too_many_connections",
    "unavailable",
]


ChoiceKind = Literal["skip_turn", "leader"]
"""What an offender's 下家 chooses: whether the offender's next turn is skipped (违例), or who leads the
deal after a foul (犯规)."""


_RULE_CODES: Final = frozenset({"out_of_turn", "wrong_phase"})
"""The error codes that are rules of their own: their ``reason`` is the code when no finer one is given."""


class ProtocolError(ValueError):
    """A client message the server refuses; ``code`` is the protocol's error code and the message names
    what is wrong. Nothing changes when one is raised."""

    def __init__(
        self,
        code: ErrorCode,
        message: str,
        *,
        reason: str | None = None,
        details: Mapping[str, Any] | None = None,
    ) -> None:
        super().__init__(message)
        self.code: ErrorCode = code
        self.message = message
        self.reason = reason if reason is not None or code not in _RULE_CODES else code
        """The rule's code when the rules refuse (``does_not_beat`` …), for the page's own words; an
        ``out_of_turn`` or ``wrong_phase`` refusal is its own reason."""
        self.details: dict[str, Any] = dict(details or {})
        """The rule's arguments (the ``args`` field): the play to beat, the suit to follow …"""

    @classmethod
    def because(cls, code: ErrorCode, reason: str, **args: Any) -> ProtocolError:
        """A refusal for a reason of :data:`~cardroom.server.tables.refusals.REASONS`, in its English
        words, with its arguments."""
        return cls(code, words(reason, args), reason=reason, details=args)

    @classmethod
    def refused(cls, error: RuleError) -> ProtocolError:
        """Either game's rules refusing an action: ``out_of_turn``, ``wrong_phase`` or
        ``illegal_action``, in the rule's own words (never the exception's name), with the rule's
        ``reason`` code and its ``args``."""
        code: ErrorCode = "illegal_action"
        if isinstance(error, OutOfTurnError):
            code = "out_of_turn"
        elif isinstance(error, WrongPhaseError):
            code = "wrong_phase"
        return cls(code, str(error), reason=error.reason, details=error.details)

    def fields(self) -> dict[str, Any]:
        """``code`` and ``message``, and ``reason`` and ``args`` when the rules refused."""
        fields: dict[str, Any] = {"code": self.code, "message": self.message}
        if self.reason is not None:
            fields.update(reason=self.reason, args=self.details)
        return fields

    def frame(self) -> dict[str, Any]:
        """The ``error`` message sent to the client."""
        return {"type": "error", "v": PROTOCOL, **self.fields()}


# --- cards --------------------------------------------------------------------------------------------


def card_names(cards: Iterable[Card]) -> list[str]:
    return [str(card) for card in cards]


def hand_order(cards: Iterable[Card], level: Rank, rules: RuleSet) -> list[Card]:
    """A hand as players hold it: jokers, level cards, then A … 2 (the level's order of ranks), suits
    ♠♥♣♦ within a rank."""
    return sorted(cards, key=lambda card: (-rank_order(card.rank, level, rules), card.suit or 0))


def wild_card(level: Rank) -> Card:
    """The ♥ level card (逢人配)."""
    return Card(level, Suit.HEARTS)


def read_card(value: object, where: str) -> Card:
    """One card in notation; ``bad_message`` names the field."""
    if not isinstance(value, str):
        raise ProtocolError("bad_message", f'{where}: a card is a string like "HA", got {value!r}')
    try:
        return Card.parse(value)
    except NotationError as error:
        raise ProtocolError("bad_message", f"{where}: {error}") from None


def read_cards(values: list[Any], where: str) -> tuple[Card, ...]:
    """Cards a client sends (``["S3", "S3"]``), each in notation (``bad_message`` names the one that is
    not); a card sent more than twice is an ``illegal_action`` naming it: the two decks hold each card
    twice, so no hand holds it, and the rules engines refuse such a hand."""
    cards = tuple(read_card(value, f"{where}[{index}]") for index, value in enumerate(values))
    counts = Counter(cards)
    over = next((card for card in cards if counts[card] > 2), None)
    if over is not None:
        raise ProtocolError(
            "illegal_action",
            f"{where}: {over} is sent {counts[over]} times; the two decks hold each card twice",
        )
    return cards


def read_hand(text: str) -> tuple[Card, ...]:
    """A hand as the log's ``deal`` entry stores it (space-separated notation)."""
    return parse_cards(text)


# --- plays and actions, the client's shape --------------------------------------------------------------


def play_json(play: Play) -> dict[str, Any]:
    """``{"type": "play", "kind", "rank", "cards"}`` or ``{"type": "pass"}``."""
    if play.is_pass:
        return {"type": "pass"}
    kind, rank, cards = to_triple(play)
    return {"type": "play", "kind": kind, "rank": rank, "cards": cards}


def action_json(action: Action) -> dict[str, Any]:
    """An engine action in the client's shape."""
    if isinstance(action, TributeAction):
        return {"type": "tribute", "card": str(action.card)}
    if isinstance(action, ReturnAction):
        return {"type": "return", "card": str(action.card)}
    return play_json(action.play)


def legal_json(actions: Iterable[Action]) -> list[dict[str, Any]]:
    """Legal actions in the client's shape (the ``legal`` message), each reading once."""
    seen: set[Action] = set()
    result = []
    for action in actions:
        if action not in seen:
            seen.add(action)
            result.append(action_json(action))
    return result


_ACT_KEYS: Final = {
    "play": {"type", "cards", "kind", "rank"},
    "pass": {"type"},
    "tribute": {"type", "card"},
    "return": {"type", "card"},
}


def read_action(seat: int, value: object, level: Rank, rules: RuleSet) -> list[Action]:
    """Every reading of a client's action at this level: one for a pass, tribute or return; for a play,
    each distinct play its cards make (narrowed by ``kind`` and ``rank`` when given). A shape that
    cannot be read is ``bad_message``; cards that make no play (of that kind) are ``illegal_action``."""
    if not isinstance(value, Mapping):
        raise ProtocolError("bad_message", f'action: expected an object with a "type", got {value!r}')
    kind = value.get("type")
    if kind not in _ACT_KEYS:
        raise ProtocolError("bad_message", f"action.type: one of play, pass, tribute, return; got {kind!r}")
    unknown = set(value) - _ACT_KEYS[kind]
    if unknown:
        raise ProtocolError(
            "bad_message", f"action: unknown fields for {kind}: {', '.join(sorted(map(str, unknown)))}"
        )
    if kind == "pass":
        return [PlayAction(seat, PASS)]
    if kind == "tribute":
        return [TributeAction(seat, read_card(value.get("card"), "action.card"))]
    if kind == "return":
        return [ReturnAction(seat, read_card(value.get("card"), "action.card"))]
    return [PlayAction(seat, play) for play in read_play(value, level, rules)]


def read_play(value: Mapping[str, Any], level: Rank, rules: RuleSet) -> list[Play]:
    """The distinct readings of a ``play`` action's cards (see :func:`read_action`)."""
    names = value.get("cards")
    if not isinstance(names, list) or not names or not all(isinstance(name, str) for name in names):
        raise ProtocolError(
            "bad_message", f'action.cards: a non-empty list of cards like ["H5", "S5"], got {names!r}'
        )
    if len(names) > 27:
        raise ProtocolError("bad_message", f"action.cards: a hand has at most 27 cards, got {len(names)}")
    cards = read_cards(names, "action.cards")
    kind, rank = value.get("kind"), value.get("rank")
    if kind is not None and (not isinstance(kind, str) or kind not in KINDS_BY_TYPE or kind == "PASS"):
        known = ", ".join(name for name in KINDS_BY_TYPE if name != "PASS")
        raise ProtocolError("bad_message", f"action.kind: one of {known}; got {kind!r}")
    if rank is not None:
        if not isinstance(rank, str):
            raise ProtocolError("bad_message", f'action.rank: a rank letter like "5" or "T", got {rank!r}')
        try:
            Rank.from_letter(rank)
        except NotationError as error:
            raise ProtocolError("bad_message", f"action.rank: {error}") from None
    shown = " ".join(names)
    if kind is not None and rank is not None:
        try:
            return [from_triple([kind, rank, names], level, rules)]
        except TripleError as error:
            raise ProtocolError(
                "illegal_action", str(error), reason="not_a_combination", details={"cards": names}
            ) from None
    readings: dict[str, Play] = {}
    for play in classify(cards, level, rules):
        triple_kind, triple_rank, _ = to_triple(play)
        if (kind is None or triple_kind == kind) and (rank is None or triple_rank == rank):
            readings.setdefault(f"{triple_kind} {triple_rank}", play)
    if not readings:
        wanted = " ".join(str(part) for part in (kind, rank) if part is not None)
        what = f"a {wanted}" if wanted else "any combination"
        raise ProtocolError(
            "illegal_action",
            f"{shown} is not {what} at level {level.letter}",
            reason="not_a_combination",
            details={"cards": names, "kind": kind, "rank": rank},
        )
    return list(readings.values())


def describe(play: Play) -> str:
    """``Pair 5`` or ``pass``: how error messages name a reading."""
    if play.is_pass:
        return "pass"
    kind, rank, _ = to_triple(play)
    return f"{kind} {rank}"


# --- actions, the record's shape (the log) --------------------------------------------------------------


def record_action(action: Action) -> dict[str, Any]:
    """An engine action as the record holds it."""
    if isinstance(action, TributeAction):
        return {"seat": action.seat, "tribute": str(action.card)}
    if isinstance(action, ReturnAction):
        return {"seat": action.seat, "return": str(action.card)}
    return {"seat": action.seat, "play": to_triple(action.play)}


def from_record_action(value: Mapping[str, Any], level: Rank, rules: RuleSet) -> Action:
    """An action of the log back as an engine action (a ``ValueError`` when it is malformed)."""
    seat = value["seat"]
    if "tribute" in value:
        return TributeAction(seat, Card.parse(value["tribute"]))
    if "return" in value:
        return ReturnAction(seat, Card.parse(value["return"]))
    return PlayAction(seat, from_triple(value["play"], level, rules))


def hide_card(action: Mapping[str, Any]) -> dict[str, Any]:
    """A record action with its tribute or return card face down (``null``)."""
    return {key: (None if key in ("tribute", "return") else item) for key, item in action.items()}


# --- messages -------------------------------------------------------------------------------------------


MAX_DEPTH = 16
"""Nesting of arrays and objects a client's JSON may have (the deepest message of the protocol has 3)."""


class NotTextError(ValueError):
    """A string of a client's JSON that is not Unicode text: a lone surrogate (``"\\ud800"``), which
    JSON's escapes can spell but no text holds; it could be neither stored nor sent back."""


def check_text(value: Any, path: str = "") -> None:
    """Raise :class:`NotTextError` naming the first string (a value or a key) of ``value`` that holds a
    lone surrogate, by its path (``seats[1].name``)."""
    if isinstance(value, str):
        try:
            value.encode("utf-8")
        except UnicodeEncodeError as error:
            where = path or "the value"
            bad = value[error.start].encode("unicode_escape").decode("ascii")
            raise NotTextError(
                f"{where}: a lone surrogate ({bad}) is not text; send names and text as valid Unicode"
            ) from None
    elif isinstance(value, dict):
        for key, item in value.items():
            check_text(key, f"{path}.{key!a}" if path else f"{key!a}")
            check_text(item, f"{path}.{key}" if path else str(key))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            check_text(item, f"{path}[{index}]")


def strict_json(raw: str | bytes) -> Any:
    """JSON as a client may send it: standard JSON only (``NaN`` and ``Infinity`` refused) nested at most
    :data:`MAX_DEPTH` deep, its strings Unicode text (:class:`NotTextError`); ``ValueError`` says what
    is wrong."""
    depth = deepest = 0
    quoted = escaped = False
    for char in raw.decode("utf-8", "replace") if isinstance(raw, bytes) else raw:
        if quoted:
            quoted = escaped or char != '"'
            escaped = not escaped and char == "\\"
        elif char == '"':
            quoted = True
        elif char in "[{":
            depth += 1
            deepest = max(deepest, depth)
            if deepest > MAX_DEPTH:
                raise ValueError(f"nested more than {MAX_DEPTH} deep")
        elif char in "]}":
            depth -= 1

    def refuse(constant: str) -> Any:
        raise ValueError(f"{constant} is not a JSON number")

    value = json.loads(raw, parse_constant=refuse)
    check_text(value)
    return value


def parse_message(raw: str | bytes, limit: int) -> dict[str, Any]:
    """A client message: a JSON object with a string ``type``, at most ``limit`` bytes."""
    size = len(raw.encode("utf-8", "surrogatepass") if isinstance(raw, str) else raw)
    if size > limit:
        raise ProtocolError("bad_message", f"message too large: {size} bytes, the limit is {limit}")
    try:
        value = strict_json(raw)
    except NotTextError as error:
        raise ProtocolError("bad_message", str(error)) from None
    except (ValueError, UnicodeDecodeError) as error:
        raise ProtocolError("bad_message", f"not valid JSON: {error}") from None
    if not isinstance(value, dict) or not isinstance(value.get("type"), str):
        raise ProtocolError("bad_message", 'a message is a JSON object with a string "type"')
    return value


# --- client messages, one frozen dataclass per kind (docs/protocol.md, "Client → server") ------------

CHAT_PHRASES: Final = (
    "hello",
    "nice",
    "thanks",
    "sorry",
    "hurry",
    "wow",
    "oops",
    "again",
    "gg",
    "smile",
    "thumbs",
    "think",
)
"""The quick chat's phrases and emotes by id (the pages word them): no free text, nothing to moderate."""


@dataclass(frozen=True)
class Join:
    """Take the token's seat (``None``: watch) and get the events after number ``since``."""

    KIND: ClassVar[str] = "join"
    token: str | None
    since: int


@dataclass(frozen=True)
class Act:
    """Take an action: ``action`` as the client sent it, read by the table, whose game and level say
    what it means (:func:`read_action`, Shengji's ``read_shengji_action``)."""

    KIND: ClassVar[str] = "act"
    action: object


@dataclass(frozen=True)
class Check:
    """Whether ``act`` would take ``action`` now; ``id`` is echoed in the ``checked`` answer. The
    action's own faults are that answer's, not an ``error``."""

    KIND: ClassVar[str] = "check"
    action: object
    ident: int | str | None = None


@dataclass(frozen=True)
class Legal:
    """Every legal action of the seat now."""

    KIND: ClassVar[str] = "legal"


@dataclass(frozen=True)
class Choose:
    """The answer to an open choice: ``skip`` (a bool) to a ``skip_turn`` one (违例), ``leader`` (a seat)
    to a ``leader`` one (犯规)."""

    KIND: ClassVar[str] = "choose"
    kind: ChoiceKind
    value: bool | int


@dataclass(frozen=True)
class Resume:
    """Leave 托管."""

    KIND: ClassVar[str] = "resume"


@dataclass(frozen=True)
class Auto:
    """Turn 托管 on or off."""

    KIND: ClassVar[str] = "auto"
    on: bool


@dataclass(frozen=True)
class Chat:
    """A quick chat phrase, by its id (:data:`CHAT_PHRASES`)."""

    KIND: ClassVar[str] = "chat"
    phrase: str


@dataclass(frozen=True)
class Hint:
    """What the heuristic bot would do for the seat now."""

    KIND: ClassVar[str] = "hint"


@dataclass(frozen=True)
class Ping:
    """Answered by ``pong``."""

    KIND: ClassVar[str] = "ping"


ClientMessage = Join | Act | Check | Legal | Choose | Resume | Auto | Chat | Hint | Ping
"""Any client message, read by :func:`read_message`."""


def _read_join(value: Mapping[str, Any]) -> Join:
    token = value.get("token")
    if token is not None and not isinstance(token, str):
        raise ProtocolError("bad_message", f"join.token: a string or null, got {token!r}")
    since = value.get("since", 0)
    if isinstance(since, bool) or not isinstance(since, int) or since < 0:
        raise ProtocolError(
            "bad_message", f"join.since: the last event number seen, 0 or more, got {since!r}"
        )
    return Join(token, since)


def _read_act(value: Mapping[str, Any]) -> Act:
    if "action" not in value:
        raise ProtocolError("bad_message", 'act: the message has no "action"')
    return Act(value["action"])


def _read_check(value: Mapping[str, Any]) -> Check:
    ident = value.get("id")
    if not (ident is None or (isinstance(ident, int | str) and not isinstance(ident, bool))) or (
        isinstance(ident, str) and len(ident) > 64
    ):
        raise ProtocolError("bad_message", f"check.id: a number or a string of 64 characters, got {ident!r}")
    return Check(value.get("action"), ident)


def read_choose(value: Mapping[str, Any]) -> Choose:
    """A ``choose`` message: ``{"type": "choose", "skip": true|false}`` answers a skip choice,
    ``{"type": "choose", "leader": 0-3}`` a leader choice; anything else is ``bad_message``."""
    fields = set(value) - {"type"}
    if fields == {"skip"}:
        skip = value["skip"]
        if not isinstance(skip, bool):
            raise ProtocolError("bad_message", f"choose.skip: true or false, got {skip!r}")
        return Choose("skip_turn", skip)
    if fields == {"leader"}:
        leader = value["leader"]
        if isinstance(leader, bool) or not isinstance(leader, int) or leader not in range(4):
            raise ProtocolError("bad_message", f"choose.leader: a seat 0 to 3, got {leader!r}")
        return Choose("leader", leader)
    raise ProtocolError(
        "bad_message",
        'choose: send exactly one of "skip" (true or false) and "leader" (a seat 0 to 3), '
        f"got fields {sorted(map(str, fields))}",
    )


def _read_auto(value: Mapping[str, Any]) -> Auto:
    on = value.get("on")
    if not isinstance(on, bool):
        raise ProtocolError("bad_message", f"auto.on: true (托管 on) or false (off), got {on!r}")
    return Auto(on)


def _read_chat(value: Mapping[str, Any]) -> Chat:
    phrase = value.get("phrase")
    if not isinstance(phrase, str) or phrase not in CHAT_PHRASES:
        raise ProtocolError(
            "bad_message", f"chat.phrase: one of {', '.join(CHAT_PHRASES)}, got {str(phrase)[:40]!r}"
        )
    return Chat(phrase)


_MESSAGE_READERS: Final[Mapping[str, Callable[[Mapping[str, Any]], ClientMessage]]] = {
    "join": _read_join,
    "act": _read_act,
    "check": _read_check,
    "legal": lambda _value: Legal(),
    "choose": read_choose,
    "resume": lambda _value: Resume(),
    "auto": _read_auto,
    "chat": _read_chat,
    "hint": lambda _value: Hint(),
    "ping": lambda _value: Ping(),
}

MESSAGE_TYPES: Final = tuple(_MESSAGE_READERS)
"""Every client message's ``type``."""


def read_message(value: Mapping[str, Any]) -> ClientMessage:
    """A client message (as :func:`parse_message` gives it) as its typed value; an unknown ``type`` or
    a malformed field is ``bad_message`` naming it. Fields a kind does not use are ignored."""
    kind = value.get("type")
    reader = _MESSAGE_READERS.get(kind) if isinstance(kind, str) else None
    if reader is None:
        raise ProtocolError(
            "bad_message", f"unknown message type {kind!r}; known: {', '.join(MESSAGE_TYPES)}"
        )
    return reader(value)


def server_message(kind: str, **fields: Any) -> dict[str, Any]:
    """A server message: ``{"type": kind, "v": 1, ...}``."""
    return {"type": kind, "v": PROTOCOL, **fields}
