"""Issue 40, "Resources", on a real ``cardroom serve`` with real websockets (docs/server.md,
"Resources" and "Limits"): idle tables leave memory and come back from their log unchanged, however
many old tables are opened (the count of tables in memory, ``GET /api/status``, stays bounded); a
table nobody fills expires; one address's websockets and costly messages are limited together, other
addresses unaffected, also through another server process; a bot pool whose worker the OS killed is
replaced, and the bot table goes on."""

from __future__ import annotations

import json
import os
import signal
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from cardroom.server.api.gate import FLOOD_CLOSE
from cardroom.server.live.rooms import EXPIRED_CLOSE, Rooms
from cardroom.server.live.settings import Settings
from cardroom.server.storage.store import Store
from cardroom.server.tables.config import TableConfig, TableDefaults
from tests.server import postgres
from tests.server.clients import call, closing, frame, joined, open_account, until, websocket
from tests.server.conftest import run_coroutine
from tests.server.serving import Server

postgres_cluster = postgres.postgres_cluster
postgres_url = postgres.postgres_url

LONG = {"tribute": 600, "return": 600, "lead": 600, "follow": 600}
HUMAN = {"kind": "human"}
BOT = {"kind": "bot", "bot": "heuristic"}
WAIT = 30.0
"""Seconds a test waits for the server to get somewhere before it fails (never a measured time)."""


@pytest.fixture
def serve(tmp_path: Path) -> Iterator[Callable[..., Server]]:
    """Start ``cardroom serve`` with these options (stopped after the test)."""
    servers: list[Server] = []

    def start(*options: str) -> Server:
        folder = tmp_path / str(len(servers))
        folder.mkdir()
        servers.append(Server(folder, *options))
        return servers[-1]

    try:
        yield start
    finally:
        for server in servers:
            server.stop()


def loaded(server: Server) -> int:
    """Tables in the server's memory now."""
    count: int = call(server, "GET", "/api/status").body["tables_loaded"]
    return count


def eventually(check: Callable[[], bool], what: str) -> None:
    """Wait until ``check()`` holds, failing after :data:`WAIT` seconds."""
    deadline = time.monotonic() + WAIT
    while not check():
        assert time.monotonic() < deadline, f"never: {what}"
        time.sleep(0.05)


def create(server: Server, *seats: dict[str, str], **body: Any) -> str:
    answer = call(server, "POST", "/api/tables", {"name": "T", "seats": list(seats), "clocks": LONG, **body})
    assert answer.status == 201, answer
    table_id: str = answer.body["id"]
    return table_id


def sit(server: Server, table_id: str, seat: int, name: str) -> str:
    answer = call(server, "POST", f"/api/tables/{table_id}/seats/{seat}", {"name": name})
    assert answer.status == 200, answer
    token: str = answer.body["token"]
    return token


def watched(server: Server, table_id: str) -> dict[str, Any]:
    """A spectator's whole view (welcome, events, state), its clock readings left out."""
    with websocket(server, f"/ws/tables/{table_id}") as ws:
        ws.send(json.dumps({"type": "join", "token": None, "since": 0}))
        frames = [frame(ws)]
        while frames[-1]["type"] != "state":
            frames.append(frame(ws))
    state = {key: value for key, value in frames[-1].items() if key not in ("server_time", "deadline")}
    return {"frames": frames[:-1], "state": state}


# -- tables leave memory and come back -------------------------------------------------------------------


@pytest.mark.server_process
def test_an_idle_table_is_unloaded_and_comes_back_from_its_log_unchanged(
    serve: Callable[..., Server],
) -> None:
    """A waiting table nobody watches leaves memory once idle; reading it (the lobby's line, its
    record) loads nothing; a websocket brings it back exactly as it was (every event and the state),
    and it goes on: its last seats are taken and the match starts, the log numbered on."""
    server = serve("--unload-after", "0.2")
    table_id = create(server, HUMAN, HUMAN, HUMAN, HUMAN)
    sit(server, table_id, 0, "Ann")
    sit(server, table_id, 1, "Bo")
    line = call(server, "GET", f"/api/tables/{table_id}").body
    before = watched(server, table_id)
    eventually(lambda: loaded(server) == 0, "the idle table left memory")

    assert call(server, "GET", f"/api/tables/{table_id}").body == line
    assert call(server, "GET", f"/api/tables/{table_id}/record").status == 200
    assert [row["id"] for row in call(server, "GET", "/api/tables").body["tables"]] == [table_id]
    assert loaded(server) == 0, "reading a table loads nothing"

    with websocket(server, f"/ws/tables/{table_id}") as ws:
        assert joined(ws, None)["number"] == before["state"]["number"]
        assert loaded(server) == 1
    assert watched(server, table_id) == before, "replayed from its log, the table is as it was"
    sit(server, table_id, 2, "Cy")
    token = sit(server, table_id, 3, "Di")
    with websocket(server, f"/ws/tables/{table_id}") as ws:
        state = joined(ws, token)
        assert state["table"]["status"] == "running"
        numbers = [got["number"] for got in watched(server, table_id)["frames"] if got["type"] == "event"]
        assert numbers == list(range(1, len(numbers) + 1))
    eventually(lambda: loaded(server) == 1, "a running table stays in memory (its clock runs)")


