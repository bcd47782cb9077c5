"""This process's part in a card room of several processes (:mod:`cardroom.server.storage.leases`): every
third of the lease time it renews its leases, lets go of the tables it lost, adopts the tables of a
process that died, and takes the primary role when it is free (then it runs the events and rates the
matches every process finished). A process with a public URL says it is alive, and each keeps the
list of the live processes' public URLs that the table page tries when its own process goes away."""

from __future__ import annotations

import asyncio
import logging

from cardroom.server.accounts.ratings import Ratings
from cardroom.server.events.director import Director
from cardroom.server.live.rooms import Rooms
from cardroom.server.storage.leases import PRIMARY, Leases

log = logging.getLogger(__name__)


class Cluster:
    """Keeps this process's leases and roles up to date (:meth:`tend`, :meth:`run`)."""

    def __init__(self, leases: Leases, rooms: Rooms, director: Director, ratings: Ratings) -> None:
        self.leases = leases
        self.rooms = rooms
        self.director = director
        self.ratings = ratings
        self.primary = False
        """Whether this process ran the events as of the last :meth:`tend`."""

    def start(self) -> tuple[int, int, int]:
        """Take the primary role if it is free, then resume the tables this process may own (and
        the events, if primary): tables resumed, events loaded, matches rated."""
        self.leases.claim(PRIMARY)
        self.leases.announce()
        self.leases.find_nodes()
        resumed = self.rooms.resume_all()
        events, rated = self._roles()
        return resumed, events, rated

    async def tend(self) -> None:
        """One round: leases renewed, lost tables let go, dead processes' tables adopted, the
        primary role taken when it is free (and given up when lost), finished matches rated."""
        await self.rooms.tend()
        await asyncio.to_thread(self.leases.find_nodes)
        if not self.leases.holds(PRIMARY):
            await asyncio.to_thread(self.leases.claim, PRIMARY)
        was_primary = self.primary
        self._roles()  # a process that has just become primary catches up there
        if was_primary and self.primary:
            self.ratings.catch_up()

    def _roles(self) -> tuple[int, int]:
        """Load the events when this process became primary, unload them when it no longer is."""
        primary = self.leases.holds(PRIMARY)
        events = rated = 0
        if primary and not self.primary:
            log.info("this process (%s) runs the events now", self.leases.node.name)
            events = self.director.load_all()
            rated = self.ratings.catch_up()
        elif self.primary and not primary:
            log.warning("this process (%s) lost the primary role", self.leases.node.name)
            self.director.unload()
        self.primary = primary
        return events, rated

    async def run(self) -> None:
        """Tend every third of the lease time until cancelled."""
        while True:
            await asyncio.sleep(self.leases.ttl / 3)
            try:
                await self.tend()
            except Exception:
                log.exception("tending the leases failed; trying again")


__all__ = ["Cluster"]
