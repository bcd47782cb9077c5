"""The access log without tokens: uvicorn's access log records each request's path with its query
string, and a token sent there (``GET /api/account?token=…``, by mistake) would be kept in the log.
:class:`RedactTokens` replaces the value of every query key that names a token (``token``,
``api_token``, ``seat_token``…) with ``[redacted]``; :func:`log_config` is uvicorn's logging set up with
it (docs/ladder.md, "Bot accounts": tokens are never logged)."""

from __future__ import annotations

import copy
import logging
from typing import Any, Final
from urllib.parse import unquote_plus

REDACTED: Final = "[redacted]"


def redacted(path: str) -> str:
    """``path`` with the value of every query key that contains ``token`` (any case) replaced by
    :data:`REDACTED`; the rest as it was."""
    base, mark, query = path.partition("?")
    if not mark:
        return path
    parts = []
    for part in query.split("&"):
        key, equals, _value = part.partition("=")
        parts.append(f"{key}={REDACTED}" if equals and "token" in unquote_plus(key).casefold() else part)
    return f"{base}?{'&'.join(parts)}"


class RedactTokens(logging.Filter):
    """A filter for ``uvicorn.access``: its records' path (the third of their arguments: client,
    method, path, HTTP version, status) with tokens redacted (:func:`redacted`)."""

    def filter(self, record: logging.LogRecord) -> bool:
        args = record.args
        if isinstance(args, tuple) and len(args) >= 3 and isinstance(args[2], str):
            record.args = (*args[:2], redacted(args[2]), *args[3:])
        return True


def log_config() -> dict[str, Any]:
    """uvicorn's logging configuration with :class:`RedactTokens` on its access log."""
    from uvicorn.config import LOGGING_CONFIG

    config = copy.deepcopy(LOGGING_CONFIG)
    config.setdefault("filters", {})["redact_tokens"] = {"()": f"{__name__}.RedactTokens"}
    config["loggers"]["uvicorn.access"].setdefault("filters", []).append("redact_tokens")
    return config


__all__ = ["REDACTED", "RedactTokens", "log_config", "redacted"]
