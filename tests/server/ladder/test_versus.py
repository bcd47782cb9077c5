"""An entrant's record against each house bot (cardroom.server.ladder.versus; docs/ladder.md,
"Reading it"): which matches count, from whose side, and the intervals, checked by hand."""

from __future__ import annotations

import math
from typing import Any

import pytest

from cardroom.arena.stats import t_quantile
from cardroom.server.ladder.versus import record_against, versus

ME = "bot:7#1"


def match(team_a: list[str], team_b: list[str], margin: int | None, status: str = "rated") -> dict[str, Any]:
    return {"team_a": team_a, "team_b": team_b, "margin": margin, "status": status}


def test_no_match_has_no_rate_and_no_interval() -> None:
    (heuristic,) = versus(ME, ["heuristic"], [])
    assert heuristic == {
        "house": "heuristic",
        "matches": 0,
        "wins": 0,
        "draws": 0,
        "losses": 0,
        "win_rate": None,
        "win_rate_low": None,
        "win_rate_high": None,
        "margin": None,
        "margin_low": None,
        "margin_high": None,
    }


def test_one_match_has_a_rate_but_no_interval() -> None:
    shown = record_against([2])
    assert (shown["wins"], shown["win_rate"], shown["margin"]) == (1, 1.0, 2.0)
    assert [shown[name] for name in ("win_rate_low", "win_rate_high", "margin_low", "margin_high")] == [
        None
    ] * 4


def test_matches_count_against_the_house_bots_on_the_other_team_from_the_entrants_side() -> None:
    matches = [
        match([ME, "random#1"], ["heuristic#1", "search#1"], 3),  # won by 3: against heuristic and search
        match(["heuristic#1", "bot:9#1"], [ME, "random#1"], 2),  # team A won: ME lost by 2, against heuristic
        match(["search#1", ME], ["heuristic#1", "bot:9#1"], 0),  # a draw, against heuristic only
        match([ME, "heuristic#1"], ["random#1", "bot:9#1"], -1),  # lost by 1 with heuristic: against random
        match([ME, "search#1"], ["heuristic#1", "random#1"], None, "running"),  # not rated: not counted
        match(["bot:9#1", "random#1"], ["heuristic#1", "search#1"], 4),  # not ME's
        match(["bot:7#2", "random#1"], ["heuristic#1", "search#1"], 4),  # another generation
    ]
    shown = {row["house"]: row for row in versus(ME, ["random", "heuristic", "search"], matches)}
    assert list(shown) == ["random", "heuristic", "search"]
    heuristic = shown["heuristic"]
    assert (heuristic["matches"], heuristic["wins"], heuristic["draws"], heuristic["losses"]) == (3, 1, 1, 1)
    # scores 1, 0, ½: mean ½, s = ½; margins 3, −2, 0: mean 1/3, s² = (64/9 + 49/9 + 1/9) / 2 = 19/3
    half = t_quantile(0.975, 2) / math.sqrt(3)
    assert heuristic["win_rate"] == 0.5
    assert (heuristic["win_rate_low"], heuristic["win_rate_high"]) == (0, 1), "clipped to [0, 1]"
    assert heuristic["margin"] == pytest.approx(1 / 3, abs=1e-3)
    assert heuristic["margin_low"] == pytest.approx(1 / 3 - half * math.sqrt(19 / 3), abs=1e-3)
    assert heuristic["margin_high"] == pytest.approx(1 / 3 + half * math.sqrt(19 / 3), abs=1e-3)
    assert (shown["search"]["matches"], shown["search"]["wins"], shown["search"]["margin"]) == (1, 1, 3.0)
    assert (shown["random"]["matches"], shown["random"]["losses"], shown["random"]["win_rate"]) == (1, 1, 0.0)


def test_a_narrow_interval_is_not_clipped() -> None:
    """15 wins and 5 losses: scores with mean 0.75, 0.75 ± t(19)·s/√20, inside [0, 1]."""
    shown = record_against([1] * 15 + [-1] * 5)
    s = math.sqrt(15 * 0.25**2 + 5 * 0.75**2) / math.sqrt(19)
    half = t_quantile(0.975, 19) * s / math.sqrt(20)
    assert shown["win_rate"] == 0.75
    assert shown["win_rate_low"] == pytest.approx(0.75 - half, abs=1e-3)
    assert shown["win_rate_high"] == pytest.approx(0.75 + half, abs=1e-3)


def test_a_house_bot_is_not_listed_against_itself() -> None:
    matches = [match(["heuristic#1", "bot:1#1"], ["random#1", "search#1"], 1)]
    shown = versus("heuristic#1", ["random", "heuristic", "search"], matches)
    assert [row["house"] for row in shown] == ["random", "search"]
    assert all(row["wins"] == 1 for row in shown)
