"""Where the actors run: in this process one after another (:class:`LocalActors`, for tests and small
runs), or as Ray actors on this machine or a cluster (:class:`RayActors`), each playing its rollout while
the learner trains on the previous one. Both answer in the actors' order, so the samples do not depend
on where they were made.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol

import numpy as np
import numpy.typing as npt

from cardroom.arena.ray_backend import import_ray
from cardroom.rl.dmc.actor import Actor, Samples

Weights = dict[str, npt.NDArray[np.float32]]


class Actors(Protocol):
    """A set of actors: start a rollout of every actor under some weights, then collect them."""

    def launch(self, weights: Weights, steps: int) -> None: ...
    def collect(self) -> list[Samples]: ...
    def states(self) -> list[dict[str, Any]]: ...
    def set_states(self, states: Sequence[dict[str, Any]]) -> None: ...


class LocalActors:
    """The actors in this process; ``collect`` plays their rollouts one after another."""

    def __init__(self, actors: Sequence[Actor]) -> None:
        self.actors = list(actors)
        self._pending: tuple[Weights, int] | None = None

    def launch(self, weights: Weights, steps: int) -> None:
        self._pending = (weights, steps)

    def collect(self) -> list[Samples]:
        if self._pending is None:
            raise RuntimeError("collect() without launch()")
        weights, steps = self._pending
        self._pending = None
        return [actor.rollout(steps, weights) for actor in self.actors]

    def states(self) -> list[dict[str, Any]]:
        return [actor.state() for actor in self.actors]

    def set_states(self, states: Sequence[dict[str, Any]]) -> None:
        if len(states) != len(self.actors):
            raise ValueError(f"{len(states)} actor states for {len(self.actors)} actors")
        for actor, state in zip(self.actors, states, strict=True):
            actor.set_state(state)


class RayActors:
    """The actors as Ray actors (one CPU each) of the Ray instance this process is connected to."""

    def __init__(self, count: int, options: dict[str, Any]) -> None:
        ray = import_ray()
        self._ray = ray
        remote = ray.remote(num_cpus=1)(Actor)
        seeds: list[int] = options.pop("seeds")
        self.actors = [remote.remote(seeds[index], **options) for index in range(count)]
        self._futures: list[Any] | None = None

    def launch(self, weights: Weights, steps: int) -> None:
        shared = self._ray.put(weights)
        self._futures = [actor.rollout.remote(steps, shared) for actor in self.actors]

    def collect(self) -> list[Samples]:
        if self._futures is None:
            raise RuntimeError("collect() without launch()")
        futures, self._futures = self._futures, None
        return list(self._ray.get(futures))

    def states(self) -> list[dict[str, Any]]:
        return list(self._ray.get([actor.state.remote() for actor in self.actors]))

    def set_states(self, states: Sequence[dict[str, Any]]) -> None:
        if len(states) != len(self.actors):
            raise ValueError(f"{len(states)} actor states for {len(self.actors)} actors")
        self._ray.get(
            [actor.set_state.remote(state) for actor, state in zip(self.actors, states, strict=True)]
        )


__all__ = ["Actors", "LocalActors", "RayActors", "Weights"]
