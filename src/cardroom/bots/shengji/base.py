"""The Shengji bot interface and the registry of Shengji bots by name (the Guandan registry,
:data:`cardroom.bots.BOTS`, is separate: the two games' bots answer different observations)."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Protocol

from cardroom.shengji.deal import Action
from cardroom.shengji.observation import Observation


class ShengjiBot(Protocol):
    """Observation in, legal action out. A bot may keep state between calls (one bot per seat and
    game) but reads nothing beyond the observations it is given."""

    name: str

    def act(self, observation: Observation) -> Action:
        """One of ``observation.legal_actions()`` (the seat is to act: declare or pass, bury, play)."""
        ...


ShengjiBotFactory = Callable[[random.Random], ShengjiBot]

SHENGJI_BOTS: dict[str, ShengjiBotFactory] = {}
"""Shengji bot constructors by name; each takes the ``random.Random`` it draws from."""


def register(name: str) -> Callable[[ShengjiBotFactory], ShengjiBotFactory]:
    """Class decorator: make a Shengji bot available to :func:`make_shengji_bot` under ``name``."""

    def add(factory: ShengjiBotFactory) -> ShengjiBotFactory:
        SHENGJI_BOTS[name] = factory
        return factory

    return add


def make_shengji_bot(name: str, seed: int | None = None) -> ShengjiBot:
    """A new Shengji bot of that name, deterministic under ``seed``; a ``KeyError`` lists the names."""
    try:
        factory = SHENGJI_BOTS[name]
    except KeyError:
        known = ", ".join(sorted(SHENGJI_BOTS))
        raise KeyError(f"unknown Shengji bot {name!r}; known: {known}") from None
    return factory(random.Random(seed))


__all__ = ["SHENGJI_BOTS", "ShengjiBot", "ShengjiBotFactory", "make_shengji_bot", "register"]
