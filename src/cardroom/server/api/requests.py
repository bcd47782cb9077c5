"""What every HTTP route of the card room reads of a request: the client's address, its JSON body
(read with a cap), its rate limits, and the signed-in account."""

from __future__ import annotations

import asyncio
from typing import Any, Final, Literal

from fastapi import HTTPException, Request, WebSocket

from cardroom.server.accounts.accounts import Account, Accounts
from cardroom.server.accounts.bots import BotAccounts
from cardroom.server.live.limits import ClientLimits
from cardroom.server.tables.codec import NotTextError, strict_json

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
        raise HTTPException(429, refusal.message, headers={"Retry-After": str(refusal.retry_seconds)})


def limited_account(request: Request, key: str) -> None:
    """Refuse with 429 when the account ``key`` was tried too often (from any address)."""
    limits: ClientLimits = request.app.state.limits
    refusal = limits.account_sign_in(key, request.app.state.limits_clock())
    if refusal is not None:
        raise HTTPException(429, refusal.message, headers={"Retry-After": str(refusal.retry_seconds)})


async def read_body(request: Request) -> dict[str, Any]:
    """A request's JSON object body, read up to :data:`MAX_BODY` bytes: a larger one (by its
    Content-Length, or as it arrives) is refused before it is read whole."""
    declared = request.headers.get("content-length")
    if declared is not None and (not declared.isdigit() or int(declared) > MAX_BODY):
        raise HTTPException(413 if declared.isdigit() else 400, f"request body: at most {MAX_BODY} bytes")
    chunks: list[bytes] = []
    size = 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > MAX_BODY:
            raise HTTPException(413, f"request body: at most {MAX_BODY} bytes")
        chunks.append(chunk)
    try:
        value = strict_json(b"".join(chunks) or b"{}")
    except NotTextError as error:
        raise HTTPException(400, f"request body: {error}") from None
    except ValueError as error:
        raise HTTPException(400, f"not valid JSON: {error}") from None
    if not isinstance(value, dict):
        raise HTTPException(400, "the body is a JSON object")
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
        raise HTTPException(401, "Authorization: send a bot's API token as 'Bearer <token>'")
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
                raise HTTPException(401, "Authorization: this API token is no bot's (revoked or rotated?)")
            account = bot.account
        request.state.account = account
    found: Account | None = request.state.account
    return found


async def require_account(request: Request, why: str) -> Account:
    """The signed-in account; 401 (naming ``why``) for a guest."""
    account = await signed_in(request)
    if account is None:
        raise HTTPException(401, f"sign in first: {why}")
    return account


__all__ = [
    "CSRF_HEADER",
    "MAX_BODY",
    "SESSION_COOKIE",
    "accounts_of",
    "address",
    "bearer_token",
    "bots_of",
    "limited",
    "read_body",
    "require_account",
    "signed_in",
]
