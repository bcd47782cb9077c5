"""火拼掼蛋's per-deal score (docs/rules/huopin.md#base-points), rule by rule."""

from __future__ import annotations

import pytest

from cardroom.cards import Rank
from cardroom.guandan import legal_leads
from cardroom.guandan.deal import Deal, PlayAction
from cardroom.guandan.huopin_score import BASE_BY_PLACE, contribution, deal_score, multiplier, stars_of
from cardroom.guandan.plays import Play, PlayKind
from cardroom.guandan.ruleset import HUOPIN
from tests.guandan.scenario import build_hands, order_for, play_to_order


def no_stars(play: Play) -> int:
    return 0


def bomb_size_stars(play: Play) -> int:
    """A stand-in star function: an X-card bomb is X★ (docs/rules/huopin.md#stars: X 相炸彈：等同於 X
    星級)."""
    return len(play.cards) if play.kind is PlayKind.BOMB else 0


def finished(partner_place: int) -> Deal:
    deal = Deal(build_hands(), Rank.TWO, leader=0)
    play_to_order(deal, order_for(0, partner_place))
    return deal


@pytest.mark.parametrize(
    ("partner_place", "expected"), [(2, (3, 3, -3, -3)), (3, (2, -2, 2, -2)), (4, (1, -1, -1, 1))]
)
def test_base_points_by_place(partner_place: int, expected: tuple[int, int, int, int]) -> None:
    """基本分得分表 (第一名 第二名 第三名 第四名): 雙下 3 3 -3 -3; 單下 2 -2 2 -2; 平局 1 -1 -1 1."""
    assert BASE_BY_PLACE[partner_place] == expected
    deal = finished(partner_place)
    assert deal.result is not None
    scores = deal_score(deal, no_stars)
    assert tuple(scores[seat] for seat in deal.result.places) == expected
    assert sum(scores) == 0


def test_multiplier_of_the_strongest_star_play() -> None:
    """翻倍: 6星級基本分×2, 7星級基本分×3, 8星級基本分×4, 8星級以上基本分×8."""
    assert [multiplier(stars) for stars in (0, 4, 5, 6, 7, 8, 9, 12)] == [1, 1, 1, 2, 3, 4, 8, 8]


def test_contribution_points() -> None:
    """六星牌型：本家加4分，隊友加2分，其他玩家各加－3分。七星牌型：本家加8分，隊友加4分，其他玩家各加－6分。
    八星和以上牌型：本家加12分，隊友加6分，其他玩家各加－9分."""
    assert contribution(5) == (0, 0, 0)
    assert contribution(6) == (4, 2, -3)
    assert contribution(7) == (8, 4, -6)
    assert contribution(8) == contribution(11) == (12, 6, -9)


def test_final_score_is_base_times_multiplier_plus_contributions() -> None:
    """遊戲最後得分應該是：基本分×翻倍數+貢獻分 — seat 0 opens with a 6-card bomb (6★) and finishes 上游
    with its partner 三游 (单下): base 2, −2, 2, −2 by place, ×2, then +4 to seat 0, +2 to its partner,
    −3 to each opponent."""
    deal = Deal(build_hands("S9 H9 C9 D9 S9 H9"), Rank.TWO, leader=0)
    bomb = next(
        action
        for action in deal.legal_actions()
        if isinstance(action, PlayAction)
        and action.play.kind is PlayKind.BOMB
        and len(action.play.cards) == 6
    )
    deal.apply(bomb)
    play_to_order(deal, [0, 1, 2, 3])
    assert deal.result is not None
    assert [event.seat for event in deal.events if event.play and bomb_size_stars(event.play) >= 6] == [0]
    assert deal_score(deal, bomb_size_stars) == (2 * 2 + 4, -2 * 2 - 3, 2 * 2 + 2, -2 * 2 - 3)
    assert deal_score(deal) == deal_score(deal, bomb_size_stars), "play_stars: an X-card bomb is X★"


def test_star_levels_of_the_special_plays() -> None:
    """docs/rules/huopin.md#stars: 三王炸彈 6星級; 天王炸彈 7星級; X相炸彈 X星級; X相Y連環炸彈 X+Y星級
    (5相3連環 8星)."""
    hand = build_hands("SB SB HR HR S5 H5 C5 D5 S5 S6 H6 C6 D6 S6 S7 H7 C7 D7 S7")[0]
    stars: dict[tuple[PlayKind, int], int] = {}
    for play in legal_leads(hand, Rank.TWO, HUOPIN):
        stars.setdefault((play.kind, len(play.cards)), stars_of(play))
    assert stars[PlayKind.THREE_JOKERS, 3] == 6
    assert stars[PlayKind.FOUR_JOKERS, 4] == 7
    assert stars[PlayKind.BOMB, 5] == 5
    assert stars[PlayKind.CHAIN_BOMB, 15] == 8
