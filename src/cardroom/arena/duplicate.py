"""Duplicate scheduling: every deal (and every match) is played twice with the same cards, the teams
exchanging seats the second time, over a pool of worker processes (or Ray tasks, on request).

The games are independent of each other and of the order they run in (each one's chance comes from
its own seeds, :mod:`cardroom.arena.play`), and their outcomes are sorted back into schedule order, so
the same seed gives the same numbers whatever the number of workers.
"""

from __future__ import annotations

import multiprocessing
from collections.abc import Callable
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from pathlib import Path

from cardroom.arena.config import ArenaConfig
from cardroom.arena.games import batches, run_games
from cardroom.arena.play import GameKind, GameOutcome, GameSpec
from cardroom.arena.ray_backend import run_on_ray


def schedule(config: ArenaConfig) -> list[GameSpec]:
    """Every game of the run, in order: deal 0 direct, deal 0 swapped, deal 1 …, then the matches."""
    specs = []
    for kind, count in ((GameKind.DEAL, config.deals), (GameKind.MATCH, config.matches)):
        for index in range(count):
            for swapped in (False, True):
                specs.append(
                    GameSpec(kind, index, swapped, config.seed, config.bot_a, config.bot_b, config.rule_set)
                )
    return specs


def run_arena(
    config: ArenaConfig,
    *,
    workers: int = 1,
    records: Path | None = None,
    progress: Callable[[int], None] | None = None,
    ray_address: str | None = None,
) -> list[GameOutcome]:
    """Play every game of the run and return their outcomes in schedule order.

    ``workers`` > 1 plays them in a process pool (started with ``spawn``, so bots must be registered by
    importing :mod:`cardroom.bots`); 1 plays them here, in this process. ``ray_address`` (``"local"``, or
    a cluster's address) plays them as Ray tasks instead, whatever ``workers`` says
    (:mod:`cardroom.arena.ray_backend`). ``records`` is a folder each game's record is written into;
    ``progress`` is called with the number of games just finished.
    """
    if workers < 1:
        raise ValueError(f"at least one worker, got {workers}")
    specs = schedule(config)
    outcomes: list[GameOutcome] = []
    if ray_address is not None:
        outcomes = run_on_ray(specs, ray_address, records=records, progress=progress)
    elif workers == 1:
        for task in batches(specs, 1):
            outcomes += run_games(task, records)
            if progress is not None:
                progress(len(task))
    else:
        tasks = batches(specs, workers)
        context = multiprocessing.get_context("spawn")
        with ProcessPoolExecutor(max_workers=min(workers, len(tasks)), mp_context=context) as pool:
            pending: set[Future[list[GameOutcome]]] = {
                pool.submit(run_games, task, records) for task in tasks
            }
            try:
                while pending:
                    done, pending = wait(pending, return_when=FIRST_COMPLETED)
                    for future in done:
                        finished = future.result()
                        outcomes += finished
                        if progress is not None:
                            progress(len(finished))
            except BaseException:
                for future in pending:
                    future.cancel()
                raise
    outcomes.sort(key=lambda outcome: outcome.order)
    return outcomes


__all__ = ["ArenaConfig", "batches", "run_arena", "schedule"]
