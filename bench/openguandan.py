"""Cost of OpenGuanDan's protocol (docs/openguandan-protocol.md): the client's decision overhead per
``act`` request beside the competition client's, and our server's frames per second.

1. The client: play requests of ``--deals`` deals of heuristic self-play in our room
   (:class:`~cardroom.openguandan.room.Room`), each taken in by ``cardroom connect --protocol
   openguandan`` — the view updated, the ``actionList`` read, the observation built and the bot's
   choice found in the list (:meth:`Player.choose` with a bot that answers at once: the bot's own
   thinking is left out) — beside the same position's competition ``act`` message taken in by
   ``cardroom connect``. Medians by the length of the list.
2. The server: one room of ``--games`` games played over websockets by four of our clients with the
   random bot, the clients in a process of their own; frames sent per second of the room's wall time
   (from the room's creation to its ``gameOver``). Then the room alone, in memory (no sockets, no
   clients' work), for what the referee and the frames cost.

Run with ``python -m bench.openguandan`` (``--deals 24 --games 2`` by default).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import multiprocessing
import random
import statistics
import time
from typing import Any

from cardroom.bots import HeuristicBot, make_bot
from cardroom.competition.client import ConnectReport, Player
from cardroom.competition.messages import act
from cardroom.competition.order import order_actions
from cardroom.competition.view import SeatView
from cardroom.guandan.deal import Action, Phase
from cardroom.guandan.observation import Observation
from cardroom.openguandan.client import Seating, play
from cardroom.openguandan.frames import Answer
from cardroom.openguandan.room import Room, RoomPhase, random_dealer
from cardroom.openguandan.server import OpenGuanDanServer, ServeConfig
from cardroom.openguandan.view import OpenGuanDanView

BUCKETS = ((1, 49), (50, 199), (200, 399), (400, 699), (700, 3000))


class Fixed:
    """A bot that answers a choice made beforehand (its thinking is not what is timed)."""

    name = "fixed"

    def __init__(self, choice: Action) -> None:
        self.choice = choice

    def act(self, observation: Observation) -> Action:
        return self.choice


Decision = tuple[Observation, dict[str, Any], dict[str, Any], Action]
"""A position: the seat's observation, our OpenGuanDan ``act`` frame and the competition ``act`` message
for it (both as a client receives them, through JSON), and the choice made there."""


def decisions(deals: int, seed: int) -> list[Decision]:
    """Play-stage decisions of ``deals`` deals of heuristic self-play in our room."""
    found: list[Decision] = []
    room = Room(1, deals, random_dealer(random.Random(seed)))
    for seat in range(4):
        room.join(f"u{seat}", None, seat)
    bot = HeuristicBot(random.Random(seed))
    while sum(len(match.deals) for match in room.matches) <= deals:
        seat = next(seat for seat in range(4) if room.request_of(seat) is not None)
        request = room.request_of(seat)
        assert request is not None
        observation = room.match.observation(seat)
        choice = bot.act(observation)
        index = next(i for i, action in enumerate(request.actions) if action == choice)
        if observation.phase is Phase.PLAY:
            competition = act(observation, order_actions(observation))
            found.append((observation, _through_json(request.frame), _through_json(competition), choice))
        frame = request.frame
        extra = (frame["tributePos"], frame["tribute"]) if frame["stage"] == "back" else ()
        room.answer(seat, Answer(request.kind, 1, seat, request.entries[index], *extra))
    return found


def _through_json(message: dict[str, Any]) -> dict[str, Any]:
    value: dict[str, Any] = json.loads(json.dumps(message))
    return value


def take_in(view: SeatView, message: dict[str, Any], choice: Action) -> float:
    """Seconds for a client to take a request in and find the bot's choice in its list."""
    player = Player(Fixed(choice), Fixed(choice), view)
    start = time.perf_counter()
    view.update(message)
    player.choose(message, ConnectReport())
    return time.perf_counter() - start


