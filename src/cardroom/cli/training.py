"""``cardroom train``: the value network trained on heuristic self-play, or the distilled network on the
search's own decisions (:mod:`cardroom.bots.training`), here or on Ray; or (``--algo dmc``) the Deep
Monte-Carlo self-play learner (:mod:`cardroom.rl.dmc`, run by :mod:`cardroom.cli.dmc`)."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer
from rich.markup import escape

from cardroom.arena.ray_backend import LOCAL
from cardroom.cli.options import RayFlag, open_console, progress_bar, ray_address_of

if TYPE_CHECKING:
    from cardroom.bots.training import Baseline, Mapper, RoundReport


def hidden_sizes(text: str) -> tuple[int, ...]:
    """A ``--hidden`` option: layer sizes separated by commas (``64,32``)."""
    try:
        sizes = tuple(int(part) for part in text.split(","))
    except ValueError:
        raise typer.BadParameter(f"expected sizes separated by commas, like 64,32; got {text!r}") from None
    if not sizes or any(size < 1 for size in sizes):
        raise typer.BadParameter(f"every hidden layer needs at least one unit; got {text!r}")
    return sizes


def train_command(
    out: Annotated[
        Path, typer.Option(help="Folder for checkpoint.npz, value.npz (or distilled.npz) and progress.json.")
    ],
    target: Annotated[
        str,
        typer.Option(
            help="What to train: value (the value bot's network, on heuristic self-play) or distilled "
            "(the distilled bot's, on the search's gains in search self-play)."
        ),
    ] = "value",
    deals: Annotated[int, typer.Option(min=1, help="Fresh self-play deals per round.")] = 200,
    rounds: Annotated[int, typer.Option(min=1, help="Rounds to train (in all, counting resumed ones).")] = 5,
    resume: Annotated[
        bool, typer.Option("--resume", help="Continue the run in OUT from its checkpoint (same settings).")
    ] = False,
    seed: Annotated[int, typer.Option(help="Seed of the deals, the initial network and the shuffles.")] = 1,
    epochs: Annotated[int, typer.Option(min=1, help="Passes over each round's positions.")] = 4,
    batch: Annotated[
        int | None, typer.Option(min=1, help="Positions per Adam step; default 256, with --algo dmc 1024.")
    ] = None,
    learning_rate: Annotated[
        float | None, typer.Option(help="Adam's step size (above 0); default 1e-3, with --algo dmc 3e-4.")
    ] = None,
    hidden: Annotated[
        str | None,
        typer.Option(help="Hidden layer sizes, separated by commas; default 64,32, with --algo dmc 512,256."),
    ] = None,
    held_out_deals: Annotated[
        int, typer.Option(min=0, help="Deals of the held-out set (0: a quarter of --deals).")
    ] = 0,
    ray: RayFlag = False,
    ray_address: Annotated[
        str | None,
        typer.Option(
            "--ray-address",
            "--address",
            help="Play on the Ray cluster at this address (HOST:PORT, ray://HOST:10001 or auto).",
        ),
    ] = None,
    algo: Annotated[
        str,
        typer.Option(
            help="supervised (the value or distilled network, --target) or dmc (Deep Monte-Carlo self-play "
            "of a Q network over the action table: docs/rl.md)."
        ),
    ] = "supervised",
    frames: Annotated[int, typer.Option(min=1, help="dmc: decisions to train on, in all.")] = 10_000_000,
    hours: Annotated[
        float | None, typer.Option(help="dmc: stop after this many hours (then checkpoint).")
    ] = None,
    actors: Annotated[int, typer.Option(min=1, help="dmc: self-play actors (Ray actors, one CPU each).")] = 1,
    tables: Annotated[int, typer.Option(min=1, help="dmc: tables each actor steps at once.")] = 256,
    steps: Annotated[int, typer.Option(min=1, help="dmc: steps of every table per round.")] = 32,
    epsilon: Annotated[float, typer.Option(help="dmc: share of random legal choices (0-1).")] = 0.01,
    rules: Annotated[
        str, typer.Option(help="dmc: the rule set (with the competition's plays).")
    ] = "competition",
    eval_every: Annotated[
        int, typer.Option(min=0, help="dmc: frames between arena evaluations (0: none).")
    ] = 1_000_000,
    eval_deals: Annotated[
        int, typer.Option(min=1, help="dmc: duplicate deal pairs against each opponent.")
    ] = 200,
    checkpoint_every: Annotated[
        int, typer.Option(min=0, help="dmc: frames between checkpoints (0: at the end only).")
    ] = 1_000_000,
    device: Annotated[
        str, typer.Option(help="dmc: the learner's PyTorch device (cpu, cuda, cuda:1).")
    ] = "cpu",
    threads: Annotated[
        int, typer.Option(min=1, help="dmc: PyTorch threads of the learner and each actor.")
    ] = 1,
    local: Annotated[
        bool, typer.Option("--local", help="dmc: run the actors in this process, one after another (no Ray).")
    ] = False,
) -> None:
    """Train the value network of the `value` bot on heuristic self-play, or (`--target distilled`) the
    network of the `distilled` bot on search self-play, with checkpoints.

    Every round plays DEALS fresh deals, keeps each play-phase position with the deal's real outcome (or
    each alternative the search weighed, with the gain it measured) and trains the network on them; a
    held-out set measures it. After each round OUT/checkpoint.npz, OUT/value.npz (load it with ValueBot;
    OUT/distilled.npz with DistilledBot) and OUT/progress.json are written; `--resume` continues a
    stopped run to the same result (docs/bots.md, "The learned value network", "The search distilled").
    """
    if algo not in ("supervised", "dmc"):
        raise typer.BadParameter(f"--algo must be supervised or dmc; got {algo!r}")
    if learning_rate is not None and learning_rate <= 0:
        raise typer.BadParameter(f"the learning rate must be above 0, got {learning_rate}")
    if algo == "dmc":
        from cardroom.cli.dmc import run_dmc

        run_dmc(
            out,
            resume=resume,
            seed=seed,
            batch=batch or 1024,
            learning_rate=learning_rate or 3e-4,
            hidden=hidden_sizes(hidden or "512,256"),
            frames=frames,
            hours=hours,
            actors=actors,
            tables=tables,
            steps=steps,
            epsilon=epsilon,
            rules=rules,
            eval_every=eval_every,
            eval_deals=eval_deals,
            checkpoint_every=checkpoint_every,
            device=device,
            threads=threads,
            address=None if local else ray_address_of(True, ray_address),
        )
        return
    from cardroom.bots.training import TARGETS, TrainConfig, TrainingError, local_map, train

    if target not in TARGETS:
        raise typer.BadParameter(f"--target must be one of {', '.join(TARGETS)}; got {target!r}")
    address = ray_address_of(ray, ray_address)
    config = TrainConfig(
        deals,
        rounds,
        seed=seed,
        epochs=epochs,
        batch=batch or 256,
        rate=learning_rate or 1e-3,
        hidden=hidden_sizes(hidden or "64,32"),
        held_out_deals=held_out_deals,
        target=target,
    )
    console = open_console()
    where = "here" if address is None else "on a local Ray instance" if address == LOCAL else f"on {address}"
    console.print(
        f"Training the {target} network: {rounds} round{'s' * (rounds != 1)} of {deals} deals, "
        f"{config.held_out} held-out deals, seed {seed}, hidden {escape(hidden or '64,32')}, {escape(where)}"
        + (", resuming" if resume else "")
    )

    def show_baseline(baseline: Baseline) -> None:
        fitted = baseline.fitted_trick_start_loss
        console.print(
            f"held-out: {baseline.examples:,} positions ({baseline.trick_starts:,} trick starts); "
            f"mean outcome MSE {baseline.mean_loss:.3f}, fitted evaluation on trick starts {fitted:.3f}"
            if fitted is not None
            else f"held-out: {baseline.examples:,} alternatives; MSE of predicting the mean gain "
            f"{baseline.mean_loss:.3f}"
        )

    def show_round(report: RoundReport) -> None:
        loss = report.held_out_trick_start_loss
        starts = f" (trick starts {loss:.3f})" if loss is not None else ""
        console.print(
            f"round {report.round}/{rounds}: {report.examples:,} examples, train loss "
            f"{report.train_loss:.3f}, held-out loss {report.held_out_loss:.3f}{starts}, "
            f"{report.seconds:.1f} s"
        )

    try:
        with (
            _ray_connected(address) as mapper,
            progress_bar(console, transient=True) as progress,
        ):
            task = progress.add_task("self-play deals", total=None)
            train(
                config,
                out,
                resume=resume,
                mapper=mapper or local_map,
                on_baseline=show_baseline,
                on_round=show_round,
                progress=lambda done: progress.advance(task, done),
            )
    except TrainingError as error:
        console.print(f"[bold red]Training stopped[/]: {escape(str(error))}")
        raise typer.Exit(1) from None
    except ConnectionError as error:
        console.print(f"[bold red]Cannot reach Ray[/] at {escape(str(address))}: {escape(str(error))}")
        raise typer.Exit(1) from None
    console.print(f"Wrote {escape(str(out))}: checkpoint.npz, {TARGETS[target].network}, progress.json.")


@contextlib.contextmanager
def _ray_connected(address: str | None) -> Iterator[Mapper | None]:
    """Connected to Ray at ``address`` inside the block, yielding its mapper; no address: ``None``."""
    if address is None:
        yield None
        return
    from cardroom.arena.ray_backend import ray_map, ray_session

    with ray_session(address):
        yield ray_map
