"""Guandan rule sets: every rule that differs between sources is a named parameter.

A :class:`RuleSet` is a frozen value validated on construction; presets are values of it found by name
(:func:`preset`). Code branches on parameters, never on a preset's name.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Final


@dataclass(frozen=True)
class RuleSet:
    """The parameters of a Guandan rule set that the plays engine reads."""

    name: str = "competition"
    natural_straight_flush_is_straight: bool = False
    """Five natural cards of one suit in sequence may also be played as a plain straight (顺子).
    Off in the competition rules, as in the organisers' own engine: they are a straight flush only."""
    source: str = field(default="seed 002 (Huai'an competition rules, 2017)", compare=False)

    def __post_init__(self) -> None:
        if not self.name:
            raise ValueError("a rule set needs a name")


COMPETITION: Final = RuleSet()

PRESETS: Final[dict[str, RuleSet]] = {COMPETITION.name: COMPETITION}


def preset(name: str) -> RuleSet:
    """The preset of that name; a ``KeyError`` lists the known ones."""
    try:
        return PRESETS[name]
    except KeyError:
        known = ", ".join(sorted(PRESETS))
        raise KeyError(f"unknown rule set {name!r}; known: {known}") from None
