"""The batched environment's benchmark (``bench.vector``) runs end to end on small batches and reports
every figure. It asserts no speed."""

from __future__ import annotations

import pytest

pytest.importorskip("pettingzoo")

from bench.vector import main


def test_every_row_is_measured(capsys: pytest.CaptureFixture[str]) -> None:
    rates = main(["--seconds", "0.05", "--aec-episodes", "1", "--batches", "1,4"])
    assert {"pure 1", "pure 4", "aec pure"} <= set(rates)
    assert all(rate > 0 for rate in rates.values())
    printed = capsys.readouterr().out
    assert "memory per table" in printed
    assert "VectorEnv at 4 tables ÷ aec pure" in printed
