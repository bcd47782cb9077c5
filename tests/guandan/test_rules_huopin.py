"""One test per combination and comparison rule of the ``huopin`` rule set (火拼掼蛋,
docs/rules/huopin.md), each quoting 火拚摜蛋's sentence.

Cards are written in the notation of docs/notation.md; ``classify(cards, level, HUOPIN)`` lists every reading
of exactly those cards as one play. Most tests play at level 2, where ♥2 is the 逢人配 wild card, and
avoid ♥2 unless they mean it.
"""

from __future__ import annotations

from itertools import combinations

import pytest

from cardroom.cards import BIG_JOKER, NATURAL_RANKS, Card, Rank, parse_cards
from cardroom.guandan import (
    HUOPIN,
    DoesNotBeatError,
    NotACombinationError,
    Play,
    PlayKind,
    RuleSet,
    classify,
    is_legal,
    legal_follows,
    legal_leads,
    rank_order,
    verify_play,
)
from cardroom.guandan.plays import play_stars
from cardroom.guandan.ruleset import COMPETITION

K = PlayKind
R = Rank
TWO = Rank.TWO


def readings(text: str, level: Rank = TWO, rules: RuleSet = HUOPIN) -> list[Play]:
    return classify(parse_cards(text), level, rules)


def shapes(text: str, level: Rank = TWO) -> set[tuple[K, str]]:
    """The readings as (kind, key rank letter)."""
    return {(p.kind, p.rank.letter if p.rank else "") for p in readings(text, level)}


def one(text: str, level: Rank = TWO) -> Play:
    found = readings(text, level)
    assert len(found) == 1, f"{text}: {[p.describe() for p in found]}"
    return found[0]


def assert_ascending(plays: list[Play]) -> None:
    """Each play beats every earlier one and none beats a later one."""
    for low, high in combinations(plays, 2):
        assert high.beats(low), f"{high.describe()} should beat {low.describe()}"
        assert not low.beats(high), f"{low.describe()} should not beat {high.describe()}"


def run(low: int, length: int, width: int = 1, suits: str = "SCD") -> str:
    """``width`` cards (suits S, C, D in turn, never ♥) of ``length`` ranks from position ``low``."""
    ranks = ["A" if p in (1, 14) else Rank(p).letter for p in range(low, low + length)]
    if width == 1:
        return " ".join(suits[i % len(suits)] + rank for i, rank in enumerate(ranks))
    return " ".join(suit + rank for rank in ranks for suit in "SCDS"[:width])


# --- the order of ranks ------------------------------------------------------------------------


def test_order_of_ranks_is_big_joker_small_joker_2_a_k_down_to_3() -> None:
    """火拚摜蛋: 點數的大小：從大至小以次為：大王、小王、2、A、K、Q、J、10、9、8、7、6、5、4、3。 The level
    rank is not lifted: at level 7 a seven is between 6 and 8."""
    for level in (TWO, Rank.SEVEN, Rank.ACE):
        line = [one(text, level) for text in ("S3 ", "S6", "S7", "S8", "SK", "SA", "S2", "SB", "HR")]
        assert_ascending(line)
    assert [rank_order(rank, Rank.SEVEN, HUOPIN) for rank in (R.SEVEN, R.ACE, R.TWO)] == [7, 14, 15]


def test_the_order_holds_for_pairs_triples_full_houses_and_bombs() -> None:
    """火拚摜蛋: 從大至小以次為：大王、小王、2、A、K … for every kind compared by rank."""
    assert_ascending([one(text) for text in ("S9 C9", "SA CA", "S2 C2", "SB SB", "HR HR")])
    assert_ascending([one(text) for text in ("SK CK DK", "SA CA DA", "S2 C2 D2")])
    assert_ascending([one(text) for text in ("SA CA DA S3 C3", "S2 C2 D2 S3 C3")])
    assert_ascending([one(text) for text in ("SK CK DK HK", "SA CA DA HA", "S2 C2 D2 S2")])


