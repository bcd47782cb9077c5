"""What a table does by itself, and when: the clocks of the player to act, the deal pause, bots' and
托管 seats' moves, and the deadlines of open choices.

:func:`due` names the next automatic step of a :class:`~cardroom.server.table.Table` (a :class:`Due`)
and :func:`apply_due` carries it out; the table's methods of the same names delegate here. Like the
table, nothing here reads a clock: ``now`` is passed in.
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING, Final

from cardroom.guandan.deal import Action, Phase
from cardroom.guandan.errors import RuleError
from cardroom.guandan.match import MatchPhase
from cardroom.server import conduct, outcomes
from cardroom.server.seated import Due
from cardroom.tournament.conduct import Offence, SkipTurn

if TYPE_CHECKING:
    from cardroom.server.table import Entry, Table

AUTO_BOT: Final = "heuristic"
"""The bot that plays a seat in 托管 (after its clock ran out) and gives hints."""


def penalising(table: Table) -> bool:
    """Whether a timeout is penalised at ``table`` (a tournament table whose policy names a penalty)."""
    return table.conduct is not None and table.conduct.policy.timeout is not None


def clock(table: Table) -> float | None:
    """Seconds the player to act has for this action (:meth:`Table.clock`)."""
    deal = table.match.current_deal
    if deal is None or table.status != "running":
        return None
    if table.conduct is not None:
        clocks = table.conduct.policy.clocks
        allowed = clocks.time_allowed(deal)
        return None if allowed is None else float(allowed + clocks.countdown_s)
    table_clocks = table.config.clocks
    if deal.phase is Phase.TRIBUTE:
        return table_clocks.tribute
    if deal.phase is Phase.RETURN:
        return table_clocks.return_
    return table_clocks.lead if deal.previous is None else table_clocks.follow


def due(table: Table) -> Due | None:
    """The next automatic step and when it is due, or ``None`` (waiting for players, or over)."""
    if table.status != "running":
        return None
    regular = _regular_due(table)
    if table.choices:
        first = min(table.choices, key=lambda choice: choice.deadline)
        if regular is None or first.deadline <= regular.at:
            return Due(first.deadline, "choice", first.seat)
    return regular


def _regular_due(table: Table) -> Due | None:
    """:func:`due` but for the choices' deadlines; ``None`` while play waits for a choice."""
    if table.match.phase is MatchPhase.DEALING:
        if any(choice.kind == "leader" for choice in table.choices):
            return None
        return Due(table.deal_ended + table.config.deal_pause, "deal")
    deal = table.match.current_deal
    assert deal is not None
    assert deal.current_player is not None
    seat = deal.current_player
    if table.waits_for_choice():
        return None
    if seat in table.pending_skip and conduct.can_skip(deal, seat):
        return Due(table.turn_started, "skip", seat)
    if table.config.seats[seat].kind == "bot":
        return Due(table.turn_started + table.config.bot_delay, "bot", seat)
    if table.auto[seat]:
        return Due(table.turn_started + table.config.bot_delay, "auto", seat)
    allowed = clock(table)
    assert allowed is not None
    return Due(table.turn_started + allowed, "clock", seat)


def apply_due(table: Table, planned: Due, action: Action | None, now: float) -> list[Entry]:
    """Carry out ``planned`` (as :func:`due` gave it) with the bot's ``action`` (:meth:`Table.apply_due`)."""
    if due(table) != planned:
        return []
    before = table.number
    if planned.kind == "deal":
        outcome = outcomes.decide(table, now)
        if outcome is not None:
            outcomes.finish_decided(table, outcome, now)
        else:
            table._deal(now)
        return table.log[before:]
    assert planned.seat is not None
    if planned.kind == "skip":
        conduct.skip(table, planned.seat, now)
        return table.log[before:]
    if planned.kind == "choice":
        choice = next(c for c in table.choices if c.seat == planned.seat and c.deadline == planned.at)
        conduct.answer(table, choice, True if choice.kind == "skip_turn" else choice.seat, "default", now)
        return table.log[before:]
    chosen: Action | None = None
    if action is not None:
        try:
            chosen = table.match.verify(action)
        except RuleError:
            chosen = None
    if chosen is None:
        chosen = table.match.legal_actions()[0]
    if planned.kind == "clock" and penalising(table):
        effect = conduct.penalise_offence(table, planned.seat, Offence.TIMEOUT, now)
        if isinstance(effect, SkipTurn) and conduct.skip_if_due(table, planned.seat, now):
            return table.log[before:]
        if (
            table.status == "running"
            and table.match.current_player == planned.seat
            and not table.waits_for_choice()
            and table.number > before
        ):
            table._play(chosen, "auto", now)
        return table.log[before:]
    if planned.kind == "clock":
        table._record({"type": "auto", "seat": planned.seat, "on": True, "at": now})
    table._play(chosen, "bot" if planned.kind == "bot" else "auto", now)
    return table.log[before:]


def restart_clocks(table: Table, now: float) -> None:
    """After the server was down: an open choice gets its full clock again."""
    table.choices = [replace(choice, deadline=now + conduct.choice_clock(table)) for choice in table.choices]
