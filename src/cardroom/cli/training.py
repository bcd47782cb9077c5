"""``cardroom train``: the value network trained on heuristic self-play, or the distilled network on the
search's own decisions (:mod:`cardroom.bots.training`), here or on Ray."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer
from rich.markup import escape

from cardroom.arena.ray_backend import LOCAL
from cardroom.cli.options import RayAddress, RayFlag, open_console, progress_bar, ray_address_of

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
    batch: Annotated[int, typer.Option(min=1, help="Positions per Adam step.")] = 256,
    learning_rate: Annotated[float, typer.Option(help="Adam's step size (above 0).")] = 1e-3,
    hidden: Annotated[str, typer.Option(help="Hidden layer sizes, separated by commas.")] = "64,32",
    held_out_deals: Annotated[
        int, typer.Option(min=0, help="Deals of the held-out set (0: a quarter of --deals).")
    ] = 0,
    ray: RayFlag = False,
    ray_address: RayAddress = None,
) -> None:
    """Train the value network of the `value` bot on heuristic self-play, or (`--target distilled`) the
    network of the `distilled` bot on search self-play, with checkpoints.

    Every round plays DEALS fresh deals, keeps each play-phase position with the deal's real outcome (or
    each alternative the search weighed, with the gain it measured) and trains the network on them; a
    held-out set measures it. After each round OUT/checkpoint.npz, OUT/value.npz (load it with ValueBot;
    OUT/distilled.npz with DistilledBot) and OUT/progress.json are written; `--resume` continues a
    stopped run to the same result (docs/bots.md, "The learned value network", "The search distilled").
    """
    from cardroom.bots.training import TARGETS, TrainConfig, TrainingError, local_map, train

    if target not in TARGETS:
        raise typer.BadParameter(f"--target must be one of {', '.join(TARGETS)}; got {target!r}")
    if learning_rate <= 0:
        raise typer.BadParameter(f"the learning rate must be above 0, got {learning_rate}")
    address = ray_address_of(ray, ray_address)
    config = TrainConfig(
        deals,
        rounds,
        seed=seed,
        epochs=epochs,
        batch=batch,
        rate=learning_rate,
        hidden=hidden_sizes(hidden),
        held_out_deals=held_out_deals,
        target=target,
    )
    console = open_console()
    where = "here" if address is None else "on a local Ray instance" if address == LOCAL else f"on {address}"
    console.print(
        f"Training the {target} network: {rounds} round{'s' * (rounds != 1)} of {deals} deals, "
        f"{config.held_out} held-out deals, seed {seed}, hidden {escape(hidden)}, {escape(where)}"
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
