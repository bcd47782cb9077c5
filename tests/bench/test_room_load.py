"""The card room's load benchmark (``bench.room_load``) runs end to end: a real server, two tables of
four scripted clients for a moment, and every figure in its JSON. It asserts no speed."""

from __future__ import annotations

import json
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from bench.room_load import main

pytestmark = pytest.mark.server_process
"""It starts `cardroom serve` (the benchmark's own server)."""


def test_two_tables_play_and_every_figure_is_written(tmp_path: Path) -> None:
    out = tmp_path / "load.json"
    argv = ["--tables", "2", "--seconds", "1.5", "--warmup", "0", "--json", str(out)]
    with ThreadPoolExecutor(max_workers=1) as pool:  # its own thread: the session may run an event loop
        (figures,) = pool.submit(main, argv).result()
    assert figures.clients == 8
    assert figures.actions > 0, "the clients' actions were acknowledged"
    assert figures.errors == {}
    assert figures.stalls == 0
    assert figures.p50_ms <= figures.p99_ms <= figures.max_ms
    assert figures.server_peak_mb > 0
    written = json.loads(out.read_text())
    assert written["command"].startswith("python -m bench.room_load --tables 2")
    (run,) = written["runs"]
    for name in ("actions", "per_second", "p50_ms", "p90_ms", "p99_ms", "max_ms", "errors", "server_peak_mb"):
        assert name in run, name
