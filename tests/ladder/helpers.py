"""Rosters and pools for the ladder's tests."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from datetime import date

from cardroom.ladder import Entrant, LadderMatch, LadderPool, Played, Roster, Scheduler
from cardroom.tournament import PlayerRating, RatingBook, RatingModel

TODAY = date(2026, 12, 6)
YESTERDAY = date(2026, 12, 5)


def outsiders(count: int, prefix: str = "bot") -> list[Entrant]:
    """``count`` entrants, each of its own owner."""
    return [Entrant(f"{prefix}{number}", f"owner{number}") for number in range(count)]


def pool_of(entrants: Sequence[Entrant], mus: Mapping[str, float] | None = None) -> LadderPool:
    """A pool of ``entrants``, rated μ (σ 2) where ``mus`` says, new elsewhere."""
    model = RatingModel()
    players = {key: PlayerRating(key, mu, 2.0) for key, mu in (mus or {}).items()}
    return LadderPool(Roster.of(entrants), RatingBook(model, players))


def schedule_many(
    scheduler: Scheduler,
    pool: LadderPool,
    count: int,
    seed: int,
    history: Sequence[Played] = (),
    running: Sequence[Played] = (),
) -> list[LadderMatch]:
    """``count`` matches, each scheduled after the last was played (added to the history today)."""
    rng = random.Random(seed)
    played = list(history)
    matches = []
    for _ in range(count):
        match = scheduler.next_match(
            pool,
            [entrant.key for entrant in pool.roster],
            history=played,
            running=running,
            today=TODAY,
            rng=rng,
        )
        matches.append(match)
        played.append(Played(match, TODAY))
    return matches


def independent_draws(
    scheduler: Scheduler,
    pool: LadderPool,
    count: int,
    history: Sequence[Played] = (),
    running: Sequence[Played] = (),
    ready: Sequence[str] | None = None,
) -> list[LadderMatch]:
    """``count`` next matches drawn from the same state, one per seed."""
    keys = [entrant.key for entrant in pool.roster] if ready is None else list(ready)
    return [
        scheduler.next_match(
            pool, keys, history=history, running=running, today=TODAY, rng=random.Random(seed)
        )
        for seed in range(count)
    ]
