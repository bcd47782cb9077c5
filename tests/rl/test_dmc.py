"""Deep Monte-Carlo training (docs/rl.md, "Deep Monte-Carlo"): a run of a few hundred frames whose
loss falls, a resumed run that trains on the same next batch and reaches the same weights, Ray actors
that make the same samples as actors in this process, the samples' targets, the exported policy, and
the command line. Skipped without PyTorch (the ``train`` extra)."""

from __future__ import annotations

import csv
import shutil
from pathlib import Path
from types import ModuleType

import pytest

pytest.importorskip("numpy")
pytest.importorskip("torch")

import numpy as np
import torch
from typer.testing import CliRunner

from cardroom.cli import app
from cardroom.guandan.ruleset import COMPETITION
from cardroom.rl.dmc.actor import Actor
from cardroom.rl.dmc.learner import LOG, POLICY, DmcConfig, Trainer, TrainingError
from cardroom.rl.dmc.network import QNetwork, numpy_weights
from cardroom.rl.dmc.policy import QPolicy

TINY = DmcConfig(
    frames=10**9,
    tables=6,
    steps=200,
    batch=64,
    hidden=(32, 16),
    epsilon=0.5,
    eval_every=0,
    checkpoint_every=0,
    seed=5,
)


@pytest.fixture(autouse=True)
def compiled(core: ModuleType) -> ModuleType:
    """The actors step the compiled batch."""
    return core


def squared_error(
    network: QNetwork, observations: np.ndarray, actions: np.ndarray, targets: np.ndarray
) -> float:
    with torch.no_grad():
        predicted = network(torch.from_numpy(observations).float(), torch.from_numpy(actions))
        return float(((predicted - torch.from_numpy(targets)) ** 2).mean())


def test_a_few_hundred_frames_make_the_loss_fall(tmp_path: Path) -> None:
    """The squared error on the first round's samples falls as the learner trains on them (a few
    hundred frames, the default network and learning rate), and every round's loss in log.csv is
    finite."""
    config = DmcConfig(**{**TINY.__dict__, "hidden": DmcConfig().hidden, "learning_rate": 3e-4})
    trainer = Trainer(config, tmp_path / "run")
    trainer.start()
    first = trainer.pending
    assert first is not None
    assert len(first) > 30
    before = squared_error(trainer.network, first.observations, first.actions, first.targets)
    while trainer.frames < 300:
        trainer.train_round()
    after = squared_error(trainer.network, first.observations, first.actions, first.targets)
    assert after < 0.7 * before, (before, after)
    with (tmp_path / "run" / LOG).open() as file:
        rows = list(csv.DictReader(file))
    assert len(rows) == trainer.round
    assert all(np.isfinite(float(row["loss"])) for row in rows)


def test_samples_carry_the_deals_rewards() -> None:
    """An actor's targets are deal rewards of the competition rules (±1, ±2, ±3), and only decisions
    with a choice become samples."""
    actor = Actor(3, 16, epsilon=0.1, hidden=(8,))
    samples = actor.rollout(200)
    assert len(samples) > 100
    assert set(np.unique(np.abs(samples.targets))) <= {1.0, 2.0, 3.0}
    assert samples.steps == 200 * 16
    assert samples.deals >= 16
    assert samples.observations.dtype == np.int8


def test_resume_trains_on_the_same_next_batch(tmp_path: Path) -> None:
    """A run checkpointed after two rounds and resumed in another process's trainer has the same next
    batch, and after one more round the same weights and loss as the run that went on."""
    whole = Trainer(TINY, tmp_path / "whole")
    whole.start()
    whole.train_round()
    whole.train_round()
    whole.checkpoint()
    shutil.copytree(tmp_path / "whole", tmp_path / "resumed")
    expected = whole.peek_batch()
    report = whole.train_round()

    resumed = Trainer(TINY, tmp_path / "resumed", resume=True)
    resumed.start()
    assert resumed.round == 2
    batch = resumed.peek_batch()
    assert expected is not None
    assert batch is not None
    for mine, theirs in zip(batch, expected, strict=True):
        assert torch.equal(mine, theirs)
    again = resumed.train_round()
    assert again.loss == report.loss
    assert again.frames == report.frames
    for name, value in numpy_weights(whole.network).items():
        assert np.array_equal(value, numpy_weights(resumed.network)[name]), name
    assert resumed.peek_batch() is not None
    for mine, theirs in zip(resumed.peek_batch() or (), whole.peek_batch() or (), strict=True):
        assert torch.equal(mine, theirs)


def logged(folder: Path) -> tuple[list[list[str]], list[list[str]]]:
    """The lines of a run's log.csv and evaluation.csv, wall-clock columns left out."""
    with (folder / LOG).open(newline="") as file:
        log = [[row[name] for name in ("round", "frames", "loss", "deals")] for row in csv.DictReader(file)]
    with (folder / "evaluation.csv").open(newline="") as file:
        evaluations = [
            [row[name] for name in ("frames", "opponent", "win_rate")] for row in csv.DictReader(file)
        ]
    return log, evaluations


def test_a_run_stopped_between_checkpoints_resumes_with_each_line_once(tmp_path: Path) -> None:
    """A run killed after its checkpoint had logged and evaluated further rounds: resumed, its log.csv
    and evaluation.csv hold each round and evaluation once, the same lines as a run never stopped."""
    config = DmcConfig(**{**TINY.__dict__, "eval_every": 1, "eval_deals": 1})
    Trainer(DmcConfig(**{**config.__dict__, "frames": 4000}), tmp_path / "whole").run()

    early = Trainer(DmcConfig(**{**config.__dict__, "frames": 1000}), tmp_path / "stopped")
    early.run()
    shutil.copy(tmp_path / "stopped" / "checkpoint.pt", tmp_path / "early.pt")
    Trainer(DmcConfig(**{**config.__dict__, "frames": 2500}), tmp_path / "stopped", resume=True).run()
    shutil.copy(tmp_path / "early.pt", tmp_path / "stopped" / "checkpoint.pt")
    log, evaluations = logged(tmp_path / "stopped")
    assert int(log[-1][0]) > early.round
    assert int(evaluations[-1][0]) > early.frames

    Trainer(DmcConfig(**{**config.__dict__, "frames": 4000}), tmp_path / "stopped", resume=True).run()
    assert logged(tmp_path / "stopped") == logged(tmp_path / "whole")


