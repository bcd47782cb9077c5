"""Timing the pure engine beside the compiled core in one run: :func:`pure_engine` makes every call in
its block take the pure path, as ``CARDROOM_PURE=1`` does for a whole process."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from cardroom.guandan import native


@contextmanager
def pure_engine() -> Iterator[None]:
    """Within the block, :func:`cardroom.guandan.native.serves` is false for every rule set."""
    saved = native.CORE
    native.CORE = None  # type: ignore[misc]
    try:
        yield
    finally:
        native.CORE = saved  # type: ignore[misc]


def ratio(pure: float, compiled: float) -> str:
    """How many times faster the core is, as a table cell."""
    return f"{pure / compiled:.1f}×" if compiled > 0 else "–"
