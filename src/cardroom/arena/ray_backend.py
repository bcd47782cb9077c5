"""The arena on Ray: the same batches of games as the process pool, run as Ray tasks on a local Ray
instance (``"local"``) or on a cluster by address, with the same outcomes and records (``docs/arena.md``).

Ray is an optional extra (``cardroom[ray]``) and is imported only here, only when asked for. Each task
returns its games' outcomes and record files (as bytes), and this process writes the records, so the
nodes of a cluster need no shared disk. :func:`ray_map` is the generic part, also used by self-play.
"""

from __future__ import annotations

import tempfile
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from functools import partial
from pathlib import Path
from types import ModuleType
from typing import Any, Final, TypeVar

from cardroom.arena.games import batches, run_game
from cardroom.arena.play import GameOutcome, GameSpec

LOCAL: Final = "local"
"""The address that starts a new local Ray instance for the run (``--ray``)."""
EXTRA: Final = "cardroom[ray]"

T = TypeVar("T")
R = TypeVar("R")


class RayUnavailableError(RuntimeError):
    """Ray was asked for but cannot be imported."""


def import_ray() -> ModuleType:
    """The ``ray`` module, or :class:`RayUnavailableError` naming the extra to install."""
    try:
        import ray
    except ImportError as error:
        raise RayUnavailableError(
            f"Ray is not installed: running on Ray needs the optional extra {EXTRA} (pip install '{EXTRA}')"
        ) from error
    return ray


@contextmanager
def ray_session(address: str = LOCAL) -> Iterator[int]:
    """Be connected to Ray inside the block, and yield the cluster's CPU count.

    An instance this process already started (``ray.init`` by the caller, a test fixture) is used as it
    is and left running; otherwise ``address`` is joined (``"local"``: a new local instance without the
    dashboard; ``host:port``, ``ray://host:10001`` or ``auto``: a running cluster) and left at the end.
    """
    ray = import_ray()
    started = not ray.is_initialized()
    if started:
        options: dict[str, Any] = {"include_dashboard": False} if address == LOCAL else {}
        ray.init(address=address, log_to_driver=False, **options)
    try:
        yield max(1, int(ray.cluster_resources().get("CPU", 1)))
    finally:
        if started:
            ray.shutdown()


def _call(function: Callable[[T], R], task: T) -> R:
    return function(task)


def ray_map(function: Callable[[T], R], tasks: Sequence[T]) -> Iterator[tuple[int, R]]:
    """Run ``function(task)`` for every task as a Ray task (Ray connected) and yield ``(index, result)``
    as each finishes. A task's exception is raised here as itself; leaving early cancels the rest."""
    ray = import_ray()
    remote = ray.remote(_call)
    pending = {remote.remote(function, task): index for index, task in enumerate(tasks)}
    try:
        while pending:
            done, _ = ray.wait(list(pending), num_returns=1)
            for ref in done:
                index = pending.pop(ref)
                try:
                    result = ray.get(ref)
                except ray.exceptions.RayTaskError as error:
                    cause = getattr(error, "cause", None)
                    if isinstance(cause, Exception):
                        raise cause from None
                    raise
                yield index, result
    finally:
        for ref in pending:
            ray.cancel(ref)


def play_batch(specs: Sequence[GameSpec], keep_records: bool) -> list[tuple[GameOutcome, str, bytes | None]]:
    """One Ray task: play the games and return each one's outcome, record file name and, with
    ``keep_records``, the record file as :func:`~cardroom.arena.games.run_game` writes it (into a
    temporary folder on the worker's node)."""
    if not keep_records:
        return [(run_game(spec), spec.record_name(), None) for spec in specs]
    with tempfile.TemporaryDirectory(prefix="cardroom-ray-") as folder:
        results: list[tuple[GameOutcome, str, bytes | None]] = []
        for spec in specs:
            outcome = run_game(spec, Path(folder))
            results.append((outcome, spec.record_name(), (Path(folder) / spec.record_name()).read_bytes()))
    return results


def run_on_ray(
    specs: Sequence[GameSpec],
    address: str,
    *,
    records: Path | None = None,
    progress: Callable[[int], None] | None = None,
) -> list[GameOutcome]:
    """Play the games as Ray tasks (about eight batches per CPU of the cluster), write their records into
    ``records`` here, call ``progress`` as batches finish; the outcomes come in the order they finished."""
    outcomes: list[GameOutcome] = []
    with ray_session(address) as cpus:
        task = partial(play_batch, keep_records=records is not None)
        for _, finished in ray_map(task, batches(list(specs), cpus)):
            for outcome, name, data in finished:
                if records is not None and data is not None:
                    (records / name).write_bytes(data)
                outcomes.append(outcome)
            if progress is not None:
                progress(len(finished))
    return outcomes


__all__ = [
    "EXTRA",
    "LOCAL",
    "RayUnavailableError",
    "import_ray",
    "play_batch",
    "ray_map",
    "ray_session",
    "run_on_ray",
]
