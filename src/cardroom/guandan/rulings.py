"""The referee's rulings that change the game (docs/rules/competition.md#penalties) as engine actions.

- 违例: "由违规者的下家决定是否停止违规者一次出牌。如违规者应下圈牌领出，则按出牌顺序由非违规方领出牌。"
  → :class:`SkipTurnRuling`.
- 犯规: "本副牌结束，违规方双下，下副牌不进贡，由违规者的下家或裁判长指定首圈领出者。" → :class:`FoulRuling`.
- 判负: "判本轮比赛结束，非违规方胜，按违规方级数升4级记级（违规方级数可降至J），弃权记分17:0。如场上级差超过
  4级，则以场上比分为准。" → :class:`ForfeitRuling`.

Nobody chooses these in play: a referee or server applies them through ``Deal``/``Match``
``verify_ruling``/``can_ruling``/``apply_ruling``. Seats are numbered in play order (``seat + 1`` is the
下家); side 0 is seats 0 & 2.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import ClassVar, Final

from cardroom.cards import Rank
from cardroom.guandan.scoring import PASSED_ACE, round_points

FORFEIT_LEVELS: Final = 4
""""按违规方级数升4级记级": the winner is recorded this many levels above the offender."""
FORFEIT_FLOOR: Final = int(Rank.JACK)
""""违规方级数可降至J": the offender's level is recorded at J at most."""
FORFEIT_SCORE: Final = (17, 0)
""""弃权记分17:0": the winner's and the loser's score."""


@dataclass(frozen=True)
class SkipTurnRuling:
    """违例: ``seat`` (the offender, now to act) loses this turn to play, its 下家 having chosen so.
    Following, it is a pass; leading, the lead goes to the other side (:func:`skipped_lead_to`)."""

    seat: int
    name: ClassVar[str] = "skip_turn"
    """The ruling's name in records."""


@dataclass(frozen=True)
class FoulRuling:
    """犯规 by ``seat``: the deal ends now with the offender's side 双下 (:func:`foul_places`); the next
    deal has no tribute and a leader named by the offender's 下家 or the chief referee."""

    seat: int
    name: ClassVar[str] = "foul"


@dataclass(frozen=True)
class ForfeitRuling:
    """判负 (or 弃权) of ``side``: the match ends now and the other side wins; ``reason`` is free text."""

    side: int
    reason: str = ""


DealRuling = SkipTurnRuling | FoulRuling
"""The rulings a deal applies."""
MatchRuling = SkipTurnRuling | FoulRuling | ForfeitRuling
"""The rulings a match applies."""


def skipped_lead_to(offender: int, finished: Sequence[int]) -> int:
    """Who leads when the offender's lead is skipped: "按出牌顺序由非违规方领出牌", the next player in
    play order from the offender who is on the other side and still in."""
    for step in (1, 3):
        seat = (offender + step) % 4
        if seat not in finished:
            return seat
    raise ValueError("both players of the other side are out: the deal is over")


def foul_places(offender: int, finished: Sequence[int] = ()) -> tuple[int, int, int, int]:
    """The finishing order of a deal ended by a foul, "违规方双下": the other side takes places 1 and 2
    (a player of it already out first, else in play order from the offender), then the offender's
    partner, then the offender."""
    if offender not in range(4):
        raise ValueError(f"a seat is 0–3, got {offender}")
    others = [seat for seat in finished if seat % 2 != offender % 2]
    others += [seat for seat in ((offender + 1) % 4, (offender + 3) % 4) if seat not in others]
    return others[0], others[1], (offender + 2) % 4, offender


def forfeit_levels(table_levels: tuple[int, int], side: int) -> tuple[int, int]:
    """The levels recorded after ``side`` forfeits (values 2…15, 15 for a passed A): the offender's
    level lowered to J at most and the winner 4 above it; the table's levels when the winner led by
    more than 4 ("如场上级差超过4级，则以场上比分为准")."""
    winner = 1 - side
    if table_levels[winner] - table_levels[side] > FORFEIT_LEVELS:
        return table_levels
    recorded = [0, 0]
    recorded[side] = min(table_levels[side], FORFEIT_FLOOR)
    recorded[winner] = min(recorded[side] + FORFEIT_LEVELS, PASSED_ACE)
    return recorded[0], recorded[1]


def forfeit_points(table_levels: tuple[int, int], side: int) -> tuple[int, int]:
    """The round score (team 0, team 1) after ``side`` forfeits: 17 : 0 to the winner, or the table's
    28-point score when the winner led by more than 4 levels."""
    winner = 1 - side
    lead = table_levels[winner] - table_levels[side]
    scores = round_points(lead) if lead > FORFEIT_LEVELS else FORFEIT_SCORE
    return scores if winner == 0 else (scores[1], scores[0])


__all__ = [
    "FORFEIT_FLOOR",
    "FORFEIT_LEVELS",
    "FORFEIT_SCORE",
    "DealRuling",
    "ForfeitRuling",
    "FoulRuling",
    "MatchRuling",
    "SkipTurnRuling",
    "forfeit_levels",
    "forfeit_points",
    "foul_places",
    "skipped_lead_to",
]
