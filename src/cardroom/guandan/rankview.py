"""The rank-level view's values: :class:`RankPlay` (a play named by its ranks, and one concrete card
choice for it) and :class:`RankCounts` (a hand counted by rank). The enumerators that list rank-level
plays are :mod:`cardroom.guandan.rankplays` (the competition's) and
:mod:`cardroom.guandan.extended_ranks` (rule sets with extended plays); both build on this module.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from itertools import compress
from typing import Final, NamedTuple

from cardroom.cards import ALL_CARDS, BIG_JOKER, SMALL_JOKER, Card, Rank, Suit, card_index, natural_index
from cardroom.guandan import native
from cardroom.guandan.hands import card_counts
from cardroom.guandan.plays import Play, PlayKind, rank_at_position
from cardroom.guandan.readings import read_as
from cardroom.guandan.ruleset import COMPETITION, RuleSet

_SUITS: Final = tuple(Suit)


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
        if rules.extended_plays:
            chosen = _choose_extended(self, counts, level, rules)
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

    def __init__(
        self, cards: Iterable[Card] | Mapping[Card, int], level: Rank, rules: RuleSet = COMPETITION
    ) -> None:
        counts = card_counts(cards)
        wild_index = natural_index(level, Suit.HEARTS)
        self.wilds = counts[wild_index]
        counts[wild_index] = 0
        self.level = level
        self.rules = rules
        self.small_jokers = counts[0]
        self.big_jokers = counts[1]
        if rules is not COMPETITION and rules.extended_plays:
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


_WIDTHS: Final = {PlayKind.STRAIGHT: 1, PlayKind.STRAIGHT_FLUSH: 1, PlayKind.TUBE: 2, PlayKind.PLATE: 3}


def _choose_extended(play: RankPlay, counts: list[int], level: Rank, rules: RuleSet) -> list[Card] | None:
    """The natural cards of one concrete choice for ``play`` (``counts`` without the wild cards it uses):
    ♠♥♣♦ first, as many as the play keeps; a plain five-card straight or a full house with a big joker
    avoids natural cards that would also make a straight flush."""
    kind = play.kind
    keep = play.size - play.wilds
    if kind is PlayKind.FOUR_JOKERS:
        return [SMALL_JOKER] * 2 + [BIG_JOKER] * 2
    if kind is PlayKind.THREE_JOKERS:
        big = 1 if counts[SMALL_JOKER.index] >= 2 else 2
        return [SMALL_JOKER] * (3 - big) + [BIG_JOKER] * big
    if play.rank.is_joker:
        return [Card(play.rank)] * keep
    if kind in _WIDTHS or kind is PlayKind.CHAIN_BOMB:
        per = _WIDTHS.get(kind) or play.size // play.length
        low = 1 if play.rank == Rank.ACE else int(play.rank)
        chosen: list[Card] = []
        for position in range(low, low + play.size // per):
            chosen += _take(counts, rank_at_position(position), per, play.suit)
        excess = len(chosen) - keep
        if excess > 0:
            return chosen[excess:] if per == 1 else _drop(chosen, excess)
        if kind is PlayKind.STRAIGHT and play.size == 5 and (play.big_jokers or not play.wilds):
            if not play.wilds and rules.natural_straight_flush_is_straight:
                return chosen
            return _unflush(chosen, counts)
        return chosen
    if kind is PlayKind.AIRPLANE:
        assert play.pair_rank is not None
        low = 1 if play.rank == Rank.ACE else int(play.rank)
        wing_low = 1 if play.pair_rank == Rank.ACE else int(play.pair_rank)
        length = play.size // 5
        chosen = []
        for position in range(low, low + length):
            chosen += _take(counts, rank_at_position(position), 3)
        for position in range(wing_low, wing_low + length):
            chosen += _take(counts, rank_at_position(position), 2)
        return chosen
    if kind is PlayKind.FULL_HOUSE:
        chosen = _take(counts, play.rank, 3)
        if play.pair_rank is None:
            return chosen
        if play.pair_rank.is_joker:
            return chosen + [Card(play.pair_rank)] * (keep - len(chosen))
        pair = _take(counts, play.pair_rank, keep - len(chosen))
        if play.big_jokers and len(chosen) == 1 and len(pair) == 1 and pair[0].suit is chosen[0].suit:
            other = _other_suit(counts, play.pair_rank, chosen[0].suit) or _other_suit(
                counts, play.rank, pair[0].suit
            )
            if other is not None and other.rank == play.pair_rank:
                pair = [other]
            elif other is not None:
                chosen = [other]
        return chosen + pair
    return _take(counts, play.rank, keep)


def _drop(chosen: list[Card], excess: int) -> list[Card]:
    """Leave out ``excess`` natural cards from the fullest ranks (wild cards take their place)."""
    by_rank: dict[Rank, list[Card]] = {}
    for card in chosen:
        by_rank.setdefault(card.rank, []).append(card)
    for _ in range(excess):
        fullest = max(by_rank, key=lambda rank: len(by_rank[rank]))
        by_rank[fullest].pop()
    return [card for cards in by_rank.values() for card in cards]


def _other_suit(counts: list[int], rank: Rank, suit: Suit | None) -> Card | None:
    for other in _SUITS:
        if other is not suit and counts[natural_index(rank, other)]:
            return ALL_CARDS[natural_index(rank, other)]
    return None


native.register_rank_play(RankPlay)
