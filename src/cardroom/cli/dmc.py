"""``cardroom train --algo dmc``: the Deep Monte-Carlo learner (:mod:`cardroom.rl.dmc.learner`) with its
actors here or on Ray, printing each round's figures and each evaluation."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from pathlib import Path

import typer
from rich.markup import escape

from cardroom.arena.ray_backend import LOCAL
from cardroom.cli.options import open_console


def run_dmc(
    out: Path,
    *,
    resume: bool,
    seed: int,
    batch: int,
    learning_rate: float,
    hidden: tuple[int, ...],
    frames: int,
    hours: float | None,
    actors: int,
    tables: int,
    steps: int,
    epsilon: float,
    rules: str,
    eval_every: int,
    eval_deals: int,
    checkpoint_every: int,
    device: str,
    threads: int,
    address: str | None,
) -> None:
    """Train (or resume) a DMC run in ``out``; ``address`` ``None`` keeps the actors in this process."""
    try:
        import torch  # noqa: F401 - fail early, naming the extra
    except ImportError:
        raise typer.BadParameter(
            "--algo dmc needs PyTorch: pip install 'cardroom[train]' (the CPU build: "
            "pip install torch --index-url https://download.pytorch.org/whl/cpu)",
            param_hint="--algo",
        ) from None
    from cardroom.rl.dmc.evaluation import Evaluation
    from cardroom.rl.dmc.learner import DmcConfig, TrainingError, train_dmc
    from cardroom.rl.dmc.learner import RoundReport as Report

    try:
        config = DmcConfig(
            frames=frames,
            hours=hours,
            actors=actors,
            tables=tables,
            steps=steps,
            batch=batch,
            learning_rate=learning_rate,
            epsilon=epsilon,
            hidden=hidden,
            rules=rules,
            seed=seed,
            eval_every=eval_every,
            eval_deals=eval_deals,
            checkpoint_every=checkpoint_every,
            device=device,
            threads=threads,
        )
    except (ValueError, KeyError) as error:
        raise typer.BadParameter(str(error).strip("'\"")) from None
    console = open_console()
    where = (
        "in this process"
        if address is None
        else "on a local Ray instance"
        if address == LOCAL
        else f"on {address}"
    )
    console.print(
        f"DMC: {frames:,} frames{f' or {hours} h' if hours else ''}, {actors} actor{'s' * (actors != 1)} × "
        f"{tables} tables {escape(where)}, {rules}, hidden {','.join(map(str, hidden))}, device {device}, "
        f"seed {seed}" + (", resuming" if resume else "")
    )

    def show_round(report: Report) -> None:
        if report.round % 20 == 0:
            console.print(
                f"round {report.round}: {report.frames:,} frames, {report.frames_per_second:,.0f} frames/s, "
                f"loss {report.loss:.3f}, {report.seconds / 60:.1f} min"
            )

    def show_evaluation(done: int, results: list[Evaluation]) -> None:
        console.print(
            f"evaluation at {done:,} frames: "
            + "; ".join(
                f"vs {result.opponent} {100 * result.win_rate:.1f}% of deals "
                f"[{100 * result.win_low:.1f}, {100 * result.win_high:.1f}], "
                f"{result.level_gain:+.2f} levels a deal"
                for result in results
            )
        )

    try:
        with _ray(address):
            trainer = train_dmc(
                config,
                out,
                resume=resume,
                ray_address=address,
                on_round=show_round,
                on_evaluation=show_evaluation,
            )
    except TrainingError as error:
        console.print(f"[bold red]Training stopped[/]: {escape(str(error))}")
        raise typer.Exit(1) from None
    except ConnectionError as error:
        console.print(f"[bold red]Cannot reach Ray[/] at {escape(str(address))}: {escape(str(error))}")
        raise typer.Exit(1) from None
    console.print(
        f"Wrote {escape(str(out))}: checkpoint.pt, dmc.npz (the dmc bot's policy: CARDROOM_DMC_WEIGHTS), "
        f"log.csv, evaluation.csv, curve.png; {trainer.frames:,} frames in {trainer.seconds / 60:.1f} min."
    )


@contextlib.contextmanager
def _ray(address: str | None) -> Iterator[None]:
    if address is None:
        yield
        return
    from cardroom.arena.ray_backend import ray_session

    with ray_session(address):
        yield


__all__ = ["run_dmc"]
