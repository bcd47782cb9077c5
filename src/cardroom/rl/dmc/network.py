"""The Q network in PyTorch (the ``train`` extra): Q(observation, entry) = ⟨f(observation), g(entry)⟩ +
b(entry), one network for every seat (the observation is the seat's own view).

``f`` is a ReLU MLP over the observation vector; ``g`` a ReLU MLP over each entry's features
(:mod:`cardroom.rl.dmc.features`) and ``b`` linear in them, so entries alike are valued alike. A batch
of (observation, chosen entry) pairs costs one trunk pass and ``g`` of the chosen entries only;
acting scores every entry at once. :meth:`QNetwork.policy` exports the NumPy policy the bot plays.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
import numpy.typing as npt
import torch
from torch import nn

from cardroom.rl.dmc.features import FEATURE_SIZE, table_features
from cardroom.rl.dmc.policy import QPolicy, policy_of
from cardroom.rl.encoding import OBSERVATION_SIZE

DEFAULT_HIDDEN = (512, 256)
"""The trunk's layers; the last is the width of f and g."""
ACTION_HIDDEN = 128
"""g's hidden layer."""


class QNetwork(nn.Module):
    """Q over the action table for batches of observations."""

    def __init__(self, hidden: Sequence[int] = DEFAULT_HIDDEN) -> None:
        super().__init__()
        if not hidden or any(size < 1 for size in hidden):
            raise ValueError(f"the trunk needs layers of at least one unit, got {tuple(hidden)}")
        self.hidden = tuple(hidden)
        layers: list[nn.Module] = []
        inputs = OBSERVATION_SIZE
        for size in hidden:
            layers += [nn.Linear(inputs, size), nn.ReLU()]
            inputs = size
        self.trunk = nn.Sequential(*layers)
        self.action_net = nn.Sequential(
            nn.Linear(FEATURE_SIZE, ACTION_HIDDEN), nn.ReLU(), nn.Linear(ACTION_HIDDEN, inputs)
        )
        self.action_bias = nn.Linear(FEATURE_SIZE, 1)
        self.register_buffer("entry_features", torch.from_numpy(table_features()), persistent=False)

    def entries(self, indices: torch.Tensor | None = None) -> tuple[torch.Tensor, torch.Tensor]:
        """g and b of the given entries (all of them for ``None``)."""
        features = self.entry_features
        assert isinstance(features, torch.Tensor)
        if indices is not None:
            features = features[indices]
        values: torch.Tensor = self.action_net(features)
        bias: torch.Tensor = self.action_bias(features).squeeze(-1)
        return values, bias

    def forward(self, observations: torch.Tensor, actions: torch.Tensor) -> torch.Tensor:
        """Q of each row's chosen entry: ``(rows,)``."""
        values, bias = self.entries(actions)
        hidden: torch.Tensor = self.trunk(observations)
        return (hidden * values).sum(-1) + bias

    def q_values(self, observations: torch.Tensor) -> torch.Tensor:
        """Q of every entry: ``(rows, NUM_ACTIONS)``."""
        values, bias = self.entries()
        result: torch.Tensor = self.trunk(observations) @ values.T + bias
        return result

    def policy(self, meta: dict[str, Any] | None = None) -> QPolicy:
        """The NumPy policy of these weights (the trunk's layers and every entry's g and b)."""
        with torch.no_grad():
            values, bias = self.entries()
            layers = [
                (module.weight.T.numpy().copy(), module.bias.numpy().copy())
                for module in self.trunk
                if isinstance(module, nn.Linear)
            ]
            return policy_of(
                layers, values.numpy(), bias.numpy(), {"hidden": list(self.hidden), **(meta or {})}
            )


def numpy_weights(network: QNetwork) -> dict[str, npt.NDArray[np.float32]]:
    """The parameters as NumPy arrays (what goes to the actors each round)."""
    return {name: tensor.detach().numpy().copy() for name, tensor in network.state_dict().items()}


def load_numpy_weights(network: QNetwork, weights: dict[str, npt.NDArray[np.float32]]) -> None:
    """Set the parameters from :func:`numpy_weights`."""
    network.load_state_dict({name: torch.from_numpy(np.asarray(value)) for name, value in weights.items()})


__all__ = ["DEFAULT_HIDDEN", "QNetwork", "load_numpy_weights", "numpy_weights"]
