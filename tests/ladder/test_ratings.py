"""The ladder's rating pool (docs/ladder-core.md#ratings): openskill, apart from people's ratings."""

from __future__ import annotations

import pytest

from cardroom.ladder import (
    RANGE_SIGMAS,
    BadResultError,
    Entrant,
    LadderPool,
    Roster,
    UnknownEntrantError,
)
from cardroom.tournament import RatingModel
from tests.ladder.helpers import outsiders, pool_of


def test_a_new_entrant_has_the_models_rating_and_no_matches() -> None:
    pool = pool_of(outsiders(4))
    rating = pool.rating("bot0#1")
    assert (rating.mu, rating.sigma, rating.matches) == (RatingModel().mu, RatingModel().sigma, 0)
    (first, *_) = pool.standings()
    assert first.low == pytest.approx(first.mu - RANGE_SIGMAS * first.sigma)
    assert first.high == pytest.approx(first.mu + RANGE_SIGMAS * first.sigma)


def test_a_win_moves_the_winners_up_the_standings_and_narrows_every_range() -> None:
    pool = pool_of(outsiders(4))
    after = pool.rate(("bot2#1", "bot3#1"), ("bot0#1", "bot1#1"), winner=0)
    standings = after.standings()
    assert {row.entrant.key for row in standings[:2]} == {"bot2#1", "bot3#1"}
    assert all(row.matches == 1 for row in standings)
    assert all(row.sigma < RatingModel().sigma for row in standings)
    assert after.rating("bot2#1").wins == 1
    assert after.rating("bot0#1").losses == 1
    drawn = pool.rate(("bot2#1", "bot3#1"), ("bot0#1", "bot1#1"), winner=None)
    assert drawn.rating("bot2#1").draws == 1
    assert drawn.rating("bot2#1").mu == pytest.approx(drawn.rating("bot0#1").mu)
    assert pool.rating("bot2#1").matches == 0


def test_the_standings_sort_by_the_low_end_and_can_leave_out_the_unplayed() -> None:
    pool = pool_of(outsiders(5), {"bot0#1": 30.0, "bot1#1": 20.0, "bot2#1": 10.0, "bot3#1": 40.0})
    assert [row.entrant.key for row in pool.standings()] == ["bot3#1", "bot0#1", "bot1#1", "bot2#1", "bot4#1"]
    assert [row.rank for row in pool.standings()] == [1, 2, 3, 4, 5]
    rated = pool.rate(("bot0#1", "bot1#1"), ("bot2#1", "bot3#1"), 1)
    assert {row.entrant.key for row in rated.standings(min_matches=1)} == {f"bot{n}#1" for n in range(4)}


def test_a_pool_is_apart_from_any_other() -> None:
    """Two pools share nothing: rating one leaves the other as it was (people's ratings are another
    book in the server)."""
    pool = pool_of(outsiders(4))
    other = LadderPool(pool.roster)
    pool.rate(("bot0#1", "bot1#1"), ("bot2#1", "bot3#1"), 0)
    assert other.rating("bot0#1").matches == 0


def test_bad_results_and_unknown_entrants_are_refused() -> None:
    pool = pool_of(outsiders(4))
    with pytest.raises(UnknownEntrantError, match="ghost#1"):
        pool.rate(("bot0#1", "ghost#1"), ("bot2#1", "bot3#1"), 0)
    with pytest.raises(UnknownEntrantError, match="ghost#1"):
        pool.rating("ghost#1")
    with pytest.raises(BadResultError, match="two teams of two different entrants"):
        pool.rate(("bot0#1", "bot1#1"), ("bot1#1", "bot3#1"), 0)
    with pytest.raises(BadResultError, match="got 2"):
        pool.rate(("bot0#1", "bot1#1"), ("bot2#1", "bot3#1"), 2)
    with pytest.raises(UnknownEntrantError, match="bot3#1 would be lost"):
        pool.with_roster(Roster.of(outsiders(3)))
    bigger = pool.with_roster(pool.roster.add(Entrant("bot0", "owner0", 2)))
    assert len(bigger.standings()) == 5
