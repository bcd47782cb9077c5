"""The log's typed entries (cardroom.server.tables.entries): each stored dict reads back to the entry that
wrote it, and a table's log is rebuilt from them unchanged."""

from __future__ import annotations

import pytest

from cardroom.server.tables.config import HUMAN, Clocks, TableConfig, bot_seat
from cardroom.server.tables.entries import GUANDAN_ENTRIES, SHENGJI_ENTRIES, MatchEndEntry, entry_from_json
from cardroom.server.tables.guandan import Table
from cardroom.server.tables.seated import SeatedTable
from cardroom.server.tables.shengji import ShengjiTable
from cardroom.tournament.conduct import Clocks as ConductClocks
from cardroom.tournament.conduct import ConductPolicy, Penalty

POLICY = ConductPolicy(
    timeout=Penalty.WARNING,
    disconnection=Penalty.VIOLATION,
    clocks=ConductClocks(tribute_s=5, return_s=5, first_lead_s=5, play_s=3, countdown_s=1),
)
"""Timeouts escalate to a skipped turn (with a choice), a foul (a named leader) and a forfeit."""


def played(table: SeatedTable, steps: int) -> SeatedTable:
    """The table after ``steps`` automatic steps (bots and clocks take the first legal action)."""
    for seat, config in enumerate(table.config.seats):
        if config.kind == "human":
            table.sit(seat, f"P{seat}", 1.0)
    now = 1.0
    for _ in range(steps):
        due = table.due()
        if due is None:
            break
        now = max(now, due.at)
        table.step(now, lambda seat, name, observation: None)
    return table


def test_every_guandan_entry_reads_back_to_the_dict_it_wrote() -> None:
    table = played(Table("t", TableConfig(bot_delay=0.0, deal_pause=1.0, conduct=POLICY), seed="a"), 3000)
    kinds = {entry["type"] for entry in table.log}
    # a penalised timeout puts no seat in 托管; no account took a new token
    # (tests/server/accounts/test_accounts.py); no bot account sits here (test_bot_faults.py)
    assert kinds == set(GUANDAN_ENTRIES) - {"auto", "key", "fault"}
    for entry in table.log:
        assert entry_from_json(entry).to_json() == entry
    assert isinstance(table.end, MatchEndEntry)
    assert Table.replay("t", table.config, table.log).log == table.log


def test_every_shengji_entry_reads_back_to_the_dict_it_wrote() -> None:
    config = TableConfig(game="shengji", bot_delay=0.0, deal_pause=1.0, max_deals=1, clocks=Clocks())
    table = played(ShengjiTable("s", config, seed="b"), 5000)
    assert table.status == "finished"
    assert {entry["type"] for entry in table.log} >= {"sit", "start", "auto", "deal", "action", "deal_end"}
    for entry in table.log:
        assert entry_from_json(entry, SHENGJI_ENTRIES).to_json() == entry


def test_an_entry_of_another_kind_is_refused() -> None:
    with pytest.raises(ValueError, match="unknown entry type 'shuffle'"):
        entry_from_json({"type": "shuffle", "at": 1.0})
    with pytest.raises(ValueError, match="unknown ruling 'warning'"):
        entry_from_json({"type": "ruling", "kind": "warning", "seat": 0, "at": 1.0})
    config = TableConfig(game="shengji", rules="shengji", seats=(HUMAN, bot_seat(), bot_seat(), bot_seat()))
    with pytest.raises(ValueError, match=r"log entry 1 \(penalty\)"):
        ShengjiTable.replay("s", config, [{"type": "penalty", "at": 1.0}])
