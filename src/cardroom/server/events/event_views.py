"""How the API shows an event (docs/tournaments-api.md): the event itself, its standings, its score
sheets and the results of its tables. Read from a :class:`~cardroom.server.events.event_state.LiveEvent`
(and, for a table still open, the room it is played in, or the store).
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from cardroom.server.events.event_state import LiveEvent
from cardroom.server.live.rooms import Rooms
from cardroom.server.storage.store import Store
from cardroom.server.tables.seats import name_key
from cardroom.server.tables.views import penalty_json
from cardroom.tournament import Event, Player, ScoreSheet, StandingRow, TableResult, level_name
from cardroom.tournament.conduct import Offence
from cardroom.tournament.director import Appeal, PenaltyEntry, ResultChange, Withdrawal, time_to_text
from cardroom.tournament.lateness import describe_late
from cardroom.tournament.rounds import Round


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
        "level_table": tally.level_table,
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
        "bots": _sheet_bots(live, sheet),
        "table_id": live.tables.get((sheet.round, sheet.table)),
        "lines": [{**line.to_dict(), "text": line.describe()} for line in sheet.lines],
        "penalties": [penalty_json(record) for record in sheet.penalties],
        "director_penalties": _sheet_director_penalties(live, sheet),
        "result": result_json(sheet.result),
        "signed": list(sheet.signed),
        "final": sheet.final,
    }


def _sheet_director_penalties(live: LiveEvent, sheet: ScoreSheet) -> list[dict[str, Any]]:
    """The director's penalties at the sheet's table (by hand, for lateness)."""
    try:
        played = live.event.round(sheet.round)
    except KeyError:
        return []
    return [penalty_entry_json(live.event, played, entry) for entry in played.table_penalties(sheet.table)]


def _sheet_bots(live: LiveEvent, sheet: ScoreSheet) -> list[bool]:
    """Whether each seat of the sheet's table is a bot's (the page marks its name)."""
    try:
        pairing = live.event.round(sheet.round).pairing(sheet.table)
    except KeyError:
        return [False] * len(sheet.players)
    return [player.bot is not None for player in live.event.seat_players(pairing)]


def _account_of(live: LiveEvent, player: Player) -> str | None:
    """The key of the account a person plays as (``None``: a bot, or a person of an event from before
    accounts, who plays by a token)."""
    return None if player.bot is not None or player.id in live.tokens else name_key(player.name)


def summary(live: LiveEvent) -> dict[str, Any]:
    """The event's line in the list of events."""
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


def penalty_entry_json(event: Event, played: Round, entry: PenaltyEntry) -> dict[str, Any]:
    """A penalty the director recorded (by hand or by the lateness rule)."""
    player = None
    if entry.player is not None:
        player = next((p.name for p in event.team(entry.team).players if p.id == entry.player), entry.player)
    return {
        "round": played.number,
        "table": entry.table,
        "team": entry.team,
        "team_name": event.team(entry.team).display,
        "player": player,
        "seat": entry.seat,
        "penalty": entry.penalty.name,
        "label": entry.label,
        "offence": entry.offence.value,
        "reason": entry.reason,
        "at": time_to_text(entry.at),
        "by": entry.by,
        "escalated": entry.escalated,
        "late": _late_of(played, entry),
    }


def _late_of(played: Round, entry: PenaltyEntry) -> dict[str, Any] | None:
    """The lateness a penalty by the lateness rule judged, for the pages' own words (the ``reason`` is
    the rule's Chinese): seconds late when judged, and whether the side was seated by then."""
    if entry.offence is not Offence.LATE or entry.by or entry.at is None or played.started_at is None:
        return None
    arrival = played.arrival(entry.team)
    seated = arrival is not None and arrival <= entry.at
    return {"late_s": round((entry.at - played.started_at).total_seconds(), 1), "seated": seated}


def change_json(change: ResultChange) -> dict[str, Any]:
    """One entry or correction of a table's result: what, when, by whom, why."""
    return {
        "table": change.table,
        "result": result_json(change.result),
        "previous": result_json(change.previous),
        "correction": change.is_correction,
        "at": time_to_text(change.at),
        "by": change.by,
        "reason": change.reason,
        "override": change.override,
    }


def withdrawal_json(event: Event, withdrawal: Withdrawal) -> dict[str, Any]:
    return {
        "team": withdrawal.team,
        "team_name": event.team(withdrawal.team).display,
        "after_round": withdrawal.last_round,
        "reason": withdrawal.reason,
        "label": withdrawal.label,
        "disqualified": withdrawal.disqualified,
        "at": time_to_text(withdrawal.at),
        "by": withdrawal.by,
    }


