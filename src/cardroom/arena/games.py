"""Running the arena's games, of either game: one game by its spec (:mod:`~cardroom.arena.play` for
Guandan, :mod:`~cardroom.arena.shengji_play` for Shengji), a batch of games (a task of the process pool
or of Ray), and the cutting of a run's schedule into such batches."""

from __future__ import annotations

from pathlib import Path

from cardroom.arena.play import GameKind, GameOutcome, GameSpec, run_guandan_game
from cardroom.arena.shengji_play import run_shengji_game


def run_game(spec: GameSpec, records: Path | None = None) -> GameOutcome:
    """Play one game, write its record into the folder ``records`` (when given), return its facts."""
    if spec.game == "shengji":
        return run_shengji_game(spec, records)
    return run_guandan_game(spec, records)


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
