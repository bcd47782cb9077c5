"""Players' ratings: an openskill (Weng–Lin) rating per player, and the platform's rating points (积分)
and title (级别) of docs/rules/platform.md#titles.

Model: Plackett–Luce, openskill's default and the one its authors recommend for team games: a team's
strength is the sum of its players' μ, and one match updates each player by the team's surprise scaled
by the player's own uncertainty σ² (so partners with equal ratings move by exactly the same amount).
A match is a two-team game ranked win / loss, or tied for a draw; the margin (levels, 28-point score)
is left out on purpose, as a rating should measure winning, and the round's scoring already weighs the
margin. The leaderboard sorts by the conservative estimate μ − 3σ (openskill's ``ordinal``).

Rating points (积分) come from :func:`cardroom.guandan.platform_points.match_points` when the engine
match is at hand (they are counted deal by deal); the title from
:func:`cardroom.guandan.platform_points.title`.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace
from enum import Enum

from openskill.models import PlackettLuce

from cardroom.guandan.match import Match
from cardroom.guandan.platform_points import (
    PLATFORM_POINTS,
    PlayerState,
    PointsRules,
    SeatEvent,
    match_points,
)
from cardroom.tournament.event import Event
from cardroom.tournament.scoring import ResultKind, TableResult


@dataclass(frozen=True)
class RatingModel:
    """openskill's parameters (its defaults): a new player's μ and σ, the performance spread β and the
    dynamics τ added to σ before each match."""

    mu: float = 25.0
    sigma: float = 25.0 / 3
    beta: float = 25.0 / 6
    tau: float = 25.0 / 300

    def openskill(self) -> PlackettLuce:
        return PlackettLuce(mu=self.mu, sigma=self.sigma, beta=self.beta, tau=self.tau)


@dataclass(frozen=True)
class PlayerRating:
    """A player's rating (μ, σ), record, and platform points state (积分 and the 末游 streak)."""

    player: str
    mu: float
    sigma: float
    matches: int = 0
    wins: int = 0
    draws: int = 0
    losses: int = 0
    points: PlayerState = field(default_factory=PlayerState)

    @property
    def ordinal(self) -> float:
        """The conservative rating μ − 3σ: 0 for a new player."""
        return self.mu - 3 * self.sigma

    @property
    def title(self) -> str:
        """The platform title (级别) of the player's rating points: 笨蛋 … 掼蛋."""
        return self.points.title


Sides = tuple[tuple[str, str], tuple[str, str]]
"""The players of side 0 (seats 0 and 2) and of side 1 (seats 1 and 3)."""


@dataclass(frozen=True)
class RatingBook:
    """Every player's rating; each update returns a new book."""

    model: RatingModel = field(default_factory=RatingModel)
    players: Mapping[str, PlayerRating] = field(default_factory=dict)
    points_rules: PointsRules = PLATFORM_POINTS

    def get(self, player: str) -> PlayerRating:
        """The player's rating; a new player's when unknown."""
        found = self.players.get(player)
        return found if found is not None else PlayerRating(player, self.model.mu, self.model.sigma)

    def rate(
        self,
        sides: Sides,
        winner: int | None,
        match: Match | None = None,
        seat_events: Iterable[SeatEvent] = (),
    ) -> RatingBook:
        """Rate one match: ``winner`` is side 0, side 1 or ``None`` (a draw). With the engine ``match``
        (seats: side 0's players at 0 and 2, side 1's at 1 and 3), the platform points too."""
        if winner not in (None, 0, 1):
            raise ValueError(f"the winner is side 0, side 1 or None, got {winner}")
        names = [player for side in sides for player in side]
        if len(set(names)) != 4:
            raise ValueError(f"a match has four different players, got {names}")
        model = self.model.openskill()
        teams = [[model.rating(mu=self.get(p).mu, sigma=self.get(p).sigma) for p in side] for side in sides]
        ranks = [1.0, 1.0] if winner is None else ([1.0, 2.0] if winner == 0 else [2.0, 1.0])
        rated = model.rate(teams, ranks=ranks)
        by_seat = (sides[0][0], sides[1][0], sides[0][1], sides[1][1])
        points: dict[str, PlayerState] = {}
        if match is not None:
            states = [self.get(player).points for player in by_seat]
            scored = match_points(match, seat_events, states, self.points_rules)
            points = dict(zip(by_seat, scored.states, strict=True))
        updated = dict(self.players)
        for side_index, side in enumerate(sides):
            for player, new in zip(side, rated[side_index], strict=True):
                old = self.get(player)
                won, drew = winner == side_index, winner is None
                updated[player] = replace(
                    old,
                    mu=float(new.mu),
                    sigma=float(new.sigma),
                    matches=old.matches + 1,
                    wins=old.wins + won,
                    draws=old.draws + drew,
                    losses=old.losses + (not won and not drew),
                    points=points.get(player, old.points),
                )
        return replace(self, players=updated)

    def rate_result(self, sides: Sides, result: TableResult, match: Match | None = None) -> RatingBook:
        """Rate a table's result; byes and forfeits are not rated (no game was played to its end)."""
        if result.kind is not ResultKind.PLAYED:
            return self
        return self.rate(sides, result.winner, match)

    def rate_event(self, event: Event, matches: Mapping[tuple[int, int], Match] | None = None) -> RatingBook:
        """Rate every result entered in ``event``, round by round; ``matches`` maps (round, table) to the
        engine match when there is one (for the platform points)."""
        book = self
        for played in event.rounds:
            for pairing, result in zip(played.pairings, played.results, strict=True):
                if result is None:
                    continue
                seats = event.seat_players(pairing)
                sides: Sides = ((seats[0].id, seats[2].id), (seats[1].id, seats[3].id))
                match = None if matches is None else matches.get((played.number, pairing.table))
                book = book.rate_result(sides, result, match)
        return book


class Ranking(Enum):
    """What the leaderboard sorts by first."""

    RATING = "rating"
    POINTS = "points"


@dataclass(frozen=True)
class LeaderRow:
    rank: int
    rating: PlayerRating


def leaderboard(
    book: RatingBook, by: Ranking = Ranking.RATING, min_matches: int = 0
) -> tuple[LeaderRow, ...]:
    """The players with at least ``min_matches`` matches, best first: by μ − 3σ (then points), or by
    rating points (then μ − 3σ); then by id."""
    rows = [rating for rating in book.players.values() if rating.matches >= min_matches]
    if by is Ranking.RATING:
        rows.sort(key=lambda r: (-r.ordinal, -r.points.points, r.player))
    else:
        rows.sort(key=lambda r: (-r.points.points, -r.ordinal, r.player))
    return tuple(LeaderRow(index, rating) for index, rating in enumerate(rows, start=1))


__all__ = ["LeaderRow", "PlayerRating", "Ranking", "RatingBook", "RatingModel", "Sides", "leaderboard"]
