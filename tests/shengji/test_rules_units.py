"""Pairs and tractors (拖拉機) in Shengji, rule by rule. docs/rules/shengji.md#pairs and #tractors: a tractor
is pairs on consecutive rungs of one effective suit, the level rank skipped (JJ99 at level 10); in trump the
small-joker pair, the trump-suit level pair, a plain-suit level pair and the trump A pair are consecutive; two
plain-suit level pairs are not a tractor, and nothing wraps (AA22). 打升級 (拖拉機的構成): 1.
凡大小順序相鄰且花色相同的聯對均構成拖拉機，如：KKQQ, JJ99, 554433；
2. 主牌中凡大小順序相鄰聯對均構成拖拉機 … 以下這些牌的情況各例均不是拖拉機：554, 544, 5533, JJQ, 兩對副10,
JJ1010, AA22.
"""

from __future__ import annotations

import pytest

from cardroom.cards import Rank, Suit, format_cards, parse_cards
from cardroom.shengji import NotOneSuitError, TrickRules, UnitKind, is_pair, is_tractor, units_of
from cardroom.shengji.units import Shape, count_pairs, fits, principal_key, shape_of, tractor_matches

TEN_SPADES = TrickRules(Rank.TEN, Suit.SPADES)
"""打升級's example deal: playing 10, ♠ trump."""


def tractor(text: str, deal: TrickRules = TEN_SPADES) -> bool:
    return is_tractor(parse_cards(text), deal)


def read(text: str, deal: TrickRules = TEN_SPADES) -> list[str]:
    return [format_cards(unit.cards) for unit in units_of(parse_cards(text), deal)]


@pytest.mark.parametrize(
    "text", ["HK HK HQ HQ", "HJ HJ H9 H9", "H5 H5 H4 H4 H3 H3", "SK SK SQ SQ SJ SJ S9 S9"]
)
def test_seed_plain_tractors(text: str) -> None:
    """凡大小順序相鄰且花色相同的聯對均構成拖拉機，如：KKQQ, JJ99, 554433 (JJ99: the level rank skipped)."""
    assert tractor(text)


@pytest.mark.parametrize(
    "text",
    [
        "SB SB ST ST",  # 一對小王帶一對主10
        "ST ST HT HT",  # 一對主10帶一對副10
        "HT HT SA SA",  # 一對副10帶一對主牌A
        "ST ST DT DT SA SA",  # 一對主10帶一對副10及一對主牌A
        "HR HR SB SB",  # big and small joker pairs: adjacent in the trump order
        "HR HR SB SB ST ST CT CT SA SA SK SK",  # the whole chain
    ],
)
def test_seed_trump_tractors(text: str) -> None:
    """主牌中凡大小順序相鄰聯對均構成拖拉機，如：一對小王帶一對主10, 一對主10帶一對副10, 一對副10帶一對主牌A,
    一對主10帶一對副10及一對主牌A."""
    assert tractor(text)


@pytest.mark.parametrize(
    "text",
    [
        "H5 H5 H4",  # 554: not pairs
        "H5 H4 H4",  # 544
        "H5 H5 H3 H3",  # 5533: not adjacent
        "HJ HJ HQ",  # JJQ
        "HT HT CT CT",  # 兩對副10: two off-suit level pairs are of equal rank
        "HJ HJ HT HT",  # JJ1010: ♥10 is trump, ♥J is not
        "HA HA H2 H2",  # AA22: no wrap
        "SB SB HT HT",  # small joker pair to an off-suit level pair skips the trump level pair
        "HR SB SB ST",  # a big and a small joker are no pair
        "HK HK SK SK",  # two suits
    ],
)
def test_seed_non_tractors(text: str) -> None:
    """以下這些牌的情況各例均不是拖拉機：554, 544, 5533, JJQ, 兩對副10, JJ1010, AA22."""
    assert not tractor(text)


def test_level_gap_adjacency_is_a_parameter() -> None:
    """``level_gap_adjacent=False``: the level rank leaves a hole, JJ99 at level 10 is two pairs."""
    deal = TrickRules(Rank.TEN, Suit.SPADES, level_gap_adjacent=False)
    assert not tractor("HJ HJ H9 H9", deal)
    assert tractor("HK HK HQ HQ", deal)
    assert not tractor("SJ SJ S9 S9", deal)
    assert tractor("ST ST HT HT SA SA", deal)  # the trump chain above the naturals is unchanged


