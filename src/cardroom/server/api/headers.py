"""The headers every HTTP answer of the card room carries (docs/server.md, "Headers and a reverse proxy").

:class:`SecurityHeaders` is an ASGI middleware around the whole app, forwarded answers included:

- ``Content-Security-Policy`` (:func:`content_security_policy`): the pages run only the card room's
  own scripts and styles from ``/static`` (no inline script, style or event handler), talk only to
  their own origin and to the other live processes of the card room the table page fails over to
  (their ``--public-url``, ``GET /api/nodes``), and no other site may frame them (``frame-ancestors
  'none'``, with ``X-Frame-Options: DENY`` for browsers that know only that);
- ``X-Content-Type-Options: nosniff``: a file is what its ``Content-Type`` says;
- ``Referrer-Policy: same-origin``: a link out of the card room does not tell where it came from;
- ``Cache-Control: no-store`` on what must not be kept: the account's answers (they carry the CSRF
  token) and every answer to a request that changes something (a seat's or a director's token).

:func:`server_error` is the plain 500 of an unhandled failure with the same headers (Starlette writes
that answer outside every middleware).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Sequence
from typing import Final

from starlette.requests import Request
from starlette.responses import PlainTextResponse, Response
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from cardroom.server.api.account_api import SAFE_METHODS

ORIGIN: Final = re.compile(r"(https?)://([A-Za-z0-9._~-]+|\[[0-9A-Fa-f:.]+\])(:[0-9]{1,5})?")
"""An origin a page may connect to besides its own: ``http(s)://HOST[:PORT]`` and nothing else (no
character that could end a directive)."""


def connect_sources(origins: Iterable[str]) -> list[str]:
    """The ``connect-src`` sources of other processes' origins: each as given (``fetch``) and as its
    websocket (``ws``/``wss``); anything that is not a plain origin is left out."""
    sources: list[str] = []
    for origin in origins:
        plain = origin.rstrip("/")
        match = ORIGIN.fullmatch(plain)
        if match is None:
            continue
        scheme = match.group(1)
        socket = ("wss" if scheme == "https" else "ws") + plain[len(scheme) :]
        sources += [source for source in (plain, socket) if source not in sources]
    return sources


def content_security_policy(origins: Iterable[str] = ()) -> str:
    """The policy: the card room's own files and origin, and ``origins`` (the other live processes'
    public URLs) to connect to."""
    connect = " ".join(["'self'", *connect_sources(origins)])
    return "; ".join(
        (
            "default-src 'none'",
            "script-src 'self'",
            "style-src 'self'",
            "img-src 'self'",
            f"connect-src {connect}",
            "manifest-src 'self'",
            "base-uri 'none'",
            "form-action 'self'",
            "frame-ancestors 'none'",
        )
    )


CONTENT_SECURITY_POLICY: Final = content_security_policy()
"""The policy of a server alone: the pages' scripts and styles are files under ``/static``, their
requests and websockets go to the host that served them."""

OTHER_HEADERS: Final = (
    ("x-content-type-options", "nosniff"),
    ("referrer-policy", "same-origin"),
    ("x-frame-options", "DENY"),
)
NO_STORE: Final = ("cache-control", "no-store")
ACCOUNT_PATHS: Final = ("/api/account", "/api/accounts", "/api/session")
"""The account's answers: who is signed in and the session's CSRF token."""

Origins = Callable[[], Sequence[str]]
"""The other live processes' public URLs now (none for a server alone)."""


def kept_from_caches(method: str, path: str) -> bool:
    """Whether the answer is ``no-store``: an account's answer, or one to a request that changes
    something (it may hold a seat token or a director token)."""
    account = any(path == prefix or path.startswith(prefix + "/") for prefix in ACCOUNT_PATHS)
    return account or method not in SAFE_METHODS


def headers_for(method: str, path: str, origins: Sequence[str] = ()) -> list[tuple[str, str]]:
    """The headers an answer to ``method path`` carries."""
    added = [("content-security-policy", content_security_policy(origins)), *OTHER_HEADERS]
    if kept_from_caches(method, path):
        added.append(NO_STORE)
    return added


class SecurityHeaders:
    """ASGI middleware: every HTTP answer (a websocket's refusal too) gets :func:`headers_for`'s, the
    policy naming the processes ``origins`` gives; they replace any the app set."""

    def __init__(self, app: ASGIApp, origins: Origins = tuple) -> None:
        self.app = app
        self.origins = origins

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        added = headers_for(scope.get("method", "GET"), scope["path"], self.origins())
        names = {name.encode() for name, _ in added}
        encoded = [(name.encode(), value.encode()) for name, value in added]

        async def send_with_headers(message: Message) -> None:
            if message["type"] in ("http.response.start", "websocket.http.response.start"):
                kept = [
                    (name, value) for name, value in message.get("headers", ()) if name.lower() not in names
                ]
                message = {**message, "headers": kept + encoded}
            await send(message)

        await self.app(scope, receive, send_with_headers)


def server_error(request: Request, _error: Exception) -> Response:
    """The answer to an unhandled failure (Starlette's plain 500), with every answer's headers."""
    return PlainTextResponse(
        "Internal Server Error", status_code=500, headers=dict(headers_for(request.method, request.url.path))
    )


__all__ = [
    "CONTENT_SECURITY_POLICY",
    "SecurityHeaders",
    "connect_sources",
    "content_security_policy",
    "kept_from_caches",
    "server_error",
]
