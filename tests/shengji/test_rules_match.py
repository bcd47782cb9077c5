"""One test per rule of a Shengji match (docs/rules/shengji.md: the result and levels; 打升級 quoted): levels
from 2, dealer rotation, the seven-level ladder and its must-play stops (the every-rank ladder as a preset),
the J reset (J 摳底), the A on the last trick (帶帽子).

The level arithmetic is checked on chosen results (:func:`result`) through
:func:`cardroom.shengji.match.next_levels`, which the match applies after each deal, and through a
match played with the public API.
"""

from __future__ import annotations

import random

import pytest

from cardroom.cards import Card, Rank, Suit
from cardroom.shengji.deal import Deal, DealResult, Declare, Pass, Phase
from cardroom.shengji.deal_errors import WrongPhaseError
from cardroom.shengji.match import Match, MatchPhase, next_levels, shuffled_deck
from cardroom.shengji.ruleset import ALL_RANKS, SHENGJI, ShengjiRules
from cardroom.shengji.scoring import rise_level
from tests.shengji.deal_helpers import card_number, cards, deck_for, random_action

R = Rank


def result(
    dealer: int, level: Rank, score: int, last_winner: int | None = None, last_cards: str = "S3"
) -> DealResult:
    """A finished deal with the attackers' ``score`` (all card points); by default the dealer won the last
    trick with ``last_cards``."""
    return DealResult(
        dealer=dealer,
        level=level,
        trump=Suit.SPADES,
        attackers_card_points=score,
        dealers_card_points=200 - score,
        kitty_points=0,
        kitty_multiplier=0,
        penalty=0,
        last_trick_winner=dealer if last_winner is None else last_winner,
        last_trick_cards=cards(last_cards),
    )


# -- rises and dealers -------------------------------------------------------------------------------


@pytest.mark.parametrize(("score", "level_after"), [(0, R.JACK), (5, R.TEN), (40, R.FIVE), (75, R.FIVE)])
def test_dealers_who_keep_the_deal_rise_and_the_dealers_partner_deals_next(
    score: int, level_after: Rank
) -> None:
    """打升級: 莊家升級時，下一副牌由其對家當莊家; 0分 對方升三級；5—35分 對方升二級；40—75分 對方升一級;
    a level is a step of 升級牌為：2、5、10、J、Q、K、A七個級別 (from 2: +1 → 5, +2 → 10, +3 → J)."""
    summary = next_levels([R.TWO, R.TWO], result(0, R.TWO, score), SHENGJI)
    assert summary.levels_after == (level_after, R.TWO)
    assert summary.next_dealer == 2
    assert not summary.outcome.attackers_take_over


@pytest.mark.parametrize(
    ("score", "level_after"), [(80, R.TWO), (115, R.TWO), (120, R.FIVE), (160, R.TEN), (200, R.JACK)]
)
def test_attackers_who_take_over_rise_and_the_dealers_next_seat_deals(score: int, level_after: Rank) -> None:
    """打升級: 閑家上台時，下一副牌由此副牌的莊家的下家當莊家; 80—115分 倒庄; 以 40 分為一個等級 above 80,
    each a step of the seven levels."""
    summary = next_levels([R.FIVE, R.TWO], result(2, R.FIVE, score), SHENGJI)
    assert summary.levels_after == (R.FIVE, level_after)
    assert summary.next_dealer == 3
    assert summary.outcome.attackers_take_over


# -- the level ladder --------------------------------------------------------------------------------


def test_the_default_ladder_is_the_seeds_seven_levels() -> None:
    """打升級: 升級牌為：2、5、10、J、Q、K、A七個級別: the default ladder has those seven, no other rank."""
    assert SHENGJI.levels == (R.TWO, R.FIVE, R.TEN, R.JACK, R.QUEEN, R.KING, R.ACE)
    assert (SHENGJI.first_level, SHENGJI.top_level) == (R.TWO, R.ACE)
    with pytest.raises(ValueError, match="not on the level ladder"):
        rise_level(R.THREE, 1, SHENGJI)
    with pytest.raises(ValueError, match="ladder"):
        Deal(shuffled_deck(random.Random(0)), R.THREE, SHENGJI)


