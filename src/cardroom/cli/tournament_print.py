"""``cardroom tournament print EVENT WHAT``: write what an event prints to an HTML file, from the same
pure functions the card room serves (:mod:`cardroom.tournament.printouts`; docs/tournaments.md,
"Printouts"):

- ``pairings``: a round's pairing list, every seat by direction (东南西北);
- ``cards``: a table card per table of a round, one printed page each;
- ``sheets``: a blank score sheet (记分表) per table of a round (``--table``: one), one page each;
- ``results``: the results and standings with the penalties, corrections, withdrawals and appeals.

The page links a stylesheet; unless ``--stylesheet`` names one, the card room's ``print.css`` is written
beside the page as :data:`STYLESHEET`, so the file prints as the card room's page does.
"""

from __future__ import annotations

from enum import Enum
from importlib.resources import files
from pathlib import Path
from typing import Annotated, Final

import typer
from rich.markup import escape

from cardroom.cli.options import open_console, plural
from cardroom.cli.tournament import EventFile, app, fail, load
from cardroom.tournament import Event
from cardroom.tournament.printouts import pairing_list, results_page, score_sheets, table_cards

STYLESHEET: Final = "cardroom-print.css"
"""The stylesheet's file name beside a printed page."""


class Printout(Enum):
    """What ``print`` writes."""

    PAIRINGS = "pairings"
    CARDS = "cards"
    SHEETS = "sheets"
    RESULTS = "results"


def stylesheet_text() -> str:
    """The card room's ``print.css``, as installed with the package."""
    return files("cardroom").joinpath("server", "web", "print.css").read_text(encoding="utf-8")


def _round_number(event: Event, asked: int | None) -> int:
    """The round asked for, or the current one; a clear error naming the rounds there are."""
    if not event.rounds:
        raise ValueError("no round is paired yet: `cardroom tournament pair` publishes the first")
    if asked is None:
        return len(event.rounds)
    if not 1 <= asked <= len(event.rounds):
        paired = "round 1 is" if len(event.rounds) == 1 else f"rounds 1 to {len(event.rounds)} are"
        raise ValueError(f"there is no round {asked}: {paired} paired")
    return asked


def render(event: Event, what: Printout, round_number: int | None, table: int | None, stylesheet: str) -> str:
    """The printout's HTML text (``ValueError`` naming what is wrong with the round or table asked)."""
    if what is Printout.RESULTS:
        if round_number is not None or table is not None:
            raise ValueError("the results print the whole event: --round and --table are for the others")
        return results_page(event, stylesheet=stylesheet)
    if table is not None and what is not Printout.SHEETS:
        raise ValueError("--table is for the score sheets; pairings and cards print every table")
    number = _round_number(event, round_number)
    if what is Printout.PAIRINGS:
        return pairing_list(event, number, stylesheet=stylesheet)
    if what is Printout.CARDS:
        return table_cards(event, number, stylesheet=stylesheet)
    if table is not None:
        try:
            event.round(number).pairing(table)
        except KeyError as error:
            raise ValueError(str(error.args[0])) from None
    return score_sheets(event, number, table, stylesheet=stylesheet)


@app.command("print")
def print_command(
    event_file: EventFile,
    what: Annotated[Printout, typer.Argument(help="pairings, cards, sheets or results.")],
    round_number: Annotated[
        int | None, typer.Option("--round", min=1, help="The round (default: the last paired).")
    ] = None,
    table: Annotated[int | None, typer.Option(min=1, help="Score sheets: only this table.")] = None,
    out: Annotated[
        Path | None,
        typer.Option(help="The HTML file to write (default: beside the event, e.g. club-pairings-r2.html)."),
    ] = None,
    stylesheet: Annotated[
        str | None,
        typer.Option(help=f"The stylesheet's href to link (default: {STYLESHEET}, written beside the page)."),
    ] = None,
) -> None:
    """Write a printout of the event to an HTML file: a round's pairing list, table cards or blank score
    sheets, or the results and standings."""
    console = open_console()
    event = load(console, event_file)
    try:
        text = render(event, what, round_number, table, stylesheet or STYLESHEET)
    except ValueError as error:
        fail(console, str(error), f"print the {what.value}")
    number = None if what is Printout.RESULTS else (round_number or len(event.rounds))
    if out is None:
        suffix = "" if number is None else f"-r{number}"
        out = event_file.with_name(f"{event_file.stem}-{what.value}{suffix}.html")
    try:
        out.write_text(text, encoding="utf-8")
        if stylesheet is None:
            out.with_name(STYLESHEET).write_text(stylesheet_text(), encoding="utf-8")
    except OSError as error:
        fail(console, f"{out}: {error.strerror or error}", f"print the {what.value}")
    what_text = "the results" if number is None else f"round {number}'s {what.value}"
    if number is not None and what is not Printout.PAIRINGS:
        tables = 1 if table is not None else len(event.round(number).pairings)
        what_text += f" ({plural(tables, 'page')})"
    beside = f" and {STYLESHEET} beside it" if stylesheet is None else ""
    console.print(f"Wrote {what_text} to {escape(str(out))}{beside}.")


__all__ = ["STYLESHEET", "Printout", "render", "stylesheet_text"]