def test_a_resume_with_other_settings_is_refused(tmp_path: Path) -> None:
    """Resuming a run under other settings (or a folder with no run) stops with the reason."""
    trainer = Trainer(TINY, tmp_path / "run")
    trainer.start()
    trainer.train_round()
    trainer.checkpoint()
    with pytest.raises(TrainingError, match="other settings: learning_rate"):
        Trainer(DmcConfig(**{**TINY.__dict__, "learning_rate": 0.1}), tmp_path / "run", resume=True)
    with pytest.raises(TrainingError, match="nothing to resume"):
        Trainer(TINY, tmp_path / "empty", resume=True)
    with pytest.raises(TrainingError, match="already holds a run"):
        Trainer(TINY, tmp_path / "run")


@pytest.mark.slow
def test_ray_actors_make_the_same_samples(ray_local: ModuleType, tmp_path: Path) -> None:
    """Two actors as Ray actors and the same two in this process: the same batches and weights after
    two rounds (the schedule does not depend on where the actors run)."""
    config = DmcConfig(**{**TINY.__dict__, "actors": 2})
    here = Trainer(config, tmp_path / "here")
    there = Trainer(config, tmp_path / "there", ray_address="local")
    for trainer in (here, there):
        trainer.start()
        trainer.train_round()
        trainer.train_round()
    for mine, theirs in zip(here.peek_batch() or (), there.peek_batch() or (), strict=True):
        assert torch.equal(mine, theirs)
    for name, value in numpy_weights(here.network).items():
        assert np.array_equal(value, numpy_weights(there.network)[name]), name


def test_the_exported_policy_scores_as_the_network(tmp_path: Path) -> None:
    """dmc.npz (float16 weights) gives the network's Q to float16's precision, and the same greedy
    choice on nearly every observation."""
    trainer = Trainer(TINY, tmp_path / "run")
    trainer.start()
    trainer.train_round()
    trainer.checkpoint()
    policy = QPolicy.load(tmp_path / "run" / POLICY)
    samples = trainer.pending
    assert samples is not None
    observations = samples.observations[:64]
    with torch.no_grad():
        exact = trainer.network.q_values(torch.from_numpy(observations).float()).numpy()
    assert np.allclose(policy.q_values(observations), exact, atol=0.05)
    assert policy.meta["frames"] == trainer.frames
    assert policy.meta["rules"] == "competition"


def test_an_evaluation_plays_the_arena(tmp_path: Path) -> None:
    """The learner's evaluation plays duplicate deals against random and the heuristic and writes the
    curve."""
    config = DmcConfig(**{**TINY.__dict__, "frames": 150, "eval_every": 100, "eval_deals": 2})
    trainer = Trainer(config, tmp_path / "run")
    trainer.run()
    with (tmp_path / "run" / "evaluation.csv").open() as file:
        rows = list(csv.DictReader(file))
    assert [row["opponent"] for row in rows[:2]] == ["random", "heuristic"]
    assert {row["frames"] for row in rows} >= {"0"}
    assert all(0.0 <= float(row["win_rate"]) <= 1.0 for row in rows)
    assert (tmp_path / "run" / "curve.png").stat().st_size > 1000
    assert TINY.rules == COMPETITION.name


runner = CliRunner()


def test_the_command_trains_and_resumes(tmp_path: Path) -> None:
    """``cardroom train --algo dmc --local``: a tiny run writes its files; resumed, it goes on."""
    out = tmp_path / "run"
    options = [
        "train", "--algo", "dmc", "--local", "--out", str(out), "--tables", "4", "--steps", "200",
        "--epsilon", "0.5", "--batch", "64", "--hidden", "16", "--eval-every", "0", "--checkpoint-every", "0",
    ]  # fmt: skip
    result = runner.invoke(app, [*options, "--frames", "150"], env={"COLUMNS": "200"})
    assert result.exit_code == 0, result.output
    assert {path.name for path in out.iterdir()} >= {"checkpoint.pt", "dmc.npz", "log.csv", "config.json"}
    resumed = runner.invoke(app, [*options, "--frames", "400", "--resume"], env={"COLUMNS": "200"})
    assert resumed.exit_code == 0, resumed.output
    assert "resuming" in resumed.output
    assert QPolicy.load(out / "dmc.npz").meta["frames"] >= 400


@pytest.mark.parametrize(
    ("options", "message", "code"),
    [
        (["--algo", "ppo"], "--algo must be supervised or dmc", 2),
        (["--algo", "dmc", "--local", "--epsilon", "2"], "epsilon is a probability", 2),
        (["--algo", "dmc", "--local", "--rules", "huopin"], "competition", 2),
        (["--algo", "dmc", "--local", "--device", "cuda"], "no CUDA device", 1),
    ],
)
def test_bad_options_are_refused(tmp_path: Path, options: list[str], message: str, code: int) -> None:
    if "cuda" in options and torch.cuda.is_available():
        pytest.skip("a CUDA device is present")
    result = runner.invoke(app, ["train", "--out", str(tmp_path / "run"), *options], env={"COLUMNS": "200"})
    assert result.exit_code == code, result.output
    assert message in result.output
