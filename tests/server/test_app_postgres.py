"""The whole card room app on a real PostgreSQL server ("SQLite by default and PostgreSQL by URL").

test_store.py checks the store on PostgreSQL; these check the app on it: a four-bot match played to its
end (its record and every row of its log in the database), a human table resumed by a new app on the
same database, and ``DATABASE_URL`` chosen when no URL is given. The server is the throwaway cluster of
``tests/server/postgres.py``: without PostgreSQL these tests skip, naming why, unless
``CARDROOM_REQUIRE_POSTGRES=1`` is set: then they fail.
"""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

import psycopg
import pytest
from fastapi.testclient import TestClient

from cardroom.records import replay
from cardroom.server.api.app import create_app
from tests.ports import free_port
from tests.server import postgres
from tests.server.conftest import FAST, Frame, Peer, create_table, full_table, play_on, room_of, rooms_of

postgres_cluster = postgres.postgres_cluster
postgres_url = postgres.postgres_url

SAME_AFTER_RESTART = (
    "number",
    "hand",
    "turn",
    "phase",
    "to_act",
    "can_pass",
    "levels",
    "deal_number",
    "to_beat",
    "seat",
)
"""The fields of a seat's ``state`` that a new app on the same database must give back unchanged."""


def stored_log(url: str, table_id: str) -> list[tuple[int, dict[str, Any]]]:
    """The table's ``events`` rows as PostgreSQL holds them, read past the app and its store."""
    with psycopg.connect(url) as connection:
        rows = connection.execute(
            "SELECT number, entry FROM events WHERE table_id = %s ORDER BY number", (table_id,)
        ).fetchall()
    return [(number, entry) for number, entry in rows]


def stored_table(url: str, table_id: str) -> tuple[str, dict[str, Any] | None]:
    """The table's status and saved record, as PostgreSQL holds them."""
    with psycopg.connect(url) as connection:
        row = connection.execute("SELECT status, record FROM tables WHERE id = %s", (table_id,)).fetchone()
    assert row is not None, f"table {table_id} is not in the database"
    return row[0], row[1]


def as_stored(value: Any) -> Any:
    """A log entry or record as JSON gives it back (tuples become lists)."""
    return json.loads(json.dumps(value))


def assert_on_postgres(client: TestClient, url: str) -> None:
    """The app's store is the PostgreSQL database of ``url``."""
    store = rooms_of(client).store
    assert store.engine.dialect.name == "postgresql"
    assert store.url.database == url.rsplit("/", 1)[1]


def test_a_four_bot_match_is_played_recorded_and_stored_on_postgres(postgres_url: str) -> None:
    with TestClient(create_app(postgres_url, settings=FAST)) as client:
        assert_on_postgres(client, postgres_url)
        table = create_table(client, seats=[{"kind": "bot", "bot": "random"}] * 4, max_deals=1)
        table_id = table["id"]
        deadline = time.monotonic() + 30
        while not client.get("/api/tables?status=finished").json()["tables"]:  # finished and stored
            assert time.monotonic() < deadline, "the bots did not finish one deal in 30 s"
            time.sleep(0.05)
        record = client.get(f"/api/tables/{table_id}/record").json()
        report = replay(record)
        assert report.ok, report.violation or report.mismatches
        assert report.finished
        assert len(record["deals"]) == 1
        log = as_stored(room_of(client, table_id).table.log)
        listed = client.get("/api/tables?status=finished").json()["tables"]
        assert [line["id"] for line in listed] == [table_id]
        assert client.get("/api/tables").json()["tables"] == []

    # the rows in PostgreSQL hold the whole log, numbered 1, 2, 3 …, and the record
    rows = stored_log(postgres_url, table_id)
    assert [number for number, _ in rows] == list(range(1, len(log) + 1))
    assert [entry for _, entry in rows] == log
    kinds = [entry["type"] for entry in log]
    assert kinds[:2] == ["start", "deal"]
    assert kinds[-2:] == ["deal_end", "match_end"]
    actions = sum(1 for kind in kinds if kind == "action")
    assert actions == sum(len(deal["actions"]) for deal in record["deals"])
    status, saved = stored_table(postgres_url, table_id)
    assert status == "finished"
    assert saved == record

    # a new app on the same database lists the finished table and serves the same record
    with TestClient(create_app(postgres_url, settings=FAST)) as client:
        listed = client.get("/api/tables?status=finished").json()["tables"]
        assert [line["id"] for line in listed] == [table_id]
        assert listed[0]["deal_number"] == 1
        assert client.get(f"/api/tables/{table_id}/record").json() == record


def _join_seat(client: TestClient, table_id: str, token: str, seat: int, since: int = 0) -> Frame:
    """Join ``seat`` on a socket of its own, read its ``state`` and leave."""
    with client.websocket_connect(f"/ws/tables/{table_id}") as ws:
        return Peer(ws, seat).join(token, since=since)


