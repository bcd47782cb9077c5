"""Where the card room's bots think: a pool of processes sized to the cores, so that a bot that thinks
long (a search bot at many tables) never holds the event loop, or people's tables, up.

A decision is a pure call, ``game``'s bot ``name`` seeded with ``seed`` answering ``observation``: bots
keep nothing between decisions here (the seed comes from the table, the seat and the log's number, so
a table replays the same). ``workers=0`` thinks in threads of the server's own process instead.

A pool whose worker died (killed by the OS for memory, say) is broken for good: every decision sent to
it fails at once. The runner then starts a new pool, logs it once, and asks the new pool again.
"""

from __future__ import annotations

import asyncio
import logging
import multiprocessing
import os
import threading
import time
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any

from cardroom.games import GAMES

log = logging.getLogger(__name__)


def exit_with_parent(interval: float = 1.0) -> None:
    """In a child process: exit as soon as the parent that started it is gone (killed with ``kill -9``,
    say), instead of living on as an orphan; also when the parent was gone before the child got here
    (it died while the child was still importing)."""
    started_by = multiprocessing.parent_process()
    parent = started_by.pid if started_by is not None and started_by.pid is not None else os.getppid()

    def watch() -> None:
        while True:
            time.sleep(interval)
            if os.getppid() != parent:
                os._exit(0)

    threading.Thread(target=watch, name="parent watch", daemon=True).start()


def decide(game: str, name: str, seed: int, observation: Any) -> Any:
    """The action of ``game``'s bot ``name`` (seeded with ``seed``) for ``observation``."""
    return GAMES[game].make_bot(name, seed).act(observation)


def advise(game: str, name: str, seed: int, observation: Any) -> list[Any]:
    """The actions a hint offers, best first: the bot's several choices when it ranks some (a
    ``choices`` method, as the Shengji heuristic's), else its one action."""
    bot = GAMES[game].make_bot(name, seed)
    choices = getattr(bot, "choices", None)
    if callable(choices):
        return list(choices(observation))
    return [bot.act(observation)]


class BotRunner:
    """Runs bots' decisions in ``workers`` processes (default: one per core; 0: in threads)."""

    def __init__(self, workers: int | None = None) -> None:
        self.workers = (os.cpu_count() or 1) if workers is None else workers
        self._pool: ProcessPoolExecutor | None = None
        self.restarts = 0
        """New pools started because the one before broke."""

    def _current(self) -> ProcessPoolExecutor:
        if self._pool is None:
            # spawn: the server's process has threads (the store writer), which fork must not copy
            context = multiprocessing.get_context("spawn")
            self._pool = ProcessPoolExecutor(
                max_workers=self.workers, mp_context=context, initializer=exit_with_parent
            )
        return self._pool

    async def decide(self, game: str, name: str, seed: int, observation: Any) -> Any:
        """The bot's action, thought elsewhere than on the event loop; asked again of a new pool
        when the pool broke (once: a pool that breaks again raises ``BrokenProcessPool``)."""
        return await self._think(decide, game, name, seed, observation)

    async def advise(self, game: str, name: str, seed: int, observation: Any) -> list[Any]:
        """The hint's choices (:func:`advise`), thought as :meth:`decide` thinks."""
        choices: list[Any] = await self._think(advise, game, name, seed, observation)
        return choices

    async def _think(self, call: Callable[[str, str, int, Any], Any], *args: Any) -> Any:
        if self.workers == 0:
            return await asyncio.to_thread(call, *args)
        loop = asyncio.get_running_loop()
        pool = self._current()
        try:
            return await loop.run_in_executor(pool, call, *args)
        except BrokenProcessPool:
            self._replace(pool)
        return await loop.run_in_executor(self._current(), call, *args)

    def _replace(self, broken: ProcessPoolExecutor) -> None:
        """Drop ``broken`` for a new pool, unless another decision already did (logged once a pool)."""
        if self._pool is not broken:
            return
        self._pool = None
        broken.shutdown(wait=False, cancel_futures=True)
        self.restarts += 1
        log.error("the bots' process pool broke (a worker process died); started a new one")

    def close(self) -> None:
        """Stop the processes (decisions in flight are dropped)."""
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
            self._pool = None


__all__ = ["BotRunner", "advise", "decide", "exit_with_parent"]
