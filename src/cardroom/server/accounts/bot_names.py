"""Bots' display names: the rules of people's names (:func:`cardroom.server.tables.seats.clean_name`: NFKC,
1 to 40 characters, no control, bidirectional or invisible character), and never an account's name
or one that looks like it (:mod:`cardroom.server.tables.lookalikes`). Checked where a bot is given a name: a
new table's bot seats (``POST /api/tables``) and an event's bot players.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

from cardroom.server.accounts.accounts import Account, AccountError
from cardroom.server.tables.codec import ProtocolError
from cardroom.server.tables.config import TableConfig
from cardroom.server.tables.seats import clean_name

Lookalike = Callable[[str], Account | None]
"""The account of a name, or of one that looks the same (``Accounts.lookalike``)."""


def bot_name(name: object, lookalike: Lookalike, where: str = "name") -> str:
    """A bot's name, cleaned; an :class:`AccountError` (400, or 409 for an account's name or a
    lookalike) names what is wrong."""
    try:
        clean = clean_name(name)
    except ProtocolError as error:
        raise AccountError.of(400, error, field=where) from None
    holder = lookalike(clean)
    if holder is not None:
        raise AccountError(409, "bot_is_account", field=where, name=clean, holder=holder.name)
    return clean


def bot_names_checked(config: TableConfig, lookalike: Lookalike) -> TableConfig:
    """``config`` with its named bot seats' names cleaned and checked (the default names, ``"<bot>
    bot"``, are no account's: an account's name never ends in " bot")."""
    seats = list(config.seats)
    for index, seat in enumerate(seats):
        if seat.kind == "bot" and seat.name is not None:
            seats[index] = replace(seat, name=bot_name(seat.name, lookalike, f"seats[{index}].name"))
    return replace(config, seats=(seats[0], seats[1], seats[2], seats[3]))


__all__ = ["Lookalike", "bot_name", "bot_names_checked"]
