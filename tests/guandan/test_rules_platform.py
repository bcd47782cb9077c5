"""The `platform` preset (docs/rules/platform.md, an online platform's rules), rule by rule."""

from __future__ import annotations

import random

from cardroom.cards import Rank
from cardroom.guandan.deal import Deal, EventKind, TributeAction
from cardroom.guandan.match import Match
from cardroom.guandan.ruleset import PLATFORM, preset
from tests.guandan.scenario import build_hands, play_match_deal


def level_of(match: Match, team: int) -> Rank:
    """A team's level (a call, so that type checkers do not narrow it across deals)."""
    return match.levels[team]


def test_platform_is_a_preset() -> None:
    assert preset("platform") is PLATFORM


def test_double_down_earns_four_levels() -> None:
    """docs/rules/platform.md#level-up (方法规则, 升级规则): 如果是双下,赢家升4级。(奖励多晋一级)
    如果对手有一家是末游,赢家升2级; 如果赢家自己对门是末游,赢家升1级."""
    for partner_place, rise in ((2, 4), (3, 2), (4, 1)):
        match = Match(PLATFORM)
        play_match_deal(match, random.Random(partner_place), 0, partner_place)
        assert match.levels == [Rank(2 + rise), Rank.TWO]


def test_three_failed_deals_at_a_go_back_to_two() -> None:
    """docs/rules/platform.md#ace-failures: three failed deals at its own A send a team back to 2."""
    match = Match(PLATFORM)
    rng = random.Random(3)
    while level_of(match, 0) != Rank.ACE:
        play_match_deal(match, rng, 0, 2)
    play_match_deal(match, rng, 0, 4)  # 上游 with the partner 下游: a failure, the stage kept
    play_match_deal(match, rng, 1, 4)  # the other team takes 上游 at team 0's A: a failure
    assert match.ace_failures[0] == 2
    play_match_deal(match, rng, 0, 4)  # team 0 back at A (its A is not played this deal)
    assert level_of(match, 0) == Rank.ACE
    play_match_deal(match, rng, 2, 4)  # a third failed deal at its own A
    assert level_of(match, 0) == Rank.TWO


def test_the_larger_tribute_goes_to_the_first_and_its_payer_leads() -> None:
    """docs/rules/platform.md#lead-after-tribute (方法规则, 第二轮出牌权):
    双贡情况下,由进贡牌大的一家先出牌,若一样则由贡给头游的一方先出."""
    deal = Deal(build_hands("SB", "HR", "HR", "SB"), Rank.TWO, PLATFORM, previous_places=(0, 2, 1, 3))
    for payer in (1, 3):
        action = deal.legal_actions()[0]
        assert isinstance(action, TributeAction)
        assert action.seat == payer
        deal.apply(action)
    assert {e.seat: e.to for e in deal.events if e.kind == EventKind.TRIBUTE} == {1: 0, 3: 2}
    for _ in range(2):
        deal.apply(deal.legal_actions()[0])
    assert deal.current_player == 1


def test_equal_tributes_the_first_paid_goes_to_the_first() -> None:
    """docs/rules/platform.md#double-tribute (方法规则, 岐义的统一):
    头游拿进贡的最大牌,如果两张一样,头游拿第一张进贡的牌 — the first to pay is 上游's 下家."""
    hands = build_hands("SB HR", "S5", "SB HR", "C5")
    deal = Deal(hands, Rank.FIVE, PLATFORM, previous_places=(0, 2, 1, 3))
    paid = []
    for _ in range(2):
        action = deal.legal_actions()[0]
        assert isinstance(action, TributeAction)
        paid.append(action)
        deal.apply(action)
    assert paid[0].seat == 1
    assert paid[0].card.rank == paid[1].card.rank
    assert {e.seat: e.to for e in deal.events if e.kind == EventKind.TRIBUTE} == {1: 0, 3: 2}


def test_the_lead_passes_to_the_partner() -> None:
    """docs/rules/platform.md#jiefeng (方法规则, 接风):
    当某个人最后一手牌打出时,如果其他玩家都放弃。则下一轮的任意出牌权是他的对家 — the old rule (下家接风) is
    the parameter ``lead_passes_to_partner=False``, played in test_rules_deal."""
    assert PLATFORM.lead_passes_to_partner
