"""The command line finds games through the registry (:mod:`cardroom.games`): ``--game``, ``--rules``
and the bot options are checked once, there, and every registered game has a terminal table."""

from __future__ import annotations

from pathlib import Path

from typer.testing import CliRunner

from cardroom.cli import app
from cardroom.cli.terminal import TABLES
from cardroom.games import GAMES
from cardroom.terminal.table import CardTable

runner = CliRunner()
ENV = {"COLUMNS": "200"}


def test_every_registered_game_has_a_terminal_table() -> None:
    assert set(TABLES) == set(GAMES)
    for load in TABLES.values():
        table = load()
        assert isinstance(table, type)
        assert issubclass(table, CardTable)


def test_an_unknown_game_lists_the_registered_ones(tmp_path: Path) -> None:
    for command in (["play"], ["play-random", "--seed", "1", "--out", str(tmp_path / "x.json")]):
        result = runner.invoke(app, [*command, "--game", "bridge"], env=ENV)
        assert result.exit_code == 2
        assert "unknown game 'bridge'; available: guandan, shengji" in result.output


def test_play_checks_the_games_rules_and_bots() -> None:
    result = runner.invoke(app, ["play", "--game", "shengji", "--bots", "search"], env=ENV)
    assert result.exit_code == 2
    assert "unknown Shengji bot 'search'" in result.output
    result = runner.invoke(app, ["play", "--rules", "shengji"], env=ENV)
    assert result.exit_code == 2
    assert "unknown rule set 'shengji'" in result.output


def test_the_help_names_every_game_and_its_default_preset() -> None:
    result = runner.invoke(app, ["play-random", "--help"], env=ENV)
    assert result.exit_code == 0
    for name, found in GAMES.items():
        assert name in result.output
        assert found.default_preset in result.output