@pytest.mark.server_process
def test_a_finished_table_read_or_watched_does_not_stay_in_memory(serve: Callable[..., Server]) -> None:
    """A finished match (four bots, one deal) leaves memory; its lobby line and record are read from
    the store (nothing loaded); watching it loads it, the same to the last frame, until the spectator
    leaves."""
    server = serve("--unload-after", "0.2")
    table_id = create(server, BOT, BOT, BOT, BOT, max_deals=1)
    eventually(
        lambda: call(server, "GET", f"/api/tables/{table_id}").body["status"] == "finished", "the match ended"
    )
    line = call(server, "GET", f"/api/tables/{table_id}").body
    record = call(server, "GET", f"/api/tables/{table_id}/record").body
    seen = watched(server, table_id)
    eventually(lambda: loaded(server) == 0, "the finished table left memory")
    assert call(server, "GET", f"/api/tables/{table_id}").body == line
    assert call(server, "GET", f"/api/tables/{table_id}/record").body == record
    assert loaded(server) == 0
    assert watched(server, table_id) == seen
    eventually(lambda: loaded(server) == 0, "left again once its spectator went")


@pytest.mark.server_process
def test_opening_many_old_tables_keeps_few_in_memory(serve: Callable[..., Server]) -> None:
    """With ``--idle-tables 1`` and a long ``--unload-after``, six tables opened one after another
    never hold more than the one watched and one idle in memory (before: every table opened stayed
    until a restart)."""
    server = serve("--unload-after", "3600", "--idle-tables", "1", "--address-tables", "0")
    tables = [create(server, HUMAN, HUMAN, HUMAN, HUMAN) for _ in range(6)]
    eventually(lambda: loaded(server) <= 1, "past one idle table, the longest idle left memory")
    most = 0
    for table_id in tables:
        with websocket(server, f"/ws/tables/{table_id}") as ws:
            joined(ws, None)
            most = max(most, loaded(server))
    assert most <= 2
    assert loaded(server) <= 2


# -- tables that never fill --------------------------------------------------------------------------------


@pytest.mark.server_process
def test_a_table_nobody_fills_expires(serve: Callable[..., Server]) -> None:
    """``--waiting-expiry 1``: a table still waiting for players after a second is deleted; its seated
    player's socket is told ``table_expired`` and closed with 4410; the lobby no longer lists it and
    its link is 404. A table that filled in time plays on."""
    server = serve("--waiting-expiry", "1")
    waiting = create(server, HUMAN, HUMAN, HUMAN, HUMAN)
    token = sit(server, waiting, 0, "Ann")
    full = create(server, HUMAN, BOT, BOT, BOT)
    sit(server, full, 0, "Bo")
    with websocket(server, f"/ws/tables/{waiting}") as ws:
        joined(ws, token)
        frames, code, reason = closing(ws, timeout=WAIT)
    assert [got["code"] for got in frames if got["type"] == "error"] == ["table_expired"]
    assert code == EXPIRED_CLOSE, (code, reason)
    assert "nobody took its last seat" in reason
    assert call(server, "GET", f"/api/tables/{waiting}").status == 404
    listed = [row["id"] for row in call(server, "GET", "/api/tables").body["tables"]]
    assert listed == [full]
    assert call(server, "GET", f"/api/tables/{full}").body["status"] == "running"


