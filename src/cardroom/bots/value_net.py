"""A learned value: a small NumPy MLP that reads a play-phase position and predicts the deal's outcome for
one seat's team, in :func:`cardroom.bots.evaluation.places_value` units.

Its input (:func:`encode`) is the fitted evaluation's per-seat features (:data:`FEATURES`, from the four
plans) for the four seats taken from the valued seat round the table (the seat, the next, the partner,
the previous), each with whether it is still in play, went out first or made the play to beat, and the
trick in play: whether there is a play to beat, its size, whether it is a bomb, its key, and the passes
since. Any play-phase position can be read, not only trick starts, so a bot can value the position one
play ahead (:mod:`cardroom.bots.value`). Trained by :mod:`cardroom.bots.training`; saved as a small
versioned ``.npz`` (:data:`FORMAT_VERSION`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from itertools import pairwise
from pathlib import Path
from typing import IO, Any

import numpy as np
import numpy.typing as npt

from cardroom.bots.evaluation import FEATURES, position_features
from cardroom.bots.planning import Planner
from cardroom.guandan.deal import Deal

Array = npt.NDArray[np.float64]

FORMAT_VERSION = 1
"""The version of the saved file; :meth:`ValueNet.load` refuses any other."""

SEAT_INPUTS = (*FEATURES, "in play", "went out first", "made the play to beat")
"""What each of the four seats contributes to the input."""
TRICK_INPUTS = ("a play to beat", "its cards", "it is a bomb", "its key (plain plays)", "passes since")
"""What the trick in play contributes."""
INPUTS = (
    *(f"{where}: {name}" for where in ("seat", "next", "partner", "previous") for name in SEAT_INPUTS),
    *TRICK_INPUTS,
)
"""The network's inputs, in order (:func:`encode`)."""
DEFAULT_HIDDEN = (64, 32)


class ValueNetFormatError(ValueError):
    """A saved network this version cannot read."""


def encode(deal: Deal, seat: int, planner: Planner) -> Array:
    """The input of the network for ``seat`` at a play-phase position (all four hands are read: pass a
    position whose hidden hands were sampled)."""
    return np.asarray(encode_all(deal, planner)[seat], dtype=np.float64)


def encode_all(deal: Deal, planner: Planner) -> Array:
    """The input for each of the four seats (row ``seat``): the plans are made once."""
    features = position_features(deal, planner)
    finished = deal.finished
    owner = deal.last_play[0] if deal.last_play is not None else -1
    per_seat = np.zeros((4, len(SEAT_INPUTS)))
    width = len(FEATURES)
    for other in range(4):
        if other in features:
            per_seat[other, :width] = features[other]
            per_seat[other, width] = 1.0
        per_seat[other, width + 1] = float(bool(finished) and finished[0] == other)
        per_seat[other, width + 2] = float(owner == other)
    trick = np.zeros(len(TRICK_INPUTS))
    if deal.last_play is not None:
        play = deal.last_play[1]
        bomb = play.kind.is_bomb
        trick[:] = (1.0, len(play.cards), float(bomb), 0.0 if bomb else play.key, deal.passes)
    rows = np.empty((4, len(INPUTS)))
    for seat in range(4):
        order = [(seat + step) % 4 for step in range(4)]
        rows[seat] = np.concatenate((per_seat[order].ravel(), trick))
    return rows


