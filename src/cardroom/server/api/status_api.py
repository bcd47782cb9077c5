"""``GET /api/status``: what an operator watches of one server process (tables in memory, open
websockets, bot pools started again), to see that the room's memory and connections stay bounded
(docs/server.md, "Resources")."""

from __future__ import annotations

from typing import Any

from fastapi import FastAPI, Request

from cardroom.server.live.limits import ClientLimits
from cardroom.server.live.rooms import Rooms


def status_api(app: FastAPI) -> None:
    @app.get("/api/status")
    async def status(request: Request) -> dict[str, Any]:
        """This process now: ``tables_loaded`` (tables in memory), ``websockets`` (open, counted by
        address when a limit is set; else ``null``), ``bot_pool_restarts`` (new bot pools started
        because one broke)."""
        rooms: Rooms = request.app.state.rooms
        limits: ClientLimits = request.app.state.limits
        return {
            "tables_loaded": len(rooms.rooms),
            "websockets": None if limits.sockets is None else len(limits.sockets),
            "bot_pool_restarts": rooms.runner.restarts,
        }


__all__ = ["status_api"]
