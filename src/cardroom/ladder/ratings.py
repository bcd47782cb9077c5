"""The ladder's ratings: a pool of its own, separate from people's, kept by the room's openskill helper
(:class:`cardroom.tournament.RatingBook`: Plackett–Luce, two teams ranked win / loss or tied).

One ladder match is one rated result: the duplicate margin of :mod:`cardroom.ladder.results` decides
the winning team (or a draw), and its size is left out, as people's ratings leave out the margin. Each
entrant shows μ, its range μ ± 3σ and its number of matches; the standings sort by the range's low end
μ − 3σ (openskill's ordinal, as the room's leaderboard does).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import Final

from cardroom.ladder.entrants import Entrant, Roster
from cardroom.ladder.errors import BadResultError, UnknownEntrantError
from cardroom.tournament import PlayerRating, RatingBook, RatingModel

RANGE_SIGMAS: Final = 3.0
"""A rating's range is μ ± 3σ; its low end μ − 3σ is what the standings sort by."""


@dataclass(frozen=True)
class Standing:
    """One line of the ladder: the entrant, its place, its rating and record."""

    rank: int
    entrant: Entrant
    rating: PlayerRating

    @property
    def mu(self) -> float:
        return self.rating.mu

    @property
    def sigma(self) -> float:
        return self.rating.sigma

    @property
    def low(self) -> float:
        """μ − 3σ: the conservative rating the standings sort by (0 for a new entrant)."""
        return self.rating.mu - RANGE_SIGMAS * self.rating.sigma

    @property
    def high(self) -> float:
        return self.rating.mu + RANGE_SIGMAS * self.rating.sigma

    @property
    def matches(self) -> int:
        return self.rating.matches


@dataclass(frozen=True)
class LadderPool:
    """The ratings of the roster's entrants; each rated match returns a new pool."""

    roster: Roster
    book: RatingBook = field(default_factory=lambda: RatingBook(RatingModel()))

    def rating(self, key: str) -> PlayerRating:
        """The entrant's rating (a new entrant's when it has played no rated match); an
        :class:`UnknownEntrantError` for a key not on the roster."""
        self.roster[key]
        return self.book.get(key)

    def mu(self, key: str) -> float:
        return self.rating(key).mu

    def with_roster(self, roster: Roster) -> LadderPool:
        """The same ratings over a larger roster (a new bot, a new generation)."""
        missing = sorted(set(self.roster.entrants) - set(roster.entrants))
        if missing:
            raise UnknownEntrantError(
                f"a roster keeps every rated entrant; {', '.join(missing)} would be lost"
            )
        return replace(self, roster=roster)

    def rate(self, team_a: Sequence[str], team_b: Sequence[str], winner: int | None) -> LadderPool:
        """Rate one ladder match: ``winner`` 0 (team A), 1 (team B) or ``None`` (a draw)."""
        keys = [*team_a, *team_b]
        if len(team_a) != 2 or len(team_b) != 2 or len(set(keys)) != 4:
            raise BadResultError(
                f"a ladder match has two teams of two different entrants, got {team_a}, {team_b}"
            )
        if winner not in (0, 1, None):
            raise BadResultError(f"the winner is team 0 (A), team 1 (B) or None (a draw), got {winner!r}")
        for key in keys:
            self.roster[key]
        sides = ((team_a[0], team_a[1]), (team_b[0], team_b[1]))
        return replace(self, book=self.book.rate(sides, winner))

    def standings(self, min_matches: int = 0) -> tuple[Standing, ...]:
        """The roster's entrants with at least ``min_matches`` rated matches, best first: by μ − 3σ, then
        μ, then key."""
        ratings = [(entrant, self.book.get(entrant.key)) for entrant in self.roster]
        rows = [(entrant, rating) for entrant, rating in ratings if rating.matches >= min_matches]
        rows.sort(key=lambda row: (-row[1].ordinal, -row[1].mu, row[0].key))
        return tuple(Standing(rank, entrant, rating) for rank, (entrant, rating) in enumerate(rows, start=1))


__all__ = ["RANGE_SIGMAS", "LadderPool", "Standing"]
