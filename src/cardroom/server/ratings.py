"""Every player's rating in the card room: an openskill rating and the platform's rating points and
title, updated once when a match is played to its end at a rated table (a tournament's, or a casual
one created rated) whose people all sat down signed in to their accounts.

A player is an account (keyed by its name case-folded: ``Ann`` and ``ann`` are one) or a bot under
its seat's name (keyed ``bot:`` and the name case-folded, so no bot takes an account's rating).
Players rated before accounts existed stay in the store as ``guest`` rows, off the leaderboard. The pure core
(:class:`cardroom.tournament.RatingBook`) rates four different players; one that sits twice at one
table is rated through a copy per seat, and the copies are merged back: on one team, the average of
its seats; on both teams, unchanged. Forfeits are not rated.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import UTC, datetime
from statistics import fmean
from typing import Any, Final

from cardroom.guandan.platform_points import PlayerState, title
from cardroom.server.config import Settings, TableConfig
from cardroom.server.rooms import Room
from cardroom.server.seats import name_key
from cardroom.server.store import PlayerMatchRow, PlayerRow, Store
from cardroom.server.table import Table
from cardroom.tournament import PlayerRating, RatingBook, RatingModel

log = logging.getLogger(__name__)

MODEL: Final = RatingModel()
RECENT: Final = 20


def ordinal(row: PlayerRow) -> float:
    """The conservative rating μ − 3σ (0 for a new player)."""
    return row.mu - 3 * row.sigma


def bot_key(name: str) -> str:
    """A bot's identity in the ratings: ``bot:`` and its name case-folded."""
    return f"bot:{name_key(name)}"


def rated_keys(table: Table) -> list[str] | None:
    """Who each seat is rated as (its account's key, a bot's name case-folded), or ``None`` when the
    match is not rated: a table not rated, or a person who sat down as a guest."""
    if not table.config.is_rated:
        return None
    keys: list[str] = []
    for seat, config in enumerate(table.config.seats):
        account = table.accounts[seat]
        name = table.names[seat]
        if config.kind == "bot" and name is not None:
            keys.append(bot_key(name))
        elif account is not None:
            keys.append(account)
        else:
            return None
    return keys


@dataclass(frozen=True)
class Rated:
    """What one table's rating wrote: the players after it and their match lines."""

    players: tuple[PlayerRow, ...]
    lines: tuple[PlayerMatchRow, ...]


def rate_table(table: Table, stored: Mapping[str, PlayerRow], at: datetime) -> Rated | None:
    """The ratings after ``table``'s finished match, or ``None`` when it is not rated (not a rated
    table, a guest at it, not finished, or a forfeit)."""
    outcome = table.outcome()
    keys = rated_keys(table)
    if outcome is None or outcome["reason"] == "forfeit" or keys is None:
        return None
    seat_names = [str(name) for name in table.names]
    kinds = ["bot" if config.kind == "bot" else "account" for config in table.config.seats]
    before: dict[str, PlayerRow] = {}
    for seat, key in enumerate(keys):
        if key not in before:
            known = stored.get(key)
            fresh = PlayerRow(key, seat_names[seat], MODEL.mu, MODEL.sigma, kind=kinds[seat])
            before[key] = known or fresh
    aliases = [f"{seat}:{key}" for seat, key in enumerate(keys)]
    book = RatingBook(
        MODEL,
        {
            alias: PlayerRating(
                alias,
                before[key].mu,
                before[key].sigma,
                points=PlayerState(before[key].points, before[key].last_place_streak),
            )
            for alias, key in zip(aliases, keys, strict=True)
        },
    )
    winner = outcome["winner"]
    after = book.rate(((aliases[0], aliases[2]), (aliases[1], aliases[3])), winner, table.match).players
    rows: list[PlayerRow] = []
    lines: list[PlayerMatchRow] = []
    for key in dict.fromkeys(keys):
        seats = [seat for seat in range(4) if keys[seat] == key]
        old = before[key]
        if len({seat % 2 for seat in seats}) == 2:
            continue  # on both teams: the match says nothing of this player
        side = seats[0] % 2
        new = [after[aliases[seat]] for seat in seats]
        won, drew = winner == side, winner is None
        points = old.points + round(fmean(rating.points.points - old.points for rating in new))
        row = PlayerRow(
            key,
            old.name,
            fmean(rating.mu for rating in new),
            fmean(rating.sigma for rating in new),
            old.matches + 1,
            old.wins + won,
            old.draws + drew,
            old.losses + (not won and not drew),
            points,
            new[0].points.last_place_streak,
            old.kind,
        )
        rows.append(row)
        seat = seats[0]
        levels = list(outcome["levels"])
        lines.append(
            PlayerMatchRow(
                key,
                table.id,
                at,
                {
                    "name": old.name,
                    "table_name": table.config.name,
                    "seat": seat,
                    "side": side,
                    "partner": seat_names[(seat + 2) % 4],
                    "opponents": [seat_names[(seat + 1) % 4], seat_names[(seat + 3) % 4]],
                    "result": "draw" if drew else ("won" if won else "lost"),
                    "levels": levels if side == 0 else levels[::-1],
                    "reason": outcome["reason"],
                    "event": None if table.config.event is None else table.config.event.to_dict(),
                    "rating_before": ordinal(old),
                    "rating_after": ordinal(row),
                    "rating_change": ordinal(row) - ordinal(old),
                    "points_change": row.points - old.points,
                },
            )
        )
    return Rated(tuple(rows), tuple(lines))


