"""Two ``cardroom serve`` processes on one PostgreSQL database (docs/server.md, "Several processes"):
each table is owned by one of them through a lease; a client reaching the other is forwarded to the
owner; when the owner is killed (``kill -9``) mid-deal, the other takes the lease, resumes the table
from its log, and the deal goes on with nothing lost or told twice."""

from __future__ import annotations

import contextlib
import json
import os
import signal
import time
import urllib.error
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from websockets.exceptions import ConnectionClosed, InvalidStatus
from websockets.sync.client import ClientConnection, connect

from tests.server import postgres
from tests.server.serving import Server

postgres_cluster = postgres.postgres_cluster
postgres_url = postgres.postgres_url

LEASE = 2.0
"""The lease time the two processes run with: the survivor takes the table within about this."""
HUMANS = {"kind": "human"}


class TryAgainError(Exception):
    """The server said ``unavailable``: nobody can serve the table now (docs/protocol.md)."""


@pytest.fixture
def pair(postgres_url: str, tmp_path: Path) -> Iterator[tuple[Server, Server]]:
    """Process A, then process B (A takes the primary role: it started first)."""
    servers: list[Server] = []
    try:
        for name in ("a", "b"):
            folder = tmp_path / name
            folder.mkdir()
            servers.append(
                Server(
                    folder,
                    *("--database-url", postgres_url, "--rate-limits", "0"),
                    *("--node-url", "http://127.0.0.1:{port}", "--lease-time", str(LEASE)),
                )
            )
        yield servers[0], servers[1]
    finally:
        for server in servers:
            server.stop()


@dataclass
class Client:
    """One websocket client of the table, reconnecting (to ``servers`` in turn) when its socket ends."""

    servers: list[Server]
    table_id: str
    token: str | None
    seat: int | None
    events: dict[int, dict[str, Any]] = field(default_factory=dict)
    state: dict[str, Any] = field(default_factory=dict)
    ws: ClientConnection | None = None
    reconnects: int = 0
    sockets: contextlib.ExitStack = field(default_factory=contextlib.ExitStack)

    def open(self, deadline: float = 30.0) -> None:
        """Connect and join with what was seen so far, trying the servers until one takes it."""
        give_up = time.monotonic() + deadline
        while True:
            for server in self.servers:
                if server.process.poll() is not None:
                    continue
                try:
                    url = f"ws://127.0.0.1:{server.port}/ws/tables/{self.table_id}"
                    self.ws = self.sockets.enter_context(connect(url, open_timeout=5))
                    since = max(self.events, default=0)
                    self.ws.send(json.dumps({"type": "join", "token": self.token, "since": since}))
                    while self.receive()["type"] != "state":
                        pass
                    return
                except (ConnectionClosed, InvalidStatus, OSError, TimeoutError, TryAgainError):
                    self.ws = None
            assert time.monotonic() < give_up, "no server took the client back"
            time.sleep(0.2)

    def receive(self, timeout: float = 15.0) -> dict[str, Any]:
        assert self.ws is not None
        frame: dict[str, Any] = json.loads(self.ws.recv(timeout=timeout))
        if frame["type"] == "error" and frame["code"] == "unavailable":
            raise TryAgainError(frame["message"])
        assert frame["type"] != "error", frame
        if frame["type"] == "event":
            number = frame["number"]
            assert number not in self.events, f"event {number} told twice"
            assert number == max(self.events, default=0) + 1, f"event {number} after {max(self.events)}"
            self.events[number] = frame["event"]
        elif frame["type"] == "state":
            self.state = frame
        return frame

    def drain(self) -> None:
        """Read what has arrived; reconnect when the socket ended (its server stopped)."""
        try:
            while True:
                self.receive(timeout=0.05)
        except TimeoutError:
            return
        except ConnectionClosed:
            self.reconnects += 1
            self.open()

    def ask(self, message: dict[str, Any], answer: str) -> dict[str, Any]:
        assert self.ws is not None
        self.ws.send(json.dumps(message))
        while (frame := self.receive())["type"] != answer:
            pass
        return frame


def play_turns(players: list[Client], spectator: Client, turns: int) -> None:
    """``turns`` actions, each by the seat to act (pass when it may, else its first legal play); a
    client whose server went away meanwhile reconnects and the turn is looked at again."""
    done = 0
    deadline = time.monotonic() + 60
    while done < turns:
        assert time.monotonic() < deadline, [client.state.get("turn") for client in players]
        for client in [*players, spectator]:
            client.drain()
        number = max(client.state.get("number", 0) for client in players)
        due = [
            client
            for client in players
            if client.state.get("number") == number
            and client.state.get("phase") == "play"
            and client.state.get("turn") == client.seat
        ]
        if not due:
            continue
        player = due[0]
        try:
            if player.state["can_pass"]:
                action: dict[str, Any] = {"type": "pass"}
            else:
                legal = player.ask({"type": "legal"}, "legal")["actions"]
                action = next(choice for choice in legal if choice["type"] == "play")
            assert player.ws is not None
            player.ws.send(json.dumps({"type": "act", "action": action}))
            while player.receive()["type"] != "state" or player.state["number"] <= number:
                pass
        except ConnectionClosed:
            player.reconnects += 1
            player.open()
            continue
        done += 1


