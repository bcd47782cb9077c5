"""One test per combination and comparison rule of docs/rules/competition.md,
with 摜彈's wording (摜彈, 遊戲規則 七、牌型 and 比賽通則 四（二）牌點與牌型大小) where it helps.

Each test quotes the rule it checks. Cards are written in the notation of docs/notation.md and read with
``parse_cards``; ``classify(cards, level)`` lists every reading of exactly those cards as one play.
"""

from __future__ import annotations

import random
from collections import Counter
from itertools import combinations

import pytest

from cardroom.cards import NATURAL_RANKS, Card, Rank, Suit, format_cards, full_deck, parse_cards
from cardroom.guandan import (
    COMPETITION,
    PASS,
    DoesNotBeatError,
    IllegalPlayError,
    MustLeadError,
    NotACombinationError,
    NotHeldError,
    Play,
    PlayKind,
    RuleSet,
    WrongLevelError,
    classify,
    is_legal,
    legal_follows,
    legal_leads,
    legal_plays,
    verify_play,
)

TWO, THREE, FIVE, SEVEN = Rank.TWO, Rank.THREE, Rank.FIVE, Rank.SEVEN
K = PlayKind
LOOSE = RuleSet(name="loose", natural_straight_flush_is_straight=True)


def readings(text: str, level: Rank = TWO, rules: RuleSet = COMPETITION) -> list[Play]:
    """Every reading of exactly these cards at this level."""
    return classify(parse_cards(text), level, rules)


def one(text: str, level: Rank = TWO) -> Play:
    """The one reading of these cards; fails if there are none or several."""
    found = readings(text, level)
    assert len(found) == 1, f"{text} at level {level.letter}: {[p.describe() for p in found]}"
    return found[0]


def shapes(text: str, level: Rank = TWO, rules: RuleSet = COMPETITION) -> set[tuple[K, str]]:
    """The readings as (kind, key rank letter)."""
    return {(p.kind, p.rank.letter if p.rank else "") for p in readings(text, level, rules)}


def of_kind(text: str, kind: K, level: Rank = TWO) -> list[Play]:
    return [play for play in readings(text, level) if play.kind is kind]


def assert_ascending(plays: list[Play]) -> None:
    """Each play beats every earlier one and none beats a later one."""
    for low, high in combinations(plays, 2):
        assert high.beats(low), f"{high.describe()} should beat {low.describe()}"
        assert not low.beats(high), f"{low.describe()} should not beat {high.describe()}"


def mixed_straight(low: int) -> str:
    """A five-card straight starting at position ``low`` (1 = ace), suits not all alike, no hearts (so
    no wild card at any level)."""
    suits = "SCDCS"
    ranks = ["A" if p in (1, 14) else Rank(p).letter for p in range(low, low + 5)]
    return " ".join(suit + rank for suit, rank in zip(suits, ranks, strict=True))


def sequence(low: int, length: int, width: int) -> str:
    """``width`` cards (suits S, C, D) of each of ``length`` ranks from position ``low``."""
    ranks = ["A" if p in (1, 14) else Rank(p).letter for p in range(low, low + length)]
    return " ".join(suit + rank for rank in ranks for suit in "SCD"[:width])


# --- combinations ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "rank"),
    [("S2", TWO), ("D9", Rank.NINE), ("CA", Rank.ACE), ("SB", Rank.SMALL_JOKER), ("HR", Rank.BIG_JOKER)],
)
def test_single_is_any_card(text: str, rank: Rank) -> None:
    """docs/rules/competition.md#single: any one card is a single, ranked by its rank. 摜彈, 遊戲規則 七.1:
    單張：任意一張牌。"""
    play = one(text, SEVEN)
    assert (play.kind, play.rank, play.cards) == (K.SINGLE, rank, parse_cards(text))


@pytest.mark.parametrize(
    ("text", "rank"),
    [
        ("S7 H7", SEVEN),
        ("D7 D7", SEVEN),
        ("SA CA", Rank.ACE),
        ("SB SB", Rank.SMALL_JOKER),
        ("HR HR", Rank.BIG_JOKER),
    ],
)
def test_pair_is_two_of_one_rank_or_two_equal_jokers(text: str, rank: Rank) -> None:
    """docs/rules/competition.md#pair: two cards of one rank are a pair, and so are two small jokers or two
    big jokers. 摜彈, 遊戲規則 七.2: 對子：兩張牌點相同的牌，包括兩張大王和兩張小王。"""
    play = one(text, THREE)
    assert (play.kind, play.rank) == (K.PAIR, rank)


def test_small_and_big_joker_are_not_a_pair() -> None:
    """docs/rules/competition.md#pair: a small and a big joker are not a pair."""
    assert readings("SB HR") == []
    assert readings("SB HR", SEVEN) == []


def test_triple_is_three_of_one_rank() -> None:
    """docs/rules/competition.md#triple: three cards of one rank are a triple. 摜彈, 遊戲規則 七.4:
    三同張：三張牌點相同的牌。"""
    assert (one("S9 H9 D9").kind, one("S9 H9 D9").rank) == (K.TRIPLE, Rank.NINE)
    assert one("D9 D9 S9").kind is K.TRIPLE
    assert readings("S9 H9 D8") == []
    assert readings("SB SB HR") == []


@pytest.mark.parametrize("pair", ["S9 D9", "SB SB", "HR HR", "SK SK"])
def test_full_house_is_a_triple_and_a_pair_joker_pair_included(pair: str) -> None:
    """docs/rules/competition.md#full-house: a full house (三带二) is a triple with a pair, ranked by the
    triple alone; a pair includes a joker pair. 摜彈, 遊戲規則 七.6: 三帶二：一個三同張和一個對子。"""
    play = one(f"S3 H3 C3 {pair}")
    assert (play.kind, play.rank) == (K.FULL_HOUSE, THREE)


def test_full_house_needs_a_real_pair() -> None:
    """docs/rules/competition.md#pair: small+big is not a pair, so a triple with one small and one big joker
    is nothing."""
    assert readings("S3 H3 C3 SB HR") == []
    assert readings("S3 H3 C3 S9 D8") == []


def test_straight_is_exactly_five_consecutive_ranks_without_jokers() -> None:
    """docs/rules/competition.md#straight: a straight (顺子) is exactly five consecutive ranks, without
    jokers, ranked by its top card. 摜彈: 順子：五張連續單牌，不可超過五張 ... 不包括雙王，不分花色。"""
    play = one("S3 H4 C5 D6 S7")
    assert (play.kind, play.rank, play.key) == (K.STRAIGHT, THREE, 7)
    assert readings("S3 H4 C5 D6 S7 H8") == []
    assert readings("S3 H4 C5 D6") == []


