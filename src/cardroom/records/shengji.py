"""The Shengji (升级) match record, version 1: its shape, the writer, random play and the replay.

A record is one JSON object (see ``docs/records.md``, "Shengji")::

    {"format": "cardroom-shengji-match", "version": 1, "rules": {...}, "seats": [4 names],
     "seed": null, "deals": [{"deck": "108 cards in dealing order", "first_drawer": 2,
     "actions": [{"seat": 2, "pass": true}, {"seat": 3, "declare": "H2"}, {"seat": 0, "bury": "..."},
     {"seat": 0, "play": "SA SA"}, ...]}], "result": {...}, "meta": {...}}

A deal is rebuilt exactly from its deck: card ``i`` < 100 goes to seat ``(first_drawer + i) % 4`` and the
last 8 are the kitty (:class:`cardroom.shengji.Deal`). Only the first deal names its first drawer (its
dealer comes from declaring); later deals the dealer, known from the match, draws first.

:func:`parse_shengji_record` checks the shape and notation (:class:`RecordError` names the JSON path);
:func:`replay_shengji` applies every action with the core's validator and reports the first illegal one
(:class:`~cardroom.records.replay.Violation`) or how the recorded ``result`` differs from the replay.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from itertools import islice
from pathlib import Path
from typing import Any, Final, Literal

from cardroom.cards import Card, NotationError, Rank, Suit, format_cards, format_in_order, parse_cards
from cardroom.records.files import dumps_record
from cardroom.records.jsonpaths import (
    RecordError,
    action_kind,
    check_header,
    check_keys,
    json_array,
    json_object,
    json_text,
    optional_fields,
    optional_int,
    optional_object,
    read_rules,
    seat_at,
    seat_names,
    two_decks_error,
)
from cardroom.records.replaying import MatchReplay, mismatches, replay_deals
from cardroom.records.writer import DEFAULT_SEATS
from cardroom.shengji import (
    SHENGJI,
    Action,
    Bury,
    Deal,
    DealSummary,
    Declare,
    Match,
    Pass,
    Phase,
    Play,
    ShengjiRuleError,
    ShengjiRules,
)
from cardroom.shengji.tricks import legal_follows

SHENGJI_FORMAT: Final = "cardroom-shengji-match"
SHENGJI_VERSION: Final = 1
DECK_SIZE: Final = 108

_TOP_REQUIRED: Final = ("format", "version", "rules", "seats", "deals")
_TOP_OPTIONAL: Final = ("seed", "result", "meta")
_ACTION_KINDS: Final = ("declare", "pass", "bury", "play")

ShengjiActionKind = Literal["declare", "pass", "bury", "play"]
_KINDS: Final[dict[str, ShengjiActionKind]] = {
    "declare": "declare",
    "pass": "pass",
    "bury": "bury",
    "play": "play",
}


# -- the shape -------------------------------------------------------------------------------------


@dataclass(frozen=True)
class ShengjiAction:
    """One action as the record holds it: ``declare`` (亮牌), ``pass``, ``bury`` (扣底) or ``play``, with its
    cards (none for a pass). Only the notation is checked here; the replay checks the rules."""

    seat: int
    kind: ShengjiActionKind
    cards: tuple[Card, ...] = ()

    def to_json(self) -> dict[str, Any]:
        if self.kind == "pass":
            return {"seat": self.seat, "pass": True}
        return {"seat": self.seat, self.kind: format_cards(self.cards)}

    def describe(self) -> str:
        """A short line: ``declare H2 H2``, ``pass``, ``bury …``, ``play SA SA``."""
        return "pass" if self.kind == "pass" else f"{self.kind} {format_cards(self.cards)}".rstrip()

    def engine_action(self) -> Action:
        if self.kind == "declare":
            return Declare(self.seat, self.cards)
        if self.kind == "pass":
            return Pass(self.seat)
        if self.kind == "bury":
            return Bury(self.seat, self.cards)
        return Play(self.seat, self.cards)

    @classmethod
    def of(cls, action: Action) -> ShengjiAction:
        """The record's form of an engine action."""
        if isinstance(action, Declare):
            return cls(action.seat, "declare", action.cards)
        if isinstance(action, Pass):
            return cls(action.seat, "pass")
        if isinstance(action, Bury):
            return cls(action.seat, "bury", action.cards)
        return cls(action.seat, "play", action.cards)


