"""The card room's store writes, off the event loop: one thread takes every table's commits in order,
writes what has queued up in one transaction, then answers each commit's future.

A table's commit is acknowledged (its entries sent to anyone) only once its future is answered, so the
promise holds: nobody hears of an entry before it is stored. Batching many tables' entries into one
transaction pays one commit (one fsync with SQLite) for all of them. After a failed write, the
table's later writes fail too without being tried (a log never gets a gap) until the room has
reloaded the table from the store and calls :meth:`StoreWriter.forgive`.
"""

from __future__ import annotations

import logging
import queue
import threading
from concurrent.futures import Future
from typing import Final

from cardroom.server.storage.store import Store, Write

log = logging.getLogger(__name__)

BATCH: Final = 256
"""The most commits written in one transaction."""


class WriteFailedError(RuntimeError):
    """A table's write was not stored: the store failed, or an earlier write of the table did."""


class StoreWriter:
    """Writes :class:`Write` values to ``store`` in a thread of its own (or at once, on the caller's
    thread, for an in-memory SQLite database, whose one connection no second thread may use)."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self.inline = store.in_memory
        self.failed: set[str] = set()
        """Tables whose write failed: their later writes are refused until forgiven."""
        self._queue: queue.SimpleQueue[tuple[Write, Future[None]] | None] = queue.SimpleQueue()
        self._thread: threading.Thread | None = None
        self._lock = threading.Lock()

    def submit(self, write: Write) -> Future[None]:
        """Queue ``write``; the future is answered once it is stored (or has failed)."""
        future: Future[None] = Future()
        if self.inline:
            self._write([(write, future)])
            return future
        with self._lock:
            if self._thread is None:
                self._thread = threading.Thread(target=self._run, name="cardroom store writer", daemon=True)
                self._thread.start()
        self._queue.put((write, future))
        return future

    def barrier(self) -> Future[None]:
        """A future done once every write submitted before it is answered (an HTTP answer that must
        not run ahead of the store waits for it)."""
        return self.submit(Write(""))

    def forgive(self, table_id: str) -> None:
        """The table was reloaded from the store: its writes are tried again."""
        with self._lock:
            self.failed.discard(table_id)

    def close(self) -> None:
        """Write what is queued, then stop the thread."""
        with self._lock:
            thread, self._thread = self._thread, None
        if thread is not None:
            self._queue.put(None)
            thread.join()

    def _run(self) -> None:
        while True:
            first = self._queue.get()
            if first is None:
                return
            batch = [first]
            stop = False
            while len(batch) < BATCH:
                try:
                    item = self._queue.get_nowait()
                except queue.Empty:
                    break
                if item is None:
                    stop = True
                    break
                batch.append(item)
            self._write(batch)
            if stop:
                return

    def _write(self, batch: list[tuple[Write, Future[None]]]) -> None:
        """Write a batch in one transaction; when it fails, table by table, to find the one at fault.
        Barriers are answered last."""
        tried = [(write, future) for write, future in batch if write.table_id]
        if len(tried) > 1:
            try:
                self._store([write for write, _ in tried if write.table_id not in self.failed])
            except Exception:
                for item in tried:
                    self._write_one(*item)
            else:
                for write, future in tried:
                    self._answer(write, future)
        elif tried:
            self._write_one(*tried[0])
        for write, future in batch:
            if not write.table_id:
                future.set_result(None)

    def _store(self, writes: list[Write]) -> None:
        if writes:
            self.store.write(writes)

    def _write_one(self, write: Write, future: Future[None]) -> None:
        if write.table_id not in self.failed:
            try:
                self._store([write])
            except Exception:
                log.exception("table %s: storing failed", write.table_id)
                with self._lock:
                    self.failed.add(write.table_id)
                future.set_exception(WriteFailedError(f"table {write.table_id}: storing failed"))
                return
        self._answer(write, future)

    def _answer(self, write: Write, future: Future[None]) -> None:
        """Answer a write that was stored, or refused for its table's earlier failure."""
        if write.table_id in self.failed:
            future.set_exception(WriteFailedError(f"table {write.table_id}: an earlier write failed"))
        else:
            future.set_result(None)


__all__ = ["BATCH", "StoreWriter", "WriteFailedError"]
