"""Evaluating a policy in the duplicate arena (docs/arena.md) against the ``random`` and ``heuristic``
bots, and drawing the learning curve of a run.

Every evaluation of a run plays the same fresh deals (the arena's seed), each twice with the seats
exchanged, so the curve's points differ by the policy, not by the cards.
"""

from __future__ import annotations

import csv
import itertools
import random
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Final

from cardroom.arena.duplicate import ArenaConfig, run_arena
from cardroom.arena.summary import summarize
from cardroom.bots.base import BOTS
from cardroom.guandan.ruleset import RuleSet
from cardroom.rl.dmc.bot import DmcBot
from cardroom.rl.dmc.policy import QPolicy

OPPONENTS: Final = ("random", "heuristic")
ARENA_SEED: Final = 2026
"""The arena seed of every evaluation: the same deals at every point of every run."""

_names = itertools.count()


@dataclass(frozen=True)
class Evaluation:
    """A policy's results against one opponent over ``deals`` duplicate deal pairs: the share of deals
    its team won and the levels gained per deal, each with its 95% interval."""

    opponent: str
    deals: int
    win_rate: float
    win_low: float
    win_high: float
    level_gain: float
    gain_low: float
    gain_high: float


@contextmanager
def registered(policy: QPolicy) -> Iterator[str]:
    """A bot name that plays ``policy`` in this process, inside the block."""
    name = f"dmc-evaluated-{next(_names)}"

    def factory(rng: random.Random) -> DmcBot:
        return DmcBot(rng, policy)

    BOTS[name] = factory
    try:
        yield name
    finally:
        del BOTS[name]


def evaluate(
    policy: QPolicy, opponent: str, deals: int, rules: RuleSet, seed: int = ARENA_SEED
) -> Evaluation:
    """Play ``deals`` duplicate pairs of fresh deals against ``opponent`` here, in this process."""
    with registered(policy) as name:
        config = ArenaConfig(name, opponent, deals=deals, seed=seed, rules=rules)
        team = summarize(config, run_arena(config)).teams[0]
    wins, gains = team.deal_win_rate, team.level_gain_per_deal
    assert wins is not None
    assert gains is not None
    assert wins.estimate is not None
    assert gains.estimate is not None
    return Evaluation(
        opponent,
        deals,
        wins.estimate,
        wins.low if wins.low is not None else wins.estimate,
        wins.high if wins.high is not None else wins.estimate,
        gains.estimate,
        gains.low if gains.low is not None else gains.estimate,
        gains.high if gains.high is not None else gains.estimate,
    )


EVALUATION_COLUMNS: Final = (
    "frames",
    "seconds",
    "opponent",
    "deals",
    "win_rate",
    "win_low",
    "win_high",
    "level_gain",
    "gain_low",
    "gain_high",
)


def read_evaluations(path: Path) -> list[dict[str, str]]:
    """The rows of a run's ``evaluation.csv``."""
    with path.open(newline="", encoding="utf-8") as file:
        return list(csv.DictReader(file))


def draw_curve(rows: Sequence[dict[str, str]], path: Path, title: str) -> None:
    """The learning curve: the share of deals won against each opponent by training frames, with the
    95% intervals (matplotlib's Agg backend, a PNG)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    figure, axes = plt.subplots(figsize=(7, 4), dpi=110)
    for opponent in OPPONENTS:
        points = [row for row in rows if row["opponent"] == opponent]
        if not points:
            continue
        frames = [int(row["frames"]) / 1e6 for row in points]
        rate = [100 * float(row["win_rate"]) for row in points]
        low = [100 * float(row["win_low"]) for row in points]
        high = [100 * float(row["win_high"]) for row in points]
        axes.plot(frames, rate, marker="o", markersize=3, label=f"vs {opponent}")
        axes.fill_between(frames, low, high, alpha=0.2)
    axes.axhline(50, color="grey", linewidth=0.8, linestyle="--")
    axes.set_xlabel("training frames (millions of decisions)")
    axes.set_ylabel("deals won in the duplicate arena (%)")
    axes.set_ylim(0, 100)
    axes.set_title(title)
    axes.legend(loc="lower right")
    axes.grid(alpha=0.3)
    figure.tight_layout()
    figure.savefig(path)
    plt.close(figure)


__all__ = [
    "ARENA_SEED",
    "EVALUATION_COLUMNS",
    "OPPONENTS",
    "Evaluation",
    "draw_curve",
    "evaluate",
    "read_evaluations",
    "registered",
]
