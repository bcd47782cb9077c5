"""The rank-level view of legal moves, for bots and search: plays named by kind and ranks, with the
number of wild cards (逢人配) they need, where suits matter only for straight flushes.

Each :class:`~cardroom.guandan.rankview.RankPlay` uses as few wild cards as the hand allows and can name
one concrete card choice (:meth:`~cardroom.guandan.rankview.RankPlay.to_play`). Counting is done on
per-rank card counts (:class:`~cardroom.guandan.rankview.RankCounts`), so this view is far smaller and
faster than the card-level one. The enumerators here are the competition's; rule sets with other play
parameters (``huopin``) are served by :mod:`cardroom.guandan.extended_ranks`, with the same values. The
compiled core answers :func:`rank_leads` and :func:`rank_follows` where it is loaded.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from itertools import chain
from typing import Final

from cardroom.cards import NATURAL_RANKS, Card, Rank, Suit
from cardroom.guandan import native
from cardroom.guandan.extended_ranks import EXTENDED_RANK_ENUMERATORS
from cardroom.guandan.plays import (
    BOMB_TIER_STEP,
    FOUR_JOKERS_TIER,
    STRAIGHT_FLUSH_TIER,
    Play,
    PlayKind,
    bomb_tier,
    rank_at_position,
    rank_order,
    rank_orders,
)
from cardroom.guandan.rankview import RankCounts, RankPlay
from cardroom.guandan.ruleset import COMPETITION, RuleSet

__all__ = [
    "RANK_ENUMERATORS",
    "RankCounts",
    "RankPlay",
    "iter_rank_follows",
    "iter_rank_leads",
    "rank_enumerators",
    "rank_follows",
    "rank_leads",
    "rank_play_of",
]

_SUITS: Final = tuple(Suit)
_new: Final = tuple.__new__

_RANKS_OF: Final = {
    (low, length): tuple(int(rank_at_position(position)) for position in range(low, low + length))
    for length in (2, 3, 5)
    for low in range(1, 16 - length)
}
_JOKERS: Final = (Rank.SMALL_JOKER, Rank.BIG_JOKER)


def _of_a_rank(kind: PlayKind, size: int) -> Callable[[RankCounts, int], Iterator[RankPlay]]:
    def enumerate_kind(view: RankCounts, above: int = 0) -> Iterator[RankPlay]:
        level, wilds, natural = view.level, view.wilds, view.natural
        orders = rank_orders(level)
        for rank in NATURAL_RANKS:
            key = orders[rank]
            held = natural[rank]
            if key <= above or not (held or (rank == level and size < 3)):
                continue
            need = size - held if held < size else 0
            if need <= wilds:
                yield _new(RankPlay, (kind, rank, size, need, key, None, None, 0, 0))
        for joker, held in zip(_JOKERS, (view.small_jokers, view.big_jokers), strict=True):
            key = rank_order(joker, level)
            if held >= size and key > above:
                yield _new(RankPlay, (kind, joker, size, 0, key, None, None, 0, 0))

    enumerate_kind.__doc__ = f"{kind.name.lower()}s by rank, wild cards where short"
    return enumerate_kind


def _full_houses(view: RankCounts, above: int = 0) -> Iterator[RankPlay]:
    level, wilds, natural = view.level, view.wilds, view.natural
    pair_options: list[tuple[Rank | None, int]] = [
        (rank, max(0, 2 - natural[rank])) for rank in NATURAL_RANKS if natural[rank]
    ]
    pair_options += [
        (joker, 0)
        for joker, held in zip(_JOKERS, (view.small_jokers, view.big_jokers), strict=True)
        if held >= 2
    ]
    if wilds == 2:
        pair_options.append((None, 2))
    for rank in NATURAL_RANKS:
        held = natural[rank]
        key = rank_order(rank, level)
        if not held or key <= above:
            continue
        need = max(0, 3 - held)
        for pair_rank, pair_need in pair_options:
            if pair_rank != rank and need + pair_need <= wilds:
                yield _new(
                    RankPlay, (PlayKind.FULL_HOUSE, rank, 5, need + pair_need, key, None, pair_rank, 0, 0)
                )


def _straights(view: RankCounts, above: int = 0) -> Iterator[RankPlay]:
    wilds, present = view.wilds, view.present
    loose = view.rules.natural_straight_flush_is_straight
    runs = view.runs
    for low in range(max(1, above - 3), 11):
        window = 0b11111 << low
        need = 5 - (present & window).bit_count()
        if not need and not loose and sum(1 for run in runs if run & window) == 1:
            need = 1
        if need <= wilds:
            yield _new(
                RankPlay, (PlayKind.STRAIGHT, rank_at_position(low), 5, need, low + 4, None, None, 0, 0)
            )


def _pairs_in_a_row(
    kind: PlayKind, length: int, width: int
) -> Callable[[RankCounts, int], Iterator[RankPlay]]:
    def enumerate_kind(view: RankCounts, above: int = 0) -> Iterator[RankPlay]:
        wilds, natural = view.wilds, view.natural
        for low in range(max(1, above - length + 2), 16 - length):
            need = 0
            for rank in _RANKS_OF[low, length]:
                held = natural[rank]
                if held < width:
                    if not held and width == 3:
                        need = 3
                        break
                    need += width - held
            if need <= wilds:
                yield _new(
                    RankPlay,
                    (kind, rank_at_position(low), length * width, need, low + length - 1, None, None, 0, 0),
                )

    enumerate_kind.__doc__ = f"{kind.name.lower()}s: {length} ranks in a row, {width} cards each"
    return enumerate_kind


def _straight_flushes(view: RankCounts, above: int = 0) -> Iterator[RankPlay]:
    wilds, runs = view.wilds, view.runs
    base = STRAIGHT_FLUSH_TIER * BOMB_TIER_STEP
    for suit in _SUITS:
        run = runs[suit]
        if run.bit_count() + wilds < 5:
            continue
        for low in range(max(1, above - base - 3), 11):
            need = 5 - (run & 0b11111 << low).bit_count()
            if need <= wilds:
                yield _new(
                    RankPlay,
                    (
                        PlayKind.STRAIGHT_FLUSH,
                        rank_at_position(low),
                        5,
                        need,
                        base + low + 4,
                        suit,
                        None,
                        0,
                        0,
                    ),
                )


def _bombs(view: RankCounts, above: int = 0) -> Iterator[RankPlay]:
    level, wilds, natural = view.level, view.wilds, view.natural
    for rank in NATURAL_RANKS:
        held = natural[rank]
        if held + wilds < 4:
            continue
        order = rank_order(rank, level)
        for size in range(4, min(held + wilds, 10) + 1):
            key = bomb_tier(size) * BOMB_TIER_STEP + order
            if key > above:
                yield _new(RankPlay, (PlayKind.BOMB, rank, size, max(0, size - held), key, None, None, 0, 0))


def _four_jokers(view: RankCounts, above: int = 0) -> Iterator[RankPlay]:
    key = FOUR_JOKERS_TIER * BOMB_TIER_STEP
    if view.small_jokers == 2 and view.big_jokers == 2 and key > above:
        yield _new(RankPlay, (PlayKind.FOUR_JOKERS, Rank.SMALL_JOKER, 4, 0, key, None, None, 0, 0))


RANK_ENUMERATORS: Final[dict[PlayKind, Callable[[RankCounts, int], Iterator[RankPlay]]]] = {
    PlayKind.SINGLE: _of_a_rank(PlayKind.SINGLE, 1),
    PlayKind.PAIR: _of_a_rank(PlayKind.PAIR, 2),
    PlayKind.TRIPLE: _of_a_rank(PlayKind.TRIPLE, 3),
    PlayKind.FULL_HOUSE: _full_houses,
    PlayKind.STRAIGHT: _straights,
    PlayKind.TUBE: _pairs_in_a_row(PlayKind.TUBE, 3, 2),
    PlayKind.PLATE: _pairs_in_a_row(PlayKind.PLATE, 2, 3),
    PlayKind.BOMB: _bombs,
    PlayKind.STRAIGHT_FLUSH: _straight_flushes,
    PlayKind.FOUR_JOKERS: _four_jokers,
}
"""One enumerator per kind, as at the card level: ``enumerate(view, above)``."""


def rank_enumerators(view: RankCounts) -> dict[PlayKind, Callable[[RankCounts, int], Iterator[RankPlay]]]:
    """The rank-level enumerator of every kind the hand's rule set has."""
    return EXTENDED_RANK_ENUMERATORS if view.extended else RANK_ENUMERATORS


