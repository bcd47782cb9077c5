"""A slow, obviously-correct reference for Guandan plays, written from RULES.md ("Guandan, the
competition preset") alone, to cross-check the fast engine in :mod:`cardroom.guandan.combinations` and
:mod:`cardroom.guandan.moves` (neither is imported here).

The method is literal:

* a *plain* set of cards (no wild card) is checked against the table of combinations as written;
* a set with wild cards (逢人配, the ♥ level cards) is read by trying every one of the 52 suited cards
  for every wild card and reading the concrete set plainly; a wild card alone is a single of the level
  rank, two wild cards alone a pair of the level rank ("Played alone, or as a pair, they are level
  cards");
* the leads of a hand are the readings of every sub-multiset of it; the follows are the leads that beat
  the previous play by the bomb ladder and the order of ranks, both restated here from RULES.md.

Everything is exponential on purpose: it is meant for small hands (about 12 cards at most), and for
pruned enumerations whose pruning is argued from the table of combinations (see
:func:`candidate_multisets`).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Iterator
from functools import cache
from itertools import combinations, combinations_with_replacement, product
from typing import Final

from cardroom.cards import NATURAL_RANKS, Card, Rank, Suit
from cardroom.guandan.plays import Play, PlayKind, play_key

Reading = tuple[PlayKind, Rank, tuple[Card, ...]]
"""One reading of a set of cards: (kind, key rank, the cards sorted by ``card.index``)."""

PlainReading = tuple[PlayKind, Rank]

MAX_PLAY_SIZE: Final = 10
"""The largest play: a bomb of the eight natural cards of a rank and both wild cards."""


def sort_by_index(cards: Iterable[Card]) -> tuple[Card, ...]:
    return tuple(sorted(cards, key=lambda card: card.index))


def wild_card(level: Rank) -> Card:
    """The wild card of a deal: the ♥ card of the level rank."""
    return Card(level, Suit.HEARTS)


# --- sequences: ranks keep their natural order, A is high or low, no wrap-around -------------------


def rank_at(position: int) -> Rank:
    """The rank at a position of the sequence line A(1) 2 3 … K A(14)."""
    return Rank.ACE if position in (1, 14) else Rank(position)


def sequence_lows(ranks: frozenset[Rank]) -> tuple[Rank, ...]:
    """The lowest rank of every run of ``len(ranks)`` consecutive positions on the line
    A 2 3 … K A whose ranks are exactly ``ranks`` (A2345 has lowest rank A, 10JQKA has 10)."""
    length = len(ranks)
    lows = []
    for start in range(1, 14 - length + 2):
        window = frozenset(rank_at(position) for position in range(start, start + length))
        if len(window) == length and window == ranks:
            lows.append(rank_at(start))
    return tuple(lows)


def sequence_top(rank: Rank, length: int) -> int:
    """The top position of a sequence of ``length`` ranks whose lowest rank is ``rank``."""
    low = 1 if rank == Rank.ACE else int(rank)
    return low + length - 1


# --- plain cards against the table of combinations -------------------------------------------------


@cache
def _plain(ranks: tuple[Rank, ...], one_suit: bool, loose: bool) -> frozenset[PlainReading]:
    """The readings of plain cards with these ranks (sorted), ``one_suit`` telling whether they are
    all suited cards of a single suit; ``loose`` lets five natural cards of one suit in sequence be a
    plain straight as well as a straight flush."""
    size = len(ranks)
    count = Counter(ranks)
    distinct = frozenset(count)
    has_joker = any(rank.is_joker for rank in ranks)
    multiplicities = sorted(count.values())
    found: set[PlainReading] = set()
    # single: any card
    if size == 1:
        found.add((PlayKind.SINGLE, ranks[0]))
    # pair: two of one rank; two small jokers or two big jokers (small + big is two ranks)
    if size == 2 and len(distinct) == 1:
        found.add((PlayKind.PAIR, ranks[0]))
    # triple: three of one rank (there are only two of each joker)
    if size == 3 and len(distinct) == 1 and not has_joker:
        found.add((PlayKind.TRIPLE, ranks[0]))
    # full house: a triple and a pair of another rank (the pair may be a joker pair); keyed by the
    # triple
    if size == 5 and multiplicities == [2, 3]:
        (triple_rank,) = (rank for rank, n in count.items() if n == 3)
        if not triple_rank.is_joker:
            found.add((PlayKind.FULL_HOUSE, triple_rank))
    # straight and straight flush: exactly 5 consecutive ranks, no jokers
    if size == 5 and not has_joker and len(distinct) == 5:
        for low in sequence_lows(distinct):
            if one_suit:
                found.add((PlayKind.STRAIGHT_FLUSH, low))
            if not one_suit or loose:
                found.add((PlayKind.STRAIGHT, low))
    # 三连对: exactly three consecutive pairs
    if size == 6 and not has_joker and multiplicities == [2, 2, 2]:
        found.update((PlayKind.TUBE, low) for low in sequence_lows(distinct))
    # 钢板: exactly two consecutive triples
    if size == 6 and not has_joker and multiplicities == [3, 3]:
        found.update((PlayKind.PLATE, low) for low in sequence_lows(distinct))
    # bomb: 4 to 10 cards of one (non-joker) rank
    if 4 <= size <= MAX_PLAY_SIZE and len(distinct) == 1 and not has_joker:
        found.add((PlayKind.BOMB, ranks[0]))
    # four jokers: both small and both big jokers
    if count == Counter({Rank.SMALL_JOKER: 2, Rank.BIG_JOKER: 2}):
        found.add((PlayKind.FOUR_JOKERS, Rank.SMALL_JOKER))
    return frozenset(found)


def is_one_suit(cards: Iterable[Card]) -> bool:
    """Whether the cards are all suited cards of one suit."""
    suits = {card.suit for card in cards}
    return len(suits) == 1 and None not in suits


def plain_readings(cards: Iterable[Card], loose: bool = False) -> frozenset[PlainReading]:
    """Every (kind, key rank) the table of combinations gives to these cards taken at face value
    (no card is wild)."""
    held = tuple(cards)
    return _plain(tuple(sorted(card.rank for card in held)), is_one_suit(held), loose)


# --- wild cards ------------------------------------------------------------------------------------


@cache
def _readings(held: tuple[Card, ...], level: Rank, loose: bool) -> dict[Reading, tuple[Card, ...]]:
    wild = wild_card(level)
    wilds = held.count(wild)
    naturals = tuple(card for card in held if card is not wild)
    if not naturals and wilds == 1:
        return {(PlayKind.SINGLE, level, held): (wild,)}
    if not naturals and wilds == 2:
        return {(PlayKind.PAIR, level, held): (wild, wild)}
    found: dict[Reading, tuple[Card, ...]] = {}
    if not 1 <= len(held) <= MAX_PLAY_SIZE:
        return found
    # Each wild card stands for every rank and every suit in turn (wild cards are interchangeable, so
    # their ranks are taken as a multiset). The plain definitions see only the ranks and whether all
    # the cards are of one suit; the suits chosen decide the latter alone, so each outcome of it is
    # kept with the first choice of suits that gives it.
    natural_ranks = tuple(card.rank for card in naturals)
    natural_suits = frozenset(card.suit for card in naturals)
    suit_choices: dict[bool, tuple[Suit, ...]] = {}
    for stand_suits in product(Suit, repeat=wilds):
        suits = natural_suits.union(stand_suits)
        suit_choices.setdefault(len(suits) == 1 and None not in suits, stand_suits)
    for stand_ranks in combinations_with_replacement(NATURAL_RANKS, wilds):
        ranks = tuple(sorted(natural_ranks + stand_ranks))
        for one_suit, stand_suits in suit_choices.items():
            for kind, rank in _plain(ranks, one_suit, loose):
                if (kind, rank, held) not in found:
                    stand_ins = tuple(map(Card, stand_ranks, stand_suits))
                    found[kind, rank, held] = sort_by_index(stand_ins)
    return found


def brute_readings(
    cards: Iterable[Card], level: Rank, natural_straight_flush_is_straight: bool = False
) -> dict[Reading, tuple[Card, ...]]:
    """Every reading of exactly these cards, each with a witness: the cards its wild cards stand for."""
    return dict(_readings(sort_by_index(cards), level, natural_straight_flush_is_straight))


def brute_classify(
    cards: Iterable[Card], level: Rank, natural_straight_flush_is_straight: bool = False
) -> set[Reading]:
    """Every (kind, key rank, cards sorted by index) reading of exactly these cards at this level."""
    return set(brute_readings(cards, level, natural_straight_flush_is_straight))


def substitute(cards: Iterable[Card], stands_for: Iterable[Card], level: Rank) -> tuple[Card, ...]:
    """The concrete cards: each wild card replaced by one card of ``stands_for`` (as many wild
    cards as ``stands_for`` has cards; raises ``ValueError`` otherwise)."""
    wild = wild_card(level)
    held = tuple(cards)
    read = tuple(stands_for)
    if held.count(wild) != len(read):
        raise ValueError(f"{held.count(wild)} wild cards but {len(read)} readings")
    return sort_by_index([card for card in held if card is not wild] + list(read))


def plain_accepts(play: Play, level: Rank, natural_straight_flush_is_straight: bool = False) -> bool:
    """Whether the play's cards, each wild card replaced by the card it stands for, are a plain
    ``play.kind`` with key rank ``play.rank`` (and no wild card stands for a joker)."""
    if play.rank is None or any(card.is_joker for card in play.stands_for):
        return False
    try:
        concrete = substitute(play.cards, play.stands_for, level)
    except ValueError:
        return False
    readings = plain_readings(concrete, natural_straight_flush_is_straight)
    return (play.kind, play.rank) in readings


# --- hands -----------------------------------------------------------------------------------------


def sub_multisets(cards: Iterable[Card], sizes: Iterable[int]) -> Iterator[tuple[Card, ...]]:
    """Every distinct sub-multiset of ``cards`` whose size is in ``sizes``, sorted by index: each
    distinct card is taken 0, 1, … times up to its multiplicity (never past the largest size)."""
    wanted = frozenset(sizes)
    if not wanted:
        return
    largest = max(wanted)
    count = Counter(cards)
    distinct = sort_by_index(count)

    def extend(at: int, taken: tuple[Card, ...]) -> Iterator[tuple[Card, ...]]:
        if at == len(distinct):
            if len(taken) in wanted:
                yield taken
            return
        card = distinct[at]
        for times in range(min(count[card], largest - len(taken)) + 1):
            yield from extend(at + 1, taken + (card,) * times)

    yield from extend(0, ())


def brute_lead_readings(
    hand: Iterable[Card], level: Rank, natural_straight_flush_is_straight: bool = False
) -> dict[Reading, tuple[Card, ...]]:
    """Every reading of every sub-multiset of the hand (sizes 1..10), with a witness each."""
    found: dict[Reading, tuple[Card, ...]] = {}
    for cards in sub_multisets(hand, range(1, MAX_PLAY_SIZE + 1)):
        found.update(brute_readings(cards, level, natural_straight_flush_is_straight))
    return found


def brute_leads(
    hand: Iterable[Card], level: Rank, natural_straight_flush_is_straight: bool = False
) -> set[Reading]:
    """Every lead of the hand: the union of :func:`brute_classify` over its sub-multisets."""
    return set(brute_lead_readings(hand, level, natural_straight_flush_is_straight))


def reading_play(reading: Reading, stands_for: tuple[Card, ...], level: Rank) -> Play:
    """A :class:`Play` value for a reference reading (to hand to the fast engine as a previous play)."""
    kind, rank, cards = reading
    return Play(kind, rank, cards, stands_for, level, play_key(kind, rank, len(cards), level))


# --- which play beats which ------------------------------------------------------------------------

BOMB_LADDER: Final[tuple[tuple[PlayKind, int], ...]] = (
    (PlayKind.BOMB, 4),
    (PlayKind.BOMB, 5),
    (PlayKind.STRAIGHT_FLUSH, 5),
    (PlayKind.BOMB, 6),
    (PlayKind.BOMB, 7),
    (PlayKind.BOMB, 8),
    (PlayKind.BOMB, 9),
    (PlayKind.BOMB, 10),
    (PlayKind.FOUR_JOKERS, 4),
)
"""RULES.md: every non-bomb < 4-card bomb < 5-card bomb < straight flush < 6 < 7 < 8 < 9 < 10-card
bomb < four jokers."""

SEQUENCE_WIDTHS: Final = {
    PlayKind.STRAIGHT: 1,
    PlayKind.STRAIGHT_FLUSH: 1,
    PlayKind.TUBE: 2,
    PlayKind.PLATE: 3,
}


@cache
def order_of_rank(rank: Rank, level: Rank) -> int:
    """Order for singles, pairs, triples, full houses and bombs: big joker > small joker > level rank
    > A > K > … > 2."""
    line = [r for r in Rank if not r.is_joker and r != level]  # 2 … A without the level rank
    line += [level, Rank.SMALL_JOKER, Rank.BIG_JOKER]
    return line.index(rank)


def strength(kind: PlayKind, rank: Rank, size: int, level: Rank) -> int:
    """The value compared within one kind (or one rung of the bomb ladder): the top rank's position
    for sequences, the order of ranks otherwise."""
    width = SEQUENCE_WIDTHS.get(kind)
    if width is not None:
        return sequence_top(rank, size // width)
    if kind is PlayKind.FOUR_JOKERS:
        return 0
    return order_of_rank(rank, level)


def brute_beats(
    kind: PlayKind,
    rank: Rank,
    size: int,
    previous_kind: PlayKind,
    previous_rank: Rank,
    previous_size: int,
    level: Rank,
) -> bool:
    """RULES.md: a play beats the previous one if it is the same kind and size with a higher key, or
    it is a bomb-class play that outranks it on the bomb ladder."""
    rung = (kind, size)
    previous_rung = (previous_kind, previous_size)
    mine = strength(kind, rank, size, level)
    theirs = strength(previous_kind, previous_rank, previous_size, level)
    if rung in BOMB_LADDER:
        if previous_rung not in BOMB_LADDER:
            return True
        return (BOMB_LADDER.index(rung), mine) > (BOMB_LADDER.index(previous_rung), theirs)
    if previous_rung in BOMB_LADDER:
        return False
    return kind is previous_kind and size == previous_size and mine > theirs


def brute_follows(
    hand: Iterable[Card],
    previous_play: Play,
    level: Rank,
    natural_straight_flush_is_straight: bool = False,
) -> set[Reading]:
    """Every lead of the hand that beats ``previous_play`` (its kind, rank and number of cards)."""
    previous_rank = previous_play.rank
    if previous_play.kind is PlayKind.PASS or previous_rank is None:
        raise ValueError("the previous play must be a play, not a pass")
    return {
        (kind, rank, cards)
        for kind, rank, cards in brute_leads(hand, level, natural_straight_flush_is_straight)
        if brute_beats(
            kind, rank, len(cards), previous_play.kind, previous_rank, len(previous_play.cards), level
        )
    }


# --- a pruned enumeration for full hands -----------------------------------------------------------


def rank_windows(length: int) -> tuple[frozenset[Rank], ...]:
    """Every set of ``length`` consecutive ranks on the line A 2 … K A."""
    return tuple(
        frozenset(rank_at(position) for position in range(start, start + length))
        for start in range(1, 14 - length + 2)
    )


def _multisets_over(
    hand: tuple[Card, ...], ranks: frozenset[Rank], wild: Card, size: int
) -> Iterator[tuple[Card, ...]]:
    pool = [card for card in hand if card is wild or card.rank in ranks]
    return sub_multisets(pool, (size,))


def candidate_multisets(hand: Iterable[Card], level: Rank, size: int) -> set[tuple[Card, ...]]:
    """The sub-multisets of ``size`` cards of the hand that can make a play, found without trying
    every sub-multiset. Substituting wild cards never changes the other (natural) cards, so the
    natural cards of a play already have the ranks its shape requires:

    * 1 to 3 cards: every sub-multiset (cheap even for 27 cards);
    * 4 cards: a bomb (naturals of one rank) or four jokers;
    * 5 cards: a full house (naturals of at most two ranks, jokers included) or a straight,
      straight flush (naturals within 5 consecutive ranks) or bomb (one rank);
    * 6 cards: 三连对, 钢板 or bomb: naturals within 3 consecutive ranks, no jokers;
    * 7 to 10 cards: a bomb, naturals of one rank.
    """
    held = sort_by_index(hand)
    wild = wild_card(level)
    if size <= 3:
        return set(sub_multisets(held, (size,)))
    groups: list[frozenset[Rank]]
    single_ranks = [frozenset((rank,)) for rank in Rank]
    if size == 4:
        groups = [*single_ranks, frozenset((Rank.SMALL_JOKER, Rank.BIG_JOKER))]
    elif size == 5:
        groups = [frozenset(two) for two in combinations(Rank, 2)] + list(rank_windows(5))
    elif size == 6:
        groups = list(rank_windows(3))
    elif size <= MAX_PLAY_SIZE:
        groups = single_ranks
    else:
        groups = []
    found: set[tuple[Card, ...]] = set()
    for ranks in groups:
        found.update(_multisets_over(held, ranks, wild, size))
    return found
