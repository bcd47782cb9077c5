"""A hand prepared for the combination engines: natural cards by rank and the wild cards (逢人配), at one
level under one rule set (:class:`HandView`), with the helpers both engines share.

The competition's enumerators are in :mod:`cardroom.guandan.combinations`, the extended rule sets' in
:mod:`cardroom.guandan.extended`; :mod:`cardroom.guandan.readings` chooses between them. Imports flow
one way: this module, then the two engines, then the readings.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from functools import cache
from itertools import product
from typing import Final, Protocol

from cardroom.cards import ALL_CARDS, NATURAL_RANKS, Card, Rank, Suit, natural_index
from cardroom.guandan.plays import Play, rank_orders
from cardroom.guandan.ruleset import COMPETITION, RuleSet

_SUITS: Final = tuple(Suit)


class HandView:
    """A hand prepared for enumeration at one level.

    For each natural rank ``r`` (the ♥ level cards apart): ``distinct[r]`` are the different cards
    held, ``totals[r]`` how many, ``suit_masks[r]`` which suits (bit ``1 << suit``), and
    ``subsets[r][j]`` every distinct multiset of ``j`` of them as a tuple in print order. ``wilds`` is
    how many ♥ level cards (逢人配) the hand holds. ``big_wilds`` is how many big jokers may be played as
    wild cards (``rules.big_joker_wild``; 0 otherwise), ``orders`` the rule set's order of ranks
    (:func:`cardroom.guandan.plays.rank_orders`), and ``extended`` whether the rule set needs the
    enumerators of :mod:`cardroom.guandan.extended`.
    """

    __slots__ = (
        "big_jokers",
        "big_wilds",
        "distinct",
        "extended",
        "level",
        "orders",
        "rules",
        "small_jokers",
        "subsets",
        "suit_masks",
        "totals",
        "wild",
        "wilds",
    )

    def __init__(
        self, cards: Iterable[Card] | Mapping[Card, int], level: Rank, rules: RuleSet = COMPETITION
    ) -> None:
        check_level(level)
        counts = card_counts(cards)
        wild = ALL_CARDS[natural_index(level, Suit.HEARTS)]
        self.level = level
        self.rules = rules
        self.wild = wild
        self.wilds = counts[wild.index]
        counts[wild.index] = 0
        self.small_jokers = counts[0]
        self.big_jokers = counts[1]
        if rules is not COMPETITION and rules.extended_plays:
            self.extended = True
            self.big_wilds = counts[1] if rules.big_joker_wild else 0
            self.orders = rank_orders(level, rules)
        else:
            self.extended = False
            self.big_wilds = 0
            self.orders = _COMPETITION_ORDERS[level]
        groups = [_EMPTY_RANK] * 15
        for rank in NATURAL_RANKS:
            start = rank * 4 - 6
            row = counts[start : start + 4]
            if row != _NONE_HELD:
                groups[rank] = _held_cards(rank, tuple(row))
        self.distinct = [group[0] for group in groups]
        self.totals = [group[1] for group in groups]
        self.suit_masks = [group[2] for group in groups]
        self.subsets = [group[3] for group in groups]


def check_level(level: Rank) -> None:
    if level.is_joker:
        raise ValueError(f"the level rank must be 2…A, got {level.name}")


def other_rank(level: Rank) -> Rank:
    """The rank two wild cards stand for beside a triple of the level rank: 3 at level 2, else 2."""
    return Rank.THREE if level == Rank.TWO else Rank.TWO


def card_counts(cards: Iterable[Card] | Mapping[Card, int]) -> list[int]:
    """How many of each of the 54 cards (by index), from cards or a mapping of card to count (a
    ``Counter``); a card held more than twice (or a negative count) raises ``ValueError`` naming it,
    since the two decks hold each card twice. The compiled core reads a hand the same way."""
    counts = [0] * 54
    if isinstance(cards, Mapping):
        for card, times in cards.items():
            counts[card.index] += times
        wrong = max(counts) > 2 or min(counts) < 0
    else:
        for card in cards:
            counts[card.index] += 1
        wrong = max(counts) > 2
    if wrong:
        card = next(card for card in ALL_CARDS if not 0 <= counts[card.index] <= 2)
        raise ValueError(f"{card} is held {counts[card.index]} times: the two decks hold each card twice")
    return counts


_COMPETITION_ORDERS: Final = tuple(rank_orders(Rank(max(level, 2))) for level in range(15))

_RankGroups = tuple[tuple[Card, ...], int, int, tuple[tuple[tuple[Card, ...], ...], ...]]
_NONE_HELD: Final = [0, 0, 0, 0]
_EMPTY_RANK: Final[_RankGroups] = ((), 0, 0, ((),) + ((),) * 8)


@cache
def _held_cards(rank: Rank, suit_counts: tuple[int, ...]) -> _RankGroups:
    """The natural cards of one rank held in these numbers per suit: (distinct cards, total, suit mask,
    the distinct multisets of each size 0…8). Pure, hence cached."""
    held = [(ALL_CARDS[natural_index(rank, suit)], suit_counts[suit]) for suit in _SUITS if suit_counts[suit]]
    by_size: list[list[tuple[Card, ...]]] = [[] for _ in range(9)]
    for choice in product(*(range(count + 1) for _, count in held)):
        cards: tuple[Card, ...] = ()
        for (card, _), taken in zip(held, choice, strict=True):
            cards += (card,) * taken
        by_size[len(cards)].append(cards)
    distinct = tuple(card for card, _ in held)
    mask = sum(1 << suit for suit in _SUITS if suit_counts[suit])
    return distinct, sum(suit_counts), mask, tuple(tuple(group) for group in by_size)


def with_wilds(naturals: tuple[Card, ...], wild: Card, count: int) -> tuple[Card, ...]:
    """Natural cards (in print order) with ``count`` wild cards put in their print place."""
    if not count:
        return naturals
    index = wild.index
    for position, card in enumerate(naturals):
        if card.index > index:
            return naturals[:position] + (wild,) * count + naturals[position:]
    return naturals + (wild,) * count


class Enumerator(Protocol):
    """Yields the plays of one kind from a hand whose key is above ``above``; with ``size``, only plays of
    that many cards (the extended enumerators use it to skip other lengths; the competition ones ignore
    it, so callers still filter)."""

    def __call__(self, view: HandView, above: int = 0, size: int = 0) -> Iterator[Play]: ...
