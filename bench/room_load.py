"""Load on the web card room: a real ``cardroom serve`` (SQLite in a temporary folder) and N tables of
four scripted websocket clients on one asyncio event loop. Each client joins with its seat token; when
its ``state`` says ``to_act`` it finds an action — as a tool does (``legal``, then a seeded choice) or as
a person's page does (pass, the first tribute card offered, or the lowest card as a lead, ``check``ed
first) — waits its think time and sends ``act``, timed until the ``event`` carrying its own action
comes back (the acknowledgement: the server stores an action before it tells anyone). Prints a
Markdown table: actions acknowledged and per second, latency percentiles, errors (``error`` frames,
closed sockets), stalls (acts never acknowledged), the server's peak resident memory, both processes'
CPU (in cores) and the machine's load average, which says how much other work shared the cores.

Run with ``python -m bench.room_load`` (20 tables, 2 s of warm-up, 5 s measured); ``--tables
50,100,200`` runs each count on a fresh server; ``--think 0.5-1.5`` is a person's pace; ``--json PATH``
writes the figures; ``--workers 2`` serves with two processes (``cardroom serve --workers``) and
``--database-url`` on a database of your own (PostgreSQL). Results are in docs/performance.md. The server
runs with its rate limits, idle timeout and per-address limits (websockets, waiting tables) off when it
has them: every client here shares one address.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import inspect
import json
import os
import platform
import random
import shlex
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections import Counter
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed

CLOCK = 3600
"""Every clock at its largest (seconds), so that no seat goes into 托管 however slow the server gets."""
DRAIN = 30.0
"""Seconds an act sent before the end may still take to be acknowledged; later, it counts as a stall."""
CONNECTING = 64
"""Websockets opened at once (the server's listen backlog is larger, its event loop is not)."""


@dataclass
class Tally:
    """What the clients saw, summed over all of them."""

    latencies: list[float] = field(default_factory=list)
    errors: Counter[str] = field(default_factory=Counter)
    stalls: int = 0
    matches: int = 0


@dataclass
class Figures:
    """One run's figures (what ``--json`` writes, one per table count)."""

    tables: int
    clients: int
    bots: int
    think: tuple[float, float]
    seconds: float
    actions: int
    per_second: float
    p50_ms: float
    p90_ms: float
    p99_ms: float
    max_ms: float
    errors: dict[str, int]
    stalls: int
    matches_ended: int
    server_peak_mb: float
    """The server's peak resident memory (with several workers: the sum of each process's peak)."""
    server_cpu: float
    """The server's CPU time over the measured seconds, in cores (1.0: one core busy all the time),
    its workers' and bot processes' included."""
    client_cpu: float
    """The same for this process, which runs every client."""
    load_average: float
    """The machine's one-minute load average at the end: other work shares the cores."""


class Server:
    """``cardroom serve`` in a subprocess on a free port, bots and next deals at once, rate limits off;
    ``options`` added to its command line; with ``profile``, under cProfile (its stats written there when
    it stops)."""

    def __init__(
        self,
        data: Path,
        workers: int = 1,
        database_url: str | None = None,
        options: Sequence[str] = (),
        profile: Path | None = None,
    ) -> None:
        with socket.socket() as sock:
            sock.bind(("127.0.0.1", 0))
            self.port: int = sock.getsockname()[1]
        self.log = data / "server.log"
        self.profile = profile
        python = (
            [sys.executable] if profile is None else [sys.executable, "-m", "cProfile", "-o", str(profile)]
        )
        command = [*python, "-m", "cardroom", "serve", "--port", str(self.port), "--data", str(data)]
        command += ["--bot-delay", "0", "--deal-pause", "0", "--log-level", "warning"]
        command += [*_unlimited(), *options]
        if workers > 1:
            command += ["--workers", str(workers)]
        if database_url is not None:
            command += ["--database-url", database_url]
        env = {key: value for key, value in os.environ.items() if key != "DATABASE_URL"}
        with self.log.open("w") as out:
            self.process = subprocess.Popen(command, stdout=out, stderr=subprocess.STDOUT, env=env)
        deadline = time.monotonic() + 60
        while True:
            if self.process.poll() is not None:
                raise RuntimeError(
                    f"the server exited with {self.process.returncode}:\n{self.log.read_text()}"
                )
            try:
                self.api("GET", "/api/presets")
                return
            except OSError:
                if time.monotonic() > deadline:
                    raise RuntimeError(f"the server did not answer:\n{self.log.read_text()}") from None
                time.sleep(0.1)

    def api(self, method: str, path: str, body: dict[str, Any] | None = None) -> Any:
        data = json.dumps(body).encode() if body is not None else None
        request = urllib.request.Request(f"http://127.0.0.1:{self.port}{path}", data=data, method=method)
        request.add_header("Content-Type", "application/json")
        with urllib.request.urlopen(request, timeout=60) as response:
            return json.loads(response.read())

    def processes(self) -> list[int]:
        """The server's process and its descendants (workers, bot processes)."""
        parents: dict[int, int] = {}
        for stat in Path("/proc").glob("[0-9]*/stat"):
            with contextlib.suppress(OSError, IndexError, ValueError):
                parents[int(stat.parent.name)] = int(stat.read_text().rsplit(")", 1)[1].split()[1])
        found = [self.process.pid]
        for pid in found:
            found += [child for child, parent in parents.items() if parent == pid]
        return found

    def peak_mb(self) -> float:
        """The server's peak resident memory so far (``VmHWM``, summed over its processes), in MB."""
        total = 0.0
        for pid in self.processes():
            with contextlib.suppress(OSError):
                for line in Path(f"/proc/{pid}/status").read_text().splitlines():
                    if line.startswith("VmHWM:"):
                        total += int(line.split()[1]) / 1024
        return total

    def cpu_seconds(self) -> float:
        """CPU time the server's processes have used (user and system)."""
        ticks = 0
        for pid in self.processes():
            with contextlib.suppress(OSError):
                fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
                ticks += int(fields[11]) + int(fields[12])
        return ticks / os.sysconf("SC_CLK_TCK")

    def stop(self) -> None:
        # uvicorn ends by raising the signal again: SIGINT's KeyboardInterrupt lets cProfile write its stats
        self.process.send_signal(signal.SIGINT if self.profile is not None else signal.SIGTERM)
        try:
            self.process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()


def _unlimited() -> list[str]:
    """Options that turn off the rate limits, the idle timeout and the per-address limits (every client
    here is 127.0.0.1: hundreds of websockets, a table waiting at a time), where this server has them."""
    from cardroom.cli.network import serve_command

    known = inspect.signature(serve_command).parameters
    wanted = {
        "rate_limits": ["--rate-limits", "0"],
        "idle_timeout": ["--idle-timeout", "0"],
        "address_sockets": ["--address-sockets", "0"],
        "address_tables": ["--address-tables", "0"],
    }
    return [option for name, options in wanted.items() if name in known for option in options]


def open_tables(server: Server, count: int, bots: int, deals: int | None) -> list[tuple[str, int, str]]:
    """Create ``count`` tables (the last ``bots`` seats heuristic bots) and seat a person at each other
    seat: ``(table id, seat, token)`` for every person."""
    human = {"kind": "human"}
    seats = [human] * (4 - bots) + [{"kind": "bot", "bot": "heuristic"}] * bots
    clocks = dict.fromkeys(("tribute", "return", "lead", "follow"), CLOCK)

    def one(number: int) -> list[tuple[str, int, str]]:
        body = {"name": f"load {number}", "max_deals": deals, "seats": seats, "clocks": clocks}
        table = server.api("POST", "/api/tables", body)["id"]
        sit = f"/api/tables/{table}/seats/"
        return [
            (table, seat, server.api("POST", f"{sit}{seat}", {"name": f"p{number}.{seat}"})["token"])
            for seat in range(4 - bots)
        ]

    with ThreadPoolExecutor(8) as pool:
        return [person for people in pool.map(one, range(count)) for person in people]


def choose(actions: list[dict[str, Any]], policy: str, rng: random.Random) -> dict[str, Any]:
    """``random``: any legal action; ``least``: pass when allowed, else the action of fewest cards."""
    if policy == "random":
        return rng.choice(actions)
    return min(actions, key=lambda action: len(action.get("cards", ())) if action["type"] != "pass" else -1)


def from_state(state: dict[str, Any]) -> dict[str, Any] | None:
    """What a person at the page might do without a list: pass when allowed, give the first tribute or
    return card offered, else lead the lowest card; ``None`` when none of these is open."""
    if state["can_pass"]:
        return {"type": "pass"}
    if state["options"]:
        return {"type": state["phase"], "card": state["options"][0]}
    if state["to_beat"] is None and state["hand"]:
        return {"type": "play", "cards": [state["hand"][-1]]}
    return None


async def play(
    ws: ClientConnection,
    token: str,
    seat: int,
    options: argparse.Namespace,
    window: tuple[float, float],
    tally: Tally,
) -> None:
    """One person at a table until the window's end (``time.perf_counter``) or the match's end; the acts
    sent within the window are timed."""
    rng = random.Random(f"{options.seed}:{token}")
    low, high = options.think
    start, end = window
    sent: float | None = None  # when the act awaiting its acknowledgement was sent
    asking = False  # a legal, a check or an act is out

    async def act(action: dict[str, Any]) -> None:
        nonlocal sent
        if high > 0:
            await asyncio.sleep(rng.uniform(low, high))
        sent = time.perf_counter()
        await ws.send(json.dumps({"type": "act", "action": action}))

    try:
        await ws.send(json.dumps({"type": "join", "token": token, "since": 0}))
        while (left := end + (DRAIN if sent is not None else 0) - time.perf_counter()) > 0:
            async with asyncio.timeout(left):
                frame = json.loads(await ws.recv())
            kind = frame["type"]
            if kind == "event":
                event = frame["event"]
                if event["type"] == "action" and event["seat"] == seat and sent is not None:
                    if sent >= start:
                        tally.latencies.append(time.perf_counter() - sent)
                    sent, asking = None, False
                elif event["type"] == "match_end":
                    tally.matches += 1
                    return
            elif kind == "state" and frame["to_act"] and not asking and time.perf_counter() < end:
                asking = True
                mine = from_state(frame) if options.client == "page" else None
                if mine is None:
                    await ws.send('{"type": "legal"}')
                else:  # the page checks the selection before it offers "play"
                    await ws.send(json.dumps({"type": "check", "action": mine, "id": 1}))
            elif kind == "checked":
                if frame["ok"]:
                    await act(frame["readings"][0])
                else:
                    tally.errors[f"check: {frame['code']}"] += 1
                    await ws.send('{"type": "legal"}')
            elif kind == "legal":
                if frame["actions"]:
                    await act(choose(frame["actions"], options.policy, rng))
                else:
                    asking = False
            elif kind == "error":
                tally.errors[frame["code"]] += 1
                sent, asking = None, False
    except TimeoutError:  # the window (and the drain) ended while waiting
        pass
    except ConnectionClosed:
        tally.errors["closed"] += 1
    if sent is not None:
        tally.stalls += 1


async def drive(
    port: int,
    people: list[tuple[str, int, str]],
    options: argparse.Namespace,
    server_cpu: Callable[[], float],
) -> tuple[Tally, float, float, float]:
    """Open every person's websocket, then let all of them play for ``options.warmup`` and then
    ``options.seconds`` more: what they saw of the acts sent after the warm-up, its seconds, and the CPU
    seconds the server and this process used in them."""
    gate = asyncio.Semaphore(CONNECTING)
    tally = Tally()

    async def opened(table: str) -> ClientConnection:
        async with gate:
            url = f"ws://127.0.0.1:{port}/ws/tables/{table}"
            return await connect(url, max_size=None, ping_interval=None, open_timeout=120)

    sockets = await asyncio.gather(*(opened(table) for table, _, _ in people))
    start = time.perf_counter() + options.warmup
    window = (start, start + options.seconds)
    used: list[tuple[float, float]] = []

    def cpu() -> tuple[float, float]:
        return server_cpu(), time.process_time()

    async def sample() -> None:
        await asyncio.sleep(options.warmup)
        used.append(cpu())
        await asyncio.sleep(options.seconds)
        used.append(cpu())

    sampler = asyncio.create_task(sample())
    try:
        await asyncio.gather(
            *(
                play(ws, token, seat, options, window, tally)
                for ws, (_, seat, token) in zip(sockets, people, strict=True)
            )
        )
    finally:
        sampler.cancel()
        await asyncio.gather(*(ws.close() for ws in sockets), return_exceptions=True)
    used += [cpu()] * (2 - len(used))  # every match ended before the window did
    (server_before, client_before), (server_after, client_after) = used
    seconds = max(0.0, min(time.perf_counter(), window[1]) - start)
    return tally, seconds, server_after - server_before, client_after - client_before


def percentile(values: list[float], share: float) -> float:
    """The nearest-rank percentile of ``values`` (``nan`` when there are none)."""
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(share * len(ordered)) - 1))]


