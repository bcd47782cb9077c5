"""Each game's table class, found by the game's name in a table's config."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from cardroom.server.tables.config import TableConfig
from cardroom.server.tables.guandan import Table
from cardroom.server.tables.seated import Entry
from cardroom.server.tables.shengji import ShengjiTable

GameTable = Table | ShengjiTable

TABLES: Final[dict[str, type[Table] | type[ShengjiTable]]] = {"guandan": Table, "shengji": ShengjiTable}


def new_table(table_id: str, config: TableConfig) -> GameTable:
    """A fresh table of the config's game."""
    return TABLES[config.game](table_id, config)


def replay_table(table_id: str, config: TableConfig, entries: Sequence[Entry]) -> GameTable:
    """The table of the config's game that ``entries`` make (a ``ValueError`` names a bad entry)."""
    return TABLES[config.game].replay(table_id, config, entries)


__all__ = ["TABLES", "GameTable", "new_table", "replay_table"]
