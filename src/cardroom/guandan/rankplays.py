"""The rank-level view of legal moves, for bots and search: plays named by kind and ranks, with the
number of wild cards (逢人配) they need, where suits matter only for straight flushes.

Each :class:`RankPlay` uses as few wild cards as the hand allows and can name one concrete card choice
(:meth:`RankPlay.to_play`). Counting is done on per-rank card counts, so this view is far smaller and
faster than the card-level one. Rule sets with other play parameters (``huopin``) are served by
:mod:`cardroom.guandan.extended_ranks`, with the same values.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from itertools import chain, compress
from typing import Final, NamedTuple

from cardroom.cards import ALL_CARDS, BIG_JOKER, NATURAL_RANKS, Card, Rank, Suit, card_index, natural_index
from cardroom.guandan import native
from cardroom.guandan.combinations import card_counts, read_as, uses_extensions
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
from cardroom.guandan.ruleset import COMPETITION, RuleSet

_SUITS: Final = tuple(Suit)
_new: Final = tuple.__new__


class RankPlay(NamedTuple):
    """A play named by its ranks: kind, key rank (lowest rank of a sequence), number of cards, wild
    cards needed, the suit of a straight flush, the pair's rank in a full house (``None`` when the pair
    is two wild cards) or the lowest rank of an airplane's wings, the comparison key (as
    :attr:`Play.key`), how many of the wild cards are big jokers (``big_joker_wild``), and the number of
    bombs of a chained bomb (its shape; 0 for the other kinds)."""

    kind: PlayKind
    rank: Rank
    size: int
    wilds: int
    key: int
    suit: Suit | None = None
    pair_rank: Rank | None = None
    big_jokers: int = 0
    length: int = 0

    def beats(self, previous: RankPlay) -> bool:
        """The same comparison as :meth:`Play.beats`."""
        if self.kind.is_bomb:
            return not previous.kind.is_bomb or self.key > previous.key
        return self.kind is previous.kind and self.size == previous.size and self.key > previous.key

    def to_play(self, hand: Iterable[Card], level: Rank, rules: RuleSet = COMPETITION) -> Play:
        """One concrete card choice for this rank-level play from ``hand``.

        Natural cards are taken ♠, ♥, ♣, ♦ first and wild cards only where the play needs them; a plain
        straight avoids five natural cards of one suit. Raises ``ValueError`` if the hand cannot make it.
        """
        counts = [0] * 54
        for card in hand:
            counts[card.index] += 1
        wild = Card(level, Suit.HEARTS)
        wilds = counts[wild.index]
        counts[wild.index] = 0
        hearts = self.wilds - self.big_jokers
        counts[BIG_JOKER.index] -= self.big_jokers
        if hearts > wilds or counts[BIG_JOKER.index] < 0:
            raise ValueError(f"the hand cannot make {self}")
        if uses_extensions(rules):
            from cardroom.guandan.extended_ranks import choose  # imported here: it imports this module

            chosen = choose(self, counts, level, rules)
        else:
            chosen = _choose(self, counts, level, rules)
        if chosen is None or len(chosen) + self.wilds != self.size:
            raise ValueError(f"the hand cannot make {self}")
        cards = tuple(sorted(chosen + [wild] * hearts + [BIG_JOKER] * self.big_jokers, key=card_index))
        play = read_as(cards, self.kind, self.rank, level, rules)
        if play is None:
            raise ValueError(f"the hand cannot make {self}")
        return play


def _take(counts: list[int], rank: Rank, number: int, suit: Suit | None = None) -> list[Card]:
    taken: list[Card] = []
    for each in (suit,) if suit is not None else _SUITS:
        index = natural_index(rank, each)
        available = min(counts[index], number - len(taken))
        taken += [ALL_CARDS[natural_index(rank, each)]] * available
        counts[index] -= available
    return taken


def _choose(play: RankPlay, counts: list[int], level: Rank, rules: RuleSet) -> list[Card] | None:
    kind = play.kind
    if kind is PlayKind.FOUR_JOKERS:
        return [Card(Rank.SMALL_JOKER)] * 2 + [Card(Rank.BIG_JOKER)] * 2
    if play.rank.is_joker:
        return [Card(play.rank)] * play.size
    width = {PlayKind.STRAIGHT: 1, PlayKind.STRAIGHT_FLUSH: 1, PlayKind.TUBE: 2, PlayKind.PLATE: 3}
    if kind in width:
        per = width[kind]
        low = 1 if play.rank == Rank.ACE else int(play.rank)
        chosen: list[Card] = []
        for position in range(low, low + play.size // per):
            chosen += _take(counts, rank_at_position(position), per, play.suit)
        excess = len(chosen) + play.wilds - play.size
        if excess > 0:
            return chosen[excess:]
        if kind is PlayKind.STRAIGHT and not play.wilds and not rules.natural_straight_flush_is_straight:
            return _unflush(chosen, counts)
        return chosen
    if kind is PlayKind.FULL_HOUSE:
        chosen = _take(counts, play.rank, 3)
        if play.pair_rank is None:
            return chosen
        if play.pair_rank.is_joker:
            return chosen + [Card(play.pair_rank)] * 2
        return chosen + _take(counts, play.pair_rank, 2)
    return _take(counts, play.rank, play.size - play.wilds)


def _unflush(chosen: list[Card], counts: list[int]) -> list[Card] | None:
    if not chosen:
        return None
    suit = chosen[0].suit
    if any(card.suit is not suit for card in chosen):
        return chosen
    for position, card in enumerate(chosen):
        for other in _SUITS:
            if other is not suit and counts[natural_index(card.rank, other)]:
                return [*chosen[:position], Card(card.rank, other), *chosen[position + 1 :]]
    return None


class RankCounts:
    """Per-rank counts of a hand's natural cards (the ♥ level cards apart, as wild cards), with
    bitmasks over sequence positions 1…14 (the ace at both ends) of the ranks held, per suit too."""

    __slots__ = (
        "big_jokers",
        "big_wilds",
        "extended",
        "level",
        "natural",
        "present",
        "rules",
        "runs",
        "small_jokers",
        "wilds",
    )

    def __init__(self, cards: Iterable[Card], level: Rank, rules: RuleSet = COMPETITION) -> None:
        counts = card_counts(cards)
        wild_index = natural_index(level, Suit.HEARTS)
        self.wilds = counts[wild_index]
        counts[wild_index] = 0
        self.level = level
        self.rules = rules
        self.small_jokers = counts[0]
        self.big_jokers = counts[1]
        if rules is not COMPETITION and uses_extensions(rules):
            self.extended = True
            self.big_wilds = counts[1] if rules.big_joker_wild else 0
        else:
            self.extended = False
            self.big_wilds = 0
        columns = (counts[2::4], counts[3::4], counts[4::4], counts[5::4])
        self.natural = [0, 0, *map(sum, zip(*columns, strict=True))]
        self.runs = [sum(compress(_RANK_BITS, column)) | (2 if column[12] else 0) for column in columns]
        self.present = self.runs[0] | self.runs[1] | self.runs[2] | self.runs[3]


_RANK_BITS: Final = tuple(1 << rank for rank in range(2, 15))
"""The sequence-position bit of each rank 2…A (the ace is also position 1)."""

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

_BOMB_KINDS: Final = (PlayKind.BOMB, PlayKind.STRAIGHT_FLUSH, PlayKind.FOUR_JOKERS)


def rank_enumerators(view: RankCounts) -> dict[PlayKind, Callable[[RankCounts, int], Iterator[RankPlay]]]:
    """The rank-level enumerator of every kind the hand's rule set has."""
    if not view.extended:
        return RANK_ENUMERATORS
    from cardroom.guandan.extended_ranks import EXTENDED_RANK_ENUMERATORS  # imported here: it imports this

    return EXTENDED_RANK_ENUMERATORS


def iter_rank_leads(view: RankCounts) -> Iterator[RankPlay]:
    """Every rank-level play that may lead, each with the fewest wild cards it needs."""
    table = rank_enumerators(view)
    return chain.from_iterable(enumerate_kind(view, 0) for enumerate_kind in table.values())


def iter_rank_follows(view: RankCounts, previous: RankPlay) -> Iterator[RankPlay]:
    """Every rank-level play that beats ``previous``."""
    table = rank_enumerators(view)
    bomb_kinds = _BOMB_KINDS if table is RANK_ENUMERATORS else tuple(kind for kind in table if kind.is_bomb)
    if previous.kind.is_bomb:
        return chain.from_iterable(table[kind](view, previous.key) for kind in bomb_kinds)
    enumerate_same = table.get(previous.kind)
    same = (
        play
        for play in (enumerate_same(view, previous.key) if enumerate_same else ())
        if play.size == previous.size
    )
    return chain(same, *(table[kind](view, 0) for kind in bomb_kinds))


native.register_rank_play(RankPlay)


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
