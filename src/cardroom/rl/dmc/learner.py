"""The Deep Monte-Carlo learner (``cardroom train --algo dmc``, docs/rl.md "Deep Monte-Carlo").

Training goes in rounds. In round ``r`` every actor plays ``steps`` steps of its tables under the
weights the learner had after round ``r - 2`` (the first two rounds under the initial weights), while
the learner trains on round ``r - 1``'s samples: each sample once, shuffled, in batches, Adam on the
squared error between Q(observation, chosen entry) and the deal's reward. The schedule is fixed, so
where the actors run (here or on Ray) and how fast changes nothing but the time.

After each round the learner appends a line to ``log.csv`` (frames, frames per second, loss); every
``eval_every`` frames it plays the duplicate arena against ``random`` and ``heuristic``
(:mod:`~cardroom.rl.dmc.evaluation`), appends to ``evaluation.csv`` and redraws ``curve.png``; and every
``checkpoint_every`` frames (and at the end) it writes ``checkpoint.pt`` (the network, the optimiser,
the generator, the samples of the round to train next and every actor's state) and ``dmc.npz`` (the
policy the ``dmc`` bot plays). A run resumed from its checkpoint trains on the same next batch and goes
on as if it had never stopped.
"""

from __future__ import annotations

import csv
import dataclasses
import json
import os
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final

import numpy as np
import numpy.typing as npt
import torch

from cardroom.rl.dmc.actor import Actor, Samples
from cardroom.rl.dmc.evaluation import (
    EVALUATION_COLUMNS,
    OPPONENTS,
    Evaluation,
    draw_curve,
    evaluate,
    read_evaluations,
)
from cardroom.rl.dmc.network import DEFAULT_HIDDEN, QNetwork, numpy_weights
from cardroom.rl.dmc.policy import QPolicy
from cardroom.rl.dmc.remote import Actors, LocalActors, RayActors
from cardroom.rl.session import rules_of

CHECKPOINT: Final = "checkpoint.pt"
POLICY: Final = "dmc.npz"
LOG: Final = "log.csv"
EVALUATIONS: Final = "evaluation.csv"
CURVE: Final = "curve.png"
CONFIG: Final = "config.json"
LOG_COLUMNS: Final = ("round", "frames", "seconds", "frames_per_second", "loss", "deals", "agent_steps")
MAX_GRAD_NORM: Final = 40.0
"""Gradient norm clip (DouZero's)."""


class TrainingError(RuntimeError):
    """A run that cannot start or go on (a resume without a checkpoint, other settings, a device that
    is not there)."""


@dataclass(frozen=True)
class DmcConfig:
    """Everything that decides a run's numbers (``frames``, ``hours``, ``eval_*`` and
    ``checkpoint_every`` aside, which say when to stop, measure and save)."""

    frames: int = 10_000_000
    hours: float | None = None
    actors: int = 1
    tables: int = 256
    steps: int = 32
    batch: int = 1024
    learning_rate: float = 3e-4
    epsilon: float = 0.01
    hidden: tuple[int, ...] = DEFAULT_HIDDEN
    rules: str = "competition"
    seed: int = 1
    eval_every: int = 1_000_000
    eval_deals: int = 200
    checkpoint_every: int = 1_000_000
    device: str = "cpu"
    threads: int = 1

    def __post_init__(self) -> None:
        for name in ("frames", "actors", "tables", "steps", "batch", "eval_deals", "threads"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int) or value < 1:
                raise ValueError(f"{name} must be a whole number ≥ 1, got {value!r}")
        for name in ("eval_every", "checkpoint_every"):
            if getattr(self, name) < 0:
                raise ValueError(f"{name} must be ≥ 0 (0: never), got {getattr(self, name)!r}")
        if not self.learning_rate > 0:
            raise ValueError(f"the learning rate must be above 0, got {self.learning_rate}")
        if not 0 <= self.epsilon <= 1:
            raise ValueError(f"epsilon is a probability, got {self.epsilon}")
        if self.hours is not None and not self.hours > 0:
            raise ValueError(f"hours must be above 0, got {self.hours}")
        rules_of(self.rules)

    def decisive(self) -> dict[str, Any]:
        """The settings a resumed run must share with the run it continues."""
        values = dataclasses.asdict(self)
        for name in ("frames", "hours", "eval_every", "eval_deals", "checkpoint_every", "device", "threads"):
            values.pop(name)
        values["hidden"] = list(self.hidden)
        return values