def measure(tables: int, options: argparse.Namespace) -> Figures:
    """One run on a fresh server: ``tables`` tables played for ``options.seconds``."""
    with tempfile.TemporaryDirectory(prefix="cardroom-load-") as folder:
        server = Server(Path(folder), options.workers, options.database_url)
        try:
            people = open_tables(server, tables, options.bots, options.deals)
            tally, seconds, server_cpu, client_cpu = asyncio.run(
                drive(server.port, people, options, server.cpu_seconds)
            )
            peak = server.peak_mb()
        finally:
            server.stop()
    latencies = tally.latencies
    return Figures(
        tables=tables,
        clients=len(people),
        bots=options.bots * tables,
        think=options.think,
        seconds=round(seconds, 2),
        actions=len(latencies),
        per_second=round(len(latencies) / seconds, 1) if seconds > 0 else 0.0,
        p50_ms=round(percentile(latencies, 0.5) * 1e3, 1),
        p90_ms=round(percentile(latencies, 0.9) * 1e3, 1),
        p99_ms=round(percentile(latencies, 0.99) * 1e3, 1),
        max_ms=round(max(latencies, default=float("nan")) * 1e3, 1),
        errors=dict(tally.errors),
        stalls=tally.stalls,
        matches_ended=tally.matches,
        server_peak_mb=round(peak, 1),
        server_cpu=round(server_cpu / seconds, 2) if seconds > 0 else 0.0,
        client_cpu=round(client_cpu / seconds, 2) if seconds > 0 else 0.0,
        load_average=round(os.getloadavg()[0], 1),
    )


