"""The PettingZoo AEC environment: PettingZoo's own API test, rewards, card conservation, seeding,
card-level steps and the illegal-action policy."""

from __future__ import annotations

import random
from typing import Any

import pytest

pytest.importorskip("numpy")
pytest.importorskip("pettingzoo")

import numpy as np
from pettingzoo.test import api_test  # type: ignore[import-untyped, unused-ignore]

from cardroom.guandan.deal import EventKind, PlayAction
from cardroom.guandan.ruleset import HUOPIN
from cardroom.rl.actions import NUM_ACTIONS, IllegalActionError, UnsupportedRulesError, action_index
from cardroom.rl.aec import AGENTS, GuandanAECEnv, env
from cardroom.rl.encoding import ACTION_FEATURE_SIZE, OBSERVATION_SIZE

pytestmark = pytest.mark.filterwarnings("ignore::UserWarning")


def test_pettingzoo_api_test() -> None:
    """PettingZoo's own checks, on the raw environment and behind its order-enforcing wrapper; two deals
    per match so that a tribute and a return are played."""
    api_test(GuandanAECEnv(max_deals=2), num_cycles=400)
    api_test(env(max_deals=1, reward="match"), num_cycles=100)


def run_episode(aec: GuandanAECEnv, seed: int, check: bool = True) -> tuple[list[int], dict[str, float]]:
    """Play one seeded episode with uniform choices over the mask; return the actions and each agent's
    total reward, checking invariants at every step."""
    aec.reset(seed=seed)
    rng = np.random.default_rng(seed)
    actions: list[int] = []
    totals = dict.fromkeys(AGENTS, 0.0)
    for agent in aec.agent_iter():
        observation, reward, terminated, truncated, _info = aec.last()
        assert observation is not None
        totals[agent] += reward
        if terminated or truncated:
            aec.step(None)
            continue
        mask = observation["action_mask"]
        assert mask.shape == (NUM_ACTIONS,)
        assert observation["observation"].shape == (OBSERVATION_SIZE,)
        action = int(rng.choice(np.flatnonzero(mask)))
        actions.append(action)
        aec.step(action)
        if check:
            rewards = [aec.rewards.get(name, 0.0) for name in AGENTS]
            assert rewards[0] == rewards[2] == -rewards[1] == -rewards[3]
            check_cards(aec)
    return actions, totals


def check_cards(aec: GuandanAECEnv) -> None:
    """108 cards: held, played, or paid face down."""
    match = aec.session.match
    deal = match.deals[-1]
    held = sum(deal.card_count(seat) for seat in range(4))
    played = sum(len(e.play.cards) for e in deal.events if e.kind == EventKind.PLAY and e.play is not None)
    assert held + played + len(deal.pending_tributes) == 108


def test_rewards_are_team_symmetric_and_sum_to_the_deals_rises() -> None:
    aec = GuandanAECEnv(max_deals=3)
    _, totals = run_episode(aec, seed=4)
    assert totals["seat_0"] == totals["seat_2"] == -totals["seat_1"] == -totals["seat_3"]
    match = aec.session.match
    expected = sum(
        summary.result.rise(match.rules) * (1 if summary.result.winning_team == 0 else -1)
        for summary in match.summaries
    )
    assert totals["seat_0"] == expected
    assert len(match.summaries) >= 3
    assert match.is_over


def test_match_reward_is_paid_once_at_the_end() -> None:
    aec = GuandanAECEnv(reward="match", max_deals=2)
    _, totals = run_episode(aec, seed=6)
    winner = aec.session.match.winner
    assert winner is not None
    assert totals[AGENTS[winner]] == 1.0
    assert totals[AGENTS[1 - winner]] == -1.0


def test_the_same_seed_plays_the_same_match() -> None:
    first, _ = run_episode(GuandanAECEnv(max_deals=1), seed=8, check=False)
    again, _ = run_episode(GuandanAECEnv(max_deals=1), seed=8, check=False)
    other, _ = run_episode(GuandanAECEnv(max_deals=1), seed=9, check=False)
    assert first == again
    assert first != other


def test_only_the_seat_to_act_has_a_mask_and_legal_actions() -> None:
    aec = GuandanAECEnv(max_deals=1)
    aec.reset(seed=1)
    acting = aec.agent_selection
    for agent in AGENTS:
        observation = aec.observe(agent)
        assert observation["action_mask"].any() == (agent == acting)
        assert ("legal_actions" in aec.infos[agent]) == (agent == acting)


def test_card_level_actions_and_their_features() -> None:
    """With ``action_features=True`` the acting seat's info holds a feature row and a table index per
    card-level action, and ``step`` takes one of those actions directly."""
    aec = GuandanAECEnv(max_deals=1, action_features=True)
    aec.reset(seed=2)
    rng = random.Random(2)
    for _ in range(40):
        info: dict[str, Any] = aec.infos[aec.agent_selection]
        actions = info["legal_actions"]
        assert info["action_features"].shape == (len(actions), ACTION_FEATURE_SIZE)
        seat = AGENTS.index(aec.agent_selection)
        observation = aec.session.observation(seat)
        assert info["action_indices"].tolist() == [action_index(a, observation) for a in actions]
        choice = rng.choice(actions)
        aec.step(choice)
        applied = aec.session.match.deals[-1].actions[-1]
        assert isinstance(choice, PlayAction)
        assert isinstance(applied, PlayAction)
        assert (applied.seat, applied.play.kind, applied.play.cards) == (
            seat,
            choice.play.kind,
            choice.play.cards,
        )
    assert aec.session.steps == 40


def test_illegal_actions_raise_or_are_replaced() -> None:
    aec = GuandanAECEnv(max_deals=1)
    aec.reset(seed=3)
    with pytest.raises(IllegalActionError):
        aec.step(0)  # the leader may not pass
    lenient = GuandanAECEnv(max_deals=1, on_illegal="substitute")
    lenient.reset(seed=3)
    agent = lenient.agent_selection
    lenient.step(0)
    assert lenient.infos[agent].get("illegal_action") is True
    assert lenient.session.steps == 1


def test_rule_sets_without_the_competition_plays_are_refused() -> None:
    with pytest.raises(UnsupportedRulesError):
        GuandanAECEnv(rules=HUOPIN)
    with pytest.raises(ValueError, match="reward"):
        GuandanAECEnv(reward="points")


def test_render() -> None:
    aec = GuandanAECEnv(max_deals=1, render_mode="ansi")
    aec.reset(seed=0)
    text = aec.render()
    assert text is not None
    assert "to act: seat" in text
    assert "seat 3 [27]" in text


@pytest.mark.slow
def test_whole_matches_soak() -> None:
    """Whole matches to passing A (no deal limit), checking rewards and cards at every step."""
    for seed in range(4):
        aec = GuandanAECEnv()
        _, totals = run_episode(aec, seed=100 + seed)
        match = aec.session.match
        assert match.is_over
        assert match.passed_ace
        assert totals["seat_0"] == -totals["seat_1"]
