"""docs/examples/ladder_bot.py, the ladder's example bot, run as docs/ladder.md says against a real
``cardroom serve`` with the house bots: it says it is ready, plays the seats it is told, and stops once
its match is rated."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.server.clients import call
from tests.server.serving import Server
from tests.server.test_ladder_play import make_bot

pytestmark = pytest.mark.server_process
"""Every test here starts `cardroom serve` (tests/server/serving.py)."""

EXAMPLE = Path(__file__).parents[2] / "docs" / "examples" / "ladder_bot.py"


@pytest.fixture
def server(tmp_path: Path) -> Iterator[Server]:
    running = Server(
        tmp_path,
        "--ladder-house",
        "random,heuristic,search",
        "--ladder-deal-pairs",
        "1",
        "--ladder-interval",
        "0.2",
    )
    try:
        yield running
    finally:
        running.stop()


def test_the_example_bot_plays_its_matches_and_leaves_no_match_behind(server: Server) -> None:
    key, token, _ = make_bot(server, "Ann", "Example Bot")
    env = {**os.environ, "ROOM": server.url, "CARDROOM_BOT_TOKEN": token, "MATCHES": "2"}
    done = subprocess.run(
        [sys.executable, str(EXAMPLE)], capture_output=True, text=True, env=env, timeout=240, check=False
    )
    output = done.stdout + done.stderr
    assert done.returncode == 0, output
    assert f"ready as {key}#1 (Example Bot)" in output
    assert output.count("the deal is over after") == 4, "two matches of one deal pair: four seats played"
    assert len(re.findall(r"match \w+: (won by \d+ levels|lost by \d+ levels|a draw)", output)) == 2, output
    assert f"{key}#1: rating" in output
    assert token not in output
    matches = call(server, "GET", f"/api/ladder/{key}").body["matches"]
    assert [match["status"] for match in matches] == ["rated", "rated"], "no match seated after the last"
    assert all(match["faults"].get(f"{key}#1", 0) == 0 for match in matches), "no decision lost"
