"""One test per rule of a match in docs/rules/competition.md (levels, the level-up,
Match), with 摜彈's wording (摜彈, 比賽通則 六、升級, 七、勝負 and the 28-point table) where it helps.

Deals are played through the public API only: :func:`tests.guandan.scenario.play_match_deal` deals
shuffled hands with ``match.deal`` and drives the deal with ``match.apply`` (tribute and return
included) so that a chosen seat takes 上游 and its partner a chosen place.
"""

from __future__ import annotations

import random

import pytest

from cardroom.cards import Rank
from cardroom.guandan import RuleSet, WrongPhaseError
from cardroom.guandan.match import Match, MatchPhase, shuffled_hands
from cardroom.guandan.scoring import MAX_GAP, PASSED_ACE, round_points
from tests.guandan.scenario import play_match_deal

R = Rank


def play(match: Match, outcomes: list[tuple[int, int]], seed: int = 1) -> None:
    """Play one deal per outcome: (the seat that takes 上游, the place of its partner)."""
    rng = random.Random(seed)
    for first, partner_place in outcomes:
        play_match_deal(match, rng, first, partner_place)


def level_of(match: Match) -> Rank:
    """The level of the next deal (a call, so that type checkers do not narrow it across deals)."""
    return match.level


# team 0 (seats 0 & 2) rising 3 four times: 2 → 5 → 8 → J → A.
TEAM0_TO_ACE = [(0, 2)] * 4


def test_both_teams_start_at_two_and_the_first_deal_is_at_level_two() -> None:
    """docs/rules/competition.md#levels and #level-rank: each team has a level from 2 to A and both start at
    2; a deal plays the level of the team that took 上游 in the previous deal, and the first deal plays 2.
    摜彈, 遊戲規則 六.1: 首副牌的級牌為2。"""
    match = Match()
    assert match.levels == [R.TWO, R.TWO]
    assert level_of(match) == R.TWO
    assert match.needs_leader
    hands, _ = shuffled_hands(random.Random(0))
    deal = match.deal(hands, 0)
    assert deal.level == R.TWO
    assert match.current_deal is deal


def test_the_first_deal_needs_a_leader_and_later_deals_start_with_tribute() -> None:
    """docs/rules/competition.md#first-lead: in a first deal the player who receives a card turned face up at
    random leads; later deals begin with tribute, so they name no leader."""
    match = Match()
    hands, _ = shuffled_hands(random.Random(0))
    with pytest.raises(ValueError, match="leader"):
        match.deal(hands)
    play(match, [(1, 2)])
    with pytest.raises(ValueError, match="tribute"):
        match.deal(hands, 0)


@pytest.mark.parametrize(("partner_place", "rise"), [(2, 3), (3, 2), (4, 1)])
def test_the_upstream_team_rises_by_the_partner_place(partner_place: int, rise: int) -> None:
    """docs/rules/competition.md#level-up: only the 上游's team rises: 3 levels with the partner 二游, 2 with
    the partner 三游, 1 with the partner 下游. 摜彈, 比賽通則 六:
    只有上遊方可以升級，同伴二游升3級，同伴三游升2級，同伴下游升1級。"""
    match = Match()
    play(match, [(1, partner_place)])
    assert match.levels == [R.TWO, Rank(2 + rise)]
    summary = match.summaries[-1]
    assert summary.result.partner_place == partner_place
    assert summary.levels_after == (R.TWO, Rank(2 + rise))


def test_only_the_upstream_team_rises() -> None:
    """docs/rules/competition.md#level-up: "Only the 上游's team rises". 摜彈, 比賽通則 六:
    只有上遊方可以升級。 The losing team keeps its level whatever its places."""
    match = Match()
    play(match, [(0, 2), (3, 4), (2, 3)])
    assert [summary.levels_after for summary in match.summaries] == [
        (R.FIVE, R.TWO),
        (R.FIVE, R.THREE),
        (R.SEVEN, R.THREE),
    ]


def test_the_next_deal_is_at_the_upstream_teams_level() -> None:
    """docs/rules/competition.md#level-rank: a deal plays the level of the team that took 上游 in the previous
    deal. 摜彈, 遊戲規則 六.1: 牌點與上副牌上游所升至級數相同的所有花色牌為級牌。 A lower level is played when
    the lower team took 上游."""
    match = Match()
    play(match, [(0, 2)])
    assert level_of(match) == R.FIVE
    play(match, [(1, 4)])
    assert match.levels == [R.FIVE, R.THREE]
    assert level_of(match) == R.THREE
    play(match, [(1, 3)], seed=2)
    assert [deal.level for deal in match.deals] == [R.TWO, R.FIVE, R.THREE]
    assert level_of(match) == R.FIVE
    assert match.levels == [R.FIVE, R.FIVE]