def test_expiry_runs_on_the_rooms_clock(tmp_path: Path) -> None:
    """The same rule on ``Rooms`` alone, its clock moved by hand (no waiting): a table waiting longer
    than ``waiting_expiry`` by that clock is deleted at the next sweep; a younger one, or one that
    started, is kept."""

    async def scenario() -> None:
        now = [time.time()]
        store = Store(f"sqlite:///{tmp_path}/rooms.sqlite3")
        settings = Settings(table_defaults=TableDefaults(bot_delay=0.0), waiting_expiry=60.0, bot_workers=0)
        rooms = Rooms(store, settings, clock=lambda: now[0])
        try:
            humans = TableConfig.from_dict({"name": "T", "seats": [HUMAN] * 4}, settings.table_defaults)
            old = rooms.create(humans).table.id
            started = rooms.create(
                TableConfig.from_dict({"name": "B", "seats": [BOT] * 4}, settings.table_defaults)
            )
            now[0] += 61.0
            young = rooms.create(humans).table.id
            await rooms.settled()
            await rooms.sweep()
            assert store.table(old) is None
            assert old not in rooms.rooms
            assert store.table(young) is not None
            assert store.table(started.table.id) is not None
        finally:
            await rooms.close()
            store.close()

    run_coroutine(scenario())


@pytest.mark.server_process
def test_one_address_may_hold_only_so_many_waiting_tables(serve: Callable[..., Server]) -> None:
    """``--address-tables 2``: a third table waiting for players from the same address is 429, naming
    the limit; a table of bots (it starts at once) is not counted; one that fills frees a place."""
    server = serve("--address-tables", "2")
    first = create(server, HUMAN, HUMAN, HUMAN, HUMAN)
    create(server, HUMAN, HUMAN, HUMAN, HUMAN)
    refused = call(server, "POST", "/api/tables", {"name": "T", "seats": [HUMAN] * 4})
    assert refused.status == 429, refused
    assert refused.body["detail"].startswith(
        "too many tables waiting for players from one address: at most 2"
    )
    create(server, BOT, BOT, BOT, BOT)
    for seat, name in enumerate(("Ann", "Bo", "Cy", "Di")):
        sit(server, first, seat, name)
    create(server, HUMAN, HUMAN, HUMAN, HUMAN)


# -- one address's websockets and costly messages ----------------------------------------------------------


@pytest.mark.server_process
def test_one_address_may_hold_only_so_many_websockets(serve: Callable[..., Server]) -> None:
    """``--address-sockets 3``: from one address a fourth websocket (to a table, or an event page) is
    told ``too_many_connections`` and closed with 4429 before anything is loaded for it; another
    address connects as usual; a socket closed frees a place."""
    server = serve("--address-sockets", "3")
    table_id = create(server, HUMAN, BOT, BOT, BOT)
    path = f"/ws/tables/{table_id}"
    with (
        websocket(server, path, "127.0.0.2") as a,
        websocket(server, path, "127.0.0.2") as b,
        websocket(server, path, "127.0.0.2") as c,
    ):
        for ws in (a, b, c):
            joined(ws, None)
        for refused_path in (path, "/ws/events/none"):
            with websocket(server, refused_path, "127.0.0.2") as refused:
                frames, code, reason = closing(refused)
            assert [got.get("code") for got in frames] == ["too_many_connections"], frames
            assert frames[0]["message"] == "too many connections from one address: at most 3 open at once"
            assert code == FLOOD_CLOSE, (code, reason)
        with websocket(server, path, "127.0.0.3") as other:
            assert joined(other, None)["table"]["id"] == table_id
        a.close()
        eventually(
            lambda: call(server, "GET", "/api/status").body["websockets"] == 2, "the closed socket ended"
        )
        with websocket(server, path, "127.0.0.2") as again:
            assert joined(again, None)["table"]["id"] == table_id


@pytest.mark.server_process
def test_an_event_pages_websocket_gives_its_place_back_when_it_closes(serve: Callable[..., Server]) -> None:
    """``--address-sockets 2``: an event page's websockets, opened and closed one after another, each
    count while open and free their place when closed, so the third is let in like the first (a
    socket counted and never released would lock the address out for good)."""
    server = serve("--address-sockets", "2")
    director = open_account(server, "Dee")
    with Store(f"sqlite:///{server.log.parent / 'cardroom.sqlite3'}") as store:
        assert store.update_account("dee", role="director")
    answer = call(server, "POST", "/api/events", {"name": "Club night"}, director)
    assert answer.status == 201, answer
    path = f"/ws/events/{answer.body['event']['id']}"
    for _ in range(3):
        with websocket(server, path, "127.0.0.4") as ws:
            assert frame(ws)["type"] == "event"
            assert call(server, "GET", "/api/status").body["websockets"] == 1
        eventually(
            lambda: call(server, "GET", "/api/status").body["websockets"] == 0, "the event socket ended"
        )


