"""The match record format, version 1: its shape, and reading it into typed values.

A record is one JSON object (see ``docs/records.md``)::

    {"format": "cardroom-guandan-match", "version": 1, "rules": {...}, "seats": [4 names],
     "max_deals": null, "seed": null, "deals": [{"hands": [4 strings], "leader": 0,
     "turned_card": "S7", "actions": [{"seat": 0, "play": ["Single", "T", ["HT"]]}, ...]}],
     "forfeit": {"side": 1, "reason": "..."}, "result": {...}, "meta": {...}}

The referee's rulings are actions too (``{"seat": 2, "ruling": "foul"}``); the deal after a foul names
its leader; ``forfeit`` (判负) ends the match after the last action.

:func:`parse_record` checks everything that can be checked without playing (the shape, the card
notation, the 108 cards of each deal, the rule-set parameters) and raises :class:`RecordError` naming
the path of the bad field (``deals[1].hands[2]``). Whether each action is *legal* is the replay's job.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Final, Literal

from cardroom.cards import Card, NotationError, Rank, format_cards, parse_cards
from cardroom.guandan.ruleset import RuleSet
from cardroom.guandan.rulings import DealRuling, ForfeitRuling, FoulRuling, SkipTurnRuling
from cardroom.guandan.triple import KINDS_BY_TYPE
from cardroom.records.jsonpaths import RecordError as RecordError
from cardroom.records.jsonpaths import (
    action_kind,
    check_header,
    optional_fields,
    optional_object,
    read_rules,
    seat_at,
)
from cardroom.records.jsonpaths import card_at as _card
from cardroom.records.jsonpaths import check_keys as _check_keys
from cardroom.records.jsonpaths import is_int as _is_int
from cardroom.records.jsonpaths import json_array as _array
from cardroom.records.jsonpaths import json_object as _object
from cardroom.records.jsonpaths import json_text as _json
from cardroom.records.jsonpaths import optional_int as _optional_int
from cardroom.records.jsonpaths import seat_names as _seat_names
from cardroom.records.jsonpaths import two_decks_error as _two_decks_error

FORMAT: Final = "cardroom-guandan-match"
VERSION: Final = 1
HAND_SIZE: Final = 27
PASS_TRIPLE: Final = ("PASS", "PASS", "PASS")

_TOP_REQUIRED: Final = ("format", "version", "rules", "seats", "deals")
_TOP_OPTIONAL: Final = ("max_deals", "seed", "forfeit", "result", "meta")
_DEAL_KEYS: Final = ("hands", "leader", "turned_card", "actions")
_ACTION_KINDS: Final = ("tribute", "return", "play", "ruling")
RULINGS: Final[dict[str, type[SkipTurnRuling] | type[FoulRuling]]] = {
    "skip_turn": SkipTurnRuling,
    "foul": FoulRuling,
}
"""The rulings an action may name (违例: a skipped turn; 犯规: a foul)."""

ActionKind = Literal["tribute", "return", "play", "ruling"]
_KINDS: Final[dict[str, ActionKind]] = {
    "tribute": "tribute",
    "return": "return",
    "play": "play",
    "ruling": "ruling",
}


@dataclass(frozen=True)
class RecordedAction:
    """One action as the record holds it: a tribute or return card, a play as a competition triple, or
    a referee's ruling by name (``skip_turn``, ``foul``; ``seat`` the offender).

    The triple is only checked for shape and notation here; which play it names depends on the deal's
    level, so the replay reads it (:func:`cardroom.guandan.triple.from_triple`).
    """

    seat: int
    kind: ActionKind
    card: Card | None = None
    triple: tuple[str, str, tuple[str, ...]] | None = None
    ruling: str | None = None

    def to_json(self) -> dict[str, Any]:
        """The JSON object of this action."""
        if self.kind == "ruling":
            return {"seat": self.seat, "ruling": self.ruling}
        if self.kind == "play":
            assert self.triple is not None
            type_name, rank, cards = self.triple
            if type_name == "PASS":
                return {"seat": self.seat, "play": list(PASS_TRIPLE)}
            return {"seat": self.seat, "play": [type_name, rank, list(cards)]}
        assert self.card is not None
        return {"seat": self.seat, self.kind: str(self.card)}

    def describe(self) -> str:
        """A short line: ``tribute HA``, ``return S3``, ``play Single T [HT]``, ``pass``, ``ruling foul``."""
        if self.kind == "ruling":
            return f"ruling {self.ruling}"
        if self.kind != "play":
            return f"{self.kind} {self.card}"
        assert self.triple is not None
        type_name, rank, cards = self.triple
        return "pass" if type_name == "PASS" else f"play {type_name} {rank} [{' '.join(cards)}]"

    def engine_ruling(self) -> DealRuling:
        """The engine's ruling of a ``ruling`` action."""
        assert self.ruling is not None
        return RULINGS[self.ruling](self.seat)

    @property
    def is_foul(self) -> bool:
        return self.kind == "ruling" and self.ruling == "foul"


