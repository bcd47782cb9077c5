"""The bot accounts' HTTP side: ``/api/account/bots``, a signed-in person's own bots.

List, create, edit, rotate the token, revoke it, delete. A token is in the answer that made it
(create, rotate) and never again; rotating, revoking or deleting closes the websockets the old token
opened at once (:mod:`cardroom.server.live.bot_sockets`). Only a person's session manages bots (a
bot's own token gets 403), with the CSRF token as every signed-in change. See docs/ladder.md.
"""

from __future__ import annotations

import asyncio

from fastapi import FastAPI, Request, Response
from fastapi.responses import JSONResponse

from cardroom.server.accounts.accounts import Account, AccountError
from cardroom.server.accounts.bots import bot_view
from cardroom.server.api.requests import bots_of, limited, read_body, require_account
from cardroom.server.live.bot_sockets import BotSockets


def _sockets(request: Request) -> BotSockets:
    sockets: BotSockets = request.app.state.bot_sockets
    return sockets


async def _owner(request: Request) -> Account:
    """The signed-in person managing their bots (401 for a guest, 403 for a bot's own token)."""
    account = await require_account(request, "sign_in_for_bots")
    if account.bot:
        raise AccountError(403, "bot_token_for_owner")
    return account


def bot_api(app: FastAPI) -> None:
    """``/api/account/bots`` and ``/api/account/bots/{id}`` with its ``/token`` (docs/ladder.md)."""

    @app.get("/api/account/bots")
    async def my_bots(request: Request) -> JSONResponse:
        """``{"bots": [bot, ...]}``: the signed-in account's bots, oldest first."""
        owner = await _owner(request)
        rows = await asyncio.to_thread(bots_of(request).mine, owner)
        return JSONResponse({"bots": [bot_view(row) for row in rows]})

    @app.post("/api/account/bots", status_code=201)
    async def create_bot(request: Request) -> JSONResponse:
        """Create a bot (``{"name", "description"?, "link"?}``): 201 ``{"bot", "token"}``, the token
        shown this once."""
        owner = await _owner(request)
        limited(request, "create")
        body = await read_body(request)
        row, token = await asyncio.to_thread(bots_of(request).create, owner, body)
        return JSONResponse({"bot": bot_view(row), "token": token}, status_code=201)

    @app.patch("/api/account/bots/{bot_id}")
    async def edit_bot(request: Request, bot_id: str) -> JSONResponse:
        """Change a bot's ``description`` or ``link``: ``{"bot"}``."""
        owner = await _owner(request)
        body = await read_body(request)
        row = await asyncio.to_thread(bots_of(request).edit, owner, bot_id, body)
        return JSONResponse({"bot": bot_view(row)})

    @app.post("/api/account/bots/{bot_id}/token")
    async def rotate_token(request: Request, bot_id: str) -> JSONResponse:
        """A new token of the next generation: ``{"bot", "token"}``, shown this once; the old token
        stops working and its websockets close."""
        owner = await _owner(request)
        row, token, old = await asyncio.to_thread(bots_of(request).rotate, owner, bot_id)
        _sockets(request).close([old], "rotated")
        return JSONResponse({"bot": bot_view(row), "token": token})

    @app.post("/api/account/bots/{bot_id}/version")
    async def new_version(request: Request, bot_id: str) -> JSONResponse:
        """Declare a new version of the bot, its token kept: ``{"bot"}``, of the next generation."""
        owner = await _owner(request)
        row = await asyncio.to_thread(bots_of(request).new_version, owner, bot_id)
        return JSONResponse({"bot": bot_view(row)})

    @app.delete("/api/account/bots/{bot_id}/token")
    async def revoke_token(request: Request, bot_id: str) -> JSONResponse:
        """Revoke the bot's token: ``{"bot"}`` (``active`` false); its websockets close."""
        owner = await _owner(request)
        row, old = await asyncio.to_thread(bots_of(request).revoke, owner, bot_id)
        _sockets(request).close([old], "revoked")
        return JSONResponse({"bot": bot_view(row)})

    @app.delete("/api/account/bots/{bot_id}", status_code=204)
    async def delete_bot(request: Request, bot_id: str) -> Response:
        """Delete the bot: 204; its token stops working and its websockets close."""
        owner = await _owner(request)
        old = await asyncio.to_thread(bots_of(request).delete, owner, bot_id)
        _sockets(request).close([old], "deleted")
        return Response(status_code=204)


__all__ = ["bot_api"]