@dataclass(frozen=True)
class ShengjiDealRecord:
    """One deal: the 108 cards in dealing order, the first drawer (first deal only) and every action."""

    deck: tuple[Card, ...]
    first_drawer: int | None
    actions: tuple[ShengjiAction, ...]

    def to_json(self) -> dict[str, Any]:
        return {
            "deck": format_in_order(self.deck),
            "first_drawer": self.first_drawer,
            "actions": [action.to_json() for action in self.actions],
        }


@dataclass(frozen=True)
class ShengjiMatchRecord:
    """A whole Shengji record, read and checked for shape (not yet replayed)."""

    rules: ShengjiRules
    seats: tuple[str, str, str, str]
    seed: int | None
    deals: tuple[ShengjiDealRecord, ...]
    result: dict[str, Any] | None = None
    meta: dict[str, Any] | None = None

    def to_json(self) -> dict[str, Any]:
        record: dict[str, Any] = {
            "format": SHENGJI_FORMAT,
            "version": SHENGJI_VERSION,
            "rules": self.rules.to_dict(),
            "seats": list(self.seats),
            "seed": self.seed,
            "deals": [deal.to_json() for deal in self.deals],
        }
        return record | optional_fields(result=self.result, meta=self.meta)

    @property
    def action_count(self) -> int:
        return sum(len(deal.actions) for deal in self.deals)


# -- reading ---------------------------------------------------------------------------------------


def parse_shengji_record(raw: object) -> ShengjiMatchRecord:
    """Check a Shengji record's shape and notation and read it; :class:`RecordError` names the field."""
    top = json_object(raw, "", "the record")
    check_header(top, SHENGJI_FORMAT, SHENGJI_VERSION)
    check_keys(top, "", _TOP_REQUIRED, _TOP_OPTIONAL)
    rules = read_rules(top["rules"], ShengjiRules)
    seats = seat_names(top["seats"])
    seed = optional_int(top.get("seed"), "seed")
    deals = tuple(
        _deal(item, f"deals[{index}]", index) for index, item in enumerate(json_array(top["deals"], "deals"))
    )
    result = optional_object(top, "result", "the result")
    meta = optional_object(top, "meta", "meta")
    return ShengjiMatchRecord(rules, seats, seed, deals, result, meta)


def _deal(raw: object, path: str, index: int) -> ShengjiDealRecord:
    deal = json_object(raw, path, "a deal")
    check_keys(deal, path, ("deck", "actions"), ("first_drawer",))
    deck = _deck(deal["deck"], f"{path}.deck")
    first_drawer = deal.get("first_drawer")
    if index == 0:
        if first_drawer is None:
            raise RecordError(
                f"{path}.first_drawer", "missing: the first deal names the seat that draws the first card"
            )
        seat_at(first_drawer, f"{path}.first_drawer")
    elif first_drawer is not None:
        raise RecordError(
            f"{path}.first_drawer", "only the first deal names its first drawer; later the dealer draws first"
        )
    actions = json_array(deal["actions"], f"{path}.actions")
    return ShengjiDealRecord(
        deck,
        first_drawer,
        tuple(_action(item, f"{path}.actions[{number}]") for number, item in enumerate(actions)),
    )


def _deck(raw: object, path: str) -> tuple[Card, ...]:
    if not isinstance(raw, str):
        raise RecordError(path, f"the deck is one string of 108 cards in dealing order, got {json_text(raw)}")
    # In dealing order: parse_cards would sort them into print order.
    cards: list[Card] = []
    for number, token in enumerate(raw.split(), start=1):
        try:
            cards.append(Card.parse(token))
        except NotationError as error:
            raise RecordError(path, f"card {number} of the deck: {error}") from None
    deck = tuple(cards)
    if len(deck) != DECK_SIZE:
        raise RecordError(path, f"the deck has {len(deck)} cards; both decks are {DECK_SIZE}")
    wrong = two_decks_error(deck)
    if wrong:
        raise RecordError(path, f"the deck is not the 108 cards of two decks (each card twice): {wrong}")
    return deck


