"""Self-play datasets: samples that match the records, the same files here, in a pool and on Ray, and a
reader that checks the manifest."""

from __future__ import annotations

import json
from pathlib import Path
from types import ModuleType

import pytest

pytest.importorskip("numpy")

import numpy as np
from typer.testing import CliRunner

from cardroom.bots import BOTS
from cardroom.cli import app
from cardroom.guandan.match import Match
from cardroom.guandan.ruleset import preset
from cardroom.guandan.rulings import DealRuling
from cardroom.records import read_record, replay
from cardroom.rl.actions import action_index
from cardroom.rl.dataset import (
    MANIFEST,
    Dataset,
    DatasetError,
    SelfPlayConfig,
    SelfPlayError,
    load_dataset,
    write_dataset,
)
from cardroom.rl.encoding import encode_observation, legal_action_features
from tests.arena.bots import OutOfTurnBot

runner = CliRunner()
ENV = {"COLUMNS": "160"}


@pytest.fixture(scope="module")
def small(tmp_path_factory: pytest.TempPathFactory) -> Dataset:
    """Five heuristic deals in shards of two (three shards), played here."""
    out = tmp_path_factory.mktemp("small")
    write_dataset(SelfPlayConfig("heuristic", 5, seed=3, shard_deals=2), out, workers=1)
    return load_dataset(out)


def files_of(folder: Path) -> dict[str, bytes]:
    return {
        str(path.relative_to(folder)): path.read_bytes()
        for path in sorted(folder.rglob("*"))
        if path.is_file()
    }


def test_the_manifest_counts_what_was_written(small: Dataset) -> None:
    manifest = small.manifest
    assert (manifest["format"], manifest["version"], manifest["bot"], manifest["seed"]) == (
        "cardroom-selfplay-dataset",
        1,
        "heuristic",
        3,
    )
    assert [shard["deals"] for shard in manifest["shards"]] == [2, 2, 1]
    assert manifest["counts"]["samples"] == len(small) > 100
    assert manifest["counts"]["records"] == 5
    assert small["observation"].shape[1] == manifest["encoding"]["observation_size"]
    assert small["action_mask"].shape[1] == manifest["encoding"]["num_actions"]
    assert sorted(set(small["deal"].tolist())) == [0, 1, 2, 3, 4]
    assert set(manifest["arrays"]) == set(small.arrays)


def test_every_sample_is_a_decision_of_its_record(small: Dataset) -> None:
    """Rebuild each deal from its record and re-encode every decision: the arrays hold exactly that."""
    rules = preset("competition")
    for deal in range(5):
        record = read_record(small.folder / "records" / f"deal-{deal:05d}.json")
        report = replay(record)
        assert report.ok
        played = report.match.deals[0]
        rows = np.flatnonzero(small["deal"] == deal)
        assert len(rows) == len(played.actions)
        match = Match(rules, max_deals=1)
        match.deal(played.dealt_hands, played.leader, played.turned_card)
        result = report.match.summaries[0].result
        for row, action in zip(rows, played.actions, strict=True):
            assert not isinstance(action, DealRuling), "self-play deals hold no conduct rulings"
            observation = match.observation(action.seat)
            assert small["seat"][row] == action.seat
            assert np.array_equal(small["observation"][row], encode_observation(observation))
            assert small["action"][row] == action_index(action, observation)
            assert small["action_mask"][row, small["action"][row]] == 1
            legal = small.legal_rows(int(row))
            assert np.array_equal(small["legal_features"][legal], legal_action_features(observation))
            assert small["legal_index"][legal][small["chosen"][row]] == small["action"][row]
            rise = result.rise(rules)
            assert small["reward"][row] == (rise if action.seat % 2 == result.winning_team else -rise)
            match.apply(action)
    assert set(small["reward"].tolist()) <= {-3.0, -2.0, -1.0, 1.0, 2.0, 3.0}


def test_the_same_seed_gives_the_same_files_here_in_a_pool_and_on_ray(
    ray_local: ModuleType, tmp_path: Path
) -> None:
    config = SelfPlayConfig("random", 6, seed=8, shard_deals=2, features=False)
    progress: list[int] = []
    write_dataset(config, tmp_path / "one", workers=1)
    write_dataset(config, tmp_path / "pool", workers=2)
    write_dataset(config, tmp_path / "ray", ray_address="local", progress=progress.append)
    assert sum(progress) == 6
    one = files_of(tmp_path / "one")
    assert len(one) == 1 + 3 + 6
    assert files_of(tmp_path / "pool") == one
    assert files_of(tmp_path / "ray") == one
    data = load_dataset(tmp_path / "ray")
    assert "legal_features" not in data.arrays
    other = SelfPlayConfig("random", 6, seed=9, shard_deals=2, features=False)
    write_dataset(other, tmp_path / "other", workers=1, records=False)
    assert not (tmp_path / "other" / "records").exists()
    assert not np.array_equal(load_dataset(tmp_path / "other")["action"], data["action"])


