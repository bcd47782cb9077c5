"""What the batched environments share (docs/rl.md, "The batched environment"): the arrays a step
writes (:class:`Batch`, named as Pgx names a batch of states), the tables' seeds, and the options
checked once for the compiled batch (:mod:`cardroom.rl.vector`) and its pure reference
(:mod:`cardroom.rl.vector_reference`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Final

import numpy as np
import numpy.typing as npt

from cardroom.guandan.ruleset import RuleSet
from cardroom.rl.actions import ACTION_TABLE, NUM_ACTIONS, IllegalActionError
from cardroom.rl.session import REWARDS, rules_of

PLAYERS: Final = 4
OBSERVATION_DTYPES: Final = (np.dtype(np.float32), np.dtype(np.int8))
"""The observation arrays' types: ``float32`` (as :func:`~cardroom.rl.encoding.encode_observation`
gives it) or ``int8`` (the same zeros and ones in a quarter of the memory)."""

Seeds = int | Sequence[int] | npt.NDArray[np.integer[Any]] | None


@dataclass(frozen=True)
class Batch:
    """The arrays one step (or reset) wrote, one row per table; views the environment rewrites in place
    at its next step (copy what you keep). Read-only.

    ``current_player`` is the seat to act (0-3); ``observation`` its encoded view
    (:data:`~cardroom.rl.encoding.OBSERVATION_SIZE` columns); ``legal_action_mask`` its legal entries of
    the action table; ``rewards`` each seat's reward for the step just taken (the team's: partners
    alike, opponents the negative); ``terminated`` the match ended at that step (the table has begun a
    new match); ``deal_over`` a deal ended at that step (the table has dealt the next one)."""

    current_player: npt.NDArray[np.int8]
    observation: npt.NDArray[Any]
    legal_action_mask: npt.NDArray[np.int8]
    rewards: npt.NDArray[np.float32]
    terminated: npt.NDArray[np.bool_]
    deal_over: npt.NDArray[np.bool_]


@dataclass(frozen=True)
class VectorOptions:
    """A batch's checked options: how many tables, the rule set, the reward, the match's length and the
    observations' type."""

    num_envs: int
    rules: RuleSet
    reward: str
    max_deals: int | None
    dtype: np.dtype[Any]

    @classmethod
    def of(
        cls, num_envs: int, rules: RuleSet | str, reward: str, max_deals: int | None, dtype: object
    ) -> VectorOptions:
        """Check every option, naming the one that is wrong."""
        if isinstance(num_envs, bool) or not isinstance(num_envs, int) or num_envs < 1:
            raise ValueError(f"num_envs must be a whole number of tables ≥ 1, got {num_envs!r}")
        if reward not in REWARDS:
            raise ValueError(f"reward must be one of {', '.join(REWARDS)}, got {reward!r}")
        if max_deals is not None and (isinstance(max_deals, bool) or max_deals < 1):
            raise ValueError(f"max_deals must be None or at least 1, got {max_deals!r}")
        try:
            chosen = np.dtype(dtype)  # type: ignore[call-overload]
        except TypeError:
            chosen = None
        if chosen not in OBSERVATION_DTYPES:
            raise ValueError(f"dtype must be float32 or int8, got {dtype!r}")
        return cls(num_envs, rules_of(rules), reward, max_deals, chosen)

    def describe(self) -> dict[str, Any]:
        """The options as JSON-ready values (a saved state names them)."""
        return {
            "num_envs": self.num_envs,
            "rules": self.rules.to_dict(),
            "reward": self.reward,
            "max_deals": self.max_deals,
            "dtype": self.dtype.name,
        }


def table_seeds(seed: Seeds, count: int) -> npt.NDArray[np.uint64]:
    """One 64-bit seed per table: ``count`` seeds given, or drawn from ``seed`` by NumPy's
    ``SeedSequence`` (fresh entropy for ``None``)."""
    if seed is None or isinstance(seed, int | np.integer):
        if isinstance(seed, bool):
            raise ValueError("a seed is an integer, not a bool")
        if seed is not None and int(seed) < 0:
            raise ValueError(f"a seed is ≥ 0, got {seed}")
        drawn = np.random.SeedSequence(None if seed is None else int(seed)).generate_state(count, np.uint64)
        return np.asarray(drawn, dtype=np.uint64)
    given = np.asarray(seed)
    if given.shape != (count,) or given.dtype.kind not in "iu":
        raise ValueError(
            f"seed must be an integer or {count} integers (one per table), got shape {given.shape}"
        )
    if given.dtype.kind == "i" and (given < 0).any():
        raise ValueError("table seeds are ≥ 0")
    return given.astype(np.uint64)


def checked_actions(actions: object, count: int) -> npt.NDArray[np.int64]:
    """The actions as ``count`` table indices, refusing any other shape or non-integers."""
    chosen = np.asarray(actions)
    if chosen.shape != (count,):
        raise ValueError(f"step() takes one action per table: shape ({count},), got {chosen.shape}")
    if chosen.dtype.kind not in "iu":
        raise ValueError(f"actions are table indices (integers), got dtype {chosen.dtype}")
    return np.ascontiguousarray(chosen, dtype=np.int64)


def illegal_action(table: int, action: int, seat: int) -> IllegalActionError:
    """The error for a table whose action its seat may not take now."""
    label = ACTION_TABLE[action].label if 0 <= action < NUM_ACTIONS else f"index {action}"
    return IllegalActionError(
        f"table {table}: {label} is not legal for seat {seat} now; no table was stepped"
    )


def sample_legal(mask: npt.NDArray[np.int8], uniforms: npt.NDArray[np.float64]) -> npt.NDArray[np.int64]:
    """Per row of ``mask``, its legal entry number ``floor(u × count)`` in index order, ``u`` the row's
    uniform in [0, 1): a uniform choice among the legal entries."""
    counts = mask.sum(axis=1, dtype=np.int64)
    if (counts == 0).any():
        raise ValueError("a row of the mask has no legal entry")
    picks = np.minimum((uniforms * counts).astype(np.int64), counts - 1)
    columns = np.nonzero(mask)[1]
    starts = np.concatenate(([0], np.cumsum(counts)[:-1]))
    return np.asarray(columns[starts + picks], dtype=np.int64)


__all__ = [
    "OBSERVATION_DTYPES",
    "PLAYERS",
    "Batch",
    "Seeds",
    "VectorOptions",
    "checked_actions",
    "illegal_action",
    "sample_legal",
    "table_seeds",
]
