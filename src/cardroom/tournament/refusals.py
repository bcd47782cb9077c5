"""Why the tournament core refuses a change to an event: one reason code per refusal, its English
words and its arguments.

:data:`EVENT_REASONS` maps each code to its English template (``str.format`` of the arguments): the
error's message, which the terminal prints. The card room's list of codes
(:data:`cardroom.server.tables.refusals.REASONS`) takes these in, so a director's page shows a core
refusal in its own words (``error.<reason>``, English and Chinese) from the reason and arguments.
:class:`EventError` is a ``ValueError`` (a change the event's state or rules refuse) and
:class:`EventLookupError` a ``KeyError`` (no such team, round, table or appeal).
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import Any, Final

EVENT_REASONS: Final[Mapping[str, str]] = MappingProxyType(
    {
        # the config
        "negative_windows": "the correction and appeal windows are not negative",
        "no_rounds": "an event has at least one round, got {rounds}",
        "swiss_needs_rounds": "a Swiss event needs its number of rounds",
        # teams and the draw
        "no_team": "no team {team!r}",
        "registration_closed": (
            "registration is closed: the event has started (a Swiss event takes late entries)"
        ),
        "team_registered": "a team {team!r} is registered already",
        "same_player_twice": "a team is two different players",
        "players_taken": "players already in another team: {players}",
        "event_started": "the event has started already",
        "too_few_teams": "an event needs two or more teams",
        "rounds_past_round_robin": "{rounds} rounds is more than a round robin of {full}: choose Swiss",
        "round_robin_rounds": "a round robin of {teams} teams has {full} rounds, not {rounds}",
        # rounds and tables
        "no_round": "no round {round}: {paired} paired",
        "no_round_paired": "no round is paired yet",
        "event_not_started": "the event has not started: draw the lots first",
        "no_round_left": (
            "the event is finished: its last round (round {round}) is complete, so there is no round "
            "left to pair"
        ),
        "round_incomplete": "round {round} still has tables without a result",
        "every_round_paired": "every round is paired",
        "too_few_left": "fewer than two teams are left in the event: nothing to pair",
        "round_started": "round {round} was started at {at}",
        "no_table": "round {round} has no table {table} (its tables: {tables})",
        "bye_no_table": "{team} has the bye in round {round}: no table",
        "no_table_for_team": "{team} has no table in round {round}",
        "team_not_at_table": (
            "team {team} is not at table {table} in round {round}: the teams there are {first} "
            "(seats 0 & 2) and {second} (seats 1 & 3)"
        ),
        "lateness_before_start": "round {round} is not started: lateness counts from its start",
        "time_without_offset": "{what} needs its UTC offset (a timezone-aware datetime), got {at}",
        # arrivals, penalties and results
        "seated_already": "{team} was seated already at {at}",
        "table_decided": "table {table} has its result already",
        "penalty_reason": "a penalty needs its reason",
        "no_player_at_table": (
            "no player {player!r} at table {table} in round {round}; the players there: {players}"
        ),
        "decided_by_forfeit": (
            "table {table} is already decided by a forfeit (判负 or 弃权) in round {round}: "
            "its match is over and its result stands"
        ),
        "correction_window": (
            "the correction window of round {round} closed at {deadline} ({minutes:g} minutes after the "
            "round ended); a director may override it, giving the reason"
        ),
        # teams out and late entries
        "not_withdrawn": "{team} has not withdrawn",
        "withdrawal_reason": "a withdrawal or disqualification needs its reason",
        "team_out": "{team} is out of the event already ({label})",
        "event_finished": "the event is finished",
        "no_late_entries": "a round robin's rounds are fixed at the start: no late entries",
        "round_under_way": "round {round} is under way: a late entry joins before a round is paired",
        # appeals
        "appeal_text": "an appeal says what it is against",
        "appeal_window": (
            "appeals against round {round} closed {minutes:g} minutes after it ended; a director may "
            "override it, giving the reason"
        ),
        "no_appeal": "no appeal {appeal}: {filed} filed",
        "appeal_decided": "appeal {appeal} is decided already: {ruling}",
        "ruling_text": "a ruling says what was decided and who decided it",
        # standings
        "standings_need_lots": "the standings need the lots: start the event",
    }
)
"""Every reason code the tournament core refuses with, and its English words."""


class EventRefusedError(Exception):
    """A refusal of the tournament core: its ``reason`` (a code of :data:`EVENT_REASONS`), the
    ``details`` that fill the code's words, and its English message (``str(error)``, ``args[0]``)."""

    def __init__(self, reason: str, /, **details: Any) -> None:
        super().__init__(EVENT_REASONS[reason].format(**details))
        self.reason = reason
        self.details: dict[str, Any] = details

    @property
    def message(self) -> str:
        """The English words."""
        return str(self.args[0])


class EventError(EventRefusedError, ValueError):
    """A change the event's state or rules refuse."""


class EventLookupError(EventRefusedError, KeyError):
    """No such team, round, table or appeal in the event."""


__all__ = ["EVENT_REASONS", "EventError", "EventLookupError", "EventRefusedError"]
