"""Lateness (迟到) by the competition rules (docs/rules/competition.md#late): once the round is declared
started, a side (一方) not in its seats is late; up to 5 minutes a warning (警告), up to 10 minutes a
foul (犯规), over 10 minutes a forfeit (按弃权处理); when both sides are late, the one that came first is
warned and the other judged by its time.

A side judged a foul (犯规) for lateness loses its match's first deal as a foul (#foul: the deal ends as
the side's 双下, the other side rises 3 levels, the next deal has no tribute): :func:`late_foul_seat`
and :func:`rule_late_foul` apply it to an engine match.

Pure functions of the times given: the round's start, each side's arrival (``None``: not seated yet)
and the time of asking. "以内" (within) includes its bound, as Chinese rules and laws read it: 5:00 late
is a warning, 5:01 a foul, 10:00 a foul, 10:01 a forfeit; seated at the start (or before) is on time.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

from cardroom.guandan.match import DealSummary, Match
from cardroom.guandan.ruleset import COMPETITION, RuleSet
from cardroom.guandan.rulings import FoulRuling
from cardroom.tournament.conduct import Clocks, Penalty, late_penalty


@dataclass(frozen=True)
class SideLateness:
    """One side's lateness at a table, as known at the time asked.

    ``late_s``: seconds late (to its arrival, or so far when not seated); ``penalty``: what the rules give
    it (``None``: none); ``final``: whether that can no longer change (the side is seated and its
    opponent is seated or later than it, or the side is past the forfeit limit)."""

    seated: bool
    late_s: float
    penalty: Penalty | None
    final: bool


def judge_lateness(
    started_at: datetime,
    arrivals: tuple[datetime | None, datetime | None],
    now: datetime,
    clocks: Clocks | None = None,
) -> tuple[SideLateness, SideLateness]:
    """Both sides' lateness at one table at time ``now``.

    A side seated late is judged by its own time (:func:`late_penalty`), unless the other side is late
    too and came after it: "如双方均迟到，较早到的一方给予警告，较晚到的一方按迟到时间给予判罚". A side
    still missing is later than one seated, so a side seated late while its opponent is missing is
    warned at once. A side missing past the forfeit limit has forfeited (弃权), both sides if both are
    missing. Sides seated at the same moment are each judged by their own time."""
    limits = clocks or Clocks()
    arrivals = (_by(arrivals[0], now), _by(arrivals[1], now))
    late = [
        (arrival - started_at).total_seconds() if arrival is not None else (now - started_at).total_seconds()
        for arrival in arrivals
    ]
    sides = []
    for side in (0, 1):
        other = 1 - side
        if arrivals[side] is None:
            missing = late_penalty(late[side], limits)
            sides.append(SideLateness(False, max(late[side], 0.0), missing, missing is Penalty.FORFEIT))
            continue
        own = late_penalty(late[side], limits)
        other_later = arrivals[other] is None or late[other] > late[side]
        if own is not None and other_later and late[other] > 0:
            penalty: Penalty | None = Penalty.WARNING
        else:
            penalty = own
        final = arrivals[other] is not None or other_later
        sides.append(SideLateness(True, max(late[side], 0.0), penalty, final))
    return sides[0], sides[1]


def _by(arrival: datetime | None, now: datetime) -> datetime | None:
    return arrival if arrival is not None and arrival <= now else None


def describe_late(late_s: float) -> str:
    """Minutes and seconds late as a referee writes them, a part second counted whole: 迟到5分01秒."""
    whole = math.ceil(late_s)
    return f"迟到{whole // 60}分{whole % 60:02d}秒"


def late_foul_seat(side: int, seated: tuple[datetime | None, ...] = ()) -> int:
    """The seat that stands for ``side`` in the foul of its lateness (the engine's foul names a seat,
    whose 下家 names the next deal's leader): the side's player seated last, when ``seated`` gives the
    four seats' arrivals, else the side's first seat (0 or 1)."""
    if side not in (0, 1):
        raise ValueError(f"a side is 0 or 1, got {side}")
    times = [(seated[seat], seat) for seat in (side, side + 2) if seat < len(seated) and seated[seat]]
    return max(times)[1] if times else side


def rule_late_foul(match: Match, seat: int, number: int = 1) -> None:
    """The foul (犯规) of a side judged late (docs/rules/competition.md#late) on deal ``number`` of its
    match (the first), dealt and not yet over: the deal ends at once as a 双下 of ``seat``'s side, the
    other side rises (+3 in the competition rules), and the next deal has no tribute, its leader named
    by ``seat``'s 下家 (docs/rules/competition.md#foul)."""
    deal = match.current_deal
    if len(match.deals) != number or deal is None:
        raise ValueError(
            f"a foul for lateness ends deal {number} of the match: the match has dealt "
            f"{len(match.deals)} deal(s), {'one' if deal is not None else 'none'} in play"
        )
    match.apply_ruling(FoulRuling(seat))


def late_foul_deals(sides: Sequence[int], rules: RuleSet = COMPETITION) -> tuple[DealSummary, ...]:
    """The first deals of a match as the fouls for lateness of ``sides`` (in the order judged:
    :meth:`Round.late_fouls`) end them, played by the engine (:func:`rule_late_foul`): what a score
    sheet writes on its first lines (the level played, the winner, the levels after)."""
    match = Match(rules)
    rng = random.Random(0)  # the cards do not matter: each deal ends before a card is played
    for number, side in enumerate(sides, start=1):
        match.deal_random(rng, None if number == 1 else match.leader_chooser)
        rule_late_foul(match, late_foul_seat(side), number)
    return tuple(match.summaries)


__all__ = [
    "SideLateness",
    "describe_late",
    "judge_lateness",
    "late_foul_deals",
    "late_foul_seat",
    "rule_late_foul",
]
