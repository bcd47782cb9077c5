"""What a Guandan table does by itself, and when: the clocks of the player to act, the deal pause, bots'
and 托管 seats' moves, and the deadlines of open choices.

:func:`due` names the next automatic step (a :class:`~cardroom.server.tables.seated.Due`) from the values it
is given; the table (:class:`~cardroom.server.tables.guandan.Table`) carries it out and records what it does.
Like the table, nothing here reads a clock (``now`` and the times a turn or a deal began are passed in) or
writes the log.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from cardroom.guandan.deal import Action, Deal, Phase
from cardroom.guandan.errors import RuleError
from cardroom.guandan.match import Match, MatchPhase
from cardroom.server.tables.conduct import Conduct, can_skip
from cardroom.server.tables.config import TableConfig
from cardroom.server.tables.seated import Due

AUTO_BOT: Final = "heuristic"
"""The bot that plays a seat in 托管 (after its clock ran out) and gives hints."""


def clock(deal: Deal, config: TableConfig, conduct: Conduct) -> float | None:
    """Seconds the player to act in ``deal`` has for this action, by phase (tribute, return, lead,
    follow); a tournament table's are its conduct policy's plus the countdown (读秒)."""
    if conduct.penalties is not None:
        clocks = conduct.penalties.policy.clocks
        allowed = clocks.time_allowed(deal)
        return None if allowed is None else float(allowed + clocks.countdown_s)
    table_clocks = config.clocks
    if deal.phase is Phase.TRIBUTE:
        return table_clocks.tribute
    if deal.phase is Phase.RETURN:
        return table_clocks.return_
    return table_clocks.lead if deal.previous is None else table_clocks.follow


def due(
    match: Match,
    config: TableConfig,
    conduct: Conduct,
    *,
    auto: Sequence[bool],
    turn_started: float,
    deal_ended: float,
    bots: Sequence[bool] = (False, False, False, False),
) -> Due | None:
    """The next automatic step of a running table and when it is due: a choice's deadline when it
    comes first, else the deal, a skip, a bot's or a 托管 seat's move, or the clock of a person or of
    a bot account (``bots``: the seats they hold; docs/ladder.md, "Clocks and faults")."""
    regular = _regular_due(
        match, config, conduct, auto=auto, turn_started=turn_started, deal_ended=deal_ended, bots=bots
    )
    first = conduct.first_deadline()
    if first is not None and (regular is None or first.deadline <= regular.at):
        return Due(first.deadline, "choice", first.seat)
    return regular


def _regular_due(
    match: Match,
    config: TableConfig,
    conduct: Conduct,
    *,
    auto: Sequence[bool],
    turn_started: float,
    deal_ended: float,
    bots: Sequence[bool],
) -> Due | None:
    """:func:`due` but for the choices' deadlines; ``None`` while play waits for a choice."""
    if match.phase is MatchPhase.DEALING:
        if conduct.waits_for_leader():
            return None
        return Due(deal_ended + config.deal_pause, "deal")
    deal = match.current_deal
    assert deal is not None
    assert deal.current_player is not None
    seat = deal.current_player
    if conduct.waits(deal):
        return None
    if seat in conduct.pending_skip and can_skip(deal, seat):
        return Due(turn_started, "skip", seat)
    if config.seats[seat].kind == "bot":
        return Due(turn_started + config.bot_delay, "bot", seat)
    if bots[seat]:
        return Due(turn_started + config.clocks.bot, "clock", seat)
    if auto[seat]:
        return Due(turn_started + config.bot_delay, "auto", seat)
    allowed = clock(deal, config, conduct)
    assert allowed is not None
    return Due(turn_started + allowed, "clock", seat)


def bot_action(match: Match, action: Action | None) -> Action:
    """The action a bot (or the 托管 bot) takes, verified by the rules: its own when legal, else the
    first legal one."""
    if action is not None:
        try:
            return match.verify(action)
        except RuleError:
            pass
    return match.verify(match.legal_actions()[0])
