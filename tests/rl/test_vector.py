"""The batched environment (docs/rl.md, "The batched environment"): the compiled batch held to the pure
reference on seeded tables of every preset with the competition's plays, tribute and return included;
invariants under random play; replaying one table from its seed; saving and restoring; bad input."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, fields
from pathlib import Path
from types import ModuleType

import pytest

pytest.importorskip("numpy")

import numpy as np
import numpy.typing as npt

from cardroom.guandan import native
from cardroom.guandan.ruleset import COMPETITION, HUOPIN, preset
from cardroom.rl.actions import NUM_ACTIONS, PASS_INDEX, IllegalActionError, UnsupportedRulesError
from cardroom.rl.batch import Batch
from cardroom.rl.encoding import OBSERVATION_SIZE, SLICES
from cardroom.rl.vector import VectorEnv
from cardroom.rl.vector_reference import ReferenceVectorEnv

ARRAYS = tuple(field.name for field in fields(Batch))


@pytest.fixture(autouse=True)
def compiled(core: ModuleType) -> ModuleType:
    """Every test here runs the compiled batch (the reference alone is tested through it)."""
    return core


def snapshot(env: VectorEnv | ReferenceVectorEnv) -> dict[str, npt.NDArray[np.generic]]:
    """Copies of the batch's arrays and the god's view of the tables."""
    taken = {name: np.array(getattr(env.batch, name)) for name in ARRAYS}
    taken["hands"], taken["played"], taken["pending"] = env.hands(), env.played(), env.pending()
    taken["progress"] = env.progress()
    return taken


@dataclass
class Coverage:
    """What a cross-check run went through."""

    steps: int = 0
    tributes: int = 0
    double_tributes: int = 0
    returns: int = 0
    deals_over: int = 0
    matches_over: int = 0


def cross_check(
    rules: str, reward: str, max_deals: int | None, tables: int, steps: int, seed: int
) -> Coverage:
    """Step the compiled batch and the reference (on the pure engine) with the same random choices and
    compare everything after every step."""
    compiled_env = VectorEnv(tables, rules, reward, max_deals, dtype=np.float32)
    reference = ReferenceVectorEnv(tables, rules, reward, max_deals, dtype=np.float32)
    compiled_env.reset(seed=seed)
    with native.pure_engine():
        reference.reset(seed=seed)
    rng = np.random.default_rng(seed)
    seen = Coverage()
    for step in range(steps):
        ours, theirs = snapshot(compiled_env), snapshot(reference)
        for name, value in ours.items():
            if not np.array_equal(value, theirs[name]):
                rows = sorted({int(row) for row in np.argwhere(value != theirs[name])[:, 0]})
                pytest.fail(f"{rules}, step {step}: {name} differs at tables {rows}")
        phases = ours["progress"][:, 6]
        seen.tributes += int((phases == 0).sum())
        seen.returns += int((phases == 1).sum())
        seen.double_tributes += int((ours["pending"].sum(axis=1) > 0).sum())
        seen.deals_over += int(ours["deal_over"].sum())
        seen.matches_over += int(ours["terminated"].sum())
        actions = compiled_env.random_actions(rng)
        compiled_env.step(actions)
        with native.pure_engine():
            reference.step(actions)
        seen.steps += 1
    return seen


@pytest.mark.parametrize(
    ("rules", "reward", "max_deals"),
    [("competition", "deal", None), ("classic", "match", 3), ("platform", "deal", 2)],
)
def test_the_core_steps_as_the_reference(rules: str, reward: str, max_deals: int | None) -> None:
    """Seeded tables of each preset with the competition's plays: the same seat to act, observation
    (the encoding of cardroom.rl.encoding, float32), mask, rewards, flags, hands, played cards, pending
    tributes and levels as the pure reference at every step, across deals with tribute and return and
    across the end of matches (docs/guandan.md#a-match-match)."""
    seen = cross_check(rules, reward, max_deals, tables=6, steps=700, seed=11)
    assert seen.tributes, seen
    assert seen.returns, seen
    assert seen.double_tributes, seen
    assert seen.deals_over >= 12, seen
    if max_deals is not None:
        assert seen.matches_over >= 2, seen


@pytest.mark.slow
@pytest.mark.parametrize("rules", ["competition", "classic", "platform"])
def test_the_core_steps_as_the_reference_at_length(rules: str) -> None:
    """The same cross-check over whole matches of more tables (several thousand steps)."""
    seen = cross_check(rules, "match", None, tables=12, steps=3000, seed=29)
    assert seen.matches_over >= 1, seen
    assert seen.returns, seen


def random_play(env: VectorEnv, steps: int, seed: int) -> Iterator[tuple[Batch, npt.NDArray[np.int64]]]:
    """Uniform random actions; yields the batch before each step and the actions taken."""
    rng = np.random.default_rng(seed)
    for _ in range(steps):
        actions = env.random_actions(rng)
        yield env.batch, actions
        env.step(actions)


def test_invariants_under_random_play() -> None:
    """Under random play, at every step of 64 tables: the 108 cards are all held, played or lying as a
    pending tribute; the seat to act holds cards and has a legal entry (passing only when it follows);
    rewards are team-symmetric and zero-sum, paid exactly when a deal ends, as the rise the places give
    (partner_rises) and the winners' level rising by it, capped at A (docs/rl.md#rewards)."""
    env = VectorEnv(64, "competition", "deal")
    env.reset(seed=3)
    rises = set(COMPETITION.partner_rises)
    before = env.progress()
    deals = 0
    for batch, _ in random_play(env, 1500, seed=3):
        hands, played, pending = env.hands().astype(int), env.played().astype(int), env.pending().astype(int)
        assert (hands.sum(axis=1) + played.sum(axis=1) + pending == 2).all()
        seats = batch.current_player.astype(int)
        assert (hands[np.arange(64), seats].sum(axis=1) > 0).all()
        assert (batch.legal_action_mask.sum(axis=1) > 0).all()
        observation = batch.observation
        assert (observation[:, SLICES["to_act"].start] == 1).all()
        leading = observation[:, SLICES["to_beat_seat"].start + 4] == 1
        assert (batch.legal_action_mask[leading, PASS_INDEX] == 0).all()
        progress = env.progress()
        playing = progress[:, 6] == 2
        assert (batch.legal_action_mask[playing & ~leading, PASS_INDEX] == 1).all()
        rewards = batch.rewards
        assert (rewards[:, 0] == rewards[:, 2]).all()
        assert (rewards[:, 1] == rewards[:, 3]).all()
        assert (rewards[:, 0] == -rewards[:, 1]).all()
        assert ((rewards[:, 0] != 0) == batch.deal_over).all()
        for table in np.flatnonzero(batch.deal_over & ~batch.terminated):
            deals += 1
            winners = 0 if rewards[table, 0] > 0 else 1
            rise = int(abs(rewards[table, 0]))
            assert rise in rises
            assert progress[table, winners] == min(14, before[table, winners] + rise)
            assert progress[table, 1 - winners] == before[table, 1 - winners]
        before = progress
    assert deals >= 500


def test_match_rewards_are_paid_when_a_match_ends() -> None:
    """``reward="match"``: ±1 to the match's winners and losers when it ends, nothing before."""
    env = VectorEnv(16, "competition", "match", max_deals=2)
    env.reset(seed=5)
    ended = 0
    for _ in random_play(env, 1200, seed=5):
        rewards = env.batch.rewards
        assert ((rewards[:, 0] != 0) <= env.batch.terminated).all()
        assert set(np.unique(rewards)) <= {-1.0, 0.0, 1.0}
        ended += int(env.batch.terminated.sum())
    assert ended >= 10


def test_a_table_replays_alone_from_its_seed() -> None:
    """Table 3 of a batch, replayed in a batch of one from ``seeds[3]`` with its actions, goes through
    the same arrays."""
    env = VectorEnv(5, "classic", max_deals=2)
    env.reset(seed=17)
    alone = VectorEnv(1, "classic", max_deals=2)
    alone.reset(seed=[int(env.seeds[3])])
    for batch, actions in random_play(env, 400, seed=17):
        for name in ARRAYS:
            assert np.array_equal(getattr(batch, name)[3], getattr(alone.batch, name)[0]), name
        alone.step(actions[3:4])


def test_seeds_decide_the_deals() -> None:
    """The same seed deals the same cards; another seed other cards; one seed per table is taken as
    given."""
    first, second, third = (VectorEnv(4) for _ in range(3))
    first.reset(seed=8)
    second.reset(seed=8)
    third.reset(seed=9)
    assert np.array_equal(first.hands(), second.hands())
    assert not np.array_equal(first.hands(), third.hands())
    given = VectorEnv(2)
    given.reset(seed=[int(first.seeds[1]), int(first.seeds[0])])
    assert np.array_equal(given.hands()[0], first.hands()[1])


def test_observation_types_hold_the_same_values() -> None:
    """float32 and int8 observations hold the same zeros and ones."""
    floats, small = VectorEnv(8, dtype=np.float32), VectorEnv(8, dtype="int8")
    floats.reset(seed=2)
    small.reset(seed=2)
    assert floats.batch.observation.dtype == np.float32
    assert small.batch.observation.dtype == np.int8
    rng = np.random.default_rng(2)
    for _ in range(300):
        assert np.array_equal(floats.batch.observation, small.batch.observation)
        actions = floats.random_actions(rng)
        floats.step(actions)
        small.step(actions)


def test_state_restores_every_table() -> None:
    """``set_state(state())`` in a fresh batch continues exactly as the batch it was taken from; a
    state of other options is refused, naming the option."""
    env = VectorEnv(6, "platform", max_deals=3)
    env.reset(seed=4)
    rng = np.random.default_rng(4)
    for _ in range(150):
        env.step(env.random_actions(rng))
    saved = env.state()
    restored = VectorEnv(6, "platform", max_deals=3)
    restored.set_state(saved)
    assert np.array_equal(restored.seeds, env.seeds)
    for _ in range(300):
        for name in ("current_player", "observation", "legal_action_mask"):
            assert np.array_equal(getattr(env.batch, name), getattr(restored.batch, name))
        actions = env.random_actions(rng)
        env.step(actions)
        restored.step(actions)
        assert np.array_equal(env.batch.rewards, restored.batch.rewards)
    with pytest.raises(ValueError, match="max_deals"):
        VectorEnv(6, "platform", max_deals=2).set_state(saved)
    with pytest.raises(ValueError, match="num_envs"):
        VectorEnv(5, "platform", max_deals=3).set_state(saved)
    with pytest.raises(ValueError, match="not a saved VectorEnv state"):
        env.set_state(b"nonsense")


def test_an_illegal_action_changes_nothing() -> None:
    """An illegal entry at any table raises IllegalActionError naming the table and the entry, before
    any table moves; bad shapes and types are refused too."""
    env = VectorEnv(3)
    env.reset(seed=6)
    before = snapshot(env)
    actions = env.random_actions(np.random.default_rng(6))
    illegal = int(np.flatnonzero(env.batch.legal_action_mask[2] == 0)[0])
    actions[2] = illegal
    with pytest.raises(IllegalActionError, match=r"table 2: .* is not legal for seat"):
        env.step(actions)
    actions[2] = NUM_ACTIONS
    with pytest.raises(IllegalActionError, match="table 2: index 1236"):
        env.step(actions)
    after = snapshot(env)
    for name, value in before.items():
        assert np.array_equal(value, after[name]), name
    with pytest.raises(ValueError, match="one action per table"):
        env.step(actions[:2])
    with pytest.raises(ValueError, match="integers"):
        env.step(actions.astype(float))
    env.step(env.random_actions(np.random.default_rng(6)))


def test_arrays_are_read_only_views() -> None:
    """The batch's arrays cannot be written by the caller, and are the same objects' memory after a
    step (rewritten in place)."""
    env = VectorEnv(2)
    batch = env.reset(seed=1)
    with pytest.raises(ValueError, match="read-only"):
        batch.legal_action_mask[0, 0] = 1
    observation = batch.observation
    env.step(env.random_actions(np.random.default_rng(1)))
    assert np.shares_memory(observation, env.batch.observation)
    assert batch.observation.shape == (2, OBSERVATION_SIZE)


def test_options_are_checked() -> None:
    """Rule sets beyond the action table and wrong options are refused, naming what is wrong."""
    with pytest.raises(UnsupportedRulesError):
        VectorEnv(2, HUOPIN)
    with pytest.raises(ValueError, match="num_envs"):
        VectorEnv(0)
    with pytest.raises(ValueError, match="reward"):
        VectorEnv(2, reward="points")
    with pytest.raises(ValueError, match="max_deals"):
        VectorEnv(2, max_deals=0)
    with pytest.raises(ValueError, match="dtype"):
        VectorEnv(2, dtype=np.float64)
    with pytest.raises(ValueError, match="one per table"):
        VectorEnv(2).reset(seed=[1, 2, 3])
    with pytest.raises(RuntimeError, match="reset"):
        VectorEnv(2).step([0, 0])


def test_the_reference_serves_without_the_core() -> None:
    """Where the core is not loaded, VectorEnv is the pure reference under the same API."""
    with native.pure_engine():
        env = VectorEnv(2, preset("classic"), max_deals=1)
        assert env.engine == "pure"
        env.reset(seed=1)
        rng = np.random.default_rng(1)
        for _ in range(30):
            env.step(env.random_actions(rng))
        assert env.batch.legal_action_mask.sum(axis=1).min() > 0


def test_the_example_of_docs_rl_md_runs_as_written() -> None:
    """docs/rl.md, "The batched environment": its example runs as written."""
    text = (Path(__file__).parents[2] / "docs" / "rl.md").read_text(encoding="utf-8")
    example = text[text.index("## The batched environment") :]
    code = example.split("```python\n", 1)[1].split("\n```", 1)[0]
    scope: dict[str, object] = {}
    exec(compile(code, "docs/rl.md", "exec"), scope)
    batch = scope["batch"]
    assert isinstance(batch, Batch)
    assert batch.observation.shape == (1024, OBSERVATION_SIZE)
