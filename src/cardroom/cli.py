"""The ``cardroom`` command line."""

from __future__ import annotations

from typing import Annotated

import typer
from rich.console import Console

from cardroom.cards import NotationError, Rank
from cardroom.demo import run_demo

app = typer.Typer(
    help="Guandan (掼蛋) and Shengji (升级): rules engine, bots and card room.",
    no_args_is_help=True,
)


def _level(text: str) -> Rank:
    try:
        rank = Rank.from_letter(text)
    except NotationError as error:
        raise typer.BadParameter(str(error)) from None
    if rank.is_joker:
        raise typer.BadParameter("the level is a rank from 2 to A")
    return rank


@app.command()
def demo(
    seed: Annotated[int, typer.Option(help="Seed of the shuffle.")] = 1,
    level: Annotated[str, typer.Option(help="Level rank, 2…A (T for ten).")] = "2",
    seat: Annotated[int, typer.Option(min=0, max=3, help="Seat whose leads are listed.")] = 0,
) -> None:
    """Deal a seeded hand and list every legal lead of one seat, grouped by kind."""
    run_demo(seed, _level(level), seat, Console())


@app.command()
def version() -> None:
    """Print the version."""
    from cardroom import __version__

    typer.echo(__version__)
