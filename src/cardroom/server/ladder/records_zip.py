"""A bot's ladder records in one zip (docs/ladder.md, "Reading it": ``GET /api/ladder/{bot}/records``):
which tables go in (its finished ladder tables, newest first, :data:`MOST_TABLES` at most) and the zip of
their match records, one JSON file each, as ``GET /api/tables/{id}/record`` answers and ``cardroom
replay`` reads them. Pure: the rows and records are read by the caller."""

from __future__ import annotations

import io
import json
import re
import zipfile
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final

from cardroom.server.ladder.versus import bot_of
from cardroom.server.storage.store import LadderMatchRow

MOST_TABLES: Final = 200


@dataclass(frozen=True)
class LadderTable:
    """A finished ladder table of a match: where its record goes in the zip."""

    match: str
    pair: int
    swapped: bool
    table: str
    when: tuple[int, int, int, int, int, int]

    @property
    def member(self) -> str:
        return f"{self.match}-{self.pair + 1}{'b' if self.swapped else 'a'}-{self.table}.json"


def finished_tables(rows: Sequence[LadderMatchRow], bot: str, most: int = MOST_TABLES) -> list[LadderTable]:
    """The finished tables of ``bot``'s matches (any generation; rated or still running), newest match
    first and each match's tables in their order, ``most`` at most."""
    chosen: list[LadderTable] = []
    for row in sorted(rows, key=lambda row: (row.created, row.id), reverse=True):
        if not any(bot_of(key) == bot for key in (*row.data["team_a"], *row.data["team_b"])):
            continue
        made = row.created
        when = (max(made.year, 1980), made.month, made.day, made.hour, made.minute, made.second)
        for pair, tables in enumerate(row.data["tables"]):
            for swapped, table in zip((False, True), tables, strict=True):
                if table in row.data.get("games", {}):
                    chosen.append(LadderTable(row.id, pair, swapped, table, when))
                    if len(chosen) == most:
                        return chosen
    return chosen


def zip_filename(bot: str) -> str:
    """The download's name: ``ladder-<bot>-records.zip``, with only letters, digits, ``.``, ``_`` and
    ``-`` (``bot:7`` → ``ladder-bot-7-records.zip``)."""
    return f"ladder-{re.sub(r'[^A-Za-z0-9._-]', '-', bot)}-records.zip"


def records_zip(records: Iterable[tuple[LadderTable, Mapping[str, Any]]]) -> bytes:
    """The zip of these tables' records, one ``<match>-<pair><a|b>-<table>.json`` each."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for table, record in records:
            info = zipfile.ZipInfo(table.member, date_time=table.when)
            info.compress_type = zipfile.ZIP_DEFLATED
            archive.writestr(info, json.dumps(record, ensure_ascii=False, indent=1))
    return buffer.getvalue()


__all__ = ["MOST_TABLES", "LadderTable", "finished_tables", "records_zip", "zip_filename"]