def test_tube_is_exactly_three_consecutive_pairs() -> None:
    """docs/rules/competition.md#tube: a tube (三连对) is exactly three pairs of consecutive ranks, ranked by
    its top pair. 摜彈, 遊戲規則 七.3: 三連對：三個牌點相鄰對子。"""
    play = one("S4 H4 C5 D5 S6 S6")
    assert (play.kind, play.rank) == (K.TUBE, Rank.FOUR)
    assert readings("S4 H4 C5 D5") == []
    assert readings("S4 H4 C5 D5 S6 S6 S7 H7") == []
    assert readings("S4 H4 C5 D5 S7 S7") == []


def test_plate_is_exactly_two_consecutive_triples() -> None:
    """docs/rules/competition.md#plate: a plate (钢板) is exactly two triples of consecutive ranks, ranked by
    its top triple. 摜彈, 遊戲規則 七.5: 二連三（鋼板）：兩個牌點相鄰的三同張牌。"""
    play = one("S8 H8 C8 S9 D9 D9")
    assert (play.kind, play.rank) == (K.PLATE, Rank.EIGHT)
    assert readings("S8 H8 C8 ST DT DT") == []


@pytest.mark.parametrize("size", [4, 5, 6, 7, 8])
def test_bomb_is_four_to_eight_cards_of_one_rank(size: int) -> None:
    """docs/rules/competition.md#bomb: a bomb is four to eight cards of one rank (ten with both wild cards),
    ranked by size, then rank. 摜彈 特殊名詞: 炸彈：八張 ... 四張同數值牌。"""
    sevens = parse_cards("S7 S7 H7 H7 C7 C7 D7 D7")[:size]
    found = classify(sevens, THREE)
    assert [(p.kind, p.rank, len(p.cards)) for p in found] == [(K.BOMB, SEVEN, size)]


def test_three_of_a_rank_is_not_a_bomb_and_the_deck_has_eight_of_a_rank() -> None:
    """A bomb is four to eight cards of one rank (docs/rules/competition.md#bomb): two decks hold exactly
    eight of each rank."""
    assert one("S7 H7 C7").kind is K.TRIPLE
    assert sum(card.rank is SEVEN for card in full_deck()) == 8


def test_straight_flush_is_a_straight_of_one_suit() -> None:
    """docs/rules/competition.md#straight-flush: a straight flush (同花顺) is a straight of one suit, ranked
    by its top card. 摜彈, 遊戲規則 七.8: 同花順（火箭）：花色相同的順子。"""
    play = one("D9 DT DJ DQ DK")
    assert (play.kind, play.rank, play.suit) == (K.STRAIGHT_FLUSH, Rank.NINE, Suit.DIAMONDS)


def test_four_jokers() -> None:
    """docs/rules/competition.md#four-jokers: the four jokers (天王炸), both small and both big, beat every
    play. 摜彈, 遊戲規則 七.10: 四大天王（天王炸）：大王、小王各兩張。"""
    play = one("SB SB HR HR")
    assert play.kind is K.FOUR_JOKERS
    assert readings("SB SB HR") == []
    assert readings("SB HR HR") == []


@pytest.mark.parametrize(
    "text",
    [
        "S3 H3 S4 H4",  # two pairs 3344
        "S3 H4 C5 D6 S7 H8",  # a 6-card straight
        "S3 H4 C5 D6 S7 H8 C9",  # a 7-card straight
        "S3 H3 S4 H4 S5 H5 S6 H6",  # four consecutive pairs
        "S3 H3 C3 S4 H4 C4 S5 H5 C5",  # three consecutive triples
        "S3 H3 C3 S9",  # triple + single
        "S3 H3 C3 D3 S9",  # four + single
        "S3 H3 C3 D3 S9 H9",  # four + pair
        "S3 H3 C3 S4 H4 C4 S9 H9 SJ SJ",  # a plate with wings (huopin's airplane)
        "S3 H4 C5 D6 SB",  # a joker in a straight
        "ST SJ SQ SK HR",  # a joker in a straight
        "SB SB S3 S3 S4 S4",  # jokers in a tube
        "SB HR",  # small + big joker
        "S3 S5",  # two cards of different ranks
        "S3 S3 S5",  # pair + single
        "S3 H4 C6 D7 S8",  # a gapped run
        "S3 S3 S4 S4 S6 S6",  # gapped pairs
        "S3 H3 C3 S5 H5 C5",  # gapped triples
    ],
)
def test_no_other_shape_is_a_legal_play(text: str) -> None:
    """docs/rules/competition.md#no-other-shapes: the listed kinds are the only plays. 摜彈: 順子
    ... 不可超過五張."""
    assert readings(text, SEVEN) == []


def test_no_cards_is_no_play() -> None:
    assert classify((), TWO) == []


# --- order of ranks ---------------------------------------------------------------------------


@pytest.mark.parametrize("level", NATURAL_RANKS)
def test_order_of_ranks_for_singles(level: Rank) -> None:
    """docs/rules/competition.md#rank-order: for singles, pairs, triples, full houses and bombs the ranks run
    big joker, small joker, level rank, A, K … 2, the level rank taken out of its natural place. 摜彈,
    比賽通則 四 (二)1: 牌點由大到小排列為：大王、小王、級牌、A、K、Q、J、10、9、8、7、6、5、4、3、2。"""
    ranks = [rank for rank in NATURAL_RANKS if rank != level]
    order = [f"S{rank.letter}" for rank in ranks] + [f"S{level.letter}", "SB", "HR"]
    assert_ascending([one(text, level) for text in order])


def test_order_of_ranks_for_pairs_triples_full_houses_and_bombs() -> None:
    """docs/rules/competition.md#rank-order: the same order of ranks holds for pairs, triples, full houses and
    bombs."""
    assert_ascending([one(t, SEVEN) for t in ["S2 D2", "SA DA", "S7 D7", "SB SB", "HR HR"]])
    assert_ascending([one(t, SEVEN) for t in ["S2 D2 C2", "SA DA CA", "S7 D7 C7"]])
    assert_ascending([one(t, SEVEN) for t in ["S2 D2 C2 S5 S5", "SA DA CA S3 S3", "S7 D7 C7 S2 S2"]])
    assert_ascending([one(t, SEVEN) for t in ["S2 D2 C2 S2", "SA DA CA SA", "S7 D7 C7 S7"]])


