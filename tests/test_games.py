"""The registry of games (:mod:`cardroom.games`): each game found by name, by rule set and by record,
its presets and bots, and a random record of each replayed through it."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest
from rich.console import Console

from cardroom.bots import BOTS
from cardroom.bots.shengji import SHENGJI_BOTS
from cardroom.games import (
    DEFAULT_GAME,
    GAMES,
    GUANDAN_GAME,
    SHENGJI_GAME,
    AnyGame,
    Game,
    UnknownNameError,
    game,
    game_of_record,
    game_of_rules,
)
from cardroom.guandan.ruleset import COMPETITION, RuleSet
from cardroom.guandan.ruleset import PRESETS as GUANDAN_PRESETS
from cardroom.records import FORMAT, RecordError, read_record
from cardroom.records.shengji import SHENGJI_FORMAT
from cardroom.shengji.ruleset import PRESETS as SHENGJI_PRESETS
from cardroom.shengji.ruleset import SHENGJI, ShengjiRules

EVERY_GAME = pytest.mark.parametrize("found", list(GAMES.values()), ids=list(GAMES))


def test_each_game_is_found_by_its_name() -> None:
    assert list(GAMES) == ["guandan", "shengji"]
    assert game("guandan") is GUANDAN_GAME
    assert game("shengji") is SHENGJI_GAME
    assert game(DEFAULT_GAME) is GUANDAN_GAME
    assert (GUANDAN_GAME.title, SHENGJI_GAME.title) == ("Guandan (掼蛋)", "Shengji (升级)")


def test_an_unknown_game_lists_the_games() -> None:
    with pytest.raises(UnknownNameError) as caught:
        game("bridge")
    assert str(caught.value) == "unknown game 'bridge'; available: guandan, shengji"
    assert isinstance(caught.value, KeyError)
    assert isinstance(caught.value, ValueError)


def test_the_presets_are_the_rules_cores_and_the_default_is_one_of_them() -> None:
    assert GUANDAN_GAME.presets is GUANDAN_PRESETS
    assert SHENGJI_GAME.presets is SHENGJI_PRESETS
    assert GUANDAN_GAME.rules(GUANDAN_GAME.default_preset) is COMPETITION
    assert SHENGJI_GAME.rules(SHENGJI_GAME.default_preset) is SHENGJI
    assert (GUANDAN_GAME.default_preset, SHENGJI_GAME.default_preset) == ("competition", "shengji")


@EVERY_GAME
def test_every_preset_belongs_to_its_game(found: AnyGame) -> None:
    for name, rules in found.presets.items():
        assert found.rules(name) is rules
        assert rules.name == name
        assert game_of_rules(rules) is found


def test_an_unknown_preset_lists_the_games_presets() -> None:
    with pytest.raises(KeyError, match="unknown rule set 'nope'; available: classic, competition"):
        GUANDAN_GAME.rules("nope")
    with pytest.raises(ValueError, match="unknown Shengji rule set 'competition'; available: ") as caught:
        SHENGJI_GAME.rules("competition")
    assert str(caught.value).endswith(", ".join(sorted(SHENGJI_PRESETS)))


def test_rules_of_no_game_are_refused() -> None:
    assert game_of_rules(RuleSet(name="house")) is GUANDAN_GAME
    assert game_of_rules(ShengjiRules(name="house")) is SHENGJI_GAME
    with pytest.raises(TypeError, match="str is the rule set of no game"):
        game_of_rules("competition")


def test_the_bots_are_the_live_registries() -> None:
    assert GUANDAN_GAME.bots is BOTS
    assert SHENGJI_GAME.bots is SHENGJI_BOTS
    with pytest.raises(KeyError, match=r"unknown bot 'nobody'; available: .*random"):
        GUANDAN_GAME.bot("nobody")
    with pytest.raises(ValueError, match=r"unknown Shengji bot 'search'; available: heuristic, random"):
        SHENGJI_GAME.make_bot("search", 1)


@EVERY_GAME
def test_every_bot_is_made_by_name(found: AnyGame) -> None:
    for name in found.bots:
        bot = found.make_bot(name, 7)
        assert callable(bot.act)
        assert type(bot) is type(found.bot(name)(random.Random(7)))


def test_a_record_format_names_its_game() -> None:
    assert game_of_record({"format": FORMAT}) is GUANDAN_GAME
    assert game_of_record({"format": SHENGJI_FORMAT}) is SHENGJI_GAME
    assert (GUANDAN_GAME.record_format, SHENGJI_GAME.record_format) == (FORMAT, SHENGJI_FORMAT)
    expected = f'format: expected "{FORMAT}" or "{SHENGJI_FORMAT}"'
    with pytest.raises(RecordError, match=f'{expected}, got "cardroom-bridge-match"'):
        game_of_record({"format": "cardroom-bridge-match"})
    with pytest.raises(RecordError, match=f"{expected}, missing"):
        game_of_record({})


@EVERY_GAME
def test_a_random_record_replays_through_the_registry(found: AnyGame, tmp_path: Path) -> None:
    record = found.play_random(3, 1, found.rules(found.default_preset))
    path = tmp_path / "record.json"
    found.write_record(path, record)
    raw = read_record(path)
    assert game_of_record(raw) is found
    report = found.replay(raw)
    assert report.ok
    console = Console(record=True, width=200)
    found.print_report(report, console)
    assert "Legal record" in console.export_text()
    assert "1 deal, " in found.describe_record(record)


def test_a_record_is_described_in_one_line() -> None:
    record = GUANDAN_GAME.play_random(5, 2, COMPETITION)
    line = GUANDAN_GAME.describe_record(record)
    assert line.startswith("2 deals, ")
    assert "28-point score" in line
    line = SHENGJI_GAME.describe_record(SHENGJI_GAME.play_random(2, 1, SHENGJI))
    assert line.startswith("Shengji, 1 deal, ")
    assert "unfinished, levels " in line


def test_messages_name_the_game_but_guandan() -> None:
    assert GUANDAN_GAME.named("bot") == "bot"
    assert SHENGJI_GAME.named("rule set") == "Shengji rule set"


def test_a_game_whose_default_is_no_preset_is_refused() -> None:
    fields: dict[str, Any] = {
        field: getattr(SHENGJI_GAME, field) for field in SHENGJI_GAME.__dataclass_fields__
    }
    with pytest.raises(UnknownNameError, match="unknown default Shengji rule set 'nope'"):
        Game(**(fields | {"default_preset": "nope"}))
