"""Fixtures shared across the test packages, and how the suite is shared among pytest-xdist's workers
(``make test`` runs it in parallel; CONTRIBUTING.md says what keeps the workers apart)."""

from __future__ import annotations

import os
from collections.abc import Iterator
from types import ModuleType

import pytest

from cardroom.guandan import native
from tests.server import serving


def shared_group(item: pytest.Item) -> str | None:
    """The xdist group of a test that uses a costly fixture: every Ray test in one (one Ray a run), the
    browser tests one per module (each module shares one card room server and chromium among its
    tests). ``--dist loadgroup`` runs a group on one worker."""
    fixtures = getattr(item, "fixturenames", ())
    if "ray_local" in fixtures:
        return "ray"
    if "browser" in fixtures:
        return f"browser {item.path.stem}"
    return None


Groups = dict[pytest.Item, str | None]
"""Each test's :func:`shared_group`."""


def waits(item: pytest.Item, group: str | None) -> bool:
    """Whether a test spends much of its time waiting rather than computing: on chromium, a server in
    another process (its clocks, leases and limits) or Ray."""
    return group is not None or item.get_closest_marker("server_process") is not None


def spread(working: list[pytest.Item], waiting: list[pytest.Item], groups: Groups) -> list[pytest.Item]:
    """``working`` with ``waiting``'s tests set evenly among them, each list in its own order; a group's
    tests stay together (xdist sends them to one worker at once)."""
    units: dict[str, list[pytest.Item]] = {}
    for item in waiting:
        units.setdefault(groups[item] or item.nodeid, []).append(item)
    merged = [[item] for item in working]
    for index, unit in reversed(list(enumerate(units.values()))):
        merged.insert(round(index * len(working) / len(units)), unit)
    return [item for unit in merged for item in unit]


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Mark the :func:`shared_group` of each test; under xdist, order the run so that the workers' time
    is spent computing: the slow-marked tests first, so that no long one begins last and leaves one
    worker running alone at the end, with the tests that mostly wait (:func:`waits`) set evenly among
    them, so that while one worker waits another computes; the quick tests after (``make test`` keeps
    this order: ``--no-loadscope-reorder``)."""
    groups = {item: shared_group(item) for item in items}
    for item, group in groups.items():
        if group is not None:
            item.add_marker(pytest.mark.xdist_group(group))
        if "browser" in getattr(item, "fixturenames", ()):
            item.add_marker(pytest.mark.browser)
    if os.environ.get("PYTEST_XDIST_WORKER"):
        waiting = [item for item in items if waits(item, groups[item])]
        computing = [item for item in items if not waits(item, groups[item])]
        slow = [item for item in computing if item.get_closest_marker("slow")]
        quick = [item for item in computing if not item.get_closest_marker("slow")]
        items[:] = spread(slow, waiting, groups) + quick


@pytest.hookimpl(tryfirst=True)
def pytest_runtest_setup(item: pytest.Item) -> None:
    """Tell :class:`tests.server.serving.Server` whether this test may start a server: one of
    :data:`tests.server.serving.MARKS`, so that no real server slips into ``make test-fast``."""
    serving.marked = any(item.get_closest_marker(mark) for mark in serving.MARKS)


@pytest.fixture(scope="session")
def ray_local() -> Iterator[ModuleType]:
    """One local Ray instance (2 CPUs, no dashboard, a small object store) for the whole test session
    (under xdist, for one worker: :data:`SHARED_GROUPS`), shut down after; an instance already running
    in this process is used as it is. ``address="local"`` starts a new one even where ``RAY_ADDRESS``
    or another session's cluster could be found. Skips when the ``ray`` extra is missing."""
    ray = pytest.importorskip("ray")
    started = not ray.is_initialized()
    if started:
        ray.init(
            address="local",
            num_cpus=2,
            object_store_memory=100 * 2**20,
            include_dashboard=False,
            log_to_driver=False,
            configure_logging=False,
        )
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
