"""The headers every HTTP answer of the card room carries (docs/server.md, "Headers and a reverse proxy").

:class:`SecurityHeaders` is an ASGI middleware around the whole app, forwarded answers included:

- ``Content-Security-Policy`` (:data:`CONTENT_SECURITY_POLICY`): the pages run only the card room's own
  scripts and styles from ``/static`` (no inline script, style or event handler), talk only to their own
  origin (``fetch`` and the websockets), and no other site may frame them (``frame-ancestors 'none'``,
  with ``X-Frame-Options: DENY`` for browsers that know only that);
- ``X-Content-Type-Options: nosniff``: a file is what its ``Content-Type`` says;
- ``Referrer-Policy: same-origin``: a link out of the card room does not tell where it came from;
- ``Cache-Control: no-store`` on what must not be kept: the account's answers (they carry the CSRF
  token) and every answer to a request that changes something (a seat's or a director's token).
"""

from __future__ import annotations

from typing import Final

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from cardroom.server.account_api import SAFE_METHODS

CONTENT_SECURITY_POLICY: Final = "; ".join(
    (
        "default-src 'none'",
        "script-src 'self'",
        "style-src 'self'",
        "img-src 'self'",
        "connect-src 'self'",
        "manifest-src 'self'",
        "base-uri 'none'",
        "form-action 'self'",
        "frame-ancestors 'none'",
    )
)
"""Only the card room's own files and origin: the pages' scripts and styles are files under
``/static``, their requests and websockets go to the host that served them."""

EVERY_ANSWER: Final = (
    ("content-security-policy", CONTENT_SECURITY_POLICY),
    ("x-content-type-options", "nosniff"),
    ("referrer-policy", "same-origin"),
    ("x-frame-options", "DENY"),
)
NO_STORE: Final = ("cache-control", "no-store")
ACCOUNT_PATHS: Final = ("/api/account", "/api/accounts", "/api/session")
"""The account's answers: who is signed in and the session's CSRF token."""


def kept_from_caches(method: str, path: str) -> bool:
    """Whether the answer is ``no-store``: an account's answer, or one to a request that changes
    something (it may hold a seat token or a director token)."""
    account = any(path == prefix or path.startswith(prefix + "/") for prefix in ACCOUNT_PATHS)
    return account or method not in SAFE_METHODS


class SecurityHeaders:
    """ASGI middleware: every HTTP answer (a websocket's refusal too) gets :data:`EVERY_ANSWER`, and
    ``Cache-Control: no-store`` where :func:`kept_from_caches` says; they replace any the app set."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        added = list(EVERY_ANSWER)
        if kept_from_caches(scope.get("method", "GET"), scope["path"]):
            added.append(NO_STORE)
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


__all__ = ["CONTENT_SECURITY_POLICY", "SecurityHeaders", "kept_from_caches"]