@dataclass(frozen=True)
class RoundReport:
    """One round: its number, frames trained in all, wall-clock seconds since the run began (resumed
    runs count on), the round's frames per second (its samples over the time it took to train on them
    and collect the next, evaluations aside), its mean loss, deals ended and agent steps in its
    samples."""

    round: int
    frames: int
    seconds: float
    frames_per_second: float
    loss: float
    deals: int
    agent_steps: int


def actor_seeds(seed: int, count: int) -> list[int]:
    """Each actor's seed, drawn from the run's."""
    states = np.random.SeedSequence([seed, 1]).generate_state(count, np.uint64)
    return [int(value) for value in states]


class Trainer:
    """One run in the folder ``out``: fresh, or ``resume``-d from its checkpoint."""

    def __init__(
        self,
        config: DmcConfig,
        out: Path,
        *,
        resume: bool = False,
        ray_address: str | None = None,
    ) -> None:
        self.config = config
        self.out = out
        torch.set_num_threads(config.threads)
        if config.device != "cpu" and config.device.startswith("cuda") and not torch.cuda.is_available():
            raise TrainingError(
                f"--device {config.device}: no CUDA device (PyTorch's CUDA build and a GPU are needed)"
            )
        try:
            self.device = torch.device(config.device)
        except RuntimeError as error:
            raise TrainingError(f"--device {config.device}: {error}") from None
        torch.manual_seed(config.seed)
        self.network = QNetwork(config.hidden).to(self.device)
        self.optimizer = torch.optim.Adam(self.network.parameters(), lr=config.learning_rate)
        self.rng = np.random.default_rng(np.random.SeedSequence([config.seed, 2]))
        options: dict[str, Any] = {
            "tables": config.tables,
            "rules": config.rules,
            "epsilon": config.epsilon,
            "hidden": config.hidden,
            "threads": config.threads,
        }
        seeds = actor_seeds(config.seed, config.actors)
        self.actors: Actors
        if ray_address is None:
            self.actors = LocalActors([Actor(seed, **options) for seed in seeds])
        else:
            self.actors = RayActors(config.actors, {**options, "seeds": seeds})
        self.round = 0
        self.frames = 0
        self.seconds_before = 0.0
        """Wall-clock seconds of the run before this process took it up (a resumed run's)."""
        self._clock = time.monotonic()
        self.next_evaluation = 0
        self.next_checkpoint = config.checkpoint_every
        self.pending: Samples | None = None
        """The samples the next round trains on."""
        self.held: Samples | None = None
        """The actors' rollout already collected (by a checkpoint): the next round's collect."""
        out.mkdir(parents=True, exist_ok=True)
        if resume:
            self._restore()
        elif (out / CHECKPOINT).exists():
            raise TrainingError(
                f"{out} already holds a run (checkpoint.pt): resume it or choose another folder"
            )
        else:
            (out / CONFIG).write_text(json.dumps(self.config.decisive(), indent=2) + "\n", encoding="utf-8")

    # -- the rounds ----------------------------------------------------------------------------------

    def start(self) -> None:
        """A fresh run: have the actors make the first round's samples and start the second's under the
        same weights. A resumed run holds both already."""
        if self.pending is not None:
            return
        weights = self._weights()
        self.actors.launch(weights, self.config.steps)
        self.pending = Samples.join(self.actors.collect())
        self.actors.launch(weights, self.config.steps)

    def _collect(self) -> Samples:
        if self.held is not None:
            held, self.held = self.held, None
            return held
        return Samples.join(self.actors.collect())

    def batches(self, samples: Samples, rng: np.random.Generator) -> Iterator[tuple[torch.Tensor, ...]]:
        """A round's batches: its samples shuffled by ``rng``, cut into ``batch``-sized pieces."""
        order = rng.permutation(len(samples))
        size = self.config.batch
        for start in range(0, len(order), size):
            chosen = order[start : start + size]
            yield (
                torch.from_numpy(samples.observations[chosen]).to(self.device, torch.float32),
                torch.from_numpy(samples.actions[chosen]).to(self.device),
                torch.from_numpy(samples.targets[chosen]).to(self.device),
            )

    def peek_batch(self) -> tuple[torch.Tensor, ...] | None:
        """The first batch the next round will train on (nothing is consumed)."""
        if self.pending is None or not len(self.pending):
            return None
        preview = np.random.default_rng()
        preview.bit_generator.state = self.rng.bit_generator.state
        return next(self.batches(self.pending, preview))

    def train_round(self) -> RoundReport:
        """Train on the pending samples, collect the actors' next ones and start the round after."""
        if self.pending is None:
            raise RuntimeError("start() the trainer first")
        began = time.perf_counter()
        samples = self.pending
        losses = []
        self.network.train()
        for observations, actions, targets in self.batches(samples, self.rng):
            loss = torch.nn.functional.mse_loss(self.network(observations, actions), targets)
            self.optimizer.zero_grad()
            loss.backward()  # type: ignore[no-untyped-call]
            torch.nn.utils.clip_grad_norm_(self.network.parameters(), MAX_GRAD_NORM)
            self.optimizer.step()
            losses.append(float(loss.detach()))
        self.network.eval()
        self.round += 1
        self.frames += len(samples)
        self.pending = self._collect()
        self.actors.launch(self._weights(), self.config.steps)
        took = time.perf_counter() - began
        report = RoundReport(
            self.round,
            self.frames,
            self.seconds,
            len(samples) / took if took > 0 else 0.0,
            float(np.mean(losses)) if losses else float("nan"),
            samples.deals,
            samples.steps,
        )
        self._log(report)
        return report

    @property
    def seconds(self) -> float:
        """Wall-clock seconds of the run so far (evaluations and checkpoints included; resumed runs count
        on from where they stopped)."""
        return self.seconds_before + time.monotonic() - self._clock

    def _weights(self) -> dict[str, npt.NDArray[np.float32]]:
        if self.device.type == "cpu":
            return numpy_weights(self.network)
        weights = numpy_weights(self.network.to("cpu"))
        self.network.to(self.device)
        return weights

    def run(
        self,
        on_round: Callable[[RoundReport], None] | None = None,
        on_evaluation: Callable[[int, list[Evaluation]], None] | None = None,
    ) -> None:
        """Train until ``frames`` (or ``hours``), evaluating and checkpointing on schedule."""
        config = self.config
        deadline = None if config.hours is None else time.monotonic() + config.hours * 3600
        self.start()
        if self.frames == 0 and config.eval_every:
            self._evaluate(on_evaluation)
        while self.frames < config.frames and (deadline is None or time.monotonic() < deadline):
            report = self.train_round()
            if on_round is not None:
                on_round(report)
            if config.eval_every and self.frames >= self.next_evaluation:
                self._evaluate(on_evaluation)
            if config.checkpoint_every and self.frames >= self.next_checkpoint:
                self.checkpoint()
                while self.next_checkpoint <= self.frames:
                    self.next_checkpoint += config.checkpoint_every
        self.checkpoint()

    # -- measuring ----------------------------------------------------------------------------------

    def evaluate(self) -> list[Evaluation]:
        """The current policy against each opponent in the duplicate arena."""
        policy, rules = self.policy(), rules_of(self.config.rules)
        return [evaluate(policy, opponent, self.config.eval_deals, rules) for opponent in OPPONENTS]

    def _evaluate(self, on_evaluation: Callable[[int, list[Evaluation]], None] | None) -> None:
        results = self.evaluate()
        path = self.out / EVALUATIONS
        fresh = not path.exists()
        with path.open("a", newline="", encoding="utf-8") as file:
            writer = csv.writer(file)
            if fresh:
                writer.writerow(EVALUATION_COLUMNS)
            for result in results:
                writer.writerow(
                    (
                        self.frames,
                        f"{self.seconds:.1f}",
                        result.opponent,
                        result.deals,
                        *(f"{value:.4f}" for value in dataclasses.astuple(result)[2:]),
                    )
                )
        draw_curve(read_evaluations(path), self.out / CURVE, self._curve_title())
        if on_evaluation is not None:
            on_evaluation(self.frames, results)
        while self.next_evaluation <= self.frames:
            self.next_evaluation += max(1, self.config.eval_every)

    def _curve_title(self) -> str:
        return f"DMC, {self.config.rules} ({self.out.name})"

    def _log(self, report: RoundReport) -> None:
        path = self.out / LOG
        fresh = not path.exists()
        with path.open("a", newline="", encoding="utf-8") as file:
            writer = csv.writer(file)
            if fresh:
                writer.writerow(LOG_COLUMNS)
            writer.writerow(
                (
                    report.round,
                    report.frames,
                    f"{report.seconds:.1f}",
                    f"{report.frames_per_second:.0f}",
                    f"{report.loss:.5f}",
                    report.deals,
                    report.agent_steps,
                )
            )

    # -- checkpoints ----------------------------------------------------------------------------------

    def checkpoint(self) -> None:
        """Write ``checkpoint.pt`` and ``dmc.npz``, each replaced whole (written aside, then renamed).
        The actors' rollout in flight is collected first (and held for the next round), so their saved
        state is the one after it."""
        assert self.pending is not None
        if self.held is None:
            self.held = Samples.join(self.actors.collect())
        state = {
            "config": self.config.decisive(),
            "round": self.round,
            "frames": self.frames,
            "seconds": self.seconds,
            "next_evaluation": self.next_evaluation,
            "next_checkpoint": self.next_checkpoint,
            "network": self.network.state_dict(),
            "optimizer": self.optimizer.state_dict(),
            "rng": self.rng.bit_generator.state,
            "pending": dataclasses.asdict(self.pending),
            "held": dataclasses.asdict(self.held),
            "actors": self.actors.states(),
        }
        aside = self.out / (CHECKPOINT + ".writing")
        torch.save(state, aside)
        os.replace(aside, self.out / CHECKPOINT)
        aside = self.out / (POLICY + ".writing.npz")
        self.policy().save(aside)
        os.replace(aside, self.out / POLICY)

    def policy(self) -> QPolicy:
        """The current weights as the NumPy policy the ``dmc`` bot plays, with how they were trained."""
        meta = {
            "frames": self.frames,
            "rounds": self.round,
            "seconds": round(self.seconds),
            **self.config.decisive(),
        }
        if self.device.type == "cpu":
            return self.network.policy(meta)
        made = self.network.to("cpu").policy(meta)
        self.network.to(self.device)
        return made

    def _restore(self) -> None:
        path = self.out / CHECKPOINT
        if not path.exists():
            raise TrainingError(f"nothing to resume: {path} does not exist")
        state = torch.load(path, map_location=self.device, weights_only=False)
        if state["config"] != self.config.decisive():
            different = sorted(
                name for name in state["config"] if state["config"][name] != self.config.decisive().get(name)
            )
            raise TrainingError(f"the run in {self.out} was made with other settings: {', '.join(different)}")
        self.round = state["round"]
        self.frames = state["frames"]
        self.seconds_before = state["seconds"]
        self._clock = time.monotonic()
        self.next_evaluation = state["next_evaluation"]
        self.next_checkpoint = state["next_checkpoint"]
        self.network.load_state_dict(state["network"])
        self.optimizer.load_state_dict(state["optimizer"])
        self.rng.bit_generator.state = state["rng"]
        self.pending = Samples(**state["pending"])
        self.held = Samples(**state["held"])
        self.actors.set_states(state["actors"])
        self._forget_after_checkpoint()

    def _forget_after_checkpoint(self) -> None:
        """Drop the lines ``log.csv`` and ``evaluation.csv`` got after the checkpoint (a run stopped
        between checkpoints), and redraw the curve: the resumed run writes them again, so each round and
        evaluation is there once."""
        for name, column, last in ((LOG, "round", self.round), (EVALUATIONS, "frames", self.frames)):
            path = self.out / name
            if not path.exists():
                continue
            with path.open(newline="", encoding="utf-8") as file:
                rows = list(csv.reader(file))
            if not rows:
                continue
            index = rows[0].index(column)
            kept = [rows[0], *(row for row in rows[1:] if int(row[index]) <= last)]
            if len(kept) < len(rows):
                with path.open("w", newline="", encoding="utf-8") as file:
                    csv.writer(file).writerows(kept)
                if name == EVALUATIONS:
                    draw_curve(read_evaluations(path), self.out / CURVE, self._curve_title())


def train_dmc(
    config: DmcConfig,
    out: Path,
    *,
    resume: bool = False,
    ray_address: str | None = None,
    on_round: Callable[[RoundReport], None] | None = None,
    on_evaluation: Callable[[int, list[Evaluation]], None] | None = None,
) -> Trainer:
    """Run (or resume) a training run in ``out``; returns the trainer at its end."""
    trainer = Trainer(config, out, resume=resume, ray_address=ray_address)
    trainer.run(on_round, on_evaluation)
    return trainer


__all__ = ["DmcConfig", "RoundReport", "Trainer", "TrainingError", "train_dmc"]
