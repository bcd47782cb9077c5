"""Pairing teams for a round: round robin (循环赛, circle method) and Swiss (瑞士制).

Swiss pairs the standings from the top: each team, in rank order, meets the best opponent left (same
score group first, then a team whose side preference fits, then top half against bottom half of the
score group as in the Dutch system, then rank) *such that the rest can still be paired with the fewest
repeat pairings possible*.
That fewest number comes from a maximum matching of the "not met yet" graph (Edmonds' blossom
algorithm, :mod:`cardroom.tournament.matching`), so no pairing repeats while any repeat-free pairing
exists, and the bye goes to a team that has not had one while that is possible.

Sides: at each table the team that has sat fewer rounds at seats 0 & 2 takes them; at equal counts the
team that sat 1 & 3 last round, then the higher-ranked team on odd tables and the lower on even ones.
Two teams both two rounds off balance on the same side meet, for the first time or again, only where
no pairing with the fewest repeats keeps them apart.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from cardroom.tournament.matching import matching_size


@dataclass(frozen=True)
class Pairing:
    """One table of a round: ``teams[0]`` sits at seats 0 & 2, ``teams[1]`` at seats 1 & 3."""

    table: int
    teams: tuple[str, str]

    def side_of(self, team: str) -> int:
        """0 for the team at seats 0 & 2, 1 for the team at seats 1 & 3."""
        if team not in self.teams:
            raise ValueError(
                f"team {team} is not at table {self.table}: "
                f"the teams there are {self.teams[0]} and {self.teams[1]}"
            )
        return self.teams.index(team)

    def to_dict(self) -> dict[str, Any]:
        return {"table": self.table, "teams": list(self.teams)}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Pairing:
        first, second = data["teams"]
        return cls(int(data["table"]), (str(first), str(second)))


@dataclass(frozen=True)
class RoundDraw:
    """A round's tables and the team without an opponent (轮空), if any."""

    pairings: tuple[Pairing, ...]
    bye: str | None = None

    def teams(self) -> list[str]:
        found = [team for pairing in self.pairings for team in pairing.teams]
        return found + ([self.bye] if self.bye is not None else [])


@dataclass(frozen=True)
class Entrant:
    """What pairing knows of a team: round points so far, opponents met, byes had, and sides sat
    (rounds at seats 0 & 2, rounds at 1 & 3; the last one)."""

    team: str
    score: int = 0
    opponents: frozenset[str] = frozenset()
    byes: int = 0
    sides: tuple[int, int] = (0, 0)
    last_side: int | None = None

    @property
    def balance(self) -> int:
        """Rounds at 0 & 2 minus rounds at 1 & 3."""
        return self.sides[0] - self.sides[1]

    @property
    def side_wanted(self) -> int | None:
        """The side that evens the balance, else the other side than last time, else none."""
        if self.balance:
            return 0 if self.balance < 0 else 1
        return None if self.last_side is None else 1 - self.last_side


def assign_sides(higher: Entrant, lower: Entrant, table: int) -> Pairing:
    """Seat two teams (``higher`` ranked above ``lower``) at ``table``: fewer rounds at 0 & 2 takes
    0 & 2; then the one that sat 1 & 3 last; then the higher team on odd tables, the lower on even."""
    if higher.balance != lower.balance:
        first = higher if higher.balance < lower.balance else lower
    elif higher.last_side != lower.last_side and 1 in (higher.last_side, lower.last_side):
        first = higher if higher.last_side == 1 else lower
    elif higher.last_side != lower.last_side:  # one sat 0 & 2 last, the other had no side
        first = lower if higher.last_side == 0 else higher
    else:
        first = higher if table % 2 == 1 else lower
    second = lower if first is higher else higher
    return Pairing(table, (first.team, second.team))


# -- round robin -------------------------------------------------------------------------------------