@pytest.mark.server_process
def test_a_client_at_either_process_is_served_by_the_tables_owner(pair: tuple[Server, Server]) -> None:
    a, b = pair
    table = a.api("POST", "/api/tables", {"name": "two processes", "seats": [HUMANS] * 4})
    assert table["status"] == "waiting"

    assert b.api("GET", f"/api/tables/{table['id']}") == a.api("GET", f"/api/tables/{table['id']}")
    seat = b.api("POST", f"/api/tables/{table['id']}/seats/2", {"name": "Bea"})  # forwarded to A
    assert seat["seat"] == 2
    listed = {line["id"]: line for line in b.api("GET", "/api/tables")["tables"]}  # B lists A's table
    assert [entry["name"] for entry in listed[table["id"]]["seats"]] == [None, None, "Bea", None]
    with pytest.raises(urllib.error.HTTPError) as refused:
        b.api("POST", f"/api/tables/{table['id']}/seats/2", {"name": "Cai"})
    assert refused.value.code == 409, "the owner's refusal comes back as it was"
    with pytest.raises(urllib.error.HTTPError) as too_big:
        b.api("POST", f"/api/tables/{table['id']}/seats/3", {"name": "x" * (1 << 20)})
    assert too_big.value.code == 413, "a body past the limit is refused through the forwarding too"
    assert b.api("GET", "/api/events") == a.api("GET", "/api/events"), "A (primary) answers for the events"

    watcher = Client([b], table["id"], None, None)
    watcher.open()
    assert watcher.events[1]["type"] == "sit"
    assert watcher.ws is not None
    watcher.ws.send("[" * 5000 + "]" * 5000)  # relayed to A, which refuses it as it would its own
    while (frame := json.loads(watcher.ws.recv(timeout=10)))["type"] != "error":
        pass
    assert frame["code"] == "bad_message"


@pytest.mark.server_process
@pytest.mark.slow
def test_killing_the_owner_mid_deal_moves_the_table_to_the_other_process(pair: tuple[Server, Server]) -> None:
    a, b = pair
    table = a.api("POST", "/api/tables", {"name": "kill -9", "seats": [HUMANS] * 4})
    players = []
    for seat, server in enumerate((a, a, b, b)):  # two clients at the owner, two forwarded by B
        sat = server.api("POST", f"/api/tables/{table['id']}/seats/{seat}", {"name": f"P{seat}"})
        client = Client([server, b], table["id"], sat["token"], seat)
        client.open()
        players.append(client)
    spectator = Client([b], table["id"], None, None)
    spectator.open()

    play_turns(players, spectator, 12)
    before = {client.seat: dict(client.state) for client in players}
    seen = dict(spectator.events)
    assert before[0]["deal_number"] == 1
    assert before[0]["phase"] == "play"
    a.kill()
    killed = time.monotonic()

    play_turns(players, spectator, 12)
    moved = time.monotonic() - killed
    assert all(client.reconnects >= 1 for client in players), "every client lost its server and came back"
    after = {client.seat: client.state for client in players}
    assert after[0]["number"] > before[0]["number"]
    assert after[0]["deal_number"] == 1, "the same deal went on"
    for seat in range(4):
        played = len(before[seat]["hand"]) - len(after[seat]["hand"])
        assert 0 <= played <= 27
        assert set(after[seat]["hand"]) <= set(before[seat]["hand"]), "the hand is the one dealt"
    assert moved < 30 + LEASE

    fresh = Client([b], table["id"], None, None)
    fresh.open()
    assert sorted(fresh.events) == list(range(1, len(fresh.events) + 1)), "no entry lost"
    while len(spectator.events) < len(fresh.events):
        spectator.receive()
    assert fresh.events == spectator.events, "what was told before the kill is what is stored"
    assert {number: fresh.events[number] for number in seen} == seen
    line = next(line for line in b.api("GET", "/api/tables")["tables"] if line["id"] == table["id"])
    assert line["status"] == "running"
    assert b.api("GET", "/api/events") == {"events": []}, "B runs the events now"


def workers_of(server: Server) -> list[int]:
    """The worker processes ``cardroom serve --workers`` started (children that run a spawned worker)."""
    pids = []
    for status in Path("/proc").glob("[0-9]*/stat"):
        try:
            parent = int(status.read_text().rsplit(")", 1)[1].split()[1])
            command = (status.parent / "cmdline").read_bytes()
        except (OSError, IndexError, ValueError):
            continue
        if parent == server.process.pid and b"spawn_main" in command:
            pids.append(int(status.parent.name))
    return pids


