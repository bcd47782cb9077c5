"""The combination engine: every play a set of cards can make, card by card.

A :class:`~cardroom.guandan.hands.HandView` splits a hand into natural cards by rank and the wild cards
(逢人配, the two ♥ level cards). Each kind has an enumerator that yields every distinct multiset of
cards with each distinct reading, optionally only those whose key is above a bound (for following).
Readings follow docs/rules/competition.md#wild-cards: a wild card stands for any card but a joker; played
alone or as a pair, wild cards are level cards.

The enumerators here are the competition's; a rule set with any other play parameter (long sequences,
airplanes, chained and three-joker bombs, the big joker wild, another order of ranks or of bombs) is
served by :mod:`cardroom.guandan.extended`; :mod:`cardroom.guandan.readings` chooses
(:func:`~cardroom.guandan.readings.enumerators`). The hand view both read is
:class:`~cardroom.guandan.hands.HandView`.
"""

from __future__ import annotations

from collections.abc import Iterator
from itertools import combinations, product
from typing import Any, Final, NamedTuple

from cardroom.cards import ALL_CARDS, BIG_JOKER, NATURAL_RANKS, SMALL_JOKER, Card, Rank, Suit, natural_index
from cardroom.guandan.hands import Enumerator, HandView, other_rank, with_wilds
from cardroom.guandan.plays import (
    BOMB_TIER_STEP,
    FOUR_JOKERS_TIER,
    STRAIGHT_FLUSH_TIER,
    Play,
    PlayKind,
    bomb_tier,
    rank_at_position,
)

_SUITS: Final = tuple(Suit)
MAX_BOMB_SIZE: Final = 10
"""The most cards in a bomb under the competition's play parameters."""
_new: Final = tuple.__new__


def _as_heart(rank: Rank) -> Card:
    return ALL_CARDS[natural_index(rank, Suit.HEARTS)]


def singles(view: HandView, above: int = 0) -> Iterator[Play]:
    """单张: every distinct card held; a wild card alone is a level card."""
    level = view.level
    orders = view.orders
    single = PlayKind.SINGLE
    for rank in NATURAL_RANKS:
        key = orders[rank]
        if key > above:
            for (card,) in view.subsets[rank][1]:
                yield _new(Play, (single, rank, (card,), (), level, key))
    if view.wilds and orders[level] > above:
        yield _new(Play, (single, level, (view.wild,), (view.wild,), level, orders[level]))
    for joker, held in ((SMALL_JOKER, view.small_jokers), (BIG_JOKER, view.big_jokers)):
        key = orders[joker.rank]
        if held and key > above:
            yield _new(Play, (single, joker.rank, (joker,), (), level, key))


def pairs(view: HandView, above: int = 0) -> Iterator[Play]:
    """对子: two of a rank (one may be wild), two wild cards as a level pair, or a joker pair."""
    level, wild, wilds = view.level, view.wild, view.wilds
    orders = view.orders
    pair = PlayKind.PAIR
    for rank in NATURAL_RANKS:
        key = orders[rank]
        if key <= above:
            continue
        subsets = view.subsets[rank]
        for cards in subsets[2]:
            yield _new(Play, (pair, rank, cards, (), level, key))
        if wilds:
            stands = (_as_heart(rank),)
            for cards in subsets[1]:
                yield _new(Play, (pair, rank, with_wilds(cards, wild, 1), stands, level, key))
    if wilds == 2 and orders[level] > above:
        yield _new(Play, (pair, level, (wild, wild), (wild, wild), level, orders[level]))
    for joker, held in ((SMALL_JOKER, view.small_jokers), (BIG_JOKER, view.big_jokers)):
        key = orders[joker.rank]
        if held == 2 and key > above:
            yield _new(Play, (pair, joker.rank, (joker, joker), (), level, key))


def _rank_groups(view: HandView, rank: Rank, size: int) -> Iterator[tuple[tuple[Card, ...], int]]:
    """Every way to make ``size`` cards of one rank from naturals (at least one) and wild cards:
    (cards in print order, wild cards used)."""
    subsets = view.subsets[rank]
    wild = view.wild
    for used in range(min(view.wilds, size - 1) + 1):
        for cards in subsets[size - used]:
            yield with_wilds(cards, wild, used), used


