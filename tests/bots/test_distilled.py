"""The search distilled: the inputs read from the seat's view, the labels the search's own gains, the bot
following its network, training with the distilled target, and the shipped network."""

from __future__ import annotations

import random
from pathlib import Path

import numpy as np
import pytest

from cardroom.bots import Bot, HeuristicBot, make_bot
from cardroom.bots.distilled import (
    INPUTS,
    PLAY_INPUTS,
    POSITION_INPUTS,
    DistilledBot,
    decision_inputs,
    default_net,
)
from cardroom.bots.distilling import GainRecorder, gain_examples
from cardroom.bots.sampling import sample_hands
from cardroom.bots.search import SearchBot, trick_values
from cardroom.bots.training import TARGETS, Chunk, TrainConfig, selfplay_examples, train
from cardroom.bots.value_net import ValueNet, ValueNetFormatError
from cardroom.guandan.deal import Phase, PlayAction
from cardroom.guandan.match import Match
from cardroom.guandan.observation import Observation
from cardroom.guandan.plays import PASS
from cardroom.guandan.ruleset import COMPETITION
from tests.bots.test_search import return_decisions
from tests.bots.test_value_net import play_deal


def weighed_decisions(seed: int, count: int) -> list[Observation]:
    """Play-phase observations of heuristic self-play where the search weighs two or more candidates."""
    match = Match(COMPETITION)
    match.deal_random(random.Random(seed))
    bot = SearchBot(random.Random(seed))
    found: list[Observation] = []
    while (seat := match.current_player) is not None and len(found) < count:
        observation = match.observation(seat)
        action = bot.proposer.act(observation)
        if observation.phase is Phase.PLAY and len(observation.legal_actions) > 1:
            assert isinstance(action, PlayAction)
            if len(bot.candidates(observation, action.play)) > 1:
                found.append(observation)
        match.apply(action)
    return found


def constant_net(value: float) -> ValueNet:
    """A network that predicts ``value`` for every input."""
    net = ValueNet.initial(len(INPUTS), (4,), seed=0)
    net.weights[-1][:] = 0.0
    net.biases[-1][:] = value
    return net


def test_inputs_name_each_column_once() -> None:
    assert len(set(INPUTS)) == len(INPUTS)
    assert INPUTS[: len(POSITION_INPUTS)] == POSITION_INPUTS


def test_decision_inputs_give_a_row_per_alternative_read_from_the_seat() -> None:
    observations = weighed_decisions(5, 12)
    assert len(observations) == 12
    bot = SearchBot(random.Random(0))
    for observation in observations:
        proposal = bot.proposer.act(observation)
        assert isinstance(proposal, PlayAction)
        candidates = bot.candidates(observation, proposal.play)
        planner = bot.policy.planner(observation.level)
        rows = decision_inputs(observation, candidates, planner)
        assert rows.shape == (len(candidates) - 1, len(INPUTS))
        assert np.isfinite(rows).all()
        own = INPUTS.index("own cards")
        assert rows[0, own] == len(observation.hand) / 27
        assert rows[0, INPUTS.index("leading")] == float(observation.previous is None)
        passes = INPUTS.index("alternative: passes")
        for row, candidate in zip(rows, candidates[1:], strict=True):
            assert row[passes] == float(candidate == PASS)
            heuristic = INPUTS.index("heuristic's: passes")
            assert row[heuristic] == float(proposal.play == PASS)
        assert len(PLAY_INPUTS) < len(INPUTS)


def test_the_labels_are_the_search_gains_on_its_own_samples() -> None:
    """What the distilled network learns: each alternative's mean gain over the heuristic's play on the
    search's samples, as the search itself measures it."""
    observation = weighed_decisions(9, 3)[-1]
    recorder = GainRecorder(random.Random(21))
    proposal = recorder.proposer.act(observation)
    assert isinstance(proposal, PlayAction)
    candidates = recorder.candidates(observation, proposal.play)
    recorder.weigh(observation, candidates)
    ((rows, gains),) = recorder.records
    planner = recorder.policy.planner(observation.level)
    assert np.array_equal(rows, decision_inputs(observation, candidates, planner))
    rng = random.Random(21)
    values = np.array(
        [
            trick_values(
                observation,
                sample_hands(observation, rng),
                candidates,
                recorder.policy,
                recorder.evaluate,
                planner,
                True,
            )
            for _ in range(recorder.samples)
        ]
    )
    assert np.allclose(gains, (values[:, 1:] - values[:, :1]).mean(axis=0), rtol=0, atol=1e-12)


