"""Running the arena's games, of any game: one game by its spec (each game's player in :data:`PLAYERS`:
:mod:`~cardroom.arena.play` for Guandan, :mod:`~cardroom.arena.shengji_play` for Shengji), a batch of
games (a task of the process pool or of Ray), and the cutting of a run's schedule into such batches."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Final

from cardroom.arena.play import GameKind, GameOutcome, GameSpec, run_guandan_game
from cardroom.arena.shengji_play import run_shengji_game
from cardroom.games import GUANDAN_GAME, SHENGJI_GAME

PLAYERS: Final[dict[str, Callable[[GameSpec, Path | None], GameOutcome]]] = {
    GUANDAN_GAME.name: run_guandan_game,
    SHENGJI_GAME.name: run_shengji_game,
}
"""How the arena plays one game of each game, by the game's name: play it, write its record into the
folder given (if any), return its facts."""


def run_game(spec: GameSpec, records: Path | None = None) -> GameOutcome:
    """Play one game, write its record into the folder ``records`` (when given), return its facts."""
    return PLAYERS[spec.game](spec, records)


def run_games(specs: list[GameSpec], records: Path | None = None) -> list[GameOutcome]:
    """Play several games in order (one task of the process pool)."""
    return [run_game(spec, records) for spec in specs]


def batches(specs: list[GameSpec], workers: int) -> list[list[GameSpec]]:
    """Cut the schedule into pool tasks: about eight per worker (so the load evens out and the
    progress bar moves), a match pair at most per task, at most 32 fresh deals."""
    size = max(1, min(32, len(specs) // (8 * workers)))
    tasks: list[list[GameSpec]] = []
    current: list[GameSpec] = []
    for spec in specs:
        limit = 2 if spec.kind is GameKind.MATCH else size
        if current and (len(current) >= limit or current[0].kind is not spec.kind):
            tasks.append(current)
            current = []
        current.append(spec)
    if current:
        tasks.append(current)
    return tasks
