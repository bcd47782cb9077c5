"""A ladder bot's page and its records (docs/ladder.md, "Reading it"): ``GET /api/ladder/{bot}/records``,
the zip of its finished ladder tables' records, and the page ``/ladder/bots/{bot}``."""

from __future__ import annotations

import asyncio
from pathlib import Path

from fastapi import FastAPI, Request, Response
from fastapi.responses import FileResponse

from cardroom.server.api.ladder_api import ladder_of
from cardroom.server.ladder import LadderService
from cardroom.server.ladder.records_zip import finished_tables, records_zip, zip_filename
from cardroom.server.tables.refusals import RefusedError


def bot_records(service: LadderService, bot: str) -> bytes:
    """The zip of ``bot``'s newest finished ladder tables' records (read from the room and the store)."""
    tables = finished_tables(service.store.ladder_matches(), bot)
    records = []
    for table in tables:
        record = service.rooms.record_of(table.table)
        if record is not None:
            records.append((table, record))
    return records_zip(records)


def ladder_bot_api(app: FastAPI, page: Path) -> None:
    """``GET /api/ladder/{bot}/records`` and the ``/ladder/bots/{bot}`` page."""

    @app.get("/api/ladder/{bot}/records")
    async def ladder_bot_records(request: Request, bot: str) -> Response:
        """A zip of the bot's finished ladder tables' records, the newest 200 at most; 404 for a bot
        that is not on the ladder."""
        service = ladder_of(request)
        if not any(row["bot"] == bot for row in service.standings()):
            raise RefusedError(404, "not_found", text=f"no ladder entrant {bot!r}")
        data = await asyncio.to_thread(bot_records, service, bot)
        return Response(
            data,
            media_type="application/zip",
            headers={"Content-Disposition": f'attachment; filename="{zip_filename(bot)}"'},
        )

    @app.get("/ladder/bots/{bot}", include_in_schema=False)
    async def ladder_bot_page(bot: str) -> FileResponse:
        return FileResponse(page)


__all__ = ["bot_records", "ladder_bot_api"]
