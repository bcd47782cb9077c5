"""Choosing the ladder's next match: four ready entrants, two teams of two, within the limits.

The steps (docs/ladder-core.md, "Scheduling"):

1. **Eligible.** A ready entrant is left out when it is in a running match, has played
   :attr:`Limits.per_day` matches today, or its owner has :attr:`Limits.per_owner`
   matches running (the house excepted).
2. **The first seat** goes to the eligible entrant that has played least today, then least in all, ties
   drawn by lot.
3. **The others** are drawn from its nearest neighbours by rating (and a few at random, for exploration),
   never two of one owner (the house excepted); each table of four and each of its three splits into
   teams is weighed: the times the two pairs of partners have partnered before (partners rotate), plus
   the spread of the four ratings and the difference of the teams' strengths in units of a new rating's
   σ (near ratings meet). With probability :attr:`Scheduler.explore` the ratings are not weighed. The
   lightest wins, ties drawn by lot.

Pure: the day, the ratings and the random draws are passed in.
"""

from __future__ import annotations

import itertools
import random
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from datetime import date
from typing import Final

from cardroom.ladder.entrants import HOUSE, Entrant, Roster
from cardroom.ladder.errors import BadLimitsError, LadderError, NotEnoughEntrantsError
from cardroom.ladder.ratings import LadderPool

NEIGHBOURS: Final = 7
"""Entrants nearest in rating to the first seat's that are weighed for the other three seats."""

EXPLORERS: Final = 3
"""Entrants drawn at random from the rest and weighed beside the neighbours."""

RATING_SCALE: Final = 25.0 / 3
"""The ratings' spread is counted in units of a new entrant's σ: a table spread by one σ weighs as much
as one more time two partners have partnered."""


@dataclass(frozen=True)
class Limits:
    """The ladder's limits: ``per_day`` matches per entrant per day, ``per_owner`` matches running at once
    per owner, and the owners free of the owner rules (``house_owners``: the house, whose bots are the
    room's own and may share a table)."""

    per_day: int = 48
    per_owner: int = 2
    house_owners: frozenset[str] = frozenset({HOUSE})

    def __post_init__(self) -> None:
        for name in ("per_day", "per_owner"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int) or value < 1:
                raise BadLimitsError(f"{name} is a whole number of at least 1, got {value!r}")
        if not isinstance(self.house_owners, frozenset) or not all(
            isinstance(owner, str) for owner in self.house_owners
        ):
            raise BadLimitsError(f"house_owners is a frozenset of owners, got {self.house_owners!r}")

    def shares_tables(self, entrant: Entrant) -> bool:
        """Whether the entrant's owner may have several entrants at one table (the house)."""
        return entrant.owner in self.house_owners


@dataclass(frozen=True)
class LadderMatch:
    """A scheduled ladder match: team A and team B (two entrant keys each) and the seed its deals and
    bots are drawn from (:mod:`cardroom.ladder.runner`)."""

    team_a: tuple[str, str]
    team_b: tuple[str, str]
    seed: int

    def __post_init__(self) -> None:
        if len(set(self.entrants)) != 4:
            raise LadderError(f"a ladder match seats four different entrants, got {self.entrants}")

    @property
    def entrants(self) -> tuple[str, str, str, str]:
        return (*self.team_a, *self.team_b)

    @property
    def partners(self) -> tuple[frozenset[str], frozenset[str]]:
        return frozenset(self.team_a), frozenset(self.team_b)


@dataclass(frozen=True)
class Played:
    """A ladder match played (or under way) and its day: what the limits and partner counts are read
    from."""

    match: LadderMatch
    day: date