def parse_shengji_action(raw: object, path: str = "action") -> ShengjiAction:
    """One action in the record's shape (``{"seat": 0, "play": "SA SA"}``); a ``RecordError`` names
    what is wrong."""
    return _action(raw, path)


def _action(raw: object, path: str) -> ShengjiAction:
    action, seat, found = action_kind(raw, path, _ACTION_KINDS, '{"seat": 0, "play": "SA SA"}')
    kind = _KINDS[found]
    where, value = f"{path}.{kind}", action[kind]
    if kind == "pass":
        if value is not True:
            raise RecordError(where, f"a pass is written true, got {json_text(value)} (seat {seat})")
        return ShengjiAction(seat, "pass")
    if not isinstance(value, str):
        raise RecordError(
            where, f'the cards, one string (e.g. "H5 H5"), got {json_text(value)} (seat {seat})'
        )
    try:
        cards = parse_cards(value)
    except NotationError as error:
        raise RecordError(where, f"{error} (seat {seat})") from None
    return ShengjiAction(seat, kind, cards)


# -- writing ---------------------------------------------------------------------------------------


def shengji_record_of(
    match: Match,
    seats: Sequence[str] = DEFAULT_SEATS,
    *,
    seed: int | None = None,
    meta: dict[str, Any] | None = None,
    with_result: bool = True,
) -> dict[str, Any]:
    """The JSON record of a Shengji ``match`` as it stands (finished or not): each deal's deck, the first
    deal's first drawer and every action applied. ``seed`` is informational."""
    if len(seats) != 4:
        raise ValueError(f"four seat names, got {len(seats)}")
    deals = []
    for number, deal in enumerate(match.deals):
        if len(deal.deck) != DECK_SIZE:
            raise ValueError(f"deal {number} did not start from a deck (Deal.at_position): no record")
        actions = tuple(ShengjiAction.of(action) for action in deal.actions)
        deals.append(ShengjiDealRecord(deal.deck, deal.first_drawer if number == 0 else None, actions))
    record = ShengjiMatchRecord(
        rules=match.rules,
        seats=(seats[0], seats[1], seats[2], seats[3]),
        seed=seed,
        deals=tuple(deals),
        result=shengji_result_of(match) if with_result else None,
        meta=meta,
    )
    return record.to_json()


def shengji_result_of(match: Match) -> dict[str, Any]:
    """The match's result as the record's ``result`` holds it (see ``docs/records.md``)."""
    return {
        "finished": match.is_over,
        "winner": match.winner,
        "levels": [level.letter for level in match.levels],
        "deals": [deal_result_json(summary) for summary in match.summaries],
    }


def deal_result_json(summary: DealSummary) -> dict[str, Any]:
    """A finished deal's result as the record (and a card room's ``deal_end``) holds it."""
    result = summary.result
    return {
        "level": summary.level.letter,
        "dealer": summary.dealer,
        "trump": None if result.trump is None else result.trump.letter,
        "attackers_card_points": result.attackers_card_points,
        "dealers_card_points": result.dealers_card_points,
        "kitty_points": result.kitty_points,
        "kitty_multiplier": result.kitty_multiplier,
        "penalty": result.penalty,
        "score": result.score,
        "take_over": summary.outcome.attackers_take_over,
        "rise": summary.outcome.rise,
        "levels_after": [level.letter for level in summary.levels_after],
        "next_dealer": summary.next_dealer,
        "reset": summary.reset,
        "passed_top": summary.passed_top,
    }


def write_shengji_record(path: str | Path, record: dict[str, Any]) -> None:
    """Write a Shengji record file; its shape is checked first, so no broken record is written."""
    parse_shengji_record(record)
    Path(path).write_text(dumps_record(record), encoding="utf-8")


