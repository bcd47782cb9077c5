"""Commands that play many games: ``arena`` (two bots in duplicate) and ``selfplay`` (training data)."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Annotated

import typer
from rich.markup import escape

from cardroom.arena.command import run_command as run_arena_command
from cardroom.arena.duplicate import ArenaConfig
from cardroom.arena.play import ArenaError
from cardroom.arena.ray_backend import LOCAL
from cardroom.bots import BOTS
from cardroom.cli.options import (
    BOTS_HELP,
    GAME_HELP,
    RULES_HELP,
    RayAddress,
    RayFlag,
    bot_name,
    game_option,
    guandan_rules,
    open_console,
    progress_bar,
    ray_address_of,
    rules_option,
)
from cardroom.games import DEFAULT_GAME


def arena_command(
    a: Annotated[
        str,
        typer.Option(help=f"Bot of team A (seats 0 & 2, then 1 & 3); available: {BOTS_HELP}."),
    ],
    b: Annotated[str, typer.Option(help="Bot of team B (seats 1 & 3, then 0 & 2).")],
    game: Annotated[str, typer.Option(help=GAME_HELP)] = DEFAULT_GAME,
    deals: Annotated[
        int, typer.Option(min=0, help="Fresh deals (level 2), each played twice with the teams swapped.")
    ] = 100,
    matches: Annotated[
        int, typer.Option(min=0, help="Whole matches to passing A, each played twice with the teams swapped.")
    ] = 0,
    rules: Annotated[str | None, typer.Option(help=RULES_HELP)] = None,
    seed: Annotated[int, typer.Option(help="Seed of the cards and the bots (docs/arena.md).")] = 1,
    workers: Annotated[
        int | None, typer.Option(min=1, help="Worker processes (default: the number of CPUs).")
    ] = None,
    out: Annotated[Path, typer.Option(help="Folder for results.json, results.png and records/.")] = Path(
        "arena-results"
    ),
    records: Annotated[
        bool, typer.Option("--records/--no-records", help="Write every game's record into OUT/records.")
    ] = True,
    ray: RayFlag = False,
    ray_address: RayAddress = None,
) -> None:
    """Play bot A against bot B in duplicate (every deal twice, teams swapped) and measure them.

    Prints deal and match win rates and level gain with 95% intervals over the duplicate pairs, and
    play statistics beside the human figures of docs/rules/platform.md#human-figures; writes OUT/results.json,
    OUT/results.png and a record per game (replay them with `cardroom replay`). `--game shengji` plays Shengji
    with the Shengji bots: win rates, levels gained, dealer keeps and attackers' points (docs/arena.md).
    """
    if deals == 0 and matches == 0:
        raise typer.BadParameter("nothing to play: give --deals or --matches above 0", param_hint="--deals")
    played = game_option(game)
    rule_set = rules_option(played, rules)
    bot_a, bot_b = bot_name(a, "--a", played), bot_name(b, "--b", played)
    config = ArenaConfig(
        bot_a, bot_b, deals=deals, matches=matches, seed=seed, rules=rule_set, game=played.name
    )
    address = ray_address_of(ray, ray_address)
    console = open_console()
    try:
        run_arena_command(
            config,
            workers=workers or os.cpu_count() or 1,
            out=out,
            records=records,
            console=console,
            ray_address=address,
        )
    except ArenaError as error:
        console.print(f"[bold red]Arena stopped[/]: {escape(str(error))}")
        raise typer.Exit(1) from None
    except ConnectionError as error:
        console.print(f"[bold red]Cannot reach Ray[/] at {escape(str(address))}: {escape(str(error))}")
        raise typer.Exit(1) from None


def selfplay_command(
    bot: Annotated[
        str, typer.Option(help=f"The bot at all four seats; available: {', '.join(sorted(BOTS))}.")
    ],
    deals: Annotated[int, typer.Option(min=1, help="Fresh deals (level 2) to play.")],
    out: Annotated[Path, typer.Option(help="Folder for manifest.json, samples/ and records/.")],
    seed: Annotated[int, typer.Option(help="Seed of the cards and the bots (docs/rl.md).")] = 1,
    rules: Annotated[str, typer.Option(help="Rule-set preset (one with the competition plays).")] = (
        "competition"
    ),
    workers: Annotated[
        int | None, typer.Option(min=1, help="Worker processes (default: the number of CPUs).")
    ] = None,
    shard_deals: Annotated[
        int, typer.Option(min=1, help="Deals per .npz shard (one task each; the data does not depend on it).")
    ] = 50,
    features: Annotated[
        bool,
        typer.Option("--features/--no-features", help="Keep every legal card-level action's feature vector."),
    ] = True,
    records: Annotated[
        bool, typer.Option("--records/--no-records", help="Write every deal's record into OUT/records.")
    ] = True,
    ray: RayFlag = False,
    ray_address: RayAddress = None,
) -> None:
    """Write a self-play dataset for training: four copies of BOT play fresh deals.

    Every decision becomes a sample (encoded observation, legal action mask, chosen action index, the
    legal actions' features, seat, deal, the team's reward) in OUT/samples/shard-*.npz, with a record per
    deal in OUT/records and OUT/manifest.json (docs/rl.md, "Datasets"; read it with
    cardroom.rl.dataset.load_dataset). The same seed gives the same files, here, in a pool or on Ray.
    """
    import time

    address = ray_address_of(ray, ray_address)
    console = open_console()
    try:
        from cardroom.rl.dataset import SelfPlayConfig, SelfPlayError, write_dataset
    except ImportError as error:
        console.print(
            f"[bold red]Self-play needs the optional extra cardroom[rl][/] (pip install 'cardroom[rl]'): "
            f"{escape(str(error))}"
        )
        raise typer.Exit(2) from None
    try:
        config = SelfPlayConfig(
            bot_name(bot, "--bot"),
            deals,
            seed=seed,
            rules=guandan_rules(rules),
            shard_deals=shard_deals,
            features=features,
        )
    except ValueError as error:
        raise typer.BadParameter(str(error), param_hint="--rules") from None
    where = "a local Ray instance" if address == LOCAL else f"the Ray cluster at {address}"
    cpus = workers or os.cpu_count() or 1
    console.print(
        f"Self-play: four [bold]{escape(bot)}[/] bots, {deals} deals, rules {escape(config.rules.name)}, "
        f"seed {seed}, {config.shards} shards, "
        + (f"on {escape(where)}" if address else f"{cpus} worker{'s' * (cpus != 1)}")
    )
    start = time.perf_counter()
    try:
        with progress_bar(console) as progress:
            task = progress.add_task("deals", total=deals)
            manifest = write_dataset(
                config,
                out,
                workers=cpus,
                ray_address=address,
                records=records,
                progress=lambda done: progress.advance(task, done),
            )
    except SelfPlayError as error:
        console.print(f"[bold red]Self-play stopped[/]: {escape(str(error))}")
        raise typer.Exit(1) from None
    except ConnectionError as error:
        console.print(f"[bold red]Cannot reach Ray[/] at {escape(str(address))}: {escape(str(error))}")
        raise typer.Exit(1) from None
    counts = manifest["counts"]
    console.print(
        f"{counts['deals']} deals, {counts['samples']} decisions in {counts['shards']} shards, "
        f"{time.perf_counter() - start:.1f} s. Wrote {escape(str(out))}: manifest.json, samples/"
        + (", records/" if records else "")
        + "."
    )
