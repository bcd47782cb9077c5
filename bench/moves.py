"""Legal-move benchmark: card- and rank-level lead enumeration and follow enumeration on seeded random
27-card hands at level 2 holding exactly 0, 1 and 2 wild cards (♥2). Prints a Markdown table.

Run with ``make bench`` (or ``python -m bench.moves --hands 500``).
"""

from __future__ import annotations

import argparse
import platform
import random
import statistics
import time
from collections.abc import Callable, Sequence
from functools import partial
from pathlib import Path

from cardroom.cards import Card, Rank, Suit, full_deck
from cardroom.guandan import Play, legal_follows, legal_leads
from cardroom.guandan.rankplays import rank_leads
from cardroom.guandan.ruleset import RuleSet, preset

LEVEL = Rank.TWO
WILD = Card(LEVEL, Suit.HEARTS)


def hands_with_wilds(rng: random.Random, wilds: int, count: int) -> list[tuple[Card, ...]]:
    """Seeded random 27-card hands holding exactly ``wilds`` ♥2 cards."""
    deck = full_deck()
    hands: list[tuple[Card, ...]] = []
    while len(hands) < count:
        hand = tuple(rng.sample(deck, 27))
        if hand.count(WILD) == wilds:
            hands.append(hand)
    return hands


def typical_previous(rng: random.Random, rules: RuleSet) -> Play:
    """A previous play as met in a game: a uniformly chosen non-bomb kind, then a uniform play of that
    kind, from another random hand."""
    hand = rng.sample(full_deck(), 27)
    leads = [play for play in legal_leads(hand, LEVEL, rules) if not play.kind.is_bomb]
    kind = rng.choice(sorted({play.kind for play in leads}))
    return rng.choice([play for play in leads if play.kind is kind])


def median_ms(samples: Sequence[float]) -> float:
    return statistics.median(samples) * 1000


def timed(function: Callable[[], int]) -> tuple[float, int]:
    start = time.perf_counter()
    found = function()
    return time.perf_counter() - start, found


def count(
    generate: Callable[[tuple[Card, ...], Rank, RuleSet], Sequence[object]],
    hand: tuple[Card, ...],
    rules: RuleSet,
) -> int:
    return len(generate(hand, LEVEL, rules))


def count_follows(hand: tuple[Card, ...], previous: Play, rules: RuleSet) -> int:
    return len(legal_follows(hand, previous, LEVEL, rules))


def cpu_model() -> str:
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--hands", type=int, default=300, help="hands per wild-card count")
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--rules", default="competition", help="rule-set preset")
    arguments = parser.parse_args()
    rules = preset(arguments.rules)
    rng = random.Random(arguments.seed)
    print(
        f"machine: {cpu_model()}, Python {platform.python_version()}, {rules.name} rules, "
        f"{arguments.hands} hands per row, seed {arguments.seed}\n"
    )
    print(
        "| wild cards | card-level leads (median ms) | leads found (median) "
        "| rank-level leads (median ms) | rank plays (median) "
        "| follows (median ms) | follows found (median) |"
    )
    print("|---|---|---|---|---|---|---|")
    for wilds in (0, 1, 2):
        hands = hands_with_wilds(rng, wilds, arguments.hands)
        previous = [typical_previous(rng, rules) for _ in hands]
        card = [timed(partial(count, legal_leads, hand, rules)) for hand in hands]
        rank = [timed(partial(count, rank_leads, hand, rules)) for hand in hands]
        follow = [
            timed(partial(count_follows, hand, play, rules))
            for hand, play in zip(hands, previous, strict=True)
        ]
        print(
            f"| {wilds} | {median_ms([t for t, _ in card]):.3f} "
            f"| {statistics.median(n for _, n in card):.0f} "
            f"| {median_ms([t for t, _ in rank]):.3f} "
            f"| {statistics.median(n for _, n in rank):.0f} "
            f"| {median_ms([t for t, _ in follow]):.3f} "
            f"| {statistics.median(n for _, n in follow):.0f} |"
        )


if __name__ == "__main__":
    main()