def test_the_heart_level_card_is_still_wild() -> None:
    """火拚摜蛋: 逢人配（任意組合）：主牌紅桃為比如打10，2,3,4,紅桃10，6可組成2,3,4,5,6也可以任意組合成除大
    王，小王外的炸彈以及同花等任意牌型。"""
    assert (K.STRAIGHT, "2") in shapes("S2 C3 D4 HT S6", Rank.TEN)
    assert shapes("S2 S3 S4 HT S6", Rank.TEN) >= {(K.STRAIGHT_FLUSH, "2"), (K.STRAIGHT, "2")}
    assert (K.BOMB, "9") in shapes("S9 C9 D9 HT", Rank.TEN)
    assert readings("SB SB HT", Rank.TEN) == []  # not a joker: SB SB ♥10 is no three-joker bomb


def test_sequences_keep_the_natural_line() -> None:
    """火拚摜蛋: 同花順：相同花色的連續五張牌，最大的為同花10-J-Q-K-A，最小的為A-2-3-4-5. Sequences run on
    A2345 … 10JQKA whatever the order of ranks (docs/rules/huopin.md#sequence-order), with no wrap-around."""
    assert_ascending([one("SA C2 D3 S4 C5"), one("S2 C3 D4 S5 C6"), one("ST CJ DQ SK CA")])
    assert_ascending([one("SA S2 S3 S4 S5"), one("ST SJ SQ SK SA")])
    for text in ("SJ CQ DK SA C2", "SQ CK DA S2 C3", "SK CK SA CA S2 C2"):
        assert readings(text) == [], text


# --- sequences -----------------------------------------------------------------------------------


@pytest.mark.parametrize("length", [5, 6, 8, 12, 13])
def test_straight_is_five_or_more_consecutive_ranks(length: int) -> None:
    """火拚摜蛋: 順子：任意五張或者5張以上點數相連的牌. A straight holds 5 to 13 ranks (an ace at one end
    only)."""
    play = next(p for p in readings(run(2, length)) if p.kind is K.STRAIGHT)
    assert (play.rank, len(play.cards), play.length) == (TWO, length, length)


def test_thirteen_ranks_are_a2_to_k_or_2_to_a() -> None:
    """All thirteen ranks hold each rank once: A…K (the ace low) and 2…A (the ace high) are both
    readings, the second the higher."""
    low, high = sorted(readings(run(1, 13)), key=lambda play: play.key)
    assert (low.rank, low.key, high.rank, high.key) == (R.ACE, 13, TWO, 14)
    assert high.beats(low)
    assert readings(run(1, 14)) == []


def test_four_cards_in_a_row_are_no_straight() -> None:
    """火拚摜蛋: 任意五張或者5張以上 — four are too few."""
    assert readings("S3 C4 D5 S6") == []


def test_small_joker_never_in_a_straight() -> None:
    """火拚摜蛋: 小王不能出現在順子中。 (nor in a sequence of pairs or triples: 小王不能出現在連對中)."""
    assert readings("S3 C4 D5 S6 SB") == []
    assert readings("S3 C4 D5 S6 C7 SB") == []
    assert readings("S3 C3 S4 C4 SB SB") == []


def test_a_long_run_of_one_suit_is_a_straight() -> None:
    """火拚摜蛋: 同花順：相同花色的連續五張牌 — five cards; six of one suit in a row are a plain straight,
    five of one suit a straight flush only (as in the competition rules)."""
    assert shapes("S3 S4 S5 S6 S7 S8") == {(K.STRAIGHT, "3")}
    assert shapes("S3 S4 S5 S6 S7") == {(K.STRAIGHT_FLUSH, "3")}


@pytest.mark.parametrize("pairs", [3, 4, 6])
def test_tube_is_three_or_more_consecutive_pairs(pairs: int) -> None:
    """火拚摜蛋: 連對：三對或者三對以上點數相連的牌，如：556677。"""
    assert shapes(run(5, pairs, 2)) == {(K.TUBE, "5")}
    assert readings("S5 C5 S6 C6") == []


@pytest.mark.parametrize("triples", [2, 3, 4])
def test_plate_is_two_or_more_consecutive_triples(triples: int) -> None:
    """火拚摜蛋: 連三張：二個或者二個以上點數相連的三張牌，如：555666。"""
    assert shapes(run(5, triples, 3)) == {(K.PLATE, "5")}