def test_gain_examples_are_seeded_and_fill_a_training_chunk() -> None:
    inputs, gains = gain_examples(1, 3)
    again = gain_examples(1, 3)
    assert inputs.shape == (len(gains), len(INPUTS))
    assert len(gains) > 0
    assert np.array_equal(inputs, again[0])
    assert np.array_equal(gains, again[1])
    examples = selfplay_examples(Chunk(1, 3, False, "distilled"))
    assert np.array_equal(examples.inputs, inputs)
    assert np.array_equal(examples.targets, gains)
    assert not examples.trick_starts.any()


def test_the_bot_follows_its_network_past_the_bar() -> None:
    for observation in weighed_decisions(13, 8):
        keen = DistilledBot(random.Random(0), net=constant_net(0.5))
        shy = DistilledBot(random.Random(0), net=constant_net(-0.5))
        proposal = shy.lister.proposer.act(observation)
        assert isinstance(proposal, PlayAction)
        candidates = shy.lister.candidates(observation, proposal.play)
        assert shy.act(observation) == proposal
        assert keen.act(observation) == PlayAction(observation.seat, candidates[1])
        barred = DistilledBot(random.Random(0), net=constant_net(0.5), min_gain=0.6)
        assert barred.act(observation) == proposal


def test_the_bot_refuses_a_network_of_other_inputs_and_a_negative_bar() -> None:
    with pytest.raises(ValueError, match="reads 5 inputs"):
        DistilledBot(random.Random(0), net=ValueNet.initial(5, (3,)))
    with pytest.raises(ValueError, match="min_gain"):
        DistilledBot(random.Random(0), min_gain=-0.1)


def test_the_shipped_bot_plays_legal_actions_deterministically() -> None:
    assert isinstance(make_bot("distilled", 1), DistilledBot)
    assert default_net().inputs == len(INPUTS)

    def bots() -> list[Bot]:
        return [make_bot("distilled" if seat % 2 == 0 else "heuristic", 17 + seat) for seat in range(4)]

    assert play_deal(bots(), 17) == play_deal(bots(), 17)


def test_training_the_distilled_target_writes_what_the_bot_loads(tmp_path: Path) -> None:
    config = TrainConfig(
        deals=1, rounds=2, seed=2, epochs=1, batch=64, hidden=(8,), held_out_deals=1, target="distilled"
    )
    state = train(config, tmp_path)
    assert [report.held_out_trick_start_loss for report in state.history] == [None, None]
    written = tmp_path / TARGETS["distilled"].network
    net = ValueNet.load(written, len(INPUTS))
    assert net.hidden == (8,)
    bot = DistilledBot(random.Random(0), net=net)
    for observation in weighed_decisions(3, 4):
        assert bot.act(observation) in observation.legal_actions
    with pytest.raises(ValueNetFormatError, match="inputs"):
        ValueNet.load(written)
    with pytest.raises(ValueError, match="target"):
        TrainConfig(deals=1, rounds=1, target="policy")


def test_the_return_card_is_the_searchs_or_the_heuristics_when_told() -> None:
    """还贡: the search's return card (:meth:`SearchBot.choose_return`), as the search bot with the same
    seed returns it, sometimes another than the heuristic's; the heuristic's with
    ``return_search=False``."""
    differs = 0
    for number, observation in enumerate(return_decisions("competition", 40, 7)):
        chosen = DistilledBot(random.Random(number)).act(observation)
        assert chosen == SearchBot(random.Random(number)).act(observation)
        heuristic = HeuristicBot(random.Random(0)).act(observation)
        assert DistilledBot(random.Random(number), return_search=False).act(observation) == heuristic
        differs += chosen != heuristic
    assert differs >= 1
