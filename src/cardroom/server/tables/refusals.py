"""Why the card room refuses a request: one reason code per refusal, its English words and its arguments
(docs/server.md, "Errors").

:data:`REASONS` is the one list of the codes: each maps to its English template, which the refusal's arguments
fill into the answer's ``detail``. It is the card room's own (:data:`ROOM_REASONS`) and the tournament core's
(:data:`~cardroom.tournament.refusals.EVENT_REASONS`), which a director's request answers with the core's
reason and arguments (:meth:`RefusedError.of_event`). The pages show their own words for a code
(``error.<reason>`` in ``web/i18n.js``, in English and Chinese; a test checks that every code has both) and
fall back to ``detail`` for a code they do not know. :class:`RefusedError` is what every layer raises:
:class:`~cardroom.server.accounts.accounts.AccountError` and
:class:`~cardroom.server.events.event_state.DirectorError` are its kinds, and the app answers one as
``{"detail", "reason", "args"}`` with its HTTP status. A websocket ``error`` shares the namespace: its
``code`` (``unknown_table`` …) has its ``error.<code>`` words too, and a :class:`~cardroom.server.tables.
codec.ProtocolError` answered over HTTP keeps its reason (:meth:`RefusedError.of`).
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import Any, Final, Protocol, Self

from cardroom.tournament.refusals import EVENT_REASONS, EventRefusedError

ROOM_REASONS: Final[Mapping[str, str]] = MappingProxyType(
    {
        # requests
        "rate_limited": "too many {what}: {rate}; wait {wait:g} s",
        "body_too_large": "request body: at most {most} bytes",
        "body_not_text": "request body: {text}",
        "bad_json": "not valid JSON: {text}",
        "body_not_object": "the body is a JSON object",
        "unknown_fields": "unknown fields: {fields}",
        "bad_request": "{text}",
        "not_found": "{text}",
        "cross_site": "signing in is done from the card room's own pages",
        "csrf_missing": "a signed-in request that changes something carries the {header} header",
        "sign_in_first": "sign in first: {why}",
        "sign_in_to_create_event": "sign in first: an event is created by a director's account",
        "sign_in_to_end_sessions": "sign in first: signing out your other sessions",
        "sign_in_to_change_password": "sign in first: changing your password",
        # tables
        "unknown_table": "unknown table {table!r}",
        "unknown_status": "unknown status {status}: waiting, running, finished",
        "event_table": "event: a tournament's tables are created by its director",
        "ladder_table": "ladder: the ladder's tables are created by the ladder",
        "too_many_waiting": (
            "too many tables waiting for players from one address: at most {most} at once; "
            "wait until one fills or expires"
        ),
        "unknown_game": "game: one of {games}, got {game!r}",
        "replay_from_record": "this table plays Guandan: its replay is read from the record",
        "rated_needs_sign_in": "sign in first: a rated table is created by a signed-in account",
        "rated_seats_bots": (
            "seats {seats}: a rated table seats four people, each signed in to an account; "
            "bots play casual tables (untick rated, or seat people)"
        ),
        "rated_seat_account": "a rated table's seats are taken by signed-in accounts",
        "bad_seat": "seat: 0 to 3, got {seat!r}",
        "seat_is_bot": "seat {seat} is played by the {bot} bot",
        "seat_taken": "seat {seat} is taken by {name}",
        "table_not_waiting": "the table is {status}",
        "one_seat_each": "{name} holds seat {held} of this rated table already: one seat each",
        "event_seat": "seat {seat} of this event's table is {name}'s: sign in as {name}",
        # names and accounts
        "name_not_text": "{field}: a string, got {value!r}",
        "lone_surrogate": "{field}: a lone surrogate is not a character",
        "name_length": "{field}: 1 to {most} characters, got {length}",
        "control_characters": (
            "{field}: control characters and format ones (right-to-left marks among them) are not allowed"
        ),
        "invisible_characters": "{field}: invisible characters are not allowed",
        "bot_suffix": "{field}: names ending in {suffix!r} are the bots'",
        "bot_is_account": (
            "{field}: a bot may not be called {name!r}: it is, or looks like, the account {holder!r}"
        ),
        "name_of_account": (
            "the name {name!r} is the account {holder}'s, or looks like it: sign in as {holder}, or play "
            "under another name"
        ),
        "name_taken": "the name {name!r} is taken",
        "name_looks_like": (
            "the name {name!r} looks like the account {holder!r} (its letters differ only by characters "
            "that look alike, in another script, full-width or invisible): choose another"
        ),
        "password_not_text": "password: a string",
        "password_length": "password: {least} to {most} characters, got {length}",
        "common_password": (
            "password: this is one of the most common passwords, the first that anyone guessing tries; "
            "choose another"
        ),
        "bad_role": "role: one of {roles}, got {role!r}",
        "wrong_sign_in": "wrong name or password",
        "no_account": "no account {name!r}",
        "wrong_password": "current_password: wrong password",
        "same_password": "new_password: the same as the current one",
        # bot accounts (docs/ladder.md)
        "sign_in_for_bots": "sign in first: managing your bots",
        "bot_token_for_owner": "a bot account's token cannot manage bots: sign in as its owner",
        "bot_owns_no_bots": "a bot account owns no bots: sign in as its owner",
        "bad_authorization": "Authorization: send a bot's API token as 'Bearer <token>'",
        "unknown_bot_token": "Authorization: this API token is no bot's (revoked or rotated?)",
        "rated_for_people": (
            "a bot account plays casual tables only: a rated table is for people (docs/accounts.md, "
            "'What a rating counts')"
        ),
        "bot_key_prefix": "{field}: names beginning {prefix!r} are the bot accounts' keys",
        "not_text": "{field}: a string, got {kind}",
        "text_too_long": "{field}: at most {most} characters, got {length}",
        "link_characters": "link: no spaces, control or invisible characters",
        "link_not_url": "link: not a URL: {value!r}",
        "link_scheme": "link: an http:// or https:// address, got {scheme}:",
        "link_no_host": "link: the address has no host",
        "link_credentials": "link: no user name or password in the address",
        "no_such_bot": "you have no bot {bot!r}",
        "bot_unknown_field": "unknown field {field!r}: name, description, link",
        "house_bot_name": "name: {name!r} is a house bot's name",
        "too_many_bots": "an account owns at most {most} bots: delete one first",
        "bot_keeps_name": "name: a bot keeps its name (a new name is a new bot: create one)",
        "bot_edit_fields": "send description, link or both",
        "bot_no_token": "the bot {name!r} has no token to revoke: rotate to give it one",
        "fallback_plays": (
            "seat {seat}'s move is the fallback's after a fault: no retry "
            "(docs/ladder.md, 'Clocks and faults')"
        ),
        "bot_no_auto": "a bot account plays its own moves: no 托管",
        # events: reading the request
        "bad_number": "{field}: a number from {low:g} to {high:g}, got {value!r}",
        "bad_bool": "{field}: true or false, got {value!r}",
        "bad_rounds": "rounds: a whole number from 1 to {most}, or null, got {value!r}",
        "bad_system": "system: one of {systems}, got {value!r}",
        "unknown_rules": "rules: unknown rule set {value!r}; known: {known}",
        "bad_level_table": (
            "level_table: the table of the level difference (级差分), 26 (the rules') or 28 points, "
            "got {value!r}"
        ),
        "bad_time": "{field}: a time like 2025-05-01T09:00:00+08:00 (with its offset), got {value!r}",
        "start_at_past": (
            "start_at: {at} is in the past (now {now}; at most {most} s earlier is taken as now): "
            "give a later time, or start the round now"
        ),
        "bad_text": "{field}: a text of at most {most} characters",
        "reason_required": "{field}: say why (the reason is recorded)",
        "bad_level": "{field}: a level 2…10, J, Q, K, A or A+ (past A), got {value!r}",
        "bad_penalty": "penalty: one of {names}, got {value!r}",
        "bad_team_id": "id: a team id of 1 to 20 characters, got {value!r}",
        "bad_players": "players: a list of two players, got {value!r}",
        "bad_player": '{field}: an object like {{"name": "Ann"}} or {{"bot": "heuristic"}}',
        "unknown_player_fields": "{field}: unknown fields {fields}",
        "unknown_bot": "{field}: unknown bot {bot!r}; known: {known}",
        "bad_seat_of_table": "seat: 0 to 3 (东 南 西 北 as the table shows them), got {value!r}",
        "bad_team": "team: one of {teams}, got {value!r}",
        "bad_table_ref": "round and table: the numbers of the table appealed against",
        "bad_result": 'give "levels" (and "deals"), or "forfeit": the team that forfeits',
        "bad_forfeit_team": "forfeit: one of the teams at table {table}: {teams}; got {value!r}",
        "bad_levels": 'levels: two levels, seats 0 & 2 first, e.g. ["10", "6"]; got {value!r}',
        "bad_deals": "deals: the deals played, 1 to 200, got {value!r}",
        "bad_player_at_table": "player: one of the players at table {table}: {players}; got {value!r}",
        # events: the director and the players
        "unknown_event": "unknown event {event!r}",
        "director_only": "this needs the event's director: signed in, or its token (header {header})",
        "not_a_director": "creating an event takes the director role; {name!r} has it not",
        "registration_finished": "registration is closed: the event is finished",
        "registration_started": "registration is closed: the event has started",
        "too_many_teams": "an event has at most {most} teams",
        "same_person_twice": "the two players of a team are two different people",
        "not_an_account": "{field}: no account {name!r}: a person registers with an account's name",
        "plays_in_team": "{field}: {name!r} plays in team {team} already",
        "unknown_team": "unknown team {team!r}",
        "bot_team_name": "{text}: register a bot team by hand",
        "unsigned_sheets": "round {round}: tables {tables} have unsigned sheets",
        "round_not_started": "round {round} was never started",
        "not_current_round": "round {round} is not the current round",
        "bot_seat": "seat {seat} is the {bot} bot's: bots are seated at the start",
        "no_round_playing": "no round is being played: the pairings are not published",
        "arrived_already": "seat {seat} arrived already at {at}",
        "confirm_forfeit": 'confirm: a 判负 ends the match; send "confirm": true to give it',
        "confirm_escalated_forfeit": (
            "confirm: this {penalty} for {player} escalates to 判负 (two fouls make a loss of the match) "
            'and ends the match; send "confirm": true to give it'
        ),
        "correction_reason": "reason: a correction says why (the reason is recorded)",
        "table_playing": "table {table} is still playing: its result is entered when it ends",
        "no_longer_edited": "the event has started: it is no longer edited",
        "not_deleted": "the event has started: its results are kept, it is not deleted",
        "players_sign_in": "sign in first: this is for the event's players",
        "not_a_player": "you are no player of this event",
        "no_table_in_room": "round {round} has no table {table} in the card room",
        "not_at_table": "only a player seated at this table signs its sheet",
        "sheet_without_result": "the sheet is signed when the match's result is on it",
        "no_sheet": "round {round}, table {table} has no sheet",
        "event_refused": "{text}",
        "standings_not_started": "the standings begin when the event starts",
        "no_printout": "no printout {what!r}: pairings, cards or sheets (the results: /print)",
        "printout_table": "a table is for the score sheets; pairings and cards print every table",
        "bad_printout_query": "{field}: a whole number, got {value!r}",
        # ratings
        "bad_order": "by: rating or points, got {value!r}",
        "bad_limit": "limit: 1 to 500, got {value}",
        "bad_min_matches": "min_matches: 0 or more, got {value}",
        "no_rated_player": "no rated player {name!r}",
    }
)
"""The card room's own reason codes, with their English words (``str.format`` of their arguments)."""