def test_airplane_is_consecutive_triples_with_as_many_consecutive_pairs() -> None:
    """火拚摜蛋: 飛機帶翅膀：三順+同數量的一對牌。例如：333444+6677(雙飛)333444555+667788(三飛)
    333444555666+7788991010(四飛)等。注意，所帶的一對牌，必須是連順；不允許出現：333444+6688"""
    assert shapes("S3 C3 D3 S4 C4 D4 S6 C6 S7 C7") == {(K.AIRPLANE, "3")}
    assert shapes("S3 C3 D3 S4 C4 D4 S5 C5 D5 S6 C6 S7 C7 S8 C8") == {(K.AIRPLANE, "3")}
    four = "S3 C3 D3 S4 C4 D4 S5 C5 D5 S6 C6 D6 S7 C7 S8 C8 S9 C9 ST CT"
    assert shapes(four) == {(K.AIRPLANE, "3")}
    assert readings("S3 C3 D3 S4 C4 D4 S6 C6 S8 C8") == []


def test_airplane_wings_are_pairs_of_other_ranks_than_the_triples() -> None:
    """Reading of 三順+同數量的一對牌: the wings are pairs beside the triples (as a full house's pair is
    of another rank), so they may follow the triples (333444555+667788) but not share their ranks, and
    they are a 連順, where no joker stands."""
    assert (K.AIRPLANE, "3") in shapes("S3 C3 D3 S4 C4 D4 S5 C5 S6 C6")  # 333444 + 5566
    assert readings("S3 C3 D3 S4 C4 D4 S4 D4 S5 C5") == []  # 444 + 44: five fours
    assert readings("S3 C3 D3 S4 C4 D4 SB SB HR HR") == []  # jokers are no wings


def test_airplanes_compare_by_the_top_triple_with_as_many_triples() -> None:
    """火拚摜蛋 (for the sequences): 直接根據牌型中最大牌的點數比較大小，但要求牌型和牌數量必須相同 — an
    airplane by its top triple, against an airplane of as many cards."""
    low = one("S3 C3 D3 S4 C4 D4 SJ CJ SQ CQ")
    high = one("S4 C4 D4 S5 C5 D5 S6 C6 S7 C7")
    assert_ascending([low, high])
    three = one("S3 C3 D3 S4 C4 D4 S5 C5 D5 S7 C7 S8 C8 S9 C9")
    assert not three.beats(high)
    assert not high.beats(three)


def test_full_house_is_a_triple_and_a_pair() -> None:
    """火拚摜蛋: 三帶二：數值相同的三張牌加一對牌。例如：333+44 — compared by the triple, 2 above A."""
    assert shapes("S3 C3 D3 S4 C4") == {(K.FULL_HOUSE, "3")}
    assert_ascending([one("SA CA DA SK CK"), one("S2 C2 D2 S3 C3")])


# --- bombs ---------------------------------------------------------------------------------------


@pytest.mark.parametrize("size", range(4, 13))
def test_bomb_is_four_to_twelve_cards_of_one_rank(size: int) -> None:
    """火拚摜蛋: 炸彈：四張或四張以上點數相同的牌 … X相炸彈：X張同樣的牌組成的炸彈（4<=X<=12）: up to eight
    natural cards, the two ♥ level cards and the two big jokers."""
    naturals = ["S9", "S9", "H9", "H9", "C9", "C9", "D9", "D9"][: min(size, 8)]
    wild = ["H2", "H2", "HR", "HR"][: size - len(naturals)]
    (play,) = [p for p in readings(" ".join(naturals + wild)) if p.kind is K.BOMB]
    assert (play.rank, len(play.cards)) == (R.NINE, size)
    assert play_stars(play.kind, size) == size


def test_three_jokers_are_a_bomb() -> None:
    """火拚摜蛋: 三王炸彈：任意三個王的牌型。"""
    assert shapes("SB SB HR") == {(K.THREE_JOKERS, "B")}
    assert shapes("SB HR HR") == {(K.THREE_JOKERS, "B")}
    assert readings("SB SB HR", rules=COMPETITION) == []


def test_four_jokers_are_a_bomb() -> None:
    """火拚摜蛋: 天王炸彈：四張王牌。"""
    assert shapes("SB SB HR HR") == {(K.FOUR_JOKERS, "B")}


