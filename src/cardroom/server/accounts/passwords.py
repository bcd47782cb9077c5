"""What a password must be: 8 to 256 characters, and not one of the most common passwords.

The list is ``wordlists/common-passwords.txt.gz``: the 8,354 passwords of 8 characters or more among the
20,000 that Django's ``CommonPasswordValidator`` ships (Royce Williams' list, lowercased;
``wordlists/common-passwords.LICENSE`` says where it comes from and its licence). A password is common when
its case-folded form, spaces at the ends removed, is on the list, as Django compares it.
"""

from __future__ import annotations

import gzip
from functools import cache
from importlib.resources import files
from typing import Any, Final

from cardroom.server.tables.refusals import words

MIN_PASSWORD: Final = 8
MAX_PASSWORD: Final = 256
COMMON_PASSWORDS: Final = "common-passwords.txt.gz"
"""The list of common passwords, in ``cardroom/server/wordlists``."""


@cache
def common_passwords() -> frozenset[str]:
    """The common passwords, lowercased (read once)."""
    data = files("cardroom.server").joinpath("wordlists", COMMON_PASSWORDS).read_bytes()
    return frozenset(line.strip() for line in gzip.decompress(data).decode("utf-8").splitlines() if line)


def is_common(password: str) -> bool:
    """Whether ``password`` is on the list of common passwords (case aside)."""
    return password.strip().casefold() in common_passwords()


def password_reason(password: object) -> tuple[str, dict[str, Any]] | None:
    """Why ``password`` cannot be an account's, as a reason code of
    :data:`~cardroom.server.tables.refusals.REASONS` and its arguments, or ``None``."""
    if not isinstance(password, str):
        return "password_not_text", {}
    if not MIN_PASSWORD <= len(password) <= MAX_PASSWORD:
        return "password_length", {"least": MIN_PASSWORD, "most": MAX_PASSWORD, "length": len(password)}
    if is_common(password):
        return "common_password", {}
    return None


def password_problem(password: object) -> str | None:
    """Why ``password`` cannot be an account's (a message naming the field), or ``None``."""
    problem = password_reason(password)
    return None if problem is None else words(*problem)


__all__ = [
    "MAX_PASSWORD",
    "MIN_PASSWORD",
    "common_passwords",
    "is_common",
    "password_problem",
    "password_reason",
]