def test_level_card_is_natural_in_straights() -> None:
    """docs/rules/competition.md#sequence-order: in straights, straight flushes, tubes and plates the ranks
    keep their natural order. At level 5, 34567 is a straight, below 45678, and 5 is its middle card."""
    play = one("S3 H4 C5 D6 S7", FIVE)
    assert (play.kind, play.rank, play.key) == (K.STRAIGHT, THREE, 7)
    assert one("S4 C5 D6 S7 H8", FIVE).beats(play)
    assert play.beats(one("S2 S3 H4 C5 D6", FIVE))
    assert not one("S2 S3 H4 C5 D6", FIVE).beats(play)
    assert one("S2 S3 H4 C5 D6", FIVE).rank is TWO
    assert one("S4 S4 C5 D5 S6 S6", FIVE).kind is K.TUBE
    assert one("S5 C5 D5 S6 S6 D6", FIVE).kind is K.PLATE
    assert one("C3 C4 C5 C6 C7", FIVE).kind is K.STRAIGHT_FLUSH
    assert one("ST HJ CQ DK SA", Rank.ACE).kind is K.STRAIGHT


def test_level_card_is_high_as_a_single() -> None:
    """docs/rules/competition.md#rank-order: level rank > A for singles. At level 5 the five of spades beats
    the ace."""
    five, ace = one("S5", FIVE), one("SA", FIVE)
    assert five.beats(ace)
    assert not ace.beats(five)
    assert one("SB", FIVE).beats(five)


def test_straights_a2345_lowest_and_10jqka_highest() -> None:
    """docs/rules/competition.md#sequence-order: the ace is high or low, so A2345 is the lowest straight and
    10JQKA the highest. 摜彈: 同花順 ... 最大的為同花10-J-Q-K-A，最小的為A-2-3-4-5 (the same for 順子)."""
    straights = [one(mixed_straight(low), SEVEN) for low in range(1, 11)]
    assert [p.kind for p in straights] == [K.STRAIGHT] * 10
    assert straights[0].rank is Rank.ACE
    assert format_cards(straights[0].cards) == "C2 D3 C4 S5 SA"
    assert straights[-1].rank is Rank.TEN
    assert_ascending(straights)


def test_straight_flushes_a2345_lowest_and_10jqka_highest() -> None:
    """摜彈 特殊名詞: 同花順：同花的五張牌，最大的為同花10-J-Q-K-A，最小的為A-2-3-4-5。"""
    flushes = [one(mixed_straight(low).replace("C", "S").replace("D", "S")) for low in range(1, 11)]
    assert [p.kind for p in flushes] == [K.STRAIGHT_FLUSH] * 10
    assert (flushes[0].rank, flushes[-1].rank) == (Rank.ACE, Rank.TEN)
    assert_ascending(flushes)


def test_tubes_aa2233_lowest_and_qqkkaa_highest() -> None:
    """docs/rules/competition.md#sequence-order: "AA2233 … QQKKAA"."""
    tubes = [one(sequence(low, 3, 2), SEVEN) for low in range(1, 13)]
    assert [p.kind for p in tubes] == [K.TUBE] * 12
    assert (tubes[0].rank, tubes[-1].rank) == (Rank.ACE, Rank.QUEEN)
    assert_ascending(tubes)


def test_plates_aaa222_lowest_and_kkkaaa_highest() -> None:
    """docs/rules/competition.md#sequence-order: "AAA222 … KKKAAA"."""
    plates = [one(sequence(low, 2, 3), SEVEN) for low in range(1, 14)]
    assert [p.kind for p in plates] == [K.PLATE] * 13
    assert (plates[0].rank, plates[-1].rank) == (Rank.ACE, Rank.KING)
    assert_ascending(plates)


@pytest.mark.parametrize(
    "text",
    [
        "SJ HQ CK DA S2",  # JQKA2
        "SQ HK CA D2 S3",  # QKA23
        "SK HA C2 D3 S4",  # KA234
        "SK SK SA SA S2 S2",  # KKAA22
        "SA SA S2 S2 SK SK",  # the same
        "SK CK DK SA CA DA S2 C2 D2",  # KKKAAA222
        "SK CK DK S2 C2 D2",  # KKK222
        "SJ SQ SK SA S2",  # JQKA2 of one suit
    ],
)
def test_no_wrap_around(text: str) -> None:
    """docs/rules/competition.md#sequence-order: sequences do not wrap around: JQKA2, QKA23 and KKAA22 are not
    plays."""
    for level in (TWO, SEVEN, Rank.ACE):
        assert readings(text, level) == []


# --- wild cards (逢人配) ------------------------------------------------------------------------


def test_wild_card_stands_for_any_card_but_a_joker() -> None:
    """docs/rules/competition.md#wild-cards: the two ♥ level cards are wild (逢人配) and stand for any card
    but a joker. 摜彈: 逢人配（任意配，除鬼外可配任何牌）."""
    assert one("S9 H2").kind is K.PAIR
    assert one("S9 H2").stands_for == (Card(Rank.NINE, Suit.HEARTS),)
    assert readings("SB H2") == []
    assert readings("HR H2") == []
    assert readings("SB SB H2") == []
    assert readings("HR HR SB H2") == []
    assert readings("SB SB HR H2") == []
    assert readings("S3 S3 C3 SB H2") == []
    assert readings("SB H2 H2") == []
    assert readings("HR HR H2 H2") == []


def test_only_the_heart_level_cards_are_wild() -> None:
    """docs/rules/competition.md#wild-cards: only the two ♥ level cards are wild: other level cards and other
    hearts are natural."""
    assert readings("S9 S2") == []
    assert readings("S9 H3") == []
    assert readings("S9 H3", THREE) != []
    assert one("S9 H3", THREE).rank is Rank.NINE


def test_a_single_wild_card_is_a_level_card() -> None:
    """docs/rules/competition.md#wild-cards: a wild card played alone, or both as a pair, is a level card. A
    wild ♥2 at level 2 beats an ace and loses to the small joker."""
    wild = one("H2")
    assert (wild.kind, wild.rank) == (K.SINGLE, TWO)
    assert wild.beats(one("SA"))
    assert not wild.beats(one("S2"))
    assert one("SB").beats(wild)
    assert one("H5", FIVE).rank is FIVE