# -- random play -----------------------------------------------------------------------------------

FOLLOW_LIST_LIMIT: Final = 256
"""Follows listed outright when there are at most this many; more are drawn by rejection."""
FOLLOW_TRIES: Final = 2000
"""Rejection draws for a follow before listing every legal follow instead."""


def random_action(deal: Deal, rng: random.Random) -> Action:
    """A legal action of the seat to act, uniform over ``deal.legal_actions()`` without listing a bury or
    a lead (their counts are huge):

    - declaring: the few options (pass and each declaration) are listed;
    - burying: every 8 of the dealer's 33 cards is legal; one multiset is drawn uniformly by counting
      the sub-multisets (two decks: a card may be held twice, and each distinct choice counts once);
    - leading: every non-empty multiset of one effective suit is legal (a throw that fails is still a
      legal attempt); the suit and size are drawn by their counts, then the multiset;
    - following: up to 256 legal follows are listed; with more, a multiset of the lead's size is drawn
      uniformly from the cards a follow must use (all of the led suit and any others when the suit is
      short, else only the suit) and kept if ``deal.can`` accepts it — uniform over the legal follows,
      which are a subset of those draws; after 2000 refusals every follow is listed.
    """
    seat = deal.current_player
    if seat is None:
        raise ValueError("nobody is to act: the deal is over")
    hand = deal.hands[seat]
    if deal.phase is Phase.DECLARE:
        return rng.choice(list(deal.legal_actions()))
    if deal.phase is Phase.KITTY:
        return Bury(seat, _draw_multiset(_items(hand), 8, rng))
    rules = deal.trick_rules
    assert rules is not None
    lead = deal.lead
    if lead is None:
        suits: dict[int, list[tuple[Card, int]]] = {}
        for card, count in sorted(hand.items()):
            if count:
                suits.setdefault(rules.suit_of(card), []).append((card, count))
        choices = [
            (items, size, weight)
            for items in suits.values()
            for size, weight in enumerate(_count_multisets(items)[0])
            if size
        ]
        pick = rng.randrange(sum(weight for _, _, weight in choices))
        for items, size, weight in choices:
            if pick < weight:
                action = Play(seat, _draw_multiset(items, size, rng))
                deal.verify(action)
                return action
            pick -= weight
        raise AssertionError("unreachable")
    held = tuple(hand.elements())
    listed = list(islice(legal_follows(held, lead, rules), FOLLOW_LIST_LIMIT + 1))
    if len(listed) <= FOLLOW_LIST_LIMIT:
        return Play(seat, rng.choice(listed))
    in_suit = [card for card in held if rules.suit_of(card) is lead.suit]
    if len(in_suit) <= lead.size:
        rest = _items(Counter(card for card in held if rules.suit_of(card) is not lead.suit))
        for _ in range(FOLLOW_TRIES):
            action = Play(seat, (*in_suit, *_draw_multiset(rest, lead.size - len(in_suit), rng)))
            if deal.can(action):
                return action
    else:
        suit_items = _items(Counter(in_suit))
        for _ in range(FOLLOW_TRIES):
            action = Play(seat, _draw_multiset(suit_items, lead.size, rng))
            if deal.can(action):
                return action
    return Play(seat, rng.choice(list(legal_follows(held, lead, rules))))


def _items(hand: Mapping[Card, int]) -> list[tuple[Card, int]]:
    return sorted((card, count) for card, count in hand.items() if count > 0)


def _count_multisets(items: Sequence[tuple[Card, int]]) -> list[list[int]]:
    """``ways[i][k]``: the distinct multisets of ``k`` cards from ``items[i:]``."""
    total = sum(count for _, count in items)
    ways = [[0] * (total + 1) for _ in range(len(items) + 1)]
    ways[len(items)][0] = 1
    for index in range(len(items) - 1, -1, -1):
        count = items[index][1]
        for size in range(total + 1):
            ways[index][size] = sum(ways[index + 1][size - take] for take in range(min(count, size) + 1))
    return ways


