"""What the card room's tools need of a game: its names, rule-set presets, bots, record format, replay
and random play, in one value per game (:class:`Game`).

The games themselves are :mod:`~cardroom.games.guandan` and :mod:`~cardroom.games.shengji`;
:mod:`~cardroom.games.registry` finds them by name, by rule set and by record. What only one tool does
per game stays with that tool: the arena's part names its :class:`Game`
(:class:`cardroom.arena.games.ArenaGame`), the terminal's tables are keyed by :attr:`Game.name`.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Generic, Protocol, TypeVar

from rich.console import Console


class UnknownNameError(KeyError, ValueError):
    """A name nobody registered (a game, a rule-set preset, a bot); the message lists the known ones.
    A ``KeyError`` to lookups and a ``ValueError`` to argument checks."""

    def __str__(self) -> str:
        return str(self.args[0])


def unknown(what: str, name: str, known: Iterable[str]) -> UnknownNameError:
    """The error for ``name`` among ``known``: ``unknown bot 'x'; available: heuristic, random``."""
    return UnknownNameError(f"unknown {what} {name!r}; available: {', '.join(sorted(known))}")


class Report(Protocol):
    """What a caller needs of a replay report besides printing it: whether the record is legal."""

    @property
    def ok(self) -> bool: ...


RulesT = TypeVar("RulesT")
BotT = TypeVar("BotT")
ReportT = TypeVar("ReportT", bound=Report)


@dataclass(frozen=True)
class Game(Generic[RulesT, BotT, ReportT]):
    """One game, registered once: the command line, the arena and the card room look it up by name
    instead of branching on it."""

    name: str
    """The game's name in options, configs and records' ``meta``: ``guandan``, ``shengji``."""
    title: str
    """The game for people: ``Shengji (升级)``."""
    label: str
    """The word messages put before a noun (``unknown Shengji bot``); empty for Guandan, the first game,
    whose messages name no game."""
    rules_type: type[RulesT]
    """The class of the game's rule sets."""
    presets: Mapping[str, RulesT]
    """The rule-set presets by name (the rules core's ``PRESETS``)."""
    default_preset: str
    """The preset played when none is named."""
    bots: Mapping[str, Callable[[random.Random], BotT]]
    """The game's bot registry (names → constructors taking their ``random.Random``), live."""
    record_format: str
    """The ``format`` string of the game's match records."""
    replay: Callable[[object], ReportT]
    """Replays a record's JSON value; a ``RecordError`` for a broken record."""
    print_report: Callable[[ReportT, Console], None]
    """Prints a replay's report for people (``cardroom replay``)."""
    play_random: Callable[[int, int | None, RulesT], dict[str, Any]]
    """``(seed, deals, rules)`` → the record of a match of uniformly random legal actions."""
    write_record: Callable[[Path, dict[str, Any]], None]
    """Writes a record file, refusing a record of the wrong shape."""
    describe_record: Callable[[Mapping[str, Any]], str]
    """One line on what a record holds: deals, actions and the result."""

    def __post_init__(self) -> None:
        if self.default_preset not in self.presets:
            raise unknown(f"default {self.named('rule set')}", self.default_preset, self.presets)

    def named(self, noun: str) -> str:
        """``noun`` as messages name it for this game: ``Shengji bot``, or just ``bot`` for Guandan."""
        return f"{self.label} {noun}" if self.label else noun

    def rules(self, name: str) -> RulesT:
        """The preset of that name; an :class:`UnknownNameError` lists the game's presets."""
        try:
            return self.presets[name]
        except KeyError:
            raise unknown(self.named("rule set"), name, self.presets) from None

    def bot(self, name: str) -> Callable[[random.Random], BotT]:
        """The constructor of the bot of that name; an :class:`UnknownNameError` lists the game's bots."""
        try:
            return self.bots[name]
        except KeyError:
            raise unknown(self.named("bot"), name, self.bots) from None

    def make_bot(self, name: str, seed: int | None = None) -> BotT:
        """A new bot of that name, deterministic under ``seed``."""
        return self.bot(name)(random.Random(seed))


__all__ = ["BotT", "Game", "Report", "ReportT", "RulesT", "UnknownNameError", "unknown"]