def test_chained_bomb_is_three_to_six_consecutive_bombs_of_as_many_cards() -> None:
    """火拚摜蛋: X相Y連環炸彈：Y組點數相連(3<=Y<=6)且牌數同為X的炸彈。如7777788888999 99（5相3連環炸彈）
    小王不能出現在此牌型中。"""
    play = one("S7 H7 C7 D7 S7 S8 H8 C8 D8 S8 S9 H9 C9 D9 S9")
    assert (play.kind, play.rank, play.length, play_stars(play.kind, 15, 3)) == (K.CHAIN_BOMB, R.SEVEN, 3, 8)
    assert one(run(3, 6, 4)).length == 6  # 4相6連環
    assert readings("S4 H4 C4 D4 S5 H5 C5 D5") == []  # two bombs in a row: no chain
    assert readings(run(3, 7, 4)) == []  # seven in a row: more than six
    assert readings("S4 H4 C4 D4 S5 H5 C5 D5 S5 S6 H6 C6 D6") == []  # 4 + 5 + 4 cards: not as many


def test_chained_bomb_stars_follow_the_seeds_table() -> None:
    """火拚摜蛋: X相Y連環炸彈牌型分：星級= X+Y … 4相3連環炸彈：7星 … 8相3連環炸彈：11星。"""
    table = {(4, 3): 7, (4, 4): 8, (4, 5): 9, (4, 6): 10, (5, 3): 8, (5, 4): 9, (5, 5): 10, (6, 3): 9}
    table |= {(6, 4): 10, (7, 3): 10, (8, 3): 11}
    for (width, length), stars in table.items():
        assert play_stars(K.CHAIN_BOMB, width * length, length) == stars


# --- the big joker --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("S7 C7 D7 S7 HR", "77777"),
        ("S4 C5 D6 S7 HR", "45678"),
        ("S7 C7 S8 S9 C9 HR", "778899"),
        ("S7 C7 S8 S9 HR HR", "778899"),
    ],
)
def test_big_joker_is_wild_with_other_cards_the_seeds_examples(text: str, expected: str) -> None:
    """火拚摜蛋: 大王（包括兩個大王）和別的牌型一起出的時候，可以做任意一張滿足牌型需要的萬能牌 … 例如：
    7777+大王=77777；4567+大王=45678（注意不是34567）；77899+大王=778899；77+8+9+大王+大王=778899。"""
    play = one(text)
    assert "".join(card.rank.letter for card in play.read_cards()) == expected


def test_the_larger_reading_is_preferred() -> None:
    """火拚摜蛋: 如果大王可以替代的牌存在一種以上的選擇的時候，則選擇大的牌型為優先。 Read as: cards holding a
    big joker are offered only in the readings no other reading of the same cards beats."""
    assert shapes("S7 C7 D7 HR HR") == {(K.BOMB, "7")}  # not 777 + 大王大王 nor 777 + any pair
    assert shapes("S4 S5 S6 S7 HR") == {(K.STRAIGHT_FLUSH, "4")}  # 45678 of spades, no plain straight
    assert shapes("S5 C5 S6 C6 HR") == {(K.FULL_HOUSE, "6")}  # 666 + 55, not 555 + 66
    assert shapes("S7 C7 D7 S8 C8 D8 S9 C9 D9 H2 H2 HR") == {(K.CHAIN_BOMB, "7")}  # not a plate
    # with only ♥ level cards the player still chooses: both ends of the straight
    assert shapes("S4 C5 D6 S7 H2") == {(K.STRAIGHT, "3"), (K.STRAIGHT, "4")}


def test_big_joker_may_go_with_the_small_joker() -> None:
    """火拚摜蛋: 大王可以搭配小王一起出。 Read as: the big joker may stand for the small joker, so 小王+大王
    is a pair of small jokers (and the pair of a full house); three jokers are a bomb of their own."""
    pair = one("SB HR")
    assert (pair.kind, pair.rank, [str(card) for card in pair.stands_for]) == (K.PAIR, R.SMALL_JOKER, ["SB"])
    assert shapes("S3 C3 D3 SB HR") == {(K.FULL_HOUSE, "3")}
    assert shapes("SB HR HR") == {(K.THREE_JOKERS, "B")}


def test_big_joker_alone_or_with_big_jokers_is_itself() -> None:
    """火拚摜蛋: 大王 … 和別的牌型一起出的時候 — played with other cards. Alone (or as a pair) it is
    itself."""
    assert (one("HR").kind, one("HR").rank, one("HR").stands_for) == (K.SINGLE, R.BIG_JOKER, ())
    assert (one("HR HR").kind, one("HR HR").rank, one("HR HR").stands_for) == (K.PAIR, R.BIG_JOKER, ())
    assert shapes("S9 HR") == {(K.PAIR, "9")}


