"""A ladder match's result: its duplicate games and the one rated result they make.

A ladder match is a number of duplicate pairs of fresh deals, played as the arena plays them
(:mod:`cardroom.arena.play`): in the direct game team A sits at seats 0 & 2, in the swapped game the
same cards are dealt and the teams exchange seats. Each game scores the level gain of team A minus that
of team B (a fresh deal's winners rise 1, 2 or 3 levels: docs/rules/competition.md#level-up); the
**duplicate margin** is the sum over every game of the match. Luck of the cards cancels within a pair,
so a margin above 0 is a win for team A, below 0 a win for team B, and 0 a draw: one rated result
(:mod:`cardroom.ladder.ratings`).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from cardroom.arena.play import GameOutcome
from cardroom.ladder.errors import BadResultError
from cardroom.ladder.schedule import LadderMatch


def game_margin(outcome: GameOutcome) -> int:
    """Team A's level gain minus team B's over the game's deals (team A is match team
    ``outcome.team_a``)."""
    margin = 0
    for facts in outcome.deals:
        gains = [facts.levels_after[team] - facts.levels_before[team] for team in (0, 1)]
        margin += gains[outcome.team_a] - gains[1 - outcome.team_a]
    return margin


def duplicate_margin(outcomes: Sequence[GameOutcome]) -> int:
    """The sum of :func:`game_margin` over a ladder match's games; a :class:`BadResultError` unless every
    deal is there twice, direct and swapped."""
    if not outcomes:
        raise BadResultError("a ladder match's result holds at least one duplicate pair of games, got none")
    ways = Counter((outcome.kind, outcome.index, outcome.swapped) for outcome in outcomes)
    for (kind, index, swapped), count in ways.items():
        if count != 1 or ways[kind, index, not swapped] != 1:
            raise BadResultError(
                f"{kind.value} {index} is not played exactly once each way, direct and swapped"
            )
    return sum(game_margin(outcome) for outcome in outcomes)


def winner_of(margin: int) -> int | None:
    """Team 0 (A) for a margin above 0, team 1 (B) below 0, ``None`` (a draw) at 0."""
    return 0 if margin > 0 else 1 if margin < 0 else None


@dataclass(frozen=True)
class LadderResult:
    """What a played ladder match gives: the match, its games' outcomes (in schedule order), their
    records (the same order; empty when not kept) and the duplicate margin."""

    match: LadderMatch
    outcomes: tuple[GameOutcome, ...]
    records: tuple[dict[str, Any], ...] = ()

    def __post_init__(self) -> None:
        duplicate_margin(self.outcomes)
        if self.records and len(self.records) != len(self.outcomes):
            raise BadResultError(
                f"one record per game: {len(self.outcomes)} games, {len(self.records)} records"
            )

    @property
    def margin(self) -> int:
        return duplicate_margin(self.outcomes)

    @property
    def winner(self) -> int | None:
        """Team 0 (A), team 1 (B) or ``None`` (a draw)."""
        return winner_of(self.margin)


__all__ = ["LadderResult", "duplicate_margin", "game_margin", "winner_of"]
