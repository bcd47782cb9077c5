"""The DMC throughput benchmark (``bench.dmc``) runs end to end on a few tables, without Ray. It
asserts no speed."""

from __future__ import annotations

import pytest

pytest.importorskip("torch")

from bench.dmc import main


def test_every_figure_is_measured(capsys: pytest.CaptureFixture[str]) -> None:
    rates = main(["--seconds", "0.3", "--warmup-rounds", "1", "--tables", "8", "--no-ray"])
    assert set(rates) == {"actor", "learner", "local"}
    assert rates["learner"] > 0
    assert "Projection" in capsys.readouterr().out
