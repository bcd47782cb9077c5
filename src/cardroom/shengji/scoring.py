"""The arithmetic of a Shengji result: the result table (升級標準), the kitty multiplier (摳底) and
rising along the level ladder with its must-play stops."""

from __future__ import annotations

from dataclasses import dataclass

from cardroom.cards import Rank
from cardroom.shengji.ruleset import ShengjiRules

TOTAL_POINTS = 200
"""5s, 10s and Ks of both decks: 8 × 5 + 8 × 10 + 8 × 10 (seed: 兩副牌共200分)."""


@dataclass(frozen=True)
class Outcome:
    """What a score means: whether the attackers take over (上台) and how many levels the side that
    keeps or takes the deal rises (before the ladder's stops)."""

    attackers_take_over: bool
    rise: int


def outcome(score: int, rules: ShengjiRules) -> Outcome:
    """Read the attackers' ``score`` in the result table (a score under the first row reads as it)."""
    if score >= rules.take_over_score:
        return Outcome(True, min(rules.max_rise, _row(rules.attacker_table, score)))
    return Outcome(False, min(rules.max_rise, _row(rules.dealer_table, score)))


def _row(table: tuple[tuple[int, int], ...], score: int) -> int:
    rise = table[0][1]
    for lowest, levels in table:
        if score >= lowest:
            rise = levels
    return rise


def kitty_multiplier(pairs: int, rules: ShengjiRules) -> int:
    """The kitty's multiplier when the attackers win the last trick with a unit of ``pairs`` pairs
    (0 single, 1 pair, n an n-pair tractor): ×2, ×4, ×8 … by default."""
    if pairs < 0:
        raise ValueError(f"a unit has 0 or more pairs, got {pairs}")
    return int(rules.kitty_single_multiplier * rules.kitty_pair_factor**pairs)


def rise_level(level: Rank, steps: int, rules: ShengjiRules) -> Rank:
    """``level`` raised ``steps`` rungs of the ladder, stopping at the first must-play level reached
    (一個必打級) and at the top (seed: 逢2、J、A級必須打)."""
    ladder = rules.levels
    if level not in ladder:
        raise ValueError(f"{level.name} is not on the level ladder")
    index = ladder.index(level)
    for _ in range(steps):
        if index == len(ladder) - 1:
            break
        index += 1
        if ladder[index] in rules.must_play:
            break
    return ladder[index]


__all__ = ["TOTAL_POINTS", "Outcome", "kitty_multiplier", "outcome", "rise_level"]
