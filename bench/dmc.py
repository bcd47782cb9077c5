"""Throughput of Deep Monte-Carlo training (docs/rl.md, "Deep Monte-Carlo"): frames (decisions trained
on) per second of the whole loop with its actors in this process and as 1 and 2 Ray actors, and the
two halves on their own (one actor's samples per second, the learner's per second on ready samples), from
which the rate with more actors is projected. Prints Markdown tables.

Run with ``python -m bench.dmc [--seconds 60] [--warmup-rounds 30]``; needs the ``train`` and ``ray``
extras. Every figure uses one PyTorch thread per process.
"""

from __future__ import annotations

import argparse
import tempfile
import time
from pathlib import Path

import numpy as np
import torch

from cardroom.arena.ray_backend import ray_session
from cardroom.rl.dmc.actor import Actor, Samples
from cardroom.rl.dmc.learner import DmcConfig, Trainer


def loop_rate(config: DmcConfig, ray: bool, seconds: float, warmup: int) -> tuple[int, float]:
    """(frames, seconds) of the training loop after ``warmup`` rounds (the deals of a fresh run are long
    at first, while the network passes most of the time)."""
    with tempfile.TemporaryDirectory() as folder:
        trainer = Trainer(config, Path(folder), ray_address="local" if ray else None)
        trainer.start()
        for _ in range(warmup):
            trainer.train_round()
        frames, start = trainer.frames, time.perf_counter()
        while time.perf_counter() - start < seconds:
            trainer.train_round()
        return trainer.frames - frames, time.perf_counter() - start


def actor_rate(config: DmcConfig, seconds: float, warmup: int) -> tuple[int, int, float]:
    """(samples, agent steps, seconds) of one actor's rollouts on its own, under weights trained for
    ``warmup`` rounds."""
    with tempfile.TemporaryDirectory() as folder:
        trainer = Trainer(config, Path(folder))
        trainer.start()
        for _ in range(warmup):
            trainer.train_round()
        weights = {
            name: value.detach().numpy().copy() for name, value in trainer.network.state_dict().items()
        }
    actor = Actor(1, config.tables, config.rules, epsilon=config.epsilon, hidden=config.hidden)
    actor.set_weights(weights)
    for _ in range(warmup):
        actor.rollout(config.steps)
    samples = steps = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        made = actor.rollout(config.steps)
        samples += len(made)
        steps += made.steps
    return samples, steps, time.perf_counter() - start


def learner_rate(config: DmcConfig, seconds: float) -> tuple[int, float]:
    """(frames, seconds) of the learner's updates alone, on ready samples."""
    with tempfile.TemporaryDirectory() as folder:
        trainer = Trainer(config, Path(folder))
        rng = np.random.default_rng(0)
        rows = 8 * config.batch
        samples = Samples(
            (rng.random((rows, 2011)) < 0.1).astype(np.int8),
            rng.integers(0, 1236, rows),
            rng.choice(np.array([-3, -2, -1, 1, 2, 3], dtype=np.float32), rows),
            0,
            0,
        )
        frames, start = 0, time.perf_counter()
        while time.perf_counter() - start < seconds:
            for observations, actions, targets in trainer.batches(samples, rng):
                loss = torch.nn.functional.mse_loss(trainer.network(observations, actions), targets)
                trainer.optimizer.zero_grad()
                loss.backward()  # type: ignore[no-untyped-call]
                trainer.optimizer.step()
                frames += len(actions)
        return frames, time.perf_counter() - start


def main(argv: list[str] | None = None) -> dict[str, float]:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seconds", type=float, default=60.0, help="seconds measured a row")
    parser.add_argument("--warmup-rounds", type=int, default=30, help="rounds before measuring")
    parser.add_argument("--tables", type=int, default=256)
    parser.add_argument("--no-ray", action="store_true", help="skip the Ray rows")
    arguments = parser.parse_args(argv)
    seconds, warmup = arguments.seconds, arguments.warmup_rounds
    torch.set_num_threads(1)
    base = DmcConfig(tables=arguments.tables, eval_every=0, checkpoint_every=0)
    rates: dict[str, float] = {}
    print(
        f"DMC, {base.tables} tables an actor, {base.steps} steps a round, batch {base.batch}, "
        f"hidden {base.hidden}\n"
    )
    print("| what | frames | seconds | frames/s |\n|---|---|---|---|")
    samples, steps, took = actor_rate(base, seconds, warmup)
    rates["actor"] = samples / took
    print(
        f"| one actor alone ({steps / took:,.0f} agent steps/s) | {samples:,} | {took:.0f} "
        f"| {samples / took:,.0f} |"
    )
    frames, took = learner_rate(base, seconds)
    rates["learner"] = frames / took
    print(
        f"| the learner alone (updates on ready samples) | {frames:,} | {took:.0f} | {frames / took:,.0f} |"
    )
    frames, took = loop_rate(base, False, seconds, warmup)
    rates["local"] = frames / took
    print(
        f"| the loop, 1 actor in this process (one core) | {frames:,} | {took:.0f} | {frames / took:,.0f} |"
    )
    if not arguments.no_ray:
        with ray_session():
            for actors in (1, 2):
                config = DmcConfig(**{**base.__dict__, "actors": actors})
                frames, took = loop_rate(config, True, seconds, warmup)
                rates[f"ray {actors}"] = frames / took
                print(
                    f"| the loop, {actors} Ray actor{'s' * (actors > 1)} + the learner | {frames:,} "
                    f"| {took:.0f} | {frames / took:,.0f} |"
                )
    print(
        "\nProjection with an actor per core and the learner on its own core: frames/s ≈ min(actors × "
        f"{rates['actor']:,.0f}, {rates['learner']:,.0f}); a learner on a GPU lifts the second bound."
    )
    for actors in (4, 16, 64):
        print(
            f"- {actors} actors: {min(actors * rates['actor'], rates['learner']):,.0f} frames/s "
            f"({actors * rates['actor']:,.0f} from the actors)"
        )
    return rates


if __name__ == "__main__":
    main()
