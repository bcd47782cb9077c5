"""Writing a record from a :class:`~cardroom.guandan.match.Match`: any match can be recorded at any
moment, whoever played it (arena, server, a test). Each deal keeps its dealt hands, its turned card
and every action applied, so the record is a projection of the match.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Final

from cardroom.cards import Card
from cardroom.guandan.deal import Deal, PlayAction, ReturnAction, TributeAction
from cardroom.guandan.match import Match
from cardroom.guandan.plays import Play
from cardroom.guandan.triple import to_triple
from cardroom.records.schema import DealRecord, MatchRecord, RecordedAction

DEFAULT_SEATS: Final = ("seat 0", "seat 1", "seat 2", "seat 3")


def record_of(
    match: Match,
    seats: Sequence[str] = DEFAULT_SEATS,
    *,
    seed: int | None = None,
    meta: dict[str, Any] | None = None,
    with_result: bool = True,
) -> dict[str, Any]:
    """The JSON record of ``match`` as it stands (finished or not).

    ``seed`` is informational (how the deals were shuffled); ``with_result`` adds the ``result`` the
    replay checks.
    """
    if len(seats) != 4:
        raise ValueError(f"four seat names, got {len(seats)}")
    deals = []
    for number, deal in enumerate(match.deals):
        leader = deal.leader if number == 0 or deal.after_foul else None
        deals.append(DealRecord(dealt_hands(deal), leader, deal.turned_card, deal_actions(deal)))
    record = MatchRecord(
        rules=match.rules,
        seats=(seats[0], seats[1], seats[2], seats[3]),
        max_deals=match.max_deals,
        seed=seed,
        deals=tuple(deals),
        result=result_of(match) if with_result else None,
        meta=meta,
        forfeit=match.forfeited,
    )
    return record.to_json()


def dealt_hands(
    deal: Deal,
) -> tuple[tuple[Card, ...], tuple[Card, ...], tuple[Card, ...], tuple[Card, ...]]:
    """The four hands as dealt (before tribute)."""
    hands = deal.dealt_hands
    return (hands[0], hands[1], hands[2], hands[3])


def deal_actions(deal: Deal) -> tuple[RecordedAction, ...]:
    """Every action and ruling of the deal so far, in the order they were made."""
    actions: list[RecordedAction] = []
    for action in deal.actions:
        if isinstance(action, TributeAction):
            actions.append(RecordedAction(action.seat, "tribute", card=action.card))
        elif isinstance(action, ReturnAction):
            actions.append(RecordedAction(action.seat, "return", card=action.card))
        elif isinstance(action, PlayAction):
            actions.append(_play_action(action.seat, action.play))
        else:
            actions.append(RecordedAction(action.seat, "ruling", ruling=action.name))
    return tuple(actions)


def _play_action(seat: int, play: Play) -> RecordedAction:
    if play.is_pass:
        return RecordedAction(seat, "play", triple=("PASS", "PASS", ()))
    type_name, rank, cards = to_triple(play)
    assert isinstance(type_name, str)
    assert isinstance(rank, str)
    assert isinstance(cards, list)
    return RecordedAction(seat, "play", triple=(type_name, rank, tuple(cards)))


def result_of(match: Match) -> dict[str, Any]:
    """The match's result as the record's ``result`` holds it (see ``docs/records.md``): a deal ended
    by a foul adds ``foul_by``, a forfeit adds ``forfeited_by`` (only then, so that older results
    still match)."""
    rules = match.rules
    deals: list[dict[str, Any]] = []
    for summary in match.summaries:
        entry: dict[str, Any] = {
            "level": summary.level.letter,
            "places": list(summary.result.places),
            "winner_team": summary.result.winning_team,
            "rise": summary.result.rise(rules),
            "levels_after": [level.letter for level in summary.levels_after],
            "passed_ace": summary.passed_ace,
        }
        if summary.result.foul_by is not None:
            entry["foul_by"] = summary.result.foul_by
        deals.append(entry)
    result: dict[str, Any] = {
        "finished": match.is_over,
        "winner": match.winner,
        "passed_ace": match.passed_ace,
        "levels": [level.letter for level in match.levels],
        "points": list(match.points()) if match.is_over else None,
        "deals": deals,
    }
    if match.forfeited_by is not None:
        result["forfeited_by"] = match.forfeited_by
    return result