REASONS: Final[Mapping[str, str]] = MappingProxyType({**ROOM_REASONS, **EVENT_REASONS})
"""Every reason code a refusal may carry, with its English words: the card room's and the tournament
core's (:data:`~cardroom.tournament.refusals.EVENT_REASONS`, which a director's request answers with its
own reason and arguments)."""

_PLAIN: Final = (str, int, float, bool, type(None))


class Reasoned(Protocol):
    """A refusal with its own reason (a :class:`~cardroom.server.tables.codec.ProtocolError`)."""

    reason: str | None
    details: dict[str, Any]
    message: str


def words(reason: str, args: Mapping[str, Any]) -> str:
    """The English words of ``reason`` with ``args`` (a ``KeyError`` for a code not in :data:`REASONS`)."""
    return REASONS[reason].format(**args)


def _plain(value: object) -> Any:
    """``value`` as JSON carries it: lists and objects of plain values as they are, anything else as text."""
    if isinstance(value, _PLAIN):
        return value
    if isinstance(value, list | tuple):
        return [_plain(item) for item in value]
    if isinstance(value, Mapping):
        return {str(key): _plain(item) for key, item in value.items()}
    return str(value)


class RefusedError(Exception):
    """A request the card room refuses: its HTTP ``status``, its ``reason`` (a code of :data:`REASONS`),
    the ``details`` that fill the code's words (the answer's ``args``), and ``message``, the English words
    (the answer's ``detail``). ``headers`` go with the answer (``Retry-After``)."""

    def __init__(
        self, status: int, reason: str, /, *, headers: Mapping[str, str] | None = None, **args: Any
    ) -> None:
        message = words(reason, args)
        super().__init__(message)
        self.status = status
        self.reason = reason
        self.details: dict[str, Any] = {name: _plain(value) for name, value in args.items()}
        self.message = message
        self.headers = dict(headers or {})

    @classmethod
    def of(cls, status: int, error: Reasoned, **args: Any) -> Self:
        """A table's refusal answered over HTTP: its reason and arguments (``args`` replacing some, such as
        the ``field`` a name was given in) when it has a reason of :data:`REASONS`, else ``bad_request``
        with its words."""
        if error.reason is not None and error.reason in REASONS:
            return cls(status, error.reason, **{**error.details, **args})
        return cls(status, "bad_request", text=error.message)

    @classmethod
    def of_event(cls, status: int, error: Exception) -> Self:
        """A refusal of the tournament core answered over HTTP: its own reason and arguments (an
        :class:`~cardroom.tournament.refusals.EventRefusedError`), else its words as ``not_found`` (a
        ``KeyError``) or ``event_refused``."""
        if isinstance(error, EventRefusedError):
            return cls(status, error.reason, **error.details)
        if isinstance(error, KeyError):
            return cls(status, "not_found", text=str(error.args[0] if error.args else error))
        return cls(status, "event_refused", text=str(error))

    def body(self) -> dict[str, Any]:
        """The answer's JSON: ``detail`` (the English words), ``reason`` and ``args``."""
        return {"detail": self.message, "reason": self.reason, "args": self.details}


__all__ = ["REASONS", "ROOM_REASONS", "RefusedError", "words"]