def test_rises_stop_at_ace() -> None:
    """docs/rules/competition.md#ace-cap: a rise stops at A, which must be played (A级必打). 摜彈, 比賽通則
    六: A級必打。 From Q, a rise of 3 stops at A; the next deal is at A."""
    match = Match()
    play(match, [(0, 2), (0, 2), (0, 2), (0, 4)])  # 5, 8, J, Q
    assert match.levels[0] == R.QUEEN
    play(match, [(2, 2)])
    assert match.levels == [R.ACE, R.TWO]
    assert level_of(match) == R.ACE
    assert not match.is_over


@pytest.mark.parametrize("partner_place", [2, 3])
def test_passing_ace_needs_upstream_at_own_ace_with_partner_not_last(partner_place: int) -> None:
    """docs/rules/competition.md#passing-ace: a team at A wins the match (打过A) when, in a deal at its own A,
    it takes 上游 and its partner is not 下游. 摜彈, 比賽通則 六: 必須同伴獲得二游或三游，才能打過A級。"""
    match = Match()
    play(match, TEAM0_TO_ACE)
    assert level_of(match) == R.ACE
    play(match, [(2, partner_place)])
    assert match.is_over
    assert match.phase is MatchPhase.OVER
    assert match.winner == 0
    assert match.passed_ace
    assert match.summaries[-1].passed_ace
    hands, _ = shuffled_hands(random.Random(0))
    with pytest.raises(WrongPhaseError):
        match.deal(hands)


def test_upstream_at_own_ace_with_partner_last_is_a_failure_not_a_win() -> None:
    """docs/rules/competition.md#passing-ace: the match is won only with 上游 and the partner not 下游:
    with the partner 下游 the team stays at A, has failed a deal at A, and plays A again."""
    match = Match()
    play(match, [*TEAM0_TO_ACE, (0, 4)])
    assert not match.is_over
    assert match.winner is None
    assert match.levels == [R.ACE, R.TWO]
    assert match.summaries[-1].failed_at_ace == (0,)
    assert level_of(match) == R.ACE


def test_upstream_at_ace_when_the_other_teams_level_is_played_does_not_pass() -> None:
    """docs/rules/competition.md#both-at-ace: only a team playing its own A can pass it. A team at A
    that takes 上游 (partner 二游) in a deal at the other team's level stays at A, and the next deal is at its
    A."""
    match = Match()
    play(match, [*TEAM0_TO_ACE, (1, 3)])
    assert level_of(match) == R.FOUR
    play(match, [(0, 2)], seed=3)
    assert not match.is_over
    assert match.levels == [R.ACE, R.FOUR]
    assert match.summaries[-1].failed_at_ace == ()
    assert level_of(match) == R.ACE
    play(match, [(0, 2)], seed=4)
    assert match.is_over
    assert match.winner == 0


def test_the_other_team_taking_upstream_at_your_ace_is_a_failed_deal_at_ace() -> None:
    """docs/rules/competition.md#ace-failures: failed deals at A are counted, since rule sets differ on what
    repeated failures cost: the other team taking 上游 in a deal at your A is one."""
    match = Match()
    play(match, [*TEAM0_TO_ACE, (3, 2)])
    assert match.summaries[-1].failed_at_ace == (0,)
    assert match.levels == [R.ACE, R.FIVE]
    assert level_of(match) == R.FIVE


def test_three_failed_deals_at_ace_send_the_team_back_to_two_with_a_limit_of_three() -> None:
    """docs/rules/competition.md#ace-failures: the competition rules set no limit on failures at A; the
    classic and platform rule sets send a team back to 2 after three (parameter ``ace_failure_limit``).
    Failures of both kinds count: partner 下游, and the other team taking 上游."""
    match = Match(RuleSet(name="three-strikes", ace_failure_limit=3))
    play(match, [*TEAM0_TO_ACE, (0, 4), (1, 2)])
    assert match.levels == [R.ACE, R.FIVE]
    play(match, [(2, 2)], seed=5)  # at team 1's level 5: no pass, no failure
    assert match.levels == [R.ACE, R.FIVE]
    assert level_of(match) == R.ACE
    play(match, [(2, 4)], seed=6)  # the third failure at A
    assert match.summaries[-1].failed_at_ace == (0,)
    assert match.levels == [R.TWO, R.FIVE]
    assert level_of(match) == R.TWO
    assert not match.is_over


def test_no_limit_on_failures_at_ace_by_default() -> None:
    """docs/rules/competition.md#ace-failures: the competition rules set no limit: a team stays at A after any
    number of failed deals."""
    match = Match()
    play(match, [*TEAM0_TO_ACE, (0, 4), (2, 4), (0, 4), (2, 4)])
    assert sum(summary.failed_at_ace == (0,) for summary in match.summaries) == 4
    assert match.levels == [R.ACE, R.TWO]
    assert level_of(match) == R.ACE
    assert not match.is_over


