"""Fitting the evaluation's weights: self-play positions, the likelihood, and recovery of known weights."""

from __future__ import annotations

import math
import random

import pytest

from cardroom.bots.evaluation import FEATURES, strength
from cardroom.bots.fitting import (
    MAX_MATCH_DEALS,
    Position,
    fit,
    log_likelihood,
    main,
    selfplay_deals,
    selfplay_positions,
)
from cardroom.guandan.match import Match


def test_selfplay_positions_are_trick_starts_with_the_real_order_and_deterministic() -> None:
    positions = selfplay_positions(3, seed=5)
    assert positions == selfplay_positions(3, seed=5)
    assert len(positions) >= 3 * 5
    for position in positions:
        assert 2 <= len(position.features) <= 4
        assert len(position.order) == len(set(position.order)) <= len(position.features) - 1
        assert set(position.order) <= set(position.features)
        lead = FEATURES.index("has the lead")
        assert [values[lead] for values in position.features.values()].count(1.0) == 1
        assert position.order, "every deal ends with seats going out"


def test_selfplay_deals_run_in_matches_of_up_to_max_match_deals_and_must_each_be_played_out() -> None:
    sizes: list[int] = []
    last: Match | None = None
    for match, deal, bots in selfplay_deals(MAX_MATCH_DEALS + 3, random.Random(1)):
        assert match.current_deal is deal
        assert len(bots) == 4
        if match is not last:
            sizes.append(0)
            last = match
        sizes[-1] += 1
        while (seat := match.current_player) is not None:
            match.apply(bots[seat].act(match.observation(seat)))
    assert sum(sizes) == MAX_MATCH_DEALS + 3
    assert len(sizes) >= 2
    assert max(sizes) <= MAX_MATCH_DEALS
    unplayed = selfplay_deals(2, random.Random(1))
    next(unplayed)
    with pytest.raises(RuntimeError, match="played to its end before the next"):
        next(unplayed)


def test_with_no_weights_every_order_is_equally_likely() -> None:
    features = {seat: (float(seat),) * len(FEATURES) for seat in range(4)}
    position = Position(features, (2, 0, 1))
    expected = math.log(1 / 4) + math.log(1 / 3) + math.log(1 / 2)
    assert log_likelihood([position], [0.0] * len(FEATURES)) == pytest.approx(expected)


def synthetic_positions(weights: list[float], count: int, seed: int) -> list[Position]:
    """Positions with random features whose orders are drawn from the Plackett-Luce model."""
    rng = random.Random(seed)
    positions = []
    for _ in range(count):
        seats = rng.sample(range(4), rng.choice((2, 3, 4, 4)))
        features = {seat: tuple(rng.gauss(0, 1) for _ in FEATURES) for seat in seats}
        left = {seat: strength(values, weights) for seat, values in features.items()}
        order = []
        while len(left) > 1:
            seat = rng.choices(list(left), weights=[math.exp(value) for value in left.values()])[0]
            order.append(seat)
            del left[seat]
        positions.append(Position(features, tuple(order)))
    return positions


def test_fit_recovers_the_weights_that_drew_the_orders() -> None:
    rng = random.Random(3)
    truth = [round(rng.uniform(-1, 1), 2) for _ in FEATURES]
    positions = synthetic_positions(truth, 4000, seed=4)
    fitted = fit(positions, iterations=300)
    for name, expected, found in zip(FEATURES, truth, fitted, strict=True):
        assert found == pytest.approx(expected, abs=0.15), name
    assert log_likelihood(positions, fitted) > log_likelihood(positions, [0.0] * len(FEATURES))


def test_fit_holds_features_left_out_at_zero_and_refuses_unknown_ones() -> None:
    positions = synthetic_positions([1.0] * len(FEATURES), 200, seed=1)
    fitted = fit(positions, iterations=50, only=["cards"])
    assert [name for name, weight in zip(FEATURES, fitted, strict=True) if weight] == ["cards"]
    with pytest.raises(ValueError, match="unknown features"):
        fit(positions, only=["luck"])
    with pytest.raises(ValueError, match="no positions"):
        fit([])
    with pytest.raises(ValueError, match="no positions"):
        log_likelihood([], [0.0] * len(FEATURES))


def test_the_command_prints_weights_for_every_feature(capsys: pytest.CaptureFixture[str]) -> None:
    main(["--deals", "2", "--seed", "3", "--iterations", "5"])
    printed = capsys.readouterr().out
    assert "held-out log-likelihood" in printed
    line = next(line for line in printed.splitlines() if line.startswith("WEIGHTS = ("))
    assert len(line.removeprefix("WEIGHTS = (").removesuffix(")").split(", ")) == len(FEATURES)
