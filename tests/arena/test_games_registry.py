"""The arena finds each game through the registry (:mod:`cardroom.games`): every registered game can be
played and reported, and a config takes the game's defaults and checks its bots by name."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from cardroom.arena import ArenaConfig, schedule
from cardroom.arena.games import ARENA_GAMES, arena_game, run_game
from cardroom.games import GAMES, UnknownNameError


@pytest.mark.parametrize("name", list(GAMES))
def test_every_registered_game_has_its_arena_part(name: str) -> None:
    """The arena finds each game's part by the registry's Game value, not by its name."""
    assert arena_game(GAMES[name]).game is GAMES[name]
    assert [part.game for part in ARENA_GAMES] == list(GAMES.values())


@pytest.mark.parametrize("name", list(GAMES))
def test_a_games_record_names_the_game_unless_it_is_the_first(name: str, tmp_path: Path) -> None:
    """Guandan's arena records leave the game unsaid (they predate Shengji); Shengji's name it."""
    (spec, *_) = schedule(ArenaConfig("random", "random", deals=1, game=name))
    outcome = run_game(spec, tmp_path)
    (path,) = tmp_path.iterdir()
    record = json.loads(path.read_text(encoding="utf-8"))
    assert GAMES[name].replay(record).ok
    assert record["meta"]["arena"].get("game") == (None if name == "guandan" else name)
    assert outcome.finished_deals == 1


@pytest.mark.parametrize("name", list(GAMES))
def test_a_config_takes_the_games_default_preset(name: str) -> None:
    found = GAMES[name]
    config = ArenaConfig("random", "random", deals=1, game=name)
    assert config.rule_set is found.rules(found.default_preset)
    assert {spec.game for spec in schedule(config)} == {name}


def test_unknown_names_are_the_registrys_errors() -> None:
    with pytest.raises(UnknownNameError, match="unknown game 'bridge'; available: guandan, shengji"):
        ArenaConfig("random", "random", game="bridge")
    with pytest.raises(UnknownNameError, match="unknown Shengji bot 'search'"):
        ArenaConfig("random", "search", game="shengji")
