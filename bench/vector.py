"""Throughput of the batched environment (docs/rl.md, "The batched environment"): agent steps per second
with random masked actions at batch sizes 1, 64 and 1,024, the compiled batch beside its pure reference,
the PettingZoo AEC environment and, where a checkout is given, the Python table of OpenGuanDan
(GameAI-NJUPT/OpenGuanDan, ``guandan-java/``: its Python table asking a Java engine for legal moves);
and the memory a table takes. Prints Markdown tables. One thread (the core steps its tables in turn).

Run with ``python -m bench.vector [--seconds 5] [--openguandan DIR]``; ``python -m bench.rl`` (``make
bench``, ``OPENGUANDAN=DIR`` passed on) ends with it.
"""

from __future__ import annotations

import argparse
import gc
import importlib
import random
import sys
import time
import tracemalloc
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import Any

import numpy as np

from bench.engines import ratio
from bench.rl import aec_steps
from cardroom.guandan import native
from cardroom.rl.vector import VectorEnv
from cardroom.rl.vector_reference import ReferenceVectorEnv

BATCHES = (1, 64, 1024)


def vector_rate(
    make: Callable[[int], VectorEnv | ReferenceVectorEnv], batch: int, seconds: float, seed: int
) -> tuple[int, float]:
    """(agent steps, seconds) of uniform random play for about ``seconds`` (at least one step)."""
    env = make(batch)
    env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    steps = 0
    start = time.perf_counter()
    while steps == 0 or time.perf_counter() - start < seconds:
        env.step(env.random_actions(rng))
        steps += env.num_envs
    return steps, time.perf_counter() - start


def reference_bytes_per_table(count: int = 32) -> float:
    """Python memory a table of the pure reference holds after a reset, by tracemalloc."""
    gc.collect()
    tracemalloc.start()
    before = tracemalloc.get_traced_memory()[0]
    env = ReferenceVectorEnv(count)
    env.reset(seed=1)
    used = tracemalloc.get_traced_memory()[0] - before
    tracemalloc.stop()
    del env
    return used / count


def openguandan_rate(folder: Path, seconds: float, seed: int) -> tuple[int, int, float]:
    """(actions, play actions, seconds) of OpenGuanDan's Python table played by uniform random choices
    among its legal actions for about ``seconds``, as its own smoke test drives it (a fresh table when a
    game ends)."""
    sys.path.insert(0, str(folder))
    try:
        environment = importlib.import_module("engine.environment")
    finally:
        sys.path.remove(str(folder))
    import logging

    logging.getLogger().setLevel(logging.CRITICAL)
    random.seed(seed)

    def fresh() -> Any:
        table = environment.Environment()
        for seat in range(4):
            table.add_player(f"p{seat}", seat)
        table.start()
        return table

    def pick(table: Any) -> dict[str, int]:
        legal = table.legal_moves.valid_range
        return {"actIndex": random.randrange(legal.start, legal.stop) if legal.stop > legal.start else 0}

    def drive(seconds: float) -> tuple[int, int, float]:
        actions = plays = 0
        table = fresh()
        start = time.perf_counter()
        while time.perf_counter() - start < seconds:
            loop = table.loop
            if loop == table.play:
                table.play(pick(table))
                plays += 1
                actions += 1
            elif loop in (table.tribute, table.back):
                loop(pick(table))
                actions += 1
            elif loop in (table.enter_tribute_stage, table.start_new_episode_back_2, table.start):
                loop()
            else:
                table = fresh()
            if table.results is not None:
                table = fresh()
        return actions, plays, time.perf_counter() - start

    drive(1.0)  # its Java worker starts and warms up
    return drive(seconds)


def main(argv: list[str] | None = None) -> dict[str, float]:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seconds", type=float, default=5.0, help="seconds of play a row")
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--aec-episodes", type=int, default=20, help="one-deal AEC episodes")
    parser.add_argument(
        "--batches", default=",".join(map(str, BATCHES)), help="table counts, separated by commas"
    )
    parser.add_argument(
        "--openguandan", type=Path, default=None, help="OpenGuanDan's guandan-java folder (needs a JDK)"
    )
    arguments = parser.parse_args(argv)
    seconds, seed = arguments.seconds, arguments.seed
    rates: dict[str, float] = {}
    print(f"random masked actions, about {seconds:g} s a row, seed {seed}, one thread\n")
    print("| environment | engine | tables | observations | agent steps | agent steps/s | compiled ÷ pure |")
    print("|---|---|---|---|---|---|---|")
    batches = [int(part) for part in arguments.batches.split(",")]
    widest = max(batches)
    for batch in batches:
        cells: dict[str, float] = {}
        for engine in ("pure", "compiled"):
            if engine == "compiled" and native.CORE is None:
                continue
            if engine == "pure":
                with native.pure_engine():
                    steps, took = vector_rate(ReferenceVectorEnv, batch, seconds, seed)
            else:
                steps, took = vector_rate(VectorEnv, batch, seconds, seed)
            cells[engine] = rates[f"{engine} {batch}"] = steps / took
            versus = ratio(cells[engine], cells["pure"]) if engine == "compiled" else ""
            print(f"| VectorEnv | {engine} | {batch:,} | int8 | {steps:,} | {steps / took:,.0f} | {versus} |")
    if native.CORE is not None and widest == BATCHES[-1]:
        steps, took = vector_rate(partial(VectorEnv, dtype=np.float32), 1024, seconds, seed)
        rates["compiled 1024 float32"] = steps / took
        print(f"| VectorEnv | compiled | 1,024 | float32 | {steps:,} | {steps / took:,.0f} | |")
    for engine in ("pure", "compiled"):
        if engine == "compiled" and native.CORE is None:
            continue
        if engine == "pure":
            with native.pure_engine():
                steps, _, took = aec_steps(arguments.aec_episodes, seed, max_deals=1)
        else:
            steps, _, took = aec_steps(arguments.aec_episodes, seed, max_deals=1)
        rates[f"aec {engine}"] = steps / took
        print(
            f"| PettingZoo AEC, one-deal episodes | {engine} | 1 | float32 | {steps:,} "
            f"| {steps / took:,.0f} | |"
        )
    if arguments.openguandan is not None:
        actions, plays, took = openguandan_rate(arguments.openguandan, seconds, seed)
        rates["openguandan"] = actions / took
        print(
            f"| OpenGuanDan's Python table (+ its Java move engine) | – | 1 | – "
            f"| {actions:,} ({plays:,} plays) | {actions / took:,.0f} | |"
        )
    best = rates.get(f"compiled {widest}", rates[f"pure {widest}"])
    print()
    for name in ("aec compiled", "aec pure", "openguandan"):
        if name in rates:
            print(f"VectorEnv at {widest:,} tables ÷ {name}: {best / rates[name]:,.1f}×")
    print("\n| memory per table | bytes |\n|---|---|")
    if native.CORE is not None:
        for dtype in (np.int8, np.float32):
            env = VectorEnv(1, dtype=dtype)
            print(f"| compiled, {np.dtype(dtype).name} observations | {env.bytes_per_table:,} |")
    with native.pure_engine():
        print(f"| pure reference (Python objects, tracemalloc) | {reference_bytes_per_table():,.0f} |")
    return rates


if __name__ == "__main__":
    main()
