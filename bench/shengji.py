"""Shengji throughput and bot decision times. Prints Markdown tables.

- **random deals/s**: whole fresh deals (declaring, burying, 25 cards each in tricks) played by four
  random bots through ``Match.apply`` (every action checked by the validator), the observation built
  for every decision;
- **heuristic decision times**: four heuristic bots, every decision timed (declare or pass, bury, lead,
  follow), and the heuristic against random deals per second.

Run with ``python -m bench.shengji`` (``--deals 200 --heuristic-deals 50``).
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections import defaultdict

from cardroom.bots.shengji import make_shengji_bot
from cardroom.shengji import Match, Phase


def play(names: tuple[str, str], deals: int, seed: int) -> tuple[float, dict[str, list[float]]]:
    """Seconds for ``deals`` fresh deals with ``names[seat % 2]`` at each seat, and the decision times
    of team A's bot by phase (``lead`` and ``follow`` for the tricks)."""
    rng = random.Random(seed)
    times: dict[str, list[float]] = defaultdict(list)
    start = time.perf_counter()
    for number in range(deals):
        bots = [make_shengji_bot(names[seat % 2], seed * 1000 + number * 4 + seat) for seat in range(4)]
        match = Match()
        deal = match.deal_random(rng)
        while deal.phase is not Phase.OVER:
            seat = deal.current_player
            assert seat is not None
            observation = match.observation(seat)
            began = time.perf_counter()
            action = bots[seat].act(observation)
            elapsed = time.perf_counter() - began
            if seat % 2 == 0:
                phase = observation.phase.value
                if observation.phase is Phase.TRICKS:
                    phase = "lead" if observation.lead is None else "follow"
                times[phase].append(elapsed)
            match.apply(action)
    return time.perf_counter() - start, times


def row(name: str, samples: list[float]) -> str:
    ordered = sorted(samples)
    p95 = ordered[min(len(ordered) - 1, int(0.95 * len(ordered)))]
    return (
        f"| {name} | {len(samples)} | {statistics.median(samples) * 1000:.3f} | {p95 * 1000:.2f} "
        f"| {ordered[-1] * 1000:.1f} |"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--deals", type=int, default=200, help="random-bot deals")
    parser.add_argument("--heuristic-deals", type=int, default=50, help="heuristic self-play deals")
    parser.add_argument("--seed", type=int, default=2026)
    arguments = parser.parse_args()
    seconds, _ = play(("random", "random"), arguments.deals, arguments.seed)
    mixed, _ = play(("heuristic", "random"), arguments.heuristic_deals, arguments.seed)
    own, times = play(("heuristic", "heuristic"), arguments.heuristic_deals, arguments.seed)
    print("| players | deals | deals/s | ms per deal |")
    print("|---|---|---|---|")
    for name, count, spent in (
        ("4 random bots", arguments.deals, seconds),
        ("heuristic vs random", arguments.heuristic_deals, mixed),
        ("4 heuristic bots", arguments.heuristic_deals, own),
    ):
        print(f"| {name} | {count} | {count / spent:.1f} | {1000 * spent / count:.1f} |")
    print()
    print("| heuristic decision | decisions | median ms | 95th percentile ms | max ms |")
    print("|---|---|---|---|---|")
    for phase in ("declare", "kitty", "lead", "follow"):
        if times.get(phase):
            print(row(phase, times[phase]))
    print(row("all", [sample for samples in times.values() for sample in samples]))


if __name__ == "__main__":
    main()