@pytest.mark.parametrize(
    ("level", "steps", "after"),
    [
        (R.TWO, 1, R.FIVE),
        (R.TWO, 2, R.TEN),
        (R.TWO, 3, R.JACK),
        (R.FIVE, 1, R.TEN),
        (R.FIVE, 3, R.JACK),
        (R.TEN, 1, R.JACK),
        (R.TEN, 2, R.JACK),
        (R.JACK, 1, R.QUEEN),
        (R.JACK, 2, R.KING),
        (R.JACK, 3, R.ACE),
        (R.QUEEN, 3, R.ACE),
        (R.KING, 2, R.ACE),
        (R.ACE, 3, R.ACE),
        (R.FIVE, 0, R.FIVE),
    ],
)
def test_a_rise_along_the_seven_levels_stops_at_2_j_and_a(level: Rank, steps: int, after: Rank) -> None:
    """打升級: 升級牌為：2、5、10、J、Q、K、A七個級別。其中逢2、J、A級必須打: a level of the result table is a
    step of the seven, and a rise stops at the next must-play level (5 +3 → J, 10 +2 → J, Q +3 → A)."""
    assert SHENGJI.must_play == (R.TWO, R.JACK, R.ACE)
    assert rise_level(level, steps, SHENGJI) == after


def test_must_play_stops_apply_to_dealers_and_attackers_alike() -> None:
    """打升級: 其中逢2、J、A級必須打, whichever side rises: dealers at 10 keeping the deal with 0 points (+3),
    attackers at 10 taking it with 200 (+3), both stop at J."""
    assert next_levels([R.TEN, R.TWO], result(0, R.TEN, 0), SHENGJI).levels_after == (R.JACK, R.TWO)
    assert next_levels([R.FIVE, R.TEN], result(0, R.FIVE, 200), SHENGJI).levels_after == (R.FIVE, R.JACK)


@pytest.mark.parametrize(
    ("level", "steps", "after"),
    [
        (R.TWO, 1, R.THREE),
        (R.TWO, 3, R.FIVE),
        (R.THREE, 3, R.SIX),
        (R.NINE, 3, R.JACK),
        (R.TEN, 2, R.JACK),
        (R.JACK, 3, R.ACE),
        (R.QUEEN, 3, R.ACE),
        (R.ACE, 3, R.ACE),
    ],
)
def test_the_every_rank_ladder_is_a_preset_with_the_seeds_stops(level: Rank, steps: int, after: Rank) -> None:
    """Common practice plays every rank 2…A (``shengji_all_ranks``); 打升級 names its stops only for its
    seven levels (其中逢2、J、A級必須打), and the preset keeps those three: 9 +3 → J, Q +3 → A."""
    assert ALL_RANKS.levels == tuple(Rank(value) for value in range(2, 15))
    assert ALL_RANKS.must_play == (R.TWO, R.JACK, R.ACE)
    assert rise_level(level, steps, ALL_RANKS) == after


# -- J 摳底 ------------------------------------------------------------------------------------------


def test_attackers_winning_the_last_trick_with_a_j_at_j_send_the_dealers_back_to_2() -> None:
    """打升級: 莊家打J級時，對家用J牌摳底，莊家重新從2級開始."""
    kept = next_levels([R.JACK, R.FIVE], result(0, R.JACK, 60, last_winner=1, last_cards="SJ"), SHENGJI)
    assert kept.reset
    assert kept.levels_after == (R.TWO, R.FIVE)
    assert kept.next_dealer == 2
    taken = next_levels([R.JACK, R.FIVE], result(0, R.JACK, 130, last_winner=3, last_cards="HJ HJ"), SHENGJI)
    assert taken.reset
    assert taken.levels_after == (R.TWO, R.TEN)
    assert taken.next_dealer == 1


def test_no_reset_without_a_j_or_when_the_dealers_win_the_last_trick_or_when_turned_off() -> None:
    rules_off = ShengjiRules(reset_level=None)
    for summary in (
        next_levels([R.JACK, R.FIVE], result(0, R.JACK, 60, last_winner=1, last_cards="SA"), SHENGJI),
        next_levels([R.JACK, R.FIVE], result(0, R.JACK, 60, last_cards="SJ"), SHENGJI),
        next_levels([R.JACK, R.FIVE], result(0, R.JACK, 60, last_winner=1, last_cards="SJ"), rules_off),
    ):
        assert not summary.reset
        assert summary.levels_after == (R.QUEEN, R.FIVE)
    at_ten = next_levels([R.TEN, R.FIVE], result(0, R.TEN, 60, last_winner=1, last_cards="SJ"), SHENGJI)
    assert at_ten.levels_after == (R.JACK, R.FIVE)


# -- A 帶帽子 -----------------------------------------------------------------------------------------


