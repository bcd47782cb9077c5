"""Fixtures shared across the test packages."""

from __future__ import annotations

from collections.abc import Iterator
from types import ModuleType

import pytest


@pytest.fixture(scope="session")
def ray_local() -> Iterator[ModuleType]:
    """One local Ray instance (2 CPUs, no dashboard) for the whole test session, shut down after; an
    instance already running is used as it is. Skips when the ``ray`` extra is missing."""
    ray = pytest.importorskip("ray")
    started = not ray.is_initialized()
    if started:
        ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False, configure_logging=False)
    yield ray
    if started:
        ray.shutdown()