def client_table(found: list[Decision]) -> None:
    print(f"{len(found)} play requests\n")
    print("| entries | requests | openguandan client (ms) | competition client (ms) |")
    print("|---|---|---|---|")
    for low, high in BUCKETS:
        chosen = [item for item in found if low <= len(item[1]["actionList"]) <= high]
        if not chosen:
            continue
        ours = statistics.median(
            take_in(OpenGuanDanView(seat=o.seat, hand=o.hand, level=o.level), frame, choice)
            for o, frame, _, choice in chosen
        )
        theirs = statistics.median(
            take_in(SeatView(seat=o.seat, hand=o.hand, level=o.level), message, choice)
            for o, _, message, choice in chosen
        )
        print(f"| {low}–{high} | {len(chosen)} | {ours * 1e3:.3f} | {theirs * 1e3:.3f} |")
    everything = [
        take_in(OpenGuanDanView(seat=o.seat, hand=o.hand, level=o.level), frame, choice)
        for o, frame, _, choice in found
    ]
    print(f"\nopenguandan client, every request: mean {statistics.mean(everything) * 1e3:.3f} ms")


# --- the server -------------------------------------------------------------------------------------------


def _clients(port: int, games: int, seed: int) -> None:
    """Four random clients playing room 1 of the server at ``port`` (run in a process of its own)."""

    async def room() -> None:
        url = f"ws://127.0.0.1:{port}"
        made: asyncio.Future[int] = asyncio.get_running_loop().create_future()

        async def seat(number: int) -> None:
            bot, fallback = make_bot("random", seed + number), make_bot("random", seed + 10 + number)
            if number == 0:
                seating = Seating("u0", None, 0, games)
                await play(url, seating, bot, fallback=fallback, on_room=lambda r, _: made.set_result(r))
            else:
                await play(url, Seating(f"u{number}", await made, number), bot, fallback=fallback)

        await asyncio.gather(*(seat(number) for number in range(4)))

    asyncio.run(room())


async def _serve(games: int, seed: int) -> tuple[int, float]:
    server = OpenGuanDanServer(ServeConfig(port=0, seed=seed, rooms=1))
    task = asyncio.create_task(server.run())
    await server.listening.wait()
    clients = multiprocessing.get_context("spawn").Process(target=_clients, args=(server.port, games, seed))
    clients.start()
    while 1 not in server.rooms:  # the clients' process starting is not the server's time
        await asyncio.sleep(0.001)
    start = time.perf_counter()
    report = await task
    seconds = time.perf_counter() - start
    clients.join(60)
    return report.frames_sent, seconds


def in_memory(games: int, seed: int) -> tuple[int, float]:
    """Frames of one room played in memory by random choices, and its seconds."""
    rng = random.Random(seed)
    room = Room(1, games, random_dealer(random.Random(seed)))
    frames = 0
    start = time.perf_counter()
    for seat in range(4):
        frames += len(room.join(f"u{seat}", None, seat))
    while room.phase is RoomPhase.PLAYING:
        seat = next(seat for seat in range(4) if room.request_of(seat) is not None)
        request = room.request_of(seat)
        assert request is not None
        frame = request.frame
        extra = (frame["tributePos"], frame["tribute"]) if frame["stage"] == "back" else ()
        entry = rng.choice(request.entries)
        frames += len(room.answer(seat, Answer(request.kind, 1, seat, entry, *extra)))
    return frames, time.perf_counter() - start


def server_table(games: int, seed: int) -> None:
    sent, seconds = asyncio.run(_serve(games, seed))
    frames, alone = in_memory(games, seed)
    print(f"\n| one room of {games} games, 4 random clients | frames | seconds | frames/s |")
    print("|---|---|---|---|")
    print(
        f"| server over websockets (clients in another process) | {sent} | {seconds:.2f} "
        f"| {sent / seconds:,.0f} |"
    )
    print(f"| the room alone, in memory (random entries) | {frames} | {alone:.2f} | {frames / alone:,.0f} |")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=24)
    parser.add_argument("--games", type=int, default=2)
    parser.add_argument("--seed", type=int, default=1)
    options = parser.parse_args()
    client_table(decisions(options.deals, options.seed))
    server_table(options.games, options.seed)


if __name__ == "__main__":
    main()
