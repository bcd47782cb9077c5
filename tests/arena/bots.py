"""Deterministic test bots, registered by the tests that need them (``monkeypatch.setitem(BOTS, …)``)."""

from __future__ import annotations

import random

from cardroom.guandan.deal import Action, PlayAction
from cardroom.guandan.observation import Observation


class FirstBot:
    """Deterministic: always the first legal action (a pass when following), whatever its seed. Two
    of them never finish a match (the losers always lead next), so only fresh deals here."""

    name = "first"

    def __init__(self, rng: random.Random) -> None:
        del rng

    def act(self, observation: Observation) -> Action:
        return observation.legal_actions[0]


class LastBot(FirstBot):
    """Deterministic: always the last legal action (often the biggest play)."""

    name = "last"

    def act(self, observation: Observation) -> Action:
        return observation.legal_actions[-1]


class OutOfTurnBot(FirstBot):
    """Answers for the next seat: the rules refuse it."""

    name = "out-of-turn"

    def act(self, observation: Observation) -> Action:
        action = observation.legal_actions[0]
        assert isinstance(action, PlayAction)
        return PlayAction((action.seat + 1) % 4, action.play)
