"""The combination engine: every play a set of cards can make, card by card.

A :class:`HandView` splits a hand into natural cards by rank and the wild cards (逢人配, the two ♥ level
cards). Each kind has an enumerator that yields every distinct multiset of cards with each distinct
reading, optionally only those whose key is above a bound (for following). Readings follow RULES.md: a
wild card stands for any card but a joker; played alone or as a pair, wild cards are level cards.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from itertools import product
from typing import Final

from cardroom.cards import (
    BIG_JOKER,
    NATURAL_RANKS,
    SMALL_JOKER,
    Card,
    Rank,
    Suit,
    card_index,
    natural_index,
)
from cardroom.guandan.plays import (
    BOMB_TIER_STEP,
    FOUR_JOKERS_TIER,
    STRAIGHT_FLUSH_TIER,
    Play,
    PlayKind,
    bomb_tier,
    rank_at_position,
    rank_order,
)
from cardroom.guandan.ruleset import COMPETITION, RuleSet

_SUITS: Final = tuple(Suit)
_MAX_BOMB: Final = 10


class HandView:
    """A hand prepared for enumeration at one level.

    ``naturals[r]`` lists the natural (non-wild) cards of rank ``r`` with their multiplicity;
    ``subsets[r][j]`` holds every distinct multiset of ``j`` natural cards of rank ``r`` as a tuple in
    print order; ``wilds`` is how many ♥ level cards the hand holds.
    """

    __slots__ = ("counts", "level", "naturals", "rules", "small_jokers", "big_jokers", "subsets",
                 "wild", "wilds")

    def __init__(self, cards: Iterable[Card], level: Rank, rules: RuleSet = COMPETITION) -> None:
        if level.is_joker:
            raise ValueError(f"the level rank must be 2…A, got {level.name}")
        counts = [0] * 54
        for card in cards:
            counts[card.index] += 1
        wild = Card(level, Suit.HEARTS)
        self.level = level
        self.rules = rules
        self.wild = wild
        self.wilds = counts[wild.index]
        self.small_jokers = counts[0]
        self.big_jokers = counts[1]
        self.counts = counts
        naturals: list[tuple[tuple[Card, int], ...]] = [()] * 15
        subsets: list[list[tuple[tuple[Card, ...], ...]]] = [[()] * 9 for _ in range(15)]
        for rank in NATURAL_RANKS:
            held = []
            for suit in _SUITS:
                index = natural_index(rank, suit)
                if index != wild.index and counts[index]:
                    held.append((_CARDS[index], counts[index]))
            naturals[rank] = tuple(held)
            subsets[rank] = _subsets(held)
        self.naturals = naturals
        self.subsets = subsets

    def total_natural(self, rank: Rank) -> int:
        return sum(count for _, count in self.naturals[rank])


_CARDS: Final = [Card(Rank.SMALL_JOKER), Card(Rank.BIG_JOKER)] + [
    Card(rank, suit) for rank in NATURAL_RANKS for suit in _SUITS
]


def _subsets(held: list[tuple[Card, int]]) -> list[tuple[tuple[Card, ...], ...]]:
    by_size: list[list[tuple[Card, ...]]] = [[] for _ in range(9)]
    by_size[0].append(())
    for choice in product(*(range(count + 1) for _, count in held)):
        if any(choice):
            cards: tuple[Card, ...] = ()
            for (card, _), taken in zip(held, choice, strict=True):
                cards += (card,) * taken
            by_size[len(cards)].append(cards)
    return [tuple(group) for group in by_size]


def _with_wilds(naturals: tuple[Card, ...], wild: Card, count: int) -> tuple[Card, ...]:
    if not count:
        return naturals
    return tuple(sorted(naturals + (wild,) * count, key=card_index))


def _as_heart(rank: Rank) -> Card:
    return _CARDS[natural_index(rank, Suit.HEARTS)]


def singles(view: HandView, above: int = 0) -> Iterator[Play]:
    """单张: every distinct card held; a wild card alone is a level card."""
    level = view.level
    single = PlayKind.SINGLE
    for rank in NATURAL_RANKS:
        key = rank_order(rank, level)
        if key > above:
            for (card,) in view.subsets[rank][1]:
                yield Play(single, rank, (card,), (), level, key)
    if view.wilds and rank_order(level, level) > above:
        yield Play(single, level, (view.wild,), (view.wild,), level, rank_order(level, level))
    for joker, held in ((SMALL_JOKER, view.small_jokers), (BIG_JOKER, view.big_jokers)):
        key = rank_order(joker.rank, level)
        if held and key > above:
            yield Play(single, joker.rank, (joker,), (), level, key)


def pairs(view: HandView, above: int = 0) -> Iterator[Play]:
    """对子: two of a rank (one may be wild), two wild cards as a level pair, or a joker pair."""
    level, wild, wilds = view.level, view.wild, view.wilds
    pair = PlayKind.PAIR
    for rank in NATURAL_RANKS:
        key = rank_order(rank, level)
        if key <= above:
            continue
        subsets = view.subsets[rank]
        for cards in subsets[2]:
            yield Play(pair, rank, cards, (), level, key)
        if wilds:
            stands = (_as_heart(rank),)
            for cards in subsets[1]:
                yield Play(pair, rank, _with_wilds(cards, wild, 1), stands, level, key)
    if wilds == 2 and rank_order(level, level) > above:
        yield Play(pair, level, (wild, wild), (wild, wild), level, rank_order(level, level))
    for joker, held in ((SMALL_JOKER, view.small_jokers), (BIG_JOKER, view.big_jokers)):
        key = rank_order(joker.rank, level)
        if held == 2 and key > above:
            yield Play(pair, joker.rank, (joker, joker), (), level, key)


def _rank_groups(view: HandView, rank: Rank, size: int) -> Iterator[tuple[tuple[Card, ...], int]]:
    """Every way to make ``size`` cards of one rank from naturals (at least one) and wild cards:
    (cards in print order, wild cards used)."""
    subsets = view.subsets[rank]
    wild = view.wild
    for used in range(min(view.wilds, size - 1) + 1):
        for cards in subsets[size - used]:
            yield _with_wilds(cards, wild, used), used


def triples(view: HandView, above: int = 0) -> Iterator[Play]:
    """三同张: three of a rank, up to two of them wild."""
    level = view.level
    triple = PlayKind.TRIPLE
    for rank in NATURAL_RANKS:
        key = rank_order(rank, level)
        if key <= above:
            continue
        heart = _as_heart(rank)
        for cards, used in _rank_groups(view, rank, 3):
            yield Play(triple, rank, cards, (heart,) * used, level, key)


def _pair_parts(view: HandView, budget: int) -> list[tuple[Rank | None, tuple[Card, ...], int]]:
    """The pairs a full house can take, as (rank, natural cards, wild cards used): natural and
    one-wild pairs by rank, joker pairs, and two wild cards (rank ``None``: any rank)."""
    parts: list[tuple[Rank | None, tuple[Card, ...], int]] = []
    for rank in NATURAL_RANKS:
        subsets = view.subsets[rank]
        parts.extend((rank, cards, 0) for cards in subsets[2])
        if budget:
            parts.extend((rank, cards, 1) for cards in subsets[1])
    if view.small_jokers == 2:
        parts.append((Rank.SMALL_JOKER, (SMALL_JOKER, SMALL_JOKER), 0))
    if view.big_jokers == 2:
        parts.append((Rank.BIG_JOKER, (BIG_JOKER, BIG_JOKER), 0))
    if budget == 2:
        parts.append((None, (), 2))
    return parts


def full_houses(view: HandView, above: int = 0) -> Iterator[Play]:
    """三带二: a triple and a pair of another rank (a joker pair allowed), compared by the triple."""
    level, wild, wilds = view.level, view.wild, view.wilds
    full_house = PlayKind.FULL_HOUSE
    parts = _pair_parts(view, wilds)
    for rank in NATURAL_RANKS:
        key = rank_order(rank, level)
        if key <= above:
            continue
        heart = _as_heart(rank)
        for used in range(min(wilds, 2) + 1):
            for triple_cards in view.subsets[rank][3 - used]:
                for pair_rank, pair_cards, pair_used in parts:
                    if pair_rank == rank or used + pair_used > wilds:
                        continue
                    if pair_rank is None:
                        stood = level if rank != level else _other_rank(level)
                        pair_stands = (_as_heart(stood),) * 2
                    elif pair_used:
                        pair_stands = (_as_heart(pair_rank),)
                    else:
                        pair_stands = ()
                    stands = tuple(sorted((heart,) * used + pair_stands, key=card_index))
                    naturals = tuple(sorted(triple_cards + pair_cards, key=card_index))
                    cards = _with_wilds(naturals, wild, used + pair_used)
                    yield Play(full_house, rank, cards, stands, level, key)


def _other_rank(level: Rank) -> Rank:
    return Rank.THREE if level == Rank.TWO else Rank.TWO


def _sequence_choices(
    view: HandView, ranks: tuple[Rank, ...], width: int
) -> Iterator[tuple[tuple[Card, ...], tuple[Rank, ...]]]:
    """Every way to take ``width`` cards of each rank, wild cards filling in: (natural cards in print
    order, the ranks the wild cards stand for)."""
    partial: list[tuple[tuple[Card, ...], tuple[Rank, ...]]] = [((), ())]
    wilds = view.wilds
    for rank in ranks:
        subsets = view.subsets[rank]
        extended = []
        for cards, wild_ranks in partial:
            room = wilds - len(wild_ranks)
            for used in range(min(room, width) + 1):
                filled = wild_ranks + (rank,) * used
                extended.extend((cards + more, filled) for more in subsets[width - used])
        partial = extended
        if not partial:
            return
    yield from partial


def _print_ranks(low: int, length: int) -> tuple[Rank, ...]:
    """A sequence's ranks in print order (an ace-low ace prints last)."""
    return tuple(sorted(rank_at_position(position) for position in range(low, low + length)))


