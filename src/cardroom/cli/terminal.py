"""``cardroom play``: a match of Guandan or Shengji at the terminal against three of our bots
(:mod:`cardroom.terminal`; each game's table in :data:`TABLES`)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, Final, Protocol

import typer

from cardroom.cli.options import BOTS_HELP, GAME_HELP, RULES_HELP, bot_name, game_option, rules_option
from cardroom.games import DEFAULT_GAME, GUANDAN_GAME, SHENGJI_GAME

if TYPE_CHECKING:
    from cardroom.terminal.table import CardTable


class TableClass(Protocol):
    """A game's terminal table: one person against three bots, a match of ``rules``."""

    def __call__(
        self, rules: Any, *, seed: int | None, seat: int, bots: str, max_deals: int | None, out: Path | None
    ) -> CardTable: ...


def _guandan_table() -> TableClass:
    from cardroom.terminal.guandan import GuandanTable

    return GuandanTable


def _shengji_table() -> TableClass:
    from cardroom.terminal.shengji import ShengjiTable

    return ShengjiTable


TABLES: Final[dict[str, Callable[[], TableClass]]] = {
    GUANDAN_GAME.name: _guandan_table,
    SHENGJI_GAME.name: _shengji_table,
}
"""Each game's terminal table by the game's name, imported when a match starts (Textual loads slowly)."""


def play_command(
    game: Annotated[str, typer.Option(help=GAME_HELP)] = DEFAULT_GAME,
    rules: Annotated[str | None, typer.Option(help=RULES_HELP)] = None,
    bots: Annotated[
        str, typer.Option(help=f"The bot at the other seats; available: {BOTS_HELP}.")
    ] = "heuristic",
    seat: Annotated[int, typer.Option(min=0, max=3, help="Your seat (0 and 2 are partners).")] = 0,
    seed: Annotated[
        int | None,
        typer.Option(help="Seed of the cards and the bots (default: a fresh one; the record keeps it)."),
    ] = None,
    deals: Annotated[int | None, typer.Option(min=1, help="Deals to play (default: a match to A).")] = None,
    out: Annotated[Path, typer.Option(help="Where the match record is written at the end.")] = Path(
        "match.json"
    ),
) -> None:
    """Play a match of Guandan or Shengji at the terminal against three bots: arrows and space choose
    cards (or t to type them), Enter plays, p passes, h hints, a plays the hint, n deals the next deal,
    q quits. The record is written to OUT at the end."""
    played = game_option(game)
    rule_set = rules_option(played, rules)
    bot = bot_name(bots, "--bots", played)
    table = TABLES[played.name]()
    table(rule_set, seed=seed, seat=seat, bots=bot, max_deals=deals, out=out).run()