def test_two_wild_cards_together_are_a_level_pair() -> None:
    """docs/rules/competition.md#wild-cards: a wild card played alone, or both as a pair, is a level card."""
    wilds = one("H2 H2")
    assert (wilds.kind, wilds.rank) == (K.PAIR, TWO)
    assert wilds.beats(one("SA CA"))
    assert not wilds.beats(one("S2 D2"))
    assert one("SB SB").beats(wilds)
    assert one("HK HK", Rank.KING).rank is Rank.KING


def test_wild_cards_in_triples_and_bombs() -> None:
    """docs/rules/competition.md#wild-cards: wild cards join any combination, bombs and straight flushes
    included."""
    assert (one("S9 H2 H2").kind, one("S9 H2 H2").rank) == (K.TRIPLE, Rank.NINE)
    bomb = one("S9 C9 D9 H2")
    assert (bomb.kind, bomb.rank, bomb.stands_for) == (K.BOMB, Rank.NINE, (Card(Rank.NINE, Suit.HEARTS),))
    assert one("S9 D9 H2 H2").kind is K.BOMB
    assert one("S9 S9 C9 D9 H2 H2").kind is K.BOMB
    assert one("S2 C2 D2 H2").rank is TWO


@pytest.mark.parametrize(("wilds", "size"), [(1, 9), (2, 10)])
def test_nine_and_ten_card_bombs_are_made_with_wild_cards(wilds: int, size: int) -> None:
    """docs/rules/competition.md#bomb: with both wild cards a bomb reaches ten cards.
    摜彈: 如和八張一起，可變為10張的炸彈。"""
    cards = parse_cards("S7 S7 H7 H7 C7 C7 D7 D7" + " H2" * wilds)
    found = classify(cards, TWO)
    assert [(p.kind, p.rank, len(p.cards), p.wild_count) for p in found] == [(K.BOMB, SEVEN, size, wilds)]
    assert classify(cards, THREE) == []


def test_level_rank_bomb_holds_at_most_eight_cards() -> None:
    """The ♥ level cards are the wild ones, so the level rank has six naturals: 6 + 2 wild = 8."""
    play = one("S2 S2 C2 C2 D2 D2 H2 H2")
    assert (play.kind, play.rank, len(play.cards)) == (K.BOMB, TWO, 8)


def test_wild_cards_in_straight_flushes() -> None:
    """docs/rules/competition.md#wild-cards: wild cards join bombs and straight flushes too."""
    flush = of_kind("S3 S4 S6 S7 H2", K.STRAIGHT_FLUSH)
    assert [(p.rank, p.stands_for) for p in flush] == [(THREE, (Card(FIVE, Suit.SPADES),))]
    two_wild = of_kind("DT DJ DK H2 H2", K.STRAIGHT_FLUSH)
    assert {p.rank for p in two_wild} == {Rank.NINE, Rank.TEN}


def test_wild_cards_in_tubes_and_plates() -> None:
    """docs/rules/competition.md#wild-cards: "in any combination"."""
    tube = one("S3 S3 S4 S4 S5 H2")
    assert (tube.kind, tube.rank) == (K.TUBE, THREE)
    assert shapes("S3 S3 S4 S4 H2 H2") >= {(K.TUBE, "2"), (K.TUBE, "3")}
    plate = one("SK SK HK SA SA H2")
    assert (plate.kind, plate.rank) == (K.PLATE, Rank.KING)
    assert one("SA SA HA S2 C2 H2").rank is Rank.ACE


def test_wild_completing_either_end_of_a_straight_gives_two_plays() -> None:
    """docs/rules/competition.md#readings: where one set of cards makes several plays (a wild card completing
    a straight at either end, …) the player chooses, and the engine offers each reading as a distinct play."""
    found = readings("S4 C5 D6 S7 H2")
    assert sorted((p.kind, p.rank, p.key) for p in found) == [
        (K.STRAIGHT, THREE, 7),
        (K.STRAIGHT, Rank.FOUR, 8),
    ]


def test_wild_making_a_straight_or_a_straight_flush_gives_both_plays() -> None:
    """docs/rules/competition.md#readings: a wild card may stand for a card of the run's suit or of another,
    and the player chooses the reading."""
    assert shapes("S3 S4 S5 S6 H2") == {
        (K.STRAIGHT, "2"),
        (K.STRAIGHT, "3"),
        (K.STRAIGHT_FLUSH, "2"),
        (K.STRAIGHT_FLUSH, "3"),
    }
    for play in of_kind("S3 S4 S5 S6 H2", K.STRAIGHT_FLUSH):
        assert all(card.suit is Suit.SPADES for card in play.read_cards())


def test_wild_in_full_house_joins_either_rank() -> None:
    """docs/rules/competition.md#readings: several readings of one set are offered separately: 33 55 + wild is
    333+55 or 555+33."""
    found = readings("S3 S3 S5 S5 H2")
    assert sorted((p.kind, p.rank) for p in found) == [(K.FULL_HOUSE, THREE), (K.FULL_HOUSE, FIVE)]


def test_triple_and_two_wild_cards_is_a_full_house_or_a_bomb() -> None:
    """Wild cards "in any combination": 333 + two wild cards is a full house or a 5-card bomb."""
    assert shapes("S3 S3 C3 H2 H2") == {(K.FULL_HOUSE, "3"), (K.BOMB, "3")}


def test_readings_are_distinct_plays() -> None:
    """docs/rules/competition.md#readings: the engine offers each reading as a distinct play."""
    for text in ("S3 S4 S5 S6 H2", "S3 S3 S5 S5 H2", "S3 S3 S4 S4 H2 H2", "S4 C5 H2 H2 S7"):
        found = readings(text)
        assert len(found) == len(set(found)) > 1
        assert all(play.cards == parse_cards(text) for play in found)


# --- natural straight flushes -----------------------------------------------------------------


def test_five_natural_suited_cards_in_sequence_are_a_straight_flush_only() -> None:
    """docs/rules/competition.md#natural-straight-flush: five natural cards of one suit in sequence are a
    straight flush only (parameter ``natural_straight_flush_is_straight``, off)."""
    assert shapes("S3 S4 S5 S6 S7") == {(K.STRAIGHT_FLUSH, "3")}
    hand = parse_cards("S3 S4 S5 S6 S7")
    assert [p.kind for p in legal_leads(hand, TWO) if len(p.cards) == 5] == [K.STRAIGHT_FLUSH]
    assert [p.kind for p in legal_follows(hand, one("S2 H3 C4 D5 S6"), TWO)] == [K.STRAIGHT_FLUSH]


