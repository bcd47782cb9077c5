"""Bot accounts (机器人账号): an account's own bots, each with an API token to play with.

A person's account creates bots (at most :data:`MAX_BOTS`); each is an account of its own (a row in
``accounts``, so no person, house bot or other bot takes a name that looks like its name), keyed
``bot:<id>`` (:data:`cardroom.server.tables.seats.BOT_KEY_PREFIX`), with no password: it signs in only
with its API token, sent as ``Authorization: Bearer <token>`` or in a websocket's first message. The
store keeps only the token's SHA-256, as it does a session's; the token itself is shown once, when it
is made. Rotating it makes a new token of the next *generation* (the ladder rates each generation as
a new entry); revoking it leaves the bot without one. Either way the sockets of the old token are to be
closed (:mod:`cardroom.server.live.bot_sockets`). See docs/ladder.md, "Bot accounts".
"""

from __future__ import annotations

import secrets
import unicodedata
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any, Final
from urllib.parse import urlsplit

from cardroom.games import GAMES
from cardroom.server.accounts.accounts import Account, AccountError, Accounts, lookalike_refusal
from cardroom.server.accounts.bot_names import bot_name
from cardroom.server.storage.store import AccountRow, BotRow, Store
from cardroom.server.tables.codec import ProtocolError
from cardroom.server.tables.lookalikes import skeleton
from cardroom.server.tables.seats import BOT_KEY_PREFIX, shown_text, token_hash

MAX_BOTS: Final = 10
"""Bots one account may own: enough for versions side by side, too few to squat names."""
MAX_DESCRIPTION: Final = 500
"""Characters of a bot's description."""
MAX_LINK: Final = 300
"""Characters of a bot's link."""
TOKEN_PREFIX: Final = "cardroom_bot_"
"""How every API token begins, so that a leaked one is recognised (secret scanners, logs)."""
MAX_TOKEN: Final = 128
"""Characters of an API token as sent: a longer one is no token of ours and is not hashed."""
NO_PASSWORD: Final = "!bot account: signs in with its API token only"
"""A bot account's ``password_hash``: no argon2 hash, so no password ever verifies against it."""
EDITABLE: Final = ("description", "link")
"""What an owner may change of a bot (its name stays: a new name is a new bot)."""

HOUSE_BOT_NAMES: Final = frozenset(f"{bot} bot" for game in GAMES.values() for bot in game.bots)
"""The names the house bots play under ("heuristic bot")."""
HOUSE_BOT_SKELETONS: Final = frozenset(
    skeleton(name.casefold()) for game in GAMES.values() for bot in game.bots for name in (bot, f"{bot} bot")
)
"""What the house bots' names look like, with or without " bot" ("distilled": its ladder key and badge at
the table): no bot account poses as one."""


def is_house_bot_name(name: str) -> bool:
    """Whether ``name`` is, or looks like (case, lookalike letters, spacing: :func:`skeleton`), a house
    bot's name with or without " bot"."""
    return skeleton(name.casefold()) in HOUSE_BOT_SKELETONS


def new_token() -> str:
    """A new API token: :data:`TOKEN_PREFIX` and 256 random bits."""
    return TOKEN_PREFIX + secrets.token_urlsafe(32)


def description_of(value: object) -> str:
    """A bot's description: text of at most :data:`MAX_DESCRIPTION` characters (line breaks allowed,
    no other control, format or invisible character); ends' spaces removed."""
    if not isinstance(value, str):
        raise AccountError(400, "not_text", field="description", kind=type(value).__name__)
    text = unicodedata.normalize("NFC", value).strip()
    if len(text) > MAX_DESCRIPTION:
        raise AccountError(400, "text_too_long", field="description", most=MAX_DESCRIPTION, length=len(text))
    try:
        shown_text(text.replace("\n", ""), "description")
    except ProtocolError as error:
        raise AccountError.of(400, error) from None
    return text


def link_of(value: object) -> str:
    """A bot's link: empty, or an ``http`` or ``https`` URL with a host (no user name or password in
    it, no space or control character) of at most :data:`MAX_LINK` characters."""
    if not isinstance(value, str):
        raise AccountError(400, "not_text", field="link", kind=type(value).__name__)
    text = value.strip()
    if not text:
        return ""
    if len(text) > MAX_LINK:
        raise AccountError(400, "text_too_long", field="link", most=MAX_LINK, length=len(text))
    if any(char.isspace() or unicodedata.category(char).startswith("C") for char in text):
        raise AccountError(400, "link_characters")
    try:
        parts = urlsplit(text)
        parts.port  # noqa: B018 - a port that is not a number raises here
    except ValueError:
        raise AccountError(400, "link_not_url", value=text) from None
    if parts.scheme.lower() not in ("http", "https"):
        raise AccountError(400, "link_scheme", scheme=parts.scheme or "none")
    if not parts.hostname:
        raise AccountError(400, "link_no_host")
    if "@" in parts.netloc:
        raise AccountError(400, "link_credentials")
    return text


def bot_view(row: BotRow) -> dict[str, Any]:
    """A bot as its owner's page and the API show it (never its token or the token's hash)."""
    return {
        "id": row.key.removeprefix(BOT_KEY_PREFIX),
        "key": row.key,
        "name": row.name,
        "owner": row.owner_name,
        "description": row.description,
        "link": row.link,
        "generation": row.generation,
        "active": row.token_hash is not None,
        "created": row.created.isoformat(),
        "token_created": None if row.token_created is None else row.token_created.isoformat(),
    }


