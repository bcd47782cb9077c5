"""``cardroom arena``: play a duplicate run with a progress bar, print the results, write the files
(each game's summary, tables and chart from its part of the arena,
:func:`cardroom.arena.games.arena_game`)."""

from __future__ import annotations

import time
from dataclasses import dataclass
from pathlib import Path

from rich.console import Console
from rich.markup import escape
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)

from cardroom.arena.duplicate import ArenaConfig, run_arena
from cardroom.arena.games import arena_game
from cardroom.arena.play import GameKind
from cardroom.arena.ray_backend import LOCAL
from cardroom.arena.report import write_json
from cardroom.arena.shengji_summary import ShengjiArenaResults
from cardroom.arena.summary import ArenaResults
from cardroom.games import game

RESULTS_JSON = "results.json"
RESULTS_PNG = "results.png"
RECORDS = "records"


@dataclass(frozen=True)
class ArenaFiles:
    """Where a run wrote its results."""

    json: Path
    chart: Path
    records: Path | None


Results = ArenaResults | ShengjiArenaResults
"""A run's results, of whichever game."""


def _where(workers: int, ray_address: str | None) -> str:
    if ray_address == LOCAL:
        return "on a local Ray instance"
    if ray_address is not None:
        return f"on the Ray cluster at {escape(ray_address)}"
    return f"{workers} worker{'s' * (workers != 1)}"


def clear_records(folder: Path) -> None:
    """Remove the records an earlier run left in ``folder`` (only files named as the arena names
    them: ``deal-*.json``, ``match-*.json``), so the folder holds this run's games only."""
    for kind in GameKind:
        for path in folder.glob(f"{kind.value}-*.json"):
            path.unlink()


def run_command(
    config: ArenaConfig,
    *,
    workers: int,
    out: Path,
    records: bool,
    console: Console,
    ray_address: str | None = None,
) -> tuple[Results, ArenaFiles]:
    """Play the run (on Ray when ``ray_address`` is given), print the tables and write ``results.json``,
    ``results.png`` and the records."""
    out.mkdir(parents=True, exist_ok=True)
    folder = out / RECORDS if records else None
    if folder is not None:
        folder.mkdir(exist_ok=True)
        clear_records(folder)
    played = game(config.game)
    heading = played.named("arena")
    console.print(
        f"{heading[:1].upper()}{heading[1:]}: "
        f"[bold]{escape(config.bot_a)}[/] (A) vs [bold]{escape(config.bot_b)}[/] (B), "
        f"{config.deals} deals and {config.matches} matches in duplicate ({config.games} games), "
        f"rules {escape(config.rule_set.name)}, seed {config.seed}, {_where(workers, ray_address)}"
    )
    start = time.perf_counter()
    with Progress(
        TextColumn("[progress.description]{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        TimeRemainingColumn(),
        console=console,
        transient=False,
    ) as progress:
        task = progress.add_task("games", total=config.games)
        outcomes = run_arena(
            config,
            workers=workers,
            records=folder,
            progress=lambda done: progress.advance(task, done),
            ray_address=ray_address,
        )
    elapsed = time.perf_counter() - start
    files = ArenaFiles(out / RESULTS_JSON, out / RESULTS_PNG, folder)
    arena = arena_game(played)
    results: Results = arena.summarize(config, outcomes)
    arena.print_results(results, console)
    write_json(results, files.json)
    arena.write_chart(results, files.chart)
    written = f"{escape(str(files.json))}, {escape(str(files.chart))}"
    if folder is not None:
        written += f" and {config.games} records in {escape(str(folder))}"
    console.print(f"{config.games} games in {elapsed:.1f} s. Wrote {written}.")
    return results, files


__all__ = [
    "RECORDS",
    "RESULTS_JSON",
    "RESULTS_PNG",
    "ArenaFiles",
    "Results",
    "clear_records",
    "run_command",
]