def test_parameter_lets_a_natural_straight_flush_also_be_a_straight() -> None:
    """docs/rules/competition.md#natural-straight-flush: with ``natural_straight_flush_is_straight`` they are
    also a plain straight."""
    assert shapes("S3 S4 S5 S6 S7", TWO, LOOSE) == {(K.STRAIGHT, "3"), (K.STRAIGHT_FLUSH, "3")}
    hand = parse_cards("S3 S4 S5 S6 S7")
    follows = legal_follows(hand, one("S2 H3 C4 D5 S6"), TWO, LOOSE)
    assert sorted(p.kind for p in follows) == [K.STRAIGHT, K.STRAIGHT_FLUSH]
    assert COMPETITION.natural_straight_flush_is_straight is False


# --- comparison -------------------------------------------------------------------------------


def test_same_kind_and_size_with_a_higher_key_beats() -> None:
    """docs/rules/competition.md#beating: a play of the same kind and size beats the last one only with a
    higher key. 摜彈, 比賽通則 四 (二)2: 同牌型比較牌點大小，牌型之間不能壓牌。"""
    assert one("S9 H9").beats(one("S8 H8"))
    assert not one("S8 H8").beats(one("S9 H9"))
    assert not one("D8 C8").beats(one("S8 H8"))  # equal key
    assert not one("SA").beats(one("S3 H3"))  # another kind
    assert not one("SA CA").beats(one("S3"))
    assert not one("S9 C9 D9 S4 S4").beats(one("S3 H4 C5 D6 S7"))  # full house vs straight
    assert not one("SK SK HK SA SA HA").beats(one("S3 S3 S4 S4 S5 S5"))  # plate vs tube
    assert not one("SQ SQ SK SK SA SA").beats(one("S3 S3 H3 S4 S4 H4"))  # tube vs plate
    assert one("S4 H5 C6 D7 S8").beats(one("S3 H4 C5 D6 S7"))
    assert not one("D3 C4 H5 S6 D7").beats(one("S3 H4 C5 D6 S7"))  # same top rank


def test_full_house_is_compared_by_its_triple_only() -> None:
    """docs/rules/competition.md#full-house: a full house (三带二) is ranked by its triple alone. 摜彈:
    三帶二僅比較三同張牌點大小。"""
    low_triple = one("S3 H3 C3 HR HR")
    high_triple = one("S4 H4 C4 S2 S2")
    assert high_triple.beats(low_triple)
    assert not low_triple.beats(high_triple)
    assert not one("D3 D3 C3 SA SA").beats(one("S3 H3 C3 S2 S2"))


def test_bomb_ladder() -> None:
    """docs/rules/competition.md#bomb-order: from low to high, every non-bomb, 4-card bomb, 5-card bomb,
    straight flush, bombs of 6 to 10 cards, four jokers. 摜彈, 比賽通則 四 (二)3–5:
    炸彈：張數多者大，張數相同比較牌點大小 ... 超過5張的炸彈可以壓同花順 ... 同花順可壓不超過5張的炸彈 ...
    四大天王：可壓所有牌型。 (Level 3: ♥3 is wild.)"""
    twos = "S2 S2 H2 H2 C2 C2 D2 D2"
    ladder = [
        one("HR HR", THREE),  # the highest pair, standing for every non-bomb
        one(twos[:11], THREE),  # 4-card bomb of 2s, the lowest bomb
        one("S3 S3 C3 C3", THREE),  # 4-card bomb of the level rank
        one(twos[:14], THREE),  # 5-card bomb of 2s
        one("SA SA CA CA DA", THREE),  # 5-card bomb of aces
        one("S3 S3 C3 C3 D3", THREE),  # 5-card bomb of the level rank
        one("DA D2 D3 D4 D5", THREE),  # the lowest straight flush
        one("DT DJ DQ DK DA", THREE),  # the highest straight flush
        one(twos[:17], THREE),  # 6-card bomb of 2s
        one("S3 S3 C3 C3 D3 D3", THREE),  # 6-card bomb of the level rank
        one(twos[:20], THREE),  # 7
        one(twos, THREE),  # 8
        one(twos + " H3", THREE),  # 9 (one wild)
        one("SA SA HA HA CA CA DA DA H3", THREE),  # 9 of aces
        one(twos + " H3 H3", THREE),  # 10 (both wilds)
        one("SA SA HA HA CA CA DA DA H3 H3", THREE),  # 10 of aces
        one("SB SB HR HR", THREE),  # four jokers
    ]
    assert [len(p.cards) for p in ladder if p.kind is K.BOMB] == [4, 4, 5, 5, 5, 6, 6, 7, 8, 9, 9, 10, 10]
    assert_ascending(ladder)
    straight = one("ST SJ SQ SK HA", THREE)
    assert all(bomb.beats(straight) and not straight.beats(bomb) for bomb in ladder[1:])


def test_every_bomb_class_play_beats_every_non_bomb() -> None:
    """docs/rules/competition.md#bomb-order: "every non-bomb < 4-card bomb". 摜彈:
    炸彈可壓單張、對子、三連對、三同張、二連三、三帶二、順子等牌型。"""
    non_bombs = [
        one("HR"),
        one("HR HR"),
        one("SA CA DA"),
        one("SA CA DA SK SK"),
        one("ST HJ CQ DK SA"),
        one("SQ SQ SK SK SA SA"),
        one("SK SK HK SA SA HA"),
    ]
    bombs = [one("S3 C3 D3 S3"), one("DA D2 D3 D4 D5"), one("SB SB HR HR")]
    for bomb in bombs:
        assert bomb.kind.is_bomb
        for play in non_bombs:
            assert not play.kind.is_bomb
            assert bomb.beats(play)
            assert not play.beats(bomb)


