"""The arena on a local Ray instance: the same outcomes, summary and records as the process pool."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from types import ModuleType

import pytest
from typer.testing import CliRunner

from cardroom.arena import ArenaConfig, GameKind, GameSpec, run_arena, summarize
from cardroom.arena.games import run_games
from cardroom.arena.ray_backend import RayUnavailableError, ray_map, ray_session
from cardroom.cli import app
from cardroom.guandan.ruleset import COMPETITION

runner = CliRunner()
ENV = {"COLUMNS": "160"}


def files_of(folder: Path) -> dict[str, bytes]:
    return {path.name: path.read_bytes() for path in sorted(folder.iterdir())}


def test_ray_plays_the_same_games_as_the_pool_and_one_worker(ray_local: ModuleType, tmp_path: Path) -> None:
    config = ArenaConfig("heuristic", "random", deals=6, matches=1, seed=11)
    folders = {name: tmp_path / name for name in ("ray", "one", "pool")}
    for folder in folders.values():
        folder.mkdir()
    progress: list[int] = []
    on_ray = run_arena(config, records=folders["ray"], ray_address="local", progress=progress.append)
    one = run_arena(config, workers=1, records=folders["one"])
    pool = run_arena(config, workers=2, records=folders["pool"])
    assert on_ray == one == pool
    assert sum(progress) == config.games
    assert summarize(config, on_ray).to_json() == summarize(config, one).to_json()
    records = files_of(folders["ray"])
    assert len(records) == config.games
    assert records == files_of(folders["one"]) == files_of(folders["pool"])


def test_cli_ray_writes_the_same_results_and_records(ray_local: ModuleType, tmp_path: Path) -> None:
    args = ["arena", "--a", "random", "--b", "heuristic", "--deals", "3", "--seed", "5"]
    on_ray = runner.invoke(app, [*args, "--ray", "--out", str(tmp_path / "ray")], env=ENV)
    assert on_ray.exit_code == 0, on_ray.output
    assert "on a local Ray instance" in on_ray.output
    here = runner.invoke(app, [*args, "--workers", "1", "--out", str(tmp_path / "one")], env=ENV)
    assert here.exit_code == 0, here.output
    results = [json.loads((tmp_path / name / "results.json").read_text("utf-8")) for name in ("ray", "one")]
    assert results[0] == results[1]
    assert files_of(tmp_path / "ray" / "records") == files_of(tmp_path / "one" / "records")


def test_a_failing_task_raises_its_own_error(ray_local: ModuleType) -> None:
    spec = GameSpec(GameKind.DEAL, 0, False, 1, "nobody", "random", COMPETITION)
    with ray_session(), pytest.raises(KeyError, match="unknown bot 'nobody'"):
        list(ray_map(run_games, [[spec]]))


def test_without_ray_the_error_names_the_extra(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setitem(sys.modules, "ray", None)
    config = ArenaConfig("random", "random", deals=1)
    with pytest.raises(RayUnavailableError, match=r"cardroom\[ray\]"):
        run_arena(config, ray_address="local")
    args = ["arena", "--a", "random", "--b", "random", "--deals", "1", "--out", str(tmp_path)]
    result = runner.invoke(app, [*args, "--ray"], env=ENV)
    assert result.exit_code == 2
    assert "cardroom[ray]" in result.output
    assert not (tmp_path / "results.json").exists()
