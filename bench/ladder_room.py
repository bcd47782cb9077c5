"""Ladder matches the card room plays at once (docs/ladder.md, "The ladder in the card room"): a real
``cardroom serve`` (SQLite in a temporary folder) with the house bots random and heuristic, and 4 × N bot
accounts (each of its own owner, so that the ladder's owner rules never keep two apart) connected over
``/ws/ladder`` from one asyncio event loop in this process. Each says it is ready; for each ``seat`` it
is told it opens the table's websocket and, at each turn, asks ``legal`` and sends one at random (the
random bot). With ``--ladder-matches N`` the room runs up to N matches (two deal pairs: four one-deal
tables each) at once, the bots on the ladder's clock (5 s a decision). After a warm-up, for ``--seconds``:
matches rated per minute, clock faults in those matches (a bot's decision the clock ran out on: the
server or this process too slow to answer in time, or a table's socket not opened), refusals and sockets
not opened, the mean seconds from a match's first seat to its result, the server's CPU (its process and
its bot processes, in cores) and this process's, and the machine's load average, which says how much
other work shared the cores.

Run with ``python -m bench.ladder_room`` (1, 2, 4, 8, 16 and 32 matches at once, 60 s each); ``--matches
1,4,64`` chooses; ``--profile PATH`` runs the server under cProfile (its stats written to PATH at the end
of the last count). Results are in docs/performance.md.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import secrets
import shlex
import sys
import tempfile
import time
import urllib.request
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed

from bench.room_load import Server, machine

INTERVAL = 1.0
"""Seconds between two looks for matches (``--ladder-interval``): a match's bots wait up to this for the
next one."""


@dataclass
class Tally:
    """What the bots saw: when each match's first seat came and its result, faults and refusals."""

    started: dict[str, float] = field(default_factory=dict)
    rated: dict[str, float] = field(default_factory=dict)
    errors: Counter[str] = field(default_factory=Counter)


@dataclass
class Figures:
    """One count's figures: matches at once (``--ladder-matches``), bot accounts, seconds measured, and
    what was measured in them."""

    matches: int
    bots: int
    seconds: float
    rated: int
    begun: int
    """Matches the bots were seated at, over the whole run (the warm-up included)."""
    per_minute: float
    match_seconds: float
    clock_faults: int
    errors: dict[str, int]
    server_cpu: float
    client_cpu: float
    load_average: float


def request(port: int, method: str, path: str, body: Any, headers: dict[str, str]) -> tuple[Any, str]:
    """One JSON request: the answer's body and its ``Set-Cookie``."""
    data = json.dumps(body).encode() if body is not None else None
    sent = urllib.request.Request(f"http://127.0.0.1:{port}{path}", data=data, method=method)
    sent.add_header("Content-Type", "application/json")
    for name, value in headers.items():
        sent.add_header(name, value)
    with urllib.request.urlopen(sent, timeout=120) as response:
        return json.loads(response.read()), response.headers.get("Set-Cookie", "")


def make_bot(port: int, number: int) -> str:
    """A new owner and its one bot: the bot's API token."""
    answer, cookie = request(
        port, "POST", "/api/accounts", {"name": f"owner {number}", "password": secrets.token_urlsafe(18)}, {}
    )
    headers = {"Cookie": cookie.split(";", 1)[0], "X-CSRF-Token": answer["csrf"]}
    made, _ = request(port, "POST", "/api/account/bots", {"name": f"bench bot {number}"}, headers)
    token: str = made["token"]
    return token


async def play_table(port: int, token: str, seat: dict[str, Any], rng: random.Random, tally: Tally) -> None:
    """Sit where the ladder said and play the deal at random; a socket that cannot be opened (in 10 s) or
    closes is counted as an error (``no_socket``, ``closed``): the seat is then out of time at each turn."""
    try:
        await play_deal(port, token, seat, rng, tally)
    except (OSError, TimeoutError):
        tally.errors["no_socket"] += 1
    except ConnectionClosed:
        tally.errors["closed"] += 1


async def play_deal(port: int, token: str, seat: dict[str, Any], rng: random.Random, tally: Tally) -> None:
    auth = {"Authorization": f"Bearer {token}"}
    async with connect(f"ws://127.0.0.1:{port}/ws/tables/{seat['table']}", additional_headers=auth) as ws:
        await ws.send(json.dumps({"type": "join", "token": seat["token"], "since": 0}))
        acted = 0
        async for message in ws:
            frame = json.loads(message)
            kind = frame["type"]
            if kind == "state":
                if frame["phase"] == "finished":
                    return
                if frame["to_act"] and frame["number"] > acted:
                    acted = frame["number"]
                    await ws.send('{"type": "legal"}')
            elif kind == "legal" and frame["actions"]:
                await ws.send(json.dumps({"type": "act", "action": rng.choice(frame["actions"])}))
            elif kind == "error":
                tally.errors[frame["code"]] += 1