def test_straight_flush_beats_a_five_bomb_but_not_a_six_bomb() -> None:
    """docs/rules/competition.md#bomb-order: "5-card bomb < straight flush < 6". 摜彈:
    同花順可壓不超過5張的炸彈；超過5張的炸彈可以壓同花順。"""
    lowest_flush = one("HA H2 H3 H4 H5", SEVEN)
    highest_flush = one("ST SJ SQ SK SA", SEVEN)
    level_five_bomb = one("S7 S7 C7 C7 D7", SEVEN)
    lowest_six_bomb = one("S2 S2 C2 C2 D2 D2", SEVEN)
    assert lowest_flush.beats(level_five_bomb)
    assert not level_five_bomb.beats(lowest_flush)
    assert lowest_six_bomb.beats(highest_flush)
    assert not highest_flush.beats(lowest_six_bomb)
    assert highest_flush.beats(lowest_flush)
    assert not one("DA D2 D3 D4 D5", SEVEN).beats(lowest_flush)


def test_bombs_compare_by_size_then_rank() -> None:
    """docs/rules/competition.md#bomb: bombs compare by size, then rank. 摜彈:
    炸彈：張數多者大，張數相同比較牌點大小。"""
    assert one("S9 S9 C9 C9").beats(one("S8 S8 C8 C8"))
    assert not one("S8 S8 C8 C8").beats(one("S9 S9 C9 C9"))
    assert not one("D8 D8 H8 H8").beats(one("S8 S8 C8 C8"))
    assert one("S3 S3 C3 C3 D3").beats(one("SA SA CA CA"))
    assert not one("SA SA CA CA").beats(one("S3 S3 C3 C3 D3"))


def test_level_rank_bomb_beats_an_ace_bomb_of_the_same_size() -> None:
    """docs/rules/competition.md#rank-order: level rank > A for bombs too."""
    for level, size in ((SEVEN, 4), (SEVEN, 6), (TWO, 5)):
        naturals = [c for c in full_deck() if c.rank is level and c.suit is not Suit.HEARTS]
        level_bomb = classify(naturals[:size], level)[0]
        aces = classify([c for c in full_deck() if c.rank is Rank.ACE][:size], level)[0]
        assert (level_bomb.kind, aces.kind) == (K.BOMB, K.BOMB)
        assert level_bomb.beats(aces)
        assert not aces.beats(level_bomb)


def test_nothing_beats_four_jokers() -> None:
    """docs/rules/competition.md#four-jokers: the four jokers beat every play. 摜彈: 四王 ...
    是最大的牌。"""
    four_jokers = one("SB SB HR HR")
    hand = parse_cards("S2 S2 C2 C2 D2 D2 H2 H2 S9 S9 H9 H9 C9 C9 D9 D9 ST SJ SQ SK SA")
    assert legal_follows(hand, four_jokers, TWO) == []
    assert legal_plays(hand, four_jokers, TWO) == [PASS]
    for play in legal_leads(hand, TWO):
        assert not play.beats(four_jokers)
    ten_bomb = one("S9 S9 H9 H9 C9 C9 D9 D9 H2 H2")
    assert four_jokers.beats(ten_bomb)
    assert not four_jokers.beats(four_jokers)


def test_pass_beats_nothing_and_nothing_beats_pass() -> None:
    """Passing (过牌) is not a combination."""
    assert not PASS.beats(one("S3"))
    assert not one("SB SB HR HR").beats(PASS)


# --- legal moves ------------------------------------------------------------------------------


HAND = parse_cards("S3 S3 H3 C4 C5 D6 S7 S9 S9 C9 D9 SQ H2 SB")


def test_legal_plays_include_pass_exactly_when_following() -> None:
    """docs/rules/competition.md#leading and #following: the leader plays any combination; each following
    player in turn beats the last play or passes."""
    leads = legal_plays(HAND, None, TWO)
    assert PASS not in leads
    assert Counter(leads) == Counter(legal_leads(HAND, TWO))
    for previous in (one("S4"), one("SA DA"), one("SB SB HR HR"), one("S4 H5 C6 D7 S8")):
        follows = legal_plays(HAND, previous, TWO)
        assert follows[0] == PASS
        assert follows.count(PASS) == 1
        assert Counter(follows[1:]) == Counter(legal_follows(HAND, previous, TWO))
        assert PASS not in legal_follows(HAND, previous, TWO)


def test_follows_are_the_leads_that_beat_the_previous_play() -> None:
    """docs/rules/competition.md#following: each following player must beat the last play or pass."""
    leads = legal_leads(HAND, TWO)
    for previous in (one("S4"), one("S8 H8"), one("S3 H4 C5 D6 S7"), one("SA SA CA CA"), one("SK")):
        follows = legal_follows(HAND, previous, TWO)
        assert Counter(follows) == Counter(p for p in leads if p.beats(previous))


def test_leads_are_readings_of_held_cards() -> None:
    """Every lead is one of classify's readings of its own cards, and no lead is listed twice."""
    leads = legal_leads(HAND, TWO)
    assert len(leads) == len(set(leads))
    held = Counter(HAND)
    for play in leads:
        assert not Counter(play.cards) - held
        assert play in classify(play.cards, TWO)


def test_legal_follows_rejects_a_pass_as_previous() -> None:
    """moves.py: "previous is always the play to beat"."""
    with pytest.raises(ValueError, match="pass"):
        legal_follows(HAND, PASS, TWO)


def test_verify_play_errors_are_value_errors() -> None:
    for error in (MustLeadError, NotHeldError, NotACombinationError, DoesNotBeatError, WrongLevelError):
        assert issubclass(error, IllegalPlayError)
        assert issubclass(error, ValueError)


def test_leader_must_not_pass() -> None:
    """docs/rules/competition.md#leading: the leader must play (a lead may not be a pass)."""
    with pytest.raises(MustLeadError, match="must play"):
        verify_play(HAND, PASS, None, TWO)
    assert not is_legal(HAND, PASS, None, TWO)
    verify_play(HAND, PASS, one("S4"), TWO)
    assert is_legal(HAND, PASS, one("S4"), TWO)


def test_cards_not_held_are_refused() -> None:
    with pytest.raises(NotHeldError, match="SA"):
        verify_play(HAND, one("SA"), None, TWO)
    with pytest.raises(NotHeldError, match=r"not in hand: SQ$"):
        verify_play(HAND, one("SQ SQ"), None, TWO)
    with pytest.raises(NotHeldError, match="H2"):
        verify_play(HAND, one("H2 H2"), None, TWO)


