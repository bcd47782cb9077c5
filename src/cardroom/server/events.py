"""The card room's tournament director (赛事编排): events whose rounds are played at the room's tables.

An event is the pure core's :class:`~cardroom.tournament.Event` plus what the card room adds: the
director token's hash, each person's player token (hashed), the table of each pairing, the score sheets
and the options (rules, bot pace, auto-advance, signatures). :class:`Director` keeps the live events,
stores each after every change (``Store.save_tournament``) and listens to the tables (``Rooms``): a
deal's end refreshes the table's sheet, a match's end enters the result. docs/tournaments-api.md is
the API.
"""

from __future__ import annotations

import asyncio
import hmac
import logging
import random
import secrets
import time
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime
from typing import Any, Final

from cardroom.bots import BOTS
from cardroom.guandan.ruleset import PRESETS
from cardroom.server.codec import ProtocolError
from cardroom.server.config import (
    MAX_CLOCK,
    Clocks,
    EventLink,
    SeatConfig,
    Settings,
    TableConfig,
    conduct_from_dict,
    format_from_dict,
)
from cardroom.server.ratings import name_key
from cardroom.server.rooms import Room, Rooms
from cardroom.server.store import Store
from cardroom.server.table import Table, clean_name, token_hash
from cardroom.server.views import penalty_json
from cardroom.tournament import (
    ConductPolicy,
    Event,
    EventConfig,
    EventPhase,
    PairingSystem,
    Player,
    ScoreSheet,
    StandingRow,
    TableResult,
    Team,
    deal_lines,
    level_name,
)
from cardroom.tournament.conduct import Clocks as ConductClocks

log = logging.getLogger(__name__)

MAX_ROUNDS: Final = 50
MAX_TEAMS: Final = 256
LIST_LIMIT: Final = 200
HEADER: Final = "X-Director-Token"


class DirectorError(Exception):
    """A refused request: ``status`` is the HTTP status (400, 403, 404, 409), ``message`` says why."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.message = message


def _now() -> datetime:
    return datetime.now(UTC)


@dataclass(frozen=True)
class EventOptions:
    """What the card room adds to the core's config: the tables' rule set and pace, how long a lost
    connection may last before it is penalised, and how rounds advance."""

    rules: str = "competition"
    disconnect_grace: float = 60.0
    bot_delay: float = 0.6
    deal_pause: float = 4.0
    auto_advance: bool = False
    require_signatures: bool = False

    def to_dict(self) -> dict[str, Any]:
        return {
            "rules": self.rules,
            "disconnect_grace": self.disconnect_grace,
            "bot_delay": self.bot_delay,
            "deal_pause": self.deal_pause,
            "auto_advance": self.auto_advance,
            "require_signatures": self.require_signatures,
        }

    @classmethod
    def from_dict(cls, values: Mapping[str, Any]) -> EventOptions:
        return cls(
            str(values.get("rules", "competition")),
            float(values.get("disconnect_grace", 60.0)),
            float(values.get("bot_delay", 0.6)),
            float(values.get("deal_pause", 4.0)),
            bool(values.get("auto_advance", False)),
            bool(values.get("require_signatures", False)),
        )


Key = tuple[int, int]
"""(round, table)."""


@dataclass
class LiveEvent:
    """One event as the server holds it (stored whole as JSON after each change)."""

    id: str
    event: Event
    options: EventOptions
    director_hash: str
    tokens: dict[str, str] = field(default_factory=dict)
    """Player id → SHA-256 of the player's token (people only)."""
    tables: dict[Key, str] = field(default_factory=dict)
    """(round, table) → the card room's table id."""
    sheets: dict[Key, ScoreSheet] = field(default_factory=dict)
    created: datetime = field(default_factory=_now)
    updated: datetime = field(default_factory=_now)
    subscribers: set[asyncio.Queue[dict[str, Any] | None]] = field(default_factory=set)

    @property
    def name(self) -> str:
        return self.event.config.name

    def unsigned(self, round_number: int) -> list[int]:
        """The tables of the round whose sheet is not signed by both teams."""
        sheets = self.sheets.items()
        return sorted(
            table for (number, table), sheet in sheets if number == round_number and not sheet.final
        )

    def to_dict(self) -> dict[str, Any]:
        return {
            "phase": self.event.phase.value,
            "event": self.event.to_dict(),
            "options": self.options.to_dict(),
            "tokens": dict(self.tokens),
            "tables": [
                {"round": key[0], "table": key[1], "table_id": table_id}
                for key, table_id in self.tables.items()
            ],
            "sheets": [sheet.to_dict() for sheet in self.sheets.values()],
        }

    @classmethod
    def from_dict(
        cls, event_id: str, data: Mapping[str, Any], director_hash: str, created: datetime, updated: datetime
    ) -> LiveEvent:
        sheets = [ScoreSheet.from_dict(sheet) for sheet in data.get("sheets", ())]
        return cls(
            event_id,
            Event.from_dict(data["event"]),
            EventOptions.from_dict(data.get("options", {})),
            director_hash,
            dict(data.get("tokens", {})),
            {(int(t["round"]), int(t["table"])): str(t["table_id"]) for t in data.get("tables", ())},
            {(sheet.round, sheet.table): sheet for sheet in sheets},
            created,
            updated,
        )


