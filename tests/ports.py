"""Ports for the servers the tests start: never a fixed one, so that pytest-xdist's workers (and other
runs on the machine) cannot meet on it.

A server in this process binds port 0 itself and reports the port it got. A server in a subprocess, or
a test that needs a port before anything listens on it, takes :func:`free_port` and, if the port was
taken in between, starts again on another (:func:`taken`; ``tests/server/serving.py`` and
``tests/server/browser.py`` do so).
"""

from __future__ import annotations

import socket

RETRIES = 3
"""How many ports a subprocess server tries before the test fails."""


def free_port() -> int:
    """A TCP port on 127.0.0.1 that nothing listens on now (the kernel's choice of an unused one)."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def taken(log: str) -> bool:
    """Whether a server's output says that its port was taken before it could bind it."""
    return "address already in use" in log.casefold()