def test_a_human_table_comes_back_on_a_new_app_on_the_same_postgres_database(postgres_url: str) -> None:
    with TestClient(create_app(postgres_url, settings=FAST)) as client:
        assert_on_postgres(client, postgres_url)
        table_id, tokens = full_table(client)
        started = room_of(client, table_id).table.number
        with (
            client.websocket_connect(f"/ws/tables/{table_id}") as ws0,
            client.websocket_connect(f"/ws/tables/{table_id}") as ws1,
            client.websocket_connect(f"/ws/tables/{table_id}") as ws2,
            client.websocket_connect(f"/ws/tables/{table_id}") as ws3,
        ):
            peers = [Peer(ws, seat) for seat, ws in enumerate((ws0, ws1, ws2, ws3))]
            for peer in peers:
                peer.join(tokens[peer.seat])  # type: ignore[index]
            for peer in peers:  # each join changes "connected": read up to the last state
                if not all(seat["connected"] for seat in peer.state["seats"]):  # type: ignore[index]
                    peer.next_state(lambda frame: all(seat["connected"] for seat in frame["seats"]))
            last = play_on(peers, stop=lambda state: state["number"] >= started + 12)
            before = [peer.state for peer in peers]
        assert last["phase"] == "play"
        assert last["deal_number"] == 1
        number = last["number"]
        assert all(state is not None and state["number"] == number for state in before)
        log = as_stored(room_of(client, table_id).table.log)
        assert len(log) == number
    # the first app is gone (its store closed): what it played is in PostgreSQL
    assert [entry for _, entry in stored_log(postgres_url, table_id)] == log
    assert stored_table(postgres_url, table_id)[0] == "running"

    with TestClient(create_app(postgres_url, settings=FAST)) as client:
        assert_on_postgres(client, postgres_url)
        assert table_id in rooms_of(client).rooms, "the running table is resumed when the app starts"
        assert room_of(client, table_id).table.number == number
        listed = client.get("/api/tables").json()["tables"]
        assert [(line["id"], line["status"]) for line in listed] == [(table_id, "running")]
        # every seat's token still holds its seat, with the same hand and the same legal actions
        for seat in range(4):
            again = _join_seat(client, table_id, tokens[seat], seat)
            old = before[seat]
            assert old is not None
            for field in SAME_AFTER_RESTART:
                assert again[field] == old[field], f"seat {seat}: {field}"
            assert [line["cards"] for line in again["seats"]] == [line["cards"] for line in old["seats"]]
        # the seat to act plays on: its next legal action is accepted and stored
        actor = last["turn"]
        with client.websocket_connect(f"/ws/tables/{table_id}") as ws:
            peer = Peer(ws, actor)
            state = peer.join(tokens[actor], since=number)
            assert [frame["type"] for frame in peer.frames] == ["welcome", "state"], "nothing was missed"
            assert state["to_act"], f"seat {actor} is to act"
            action = peer.legal()[0]
            peer.send({"type": "act", "action": action})
            answer = peer.until(lambda frame: frame["type"] in ("event", "error"))
            assert answer["type"] == "event", answer
            assert answer["number"] == number + 1
            assert answer["event"]["type"] == "action"
            assert answer["event"]["seat"] == actor
            assert answer["event"]["by"] == "player"
            after = peer.next_state()
            assert after["number"] == number + 1
            assert after["turn"] != actor or state["phase"] != "play"
        log = as_stored(room_of(client, table_id).table.log)
        assert len(log) == number + 1
    rows = stored_log(postgres_url, table_id)
    assert [entry for _, entry in rows] == log
    assert rows[-1][0] == number + 1


@pytest.mark.parametrize("scheme", ["postgresql", "postgres"])
def test_database_url_in_the_environment_is_used_when_no_url_is_given(
    postgres_url: str, scheme: str, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    assert postgres_url.startswith("postgresql://")
    url = f"{scheme}://" + postgres_url.removeprefix("postgresql://")
    monkeypatch.setenv("DATABASE_URL", url)
    monkeypatch.setenv("CARDROOM_DATA", str(tmp_path / "default-data"))
    with TestClient(create_app(settings=FAST)) as client:
        assert_on_postgres(client, postgres_url)
        table_id = create_table(client, name="From the environment")["id"]
    status, record = stored_table(postgres_url, table_id)
    assert status == "waiting"
    assert record is None
    assert not (tmp_path / "default-data").exists(), "no SQLite file is made when DATABASE_URL is set"


def test_an_explicit_url_wins_over_database_url(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """Needs no PostgreSQL: a ``DATABASE_URL`` naming a server that is not there is never opened."""
    monkeypatch.setenv("DATABASE_URL", f"postgresql://nobody@127.0.0.1:{free_port()}/absent")
    sqlite = tmp_path / "explicit.sqlite3"
    with TestClient(create_app(f"sqlite:///{sqlite}", settings=FAST)) as client:
        assert rooms_of(client).store.engine.dialect.name == "sqlite"
        create_table(client)
    assert sqlite.exists()
