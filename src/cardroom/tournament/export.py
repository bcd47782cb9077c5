"""An event's results and standings as CSV text (pure functions: the caller writes or serves it).

Rows end with ``\\r\\n`` (RFC 4180). ``bom=True`` puts a UTF-8 byte-order mark first, which spreadsheet
programs need to read the Chinese names and level marks (过A) correctly.
"""

from __future__ import annotations

import csv
from collections.abc import Sequence

from cardroom.tournament.director import PenaltyEntry
from cardroom.tournament.event import Event
from cardroom.tournament.formats import level_name
from cardroom.tournament.scoring import TableResult
from cardroom.tournament.standings import StandingRow

RESULT_COLUMNS = (
    "round",
    "table",
    "team_02",
    "team_13",
    "players_02",
    "players_13",
    "kind",
    "winner",
    "level_02",
    "level_13",
    "deals",
    "round_points_02",
    "round_points_13",
    "score28_02",
    "score28_13",
    "score26_02",
    "score26_13",
    "penalties",
    "name_02",
    "name_13",
    "winner_name",
)
"""One row per table and round (``_02``: the team at seats 0 & 2, which sits 南北; ``_13``: at 1 & 3, 东西);
``team_*`` and ``winner`` are team ids, ``name_*`` and ``winner_name`` the teams' names, ``players_*``
the players' names; a bye is a row with ``team_13`` empty; a table without a result yet has kind
``pending``; ``penalties`` lists the table's penalties (:func:`penalty_text`), ``; `` between them. The
name columns come last, so the columns before them keep their places."""

STANDING_COLUMNS = (
    "rank",
    "team",
    "name",
    "points",
    "progressive",
    "wins",
    "draws",
    "losses",
    "level_difference",
    "levels_gained",
    "score28",
    "lot",
    "decided_by",
    "status",
    "penalties",
    "players",
    "level_table",
)
"""``name`` the team's name, ``players`` its players' names (``A / B``); ``points`` 总积分,
``progressive`` 去首累进分, ``wins`` 胜轮次, ``level_difference`` 级差分 in the event's table,
``level_table`` (26 or 28 points, the last column, so the columns before it keep their places),
``levels_gained`` 升级数, ``score28`` the 28-point scores summed, ``decided_by`` the criterion that put
the team below the one above it (its Chinese label), ``status`` 退赛 or 取消资格 for a team out of the
event, ``penalties`` the team's penalties by round (R1 警告, …)."""


class _Lines:
    """A ``write`` target for :mod:`csv` that keeps the text."""

    def __init__(self) -> None:
        self.parts: list[str] = []

    def write(self, text: str) -> int:
        self.parts.append(text)
        return len(text)


def _csv(header: Sequence[str], rows: Sequence[Sequence[object]], bom: bool) -> str:
    out = _Lines()
    writer = csv.writer(out, lineterminator="\r\n")
    writer.writerow(header)
    writer.writerows(rows)
    return ("\ufeff" if bom else "") + "".join(out.parts)


def penalty_text(event: Event, entry: PenaltyEntry) -> str:
    """A penalty as a score sheet lists it: who (the player, or the team for a side), the penalty, the
    reason; "(累计)" for one that came from accumulated lesser penalties."""
    if entry.player is not None:
        who = next(p.display for p in event.team(entry.team).players if p.id == entry.player)
    else:
        who = event.team(entry.team).display
    why = "累计" if entry.escalated else entry.reason
    return f"{who} {entry.label} ({why})"


def _names(event: Event, teams: tuple[str, str], result: TableResult | None) -> list[str]:
    """``name_02``, ``name_13`` and ``winner_name``."""
    names = [event.team(team).display if team else "" for team in teams]
    winner = "" if result is None or result.winner is None else names[result.winner]
    return [*names, winner]


def _result_fields(result: TableResult | None, teams: tuple[str, str]) -> list[object]:
    if result is None:
        return ["pending", "", "", "", "", "", "", "", "", "", ""]
    winner = "" if result.winner is None else teams[result.winner]
    return [
        result.kind.value,
        winner,
        level_name(result.levels[0]),
        level_name(result.levels[1]),
        result.deals,
        *result.round_points,
        *result.score28,
        *result.score26,
    ]


def results_csv(event: Event, *, bom: bool = False) -> str:
    """Every round's tables (and byes) with their results: :data:`RESULT_COLUMNS`."""
    rows: list[list[object]] = []
    bye = TableResult.bye(event.config.scoring)
    for played in event.rounds:
        for pairing, result in zip(played.pairings, played.results, strict=True):
            seats = event.seat_players(pairing)
            players = (f"{seats[0].display} / {seats[2].display}", f"{seats[1].display} / {seats[3].display}")
            rows.append(
                [
                    played.number,
                    pairing.table,
                    *pairing.teams,
                    *players,
                    *_result_fields(result, pairing.teams),
                    "; ".join(penalty_text(event, e) for e in played.table_penalties(pairing.table)),
                    *_names(event, pairing.teams, result),
                ]
            )
        if played.draw.bye is not None:
            team = event.team(played.draw.bye)
            players_bye = " / ".join(player.display for player in team.players)
            fields = _result_fields(bye, (team.id, ""))
            names = _names(event, (team.id, ""), bye)
            rows.append([played.number, "", team.id, "", players_bye, "", *fields, "", *names])
    return _csv(RESULT_COLUMNS, rows, bom)


def standings_csv(event: Event, rows: Sequence[StandingRow] | None = None, *, bom: bool = False) -> str:
    """The standings (the event's own unless ``rows`` are given): :data:`STANDING_COLUMNS`."""
    table = event.standings() if rows is None else rows
    lines = [
        [
            row.rank,
            row.team,
            event.team(row.team).display,
            row.tally.points,
            row.tally.progressive,
            row.tally.wins,
            row.tally.draws,
            row.tally.losses,
            row.tally.level_difference,
            row.tally.levels_gained,
            row.tally.score28,
            row.tally.lot,
            "" if row.above is None else row.above.label,
            event.withdrawal_of(row.team).label if event.is_out(row.team) else "",
            "; ".join(
                f"R{played.number} {entry.label}"
                for played in event.rounds
                for entry in played.penalties
                if entry.team == row.team
            ),
            " / ".join(player.display for player in event.team(row.team).players),
            row.tally.level_table,
        ]
        for row in table
    ]
    return _csv(STANDING_COLUMNS, lines, bom)


__all__ = ["RESULT_COLUMNS", "STANDING_COLUMNS", "penalty_text", "results_csv", "standings_csv"]
