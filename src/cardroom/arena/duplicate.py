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
from dataclasses import dataclass
from pathlib import Path

from cardroom.arena.games import batches, run_games
from cardroom.arena.play import GameKind, GameOutcome, GameSpec
from cardroom.arena.ray_backend import run_on_ray
from cardroom.games import DEFAULT_GAME, game
from cardroom.guandan.ruleset import RuleSet
from cardroom.shengji.ruleset import ShengjiRules


@dataclass(frozen=True)
class ArenaConfig:
    """What decides an arena run's numbers: the game, the bots, how many deal and match pairs, the seed
    and the rule set (the number of workers does not). ``game`` is a game's name in
    :data:`cardroom.games.GAMES` (``"shengji"`` plays Shengji with its bots); ``rules`` not given is the
    game's default preset (:attr:`rule_set`): ``competition`` for Guandan, ``shengji`` for Shengji."""

    bot_a: str
    bot_b: str
    deals: int = 100
    matches: int = 0
    seed: int = 1
    rules: RuleSet | ShengjiRules | None = None
    game: str = DEFAULT_GAME

    def __post_init__(self) -> None:
        played = game(self.game)
        if self.rules is None:
            object.__setattr__(self, "rules", played.rules(played.default_preset))
        if not isinstance(self.rules, played.rules_type):
            raise ValueError(f"the rule set {self.rule_set.name!r} is not a {self.game} rule set")
        for name in (self.bot_a, self.bot_b):
            played.bot(name)
        if self.deals < 0 or self.matches < 0:
            raise ValueError("the numbers of deals and matches cannot be negative")
        if self.deals == 0 and self.matches == 0:
            raise ValueError("nothing to play: ask for at least one deal or one match")

    @property
    def rule_set(self) -> RuleSet | ShengjiRules:
        """The rule set played: ``rules``, or the game's default when it was not given."""
        assert self.rules is not None, "set in __post_init__"
        return self.rules

    @property
    def games(self) -> int:
        """Games in all: two per deal and two per match."""
        return 2 * (self.deals + self.matches)


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