@dataclass(frozen=True)
class Scheduler:
    """Chooses the next match (:meth:`next_match`) within ``limits``; ``explore`` is the chance that a
    match is drawn without weighing the ratings."""

    limits: Limits = field(default_factory=Limits)
    explore: float = 0.1

    def __post_init__(self) -> None:
        if not 0.0 <= self.explore <= 1.0:
            raise BadLimitsError(f"explore is a probability from 0 to 1, got {self.explore!r}")

    def exclusions(
        self,
        roster: Roster,
        ready: Iterable[str],
        history: Sequence[Played],
        running: Sequence[Played],
        today: date,
    ) -> dict[str, str]:
        """Why each ready entrant that is not eligible is left out, by key."""
        keys = _known(roster, ready)
        _known(roster, (key for line in [*history, *running] for key in line.match.entrants))
        playing = {key for line in running for key in line.match.entrants}
        today_counts = Counter(
            key for line in [*history, *running] if line.day == today for key in line.match.entrants
        )
        owner_running = Counter(
            owner for line in running for owner in {roster[key].owner for key in line.match.entrants}
        )
        reasons: dict[str, str] = {}
        for key in keys:
            entrant = roster[key]
            if key in playing:
                reasons[key] = "is playing a match"
            elif today_counts[key] >= self.limits.per_day:
                reasons[key] = (
                    f"has played {today_counts[key]} matches today (the limit is {self.limits.per_day})"
                )
            elif (
                not self.limits.shares_tables(entrant)
                and owner_running[entrant.owner] >= self.limits.per_owner
            ):
                reasons[key] = (
                    f"its owner {entrant.owner!r} has {owner_running[entrant.owner]} matches running"
                    f" (the limit is {self.limits.per_owner})"
                )
        return reasons

    def next_match(
        self,
        pool: LadderPool,
        ready: Iterable[str],
        *,
        history: Sequence[Played] = (),
        running: Sequence[Played] = (),
        today: date,
        rng: random.Random,
    ) -> LadderMatch:
        """The next match among the ``ready`` entrants (keys on ``pool``'s roster), given the matches
        played (``history``) and under way (``running``). A :class:`NotEnoughEntrantsError` says why when no
        match can be made; an :class:`~cardroom.ladder.errors.UnknownEntrantError` names a key not on the
        roster."""
        roster = pool.roster
        keys = _known(roster, ready)
        reasons = self.exclusions(roster, keys, history, running, today)
        eligible = [key for key in keys if key not in reasons]
        if len(eligible) < 4:
            left_out = "; ".join(f"{key} {why}" for key, why in reasons.items())
            raise NotEnoughEntrantsError(
                f"a ladder match needs four eligible entrants; {len(eligible)} of the {len(keys)} ready are"
                + (f" ({left_out})" if left_out else "")
            )
        lines = [*history, *running]
        totals = Counter(key for line in lines for key in line.match.entrants)
        today_counts = Counter(key for line in lines if line.day == today for key in line.match.entrants)
        partnered = Counter(pair for line in lines for pair in line.match.partners)
        weigh_ratings = rng.random() >= self.explore
        firsts = sorted(eligible, key=lambda key: (today_counts[key], totals[key], rng.random()))
        for first in firsts:
            others = self._others(roster, pool, first, [key for key in eligible if key != first], rng)
            if len(others) < 3:
                continue
            best: tuple[float, float, tuple[tuple[str, str], tuple[str, str]]] | None = None
            for trio in itertools.combinations(others, 3):
                for team_a, team_b in _splits(first, trio):
                    cost = float(partnered[frozenset(team_a)] + partnered[frozenset(team_b)])
                    if weigh_ratings:
                        cost += _rating_cost(pool, team_a, team_b)
                    candidate = (cost, rng.random(), (team_a, team_b))
                    if best is None or candidate[:2] < best[:2]:
                        best = candidate
            assert best is not None
            team_a, team_b = best[2]
            if rng.random() < 0.5:
                team_a, team_b = team_b, team_a
            return LadderMatch(team_a, team_b, rng.getrandbits(63))
        raise NotEnoughEntrantsError(
            f"no table of four among the {len(eligible)} eligible entrants without two of one owner"
            f" ({', '.join(sorted({roster[key].owner for key in eligible}))})"
        )

    def _others(
        self, roster: Roster, pool: LadderPool, first: str, candidates: list[str], rng: random.Random
    ) -> list[str]:
        """Those weighed beside ``first``: its nearest in rating, then a few at random, at most one per
        owner and none of ``first``'s owner (the house excepted)."""
        anchor = pool.mu(first)
        near = sorted(candidates, key=lambda key: (abs(pool.mu(key) - anchor), rng.random()))
        owners = set() if self.limits.shares_tables(roster[first]) else {roster[first].owner}
        chosen: list[str] = []
        rest: list[str] = []
        for key in near:
            entrant = roster[key]
            if entrant.owner in owners:
                continue
            if len(chosen) < NEIGHBOURS:
                chosen.append(key)
                if not self.limits.shares_tables(entrant):
                    owners.add(entrant.owner)
            else:
                rest.append(key)
        rng.shuffle(rest)
        for key in rest:
            if len(chosen) >= NEIGHBOURS + EXPLORERS:
                break
            entrant = roster[key]
            if entrant.owner not in owners:
                chosen.append(key)
                if not self.limits.shares_tables(entrant):
                    owners.add(entrant.owner)
        return chosen


def _known(roster: Roster, keys: Iterable[str]) -> list[str]:
    """``keys`` without repeats, in order, each checked on the roster."""
    found = list(dict.fromkeys(keys))
    for key in found:
        roster[key]
    return found


def _splits(first: str, trio: tuple[str, str, str]) -> list[tuple[tuple[str, str], tuple[str, str]]]:
    """The three ways of making two teams of ``first`` and ``trio``: ``first`` partners each in turn."""
    splits = []
    for index, partner in enumerate(trio):
        rest = trio[:index] + trio[index + 1 :]
        splits.append(((first, partner), (rest[0], rest[1])))
    return splits


def _rating_cost(pool: LadderPool, team_a: tuple[str, str], team_b: tuple[str, str]) -> float:
    """The spread of the four ratings (μ) and the difference of the teams' sums, in units of
    :data:`RATING_SCALE`."""
    mus = [pool.mu(key) for key in (*team_a, *team_b)]
    spread = max(mus) - min(mus)
    balance = abs(mus[0] + mus[1] - mus[2] - mus[3])
    return (spread + balance) / RATING_SCALE


__all__ = ["EXPLORERS", "NEIGHBOURS", "RATING_SCALE", "LadderMatch", "Limits", "Played", "Scheduler"]