def iter_rank_leads(view: RankCounts) -> Iterator[RankPlay]:
    """Every rank-level play that may lead, each with the fewest wild cards it needs."""
    table = rank_enumerators(view)
    return chain.from_iterable(enumerate_kind(view, 0) for enumerate_kind in table.values())


def iter_rank_follows(view: RankCounts, previous: RankPlay) -> Iterator[RankPlay]:
    """Every rank-level play that beats ``previous``."""
    table = rank_enumerators(view)
    bomb_kinds = [kind for kind in table if kind.is_bomb]
    if previous.kind.is_bomb:
        return chain.from_iterable(table[kind](view, previous.key) for kind in bomb_kinds)
    enumerate_same = table.get(previous.kind)
    same = (
        play
        for play in (enumerate_same(view, previous.key) if enumerate_same else ())
        if play.size == previous.size
    )
    return chain(same, *(table[kind](view, 0) for kind in bomb_kinds))


def rank_leads(hand: Iterable[Card], level: Rank, rules: RuleSet = COMPETITION) -> list[RankPlay]:
    """Every rank-level lead of a hand (from the compiled core where it serves the rule set)."""
    if native.serves(rules) and not level.is_joker:
        return native.rank_leads(hand, level, rules)
    return list(iter_rank_leads(RankCounts(hand, level, rules)))


