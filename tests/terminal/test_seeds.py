"""``cardroom play`` deals new cards each match (issue 40: it used to default to ``--seed 1``, so every
match at the terminal dealt the same hands); ``--seed`` repeats a match, and the record keeps the seed
that was used."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from cardroom.cli import app as cli_app
from cardroom.cli import terminal as terminal_cli
from cardroom.terminal.guandan import GuandanTable
from cardroom.terminal.shengji import ShengjiTable
from cardroom.terminal.table import CardTable
from tests.terminal.running import run

TableType = type[GuandanTable] | type[ShengjiTable]


def first_deal(table_type: TableType, seed: int | None) -> tuple[int, Any]:
    """The seed a table used and its first deal's cards (the hands, or Shengji's deck in order)."""

    async def mount() -> tuple[int, Any]:
        app = table_type(seed=seed, bots="random", max_deals=1)
        async with app.run_test():
            if isinstance(app, ShengjiTable):
                cards: Any = app.match.deals[0].deck
            else:
                cards = tuple(map(tuple, app.match.deals[0].hands))
        return app.seed, cards

    return run(mount())


@pytest.mark.parametrize("table_type", [GuandanTable, ShengjiTable], ids=["guandan", "shengji"])
def test_two_matches_without_a_seed_deal_other_cards_and_a_seed_repeats_one(table_type: TableType) -> None:
    first_seed, first = first_deal(table_type, None)
    second_seed, second = first_deal(table_type, None)
    assert first_seed != second_seed
    assert first != second
    assert first_deal(table_type, first_seed) == (first_seed, first)


def test_the_command_leaves_the_seed_to_the_table_unless_given(monkeypatch: pytest.MonkeyPatch) -> None:
    seen: list[int | None] = []

    class Recorder:
        def __init__(self, rules: Any, *, seed: int | None, **_: Any) -> None:
            seen.append(seed)

        def run(self) -> None:
            pass

    monkeypatch.setitem(terminal_cli.TABLES, "guandan", lambda: Recorder)
    runner = CliRunner()
    assert runner.invoke(cli_app, ["play"]).exit_code == 0
    assert runner.invoke(cli_app, ["play", "--seed", "7"]).exit_code == 0
    assert seen == [None, 7]


def test_the_record_keeps_the_seed_drawn(tmp_path: Path) -> None:
    out = tmp_path / "match.json"

    async def play() -> CardTable:
        app = GuandanTable(bots="random", max_deals=1, out=out)
        async with app.run_test():
            app.write_record(out)
        return app

    app = run(play())
    assert f'"seed": {app.seed}' in out.read_text(encoding="utf-8")