def round_robin(teams: Sequence[str]) -> tuple[RoundDraw, ...]:
    """Every round of a round robin by the circle method (the last team fixed, the others turning);
    with an odd number of teams each team has one bye. Tables are numbered in order; sides balanced
    round by round by :func:`assign_sides`."""
    if len(set(teams)) != len(teams) or len(teams) < 2:
        raise ValueError("a round robin needs two or more distinct teams")
    slots: list[str | None] = [*teams, None] if len(teams) % 2 else list(teams)
    n = len(slots)
    fixed, turning = slots[-1], slots[:-1]
    entrants = {team: Entrant(team) for team in teams}
    rank = {team: index for index, team in enumerate(teams)}
    rounds = []
    for number in range(n - 1):
        order = turning[number:] + turning[:number]
        couples = [(order[0], fixed)] + [(order[i], order[n - 1 - i]) for i in range(1, n // 2)]
        pairings: list[Pairing] = []
        bye = None
        for first, second in couples:
            if first is None or second is None:
                bye = first if second is None else second
                continue
            higher, lower = sorted((first, second), key=rank.__getitem__)
            pairings.append(assign_sides(entrants[higher], entrants[lower], len(pairings) + 1))
        for pairing in pairings:
            for side, team in enumerate(pairing.teams):
                entrants[team] = _seated(entrants[team], side)
        rounds.append(RoundDraw(tuple(pairings), bye))
    return tuple(rounds)


def _seated(entrant: Entrant, side: int) -> Entrant:
    sides = (entrant.sides[0] + (side == 0), entrant.sides[1] + (side == 1))
    return Entrant(entrant.team, entrant.score, entrant.opponents, entrant.byes, sides, side)


# -- Swiss ---------------------------------------------------------------------------------------------


def swiss_round(entrants: Sequence[Entrant]) -> RoundDraw:
    """Pair one Swiss round. ``entrants`` are in standings order (best first).

    Guarantees: the number of repeat pairings (a bye to a team that had one counts as one) is the
    fewest possible this round; if some such pairing has no severe side clash (:func:`_severe_clash`),
    neither has this one; subject to that, the bye goes to the lowest team that leaves the others
    pairable so, and each team from the top meets the best opponent left by (score difference, side
    preference clash, Dutch position: top half against bottom half of its score group, rank)."""
    teams = [entrant.team for entrant in entrants]
    if len(set(teams)) != len(teams) or len(teams) < 2:
        raise ValueError("a Swiss round needs two or more distinct teams")
    count = len(entrants)
    bye = count if count % 2 else None  # a phantom vertex: meeting it is the bye
    size = count + (bye is not None)
    fresh_pairs = _first_meetings(entrants, bye, lambda a, b: True)
    repeats = size // 2 - matching_size(fresh_pairs)
    clashes = _Clashes(entrants)
    allowed = _first_meetings(entrants, bye, lambda a, b: not _severe_clash(a, b))
    if not _pairable(allowed, list(range(size)), repeats, clashes):  # every such pairing has a clash
        allowed, clashes = fresh_pairs, _Clashes(())
    groups = _groups(entrants)
    free = list(range(size))
    chosen: list[tuple[int, int]] = []
    if bye is not None:
        for team in reversed(range(count)):
            left = [v for v in range(count) if v != team]
            repeated = team not in allowed[bye]
            if _pairable(allowed, left, repeats - repeated, clashes):
                chosen.append((team, bye))
                repeats -= repeated
                free = left
                break
    while free:
        top, rest = free[0], free[1:]
        candidates = sorted(rest, key=lambda other: _preference(entrants, groups, bye, top, other, allowed))
        for other in candidates:
            if clashes.between(top, other):
                continue
            left = [v for v in rest if v != other]
            repeated = other not in allowed[top]
            if _pairable(allowed, left, repeats - repeated, clashes):
                chosen.append((top, other))
                repeats -= repeated
                free = left
                break
        else:  # pragma: no cover - the maximum matching guarantees a candidate
            raise AssertionError("no opponent keeps the fewest repeats")
    pairings: list[Pairing] = []
    bye_team = None
    for top, other in chosen:
        if other == bye:
            bye_team = entrants[top].team
        else:
            pairings.append(assign_sides(entrants[top], entrants[other], len(pairings) + 1))
    return RoundDraw(tuple(pairings), bye_team)


SEVERE = 2
"""Both teams this far off balance on the same side: seating them together pushes one to 3."""
SEVERE_COST = 2
"""Where such a clash cannot be avoided without a repeat, it weighs as much as a score difference of
2 (one win) in the choice of opponent."""


def _severe_clash(a: Entrant, b: Entrant) -> bool:
    """Both teams ``SEVERE`` or more rounds off balance on the same side."""
    return a.balance * b.balance > 0 and min(abs(a.balance), abs(b.balance)) >= SEVERE


class _Clashes:
    """The teams ``SEVERE`` or more rounds off balance, by side: two of one side must not meet. Built
    from no entrants, it forbids nothing."""

    def __init__(self, entrants: Sequence[Entrant]) -> None:
        self.over = {i for i, e in enumerate(entrants) if e.balance >= SEVERE}
        self.under = {i for i, e in enumerate(entrants) if e.balance <= -SEVERE}

    def between(self, a: int, b: int) -> bool:
        return {a, b} <= self.over or {a, b} <= self.under


def _pairable(allowed: list[set[int]], vertices: list[int], repeats: int, clashes: _Clashes) -> bool:
    """Whether ``vertices`` (the phantom bye among them, if free) can all be paired with at most
    ``repeats`` pairs outside ``allowed`` and the others in it, no pair a clash.

    The repeats may pair any two teams but two of ``clashes.over`` or two of ``clashes.under``; teams
    left to them can be so paired exactly when neither side has more than half of them. Two sets of
    ``repeats`` stand-in vertices check that within one maximum matching: the first takes any team but
    those under, the second any but those over; all vertices are matched exactly when ``allowed`` pairs
    the rest and the teams left over fit the stand-ins."""
    if repeats < 0 or 2 * repeats > len(vertices):
        return False
    needed = len(vertices) // 2 - repeats
    if not repeats or not (clashes.over or clashes.under):
        return matching_size(allowed, vertices) >= needed
    graph = [set(neighbours) for neighbours in allowed]
    stand_ins: list[int] = []
    for excluded in (clashes.under, clashes.over):
        for _ in range(repeats):
            stand_in = len(graph)
            takes = {v for v in vertices if v not in excluded}
            graph.append(takes)
            for v in takes:
                graph[v].add(stand_in)
            stand_ins.append(stand_in)
    return matching_size(graph, vertices + stand_ins) == needed + 2 * repeats


def _first_meetings(
    entrants: Sequence[Entrant], bye: int | None, acceptable: Callable[[Entrant, Entrant], bool]
) -> list[set[int]]:
    """The graph of pairs that would meet for the first time and are ``acceptable``; the phantom
    vertex ``bye`` joins the teams that have had no bye."""
    allowed: list[set[int]] = [set() for _ in range(len(entrants) + (bye is not None))]
    for i, a in enumerate(entrants):
        for j in range(i + 1, len(entrants)):
            b = entrants[j]
            if b.team not in a.opponents and acceptable(a, b):
                allowed[i].add(j)
                allowed[j].add(i)
        if bye is not None and a.byes == 0:
            allowed[i].add(bye)
            allowed[bye].add(i)
    return allowed


def _groups(entrants: Sequence[Entrant]) -> list[tuple[int, int]]:
    """For each entrant, its score group's first index and size."""
    spans: list[tuple[int, int]] = []
    start = 0
    while start < len(entrants):
        end = start
        while end < len(entrants) and entrants[end].score == entrants[start].score:
            end += 1
        spans += [(start, end - start)] * (end - start)
        start = end
    return spans


def _preference(
    entrants: Sequence[Entrant],
    groups: list[tuple[int, int]],
    bye: int | None,
    top: int,
    other: int,
    allowed: list[set[int]],
) -> tuple[int, int, int, int, int]:
    """Sort key of ``other`` as ``top``'s opponent (smaller is better); the bye comes last."""
    if other == bye:
        return (1, 0, 0, 0, 0)
    a, b = entrants[top], entrants[other]
    start, size = groups[top]
    half = size // 2
    ideal = top + half if top - start < half else top + 1
    wanted = a.side_wanted
    clash = wanted is not None and wanted == b.side_wanted
    strong = clash and a.balance != 0 and b.balance != 0
    distance = abs(a.score - b.score) + SEVERE_COST * _severe_clash(a, b)
    return (0, int(other not in allowed[top]), distance, clash + strong, abs(other - ideal))


def repeat_count(draw: RoundDraw, entrants: Sequence[Entrant]) -> int:
    """How many of a round's pairings repeat an earlier one (a second bye counts as one)."""
    by_team = {entrant.team: entrant for entrant in entrants}
    repeats = sum(1 for p in draw.pairings if p.teams[1] in by_team[p.teams[0]].opponents)
    return repeats + int(draw.bye is not None and by_team[draw.bye].byes > 0)


__all__ = ["Entrant", "Pairing", "RoundDraw", "assign_sides", "repeat_count", "round_robin", "swiss_round"]
