"""An entrant's record against each house bot (docs/ladder.md, "Reading it"): over the rated matches
where that house bot was on the other team, the wins, draws and losses, the win rate (a draw counts
½) and the mean duplicate margin, each with its 95% confidence interval (:func:`cardroom.arena.stats.
mean_interval`, one match one value). Pure: it reads the matches as ``GET /api/ladder/{bot}`` lists them.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from cardroom.arena.stats import mean_interval

DIGITS = 3


def bot_of(key: str) -> str:
    """The bot of an entrant's key (``bot:7#2`` → ``bot:7``, ``heuristic#1`` → ``heuristic``)."""
    return key.rpartition("#")[0] or key


def own_margin(key: str, match: Mapping[str, Any]) -> int | None:
    """The match's margin from ``key``'s side (team A's margin, negated for team B); ``None`` when
    ``key`` did not play it or it is not rated."""
    if match.get("status", "rated") != "rated" or match.get("margin") is None:
        return None
    if key in match["team_a"]:
        return int(match["margin"])
    if key in match["team_b"]:
        return -int(match["margin"])
    return None


def opponents(key: str, match: Mapping[str, Any]) -> list[str]:
    """The bots on the other team from ``key``."""
    other = match["team_b"] if key in match["team_a"] else match["team_a"]
    return [bot_of(entrant) for entrant in other]


def _rounded(value: float | None) -> float | None:
    return None if value is None else round(value, DIGITS)


def record_against(margins: Sequence[int]) -> dict[str, Any]:
    """The record of these margins (one a match, the entrant's side): W-D-L, the win rate and the mean
    margin with their 95% intervals (``None`` with no match; the bounds ``None`` with one)."""
    scores = [1.0 if margin > 0 else 0.5 if margin == 0 else 0.0 for margin in margins]
    rate = mean_interval(scores, bounds=(0.0, 1.0))
    margin = mean_interval([float(value) for value in margins])
    return {
        "matches": len(margins),
        "wins": sum(value > 0 for value in margins),
        "draws": sum(value == 0 for value in margins),
        "losses": sum(value < 0 for value in margins),
        "win_rate": _rounded(rate.estimate),
        "win_rate_low": _rounded(rate.low),
        "win_rate_high": _rounded(rate.high),
        "margin": _rounded(margin.estimate),
        "margin_low": _rounded(margin.low),
        "margin_high": _rounded(margin.high),
    }


def versus(key: str, houses: Sequence[str], matches: Iterable[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """The entrant ``key``'s record against each house bot of ``houses`` (its own name left out), in
    that order: ``{"house", "matches", "wins", "draws", "losses", "win_rate", "win_rate_low",
    "win_rate_high", "margin", "margin_low", "margin_high"}``, over the rated ``matches`` it played
    with that house bot on the other team."""
    margins: dict[str, list[int]] = {house: [] for house in houses if house != bot_of(key)}
    for match in matches:
        margin = own_margin(key, match)
        if margin is None:
            continue
        for house in set(opponents(key, match)) & margins.keys():
            margins[house].append(margin)
    return [{"house": house, **record_against(values)} for house, values in margins.items()]


__all__ = ["bot_of", "opponents", "own_margin", "record_against", "versus"]
