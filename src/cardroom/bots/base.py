"""The bot interface and the registry of bots by name."""

from __future__ import annotations

import random
from collections.abc import Callable
from importlib.metadata import EntryPoint, entry_points
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


ENTRY_POINTS = "cardroom.bots"
"""The entry-point group of bots defined elsewhere (another package, or a higher layer of this one:
``dmc`` lives with the learning code in :mod:`cardroom.rl.dmc`); each names a bot class or factory."""


def _plugin(point: EntryPoint) -> BotFactory:
    """A factory that imports the entry point's bot on first use."""

    def factory(rng: random.Random) -> Bot:
        made: BotFactory = point.load()
        return made(rng)

    return factory


def register_plugins() -> None:
    """Add the bots of the ``cardroom.bots`` entry points to :data:`BOTS` (names already there stay);
    called when this module is imported, so every process that imports the bots knows them."""
    for point in entry_points(group=ENTRY_POINTS):
        BOTS.setdefault(point.name, _plugin(point))


def make_bot(name: str, seed: int | None = None) -> Bot:
    """A new bot of that name, deterministic under ``seed``; a ``KeyError`` lists the known names."""
    try:
        factory = BOTS[name]
    except KeyError:
        raise KeyError(f"unknown bot {name!r}; known: {', '.join(sorted(BOTS))}") from None
    return factory(random.Random(seed))


register_plugins()
