"""The registered games and how to find one: by name (options, configs), by rule set (an arena game's
spec) or by record (``cardroom replay``)."""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any, Final

from cardroom.games.game import Game, unknown
from cardroom.games.guandan import GUANDAN_GAME
from cardroom.games.shengji import SHENGJI_GAME
from cardroom.records import RecordError

AnyGame = Game[Any, Any, Any]
"""A game found by name: its rules, bots and reports are those of whichever game it is."""

GAMES: Final[dict[str, AnyGame]] = {found.name: found for found in (GUANDAN_GAME, SHENGJI_GAME)}
"""Every game by name, in the order the help lists them."""

DEFAULT_GAME: Final = GUANDAN_GAME.name
"""The game played when none is named. Its arena records leave the game unsaid (they predate the
second game)."""


def game(name: str) -> AnyGame:
    """The game of that name; an :class:`~cardroom.games.game.UnknownNameError` lists the games."""
    try:
        return GAMES[name]
    except KeyError:
        raise unknown("game", name, GAMES) from None


def game_of_rules(rules: object) -> AnyGame:
    """The game whose rule sets ``rules`` is one of; a ``TypeError`` for any other value."""
    for found in GAMES.values():
        if isinstance(rules, found.rules_type):
            return found
    raise TypeError(f"{type(rules).__name__} is the rule set of no game; the games: {', '.join(GAMES)}")


def game_of_record(raw: Mapping[str, object]) -> AnyGame:
    """The game whose record format ``raw`` says it is; a :class:`RecordError` naming the formats
    otherwise."""
    value = raw.get("format")
    for found in GAMES.values():
        if value == found.record_format:
            return found
    expected = " or ".join(f'"{found.record_format}"' for found in GAMES.values())
    got = "missing" if "format" not in raw else f"got {json.dumps(value, ensure_ascii=False)[:60]}"
    raise RecordError("format", f"expected {expected}, {got}")


__all__ = ["DEFAULT_GAME", "GAMES", "AnyGame", "game", "game_of_record", "game_of_rules"]
