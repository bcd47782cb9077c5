"""The bots' processes (cardroom.server.live.bot_runner): they think as a thread would, and none
outlives the server that started it."""

from __future__ import annotations

import multiprocessing
import os
import random
import time
from multiprocessing.connection import Connection
from pathlib import Path
from typing import Any

import pytest

from cardroom.guandan.match import Match
from cardroom.server.live.bot_runner import BotRunner, exit_with_parent
from tests.server.conftest import run_coroutine

SPAWN = multiprocessing.get_context("spawn")


def late_child(pipe: Connection) -> None:
    """A bot process slow to start: its parent is gone before it sets its watch."""
    pipe.send(os.getpid())
    time.sleep(1.0)
    exit_with_parent(interval=0.1)
    time.sleep(30)


def short_lived_parent(pipe: Connection) -> None:
    """A server that starts a bot process and dies at once (as under ``kill -9``: nothing cleans up)."""
    SPAWN.Process(target=late_child, args=(pipe,)).start()
    os._exit(0)


def alive(pid: int) -> bool:
    """Whether ``pid`` runs (a zombie, exited but not yet reaped by its new parent, does not)."""
    try:
        status = Path(f"/proc/{pid}/status").read_text()
    except FileNotFoundError:
        return False
    return "\nState:\tZ" not in status


@pytest.mark.skipif(not Path("/proc/self/status").exists(), reason="reads the process from /proc (Linux)")
def test_a_bot_process_whose_parent_died_while_it_started_exits_too() -> None:
    """A server killed while its bot pool was starting left the pool's process behind for good: the
    process took the orphaned state's parent (init) for its own and watched that."""
    receiving, sending = SPAWN.Pipe(duplex=False)
    parent = SPAWN.Process(target=short_lived_parent, args=(sending,))
    parent.start()
    parent.join(30)
    assert receiving.poll(30), "the bot process did not start"
    child = receiving.recv()
    deadline = time.monotonic() + 10
    while alive(child) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not alive(child), f"the bot process {child} outlived its parent"


def test_the_pool_decides_and_advises_as_a_thread_does() -> None:
    """An observation crosses to a bot process and the answer comes back (both pickled) unchanged: the
    pool's action and hints are those of the same bot thinking in a thread (``workers=0``, as the
    in-process tests' rooms think)."""
    match = Match()
    match.deal_random(random.Random(3))
    seat = match.current_player
    assert seat is not None
    view = match.observation(seat)

    async def think(runner: BotRunner) -> tuple[Any, list[Any]]:
        try:
            action = await runner.decide("guandan", "heuristic", 7, view)
            return action, await runner.advise("guandan", "heuristic", 7, view)
        finally:
            runner.close()

    pooled = run_coroutine(think(BotRunner(workers=1)))
    assert pooled == run_coroutine(think(BotRunner(workers=0)))
    assert match.can(pooled[0])
