"""The store's tournaments, players and rated matches, and the migration to them, on SQLite and on a
real PostgreSQL server (skipped without PostgreSQL unless ``CARDROOM_REQUIRE_POSTGRES=1``)."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from alembic.script import ScriptDirectory
from fastapi.testclient import TestClient
from sqlalchemy import text

from cardroom.server.api.app import create_app
from cardroom.server.storage.store import (
    PlayerMatchRow,
    PlayerRow,
    Store,
    StoreError,
    alembic_config,
    default_database_url,
    make_engine,
    migrate,
)
from tests.server import postgres
from tests.server.conftest import CHEAP, FAST, signed_in

postgres_cluster = postgres.postgres_cluster
postgres_url = postgres.postgres_url

T0 = datetime(2025, 12, 1, 9, 0, tzinfo=UTC)


@pytest.fixture(params=["sqlite", "postgresql"])
def url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    if request.param == "sqlite":
        return default_database_url(tmp_path / "data")
    result: str = request.getfixturevalue("postgres_url")
    return result


@pytest.fixture
def store(url: str) -> Iterator[Store]:
    with Store(url) as opened:
        yield opened


def test_tournaments_are_created_replaced_and_listed(store: Store) -> None:
    data = {"phase": "registration", "event": {"config": {"name": "淮安杯"}}, "teams": ["队1"]}
    store.create_tournament("e1", "淮安杯", data, "hash", T0)
    store.create_tournament("e2", "Second", {"phase": "registration"}, "hash2", T0 + timedelta(seconds=1))
    with pytest.raises(StoreError, match="already exists"):
        store.create_tournament("e1", "again", {}, "h", T0)
    row = store.tournament("e1")
    assert row is not None
    assert row.data == data
    assert row.name == "淮安杯"
    assert row.director_hash == "hash"
    assert row.created == T0
    assert row.phase == "registration"
    store.save_tournament("e1", {**data, "phase": "running"}, "running")
    again = store.tournament("e1")
    assert again is not None
    assert again.phase == "running"
    assert again.data["phase"] == "running"
    assert again.updated > T0
    assert [found.id for found in store.tournaments()] == ["e2", "e1"]
    assert store.tournament("nope") is None
    with pytest.raises(StoreError, match="unknown tournament"):
        store.save_tournament("nope", {}, "running")


def test_a_rating_is_saved_once_per_table_with_its_players_lines(store: Store) -> None:
    store.create_table("t1", {"name": "x"}, T0)
    store.set_status("t1", "finished")
    assert store.unrated_tables() == ["t1"]
    players = [
        PlayerRow("ann", "Ann", 27.0, 8.0, 1, 1, 0, 0, 3, 0),
        PlayerRow("张三", "张三", 23.0, 8.0, 1, 0, 0, 1, -3, 1),
    ]
    lines = [PlayerMatchRow(row.key, "t1", T0, {"result": "won" if row.wins else "lost"}) for row in players]
    assert store.save_rating("t1", players, lines)
    assert not store.save_rating("t1", players, lines)  # once only
    assert store.unrated_tables() == []
    assert store.player("ann") == players[0]
    assert store.player("张三") == players[1]
    assert [row.key for row in store.players(["ann"])] == ["ann"]
    (line,) = store.player_matches("张三")
    assert line.table_id == "t1"
    assert line.data == {"result": "lost"}
    assert line.at == T0
    store.create_table("t2", {"name": "y"}, T0)
    store.set_status("t2", "finished")
    updated = PlayerRow("ann", "Ann", 28.0, 7.5, 2, 2, 0, 0, 6, 0)
    assert store.save_rating("t2", [updated], [PlayerMatchRow("ann", "t2", T0 + timedelta(hours=1), {})])
    assert store.player("ann") == updated
    assert [line.table_id for line in store.player_matches("ann")] == ["t2", "t1"]
    assert store.save_rating("t2", [], []) is False
    with pytest.raises(StoreError, match="unknown table"):
        store.save_rating("nope", [], [])


def test_a_database_at_0001_is_migrated_keeping_its_tables(url: str) -> None:
    engine = make_engine(url)
    try:
        migrate(engine, "0001")
        with engine.begin() as connection:
            connection.execute(
                text(
                    "INSERT INTO tables (id, config, status, created, updated) "
                    "VALUES ('old', '{}', 'finished', :t, :t)"
                ),
                {"t": T0},
            )
    finally:
        engine.dispose()
    with Store(url) as store:
        assert store.unrated_tables() == ["old"]  # the server rates it when it starts
        assert store.tournaments() == []
        with store.engine.connect() as connection:
            version = connection.execute(text("SELECT version_num FROM alembic_version")).scalar()
        assert version == ScriptDirectory.from_config(alembic_config()).get_current_head()


def test_an_event_survives_a_restart_on_postgres(postgres_url: str) -> None:
    with TestClient(create_app(postgres_url, settings=FAST, password_hasher=CHEAP)) as client:
        director = signed_in(client, "Director", director=True)
        answer = client.post(
            "/api/events", json={"name": "PG杯", "format": {"deals": 1}}, headers=director
        ).json()
        event_id, headers = answer["event"]["id"], {"X-Director-Token": answer["director_token"]}
        for number in (1, 2):
            players = [{"name": f"PG{number}a", "bot": "random"}, {"name": f"PG{number}b", "bot": "random"}]
            client.post(
                f"/api/events/{event_id}/teams",
                json={"name": f"队{number}", "players": players},
                headers=headers,
            )
        client.post(f"/api/events/{event_id}/start", json={}, headers=headers)
        client.post(f"/api/events/{event_id}/rounds", json={"start": True}, headers=headers)
        deadline = datetime.now(UTC) + timedelta(seconds=20)
        while client.get(f"/api/events/{event_id}").json()["phase"] != "finished":
            assert datetime.now(UTC) < deadline
        before = client.get(f"/api/events/{event_id}").json()
        leaders = client.get("/api/leaderboard").json()
    with TestClient(create_app(postgres_url, settings=FAST)) as client:
        after = client.get(f"/api/events/{event_id}").json()
        assert after["standings"] == before["standings"]
        assert after["rounds"][0]["tables"][0]["result"]
        assert client.get("/api/leaderboard").json() == leaders
        assert leaders["players"] == [], "bots are not rated"