def triples(view: HandView, above: int = 0) -> Iterator[Play]:
    """三同张: three of a rank, up to two of them wild."""
    level = view.level
    orders = view.orders
    triple = PlayKind.TRIPLE
    for rank in NATURAL_RANKS:
        key = orders[rank]
        if key <= above:
            continue
        heart = _as_heart(rank)
        for cards, used in _rank_groups(view, rank, 3):
            yield _new(Play, (triple, rank, cards, (heart,) * used, level, key))


_PairPart = tuple[Rank | None, tuple[Card, ...], int, tuple[Card, ...], int]


def _pair_parts(view: HandView) -> list[_PairPart]:
    """The pairs a full house can take, as (rank, natural cards, wild cards used, what the wild cards
    stand for, how many of the natural cards print before a wild card): natural and one-wild pairs by
    rank, joker pairs, and two wild cards (rank ``None``: they stand for level cards, or for another
    rank when the triple is of the level rank)."""
    wild_index = view.wild.index
    parts: list[_PairPart] = []
    if view.small_jokers == 2:
        parts.append((Rank.SMALL_JOKER, (SMALL_JOKER, SMALL_JOKER), 0, (), 2))
    if view.big_jokers == 2:
        parts.append((Rank.BIG_JOKER, (BIG_JOKER, BIG_JOKER), 0, (), 2))
    for rank in NATURAL_RANKS:
        subsets = view.subsets[rank]
        parts.extend((rank, cards, 0, (), _before(cards, wild_index)) for cards in subsets[2])
        if view.wilds:
            heart = (_as_heart(rank),)
            parts.extend((rank, cards, 1, heart, _before(cards, wild_index)) for cards in subsets[1])
    if view.wilds == 2:
        parts.append((None, (), 2, (), 0))
    return parts


def _before(cards: tuple[Card, ...], index: int) -> int:
    return sum(1 for card in cards if card.index < index)


def full_houses(view: HandView, above: int = 0) -> Iterator[Play]:
    """三带二: a triple and a pair of another rank (a joker pair allowed), compared by the triple."""
    level, wild, wilds = view.level, view.wild, view.wilds
    orders = view.orders
    full_house = PlayKind.FULL_HOUSE
    parts = _pair_parts(view)
    wild_runs = ((), (wild,), (wild, wild))
    for rank in NATURAL_RANKS:
        key = orders[rank]
        if key <= above:
            continue
        heart = _as_heart(rank)
        wild_pair = (_as_heart(level if rank != level else other_rank(level)),) * 2
        for used in range(min(wilds, 2) + 1):
            triple_stands = (heart,) * used
            fitting = [part for part in parts if part[2] <= wilds - used and part[0] != rank]
            for triple_cards in view.subsets[rank][3 - used]:
                first = triple_cards[0].index
                triple_before = _before(triple_cards, wild.index)
                for pair_rank, pair_cards, pair_used, pair_stands, pair_before in fitting:
                    if pair_rank is None:
                        pair_stands = wild_pair
                    if not pair_cards:
                        naturals = triple_cards
                    elif pair_cards[0].index < first:
                        naturals = pair_cards + triple_cards
                    else:
                        naturals = triple_cards + pair_cards
                    if not pair_stands:
                        stands = triple_stands
                    elif not used or pair_stands[0].index > heart.index:
                        stands = triple_stands + pair_stands
                    else:
                        stands = pair_stands + triple_stands
                    if used or pair_used:
                        split = triple_before + pair_before
                        cards = naturals[:split] + wild_runs[used + pair_used] + naturals[split:]
                    else:
                        cards = naturals
                    yield _new(Play, (full_house, rank, cards, stands, level, key))


def _usages(length: int, width: int, wilds: int) -> tuple[tuple[int, ...], ...]:
    """Every way to spread at most ``wilds`` wild cards over ``length`` ranks, at most ``width`` (and
    fewer than three) per rank."""
    per_rank = range(min(width, 2) + 1)
    return tuple(usage for usage in product(per_rank, repeat=length) if sum(usage) <= wilds)


_USAGES: Final = {
    (length, width, wilds): _usages(length, width, wilds)
    for length, width in ((5, 1), (3, 2), (2, 3))
    for wilds in range(3)
}


def _print_ranks(low: int, length: int) -> tuple[Rank, ...]:
    """A sequence's ranks in print order (an ace-low ace prints last)."""
    return tuple(sorted(rank_at_position(position) for position in range(low, low + length)))


_SEQUENCE_RANKS: Final = {
    (low, length): _print_ranks(low, length) for length in (2, 3, 5) for low in range(1, 16 - length)
}


