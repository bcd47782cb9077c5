"""What the commands share: the open_console, options read and checked (a level, a game, a rule set, a
bot, Ray; games through the registry :mod:`cardroom.games`), and the competition's logging."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, TypeVar

import typer
from rich.console import Console
from rich.markup import escape
from rich.measure import Measurement
from rich.table import Table

from cardroom.arena.ray_backend import LOCAL, RayUnavailableError, import_ray
from cardroom.cards import NotationError, Rank
from cardroom.games import GAMES, GUANDAN_GAME, AnyGame, Game, game
from cardroom.guandan.ruleset import RuleSet
from cardroom.records.render import plural

if TYPE_CHECKING:
    from rich.progress import Progress

RulesT = TypeVar("RulesT")

RayFlag = Annotated[
    bool,
    typer.Option("--ray", help="Play on a local Ray instance started for the run (extra cardroom\\[ray])."),
]
RayAddress = Annotated[
    str | None,
    typer.Option(help="Play on the Ray cluster at this address (HOST:PORT, ray://HOST:10001 or auto)."),
]

DatabaseUrlOption = Annotated[
    str | None,
    typer.Option(
        help="Database URL (sqlite:///PATH or postgresql://USER@HOST/NAME); "
        "default: $DATABASE_URL, else SQLite in the data folder."
    ),
]
DataFolderOption = Annotated[
    Path | None,
    typer.Option(
        help="Data folder for the SQLite database (default: $CARDROOM_DATA or ~/.local/share/cardroom)."
    ),
]


def open_console() -> Console:
    """Rich's console for a command's output: lines wrap at the terminal's width, and not at all when
    the output is a pipe or a file (where Rich would wrap at 80 columns)."""
    made = Console()
    made.soft_wrap = not made.is_terminal
    return made


def print_table(console: Console, table: Table) -> None:
    """Print a table whole: at a terminal, cells wrap (never cut with "…") within its width; into a pipe
    or a file, the table takes the width its content needs (Rich would squeeze it into 80 columns)."""
    for column in table.columns:
        column.overflow = "fold"
    if console.is_terminal:
        console.print(table)
        return
    width = console.width
    console.width = max(width, Measurement.get(console, console.options.update_width(10_000), table).maximum)
    try:
        console.print(table)
    finally:
        console.width = width


def progress_bar(console: Console, *, transient: bool = False) -> Progress:
    """A command's progress bar: what is done, a bar, done of total, time elapsed."""
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    return Progress(
        TextColumn("[progress.description]{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        console=console,
        transient=transient,
    )


def level_of(text: str) -> Rank:
    """A level rank option, 2…A."""
    try:
        rank = Rank.from_letter(text)
    except NotationError as error:
        raise typer.BadParameter(str(error)) from None
    if rank.is_joker:
        raise typer.BadParameter("the level is a rank from 2 to A")
    return rank


GAME_HELP = "The game: " + "; ".join(f"{name}, {found.title}" for name, found in GAMES.items()) + "."
"""The help of a game option: every registered game."""
RULES_HELP = (
    "Rule-set preset (default: "
    + "; ".join(f"{found.default_preset} for {name}" for name, found in GAMES.items())
    + ")."
)
"""The help of a rule-set option of any game: each game's default preset."""
BOTS_HELP = "; ".join(f"{', '.join(sorted(found.bots))} ({name})" for name, found in GAMES.items())
"""Every game's bots, for the help of a bot option."""


def game_option(name: str) -> AnyGame:
    """A game option (``--game``), found in the registry."""
    try:
        return game(name)
    except KeyError as error:
        raise typer.BadParameter(str(error), param_hint="--game") from None


def rules_option(of: Game[RulesT, Any, Any], name: str | None) -> RulesT:
    """A rule-set preset option (``--rules``) of the game ``of``; none given: the game's default."""
    try:
        return of.rules(of.default_preset if name is None else name)
    except KeyError as error:
        raise typer.BadParameter(str(error), param_hint="--rules") from None


def guandan_rules(name: str) -> RuleSet:
    """A Guandan rule-set preset option (``--rules``), for the commands that play Guandan only."""
    return rules_option(GUANDAN_GAME, name)


def bot_name(name: str, option: str, of: AnyGame = GUANDAN_GAME) -> str:
    """A bot option: the name of one of the bots of the game ``of`` (Guandan by default)."""
    try:
        of.bot(name)
    except KeyError as error:
        raise typer.BadParameter(str(error), param_hint=option) from None
    return name


def ray_address_of(ray: bool, ray_address: str | None) -> str | None:
    """The Ray address ``--ray`` / ``--ray-address`` ask for (``None``: no Ray), checking Ray imports."""
    address = ray_address or (LOCAL if ray else None)
    if address is not None:
        try:
            import_ray()
        except RayUnavailableError as error:
            hint = "--ray-address" if ray_address else "--ray"
            raise typer.BadParameter(str(error), param_hint=hint) from None
    return address


def competition_logging(verbose: bool, names: tuple[str, ...] = ("cardroom.competition",)) -> None:
    """Log the network servers' and clients' progress (the loggers ``names``) to stderr (once, however
    often called)."""
    import logging
    import sys

    class StderrHandler(logging.Handler):
        """Writes to the ``sys.stderr`` of the moment (a test runner may swap it)."""

        def emit(self, record: logging.LogRecord) -> None:
            try:
                sys.stderr.write(self.format(record) + "\n")
            except Exception:  # logging must never break the command
                self.handleError(record)

    for name in names:
        logger = logging.getLogger(name)
        if not any(getattr(handler, "name", None) == "cardroom-cli" for handler in logger.handlers):
            handler = StderrHandler()
            handler.name = "cardroom-cli"
            handler.setFormatter(logging.Formatter("%(asctime)s %(message)s", "%H:%M:%S"))
            logger.addHandler(handler)
        logger.setLevel(logging.INFO if verbose else logging.WARNING)


__all__ = [
    "BOTS_HELP",
    "GAME_HELP",
    "RULES_HELP",
    "RayAddress",
    "RayFlag",
    "bot_name",
    "competition_logging",
    "game_option",
    "guandan_rules",
    "level_of",
    "open_console",
    "plural",
    "ray_address_of",
    "rules_option",
]


@contextmanager
def client_errors(console: Console) -> Iterator[None]:
    """A network client's run: its :class:`~cardroom.competition.client.ConnectError` said in words
    with exit code 1, Ctrl-C with 130."""
    from cardroom.competition.client import ConnectError

    try:
        yield
    except ConnectError as error:
        console.print(f"[bold red]Cannot play[/]: {escape(str(error))}")
        raise typer.Exit(1) from None
    except KeyboardInterrupt:
        console.print("[bold yellow]Stopped[/]")
        raise typer.Exit(130) from None
