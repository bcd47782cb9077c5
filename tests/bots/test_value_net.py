"""The value network: shapes, gradients against finite differences, saving, training runs that resume
exactly, and the ``value`` bot."""

from __future__ import annotations

import json
import random
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from cardroom.bots import Bot, make_bot
from cardroom.bots.heuristic import HeuristicBot
from cardroom.bots.training import (
    CHECKPOINT,
    NETWORK,
    PROGRESS,
    Chunk,
    TrainConfig,
    TrainingError,
    selfplay_examples,
    train,
)
from cardroom.bots.value import ValueBot, default_net
from cardroom.bots.value_net import (
    FORMAT_VERSION,
    INPUTS,
    TRICK_INPUTS,
    Adam,
    ValueNet,
    ValueNetFormatError,
    encode,
    encode_all,
)
from cardroom.guandan.deal import Phase
from cardroom.guandan.match import Match
from cardroom.guandan.ruleset import COMPETITION


def tiny_net(seed: int = 3) -> ValueNet:
    net = ValueNet.initial(5, (4, 3), seed=seed)
    rng = np.random.default_rng(seed)
    net.mean = rng.normal(size=5)
    net.scale = rng.uniform(0.5, 2.0, size=5)
    for bias in net.biases:
        bias[:] = rng.normal(size=bias.shape)
    return net


def test_forward_and_backward_shapes() -> None:
    net = ValueNet.initial(len(INPUTS), (16, 8), seed=1)
    inputs = np.random.default_rng(0).normal(size=(7, len(INPUTS)))
    assert net.predict(inputs).shape == (7,)
    loss, grads = net.gradients(inputs, np.zeros(7))
    assert np.isfinite(loss)
    assert [grad.shape for grad in grads] == [param.shape for param in net.parameters()]
    with pytest.raises(ValueError, match="expected inputs of shape"):
        net.predict(np.zeros((2, 3)))


def test_gradients_match_finite_differences() -> None:
    net = tiny_net()
    rng = np.random.default_rng(1)
    inputs, targets = rng.normal(size=(6, 5)), rng.normal(size=6)
    _, grads = net.gradients(inputs, targets)
    step = 1e-6
    for param, grad in zip(net.parameters(), grads, strict=True):
        for index in np.ndindex(param.shape):
            saved = param[index]
            param[index] = saved + step
            above = net.loss(inputs, targets)
            param[index] = saved - step
            below = net.loss(inputs, targets)
            param[index] = saved
            assert grad[index] == pytest.approx((above - below) / (2 * step), rel=1e-5, abs=1e-8)


def test_adam_lowers_the_loss_on_a_fixed_batch() -> None:
    net = tiny_net()
    rng = np.random.default_rng(2)
    inputs, targets = rng.normal(size=(32, 5)), rng.normal(size=32)
    adam = Adam(rate=0.01)
    first = net.loss(inputs, targets)
    for _ in range(200):
        _, grads = net.gradients(inputs, targets)
        adam.step(net, grads)
    assert net.loss(inputs, targets) < 0.5 * first


def test_initial_networks_are_deterministic_under_the_seed() -> None:
    same = [ValueNet.initial(len(INPUTS), seed=5).arrays() for _ in range(2)]
    other = ValueNet.initial(len(INPUTS), seed=6).arrays()
    assert all(np.array_equal(same[0][key], same[1][key]) for key in same[0])
    assert not np.array_equal(same[0]["weight0"], other["weight0"])


def test_save_and_load_round_trip(tmp_path: Path) -> None:
    net = ValueNet.initial(len(INPUTS), seed=2)
    net.standardise(np.random.default_rng(0).normal(size=(50, len(INPUTS))))
    path = tmp_path / "net.npz"
    net.save(path)
    loaded = ValueNet.load(path)
    for key, array in net.arrays().items():
        assert np.array_equal(loaded.arrays()[key], array)
    probe = np.random.default_rng(1).normal(size=(4, len(INPUTS)))
    assert np.array_equal(loaded.predict(probe), net.predict(probe))


def test_another_format_version_is_refused(tmp_path: Path) -> None:
    net = ValueNet.initial(len(INPUTS), seed=2)
    path = tmp_path / "net.npz"
    named: dict[str, Any] = {**net.arrays(), "format_version": np.array(FORMAT_VERSION + 1)}
    np.savez(path, **named)
    with pytest.raises(ValueNetFormatError, match=f"format version {FORMAT_VERSION + 1}"):
        ValueNet.load(path)
    np.savez(tmp_path / "other.npz", weights=np.zeros(3))
    with pytest.raises(ValueNetFormatError, match="not a saved value network"):
        ValueNet.load(tmp_path / "other.npz")