@dataclass(frozen=True)
class SignedInBot:
    """A bot signed in with its token: the account, and the hash of the token it used (its sockets
    are noted under it)."""

    account: Account
    token_hash: str
    generation: int


class BotAccounts:
    """The bots of the room's accounts, over the store; ``clock`` dates tokens."""

    def __init__(
        self, store: Store, accounts: Accounts, clock: Callable[[], datetime] = lambda: datetime.now(UTC)
    ) -> None:
        self.store = store
        self.accounts = accounts
        self.clock = clock

    @staticmethod
    def _owner(owner: Account) -> None:
        if owner.bot:
            raise AccountError(403, "bot_owns_no_bots")

    def _mine(self, owner: Account, bot_id: object) -> BotRow:
        self._owner(owner)
        row = self.store.bot(f"{BOT_KEY_PREFIX}{bot_id}") if isinstance(bot_id, str) else None
        if row is None or row.owner != owner.key:
            raise AccountError(404, "no_such_bot", bot=bot_id)
        return row

    def mine(self, owner: Account) -> list[BotRow]:
        """The bots ``owner`` owns, oldest first."""
        self._owner(owner)
        return self.store.bots(owner.key)

    def create(self, owner: Account, body: Mapping[str, Any]) -> tuple[BotRow, str]:
        """A new bot of ``owner`` (``{"name", "description"?, "link"?}``) and its first token."""
        self._owner(owner)
        unknown = set(body) - {"name", *EDITABLE}
        if unknown:
            raise AccountError(400, "bot_unknown_field", field=sorted(unknown)[0])
        name = bot_name(body.get("name"), self.accounts.lookalike)
        if is_house_bot_name(name):
            raise AccountError(409, "house_bot_name", name=name)
        description = description_of(body.get("description", ""))
        link = link_of(body.get("link", ""))
        if len(self.store.bots(owner.key)) >= MAX_BOTS:
            raise AccountError(409, "too_many_bots", most=MAX_BOTS)
        token, now = new_token(), self.clock()
        key = f"{BOT_KEY_PREFIX}{secrets.token_hex(6)}"
        account = AccountRow(key, name, NO_PASSWORD, "player", now, skeleton(name))
        row = BotRow(key, name, owner.key, owner.name, description, link, token_hash(token), 1, now, now)
        clash = self.store.create_bot(account, row)
        if clash is not None:
            raise lookalike_refusal(name, clash.name)
        return row, token

    def edit(self, owner: Account, bot_id: str, body: Mapping[str, Any]) -> BotRow:
        """Change a bot's description or link (``{"description"?, "link"?}``)."""
        row = self._mine(owner, bot_id)
        if "name" in body:
            raise AccountError(400, "bot_keeps_name")
        unknown = set(body) - set(EDITABLE)
        if unknown or not body:
            raise AccountError(400, "bot_edit_fields")
        values = {}
        if "description" in body:
            values["description"] = description_of(body["description"])
        if "link" in body:
            values["link"] = link_of(body["link"])
        self.store.update_bot(row.key, **values)
        return self._mine(owner, bot_id)

    def rotate(self, owner: Account, bot_id: str) -> tuple[BotRow, str, str | None]:
        """A new token of the next generation: the bot, the token, the old token's hash (``None`` when
        it had none): the old token stops working."""
        row = self._mine(owner, bot_id)
        token = new_token()
        self.store.update_bot(
            row.key, token_hash=token_hash(token), generation=row.generation + 1, token_created=self.clock()
        )
        return self._mine(owner, bot_id), token, row.token_hash

    def new_version(self, owner: Account, bot_id: str) -> BotRow:
        """Declare a new version of the bot, keeping its token: the next generation, a new entrant on the
        ladder from the bot's next sign-in."""
        row = self._mine(owner, bot_id)
        self.store.update_bot(row.key, generation=row.generation + 1)
        return self._mine(owner, bot_id)

    def revoke(self, owner: Account, bot_id: str) -> tuple[BotRow, str]:
        """Take the bot's token away (409 when it has none): the bot, the old token's hash."""
        row = self._mine(owner, bot_id)
        if row.token_hash is None:
            raise AccountError(409, "bot_no_token", name=row.name)
        self.store.update_bot(row.key, token_hash=None)
        return self._mine(owner, bot_id), row.token_hash

    def delete(self, owner: Account, bot_id: str) -> str | None:
        """Delete a bot (its name is free again; tables it sat at keep it): its token's hash, if any."""
        row = self._mine(owner, bot_id)
        self.store.delete_bot(row.key)
        return row.token_hash

    def signed_in(self, token: str) -> SignedInBot | None:
        """The bot whose live API token ``token`` is, or ``None``."""
        if not token.startswith(TOKEN_PREFIX) or len(token) > MAX_TOKEN:
            return None
        hashed = token_hash(token)
        row = self.store.bot_by_token(hashed)
        if row is None:
            return None
        return SignedInBot(Account(row.key, row.name, "player", row.owner_name), hashed, row.generation)


__all__ = [
    "HOUSE_BOT_NAMES",
    "MAX_BOTS",
    "MAX_DESCRIPTION",
    "MAX_LINK",
    "TOKEN_PREFIX",
    "BotAccounts",
    "SignedInBot",
    "bot_view",
    "description_of",
    "link_of",
    "new_token",
]
