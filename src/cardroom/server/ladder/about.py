"""Who a ladder bot is, as its page shows it (docs/ladder.md, "Reading it"): a bot account's name,
owner, description and link, or a house bot's name; and the house bots its records are set against."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from cardroom.ladder import HOUSE
from cardroom.server.ladder.service import LadderService


def house_bots(service: LadderService) -> list[str]:
    """The house bots of the ladder: the room's (in their order), then any other the store still
    rates (a house bot the room no longer runs), by name."""
    running = list(service.settings.house)
    stored = {row.bot for row in service.rows.values() if row.owner == HOUSE} - set(running)
    return running + sorted(stored)


def bot_about(service: LadderService, bot: str, entrants: Sequence[dict[str, Any]]) -> dict[str, Any]:
    """``{"key", "name", "owner", "description", "link", "house"}`` of a bot with these entrants (its
    standings' rows, at least one): a bot account as its owner describes it (once it is deleted,
    its newest entrant's name and its owner's, no description or link), a house bot with its
    entrant's name."""
    newest = max(entrants, key=lambda entrant: entrant["generation"])
    shown: dict[str, Any] = {
        "key": bot,
        "name": newest["name"],
        "owner": None,
        "description": "",
        "link": "",
        "house": bool(newest["house"]),
    }
    if newest["house"]:
        return shown
    row = service.store.bot(bot)
    if row is not None:
        shown.update(name=row.name, owner=row.owner_name, description=row.description, link=row.link)
    else:
        owner = service.store.account(service.rows[newest["key"]].owner)
        shown["owner"] = None if owner is None else owner.name
    return shown


__all__ = ["bot_about", "house_bots"]
