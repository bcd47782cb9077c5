"""The card room's tournament director (赛事编排): events whose rounds are played at the room's tables.

An event is the pure core's :class:`~cardroom.tournament.Event` plus what the card room adds
(:mod:`cardroom.server.events.event_state`: its director's account and token hash, the table of each pairing,
the score sheets and the options). Its people are accounts: a director creates the event, registers teams by
the players' account names, and each player, signed in, takes the seat the pairing gives it (``POST
/api/tables/{id}/seats/{seat}``) and signs the sheet. :class:`Director` carries out the API's requests
(docs/tournaments-api.md), keeps the live events, stores each after every change (``Store.save_tournament``)
and listens to the tables (``Rooms``): a deal's end refreshes the table's sheet, a match's end enters the
result. How the API shows an event is :mod:`cardroom.server.events.event_views`.
"""

from __future__ import annotations

import hmac
import logging
import random
import secrets
import time
from collections.abc import Callable, Iterable, Mapping
from dataclasses import replace
from datetime import UTC, datetime
from typing import Any

from cardroom.bots import BOTS
from cardroom.server.accounts.accounts import Account, AccountError
from cardroom.server.accounts.bot_names import Lookalike, bot_name
from cardroom.server.accounts.ratings import name_key
from cardroom.server.events import event_views
from cardroom.server.events.event_state import (
    HEADER,
    LIST_LIMIT,
    MAX_ROUNDS,
    MAX_TEAMS,
    DirectorError,
    EventOptions,
    Key,
    LiveEvent,
    read_event_config,
    table_clocks,
    utc_now,
)
from cardroom.server.events.event_views import result_json, sheet_json, standing_json
from cardroom.server.live.rooms import Person, Room, Rooms
from cardroom.server.storage.store import Store
from cardroom.server.tables.codec import ProtocolError
from cardroom.server.tables.config import EventLink, SeatConfig, TableConfig, TableDefaults
from cardroom.server.tables.guandan import Table, clean_name, token_hash
from cardroom.tournament import Event, EventPhase, Player, ScoreSheet, TableResult, Team, deal_lines

log = logging.getLogger(__name__)

# -- the director ---------------------------------------------------------------------------------


def _person(live: LiveEvent, seat: int, player: Player) -> Person:
    """How a person is seated at the event's table: by the account of its name (the seat's token a
    secret no one holds until its owner takes one), or by its token (events from before accounts)."""
    held = live.tokens.get(player.id)
    if held is not None:
        return (seat, player.name, held, None)
    return (seat, player.name, token_hash(secrets.token_urlsafe(24)), name_key(player.name))


def _guandan(room: Room) -> Table:
    """An event's table (events play Guandan: a table config refuses an event for another game)."""
    table = room.table
    assert isinstance(table, Table), "an event's table plays Guandan"
    return table