def _sequences(
    view: HandView, kind: PlayKind, length: int, width: int, above: int
) -> Iterator[Play]:
    level, wild = view.level, view.wild
    for top in range(max(length, above + 1), 15):
        low = top - length + 1
        lowest = rank_at_position(low)
        for naturals, wild_ranks in _sequence_choices(view, _print_ranks(low, length), width):
            stands = tuple(_as_heart(rank) for rank in wild_ranks)
            cards = _with_wilds(naturals, wild, len(wild_ranks))
            yield Play(kind, lowest, cards, stands, level, top)


def straights(view: HandView, above: int = 0) -> Iterator[Play]:
    """顺子: five consecutive ranks, A high or low, no wrap-around, not all of one suit (with a wild
    card, the player may read five of one suit as a plain straight)."""
    level, wild = view.level, view.wild
    loose = view.rules.natural_straight_flush_is_straight
    straight = PlayKind.STRAIGHT
    for top in range(max(5, above + 1), 15):
        low = top - 4
        lowest = rank_at_position(low)
        for naturals, wild_ranks in _sequence_choices(view, _print_ranks(low, 5), 1):
            suit = _common_suit(naturals)
            if wild_ranks:
                away = Suit.SPADES if suit is Suit.HEARTS else Suit.HEARTS
                stands = tuple(_CARDS[natural_index(rank, away)] for rank in wild_ranks)
                cards = _with_wilds(naturals, wild, len(wild_ranks))
            elif suit is None or loose:
                stands, cards = (), naturals
            else:
                continue
            yield Play(straight, lowest, cards, stands, level, top)


