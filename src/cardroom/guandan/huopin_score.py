"""火拼掼蛋's per-deal score (docs/rules/huopin.md#base-points): base points by place × the multiplier of the
strongest star play of the deal + contribution points for each star play of 6★ or more.

游戏最后得分应该是：基本分×翻倍数+贡献分.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Final

from cardroom.guandan.deal import Deal, EventKind
from cardroom.guandan.plays import Play, play_stars
from cardroom.guandan.tribute import partner

BASE_BY_PLACE: Final = {
    2: (3, 3, -3, -3),
    3: (2, -2, 2, -2),
    4: (1, -1, -1, 1),
}
"""Base points for places 1–4, by the 上游's partner's place (基本分得分表): 双下 (partner 2nd), 单下 (3rd),
平局 (4th)."""


def multiplier(stars: int) -> int:
    """翻倍: 6★ ×2, 7★ ×3, 8★ ×4, more than 8★ ×8; below 6★ ×1."""
    if stars > 8:
        return 8
    return {6: 2, 7: 3, 8: 4}.get(stars, 1)


def contribution(stars: int) -> tuple[int, int, int]:
    """贡献分 of one play: (its player, the partner, each opponent). 6★: +4/+2/−3; 7★: +8/+4/−6;
    8★ and more: +12/+6/−9; below 6★ nothing."""
    if stars >= 8:
        return 12, 6, -9
    return {6: (4, 2, -3), 7: (8, 4, -6)}.get(stars, (0, 0, 0))


def stars_of(play: Play) -> int:
    """A play's star level (星级): :func:`~cardroom.guandan.plays.play_stars`, 0 for non-bombs."""
    return play_stars(play.kind, len(play.cards), play.length)


def deal_score(deal: Deal, stars: Callable[[Play], int] = stars_of) -> tuple[int, int, int, int]:
    """Each seat's score for a finished deal; ``stars`` gives a play's star level (0 for plays with
    none)."""
    if deal.result is None:
        raise ValueError("the deal is not over")
    places = deal.result.places
    base = BASE_BY_PLACE[deal.result.partner_place]
    scores = [0, 0, 0, 0]
    for place, seat in enumerate(places):
        scores[seat] = base[place]
    played = [
        (event.seat, stars(event.play))
        for event in deal.events
        if event.kind == EventKind.PLAY and event.play is not None and event.seat is not None
    ]
    strongest = max((level for _, level in played), default=0)
    scores = [score * multiplier(strongest) for score in scores]
    for seat, level in played:
        own, mate, opponent = contribution(level)
        if not own:
            continue
        for other in range(4):
            if other == seat:
                scores[other] += own
            elif other == partner(seat):
                scores[other] += mate
            else:
                scores[other] += opponent
    return scores[0], scores[1], scores[2], scores[3]