class _Frame(NamedTuple):
    """One way to lay wild cards over a sequence: its top position and lowest rank, the ranks the wild
    cards stand for, the natural choices per rank not wholly wild (single cards for straights, card
    groups otherwise), those ranks, and where the wild cards print among the natural cards (``None``
    when that depends on the natural cards chosen)."""

    top: int
    lowest: Rank
    wild_ranks: tuple[Rank, ...]
    choices: list[tuple[Any, ...]]
    ranks: list[Rank]
    split: int | None


def _frames(view: HandView, length: int, width: int, tops: range) -> Iterator[_Frame]:
    level = view.level
    options = view.distinct if width == 1 else None
    subsets = view.subsets
    totals = view.totals
    usages = _USAGES[length, width, view.wilds]
    for top in tops:
        low = top - length + 1
        ranks = _SEQUENCE_RANKS[low, length]
        short = [max(0, width - totals[rank]) for rank in ranks]
        if sum(short) > view.wilds:
            continue
        lowest = rank_at_position(low)
        for usage in usages:
            choices: list[tuple[Any, ...]] = []
            natural_ranks: list[Rank] = []
            wild_ranks: tuple[Rank, ...] = ()
            split: int | None = 0
            for rank, used, lacking in zip(ranks, usage, short, strict=True):
                if used < lacking:
                    break
                if used:
                    wild_ranks += (rank,) * used
                if used < width:
                    choices.append(options[rank] if options else subsets[rank][width - used])
                    natural_ranks.append(rank)
                    if split is not None and rank <= level:
                        split = split + width - used if rank < level else None
            else:
                yield _Frame(top, lowest, wild_ranks, choices, natural_ranks, split)


def _place_wilds(naturals: tuple[Card, ...], wild: Card, count: int, split: int | None) -> tuple[Card, ...]:
    if not count:
        return naturals
    if split is None:
        return with_wilds(naturals, wild, count)
    return naturals[:split] + (wild,) * count + naturals[split:]


def _sequences(view: HandView, kind: PlayKind, length: int, width: int, above: int) -> Iterator[Play]:
    level, wild = view.level, view.wild
    for frame in _frames(view, length, width, range(max(length, above + 1), 15)):
        stands = tuple(_as_heart(rank) for rank in frame.wild_ranks)
        used, split, top, lowest = len(frame.wild_ranks), frame.split, frame.top, frame.lowest
        for groups in product(*frame.choices):
            cards = _place_wilds(sum(groups, ()), wild, used, split)
            yield _new(Play, (kind, lowest, cards, stands, level, top))


def _flushes(view: HandView, frame: _Frame) -> list[tuple[Card, ...]]:
    """The natural cards of each suit in which every natural rank of a straight frame is held."""
    masks = view.suit_masks
    common = 15
    for rank in frame.ranks:
        common &= masks[rank]
    if not common:
        return []
    return [
        tuple(ALL_CARDS[natural_index(rank, suit)] for rank in frame.ranks)
        for suit in _SUITS
        if common >> suit & 1
    ]


def straights(view: HandView, above: int = 0) -> Iterator[Play]:
    """顺子: five consecutive ranks, A high or low, no wrap-around, not all of one suit (with a wild
    card, the player may read five of one suit as a plain straight)."""
    level, wild = view.level, view.wild
    loose = view.rules.natural_straight_flush_is_straight
    straight = PlayKind.STRAIGHT
    for frame in _frames(view, 5, 1, range(max(5, above + 1), 15)):
        flushes = _flushes(view, frame)
        used, split, top, lowest = len(frame.wild_ranks), frame.split, frame.top, frame.lowest
        if used:
            hearts = tuple(_as_heart(rank) for rank in frame.wild_ranks)
            spades = tuple(ALL_CARDS[natural_index(rank, Suit.SPADES)] for rank in frame.wild_ranks)
            hearts_flush = next((f for f in flushes if f[0].suit is Suit.HEARTS), None)
            run = (wild,) * used
            last = 5 - used
            for naturals in product(*frame.choices):
                if split == 0:
                    cards = run + naturals
                elif split == last:
                    cards = naturals + run
                elif split is None:
                    cards = with_wilds(naturals, wild, used)
                else:
                    cards = naturals[:split] + run + naturals[split:]
                if hearts_flush is None or naturals != hearts_flush:
                    yield _new(Play, (straight, lowest, cards, hearts, level, top))
                else:
                    yield _new(Play, (straight, lowest, cards, spades, level, top))
        elif flushes and not loose:
            for naturals in product(*frame.choices):
                if naturals not in flushes:
                    yield _new(Play, (straight, lowest, naturals, (), level, top))
        else:
            for naturals in product(*frame.choices):
                yield _new(Play, (straight, lowest, naturals, (), level, top))


