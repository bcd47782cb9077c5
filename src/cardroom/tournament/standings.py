"""Standings of a multi-round event (docs/rules/competition.md#tie-breaks): total round points, then the
tie-breaks in the source's order, then lots.

摜彈: "多轮比赛排名办法：每轮比赛胜者积2分、负者积0分，平则各积1分，总积分多者名次列前。总积分相等，
依次比较相等者（去首）累进分、胜轮次、级差分、升级数，多者名次列前；仍相等，则抽签决定。"

Each :class:`StandingRow` says which criterion separated it from the team just above and just below.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from enum import Enum

from cardroom.tournament.scoring import ResultKind, TableResult


class Criterion(Enum):
    """The ranking criteria, in order: 总积分, (去首)累进分, 胜轮次, 级差分, 升级数, 抽签."""

    POINTS = "points"
    PROGRESSIVE = "progressive"
    WINS = "wins"
    LEVEL_DIFFERENCE = "level_difference"
    LEVELS_GAINED = "levels_gained"
    LOTS = "lots"

    @property
    def label(self) -> str:
        """The criterion's name on a results board."""
        return LABELS[self]

    @property
    def definition(self) -> str:
        """摜彈's definition."""
        return DEFINITIONS[self]


LABELS = {
    Criterion.POINTS: "总积分",
    Criterion.PROGRESSIVE: "去首累进分",
    Criterion.WINS: "胜轮次",
    Criterion.LEVEL_DIFFERENCE: "级差分",
    Criterion.LEVELS_GAINED: "升级数",
    Criterion.LOTS: "抽签",
}
DEFINITIONS = {
    Criterion.POINTS: "总积分：每轮积分之和。",
    Criterion.PROGRESSIVE: "（去首）累进分：从第二轮开始计算的每轮累计积分之和。",
    Criterion.WINS: "胜轮次：比赛中获胜（积2分）轮次的数量。",
    Criterion.LEVEL_DIFFERENCE: "级差分：每轮级差分（按13级26分制计算）之和。",
    Criterion.LEVELS_GAINED: "升级数：每轮升级数之和。",
    Criterion.LOTS: "仍相等，则抽签决定。",
}
ORDER = tuple(Criterion)


@dataclass(frozen=True)
class TeamRound:
    """One team's part in one round: the result seen from its side."""

    round: int
    opponent: str | None
    side: int
    result: TableResult

    @property
    def points(self) -> int:
        return self.result.round_points[self.side]

    @property
    def won(self) -> bool:
        return self.result.winner == self.side

    @property
    def lost(self) -> bool:
        return self.result.winner == 1 - self.side

    @property
    def level_difference(self) -> int:
        """级差分 in the 26-point table (:meth:`level_points` for an event's own table)."""
        return self.result.score26[self.side]

    def level_points(self, table: int) -> int:
        """级差分 in the table of 26 or 28 points."""
        return self.result.level_points(table)[self.side]

    @property
    def levels_gained(self) -> int:
        return self.result.levels_gained(self.side)

    @property
    def score28(self) -> int:
        return self.result.score28[self.side]

    @property
    def is_bye(self) -> bool:
        return self.result.kind is ResultKind.BYE


def progressive_score(points_by_round: Sequence[int], cut: int = 1) -> int:
    """累进分 with the first ``cut`` rounds' running totals left out: the running total (累计积分) after
    each round from round ``cut + 1`` on, summed. "（去首）累进分：从第二轮开始计算的每轮累计积分之和" — the
    running totals still hold round one's points; only round one's own running total is dropped.
    Points 2, 0, 2 → running totals 2, 2, 4 → 2 + 4 = 6."""
    total = 0
    running = 0
    for number, points in enumerate(points_by_round, start=1):
        running += points
        if number > cut:
            total += running
    return total


