"""A slow, obviously-correct reference for Guandan plays, written from docs/rules/competition.md (the
competition preset") alone, to cross-check the fast engine in :mod:`cardroom.guandan.combinations` and
:mod:`cardroom.guandan.moves` (neither is imported here).

The method is literal:

* a *plain* set of cards (no wild card) is checked against the table of combinations as written;
* a set with wild cards (逢人配, the ♥ level cards) is read by trying every one of the 52 suited cards
  for every wild card and reading the concrete set plainly; a wild card alone is a single of the level
  rank, two wild cards alone a pair of the level rank ("Played alone, or as a pair, they are level
  cards");
* the leads of a hand are the readings of every sub-multiset of it; the follows are the leads that beat
  the previous play by the bomb ladder and the order of ranks, both restated here from
  docs/rules/competition.md#bomb-order and #rank-order.

Everything is exponential on purpose: it is meant for small hands (about 12 cards at most), and for
pruned enumerations whose pruning is argued from the table of combinations (see
:func:`candidate_multisets`).

The second part (:class:`Variant`, ``variant_*``) does the same for the play rules that differ between
rule sets, written from docs/rules/huopin.md: long sequences,
airplanes, chained and three-joker bombs, stars, another order of ranks, and the big joker as a second
wild card whose cards are kept only in their largest readings.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from functools import cache
from itertools import combinations, combinations_with_replacement, product
from typing import Final

from cardroom.cards import NATURAL_RANKS, Card, Rank, Suit, card_index
from cardroom.guandan.plays import Play, PlayKind, play_key

Reading = tuple[PlayKind, Rank, tuple[Card, ...]]
"""One reading of a set of cards: (kind, key rank, the cards sorted by ``card.index``)."""

PlainReading = tuple[PlayKind, Rank]

SUITS: Final = tuple(Suit)

MAX_PLAY_SIZE: Final = 10
"""The largest play: a bomb of the eight natural cards of a rank and both wild cards."""


def sort_by_index(cards: Iterable[Card]) -> tuple[Card, ...]:
    return tuple(sorted(cards, key=card_index))


@cache
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
    has_joker = Rank.SMALL_JOKER in count or Rank.BIG_JOKER in count
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
    if size == 4 and count[Rank.SMALL_JOKER] == 2 and count[Rank.BIG_JOKER] == 2:
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
    natural_suits = frozenset(card.suit for card in naturals)
    suit_choices: dict[bool, tuple[Suit, ...]] = {}
    for stand_suits in product(SUITS, repeat=wilds):
        suits = natural_suits.union(stand_suits)
        suit_choices.setdefault(len(suits) == 1 and None not in suits, stand_suits)
    natural_ranks = tuple(sorted(card.rank for card in naturals))
    for stand_ranks, one_suit, readings in _stand_ins(natural_ranks, wilds, tuple(suit_choices), loose):
        for kind, rank in readings:
            if (kind, rank, held) not in found:
                stand_ins = tuple(map(Card, stand_ranks, suit_choices[one_suit]))
                found[kind, rank, held] = sort_by_index(stand_ins)
    return found


@cache
def _stand_ins(
    natural_ranks: tuple[Rank, ...], wilds: int, one_suit_outcomes: tuple[bool, ...], loose: bool
) -> tuple[tuple[tuple[Rank, ...], bool, frozenset[PlainReading]], ...]:
    """:func:`_readings`' trials that read as something, in its order: each multiset of ranks the
    ``wilds`` wild cards stand for, beside natural cards of ``natural_ranks`` (sorted), with each
    outcome of "all of one suit" the suits allow, and the plain readings it gives. Kept by ranks, not
    by cards: the many sets of cards with the same ranks share it."""
    trials = []
    for stand_ranks in combinations_with_replacement(NATURAL_RANKS, wilds):
        ranks = tuple(sorted(natural_ranks + stand_ranks))
        for one_suit in one_suit_outcomes:
            if readings := _plain(ranks, one_suit, loose):
                trials.append((stand_ranks, one_suit, readings))
    return tuple(trials)


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
    taken: list[tuple[Card, ...]] = [()]
    for card in sort_by_index(count):
        taken = [
            chosen + (card,) * times
            for chosen in taken
            for times in range(min(count[card], largest - len(chosen)) + 1)
        ]
    yield from (chosen for chosen in taken if len(chosen) in wanted)


def brute_lead_readings(
    hand: Iterable[Card], level: Rank, natural_straight_flush_is_straight: bool = False
) -> dict[Reading, tuple[Card, ...]]:
    """Every reading of every sub-multiset of the hand (sizes 1..10), with a witness each."""
    found: dict[Reading, tuple[Card, ...]] = {}
    for cards in sub_multisets(hand, range(1, MAX_PLAY_SIZE + 1)):
        found.update(_readings(cards, level, natural_straight_flush_is_straight))
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
"""docs/rules/competition.md#bomb-order: every non-bomb < 4-card bomb < 5-card bomb < straight flush < 6 < 7 <
8 < 9 < 10-card bomb < four jokers."""

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
    """docs/rules/competition.md#beating: a play beats the previous one if it is the same kind and size with a
    higher key, or it is a bomb-class play that outranks it on the bomb ladder."""
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


def _runs_over(
    hand: tuple[Card, ...], ranks: frozenset[Rank], wild: Card, size: int
) -> Iterator[tuple[Card, ...]]:
    """The sub-multisets of ``size`` cards whose natural cards are of distinct ranks among ``ranks``,
    wild cards making up the rest."""
    wilds = hand.count(wild)
    distinct = [card for card in dict.fromkeys(hand) if card is not wild and card.rank in ranks]
    choices = [[(), *((card,) for card in distinct if card.rank == rank)] for rank in ranks]
    for picked in product(*choices):
        naturals = tuple(card for pick in picked for card in pick)
        if 0 <= size - len(naturals) <= wilds:
            yield sort_by_index(naturals + (wild,) * (size - len(naturals)))


def candidate_multisets(hand: Iterable[Card], level: Rank, size: int) -> set[tuple[Card, ...]]:
    """The sub-multisets of ``size`` cards of the hand that can make a play, found without trying
    every sub-multiset. Substituting wild cards never changes the other (natural) cards, so the
    natural cards of a play already have the ranks its shape requires:

    * 1 to 3 cards: every sub-multiset (cheap even for 27 cards);
    * 4 cards: a bomb (naturals of one rank) or four jokers;
    * 5 cards: a full house or bomb (naturals of at most two ranks, jokers included) or a straight
      or straight flush (naturals of distinct ranks within 5 consecutive ranks);
    * 6 cards: 三连对, 钢板 or bomb: naturals within 3 consecutive ranks, no jokers;
    * 7 to 10 cards: a bomb, naturals of one rank.
    """
    held = sort_by_index(hand)
    wild = wild_card(level)
    if size <= 3:
        return set(sub_multisets(held, (size,)))
    found: set[tuple[Card, ...]] = set()
    groups: list[frozenset[Rank]]
    single_ranks = [frozenset((rank,)) for rank in Rank]
    if size == 4:
        groups = [*single_ranks, frozenset((Rank.SMALL_JOKER, Rank.BIG_JOKER))]
    elif size == 5:
        groups = [frozenset(two) for two in combinations(Rank, 2)]
        for window in rank_windows(5):
            found.update(_runs_over(held, window, wild, size))
    elif size == 6:
        groups = list(rank_windows(3))
    elif size <= MAX_PLAY_SIZE:
        groups = single_ranks
    else:
        groups = []
    for ranks in groups:
        found.update(_multisets_over(held, ranks, wild, size))
    return found


# === rule-set variants: 火拼掼蛋 (docs/rules/huopin.md) ===================
#
# The same literal method, for the play rules that differ between rule sets. The reference restates
# them itself (:class:`Variant`), from docs/rules/huopin.md, rather than importing the engine's
# rule set: sequences of a range of lengths, airplanes with wings, bombs of up to 12 cards, chained and
# three-joker bombs, bombs ordered by stars, another order of ranks, and the big joker as a second wild
# card whose cards are offered only in their largest readings (选择大的牌型为优先).

BIG = Card(Rank.BIG_JOKER)
SMALL = Card(Rank.SMALL_JOKER)
ALL_RANKS: Final = tuple(Rank)

Shape = tuple[PlayKind, Rank, int]
"""A plain reading with its length: (kind, key rank, the number of bombs of a chained bomb, else 0)."""


@dataclass(frozen=True)
class Variant:
    """The play rules of a rule set, as the reference reads them (defaults: the competition's)."""

    level_high: bool = True
    """The level rank is above A for singles … bombs."""
    two_high: bool = False
    """2 is above A (docs/rules/huopin.md#rank-order: 大王、小王、2、A、K…3)."""
    straights: tuple[int, int] = (5, 5)
    tubes: tuple[int, int] = (3, 3)
    plates: tuple[int, int] = (2, 2)
    airplanes: bool = False
    max_bomb: int = 10
    three_jokers: bool = False
    chains: tuple[int, int] = (0, 0)
    big_joker_wild: bool = False
    stars: bool = False
    loose: bool = False
    """Five natural cards of one suit in sequence are also a plain straight."""


COMPETITION_VARIANT: Final = Variant()
HUOPIN_VARIANT: Final = Variant(
    level_high=False,
    two_high=True,
    straights=(5, 13),
    tubes=(3, 13),
    plates=(2, 13),
    airplanes=True,
    max_bomb=12,
    three_jokers=True,
    chains=(3, 6),
    big_joker_wild=True,
    stars=True,
)
"""docs/rules/huopin.md: 順子 任意五張或者5張以上; 連對 三對或者三對以上; 連三張 二個或者二個以上; 飛機帶翅膀;
X相炸彈 4<=X<=12; 三王炸彈; X相Y連環炸彈 3<=Y<=6; 大王 萬能牌; bombs by 星級; 大王、小王、2、A、K…3."""


def _lows_of_window(ranks: frozenset[Rank]) -> tuple[Rank, ...]:
    """The lowest rank of every window of consecutive positions holding exactly these ranks (no joker);
    a run of 13 ranks has two: A…K (A low) and 2…A."""
    if not ranks or any(rank.is_joker for rank in ranks) or len(ranks) > 13:
        return ()
    return sequence_lows(ranks)


@cache
def variant_plain(ranks: tuple[Rank, ...], one_suit: bool, variant: Variant) -> frozenset[Shape]:
    """The shapes of plain cards with these ranks (sorted) under the variant, read off 火拚摜蛋's list of
    牌型 one by one."""
    size = len(ranks)
    count = Counter(ranks)
    distinct = frozenset(count)
    jokers = Rank.SMALL_JOKER in count or Rank.BIG_JOKER in count
    multiplicities = sorted(count.values())
    found: set[Shape] = set()
    if size == 1:  # 單張：任意一張單牌
        found.add((PlayKind.SINGLE, ranks[0], 0))
    if size == 2 and len(distinct) == 1:  # 對子：任意兩張點數相同的牌 (two small or two big jokers too)
        found.add((PlayKind.PAIR, ranks[0], 0))
    if size == 3 and len(distinct) == 1 and not jokers:  # 三張
        found.add((PlayKind.TRIPLE, ranks[0], 0))
    if size == 5 and multiplicities == [2, 3]:  # 三帶二：三張牌加一對牌 (a joker pair may be the pair)
        (triple,) = (rank for rank, n in count.items() if n == 3)
        if not triple.is_joker:
            found.add((PlayKind.FULL_HOUSE, triple, 0))
    if len(distinct) == size and not jokers:  # 順子 / 同花順 (five cards of one suit)
        for low in _lows_of_window(distinct):
            if size == 5 and one_suit:
                found.add((PlayKind.STRAIGHT_FLUSH, low, 0))
            if variant.straights[0] <= size <= variant.straights[1] and (
                not (size == 5 and one_suit) or variant.loose
            ):
                found.add((PlayKind.STRAIGHT, low, 0))
    if not jokers and set(multiplicities) == {2} and variant.tubes[0] <= len(distinct) <= variant.tubes[1]:
        found.update((PlayKind.TUBE, low, 0) for low in _lows_of_window(distinct))  # 連對
    if not jokers and set(multiplicities) == {3} and variant.plates[0] <= len(distinct) <= variant.plates[1]:
        found.update((PlayKind.PLATE, low, 0) for low in _lows_of_window(distinct))  # 連三張 / 鋼板
    if variant.airplanes and not jokers and size % 5 == 0 and set(multiplicities) == {2, 3}:
        # 飛機帶翅膀：三順+同數量的一對牌 … 所帶的一對牌，必須是連順
        triples = frozenset(rank for rank, n in count.items() if n == 3)
        wings = frozenset(rank for rank, n in count.items() if n == 2)
        length = len(triples)
        if (
            length == len(wings)
            and length >= 2
            and variant.plates[0] <= length <= variant.plates[1]
            and _lows_of_window(wings)
        ):
            found.update((PlayKind.AIRPLANE, low, 0) for low in _lows_of_window(triples))
    if len(distinct) == 1 and not jokers and 4 <= size <= variant.max_bomb:  # 炸彈 / X相炸彈
        found.add((PlayKind.BOMB, ranks[0], 0))
    if (
        variant.chains[1]
        and not jokers
        and variant.chains[0] <= len(distinct) <= variant.chains[1]
        and len(set(multiplicities)) == 1
        and 4 <= multiplicities[0] <= variant.max_bomb
    ):  # X相Y連環炸彈：Y組點數相連且牌數同為X的炸彈，小王不能出現
        found.update((PlayKind.CHAIN_BOMB, low, len(distinct)) for low in _lows_of_window(distinct))
    if (
        variant.three_jokers
        and size == 3
        and distinct <= {Rank.SMALL_JOKER, Rank.BIG_JOKER}
        and max(multiplicities) <= 2
    ):  # 三王炸彈：任意三個王 (of the four jokers: at most two of each)
        found.add((PlayKind.THREE_JOKERS, Rank.SMALL_JOKER, 0))
    if size == 4 and count[Rank.SMALL_JOKER] == 2 and count[Rank.BIG_JOKER] == 2:  # 天王炸彈
        found.add((PlayKind.FOUR_JOKERS, Rank.SMALL_JOKER, 0))
    return frozenset(found)


VariantReading = tuple[PlayKind, Rank, tuple[Card, ...], int]
"""A reading with its length: (kind, key rank, cards sorted by index, number of bombs of a chain)."""


@cache
def _variant_readings(
    held: tuple[Card, ...], level: Rank, variant: Variant
) -> dict[VariantReading, tuple[Card, ...]]:
    """Every reading of exactly these cards, with a witness (the cards the wild cards stand for, big
    jokers' first); with a big joker wild among them, only the largest readings."""
    wild = wild_card(level)
    found: dict[VariantReading, tuple[Card, ...]] = {}
    if not 1 <= len(held) <= 27:
        return found
    # Which cards are wild: the ♥ level cards; the big jokers too (when the variant says so) if the
    # play holds a card that is not a big joker. With no other card than these wild cards, the ♥ level
    # cards are level cards (played alone or as a pair, or beside big jokers, which then copy them).
    bigs = held.count(BIG) if variant.big_joker_wild and any(card is not BIG for card in held) else 0
    hearts = held.count(wild)
    naturals = [card for card in held if card is not wild and not (bigs and card is BIG)]
    fixed_hearts = not naturals
    if fixed_hearts:
        naturals, hearts = [wild] * hearts, 0
    natural_ranks = tuple(card.rank for card in naturals)
    natural_suits = {card.suit for card in naturals}
    naturals_one_suit = len(natural_suits) == 1 and None not in natural_suits
    # Each ♥ level card stands for any card but a joker, each wild big joker for any card (jokers and
    # itself included). The plain rules see the ranks and whether all cards are of one suit, so every
    # multiset of stand-in ranks is tried (at most ``bigs`` of them jokers, which only big jokers can
    # be), with each outcome of "one suit": all suited stand-ins in the natural cards' suit (possible
    # when those are of one suit and no stand-in is a joker), or not (possible unless every card is a
    # natural one).
    wild_count = hearts + bigs
    other_suit = Suit.SPADES if natural_suits != {Suit.SPADES} else Suit.CLUBS
    own_suit = other_suit
    if naturals_one_suit:
        (single,) = natural_suits
        assert single is not None
        own_suit = single
    trials = _variant_trials(tuple(sorted(natural_ranks)), naturals_one_suit, wild_count, bigs, variant)
    for stand_ranks, one_suit, shapes in trials:
        suit = own_suit if one_suit else other_suit
        stand_ins = [Card(rank) if rank.is_joker else Card(rank, suit) for rank in stand_ranks]
        jokers = sort_by_index(card for card in stand_ins if card.is_joker)
        suited = sort_by_index(card for card in stand_ins if not card.is_joker)
        big_part = sort_by_index([*jokers, *suited[: bigs - len(jokers)]])
        heart_part = suited[bigs - len(jokers) :]
        witness = tuple(card for card in big_part if card is not BIG) + heart_part
        if fixed_hearts:
            witness = big_part + (wild,) * held.count(wild)
        for kind, rank, length in shapes:
            found.setdefault((kind, rank, held, length), witness)
    if bigs:
        largest = {
            reading: witness
            for reading, witness in found.items()
            if not any(variant_beats(other, reading, level, variant) for other in found)
        }
        return largest
    return found


@cache
def _variant_trials(
    natural_ranks: tuple[Rank, ...], naturals_one_suit: bool, wild_count: int, bigs: int, variant: Variant
) -> tuple[tuple[tuple[Rank, ...], bool, frozenset[Shape]], ...]:
    """:func:`_variant_readings`' trials that read as something, in its order: each multiset of ranks
    the ``wild_count`` wild cards stand for (at most ``bigs`` of them jokers, which only big jokers can
    be), with each outcome of "all of one suit" and the shapes it gives. Kept by ranks, not by cards:
    the many sets of cards with the same ranks share it."""
    trials = []
    for stand_ranks in combinations_with_replacement(ALL_RANKS, wild_count):
        joker_stands = sum(1 for rank in stand_ranks if rank.is_joker)
        if joker_stands > bigs:
            continue
        ranks = tuple(sorted(natural_ranks + stand_ranks))
        outcomes: list[bool] = []
        if not wild_count:
            outcomes.append(naturals_one_suit)
        else:
            if naturals_one_suit and not joker_stands:
                outcomes.append(True)
            if not (naturals_one_suit and not joker_stands and joker_stands == wild_count):
                outcomes.append(False)
        for one_suit in outcomes:
            if shapes := variant_plain(ranks, one_suit, variant):
                trials.append((stand_ranks, one_suit, shapes))
    return tuple(trials)


def variant_readings(cards: Iterable[Card], level: Rank, variant: Variant) -> dict[Reading, tuple[Card, ...]]:
    """Every reading of exactly these cards under the variant, each with a witness."""
    return {
        (kind, rank, held): witness
        for (kind, rank, held, _), witness in _variant_readings(sort_by_index(cards), level, variant).items()
    }


def variant_classify(cards: Iterable[Card], level: Rank, variant: Variant) -> set[Reading]:
    return set(variant_readings(cards, level, variant))


def variant_full_readings(cards: Iterable[Card], level: Rank, variant: Variant) -> set[VariantReading]:
    """The readings with their lengths (to compare chained bombs)."""
    return set(_variant_readings(sort_by_index(cards), level, variant))


def variant_order(rank: Rank, level: Rank, variant: Variant) -> int:
    """The order of ranks for singles … bombs: 2 … A (2 above A with ``two_high``), the level rank on top
    of the naturals with ``level_high``, then the small and the big joker."""
    line = [r for r in NATURAL_RANKS if not (variant.two_high and r == Rank.TWO)]
    if variant.two_high:
        line.append(Rank.TWO)
    if variant.level_high:
        line.remove(level)
        line.append(level)
    line += [Rank.SMALL_JOKER, Rank.BIG_JOKER]
    return line.index(rank)


VARIANT_WIDTHS: Final = {**SEQUENCE_WIDTHS, PlayKind.AIRPLANE: 5}
BOMB_CLASS: Final = frozenset(
    (PlayKind.BOMB, PlayKind.STRAIGHT_FLUSH, PlayKind.FOUR_JOKERS, PlayKind.THREE_JOKERS, PlayKind.CHAIN_BOMB)
)


def variant_strength(
    kind: PlayKind, rank: Rank, size: int, length: int, level: Rank, variant: Variant
) -> tuple[int, ...]:
    """What decides between two plays: for bombs, the stars of docs/rules/huopin.md#bomb-order (先按照星級 …
    數量越少的越大 … 最大牌的點數; 天王 the highest 7★, 三王 the lowest 6★, a straight flush between 5★ and
    6★) or the competition ladder; for the rest, the top of a sequence or the order of ranks."""
    width = VARIANT_WIDTHS.get(kind)
    value = sequence_top(rank, size // width) if width else variant_order(rank, level, variant)
    if kind not in BOMB_CLASS:
        return (value,)
    if not variant.stars:
        # the competition ladder, with bombs of 11 and 12 cards (wild big jokers) above the 10-card one
        ladder = [*BOMB_LADDER[:-1], (PlayKind.BOMB, 11), (PlayKind.BOMB, 12), BOMB_LADDER[-1]]
        return (ladder.index((kind, size)), 0 if kind is PlayKind.FOUR_JOKERS else value)
    if kind is PlayKind.FOUR_JOKERS:
        return (7, 2, 0, 0)
    if kind is PlayKind.THREE_JOKERS:
        return (6, 0, 0, 0)
    if kind is PlayKind.STRAIGHT_FLUSH:
        return (5, 2, 0, value)
    if kind is PlayKind.CHAIN_BOMB:
        return (size // length + length, 1, -size, sequence_top(rank, length))
    return (size, 1, -size, value)


def variant_beats(mine: VariantReading, theirs: VariantReading, level: Rank, variant: Variant) -> bool:
    """A play beats another of the same kind and number of cards with a higher value; a bomb-class play
    beats every non-bomb and the bombs it outranks."""
    kind, rank, cards, length = mine
    other_kind, other_rank, other_cards, other_length = theirs
    strength = variant_strength(kind, rank, len(cards), length, level, variant)
    other = variant_strength(other_kind, other_rank, len(other_cards), other_length, level, variant)
    if kind in BOMB_CLASS:
        return other_kind not in BOMB_CLASS or strength > other
    return kind is other_kind and len(cards) == len(other_cards) and strength > other


def variant_lead_readings(
    hand: Iterable[Card], level: Rank, variant: Variant
) -> dict[VariantReading, tuple[Card, ...]]:
    """Every reading of every sub-multiset of the hand, with a witness each."""
    held = sort_by_index(hand)
    found: dict[VariantReading, tuple[Card, ...]] = {}
    for cards in sub_multisets(held, range(1, len(held) + 1)):
        found.update(_variant_readings(cards, level, variant))
    return found


def variant_leads(hand: Iterable[Card], level: Rank, variant: Variant) -> set[Reading]:
    return {(kind, rank, cards) for kind, rank, cards, _ in variant_lead_readings(hand, level, variant)}


def variant_follows(
    hand: Iterable[Card], previous: VariantReading, level: Rank, variant: Variant
) -> set[Reading]:
    """Every lead of the hand that beats the previous reading."""
    return {
        (kind, rank, cards)
        for kind, rank, cards, length in variant_lead_readings(hand, level, variant)
        if variant_beats((kind, rank, cards, length), previous, level, variant)
    }


def variant_substitute(play: Play, level: Rank, variant: Variant) -> tuple[Card, ...] | None:
    """The play's cards with each wild card replaced by the card it stands for (``stands_for``: the big
    jokers' readings first, then the ♥ level cards'), or ``None`` if ``stands_for`` cannot be such a
    list: a ♥ level card standing for a joker, a big joker listed as standing for itself, a big joker
    wild where the variant has none, or ♥ level cards among only wild cards not read as level cards."""
    wild = wild_card(level)
    hearts = play.cards.count(wild)
    bigs = len(play.stands_for) - hearts
    if bigs < 0 or bigs > play.cards.count(BIG) or (bigs and not variant.big_joker_wild):
        return None
    big_part, heart_part = play.stands_for[:bigs], play.stands_for[bigs:]
    if any(card.is_joker for card in heart_part) or any(card is BIG for card in big_part):
        return None
    rest = list(play.cards)
    for card in (wild,) * hearts + (BIG,) * bigs:
        rest.remove(card)
    if not rest and any(card is not wild for card in heart_part):
        return None
    return sort_by_index(rest + list(play.stands_for))


def variant_accepts(play: Play, level: Rank, variant: Variant) -> bool:
    """Whether the play's cards as read are plainly a ``play.kind`` of key ``play.rank`` (and length)."""
    concrete = variant_substitute(play, level, variant)
    if concrete is None or play.rank is None:
        return False
    length = len({card.rank for card in concrete}) if play.kind is PlayKind.CHAIN_BOMB else 0
    return (play.kind, play.rank, length) in variant_plain(
        tuple(sorted(card.rank for card in concrete)), is_one_suit(concrete), variant
    )


def forget() -> None:
    """Drop every reading remembered so far: millions after the cross-checks, which the process would
    otherwise keep to its end and then take half a minute to tear down."""
    for remembered in (_plain, _readings, _stand_ins, variant_plain, _variant_readings, _variant_trials):
        remembered.cache_clear()
