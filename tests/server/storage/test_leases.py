"""Leases (:mod:`cardroom.server.storage.leases`) on SQLite and PostgreSQL: one holder at a time, renewed by
it, free once expired, taken back at once by a process started again under the same name; and the
rooms of two processes on one database, each owning its tables and adopting a dead one's."""

from __future__ import annotations

import asyncio
from collections.abc import Coroutine, Iterator
from concurrent.futures import ThreadPoolExecutor
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from cardroom.server.accounts.accounts import Account
from cardroom.server.accounts.ratings import Ratings
from cardroom.server.api.app import create_app
from cardroom.server.api.cluster import Cluster
from cardroom.server.events.director import Director
from cardroom.server.live.forwarding import CLIENT_HEADER, SECRET_HEADER
from cardroom.server.live.limits import Rate
from cardroom.server.live.rooms import Room, Rooms, TableMovingError
from cardroom.server.live.settings import Settings
from cardroom.server.storage.leases import PRIMARY, Leases, Node, table_key
from cardroom.server.storage.store import LeaseRow, Store, Write, default_database_url
from cardroom.server.tables.config import TableConfig
from tests.server import postgres

postgres_cluster = postgres.postgres_cluster
postgres_url = postgres.postgres_url

A = Node("host:8000", "http://127.0.0.1:8000")
B = Node("host:8001", "http://127.0.0.1:8001")
T0 = datetime(2026, 12, 4, 8, 0, tzinfo=UTC).timestamp()


class Clock:
    """Seconds that the test moves on by hand."""

    def __init__(self) -> None:
        self.now = T0

    def __call__(self) -> float:
        return self.now


@pytest.fixture(params=["sqlite", "postgresql"])
def store(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Store]:
    if request.param == "sqlite":
        url = default_database_url(tmp_path / "data")
    else:
        url = request.getfixturevalue("postgres_url")
    with Store(url) as opened:
        yield opened


def test_a_lease_has_one_holder_until_it_expires(store: Store) -> None:
    clock = Clock()
    a, b = Leases(store, A, 10, clock), Leases(store, B, 10, clock)

    assert a.claim("table:t1").node == A.name
    held = b.claim("table:t1")
    assert (held.node, held.url) == (A.name, A.url), "B is told who holds it and where"
    assert a.holds("table:t1")
    assert not b.holds("table:t1")
    assert b.owner("table:t1") == held

    clock.now += 9
    assert a.renew() == set(), "A renews in time and loses nothing"
    clock.now += 9
    assert b.claim("table:t1").node == A.name, "renewed: still A's"
    clock.now += 11
    assert b.owner("table:t1") is None, "expired: nobody holds it"
    assert b.claim("table:t1").node == B.name
    assert a.renew() == {"table:t1"}, "A learns it lost the table"
    assert not a.holds("table:t1")


def test_the_live_processes_public_urls_are_known_to_every_process(store: Store) -> None:
    """A process with a public URL holds ``node:<name>`` (renewed with its other leases); each lists
    the live ones' URLs, and one that stops renewing drops out once its lease expires."""
    clock = Clock()
    public_a = Node(A.name, A.url, "https://a.example")
    public_b = Node.at("http://127.0.0.1:8001/", B.name, "https://b.example:8443/")
    assert public_b == Node(B.name, B.url, "https://b.example:8443")
    a, b = Leases(store, public_a, 10, clock), Leases(store, public_b, 10, clock)
    hidden = Leases(store, Node("host:8002", "http://127.0.0.1:8002"), 10, clock)
    for leases in (a, b, hidden):
        leases.announce()

    assert hidden.find_nodes() == ["https://a.example", "https://b.example:8443"], "not the one without"
    clock.now += 8
    a.renew()
    clock.now += 8
    assert b.find_nodes() == ["https://a.example"], "b renewed nothing: gone from the list"
    assert b.public_urls == ["https://a.example"]

    for public in ("a.example", "ftp://a.example", "https://a.example/room", "https://a.example/?x=1"):
        with pytest.raises(ValueError, match="public URL"):
            Node(A.name, A.url, public)


def test_a_process_started_again_under_its_name_takes_its_leases_back_at_once(store: Store) -> None:
    clock = Clock()
    Leases(store, A, 10, clock).claim(PRIMARY)
    again = Leases(store, Node(A.name, "http://127.0.0.1:9000"), 10, clock)

    lease = again.claim(PRIMARY)

    assert (lease.node, lease.url) == (A.name, "http://127.0.0.1:9000")


def test_released_leases_are_free_at_once(store: Store) -> None:
    clock = Clock()
    a, b = Leases(store, A, 10, clock), Leases(store, B, 10, clock)
    a.claim("table:t1")
    a.claim("table:t2")

    a.release({"table:t1"})
    assert b.claim("table:t1").node == B.name
    assert b.claim("table:t2").node == A.name
    a.release()
    assert b.claim("table:t2").node == B.name
    assert a.held == set()


def test_the_tables_nobody_holds_are_the_waiting_and_running_ones_without_a_live_lease(store: Store) -> None:
    clock = Clock()
    a = Leases(store, A, 10, clock)
    created = datetime.fromtimestamp(T0, UTC)
    for table_id in ("held", "expired", "free", "over"):
        store.create_table(table_id, {"name": table_id}, created)
    store.write([Write("over", status="finished")])
    a.claim(table_key("held"))
    store.claim(table_key("expired"), B.name, B.url, created, datetime.fromtimestamp(T0 + 1, UTC))
    clock.now += 2

    assert a.orphans() == ["expired", "free"]


