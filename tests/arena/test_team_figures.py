"""Both games' team results write ``results.json``'s team object the one shared way (docs/arena.md):
the bot first, then every figure in the order the result declares it, ``null`` where none was measured."""

from __future__ import annotations

from cardroom.arena.shengji_summary import ShengjiTeamResult
from cardroom.arena.stats import Interval
from cardroom.arena.summary import TeamResult

RATE = Interval(0.5, 0.4, 0.6, 3, 12)


def test_a_guandan_team_writes_its_bot_then_its_figures_in_order() -> None:
    written = TeamResult("heuristic", deal_win_rate=RATE).to_json()
    assert list(written) == [
        "bot",
        "deal_win_rate",
        "level_gain_per_deal",
        "double_down_rate",
        "match_win_rate",
        "points_per_match",
        "deal_win_rate_in_matches",
        "level_gain_per_deal_in_matches",
    ]
    assert written["bot"] == "heuristic"
    assert written["deal_win_rate"] == RATE.to_json()
    assert written["match_win_rate"] is None


def test_a_shengji_team_writes_its_own_figures_the_same_way() -> None:
    written = ShengjiTeamResult("random", attackers_points=RATE).to_json()
    assert list(written) == [
        "bot",
        "deal_win_rate",
        "level_gain_per_deal",
        "dealer_rate",
        "dealer_keep_rate",
        "attackers_points",
        "match_win_rate",
    ]
    assert written["attackers_points"] == RATE.to_json()
    assert written["dealer_rate"] is None
