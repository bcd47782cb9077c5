"""``cardroom arena``: a tiny run through typer's CliRunner, and its errors."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from cardroom.bots import BOTS
from cardroom.cli import app
from tests.arena.bots import OutOfTurnBot

runner = CliRunner()
ENV = {"COLUMNS": "160"}


def test_a_tiny_run_writes_results_chart_and_records(tmp_path: Path) -> None:
    out = tmp_path / "run"
    args = ["arena", "--a", "random", "--b", "random", "--deals", "3", "--matches", "1"]
    result = runner.invoke(app, [*args, "--workers", "1", "--seed", "5", "--out", str(out)], env=ENV)
    assert result.exit_code == 0, result.output
    assert "deal win rate" in result.output
    assert "match win rate" in result.output
    assert "return card completes a bomb" in result.output
    results = json.loads((out / "results.json").read_text(encoding="utf-8"))
    assert results["format"] == "cardroom-arena-results"
    assert results["config"]["a"] == "random"
    assert (results["deal_pairs"], results["match_pairs"], results["games"]) == (3, 1, 8)
    win = results["teams"]["A"]["deal_win_rate"]
    assert win["clusters"] == 3
    assert win["low"] <= win["estimate"] <= win["high"]
    assert results["play"]["human"]["return_completes_bomb"] == 0.5
    assert (out / "results.png").read_bytes().startswith(b"\x89PNG")
    records = sorted((out / "records").iterdir())
    assert len(records) == 8

    replayed = runner.invoke(app, ["replay", str(records[0])], env=ENV)
    assert replayed.exit_code == 0, replayed.output
    assert "Legal record" in replayed.output

    again = runner.invoke(
        app, [*args, "--workers", "1", "--seed", "5", "--out", str(out), "--no-records"], env=ENV
    )
    assert again.exit_code == 0, again.output
    assert json.loads((out / "results.json").read_text(encoding="utf-8")) == results


def test_an_unknown_bot_lists_the_available_ones(tmp_path: Path) -> None:
    result = runner.invoke(app, ["arena", "--a", "nobody", "--b", "random", "--out", str(tmp_path)], env=ENV)
    assert result.exit_code == 2
    assert "unknown bot 'nobody'" in result.output
    assert "available: " in result.output
    assert "random" in result.output


def test_the_help_lists_the_bots() -> None:
    result = runner.invoke(app, ["arena", "--help"], env=ENV)
    assert result.exit_code == 0
    assert "available:" in result.output
    assert "random" in result.output
    assert "--records" in result.output


def test_a_bot_breaking_the_rules_stops_the_run(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(BOTS, OutOfTurnBot.name, OutOfTurnBot)
    args = ["arena", "--a", "out-of-turn", "--b", "random", "--deals", "1", "--workers", "1"]
    result = runner.invoke(app, [*args, "--out", str(tmp_path)], env=ENV)
    assert result.exit_code == 1
    assert "Arena stopped" in result.output
    assert "OutOfTurnError" in result.output


def test_nothing_to_play_is_an_error(tmp_path: Path) -> None:
    result = runner.invoke(
        app, ["arena", "--a", "random", "--b", "random", "--deals", "0", "--out", str(tmp_path)], env=ENV
    )
    assert result.exit_code == 2
    assert "nothing to play" in result.output
