"""A text view of a match for the environments' ``render`` (every hand shown: for debugging)."""

from __future__ import annotations

from cardroom.cards import format_cards
from cardroom.guandan.match import Match


def render_text(match: Match) -> str:
    """Deal number, levels, the play to beat, who acts, and each seat's cards."""
    lines = [
        f"match {match.phase.value}: levels {match.levels[0].letter} (seats 0 & 2) "
        f"and {match.levels[1].letter} (seats 1 & 3)"
    ]
    if not match.deals:
        return lines[0]
    deal = match.deals[-1]
    lines.append(f"deal {len(match.deals)} at level {deal.level.letter}, {deal.phase.value}")
    if deal.last_play is not None:
        seat, play = deal.last_play
        lines.append(f"to beat: {play.describe()} by seat {seat}")
    if deal.current_player is not None:
        lines.append(f"to act: seat {deal.current_player}")
    for seat in range(4):
        place = f" (out, place {deal.finished.index(seat) + 1})" if seat in deal.finished else ""
        lines.append(f"seat {seat} [{deal.card_count(seat):2d}]{place}: {format_cards(deal.hand(seat))}")
    if deal.result is not None:
        lines.append("places: " + " ".join(str(seat) for seat in deal.result.places))
    return "\n".join(lines)


__all__ = ["render_text"]
