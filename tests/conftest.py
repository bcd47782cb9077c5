"""Fixtures shared across the test packages."""

from __future__ import annotations

import os
from collections.abc import Iterator
from types import ModuleType

import pytest

from cardroom.guandan import native


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


@pytest.fixture(scope="module")
def core() -> ModuleType:
    """The compiled core; a skip without it, or a failure where ``CARDROOM_REQUIRE_NATIVE`` is set."""
    if native.CORE is None:
        if os.environ.get("CARDROOM_REQUIRE_NATIVE"):
            pytest.fail("the compiled core is required (CARDROOM_REQUIRE_NATIVE) but did not load")
        pytest.skip("the compiled core is not built or CARDROOM_PURE is set")
    return native.CORE
