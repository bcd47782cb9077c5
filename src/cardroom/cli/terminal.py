"""``cardroom play``: a Guandan match at the terminal against three of our bots
(:mod:`cardroom.terminal`)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from cardroom.bots import BOTS
from cardroom.cli.options import bot_name, guandan_rules


def play_command(
    rules: Annotated[str, typer.Option(help="Rule-set preset: competition, classic, platform, huopin, …")] = (
        "competition"
    ),
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
    """Play a Guandan match at the terminal against three bots: arrows and space choose cards (or t to
    type them), Enter plays, p passes, h hints, a plays the hint, n deals the next deal, q quits."""
    from cardroom.terminal.guandan import GuandanTable

    table = GuandanTable(
        guandan_rules(rules), seed=seed, seat=seat, bots=bot_name(bots, "--bots"), max_deals=deals, out=out
    )
    table.run()
