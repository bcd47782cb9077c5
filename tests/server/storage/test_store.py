"""The store: tables and their event logs survive, in SQLite and in a real PostgreSQL server.

Every test taking ``url`` runs twice: on a SQLite file in a fresh data folder, and on a fresh database
of a throwaway PostgreSQL cluster (``tests/server/postgres.py``; skipped without PostgreSQL unless
``CARDROOM_REQUIRE_POSTGRES=1``).
"""

from __future__ import annotations

import subprocess
import sys
import threading
from collections.abc import Callable, Iterator
from datetime import UTC, datetime, timedelta, timezone
from pathlib import Path
from typing import Any

import pytest
from alembic.autogenerate import compare_metadata
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import inspect, text

from cardroom.server.accounts.accounts import Accounts
from cardroom.server.storage.store import (
    MIGRATIONS,
    Base,
    Store,
    StoreError,
    TableRow,
    alembic_config,
    database_url,
    default_database_url,
    make_engine,
    migrate,
    normalize_url,
)
from cardroom.server.tables.lookalikes import skeleton
from tests.server import postgres
from tests.server.conftest import CHEAP

postgres_cluster = postgres.postgres_cluster
postgres_url = postgres.postgres_url

ROOT = Path(__file__).resolve().parents[3]
T0 = datetime(2025, 11, 1, 12, 0, 0, 123456, tzinfo=UTC)

CONFIG: dict[str, Any] = {
    "name": "周五晚场 ♠",
    "rules": "competition",
    "max_deals": None,
    "seats": [
        {"kind": "human", "name": "张三"},
        {"kind": "bot", "bot": "heuristic", "name": "机器人·乙"},
        {"kind": "human", "name": "Zoë"},
        {"kind": "bot", "bot": "heuristic", "name": "机器人·丁"},
    ],
    "clocks": {"tribute": 20, "return": 40, "lead": 40, "follow": 20},
    "bot_delay": 0.6,
}


@pytest.fixture(params=["sqlite", "postgresql"])
def url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """A fresh, empty database: a SQLite file in a new data folder, or a new PostgreSQL database."""
    if request.param == "sqlite":
        return default_database_url(tmp_path / "data")
    result: str = request.getfixturevalue("postgres_url")
    return result


@pytest.fixture
def store(url: str) -> Iterator[Store]:
    """A store open on ``url``, closed after the test."""
    with Store(url) as opened:
        yield opened


def sit(seat: int, name: str) -> dict[str, Any]:
    return {"type": "sit", "seat": seat, "name": name, "token_hash": f"hash-{seat}"}


# --- tables and logs ----------------------------------------------------------------------------------


def test_a_new_table_is_waiting_with_its_config(store: Store) -> None:
    store.create_table("t1", CONFIG, T0)

    row = store.table("t1")

    assert row == TableRow(id="t1", config=CONFIG, status="waiting", created=T0, updated=T0)
    assert row.created.tzinfo is not None
    assert store.entries("t1") == []
    assert store.last_number("t1") == 0
    assert store.record("t1") is None


def test_created_keeps_the_instant_whatever_its_zone(store: Store) -> None:
    beijing = timezone(timedelta(hours=8))
    store.create_table("aware", CONFIG, T0.astimezone(beijing))
    store.create_table("naive", CONFIG, T0.replace(tzinfo=None))  # naive values are taken as UTC

    for table_id in ("aware", "naive"):
        row = store.table(table_id)
        assert row is not None
        assert row.created == T0
        assert row.created.utcoffset() == timedelta(0)


def test_a_taken_table_id_is_refused(store: Store) -> None:
    store.create_table("t1", CONFIG, T0)

    with pytest.raises(StoreError, match="'t1' already exists"):
        store.create_table("t1", {"name": "other"}, T0 + timedelta(hours=1))

    row = store.table("t1")
    assert row is not None
    assert row.config == CONFIG


def test_entries_come_back_in_number_order_per_table(store: Store) -> None:
    store.create_table("a", CONFIG, T0)
    store.create_table("b", CONFIG, T0)
    logged: dict[str, list[dict[str, Any]]] = {"a": [], "b": []}
    for number in range(1, 13):  # past 9, so text order ("10" < "2") would show
        for table_id in ("a", "b"):
            entry = {
                "type": "action",
                "seat": number % 4,
                "by": "player",
                "action": {"n": number, "t": table_id},
            }
            store.append(table_id, number, entry)
            logged[table_id].append(entry)

    assert store.entries("a") == logged["a"]
    assert store.entries("b") == logged["b"]
    assert store.last_number("a") == 12


