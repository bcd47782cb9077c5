"""Match scoring of the competition rules (docs/rules/competition.md#score-28): the 28-point level-difference
table."""

from __future__ import annotations

from typing import Final

PASSED_ACE: Final = 15
"""The level value of a team that passed A (A itself is 14): passing A against K is a gap of 2,
as 摜彈's example says (一方過A，一方打K，級差為2級)."""

MAX_GAP: Final = 14


def round_points(gap: int) -> tuple[int, int]:
    """Winner's and loser's points for a level gap (级差 0…14): 14 + gap and 14 − gap."""
    if gap < 0:
        raise ValueError(f"a level gap is at least 0, got {gap}")
    gap = min(gap, MAX_GAP)
    return 14 + gap, 14 - gap
