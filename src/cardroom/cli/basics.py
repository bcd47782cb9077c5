"""The first commands: ``demo`` (a seeded hand's legal leads) and ``version``."""

from __future__ import annotations

from typing import Annotated

import typer

from cardroom.cli.options import guandan_rules, level_of, open_console
from cardroom.demo import run_demo


def demo(
    seed: Annotated[int, typer.Option(help="Seed of the shuffle.")] = 1,
    level: Annotated[str, typer.Option(help="Level rank, 2…A (T for ten).")] = "2",
    seat: Annotated[int, typer.Option(min=0, max=3, help="Seat whose leads are listed.")] = 0,
    rules: Annotated[str, typer.Option(help="Rule-set preset: competition, classic, platform, huopin.")] = (
        "competition"
    ),
) -> None:
    """Deal a seeded hand and list every legal lead of one seat, grouped by kind."""
    run_demo(seed, level_of(level), seat, open_console(), guandan_rules(rules))


def version() -> None:
    """Print the version."""
    from cardroom import __version__

    typer.echo(__version__)
