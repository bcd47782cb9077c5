"""Hand-planner benchmark: ``Planner.plan``'s computation (its cache bypassed, so every call plans) on
seeded hands at every level, the pure planner and the compiled core's side by side on the same hands:
full 27-card hands holding exactly 0, 1 and 2 wild cards, and hands of every size from 1 to 27. Prints a
Markdown table of the time per hand.

Run with ``make bench`` (or ``python -m bench.planning --hands 500``).
"""

from __future__ import annotations

import argparse
import platform
import random
import statistics
import time
from collections.abc import Sequence
from contextlib import nullcontext

from bench.engines import ratio
from bench.moves import cpu_model
from cardroom.bots.planning import Planner
from cardroom.cards import NATURAL_RANKS, Card, Rank, Suit, full_deck
from cardroom.guandan import native

Hands = list[tuple[Rank, tuple[int, ...]]]


def seeded_hands(rng: random.Random, count: int, wilds: int | None) -> Hands:
    """``count`` hands at the levels in turn, as the planner's sorted card indices: 27 cards holding
    exactly ``wilds`` ♥ level cards, or (``None``) of the sizes 1…27 in turn, dealt at random."""
    deck = full_deck()
    hands: Hands = []
    for number in range(count):
        level = NATURAL_RANKS[number % len(NATURAL_RANKS)]
        if wilds is None:
            cards = rng.sample(deck, 1 + number % 27)
        else:
            wild = Card(level, Suit.HEARTS)
            others = [card for card in deck if card is not wild]
            cards = [wild] * wilds + rng.sample(others, 27 - wilds)
        hands.append((level, tuple(sorted(card.index for card in cards))))
    return hands


def per_hand(hands: Hands) -> list[float]:
    """Seconds per plan for the engine now serving, one fresh computation per hand."""
    planners = {level: Planner(level) for level in NATURAL_RANKS}
    samples = []
    for level, indices in hands:
        planner = planners[level]
        start = time.perf_counter()
        planner._plan(indices)
        samples.append(time.perf_counter() - start)
    return samples


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--hands", type=int, default=500, help="hands per row")
    parser.add_argument("--seed", type=int, default=2026)
    arguments = parser.parse_args()
    compiled = native.CORE is not None
    print(
        f"machine: {cpu_model()}, Python {platform.python_version()}, {arguments.hands} hands per row, "
        f"seed {arguments.seed}; compiled core: {'loaded' if compiled else 'absent (pure only)'}\n"
    )
    print("| hands | pure mean µs | pure median µs | core mean µs | core median µs | pure ÷ core (mean) |")
    print("|---|---|---|---|---|---|")
    rng = random.Random(arguments.seed)
    rows: Sequence[tuple[str, int | None]] = (
        ("27 cards, no wild card", 0),
        ("27 cards, 1 wild card", 1),
        ("27 cards, 2 wild cards", 2),
        ("1 to 27 cards", None),
    )
    for name, wilds in rows:
        hands = seeded_hands(rng, arguments.hands, wilds)
        times: dict[str, list[float]] = {}
        for engine in ("pure", "core") if compiled else ("pure",):
            with native.pure_engine() if engine == "pure" else nullcontext():
                times[engine] = per_hand(hands)
        pure = times["pure"]
        cells = f"{statistics.mean(pure) * 1e6:.0f} | {statistics.median(pure) * 1e6:.0f}"
        if compiled:
            core = times["core"]
            cells += (
                f" | {statistics.mean(core) * 1e6:.1f} | {statistics.median(core) * 1e6:.1f} "
                f"| {ratio(statistics.mean(pure), statistics.mean(core))}"
            )
        else:
            cells += " | – | – | –"
        print(f"| {name} | {cells} |")


if __name__ == "__main__":
    main()
