"""Bot decision times at the default settings: the heuristic in self-play, the search bot and the distilled
bot (seats 0 & 2) against the heuristic. Only decisions with more than one legal action are timed. Prints a
Markdown table, the pure engine and the compiled core side by side (the same seeds: the same games on
both).

Run with ``make bench`` (or ``python -m bench.bots --deals 20 --search-deals 3``).
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from contextlib import nullcontext

from cardroom.bots import make_bot
from cardroom.guandan import native
from cardroom.guandan.match import Match


def decision_times(names: tuple[str, str], deals: int, seed: int) -> dict[str, list[float]]:
    """Seconds per decision by bot name, over ``deals`` fresh deals (team A's bot at seats 0 & 2)."""
    rng = random.Random(seed)
    times: dict[str, list[float]] = {name: [] for name in names}
    for number in range(deals):
        bots = [make_bot(names[seat % 2], seed * 1000 + number * 4 + seat) for seat in range(4)]
        match = Match(max_deals=1)
        match.deal_random(rng)
        while match.current_deal is not None:
            seat = match.current_player
            assert seat is not None
            observation = match.observation(seat)
            start = time.perf_counter()
            action = bots[seat].act(observation)
            elapsed = time.perf_counter() - start
            if len(observation.legal_actions) > 1:
                times[names[seat % 2]].append(elapsed)
            match.apply(action)
    return times


def row(name: str, samples: list[float]) -> str:
    ordered = sorted(samples)
    p95 = ordered[min(len(ordered) - 1, int(0.95 * len(ordered)))]
    return (
        f"| {name} | {len(samples)} | {statistics.median(samples) * 1000:.2f} | {p95 * 1000:.2f} "
        f"| {ordered[-1] * 1000:.1f} |"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--deals", type=int, default=30, help="heuristic self-play deals")
    parser.add_argument("--search-deals", type=int, default=4, help="search vs heuristic deals")
    parser.add_argument("--distilled-deals", type=int, default=10, help="distilled vs heuristic deals")
    parser.add_argument("--seed", type=int, default=2026)
    arguments = parser.parse_args()
    engines = ["pure", "core"] if native.CORE is not None else ["pure"]
    medians: dict[tuple[str, str], float] = {}
    rows = []
    for engine in engines:
        with native.pure_engine() if engine == "pure" else nullcontext():
            heuristic = decision_times(("heuristic", "heuristic"), arguments.deals, arguments.seed)
            search = decision_times(("search", "heuristic"), arguments.search_deals, arguments.seed)
            distilled = decision_times(("distilled", "heuristic"), arguments.distilled_deals, arguments.seed)
        timed = (
            ("heuristic", heuristic["heuristic"]),
            ("search", search["search"]),
            ("distilled", distilled["distilled"]),
        )
        for name, samples in timed:
            medians[name, engine] = statistics.median(samples)
            rows.append(row(f"{name} ({engine})", samples))
    print("| bot (engine) | decisions | median ms | 95th percentile ms | max ms |")
    print("|---|---|---|---|---|")
    print("\n".join(rows))
    if "core" in engines:
        for name, _ in timed:
            ratio = medians[name, "pure"] / medians[name, "core"]
            print(f"\n{name}: the core's median decision is {ratio:.1f}× faster")


if __name__ == "__main__":
    main()
