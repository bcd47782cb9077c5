"""Ratings: openskill (Plackett–Luce) per player, the platform's rating points and titles
(docs/rules/platform.md#points-per-level, #titles), and the leaderboard."""

from __future__ import annotations

import pytest

from cardroom.tournament import Ranking, RatingBook, TableResult, leaderboard
from tests.tournament.helpers import forced_match

A = ("a1", "a2")
B = ("b1", "b2")


def test_winners_rise_losers_fall() -> None:
    book = RatingBook().rate((A, B), winner=0)
    for player in A:
        assert book.get(player).mu > 25
        assert book.get(player).wins == 1
    for player in B:
        assert book.get(player).mu < 25
        assert book.get(player).losses == 1
    assert all(book.get(p).sigma < 25 / 3 for p in A + B), "every player is better known"


def test_partners_move_alike() -> None:
    """The pair's result rates both: equal partners get equal updates, in either seat order."""
    book = RatingBook().rate((A, B), winner=1)
    first, second = book.get("a1"), book.get("a2")
    assert (first.mu, first.sigma) == (second.mu, second.sigma)
    swapped = RatingBook().rate((("a2", "a1"), ("b2", "b1")), winner=1)
    assert swapped.get("a1").mu == pytest.approx(first.mu)
    assert swapped.get("b2").mu == pytest.approx(book.get("b2").mu)


def test_sides_are_symmetric() -> None:
    won_as_side_0 = RatingBook().rate((A, B), winner=0)
    won_as_side_1 = RatingBook().rate((B, A), winner=1)
    assert won_as_side_0.get("a1").mu == pytest.approx(won_as_side_1.get("a1").mu)


def test_upsets_move_more() -> None:
    """Beating stronger players earns more than beating weaker ones."""
    book = RatingBook()
    for _ in range(3):
        book = book.rate((A, B), winner=0)
    c = ("c1", "c2")
    favourite = book.rate((A, c), winner=0)
    underdog = book.rate((c, B), winner=0)
    gain_favourite = favourite.get("a1").mu - book.get("a1").mu
    gain_underdog = underdog.get("c1").mu - book.get("c1").mu
    assert 0 < gain_favourite < gain_underdog


def test_a_draw_between_equals_keeps_mu() -> None:
    book = RatingBook().rate((A, B), winner=None)
    assert book.get("a1").mu == pytest.approx(25.0)
    assert book.get("a1").draws == 1


def test_rule_platform_points_and_titles() -> None:
    """docs/rules/platform.md#points-per-level, #titles: "赢方每升一级加1分，输方扣1分";
    "打到A，胜方加10分，输方不扣分"; titles "〈=0笨蛋 〈=10坏蛋〈=100鸡蛋". Seat 0's side rises 3 four times
    (12 levels) and passes A: 12 + 10 = 22 each."""
    match = forced_match([(0, 2)] * 5)
    book = RatingBook().rate((A, B), winner=0, match=match)
    assert book.get("a1").points.points == 22
    assert book.get("a1").title == "鸡蛋"
    assert book.get("b2").points.points == -12
    assert book.get("b2").title == "笨蛋"
    assert RatingBook().get("new").title == "笨蛋"


def test_byes_and_forfeits_are_not_rated() -> None:
    book = RatingBook()
    assert book.rate_result((A, B), TableResult.forfeit(1)) == book
    assert book.rate_result((A, B), TableResult.bye()) == book
    assert book.rate_result((A, B), TableResult.played((5, 3), 4)).get("a1").wins == 1


def test_leaderboard() -> None:
    book = RatingBook().rate((A, B), winner=0, match=forced_match([(0, 2)] * 5))
    book = book.rate((("c1", "c2"), B), winner=0)
    board = leaderboard(book)
    assert [row.rank for row in board] == list(range(1, 7))
    assert {row.rating.player for row in board[:2]} == {"a1", "a2"}, "beat fresh b's, who then lost again"
    ordinals = [row.rating.ordinal for row in board]
    assert ordinals == sorted(ordinals, reverse=True)
    by_points = leaderboard(book, Ranking.POINTS)
    assert [row.rating.points.points for row in by_points][:2] == [22, 22]
    regulars = leaderboard(book, min_matches=2)
    assert [(row.rank, row.rating.player) for row in regulars] == [(1, "b1"), (2, "b2")]


def test_bad_input() -> None:
    with pytest.raises(ValueError, match="four different"):
        RatingBook().rate((A, ("a1", "b1")), winner=0)
    with pytest.raises(ValueError, match="winner"):
        RatingBook().rate((A, B), winner=2)
