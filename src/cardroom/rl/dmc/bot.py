"""The ``dmc`` bot: the legal entry of highest Q under a trained policy (:mod:`cardroom.rl.dmc.policy`),
in NumPy, so it plays wherever bots play (the arena, the card room, ``connect``, ``compete``) without
PyTorch or network access.

The policy is the one named by ``CARDROOM_DMC_WEIGHTS`` (a ``.npz`` written by ``cardroom train --algo
dmc``), else the one shipped in ``cardroom/bots/weights/`` (docs/rl.md says how it was trained). It
plays the rule sets of the action table (the competition's plays); a seat with one legal action takes
it without asking the network. The bot is registered by the entry point ``cardroom.bots: dmc``
(pyproject.toml), so :func:`cardroom.bots.make_bot` finds it without the bots importing this layer.
"""

from __future__ import annotations

import os
import random
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Final

import numpy as np

from cardroom.bots.base import register
from cardroom.guandan.deal import Action
from cardroom.guandan.observation import Observation
from cardroom.rl.actions import action_of, legal_action_mask
from cardroom.rl.dmc.policy import QPolicy
from cardroom.rl.encoding import encode_observation

DEFAULT_WEIGHTS: Final = "dmc-v1.npz"
"""The shipped policy, in ``cardroom/bots/weights/``."""
WEIGHTS_VARIABLE: Final = "CARDROOM_DMC_WEIGHTS"
"""A path to another policy for the ``dmc`` bot."""


@cache
def load_policy(path: str | None) -> QPolicy:
    """The policy at ``path``, or the shipped one for ``None`` (each read once)."""
    if path is not None:
        return QPolicy.load(Path(path))
    shipped = resources.files("cardroom.bots") / "weights" / DEFAULT_WEIGHTS
    if not shipped.is_file():
        raise FileNotFoundError(
            f"no shipped dmc policy ({DEFAULT_WEIGHTS}); set {WEIGHTS_VARIABLE} to a policy written by "
            "`cardroom train --algo dmc`"
        )
    with shipped.open("rb") as file:
        return QPolicy.load(file)


def default_policy() -> QPolicy:
    """The policy ``CARDROOM_DMC_WEIGHTS`` names, else the shipped one."""
    return load_policy(os.environ.get(WEIGHTS_VARIABLE) or None)


class DmcBot:
    """Greedy in Q over the legal entries; ``rng`` is unused (the choice is deterministic)."""

    name = "dmc"

    def __init__(self, rng: random.Random, policy: QPolicy | None = None) -> None:
        self.policy = policy if policy is not None else default_policy()

    def act(self, observation: Observation) -> Action:
        legal = observation.legal_actions
        if len(legal) == 1:
            return legal[0]
        mask = legal_action_mask(observation)
        index = self.policy.choose(encode_observation(observation)[np.newaxis], mask[np.newaxis])[0]
        return action_of(int(index), observation, check=False)


register("dmc")(DmcBot)

__all__ = ["DEFAULT_WEIGHTS", "WEIGHTS_VARIABLE", "DmcBot", "default_policy", "load_policy"]