@dataclass(frozen=True)
class DealRecord:
    """One deal: the four dealt hands (before tribute), the leader of the first deal (with its turned
    card) or of a deal after a foul, and every action in order."""

    hands: tuple[tuple[Card, ...], tuple[Card, ...], tuple[Card, ...], tuple[Card, ...]]
    leader: int | None
    turned_card: Card | None
    actions: tuple[RecordedAction, ...]

    def to_json(self) -> dict[str, Any]:
        return {
            "hands": [format_cards(hand) for hand in self.hands],
            "leader": self.leader,
            "turned_card": str(self.turned_card) if self.turned_card is not None else None,
            "actions": [action.to_json() for action in self.actions],
        }


@dataclass(frozen=True)
class MatchRecord:
    """A whole record, read and checked for shape (not yet replayed)."""

    rules: RuleSet
    seats: tuple[str, str, str, str]
    max_deals: int | None
    seed: int | None
    deals: tuple[DealRecord, ...]
    result: dict[str, Any] | None = None
    meta: dict[str, Any] | None = None
    forfeit: ForfeitRuling | None = None

    def to_json(self) -> dict[str, Any]:
        """The record as JSON-ready values (``forfeit``, ``result`` and ``meta`` only when present)."""
        record: dict[str, Any] = {
            "format": FORMAT,
            "version": VERSION,
            "rules": self.rules.to_dict(),
            "seats": list(self.seats),
            "max_deals": self.max_deals,
            "seed": self.seed,
            "deals": [deal.to_json() for deal in self.deals],
        }
        if self.forfeit is not None:
            record["forfeit"] = {"side": self.forfeit.side, "reason": self.forfeit.reason}
        return record | optional_fields(result=self.result, meta=self.meta)

    @property
    def action_count(self) -> int:
        return sum(len(deal.actions) for deal in self.deals)


# -- reading ---------------------------------------------------------------------------------------


def parse_record(raw: object) -> MatchRecord:
    """Check a record's shape and notation and read it; :class:`RecordError` names the bad field."""
    top = _object(raw, "", "the record")
    check_header(top, FORMAT, VERSION)
    _check_keys(top, "", _TOP_REQUIRED, _TOP_OPTIONAL)
    rules = read_rules(top["rules"], RuleSet)
    seats = _seat_names(top["seats"])
    max_deals = _optional_int(top.get("max_deals"), "max_deals", minimum=1)
    seed = _optional_int(top.get("seed"), "seed")
    deals_field = _array(top["deals"], "deals")
    deals: list[DealRecord] = []
    for index, item in enumerate(deals_field):
        after_foul = bool(deals) and any(action.is_foul for action in deals[-1].actions)
        deals.append(_deal(item, f"deals[{index}]", index, after_foul))
    forfeit = _forfeit(top.get("forfeit"))
    result = optional_object(top, "result", "the result")
    meta = optional_object(top, "meta", "meta")
    return MatchRecord(rules, seats, max_deals, seed, tuple(deals), result, meta, forfeit)


def _forfeit(raw: object) -> ForfeitRuling | None:
    """判负: ``{"side": 0 or 1, "reason": text}`` (the reason optional)."""
    if raw is None:
        return None
    forfeit = _object(raw, "forfeit", 'the forfeit ({"side": 1, "reason": "..."})')
    _check_keys(forfeit, "forfeit", ("side",), ("reason",))
    side = forfeit["side"]
    if not _is_int(side) or side not in (0, 1):
        raise RecordError("forfeit.side", f"the side that forfeits, 0 or 1, got {_json(side)}")
    reason = forfeit.get("reason", "")
    if not isinstance(reason, str):
        raise RecordError("forfeit.reason", f"a string, got {_json(reason)}")
    return ForfeitRuling(side, reason)


