"""The test harness's real server (tests/server/serving.py) keeps ``make test-fast`` free of servers."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.server import serving


def test_a_test_without_the_mark_cannot_start_a_server(tmp_path: Path) -> None:
    """This test carries no ``server_process`` mark: ``Server`` refuses to start, naming the mark."""
    assert serving.marked is False, "tests/conftest.py told the harness this test's marks"
    with pytest.raises(AssertionError, match="mark it `server_process`"):
        serving.Server(tmp_path)
    assert not list(tmp_path.iterdir()), "nothing was started"