class Ratings:
    """Rates finished matches into the store (each table once) and answers the leaderboard."""

    def __init__(self, store: Store, settings: Settings | None = None) -> None:
        self.store = store
        self.settings = settings or Settings()

    def listener(self, room: Room, before: int) -> None:
        """Rooms' listener: rate a table when its match has just ended."""
        table = room.table
        if table.status == "finished" and any(entry["type"] == "match_end" for entry in table.log[before:]):
            if isinstance(table, Table):
                self.rate(table)
            else:
                self.store.save_rating(table.id, (), ())  # ratings are Guandan's: noted as done

    def rate(self, table: Table) -> bool:
        """Rate ``table`` (once: a table rated before is left alone); whether ratings changed."""
        stored = {row.key: row for row in self.store.players(set(rated_keys(table) or ()))}
        rated = rate_table(table, stored, datetime.now(UTC))
        if rated is None:
            self.store.save_rating(table.id, (), ())
            return False
        return self.store.save_rating(table.id, rated.players, rated.lines)

    def catch_up(self) -> int:
        """Rate the finished tables not rated yet (a crash between the end and the rating, or tables
        from before ratings existed); how many."""
        count = 0
        for table_id in self.store.unrated_tables():
            row = self.store.table(table_id)
            if row is None:
                continue
            try:
                config = TableConfig.from_dict(row.config, self.settings)
                if config.game != "guandan":
                    self.store.save_rating(table_id, (), ())
                    continue
                table = Table.replay(table_id, config, self.store.entries(table_id))
                count += self.rate(table)
            except Exception:
                log.exception("table %s cannot be rated", table_id)
        return count

    # -- answers ----------------------------------------------------------------------------------

    def leaderboard(self, by: str = "rating", limit: int = 100, min_matches: int = 0) -> list[dict[str, Any]]:
        rows = [row for row in self.store.players(listed=True) if row.matches >= min_matches]
        if by == "points":
            rows.sort(key=lambda row: (-row.points, -ordinal(row), row.key))
        else:
            rows.sort(key=lambda row: (-ordinal(row), -row.points, row.key))
        return [{"rank": rank, **player_json(row)} for rank, row in enumerate(rows[:limit], start=1)]

    def player(self, name: str) -> dict[str, Any] | None:
        """A player's page: the account of ``name``, else the bot of that name, else a stored key
        (``guest:ann``)."""
        row = next(
            (
                found
                for key in (name_key(name), bot_key(name), name.strip())
                if (found := self.store.player(key)) is not None
            ),
            None,
        )
        if row is None:
            return None
        key = row.key
        better = sum(
            1
            for other in self.store.players(listed=True)
            if (-ordinal(other), other.key) < (-ordinal(row), key)
        )
        recent = []
        for line in self.store.player_matches(key, RECENT):
            data = dict(line.data)
            data.pop("name", None)
            recent.append(
                {
                    "table_id": line.table_id,
                    "table": f"/tables/{line.table_id}",
                    "record": f"/api/tables/{line.table_id}/record",
                    "at": line.at.isoformat(),
                    **data,
                }
            )
        return {**player_json(row), "rank": better + 1, "recent": recent}


def player_json(row: PlayerRow) -> dict[str, Any]:
    return {
        "name": row.name,
        "kind": row.kind,
        "rating": ordinal(row),
        "mu": row.mu,
        "sigma": row.sigma,
        "points": row.points,
        "title": title(row.points),
        "matches": row.matches,
        "wins": row.wins,
        "draws": row.draws,
        "losses": row.losses,
    }


__all__ = ["Rated", "Ratings", "bot_key", "name_key", "ordinal", "player_json", "rate_table", "rated_keys"]