def test_entries_are_ordered_by_number_not_by_arrival(store: Store) -> None:
    store.create_table("t1", CONFIG, T0)
    for number in (3, 1, 2):
        store.append("t1", number, {"type": "n", "number": number})

    assert [entry["number"] for entry in store.entries("t1")] == [1, 2, 3]


def test_a_duplicate_event_number_is_refused_and_the_first_entry_kept(store: Store) -> None:
    store.create_table("t1", CONFIG, T0)
    store.append("t1", 1, sit(0, "张三"))

    with pytest.raises(StoreError, match="'t1' already has event number 1"):
        store.append("t1", 1, sit(0, "李四"))

    store.append("t1", 2, {"type": "start"})  # the store goes on after the refusal
    assert store.entries("t1") == [sit(0, "张三"), {"type": "start"}]


@pytest.mark.parametrize("number", [0, -1, True, 1.0])
def test_event_numbers_are_positive_integers(store: Store, number: Any) -> None:
    store.create_table("t1", CONFIG, T0)

    with pytest.raises(StoreError, match="positive integer"):
        store.append("t1", number, {"type": "start"})

    assert store.entries("t1") == []


def test_an_unknown_table_is_named_in_the_error(store: Store) -> None:
    store.create_table("t1", CONFIG, T0)
    calls: list[Callable[[], object]] = [
        lambda: store.append("nope", 1, {"type": "start"}),
        lambda: store.entries("nope"),
        lambda: store.last_number("nope"),
        lambda: store.set_status("nope", "running"),
        lambda: store.save_record("nope", {"deals": []}),
        lambda: store.record("nope"),
    ]
    for call in calls:
        with pytest.raises(ValueError, match="unknown table 'nope'") as raised:
            call()
        assert raised.type is StoreError

    assert store.table("nope") is None
    assert [row.id for row in store.tables()] == ["t1"]  # nothing was written for "nope"


def test_status_changes_and_touches_updated(store: Store) -> None:
    store.create_table("t1", CONFIG, T0)

    store.set_status("t1", "running")
    running = store.table("t1")
    store.set_status("t1", "finished")
    finished = store.table("t1")

    assert running is not None
    assert finished is not None
    assert running.status == "running"
    assert finished.status == "finished"
    assert running.created == T0
    assert T0 < running.updated <= finished.updated <= datetime.now(UTC)


def test_an_unknown_status_is_refused(store: Store) -> None:
    store.create_table("t1", CONFIG, T0)

    with pytest.raises(StoreError, match="unknown table status 'paused'"):
        store.set_status("t1", "paused")

    row = store.table("t1")
    assert row is not None
    assert row.status == "waiting"


def test_appending_touches_updated(store: Store) -> None:
    store.create_table("t1", CONFIG, T0)

    store.append("t1", 1, {"type": "start"})

    row = store.table("t1")
    assert row is not None
    assert row.updated > T0


def test_the_match_record_round_trips(store: Store) -> None:
    store.create_table("t1", CONFIG, T0)
    record: dict[str, Any] = {
        "format": "cardroom-record",
        "rules": "competition",
        "seats": [{"name": "张三", "kind": "human"}, {"name": "机器人·乙", "kind": "bot"}],
        "deals": [
            {"hands": ["H2 H3 SB", "…"], "actions": [{"seat": 0, "play": ["Pair", "5", ["H5", "S5"]]}]}
        ],
        "result": {"winner": 0, "levels": ["A", "5"], "score": [3, 0]},
        "note": None,
        "ratio": 0.25,
    }

    store.save_record("t1", record)
    assert store.record("t1") == record

    store.save_record("t1", {"replaced": True})
    assert store.record("t1") == {"replaced": True}


def test_tables_are_newest_first_and_filtered_by_status(store: Store) -> None:
    store.create_table("old", CONFIG, T0)
    store.create_table("new", CONFIG, T0 + timedelta(minutes=2))
    store.create_table("mid-b", CONFIG, T0 + timedelta(minutes=1))
    store.create_table("mid-a", CONFIG, T0 + timedelta(minutes=1))  # same instant: by id
    store.set_status("old", "finished")
    store.set_status("mid-a", "running")

    assert [row.id for row in store.tables()] == ["new", "mid-a", "mid-b", "old"]
    assert [row.id for row in store.tables({"waiting", "running"})] == ["new", "mid-a", "mid-b"]
    assert [row.id for row in store.tables(["finished"])] == ["old"]
    assert [row.id for row in store.tables(("running",))] == ["mid-a"]
    assert store.tables([]) == []
    assert {row.id: row.status for row in store.tables()} == {
        "new": "waiting",
        "mid-a": "running",
        "mid-b": "waiting",
        "old": "finished",
    }


