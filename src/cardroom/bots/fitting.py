"""Fitting :data:`cardroom.bots.evaluation.WEIGHTS`: heuristic self-play positions and their real
finishing orders, and the Plackett-Luce weights that make those orders likeliest.

``python -m cardroom.bots.fitting --deals 8000 --seed 1`` plays the deals (heuristic bots at every seat,
matches of up to :data:`MAX_MATCH_DEALS` deals, with tribute), keeps every trick start, fits by gradient
ascent on the log-likelihood and prints the weights with the held-out fit against a lead-only model.
NumPy (a dependency of matplotlib) does the fitting.
"""

from __future__ import annotations

import argparse
import math
import random
from collections.abc import Iterator, Sequence
from typing import TYPE_CHECKING, NamedTuple

from cardroom.bots.evaluation import FEATURES, position_features, strength
from cardroom.bots.heuristic import HeuristicBot
from cardroom.guandan.deal import Deal, Phase
from cardroom.guandan.match import Match
from cardroom.guandan.ruleset import COMPETITION, RuleSet

if TYPE_CHECKING:
    import numpy as np

MAX_MATCH_DEALS = 12
"""Deals a self-play match runs before a fresh one starts (so levels and tribute vary)."""


class Position(NamedTuple):
    """A trick start: the features of each seat still in play, and the order in which those seats went
    out afterwards (the last seat in, whose place is forced, left off)."""

    features: dict[int, tuple[float, ...]]
    order: tuple[int, ...]


def selfplay_deals(
    deals: int, rng: random.Random, rules: RuleSet = COMPETITION
) -> Iterator[tuple[Match, Deal, list[HeuristicBot]]]:
    """``deals`` fresh deals of heuristic self-play in matches of up to :data:`MAX_MATCH_DEALS` deals:
    each deal just dealt, with its match and the four bots; the caller plays it to its end before the
    next."""
    played = 0
    while played < deals:
        match = Match(rules, max_deals=MAX_MATCH_DEALS)
        bots = [HeuristicBot(random.Random(rng.getrandbits(32))) for _ in range(4)]
        while not match.is_over and played < deals:
            yield match, match.deal_random(rng), bots
            if match.current_deal is not None:
                raise RuntimeError("a self-play deal must be played to its end before the next")
            played += 1


def selfplay_positions(deals: int, seed: int, rules: RuleSet = COMPETITION) -> list[Position]:
    """Every trick start of ``deals`` deals of heuristic self-play, seeded."""
    positions: list[Position] = []
    for match, deal, bots in selfplay_deals(deals, random.Random(seed), rules):
        starts: list[tuple[tuple[int, ...], dict[int, tuple[float, ...]]]] = []
        while (seat := match.current_player) is not None:
            if deal.phase is Phase.PLAY and deal.last_play is None:
                planner = bots[seat].planner(deal.level)
                starts.append((tuple(deal.finished), position_features(deal, planner)))
            match.apply(bots[seat].act(match.observation(seat)))
        for finished, features in starts:
            order = tuple(seat for seat in deal.finished if seat not in finished)
            positions.append(Position(features, order[: len(features) - 1]))
    return positions


def log_likelihood(positions: Sequence[Position], weights: Sequence[float]) -> float:
    """The mean log-probability the model gives the real orders."""
    if not positions:
        raise ValueError("no positions to score")
    total = 0.0
    for position in positions:
        strengths = {seat: strength(features, weights) for seat, features in position.features.items()}
        for seat in position.order:
            top = max(strengths.values())
            total += strengths[seat] - top - math.log(sum(math.exp(s - top) for s in strengths.values()))
            del strengths[seat]
    return total / len(positions)


def fit(
    positions: Sequence[Position],
    iterations: int = 400,
    rate: float = 0.5,
    only: Sequence[str] = FEATURES,
) -> tuple[float, ...]:
    """Weights that maximise the log-likelihood of the real orders (full-batch gradient ascent on
    standardised features; returned in the features' own units). Features not in ``only`` keep
    weight 0."""
    import numpy as np

    unknown = set(only) - set(FEATURES)
    if unknown:
        raise ValueError(f"unknown features {sorted(unknown)}; known: {', '.join(FEATURES)}")
    if not positions:
        raise ValueError("no positions to fit")
    free = np.array([name in only for name in FEATURES], dtype=float)

    width = len(FEATURES)
    features = np.zeros((len(positions), 4, width))
    present = np.zeros((len(positions), 4), dtype=bool)
    orders = np.full((len(positions), 3), -1)
    for row, position in enumerate(positions):
        for seat, values in position.features.items():
            features[row, seat] = values
            present[row, seat] = True
        orders[row, : len(position.order)] = position.order
    mean = features[present].mean(axis=0)
    spread = features[present].std(axis=0)
    spread[spread == 0] = 1.0
    scaled = (features - mean) / spread
    weights = np.zeros(width)
    for _ in range(iterations):
        weights += rate * free * _gradient(scaled, present, orders, weights) / len(positions)
    return tuple(float(weight) for weight in weights / spread)


def _gradient(scaled: np.ndarray, present: np.ndarray, orders: np.ndarray, weights: np.ndarray) -> np.ndarray:
    import numpy as np

    rows = np.arange(len(scaled))
    strengths = scaled @ weights
    remaining = present.copy()
    gradient = np.zeros_like(weights)
    for step in range(orders.shape[1]):
        out = orders[:, step]
        has = out >= 0
        masked = np.where(remaining, strengths, -np.inf)
        odds = np.exp(masked - masked.max(axis=1, keepdims=True))
        odds /= odds.sum(axis=1, keepdims=True)
        chosen = scaled[rows, out.clip(0)]
        expected = np.einsum("ns,nsf->nf", odds, scaled)
        gradient += ((chosen - expected) * has[:, None]).sum(axis=0)
        remaining[rows[has], out[has]] = False
    return gradient


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--deals", type=int, default=8000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--iterations", type=int, default=400)
    arguments = parser.parse_args(argv)
    positions = selfplay_positions(arguments.deals, arguments.seed)
    cut = len(positions) * 4 // 5
    train, test = positions[:cut], positions[cut:]
    weights = fit(train, arguments.iterations)
    lead_only = fit(train, arguments.iterations, only=["has the lead"])
    print(f"{len(positions)} positions from {arguments.deals} deals (seed {arguments.seed})")
    uniform = [0.0] * len(FEATURES)
    print(
        f"held-out log-likelihood: {log_likelihood(test, weights):.4f} (lead only: "
        f"{log_likelihood(test, lead_only):.4f}; uniform: {log_likelihood(test, uniform):.4f})"
    )
    print("WEIGHTS = (" + ", ".join(f"{weight:.4f}" for weight in weights) + ")")


if __name__ == "__main__":
    main()