def test_heart_level_cards_with_only_big_jokers_are_level_cards() -> None:
    """A play of ♥ level cards and big jokers only: the ♥ level cards are level cards (as played alone or
    as a pair) and the big jokers copy them."""
    assert shapes("H5 HR", Rank.FIVE) == {(K.PAIR, "5")}
    assert shapes("H5 HR HR", Rank.FIVE) == {(K.TRIPLE, "5")}
    assert shapes("H5 H5 HR HR", Rank.FIVE) == {(K.BOMB, "5")}


def test_big_joker_never_brings_the_small_joker_into_a_sequence() -> None:
    """火拚摜蛋: 小王不能出現在順子中 / 連對中 / 此牌型中 — the big joker stands in a sequence for natural
    cards only."""
    assert shapes("S3 C4 D5 S6 HR") == {(K.STRAIGHT, "3")}
    assert readings("S3 C4 D5 SB HR") == []


# --- comparison -----------------------------------------------------------------------------------


def test_non_bombs_need_the_same_kind_and_number_of_cards() -> None:
    """火拚摜蛋: 單張、順子、對子、連對、三張、連三張的牌型，直接根據牌型中最大牌的點數比較大小，但要求牌型和
    牌數量必須相同。"""
    five, six = one(run(3, 5)), one(run(2, 6))
    assert not six.beats(five)
    assert not five.beats(six)
    assert one(run(4, 6)).beats(six)
    three_pairs, four_pairs = one(run(3, 3, 2)), one(run(8, 4, 2))
    assert not four_pairs.beats(three_pairs)
    assert one(run(4, 3, 3)).beats(one(run(3, 3, 3)))


def test_every_bomb_beats_every_non_bomb() -> None:
    """火拚摜蛋: 炸彈大於任何其他非炸彈的牌型。"""
    bombs = [one("S3 C3 D3 S3"), one("S4 S5 S6 S7 S8"), one("SB SB HR"), one(run(3, 3, 4))]
    others = [one("HR"), one(run(2, 12)), one("S3 C3 D3 S4 C4 D4 S6 C6 S7 C7"), one("S2 C2")]
    for bomb in bombs:
        for other in others:
            assert bomb.beats(other), (bomb.describe(), other.describe())
            assert not other.beats(bomb), (other.describe(), bomb.describe())


def test_bombs_compare_by_stars_then_fewer_cards_then_rank() -> None:
    """火拚摜蛋: 同為炸彈的牌型，先按照星級比較大小；如果星級相同，則按照牌的數量比較大小，數量越少的越大；
    如果數量相同，則按照牌型中最大牌的點數比較大小；特殊：天王炸彈是7星牌裡面最大的牌型，三王炸彈是6星牌裡面
    最小的牌型. The straight flush sits between the 5★ and the 6★ bombs (docs/rules/huopin.md#bomb-order; the
    text is silent)."""
    ladder = [
        one("S3 C3 D3 S3"),  # 4★
        one("S2 C2 D2 S2"),  # 4★, 2 above A
        one("SA CA DA SA HA"),  # 5★
        one("S2 C2 D2 S2 D2"),  # 5★
        one("SA S2 S3 S4 S5"),  # straight flush
        one("ST SJ SQ SK SA"),  # the highest straight flush
        one("SB SB HR"),  # 6★, the lowest of them
        one("S3 C3 D3 S3 C3 D3"),  # 6★
        one(run(3, 3, 4)),  # 4相3連環: 7★, 12 cards
        one(run(4, 3, 4)),  # 7★, 12 cards, higher
        one("S3 C3 D3 S3 C3 D3 H3"),  # 7★, 7 cards: fewer cards
        one("SB SB HR HR"),  # 7★, the highest of them
        one(run(3, 4, 4)),  # 4相4連環: 8★, 16 cards
        one("S7 H7 C7 D7 S7 S8 H8 C8 D8 S8 S9 H9 C9 D9 S9"),  # 5相3連環: 8★, 15 cards
        one("S4 C4 D4 H4 S4 C4 D4 H4"),  # 8★, 8 cards
    ]
    assert_ascending(ladder)


