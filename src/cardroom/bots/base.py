"""The bot interface and the registry of bots by name."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Protocol

from cardroom.guandan.deal import Action
from cardroom.guandan.observation import Observation


class Bot(Protocol):
    """Observation in, legal action out. A bot may keep state between calls (one bot per seat and
    match) but reads nothing beyond the observations it is given."""

    name: str

    def act(self, observation: Observation) -> Action:
        """One of ``observation.legal_actions`` (never empty when the seat is asked to act)."""
        ...


BotFactory = Callable[[random.Random], Bot]

BOTS: dict[str, BotFactory] = {}
"""Bot constructors by name; each takes the ``random.Random`` it draws from."""


def register(name: str) -> Callable[[BotFactory], BotFactory]:
    """Class decorator: make a bot available to :func:`make_bot` under ``name``."""

    def add(factory: BotFactory) -> BotFactory:
        BOTS[name] = factory
        return factory

    return add


def make_bot(name: str, seed: int | None = None) -> Bot:
    """A new bot of that name, deterministic under ``seed``; a ``KeyError`` lists the known names."""
    try:
        factory = BOTS[name]
    except KeyError:
        raise KeyError(f"unknown bot {name!r}; known: {', '.join(sorted(BOTS))}") from None
    return factory(random.Random(seed))
