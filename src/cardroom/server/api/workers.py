"""``cardroom serve --workers N``: N server processes on one database behind one address.

The supervisor binds the public socket once and, for each worker, a socket of its own on 127.0.0.1
(where the other workers forward to it); each worker serves both under uvicorn, as node
``HOST:PORT/i`` (:mod:`cardroom.server.storage.leases`). The kernel spreads new connections over the workers;
a request for a table another worker owns is forwarded there. A worker that dies is started again
on the same sockets under the same name, so it takes its leases straight back.
"""

from __future__ import annotations

import logging
import multiprocessing
import signal
import socket
import time
from dataclasses import dataclass
from multiprocessing.process import BaseProcess
from pathlib import Path
from typing import Any, Final

from cardroom.server.live.bot_runner import exit_with_parent
from cardroom.server.live.settings import GC_THRESHOLDS, Settings
from cardroom.server.storage.leases import LEASE_TTL, Node
from cardroom.server.storage.store import Store
from cardroom.server.storage.store import database_url as resolve_database_url

log = logging.getLogger(__name__)

RESTART_PAUSE: Final = 1.0
"""Seconds before a worker that died is started again."""
STOP_GRACE: Final = 5
"""Seconds a stopping worker gives its connections to end before it closes them."""


@dataclass(frozen=True)
class WorkerOptions:
    """What every worker serves with (``cardroom serve``'s options)."""

    database_url: str | None
    data: Path | None
    settings: Settings
    host: str
    port: int
    lease_ttl: float = LEASE_TTL
    forwarded_allow_ips: str | None = None
    log_level: str = "info"


def bind(host: str, port: int) -> socket.socket:
    """A listening TCP socket on ``host:port`` (IPv6 when the host is an IPv6 address)."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind((host, port))
    sock.listen(2048)
    sock.set_inheritable(True)
    return sock


def serve_workers(count: int, options: WorkerOptions) -> None:
    """Run ``count`` workers until SIGINT or SIGTERM, starting again any that dies."""
    if count < 1:
        raise ValueError(f"workers: 1 or more, got {count}")
    from cardroom.server.api.app import default_data_dir

    Store(resolve_database_url(options.database_url, options.data or default_data_dir())).close()  # migrated
    context = multiprocessing.get_context("spawn")
    public = bind(options.host, options.port)
    internal = [bind("127.0.0.1", 0) for _ in range(count)]
    processes: list[BaseProcess | None] = [None] * count
    stopping = False

    def stop(_signal: int, _frame: Any) -> None:
        nonlocal stopping
        stopping = True

    signal.signal(signal.SIGINT, stop)
    signal.signal(signal.SIGTERM, stop)

    def start(index: int) -> BaseProcess:
        process = context.Process(
            target=run_worker, args=(index, public, internal[index], options), name=f"cardroom worker {index}"
        )
        process.start()
        return process

    try:
        for index in range(count):
            processes[index] = start(index)
        while not stopping:
            time.sleep(0.2)
            for index, process in enumerate(processes):
                if process is not None and not process.is_alive() and not stopping:
                    log.error("worker %d stopped (exit code %s); starting it again", index, process.exitcode)
                    time.sleep(RESTART_PAUSE)
                    processes[index] = start(index)
    finally:
        for process in processes:
            if process is not None and process.is_alive():
                process.terminate()
        for process in processes:
            if process is not None:
                process.join(30)
        for sock in (public, *internal):
            sock.close()


def run_worker(index: int, public: socket.socket, internal: socket.socket, options: WorkerOptions) -> None:
    """One worker: the card room on the public socket and its own, as node ``HOST:PORT/index``."""
    import gc

    import uvicorn

    from cardroom.server.api.access_log import log_config
    from cardroom.server.api.app import create_app

    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the supervisor stops the workers (SIGTERM)
    exit_with_parent()
    gc.set_threshold(*GC_THRESHOLDS)
    node = Node(
        f"{socket.gethostname()}:{options.port}/{index}", f"http://127.0.0.1:{internal.getsockname()[1]}"
    )
    app = create_app(
        options.database_url, options.data, settings=options.settings, node=node, lease_ttl=options.lease_ttl
    )
    config = uvicorn.Config(
        app,
        ws_max_size=options.settings.max_message * 4,
        ws_per_message_deflate=False,
        forwarded_allow_ips=options.forwarded_allow_ips,
        log_level=options.log_level,
        log_config=log_config(),
        timeout_graceful_shutdown=STOP_GRACE,
    )
    uvicorn.Server(config).run(sockets=[public, internal])


__all__ = ["WorkerOptions", "bind", "run_worker", "serve_workers"]