def rank_follows(
    hand: Iterable[Card], previous: RankPlay, level: Rank, rules: RuleSet = COMPETITION
) -> list[RankPlay]:
    """Every rank-level play that beats ``previous`` (from the compiled core where it serves)."""
    if native.serves(rules) and not level.is_joker and previous.kind in native.kinds_of(rules):
        return native.rank_follows(hand, previous, level, rules)
    return list(iter_rank_follows(RankCounts(hand, level, rules), previous))


def rank_play_of(play: Play) -> RankPlay:
    """The rank-level name of a card-level play (its wild count as played)."""
    if play.rank is None:
        raise ValueError("a pass has no rank-level play")
    pair_rank = None
    if play.kind is PlayKind.FULL_HOUSE:
        read = play.read_cards()
        pair_rank = next(card.rank for card in read if card.rank != play.rank)
    elif play.kind is PlayKind.AIRPLANE:
        read = play.read_cards()
        wings = {card.rank for card in read if sum(1 for other in read if other.rank == card.rank) == 2}
        pair_rank = rank_at_position(min(_positions(wings)))
    hearts = play.cards.count(Card(play.level, Suit.HEARTS)) if play.level is not None else 0
    big_jokers = play.wild_count - hearts
    length = play.length if play.kind is PlayKind.CHAIN_BOMB else 0
    return RankPlay(
        play.kind,
        play.rank,
        len(play.cards),
        play.wild_count,
        play.key,
        play.suit,
        pair_rank,
        big_jokers,
        length,
    )


def _positions(ranks: set[Rank]) -> list[int]:
    """Sequence positions of a run of ranks: the ace low (1) when the run holds a 2 and no king."""
    ace_low = Rank.TWO in ranks and Rank.KING not in ranks
    return [1 if rank == Rank.ACE and ace_low else int(rank) for rank in ranks]
