"""Research interfaces (docs/rl.md): the numeric encoding of an observation, the fixed action table,
a PettingZoo AEC environment, a Gymnasium single-agent environment against our bots, an OpenSpiel
game, a batched environment stepping many tables inside the compiled core (:mod:`.vector`), and Deep
Monte-Carlo self-play (:mod:`.dmc`). Needs the ``rl`` extra (``pip install 'cardroom[rl]'``; the
learner the ``train`` extra); ``import cardroom`` never does.

The encoding and the action table need only NumPy and are imported here; the environments load their
library when first named (``cardroom.rl.GuandanAECEnv``, ``cardroom.rl.GuandanGymEnv``,
``cardroom.rl.GuandanGame``, ``cardroom.rl.VectorEnv``) or imported (``cardroom.rl.aec``, ``.single``,
``.openspiel``, ``.vector``).
"""

from __future__ import annotations

from importlib import import_module
from typing import Any

try:
    import numpy  # noqa: F401 - fail early, naming the extra
except ImportError as error:  # pragma: no cover - only without the extra
    raise ImportError("cardroom.rl needs the rl extra: pip install 'cardroom[rl]'") from error

from cardroom.rl.actions import (
    ACTION_TABLE,
    NUM_ACTIONS,
    PASS_INDEX,
    RETURN_BASE,
    TRIBUTE_BASE,
    ActionSpec,
    IllegalActionError,
    UnsupportedRulesError,
    action_index,
    action_indices,
    action_of,
    concrete_play,
    legal_action_mask,
)
from cardroom.rl.encoding import (
    ACTION_FEATURE_SIZE,
    FEATURE_SLICES,
    OBSERVATION_SIZE,
    SLICES,
    action_features,
    card_planes,
    encode_observation,
    legal_action_features,
)

_LAZY = {
    "GuandanAECEnv": "cardroom.rl.aec",
    "GuandanGymEnv": "cardroom.rl.single",
    "GuandanGame": "cardroom.rl.openspiel",
    "VectorEnv": "cardroom.rl.vector",
    "ReferenceVectorEnv": "cardroom.rl.vector_reference",
}


def __getattr__(name: str) -> Any:
    """The environments, imported with their library on first use."""
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'cardroom.rl' has no attribute {name!r}")
    return getattr(import_module(module), name)


__all__ = [
    "ACTION_FEATURE_SIZE",
    "ACTION_TABLE",
    "FEATURE_SLICES",
    "NUM_ACTIONS",
    "OBSERVATION_SIZE",
    "PASS_INDEX",
    "RETURN_BASE",
    "SLICES",
    "TRIBUTE_BASE",
    "ActionSpec",
    "GuandanAECEnv",
    "GuandanGame",
    "GuandanGymEnv",
    "IllegalActionError",
    "ReferenceVectorEnv",
    "UnsupportedRulesError",
    "VectorEnv",
    "action_features",
    "action_index",
    "action_indices",
    "action_of",
    "card_planes",
    "concrete_play",
    "encode_observation",
    "legal_action_features",
    "legal_action_mask",
]
