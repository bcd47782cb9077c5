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


def new_table(table_id: str, config: TableConfig, *, seed: str | None = None) -> GameTable:
    """A fresh table of the config's game (``seed``: its deals' secret, drawn at the start if not given)."""
    return TABLES[config.game](table_id, config, seed=seed)


def replay_table(table_id: str, config: TableConfig, entries: Sequence[Entry]) -> GameTable:
    """The table of the config's game that ``entries`` make (a ``ValueError`` names a bad entry)."""
    return TABLES[config.game].replay(table_id, config, entries)


__all__ = ["TABLES", "GameTable", "new_table", "replay_table"]