def _deal(raw: object, path: str, index: int, after_foul: bool) -> DealRecord:
    deal = _object(raw, path, "a deal")
    _check_keys(deal, path, ("hands", "actions"), ("leader", "turned_card"))
    hands = _hands(deal["hands"], f"{path}.hands")
    leader = deal.get("leader")
    turned_raw = deal.get("turned_card")
    if index == 0:
        if leader is None:
            raise RecordError(
                f"{path}.leader",
                "missing: the first deal names its leader (the seat holding the turned card)",
            )
        seat_at(leader, f"{path}.leader")
    elif after_foul:
        if leader is None:
            raise RecordError(
                f"{path}.leader",
                f"missing: the deal after a foul (犯规 in deals[{index - 1}]) has no tribute and names its "
                "first leader (下副牌不进贡，由违规者的下家或裁判长指定首圈领出者)",
            )
        seat_at(leader, f"{path}.leader")
    elif leader is not None:
        raise RecordError(
            f"{path}.leader",
            "only the first deal names a leader (and a deal after a foul); later deals start with tribute",
        )
    turned: Card | None = None
    if turned_raw is not None:
        if index != 0:
            raise RecordError(f"{path}.turned_card", "only the first deal turns a card")
        if not isinstance(turned_raw, str):
            raise RecordError(f"{path}.turned_card", f"a card, got {_json(turned_raw)}")
        turned = _card(turned_raw, f"{path}.turned_card")
        assert isinstance(leader, int)
        if turned not in hands[leader]:
            raise RecordError(
                f"{path}.turned_card",
                f"{turned} is not in the leader's hand (seat {leader}): the leader holds it",
            )
    actions_field = _array(deal["actions"], f"{path}.actions")
    actions = tuple(_action(item, f"{path}.actions[{number}]") for number, item in enumerate(actions_field))
    return DealRecord(hands, leader, turned, actions)


def _hands(
    raw: object, path: str
) -> tuple[tuple[Card, ...], tuple[Card, ...], tuple[Card, ...], tuple[Card, ...]]:
    items = _array(raw, path)
    if len(items) != 4:
        raise RecordError(path, f"four hands (one string of cards per seat), got {len(items)}")
    hands: list[tuple[Card, ...]] = []
    for seat, text in enumerate(items):
        where = f"{path}[{seat}]"
        if not isinstance(text, str):
            raise RecordError(where, f"seat {seat}'s hand is one string of cards, got {_json(text)}")
        try:
            hand = parse_cards(text)
        except NotationError as error:
            raise RecordError(where, f"seat {seat}'s hand: {error}") from None
        if len(hand) != HAND_SIZE:
            raise RecordError(where, f"seat {seat}'s hand has {len(hand)} cards; a hand has {HAND_SIZE}")
        hands.append(hand)
    wrong = _two_decks_error(card for hand in hands for card in hand)
    if wrong:
        raise RecordError(path, f"the hands are not the 108 cards of two decks (each card twice): {wrong}")
    return (hands[0], hands[1], hands[2], hands[3])


def _action(raw: object, path: str) -> RecordedAction:
    action, seat, found = action_kind(raw, path, _ACTION_KINDS, '{"seat": 0, "play": [type, rank, cards]}')
    kind = _KINDS[found]
    where = f"{path}.{kind}"
    value = action[kind]
    if kind == "ruling":
        if not isinstance(value, str) or value not in RULINGS:
            known = ", ".join(RULINGS)
            raise RecordError(where, f"unknown ruling {_json(value)}; known: {known} (seat {seat})")
        return RecordedAction(seat, "ruling", ruling=value)
    if kind != "play":
        if not isinstance(value, str):
            raise RecordError(where, f"one card, got {_json(value)} (seat {seat})")
        return RecordedAction(seat, kind, card=_card(value, where, seat))
    return RecordedAction(seat, "play", triple=_triple(value, where, seat))


def _triple(raw: object, path: str, seat: int) -> tuple[str, str, tuple[str, ...]]:
    if not isinstance(raw, list) or len(raw) != 3:
        raise RecordError(path, f"a play is the triple [type, rank, cards], got {_json(raw)} (seat {seat})")
    type_name, rank, cards = raw
    if type_name == "PASS":
        if rank != "PASS" or cards != "PASS":
            raise RecordError(path, f'a pass is ["PASS", "PASS", "PASS"], got {_json(raw)} (seat {seat})')
        return PASS_TRIPLE[0], PASS_TRIPLE[1], ()
    if not isinstance(type_name, str) or type_name not in KINDS_BY_TYPE:
        known = ", ".join(KINDS_BY_TYPE)
        raise RecordError(f"{path}[0]", f"unknown play type {_json(type_name)}; known: {known} (seat {seat})")
    if not isinstance(rank, str):
        raise RecordError(f"{path}[1]", f"a rank letter, got {_json(rank)} (seat {seat})")
    try:
        Rank.from_letter(rank)
    except NotationError as error:
        raise RecordError(f"{path}[1]", f"{error} (seat {seat})") from None
    if not isinstance(cards, list) or not cards:
        raise RecordError(
            f"{path}[2]", f"the cards played, a list of card names, got {_json(cards)} (seat {seat})"
        )
    for number, name in enumerate(cards):
        if not isinstance(name, str):
            raise RecordError(f"{path}[2][{number}]", f"a card name, got {_json(name)} (seat {seat})")
        _card(name, f"{path}[2][{number}]", seat)
    return type_name, rank, tuple(cards)