def think_range(text: str) -> tuple[float, float]:
    """``0.5-1.5`` (seconds, uniform) or one number."""
    low, _, high = text.partition("-")
    pair = (float(low), float(high or low))
    if not 0 <= pair[0] <= pair[1]:
        raise argparse.ArgumentTypeError(f"think: LOW-HIGH seconds with 0 ≤ LOW ≤ HIGH, got {text!r}")
    return pair


def machine() -> str:
    """The cores, the processor, Python and the commit, for the record."""
    model = platform.machine()
    with contextlib.suppress(OSError):
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
    commit = "?"
    with contextlib.suppress(OSError, subprocess.CalledProcessError):
        git = ["git", "rev-parse", "--short", "HEAD"]
        commit = subprocess.run(git, capture_output=True, text=True, check=True).stdout.strip()
    return f"{os.cpu_count()} cores ({model}), Python {platform.python_version()}, commit {commit}"


def row(figures: Figures) -> str:
    """One run as a line of the Markdown table."""
    errors = ", ".join(f"{code} {count}" for code, count in sorted(figures.errors.items())) or "0"
    return (
        f"| {figures.tables} | {figures.clients} | {figures.seconds:g} | {figures.actions} "
        f"| {figures.per_second:g} | {figures.p50_ms:g} | {figures.p90_ms:g} | {figures.p99_ms:g} "
        f"| {figures.max_ms:g} | {errors} | {figures.stalls} | {figures.server_peak_mb:g} "
        f"| {figures.server_cpu:.0%} | {figures.client_cpu:.0%} | {figures.load_average:.1f} |"
    )


