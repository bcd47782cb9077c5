"""Commands on match records: ``replay`` (the referee) and ``play-random``."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer
from rich.markup import escape

from cardroom.cli.options import GAME_HELP, RULES_HELP, game_option, open_console, rules_option
from cardroom.games import DEFAULT_GAME, game_of_record
from cardroom.records import RecordError, read_record


def replay_command(
    file: Annotated[Path, typer.Argument(help="A match record (JSON, docs/records.md): Guandan or Shengji.")],
) -> None:
    """Replay a match record (Guandan or Shengji, by its format): each deal's result and the match
    result, or the first illegal action.

    Exit code 0 for a legal record, 1 for an illegal action or a result that does not match, 2 for a
    record that cannot be read.
    """
    console = open_console()
    try:
        raw = read_record(file)
        played = game_of_record(raw)
        report = played.replay(raw)
        played.print_report(report, console)
    except RecordError as error:
        console.print(f"[bold red]Broken record[/] {escape(str(file))}: {escape(str(error))}")
        raise typer.Exit(2) from None
    raise typer.Exit(0 if report.ok else 1)


def play_random_command(
    seed: Annotated[int, typer.Option(help="Seed of random.Random: the shuffles and every choice.")],
    out: Annotated[Path, typer.Option(help="Where to write the match record (JSON).")],
    deals: Annotated[
        int | None,
        typer.Option(
            min=1,
            help="Guandan: play a fixed-deal match of this many deals. Shengji: stop after this many deals "
            "(an unfinished match).",
        ),
    ] = None,
    rules: Annotated[str | None, typer.Option(help=RULES_HELP)] = None,
    game: Annotated[str, typer.Option(help=GAME_HELP)] = DEFAULT_GAME,
) -> None:
    """Play a match with uniformly random legal actions and write its record."""
    played = game_option(game)
    record = played.play_random(seed, deals, rules_option(played, rules))
    played.write_record(out, record)
    open_console().print(f"Wrote {escape(str(out))}: {escape(played.describe_record(record))}.")