def test_at_a_the_dealers_pass_only_by_winning_the_last_trick_with_an_a() -> None:
    """打升級: 打A，俗稱帶帽子，最後出牌時以A最大為勝利 (``top_level_last_trick``)."""
    passed = next_levels([R.ACE, R.KING], result(0, R.ACE, 30, last_cards="SA"), SHENGJI)
    assert passed.passed_top
    failed = next_levels([R.ACE, R.KING], result(0, R.ACE, 30, last_cards="HR"), SHENGJI)
    assert not failed.passed_top
    assert failed.levels_after == (R.ACE, R.KING)
    assert failed.next_dealer == 2
    attackers_last = next_levels(
        [R.ACE, R.KING], result(0, R.ACE, 30, last_winner=1, last_cards="SA"), SHENGJI
    )
    assert not attackers_last.passed_top
    taken = next_levels([R.ACE, R.KING], result(0, R.ACE, 90, last_cards="SA"), SHENGJI)
    assert not taken.passed_top
    assert taken.next_dealer == 1


def test_without_the_a_rule_keeping_the_deal_at_a_passes_it() -> None:
    rules = ShengjiRules(top_level_last_trick=False)
    assert next_levels([R.ACE, R.KING], result(0, R.ACE, 75, last_cards="HR"), rules).passed_top


# -- the match ---------------------------------------------------------------------------------------


def play_deal(match: Match, rng: random.Random) -> None:
    deal = match.current_deal
    assert deal is not None
    while deal.phase is not Phase.OVER:
        match.apply(random_action(deal, rng))


def test_a_match_starts_at_2_and_the_first_declarer_deals() -> None:
    """打升級: 開局中，雙方爭庄，先亮者為莊家; both teams start at 2."""
    match = Match()
    assert match.levels == [R.TWO, R.TWO]
    assert match.level == R.TWO
    with pytest.raises(WrongPhaseError):
        match.observation(0)
    deal = match.deal(deck_for({2: "H2"}))
    while deal.dealt < card_number(2, 1):
        match.apply(Pass(deal.current_player or 0))
    match.apply(Declare(2, cards("H2")))
    while deal.phase is Phase.DECLARE:
        match.apply(Pass(deal.current_player or 0))
    assert deal.dealer == 2
    play_deal(match, random.Random(1))
    assert match.phase is MatchPhase.DEALING
    summary = match.summaries[-1]
    assert summary.dealer == 2
    assert match.dealer == summary.next_dealer
    assert match.levels == list(summary.levels_after)
    team = match.dealer % 2
    assert match.level == match.levels[team]
    with pytest.raises(ValueError, match="first drawer"):
        match.deal(shuffled_deck(random.Random(2)), first_drawer=1)
    second = match.deal(shuffled_deck(random.Random(2)))
    assert second.dealer == match.dealer
    assert second.current_player == match.dealer
    assert second.level == match.levels[team]
    with pytest.raises(WrongPhaseError):
        match.deal(shuffled_deck(random.Random(3)))
    observation = match.observation(1)
    assert observation.levels == (match.levels[0], match.levels[1])
    assert observation.hand == second.hand(1)


def test_a_match_ends_when_the_dealers_pass_the_top_level() -> None:
    """docs/rules/shengji.md#match: the match to passing A. A two-rung ladder (2, A) keeps the match short."""
    rules = ShengjiRules(name="short", levels=(R.TWO, R.ACE), must_play=(R.ACE,), reset_level=None)
    rng = random.Random(7)
    match = Match(rules)
    while not match.is_over:
        match.deal_random(rng)
        play_deal(match, rng)
        assert len(match.deals) < 200
    last = match.summaries[-1]
    assert last.passed_top
    assert match.winner == last.dealer % 2
    assert match.levels[match.winner] == R.ACE
    assert last.result.last_trick_won_with(R.ACE)
    assert not last.result.attackers_won_last_trick
    assert list(match.legal_actions()) == []
    with pytest.raises(WrongPhaseError):
        match.deal_random(rng)
    with pytest.raises(WrongPhaseError):
        match.verify(Pass(0))
    assert not match.can(Pass(0))


def test_dealers_follow_the_rotation_rules_over_a_match() -> None:
    """打升級: 莊家升級時，下一副牌由其對家當莊家。閑家上台時，下一副牌由此副牌的莊家的下家當莊家."""
    rng = random.Random(11)
    match = Match()
    for _ in range(6):
        deal = match.deal_random(rng)
        before = list(match.levels)
        play_deal(match, rng)
        summary = match.summaries[-1]
        assert summary.dealer == deal.dealer
        take_over = summary.outcome.attackers_take_over
        assert match.dealer == (deal.dealer + (1 if take_over else 2)) % 4
        assert summary.levels_after == next_levels(before, summary.result, SHENGJI).levels_after


def test_card_order_of_the_deck_is_the_shuffle() -> None:
    deck = shuffled_deck(random.Random(0))
    assert len(deck) == 108
    assert deck != shuffled_deck(random.Random(1))
    assert isinstance(deck[0], Card)