@pytest.mark.server_process
@pytest.mark.slow
def test_workers_killed_mid_deal_are_started_again_and_take_their_tables_back(
    postgres_url: str, tmp_path: Path
) -> None:
    """``--workers 2``: one address, two processes; kill -9 both mid-deal and the supervisor starts them
    again under their names, so they take their leases back without waiting for them to expire."""
    server = Server(
        tmp_path, "--workers", "2", "--database-url", postgres_url, "--rate-limits", "0", "--lease-time", "60"
    )
    clients: list[Client] = []
    try:
        assert len(workers_of(server)) == 2
        table = server.api("POST", "/api/tables", {"name": "workers", "seats": [HUMANS] * 4})
        for seat in range(4):
            sat = server.api("POST", f"/api/tables/{table['id']}/seats/{seat}", {"name": f"W{seat}"})
            clients.append(Client([server], table["id"], sat["token"], seat))
        clients.append(Client([server], table["id"], None, None))
        for client in clients:
            client.open()
        *players, spectator = clients
        play_turns(players, spectator, 8)
        before = players[0].state["number"]

        first = workers_of(server)
        for pid in first:
            os.kill(pid, signal.SIGKILL)
        killed = time.monotonic()
        play_turns(players, spectator, 8)

        assert time.monotonic() - killed < 30, "long before the 60 s leases expire"
        assert players[0].state["number"] > before
        assert players[0].state["deal_number"] == 1
        again = workers_of(server)
        assert len(again) == 2
        assert not set(again) & set(first)
        fresh = Client([server], table["id"], None, None)
        fresh.open()
        assert sorted(fresh.events) == list(range(1, len(fresh.events) + 1))
        while len(spectator.events) < len(fresh.events):
            spectator.receive()
        assert fresh.events == spectator.events
    finally:
        for client in clients:
            client.sockets.close()
        server.stop()


# --- the command's options ------------------------------------------------------------------------


def test_serve_refuses_a_node_url_it_cannot_use(tmp_path: Path) -> None:
    from typer.testing import CliRunner

    from cardroom.cli import app as cli

    for options, named in (
        (["--node-url", "ftp://10.0.0.5:21"], "node URL"),
        (["--node-url", "10.0.0.5:8001"], "node URL"),
        (["--workers", "2", "--node-url", "http://10.0.0.5:8001"], "not both"),
    ):
        result = CliRunner().invoke(cli, ["serve", "--data", str(tmp_path), *options])
        assert result.exit_code == 2, result.output
        assert named in result.output


def test_serve_passes_the_node_and_the_workers_on(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    import uvicorn
    from typer.testing import CliRunner

    from cardroom.cli import app as cli
    from cardroom.server.api import workers
    from cardroom.server.storage.leases import LEASE_TTL, Node

    apps: list[Any] = []
    monkeypatch.setattr(uvicorn, "run", lambda app, **_options: apps.append(app))
    supervised: list[tuple[int, workers.WorkerOptions]] = []
    monkeypatch.setattr(workers, "serve_workers", lambda count, options: supervised.append((count, options)))
    url = "http://10.0.0.5:8001"

    for given in (["--node-url", url, "--lease-time", "4"], ["--workers", "3", "--port", "9000"]):
        result = CliRunner().invoke(cli, ["serve", "--data", str(tmp_path), *given])
        assert result.exit_code == 0, result.output

    assert len(apps) == 1, "--workers runs the supervisor, not one server"
    count, options = supervised[0]
    assert count == 3
    assert (options.port, options.lease_ttl, options.data) == (9000, LEASE_TTL, tmp_path)
    assert options.settings.bot_workers is not None, "the bots' processes are shared out among the workers"
    assert apps[0].state.node == Node.at(url)
    assert apps[0].state.lease_ttl == 4


@pytest.mark.server_process
def test_a_bot_signs_in_at_either_process_and_is_cut_off_from_the_other(pair: tuple[Server, Server]) -> None:
    """A bot's API token (docs/ladder.md) in the ``Authorization`` header of a socket relayed to the
    table's owner signs it in there; revoked through the other process, the socket is closed by the
    owner's sweep."""
    from tests.server.clients import call, open_account

    a, b = pair
    ann = open_account(a, "Ann")
    created = call(b, "POST", "/api/account/bots", {"name": "Relay Tao"}, ann)
    assert created.status == 201, created
    token, bot_id = created.body["token"], created.body["bot"]["id"]
    table = a.api("POST", "/api/tables", {"name": "bots", "seats": [HUMANS] * 4})
    seat = call(b, "POST", f"/api/tables/{table['id']}/seats/1", {}, {"Authorization": f"Bearer {token}"})
    assert seat.status == 200, "the bearer header is forwarded to the owner"
    url = f"ws://127.0.0.1:{b.port}/ws/tables/{table['id']}"
    with connect(url, open_timeout=10, additional_headers={"Authorization": f"Bearer {token}"}) as ws:
        signed = json.loads(ws.recv(timeout=10))
        assert signed["type"] == "authenticated", signed
        ws.send(json.dumps({"type": "join", "token": seat.body["token"], "since": 0}))
        while json.loads(ws.recv(timeout=10))["type"] != "state":
            pass
        assert call(b, "DELETE", f"/api/account/bots/{bot_id}/token", None, ann).status == 200
        frames = []
        with contextlib.suppress(ConnectionClosed):
            while True:
                frames.append(json.loads(ws.recv(timeout=30)))
        assert frames[-1]["code"] == "token_revoked"
        assert ws.protocol.close_code == 4401
