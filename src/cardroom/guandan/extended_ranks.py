"""The rank-level view (:mod:`cardroom.guandan.rankplays`) for rule sets whose play parameters differ
from the competition's: the kinds and lengths of :mod:`cardroom.guandan.extended`, on per-rank counts.

Each :class:`~cardroom.guandan.rankplays.RankPlay` takes as few wild cards as the hand allows, ♥ level
cards before big jokers: a card set without a big joker keeps every reading, one with a big joker only
its largest (选择大的牌型为优先), so a play is named with a big joker only where its largest-reading test
(the same as the card level's, on the natural cards it keeps: the most of each rank) lets it through.
Airplanes name their wings by their lowest rank (``pair_rank``), on the lowest window that holds the
wings' natural cards; chained bombs carry their number of bombs (``length``).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Final

from cardroom.cards import NATURAL_RANKS, Rank, Suit
from cardroom.guandan.extended import (
    WINDOWS,
    best_airplane_top,
    best_chain_key,
    bomb_reading_exists,
    full_house_dominated,
    highest_top,
    lowest_wing,
)
from cardroom.guandan.plays import PlayKind, play_key, rank_at_position, rank_orders, star_key
from cardroom.guandan.rankview import RankCounts, RankPlay

_SUITS: Final = tuple(Suit)
_JOKERS: Final = (Rank.SMALL_JOKER, Rank.BIG_JOKER)


def _split(view: RankCounts, need: int, jokers: int = 0) -> int | None:
    """How many of ``need`` wild cards are big jokers, ♥ level cards first (at least ``jokers``, those
    standing for a joker); ``None`` if the hand has too few."""
    big = max(jokers, need - view.wilds)
    return big if big <= view.big_wilds and need - big >= 0 else None


def _suits_of(view: RankCounts, rank: Rank) -> int:
    """The suits (bit ``1 << suit``) in which the hand holds natural cards of ``rank``."""
    return sum(1 << suit for suit in _SUITS if view.runs[suit] >> rank & 1)


def _of_a_rank(kind: PlayKind, size: int) -> Callable[[RankCounts, int], Iterator[RankPlay]]:
    def enumerate_kind(view: RankCounts, above: int = 0) -> Iterator[RankPlay]:
        level, rules, natural = view.level, view.rules, view.natural
        budget = view.wilds + view.big_wilds
        orders = rank_orders(level, rules)
        bomb = kind is PlayKind.BOMB
        sizes = range(4, min(max(natural) + budget, rules.max_bomb_size) + 1) if bomb else (size,)
        for count in sizes:
            for rank in NATURAL_RANKS:
                key = play_key(kind, rank, count, level, rules) if bomb else orders[rank]
                held = natural[rank]
                if key <= above:
                    continue
                if not held:
                    # the ♥ level cards alone, or beside big jokers that copy them, are level cards
                    if rank != level or not view.wilds:
                        continue
                    hearts = min(view.wilds, count)
                    big = count - hearts
                    if big <= view.big_wilds and (count < 3 or big) and (not bomb or count == 4):
                        yield RankPlay(kind, rank, count, count, key, big_jokers=big)
                    continue
                need = max(0, count - held)
                split = _split(view, need)
                if split is None or (split and bomb and count == 5 and held == 1):
                    continue
                yield RankPlay(kind, rank, count, need, key, big_jokers=split)
        if bomb:
            return
        for joker, held in zip(_JOKERS, (view.small_jokers, view.big_jokers), strict=True):
            key = orders[joker]
            if key <= above or size > 2:
                continue
            if held >= size:
                yield RankPlay(kind, joker, size, 0, key)
            elif joker is Rank.SMALL_JOKER and held and size == 2 and view.big_wilds:
                yield RankPlay(kind, joker, 2, 1, key, big_jokers=1)

    enumerate_kind.__doc__ = f"{kind.name.lower()}s by rank, wild cards where short"
    return enumerate_kind


def _pair_options(view: RankCounts) -> list[tuple[Rank | None, int, int, int]]:
    """A full house's pair: (rank, natural cards kept, wild cards needed, of which for a joker)."""
    natural = view.natural
    options: list[tuple[Rank | None, int, int, int]] = [
        (rank, min(natural[rank], 2), max(0, 2 - natural[rank]), 0) for rank in NATURAL_RANKS if natural[rank]
    ]
    if view.small_jokers == 2:
        options.append((Rank.SMALL_JOKER, 2, 0, 0))
    elif view.small_jokers and view.big_wilds:
        options.append((Rank.SMALL_JOKER, 1, 1, 1))
    if view.big_jokers == 2 and not view.rules.big_joker_wild:
        options.append((Rank.BIG_JOKER, 2, 0, 0))
    if view.wilds == 2:
        options.append((None, 0, 2, 0))
    return options