def test_a_node_is_named_by_its_host_and_port_unless_named() -> None:
    assert Node.at("http://10.0.0.5:8001/").url == "http://10.0.0.5:8001"
    assert Node.at("http://10.0.0.5:8001").name.endswith(":8001")
    assert Node.at("http://10.0.0.5:8001", "east-1").name == "east-1"
    for bad in ("10.0.0.5:8001", "ftp://host:1", "http://host:1/room"):
        with pytest.raises(ValueError, match="node URL"):
            Node.at(bad)


def in_a_thread(main: Coroutine[Any, Any, None]) -> None:
    """Run ``main`` on an event loop of its own thread (Playwright's tests leave one running here)."""
    with ThreadPoolExecutor(1) as pool:
        pool.submit(asyncio.run, main).result()


# --- two processes' rooms on one database ---------------------------------------------------------

HUMANS: dict[str, Any] = {"name": "t", "seats": [{"kind": "human"}] * 4}


def rooms_of(store: Store, node: Node, clock: Clock) -> Rooms:
    settings = Settings(bot_workers=0)
    return Rooms(store, settings, clock, Leases(store, node, 10, clock))


def test_each_table_lives_in_the_process_that_holds_its_lease(store: Store) -> None:
    async def run() -> None:
        clock = Clock()
        a, b = rooms_of(store, A, clock), rooms_of(store, B, clock)
        try:
            room = a.create(TableConfig.from_dict(HUMANS, a.settings.table_defaults))
            _token, stored = room.sit(0, "Ann")
            await stored
            table_id = room.table.id

            assert a.locate(table_id) is room
            found = b.locate(table_id)
            assert isinstance(found, LeaseRow)
            assert found.url == A.url
            assert b.get(table_id) is None
            assert table_id not in b.rooms
            listed = {line["id"]: line for line in b.listed()}
            assert listed[table_id]["seats"][0]["name"] == "Ann", "B lists it from the stored line"

            clock.now += 11  # A stops renewing (it died)
            assert await b.tend() == 1, "B adopts the table"
            adopted = b.rooms[table_id]
            assert adopted.table.names[0] == "Ann"
            assert adopted.table.number == room.table.number
            assert await a.tend() == 0
            await asyncio.sleep(0)
            assert table_id not in a.rooms, "A lets go of the table it lost"
        finally:
            await a.close()
            await b.close()

    in_a_thread(run())


def test_an_events_table_belongs_to_the_primary_process(store: Store) -> None:
    async def run() -> None:
        clock = Clock()
        a, b = rooms_of(store, A, clock), rooms_of(store, B, clock)
        try:
            assert a.leases is not None
            a.leases.claim(PRIMARY)
            config = dict(HUMANS, event={"id": "e1", "name": "Cup", "round": 1, "table": 1})
            table_id = a.create(TableConfig.from_dict(config, a.settings.table_defaults)).table.id
            a.leases.release()  # A let go, but B is no primary: it may not take an event's table

            assert await b.tend() == 0
            with pytest.raises(TableMovingError, match="try again"):
                b.locate(table_id)
            assert b.leases is not None
            b.leases.claim(PRIMARY)
            assert isinstance(b.locate(table_id), Room)
        finally:
            await a.close()
            await b.close()

    in_a_thread(run())


# --- forwarded requests ---------------------------------------------------------------------------


def test_only_a_request_carrying_the_clusters_secret_may_name_its_client(tmp_path: Path) -> None:
    """The rate limits count by the client's address: a forwarded request names it (the owner never
    sees the client), but a client naming itself is not believed."""
    settings = Settings(bot_workers=0, create_rate=Rate(1, 0.001))
    app = create_app(default_database_url(tmp_path), settings=settings, node=A)
    table = {"name": "t", "seats": [{"kind": "human"}] * 4}
    with TestClient(app) as client:
        with Store(default_database_url(tmp_path)) as store:
            secret = store.cluster_secret()
        assert client.post("/api/tables", json=table).status_code == 201
        for claimed in ("10.0.0.1", "10.0.0.2"):
            forged = {SECRET_HEADER: "not the secret", CLIENT_HEADER: claimed}
            assert client.post("/api/tables", json=table, headers=forged).status_code == 429
        for claimed in ("10.0.0.1", "10.0.0.2"):
            forwarded = {SECRET_HEADER: secret, CLIENT_HEADER: claimed}
            assert client.post("/api/tables", json=table, headers=forwarded).status_code == 201


def test_leases_need_a_database_the_processes_share() -> None:
    with Store("sqlite://") as memory, pytest.raises(ValueError, match="not SQLite in memory"):
        Leases(memory, A)


def test_the_primary_role_and_the_events_move_when_the_primary_process_dies(store: Store) -> None:
    """The primary runs the events; when its lease expires another process takes the role and loads
    them, and the first, should it come back, gives them up."""

    async def run() -> None:
        clock = Clock()
        processes = []
        for node in (A, B):
            rooms = rooms_of(store, node, clock)
            assert rooms.leases is not None
            director = Director(store, rooms)
            processes.append((Cluster(rooms.leases, rooms, director, Ratings(store)), rooms, director))
        (first, rooms_a, director_a), (second, rooms_b, director_b) = processes
        try:
            first.start()
            second.start()
            assert (rooms_a.primary, rooms_b.primary) == (True, False)
            boss = Account("boss", "Boss", "director")
            live, _token = director_a.create(
                {"name": "Cup", "format": {"deals": 1}}, rooms_a.settings.table_defaults, boss
            )
            assert director_b.events == {}, "only the primary runs the events"

            clock.now += 11  # A stops renewing
            await second.tend()
            assert rooms_b.primary
            assert list(director_b.events) == [live.id]
            await first.tend()
            assert not rooms_a.primary
            assert director_a.events == {}, "A learns it lost the role and forgets the events"
        finally:
            await rooms_a.close()
            await rooms_b.close()

    in_a_thread(run())
