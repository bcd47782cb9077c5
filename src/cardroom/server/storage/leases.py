"""Several server processes on one database (docs/server.md, "Several processes"): each live table is
owned by one process at a time through a lease in the database, and so is the *primary* role (the
process that runs the events and rates finished matches).

A lease names its holder (``node``: a name stable across restarts, so a process started again under
the same name takes its leases back at once) and where the others reach it (``url``), until when it
holds. The holder renews its leases every third of their time; a lease not renewed in time (the
process died or hangs) is free for another process, which resumes the table from its log. A process
that finds a lease gone stops its copy of the table; should it still write, its entry numbers are
already taken (the log's primary key) and the write fails, so a table's log never forks.

A process given a public URL (where players' browsers reach it) also holds ``node:<name>`` with that
URL, so that every process can tell the pages which processes are alive.
"""

from __future__ import annotations

import socket
import time
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Final
from urllib.parse import urlsplit

from cardroom.server.storage.store import TABLE_LEASE, LeaseRow, Store

PRIMARY: Final = "primary"
"""The lease of the process that runs the events and rates finished matches."""
NODE_LEASE: Final = "node:"
"""The prefix of a process's own lease, ``node:<name>``, whose URL is its public one."""
LEASE_TTL: Final = 10.0
"""Seconds a lease holds unless renewed (renewed every third of that)."""


def table_key(table_id: str) -> str:
    """The lease key of a table."""
    return TABLE_LEASE + table_id


def node_key(name: str) -> str:
    """The lease key of a process (held only by a process with a public URL)."""
    return NODE_LEASE + name


def _is_origin(url: str) -> bool:
    """Whether ``url`` is ``http(s)://HOST[:PORT]`` and nothing more."""
    parts = urlsplit(url)
    return (
        parts.scheme in ("http", "https")
        and bool(parts.hostname)
        and parts.path in ("", "/")
        and not (parts.query or parts.fragment or parts.username)
    )


@dataclass(frozen=True)
class Node:
    """This process as the others see it: ``name``, its identity (kept across restarts), ``url``,
    where the others forward a client's requests for its tables (``http://host:port``), and
    ``public``, where players' browsers reach it (``None``: not told to the pages)."""

    name: str
    url: str
    public: str | None = None

    def __post_init__(self) -> None:
        if not _is_origin(self.url):
            raise ValueError(f"node URL: http://HOST:PORT (where the others reach it), got {self.url!r}")
        if self.public is not None and not _is_origin(self.public):
            raise ValueError(
                f"public URL: http(s)://HOST[:PORT] (where browsers reach this process), got {self.public!r}"
            )
        if not self.name or len(self.name) > 200:
            raise ValueError(f"node name: 1 to 200 characters, got {self.name!r}")

    @classmethod
    def at(cls, url: str, name: str | None = None, public: str | None = None) -> Node:
        """The node reached at ``url``, named ``name`` (default: this host's name and the URL's port),
        reached by browsers at ``public``."""
        url = url.rstrip("/")
        return cls(
            name or f"{socket.gethostname()}:{urlsplit(url).port or 80}",
            url,
            None if public is None else public.rstrip("/"),
        )


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
        self.public_urls: list[str] = []
        """The public URLs of the live processes, as of the last :meth:`find_nodes`."""

    def _times(self) -> tuple[datetime, datetime]:
        now = self.clock()
        return datetime.fromtimestamp(now, UTC), datetime.fromtimestamp(now + self.ttl, UTC)

    def claim(self, key: str, url: str | None = None) -> LeaseRow:
        """Take ``key`` if it is free, expired or ours (naming ``url``, by default the node's); the
        lease as it stands after (another's when that process holds it)."""
        now, until = self._times()
        lease = self.store.claim(key, self.node.name, url or self.node.url, now, until)
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

    def announce(self) -> None:
        """Hold ``node:<name>`` with the public URL, when this process has one (renewed with the rest)."""
        if self.node.public is not None:
            self.claim(node_key(self.node.name), self.node.public)

    def find_nodes(self) -> list[str]:
        """The public URLs of the processes alive now (by name), kept in :attr:`public_urls`."""
        now, _ = self._times()
        self.public_urls = [lease.url for lease in self.store.live_leases(NODE_LEASE, now)]
        return self.public_urls

    def orphans(self) -> list[str]:
        """Waiting and running tables whose lease nobody holds (their process died)."""
        now, _ = self._times()
        return self.store.unleased_tables(now)


__all__ = ["LEASE_TTL", "NODE_LEASE", "PRIMARY", "Leases", "Node", "node_key", "table_key"]
