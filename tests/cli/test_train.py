"""``cardroom train``: a tiny CPU run, its resumption, clear errors on bad options, and the same positions
played on Ray."""

from __future__ import annotations

import json
import math
import sys
from pathlib import Path
from types import ModuleType

import numpy as np
import pytest
from typer.testing import CliRunner

from cardroom.cli import app

runner = CliRunner()
ENV = {"COLUMNS": "200"}
TINY = ["--deals", "4", "--held-out-deals", "1", "--epochs", "1", "--hidden", "8", "--seed", "3"]


def test_a_tiny_run_writes_its_checkpoint_and_progress(tmp_path: Path) -> None:
    out = tmp_path / "run"
    result = runner.invoke(app, ["train", "--out", str(out), "--rounds", "2", *TINY], env=ENV)
    assert result.exit_code == 0, result.output
    assert "round 2/2" in result.output
    assert "held-out loss" in result.output
    assert {path.name for path in out.iterdir()} == {"checkpoint.npz", "value.npz", "progress.json"}
    progress = json.loads((out / "progress.json").read_text())
    assert progress["rounds_done"] == 2
    assert all(math.isfinite(entry["train_loss"]) for entry in progress["rounds"])
    assert all(math.isfinite(entry["held_out_loss"]) for entry in progress["rounds"])


def test_resuming_from_the_command_line_matches_the_whole_run(tmp_path: Path) -> None:
    whole, stopped = tmp_path / "whole", tmp_path / "stopped"
    assert runner.invoke(app, ["train", "--out", str(whole), "--rounds", "2", *TINY], env=ENV).exit_code == 0
    assert (
        runner.invoke(app, ["train", "--out", str(stopped), "--rounds", "1", *TINY], env=ENV).exit_code == 0
    )
    again = runner.invoke(app, ["train", "--out", str(stopped), "--rounds", "2", *TINY], env=ENV)
    assert again.exit_code == 1
    assert "pass --resume" in again.output
    resumed = runner.invoke(
        app, ["train", "--out", str(stopped), "--rounds", "2", "--resume", *TINY], env=ENV
    )
    assert resumed.exit_code == 0, resumed.output
    assert "round 2/2" in resumed.output
    assert "round 1/2" not in resumed.output
    with np.load(whole / "value.npz") as expected, np.load(stopped / "value.npz") as found:
        assert all(np.array_equal(expected[key], found[key]) for key in expected)


def test_the_distilled_target_writes_the_distilled_network(tmp_path: Path) -> None:
    out = tmp_path / "run"
    options = ["--deals", "1", "--held-out-deals", "1", "--epochs", "1", "--hidden", "8", "--seed", "3"]
    result = runner.invoke(
        app, ["train", "--target", "distilled", "--out", str(out), "--rounds", "1", *options], env=ENV
    )
    assert result.exit_code == 0, result.output
    assert "Training the distilled network" in result.output
    assert "alternatives; MSE of predicting the mean gain" in result.output
    assert {path.name for path in out.iterdir()} == {"checkpoint.npz", "distilled.npz", "progress.json"}
    progress = json.loads((out / "progress.json").read_text())
    assert progress["config"]["target"] == "distilled"
    assert progress["rounds"][0]["held_out_trick_start_loss"] is None
    assert math.isfinite(progress["rounds"][0]["held_out_loss"])


@pytest.mark.parametrize(
    ("options", "message"),
    [
        (["--deals", "0"], "--deals"),
        (["--hidden", "64,x"], "sizes separated by commas"),
        (["--hidden", "0"], "at least one unit"),
        (["--learning-rate", "0"], "above 0"),
        (["--target", "policy"], "--target must be one of value, distilled"),
    ],
)
def test_bad_options_are_refused_clearly(tmp_path: Path, options: list[str], message: str) -> None:
    result = runner.invoke(app, ["train", "--out", str(tmp_path / "run"), *options], env=ENV)
    assert result.exit_code == 2
    assert message in result.output
    assert not (tmp_path / "run").exists()


def test_resuming_nothing_is_an_error(tmp_path: Path) -> None:
    result = runner.invoke(app, ["train", "--out", str(tmp_path), "--resume", *TINY], env=ENV)
    assert result.exit_code == 1
    assert "nothing to resume" in result.output


@pytest.mark.slow
def test_ray_plays_the_same_positions_as_this_process(ray_local: ModuleType) -> None:
    from cardroom.arena.ray_backend import ray_map, ray_session
    from cardroom.bots.training import chunks_of, gather, local_map

    chunks = chunks_of(3, 2, 9, "round", 0)
    here = gather(chunks, local_map)
    with ray_session():
        on_ray = gather(chunks, ray_map)
    for name in ("inputs", "targets", "trick_starts"):
        assert np.array_equal(getattr(here, name), getattr(on_ray, name))


def test_without_ray_the_error_names_the_extra(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setitem(sys.modules, "ray", None)
    result = runner.invoke(app, ["train", "--out", str(tmp_path / "run"), "--ray", *TINY], env=ENV)
    assert result.exit_code == 2
    assert "cardroom[ray]" in result.output
    assert not (tmp_path / "run").exists()
