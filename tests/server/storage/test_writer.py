"""The store writer (issue 25): commits leave the event loop, many tables' entries go in one
transaction, a barrier waits for what came before it, and a failed write never leaves a gap in a log."""

from __future__ import annotations

import threading
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

from cardroom.server.storage.store import Store, StoreError, Write
from cardroom.server.storage.writer import StoreWriter


def entry(number: int) -> dict[str, Any]:
    return {"type": "sit", "seat": number % 4, "name": f"P{number}", "token_hash": "h", "at": float(number)}


@pytest.fixture
def store(tmp_path: Path) -> Store:
    made = Store(f"sqlite:///{tmp_path}/writer.sqlite3")
    for table_id in ("a", "b"):
        made.create_table(table_id, {"name": table_id}, datetime.now(UTC))
    return made


def test_writes_are_stored_in_order_off_the_callers_thread(store: Store) -> None:
    writer = StoreWriter(store)
    assert not writer.inline, "a database in a file is written by the writer's own thread"
    threads: list[str] = []
    write = store.write

    def recorded(writes: Any) -> None:
        threads.append(threading.current_thread().name)
        write(writes)

    store.write = recorded  # type: ignore[method-assign]
    futures = [writer.submit(Write("a", ((number, entry(number)),))) for number in range(1, 41)]
    futures.append(writer.submit(Write("b", ((1, entry(1)), (2, entry(2))), status="running")))
    writer.barrier().result(timeout=10)
    assert all(future.done() and future.exception() is None for future in futures)
    assert set(threads) == {"cardroom store writer"}, "never on the caller's thread"
    assert [item["name"] for item in store.entries("a")] == [f"P{number}" for number in range(1, 41)]
    assert len(store.entries("b")) == 2
    assert store.table("b").status == "running"  # type: ignore[union-attr]
    writer.close()


def test_one_transaction_writes_all_or_nothing(store: Store) -> None:
    store.write([Write("a", ((1, entry(1)),))])
    with pytest.raises(StoreError, match="already used"):
        store.write([Write("b", ((1, entry(1)),)), Write("a", ((1, entry(1)),))])
    assert store.entries("b") == [], "the batch failed as a whole"


def test_a_failed_write_refuses_the_tables_later_writes_until_forgiven(store: Store) -> None:
    """A log never gets a gap: after entry 1 failed, entry 2 is not tried; the other table goes on."""
    store.write([Write("a", ((1, entry(1)),))])
    writer = StoreWriter(store)
    bad = writer.submit(Write("a", ((1, entry(1)),)))  # number 1 is used: the write fails
    later = writer.submit(Write("a", ((2, entry(2)),)))
    other = writer.submit(Write("b", ((1, entry(1)),)))
    writer.barrier().result(timeout=10)
    assert isinstance(bad.exception(), RuntimeError)
    assert isinstance(later.exception(), RuntimeError)
    assert other.exception() is None
    assert [item["name"] for item in store.entries("a")] == ["P1"]
    writer.forgive("a")
    assert writer.submit(Write("a", ((2, entry(2)),))).result(timeout=10) is None
    assert len(store.entries("a")) == 2
    writer.close()


def test_an_in_memory_database_is_written_at_once() -> None:
    store = Store("sqlite://")
    store.create_table("a", {"name": "a"}, datetime.now(UTC))
    writer = StoreWriter(store)
    assert writer.inline
    future = writer.submit(Write("a", ((1, entry(1)),)))
    assert future.done()
    assert len(store.entries("a")) == 1
