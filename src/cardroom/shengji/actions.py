"""What a Shengji deal is made of, shared by the deal and a seat's observation: its phases, the actions of
each phase, the events of its log, and a seat's legal actions from what that seat knows (its hand and
the public state) — the phase machine itself is :class:`cardroom.shengji.deal.Deal`."""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from enum import Enum

from cardroom.cards import Card, Rank, Suit, sort_cards
from cardroom.shengji.declare import Declaration, declaration_options
from cardroom.shengji.order import TrickRules
from cardroom.shengji.ruleset import ShengjiRules
from cardroom.shengji.tricks import Lead, legal_follows

SEATS = 4
HAND_SIZE = 25
"""The cards dealt to each seat."""
KITTY_SIZE = 8
"""The kitty's cards (底牌), which the dealer takes and buries."""
DEALT = SEATS * HAND_SIZE


class Phase(Enum):
    """The phases of a deal."""

    DECLARE = "declare"
    KITTY = "kitty"
    TRICKS = "tricks"
    OVER = "over"


@dataclass(frozen=True)
class Declare:
    """亮牌: ``seat`` shows ``cards`` (one level card, a pair of one, or a pair of jokers)."""

    seat: int
    cards: tuple[Card, ...]

    def __post_init__(self) -> None:
        object.__setattr__(self, "cards", sort_cards(self.cards))


@dataclass(frozen=True)
class Pass:
    """``seat`` does not declare now; the dealing goes on."""

    seat: int


@dataclass(frozen=True)
class Bury:
    """扣底: the dealer lays ``cards`` (eight) face down as the kitty."""

    seat: int
    cards: tuple[Card, ...]

    def __post_init__(self) -> None:
        object.__setattr__(self, "cards", sort_cards(self.cards))


@dataclass(frozen=True)
class Play:
    """``seat`` plays ``cards``: a lead (a throw, 甩牌, if several units) or a follow."""

    seat: int
    cards: tuple[Card, ...]

    def __post_init__(self) -> None:
        object.__setattr__(self, "cards", sort_cards(self.cards))


Action = Declare | Pass | Bury | Play


@dataclass(frozen=True)
class Event:
    """One entry of the deal's log; ``private_to`` names the seats that may see it (``None``: all).

    Kinds: ``draw`` (a card dealt, seen by its receiver); ``declare``; ``pass``; ``kitty_turned`` (nobody
    declared: the kitty's first card, ``suit`` the trump or ``None``); ``trump`` (declaring is over:
    ``seat`` the dealer, ``suit`` the trump, ``None`` for no trump); ``kitty`` (the dealer takes the
    kitty, seen by the dealer); ``bury`` (seen by the dealer); ``throw_failed`` (``cards`` the attempted
    throw, ``points`` the penalty; the forced ``play`` follows); ``play``; ``trick`` (``seat`` the winner,
    ``points`` in the trick); ``kitty_revealed`` (the buried cards at the end, ``points`` the kitty's
    points the attackers add); ``over`` (``points`` the attackers' score)."""

    kind: str
    seat: int | None = None
    cards: tuple[Card, ...] = ()
    suit: Suit | None = None
    points: int | None = None
    private_to: tuple[int, ...] | None = None

    def visible_to(self, seat: int) -> bool:
        return self.private_to is None or seat in self.private_to


def legal_actions_of(
    seat: int,
    phase: Phase,
    hand: Mapping[Card, int],
    level: Rank,
    declaration: Declaration | None,
    trick_rules: TrickRules | None,
    lead: Lead | None,
    rules: ShengjiRules,
) -> Iterator[Action]:
    """The legal actions of ``seat`` to act, from what that seat knows: its hand and the public state."""
    if phase is Phase.DECLARE:
        yield Pass(seat)
        for option in declaration_options(seat, hand, level, declaration, rules):
            yield Declare(seat, option.cards)
    elif phase is Phase.KITTY:
        items = sorted((card, count) for card, count in hand.items() if count > 0)
        for cards in sub_multisets(items, KITTY_SIZE):
            yield Bury(seat, cards)
    elif phase is Phase.TRICKS:
        assert trick_rules is not None
        held = [card for card, count in hand.items() for _ in range(count)]
        if lead is not None:
            for cards in legal_follows(held, lead, trick_rules):
                yield Play(seat, cards)
            return
        yield from (Play(seat, cards) for cards in legal_leads(hand, trick_rules))


def legal_leads(hand: Mapping[Card, int], rules: TrickRules) -> Iterator[tuple[Card, ...]]:
    """Every lead: each distinct set of cards of one effective suit, by size (singles first); sets of
    several units are throws (甩牌), whose outcome depends on the other hands."""
    by_suit: dict[int, list[tuple[Card, int]]] = {}
    for card, count in sorted(hand.items(), key=lambda item: rules.sort_key(item[0])):
        if count > 0:
            by_suit.setdefault(rules.suit_of(card), []).append((card, count))
    largest = max((sum(count for _, count in items) for items in by_suit.values()), default=0)
    for size in range(1, largest + 1):
        for items in by_suit.values():
            yield from sub_multisets(items, size)


def sub_multisets(items: Sequence[tuple[Card, int]], size: int) -> Iterator[tuple[Card, ...]]:
    """Each distinct sub-multiset of ``size`` cards of (card, count) ``items``, once, in print order."""
    remaining = [0] * (len(items) + 1)
    for index in range(len(items) - 1, -1, -1):
        remaining[index] = remaining[index + 1] + items[index][1]
    chosen: list[Card] = []

    def walk(index: int, left: int) -> Iterator[tuple[Card, ...]]:
        if left == 0:
            yield sort_cards(chosen)
            return
        if remaining[index] < left:
            return
        card, count = items[index]
        for take in range(min(count, left), -1, -1):
            chosen.extend([card] * take)
            yield from walk(index + 1, left - take)
            del chosen[len(chosen) - take :]

    return walk(0, size)


__all__ = [
    "DEALT",
    "HAND_SIZE",
    "KITTY_SIZE",
    "SEATS",
    "Action",
    "Bury",
    "Declare",
    "Event",
    "Pass",
    "Phase",
    "Play",
    "legal_actions_of",
    "legal_leads",
    "sub_multisets",
]
