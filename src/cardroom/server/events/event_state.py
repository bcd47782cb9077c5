"""The card room's side of a tournament event: what the director holds and stores of it, and how a new
event's request is read.

:class:`LiveEvent` is the core's :class:`~cardroom.tournament.Event` plus the director token's hash,
the players' token hashes, the table of each pairing, the score sheets and the :class:`EventOptions`;
it is stored whole as JSON (:meth:`LiveEvent.to_dict`, :meth:`LiveEvent.from_dict`) after each change.
:func:`read_event_config` reads ``POST /api/events``'s body (docs/tournaments-api.md).
"""

from __future__ import annotations

import asyncio
from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any, Final

from cardroom.guandan.ruleset import PRESETS
from cardroom.server.tables.codec import ProtocolError
from cardroom.server.tables.config import (
    MAX_CLOCK,
    Clocks,
    TableDefaults,
    conduct_from_dict,
    format_from_dict,
)
from cardroom.server.tables.refusals import RefusedError
from cardroom.server.tables.seats import clean_name
from cardroom.tournament import ConductPolicy, Event, EventConfig, PairingSystem, ScoreSheet
from cardroom.tournament.conduct import Clocks as ConductClocks
from cardroom.tournament.director import time_from_text, time_to_text
from cardroom.tournament.refusals import EventRefusedError
from cardroom.tournament.scoring import LEVEL_TABLES, ScoringRules

MAX_ROUNDS: Final = 50
MAX_TEAMS: Final = 256
LIST_LIMIT: Final = 200
HEADER: Final = "X-Director-Token"


class DirectorError(RefusedError):
    """A refused request about an event: ``status`` is the HTTP status (400, 403, 404, 409), ``reason``
    its code, ``message`` says why."""


def utc_now() -> datetime:
    """The time an event is created or changed (its ``created`` and ``updated``)."""
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
    """Player id → SHA-256 of the player's token: the people of events registered before accounts
    existed (a person registered since plays as the account of the player's name)."""
    tables: dict[Key, str] = field(default_factory=dict)
    """(round, table) → the card room's table id."""
    sheets: dict[Key, ScoreSheet] = field(default_factory=dict)
    created: datetime = field(default_factory=utc_now)
    updated: datetime = field(default_factory=utc_now)
    subscribers: set[asyncio.Queue[dict[str, Any] | None]] = field(default_factory=set)
    director_account: str | None = None
    """The key of the account that created the event and directs it (``None``: an event from before
    accounts, run only with its director token)."""
    seat_arrivals: dict[Key, list[datetime | None]] = field(default_factory=dict)
    """(round, table) → when each seat's person arrived (入座), by seat 0–3 (``None``: not yet; bots are
    not listed): a team is seated (:meth:`cardroom.tournament.Event.arrive`) once both its people are."""
    schedule: dict[int, datetime] = field(default_factory=dict)
    """Round → when it is to start by itself (the director's ``start_at``), while it is not started."""

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
            "director_account": self.director_account,
            "seat_arrivals": [
                {"round": key[0], "table": key[1], "seats": [time_to_text(at) for at in seats]}
                for key, seats in self.seat_arrivals.items()
            ],
            "schedule": {str(number): time_to_text(at) for number, at in self.schedule.items()},
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
            director_account=data.get("director_account"),
            seat_arrivals={
                (int(item["round"]), int(item["table"])): [time_from_text(at) for at in item["seats"]]
                for item in data.get("seat_arrivals", ())
            },
            schedule={
                int(number): at
                for number, text in data.get("schedule", {}).items()
                if (at := time_from_text(text)) is not None
            },
        )


# -- reading requests -----------------------------------------------------------------------------


def _number(where: str, value: object, low: float, high: float) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float) or not low <= value <= high:
        raise DirectorError(400, "bad_number", field=where, low=low, high=high, value=value)
    return float(value)


def _flag(where: str, value: object) -> bool:
    if not isinstance(value, bool):
        raise DirectorError(400, "bad_bool", field=where, value=value)
    return value


def read_event_config(body: Mapping[str, Any], defaults: TableDefaults) -> tuple[EventConfig, EventOptions]:
    """``POST /api/events``'s body: the core's config and the card room's options (400 names a field)."""
    known = {
        "name",
        "format",
        "system",
        "rounds",
        "rules",
        "level_table",
        "conduct",
        "disconnect_grace",
        "bot_delay",
        "deal_pause",
        "auto_advance",
        "require_signatures",
    }
    unknown = set(body) - known
    if unknown:
        raise DirectorError(400, "unknown_fields", fields=", ".join(sorted(map(str, unknown))))
    try:
        name = clean_name(body.get("name"))
    except ProtocolError as error:
        raise DirectorError.of(400, error) from None
    rounds = body.get("rounds")
    if rounds is not None and (
        isinstance(rounds, bool) or not isinstance(rounds, int) or not 1 <= rounds <= MAX_ROUNDS
    ):
        raise DirectorError(400, "bad_rounds", most=MAX_ROUNDS, value=rounds)
    system_name = body.get("system", "auto")
    systems = [system.value for system in PairingSystem]
    if system_name not in systems:
        raise DirectorError(400, "bad_system", systems=", ".join(systems), value=system_name)
    rules = body.get("rules", "competition")
    if rules not in PRESETS:
        raise DirectorError(400, "unknown_rules", value=rules, known=", ".join(sorted(PRESETS)))
    level_table = body.get("level_table", 26)
    if isinstance(level_table, bool) or level_table not in LEVEL_TABLES:
        raise DirectorError(400, "bad_level_table", value=level_table)
    try:
        fmt = format_from_dict(body.get("format", {}))
        conduct = conduct_from_dict(body.get("conduct", {}))
        scoring = ScoringRules(level_table=int(level_table))
        config = EventConfig(name, fmt, rounds, PairingSystem(system_name), scoring, conduct)
    except EventRefusedError as error:
        raise DirectorError.of_event(400, error) from None
    except ValueError as error:
        raise DirectorError(400, "bad_request", text=str(error)) from None
    options = EventOptions(
        rules,
        _number("disconnect_grace", body.get("disconnect_grace", 60.0), 0, MAX_CLOCK),
        _number("bot_delay", body.get("bot_delay", defaults.bot_delay), 0, 10),
        _number("deal_pause", body.get("deal_pause", defaults.deal_pause), 0, 120),
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