# -- reading requests -----------------------------------------------------------------------------


def _number(where: str, value: object, low: float, high: float) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float) or not low <= value <= high:
        raise DirectorError(400, f"{where}: a number from {low:g} to {high:g}, got {value!r}")
    return float(value)


def _flag(where: str, value: object) -> bool:
    if not isinstance(value, bool):
        raise DirectorError(400, f"{where}: true or false, got {value!r}")
    return value


def read_event_config(body: Mapping[str, Any], settings: Settings) -> tuple[EventConfig, EventOptions]:
    """``POST /api/events``'s body: the core's config and the card room's options (400 names a field)."""
    known = {
        "name",
        "format",
        "system",
        "rounds",
        "rules",
        "conduct",
        "disconnect_grace",
        "bot_delay",
        "deal_pause",
        "auto_advance",
        "require_signatures",
    }
    unknown = set(body) - known
    if unknown:
        raise DirectorError(400, f"unknown fields: {', '.join(sorted(map(str, unknown)))}")
    try:
        name = clean_name(body.get("name"))
    except ProtocolError as error:
        raise DirectorError(400, error.message.replace("name:", "name:", 1)) from None
    rounds = body.get("rounds")
    if rounds is not None and (
        isinstance(rounds, bool) or not isinstance(rounds, int) or not 1 <= rounds <= MAX_ROUNDS
    ):
        raise DirectorError(400, f"rounds: a whole number from 1 to {MAX_ROUNDS}, or null, got {rounds!r}")
    system_name = body.get("system", "auto")
    systems = [system.value for system in PairingSystem]
    if system_name not in systems:
        raise DirectorError(400, f"system: one of {', '.join(systems)}, got {system_name!r}")
    rules = body.get("rules", "competition")
    if rules not in PRESETS:
        raise DirectorError(400, f"rules: unknown rule set {rules!r}; known: {', '.join(sorted(PRESETS))}")
    try:
        fmt = format_from_dict(body.get("format", {}))
        conduct = conduct_from_dict(body.get("conduct", {}))
        config = EventConfig(name, fmt, rounds, PairingSystem(system_name), conduct=conduct)
    except ValueError as error:
        raise DirectorError(400, str(error)) from None
    options = EventOptions(
        rules,
        _number("disconnect_grace", body.get("disconnect_grace", 60.0), 0, MAX_CLOCK),
        _number("bot_delay", body.get("bot_delay", settings.bot_delay), 0, 10),
        _number("deal_pause", body.get("deal_pause", settings.deal_pause), 0, 120),
        _flag("auto_advance", body.get("auto_advance", False)),
        _flag("require_signatures", body.get("require_signatures", False)),
    )
    return config, options


def table_clocks(policy: ConductPolicy) -> Clocks:
    """The table's lobby clocks for the event's conduct clocks (the table runs the policy's own)."""
    clocks: ConductClocks = policy.clocks
    return Clocks(
        float(clocks.tribute_s), float(clocks.return_s), float(clocks.first_lead_s), float(clocks.play_s)
    )


def result_json(result: TableResult | None) -> dict[str, Any] | None:
    """A table's result as the API shows it (the core's dict and the levels as written)."""
    if result is None:
        return None
    return {**result.to_dict(), "level_names": [level_name(value) for value in result.levels]}


def standing_json(event: Event, row: StandingRow) -> dict[str, Any]:
    tally = row.tally
    return {
        "rank": row.rank,
        "team": row.team,
        "name": event.team(row.team).display,
        "points": tally.points,
        "progressive": tally.progressive,
        "wins": tally.wins,
        "draws": tally.draws,
        "losses": tally.losses,
        "level_difference": tally.level_difference,
        "levels_gained": tally.levels_gained,
        "score28": tally.score28,
        "lot": tally.lot,
        "above": None if row.above is None else row.above.value,
        "above_label": None if row.above is None else row.above.label,
        "below": None if row.below is None else row.below.value,
    }