@pytest.mark.parametrize(("partner_place", "passes"), [(2, True), (3, False)])
def test_classic_style_pass_ace_needs_partner_second(partner_place: int, passes: bool) -> None:
    """docs/rules/classic.md#passing-ace: to pass A the team must finish 头科 and 二科 —
    ``pass_ace_partner_place=2``."""
    match = Match(RuleSet(name="classic-ace", pass_ace_partner_place=2))
    play(match, [*TEAM0_TO_ACE, (0, partner_place)])
    assert match.is_over is passes
    assert (match.winner == 0) is passes
    assert match.levels[0] == R.ACE


def test_a_match_limited_by_deals_ends_after_them_and_the_higher_level_wins() -> None:
    """docs/rules/competition.md#match-formats: a round of fixed deals or fixed time is won by the team with
    the higher level. 摜彈, 比賽通則 七.1: 打完規定的副數後，升級數高的一方獲勝。"""
    match = Match(max_deals=2)
    play(match, [(0, 2), (1, 4)])
    assert match.is_over
    assert match.levels == [R.FIVE, R.THREE]
    assert match.winner == 0
    assert not match.passed_ace
    assert match.points() == (16, 12)


def test_a_match_limited_by_deals_that_ends_level_plays_one_more_deal() -> None:
    """docs/rules/competition.md#tie-extra-deal (摜彈, 比賽通則 七.1): 如升級數相同，可加打一副牌，決出勝負。
    (``tie_extra_deal``, on by default.)"""
    match = Match(max_deals=2)
    play(match, [(0, 4), (1, 4)])
    assert match.levels == [R.THREE, R.THREE]
    assert not match.is_over
    assert match.phase is MatchPhase.DEALING
    play(match, [(3, 3)], seed=7)
    assert match.is_over
    assert match.winner == 1
    assert len(match.deals) == 3
    assert match.points() == (12, 16)


def test_a_match_limited_by_deals_that_ends_level_is_a_draw_without_the_extra_deal() -> None:
    """docs/rules/competition.md#round-points: multi-round ranking knows a draw (2 points for a win, 1 for a
    draw, 0 for a loss); with
    ``tie_extra_deal=False`` equal levels after the deals are a draw, 14:14 in the 28-point table."""
    match = Match(RuleSet(name="no-extra", tie_extra_deal=False), max_deals=2)
    play(match, [(0, 4), (1, 4)])
    assert match.is_over
    assert match.winner is None
    assert match.points() == (14, 14)


def test_max_deals_must_be_positive() -> None:
    """A match limited by deals plays at least one."""
    with pytest.raises(ValueError, match="max_deals"):
        Match(max_deals=0)


@pytest.mark.parametrize("gap", range(15))
def test_the_28_point_table(gap: int) -> None:
    """docs/rules/competition.md#score-28: in the 28-point table a level difference d (0…14) scores 14 + d for
    the winner and 14 − d for the loser. 摜彈 級差與得分換算（28分制）: 級差 0 → 14:14, 2 → 16:12, 14 →
    28:0."""
    assert round_points(gap) == (14 + gap, 14 - gap)
    assert sum(round_points(gap)) == 28


def test_the_28_point_table_caps_the_gap_at_14() -> None:
    """摜彈: the table stops at 級差 14 (28:0); a larger gap scores as 14, and a negative one is an error."""
    assert MAX_GAP == 14
    assert round_points(20) == (28, 0)
    assert round_points(0) == (14, 14)
    assert round_points(2) == (16, 12)
    with pytest.raises(ValueError, match="gap"):
        round_points(-1)


def test_passing_ace_against_king_is_a_gap_of_two() -> None:
    """摜彈 28分制: 比如：一方過A，一方打K，級差為2級 — passing A against a team at K scores 16:12."""
    match = Match()
    play(match, [(0, 2), (1, 2), (0, 2), (1, 2), (0, 2), (1, 2), (1, 3)])
    assert match.levels == [R.JACK, R.KING]
    play(match, [(2, 2)], seed=8)
    assert match.levels == [R.ACE, R.KING]
    play(match, [(0, 3)], seed=9)
    assert match.is_over
    assert match.winner == 0
    assert match.level_values() == (PASSED_ACE, 13)
    assert match.points() == (16, 12)


def test_points_only_for_a_finished_match() -> None:
    """docs/rules/competition.md#score-28: the round score comes "一局终了" (when the match is over)."""
    match = Match()
    with pytest.raises(WrongPhaseError):
        match.points()
    play(match, [(0, 2)])
    with pytest.raises(WrongPhaseError):
        match.points()


def test_points_of_a_pass_of_ace_against_level_two() -> None:
    """docs/rules/competition.md#score-28: a level difference d scores 14 + d for the winner. Passing A
    (counted 15, as 摜彈's example 一方過A，一方打K，級差為2級 requires) against a team still at 2 is a gap of
    13: 27:1. 摜彈's other example, 一方過王，一方為2，級差為14級, cannot hold with the first at the same time
    (過王 is not a level here)."""
    match = Match()
    play(match, [*TEAM0_TO_ACE, (2, 3)])
    assert match.is_over
    assert match.level_values() == (PASSED_ACE, 2)
    assert match.points() == (27, 1)
