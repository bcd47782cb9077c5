"""The ladder's benchmark in the card room (``bench.ladder_room``) runs end to end: a real server, four
bot accounts ready on its ladder with the house bots, seated and playing for a moment. It asserts no
speed."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

import pytest

from bench.ladder_room import main

pytestmark = pytest.mark.server_process
"""It starts `cardroom serve` (the benchmark's own server)."""


def test_four_bots_are_seated_by_the_ladder_and_every_figure_is_measured() -> None:
    argv = ["--matches", "1", "--seconds", "3", "--warmup", "1"]
    with ThreadPoolExecutor(max_workers=1) as pool:  # its own thread: the session may run an event loop
        (figures,) = pool.submit(main, argv).result()
    assert (figures.matches, figures.bots, figures.seconds) == (1, 4, 3.0)
    assert figures.begun >= 1, "the ladder seated the bot accounts"
    assert figures.rated >= 0
    assert figures.clock_faults >= 0
    assert set(figures.errors) <= {"out_of_turn"}, figures.errors
    assert figures.server_cpu > 0
