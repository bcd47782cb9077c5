"""A finished Shengji deal step by step for the table page's replay: every hand open, each declaration,
the burial and every play, as the rules core replays them (a failed throw shows what was played
instead, which the record's actions alone do not say)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from cardroom.cards import Card
from cardroom.shengji import Bury, Declare, Pass, Phase, TrickRules
from cardroom.shengji.deal import Deal

if TYPE_CHECKING:
    from cardroom.shengji import Match


def deal_frames(match: Match, index: int) -> dict[str, Any]:
    """The frames of finished deal ``index`` (0-based) of ``match``: a ``ValueError`` when that deal is
    not finished."""
    if not 0 <= index < len(match.summaries):
        raise ValueError(f"deal {index + 1} is not a finished deal (finished: {len(match.summaries)})")
    played = match.deals[index]
    dealer = None if index == 0 else match.summaries[index - 1].next_dealer
    deal = Deal(played.deck, played.level, played.rules, dealer=dealer, first_drawer=played.first_drawer)
    frames: list[dict[str, Any]] = []
    for action in played.actions:
        tricks_before, events_before = len(deal.tricks), len(deal.events)
        was_declaring = deal.phase is Phase.DECLARE
        deal.apply(action)
        if was_declaring and deal.phase is not Phase.DECLARE:
            frames.append(_frame(deal, {"key": "sj.replay.start"}, None, []))
        if isinstance(action, Pass):
            continue
        if isinstance(action, Declare):
            declared = {"key": "sj.replay.declare", "seat": action.seat, "cards": _names(action.cards)}
            frames.append(_frame(deal, declared, action.seat, []))
            continue
        if isinstance(action, Bury):
            frames.append(_frame(deal, {"key": "sj.replay.bury", "seat": action.seat}, action.seat, []))
            continue
        new_events = deal.events[events_before:]
        failed = next((event for event in new_events if event.kind == "throw_failed"), None)
        plays = deal.tricks[-1].plays if len(deal.tricks) > tricks_before else tuple(deal.trick_plays)
        shown = dict(plays)
        note: dict[str, Any] = {
            "key": "sj.replay.play",
            "seat": action.seat,
            "cards": _names(shown[action.seat]),
        }
        if failed is not None:
            note = {"key": "sj.replay.failed", "seat": action.seat, "cards": _names(shown[action.seat])}
        if len(deal.tricks) > tricks_before:
            trick = deal.tricks[-1]
            note["trick"] = {"key": "sj.replay.trick", "seat": trick.winner, "points": trick.points}
        frames.append(_frame(deal, note, action.seat, plays))
    assert deal.result is not None
    end = {"key": "sj.replay.end", "cards": _names(deal.buried), "score": deal.result.score}
    frames.append(_frame(deal, end, None, deal.tricks[-1].plays if deal.tricks else ()))
    return {
        "deal_number": index + 1,
        "level": played.level.letter,
        "dealer": played.dealer,
        "trump": None if played.trump is None else played.trump.letter,
        "frames": frames,
    }


def _names(cards: tuple[Card, ...] | list[Card]) -> list[str]:
    return [str(card) for card in cards]


def _frame(deal: Deal, note: dict[str, Any], actor: int | None, plays: Any) -> dict[str, Any]:
    rules = deal.trick_rules or TrickRules(deal.level, None, deal.rules.skip_level_in_tractor)
    shows: list[dict[str, Any] | None] = [None] * 4
    for seat, cards in plays:
        shows[seat] = {"type": "cards", "cards": _names(cards)}
    return {
        "hands": [_names(sorted(deal.hand(seat), key=rules.sort_key)) for seat in range(4)],
        "shows": shows,
        "note": note,
        "actor": actor,
    }


__all__ = ["deal_frames"]