def sheet_json(live: LiveEvent, sheet: ScoreSheet) -> dict[str, Any]:
    """A score sheet as the API shows it."""
    event = live.event
    return {
        "round": sheet.round,
        "table": sheet.table,
        "teams": list(sheet.teams),
        "team_names": [event.team(team).display for team in sheet.teams],
        "players": list(sheet.players),
        "table_id": live.tables.get((sheet.round, sheet.table)),
        "lines": [{**line.to_dict(), "text": line.describe()} for line in sheet.lines],
        "penalties": [penalty_json(record) for record in sheet.penalties],
        "result": result_json(sheet.result),
        "signed": list(sheet.signed),
        "final": sheet.final,
    }


# -- the director ---------------------------------------------------------------------------------


class Director:
    """Every event of the server: created, changed and stored here; fed by the tables' commits."""

    def __init__(self, store: Store, rooms: Rooms, clock: Callable[[], float] = time.time) -> None:
        self.store = store
        self.rooms = rooms
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
                    self._refresh(live, played.number, pairing.table, room.table)
                    changed = True
        if changed:
            self._save(live)
            self._advance_if_due(live)

    def _save(self, live: LiveEvent) -> None:
        live.updated = _now()
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

    def check_director(self, live: LiveEvent, token: str | None) -> None:
        """403 unless ``token`` is the event's director token."""
        if not token or not hmac.compare_digest(token_hash(token), live.director_hash):
            raise DirectorError(403, f"this needs the event's director token (header {HEADER})")

    # -- the organiser's requests -----------------------------------------------------------------

    def create(self, body: Mapping[str, Any], settings: Settings) -> tuple[LiveEvent, str]:
        """A new event in registration; its director token."""
        config, options = read_event_config(body, settings)
        event_id = secrets.token_hex(5)
        while event_id in self.events or self.store.tournament(event_id) is not None:
            event_id = secrets.token_hex(5)
        token = secrets.token_urlsafe(24)
        live = LiveEvent(event_id, Event(config), options, token_hash(token))
        self.store.create_tournament(event_id, config.name, live.to_dict(), live.director_hash, live.created)
        self.events[event_id] = live
        return live, token

    def register(self, live: LiveEvent, body: Mapping[str, Any]) -> tuple[Team, dict[str, str]]:
        """Register a team: ``{"id"?, "name", "players": [{"name"} | {"bot", "name"?}, two]}``; the
        people's player tokens by name."""
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
        tokens: dict[str, str] = {}
        for player in players:
            if player.bot is None:
                token = secrets.token_urlsafe(24)
                live.tokens[player.id] = token_hash(token)
                tokens[player.name] = token
        self._save(live)
        return team, tokens

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
        except ProtocolError as error:
            raise DirectorError(400, f"{where}.{error.message}") from None
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
            event = event.fill_with_bots(fill)
        try:
            event = event.start(random.Random(secrets.randbits(64)))
        except ValueError as error:
            raise DirectorError(409, str(error)) from None
        live.event = event
        self._save(live)
        if live.options.auto_advance:
            self.pair(live)

    def pair(self, live: LiveEvent) -> None:
        """Pair the next round and create its tables (players seated, matches begun)."""
        current = live.event.current_round
        if current is not None and live.options.require_signatures:
            unsigned = live.unsigned(current.number)
            if unsigned:
                raise DirectorError(409, f"round {current.number}: tables {unsigned} have unsigned sheets")
        try:
            live.event = live.event.pair_next_round()
        except ValueError as error:
            raise DirectorError(409, str(error)) from None
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
        people = [(seat, p.name, live.tokens[p.id]) for seat, p in enumerate(seated) if p.bot is None]
        room = self.rooms.create(table_config, people)
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
        levels = (2, 2) if room is None else room.table.match.level_values()
        result = TableResult.forfeit(side, levels, 0 if room is None else len(room.table.match.summaries))
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

    def player_of(self, live: LiveEvent, token: object) -> tuple[Player, Team]:
        """The person holding this player token (403 otherwise)."""
        if isinstance(token, str) and token:
            digest = token_hash(token)
            for team in live.event.teams:
                for player in team.players:
                    held = live.tokens.get(player.id)
                    if held is not None and hmac.compare_digest(held, digest):
                        return player, team
        raise DirectorError(403, "this token is no player's of this event")

    def whoami(self, live: LiveEvent, token: object) -> dict[str, Any]:
        player, team = self.player_of(live, token)
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

    def sign(self, live: LiveEvent, round_number: int, table: int, token: object) -> ScoreSheet:
        """A person seated at the table signs the sheet for the side of its seat."""
        self._pairing(live, round_number, table)
        key = (round_number, table)
        sheet = live.sheets.get(key)
        room = self._room(live, key)
        if sheet is None or room is None:
            raise DirectorError(404, f"round {round_number} has no table {table} in the card room")
        seat = room.table.seat_of(token) if isinstance(token, str) and token else None
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
        table = room.table
        link = table.config.event
        if link is None:
            return
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

    # -- views ------------------------------------------------------------------------------------

    def summary(self, live: LiveEvent) -> dict[str, Any]:
        event = live.event
        return {
            "id": live.id,
            "name": live.name,
            "phase": event.phase.value,
            "teams": len(event.teams),
            "rounds_paired": len(event.rounds),
            "total_rounds": event.total_rounds if event.lots else None,
            "format": event.config.format.describe(),
            "created": live.created.isoformat(),
            "updated": live.updated.isoformat(),
        }

    def listed(self) -> list[dict[str, Any]]:
        ordered = sorted(self.events.values(), key=lambda live: (live.created, live.id), reverse=True)
        return [self.summary(live) for live in ordered[:LIST_LIMIT]]

    def view(self, live: LiveEvent) -> dict[str, Any]:
        """The event as ``GET /api/events/{id}`` shows it."""
        event = live.event
        config = event.config
        lots = {team_id: event.lot(team_id) for team_id in event.lots}
        rounds = []
        for played in event.rounds:
            tables = []
            for pairing, result in zip(played.pairings, played.results, strict=True):
                key = (played.number, pairing.table)
                sheet = live.sheets.get(key)
                seats = event.seat_players(pairing)
                table_id = live.tables.get(key)
                tables.append(
                    {
                        "table": pairing.table,
                        "teams": list(pairing.teams),
                        "table_id": table_id,
                        **self._table_status(table_id, result),
                        "seats": [
                            {"seat": seat, "player": p.name, "team": pairing.teams[seat % 2], "bot": p.bot}
                            for seat, p in enumerate(seats)
                        ],
                        "penalties": 0 if sheet is None else len(sheet.penalties),
                        "result": result_json(result),
                        "signed": [False, False] if sheet is None else list(sheet.signed),
                        "final": sheet is not None and sheet.final,
                    }
                )
            rounds.append(
                {
                    "number": played.number,
                    "bye": played.draw.bye,
                    "complete": played.complete,
                    "signed": not live.unsigned(played.number),
                    "tables": tables,
                }
            )
        return {
            "id": live.id,
            "name": live.name,
            "phase": event.phase.value,
            "created": live.created.isoformat(),
            "updated": live.updated.isoformat(),
            "config": {
                "format": config.format.to_dict(),
                "format_text": config.format.describe(),
                "system": config.system.value,
                "rounds": config.rounds,
                "rules": live.options.rules,
                "conduct": config.conduct.to_dict(),
                "disconnect_grace": live.options.disconnect_grace,
                "bot_delay": live.options.bot_delay,
                "deal_pause": live.options.deal_pause,
                "auto_advance": live.options.auto_advance,
                "require_signatures": live.options.require_signatures,
            },
            "system": None if event.system is None else event.system.value,
            "total_rounds": event.total_rounds if event.lots else None,
            "teams": [
                {
                    "id": team.id,
                    "name": team.display,
                    "lot": lots.get(team.id),
                    "players": [{"id": p.id, "name": p.name, "bot": p.bot} for p in team.players],
                }
                for team in event.teams
            ],
            "rounds": rounds,
            "standings": self.standings(live),
        }

    def _table_status(self, table_id: str | None, result: TableResult | None) -> dict[str, Any]:
        room = None if table_id is None else self.rooms.rooms.get(table_id)
        if room is not None:
            table = room.table
            return {
                "status": table.status,
                "levels": [rank.letter for rank in table.match.levels],
                "deal_number": len(table.match.deals),
            }
        levels = None if result is None else [level_name(value) for value in result.levels]
        status = "finished" if result is not None else None
        if status is None and table_id is not None:
            stored = self.store.table(table_id)
            status = None if stored is None else stored.status
        return {"status": status, "levels": levels, "deal_number": None if result is None else result.deals}

    def standings(self, live: LiveEvent) -> list[dict[str, Any]]:
        if not live.event.lots:
            return []
        return [standing_json(live.event, row) for row in live.event.standings()]

    def sheet(self, live: LiveEvent, round_number: int, table: int) -> dict[str, Any]:
        self._pairing(live, round_number, table)
        sheet = live.sheets.get((round_number, table))
        if sheet is None:
            raise DirectorError(404, f"round {round_number}, table {table} has no sheet")
        return sheet_json(live, sheet)

    def results_of(self, live: LiveEvent) -> list[tuple[int, int, TableResult | None]]:
        """(round, table, result) of every table, for the printable page."""
        return [
            (played.number, pairing.table, result)
            for played in live.event.rounds
            for pairing, result in zip(played.pairings, played.results, strict=True)
        ]


__all__ = [
    "HEADER",
    "Director",
    "DirectorError",
    "EventOptions",
    "LiveEvent",
    "name_key",
    "read_event_config",
    "result_json",
    "sheet_json",
    "standing_json",
]