def test_non_ascii_json_round_trips(store: Store) -> None:
    names = ["张三", "李四", "王五", "赵六"]
    config = {**CONFIG, "name": "掼蛋 · 升级 🂡", "seats": [{"kind": "human", "name": name} for name in names]}
    store.create_table("中文桌", config, T0)
    for number, name in enumerate(names, start=1):
        store.append("中文桌", number, sit(number - 1, name))
    store.save_record("中文桌", {"seats": names, "title": "第一局"})

    row = store.table("中文桌")
    assert row is not None
    assert row.config == config
    assert [entry["name"] for entry in store.entries("中文桌")] == names
    assert store.record("中文桌") == {"seats": names, "title": "第一局"}


def test_appends_from_worker_threads(store: Store) -> None:
    table_ids = [f"t{i}" for i in range(4)]
    for table_id in table_ids:
        store.create_table(table_id, CONFIG, T0)
    errors: list[BaseException] = []

    def work(table_id: str) -> None:
        try:
            for number in range(1, 11):
                store.append(table_id, number, {"type": "n", "number": number})
        except BaseException as error:  # the assertion below reports it
            errors.append(error)

    threads = [threading.Thread(target=work, args=(table_id,)) for table_id in table_ids]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()

    assert errors == []
    for table_id in table_ids:
        assert [entry["number"] for entry in store.entries(table_id)] == list(range(1, 11))


# --- restart: what the server relies on to resume tables --------------------------------------------


def test_reopening_the_database_finds_everything(url: str) -> None:
    with Store(url) as first:
        first.create_table("running", CONFIG, T0)
        first.create_table("done", CONFIG, T0 + timedelta(seconds=1))
        first.set_status("running", "running")
        for number in range(1, 6):
            first.append("running", number, {"type": "action", "seat": number % 4, "by": "bot"})
        first.set_status("done", "finished")
        first.save_record("done", {"result": {"winner": 1}, "seats": ["张三"]})
        before = first.tables()

    with Store(url) as second:
        assert second.tables() == before
        assert [row.id for row in second.tables({"running"})] == ["running"]
        assert second.entries("running") == [
            {"type": "action", "seat": number % 4, "by": "bot"} for number in range(1, 6)
        ]
        assert second.last_number("running") == 5
        assert second.record("done") == {"result": {"winner": 1}, "seats": ["张三"]}
        second.append("running", 6, {"type": "deal_end"})  # the resumed table goes on
        with pytest.raises(StoreError, match="event number 5"):
            second.append("running", 5, {"type": "again"})


CRASHING_WRITER = """
import os, sys
from datetime import UTC, datetime
from cardroom.server.storage.store import Store
store = Store(sys.argv[1])
store.create_table("t1", {"name": "张三的桌"}, datetime.now(UTC))
store.set_status("t1", "running")
for number in range(1, 21):
    store.append("t1", number, {"type": "action", "number": number})
print("acknowledged", flush=True)
os._exit(9)  # no close, no cleanup: as if the server died here
"""


