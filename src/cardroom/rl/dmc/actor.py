"""Self-play for Deep Monte-Carlo: one actor steps a batched environment (:class:`~cardroom.rl.vector.
VectorEnv`) with the network, epsilon-greedy, and turns every decision into a sample once its deal ends.

At every step each table's seat to act chooses: with one legal entry it takes it (no sample: nothing
was chosen); otherwise, with probability ``epsilon``, a legal entry uniformly at random, else the entry
of highest Q. The chosen (observation, entry) waits until the table's deal ends; its target is then the
deal's reward for the seat's team (the levels the 上游's team rises, negative for the other team), the
Monte-Carlo return of DouZero and DanZero. An actor's randomness is its own seeded generator, and its
whole state (the tables, the waiting decisions, the generator) can be saved and restored, so a run
resumed from a checkpoint makes the same samples.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt
import torch

from cardroom.guandan.ruleset import RuleSet
from cardroom.rl.dmc.network import QNetwork, load_numpy_weights
from cardroom.rl.encoding import OBSERVATION_SIZE
from cardroom.rl.vector import VectorEnv


@dataclass(frozen=True)
class Samples:
    """Decisions whose deals have ended: observations (int8 0/1), chosen entries, targets, and how many
    environment steps and deals the actor played to make them."""

    observations: npt.NDArray[np.int8]
    actions: npt.NDArray[np.int64]
    targets: npt.NDArray[np.float32]
    steps: int
    deals: int

    def __len__(self) -> int:
        return len(self.actions)

    @classmethod
    def join(cls, parts: list[Samples]) -> Samples:
        """The samples of several actors, in their order."""
        if not parts:
            return cls.empty()
        return cls(
            np.concatenate([part.observations for part in parts]),
            np.concatenate([part.actions for part in parts]),
            np.concatenate([part.targets for part in parts]),
            sum(part.steps for part in parts),
            sum(part.deals for part in parts),
        )

    @classmethod
    def empty(cls) -> Samples:
        return cls(
            np.zeros((0, OBSERVATION_SIZE), dtype=np.int8),
            np.zeros(0, dtype=np.int64),
            np.zeros(0, dtype=np.float32),
            0,
            0,
        )


class Actor:
    """``tables`` tables of self-play under one network; ``seed`` decides the cards, the exploration and
    the network's first weights (until :meth:`rollout` is given others)."""

    def __init__(
        self,
        seed: int,
        tables: int,
        rules: RuleSet | str = "competition",
        *,
        epsilon: float = 0.01,
        hidden: tuple[int, ...] = (512, 256),
        threads: int = 1,
    ) -> None:
        if not 0.0 <= epsilon <= 1.0:
            raise ValueError(f"epsilon is a probability, got {epsilon}")
        torch.set_num_threads(threads)
        sequence = np.random.SeedSequence(seed)
        env_seed, choice_seed, network_seed = sequence.spawn(3)
        self.env = VectorEnv(tables, rules, "deal", dtype=np.int8)
        self.env.reset(seed=int(env_seed.generate_state(1, np.uint64)[0]))
        self.rng = np.random.default_rng(choice_seed)
        self.epsilon = epsilon
        with torch.random.fork_rng(devices=[]):
            torch.manual_seed(int(network_seed.generate_state(1, np.uint64)[0]))
            self.network = QNetwork(hidden)
        self.network.eval()
        self._pool = np.zeros((tables * 64, OBSERVATION_SIZE), dtype=np.int8)
        self._pool_action = np.zeros(len(self._pool), dtype=np.int64)
        self._pool_seat = np.zeros(len(self._pool), dtype=np.int64)
        self._free: list[int] = list(range(len(self._pool) - 1, -1, -1))
        self._waiting: list[list[int]] = [[] for _ in range(tables)]

    def set_weights(self, weights: dict[str, npt.NDArray[np.float32]]) -> None:
        load_numpy_weights(self.network, weights)

    def rollout(self, steps: int, weights: dict[str, npt.NDArray[np.float32]] | None = None) -> Samples:
        """Play ``steps`` steps of every table (with ``weights`` loaded first, when given) and return
        the decisions whose deals ended meanwhile."""
        if weights is not None:
            self.set_weights(weights)
        env = self.env
        batch = env.batch
        done_observations: list[npt.NDArray[np.int8]] = []
        done_actions: list[npt.NDArray[np.int64]] = []
        done_targets: list[npt.NDArray[np.float32]] = []
        deals = 0
        for _ in range(steps):
            mask = batch.legal_action_mask
            explore = env.random_actions(self.rng)
            greedy_draw = self.rng.random(env.num_envs) >= self.epsilon
            chosen = explore.copy()
            choice = mask.sum(axis=1, dtype=np.int64) > 1
            rows = np.flatnonzero(choice & greedy_draw)
            if len(rows):
                chosen[rows] = self._greedy(batch.observation[rows], mask[rows])
            recorded = np.flatnonzero(choice)
            seats = batch.current_player[recorded].astype(np.int64)
            slots = self._take(len(recorded))
            self._pool[slots] = batch.observation[recorded]
            self._pool_action[slots] = chosen[recorded]
            self._pool_seat[slots] = seats
            for table, slot in zip(recorded.tolist(), slots.tolist(), strict=True):
                self._waiting[table].append(slot)
            env.step(chosen)
            for table in np.flatnonzero(batch.deal_over).tolist():
                deals += 1
                waiting = self._waiting[table]
                if not waiting:
                    continue
                ids = np.array(waiting, dtype=np.int64)
                done_observations.append(self._pool[ids].copy())
                done_actions.append(self._pool_action[ids].copy())
                done_targets.append(batch.rewards[table, self._pool_seat[ids]].astype(np.float32))
                self._free.extend(reversed(waiting))
                self._waiting[table] = []
        if not done_actions:
            none = Samples.empty()
            return Samples(none.observations, none.actions, none.targets, steps * env.num_envs, deals)
        return Samples(
            np.concatenate(done_observations),
            np.concatenate(done_actions),
            np.concatenate(done_targets),
            steps * env.num_envs,
            deals,
        )

    def _greedy(
        self, observations: npt.NDArray[np.int8], mask: npt.NDArray[np.int8]
    ) -> npt.NDArray[np.int64]:
        with torch.no_grad():
            q = self.network.q_values(torch.from_numpy(observations).float())
            q = q.masked_fill(torch.from_numpy(mask) == 0, float("-inf"))
            return q.argmax(dim=1).numpy().astype(np.int64)

    def _take(self, count: int) -> npt.NDArray[np.int64]:
        """``count`` free rows of the waiting pool, growing it when full."""
        if len(self._free) < count:
            grown = len(self._pool)
            self._pool = np.concatenate([self._pool, np.zeros_like(self._pool)])
            self._pool_action = np.concatenate([self._pool_action, np.zeros_like(self._pool_action)])
            self._pool_seat = np.concatenate([self._pool_seat, np.zeros_like(self._pool_seat)])
            self._free = list(range(2 * grown - 1, grown - 1, -1)) + self._free
        taken = self._free[len(self._free) - count :]
        del self._free[len(self._free) - count :]
        return np.array(taken[::-1], dtype=np.int64)

    # -- saving and restoring ---------------------------------------------------------------------

    def state(self) -> dict[str, Any]:
        """Everything the next rollout depends on but the weights: the tables, the decisions waiting
        for their deals, the generator."""
        waiting = [np.array(slots, dtype=np.int64) for slots in self._waiting]
        every = np.concatenate(waiting) if waiting else np.zeros(0, dtype=np.int64)
        return {
            "env": self.env.state(),
            "rng": self.rng.bit_generator.state,
            "counts": np.array([len(slots) for slots in waiting], dtype=np.int64),
            "observations": self._pool[every].copy(),
            "actions": self._pool_action[every].copy(),
            "seats": self._pool_seat[every].copy(),
        }

    def set_state(self, state: dict[str, Any]) -> None:
        """Restore what :meth:`state` gave (an actor made with the same options)."""
        self.env.set_state(state["env"])
        self.rng.bit_generator.state = state["rng"]
        counts = np.asarray(state["counts"], dtype=np.int64)
        if len(counts) != self.env.num_envs:
            raise ValueError(f"the state holds {len(counts)} tables; this actor has {self.env.num_envs}")
        total = int(counts.sum())
        size = max(len(self._pool), total + self.env.num_envs * 8)
        self._pool = np.zeros((size, OBSERVATION_SIZE), dtype=np.int8)
        self._pool_action = np.zeros(size, dtype=np.int64)
        self._pool_seat = np.zeros(size, dtype=np.int64)
        self._pool[:total] = state["observations"]
        self._pool_action[:total] = state["actions"]
        self._pool_seat[:total] = state["seats"]
        starts = np.concatenate(([0], np.cumsum(counts)))
        self._waiting = [list(range(int(starts[i]), int(starts[i + 1]))) for i in range(len(counts))]
        self._free = list(range(size - 1, total - 1, -1))


__all__ = ["Actor", "Samples"]
