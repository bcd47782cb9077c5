"""The arena's statistics on toy cases whose answers are known: Student's t, the interval over
duplicate pairs, and the play facts read from a deal's log."""

from __future__ import annotations

import math
import random
import statistics

import pytest

from cardroom.arena.stats import (
    ReturnFact,
    cluster_mean,
    mean_interval,
    play_counts,
    return_facts,
    t_quantile,
    t_two_sided_coverage,
)
from cardroom.cards import Card, Rank, parse_cards
from cardroom.guandan.deal import Deal, Event, EventKind, Phase
from cardroom.guandan.match import shuffled_hands
from cardroom.guandan.plays import PASS
from cardroom.guandan.readings import classify


@pytest.mark.parametrize(
    ("df", "expected"),
    [
        (1, 12.706205),
        (2, 4.302653),
        (3, 3.182446),
        (4, 2.776445),
        (10, 2.228139),
        (30, 2.042272),
        (120, 1.979930),
        (5000, 1.960439),
    ],
)
def test_t_quantile_matches_the_tables(df: int, expected: float) -> None:
    assert t_quantile(0.975, df) == pytest.approx(expected, abs=2e-6)


def test_t_coverage_inverts_the_quantile() -> None:
    for df in (1, 2, 7, 8, 51):
        assert t_two_sided_coverage(t_quantile(0.995, df), df) == pytest.approx(0.99, abs=1e-9)


def test_t_quantile_rejects_nonsense() -> None:
    with pytest.raises(ValueError, match="degrees of freedom"):
        t_quantile(0.975, 0)
    with pytest.raises(ValueError, match="probability"):
        t_quantile(1.0, 5)


def test_mean_interval_is_the_t_interval() -> None:
    """1…5: mean 3, s² = 2.5, so 3 ± t(4)·√(2.5/5)."""
    interval = mean_interval([1, 2, 3, 4, 5])
    half = 2.776445 * math.sqrt(2.5 / 5)
    assert interval.estimate == pytest.approx(3)
    assert interval.low == pytest.approx(3 - half, abs=1e-5)
    assert interval.high == pytest.approx(3 + half, abs=1e-5)
    assert (interval.clusters, interval.units) == (5, 5)


def test_mean_interval_is_clipped_to_bounds() -> None:
    """Scores 1, 1, 0.5: mean 5/6, s = √(1/12), so 5/6 ± t(2)·s/√3 reaches above 1 and is cut there."""
    interval = mean_interval([1, 1, 0.5], bounds=(0, 1))
    half = t_quantile(0.975, 2) * math.sqrt(1 / 12) / math.sqrt(3)
    assert interval.estimate == pytest.approx(5 / 6)
    assert interval.low == pytest.approx(5 / 6 - half)
    assert interval.high == 1
    assert mean_interval([1, 1, 0.5]).high == pytest.approx(5 / 6 + half)


def test_pairs_of_equal_size_give_the_t_interval_on_pair_means() -> None:
    rng = random.Random(3)
    clusters = [[rng.random(), rng.random()] for _ in range(25)]
    means = [sum(pair) / 2 for pair in clusters]
    interval = cluster_mean(clusters)
    half = t_quantile(0.975, 24) * statistics.stdev(means) / math.sqrt(25)
    assert interval.estimate == pytest.approx(statistics.fmean(means))
    assert interval.low == pytest.approx(statistics.fmean(means) - half)
    assert interval.high == pytest.approx(statistics.fmean(means) + half)


def test_clusters_of_unequal_size_use_the_ratio_estimator() -> None:
    """Sums 3, 0, 6 over sizes 2, 1, 3: r = 9/6 = 1.5; residuals 0, −1.5, 1.5; Var = 3·4.5/(2·36)."""
    interval = cluster_mean([[1, 2], [0], [1, 2, 3]])
    error = math.sqrt(3 * 4.5 / (2 * 36))
    assert interval.estimate == pytest.approx(1.5)
    assert interval.high == pytest.approx(1.5 + t_quantile(0.975, 2) * error)
    assert interval.units == 6


def test_known_mean_and_variance_are_covered() -> None:
    """Normal data with mean 10 and s.d. 2: the estimate is near 10 and the half-width near 1.96·2/√n."""
    rng = random.Random(11)
    values = [rng.gauss(10, 2) for _ in range(4000)]
    interval = mean_interval(values)
    assert interval.contains(10)
    assert interval.high is not None
    assert interval.low is not None
    assert (interval.high - interval.low) / 2 == pytest.approx(1.96 * 2 / math.sqrt(4000), rel=0.05)


