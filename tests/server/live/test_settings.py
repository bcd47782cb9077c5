"""The process's settings: checked on construction, copied with changes, and ``cardroom serve``'s table
options reaching the defaults of new tables (docs/server.md, "Options")."""

from __future__ import annotations

import gc
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from typer.testing import CliRunner

from cardroom.server.live.settings import Settings
from cardroom.server.tables.config import Clocks, TableDefaults


def test_settings_are_checked() -> None:
    with pytest.raises(ValueError, match="max_message"):
        Settings(max_message=10)
    with pytest.raises(ValueError, match="table_defaults"):
        Settings(table_defaults=Clocks())  # type: ignore[arg-type]
    defaults = TableDefaults(bot_delay=0.0)
    assert Settings().with_(table_defaults=defaults).table_defaults.bot_delay == 0.0


def test_serve_passes_the_table_options_to_the_defaults_of_new_tables(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """``--bot-delay``, ``--deal-pause`` and ``--deal-pace`` become the process's table defaults, which
    the lobby's form shows and a new table takes where its request is silent."""
    import uvicorn

    from cardroom.cli import app as cli

    calls: list[Any] = []
    monkeypatch.setattr(uvicorn, "run", lambda app, **_options: calls.append(app))
    monkeypatch.setattr(gc, "set_threshold", lambda *_values: None)
    options = ["--bot-delay", "1.5", "--deal-pause", "7", "--deal-pace", "0.1"]
    result = CliRunner().invoke(cli, ["serve", "--data", str(tmp_path), *options])
    assert result.exit_code == 0, result.output
    settings: Settings = calls[0].state.settings
    assert settings.table_defaults == TableDefaults(Clocks(), bot_delay=1.5, deal_pause=7.0, deal_pace=0.1)
    with TestClient(calls[0]) as client:
        presets = client.get("/api/presets").json()
        assert (presets["bot_delay"], presets["deal_pause"]) == (1.5, 7.0)
        assert presets["clocks"] == Clocks().to_dict()