def test_level_two_and_level_ace() -> None:
    """At level 2, A and 3 are the ends of the plain ladder (no wrap: AA33 is not a tractor); at level A,
    the trump K pair is next to the off-suit level pair."""
    two = TrickRules(Rank.TWO, Suit.HEARTS)
    assert not tractor("CA CA C3 C3", two)
    assert tractor("CA CA CK CK", two)
    assert tractor("C4 C4 C3 C3", two)
    ace = TrickRules(Rank.ACE, Suit.HEARTS)
    assert tractor("SA SA HK HK", ace)
    assert tractor("HA HA DA DA HK HK", ace)
    assert tractor("CK CK CQ CQ", ace)


def test_no_trump_tractors() -> None:
    """No trump: jokers, then the level cards (one rung): a small-joker pair and a level pair are a tractor,
    two level pairs are not."""
    deal = TrickRules(Rank.SEVEN, None)
    assert tractor("SB SB H7 H7", deal)
    assert tractor("HR HR SB SB C7 C7", deal)
    assert not tractor("H7 H7 C7 C7", deal)
    assert tractor("SA SA SK SK", deal)
    assert tractor("S8 S8 S6 S6", deal)


def test_pairs() -> None:
    """A pair is two identical cards (two decks): small + big joker or two level cards of different suits
    are not."""
    assert is_pair(parse_cards("HA HA"), TEN_SPADES)
    assert is_pair(parse_cards("SB SB"), TEN_SPADES)
    assert not is_pair(parse_cards("SB HR"), TEN_SPADES)
    assert not is_pair(parse_cards("HT CT"), TEN_SPADES)
    assert count_pairs(parse_cards("HA HA HK HK HK HT CT")) == 2


def test_seed_throw_examples_read_into_units() -> None:
    """甩牌 如：副牌中 AAK, AKK, AQQJJ, 98844: a throw is read longest tractor first, then pairs, then
    singles, each group from high to low."""
    assert read("HA HA HK") == ["HA HA", "HK"]
    assert read("HA HK HK") == ["HK HK", "HA"]
    assert read("HA HQ HQ HJ HJ") == ["HJ HJ HQ HQ", "HA"]
    assert read("H9 H8 H8 H4 H4") == ["H8 H8", "H4 H4", "H9"]


def test_reading_prefers_the_longest_tractor() -> None:
    """Trump A pair, two off-suit level pairs and the trump level pair: one three-pair tractor and a pair
    (not two two-pair tractors)."""
    units = units_of(parse_cards("SA SA HT HT CT CT ST ST"), TEN_SPADES)
    assert [unit.kind for unit in units] == [UnitKind.TRACTOR, UnitKind.PAIR]
    assert units[0].pairs == 3
    assert shape_of(units) == Shape((3,), 1, 0)


def test_units_are_of_one_suit() -> None:
    """A lead is of one effective suit: ♥A with ♥10 mixes a plain card and a trump."""
    with pytest.raises(NotOneSuitError):
        units_of(parse_cards("HA HT"), TEN_SPADES)
    with pytest.raises(ValueError, match="no cards"):
        units_of([], TEN_SPADES)


def test_structure_matching() -> None:
    """A play fits a shape when its cards split into its units; a longer tractor serves as a shorter one or
    as pairs, a pair as two singles. The key is the top of the principal unit (longest tractor, else the
    highest pair, else the highest single)."""
    deal = TEN_SPADES
    cards = parse_cards("S3 S3 S4 S4 S5 S5")
    assert fits(cards, Shape((2,), 1, 0), deal)
    assert fits(cards, Shape((3,), 0, 0), deal)
    assert fits(cards, Shape((), 2, 2), deal)
    assert not fits(cards, Shape((2, 2), 0, 0), deal)
    assert principal_key(cards, Shape((2,), 1, 0), deal) == deal.order_of(parse_cards("S5")[0])
    assert principal_key(parse_cards("S3 S3 SA HR"), Shape((), 1, 2), deal) == deal.order_of(
        parse_cards("S3")[0]
    )
    assert principal_key(parse_cards("S3 S6 SA HR"), Shape((), 1, 2), deal) is None
    assert tractor_matches(parse_cards("S3 S3 S4 S4 S6 S6 S7 S7"), (2, 2), deal) == 2
    assert tractor_matches(parse_cards("S3 S3 S4 S4 S5 S5"), (2, 2), deal) == 1
