"""Helpers of the benchmarks that time the pure engine beside the compiled core in one run
(:func:`cardroom.guandan.native.pure_engine` switches between them)."""

from __future__ import annotations


def ratio(pure: float, compiled: float) -> str:
    """How many times faster the core is, as a table cell."""
    return f"{pure / compiled:.1f}×" if compiled > 0 else "–"