async def bot(port: int, token: str, rng: random.Random, tally: Tally, stop: asyncio.Event) -> None:
    """One bot account: ready on the ladder, playing each seat it is told, until ``stop``."""
    auth = {"Authorization": f"Bearer {token}"}
    tables: set[asyncio.Task[None]] = set()
    async with connect(f"ws://127.0.0.1:{port}/ws/ladder", additional_headers=auth) as ladder:
        await ladder.send('{"type": "ready"}')
        while not stop.is_set():
            try:
                frame = json.loads(await asyncio.wait_for(ladder.recv(), 1.0))
            except TimeoutError:
                continue
            except ConnectionClosed:
                return
            if frame["type"] == "seat":
                tally.started.setdefault(frame["match"], time.monotonic())
                task = asyncio.create_task(play_table(port, token, frame, rng, tally))
                tables.add(task)
                task.add_done_callback(tables.discard)
            elif frame["type"] == "result":
                tally.rated.setdefault(frame["match"], time.monotonic())
    for task in tables:
        task.cancel()


def measure(matches: int, seconds: float, warmup: float, profile: Path | None) -> Figures:
    """One count of matches at once on a fresh server."""
    with tempfile.TemporaryDirectory() as folder:
        options = ["--ladder-house", "random,heuristic", "--ladder-matches", str(matches)]
        options += ["--ladder-interval", str(INTERVAL)]
        server = Server(Path(folder), options=options, profile=profile)
        try:
            with ThreadPoolExecutor(8) as pool:
                tokens = list(pool.map(lambda number: make_bot(server.port, number), range(4 * matches)))
            return asyncio.run(drive(server, tokens, seconds, warmup))
        finally:
            server.stop()


def faults(server: Server) -> int:
    """The bots' faults in the rated matches so far (``GET /api/ladder``): clock faults, as these bots
    send only legal actions (one sent on a stale turn is refused and no fault)."""
    entrants = server.api("GET", "/api/ladder")["entrants"]
    return sum(int(entrant["faults"]) for entrant in entrants)


async def drive(server: Server, tokens: list[str], seconds: float, warmup: float) -> Figures:
    tally = Tally()
    stop = asyncio.Event()
    bots = [
        asyncio.create_task(bot(server.port, token, random.Random(number), tally, stop))
        for number, token in enumerate(tokens)
    ]
    await asyncio.sleep(warmup)
    begin, server_begin, client_begin = time.monotonic(), server.cpu_seconds(), time.process_time()
    rated_before = len(tally.rated)
    faults_before = await asyncio.to_thread(faults, server)
    await asyncio.sleep(seconds)
    end, server_end, client_end = time.monotonic(), server.cpu_seconds(), time.process_time()
    rated = len(tally.rated) - rated_before
    durations = [
        tally.rated[match] - tally.started[match]
        for match, when in tally.rated.items()
        if begin <= when <= end and match in tally.started
    ]
    figures = Figures(
        matches=len(tokens) // 4,
        bots=len(tokens),
        seconds=seconds,
        rated=rated,
        begun=len(tally.started),
        per_minute=60 * rated / (end - begin),
        match_seconds=sum(durations) / len(durations) if durations else float("nan"),
        clock_faults=await asyncio.to_thread(faults, server) - faults_before,
        errors=dict(tally.errors),
        server_cpu=(server_end - server_begin) / (end - begin),
        client_cpu=(client_end - client_begin) / (end - begin),
        load_average=os.getloadavg()[0],
    )
    stop.set()
    await asyncio.gather(*bots, return_exceptions=True)
    return figures


def row(figures: Figures) -> str:
    errors = ", ".join(f"{code} {count}" for code, count in sorted(figures.errors.items())) or "0"
    return (
        f"| {figures.matches} | {figures.bots} | {figures.seconds:g} | {figures.rated} "
        f"| {figures.per_minute:.1f} | {figures.match_seconds:.1f} | {figures.clock_faults} | {errors} "
        f"| {figures.server_cpu:.2f} | {figures.client_cpu:.2f} | {figures.load_average:.1f} |"
    )


def main(argv: list[str] | None = None) -> list[Figures]:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", default="1,2,4,8,16,32", help="matches at once, comma-separated")
    parser.add_argument("--seconds", type=float, default=60.0, help="seconds measured at each count")
    parser.add_argument("--warmup", type=float, default=10.0, help="seconds played before the measure")
    parser.add_argument("--profile", type=Path, help="run the server under cProfile, its stats here")
    options = parser.parse_args(argv)
    command = shlex.join(["python", "-m", "bench.ladder_room", *(sys.argv[1:] if argv is None else argv)])
    print(
        f"{command}\n{machine()}; house bots random and heuristic, 4 bot accounts per match playing "
        f"random legal actions, 5 s clock, interval {INTERVAL:g} s, warm-up {options.warmup:g} s\n"
    )
    print(
        "| matches at once | bots | seconds | rated | matches/min | s per match | clock faults | errors "
        "| server CPU (cores) | client CPU (cores) | load average |"
    )
    print("|---|---|---|---|---|---|---|---|---|---|---|", flush=True)
    found = []
    for count in options.matches.split(","):
        found.append(measure(int(count), options.seconds, options.warmup, options.profile))
        print(row(found[-1]), flush=True)
    return found


if __name__ == "__main__":
    main()
