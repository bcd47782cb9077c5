"""What every HTTP route of the card room reads of a request: the client's address, its JSON body
(read with a cap), its rate limits, and the signed-in account."""

from __future__ import annotations

import asyncio
import math
from collections.abc import Awaitable, Callable
from typing import Any, Final, Literal

from fastapi import Request, Response, WebSocket
from fastapi.responses import JSONResponse

from cardroom.server.accounts.accounts import Account, Accounts
from cardroom.server.accounts.bots import BotAccounts
from cardroom.server.live.limits import ClientLimits
from cardroom.server.live.limits import Refusal as LimitRefusal
from cardroom.server.tables.codec import NotTextError, strict_json
from cardroom.server.tables.refusals import RefusedError

MAX_BODY: Final = 64 * 1024
"""Bytes a request's body may have."""
SESSION_COOKIE: Final = "cardroom_session"
"""The cookie that holds a signed-in browser's session secret (``HttpOnly``, ``SameSite=Lax``)."""
CSRF_HEADER: Final = "X-CSRF-Token"
"""The header a signed-in page's requests that change something carry (``GET /api/account``)."""

Limit = Literal["create", "register", "sign_in", "seat"]


def address(request: Request | WebSocket) -> str:
    """The client's address: behind a proxy, the proxy's, unless uvicorn trusts its forwarded headers
    (``--forwarded-allow-ips``; docs/server.md)."""
    return request.client.host if request.client is not None else "unknown"


def limited(request: Request, kind: Limit) -> None:
    """Refuse with 429 (``detail`` names the limit; ``Retry-After``) when the client's address is past
    its limit of ``create`` (tables, events), ``register`` (teams), ``sign_in`` (sign-ins, new
    accounts) or ``seat`` (seats taken or claimed again); each request counts."""
    limits: ClientLimits = request.app.state.limits
    check = {
        "create": limits.create,
        "register": limits.register,
        "sign_in": limits.sign_in,
        "seat": limits.seat,
    }[kind]
    refusal = check(address(request), request.app.state.limits_clock())
    if refusal is not None:
        raise too_many(refusal)


def limited_account(request: Request, key: str) -> None:
    """Refuse with 429 when the account ``key`` was tried too often (from any address)."""
    limits: ClientLimits = request.app.state.limits
    refusal = limits.account_sign_in(key, request.app.state.limits_clock())
    if refusal is not None:
        raise too_many(refusal)


def too_many(refusal: LimitRefusal) -> RefusedError:
    """429 ``rate_limited``: what was sent too often, the limit and the seconds to wait (``Retry-After``)."""
    return RefusedError(
        429,
        "rate_limited",
        headers={"Retry-After": str(refusal.retry_seconds)},
        what=refusal.what,
        rate=str(refusal.rate),
        wait=math.ceil(refusal.retry_after * 10) / 10,
    )


def refusal_response(refusal: RefusedError) -> JSONResponse:
    """The answer to a refused request: its status, ``{"detail", "reason", "args"}`` and its headers."""
    return JSONResponse(refusal.body(), status_code=refusal.status, headers=refusal.headers or None)


async def read_body(request: Request) -> dict[str, Any]:
    """A request's JSON object body, read up to :data:`MAX_BODY` bytes: a larger one (by its
    Content-Length, or as it arrives) is refused before it is read whole."""
    declared = request.headers.get("content-length")
    if declared is not None and (not declared.isdigit() or int(declared) > MAX_BODY):
        raise RefusedError(413 if declared.isdigit() else 400, "body_too_large", most=MAX_BODY)
    chunks: list[bytes] = []
    size = 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > MAX_BODY:
            raise RefusedError(413, "body_too_large", most=MAX_BODY)
        chunks.append(chunk)
    try:
        value = strict_json(b"".join(chunks) or b"{}")
    except NotTextError as error:
        raise RefusedError(400, "body_not_text", text=str(error)) from None
    except ValueError as error:
        raise RefusedError(400, "bad_json", text=str(error)) from None
    if not isinstance(value, dict):
        raise RefusedError(400, "body_not_object")
    return value


def accounts_of(request: Request) -> Accounts:
    accounts: Accounts = request.app.state.accounts
    return accounts


def bots_of(request: Request | WebSocket) -> BotAccounts:
    bots: BotAccounts = request.app.state.bots
    return bots


def bearer_token(request: Request | WebSocket) -> str | None:
    """The token of an ``Authorization: Bearer`` header (a bot's API token), or ``None`` without
    one; 401 for another kind of ``Authorization``."""
    header = request.headers.get("authorization")
    if header is None:
        return None
    scheme, _, token = header.strip().partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        raise RefusedError(401, "bad_authorization")
    return token.strip()


async def signed_in(request: Request) -> Account | None:
    """The account the request's session cookie signs in; without a cookie, the bot whose API token
    its ``Authorization: Bearer`` header holds (401 for a token that is no bot's: revoked, rotated);
    else ``None``. Read once a request."""
    if not hasattr(request.state, "account"):
        secret = request.cookies.get(SESSION_COOKIE)
        account = await asyncio.to_thread(accounts_of(request).session, secret) if secret else None
        token = None if secret else bearer_token(request)
        if token is not None:
            bot = await asyncio.to_thread(bots_of(request).signed_in, token)
            if bot is None:
                raise RefusedError(401, "unknown_bot_token")
            account = bot.account
        request.state.account = account
    found: Account | None = request.state.account
    return found


async def bot_token_guard(request: Request, call_next: Callable[[Request], Awaitable[Response]]) -> Response:
    """Refuse (401 ``unknown_bot_token``) an ``/api`` request whose ``Authorization: Bearer`` token is no
    bot's, whatever the route, a public one included (docs/ladder.md, "Connecting"); other schemes are
    refused only where an account is needed (a proxy's ``Basic`` passes)."""
    header = request.headers.get("authorization")
    if header is not None and request.url.path.startswith("/api/"):
        scheme, _, token = header.strip().partition(" ")
        if scheme.lower() == "bearer" and token.strip():
            try:
                if request.cookies.get(SESSION_COOKIE):
                    if await asyncio.to_thread(bots_of(request).signed_in, token.strip()) is None:
                        raise RefusedError(401, "unknown_bot_token")
                else:
                    await signed_in(request)
            except RefusedError as error:
                return refusal_response(error)
    return await call_next(request)


async def require_account(request: Request, reason: str) -> Account:
    """The signed-in account; 401 for a guest, for ``reason`` (a ``sign_in_…`` code naming why)."""
    account = await signed_in(request)
    if account is None:
        raise RefusedError(401, reason)
    return account


__all__ = [
    "CSRF_HEADER",
    "MAX_BODY",
    "SESSION_COOKIE",
    "accounts_of",
    "address",
    "bearer_token",
    "bot_token_guard",
    "bots_of",
    "limited",
    "read_body",
    "refusal_response",
    "require_account",
    "signed_in",
    "too_many",
]