def main(argv: list[str] | None = None) -> list[Figures]:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", default="20", help="tables, or comma-separated counts (default 20)")
    parser.add_argument("--seconds", type=float, default=5.0, help="seconds of play measured (default 5)")
    parser.add_argument(
        "--think", type=think_range, default=(0.0, 0.0), help="seconds before each act: LOW-HIGH"
    )
    parser.add_argument("--deals", type=int, default=None, help="max_deals of each table (default: none)")
    parser.add_argument("--bots", type=int, choices=range(4), default=0, help="heuristic bot seats a table")
    parser.add_argument(
        "--client",
        choices=("tool", "page"),
        default="tool",
        help="tool: ask legal, choose one (default); page: pass, pay or lead the lowest card, checked first",
    )
    parser.add_argument("--policy", choices=("random", "least"), default="random", help="the tool's choice")
    parser.add_argument("--warmup", type=float, default=2.0, help="seconds played before the measure")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--workers", type=int, default=1, help="server processes (cardroom serve --workers)")
    parser.add_argument("--database-url", help="the server's database (default: SQLite, a temporary folder)")
    parser.add_argument("--json", type=Path, help="write the figures here")
    options = parser.parse_args(argv)
    command = shlex.join(["python", "-m", "bench.room_load", *(sys.argv[1:] if argv is None else argv)])
    where = machine()
    low, high = options.think
    clients = f"{options.policy} legal actions" if options.client == "tool" else "checked as a page does"
    serving = f"{options.workers} server process{'es' if options.workers > 1 else ''}"
    database = "PostgreSQL" if (options.database_url or "").startswith("postgres") else "SQLite"
    print(
        f"{command}\n{where}; {serving} on {database}; think {low:g}–{high:g} s, "
        f"warm-up {options.warmup:g} s, {clients}\n"
    )
    print(
        "| tables | people | seconds | acknowledged | actions/s | p50 ms | p90 ms | p99 ms | max ms "
        "| errors | stalls | server peak RSS MB | server CPU | client CPU | load average |"
    )
    print("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|", flush=True)
    found = []
    for count in options.tables.split(","):
        found.append(measure(int(count), options))
        print(row(found[-1]), flush=True)
    if options.json is not None:
        document = {"command": command, "machine": where, "runs": [asdict(figures) for figures in found]}
        options.json.write_text(json.dumps(document, indent=1) + "\n")
    return found


if __name__ == "__main__":
    main()