def test_degenerate_intervals() -> None:
    assert cluster_mean([]).estimate is None
    assert cluster_mean([[], []]).estimate is None
    single = cluster_mean([[1.0, 0.0]])
    assert (single.estimate, single.low, single.high) == (0.5, None, None)
    constant = cluster_mean([[0.0, 1.0]] * 10)
    assert (constant.low, constant.estimate, constant.high) == (0.5, 0.5, 0.5)
    clipped = cluster_mean([[1.0, 1.0], [1.0, 1.0], [0.0, 1.0]], bounds=(0.0, 1.0))
    assert clipped.high == 1.0


def _hands_with(seat_three: str) -> list[list[Card]]:
    """Toy hands (not a full deck: ``return_facts`` only follows the cards)."""
    return [list(parse_cards("SA SK")), [], [], list(parse_cards(seat_three))]


def test_a_return_card_completing_a_bomb() -> None:
    """Seat 3 holds three 7s, pays ♥A, gets a 7 back: four 7s."""
    events = [
        Event(EventKind.TRIBUTE, seat=3, card=Card.parse("HA"), to=0),
        Event(EventKind.RETURN, seat=0, card=Card.parse("S7"), to=3, private_to=(0, 3)),
    ]
    hands = _hands_with("S7 C7 D7 HA")
    hands[0].append(Card.parse("S7"))
    (fact,) = return_facts(hands, events, Rank.TWO)
    assert fact == ReturnFact(Card.parse("S7"), 4, 0)
    assert fact.completes_bomb
    assert fact.completes_bomb_with_wilds


def test_a_return_card_completing_a_bomb_only_with_a_wild_card() -> None:
    """Three 7s counting the ♥2 (wild at level 2): a bomb with the wild card, not without."""
    events = [
        Event(EventKind.TRIBUTE, seat=3, card=Card.parse("HA"), to=0),
        Event(EventKind.RETURN, seat=0, card=Card.parse("D7"), to=3, private_to=(0, 3)),
    ]
    hands = _hands_with("S7 C7 H2 HA")
    hands[0].append(Card.parse("D7"))
    (fact,) = return_facts(hands, events, Rank.TWO)
    assert (fact.natural, fact.wild) == (3, 1)
    assert not fact.completes_bomb
    assert fact.completes_bomb_with_wilds
    (at_seven,) = return_facts(hands, events, Rank.SEVEN)
    assert (at_seven.natural, at_seven.wild) == (3, 0), "at level 7 the ♥2 is not wild"


def test_return_facts_follow_a_real_double_tribute() -> None:
    """After the returns and before any play, each receiver's hand is exactly what it held on receipt."""
    for seed in range(12):
        hands, _ = shuffled_hands(random.Random(seed))
        deal = Deal(hands, Rank.FIVE, previous_places=(0, 2, 1, 3))
        while deal.phase in (Phase.TRIBUTE, Phase.RETURN):
            deal.apply(deal.legal_actions()[-1])
        facts = return_facts(deal.dealt_hands, deal.events, deal.level)
        returns = [event for event in deal.events if event.kind == EventKind.RETURN]
        assert len(facts) == len(returns)
        for fact, event in zip(facts, returns, strict=True):
            assert event.to is not None
            held = deal.hand(event.to)
            assert fact.natural == sum(card.rank is fact.card.rank for card in held)


def test_play_counts_count_plays_and_bombs_not_passes() -> None:
    bomb = classify(parse_cards("S9 H9 C9 D9"), Rank.TWO)[0]
    single = classify(parse_cards("S3"), Rank.TWO)[0]
    events = [
        Event(EventKind.PLAY, seat=0, play=single),
        Event(EventKind.PLAY, seat=1, play=bomb),
        Event(EventKind.PASS, seat=2),
        Event(EventKind.PASS, seat=3),
        Event(EventKind.PASS, seat=0),
        Event(EventKind.TRICK, seat=1, to=1),
        Event(EventKind.PLAY, seat=1, play=single),
    ]
    assert PASS.is_pass
    assert play_counts(events) == ((1, 2, 0, 0), (0, 1, 0, 0))
