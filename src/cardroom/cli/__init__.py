"""The ``cardroom`` command line: :data:`app`, its commands in small modules by concern —
:mod:`~cardroom.cli.basics` (demo, version), :mod:`~cardroom.cli.records` (replay, play-random),
:mod:`~cardroom.cli.games` (arena, selfplay), :mod:`~cardroom.cli.training` (train),
:mod:`~cardroom.cli.network` (serve, compete, connect), :mod:`~cardroom.cli.terminal` (play),
:mod:`~cardroom.cli.tournament`, :mod:`~cardroom.cli.tournament_desk` and
:mod:`~cardroom.cli.tournament_print` (tournament …), :mod:`~cardroom.cli.accounts` (accounts …),
:mod:`~cardroom.cli.ladder` (ladder …) — and what they share in :mod:`~cardroom.cli.options`."""

from __future__ import annotations

import typer

from cardroom.cli import (
    accounts,
    basics,
    games,
    ladder,
    network,
    records,
    terminal,
    tournament,
    training,
)
from cardroom.cli import tournament_desk as tournament_desk  # registers its commands on tournament.app
from cardroom.cli import tournament_print as tournament_print  # registers `tournament print`

app = typer.Typer(
    help="Guandan (掼蛋) and Shengji (升级): rules engine, bots and card room.",
    no_args_is_help=True,
)
app.command()(basics.demo)
app.command()(basics.version)
app.command("replay")(records.replay_command)
app.command("play-random")(records.play_random_command)
app.command("arena")(games.arena_command)
app.command("selfplay")(games.selfplay_command)
app.command("train")(training.train_command)
app.command("serve")(network.serve_command)
app.command("compete")(network.compete_command)
app.command("connect")(network.connect_command)
app.command("play")(terminal.play_command)
app.add_typer(tournament.app, name="tournament")
app.add_typer(accounts.app, name="accounts")
app.add_typer(ladder.app, name="ladder")

__all__ = ["app"]