def test_a_crash_loses_nothing_acknowledged(url: str, tmp_path: Path) -> None:
    result = subprocess.run(
        [sys.executable, "-c", CRASHING_WRITER, url],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert result.returncode == 9, result.stderr
    assert result.stdout.strip() == "acknowledged"

    with Store(url) as reopened:
        assert [row.id for row in reopened.tables({"running"})] == ["t1"]
        assert reopened.entries("t1") == [{"type": "action", "number": number} for number in range(1, 21)]


# --- migrations -----------------------------------------------------------------------------------------


def head_revision() -> str:
    head = ScriptDirectory.from_config(alembic_config()).get_current_head()
    assert head is not None
    return head


def test_opening_migrates_to_head_and_again_changes_nothing(url: str) -> None:
    with Store(url) as first:
        first.create_table("t1", CONFIG, T0)
        first.append("t1", 1, {"type": "start"})

    with Store(url) as second:  # an existing database at head
        migrate(second.engine)  # and once more, explicitly
        with second.engine.connect() as connection:
            versions = connection.execute(text("SELECT version_num FROM alembic_version")).scalars().all()
            names = set(inspect(connection).get_table_names())
        assert versions == [head_revision()]
        assert {"tables", "events", "alembic_version"} <= names
        assert second.entries("t1") == [{"type": "start"}]


def test_the_migrations_are_one_line_with_one_head() -> None:
    scripts = ScriptDirectory.from_config(alembic_config())
    assert scripts.get_heads() == [head_revision()]
    chain = [script.revision for script in scripts.walk_revisions()]
    assert chain == [f"{number:04d}" for number in range(len(chain), 0, -1)], chain


def test_a_database_at_the_previous_head_is_upgraded_with_its_accounts(url: str) -> None:
    """A card room's database from before issue 40 (revision 0004, an account in it) opens at head:
    the account keeps its row and is given its skeleton when the accounts are opened."""
    engine = make_engine(url)
    try:
        migrate(engine, "0004")
        with engine.begin() as connection:
            connection.execute(
                text(
                    "INSERT INTO accounts (key, name, password_hash, role, created) "
                    "VALUES ('ann', 'Ann', 'hash', 'player', :created)"
                ),
                {"created": T0},
            )
    finally:
        engine.dispose()

    with Store(url) as store:
        with store.engine.connect() as connection:
            versions = connection.execute(text("SELECT version_num FROM alembic_version")).scalars().all()
        assert versions == [head_revision()]
        before = store.account("ann")
        assert before is not None
        assert (before.name, before.skeleton) == ("Ann", None)
        Accounts(store, CHEAP)
        after = store.account("ann")
        assert after is not None
        assert after.skeleton == skeleton("Ann")


def test_the_models_match_the_migrations(store: Store) -> None:
    with store.engine.connect() as connection:
        differences = compare_metadata(MigrationContext.configure(connection), Base.metadata)

    assert differences == []


def test_migrations_run_from_any_directory(url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)

    with Store(url) as store:
        store.create_table("t1", CONFIG, T0)

    assert MIGRATIONS.is_relative_to(Path(sys.modules["cardroom"].__file__ or "").parent)
    assert (MIGRATIONS / "env.py").is_file()
    assert not (tmp_path / "alembic.ini").exists()


# --- SQLite specifics and URLs --------------------------------------------------------------------------


def test_sqlite_uses_wal_and_foreign_keys_and_stores_readable_utf8(tmp_path: Path) -> None:
    url = default_database_url(tmp_path / "data")
    with Store(url) as store:
        store.create_table("t1", CONFIG, T0)
        store.append("t1", 1, sit(0, "张三"))
        with store.engine.connect() as connection:
            assert connection.execute(text("PRAGMA journal_mode")).scalar() == "wal"
            assert connection.execute(text("PRAGMA foreign_keys")).scalar() == 1
            raw = connection.execute(text("SELECT entry FROM events")).scalar()
    assert isinstance(raw, str)
    assert "张三" in raw


def test_default_database_url_creates_the_data_folder(tmp_path: Path) -> None:
    folder = tmp_path / "a" / "b"

    url = default_database_url(folder)

    assert folder.is_dir()
    assert url == f"sqlite:///{folder.resolve() / 'cardroom.sqlite3'}"
    with Store(url):
        pass
    assert (folder / "cardroom.sqlite3").is_file()


def test_a_sqlite_url_in_a_missing_folder_is_created(tmp_path: Path) -> None:
    with Store(f"sqlite:///{tmp_path / 'new' / 'room.db'}") as store:
        store.create_table("t1", CONFIG, T0)
    assert (tmp_path / "new" / "room.db").is_file()


def test_database_url_prefers_explicit_then_environment_then_default(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("DATABASE_URL", "postgresql://env@db/cardroom")
    assert database_url("sqlite:///explicit.db", tmp_path) == "sqlite:///explicit.db"
    assert database_url(None, tmp_path) == "postgresql://env@db/cardroom"

    monkeypatch.delenv("DATABASE_URL")
    assert database_url(None, tmp_path / "data") == default_database_url(tmp_path / "data")
    assert (tmp_path / "data").is_dir()


@pytest.mark.parametrize(
    ("given", "driver"),
    [
        ("postgresql://u:pw@host:5432/db", "postgresql+psycopg"),
        ("postgres://u@host/db", "postgresql+psycopg"),
        ("postgresql+psycopg://u@host/db", "postgresql+psycopg"),
        ("sqlite:///data/cardroom.sqlite3", "sqlite"),
    ],
)
def test_postgres_urls_use_psycopg_3(given: str, driver: str) -> None:
    url = normalize_url(given)

    assert url.drivername == driver
    assert url.render_as_string(hide_password=False).split("://", 1)[1] == given.split("://", 1)[1]


@pytest.mark.parametrize("given", ["mysql://u@host/db", "not a url"])
def test_other_databases_are_refused(given: str) -> None:
    with pytest.raises(StoreError):
        Store(given)