@dataclass
class ValueNet:
    """A multilayer perceptron, tanh hidden layers and a linear output, over standardised inputs
    (``(x - mean) / scale``, fixed from the first training data)."""

    weights: list[Array]
    biases: list[Array]
    mean: Array
    scale: Array

    @classmethod
    def initial(cls, inputs: int, hidden: Sequence[int] = DEFAULT_HIDDEN, seed: int = 0) -> ValueNet:
        """A fresh network (Glorot-uniform weights, zero biases, identity standardisation), the same for
        the same seed."""
        if inputs < 1 or any(size < 1 for size in hidden):
            raise ValueError(f"layer sizes must be positive, got {inputs} inputs and hidden {list(hidden)}")
        rng = np.random.default_rng(seed)
        sizes = [inputs, *hidden, 1]
        weights, biases = [], []
        for fan_in, fan_out in pairwise(sizes):
            limit = np.sqrt(6.0 / (fan_in + fan_out))
            weights.append(rng.uniform(-limit, limit, (fan_in, fan_out)))
            biases.append(np.zeros(fan_out))
        return cls(weights, biases, np.zeros(inputs), np.ones(inputs))

    @property
    def inputs(self) -> int:
        return int(self.weights[0].shape[0])

    @property
    def hidden(self) -> tuple[int, ...]:
        return tuple(int(weight.shape[1]) for weight in self.weights[:-1])

    def parameters(self) -> list[Array]:
        """The trainable arrays, in the order of :meth:`gradients`' result."""
        return [*self.weights, *self.biases]

    def standardise(self, data: Array) -> None:
        """Fix the input standardisation to ``data``'s mean and spread (constant inputs keep scale 1)."""
        self.mean = data.mean(axis=0)
        spread = data.std(axis=0)
        self.scale = np.where(spread > 1e-9, spread, 1.0)

    def predict(self, inputs: Array) -> Array:
        """The predicted outcome for each row of ``inputs`` (shape ``(n, inputs)`` → ``(n,)``)."""
        return self._forward(inputs)[0][-1][:, 0]

    def _forward(self, inputs: Array) -> tuple[list[Array], Array]:
        if inputs.ndim != 2 or inputs.shape[1] != self.inputs:
            raise ValueError(f"expected inputs of shape (n, {self.inputs}), got {inputs.shape}")
        scaled = (inputs - self.mean) / self.scale
        layers = [scaled]
        for weight, bias in zip(self.weights[:-1], self.biases[:-1], strict=True):
            layers.append(np.tanh(layers[-1] @ weight + bias))
        layers.append(layers[-1] @ self.weights[-1] + self.biases[-1])
        return layers, scaled

    def loss(self, inputs: Array, targets: Array) -> float:
        """The mean squared error of the predictions."""
        return float(np.mean((self.predict(inputs) - targets) ** 2))

    def gradients(self, inputs: Array, targets: Array) -> tuple[float, list[Array]]:
        """The mean squared error and its gradient with respect to :meth:`parameters`."""
        layers, _ = self._forward(inputs)
        error = layers[-1][:, 0] - targets
        loss = float(np.mean(error**2))
        delta = (2.0 / len(targets)) * error[:, None]
        weight_grads: list[Array] = []
        bias_grads: list[Array] = []
        for index in range(len(self.weights) - 1, -1, -1):
            weight_grads.append(layers[index].T @ delta)
            bias_grads.append(delta.sum(axis=0))
            if index > 0:
                delta = (delta @ self.weights[index].T) * (1.0 - layers[index] ** 2)
        return loss, [*reversed(weight_grads), *reversed(bias_grads)]

    def arrays(self) -> dict[str, Array]:
        """The network as named arrays (what :meth:`save` writes, with the version)."""
        named: dict[str, Array] = {"mean": self.mean, "scale": self.scale}
        for index, (weight, bias) in enumerate(zip(self.weights, self.biases, strict=True)):
            named[f"weight{index}"] = weight
            named[f"bias{index}"] = bias
        return named

    @classmethod
    def from_arrays(cls, named: Any, source: str = "the file", inputs: int = len(INPUTS)) -> ValueNet:
        """The network from :meth:`arrays` (as saved: with ``format_version``), checking the version and
        that it reads ``inputs`` inputs (:data:`INPUTS` by default)."""
        if "format_version" not in named:
            raise ValueNetFormatError(f"{source} is not a saved value network (no format_version)")
        version = int(named["format_version"])
        if version != FORMAT_VERSION:
            raise ValueNetFormatError(
                f"{source} holds a value network of format version {version}; "
                f"this cardroom reads version {FORMAT_VERSION} only"
            )
        layers = sum(1 for key in named if str(key).startswith("weight"))
        net = cls(
            [np.asarray(named[f"weight{index}"], dtype=np.float64) for index in range(layers)],
            [np.asarray(named[f"bias{index}"], dtype=np.float64) for index in range(layers)],
            np.asarray(named["mean"], dtype=np.float64),
            np.asarray(named["scale"], dtype=np.float64),
        )
        if net.inputs != inputs:
            raise ValueNetFormatError(f"{source} has {net.inputs} inputs; this encoding has {inputs}")
        return net

    def save(self, path: Path, extra: dict[str, Array] | None = None) -> None:
        """Write the network (and any ``extra`` arrays, such as an optimiser's state) to ``path``."""
        named: dict[str, Any] = {"format_version": np.array(FORMAT_VERSION), **self.arrays(), **(extra or {})}
        with path.open("wb") as file:
            np.savez_compressed(file, **named)

    @classmethod
    def load(cls, source: Path | IO[bytes], inputs: int = len(INPUTS)) -> ValueNet:
        """A network saved by :meth:`save`; :class:`ValueNetFormatError` for another version or another
        number of ``inputs``."""
        name = str(source) if isinstance(source, Path) else "the value network file"
        with np.load(source) as named:
            return cls.from_arrays(named, name, inputs)


@dataclass
class Adam:
    """Adam's moments for a network's parameters; :meth:`step` updates the network in place."""

    rate: float = 1e-3
    beta1: float = 0.9
    beta2: float = 0.999
    epsilon: float = 1e-8
    steps: int = 0
    first: list[Array] = field(default_factory=list)
    second: list[Array] = field(default_factory=list)

    def step(self, net: ValueNet, gradients: Sequence[Array]) -> None:
        params = net.parameters()
        if not self.first:
            self.first = [np.zeros_like(param) for param in params]
            self.second = [np.zeros_like(param) for param in params]
        self.steps += 1
        correct1 = 1.0 - self.beta1**self.steps
        correct2 = 1.0 - self.beta2**self.steps
        for param, grad, first, second in zip(params, gradients, self.first, self.second, strict=True):
            first *= self.beta1
            first += (1.0 - self.beta1) * grad
            second *= self.beta2
            second += (1.0 - self.beta2) * grad**2
            param -= self.rate * (first / correct1) / (np.sqrt(second / correct2) + self.epsilon)

    def arrays(self) -> dict[str, Array]:
        """The optimiser's state as named arrays (for a checkpoint)."""
        named = {"adam_steps": np.array(self.steps), "adam_rate": np.array(self.rate)}
        for index, (first, second) in enumerate(zip(self.first, self.second, strict=True)):
            named[f"adam_first{index}"] = first
            named[f"adam_second{index}"] = second
        return named

    @classmethod
    def from_arrays(cls, named: Any) -> Adam:
        count = sum(1 for key in named if str(key).startswith("adam_first"))
        return cls(
            rate=float(named["adam_rate"]),
            steps=int(named["adam_steps"]),
            first=[np.array(named[f"adam_first{index}"]) for index in range(count)],
            second=[np.array(named[f"adam_second{index}"]) for index in range(count)],
        )


__all__ = ["FORMAT_VERSION", "INPUTS", "Adam", "ValueNet", "ValueNetFormatError", "encode", "encode_all"]
