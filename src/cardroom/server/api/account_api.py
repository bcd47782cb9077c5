"""The accounts' HTTP side: register, sign in and out, who is signed in, and the CSRF check.

A signed-in browser holds its session in the ``cardroom_session`` cookie (``HttpOnly``,
``SameSite=Lax``, ``Secure`` over HTTPS). Every request that changes something and carries that
cookie must carry the session's CSRF token in ``X-CSRF-Token`` too (``GET /api/account`` gives it),
or it is refused with 403: another site's form or script can make the browser send the cookie, not
the token. Signing in and registering need no token (they replace the session) but are refused from a
page of another site (its ``Origin`` header), so no site signs a visitor in to an account of its
choosing. Ending sessions (signing out, signing out the other sessions, a change of password) closes
the websockets those sessions opened (:mod:`cardroom.server.live.session_sockets`). See docs/accounts.md.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import Final
from urllib.parse import urlsplit

from fastapi import FastAPI, Request, Response
from fastapi.responses import JSONResponse

from cardroom.server.accounts.accounts import SESSION_DAYS, Account, check_csrf, csrf_token
from cardroom.server.api.requests import (
    CSRF_HEADER,
    SESSION_COOKIE,
    accounts_of,
    limited,
    limited_account,
    read_body,
    refusal_response,
    require_account,
    signed_in,
)
from cardroom.server.live.session_sockets import SessionSockets
from cardroom.server.tables.refusals import RefusedError
from cardroom.server.tables.seats import name_key

SAFE_METHODS: Final = frozenset({"GET", "HEAD", "OPTIONS"})
"""The methods that change nothing."""
EXEMPT: Final = frozenset({("POST", "/api/accounts"), ("POST", "/api/session")})
"""The requests that need no CSRF token: they open a new session."""


async def csrf_guard(request: Request, call_next: Callable[[Request], Awaitable[Response]]) -> Response:
    """Refuse (403) a request that changes something with the session cookie but not its token, and
    a sign-in sent from another site's page."""
    if (request.method, request.url.path) in EXEMPT:
        origin = request.headers.get("origin")
        if origin is not None and urlsplit(origin).netloc != request.headers.get("host"):
            return refusal_response(RefusedError(403, "cross_site"))
        return await call_next(request)
    secret = request.cookies.get(SESSION_COOKIE)
    if (
        secret
        and request.method not in SAFE_METHODS
        and not check_csrf(secret, request.headers.get(CSRF_HEADER))
        and await signed_in(request) is not None  # a cookie whose session ended signs no one in
    ):
        return refusal_response(RefusedError(403, "csrf_missing", header=CSRF_HEADER))
    return await call_next(request)


async def _signed_in_answer(request: Request, account: Account, secret: str, status: int) -> JSONResponse:
    """The answer to a sign-in: the account and its CSRF token, the session in a cookie (the session
    the browser held before, if any, ends)."""
    previous = request.cookies.get(SESSION_COOKIE)
    if previous and previous != secret:
        await asyncio.to_thread(accounts_of(request).sign_out, previous)
    response = JSONResponse({"account": account.to_dict(), "csrf": csrf_token(secret)}, status_code=status)
    response.set_cookie(
        SESSION_COOKIE,
        secret,
        max_age=SESSION_DAYS * 24 * 3600,
        path="/",
        httponly=True,
        samesite="lax",
        secure=request.url.scheme == "https",
    )
    return response


def _sockets(request: Request) -> SessionSockets:
    sockets: SessionSockets = request.app.state.session_sockets
    return sockets


def account_api(app: FastAPI) -> None:
    """``/api/accounts``, ``/api/session``, ``/api/account``, its ``/sessions`` and ``/password``
    (docs/accounts.md)."""

    @app.post("/api/accounts", status_code=201)
    async def register(request: Request) -> JSONResponse:
        """Open an account (``{"name", "password"}``) and sign in with it."""
        limited(request, "sign_in")
        body = await read_body(request)
        accounts = accounts_of(request)

        def work() -> tuple[Account, str]:
            account = accounts.register(body.get("name"), body.get("password"))
            return account, accounts.open_session(account.key)

        account, secret = await asyncio.to_thread(work)  # an AccountError is the app's refusal
        return await _signed_in_answer(request, account, secret, 201)

    @app.post("/api/session")
    async def sign_in(request: Request) -> JSONResponse:
        """Sign in (``{"name", "password"}``): 401 for a wrong name or password, whichever it was."""
        limited(request, "sign_in")
        body = await read_body(request)
        accounts = accounts_of(request)
        if isinstance(body.get("name"), str):
            limited_account(request, name_key(body["name"]))
        account, secret = await asyncio.to_thread(accounts.sign_in, body.get("name"), body.get("password"))
        return await _signed_in_answer(request, account, secret, 200)

    @app.delete("/api/session", status_code=204)
    async def sign_out(request: Request) -> Response:
        """Sign out: the session ends, the cookie is cleared."""
        secret = request.cookies.get(SESSION_COOKIE)
        if secret:
            await asyncio.to_thread(accounts_of(request).sign_out, secret)
            _sockets(request).close_secret(secret)
        response = Response(status_code=204)
        response.delete_cookie(SESSION_COOKIE, path="/", httponly=True, samesite="lax")
        return response

    @app.delete("/api/account/sessions")
    async def sign_out_others(request: Request) -> JSONResponse:
        """Sign out every other session of the account (other browsers, other devices): they end, and
        the websockets they opened close at once. ``{"signed_out": n}``, the sessions ended."""
        account = await require_account(request, "sign_in_to_end_sessions")
        secret = request.cookies.get(SESSION_COOKIE) or ""
        ended = await asyncio.to_thread(accounts_of(request).sign_out_others, account, secret)
        _sockets(request).close(ended)
        return JSONResponse({"signed_out": len(ended)})

    @app.post("/api/account/password")
    async def change_password(request: Request) -> JSONResponse:
        """Change the account's password (``{"current_password", "new_password"}``): this session goes
        on, every other one ends and its websockets close. 403 for a wrong current password (counted
        as a sign-in), 400 for a new one refused (too short or long, or a common password)."""
        limited(request, "sign_in")
        account = await require_account(request, "sign_in_to_change_password")
        limited_account(request, account.key)
        body = await read_body(request)
        secret = request.cookies.get(SESSION_COOKIE) or ""
        ended = await asyncio.to_thread(
            accounts_of(request).change_password,
            account,
            secret,
            body.get("current_password"),
            body.get("new_password"),
        )
        _sockets(request).close(ended)
        return JSONResponse({"account": account.to_dict(), "signed_out": len(ended)})

    @app.get("/api/account")
    async def whoami(request: Request) -> JSONResponse:
        """The signed-in account and its CSRF token (``null`` both for a guest; a cookie whose session
        ended, signed out elsewhere or expired, is cleared)."""
        account = await signed_in(request)
        secret = request.cookies.get(SESSION_COOKIE)
        if account is None or not secret:
            response = JSONResponse({"account": None, "csrf": None})
            if secret:
                response.delete_cookie(SESSION_COOKIE, path="/", httponly=True, samesite="lax")
            return response
        return JSONResponse({"account": account.to_dict(), "csrf": csrf_token(secret)})


__all__ = ["SAFE_METHODS", "account_api", "csrf_guard"]