def _full_houses(view: RankCounts, above: int = 0) -> Iterator[RankPlay]:
    level, natural = view.level, view.natural
    budget = view.wilds + view.big_wilds
    orders = rank_orders(level, view.rules)
    top_rank = max(NATURAL_RANKS, key=orders.__getitem__)
    options = _pair_options(view)
    for rank in NATURAL_RANKS:
        key = orders[rank]
        if key <= above:
            continue
        kept = min(natural[rank], 3)
        for pair_rank, pair_kept, pair_need, jokers in options:
            need = 3 - kept + pair_need
            if pair_rank == rank or need > budget:
                continue
            big = _split(view, need, jokers)
            if big is None:
                continue
            natural_pair = pair_rank is not None and not pair_rank.is_joker
            if big:
                if full_house_dominated(rank, kept, pair_rank, natural_pair, orders, top_rank):
                    continue
                if kept == 1 and natural_pair and pair_kept == 1 and pair_rank is not None:
                    suits, pair_suits = _suits_of(view, rank), _suits_of(view, pair_rank)
                    same_suit_only = suits == pair_suits and suits.bit_count() == 1
                    if same_suit_only and highest_top(1 << rank | 1 << pair_rank, 5):
                        continue
            yield RankPlay(PlayKind.FULL_HOUSE, rank, 5, need, key, None, pair_rank, big)


def _shortfalls(natural: list[int], width: int) -> list[int]:
    """Running totals over sequence positions 0…14 of the cards each rank lacks of ``width``: the
    cards a window ``low``…``top`` lacks are ``sums[top] - sums[low - 1]``."""
    sums = [0]
    for position in range(1, 15):
        sums.append(sums[-1] + max(0, width - natural[rank_at_position(position)]))
    return sums


def _sequences(kind: PlayKind, width: int) -> Callable[[RankCounts, int], Iterator[RankPlay]]:
    def enumerate_kind(view: RankCounts, above: int = 0) -> Iterator[RankPlay]:
        rules, natural, runs = view.rules, view.natural, view.runs
        budget = view.wilds + view.big_wilds
        straight = kind is PlayKind.STRAIGHT
        fewest, longest = {
            PlayKind.STRAIGHT: rules.straight_lengths,
            PlayKind.TUBE: rules.tube_lengths,
            PlayKind.PLATE: rules.plate_lengths,
        }[kind]
        sums = _shortfalls(natural, width)
        present = view.present
        for length in range(fewest, longest + 1):
            for window in WINDOWS[length]:
                top = window.top
                if top <= above:
                    break
                need = sums[top] - sums[window.low - 1]
                if need > budget:
                    continue
                one_suit = straight and length == 5 and sum(1 for run in runs if run & window.mask) == 1
                forced = one_suit and not need and not rules.natural_straight_flush_is_straight
                if forced:
                    need = 1  # five of one suit are a straight flush: a wild card in place of one
                big = _split(view, need)
                if big is None or (forced and big):
                    continue
                if big:
                    naturals_mask = present & window.mask
                    rank_count = naturals_mask.bit_count()
                    most = max(min(natural[rank], width) for rank in window.ranks)
                    if (
                        highest_top(naturals_mask, length) != top
                        or (straight and length == 5 and (one_suit or rank_count < 2))
                        or (
                            not straight
                            and bomb_reading_exists(rules, naturals_mask, rank_count, most, length * width)
                        )
                    ):
                        continue
                lowest = rank_at_position(window.low)
                yield RankPlay(kind, lowest, length * width, need, top, big_jokers=big)

    enumerate_kind.__doc__ = f"{kind.name.lower()}s of every length the rule set allows"
    return enumerate_kind


def _airplanes(view: RankCounts, above: int = 0) -> Iterator[RankPlay]:
    rules, natural = view.rules, view.natural
    if not rules.airplanes:
        return
    budget = view.wilds + view.big_wilds
    fewest, longest = rules.plate_lengths
    triple_sums, wing_sums = _shortfalls(natural, 3), _shortfalls(natural, 2)
    present = view.present
    threes_held = sum(1 << rank for rank in NATURAL_RANKS if natural[rank] >= 3)
    for length in range(max(2, fewest), min(longest, 6) + 1):
        for triples in WINDOWS[length]:
            top = triples.top
            if top <= above:
                break
            taken = triples.mask
            triple_need = triple_sums[top] - triple_sums[triples.low - 1]
            if triple_need > budget:
                continue
            for wings in WINDOWS[length]:
                if wings.mask & taken:
                    continue
                need = triple_need + wing_sums[wings.top] - wing_sums[wings.low - 1]
                if need > budget:
                    continue
                wing_naturals = present & wings.mask
                if lowest_wing(wing_naturals, length, taken) != wings.top:
                    continue
                big = _split(view, need)
                if big is None:
                    continue
                naturals = (present & taken) | wing_naturals
                if big and best_airplane_top(naturals, threes_held & taken, length) != top:
                    continue
                lowest = rank_at_position(triples.low)
                wing_rank = rank_at_position(wings.low)
                yield RankPlay(PlayKind.AIRPLANE, lowest, 5 * length, need, top, None, wing_rank, big)


