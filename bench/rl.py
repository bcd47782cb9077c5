"""Throughput of the research interfaces (docs/rl.md) with random agents: steps per second of the
PettingZoo AEC environment, the Gymnasium environment against bots and the OpenSpiel game, and the cost
of the encoding, the mask and the concrete-card choice on their own. Prints a Markdown table.

Run with ``python -m bench.rl`` (``--episodes 20 --matches 2`` by default); needs the ``rl`` extra. It
ends with :mod:`bench.vector` (the batched environment; ``--openguandan DIR`` and ``--vector-seconds``
pass on).
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Callable
from contextlib import AbstractContextManager, nullcontext
from pathlib import Path

import numpy as np

from bench.engines import ratio
from cardroom.guandan import native
from cardroom.guandan.match import Match
from cardroom.guandan.observation import Observation
from cardroom.rl.actions import action_of, legal_action_mask
from cardroom.rl.aec import GuandanAECEnv
from cardroom.rl.encoding import encode_observation, legal_action_features
from cardroom.rl.single import GuandanGymEnv


def aec_steps(episodes: int, seed: int, **options: object) -> tuple[int, int, float]:
    """(agent steps, deals, seconds) of ``episodes`` AEC episodes, uniform over the action mask; the
    observation of every step is built (``last()``), as a learner would."""
    env = GuandanAECEnv(**options)  # type: ignore[arg-type]
    rng = np.random.default_rng(seed)
    steps = deals = 0
    start = time.perf_counter()
    for episode in range(episodes):
        env.reset(seed=seed + episode)
        for _ in env.agent_iter():
            observation, _, terminated, truncated, _ = env.last()
            if terminated or truncated:
                env.step(None)
                continue
            env.step(int(rng.choice(np.flatnonzero(observation["action_mask"]))))
            steps += 1
        deals += len(env.session.match.summaries)
    return steps, deals, time.perf_counter() - start


def gym_steps(episodes: int, seed: int, opponents: str, **options: object) -> tuple[int, int, int, float]:
    """(learner steps, all seats' actions, deals, seconds) of ``episodes`` Gymnasium episodes."""
    env = GuandanGymEnv(opponents=opponents, **options)  # type: ignore[arg-type]
    rng = np.random.default_rng(seed)
    steps = actions = deals = 0
    start = time.perf_counter()
    for episode in range(episodes):
        observation, _ = env.reset(seed=seed + episode)
        terminated = False
        while not terminated:
            action = int(rng.choice(np.flatnonzero(observation["action_mask"])))
            observation, _, terminated, _, _ = env.step(action)
            steps += 1
        actions += env.session.steps
        deals += len(env.session.match.summaries)
    return steps, actions, deals, time.perf_counter() - start


def openspiel_steps(episodes: int, seed: int, max_deals: int) -> tuple[int, int, int, float]:
    """(player moves, chance moves, deals, seconds) of random OpenSpiel games, with the player's
    information-state tensor read before every move."""
    import pyspiel

    import cardroom.rl.openspiel  # noqa: F401 - registers the game

    game = pyspiel.load_game(f"python_cardroom_guandan(max_deals={max_deals})")
    rng = np.random.default_rng(seed)
    moves = chances = deals = 0
    start = time.perf_counter()
    for _ in range(episodes):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes, probabilities = zip(*state.chance_outcomes(), strict=True)
                state.apply_action(int(rng.choice(outcomes, p=probabilities)))
                chances += 1
                continue
            state.information_state_tensor(state.current_player())
            state.apply_action(int(rng.choice(state.legal_actions())))
            moves += 1
        deals += len(state.match.summaries)
    return moves, chances, deals, time.perf_counter() - start


def observations(count: int, seed: int) -> list[Observation]:
    """Observations of the seat to act over random play (card-level choices), ``count`` of them."""
    rng = random.Random(seed)
    found: list[Observation] = []
    while len(found) < count:
        match = Match(max_deals=2)
        while not match.is_over and len(found) < count:
            if match.phase.value == "dealing":
                match.deal_random(rng)
            seat = match.current_player
            assert seat is not None
            observation = match.observation(seat)
            found.append(observation)
            match.apply(rng.choice(observation.legal_actions))
    return found


def per_call(function: Callable[[Observation], object], views: list[Observation]) -> float:
    """Microseconds per call over the observations."""
    start = time.perf_counter()
    for view in views:
        function(view)
    return (time.perf_counter() - start) / len(views) * 1e6


def last_legal(view: Observation) -> object:
    mask = legal_action_mask(view)
    return action_of(int(np.flatnonzero(mask)[-1]), view, check=False)


def engines() -> list[tuple[str, AbstractContextManager[None]]]:
    """The engines to time: the pure one, and the compiled core where it is built."""
    found: list[tuple[str, AbstractContextManager[None]]] = [("pure", native.pure_engine())]
    if native.CORE is not None:
        found.append(("compiled", nullcontext()))
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--episodes", type=int, default=20, help="one-deal episodes per row")
    parser.add_argument("--matches", type=int, default=2, help="whole-match episodes (to passing A)")
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument(
        "--openguandan", type=Path, default=None, help="OpenGuanDan's guandan-java folder, for bench.vector"
    )
    parser.add_argument("--vector-seconds", type=float, default=5.0, help="seconds a row of bench.vector")
    arguments = parser.parse_args()
    episodes, matches, seed = arguments.episodes, arguments.matches, arguments.seed
    print(f"{episodes} one-deal episodes per row and {matches} whole matches, seed {seed}\n")
    print(
        "| interface | agents | engine | episodes | agent steps | agent steps/s | table actions/s | deals/s |"
    )
    print("|---|---|---|---|---|---|---|---|")
    rates: dict[tuple[str, str], float] = {}

    def row(
        interface: str,
        agents: str,
        engine: str,
        count: int,
        steps: int,
        actions: str,
        rate: float,
        deals: float,
    ) -> None:
        rates[interface, engine] = rate
        cells = (interface, agents, engine, count, steps, f"{rate:.0f}", actions, f"{deals:.1f}")
        print(f"| {' | '.join(map(str, cells))} |")
        if engine == "compiled":
            print(f"| {interface} | | compiled ÷ pure | | | {ratio(rate, rates[interface, 'pure'])} | | |")

    for interface, count, options in (
        ("PettingZoo AEC", episodes, {"max_deals": 1}),
        ("PettingZoo AEC, action_features", episodes, {"max_deals": 1, "action_features": True}),
        ("PettingZoo AEC, whole matches", matches, {}),
    ):
        for engine, context in engines():
            with context:
                steps, deals, seconds = aec_steps(count, seed, **options)
            rate = steps / seconds
            row(interface, "4 random (mask)", engine, count, steps, f"{rate:.0f}", rate, deals / seconds)
    for opponents in ("random", "heuristic"):
        for engine, context in engines():
            with context:
                steps, actions, deals, seconds = gym_steps(episodes, seed, opponents, max_deals=1)
            row(
                f"Gymnasium vs {opponents}",
                f"1 random (mask) + 3 {opponents}",
                engine,
                episodes,
                steps,
                f"{actions / seconds:.0f}",
                steps / seconds,
                deals / seconds,
            )
    for engine, context in engines():
        with context:
            moves, chances, deals, seconds = openspiel_steps(episodes, seed, 1)
        row(
            "OpenSpiel (info-state tensor each move)",
            "4 random",
            engine,
            episodes,
            moves,
            f"{(moves + chances) / seconds:.0f} (with {chances} chance moves)",
            moves / seconds,
            deals / seconds,
        )
    views = observations(2000, seed)
    names = [name for name, _ in engines()]
    print(f"\n| per call, 2,000 observations of the seat to act | {' | '.join(f'{n} (µs)' for n in names)} |")
    print(f"|---|{'---|' * len(names)}")
    for name, function in (
        ("`encode_observation`", encode_observation),
        ("`legal_action_mask`", legal_action_mask),
        ("`legal_action_mask` + `action_of` (the last legal entry)", last_legal),
        ("`legal_action_features` (every card-level legal action)", legal_action_features),
    ):
        times = []
        for _, context in engines():
            with context:
                times.append(f"{per_call(function, views):.1f}")
        print(f"| {name} | {' | '.join(times)} |")

    from bench import vector

    print("\n`python -m bench.vector` (the batched environment beside the AEC and OpenGuanDan):\n")
    vector_options = ["--seconds", str(arguments.vector_seconds), "--seed", str(seed)]
    if arguments.openguandan is not None:
        vector_options += ["--openguandan", str(arguments.openguandan)]
    vector.main(vector_options)


if __name__ == "__main__":
    main()