def straight_flushes(view: HandView, above: int = 0) -> Iterator[Play]:
    """同花顺: a straight of one suit, wild cards taking that suit."""
    level, wild = view.level, view.wild
    flush = PlayKind.STRAIGHT_FLUSH
    base = STRAIGHT_FLUSH_TIER * BOMB_TIER_STEP
    for top in range(5, 15):
        key = base + top
        if key <= above:
            continue
        low = top - 4
        lowest = rank_at_position(low)
        for naturals, wild_ranks in _sequence_choices(view, _print_ranks(low, 5), 1):
            suit = _common_suit(naturals)
            if suit is None:
                continue
            stands = tuple(_CARDS[natural_index(rank, suit)] for rank in wild_ranks)
            cards = _with_wilds(naturals, wild, len(wild_ranks))
            yield Play(flush, lowest, cards, stands, level, key)


def _common_suit(cards: tuple[Card, ...]) -> Suit | None:
    suit = cards[0].suit
    for card in cards:
        if card.suit is not suit:
            return None
    return suit


def tubes(view: HandView, above: int = 0) -> Iterator[Play]:
    """三连对: three consecutive pairs, AA2233 lowest, QQKKAA highest."""
    return _sequences(view, PlayKind.TUBE, 3, 2, above)


def plates(view: HandView, above: int = 0) -> Iterator[Play]:
    """钢板: two consecutive triples, AAA222 lowest, KKKAAA highest."""
    return _sequences(view, PlayKind.PLATE, 2, 3, above)


