"""Faults as an operator meets them (docs/server.md, "When the database goes away" and "Several
processes"), with real ``cardroom serve`` processes, real websockets and a real PostgreSQL: the
database stopped and started again mid-deal, a websocket to a table whose process died, a process that
lost its lease, and the list of live processes the table page falls back on."""

from __future__ import annotations

import contextlib
import json
import os
import signal
import time
import urllib.error
from collections.abc import Generator, Iterator
from pathlib import Path
from typing import Any

import psycopg
import pytest
from sqlalchemy import event
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

from cardroom.server.storage.store import CONNECT_TIMEOUT, make_engine
from tests.server import postgres
from tests.server.api.test_cluster import Client, TryAgainError, play_turns
from tests.server.serving import Server

postgres_cluster = postgres.postgres_cluster
postgres_url = postgres.postgres_url
own_postgres_cluster = postgres.own_postgres_cluster

HUMANS = {"kind": "human"}
LONG_CLOCKS = {"tribute": 600, "return": 600, "lead": 600, "follow": 600}
"""No clock runs out while a test holds a process or the database still."""
RECONNECT = 1012
TRY_AGAIN = 1013


def node_server(folder: Path, database_url: str, name: str, lease: float, *, public: bool = False) -> Server:
    """``cardroom serve`` as one process of several (``--node-url``), named ``name``."""
    folder.mkdir()
    url = "http://127.0.0.1:{port}"
    options = ["--database-url", database_url, "--rate-limits", "0", "--node-name", name]
    options += ["--node-url", url, "--lease-time", str(lease)]
    if public:
        options += ["--public-url", url]
    return Server(folder, *options)


@contextlib.contextmanager
def two_processes(
    database_url: str, tmp_path: Path, lease: float, *, public: bool = False
) -> Iterator[list[Server]]:
    """Processes ``a`` (started first: the primary) and ``b`` on one database."""
    servers: list[Server] = []
    try:
        for name in ("a", "b"):
            servers.append(node_server(tmp_path / name, database_url, name, lease, public=public))
        yield servers
    finally:
        for server in servers:
            server.stop()


def seated_table(entry: Server, clients_at: list[Server]) -> tuple[str, list[Client], Client]:
    """A table of four people created at ``entry``, each player and a spectator connected to
    ``clients_at`` (tried in turn)."""
    table = entry.api("POST", "/api/tables", {"name": "faults", "seats": [HUMANS] * 4, "clocks": LONG_CLOCKS})
    players = []
    for seat in range(4):
        sat = entry.api("POST", f"/api/tables/{table['id']}/seats/{seat}", {"name": f"P{seat}"})
        player = Client(clients_at, table["id"], sat["token"], seat)
        player.open()
        players.append(player)
    spectator = Client(clients_at, table["id"], None, None)
    spectator.open()
    return table["id"], players, spectator


def read_until(client: Client, kind: str, timeout: float = 20.0) -> dict[str, Any]:
    """Read the client's frames until one of type ``kind`` (within ``timeout`` seconds)."""
    deadline = time.monotonic() + timeout
    while True:
        left = deadline - time.monotonic()
        assert left > 0, f"no {kind!r} frame within {timeout} s"
        frame = client.receive(timeout=left)
        if frame["type"] == kind:
            return frame


def closed_with(client: Client, timeout: float = 30.0) -> tuple[int, str]:
    """Read until the server closes the client's socket: its close code and reason."""
    deadline = time.monotonic() + timeout

    def read_all() -> None:
        while True:
            left = deadline - time.monotonic()
            assert left > 0, f"the socket stayed open for {timeout} s"
            client.receive(timeout=left)

    with pytest.raises(ConnectionClosed) as closed:
        read_all()
    assert closed.value.rcvd is not None, "the server sent a close frame"
    return closed.value.rcvd.code, closed.value.rcvd.reason


def next_action(player: Client) -> dict[str, Any]:
    """What the player to act does: pass when it may, else its first legal play."""
    if player.state["can_pass"]:
        return {"type": "pass"}
    legal = player.ask({"type": "legal"}, "legal")["actions"]
    action: dict[str, Any] = next(choice for choice in legal if choice["type"] == "play")
    return action


def refused(server: Server, path: str) -> urllib.error.HTTPError:
    with pytest.raises(urllib.error.HTTPError) as answer:
        server.api("GET", path)
    return answer.value


def joined_frames(server: Server, table_id: str) -> Generator[dict[str, Any]]:
    """A new spectator's frames (``join`` sent): read lazily, each within 20 s."""
    with connect(f"ws://127.0.0.1:{server.port}/ws/tables/{table_id}", open_timeout=10) as ws:
        ws.send(json.dumps({"type": "join", "token": None, "since": 0}))
        while True:
            yield json.loads(ws.recv(timeout=20))


