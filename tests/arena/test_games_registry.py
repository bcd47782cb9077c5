"""The arena finds each game through the registry (:mod:`cardroom.games`): every registered game can be
played and reported, and a config takes the game's defaults and checks its bots by name."""

from __future__ import annotations

import pytest

from cardroom.arena import ArenaConfig, schedule
from cardroom.arena.command import REPORTERS
from cardroom.arena.games import PLAYERS
from cardroom.games import GAMES, UnknownNameError


def test_every_registered_game_is_played_and_reported() -> None:
    assert set(PLAYERS) == set(GAMES)
    assert set(REPORTERS) == set(GAMES)


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