def bombs(view: HandView, above: int = 0) -> Iterator[Play]:
    """炸弹: four to eight natural cards of one rank, with up to both wild cards (ten at most)."""
    level, wild, wilds = view.level, view.wild, view.wilds
    bomb = PlayKind.BOMB
    for rank in NATURAL_RANKS:
        order = rank_order(rank, level)
        heart = _as_heart(rank)
        subsets = view.subsets[rank]
        for size in range(4, _MAX_BOMB + 1):
            key = bomb_tier(size) * BOMB_TIER_STEP + order
            if key <= above:
                continue
            for used in range(min(wilds, size - 1) + 1):
                if size - used > 8:
                    continue
                stands = (heart,) * used
                for cards in subsets[size - used]:
                    yield Play(bomb, rank, _with_wilds(cards, wild, used), stands, level, key)


def four_jokers(view: HandView, above: int = 0) -> Iterator[Play]:
    """天王炸: both small and both big jokers; beats everything."""
    key = FOUR_JOKERS_TIER * BOMB_TIER_STEP
    if view.small_jokers == 2 and view.big_jokers == 2 and key > above:
        cards = (SMALL_JOKER, SMALL_JOKER, BIG_JOKER, BIG_JOKER)
        yield Play(PlayKind.FOUR_JOKERS, Rank.SMALL_JOKER, cards, (), view.level, key)


ENUMERATORS: Final = {
    PlayKind.SINGLE: singles,
    PlayKind.PAIR: pairs,
    PlayKind.TRIPLE: triples,
    PlayKind.FULL_HOUSE: full_houses,
    PlayKind.STRAIGHT: straights,
    PlayKind.TUBE: tubes,
    PlayKind.PLATE: plates,
    PlayKind.BOMB: bombs,
    PlayKind.STRAIGHT_FLUSH: straight_flushes,
    PlayKind.FOUR_JOKERS: four_jokers,
}
"""One enumerator per kind: ``enumerate(view, above=key)`` yields the plays of that kind above a key."""

_KINDS_BY_SIZE: Final = {
    1: (PlayKind.SINGLE,),
    2: (PlayKind.PAIR,),
    3: (PlayKind.TRIPLE,),
    4: (PlayKind.BOMB, PlayKind.FOUR_JOKERS),
    5: (PlayKind.FULL_HOUSE, PlayKind.STRAIGHT, PlayKind.STRAIGHT_FLUSH, PlayKind.BOMB),
    6: (PlayKind.TUBE, PlayKind.PLATE, PlayKind.BOMB),
}


def classify(cards: Iterable[Card], level: Rank, rules: RuleSet = COMPETITION) -> list[Play]:
    """Every reading of exactly these cards as one play at this level (empty if none).

    A wild card can make several readings (which end of a straight it completes, a straight or a
    straight flush, which rank of a full house it joins); each is a distinct :class:`Play`.
    """
    held = tuple(sorted(cards, key=card_index))
    size = len(held)
    kinds = _KINDS_BY_SIZE.get(size, (PlayKind.BOMB,) if 7 <= size <= _MAX_BOMB else ())
    view = HandView(held, level, rules)
    return [
        play
        for kind in kinds
        for play in ENUMERATORS[kind](view)
        if len(play.cards) == size
    ]