def test_the_reader_checks_the_manifest(small: Dataset, tmp_path: Path) -> None:
    with pytest.raises(DatasetError, match="cannot read"):
        load_dataset(tmp_path)
    manifest = dict(small.manifest)

    def broken(**changes: object) -> Path:
        folder = tmp_path / f"broken-{len(list(tmp_path.iterdir()))}"
        (folder / "samples").mkdir(parents=True)
        for shard in manifest["shards"]:
            (folder / shard["file"]).write_bytes((small.folder / shard["file"]).read_bytes())
        (folder / MANIFEST).write_text(json.dumps({**manifest, **changes}), encoding="utf-8")
        return folder

    assert len(load_dataset(broken())) == len(small)
    with pytest.raises(DatasetError, match="version 1, got 2"):
        load_dataset(broken(version=2))
    with pytest.raises(DatasetError, match="format"):
        load_dataset(broken(format="other"))
    with pytest.raises(DatasetError, match="encoding"):
        load_dataset(broken(encoding={**manifest["encoding"], "observation_size": 7}))
    shards = [dict(shard) for shard in manifest["shards"]]
    shards[0]["samples"] += 1
    counts = {**manifest["counts"], "samples": manifest["counts"]["samples"] + 1}
    with pytest.raises(DatasetError, match="observation has the shape"):
        load_dataset(broken(shards=shards, counts=counts))
    folder = broken()
    (folder / manifest["shards"][1]["file"]).unlink()
    with pytest.raises(DatasetError, match="cannot read shard"):
        load_dataset(folder)


def test_the_config_refuses_what_it_cannot_encode() -> None:
    with pytest.raises(ValueError, match="unknown bot"):
        SelfPlayConfig("nobody", 1)
    with pytest.raises(ValueError, match="at least one deal"):
        SelfPlayConfig("random", 0)
    with pytest.raises(ValueError, match=r"huopin|table|airplane|extension"):
        SelfPlayConfig("random", 1, rules=preset("huopin"))


def test_an_illegal_answer_stops_self_play(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setitem(BOTS, OutOfTurnBot.name, OutOfTurnBot)
    with pytest.raises(SelfPlayError, match=r"deal 0: bot 'out-of-turn' at seat \d .*not legal"):
        write_dataset(SelfPlayConfig(OutOfTurnBot.name, 1), tmp_path, workers=1)
    assert not (tmp_path / MANIFEST).exists()


def test_cli_selfplay_writes_a_dataset_and_records_replay(tmp_path: Path) -> None:
    out = tmp_path / "data"
    args = ["selfplay", "--bot", "heuristic", "--deals", "2", "--seed", "4", "--workers", "1"]
    result = runner.invoke(app, [*args, "--out", str(out)], env=ENV)
    assert result.exit_code == 0, result.output
    assert "2 deals" in result.output
    data = load_dataset(out)
    assert data.manifest["counts"]["deals"] == 2
    replayed = runner.invoke(app, ["replay", str(out / "records" / "deal-00001.json")], env=ENV)
    assert replayed.exit_code == 0, replayed.output
    huopin = runner.invoke(app, [*args, "--rules", "huopin", "--out", str(tmp_path / "h")], env=ENV)
    assert huopin.exit_code == 2


def test_the_small_example_of_docs_rl_md_runs_as_written(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """docs/rl.md, "Datasets": its small self-play command, then its Python lines reading the result."""
    text = (Path(__file__).parents[2] / "docs" / "rl.md").read_text(encoding="utf-8")
    example = text[text.index("A small one to try first") :]
    command = example.split("```sh\n", 1)[1].split("\n```", 1)[0]
    code = example.split("```python\n", 1)[1].split("\n```", 1)[0]
    assert command.startswith("cardroom selfplay ")
    monkeypatch.chdir(tmp_path)
    result = runner.invoke(app, command.split()[1:], env=ENV)
    assert result.exit_code == 0, result.output
    scope: dict[str, object] = {}
    exec(compile(code, "docs/rl.md", "exec"), scope)
    assert scope["data"].manifest["counts"]["deals"] == 20  # type: ignore[attr-defined]