# --- the database goes away ---------------------------------------------------------------------------


@pytest.mark.server_process
def test_while_the_database_is_away_the_table_halts_says_so_and_goes_on_once_it_is_back(
    own_postgres_cluster: postgres.PostgresCluster, tmp_path: Path
) -> None:
    cluster = own_postgres_cluster
    server = node_server(tmp_path / "a", cluster.create_database("room"), "a", lease=30)
    clients: list[Client] = []
    try:
        table_id, players, spectator = seated_table(server, [server])
        clients = [*players, spectator]
        play_turns(players, spectator, 4)
        for client in clients:
            client.drain()
        number = spectator.state["number"]
        hands = {player.seat: player.state["hand"] for player in players}
        actor = next(player for player in players if player.state["turn"] == player.seat)
        action = next_action(actor)

        cluster.stop_server()
        assert actor.ws is not None
        actor.ws.send(json.dumps({"type": "act", "action": action}))
        for client in clients:  # every client is told, at once, that the table cannot store
            halted = read_until(client, "halted")
            assert halted["reason"] == "storage"
            assert "cannot store" in halted["message"]
            assert client.state["number"] == number, "the move that was not stored was not told"
            assert max(client.events) == number
        with pytest.raises(TryAgainError, match="cannot store"):  # a move now is refused, not lost
            actor.ask({"type": "act", "action": action}, "state")

        listing = refused(server, "/api/tables")
        assert listing.code == 503
        assert listing.headers["Retry-After"] == "1"
        assert "database" in json.loads(listing.read())["detail"]
        assert refused(server, "/api/tables/0123456789").code == 503, "not a dropped connection"
        assert server.api("GET", f"/api/tables/{table_id}")["id"] == table_id, "the live table answers"
        arriving = joined_frames(server, table_id)
        kinds = [next(arriving)["type"]]
        while kinds[-1] != "halted":
            kinds.append(next(arriving)["type"])
        assert kinds[0] == "welcome"
        assert "state" not in kinds, "a client arriving meanwhile hears that the table waits, no state"

        cluster.start_server()
        for client in clients:  # nobody sends anything: the table comes back by itself
            state = read_until(client, "state", timeout=30)
            assert state["number"] == number
            if client.seat is not None:
                assert state["hand"] == hands[client.seat]
        assert next(arriving)["type"] == "state", "the client that arrived during the outage too"
        arriving.close()

        play_turns(players, spectator, 4)
        assert spectator.state["number"] > number
        fresh = Client([server], table_id, None, None)
        fresh.open()
        clients.append(fresh)
        assert sorted(fresh.events) == list(range(1, len(fresh.events) + 1)), "no entry lost"
        while len(spectator.events) < len(fresh.events):
            spectator.receive()
        assert fresh.events == spectator.events, "what was told is what is stored"
    finally:
        for client in clients:
            client.sockets.close()
        server.stop()


# --- a table between processes ------------------------------------------------------------------------


@pytest.mark.server_process
def test_a_websocket_to_a_table_whose_process_died_is_accepted_then_told_when_to_try_again(
    postgres_url: str, tmp_path: Path
) -> None:
    """docs/protocol.md, "Close codes": 1013 after an ``unavailable`` error with ``retry_after``, not
    a refused handshake (HTTP 403), which a client cannot tell from a real refusal."""
    with two_processes(postgres_url, tmp_path, lease=60) as (a, b):
        table = a.api("POST", "/api/tables", {"name": "moving", "seats": [HUMANS] * 4})
        a.kill()  # its lease holds for a minute: nobody may serve the table meanwhile

        with connect(f"ws://127.0.0.1:{b.port}/ws/tables/{table['id']}", open_timeout=10) as ws:
            frame = json.loads(ws.recv(timeout=10))
            assert frame["type"] == "error"
            assert frame["code"] == "unavailable"
            assert frame["retry_after"] > 0
            with pytest.raises(ConnectionClosed) as closed:
                ws.recv(timeout=10)
        assert closed.value.rcvd is not None
        assert closed.value.rcvd.code == TRY_AGAIN
        assert "try again" in closed.value.rcvd.reason

        answer = refused(b, f"/api/tables/{table['id']}")
        assert answer.code == 503
        assert answer.headers["Retry-After"] == "1"