def test_a_play_that_is_no_combination_is_refused() -> None:
    """docs/rules/competition.md#no-other-shapes: no shape but the listed kinds is a play."""
    forged_pair = Play(K.PAIR, THREE, parse_cards("S3 C4"), (), TWO, 3)
    with pytest.raises(NotACombinationError, match="not a legal combination at level 2"):
        verify_play(HAND, forged_pair, None, TWO)
    forged_key = one("S3")._replace(key=99)
    with pytest.raises(NotACombinationError, match=r"S3.* not a legal combination"):
        verify_play(HAND, forged_key, None, TWO)
    forged_kind = one("S9 S9 C9 D9")._replace(kind=K.STRAIGHT_FLUSH)
    with pytest.raises(NotACombinationError):
        verify_play(HAND, forged_kind, None, TWO)


def test_a_play_that_does_not_beat_is_refused() -> None:
    """docs/rules/competition.md#beating and #bomb-order: a play beats the last one if it is of the same kind
    and size with a higher key, or a bomb-class play ranked above it."""
    with pytest.raises(DoesNotBeatError, match=r"S3.* does not beat .*SK"):
        verify_play(HAND, one("S3"), one("SK"), TWO)
    with pytest.raises(DoesNotBeatError, match="does not beat"):
        verify_play(HAND, one("S9 C9"), one("SA"), TWO)
    with pytest.raises(DoesNotBeatError):
        verify_play(HAND, one("S9 S9 C9 D9"), one("S5 S5 C5 D5 H5"), TWO)
    verify_play(HAND, one("S9 S9 C9 D9"), one("SA"), TWO)


def test_a_play_read_at_another_level_is_refused() -> None:
    """docs/rules/competition.md#level-rank: each deal has its level rank; a play read at level 3 is not a
    play at level 2."""
    play = classify(parse_cards("S9"), THREE)[0]
    with pytest.raises(WrongLevelError, match=r"level 3.*level 2"):
        verify_play(HAND, play, None, TWO)


def _candidates(hand: tuple[Card, ...], level: Rank) -> list[Play]:
    others = random.Random(11).sample(full_deck(), 27)
    foreign = legal_leads(others, level)[::7]
    forged = [Play(K.PAIR, THREE, parse_cards("S3 C4"), (), level, 3)]
    return [*legal_leads(hand, level), *foreign, *forged, PASS]


@pytest.mark.parametrize(
    ("text", "level"),
    [
        ("S3 S3 H3 C4 C5 D6 S7 S9 S9 C9 D9 SQ H2 SB", TWO),
        ("SB SB HR HR H5 H5 S5 S6 S7 S8 S9 DA DA CA", FIVE),
        ("S2 S3 S4 S5 S6 H7 C7 D7 S7 HA HA SK", SEVEN),
    ],
)
def test_is_legal_agrees_with_legal_plays(text: str, level: Rank) -> None:
    """``is_legal`` (no enumeration) and membership in ``legal_plays`` say the same."""
    hand = parse_cards(text)
    candidates = _candidates(hand, level)
    four_jokers = classify(parse_cards("SB SB HR HR"), level)[0]
    previous_plays: list[Play | None] = [None, *legal_leads(hand, level)[::5], four_jokers]
    for previous in previous_plays:
        allowed = set(legal_plays(hand, previous, level))
        for play in candidates:
            assert is_legal(hand, play, previous, level) == (play in allowed), (
                play.describe(),
                previous.describe() if previous else None,
            )


# --- perft-style counts -----------------------------------------------------------------------


def perft_hand(seed: int) -> tuple[Card, ...]:
    return tuple(random.Random(seed).sample(full_deck(), 27))


PERFT = [
    pytest.param(
        0,
        0,
        "S2 C2 S3 C3 D3 D4 C5 C5 S6 H6 H6 D6 S7 C7 D7 S8 S9 H9 C9 C9 ST DT SJ HJ DQ SK CK",
        401,
        {
            K.SINGLE: 24,
            K.PAIR: 19,
            K.TRIPLE: 8,
            K.FULL_HOUSE: 122,
            K.STRAIGHT: 205,
            K.TUBE: 16,
            K.PLATE: 3,
            K.BOMB: 2,
            K.STRAIGHT_FLUSH: 2,
        },
        id="seed0-no-wild",
    ),
    pytest.param(
        2,
        1,
        "HR S2 H2 D2 D2 S4 S4 D4 C5 D5 H6 H7 H7 D7 H8 C8 C9 C9 ST DT SJ CJ SQ HQ HK HK DK",
        782,
        {
            K.SINGLE: 22,
            K.PAIR: 34,
            K.TRIPLE: 18,
            K.FULL_HOUSE: 294,
            K.STRAIGHT: 360,
            K.TUBE: 47,
            K.PLATE: 3,
            K.BOMB: 4,
        },
        id="seed2-one-wild",
    ),
    pytest.param(
        7,
        2,
        "S2 H2 H2 C2 C2 D2 S3 H3 D3 D4 S5 H5 C6 H7 D7 S8 H8 H8 C9 ST HT CT DT CJ DJ SK CK",
        2711,
        {
            K.SINGLE: 24,
            K.PAIR: 43,
            K.TRIPLE: 51,
            K.FULL_HOUSE: 1368,
            K.STRAIGHT: 915,
            K.TUBE: 178,
            K.PLATE: 69,
            K.BOMB: 43,
            K.STRAIGHT_FLUSH: 20,
        },
        id="seed7-two-wilds",
    ),
]


@pytest.mark.parametrize(("seed", "wilds", "printed", "total", "per_kind"), PERFT)
def test_perft_legal_lead_counts(
    seed: int, wilds: int, printed: str, total: int, per_kind: dict[K, int]
) -> None:
    """Regression counts of every legal lead of three seeded 27-card hands at level 2, per kind.

    Hands: ``random.Random(seed).sample(full_deck(), 27)`` with seeds 0, 2, 7, the first seeds whose
    hands hold exactly 0, 1 and 2 wild ♥2 cards. The numbers were computed once with the engine, then
    cross-checked by an independent brute force written for these tests (every sub-multiset of the
    hand of up to 6 cards, each wild card tried as every rank in a suit of the run or another, and
    bombs of 7–10 cards counted by rank), which gave the same count for every kind at levels 2, 5 and
    A. The hand check of the no-wild hand is spelled out in ``test_perft_counts_by_hand``.
    """
    hand = perft_hand(seed)
    assert format_cards(hand) == printed
    assert Counter(hand)[Card(TWO, Suit.HEARTS)] == wilds
    leads = legal_leads(hand, TWO)
    assert len(leads) == total
    assert Counter(p.kind for p in leads) == Counter(per_kind)
    assert len(set(leads)) == total
    assert len({(p.kind, p.cards, p.key) for p in leads}) == total


