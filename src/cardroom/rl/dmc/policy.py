"""The trained Q network in NumPy: what the ``dmc`` bot plays by, with no PyTorch and no network access.

Q(observation, entry) = ⟨f(observation), g(entry)⟩ + b(entry): ``f`` is the trunk, a ReLU MLP over the
observation vector (:mod:`cardroom.rl.encoding`); ``g`` and ``b`` are computed once per entry of the
action table by the training network (:mod:`cardroom.rl.dmc.network`) and stored as the matrix
``actions`` and the vector ``bias``. Saved as a versioned ``.npz`` (weights as float16, read back as
float32) with a JSON ``meta`` entry saying how it was trained.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any, Final

import numpy as np
import numpy.typing as npt

from cardroom.rl.actions import NUM_ACTIONS
from cardroom.rl.encoding import OBSERVATION_SIZE

FORMAT: Final = "cardroom-dmc-policy"
VERSION: Final = 1
SPARSE_ROWS: Final = 4
"""Batches up to this many rows take the first layer as sums of weight rows."""

Array = npt.NDArray[np.float32]


class PolicyFormatError(ValueError):
    """A saved policy this version cannot read (another format or version, or shapes that do not fit
    the observation vector and the action table)."""


@dataclass(frozen=True)
class QPolicy:
    """The trunk's layers (weights ``(inputs, outputs)`` and biases, ReLU after each), each entry's
    vector ``actions`` ``(NUM_ACTIONS, width)`` and ``bias`` ``(NUM_ACTIONS,)``; ``meta`` holds how it
    was trained (JSON values)."""

    layers: tuple[tuple[Array, Array], ...]
    actions: Array
    bias: Array
    meta: dict[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if not self.layers:
            raise PolicyFormatError("a policy needs at least one trunk layer")
        inputs = OBSERVATION_SIZE
        for weights, biases in self.layers:
            if weights.shape[0] != inputs or biases.shape != (weights.shape[1],):
                raise PolicyFormatError(f"a layer of shape {weights.shape} does not follow {inputs} inputs")
            inputs = weights.shape[1]
        if self.actions.shape != (NUM_ACTIONS, inputs) or self.bias.shape != (NUM_ACTIONS,):
            raise PolicyFormatError(
                f"the entries' vectors must be ({NUM_ACTIONS}, {inputs}) and the bias ({NUM_ACTIONS},), got "
                f"{self.actions.shape} and {self.bias.shape}"
            )

    def features(self, observations: npt.NDArray[Any]) -> Array:
        """The trunk's output for a batch of observation vectors ``(rows, OBSERVATION_SIZE)``. A few
        rows of zeros and ones (a bot's decision) take the first layer as a sum of the weights' rows
        where the observation holds a one: a tenth of the work of the product."""
        rows = np.asarray(observations)
        (weights, biases), *rest = self.layers
        if len(rows) <= SPARSE_ROWS:
            hidden = np.stack([weights[np.flatnonzero(row)].sum(axis=0) for row in rows]) + biases
        else:
            hidden = rows.astype(np.float32) @ weights + biases
        hidden = np.maximum(hidden, 0.0)
        for weights, biases in rest:
            hidden = np.maximum(hidden @ weights + biases, 0.0)
        return hidden

    def q_values(self, observations: npt.NDArray[Any]) -> Array:
        """Q of every entry for a batch of observation vectors: ``(rows, NUM_ACTIONS)``."""
        return self.features(observations) @ self.actions.T + self.bias

    def choose(self, observations: npt.NDArray[Any], masks: npt.NDArray[Any]) -> npt.NDArray[np.int64]:
        """The legal entry of highest Q in each row (ties to the lowest index)."""
        q = np.where(np.asarray(masks) != 0, self.q_values(observations), -np.inf)
        return np.asarray(q.argmax(axis=1), dtype=np.int64)

    def save(self, target: str | Path | IO[bytes]) -> None:
        """Write the ``.npz`` (weights as float16)."""
        arrays: dict[str, Any] = {
            "format": np.array(FORMAT),
            "version": np.array(VERSION),
            "meta": np.array(json.dumps(self.meta, sort_keys=True)),
            "actions": self.actions.astype(np.float16),
            "bias": self.bias.astype(np.float16),
        }
        for number, (weights, biases) in enumerate(self.layers):
            arrays[f"layer{number}_weights"] = weights.astype(np.float16)
            arrays[f"layer{number}_bias"] = biases.astype(np.float16)
        np.savez_compressed(target, **arrays)

    @classmethod
    def load(cls, source: str | Path | IO[bytes]) -> QPolicy:
        """Read a saved policy; :class:`PolicyFormatError` names what does not fit."""
        try:
            with np.load(source, allow_pickle=False) as saved:
                arrays = {name: saved[name] for name in saved.files}
        except (OSError, ValueError) as error:
            raise PolicyFormatError(f"not a saved policy: {error}") from None
        if str(arrays.get("format", "")) != FORMAT:
            raise PolicyFormatError(f"not a {FORMAT} file")
        if int(arrays.get("version", -1)) != VERSION:
            raise PolicyFormatError(
                f"a policy of version {int(arrays.get('version', -1))}; this reads {VERSION}"
            )
        layers: list[tuple[Array, Array]] = []
        while f"layer{len(layers)}_weights" in arrays:
            number = len(layers)
            layers.append(
                (
                    arrays[f"layer{number}_weights"].astype(np.float32),
                    arrays[f"layer{number}_bias"].astype(np.float32),
                )
            )
        meta = json.loads(str(arrays["meta"]))
        return cls(
            tuple(layers), arrays["actions"].astype(np.float32), arrays["bias"].astype(np.float32), meta
        )


def policy_of(
    layers: Sequence[tuple[Array, Array]], actions: Array, bias: Array, meta: dict[str, Any]
) -> QPolicy:
    """A policy from float arrays (the training network's export)."""
    return QPolicy(
        tuple((np.asarray(w, dtype=np.float32), np.asarray(b, dtype=np.float32)) for w, b in layers),
        np.asarray(actions, dtype=np.float32),
        np.asarray(bias, dtype=np.float32),
        dict(meta),
    )


__all__ = ["FORMAT", "VERSION", "PolicyFormatError", "QPolicy", "policy_of"]
