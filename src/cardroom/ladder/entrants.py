"""Who plays on the ladder: an :class:`Entrant` is one version of a bot (its id, its owner, its
generation), and the :class:`Roster` every entrant the ladder has known, retired versions included.

A new version of a bot (a new token generation, or one its owner declares) is a new entrant with a
rating of its own (:meth:`Entrant.next_generation`). The house bots (:data:`HOUSE_BOTS`) are permanent
entrants owned by :data:`HOUSE`: references always present, rated like everyone. Scheduling is
:mod:`cardroom.ladder.schedule`, ratings :mod:`cardroom.ladder.ratings`.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field, replace
from typing import Final

from cardroom.ladder.errors import BadEntrantError, UnknownEntrantError

HOUSE: Final = "house"
"""The owner of the house bots: the room itself."""

HOUSE_BOTS: Final = ("random", "heuristic", "search", "distilled")
"""The registered bots (docs/bots.md) the house enters: the random and heuristic bots, the search, and
the learned bot (the search distilled into a network)."""


@dataclass(frozen=True)
class Entrant:
    """One version of a bot on the ladder: ``id`` names the bot (a bot account's key, or a house bot's
    name), ``owner`` the account it belongs to, ``generation`` the version (1 for the first)."""

    id: str
    owner: str
    generation: int = 1

    def __post_init__(self) -> None:
        for name in ("id", "owner"):
            value = getattr(self, name)
            if not isinstance(value, str) or not value.strip():
                raise BadEntrantError(f"an entrant's {name} is non-empty text, got {value!r}")
        if "#" in self.id:
            raise BadEntrantError(
                f"an entrant's id has no '#' (it separates the generation), got {self.id!r}"
            )
        if isinstance(self.generation, bool) or not isinstance(self.generation, int) or self.generation < 1:
            raise BadEntrantError(
                f"an entrant's generation is a whole number of at least 1, got {self.generation!r}"
            )

    @property
    def key(self) -> str:
        """``id#generation``: what the ladder's matches, history and ratings name the entrant by."""
        return f"{self.id}#{self.generation}"

    @property
    def is_house(self) -> bool:
        return self.owner == HOUSE

    def next_generation(self) -> Entrant:
        """The bot's next version: a new entrant, rated afresh."""
        return replace(self, generation=self.generation + 1)


def house_entrants(names: Iterable[str] = HOUSE_BOTS) -> tuple[Entrant, ...]:
    """The house bots as entrants, owned by :data:`HOUSE`, generation 1."""
    return tuple(Entrant(name, HOUSE) for name in names)


@dataclass(frozen=True)
class Roster:
    """Every entrant the ladder knows, by key: ready or not, current or retired (their history and
    ratings stay)."""

    entrants: Mapping[str, Entrant] = field(default_factory=dict)

    @classmethod
    def of(cls, entrants: Iterable[Entrant]) -> Roster:
        """A roster of ``entrants``; a :class:`BadEntrantError` when one appears twice."""
        found: dict[str, Entrant] = {}
        for entrant in entrants:
            if not isinstance(entrant, Entrant):
                raise BadEntrantError(f"a roster holds entrants, got {entrant!r}")
            if entrant.key in found:
                raise BadEntrantError(f"the entrant {entrant.key!r} is on the roster twice")
            found[entrant.key] = entrant
        return cls(found)

    def add(self, entrant: Entrant) -> Roster:
        """The roster with ``entrant`` added (a new bot, or a bot's new generation)."""
        return Roster.of([*self.entrants.values(), entrant])

    def __getitem__(self, key: str) -> Entrant:
        """The entrant of that key; an :class:`UnknownEntrantError` naming it otherwise."""
        try:
            return self.entrants[key]
        except KeyError:
            raise UnknownEntrantError(f"no entrant {key!r} on the ladder's roster") from None

    def __contains__(self, key: object) -> bool:
        return key in self.entrants

    def __iter__(self) -> Iterator[Entrant]:
        return iter(self.entrants.values())

    def __len__(self) -> int:
        return len(self.entrants)

    def owned_by(self, owner: str) -> tuple[Entrant, ...]:
        """The owner's entrants, in the roster's order."""
        return tuple(entrant for entrant in self if entrant.owner == owner)


__all__ = ["HOUSE", "HOUSE_BOTS", "Entrant", "Roster", "house_entrants"]
