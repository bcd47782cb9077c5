"""The PettingZoo AEC environment (docs/rl.md, "PettingZoo"): the four seats are the agents
``seat_0`` … ``seat_3`` (partners ``seat_0``/``seat_2`` and ``seat_1``/``seat_3``), an episode is one
match (or ``max_deals`` deals of it).

Each observation is a dict: ``observation``, the seat's encoded view (:mod:`cardroom.rl.encoding`), and
``action_mask``, the legal entries of the fixed action table (:mod:`cardroom.rl.actions`; all zeros
for a seat not to act). ``step`` takes a table index — or one of ``info["legal_actions"]``, the
card-level actions, for agents that score candidates; ``action_features=True`` adds their feature rows
(``info["action_features"]``) and table indices (``info["action_indices"]``).
"""

from __future__ import annotations

import random
from typing import Any, Final, SupportsIndex

import numpy as np
import numpy.typing as npt
from gymnasium import spaces
from pettingzoo import AECEnv  # type: ignore[import-untyped, unused-ignore]
from pettingzoo.utils import wrappers  # type: ignore[import-untyped, unused-ignore]

from cardroom.guandan.deal import Action
from cardroom.guandan.ruleset import RuleSet
from cardroom.rl.actions import NUM_ACTIONS, IllegalActionError, action_indices
from cardroom.rl.encoding import OBSERVATION_SIZE, encode_observation, legal_action_features
from cardroom.rl.render import render_text
from cardroom.rl.session import Session

AGENTS: Final = tuple(f"seat_{seat}" for seat in range(4))
ON_ILLEGAL: Final = ("raise", "substitute")

ObsDict = dict[str, npt.NDArray[Any]]
StepAction = SupportsIndex | Action | None


def observation_space() -> spaces.Dict:
    """The observation space of one seat: the encoded view and the action mask."""
    return spaces.Dict(
        {
            "observation": spaces.Box(0.0, 1.0, (OBSERVATION_SIZE,), dtype=np.float32),
            "action_mask": spaces.Box(0, 1, (NUM_ACTIONS,), dtype=np.int8),
        }
    )


def check_on_illegal(on_illegal: str) -> str:
    if on_illegal not in ON_ILLEGAL:
        raise ValueError(f"on_illegal must be one of {', '.join(ON_ILLEGAL)}, got {on_illegal!r}")
    return on_illegal


class GuandanAECEnv(AECEnv[str, ObsDict, StepAction]):  # type: ignore[misc] # PettingZoo is untyped
    """Guandan for four agents, one match an episode.

    ``rules``: a rule set or preset name (those with the competition plays); ``reward``: ``"deal"``
    or ``"match"`` (:mod:`cardroom.rl.session`); ``max_deals``: end the match after that many deals;
    ``on_illegal``: ``"raise"`` an :class:`IllegalActionError`, or ``"substitute"`` the lowest legal
    entry (``info["illegal_action"]`` is then set for the seat).
    """

    metadata: dict[str, Any] = {  # noqa: RUF012 - PettingZoo's API names it so
        "render_modes": ["human", "ansi"],
        "name": "cardroom_guandan_v0",
        "is_parallelizable": False,
    }

    def __init__(
        self,
        rules: RuleSet | str = "competition",
        reward: str = "deal",
        max_deals: int | None = None,
        *,
        action_features: bool = False,
        on_illegal: str = "raise",
        render_mode: str | None = None,
    ) -> None:
        super().__init__()
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"unknown render mode {render_mode!r}")
        self.session = Session(rules, reward, max_deals)
        self.with_features = action_features
        self.on_illegal = check_on_illegal(on_illegal)
        self.render_mode = render_mode
        self.possible_agents = list(AGENTS)
        self.agents: list[str] = []
        self.observation_spaces = {agent: observation_space() for agent in AGENTS}
        self.action_spaces = {agent: spaces.Discrete(NUM_ACTIONS) for agent in AGENTS}
        self.rewards: dict[str, float] = {}
        self._cumulative_rewards: dict[str, float] = {}
        self.terminations: dict[str, bool] = {}
        self.truncations: dict[str, bool] = {}
        self.infos: dict[str, dict[str, Any]] = {}
        self.agent_selection = AGENTS[0]
        self._rng: random.Random | None = None

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Deal a new match; with ``seed`` it is the same match every time (later resets without a seed
        continue the same random stream)."""
        if seed is not None or self._rng is None:
            self._rng = random.Random(seed)
        self.session.reset(self._rng)
        self.agents = list(AGENTS)
        self.rewards = dict.fromkeys(AGENTS, 0.0)
        self._cumulative_rewards = dict.fromkeys(AGENTS, 0.0)
        self.terminations = dict.fromkeys(AGENTS, False)
        self.truncations = dict.fromkeys(AGENTS, False)
        self._select()

    def _select(self) -> None:
        seat = self.session.seat
        self.infos = {agent: {} for agent in self.agents}
        if seat is None:
            return
        agent = self.agent_selection = AGENTS[seat]
        observation = self.session.observation(seat)
        info: dict[str, Any] = {"legal_actions": observation.legal_actions}
        if self.with_features:
            info["action_features"] = legal_action_features(observation)
            info["action_indices"] = action_indices(observation)
        self.infos[agent] = info

    def observe(self, agent: str) -> ObsDict:
        seat = AGENTS.index(agent)
        observation = self.session.observation(seat)
        return {"observation": encode_observation(observation), "action_mask": self.session.mask(seat).copy()}

    def step(self, action: StepAction) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if action is None:
            raise IllegalActionError(f"{agent} is to act: None is only for agents that are done")
        self._cumulative_rewards[agent] = 0.0
        illegal = False
        try:
            team = self.session.apply(action)
        except IllegalActionError:
            if self.on_illegal == "raise":
                raise
            illegal = True
            team = self.session.apply(self.session.fallback())
        self.rewards = {other: team[AGENTS.index(other) % 2] for other in self.agents}
        if self.session.done:
            self.terminations = dict.fromkeys(self.agents, True)
            self.infos = {other: {} for other in self.agents}
        else:
            self._select()
        if illegal:
            self.infos[agent]["illegal_action"] = True
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def render(self) -> str | None:
        """The table as text (every hand shown: a debugging view, not an observation); ``human``
        prints it."""
        if self.render_mode is None:
            return None
        text = render_text(self.session.match)
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        """Nothing to release."""


raw_env = GuandanAECEnv


def env(**options: Any) -> AECEnv[str, ObsDict, StepAction]:
    """The environment behind PettingZoo's order-enforcing wrapper (the usual way to make one)."""
    return wrappers.OrderEnforcingWrapper(GuandanAECEnv(**options))


__all__ = ["AGENTS", "GuandanAECEnv", "env", "observation_space", "raw_env"]
