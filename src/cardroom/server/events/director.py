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
from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import replace
from datetime import UTC, datetime, timedelta
from typing import Any

from cardroom.bots import BOTS
from cardroom.cards import NotationError, Rank
from cardroom.guandan.scoring import PASSED_ACE
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
from cardroom.server.tables.seated import Entry
from cardroom.tournament import Event, EventPhase, Player, ScoreSheet, TableResult, Team, deal_lines
from cardroom.tournament.conduct import Offence, Penalty
from cardroom.tournament.director import time_to_text
from cardroom.tournament.event import CorrectionWindowError
from cardroom.tournament.lateness import late_foul_seat

log = logging.getLogger(__name__)

START_AT_TOLERANCE_S = 60
"""How far in the past a round's ``start_at`` may be (a form filled a moment ago): it starts the round now;
earlier is refused (``start_at_past``), since "start now" is the explicit way."""

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


def _known(body: Mapping[str, Any], fields: set[str]) -> None:
    unknown = set(body) - fields
    if unknown:
        raise DirectorError(400, "unknown_fields", fields=", ".join(sorted(map(str, unknown))))


def _time(body: Mapping[str, Any], field: str) -> datetime | None:
    """An ISO 8601 time with its UTC offset, or ``None`` when absent."""
    value = body.get(field)
    if value is None:
        return None
    try:
        at = datetime.fromisoformat(value) if isinstance(value, str) else None
    except ValueError:
        at = None
    if at is None or at.tzinfo is None:
        raise DirectorError(400, "bad_time", field=field, value=value)
    return at


def _text(body: Mapping[str, Any], field: str, *, required: bool = False, limit: int = 200) -> str:
    value = body.get(field, "")
    if not isinstance(value, str) or len(value) > limit:
        raise DirectorError(400, "bad_text", field=field, most=limit)
    if required and not value.strip():
        raise DirectorError(400, "reason_required", field=field)
    return value.strip()


def _level(where: str, value: object) -> int:
    """A level as written (2…10, J, Q, K, A, A+ for a team past A) or its value 2…15."""
    if isinstance(value, int) and not isinstance(value, bool) and 2 <= value <= PASSED_ACE:
        return value
    if isinstance(value, str):
        text = value.strip().upper()
        if text in ("A+", "过A", "過A"):
            return PASSED_ACE
        try:
            return int(Rank.from_letter("T" if text == "10" else text))
        except (NotationError, ValueError):
            pass
    raise DirectorError(400, "bad_level", field=where, value=value)


