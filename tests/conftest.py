"""Fixtures shared across the test packages, and how the suite is shared among pytest-xdist's workers
(``make test`` runs it in parallel; CONTRIBUTING.md says what keeps the workers apart)."""

from __future__ import annotations

import gc
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


GC_THRESHOLDS = (10_000, 10, 10)
"""The test processes' garbage collection (``gc.set_threshold``; Python's defaults are 700, 10, 10)."""


def pytest_configure() -> None:
    """Collect a test process's garbage less often than Python's defaults do. A test process holds
    millions of objects that live for the whole run (its imports; the references' and the engine's
    caches), and each full collection walks all of them: with the defaults, 50 to 60 s of
    ``make test-fast``'s CPU (a fifth of it) went to collections. Cycles made and dropped by a test are
    still collected, a little later."""
    gc.set_threshold(*GC_THRESHOLDS)


@pytest.hookimpl(trylast=True)
def pytest_collection_finish() -> None:
    """Move what collection made (the modules imported and their objects, all kept to the end) out of the
    collector's way: ``gc.freeze``."""
    gc.freeze()


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Mark the :func:`shared_group` of each test; under xdist, start the slow-marked tests first and
    the groups next, so that no long one begins last and leaves one worker running alone at the end
    (``make test`` keeps this order: ``--no-loadscope-reorder``)."""
    groups = {item: shared_group(item) for item in items}
    for item, group in groups.items():
        if group is not None:
            item.add_marker(pytest.mark.xdist_group(group))
        if "browser" in getattr(item, "fixturenames", ()):
            item.add_marker(pytest.mark.browser)
    if os.environ.get("PYTEST_XDIST_WORKER"):
        items.sort(key=lambda item: 0 if item.get_closest_marker("slow") else 1 if groups[item] else 2)


@pytest.hookimpl(tryfirst=True)
def pytest_runtest_setup(item: pytest.Item) -> None:
    """Tell :class:`tests.server.serving.Server` whether this test may start a server: one of
    :data:`tests.server.serving.MARKS`, so that no real server slips into ``make test-fast``."""
    serving.marked = any(item.get_closest_marker(mark) for mark in serving.MARKS)


_next_test: list[pytest.Item | None] = [None]
"""The test that runs after the one being torn down (``None``: none yet known)."""

_ray_started_here: list[bool] = [False]
"""Whether the Ray instance running now was started by :func:`ray_local` (and is its to shut down)."""


@pytest.hookimpl(tryfirst=True)
def pytest_runtest_teardown(nextitem: pytest.Item | None) -> None:
    """Note the next test before this one's fixtures are torn down (:func:`ray_local` looks at it)."""
    _next_test[0] = nextitem


@pytest.fixture(scope="module")
def ray_local() -> Iterator[ModuleType]:
    """One local Ray instance (2 CPUs, no dashboard, a small object store), kept from a module to the next
    while the next test uses it too (the Ray tests run one after another: :func:`shared_group`) and shut
    down after the last, for Ray's processes take a few percent of a core while they wait; an instance
    already running in this process, not started here, is used as it is. ``address="local"`` starts a
    new one even where ``RAY_ADDRESS`` or another session's cluster could be found. Skips when the
    ``ray`` extra is missing."""
    ray = pytest.importorskip("ray")
    if not ray.is_initialized():
        ray.init(
            address="local",
            num_cpus=2,
            object_store_memory=100 * 2**20,
            include_dashboard=False,
            log_to_driver=False,
            configure_logging=False,
        )
        _ray_started_here[0] = True
    yield ray
    following = _next_test[0]
    if _ray_started_here[0] and "ray_local" not in getattr(following, "fixturenames", ()):
        ray.shutdown()
        _ray_started_here[0] = False


@pytest.fixture(scope="module")
def core() -> ModuleType:
    """The compiled core; a skip without it, or a failure where ``CARDROOM_REQUIRE_NATIVE`` is set."""
    if native.CORE is None:
        if os.environ.get("CARDROOM_REQUIRE_NATIVE"):
            pytest.fail("the compiled core is required (CARDROOM_REQUIRE_NATIVE) but did not load")
        pytest.skip("the compiled core is not built or CARDROOM_PURE is set")
    return native.CORE