def straight_flushes(view: HandView, above: int = 0) -> Iterator[Play]:
    """同花顺: a straight of one suit, wild cards taking that suit (also in place of held cards)."""
    level, wild, wilds, masks = view.level, view.wild, view.wilds, view.suit_masks
    flush = PlayKind.STRAIGHT_FLUSH
    base = STRAIGHT_FLUSH_TIER * BOMB_TIER_STEP
    runs = [0, 0, 0, 0]
    for position in range(1, 15):
        mask = masks[rank_at_position(position)]
        for suit in _SUITS:
            if mask >> suit & 1:
                runs[suit] |= 1 << position
    for top in range(max(5, above - base + 1), 15):
        low = top - 4
        window = 0b11111 << low
        ranks = _SEQUENCE_RANKS[low, 5]
        lowest = rank_at_position(low)
        for suit in _SUITS:
            if (runs[suit] & window).bit_count() + wilds < 5:
                continue
            bit = 1 << suit
            held = [rank for rank in ranks if masks[rank] & bit]
            missing = 5 - len(held)
            if missing > wilds:
                continue
            for extra in range(wilds - missing + 1):
                for replaced in combinations(held, extra):
                    wild_ranks = sorted(rank for rank in ranks if rank not in held or rank in replaced)
                    naturals = tuple(
                        ALL_CARDS[natural_index(rank, suit)] for rank in held if rank not in replaced
                    )
                    stands = tuple(ALL_CARDS[natural_index(rank, suit)] for rank in wild_ranks)
                    cards = with_wilds(naturals, wild, len(wild_ranks))
                    yield _new(Play, (flush, lowest, cards, stands, level, base + top))


def tubes(view: HandView, above: int = 0) -> Iterator[Play]:
    """三连对: three consecutive pairs, AA2233 lowest, QQKKAA highest."""
    return _sequences(view, PlayKind.TUBE, 3, 2, above)


def plates(view: HandView, above: int = 0) -> Iterator[Play]:
    """钢板: two consecutive triples, AAA222 lowest, KKKAAA highest."""
    return _sequences(view, PlayKind.PLATE, 2, 3, above)


def bombs(view: HandView, above: int = 0) -> Iterator[Play]:
    """炸弹: four to eight natural cards of one rank, with up to both wild cards (ten at most)."""
    level, wild, wilds = view.level, view.wild, view.wilds
    orders = view.orders
    bomb = PlayKind.BOMB
    for rank in NATURAL_RANKS:
        held = view.totals[rank]
        if held + wilds < 4:
            continue
        order = orders[rank]
        heart = _as_heart(rank)
        subsets = view.subsets[rank]
        for size in range(4, min(held + wilds, MAX_BOMB_SIZE) + 1):
            key = bomb_tier(size) * BOMB_TIER_STEP + order
            if key <= above:
                continue
            for used in range(max(0, size - held), min(wilds, size) + 1):
                stands = (heart,) * used
                for cards in subsets[size - used]:
                    yield _new(Play, (bomb, rank, with_wilds(cards, wild, used), stands, level, key))


def four_jokers(view: HandView, above: int = 0) -> Iterator[Play]:
    """天王炸: both small and both big jokers; beats everything."""
    key = FOUR_JOKERS_TIER * BOMB_TIER_STEP
    if view.small_jokers == 2 and view.big_jokers == 2 and key > above:
        cards = (SMALL_JOKER, SMALL_JOKER, BIG_JOKER, BIG_JOKER)
        yield _new(Play, (PlayKind.FOUR_JOKERS, Rank.SMALL_JOKER, cards, (), view.level, key))


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


def _sized(enumerate_kind: Any) -> Enumerator:
    def enumerate_sized(view: HandView, above: int = 0, size: int = 0) -> Iterator[Play]:
        plays: Iterator[Play] = enumerate_kind(view, above)
        return plays if not size else (play for play in plays if len(play.cards) == size)

    enumerate_sized.__doc__ = enumerate_kind.__doc__
    return enumerate_sized


SIZED_ENUMERATORS: Final[dict[PlayKind, Enumerator]] = {
    kind: _sized(function) for kind, function in ENUMERATORS.items()
}
