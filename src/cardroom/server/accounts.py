"""Accounts (账号): register, sign in, sessions, roles.

A password is kept only as its argon2id hash (argon2-cffi's ``PasswordHasher``, rehashed on sign-in
when its parameters change); a session is a random secret sent in an ``HttpOnly`` cookie, of which the
store keeps only the SHA-256. A request that changes something carries the session's CSRF token (a
hash of the session's secret under its own prefix), which a page learns from ``GET /api/account`` and
another site can neither read nor work out.

Names are players' names (:func:`cardroom.server.seats.clean_name`), one account per name case-folded;
a name ending in " bot" is left to the bots. Hashing costs about 0.1 s of CPU, so the app calls these
methods in a worker thread. See docs/accounts.md.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Final, Literal

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError

from cardroom.server.codec import ProtocolError
from cardroom.server.seats import clean_name, name_key, token_hash
from cardroom.server.store import AccountRow, Store

Role = Literal["player", "director"]
ROLES: Final[tuple[Role, ...]] = ("player", "director")
"""A ``director`` also creates and runs events (赛事); everyone else is a ``player``."""

MIN_PASSWORD: Final = 8
MAX_PASSWORD: Final = 256
SESSION_DAYS: Final = 30
"""How long a sign-in lasts without signing in again."""
BOT_SUFFIX: Final = " bot"
"""Bots play under names ending in this (``"heuristic bot"``); no account takes one."""


def csrf_token(secret: str) -> str:
    """The CSRF token of the session whose cookie holds ``secret``: the page sends it in the
    ``X-CSRF-Token`` header of every request that changes something."""
    return hashlib.sha256(b"cardroom csrf\0" + secret.encode()).hexdigest()


def check_csrf(secret: str, token: str | None) -> bool:
    return token is not None and hmac.compare_digest(csrf_token(secret), token)


class AccountError(ValueError):
    """A request about accounts the room refuses: ``status`` is its HTTP status."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.message = message


@dataclass(frozen=True)
class Account:
    """A signed-in account as the rest of the room sees it (never its password hash)."""

    key: str
    name: str
    role: Role

    @property
    def director(self) -> bool:
        return self.role == "director"

    def to_dict(self) -> dict[str, str]:
        return {"key": self.key, "name": self.name, "role": self.role}


def _account(row: AccountRow) -> Account:
    role: Role = "director" if row.role == "director" else "player"
    return Account(row.key, row.name, role)


def _password(value: object) -> str:
    if not isinstance(value, str):
        raise AccountError(400, "password: a string")
    if not MIN_PASSWORD <= len(value) <= MAX_PASSWORD:
        raise AccountError(400, f"password: {MIN_PASSWORD} to {MAX_PASSWORD} characters, got {len(value)}")
    return value


def account_name(value: object) -> str:
    """A name an account may take: a player's name not ending in " bot"."""
    try:
        name = clean_name(value)
    except ProtocolError as error:
        raise AccountError(400, error.message) from None
    if name.casefold().endswith(BOT_SUFFIX):
        raise AccountError(400, f"name: names ending in {BOT_SUFFIX.strip()!r} are the bots'")
    return name


class Accounts:
    """The room's accounts and sessions, over the store. ``hasher`` is argon2-cffi's (tests pass a
    cheap one); ``clock`` gives the time sessions are dated and expire by."""

    def __init__(
        self,
        store: Store,
        hasher: PasswordHasher | None = None,
        clock: Callable[[], datetime] = lambda: datetime.now(UTC),
    ) -> None:
        self.store = store
        self.hasher = hasher or PasswordHasher()
        self.clock = clock
        self._dummy = self.hasher.hash(secrets.token_urlsafe(16))
        """Verified against when a name is unknown, so a wrong name costs as long as a wrong password."""

    def register(self, name: object, password: object, role: Role = "player") -> Account:
        """A new account (409 when the name is taken)."""
        clean = account_name(name)
        secret = _password(password)
        if role not in ROLES:
            raise AccountError(400, f"role: one of {', '.join(ROLES)}, got {role!r}")
        row = AccountRow(name_key(clean), clean, self.hasher.hash(secret), role, self.clock())
        if not self.store.create_account(row):
            raise AccountError(409, f"the name {clean!r} is taken")
        return _account(row)

    def sign_in(self, name: object, password: object) -> tuple[Account, str]:
        """Check the name and password; the account and a new session's secret (401 when wrong)."""
        refused = AccountError(401, "wrong name or password")
        if not isinstance(name, str) or not isinstance(password, str) or len(password) > MAX_PASSWORD:
            raise refused
        row = self.store.account(name_key(name))
        try:
            self.hasher.verify(row.password_hash if row is not None else self._dummy, password)
        except (VerificationError, InvalidHashError):
            raise refused from None
        if row is None:
            raise refused
        if self.hasher.check_needs_rehash(row.password_hash):
            self.store.update_account(row.key, password_hash=self.hasher.hash(password))
        return _account(row), self.open_session(row.key)

    def open_session(self, key: str) -> str:
        """A new session of the account: its secret (the cookie's value)."""
        secret = secrets.token_urlsafe(32)
        now = self.clock()
        self.store.create_session(token_hash(secret), key, now, now + timedelta(days=SESSION_DAYS))
        return secret

    def session(self, secret: str | None) -> Account | None:
        """The account a session cookie signs in, or ``None`` (none, unknown, expired)."""
        if not secret:
            return None
        row = self.store.session_account(token_hash(secret), self.clock())
        return None if row is None else _account(row)

    def sign_out(self, secret: str) -> None:
        self.store.delete_sessions(token_hash=token_hash(secret))

    def get(self, name: str) -> Account | None:
        """The account of this name (any case), or ``None``."""
        row = self.store.account(name_key(name))
        return None if row is None else _account(row)

    def set_role(self, name: str, role: Role) -> Account:
        """Give an account a role (the operator's ``cardroom accounts role``)."""
        if role not in ROLES:
            raise AccountError(400, f"role: one of {', '.join(ROLES)}, got {role!r}")
        account = self.get(name)
        if account is None or not self.store.update_account(account.key, role=role):
            raise AccountError(404, f"no account {name!r}")
        return Account(account.key, account.name, role)

    def set_password(self, name: str, password: object) -> None:
        """Set a new password and end every session of the account (the operator's reset)."""
        account = self.get(name)
        if account is None:
            raise AccountError(404, f"no account {name!r}")
        self.store.update_account(account.key, password_hash=self.hasher.hash(_password(password)))
        self.store.delete_sessions(key=account.key)


__all__ = [
    "BOT_SUFFIX",
    "ROLES",
    "Account",
    "AccountError",
    "Accounts",
    "Role",
    "account_name",
    "check_csrf",
    "csrf_token",
]