def lease_holder(database_url: str, table_id: str) -> str | None:
    with psycopg.connect(database_url, autocommit=True) as connection:
        row = connection.execute("SELECT node FROM leases WHERE key = %s", (f"table:{table_id}",)).fetchone()
    return None if row is None else str(row[0])


@pytest.mark.server_process
def test_a_process_that_lost_its_lease_tells_its_clients_to_reconnect(
    postgres_url: str, tmp_path: Path
) -> None:
    """Process ``a`` hangs past its lease (SIGSTOP), ``b`` takes the table; when ``a`` runs again it
    closes its sockets with 1012 and a reason, and the clients, reconnecting, play on at ``b``."""
    with two_processes(postgres_url, tmp_path, lease=2) as (a, b):
        clients: list[Client] = []
        try:
            table_id, players, spectator = seated_table(a, [a, b])
            clients = [*players, spectator]
            play_turns(players, spectator, 4)
            number = spectator.state["number"]

            os.kill(a.process.pid, signal.SIGSTOP)
            try:
                deadline = time.monotonic() + 30
                while lease_holder(postgres_url, table_id) != "b":
                    assert time.monotonic() < deadline, "b did not take the table"
                    time.sleep(0.2)
            finally:
                os.kill(a.process.pid, signal.SIGCONT)

            for client in clients:
                code, reason = closed_with(client)
                assert code == RECONNECT, (code, reason)
                assert "reconnect" in reason
            for client in clients:
                client.open()
            play_turns(players, spectator, 4)
            assert spectator.state["number"] > number
            assert sorted(spectator.events) == list(range(1, len(spectator.events) + 1))
        finally:
            for client in clients:
                client.sockets.close()


# --- the live processes, for the page ----------------------------------------------------------------


@pytest.mark.server_process
def test_every_process_lists_the_live_processes_public_urls(postgres_url: str, tmp_path: Path) -> None:
    with two_processes(postgres_url, tmp_path, lease=2, public=True) as (a, b):
        deadline = time.monotonic() + 30
        while sorted(a.api("GET", "/api/nodes")["nodes"]) != sorted([a.url, b.url]):
            assert time.monotonic() < deadline, a.api("GET", "/api/nodes")
            time.sleep(0.2)
        assert sorted(b.api("GET", "/api/nodes")["nodes"]) == sorted([a.url, b.url])

        b.kill()
        while a.api("GET", "/api/nodes")["nodes"] != [a.url]:  # once b's lease has expired
            assert time.monotonic() < deadline + 30, a.api("GET", "/api/nodes")
            time.sleep(0.2)

    hidden = node_server(tmp_path / "hidden", postgres_url, "hidden", lease=2)
    alone = Server(tmp_path)
    try:
        assert hidden.url not in hidden.api("GET", "/api/nodes")["nodes"], "no --public-url: not told"
        assert alone.api("GET", "/api/nodes") == {"nodes": []}
    finally:
        hidden.stop()
        alone.stop()


def test_serve_refuses_a_public_url_it_cannot_use(tmp_path: Path) -> None:
    from typer.testing import CliRunner

    from cardroom.cli import app as cli

    for options, named in (
        (["--public-url", "http://room.example:8001"], "--node-url too"),
        (["--node-url", "http://10.0.0.5:8001", "--public-url", "room.example"], "public URL"),
        (["--node-url", "http://10.0.0.5:8001", "--public-url", "http://room.example/x"], "public URL"),
    ):
        result = CliRunner().invoke(cli, ["serve", "--data", str(tmp_path), *options])
        assert result.exit_code == 2, result.output
        assert named in result.output


class CapturedError(Exception):
    """Stops a connection attempt once its parameters are seen."""


def test_a_postgresql_connection_attempt_gives_up_in_seconds() -> None:
    """A database host that does not answer fails a request within ``CONNECT_TIMEOUT`` seconds (libpq's
    ``connect_timeout``) rather than after the system's TCP timeout, minutes in which the event loop
    may wait; a URL's own ``connect_timeout`` wins."""
    for url, wanted in (
        ("postgresql://cardroom@127.0.0.1:9/room", CONNECT_TIMEOUT),
        ("postgresql://cardroom@127.0.0.1:9/room?connect_timeout=2", "2"),
    ):
        engine = make_engine(url)
        seen: list[Any] = []

        def capture(
            _dialect: Any, _record: Any, _args: Any, params: dict[str, Any], seen: list[Any] = seen
        ) -> None:
            seen.append(params.get("connect_timeout"))
            raise CapturedError

        event.listen(engine, "do_connect", capture)
        with pytest.raises(CapturedError):
            engine.connect()
        engine.dispose()
        assert seen == [wanted], url
