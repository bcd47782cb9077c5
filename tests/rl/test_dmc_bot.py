"""The ``dmc`` bot and its NumPy policy (no PyTorch needed): the file format, the choice of the legal
entry of highest Q, the bot found by name through the entry point, and playing in the arena."""

from __future__ import annotations

import io
import random
from collections.abc import Iterator
from pathlib import Path

import pytest

pytest.importorskip("numpy")

import numpy as np

from cardroom.arena.duplicate import ArenaConfig, run_arena
from cardroom.arena.summary import summarize
from cardroom.bots import BOTS, make_bot
from cardroom.guandan.match import Match
from cardroom.rl.actions import NUM_ACTIONS, action_index, legal_action_mask
from cardroom.rl.dmc import bot as dmc_bot
from cardroom.rl.dmc.bot import WEIGHTS_VARIABLE, DmcBot
from cardroom.rl.dmc.policy import PolicyFormatError, QPolicy
from cardroom.rl.encoding import OBSERVATION_SIZE, encode_observation


def small_policy(seed: int = 0, width: int = 16) -> QPolicy:
    """A random policy of a small trunk."""
    rng = np.random.default_rng(seed)
    layers = ((rng.normal(size=(OBSERVATION_SIZE, width)).astype(np.float32), np.zeros(width, np.float32)),)
    return QPolicy(
        layers,
        rng.normal(size=(NUM_ACTIONS, width)).astype(np.float32),
        rng.normal(size=NUM_ACTIONS).astype(np.float32),
        {"frames": 0},
    )


@pytest.fixture
def policy_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """A small policy saved and named by CARDROOM_DMC_WEIGHTS."""
    path = tmp_path / "dmc.npz"
    small_policy().save(path)
    monkeypatch.setenv(WEIGHTS_VARIABLE, str(path))
    dmc_bot.load_policy.cache_clear()
    yield path
    dmc_bot.load_policy.cache_clear()


def test_a_saved_policy_reads_back() -> None:
    """Save then load: the same layers (to float16's precision), entries and meta."""
    policy = small_policy(1)
    buffer = io.BytesIO()
    policy.save(buffer)
    buffer.seek(0)
    loaded = QPolicy.load(buffer)
    assert loaded.meta == {"frames": 0}
    assert np.allclose(loaded.layers[0][0], policy.layers[0][0], rtol=1e-3, atol=1e-3)
    assert np.allclose(loaded.actions, policy.actions, rtol=1e-3, atol=1e-3)


def test_files_that_are_not_policies_are_refused(tmp_path: Path) -> None:
    """Another file, another format or version, or shapes that do not fit: PolicyFormatError."""
    (tmp_path / "text.npz").write_text("not numpy")
    with pytest.raises(PolicyFormatError, match="not a saved policy"):
        QPolicy.load(tmp_path / "text.npz")
    np.savez(tmp_path / "other.npz", format=np.array("something-else"))
    with pytest.raises(PolicyFormatError, match="not a cardroom-dmc-policy file"):
        QPolicy.load(tmp_path / "other.npz")
    np.savez(tmp_path / "future.npz", format=np.array("cardroom-dmc-policy"), version=np.array(99))
    with pytest.raises(PolicyFormatError, match="version 99"):
        QPolicy.load(tmp_path / "future.npz")
    policy = small_policy()
    with pytest.raises(PolicyFormatError, match="entries' vectors"):
        QPolicy(policy.layers, policy.actions[:, :3], policy.bias)


def test_the_sparse_first_layer_is_the_product() -> None:
    """A single observation (summed weight rows) and a batch (the product) give the same Q."""
    policy = small_policy(2)
    match = Match()
    match.deal_random(random.Random(2))
    views = np.stack([encode_observation(match.observation(seat)) for seat in range(4)] * 2)
    assert np.allclose(policy.q_values(views[:1]), policy.q_values(views)[:1], atol=1e-4)


def test_the_bot_plays_the_legal_entry_of_highest_q() -> None:
    """At every decision of a random-seeded match the bot's action is the masked argmax of Q."""
    policy = small_policy(3)
    bot = DmcBot(random.Random(0), policy)
    match = Match(max_deals=2)
    rng = random.Random(3)
    match.deal_random(rng)
    decisions = 0
    while not match.is_over:
        seat = match.current_player
        assert seat is not None
        view = match.observation(seat)
        action = bot.act(view)
        if len(view.legal_actions) > 1:
            q = policy.q_values(encode_observation(view)[np.newaxis])[0]
            q[legal_action_mask(view) == 0] = -np.inf
            assert action_index(action, view) == int(q.argmax())
            decisions += 1
        match.apply(action)
        if match.phase.value == "dealing":
            match.deal_random(rng)
    assert decisions > 50


def test_the_bot_is_found_by_name_and_plays_in_the_arena(policy_file: Path) -> None:
    """``make_bot("dmc")`` (the entry point) plays the policy CARDROOM_DMC_WEIGHTS names, through an
    arena run against random."""
    assert "dmc" in BOTS
    made = make_bot("dmc", 1)
    assert isinstance(made, DmcBot)
    config = ArenaConfig("dmc", "random", deals=2, matches=0, seed=4)
    outcomes = run_arena(config)
    assert len(outcomes) == 4
    assert all(outcome.deals for outcome in outcomes)


