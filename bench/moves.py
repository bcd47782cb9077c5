"""Legal-move benchmark: card- and rank-level lead enumeration and follow enumeration on seeded random
27-card hands at level 2 holding exactly 0, 1 and 2 wild cards (♥2), the pure engine and the compiled
core side by side on the same hands. Prints a Markdown table.

Run with ``make bench`` (or ``python -m bench.moves --hands 500``).
"""

from __future__ import annotations

import argparse
import platform
import random
import statistics
import time
from collections.abc import Callable, Sequence
from contextlib import nullcontext
from functools import partial
from pathlib import Path

from bench.engines import ratio
from cardroom.cards import Card, Rank, Suit, full_deck
from cardroom.guandan import Play, legal_leads, native
from cardroom.guandan.moves import legal_play_set
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
    return len(legal_play_set(hand, previous, LEVEL, rules))


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
    compiled = native.serves(rules)
    print(
        f"machine: {cpu_model()}, Python {platform.python_version()}, {rules.name} rules, "
        f"{arguments.hands} hands per row, seed {arguments.seed}; compiled core: "
        f"{'serves these rules' if compiled else 'not used for these rules (pure only)'}\n"
    )
    print(
        "| wild cards | engine | card-level leads into a play set (ms) | as Play values (ms) "
        "| leads found | rank-level leads (ms) | rank plays | follows into a play set (ms) | follows found |"
    )
    print("|---|---|---|---|---|---|---|---|---|")
    for wilds in (0, 1, 2):
        hands = hands_with_wilds(rng, wilds, arguments.hands)
        with native.pure_engine():
            previous = [typical_previous(rng, rules) for _ in hands]
        rows = {}
        for engine in ("pure", "compiled") if compiled else ("pure",):
            with native.pure_engine() if engine == "pure" else nullcontext():
                rows[engine] = measure(hands, previous, rules)
        for engine, row in rows.items():
            sets, values, found, ranks, rank_found, follows, follows_found = row
            print(
                f"| {wilds} | {engine} | {sets:.4f} | {values:.3f} | {found:.0f} | {ranks:.4f} "
                f"| {rank_found:.0f} | {follows:.4f} | {follows_found:.0f} |"
            )
        if compiled:
            pure, fast = rows["pure"], rows["compiled"]
            print(
                f"| {wilds} | pure ÷ compiled | {ratio(pure[0], fast[0])} | {ratio(pure[1], fast[1])} | "
                f"| {ratio(pure[3], fast[3])} | | {ratio(pure[5], fast[5])} | |"
            )
    if compiled:
        lead_sets = [legal_play_set(hand, None, LEVEL, rules) for hand in hands_with_wilds(rng, 2, 300)]
        sizes = sorted(int(getattr(plays, "nbytes", 0)) for plays in lead_sets)
        compact = sum(bool(getattr(plays, "compact", False)) for plays in lead_sets)
        over = sum(size > 64 * 1024 for size in sizes)
        print(
            f"\nPacked two-wild lead sets of 300 hands: median {sizes[len(sizes) // 2] / 1024:.1f} KiB, "
            f"largest {sizes[-1] / 1024:.1f} KiB, {over} over 64 KiB; {compact} of 300 at 8 bytes a play"
        )


def measure(
    hands: Sequence[tuple[Card, ...]], previous: Sequence[Play], rules: RuleSet
) -> tuple[float, float, float, float, float, float, float]:
    """Medians over the hands (ms and counts) for the engine now serving."""
    sets = [timed(partial(count_set, hand, rules)) for hand in hands]
    values = [timed(partial(count, legal_leads, hand, rules)) for hand in hands]
    rank = [timed(partial(count, rank_leads, hand, rules)) for hand in hands]
    follow = [
        timed(partial(count_follows, hand, play, rules)) for hand, play in zip(hands, previous, strict=True)
    ]
    return (
        median_ms([t for t, _ in sets]),
        median_ms([t for t, _ in values]),
        statistics.median(n for _, n in sets),
        median_ms([t for t, _ in rank]),
        statistics.median(n for _, n in rank),
        median_ms([t for t, _ in follow]),
        statistics.median(n for _, n in follow),
    )


def count_set(hand: tuple[Card, ...], rules: RuleSet) -> int:
    return len(legal_play_set(hand, None, LEVEL, rules))


if __name__ == "__main__":
    main()
