"""The Gymnasium single-agent environment: Gymnasium's own checker, the bots, rewards and seeding."""

from __future__ import annotations

import pytest

pytest.importorskip("numpy")
pytest.importorskip("gymnasium")

import gymnasium
import numpy as np
from gymnasium.utils.env_checker import check_env

from cardroom.rl.actions import IllegalActionError, legal_action_mask
from cardroom.rl.single import ENV_ID, GuandanGymEnv

pytestmark = pytest.mark.filterwarnings("ignore::UserWarning")


def test_gymnasium_check_env() -> None:
    check_env(gymnasium.make(ENV_ID, max_deals=1).unwrapped)
    check_env(GuandanGymEnv(seat=2, opponents="heuristic", max_deals=1))


def play(env: GuandanGymEnv, seed: int) -> tuple[list[int], float]:
    """A seeded episode with uniform choices over the mask: the learner's actions and its return."""
    observation, _ = env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    actions: list[int] = []
    total = 0.0
    terminated = False
    while not terminated:
        mask = observation["action_mask"]
        assert (mask.astype(bool) == env.action_masks()).all()
        seat = env.session.seat
        assert seat == env.seat
        action = int(rng.choice(np.flatnonzero(mask)))
        actions.append(action)
        observation, reward, terminated, truncated, info = env.step(action)
        assert not truncated
        assert "illegal_action" not in info
        total += reward
    assert not observation["action_mask"].any()
    return actions, total


@pytest.mark.parametrize(("seat", "opponents"), [(0, "random"), (3, ("heuristic", "random", "heuristic"))])
def test_the_return_is_the_learners_team_result(seat: int, opponents: str | tuple[str, ...]) -> None:
    env = GuandanGymEnv(seat=seat, opponents=opponents, max_deals=2)
    _, total = play(env, seed=5)
    match = env.session.match
    expected = sum(
        summary.result.rise(match.rules) * (1 if summary.result.winning_team == seat % 2 else -1)
        for summary in match.summaries
    )
    assert total == expected
    assert match.is_over


def test_the_same_seed_plays_the_same_episode() -> None:
    first = play(GuandanGymEnv(opponents="heuristic", max_deals=1), seed=3)
    again = play(GuandanGymEnv(opponents="heuristic", max_deals=1), seed=3)
    assert first == again


def test_illegal_actions_are_replaced_or_raise() -> None:
    env = GuandanGymEnv(max_deals=1)
    observation, _ = env.reset(seed=1)
    illegal = int(np.flatnonzero(observation["action_mask"] == 0)[0])
    _, _, _, _, info = env.step(illegal)
    assert info["illegal_action"] is True
    strict = GuandanGymEnv(max_deals=1, on_illegal="raise")
    strict.reset(seed=1)
    with pytest.raises(IllegalActionError):
        strict.step(illegal)


def test_bots_are_checked() -> None:
    with pytest.raises(KeyError, match="known"):
        GuandanGymEnv(opponents="nobody")
    with pytest.raises(ValueError, match="three"):
        GuandanGymEnv(opponents=("random", "random"))


def test_features_and_card_level_steps() -> None:
    env = GuandanGymEnv(max_deals=1, action_features=True)
    _, info = env.reset(seed=4)
    assert info["action_features"].shape[0] == len(info["legal_actions"])
    observation = env.session.observation(env.seat)
    assert legal_action_mask(observation)[info["action_indices"]].all()
    env.step(info["legal_actions"][-1])
    assert env.session.steps >= 1
