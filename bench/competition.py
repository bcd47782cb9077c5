"""Cost of the competition protocol's adapters (docs/competition-protocol.md) on decision frames of
heuristic self-play: the server building an ``act`` message (the legal actions in the simulator's order,
then the message), and the client (``cardroom connect``) taking it in: the seat's view updated, each
``actionList`` entry read as the seat's action, the observation built and the bot's choice found in the
list. The client is timed matching the list among the seat's own plays with the compiled core (what it
does) and with the pure engine, and reading each entry on its own (what it did before). Prints a
Markdown table.

Run with ``python -m bench.competition`` (``--deals 24`` by default).
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import time
from typing import Any

from bench.engines import ratio
from cardroom.bots import HeuristicBot
from cardroom.competition.messages import act, action_of_entry
from cardroom.competition.order import order_actions
from cardroom.competition.view import SeatView
from cardroom.guandan import native
from cardroom.guandan.deal import Action, Phase
from cardroom.guandan.match import Match
from cardroom.guandan.observation import Observation

BUCKETS = ((1, 49), (50, 199), (200, 399), (400, 699), (700, 3000))


def frames(deals: int, seed: int) -> list[tuple[Observation, dict[str, Any]]]:
    """Play-stage decision frames of ``deals`` first deals of heuristic self-play: each seat's
    observation and the ``act`` message our server sends it, as the client receives it (JSON)."""
    found = []
    for number in range(deals):
        match = Match(max_deals=1)
        match.deal_random(random.Random(seed + number))
        bot = HeuristicBot(random.Random(seed + number))
        while not match.is_over:
            seat = match.current_player
            assert seat is not None
            observation = match.observation(seat)
            if observation.phase is Phase.PLAY:
                message = json.loads(json.dumps(act(observation, order_actions(observation))))
                found.append((observation, message))
            match.apply(bot.act(observation))
    return found


def client_seconds(message: dict[str, Any], observation: Observation, read_alone: bool) -> float:
    """Seconds for the client to take in one ``act`` message and find a choice's index."""
    view = SeatView(seat=observation.seat, hand=observation.hand, level=observation.level)
    choice = observation.legal_actions[-1]
    start = time.perf_counter()
    view.update(message)
    entries: list[Action | None]
    if read_alone:
        entries = [
            action_of_entry(entry, observation.seat, observation.level) for entry in message["actionList"]
        ]
    else:
        entries = view.legal_actions(message)
    view.observation(message, [entry for entry in entries if entry is not None])
    entries.index(choice)
    return time.perf_counter() - start


def server_seconds(observation: Observation) -> float:
    """Seconds for the server to order a seat's legal actions and build its ``act`` message."""
    start = time.perf_counter()
    act(observation, order_actions(observation))
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=24)
    parser.add_argument("--seed", type=int, default=1)
    options = parser.parse_args()
    found = frames(options.deals, options.seed)
    print(f"{len(found)} decision frames of {options.deals} deals\n")
    print(
        "| entries | frames | server: order and act (ms) | client, list matched: compiled (ms) "
        "| client, list matched: pure (ms) | ratio | client: each entry read (ms) |"
    )
    print("|---|---|---|---|---|---|---|")
    for low, high in BUCKETS:
        chosen = [(o, m) for o, m in found if low <= len(m["actionList"]) <= high]
        if not chosen:
            continue
        server = statistics.median(server_seconds(observation) for observation, _ in chosen)
        looked = statistics.median(client_seconds(m, o, read_alone=False) for o, m in chosen)
        with native.pure_engine():
            pure = statistics.median(client_seconds(m, o, read_alone=False) for o, m in chosen)
        alone = statistics.median(client_seconds(m, o, read_alone=True) for o, m in chosen)
        print(
            f"| {low}–{high} | {len(chosen)} | {server * 1e3:.3f} | {looked * 1e3:.3f} | {pure * 1e3:.3f} "
            f"| {ratio(pure, looked)} | {alone * 1e3:.3f} |"
        )


if __name__ == "__main__":
    main()
