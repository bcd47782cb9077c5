"""What the ladder refuses, each a :class:`LadderError` (a ``ValueError``) whose docstring states the rule
it guards (docs/ladder-core.md)."""

from __future__ import annotations


class LadderError(ValueError):
    """Something the ladder's rules refuse; the message names what is wrong."""


class UnknownEntrantError(LadderError):
    """Every entrant named (ready, in the history, in a match, in a result) must be on the roster."""


class BadEntrantError(LadderError):
    """An entrant has an id and an owner (non-empty text) and a generation of at least 1, and appears
    once on a roster."""


class BadLimitsError(LadderError):
    """The limits are whole numbers of at least 1: matches per entrant per day, matches at once per
    owner."""


class NotEnoughEntrantsError(LadderError):
    """A ladder match needs four eligible entrants, no two of one owner (the house excepted)."""


class BadResultError(LadderError):
    """A ladder match's result holds every deal twice, direct and swapped, for the match's four
    entrants."""


__all__ = [
    "BadEntrantError",
    "BadLimitsError",
    "BadResultError",
    "LadderError",
    "NotEnoughEntrantsError",
    "UnknownEntrantError",
]