def test_a_missing_policy_is_named(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A path that holds no policy fails with the path's error, not later at a decision."""
    monkeypatch.setenv(WEIGHTS_VARIABLE, str(tmp_path / "absent.npz"))
    dmc_bot.load_policy.cache_clear()
    try:
        with pytest.raises(PolicyFormatError, match="not a saved policy"):
            make_bot("dmc")
    finally:
        dmc_bot.load_policy.cache_clear()


def test_the_card_room_s_bot_process_plays_dmc(policy_file: Path) -> None:
    """The card room thinks in spawned processes (cardroom.server.live.bot_runner): one finds ``dmc`` by its
    entry point and the policy by CARDROOM_DMC_WEIGHTS, and answers a legal action."""
    import asyncio

    from cardroom.server.live.bot_runner import BotRunner

    match = Match()
    match.deal_random(random.Random(6))
    seat = match.current_player
    assert seat is not None
    view = match.observation(seat)
    runner = BotRunner(workers=1)
    try:
        action = asyncio.run(runner.decide("guandan", "dmc", 6, view))
    finally:
        runner.close()
    assert match.can(action)


def test_compete_and_connect_seat_the_dmc_bot(policy_file: Path, tmp_path: Path) -> None:
    """``cardroom compete`` seats dmc bots, and ``cardroom connect --bot dmc`` plays a seat of a running
    competition server (the competition protocol's client)."""
    import asyncio
    import threading

    from typer.testing import CliRunner

    from cardroom.cli import app
    from cardroom.competition.server import CompeteConfig, CompeteReport, CompetitionServer

    runner = CliRunner()
    environment = {"COLUMNS": "200", WEIGHTS_VARIABLE: str(policy_file)}
    bots = ["--bot", "0=dmc", "--bot", "1=random", "--bot", "2=dmc", "--bot", "3=random"]
    options = ["--deals", "1", "--matches", "1", "--seed", "5", "--out", str(tmp_path)]
    result = runner.invoke(app, ["compete", "--port", "0", *bots, *options], env=environment)
    assert result.exit_code == 0, result.output
    assert "seat 0: dmc (bot)" in result.output

    server = CompetitionServer(
        CompeteConfig(port=0, bots={0: "random", 1: "random", 2: "random"}, max_deals=1)
    )
    done: list[CompeteReport] = []
    loop = asyncio.new_event_loop()
    thread = threading.Thread(target=lambda: done.append(loop.run_until_complete(server.run())))
    thread.start()
    try:
        for _ in range(200):
            if server.listening.is_set():
                break
            thread.join(0.05)
        url = f"ws://127.0.0.1:{server.port}/game/client3"
        played = runner.invoke(app, ["connect", url, "--bot", "dmc", "--quiet"], env=environment)
    finally:
        thread.join(30)
        loop.close()
    assert played.exit_code == 0, played.output
    assert "the bot failed 0×, chose off the list 0×" in played.output
    assert done[0].seats[3].substitutions == 0


@pytest.fixture
def shipped(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """No CARDROOM_DMC_WEIGHTS: the bot plays the policy shipped in the package."""
    monkeypatch.delenv(WEIGHTS_VARIABLE, raising=False)
    dmc_bot.load_policy.cache_clear()
    yield
    dmc_bot.load_policy.cache_clear()


def test_the_shipped_policy_loads_from_the_package_and_plays_legal_moves(shipped: None) -> None:
    """``cardroom/bots/weights/dmc-v1.npz`` is read from the installed package (no network, no PyTorch):
    the network docs/rl.md describes, and a legal action at every decision of a two-deal match, tribute
    and return included."""
    bot = make_bot("dmc", 0)
    assert isinstance(bot, DmcBot)
    meta = bot.policy.meta
    assert meta["hidden"] == [512, 256]
    assert meta["rules"] == "competition"
    assert meta["frames"] == 76_001_563
    match = Match(max_deals=2)
    rng = random.Random(8)
    match.deal_random(rng)
    decisions = 0
    while not match.is_over:
        seat = match.current_player
        assert seat is not None
        action = bot.act(match.observation(seat))
        assert match.can(action)
        match.apply(action)
        decisions += 1
        if match.phase.value == "dealing":
            match.deal_random(rng)
    assert decisions > 50


def test_the_shipped_policy_beats_random(shipped: None) -> None:
    """On 20 seeded duplicate deal pairs (40 games) the shipped policy wins most deals against random
    (docs/rl.md: 99.2% of 1,000 games at the end of its training)."""
    config = ArenaConfig("dmc", "random", deals=20, matches=0, seed=11)
    team = summarize(config, run_arena(config)).teams[0]
    assert team.deal_win_rate is not None
    assert team.deal_win_rate.estimate is not None
    assert team.deal_win_rate.estimate >= 0.8
