"""Accounts (账号): register, sign in, sessions, roles.

A password is kept only as its argon2id hash (argon2-cffi's ``PasswordHasher``, rehashed on sign-in
when its parameters change); a session is a random secret sent in an ``HttpOnly`` cookie, of which the
store keeps only the SHA-256. A request that changes something carries the session's CSRF token (a
hash of the session's secret under its own prefix), which a page learns from ``GET /api/account`` and
another site can neither read nor work out.

Names are players' names (:func:`cardroom.server.tables.seats.clean_name`), one account per name case-folded
and per skeleton (:mod:`cardroom.server.tables.lookalikes`: no name that only looks like another's); a name
ending in " bot" is left to the bots. Passwords of 8 to 256 characters, none of the most common
(:mod:`cardroom.server.accounts.passwords`). Hashing costs about 0.1 s of CPU, so the app calls these methods
in a worker thread. See docs/accounts.md.
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

from cardroom.server.accounts.passwords import MAX_PASSWORD, MIN_PASSWORD, password_reason
from cardroom.server.storage.store import AccountRow, Store
from cardroom.server.tables.codec import ProtocolError
from cardroom.server.tables.lookalikes import skeleton
from cardroom.server.tables.refusals import RefusedError
from cardroom.server.tables.seats import clean_name, name_key, token_hash

Role = Literal["player", "director"]
ROLES: Final[tuple[Role, ...]] = ("player", "director")
"""A ``director`` also creates and runs events (赛事); everyone else is a ``player``."""

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


class AccountError(RefusedError, ValueError):
    """A request about accounts the room refuses: ``status`` is its HTTP status, ``reason`` its code."""


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
    problem = password_reason(value)
    if problem is not None:
        reason, args = problem
        raise AccountError(400, reason, **args)
    assert isinstance(value, str)
    return value


def account_name(value: object) -> str:
    """A name an account may take: a player's name that does not end (or look as if it ends) in
    " bot"."""
    try:
        name = clean_name(value)
    except ProtocolError as error:
        raise AccountError.of(400, error) from None
    if skeleton(name).endswith(skeleton(BOT_SUFFIX)) or name.casefold().endswith(BOT_SUFFIX):
        raise AccountError(400, "bot_suffix", field="name", suffix=BOT_SUFFIX.strip())
    return name


def lookalike_refusal(name: str, holder: str) -> AccountError:
    """The refusal (409) of ``name`` because the account ``holder`` has it, or a name that looks the same."""
    if name_key(name) == name_key(holder):
        return AccountError(409, "name_taken", name=name)
    return AccountError(409, "name_looks_like", name=name, holder=holder)


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
        store.fill_skeletons(skeleton)

    def register(self, name: object, password: object, role: Role = "player") -> Account:
        """A new account (409 when the name, or one that looks the same, is an account's)."""
        clean = account_name(name)
        secret = _password(password)
        if role not in ROLES:
            raise AccountError(400, "bad_role", roles=", ".join(ROLES), role=role)
        holder = self.lookalike(clean)
        if holder is not None:
            raise lookalike_refusal(clean, holder.name)
        row = AccountRow(
            name_key(clean), clean, self.hasher.hash(secret), role, self.clock(), skeleton(clean)
        )
        clash = self.store.create_account(row)
        if clash is not None:
            raise lookalike_refusal(clean, clash.name)
        return _account(row)

    def lookalike(self, name: str) -> Account | None:
        """The account of ``name``, or of a name that looks the same (the same skeleton), or ``None``."""
        row = self.store.account(name_key(name)) or self.store.account_by_skeleton(skeleton(name))
        return None if row is None else _account(row)

    def sign_in(self, name: object, password: object) -> tuple[Account, str]:
        """Check the name and password; the account and a new session's secret (401 when wrong)."""
        refused = AccountError(401, "wrong_sign_in")
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

    def sign_out_others(self, account: Account, secret: str) -> list[str]:
        """End every session of ``account`` but this browser's (its cookie's ``secret``); the hashes of
        the sessions ended (their websockets are to be closed)."""
        return self.store.end_sessions(account.key, keep=token_hash(secret))

    def change_password(self, account: Account, secret: str, current: object, new: object) -> list[str]:
        """The account's own change of password: ``current`` must be right (403 when not), ``new`` a
        good password and not the same; every other session ends (their hashes are returned)."""
        row = self.store.account(account.key)
        if row is None:
            raise AccountError(404, "no_account", name=account.name)
        if not isinstance(current, str) or len(current) > MAX_PASSWORD:
            raise AccountError(403, "wrong_password")
        try:
            self.hasher.verify(row.password_hash, current)
        except (VerificationError, InvalidHashError):
            raise AccountError(403, "wrong_password") from None
        fresh = _password(new)
        if fresh == current:
            raise AccountError(400, "same_password")
        self.store.update_account(row.key, password_hash=self.hasher.hash(fresh))
        return self.sign_out_others(account, secret)

    def get(self, name: str) -> Account | None:
        """The account of this name (any case), or ``None``."""
        row = self.store.account(name_key(name))
        return None if row is None else _account(row)

    def set_role(self, name: str, role: Role) -> Account:
        """Give an account a role (the operator's ``cardroom accounts role``)."""
        if role not in ROLES:
            raise AccountError(400, "bad_role", roles=", ".join(ROLES), role=role)
        account = self.get(name)
        if account is None or not self.store.update_account(account.key, role=role):
            raise AccountError(404, "no_account", name=name)
        return Account(account.key, account.name, role)

    def set_password(self, name: str, password: object) -> None:
        """Set a new password and end every session of the account (the operator's reset)."""
        account = self.get(name)
        if account is None:
            raise AccountError(404, "no_account", name=name)
        self.store.update_account(account.key, password_hash=self.hasher.hash(_password(password)))
        self.store.delete_sessions(key=account.key)


__all__ = [
    "BOT_SUFFIX",
    "MAX_PASSWORD",
    "MIN_PASSWORD",
    "ROLES",
    "Account",
    "AccountError",
    "Accounts",
    "Role",
    "account_name",
    "check_csrf",
    "csrf_token",
    "lookalike_refusal",
]
