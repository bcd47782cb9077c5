"""Several server processes on one database (docs/server.md, "Several processes"): each live table is
owned by one process at a time through a lease in the database, and so is the *primary* role (the
process that runs the events and rates finished matches).

A lease names its holder (``node``: a name stable across restarts, so a process started again under
the same name takes its leases back at once) and where the others reach it (``url``), until when it
holds. The holder renews its leases every third of their time; a lease not renewed in time (the process
died or hangs) is free for another process, which resumes the table from its log. A process that
finds a lease gone stops its copy of the table; should it still write, its entry numbers are already
taken (the log's primary key) and the write fails, so a table's log never forks.
"""

from __future__ import annotations

import socket
import time
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Final
from urllib.parse import urlsplit

from cardroom.server.store import TABLE_LEASE, LeaseRow, Store

PRIMARY: Final = "primary"
"""The lease of the process that runs the events and rates finished matches."""
LEASE_TTL: Final = 10.0
"""Seconds a lease holds unless renewed (renewed every third of that)."""


def table_key(table_id: str) -> str:
    """The lease key of a table."""
    return TABLE_LEASE + table_id


@dataclass(frozen=True)
class Node:
    """This process as the others see it: ``name``, its identity (kept across restarts), and ``url``,
    where the others forward a client's requests for its tables (``http://host:port``)."""

    name: str
    url: str

    def __post_init__(self) -> None:
        parts = urlsplit(self.url)
        if parts.scheme not in ("http", "https") or not parts.hostname or parts.path not in ("", "/"):
            raise ValueError(f"node URL: http://HOST:PORT (where the others reach it), got {self.url!r}")
        if not self.name or len(self.name) > 200:
            raise ValueError(f"node name: 1 to 200 characters, got {self.name!r}")

    @classmethod
    def at(cls, url: str, name: str | None = None) -> Node:
        """The node reached at ``url``, named ``name`` (default: this host's name and the URL's port)."""
        url = url.rstrip("/")
        return cls(name or f"{socket.gethostname()}:{urlsplit(url).port or 80}", url)


class Leases:
    """This process's leases in the store: claimed, renewed, given back."""

    def __init__(
        self, store: Store, node: Node, ttl: float = LEASE_TTL, clock: Callable[[], float] = time.time
    ) -> None:
        if ttl <= 0:
            raise ValueError(f"lease time: more than 0 seconds, got {ttl!r}")
        if store.in_memory:
            raise ValueError("several processes share a database: not SQLite in memory")
        self.store = store
        self.node = node
        self.ttl = ttl
        self.clock = clock
        self.held: set[str] = set()
        """The keys this process holds as of its last claim or renewal."""

    def _times(self) -> tuple[datetime, datetime]:
        now = self.clock()
        return datetime.fromtimestamp(now, UTC), datetime.fromtimestamp(now + self.ttl, UTC)

    def claim(self, key: str) -> LeaseRow:
        """Take ``key`` if it is free, expired or ours; the lease as it stands after (another's when
        that process holds it)."""
        now, until = self._times()
        lease = self.store.claim(key, self.node.name, self.node.url, now, until)
        if lease.node == self.node.name:
            self.held.add(key)
        else:
            self.held.discard(key)
        return lease

    def holds(self, key: str) -> bool:
        return key in self.held

    def owner(self, key: str) -> LeaseRow | None:
        """Who holds ``key`` now: ``None`` when nobody does (never held, released or expired)."""
        lease = self.store.lease(key)
        if lease is None or lease.expires <= datetime.fromtimestamp(self.clock(), UTC):
            return None
        return lease

    def renew(self) -> set[str]:
        """Extend every lease held; the keys lost since (taken by another process after ours expired).
        A key claimed while this runs (from another thread) is kept."""
        _, until = self._times()
        before = set(self.held)
        now_held = self.store.renew(self.node.name, until)
        lost = before - now_held
        self.held = (self.held - lost) | now_held
        return lost

    def release(self, keys: set[str] | None = None) -> None:
        """Give leases back (all of them unless ``keys``), so another process may take them at once."""
        self.store.release(self.node.name, keys)
        self.held = set() if keys is None else self.held - keys

    def orphans(self) -> list[str]:
        """Waiting and running tables whose lease nobody holds (their process died)."""
        now, _ = self._times()
        return self.store.unleased_tables(now)


__all__ = ["LEASE_TTL", "PRIMARY", "Leases", "Node", "table_key"]
