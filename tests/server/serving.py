"""``cardroom serve`` in a subprocess on a free port, for the tests that kill a real server."""

from __future__ import annotations

import contextlib
import json
import os
import signal
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any, Final

from websockets.sync.client import ClientConnection, connect

from tests.ports import RETRIES, free_port, taken

REPO = Path(__file__).resolve().parents[2]
FAST_OPTIONS = ("--bot-delay", "0", "--deal-pause", "0", "--deal-pace", "0", "--bot-workers", "1")
"""Bots act at once and deals follow each other at once. The bots think in a pool of one process, not
one per core: the pool is the same code whatever its size, and each process of it imports the bots
afresh (about 0.3 s of a core, for each of the 70-odd servers ``make test`` starts)."""
MARKS: Final = ("server_process", "browser")
"""The marks of a test that may start a server: ``make test-fast`` leaves such tests to ``make test``."""
marked = True
"""Whether the test running now carries one of :data:`MARKS` (set before each test by tests/conftest.py)."""


class Server:
    """``cardroom serve`` in a subprocess on a free port (another one if the port was taken before the
    server bound it): SQLite in ``data`` unless ``options`` name a database; ``{port}`` in an option
    stands for the port; its output in ``data/server-PORT.log``."""

    def __init__(self, data: Path, *options: str) -> None:
        assert marked, (
            "this test starts `cardroom serve`: mark it `server_process` (make test-fast leaves it out)"
        )
        for _ in range(RETRIES):
            self.port = free_port()
            self.url = f"http://127.0.0.1:{self.port}"
            self.log = data / f"server-{self.port}.log"
            if self._start(data, tuple(option.replace("{port}", str(self.port)) for option in options)):
                return
        raise AssertionError(f"{RETRIES} ports taken before the server bound one:\n{self.log.read_text()}")

    def _start(self, data: Path, options: tuple[str, ...]) -> bool:
        """Start the process and wait for its answer; False if its port was taken (it exited)."""
        env = {**os.environ, "PYTHONUNBUFFERED": "1"}
        env.pop("DATABASE_URL", None)
        command = [sys.executable, "-m", "cardroom", "serve", "--port", str(self.port), "--data", str(data)]
        with self.log.open("w") as out:
            self.process = subprocess.Popen(
                [*command, *FAST_OPTIONS, "--log-level", "warning", *options],
                stdout=out,
                stderr=subprocess.STDOUT,
                env=env,
                cwd=REPO,
            )
        deadline = time.monotonic() + 30
        while True:
            if self.process.poll() is not None:
                output = self.log.read_text()
                if taken(output):
                    return False
                raise AssertionError(f"the server exited with {self.process.returncode}:\n{output}")
            try:
                self.api("GET", "/api/presets")
                return True
            except (urllib.error.URLError, OSError):
                assert time.monotonic() < deadline, f"the server did not answer:\n{self.log.read_text()}"
                time.sleep(0.1)

    def api(self, method: str, path: str, body: dict[str, Any] | None = None) -> Any:
        data = json.dumps(body).encode() if body is not None else None
        request = urllib.request.Request(f"{self.url}{path}", data=data, method=method)
        request.add_header("Content-Type", "application/json")
        with urllib.request.urlopen(request, timeout=10) as response:
            return json.loads(response.read())

    @contextlib.contextmanager
    def socket(self, table_id: str) -> Iterator[ClientConnection]:
        with connect(f"ws://127.0.0.1:{self.port}/ws/tables/{table_id}", open_timeout=10) as ws:
            yield ws

    def kill(self) -> None:
        """Kill -9: no shutdown, no chance to save anything more."""
        self.process.send_signal(signal.SIGKILL)
        self.process.wait(timeout=10)

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
