"""``cardroom play``: a match of Guandan or Shengji at the terminal against three of our bots
(:mod:`cardroom.terminal`)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from cardroom.bots import BOTS
from cardroom.bots.shengji import SHENGJI_BOTS
from cardroom.cli.options import bot_name, guandan_rules, shengji_rules


def play_command(
    game: Annotated[str, typer.Option(help="The game: guandan or shengji.")] = "guandan",
    rules: Annotated[
        str | None, typer.Option(help="Rule-set preset (default: competition; Shengji: shengji).")
    ] = None,
    bots: Annotated[
        str, typer.Option(help=f"The bot at the other seats; available: {', '.join(sorted(BOTS))}.")
    ] = ("heuristic"),
    seat: Annotated[int, typer.Option(min=0, max=3, help="Your seat (0 and 2 are partners).")] = 0,
    seed: Annotated[int, typer.Option(help="Seed of the cards and the bots.")] = 1,
    deals: Annotated[int | None, typer.Option(min=1, help="Deals to play (default: a match to A).")] = None,
    out: Annotated[Path, typer.Option(help="Where the match record is written at the end.")] = Path(
        "match.json"
    ),
) -> None:
    """Play a match of Guandan or Shengji at the terminal against three bots: arrows and space choose
    cards (or t to type them), Enter plays, p passes, h hints, a plays the hint, n deals the next deal,
    q quits. The record is written to OUT at the end."""
    from cardroom.terminal.table import CardTable

    table: CardTable
    if game == "shengji":
        from cardroom.terminal.shengji import ShengjiTable

        rule_set = shengji_rules(rules or "shengji")
        bot = bot_name(bots, "--bots", SHENGJI_BOTS, "Shengji ")
        table = ShengjiTable(rule_set, seed=seed, seat=seat, bots=bot, max_deals=deals, out=out)
    elif game == "guandan":
        from cardroom.terminal.guandan import GuandanTable

        bot = bot_name(bots, "--bots")
        table = GuandanTable(
            guandan_rules(rules or "competition"), seed=seed, seat=seat, bots=bot, max_deals=deals, out=out
        )
    else:
        raise typer.BadParameter(f"unknown game {game!r}; known: guandan, shengji", param_hint="--game")
    table.run()
