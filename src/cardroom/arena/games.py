"""Each game's part of the arena (:class:`ArenaGame`: how a game is played, recorded, summarised and
reported), found by the :class:`cardroom.games.Game` it belongs to (:func:`arena_game`); running one game
by its spec, a batch of games (a task of the process pool or of Ray), and the cutting of a run's
schedule into such batches.

The registry of games (:mod:`cardroom.games`) sits below the arena and cannot hold the arena's parts, so
the arena keeps them here, one value per game, each naming its :class:`~cardroom.games.Game`; nothing in
the arena branches on a game's name.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final, Generic, TypeVar

from rich.console import Console

from cardroom.arena.config import ArenaConfig
from cardroom.arena.play import ArenaMatch, GameKind, GameOutcome, GameSpec, arena_meta, outcome_of, play_game
from cardroom.arena.report import ResultsJson, print_results, write_chart
from cardroom.arena.shengji_play import play_shengji_game, shengji_outcome_of
from cardroom.arena.shengji_summary import print_shengji_results, summarize_shengji, write_shengji_chart
from cardroom.arena.summary import summarize
from cardroom.games import GUANDAN_GAME, SHENGJI_GAME, AnyGame, game_of_rules
from cardroom.records import record_of
from cardroom.records.shengji import shengji_record_of

MatchT = TypeVar("MatchT", bound=ArenaMatch)
ResultsT = TypeVar("ResultsT", bound=ResultsJson)


@dataclass(frozen=True)
class ArenaGame(Generic[MatchT, ResultsT]):
    """What the arena does differently for one game: play a game of it, record it, keep its facts, and
    summarise, print and chart a run's outcomes."""

    game: AnyGame
    """The registered game (its name, bots, rule sets and record writer)."""
    play: Callable[[GameSpec], MatchT]
    """Plays one game by its spec and returns the match."""
    record_of: Callable[..., dict[str, Any]]
    """``(match, seats, seed=, meta=)`` → the match's record."""
    outcome_of: Callable[[GameSpec, MatchT], GameOutcome]
    """The facts the arena keeps of a played game."""
    summarize: Callable[[ArenaConfig, Sequence[GameOutcome]], ResultsT]
    """A run's results from its outcomes."""
    print_results: Callable[[ResultsT, Console], None]
    """The run's tables for people."""
    write_chart: Callable[[ResultsT, Path], None]
    """``results.png``."""
    names_game: bool
    """Whether the records' ``meta.arena`` name the game: Guandan's leave it unsaid, as they did before
    there were two games."""

    def run(self, spec: GameSpec, records: Path | None = None) -> GameOutcome:
        """Play one game, write its record into the folder ``records`` (when given), return its facts."""
        match = self.play(spec)
        if records is not None:
            said = self.game.name if self.names_game else None
            meta = {"arena": arena_meta(spec, len(match.deals), said)}
            record = self.record_of(match, spec.seat_names(), seed=spec.seed, meta=meta)
            self.game.write_record(records / spec.record_name(), record)
        return self.outcome_of(spec, match)


GUANDAN_ARENA: Final = ArenaGame(
    game=GUANDAN_GAME,
    play=play_game,
    record_of=record_of,
    outcome_of=outcome_of,
    summarize=summarize,
    print_results=print_results,
    write_chart=write_chart,
    names_game=False,
)
"""Guandan in the arena: :mod:`~cardroom.arena.play`, :mod:`~cardroom.arena.summary`,
:mod:`~cardroom.arena.report`."""

SHENGJI_ARENA: Final = ArenaGame(
    game=SHENGJI_GAME,
    play=play_shengji_game,
    record_of=shengji_record_of,
    outcome_of=shengji_outcome_of,
    summarize=summarize_shengji,
    print_results=print_shengji_results,
    write_chart=write_shengji_chart,
    names_game=True,
)
"""Shengji in the arena: :mod:`~cardroom.arena.shengji_play`, :mod:`~cardroom.arena.shengji_summary`."""

ARENA_GAMES: Final[tuple[ArenaGame[Any, Any], ...]] = (GUANDAN_ARENA, SHENGJI_ARENA)
"""The arena's part of every game it plays."""


def arena_game(game: AnyGame) -> ArenaGame[Any, Any]:
    """The arena's part of ``game``; a ``LookupError`` for a game the arena does not play."""
    for found in ARENA_GAMES:
        if found.game is game:
            return found
    raise LookupError(f"the arena does not play {game.title}")


def run_game(spec: GameSpec, records: Path | None = None) -> GameOutcome:
    """Play one game, write its record into the folder ``records`` (when given), return its facts."""
    return arena_game(game_of_rules(spec.rules)).run(spec, records)


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


__all__ = [
    "ARENA_GAMES",
    "GUANDAN_ARENA",
    "SHENGJI_ARENA",
    "ArenaGame",
    "arena_game",
    "batches",
    "run_game",
    "run_games",
]