def test_stars_of_the_special_bombs() -> None:
    """火拚摜蛋: 三王炸彈：6星級。天王炸彈：7星級。 X相炸彈：等同於X星級。"""
    assert play_stars(K.THREE_JOKERS, 3) == 6
    assert play_stars(K.FOUR_JOKERS, 4) == 7
    assert play_stars(K.BOMB, 9) == 9


# --- legal moves -----------------------------------------------------------------------------------


def test_follows_are_the_leads_that_beat_the_previous_play() -> None:
    """Under the huopin rules too, ``legal_follows`` is the leads filtered by ``Play.beats``."""
    hand = parse_cards("HR H2 S3 C4 D5 S6 C7 S8 S8 C8 D8 S9 C9 SB SB")
    leads = legal_leads(hand, TWO, HUOPIN)
    for previous in (one("SK CQ DJ ST C9 S8"), one("S4 C4 D4 S4"), one("ST CT")):
        assert set(legal_follows(hand, previous, TWO, HUOPIN)) == {p for p in leads if p.beats(previous)}


def test_verify_play_applies_the_preference_for_the_larger_reading() -> None:
    """A reading the preference drops is no combination: 4567+大王 is not 34567."""
    hand = parse_cards("S4 C5 D6 S7 HR S3")
    (straight,) = readings("S4 C5 D6 S7 HR")
    low = straight._replace(rank=R.THREE, key=7, stands_for=(Card(R.THREE, straight.stands_for[0].suit),))
    with pytest.raises(NotACombinationError):
        verify_play(hand, low, None, TWO, HUOPIN)
    assert verify_play(hand, straight, None, TWO, HUOPIN) == straight
    with pytest.raises(DoesNotBeatError):
        verify_play(hand, straight, one(run(9, 5)), TWO, HUOPIN)
    assert is_legal(hand, straight, one(run(2, 5)), TWO, HUOPIN)


def test_a_big_joker_counts_once_per_card_stood_for() -> None:
    """``stands_for`` lists what each wild card is read as, big jokers first; a big joker read as itself
    is no wild card."""
    play = one("S7 C7 S8 S9 HR HR")
    assert play.wild_count == 2
    assert play.cards.count(BIG_JOKER) == 2
    assert one("SB SB HR").wild_count == 0


def test_huopin_is_a_preset_with_only_play_parameters_set_here() -> None:
    """The combination engine's parameters of docs/rules/huopin.md, by name in the presets."""
    assert HUOPIN.name == "huopin"
    assert (HUOPIN.straight_lengths, HUOPIN.tube_lengths, HUOPIN.plate_lengths) == ((5, 13), (3, 13), (2, 13))
    assert HUOPIN.chain_bomb_lengths == (3, 6)
    assert HUOPIN.max_bomb_size == 12
    assert HUOPIN.big_joker_wild
    assert HUOPIN.bombs_by_stars
    assert HUOPIN.airplanes
    assert HUOPIN.three_jokers_bomb
    assert HUOPIN.two_high
    assert not HUOPIN.level_rank_high
    assert RuleSet.from_dict(HUOPIN.to_dict()) == HUOPIN


@pytest.mark.parametrize(
    ("values", "message"),
    [
        ({"straight_lengths": (2, 13)}, "straight_lengths"),
        ({"tube_lengths": (3, 14)}, "tube_lengths"),
        ({"max_bomb_size": 13}, "max_bomb_size"),
        ({"chain_bomb_lengths": (3, 6)}, "bombs_by_stars"),
        ({"three_jokers_bomb": True}, "bombs_by_stars"),
        ({"chain_bomb_lengths": (1, 6), "bombs_by_stars": True}, "chain_bomb_lengths"),
    ],
)
def test_play_parameters_are_validated(values: dict[str, object], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        RuleSet(name="bad", **values)  # type: ignore[arg-type]


def test_every_natural_rank_orders_as_the_seed_says() -> None:
    """The whole line at every level: 3 < 4 < … < K < A < 2 < small joker < big joker."""
    line = [*NATURAL_RANKS[1:], R.TWO, R.SMALL_JOKER, R.BIG_JOKER]
    for level in NATURAL_RANKS:
        orders = [rank_order(rank, level, HUOPIN) for rank in line]
        assert orders == sorted(orders)
        assert len(set(orders)) == len(orders)
