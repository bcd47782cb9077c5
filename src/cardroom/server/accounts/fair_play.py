"""What keeps the ratings a measure of people (docs/accounts.md, "What a rating counts").

- A rated table seats four people, each signed in to an account, one seat each: no bot plays one
  (:func:`rated_table_problem`; the table refuses a second seat to one account), and only a signed-in
  account creates one.
- 托管 may stand in for a seat's own player, but a player whose seat 托管 played for more than
  :data:`MAX_AUTO_SHARE` of its decisions in a match gains nothing from it (:func:`auto_share`); a
  loss still counts.
- Only the first :data:`SAME_OPPONENTS_LIMIT` rated matches a player plays against the same two
  opponents within :data:`SAME_OPPONENTS_WINDOW` change its rating; later ones are listed, unrated.

:mod:`cardroom.server.accounts.ratings` applies these when it rates a match.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import timedelta
from typing import Any, Final

from cardroom.server.tables.config import TableConfig
from cardroom.server.tables.refusals import RefusedError

MAX_AUTO_SHARE: Final = 0.5
"""The share of a player's decisions in a match that 托管 may have taken for the match to raise the
player's rating: more than half, and it is 托管's match, not the player's."""
SAME_OPPONENTS_LIMIT: Final = 3
"""Rated matches against the same two opponents that count within :data:`SAME_OPPONENTS_WINDOW`:
an evening's rematches count, a farm of them does not."""
SAME_OPPONENTS_WINDOW: Final = timedelta(hours=24)
"""The rolling window :data:`SAME_OPPONENTS_LIMIT` counts in."""

DECISIONS: Final = frozenset({"action", "chosen"})
"""Log entries that are a seat's decisions: its actions (plays, passes, tributes, returns) and its
answers to a conduct choice."""


def rated_table_refusal(config: TableConfig) -> RefusedError | None:
    """Why a new table cannot be rated as asked (400), or ``None``: a rated table seats no bot."""
    if not config.rated:
        return None
    bots = [seat for seat, chosen in enumerate(config.seats) if chosen.kind == "bot"]
    if not bots:
        return None
    return RefusedError(400, "rated_seats_bots", seats=bots)


def auto_share(log: Sequence[dict[str, Any]], seat: int) -> tuple[int, int]:
    """How many of ``seat``'s decisions in the log someone else took (托管, or a choice's deadline),
    and how many it made in all."""
    total = others = 0
    for entry in log:
        if entry.get("type") in DECISIONS and entry.get("seat") == seat:
            total += 1
            others += entry.get("by") != "player"
    return others, total


def mostly_auto(log: Sequence[dict[str, Any]], seat: int) -> bool:
    """Whether 托管 took more than :data:`MAX_AUTO_SHARE` of ``seat``'s decisions."""
    others, total = auto_share(log, seat)
    return total > 0 and others > MAX_AUTO_SHARE * total


__all__ = [
    "MAX_AUTO_SHARE",
    "SAME_OPPONENTS_LIMIT",
    "SAME_OPPONENTS_WINDOW",
    "auto_share",
    "mostly_auto",
    "rated_table_refusal",
]
