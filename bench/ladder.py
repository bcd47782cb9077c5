"""Ladder matches of the house bots per minute in one process: each match scheduled
(:class:`cardroom.ladder.Scheduler`), played in duplicate (:class:`cardroom.ladder.InProcessRunner`,
the default format: two deal pairs, four games) and rated (:class:`cardroom.ladder.LadderPool`), one after
another. Two ladders: the four house bots (random, heuristic, search, distilled: every match seats all
four), and the fast house bots (random and heuristic, each with a second generation entered, so four
entrants). Prints a Markdown table, the pure engine and the compiled core side by side (the same seeds:
the same matches on both); ``--matches 0`` leaves a ladder out.

Run with ``make bench`` (or ``python -m bench.ladder --matches 4 --fast-matches 40``). Results are in
docs/performance.md and docs/ladder-core.md.
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Sequence
from contextlib import nullcontext
from datetime import date

from cardroom.guandan import native
from cardroom.ladder import (
    HOUSE_BOTS,
    InProcessRunner,
    LadderPool,
    Limits,
    Played,
    Roster,
    Scheduler,
    house_entrants,
    house_makers,
)

TODAY = date(2026, 12, 6)


def ladder_rate(names: Sequence[str], generations: int, matches: int, seed: int) -> tuple[float, float]:
    """Ladder matches per minute and the seconds of the whole run, for ``matches`` matches among the house
    bots ``names`` (each entered in ``generations`` generations)."""
    entrants = [
        entrant if generation == 1 else entrant.next_generation()
        for entrant in house_entrants(names)
        for generation in range(1, generations + 1)
    ]
    roster = Roster.of(entrants)
    makers = house_makers(house_entrants(names))
    bots = {entrant.key: makers[f"{entrant.id}#1"] for entrant in entrants}
    pool = LadderPool(roster)
    scheduler = Scheduler(Limits(per_day=matches * 4 + 4))
    runner = InProcessRunner(bots, keep_records=True)
    rng = random.Random(seed)
    history: list[Played] = []
    start = time.perf_counter()
    for _ in range(matches):
        match = scheduler.next_match(pool, list(roster.entrants), history=history, today=TODAY, rng=rng)
        result = runner.play(match)
        pool = pool.rate(match.team_a, match.team_b, result.winner)
        history.append(Played(match, TODAY))
    elapsed = time.perf_counter() - start
    return 60 * matches / elapsed, elapsed


def main(argv: Sequence[str] | None = None) -> dict[tuple[str, str], float]:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--matches", type=int, default=4, help="matches of the four house bots")
    parser.add_argument("--fast-matches", type=int, default=40, help="matches of random and heuristic")
    parser.add_argument("--seed", type=int, default=2026)
    arguments = parser.parse_args(argv)
    engines = ["pure", "core"] if native.CORE is not None else ["pure"]
    ladders = (
        (f"the four house bots ({', '.join(HOUSE_BOTS)})", tuple(HOUSE_BOTS), 1, arguments.matches),
        ("random and heuristic, two generations each", ("random", "heuristic"), 2, arguments.fast_matches),
    )
    rates: dict[tuple[str, str], float] = {}
    print("| ladder (engine) | matches | seconds | matches per minute |")
    print("|---|---|---|---|")
    for label, names, generations, matches in ladders:
        if matches < 1:
            continue
        for engine in engines:
            with native.pure_engine() if engine == "pure" else nullcontext():
                rate, elapsed = ladder_rate(names, generations, matches, arguments.seed)
            rates[label, engine] = rate
            print(f"| {label} ({engine}) | {matches} | {elapsed:.1f} | {rate:.1f} |")
    if "core" in engines:
        for label, *_ in ladders:
            if (label, "core") not in rates:
                continue
            print(f"\n{label}: the core plays {rates[label, 'core'] / rates[label, 'pure']:.1f}× the matches")
    return rates


if __name__ == "__main__":
    main()
