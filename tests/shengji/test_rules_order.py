"""The order of cards in Shengji, rule by rule (docs/rules/shengji.md#trump-order and #plain-order: trump runs
big joker, small joker, the level card of the trump suit, the other level cards, then the trump suit A…2; a
plain suit runs A…2 without the level rank), with 打升級's wording where it helps. Cards are written in the
notation of docs/notation.md.
"""

from __future__ import annotations

import pytest

from cardroom.cards import ALL_CARDS, Card, Rank, Suit, full_deck, parse_cards
from cardroom.shengji import POINTS, EffectiveSuit, TrickRules, points
from cardroom.shengji.order import describe_order

TRUMP = EffectiveSuit.TRUMP


def rules(level: str, trump: str | None, gap_adjacent: bool = True) -> TrickRules:
    suit = None if trump is None else Suit("SHCD".index(trump))
    return TrickRules(Rank.from_letter(level), suit, gap_adjacent)


def ladder(deal: TrickRules, suit: EffectiveSuit) -> list[str]:
    """The suit from high to low, cards of equal order joined by ``=``."""
    return ["=".join(str(card) for card in group) for group in describe_order(deal, suit)]


def card(text: str) -> Card:
    return Card.parse(text)


def test_trump_order_seed_example_level_ten() -> None:
    """docs/rules/shengji.md#trump-order, playing 10 with ♠ trump: 主牌從大至小依次為：大王, 小王, 主10, 副10,
    A, K, Q, J, 9, 8, 7, 6, 5, 4, 3, 2 … 例如黑桃是主，那麼黑桃10就是10；它就比其他顏色的10點大."""
    deal = rules("T", "S")
    assert ladder(deal, TRUMP) == [
        "HR", "SB", "ST", "HT=CT=DT",
        "SA", "SK", "SQ", "SJ", "S9", "S8", "S7", "S6", "S5", "S4", "S3", "S2",
    ]  # fmt: skip
    assert deal.order_of(card("ST")) > deal.order_of(card("HT"))


def test_plain_suit_order_skips_the_level_rank() -> None:
    """副牌從大至小依次為：A, K, Q, J, 9, 8 … 2 (docs/rules/shengji.md#plain-order: a plain suit runs A…2
    without the level rank)."""
    deal = rules("T", "S")
    assert ladder(deal, EffectiveSuit.HEARTS) == ["HA", "HK", "HQ", "HJ", *(f"H{n}" for n in range(9, 1, -1))]


@pytest.mark.parametrize(("level", "trump"), [("2", "H"), ("7", "C"), ("A", "D"), ("K", "S")])
def test_trump_order_at_other_levels(level: str, trump: str) -> None:
    """The same ladder at every level: jokers, the trump level card, the other level cards, then the trump
    suit's other ranks from A down (K down at level A)."""
    deal = rules(level, trump)
    naturals = [
        f"{trump}{rank.letter}" for rank in reversed(Rank) if not rank.is_joker and rank.letter != level
    ]
    others = "=".join(f"{suit}{level}" for suit in "SHCD" if suit != trump)
    assert ladder(deal, TRUMP) == ["HR", "SB", f"{trump}{level}", others, *naturals]


def test_level_cards_of_every_suit_are_trump() -> None:
    """主牌中本局級牌分主級牌和副級牌，主級牌大於副級牌: every level card plays as trump."""
    deal = rules("5", "H")
    for suit in "SHCD":
        assert deal.suit_of(card(f"{suit}5")) is TRUMP
    assert deal.suit_of(card("S6")) is EffectiveSuit.SPADES
    assert deal.suit_of(card("H6")) is TRUMP
    assert deal.is_trump(card("SB"))
    assert deal.is_trump(card("HR"))


def test_off_suit_level_cards_are_equal() -> None:
    """The other level cards share one rung (docs/rules/shengji.md#trump-order: the trump suit's level card,
    then the other level cards)."""
    deal = rules("9", "C")
    assert deal.order_of(card("S9")) == deal.order_of(card("H9")) == deal.order_of(card("D9"))
    assert deal.order_of(card("C9")) > deal.order_of(card("S9")) > deal.order_of(card("CA"))


def test_no_trump_only_jokers_and_level_cards() -> None:
    """A joker pair overturns to no trump (docs/rules/shengji.md#declaration-ladder: a pair of jokers declares
    no trump; 打升級: 本局為無主牌): trump is the jokers and the four level cards, all four suits are
    plain."""
    deal = rules("J", None)
    assert ladder(deal, TRUMP) == ["HR", "SB", "SJ=HJ=CJ=DJ"]
    for suit in (EffectiveSuit.SPADES, EffectiveSuit.HEARTS, EffectiveSuit.CLUBS, EffectiveSuit.DIAMONDS):
        assert len(ladder(deal, suit)) == 12
    assert not deal.is_trump(card("SA"))


def test_every_card_has_one_place() -> None:
    """Each of the 54 cards belongs to exactly one effective suit; trump has 18 ranks' worth of cards with a
    trump suit (jokers, 4 level cards, 12 trump naturals), 6 without."""
    for deal, trump_cards in ((rules("4", "D"), 18), (rules("4", None), 6)):
        assert sum(deal.is_trump(one) for one in ALL_CARDS) == trump_cards


def test_sort_key_groups_suits_then_order() -> None:
    """A hand sorts by effective suit (♠♥♣♦ then trump), then from low to high."""
    deal = rules("T", "S")
    hand = parse_cards("HR ST HT S2 HA H2 C3 SA")
    assert [str(one) for one in sorted(hand, key=deal.sort_key)] == [
        "H2", "HA", "C3", "S2", "SA", "HT", "ST", "HR",
    ]  # fmt: skip


def test_level_must_be_natural() -> None:
    with pytest.raises(ValueError, match="level rank"):
        TrickRules(Rank.BIG_JOKER, None)


def test_gap_parameter_keeps_the_hole() -> None:
    """``level_gap_adjacent=False``: the ranks either side of the level rank are not neighbours (J and 9 at
    level 10); the default closes the gap (docs/rules/shengji.md#tractors: JJ99 是拖拉機)."""
    closed, open_ = rules("T", "S"), rules("T", "S", gap_adjacent=False)
    assert closed.order_of(card("HJ")) == closed.order_of(card("H9")) + 1
    assert open_.order_of(card("HJ")) == open_.order_of(card("H9")) + 2


def test_points() -> None:
    """docs/rules/shengji.md#points: 5s count 5, 10s and Ks 10, 200 points in all; 打升級:
    每張中不分花色5、10、K都是分牌."""
    assert points(parse_cards("S5 HT CK DA HR SB D9")) == 25
    assert POINTS == {Rank.FIVE: 5, Rank.TEN: 10, Rank.KING: 10}
    assert points(full_deck()) == 200
    assert sum(1 for one in full_deck() if points([one])) == 24