@pytest.mark.parametrize(
    ("seed", "previous", "count"),
    [
        (0, "SK", 6),
        (0, "S3 H4 C5 D6 S7", 164),
        (2, "S7 S7 C7 C7", 2),
        (2, "S4 S4 S5 S5 S6 S6", 49),
        (7, "S5 S5 C5 S3 S3", 1144),
        (7, "H3 H4 H5 H6 H7", 16),
    ],
)
def test_perft_follow_counts(seed: int, previous: str, count: int) -> None:
    """Regression counts of the follows of the perft hands at level 2, computed once with the engine
    and checked against the leads filtered by ``Play.beats``. By hand: seed 0 on SK has the two level
    singles S2 C2 (no ace), the bombs 6666 and 9999 and the spade flushes 6789T and 789TJ: 6; seed 2 on
    a 4-card bomb of 7s has only its level bomb S2 D2 D2 ♥2 and its K bomb HK HK DK ♥2 (its own 7 bomb
    ties, its 4 bomb is lower, it has no straight flush): 2."""
    hand = perft_hand(seed)
    beaten = one(previous)
    follows = legal_follows(hand, beaten, TWO)
    assert Counter(follows) == Counter(p for p in legal_leads(hand, TWO) if p.beats(beaten))
    assert len(follows) == count


def _distinct_pairs(counts: Counter[Card], level: Rank) -> int:
    """Pairs by hand: per natural rank, the 2-card sub-multisets of its natural cards; a wild card with
    each distinct natural card; both wild cards together; a joker pair."""
    wild = Card(level, Suit.HEARTS)
    total = 0
    for rank in NATURAL_RANKS:
        held = [counts[c] for c in counts if c.rank is rank and c is not wild]
        total += sum(n == 2 for n in held) + len(held) * (len(held) - 1) // 2
    naturals = [c for c in counts if not c.is_joker and c is not wild]
    total += len(naturals) * min(counts[wild], 1) + (counts[wild] == 2)
    total += sum(counts[c] == 2 for c in counts if c.is_joker)
    return total


@pytest.mark.parametrize("seed", [0, 2, 7])
def test_perft_singles_and_pairs_by_hand(seed: int) -> None:
    """Singles: one per distinct card held (a wild card alone is one level single). Pairs: counted by
    ``_distinct_pairs``; for seed 7, naturals 2: S2 C2 C2 D2 → 4 pairs, 3: 3, 5: 1, 7: 1, 8: S8 H8 H8 →
    2, T: 4 suits → 6, J: 1, K: 1 (19), plus 23 distinct naturals each with a wild (23) and the two
    wilds together (1): 43."""
    hand = perft_hand(seed)
    counts = Counter(hand)
    kinds = Counter(p.kind for p in legal_leads(hand, TWO))
    assert kinds[K.SINGLE] == len(counts)
    assert kinds[K.PAIR] == _distinct_pairs(counts, TWO)


def test_perft_counts_by_hand() -> None:
    """The no-wild hand (seed 0) by hand: cards per rank S2 C2 | S3 C3 D3 | D4 | C5 C5 | S6 H6 H6 D6 |
    S7 C7 D7 | S8 | S9 H9 C9 C9 | ST DT | SJ HJ | DQ | SK CK.

    - singles 24 distinct cards; pairs 1+3+1+4+3+4+1+1+1 = 19 (6: S6H6 S6D6 H6H6 H6D6).
    - triples 1 (3s) + 3 (6s) + 1 (7s) + 3 (9s) = 8; bombs 6666 and 9999 = 2.
    - full houses: triple × pair of another rank: 1·16 + 3·15 + 1·16 + 3·15 = 122.
    - plates: 666777 only: 3·1 = 3. tubes: 556677 1·4·3 + 99TTJJ 4·1·1 = 16.
    - straights: distinct cards per rank 2,3,3,1,1,3,3,1,3,2,2,1,2 (2…K, no A):
      23456 18 + 34567 27 + 45678 9 + 56789 27 + 6789T 54 + 789TJ 36 + 89TJQ 12 + 9TJQK 24 = 207,
      less the two spade flushes 6789T and 789TJ (a straight flush only) = 205; straight flushes 2.
    """
    kinds = Counter(p.kind for p in legal_leads(perft_hand(0), TWO))
    assert kinds[K.SINGLE] == 24
    assert kinds[K.PAIR] == 1 + 3 + 1 + 4 + 3 + 4 + 1 + 1 + 1
    assert kinds[K.TRIPLE] == 1 + 3 + 1 + 3
    assert kinds[K.BOMB] == 2
    assert kinds[K.FULL_HOUSE] == 1 * 16 + 3 * 15 + 1 * 16 + 3 * 15
    assert kinds[K.PLATE] == 3 * 1
    assert kinds[K.TUBE] == 1 * 4 * 3 + 4 * 1 * 1
    assert kinds[K.STRAIGHT] == 18 + 27 + 9 + 27 + 54 + 36 + 12 + 24 - 2
    assert kinds[K.STRAIGHT_FLUSH] == 2
    assert kinds[K.FOUR_JOKERS] == 0


def test_perft_bombs_with_wild_cards_by_hand() -> None:
    """The one-wild hand (seed 2): no rank has four naturals, so its bombs are the three-card ranks
    with the wild ♥2: S2 D2 D2, S4 S4 D4, H7 H7 D7 and HK HK DK, each + ♥2: 4."""
    bombs = [p for p in legal_leads(perft_hand(2), TWO) if p.kind is K.BOMB]
    assert sorted(format_cards(p.cards) for p in bombs) == [
        "H2 H7 H7 D7",
        "H2 HK HK DK",
        "H2 S4 S4 D4",
        "S2 H2 D2 D2",
    ]
    assert all(p.wild_count == 1 for p in bombs)


def test_a_wild_card_read_differently_is_the_same_play() -> None:
    """docs/rules/competition.md#readings: "the player chooses the reading": a plain straight whose wild card
    is said to stand for another suit is the same play, and the engine answers with its own reading of it."""
    hand = parse_cards("H5 S7 D8 C9 ST")
    (engine,) = [p for p in classify(hand, Rank.FIVE) if p.kind is K.STRAIGHT and p.rank == Rank.SIX]
    other = engine._replace(stands_for=parse_cards("S6"))
    assert verify_play(hand, other, None, Rank.FIVE) == engine
