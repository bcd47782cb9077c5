"""The Gymnasium single-agent environment (docs/rl.md, "Gymnasium"): one learning seat, the other
three played by ``cardroom`` bots (``random``, ``heuristic``, ``search``: :func:`cardroom.bots.make_bot`).

Observations and actions are those of the PettingZoo environment; the reward is the learner's team's
(its partner's play counts for it). Registered as ``cardroom/Guandan-v0``. An illegal action is
replaced by the lowest legal entry and flagged in ``info["illegal_action"]`` (``on_illegal="raise"``
raises instead); ``action_masks()`` gives the mask for maskable policies.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any, Final, SupportsIndex, cast

import gymnasium
import numpy as np
import numpy.typing as npt

from cardroom.bots import BOTS, Bot, make_bot
from cardroom.guandan.deal import Action
from cardroom.guandan.ruleset import RuleSet
from cardroom.rl.actions import NUM_ACTIONS, IllegalActionError, action_indices
from cardroom.rl.aec import ObsDict, check_on_illegal, observation_space
from cardroom.rl.encoding import encode_observation, legal_action_features
from cardroom.rl.render import render_text
from cardroom.rl.session import Session

ENV_ID: Final = "cardroom/Guandan-v0"


class GuandanGymEnv(gymnasium.Env[ObsDict, np.int64]):
    """One seat learns; the others are bots.

    ``seat``: the learner's seat (0–3); ``opponents``: one bot name for all three other seats, or
    three names for the seats after the learner in play order (下家, partner, 上家); ``rules``,
    ``reward``, ``max_deals`` as in :class:`~cardroom.rl.aec.GuandanAECEnv`.
    """

    metadata: dict[str, Any] = {"render_modes": ["ansi", "human"], "render_fps": 4}  # noqa: RUF012 - Gymnasium's API

    def __init__(
        self,
        seat: int = 0,
        opponents: str | Sequence[str] = "random",
        rules: RuleSet | str = "competition",
        reward: str = "deal",
        max_deals: int | None = None,
        *,
        action_features: bool = False,
        on_illegal: str = "substitute",
        render_mode: str | None = None,
    ) -> None:
        if seat not in range(4):
            raise ValueError(f"seat must be 0–3, got {seat}")
        names = (opponents,) * 3 if isinstance(opponents, str) else tuple(opponents)
        if len(names) != 3:
            raise ValueError(f"give one bot name or three, got {len(names)}")
        unknown = [name for name in names if name not in BOTS]
        if unknown:
            raise KeyError(f"unknown bot {unknown[0]!r}; known: {', '.join(sorted(BOTS))}")
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"unknown render mode {render_mode!r}")
        self.seat = seat
        self.opponents = names
        self.session = Session(rules, reward, max_deals)
        self.with_features = action_features
        self.on_illegal = check_on_illegal(on_illegal)
        self.render_mode = render_mode
        self.observation_space = cast("gymnasium.spaces.Space[ObsDict]", observation_space())
        self.action_space = gymnasium.spaces.Discrete(NUM_ACTIONS)
        self.bots: dict[int, Bot] = {}

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[ObsDict, dict[str, Any]]:
        """Deal a new match (and new bots), play the bots up to the learner's first turn."""
        super().reset(seed=seed)
        draw = self.np_random.integers
        self.session.reset(random.Random(int(draw(2**63))))
        others = [(self.seat + step) % 4 for step in (1, 2, 3)]
        self.bots = {
            other: make_bot(name, int(draw(2**63)))
            for other, name in zip(others, self.opponents, strict=True)
        }
        self._advance()
        return self._observe(), self._info(illegal=False)

    def step(self, action: SupportsIndex | Action) -> tuple[ObsDict, float, bool, bool, dict[str, Any]]:
        """Play the learner's action, then the bots until the learner's next turn or the match's end."""
        if self.session.done:
            raise IllegalActionError("the match is over: call reset()")
        team = self.seat % 2
        illegal = False
        try:
            rewards = self.session.apply(action)
        except IllegalActionError:
            if self.on_illegal == "raise":
                raise
            illegal = True
            rewards = self.session.apply(self.session.fallback())
        reward = rewards[team] + self._advance()
        if self.render_mode == "human":
            self.render()
        return self._observe(), reward, self.session.done, False, self._info(illegal=illegal)

    def _advance(self) -> float:
        """Bots act until the learner is to act; the learner's team's rewards meanwhile."""
        session = self.session
        team = self.seat % 2
        total = 0.0
        while not session.done and session.seat != self.seat:
            seat = session.seat
            assert seat is not None
            total += session.apply(self.bots[seat].act(session.observation(seat)))[team]
        return total

    def _observe(self) -> ObsDict:
        observation = self.session.observation(self.seat)
        mask = self.session.mask(self.seat).copy()
        return {"observation": encode_observation(observation), "action_mask": mask}

    def _info(self, *, illegal: bool) -> dict[str, Any]:
        observation = self.session.observation(self.seat)
        info: dict[str, Any] = {"legal_actions": observation.legal_actions}
        if self.with_features:
            info["action_features"] = legal_action_features(observation)
            info["action_indices"] = action_indices(observation)
        if illegal:
            info["illegal_action"] = True
        return info

    def action_masks(self) -> npt.NDArray[np.bool_]:
        """The legal entries now, as booleans (the ``MaskablePPO`` convention)."""
        return self.session.mask(self.seat).astype(bool)

    def render(self) -> str | None:
        """The table as text (every hand shown: a debugging view); ``human`` prints it."""
        if self.render_mode is None:
            return None
        text = render_text(self.session.match)
        if self.render_mode == "human":
            print(text)
            return None
        return text


if ENV_ID not in gymnasium.registry:
    gymnasium.register(ENV_ID, entry_point="cardroom.rl.single:GuandanGymEnv")


__all__ = ["ENV_ID", "GuandanGymEnv"]