def _straight_flushes(view: RankCounts, above: int = 0) -> Iterator[RankPlay]:
    level, rules, runs = view.level, view.rules, view.runs
    budget = view.wilds + view.big_wilds
    for window in WINDOWS[5]:
        lowest = rank_at_position(window.low)
        key = play_key(PlayKind.STRAIGHT_FLUSH, lowest, 5, level, rules)
        if key <= above:
            continue
        span = 0b11111 << window.low
        for suit in _SUITS:
            held = runs[suit] & span
            need = 5 - held.bit_count()
            big = _split(view, need) if need <= budget else None
            if big is None:
                continue
            if big and highest_top(runs[suit] & window.mask, 5) != window.top:
                continue
            yield RankPlay(PlayKind.STRAIGHT_FLUSH, lowest, 5, need, key, suit, big_jokers=big)


def _chain_bombs(view: RankCounts, above: int = 0) -> Iterator[RankPlay]:
    rules, natural = view.rules, view.natural
    fewest, longest = rules.chain_bomb_lengths
    budget = view.wilds + view.big_wilds
    for width in range(4, rules.max_bomb_size + 1) if longest else ():
        strong = sum(1 << rank for rank in NATURAL_RANKS if natural[rank] + budget >= width)
        if strong.bit_count() < fewest:
            break
        for length in range(fewest, longest + 1):
            count = width * length
            for window in WINDOWS[length]:
                key = star_key(2 * (width + length), count, window.top)
                if key <= above:
                    break
                if window.mask & ~strong:
                    continue
                need = sum(max(0, width - natural[rank]) for rank in window.ranks)
                big = _split(view, need) if need <= budget else None
                if big is None:
                    continue
                naturals = sum(1 << rank for rank in window.ranks if natural[rank])
                most = max(min(natural[rank], width) for rank in window.ranks)
                if big and best_chain_key(rules, naturals, most, count) != key:
                    continue
                lowest = rank_at_position(window.low)
                yield RankPlay(PlayKind.CHAIN_BOMB, lowest, count, need, key, big_jokers=big, length=length)


def _three_jokers(view: RankCounts, above: int = 0) -> Iterator[RankPlay]:
    rules = view.rules
    key = play_key(PlayKind.THREE_JOKERS, Rank.SMALL_JOKER, 3, view.level, rules)
    small, big = view.small_jokers, view.big_jokers
    if rules.three_jokers_bomb and key > above and small and big and small + big >= 3:
        yield RankPlay(PlayKind.THREE_JOKERS, Rank.SMALL_JOKER, 3, 0, key)


def _four_jokers(view: RankCounts, above: int = 0) -> Iterator[RankPlay]:
    key = play_key(PlayKind.FOUR_JOKERS, Rank.SMALL_JOKER, 4, view.level, view.rules)
    if view.small_jokers == 2 and view.big_jokers == 2 and key > above:
        yield RankPlay(PlayKind.FOUR_JOKERS, Rank.SMALL_JOKER, 4, 0, key)


EXTENDED_RANK_ENUMERATORS: Final[dict[PlayKind, Callable[[RankCounts, int], Iterator[RankPlay]]]] = {
    PlayKind.SINGLE: _of_a_rank(PlayKind.SINGLE, 1),
    PlayKind.PAIR: _of_a_rank(PlayKind.PAIR, 2),
    PlayKind.TRIPLE: _of_a_rank(PlayKind.TRIPLE, 3),
    PlayKind.FULL_HOUSE: _full_houses,
    PlayKind.STRAIGHT: _sequences(PlayKind.STRAIGHT, 1),
    PlayKind.TUBE: _sequences(PlayKind.TUBE, 2),
    PlayKind.PLATE: _sequences(PlayKind.PLATE, 3),
    PlayKind.AIRPLANE: _airplanes,
    PlayKind.BOMB: _of_a_rank(PlayKind.BOMB, 4),
    PlayKind.STRAIGHT_FLUSH: _straight_flushes,
    PlayKind.CHAIN_BOMB: _chain_bombs,
    PlayKind.THREE_JOKERS: _three_jokers,
    PlayKind.FOUR_JOKERS: _four_jokers,
}
"""One enumerator per kind, as at the card level: ``enumerate(view, above)``."""