@dataclass(frozen=True)
class Tally:
    """A team's totals over the rounds so far."""

    team: str
    lot: int
    rounds: tuple[TeamRound, ...]
    points_by_round: tuple[int, ...]
    """Round points of rounds 1, 2, …, 0 for a round the team has no result in."""
    level_table: int = 26
    """The table whose scores sum to the 级差分: 26 by the rules, or 28
    (docs/rules/competition.md#tie-breaks)."""

    @property
    def points(self) -> int:
        return sum(self.points_by_round)

    @property
    def progressive(self) -> int:
        return progressive_score(self.points_by_round)

    @property
    def wins(self) -> int:
        return sum(entry.won for entry in self.rounds)

    @property
    def draws(self) -> int:
        return sum(entry.result.winner is None for entry in self.rounds)

    @property
    def losses(self) -> int:
        return sum(entry.lost for entry in self.rounds)

    @property
    def level_difference(self) -> int:
        """级差分: the scores of :attr:`level_table` summed."""
        return sum(entry.level_points(self.level_table) for entry in self.rounds)

    @property
    def levels_gained(self) -> int:
        return sum(entry.levels_gained for entry in self.rounds)

    @property
    def score28(self) -> int:
        """The 28-point scores summed (shown, not a tie-break)."""
        return sum(entry.score28 for entry in self.rounds)

    def value(self, criterion: Criterion) -> int:
        """The criterion's value, larger is better (the lot: its number negated, lot 1 first)."""
        values = {
            Criterion.POINTS: self.points,
            Criterion.PROGRESSIVE: self.progressive,
            Criterion.WINS: self.wins,
            Criterion.LEVEL_DIFFERENCE: self.level_difference,
            Criterion.LEVELS_GAINED: self.levels_gained,
            Criterion.LOTS: -self.lot,
        }
        return values[criterion]

    def key(self) -> tuple[int, ...]:
        return tuple(-self.value(criterion) for criterion in ORDER)


@dataclass(frozen=True)
class StandingRow:
    """A place in the standings and what decided it: ``above`` is the first criterion on which the team
    differs from the team ranked just above (``None`` for the first), ``below`` from the team just
    below (``None`` for the last)."""

    rank: int
    tally: Tally
    above: Criterion | None
    below: Criterion | None

    @property
    def team(self) -> str:
        return self.tally.team


def separated_by(first: Tally, second: Tally) -> Criterion:
    """The first criterion on which two teams differ (lots always differ)."""
    for criterion in ORDER:
        if first.value(criterion) != second.value(criterion):
            return criterion
    raise ValueError(f"{first.team} and {second.team} drew the same lot")


def tallies(
    entries: Mapping[str, Sequence[TeamRound]], lots: Mapping[str, int], level_table: int = 26
) -> list[Tally]:
    """Each team's totals, the 级差分 counted in ``level_table`` (26 or 28); every team of ``lots`` gets
    a tally (no rounds yet: zeros)."""
    if level_table not in (26, 28):
        raise ValueError(f"a level table is 26 or 28 points, got {level_table!r}")
    if len(set(lots.values())) != len(lots):
        raise ValueError("every team draws a different lot")
    unknown = set(entries) - set(lots)
    if unknown:
        raise ValueError(f"teams without a lot: {sorted(unknown)}")
    last = max((entry.round for rounds in entries.values() for entry in rounds), default=0)
    result = []
    for team, lot in lots.items():
        rounds = tuple(sorted(entries.get(team, ()), key=lambda entry: entry.round))
        if len({entry.round for entry in rounds}) != len(rounds):
            raise ValueError(f"{team} has two results in one round")
        by_round = dict.fromkeys(range(1, last + 1), 0)
        for entry in rounds:
            by_round[entry.round] = entry.points
        result.append(Tally(team, lot, rounds, tuple(by_round.values()), level_table))
    return result


def standings(
    entries: Mapping[str, Sequence[TeamRound]], lots: Mapping[str, int], level_table: int = 26
) -> tuple[StandingRow, ...]:
    """The ranking: by total round points, then (去首)累进分, 胜轮次, 级差分 (in ``level_table``: 26 by
    the rules, or 28), 升级数, then the lot drawn (lot 1 first). ``entries`` holds each team's rounds;
    ``lots`` each team's lot number."""
    ordered = sorted(tallies(entries, lots, level_table), key=Tally.key)
    rows = []
    for index, tally in enumerate(ordered):
        above = separated_by(ordered[index - 1], tally) if index > 0 else None
        below = separated_by(tally, ordered[index + 1]) if index + 1 < len(ordered) else None
        rows.append(StandingRow(index + 1, tally, above, below))
    return tuple(rows)


__all__ = [
    "ORDER",
    "Criterion",
    "StandingRow",
    "Tally",
    "TeamRound",
    "progressive_score",
    "separated_by",
    "standings",
    "tallies",
]
