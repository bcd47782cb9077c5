"""The ladder benchmark (``bench.ladder``) runs end to end on a few matches of the fast house bots. It
asserts no speed."""

from __future__ import annotations

import pytest

from bench.ladder import main
from cardroom.guandan import native


def test_the_fast_ladder_is_measured_on_every_engine(capsys: pytest.CaptureFixture[str]) -> None:
    rates = main(["--matches", "0", "--fast-matches", "2"])
    engines = {"pure", "core"} if native.CORE is not None else {"pure"}
    assert {engine for _, engine in rates} == engines
    assert all(rate > 0 for rate in rates.values())
    assert "random and heuristic, two generations each (pure) | 2 |" in capsys.readouterr().out