def _draw_multiset(items: Sequence[tuple[Card, int]], size: int, rng: random.Random) -> tuple[Card, ...]:
    """One multiset of ``size`` cards from ``items``, uniform over the distinct ones."""
    ways = _count_multisets(items)
    if size > len(ways[0]) - 1 or ways[0][size] == 0:
        raise ValueError(f"cannot draw {size} cards from {sum(count for _, count in items)}")
    chosen: list[Card] = []
    left = size
    for index, (card, count) in enumerate(items):
        pick = rng.randrange(ways[index][left])
        for take in range(min(count, left) + 1):
            weight = ways[index + 1][left - take]
            if pick < weight:
                chosen += [card] * take
                left -= take
                break
            pick -= weight
    assert left == 0
    return tuple(chosen)


def random_shengji_match(
    rng: random.Random, rules: ShengjiRules = SHENGJI, *, max_deals: int | None = None
) -> Match:
    """Play a match with uniformly random legal actions (:func:`random_action`) until a team passes the
    top level, or stop after ``max_deals`` deals (an unfinished match)."""
    match = Match(rules)
    while not match.is_over and (max_deals is None or len(match.deals) < max_deals):
        deal = match.deal_random(rng)
        while match.current_deal is not None:
            match.apply(random_action(deal, rng))
    return match


def play_random_shengji(
    seed: int,
    *,
    max_deals: int | None = None,
    rules: ShengjiRules = SHENGJI,
    seats: Sequence[str] = DEFAULT_SEATS,
) -> dict[str, Any]:
    """The record of a random Shengji match played with ``random.Random(seed)`` (``max_deals``: stop
    after that many deals)."""
    match = random_shengji_match(random.Random(seed), rules, max_deals=max_deals)
    return shengji_record_of(match, seats, seed=seed)


# -- replaying -------------------------------------------------------------------------------------


@dataclass(frozen=True)
class ShengjiDealReport:
    """One finished deal: its index, the match's summary of it (level, dealer, result, outcome, levels
    after, next dealer, J reset, passed the top) and how many actions it took."""

    index: int
    summary: DealSummary
    actions: int

    @property
    def trump(self) -> Suit | None:
        return self.summary.result.trump

    @property
    def level(self) -> Rank:
        return self.summary.level


@dataclass(frozen=True)
class ShengjiReplayReport(MatchReplay[ShengjiMatchRecord, ShengjiDealReport, Match]):
    """What the replay of a Shengji record found (:class:`~cardroom.records.replaying.MatchReplay`)."""


def replay_shengji(raw: object) -> ShengjiReplayReport:
    """Replay a Shengji record (the JSON value, or a :class:`ShengjiMatchRecord`).

    Raises :class:`RecordError` for a broken record, including deals that cannot follow each other."""
    record = raw if isinstance(raw, ShengjiMatchRecord) else parse_shengji_record(raw)
    match = Match(record.rules)

    def start(deal: ShengjiDealRecord) -> None:
        match.deal(deal.deck, deal.first_drawer)

    def apply(recorded: ShengjiAction) -> None:
        match.apply(recorded.engine_action())

    overall, violation = replay_deals(
        match, record.deals, start, lambda deal: deal.actions, apply, ShengjiRuleError
    )
    result = shengji_result_of(match)
    found = mismatches(record.result, result, violation)
    reports = tuple(
        ShengjiDealReport(index, summary, len(deal.actions))
        for index, (deal, summary) in enumerate(zip(match.deals, match.summaries, strict=False))
    )
    return ShengjiReplayReport(record, reports, overall, violation, result, found, match)


__all__ = [
    "SHENGJI_FORMAT",
    "SHENGJI_VERSION",
    "ShengjiAction",
    "ShengjiDealRecord",
    "ShengjiDealReport",
    "ShengjiMatchRecord",
    "ShengjiReplayReport",
    "deal_result_json",
    "parse_shengji_action",
    "parse_shengji_record",
    "play_random_shengji",
    "random_action",
    "random_shengji_match",
    "replay_shengji",
    "shengji_record_of",
    "shengji_result_of",
    "write_shengji_record",
]