class Director:
    """Every event of the server: created, changed and stored here; fed by the tables' commits."""

    def __init__(
        self,
        store: Store,
        rooms: Rooms,
        find_account: Callable[[str], Account | None] = lambda _name: None,
        clock: Callable[[], float] = time.time,
        *,
        lookalike: Lookalike | None = None,
    ) -> None:
        self.store = store
        self.rooms = rooms
        self.find_account = find_account
        """The account of a name (any case), or ``None``: registration takes only accounts."""
        self.lookalike: Lookalike = lookalike or find_account
        """The account of a name or of one that looks the same: no bot is named like an account."""
        self.clock = clock
        self.events: dict[str, LiveEvent] = {}
        rooms.listeners.append(self.table_changed)

    # -- loading and storing ----------------------------------------------------------------------

    def load_all(self) -> int:
        """Read every stored event; enter the results of tables that finished while the server was
        down (or before their result was stored). How many events were loaded."""
        for row in self.store.tournaments():
            try:
                live = LiveEvent.from_dict(row.id, row.data, row.director_hash, row.created, row.updated)
            except Exception:
                log.exception("event %s cannot be loaded", row.id)
                continue
            self.events[row.id] = live
            self._catch_up(live)
        return len(self.events)

    def unload(self) -> None:
        """Forget every event (another process runs them now): their pages' websockets are closed,
        and reconnect to that process."""
        for live in self.events.values():
            for queue in list(live.subscribers):
                queue.put_nowait(None)
        self.events.clear()

    def _catch_up(self, live: LiveEvent) -> None:
        changed = False
        for played in live.event.rounds:
            for pairing, result in zip(played.pairings, played.results, strict=True):
                table_id = live.tables.get((played.number, pairing.table))
                if result is not None or table_id is None:
                    continue
                stored = self.store.table(table_id)
                if stored is None or stored.status != "finished":
                    continue
                room = self.rooms.get(table_id)
                if room is not None:
                    self._refresh(live, played.number, pairing.table, _guandan(room))
                    changed = True
        if changed:
            self._save(live)
            self._advance_if_due(live)

    def _save(self, live: LiveEvent) -> None:
        live.updated = utc_now()
        self.store.save_tournament(live.id, live.to_dict(), live.event.phase.value)
        self._notify(live)

    def _notify(self, live: LiveEvent) -> None:
        if not live.subscribers:
            return
        message = {"type": "event", "v": 1, "event": self.view(live)}
        for queue in list(live.subscribers):
            queue.put_nowait(message)

    def get(self, event_id: str) -> LiveEvent:
        live = self.events.get(event_id)
        if live is None:
            raise DirectorError(404, f"unknown event {event_id!r}")
        return live

    def check_director(self, live: LiveEvent, token: str | None, account: Account | None = None) -> None:
        """403 unless ``account`` directs the event or ``token`` is its director token (a script's)."""
        if account is not None and live.director_account is not None and account.key == live.director_account:
            return
        if not token or not hmac.compare_digest(token_hash(token), live.director_hash):
            raise DirectorError(
                403, f"this needs the event's director: signed in, or its token (header {HEADER})"
            )

    # -- the organiser's requests -----------------------------------------------------------------

    def create(
        self, body: Mapping[str, Any], defaults: TableDefaults, director: Account
    ) -> tuple[LiveEvent, str]:
        """A new event in registration, directed by ``director`` (an account of the director role);
        its director token, for the director's scripts."""
        if not director.director:
            raise DirectorError(
                403, f"creating an event takes the director role; {director.name!r} has it not"
            )
        config, options = read_event_config(body, defaults)
        event_id = secrets.token_hex(5)
        while event_id in self.events or self.store.tournament(event_id) is not None:
            event_id = secrets.token_hex(5)
        token = secrets.token_urlsafe(24)
        live = LiveEvent(event_id, Event(config), options, token_hash(token), director_account=director.key)
        self.store.create_tournament(event_id, config.name, live.to_dict(), live.director_hash, live.created)
        self.events[event_id] = live
        return live, token

    def register(self, live: LiveEvent, body: Mapping[str, Any]) -> Team:
        """Register a team: ``{"id"?, "name", "players": [{"name"} | {"bot", "name"?}, two]}``, a
        person by the name of its account."""
        if live.event.phase is not EventPhase.REGISTRATION:
            raise DirectorError(409, "registration is closed: the event has started")
        if len(live.event.teams) >= MAX_TEAMS:
            raise DirectorError(409, f"an event has at most {MAX_TEAMS} teams")
        unknown = set(body) - {"id", "name", "players"}
        if unknown:
            raise DirectorError(400, f"unknown fields: {', '.join(sorted(map(str, unknown)))}")
        team_id = body.get("id")
        taken = {team.id for team in live.event.teams}
        if team_id is None:
            number = len(live.event.teams) + 1
            while f"T{number}" in taken:
                number += 1
            team_id = f"T{number}"
        if not isinstance(team_id, str) or not team_id.strip() or len(team_id) > 20:
            raise DirectorError(400, f"id: a team id of 1 to 20 characters, got {team_id!r}")
        if team_id in taken:
            raise DirectorError(409, f"a team {team_id!r} is registered already")
        team_name = body.get("name", team_id)
        try:
            team_name = clean_name(team_name)
        except ProtocolError as error:
            raise DirectorError(400, error.message) from None
        raw = body.get("players")
        if not isinstance(raw, list) or len(raw) != 2:
            raise DirectorError(400, f"players: a list of two players, got {raw!r}")
        players = [
            self._player(live, f"{team_id}-{index + 1}", value, index) for index, value in enumerate(raw)
        ]
        people = [name_key(player.name) for player in players if player.bot is None]
        if len(set(people)) != len(people):
            raise DirectorError(409, "the two players of a team are two different people")
        team = Team(team_id, (players[0], players[1]), team_name)
        try:
            live.event = live.event.register(team)
        except ValueError as error:
            raise DirectorError(409, str(error)) from None
        self._save(live)
        return team

    def _player(self, live: LiveEvent, player_id: str, value: object, index: int) -> Player:
        where = f"players[{index}]"
        if not isinstance(value, Mapping):
            raise DirectorError(400, f'{where}: an object like {{"name": "Ann"}} or {{"bot": "heuristic"}}')
        unknown = set(value) - {"name", "bot"}
        if unknown:
            raise DirectorError(400, f"{where}: unknown fields {', '.join(sorted(map(str, unknown)))}")
        bot = value.get("bot")
        if bot is not None and bot not in BOTS:
            raise DirectorError(400, f"{where}.bot: unknown bot {bot!r}; known: {', '.join(sorted(BOTS))}")
        raw_name = value.get("name", f"{bot} bot" if bot is not None else None)
        try:
            name = clean_name(raw_name)
            if bot is not None:
                name = bot_name(name, self.lookalike, f"{where}.name")
        except ProtocolError as error:
            raise DirectorError(400, f"{where}.{error.message}") from None
        except AccountError as error:
            raise DirectorError(error.status, error.message) from None
        if bot is None:
            account = self.find_account(name)
            if account is None:
                raise DirectorError(
                    409, f"{where}: no account {name!r}: a person registers with an account's name"
                )
            name = account.name
        key = name_key(name)
        for team in live.event.teams:
            for other in team.players:
                if name_key(other.name) == key and (bot is None or other.bot is None):
                    raise DirectorError(409, f"{where}: {other.name!r} plays in team {team.id} already")
        return Player(player_id, name, bot)

    def withdraw(self, live: LiveEvent, team_id: str) -> None:
        """Withdraw a team during registration."""
        if live.event.phase is not EventPhase.REGISTRATION:
            raise DirectorError(409, "registration is closed: the event has started")
        try:
            team = live.event.team(team_id)
        except KeyError:
            raise DirectorError(404, f"unknown team {team_id!r}") from None
        live.event = replace(live.event, teams=tuple(t for t in live.event.teams if t.id != team_id))
        for player in team.players:
            live.tokens.pop(player.id, None)
        self._save(live)

    def start(self, live: LiveEvent, body: Mapping[str, Any]) -> None:
        """Close registration and draw the lots (optionally filling an odd field with a bot team)."""
        if live.event.phase is not EventPhase.REGISTRATION:
            raise DirectorError(409, "the event has started already")
        fill = body.get("fill_with_bots")
        event = live.event
        if fill is not None:
            if fill not in BOTS:
                raise DirectorError(400, f"fill_with_bots: unknown bot {fill!r}")
            filled = event.fill_with_bots(fill)
            for player in filled.teams[-1].players if filled is not event else ():
                try:
                    bot_name(player.name, self.lookalike, "fill_with_bots")
                except AccountError as error:
                    raise DirectorError(
                        error.status, f"{error.message}: register a bot team by hand"
                    ) from None
            event = filled
        try:
            event = event.start(random.Random(secrets.randbits(64)))
        except ValueError as error:
            raise DirectorError(409, str(error)) from None
        live.event = event
        self._save(live)
        if live.options.auto_advance:
            self.pair(live)

    def pair(self, live: LiveEvent) -> None:
        """Pair the next round and create its tables (players seated, matches begun): the round is
        started as it is paired (the tables start at once)."""
        current = live.event.current_round
        if current is not None and live.options.require_signatures:
            unsigned = live.unsigned(current.number)
            if unsigned:
                raise DirectorError(409, f"round {current.number}: tables {unsigned} have unsigned sheets")
        try:
            live.event = live.event.pair_next_round()
        except ValueError as error:
            raise DirectorError(409, str(error)) from None
        live.event = live.event.start_round(datetime.fromtimestamp(self.clock(), UTC))
        played = live.event.rounds[-1]
        for pairing in played.pairings:
            players = live.event.seat_players(pairing)
            key = (played.number, pairing.table)
            names = (players[0].name, players[1].name, players[2].name, players[3].name)
            live.sheets[key] = ScoreSheet(played.number, pairing.table, pairing.teams, names)
            live.tables[key] = self._create_table(live, played.number, pairing.table, players)
        self._save(live)
        self._advance_if_due(live)

    def _create_table(self, live: LiveEvent, round_number: int, table: int, players: Iterable[Player]) -> str:
        config = live.event.config
        options = live.options
        seated = list(players)
        seats = [SeatConfig() if p.bot is None else SeatConfig("bot", p.bot, p.name) for p in seated]
        label = f" R{round_number} T{table}"
        table_config = TableConfig(
            name=config.name[: 40 - len(label)].strip() + label,
            rules=options.rules,
            max_deals=None,
            seats=(seats[0], seats[1], seats[2], seats[3]),
            clocks=table_clocks(config.conduct),
            bot_delay=options.bot_delay,
            deal_pause=options.deal_pause,
            event=EventLink(live.id, config.name, round_number, table),
            format=config.format,
            conduct=config.conduct,
            disconnect_grace=options.disconnect_grace,
        )
        room = self.rooms.create(
            table_config, [_person(live, seat, p) for seat, p in enumerate(seated) if p.bot is None]
        )
        return room.table.id

    def forfeit(self, live: LiveEvent, round_number: int, table: int, body: Mapping[str, Any]) -> None:
        """The director's forfeit (弃权 / 判负) of a team at a table."""
        played, pairing = self._pairing(live, round_number, table)
        team_id = body.get("team")
        if team_id not in pairing.teams:
            raise DirectorError(400, f"team: one of {list(pairing.teams)}, got {team_id!r}")
        note = body.get("note", "")
        if not isinstance(note, str) or len(note) > 200:
            raise DirectorError(400, "note: a text of at most 200 characters")
        side = pairing.side_of(team_id)
        room = self._room(live, (played, table))
        if room is not None and room.table.status == "running":
            room.forfeit(side, note)  # the table's commit enters the result (table_changed)
            return
        levels = (2, 2) if room is None else _guandan(room).match.level_values()
        result = TableResult.forfeit(side, levels, 0 if room is None else len(_guandan(room).match.summaries))
        live.event = live.event.record(played, table, result)
        key = (played, table)
        sheet = live.sheets.get(key)
        if sheet is not None:
            live.sheets[key] = self._auto_sign(live, sheet.with_result(result))
        self._save(live)
        self._advance_if_due(live)

    def _pairing(self, live: LiveEvent, round_number: int, table: int) -> tuple[int, Any]:
        try:
            return round_number, live.event.round(round_number).pairing(table)
        except KeyError as error:
            raise DirectorError(404, str(error.args[0])) from None

    def _room(self, live: LiveEvent, key: Key) -> Room | None:
        table_id = live.tables.get(key)
        return None if table_id is None else self.rooms.get(table_id)

    # -- players' requests ------------------------------------------------------------------------

    def player_of(
        self, live: LiveEvent, token: object, account: Account | None = None
    ) -> tuple[Player, Team]:
        """The person signed in as ``account``, or holding this player token (events from before
        accounts); 403 otherwise."""
        digest = token_hash(token) if isinstance(token, str) and token else None
        for team in live.event.teams:
            for player in team.players:
                if player.bot is not None:
                    continue
                held = live.tokens.get(player.id)
                if held is None:
                    if account is not None and name_key(player.name) == account.key:
                        return player, team
                elif digest is not None and hmac.compare_digest(held, digest):
                    return player, team
        if account is None and digest is None:
            raise DirectorError(401, "sign in first: this is for the event's players")
        raise DirectorError(403, "you are no player of this event")

    def whoami(self, live: LiveEvent, token: object, account: Account | None = None) -> dict[str, Any]:
        """The player, its team, and (while a round is played) its table and seat: signed in, the
        player takes that seat with ``POST /api/tables/{id}/seats/{seat}``."""
        player, team = self.player_of(live, token, account)
        seat_info = None
        current = live.event.current_round
        if current is not None:
            for pairing in current.pairings:
                if team.id in pairing.teams:
                    seats = live.event.seat_players(pairing)
                    key = (current.number, pairing.table)
                    table_id = live.tables.get(key)
                    stored = None if table_id is None else self.store.table(table_id)
                    seat_info = {
                        "round": current.number,
                        "table": pairing.table,
                        "table_id": table_id,
                        "seat": [p.id for p in seats].index(player.id),
                        "status": None if stored is None else stored.status,
                    }
        return {
            "player": {"id": player.id, "name": player.name, "bot": player.bot},
            "team": team.id,
            "seat": seat_info,
        }

    def sign(
        self, live: LiveEvent, round_number: int, table: int, token: object, account: Account | None = None
    ) -> ScoreSheet:
        """A person seated at the table (signed in as the seat's account, or holding its token) signs
        the sheet for the side of its seat."""
        self._pairing(live, round_number, table)
        key = (round_number, table)
        sheet = live.sheets.get(key)
        room = self._room(live, key)
        if sheet is None or room is None:
            raise DirectorError(404, f"round {round_number} has no table {table} in the card room")
        seat = room.table.seat_of(token) if isinstance(token, str) and token else None
        if seat is None and account is not None:
            seat = room.table.seat_of_account(account.key)
        if seat is None:
            raise DirectorError(403, "only a player seated at this table signs its sheet")
        if sheet.result is None:
            raise DirectorError(409, "the sheet is signed when the match's result is on it")
        signed = sheet.sign(seat % 2)
        if signed != sheet:
            live.sheets[key] = signed
            self._save(live)
            self._advance_if_due(live)
        return live.sheets[key]

    # -- the tables' side -------------------------------------------------------------------------

    def table_changed(self, room: Room, before: int) -> None:
        """Rooms' listener: after a deal, a penalty or the match's end, refresh the sheet (and enter the
        result)."""
        link = room.table.config.event
        if link is None:
            return
        table = _guandan(room)
        live = self.events.get(link.id)
        if live is None:
            return
        kinds = {entry["type"] for entry in table.log[before:]}
        if not kinds & {"deal_end", "match_end", "penalty", "ruling", "start"}:
            return
        if live.tables.get((link.round, link.table)) != table.id:
            return
        self._refresh(live, link.round, link.table, table)
        self._save(live)
        if "match_end" in kinds:
            self._advance_if_due(live)

    def _refresh(self, live: LiveEvent, round_number: int, table_number: int, table: Table) -> None:
        key = (round_number, table_number)
        old = live.sheets[key]
        lines = tuple(
            replace(line, note=f"犯规 seat {summary.result.foul_by}")
            if summary.result.foul_by is not None
            else line
            for line, summary in zip(deal_lines(table.match), table.match.summaries, strict=True)
        )
        result = table.result()
        new = old
        if lines != old.lines:
            new = new.with_lines(lines)
        if table.penalties != new.penalties:
            new = new.with_penalties(table.penalties)
        if result is not None and result != new.result:
            new = new.with_result(result)
            live.event = live.event.record(round_number, table_number, result)
            new = self._auto_sign(live, new)
        live.sheets[key] = new

    def _auto_sign(self, live: LiveEvent, sheet: ScoreSheet) -> ScoreSheet:
        """A side of bots only signs by itself."""
        pairing = live.event.round(sheet.round).pairing(sheet.table)
        for side, team_id in enumerate(pairing.teams):
            if live.event.team(team_id).is_bot:
                sheet = sheet.sign(side)
        return sheet

    def _advance_if_due(self, live: LiveEvent) -> None:
        """With ``auto_advance``: pair the next round once the current one is done."""
        if not live.options.auto_advance or live.event.phase is not EventPhase.RUNNING:
            return
        current = live.event.current_round
        if current is not None and not current.complete:
            return
        if current is not None and live.options.require_signatures and live.unsigned(current.number):
            return
        try:
            self.pair(live)
        except DirectorError as error:
            log.warning("event %s: cannot pair the next round: %s", live.id, error.message)

    # -- views (cardroom.server.events.event_views) --------------------------------------------------------

    def summary(self, live: LiveEvent) -> dict[str, Any]:
        """The event's line in the list of events."""
        return event_views.summary(live)

    def listed(self) -> list[dict[str, Any]]:
        ordered = sorted(self.events.values(), key=lambda live: (live.created, live.id), reverse=True)
        return [self.summary(live) for live in ordered[:LIST_LIMIT]]

    def view(self, live: LiveEvent) -> dict[str, Any]:
        """The event as ``GET /api/events/{id}`` shows it."""
        return event_views.view(live, self.rooms, self.store)

    def standings(self, live: LiveEvent) -> list[dict[str, Any]]:
        """The standings (none before the lots are drawn)."""
        return event_views.standings(live)

    def sheet(self, live: LiveEvent, round_number: int, table: int) -> dict[str, Any]:
        self._pairing(live, round_number, table)
        sheet = live.sheets.get((round_number, table))
        if sheet is None:
            raise DirectorError(404, f"round {round_number}, table {table} has no sheet")
        return sheet_json(live, sheet)

    def results_of(self, live: LiveEvent) -> list[tuple[int, int, TableResult | None]]:
        """(round, table, result) of every table, for the printable page."""
        return event_views.results_of(live)


__all__ = [
    "HEADER",
    "LIST_LIMIT",
    "MAX_ROUNDS",
    "MAX_TEAMS",
    "Director",
    "DirectorError",
    "EventOptions",
    "Key",
    "LiveEvent",
    "name_key",
    "read_event_config",
    "result_json",
    "sheet_json",
    "standing_json",
    "table_clocks",
]
