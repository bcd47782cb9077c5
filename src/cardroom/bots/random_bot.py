"""The baseline: uniform among the legal actions."""

from __future__ import annotations

import random

from cardroom.bots.base import register
from cardroom.guandan.deal import Action
from cardroom.guandan.observation import Observation


@register("random")
class RandomBot:
    """Chooses uniformly among the legal actions (card-level plays, tribute and return cards)."""

    name = "random"

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def act(self, observation: Observation) -> Action:
        if not observation.legal_actions:
            raise ValueError(f"seat {observation.seat} has no legal action: it is not its turn")
        return self.rng.choice(observation.legal_actions)