def test_encoding_reads_the_table_from_the_valued_seat() -> None:
    match = Match(COMPETITION)
    deal = match.deal_random(random.Random(4))
    bot = HeuristicBot(random.Random(0))
    while deal.phase is not Phase.PLAY:
        seat = match.current_player
        assert seat is not None
        match.apply(bot.act(match.observation(seat)))
    planner = bot.planner(deal.level)
    rows = encode_all(deal, planner)
    assert rows.shape == (4, len(INPUTS))
    width = (len(INPUTS) - len(TRICK_INPUTS)) // 4
    leader = deal.current_player
    assert leader is not None
    for seat in range(4):
        assert np.array_equal(encode(deal, seat, planner), rows[seat])
        for step in range(4):
            block = rows[seat][step * width : (step + 1) * width]
            assert np.array_equal(block, rows[(seat + step) % 4][:width])
        assert np.array_equal(rows[seat][4 * width :], rows[0][4 * width :])
        assert rows[seat][INPUTS.index("seat: has the lead")] == float(seat == leader)
        assert rows[seat][INPUTS.index("partner: partner has the lead")] == float(seat == leader)


def test_selfplay_examples_are_labelled_with_the_real_outcome_and_seeded() -> None:
    examples = selfplay_examples(Chunk(2, 7, True))
    again = selfplay_examples(Chunk(2, 7, True))
    assert np.array_equal(examples.inputs, again.inputs)
    assert np.array_equal(examples.targets, again.targets)
    assert examples.inputs.shape == (len(examples), len(INPUTS))
    assert set(np.unique(np.abs(examples.targets))) <= {2.0, 3.0, 4.0}
    assert np.array_equal(examples.targets[0::4], examples.targets[2::4])
    assert np.array_equal(examples.targets[0::4], -examples.targets[1::4])
    assert np.isfinite(examples.fitted[examples.trick_starts]).all()
    assert np.isnan(examples.fitted[~examples.trick_starts]).all()
    other = selfplay_examples(Chunk(2, 8, False))
    assert other.inputs.shape != examples.inputs.shape or not np.array_equal(other.inputs, examples.inputs)


def tiny_config(rounds: int) -> TrainConfig:
    return TrainConfig(deals=3, rounds=rounds, seed=4, epochs=1, batch=64, hidden=(8,), held_out_deals=1)


def test_training_writes_checkpoints_and_progress(tmp_path: Path) -> None:
    state = train(tiny_config(2), tmp_path)
    assert state.rounds_done == 2
    progress = json.loads((tmp_path / PROGRESS).read_text())
    assert [entry["round"] for entry in progress["rounds"]] == [1, 2]
    assert all(np.isfinite(entry["held_out_loss"]) for entry in progress["rounds"])
    assert ValueNet.load(tmp_path / NETWORK).hidden == (8,)
    with pytest.raises(TrainingError, match="pass --resume"):
        train(tiny_config(3), tmp_path)
    with pytest.raises(TrainingError, match="other settings"):
        train(TrainConfig(deals=4, rounds=3, seed=4, epochs=1, batch=64, hidden=(8,)), tmp_path, resume=True)
    with pytest.raises(TrainingError, match="nothing to resume"):
        train(tiny_config(3), tmp_path / "empty", resume=True)


def test_a_resumed_run_ends_where_the_uninterrupted_one_does(tmp_path: Path) -> None:
    train(tiny_config(2), tmp_path / "whole")
    train(tiny_config(1), tmp_path / "stopped")
    train(tiny_config(2), tmp_path / "stopped", resume=True)
    with (
        np.load(tmp_path / "whole" / CHECKPOINT) as whole,
        np.load(tmp_path / "stopped" / CHECKPOINT) as resumed,
    ):
        assert set(whole) == set(resumed)
        for key in whole:
            assert np.array_equal(whole[key], resumed[key]), key
    losses = [
        [entry["held_out_loss"] for entry in json.loads((tmp_path / run / PROGRESS).read_text())["rounds"]]
        for run in ("whole", "stopped")
    ]
    assert losses[0] == losses[1]


def play_deal(bots: Sequence[Bot], seed: int) -> list[object]:
    """The actions of one fresh competition deal played by ``bots``, each checked legal."""
    match = Match(COMPETITION)
    deal = match.deal_random(random.Random(seed))
    chosen: list[object] = []
    while (seat := match.current_player) is not None:
        observation = match.observation(seat)
        action = bots[seat].act(observation)
        assert action in observation.legal_actions
        chosen.append(action)
        match.apply(action)
    assert deal.result is not None
    return chosen


def test_the_value_bot_plays_legal_actions_and_is_deterministic() -> None:
    def bots() -> list[Bot]:
        return [ValueBot(random.Random(11 + seat), samples=2) for seat in range(4)]

    assert play_deal(bots(), 11) == play_deal(bots(), 11)


def test_the_value_bot_loads_the_shipped_network() -> None:
    assert default_net().inputs == len(INPUTS)
    assert isinstance(make_bot("value", 1), ValueBot)
    with pytest.raises(ValueError, match="samples"):
        ValueBot(random.Random(0), samples=0)