def appeal_json(event: Event, appeal: Appeal) -> dict[str, Any]:
    return {
        "number": appeal.number,
        "round": appeal.round,
        "table": appeal.table,
        "team": appeal.team,
        "team_name": event.team(appeal.team).display,
        "text": appeal.text,
        "filed_at": time_to_text(appeal.filed_at),
        "filed_by": appeal.filed_by,
        "ruling": appeal.ruling,
        "upheld": appeal.upheld,
        "ruled_by": appeal.ruled_by,
        "ruled_at": time_to_text(appeal.ruled_at),
    }


def lateness_json(live: LiveEvent, played: Round, table: int, now: datetime) -> list[dict[str, Any]] | None:
    """Each side's lateness at the table now (``None`` before the round starts)."""
    if played.started_at is None:
        return None
    verdicts = played.lateness(table, now, live.event.config.conduct.clocks)
    return [
        {
            "seated": verdict.seated,
            "late_s": round(verdict.late_s, 1),
            "late_text": describe_late(verdict.late_s) if verdict.late_s > 0 else None,
            "penalty": None if verdict.penalty is None else verdict.penalty.name,
            "final": verdict.final,
        }
        for verdict in verdicts
    ]


def view(live: LiveEvent, rooms: Rooms, store: Store, now: datetime | None = None) -> dict[str, Any]:
    """The event as ``GET /api/events/{id}`` shows it (lateness as of ``now``)."""
    now = now or datetime.now(UTC)
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
                    **table_status(table_id, result, rooms, store),
                    "seats": [
                        {
                            "seat": seat,
                            "player": p.name,
                            "team": pairing.teams[seat % 2],
                            "bot": p.bot,
                            "account": _account_of(live, p),
                        }
                        for seat, p in enumerate(seats)
                    ],
                    "penalties": 0 if sheet is None else len(sheet.penalties),
                    "director_penalties": [
                        penalty_entry_json(event, played, entry)
                        for entry in played.table_penalties(pairing.table)
                    ],
                    "changes": [change_json(change) for change in played.table_changes(pairing.table)],
                    "arrivals": [
                        time_to_text(at) for at in live.seat_arrivals.get(key, [None, None, None, None])
                    ],
                    "team_arrivals": [time_to_text(played.arrival(team)) for team in pairing.teams],
                    "lateness": None
                    if result is not None
                    else lateness_json(live, played, pairing.table, now),
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
                "started_at": time_to_text(played.started_at),
                "start_at": time_to_text(live.schedule.get(played.number)),
                "ended_at": time_to_text(played.ended_at),
                "correction_deadline": time_to_text(event.correction_deadline(played.number)),
                "signed": not live.unsigned(played.number),
                "tables": tables,
            }
        )
    return {
        "id": live.id,
        "name": live.name,
        "phase": event.phase.value,
        "director": live.director_account,
        "created": live.created.isoformat(),
        "updated": live.updated.isoformat(),
        "config": {
            "format": config.format.to_dict(),
            "format_text": config.format.describe(),
            "system": config.system.value,
            "rounds": config.rounds,
            "rules": live.options.rules,
            "level_table": config.scoring.level_table,
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
        "standings": standings(live),
        "withdrawals": [withdrawal_json(event, withdrawal) for withdrawal in event.withdrawals],
        "appeals": [appeal_json(event, appeal) for appeal in event.appeals],
        "now": now.isoformat(),
    }


def table_status(
    table_id: str | None, result: TableResult | None, rooms: Rooms, store: Store
) -> dict[str, Any]:
    """A table's status, levels and deal: from its room while open, else from its result or the store."""
    room = None if table_id is None else rooms.rooms.get(table_id)
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
        stored = store.table(table_id)
        status = None if stored is None else stored.status
    return {"status": status, "levels": levels, "deal_number": None if result is None else result.deals}


def standings(live: LiveEvent) -> list[dict[str, Any]]:
    """The standings (none before the lots are drawn)."""
    if not live.event.lots:
        return []
    return [standing_json(live.event, row) for row in live.event.standings()]


def results_of(live: LiveEvent) -> list[tuple[int, int, TableResult | None]]:
    """(round, table, result) of every table, for the printable page."""
    return [
        (played.number, pairing.table, result)
        for played in live.event.rounds
        for pairing, result in zip(played.pairings, played.results, strict=True)
    ]
