"""A match driven one action at a time, for the environments: it deals with its own
``random.Random``, takes table indices or card-level actions, and pays team rewards (docs/rl.md,
"Rewards").

Rewards are team-symmetric: both partners get the team's reward and the opponents its negative.
``reward="deal"`` pays at the end of every deal the levels the 上游's team rises (3 for 双下, then 2 or 1
under the competition rules, before the cap at A); ``reward="match"`` pays +1 to the match's winners and
-1 to its losers when it ends (0 each for a draw).
"""

from __future__ import annotations

import random
from operator import index
from typing import Final, SupportsIndex

from cardroom.guandan.deal import Action, PlayAction, ReturnAction, TributeAction
from cardroom.guandan.match import Match, MatchPhase
from cardroom.guandan.observation import Observation
from cardroom.guandan.ruleset import RuleSet, preset
from cardroom.rl.actions import (
    ACTION_TABLE,
    NUM_ACTIONS,
    IllegalActionError,
    Mask,
    action_of,
    check_rules,
    legal_action_mask,
)

REWARDS: Final = ("deal", "match")


def rules_of(rules: RuleSet | str) -> RuleSet:
    """A rule set, or a preset's name; refuses rule sets whose plays the action table lacks."""
    chosen = preset(rules) if isinstance(rules, str) else rules
    check_rules(chosen)
    return chosen


def reward_scale(rules: RuleSet, reward: str) -> float:
    """The largest reward one deal (``"deal"``) or one match (``"match"``) can pay a team."""
    return float(max(rules.partner_rises)) if reward == "deal" else 1.0


class Session:
    """One match at a time: ``reset`` deals a new one, ``apply`` plays the seat to act and returns
    both teams' rewards for that step."""

    def __init__(
        self, rules: RuleSet | str = "competition", reward: str = "deal", max_deals: int | None = None
    ) -> None:
        if reward not in REWARDS:
            raise ValueError(f"reward must be one of {', '.join(REWARDS)}, got {reward!r}")
        self.rules = rules_of(rules)
        self.reward = reward
        self.max_deals = max_deals
        self.rng = random.Random()
        self.match = Match(self.rules, max_deals=max_deals)
        self._observations: dict[int, Observation] = {}
        self._masks: dict[int, Mask] = {}
        self.steps = 0

    def reset(self, rng: random.Random) -> None:
        """A new match, dealt from ``rng`` (which the session keeps for later deals)."""
        self.rng = rng
        self.match = Match(self.rules, max_deals=self.max_deals)
        self.match.deal_random(rng)
        self._forget()
        self.steps = 0

    @property
    def done(self) -> bool:
        return self.match.is_over

    @property
    def seat(self) -> int | None:
        """The seat to act (``None`` once the match is over)."""
        return self.match.current_player

    def observation(self, seat: int) -> Observation:
        """``match.observation(seat)``, remembered until the next action."""
        observation = self._observations.get(seat)
        if observation is None:
            observation = self._observations[seat] = self.match.observation(seat)
        return observation

    def mask(self, seat: int) -> Mask:
        """``legal_action_mask`` of the seat's observation, remembered until the next action."""
        mask = self._masks.get(seat)
        if mask is None:
            mask = self._masks[seat] = legal_action_mask(self.observation(seat))
        return mask

    def _forget(self) -> None:
        self._observations.clear()
        self._masks.clear()

    def action_for(self, action: SupportsIndex | Action) -> Action:
        """The card-level action for a table index (or a card-level action, checked as the rules do)."""
        seat = self.seat
        if seat is None:
            raise IllegalActionError("the match is over")
        if isinstance(action, TributeAction | ReturnAction | PlayAction):
            if action.seat != seat or not self.match.can(action):
                raise IllegalActionError(f"{action!r} is not legal for seat {seat} now")
            return action
        chosen = index(action)
        if not 0 <= chosen < NUM_ACTIONS or not self.mask(seat)[chosen]:
            label = ACTION_TABLE[chosen].label if 0 <= chosen < NUM_ACTIONS else f"index {chosen}"
            raise IllegalActionError(f"{label} is not legal for seat {seat} now")
        return action_of(chosen, self.observation(seat), check=False)

    def fallback(self) -> int:
        """The lowest legal table index of the seat to act (what replaces an illegal choice)."""
        seat = self.seat
        assert seat is not None
        return int(self.mask(seat).argmax())

    def apply(self, action: SupportsIndex | Action) -> tuple[float, float]:
        """Play ``action`` for the seat to act; deal the next deal when one ends. Returns the rewards
        of teams 0 and 1 for this step."""
        chosen = self.action_for(action)
        match = self.match
        deals = len(match.summaries)
        match.apply(chosen)
        self._forget()
        self.steps += 1
        rewards = team_rewards(match, deals, self.reward)
        if match.phase is MatchPhase.DEALING:
            match.deal_random(self.rng)
        return rewards


def team_rewards(match: Match, deals_before: int, reward: str) -> tuple[float, float]:
    """Teams 0 and 1's rewards for the action just applied, ``deals_before`` being the finished deals
    before it: a deal's rise when it ended (``"deal"``), ±1 when the match ended (``"match"``; 0 for a
    draw)."""
    if len(match.summaries) <= deals_before:
        return 0.0, 0.0
    if reward == "deal":
        result = match.summaries[-1].result
        rise = float(result.rise(match.rules))
        return (rise, -rise) if result.winning_team == 0 else (-rise, rise)
    if match.is_over and match.winner is not None:
        return (1.0, -1.0) if match.winner == 0 else (-1.0, 1.0)
    return 0.0, 0.0


__all__ = ["REWARDS", "Session", "reward_scale", "rules_of", "team_rewards"]
