"""How a ladder match's duplicate games make one rated result (docs/ladder-core.md#results)."""

from __future__ import annotations

import pytest

from cardroom.arena import GameKind, GameOutcome
from cardroom.arena.stats import DealFacts
from cardroom.ladder import (
    BadResultError,
    LadderMatch,
    LadderResult,
    duplicate_margin,
    game_margin,
    winner_of,
)

MATCH = LadderMatch(("a#1", "b#1"), ("c#1", "d#1"), 1)


def fresh_deal(index: int, swapped: bool, winners: int, rise: int) -> GameOutcome:
    """A fresh deal won by match team ``winners``, who rise ``rise`` levels
    (docs/rules/competition.md#level-up)."""
    after = (2 + rise, 2) if winners == 0 else (2, 2 + rise)
    places = (0, 1, 2, 3) if winners == 0 else (1, 0, 3, 2)
    facts = DealFacts(places, (0, 0, 0, 0), (0, 0, 0, 0), (2, 2), after, ())
    return GameOutcome(GameKind.DEAL, index, swapped, 1 if swapped else 0, (facts,), True, winners, None)


def test_a_game_scores_team_a_rise_minus_team_b_rise() -> None:
    assert game_margin(fresh_deal(0, False, winners=0, rise=3)) == 3
    assert game_margin(fresh_deal(0, False, winners=1, rise=2)) == -2
    # Swapped, team A sits at match team 1: its win there counts for it.
    assert game_margin(fresh_deal(0, True, winners=1, rise=1)) == 1
    assert game_margin(fresh_deal(0, True, winners=0, rise=3)) == -3


def test_the_duplicate_margin_cancels_the_luck_of_the_cards() -> None:
    """The same seats win both games of a pair (the cards decided): team A's 3-level win direct and team
    B's 1-level win with the same cards swapped leave team A 2 ahead; equal rises both ways are a draw."""
    better = [fresh_deal(0, False, 0, 3), fresh_deal(0, True, 0, 1)]
    assert duplicate_margin(better) == 2
    assert LadderResult(MATCH, tuple(better)).winner == 0
    even = [fresh_deal(0, False, 0, 2), fresh_deal(0, True, 0, 2)]
    assert duplicate_margin(even) == 0
    assert LadderResult(MATCH, tuple(even)).winner is None
    worse = [*even, fresh_deal(1, False, 1, 1), fresh_deal(1, True, 1, 1)]
    assert duplicate_margin(worse) == 0
    worse = [*even, fresh_deal(1, False, 1, 3), fresh_deal(1, True, 1, 1)]
    assert LadderResult(MATCH, tuple(worse)).margin == -2
    assert (winner_of(5), winner_of(-1), winner_of(0)) == (0, 1, None)


def test_a_result_without_both_games_of_every_pair_is_refused() -> None:
    with pytest.raises(BadResultError, match="deal 0 is not played exactly once each way"):
        duplicate_margin([fresh_deal(0, False, 0, 3)])
    with pytest.raises(BadResultError, match="deal 1 is not played exactly once each way"):
        LadderResult(
            MATCH, (fresh_deal(0, False, 0, 1), fresh_deal(0, True, 0, 1), fresh_deal(1, True, 0, 1))
        )
    with pytest.raises(BadResultError, match="at least one duplicate pair"):
        LadderResult(MATCH, ())
    pair = (fresh_deal(0, False, 0, 1), fresh_deal(0, True, 0, 1))
    with pytest.raises(BadResultError, match="one record per game: 2 games, 1 records"):
        LadderResult(MATCH, pair, ({},))