def _penalty(value: object) -> Penalty:
    for penalty in Penalty:
        if value in (penalty.name, penalty.label):
            return penalty
    names = ", ".join(f"{p.name} ({p.label})" for p in Penalty)
    raise DirectorError(400, "bad_penalty", names=names, value=value)


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
            raise DirectorError(404, "unknown_event", event=event_id)
        return live

    def check_director(self, live: LiveEvent, token: str | None, account: Account | None = None) -> None:
        """403 unless ``account`` directs the event or ``token`` is its director token (a script's)."""
        if account is not None and live.director_account is not None and account.key == live.director_account:
            return
        if not token or not hmac.compare_digest(token_hash(token), live.director_hash):
            raise DirectorError(403, "director_only", header=HEADER)

    # -- the organiser's requests -----------------------------------------------------------------

    def create(
        self, body: Mapping[str, Any], defaults: TableDefaults, director: Account
    ) -> tuple[LiveEvent, str]:
        """A new event in registration, directed by ``director`` (an account of the director role);
        its director token, for the director's scripts."""
        if not director.director:
            raise DirectorError(403, "not_a_director", name=director.name)
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
        person by the name of its account; after the start, a late entry (Swiss events, between
        rounds: docs/tournaments.md, "Late entries")."""
        if live.event.phase is EventPhase.FINISHED:
            raise DirectorError(409, "registration_finished")
        if len(live.event.teams) >= MAX_TEAMS:
            raise DirectorError(409, "too_many_teams", most=MAX_TEAMS)
        unknown = set(body) - {"id", "name", "players"}
        if unknown:
            raise DirectorError(400, "unknown_fields", fields=", ".join(sorted(map(str, unknown))))
        team_id = body.get("id")
        taken = {team.id for team in live.event.teams}
        if team_id is None:
            number = len(live.event.teams) + 1
            while f"T{number}" in taken:
                number += 1
            team_id = f"T{number}"
        if not isinstance(team_id, str) or not team_id.strip() or len(team_id) > 20:
            raise DirectorError(400, "bad_team_id", value=team_id)
        if team_id in taken:
            raise DirectorError(409, "team_registered", team=team_id)
        team_name = body.get("name", team_id)
        try:
            team_name = clean_name(team_name)
        except ProtocolError as error:
            raise DirectorError.of(400, error) from None
        raw = body.get("players")
        if not isinstance(raw, list) or len(raw) != 2:
            raise DirectorError(400, "bad_players", value=raw)
        players = [
            self._player(live, f"{team_id}-{index + 1}", value, index) for index, value in enumerate(raw)
        ]
        people = [name_key(player.name) for player in players if player.bot is None]
        if len(set(people)) != len(people):
            raise DirectorError(409, "same_person_twice")
        team = Team(team_id, (players[0], players[1]), team_name)
        try:
            live.event = live.event.enter_late(team)
        except ValueError as error:
            raise DirectorError.of_event(409, error) from None
        self._save(live)
        return team

    def _player(self, live: LiveEvent, player_id: str, value: object, index: int) -> Player:
        where = f"players[{index}]"
        if not isinstance(value, Mapping):
            raise DirectorError(400, "bad_player", field=where)
        unknown = set(value) - {"name", "bot"}
        if unknown:
            raise DirectorError(
                400, "unknown_player_fields", field=where, fields=", ".join(sorted(map(str, unknown)))
            )
        bot = value.get("bot")
        if bot is not None and bot not in BOTS:
            raise DirectorError(
                400, "unknown_bot", field=f"{where}.bot", bot=bot, known=", ".join(sorted(BOTS))
            )
        raw_name = value.get("name", f"{bot} bot" if bot is not None else None)
        try:
            name = clean_name(raw_name)
            if bot is not None:
                name = bot_name(name, self.lookalike, f"{where}.name")
        except ProtocolError as error:
            raise DirectorError.of(400, error, field=f"{where}.name") from None
        except AccountError as error:
            raise DirectorError(error.status, error.reason, **error.details) from None
        if bot is None:
            account = self.find_account(name)
            if account is None:
                raise DirectorError(409, "not_an_account", field=where, name=name)
            name = account.name
        key = name_key(name)
        for team in live.event.teams:
            for other in team.players:
                if name_key(other.name) == key and (bot is None or other.bot is None):
                    raise DirectorError(409, "plays_in_team", field=where, name=other.name, team=team.id)
        return Player(player_id, name, bot)

    def withdraw(self, live: LiveEvent, team_id: str) -> None:
        """Withdraw a team during registration."""
        if live.event.phase is not EventPhase.REGISTRATION:
            raise DirectorError(409, "registration_started")
        try:
            team = live.event.team(team_id)
        except KeyError:
            raise DirectorError(404, "unknown_team", team=team_id) from None
        live.event = replace(live.event, teams=tuple(t for t in live.event.teams if t.id != team_id))
        for player in team.players:
            live.tokens.pop(player.id, None)
        self._save(live)

    def start(self, live: LiveEvent, body: Mapping[str, Any]) -> None:
        """Close registration and draw the lots (optionally filling an odd field with a bot team)."""
        if live.event.phase is not EventPhase.REGISTRATION:
            raise DirectorError(409, "event_started")
        fill = body.get("fill_with_bots")
        event = live.event
        if fill is not None:
            if fill not in BOTS:
                raise DirectorError(
                    400, "unknown_bot", field="fill_with_bots", bot=fill, known=", ".join(sorted(BOTS))
                )
            filled = event.fill_with_bots(fill)
            for player in filled.teams[-1].players if filled is not event else ():
                try:
                    bot_name(player.name, self.lookalike, "fill_with_bots")
                except AccountError as error:
                    raise DirectorError(error.status, "bot_team_name", text=error.message) from None
            event = filled
        try:
            event = event.start(random.Random(secrets.randbits(64)))
        except ValueError as error:
            raise DirectorError.of_event(409, error) from None
        live.event = event
        self._save(live)
        if live.options.auto_advance:
            self.pair(live)

    def pair(self, live: LiveEvent, body: Mapping[str, Any] | None = None) -> None:
        """Publish the next round's pairings (公布编排) and its score sheets; the tables are made when
        the round starts (:meth:`start_round`): at once with ``{"start": true}`` or ``auto_advance``,
        by itself at ``{"start_at": ISO time}``, else when the director starts it. A ``start_at`` more
        than :data:`START_AT_TOLERANCE_S` in the past is refused (``start: true`` starts it now)."""
        body = body or {}
        _known(body, {"start", "start_at"})
        start_now = body.get("start", False)
        if not isinstance(start_now, bool):
            raise DirectorError(400, "bad_bool", field="start", value=start_now)
        start_at = _time(body, "start_at")
        now = self._now()
        if start_at is not None and start_at < now - timedelta(seconds=START_AT_TOLERANCE_S):
            raise DirectorError(
                400,
                "start_at_past",
                at=start_at.isoformat(),
                now=now.isoformat(timespec="seconds"),
                most=START_AT_TOLERANCE_S,
            )
        current = live.event.current_round
        if current is not None and live.options.require_signatures:
            unsigned = live.unsigned(current.number)
            if unsigned:
                raise DirectorError(409, "unsigned_sheets", round=current.number, tables=unsigned)
        if current is not None and current.complete and current.started_at is None:
            raise DirectorError(409, "round_not_started", round=current.number)
        try:
            live.event = live.event.pair_next_round()
        except ValueError as error:
            raise DirectorError.of_event(409, error) from None
        played = live.event.rounds[-1]
        for pairing in played.pairings:
            players = live.event.seat_players(pairing)
            names = (players[0].name, players[1].name, players[2].name, players[3].name)
            live.sheets[(played.number, pairing.table)] = ScoreSheet(
                played.number, pairing.table, pairing.teams, names
            )
        if start_at is not None:
            live.schedule[played.number] = start_at
        self._save(live)
        due = start_at is not None and start_at <= now
        if start_now or due or live.options.auto_advance:
            self.start_round(live, played.number)

    def start_round(self, live: LiveEvent, round_number: int) -> None:
        """Declare the round started (宣布比赛开始): from now a side not seated is late
        (docs/tournaments.md, "Lateness"). Each table is made with the people who have arrived in
        their seats (and the bots); a table starts playing, its move clocks running, once all four
        seats are taken."""
        try:
            played = live.event.round(round_number)
        except KeyError as error:
            raise DirectorError.of_event(404, error) from None
        if played is not live.event.current_round:
            raise DirectorError(409, "not_current_round", round=round_number)
        now = self._now()
        try:
            live.event = live.event.start_round(now, round_number)
        except ValueError as error:
            raise DirectorError.of_event(409, error) from None
        live.schedule.pop(round_number, None)
        for pairing, result in zip(played.pairings, played.results, strict=True):
            if result is not None:
                continue  # a team out of the event: its table is forfeited
            key = (round_number, pairing.table)
            arrived = live.seat_arrivals.get(key, [None] * 4)
            players = live.event.seat_players(pairing)
            live.tables[key] = self._create_table(
                live, round_number, pairing.table, players, [seat for seat in range(4) if arrived[seat]]
            )
        live.event = live.event.settle_lateness(now)
        self._close_decided(live)
        self._save(live)
        self._advance_if_due(live)

    def tick(self) -> None:
        """Start the rounds whose time has come and judge lateness now (the app calls it every
        second; tests call it after moving the clock)."""
        now = self._now()
        for live in list(self.events.values()):
            try:
                current = live.event.current_round
                if current is None or current.complete:
                    continue
                due = live.schedule.get(current.number)
                if current.started_at is None:
                    if due is not None and due <= now:
                        self.start_round(live, current.number)
                    continue
                before = live.event
                live.event = live.event.settle_lateness(now)
                if live.event != before:
                    self._close_decided(live)
                    self._save(live)
                    self._advance_if_due(live)
            except Exception:
                log.exception("event %s: its clock tick failed", live.id)

    def _close_decided(self, live: LiveEvent) -> None:
        """Close the tables of the current round whose result the director's records decided (a
        forfeit for lateness, by hand or by a withdrawal): one still waiting for its players is
        removed, one playing ends by the forfeit; its sheet shows the result."""
        current = live.event.current_round
        if current is None:
            return
        for pairing, result in zip(current.pairings, current.results, strict=True):
            if result is None:
                continue
            key = (current.number, pairing.table)
            sheet = live.sheets.get(key)
            if sheet is not None and sheet.result != result:
                live.sheets[key] = self._auto_sign(live, sheet.with_result(result))
            room = self._room(live, key)
            if room is None:
                continue
            if room.table.status == "waiting":
                if self.rooms.expire(room.table.id):
                    live.tables.pop(key, None)
            elif room.table.status == "running" and result.forfeited_by is not None:
                room.forfeit(result.forfeited_by, "判负")

    def _now(self) -> datetime:
        return datetime.fromtimestamp(self.clock(), UTC)

    def _create_table(
        self,
        live: LiveEvent,
        round_number: int,
        table: int,
        players: Iterable[Player],
        present: Iterable[int] | None = None,
    ) -> str:
        """The round's table: its bots, and the people of the seats ``present`` (all when ``None``)
        in their seats; the others' seats wait for them."""
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
        here = set(range(4) if present is None else present)
        room = self.rooms.create(
            table_config,
            [_person(live, seat, p) for seat, p in enumerate(seated) if p.bot is None and seat in here],
        )
        return room.table.id

    def forfeit(self, live: LiveEvent, round_number: int, table: int, body: Mapping[str, Any]) -> None:
        """The director's forfeit (弃权 / 判负) of a team at a table."""
        played, pairing = self._pairing(live, round_number, table)
        team_id = body.get("team")
        if team_id not in pairing.teams:
            raise DirectorError(400, "bad_team", teams=list(pairing.teams), value=team_id)
        note = body.get("note", "")
        if not isinstance(note, str) or len(note) > 200:
            raise DirectorError(400, "bad_text", field="note", most=200)
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
            raise DirectorError.of_event(404, error) from None

    def _room(self, live: LiveEvent, key: Key) -> Room | None:
        table_id = live.tables.get(key)
        return None if table_id is None else self.rooms.get(table_id)

    # -- the director's tools during a round ----------------------------------------------------

    def arrive(self, live: LiveEvent, round_number: int, table: int, seat: object) -> None:
        """The director records a person seated (入座) at the table now (a table played with cards,
        or seen by a referee); at a table already made, the person is seated there too."""
        played, pairing = self._pairing(live, round_number, table)
        if played != len(live.event.rounds):
            raise DirectorError(409, "not_current_round", round=round_number)
        if isinstance(seat, bool) or not isinstance(seat, int) or seat not in range(4):
            raise DirectorError(400, "bad_seat_of_table", value=seat)
        player = live.event.seat_players(pairing)[seat]
        if player.bot is not None:
            raise DirectorError(409, "bot_seat", seat=seat, bot=player.bot)
        self._arrival(live, (round_number, table), seat)

    def player_arrives(self, live: LiveEvent, token: object, account: Account | None) -> dict[str, Any]:
        """A player says it is at its table (签到, before the round starts or after): its arrival."""
        player, team = self.player_of(live, token, account)
        current = live.event.current_round
        if current is None or current.complete:
            raise DirectorError(409, "no_round_playing")
        try:
            pairing = current.table_of(team.id)
        except ValueError as error:
            raise DirectorError.of_event(409, error) from None
        seat = [p.id for p in live.event.seat_players(pairing)].index(player.id)
        self._arrival(live, (current.number, pairing.table), seat)
        return self.whoami(live, token, account)

    def _arrival(self, live: LiveEvent, key: Key, seat: int) -> None:
        round_number, table = key
        played = live.event.round(round_number)
        if played.result(table) is not None:
            raise DirectorError(409, "table_decided", table=table)
        seats = live.seat_arrivals.setdefault(key, [None, None, None, None])
        if seats[seat] is not None:
            raise DirectorError(409, "arrived_already", seat=seat, at=str(seats[seat]))
        self._seat_arrived(live, key, seat)
        self._rule_late_fouls(live, key)
        room = self._room(live, key)
        if room is not None and room.table.names[seat] is None:
            player = live.event.seat_players(played.pairing(table))[seat]
            room.seat_people([_person(live, seat, player)])
        self._close_decided(live)
        self._save(live)
        self._advance_if_due(live)

    def _seat_arrived(self, live: LiveEvent, key: Key, seat: int) -> None:
        """Record the seat's arrival now; its team is seated once its people all are."""
        seats = live.seat_arrivals.setdefault(key, [None, None, None, None])
        if seats[seat] is not None:
            return
        now = self._now()
        seats[seat] = now
        played = live.event.round(key[0])
        pairing = played.pairing(key[1])
        players = live.event.seat_players(pairing)
        team = pairing.teams[seat % 2]
        people = [s for s in (seat % 2, seat % 2 + 2) if players[s].bot is None]
        if played.arrival(team) is None and all(seats[s] is not None for s in people):
            try:
                live.event = live.event.arrive(team, now)  # its lateness is the rules' call
            except ValueError as error:
                raise DirectorError.of_event(409, error) from None

    def _rule_late_fouls(self, live: LiveEvent, key: Key) -> None:
        """Tell the table the lateness penalties the event judged at it and it has not recorded: a
        warning or a foul, each counting with the table's own penalties for escalation (a late warning
        and a timeout's warning make a violation: docs/rules/competition.md#penalties); a foul ends a
        deal as the late side's foul, the first deal first (#late, #foul; :meth:`Table.late_penalty`).
        The offender is the side's player seated last."""
        room = self._room(live, key)
        if room is None or room.halted or room.table.status not in ("waiting", "running"):
            return
        table = _guandan(room)
        played = live.event.round(key[0])
        told_at_table = (Penalty.WARNING, Penalty.FOUL)
        judged = [
            entry
            for entry in played.table_penalties(key[1])
            if entry.offence is Offence.LATE and entry.penalty in told_at_table and not entry.escalated
        ]
        told = Counter(
            r.penalty for r in table.penalties if r.offence is Offence.LATE and r.penalty in told_at_table
        )
        pairing = played.pairing(key[1])
        seated = tuple(live.seat_arrivals.get(key, ()))
        for entry in judged:
            if told[entry.penalty]:
                told[entry.penalty] -= 1
                continue
            seat = late_foul_seat(pairing.teams.index(entry.team), seated)
            entries = table.late_penalty(seat, entry.penalty, room.clock(), entry.reason)
            if entries:
                room.commit(entries)

    def penalise(
        self, live: LiveEvent, round_number: int, table: int, body: Mapping[str, Any], by: str
    ) -> None:
        """A penalty by hand: ``{"player": id or name, "penalty", "reason", "confirm"?, "override"?}``;
        判负, or a lesser penalty that escalates to 判负, needs ``"confirm": true`` and ends the table's
        match; a table decided by a forfeit takes no more (docs/tournaments.md, "Penalties")."""
        _known(body, {"player", "penalty", "reason", "confirm", "override"})
        _, pairing = self._pairing(live, round_number, table)
        penalty = _penalty(body.get("penalty"))
        reason = _text(body, "reason", required=True)
        override = _text(body, "override")
        wanted = body.get("player")
        players = live.event.seat_players(pairing)
        player = next(
            (
                p
                for p in players
                if isinstance(wanted, str)
                and wanted
                and (wanted == p.id or name_key(wanted) == name_key(p.name))
            ),
            None,
        )
        if player is None:
            there = ", ".join(f"{p.name} (seat {seat})" for seat, p in enumerate(players))
            raise DirectorError(400, "bad_player_at_table", table=table, players=there, value=wanted)
        if penalty is Penalty.FORFEIT and body.get("confirm") is not True:
            raise DirectorError(400, "confirm_forfeit")
        try:
            outcome = live.event.penalty_outcome(round_number, table, player.id, penalty)
        except ValueError as error:
            raise DirectorError.of_event(409, error) from None
        if outcome is Penalty.FORFEIT and body.get("confirm") is not True:
            raise DirectorError(400, "confirm_escalated_forfeit", penalty=penalty.label, player=player.name)
        try:
            live.event = live.event.penalise(
                round_number, table, player.id, penalty, reason, at=self._now(), by=by, override=override
            )
        except ValueError as error:
            raise DirectorError.of_event(409, error) from None
        self._close_decided(live)
        self._save(live)
        self._advance_if_due(live)

    def enter_result(
        self, live: LiveEvent, round_number: int, table: int, body: Mapping[str, Any], by: str
    ) -> None:
        """Enter or correct a table's result: ``{"levels": [a, b], "deals", "reason", "override"?}`` or
        ``{"forfeit": team, "reason", ...}``; a correction after the window needs ``override``."""
        _known(body, {"levels", "deals", "forfeit", "reason", "override"})
        played, pairing = self._pairing(live, round_number, table)
        reason = _text(body, "reason")
        override = _text(body, "override")
        previous = live.event.round(round_number).result(table)
        if previous is not None and not reason:
            raise DirectorError(400, "correction_reason")
        if (body.get("levels") is None) == (body.get("forfeit") is None):
            raise DirectorError(400, "bad_result")
        room = self._room(live, (round_number, table))
        if room is not None and room.table.status == "running":
            raise DirectorError(409, "table_playing", table=table)
        deals = body.get("deals")
        at = self._now()
        try:
            if body.get("forfeit") is not None:
                team = body["forfeit"]
                if team not in pairing.teams:
                    raise DirectorError(
                        400, "bad_forfeit_team", table=table, teams=", ".join(pairing.teams), value=team
                    )
                live.event = live.event.record_forfeit(
                    played,
                    table,
                    team,
                    at=at,
                    by=by,
                    reason=reason,
                    override=override,
                    deals=deals
                    if isinstance(deals, int) and not isinstance(deals, bool) and deals >= 0
                    else 0,
                )
            else:
                levels = body["levels"]
                if not isinstance(levels, list) or len(levels) != 2:
                    raise DirectorError(400, "bad_levels", value=levels)
                if isinstance(deals, bool) or not isinstance(deals, int) or not 1 <= deals <= 200:
                    raise DirectorError(400, "bad_deals", value=deals)
                result = TableResult.played(
                    (_level("levels[0]", levels[0]), _level("levels[1]", levels[1])),
                    deals,
                    live.event.config.scoring,
                )
                live.event = live.event.record(
                    played, table, result, at=at, by=by, reason=reason, override=override
                )
        except CorrectionWindowError as error:
            raise DirectorError.of_event(409, error) from None
        except ValueError as error:
            raise DirectorError.of_event(400, error) from None
        self._close_decided(live)
        self._save(live)
        self._advance_if_due(live)

    def withdraw_team(self, live: LiveEvent, team_id: str, body: Mapping[str, Any], by: str) -> None:
        """A team out after the start: ``{"reason", "disqualify"?}`` (退赛 / 取消参赛资格); its table
        this round is its forfeit, later rounds leave it out (docs/tournaments.md, "Withdrawals")."""
        _known(body, {"reason", "disqualify"})
        reason = _text(body, "reason", required=True)
        disqualify = body.get("disqualify", False)
        if not isinstance(disqualify, bool):
            raise DirectorError(400, "bad_bool", field="disqualify", value=disqualify)
        try:
            live.event.team(team_id)
        except KeyError:
            raise DirectorError(404, "unknown_team", team=team_id) from None
        if live.event.phase is EventPhase.FINISHED:
            raise DirectorError(409, "event_finished")
        try:
            live.event = live.event.withdraw(team_id, reason, at=self._now(), by=by, disqualify=disqualify)
        except ValueError as error:
            raise DirectorError.of_event(409, error) from None
        self._close_decided(live)
        self._save(live)
        self._advance_if_due(live)

    def file_appeal(self, live: LiveEvent, body: Mapping[str, Any], by: str) -> None:
        """An appeal (申诉): ``{"round", "table", "team", "text", "override"?}``."""
        _known(body, {"round", "table", "team", "text", "override"})
        round_number, table = body.get("round"), body.get("table")
        if not isinstance(round_number, int) or not isinstance(table, int):
            raise DirectorError(400, "bad_table_ref")
        self._pairing(live, round_number, table)
        try:
            live.event = live.event.file_appeal(
                round_number,
                table,
                str(body.get("team")),
                _text(body, "text", required=True, limit=1000),
                at=self._now(),
                by=by,
                override=_text(body, "override"),
            )
        except ValueError as error:
            raise DirectorError.of_event(409, error) from None
        self._save(live)

    def rule_appeal(self, live: LiveEvent, number: int, body: Mapping[str, Any], by: str) -> None:
        """The ruling on an appeal: ``{"ruling", "upheld", "by"?}`` (who ruled: the director unless named)."""
        _known(body, {"ruling", "upheld", "by"})
        upheld = body.get("upheld")
        if not isinstance(upheld, bool):
            raise DirectorError(400, "bad_bool", field="upheld", value=upheld)
        ruled_by = _text(body, "by") or by
        try:
            live.event = live.event.rule_appeal(
                number, _text(body, "ruling", required=True, limit=1000), upheld, by=ruled_by, at=self._now()
            )
        except KeyError as error:
            raise DirectorError.of_event(404, error) from None
        except ValueError as error:
            raise DirectorError.of_event(409, error) from None
        self._save(live)

    def edit(self, live: LiveEvent, body: Mapping[str, Any], defaults: TableDefaults) -> None:
        """Change an event not started: the fields of ``POST /api/events``, each given one replaced."""
        if live.event.phase is not EventPhase.REGISTRATION:
            raise DirectorError(409, "no_longer_edited")
        config = live.event.config
        current: dict[str, Any] = {
            "name": config.name,
            "format": config.format.to_dict(),
            "system": config.system.value,
            "rounds": config.rounds,
            "rules": live.options.rules,
            "level_table": config.scoring.level_table,
            "conduct": config.conduct.to_dict(),
            **{k: v for k, v in live.options.to_dict().items() if k != "rules"},
        }
        new_config, options = read_event_config({**current, **body}, defaults)
        live.event = replace(live.event, config=new_config)
        live.options = options
        self._save(live)

    def delete(self, live: LiveEvent) -> None:
        """Delete an event not started (its pages' websockets are closed)."""
        if live.event.phase is not EventPhase.REGISTRATION:
            raise DirectorError(409, "not_deleted")
        self.store.delete_tournament(live.id)
        self.events.pop(live.id, None)
        for queue in list(live.subscribers):
            queue.put_nowait(None)

    def seat_refusal(self, room: Room, seat: int, account: Account | None) -> DirectorError | None:
        """Why ``account`` may not take ``seat`` at an event's table (403; ``None``: it may): an event's
        seats are its players'."""
        link = room.table.config.event
        if link is None:
            return None
        live = self.events.get(link.id)
        if live is None or seat not in range(4):
            return None
        try:
            pairing = live.event.round(link.round).pairing(link.table)
        except KeyError:
            return None
        player = live.event.seat_players(pairing)[seat]
        if account is None or player.bot is not None or name_key(player.name) != account.key:
            return DirectorError(403, "event_seat", seat=seat, name=player.name)
        return None

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
            raise DirectorError(401, "players_sign_in")
        raise DirectorError(403, "not_a_player")

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
                    seat = [p.id for p in seats].index(player.id)
                    seat_info = {
                        "round": current.number,
                        "table": pairing.table,
                        "table_id": table_id,
                        "seat": seat,
                        "status": None if stored is None else stored.status,
                        "started": time_to_text(current.started_at),
                        "arrived": time_to_text(live.seat_arrivals.get(key, [None] * 4)[seat]),
                        "decided": current.result(pairing.table) is not None,
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
            raise DirectorError(404, "no_table_in_room", round=round_number, table=table)
        seat = room.table.seat_of(token) if isinstance(token, str) and token else None
        if seat is None and account is not None:
            seat = room.table.seat_of_account(account.key)
        if seat is None:
            raise DirectorError(403, "not_at_table")
        if sheet.result is None:
            raise DirectorError(409, "sheet_without_result")
        signed = sheet.sign(seat % 2)
        if signed != sheet:
            live.sheets[key] = signed
            self._save(live)
            self._advance_if_due(live)
        return live.sheets[key]

    # -- the tables' side -------------------------------------------------------------------------

    def table_changed(self, room: Room, entries: Sequence[Entry]) -> None:
        """Rooms' listener: after a deal, a penalty or the match's end, refresh the sheet (and enter the
        result)."""
        link = room.table.config.event
        if link is None:
            return
        table = _guandan(room)
        live = self.events.get(link.id)
        if live is None:
            return
        kinds = {entry["type"] for entry in entries}
        if not kinds & {"deal_end", "match_end", "penalty", "ruling", "start", "sit"}:
            return
        if live.tables.get((link.round, link.table)) != table.id:
            return
        for entry in entries:
            if entry["type"] == "sit":
                self._seat_arrived(live, (link.round, link.table), int(entry["seat"]))
        self._rule_late_fouls(live, (link.round, link.table))
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
        clocks = tuple(r for r in table.penalties if r.offence is not Offence.LATE)  # lateness: the event's
        if clocks != new.penalties:
            new = new.with_penalties(clocks)
        entered = live.event.round(round_number).result(table_number)
        if result is not None and entered is None:
            live.event = live.event.record(round_number, table_number, result, at=self._now())
            entered = result
        if entered is not None and entered != new.result:
            new = self._auto_sign(live, new.with_result(entered))
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
        return event_views.view(live, self.rooms, self.store, self._now())

    def standings(self, live: LiveEvent) -> list[dict[str, Any]]:
        """The standings (none before the lots are drawn)."""
        return event_views.standings(live)

    def sheet(self, live: LiveEvent, round_number: int, table: int) -> dict[str, Any]:
        self._pairing(live, round_number, table)
        sheet = live.sheets.get((round_number, table))
        if sheet is None:
            raise DirectorError(404, "no_sheet", round=round_number, table=table)
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
