"""The command line: the demo (the README's main job) and its errors."""

from __future__ import annotations

import re

from typer.testing import CliRunner

from cardroom.cli import app

runner = CliRunner()


def test_demo_prints_four_hands_and_the_leads_of_one() -> None:
    result = runner.invoke(app, ["demo", "--seed", "1"], env={"COLUMNS": "200"})
    assert result.exit_code == 0, result.output
    for seat in range(4):
        assert f"seat {seat}:" in result.output
    match = re.search(r"Seat 0: (\d+) legal leads \((\d+) at the rank level\)", result.output)
    assert match is not None
    assert int(match.group(1)) > int(match.group(2)) > 0
    assert "full house 三带二" in result.output


def test_demo_is_reproducible_under_a_seed() -> None:
    first = runner.invoke(app, ["demo", "--seed", "5", "--level", "K"], env={"COLUMNS": "200"})
    again = runner.invoke(app, ["demo", "--seed", "5", "--level", "K"], env={"COLUMNS": "200"})
    other = runner.invoke(app, ["demo", "--seed", "6", "--level", "K"], env={"COLUMNS": "200"})
    assert first.output == again.output
    assert first.output != other.output


def test_demo_rejects_a_bad_level_by_name() -> None:
    result = runner.invoke(app, ["demo", "--level", "Z"])
    assert result.exit_code != 0
    assert "unknown rank 'Z'" in result.output
    result = runner.invoke(app, ["demo", "--level", "B"])
    assert result.exit_code != 0
    assert "2 to A" in result.output