@pytest.mark.server_process
def test_costly_messages_are_limited_per_address_not_only_per_connection(
    serve: Callable[..., Server],
) -> None:
    """Many sockets on one seat asking ``legal`` (the report: 40, once a second each) share their
    address's budget: with ``--rate-limits 0.1`` (one costly message at once per address, one per
    connection), the second socket's ``legal`` is ``rate_limited`` from one address though its own
    connection has budget left, while another address is answered."""
    server = serve("--rate-limits", "0.1")
    table_id = create(server, HUMAN, BOT, BOT, BOT)
    token = sit(server, table_id, 0, "Ann")
    path = f"/ws/tables/{table_id}"
    with websocket(server, path, "127.0.0.2") as first, websocket(server, path, "127.0.0.2") as second:
        joined(first, token)
        joined(second, token)
        first.send(json.dumps({"type": "legal"}))
        assert until(first, "legal")["type"] == "legal"
        second.send(json.dumps({"type": "legal"}))
        while (got := frame(second))["type"] != "error":
            pass
        assert got["code"] == "rate_limited"
        assert got["refused"] == "legal"
        assert got["message"].startswith("too many costly messages (legal, hint) from one address")
        with websocket(server, path, "127.0.0.3") as other:
            joined(other, token)
            other.send(json.dumps({"type": "legal"}))
            assert until(other, "legal")["type"] == "legal"


@pytest.mark.server_process
def test_limits_count_the_clients_address_through_another_process(
    postgres_url: str, serve: Callable[..., Server]
) -> None:
    """Two processes on one database, ``--address-sockets 1``: websockets to A's table opened through
    B are relayed to A, which counts each by its client's address (carried with the cluster's
    secret), not by B's: a second socket from one address is refused, another address's accepted."""
    options = ("--database-url", postgres_url, "--address-sockets", "1", "--lease-time", "2")
    a, b = (serve(*options, "--node-url", "http://127.0.0.1:{port}") for _ in range(2))
    table_id = create(a, HUMAN, BOT, BOT, BOT)
    path = f"/ws/tables/{table_id}"
    with websocket(b, path, "127.0.0.2") as first:
        assert joined(first, None)["table"]["id"] == table_id
        with websocket(b, path, "127.0.0.2") as refused:
            frames, code, _ = closing(refused)
        assert [got.get("code") for got in frames] == ["too_many_connections"]
        assert code == FLOOD_CLOSE
        with websocket(b, path, "127.0.0.3") as other:
            assert joined(other, None)["table"]["id"] == table_id


# -- the bots' processes ----------------------------------------------------------------------------------


def pool_workers(pid: int) -> list[int]:
    """The server's bot processes: its children started by multiprocessing's spawn (``spawn_main``)."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
            command = (entry / "cmdline").read_bytes()
        except OSError:
            continue
        parent = int(stat.rsplit(")", 1)[1].split()[1])
        if parent == pid and b"spawn_main" in command:
            found.append(int(entry.name))
    return found


@pytest.mark.server_process
@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads the processes from /proc (Linux)")
def test_a_bot_table_goes_on_after_the_os_kills_a_bot_process(serve: Callable[..., Server]) -> None:
    """``kill -9`` of the bots' process (as the OS does when memory runs out) breaks the pool: the
    server starts a new one, says so once in its log, and the four bots' table plays on, each move
    the bot's own (no error logged, no fallback)."""
    server = serve("--bot-workers", "1", "--log-level", "info")
    table_id = create(server, BOT, BOT, BOT, BOT, max_deals=50)
    with websocket(server, f"/ws/tables/{table_id}") as ws:
        joined(ws, None)
        for _ in range(5):
            until(ws, "event")
        workers = pool_workers(server.process.pid)
        assert len(workers) == 1, workers
        os.kill(workers[0], signal.SIGKILL)
        killed_at = until(ws, "event")["number"]
        while until(ws, "event")["number"] < killed_at + 40:
            pass
    log = server.log.read_text()
    assert "BrokenProcessPool" not in log, "before: every bot move failed and logged it, without end"
    assert "Traceback" not in log, log
    assert log.count("the bots' process pool broke") == 1, log
    assert call(server, "GET", "/api/status").body["bot_pool_restarts"] == 1
    assert pool_workers(server.process.pid) not in ([], workers)
