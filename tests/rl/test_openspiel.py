"""The OpenSpiel game: it loads by name, passes OpenSpiel's random simulation test, and its states
clone, serialise, and report zero-sum, team-symmetric returns."""

from __future__ import annotations

import pickle

import pytest

pytest.importorskip("numpy")
pytest.importorskip("pyspiel")

import numpy as np
import pyspiel

import cardroom.rl.openspiel as game_module
from cardroom.rl.actions import NUM_ACTIONS, legal_action_mask
from cardroom.rl.encoding import OBSERVATION_SIZE, encode_observation

NAME = game_module.SHORT_NAME


def random_step(state: object, rng: np.random.Generator) -> None:
    if state.is_chance_node():  # type: ignore[attr-defined]
        outcomes, probabilities = zip(*state.chance_outcomes(), strict=True)  # type: ignore[attr-defined]
        state.apply_action(int(rng.choice(outcomes, p=probabilities)))  # type: ignore[attr-defined]
    else:
        state.apply_action(int(rng.choice(state.legal_actions())))  # type: ignore[attr-defined]


def test_loads_with_its_parameters() -> None:
    game = pyspiel.load_game(NAME)
    assert game.num_players() == 4
    assert game.num_distinct_actions() == NUM_ACTIONS
    assert game.information_state_tensor_shape() == game.observation_tensor_shape() == [OBSERVATION_SIZE]
    assert game.get_type().utility == pyspiel.GameType.Utility.ZERO_SUM
    assert game.get_type().information == pyspiel.GameType.Information.IMPERFECT_INFORMATION
    longer = pyspiel.load_game(f"{NAME}(max_deals=3,reward=match,rules=classic)")
    assert longer.max_utility() == 1.0
    assert longer.max_game_length() == 3 * game.max_game_length()
    with pytest.raises(Exception, match="huopin"):
        pyspiel.load_game(f"{NAME}(rules=huopin)")


def test_openspiel_random_sim_test() -> None:
    """OpenSpiel's own consistency checks over random games, serialising each state too."""
    pyspiel.random_sim_test(pyspiel.load_game(NAME), num_sims=1, serialize=True, verbose=False)


def test_random_play_clone_and_serialise() -> None:
    game = pyspiel.load_game(f"{NAME}(max_deals=2)")
    state = game.new_initial_state()
    rng = np.random.default_rng(7)
    steps = 0
    while not state.is_terminal():
        if steps == 300:
            clone = state.clone()
            text = pyspiel.serialize_game_and_state(game, state)
            _, restored = pyspiel.deserialize_game_and_state(text)
            assert str(restored) == str(clone) == str(state)
            assert restored.history() == state.history()
            pickled = pickle.loads(pickle.dumps(state))
            assert pickled.legal_actions() == state.legal_actions()
            random_step(clone, rng)
            assert clone.history() != state.history()
            assert str(state) == str(restored)  # the clone's move left the original alone
        if not state.is_chance_node():
            player = state.current_player()
            view = state.observation(player)
            mask = legal_action_mask(view)
            assert state.legal_actions() == np.flatnonzero(mask).tolist()
            assert np.array_equal(state.information_state_tensor(player), encode_observation(view))
            assert state.observation_tensor(player) == state.information_state_tensor(player)
        random_step(state, rng)
        steps += 1
    returns = state.returns()
    assert returns[0] == returns[2] == -returns[1] == -returns[3] != 0
    assert sum(returns) == 0
    assert len(state.match.summaries) == 2


def test_information_state_strings_are_private() -> None:
    """A seat's information state holds its own dealt cards and the events it saw; two seats differ."""
    game = pyspiel.load_game(NAME)
    state = game.new_initial_state()
    rng = np.random.default_rng(1)
    while state.is_chance_node():
        random_step(state, rng)
    player = state.current_player()
    text = state.information_state_string(player)
    assert text.startswith(f"seat {player}")
    assert text != state.information_state_string((player + 1) % 4)
    assert "to act" in state.observation_string(player)


def test_openspiel_rl_environment_plays_it() -> None:
    """OpenSpiel's RL environment (what its learning algorithms drive) runs a game with random agents."""
    from open_spiel.python import rl_environment
    from open_spiel.python.algorithms import random_agent

    environment = rl_environment.Environment(
        NAME, chance_event_sampler=rl_environment.ChanceEventSampler(seed=3)
    )
    actions = environment.action_spec()["num_actions"]
    assert environment.observation_spec()["info_state"] == (OBSERVATION_SIZE,)
    agents = [random_agent.RandomAgent(player_id=player, num_actions=actions) for player in range(4)]
    step = environment.reset()
    while not step.last():
        player = step.observations["current_player"]
        legal = step.observations["legal_actions"][player]
        output = agents[player].step(step)
        assert output.action in legal
        step = environment.step([output.action])
    rewards = step.rewards
    assert rewards[0] == rewards[2] == -rewards[1] == -rewards[3] != 0
