"""The `huopin` preset's deal rules (docs/rules/huopin.md: tribute and levels), rule by rule."""

from __future__ import annotations

import random

from cardroom.cards import Rank
from cardroom.guandan.deal import Deal, EventKind, Phase, ReturnAction, TributeAction
from cardroom.guandan.match import Match
from cardroom.guandan.ruleset import COMPETITION, HUOPIN, preset
from tests.guandan.scenario import build_hands, card, phase_of, play_match_deal


def test_huopin_is_a_preset() -> None:
    assert preset("huopin") is HUOPIN


def test_the_tribute_is_the_highest_card_with_two_above_ace() -> None:
    """docs/rules/huopin.md#tribute-card (火拚摜蛋 2): 末家向贏家進貢一張（除主牌紅桃外的）最大的牌; §4:
    點數的大小 … 大王、小王、2、A、K … 3 — at level 5 a 2 outranks the 5s (the level rank is not lifted)."""
    hands = build_hands("SB SB HR HR", "", "", "S5 S2 SA")
    deal = Deal(hands, Rank.FIVE, HUOPIN, previous_places=(0, 1, 2, 3))
    options = {action.card.rank for action in deal.legal_actions() if isinstance(action, TributeAction)}
    assert options == {Rank.TWO}
    competition = Deal(hands, Rank.FIVE, COMPETITION, previous_places=(0, 1, 2, 3))
    assert {a.card.rank for a in competition.legal_actions() if isinstance(a, TributeAction)} == {Rank.FIVE}


def test_any_card_may_be_returned() -> None:
    """docs/rules/huopin.md#return-card (火拚摜蛋 2): 贏家還一張任意牌 — no limit of 10."""
    hands = build_hands("SA SK SB SB HR", "", "", "S2")
    deal = Deal(hands, Rank.FIVE, HUOPIN, previous_places=(0, 1, 2, 3))
    deal.apply(deal.legal_actions()[0])
    assert phase_of(deal) is Phase.RETURN
    returnable = {action.card for action in deal.legal_actions() if isinstance(action, ReturnAction)}
    assert {card("SA"), card("SK"), card("SB")} <= returnable
    deal.apply(ReturnAction(0, card("SA")))
    assert phase_of(deal) is Phase.PLAY
    assert deal.current_player == 3, "最末家可先出牌"


def test_after_a_double_tribute_the_last_leads() -> None:
    """docs/rules/huopin.md#lead-after-tribute (火拚摜蛋 2): 如果是雙下
    兩個輸方要向兩個頭家（贏家）分主次進貢…最末家可先出牌 — the 下游 leads, though the other payer gave the
    larger card to 上游."""
    hands = build_hands("SB SB", "HR", "HR", "S3")
    leaders = {}
    for rules in (HUOPIN, COMPETITION):
        deal = Deal(hands, Rank.FIVE, rules, previous_places=(0, 2, 1, 3))
        for _ in range(2):
            deal.apply(deal.legal_actions()[0])
        assert {e.seat: e.to for e in deal.events if e.kind == EventKind.TRIBUTE} == {1: 0, 3: 2}, (
            "头游拿进贡的最大牌"
        )
        for _ in range(2):
            deal.apply(deal.legal_actions()[0])
        assert phase_of(deal) is Phase.PLAY
        leaders[rules.name] = deal.current_player
    assert leaders == {"huopin": 3, "competition": 1}


def test_level_rises_three_two_one() -> None:
    """docs/rules/huopin.md#level-up (火拚摜蛋 6): 如果是雙下，贏家升3級。如果對手有一家是末游，贏家升2級；
    如果贏家自己對門是末游，贏家升1級."""
    for partner_place, rise in ((2, 3), (3, 2), (4, 1)):
        match = Match(HUOPIN)
        play_match_deal(match, random.Random(partner_place), 0, partner_place)
        assert match.levels == [Rank(2 + rise), Rank.TWO]
