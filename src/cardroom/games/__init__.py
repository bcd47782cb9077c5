"""The games of the card room, each registered once (its name, presets, bots, record format, replay
and random play): the command line, the arena and the card room look a game up by name
(:func:`game`) instead of branching on it.

:mod:`~cardroom.games.game` is what a game gives (:class:`Game`); :mod:`~cardroom.games.guandan` and
:mod:`~cardroom.games.shengji` give it; :mod:`~cardroom.games.registry` finds it. Adding a game is a
module here and a line in the registry; the arena adds its own part naming the :class:`Game`
(:mod:`cardroom.arena.games`), the terminal its table keyed by the game's name
(:mod:`cardroom.cli.terminal`).
"""

from cardroom.games.game import Game, Report, UnknownNameError
from cardroom.games.guandan import GUANDAN_GAME
from cardroom.games.registry import DEFAULT_GAME, GAMES, AnyGame, game, game_of_record, game_of_rules
from cardroom.games.shengji import SHENGJI_GAME

__all__ = [
    "DEFAULT_GAME",
    "GAMES",
    "GUANDAN_GAME",
    "SHENGJI_GAME",
    "AnyGame",
    "Game",
    "Report",
    "UnknownNameError",
    "game",
    "game_of_record",
    "game_of_rules",
]
