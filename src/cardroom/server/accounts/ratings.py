"""Every player's rating in the card room: an openskill rating and the platform's rating points and
title, updated once when a match is played to its end at a rated table (a tournament's, or a casual
one created rated) where four different people sat down signed in to their accounts.

A player is an account, keyed by its name case-folded (``Ann`` and ``ann`` are one). Bots are not
rated: a rated table seats none, and an event's table where a bot plays is not rated. What a match
may change follows :mod:`cardroom.server.accounts.fair_play`: a player whose seat 托管 played for more
than half its decisions gains nothing (a loss still counts), and only the first matches against the same
opponents within a day count. Players rated before accounts existed stay in the store as ``guest``
rows, and bots rated before this rule as ``bot`` rows; neither is on the leaderboard. Forfeits are not
rated.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from datetime import UTC, datetime
from typing import Any, Final

from cardroom.guandan.platform_points import PlayerState, title
from cardroom.server.accounts.fair_play import (
    SAME_OPPONENTS_LIMIT,
    SAME_OPPONENTS_WINDOW,
    auto_share,
    mostly_auto,
)
from cardroom.server.live.rooms import Room
from cardroom.server.storage.store import PlayerMatchRow, PlayerRow, Store
from cardroom.server.tables.config import TableConfig, TableDefaults
from cardroom.server.tables.guandan import Table
from cardroom.server.tables.seated import Entry
from cardroom.server.tables.seats import name_key
from cardroom.tournament import PlayerRating, RatingBook, RatingModel

log = logging.getLogger(__name__)

MODEL: Final = RatingModel()
RECENT: Final = 20


def ordinal(row: PlayerRow) -> float:
    """The conservative rating μ − 3σ (0 for a new player)."""
    return row.mu - 3 * row.sigma


def rated_keys(table: Table) -> list[str] | None:
    """Each seat's account key, or ``None`` when the match is not rated: a table not rated, a bot or a
    guest at it, or an account at two seats (from before a rated table refused it)."""
    if not table.config.is_rated:
        return None
    keys: list[str] = []
    for seat, config in enumerate(table.config.seats):
        account = table.accounts[seat]
        if config.kind == "bot" or account is None:
            return None
        keys.append(account)
    return keys if len(set(keys)) == 4 else None


def opponents_of(keys: list[str], seat: int) -> tuple[str, str]:
    """The keys of the seat's two opponents, in order (a set, as a pair)."""
    first, second = sorted((keys[(seat + 1) % 4], keys[(seat + 3) % 4]))
    return first, second


def line_opponents(data: Mapping[str, Any]) -> tuple[str, ...]:
    """The opponents' keys of a stored match line (lines from before the keys were written name the
    opponents only: an account's key is its name case-folded)."""
    keys = data.get("opponent_keys")
    if not isinstance(keys, list):
        keys = [name_key(str(name)) for name in data.get("opponents", [])]
    return tuple(sorted(str(key) for key in keys))


@dataclass(frozen=True)
class Rated:
    """What one table's rating wrote: the players after it and their match lines."""

    players: tuple[PlayerRow, ...]
    lines: tuple[PlayerMatchRow, ...]


def _no_gain(old: PlayerRow, new: PlayerRow) -> PlayerRow:
    """``new``, but nothing in it above ``old``: the rating and the points each keep the lower."""
    rating = new if ordinal(new) <= ordinal(old) else old
    points = new if new.points <= old.points else old
    return replace(
        new,
        mu=rating.mu,
        sigma=rating.sigma,
        points=points.points,
        last_place_streak=points.last_place_streak,
    )


def rate_table(
    table: Table, stored: Mapping[str, PlayerRow], at: datetime, earlier: Mapping[str, int] | None = None
) -> Rated | None:
    """The ratings after ``table``'s finished match, or ``None`` when it is not rated (not a rated
    table, a guest or a bot at it, not finished, or a forfeit). ``earlier[key]``: the rated matches the
    player played against the same two opponents within the window before this one."""
    outcome = table.outcome()
    keys = rated_keys(table)
    if outcome is None or outcome["reason"] == "forfeit" or keys is None:
        return None
    counted_before = earlier or {}
    seat_names = [str(name) for name in table.names]
    before = {
        key: stored.get(key) or PlayerRow(key, seat_names[seat], MODEL.mu, MODEL.sigma)
        for seat, key in enumerate(keys)
    }
    book = RatingBook(
        MODEL,
        {
            key: PlayerRating(key, row.mu, row.sigma, points=PlayerState(row.points, row.last_place_streak))
            for key, row in before.items()
        },
    )
    winner = outcome["winner"]
    after = book.rate(((keys[0], keys[2]), (keys[1], keys[3])), winner, table.match).players
    rows: list[PlayerRow] = []
    lines: list[PlayerMatchRow] = []
    levels = list(outcome["levels"])
    for seat, key in enumerate(keys):
        old = before[key]
        side = seat % 2
        won, drew = winner == side, winner is None
        rating = after[key]
        played = PlayerRow(
            key,
            old.name,
            rating.mu,
            rating.sigma,
            old.matches + 1,
            old.wins + won,
            old.draws + drew,
            old.losses + (not won and not drew),
            rating.points.points,
            rating.points.last_place_streak,
            "account",
        )
        withheld: str | None = None
        if counted_before.get(key, 0) >= SAME_OPPONENTS_LIMIT:
            withheld, row = "same_opponents", old
        elif mostly_auto(table.log, seat):
            withheld = "auto"
            row = _no_gain(old, played) if not won and not drew else old
        else:
            row = played
        rows.append(row)
        others, decisions = auto_share(table.log, seat)
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
                    "opponent_keys": list(opponents_of(keys, seat)),
                    "result": "draw" if drew else ("won" if won else "lost"),
                    "levels": levels if side == 0 else levels[::-1],
                    "reason": outcome["reason"],
                    "event": None if table.config.event is None else table.config.event.to_dict(),
                    "counted": withheld is None,
                    "withheld": withheld,
                    "auto_decisions": others,
                    "decisions": decisions,
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

    def __init__(self, store: Store, defaults: TableDefaults | None = None) -> None:
        self.store = store
        self.defaults = defaults or TableDefaults()

    def listener(self, room: Room, entries: Sequence[Entry]) -> None:
        """Rooms' listener: rate a table when its match has just ended."""
        table = room.table
        if table.status == "finished" and any(entry["type"] == "match_end" for entry in entries):
            if isinstance(table, Table):
                self.rate(table)
            else:
                self.store.save_rating(table.id, (), ())  # ratings are Guandan's: noted as done

    def rate(self, table: Table) -> bool:
        """Rate ``table`` (once: a table rated before is left alone); whether ratings changed."""
        keys = rated_keys(table) or []
        stored = {row.key: row for row in self.store.players(set(keys))}
        now = datetime.now(UTC)
        rated = rate_table(table, stored, now, self.earlier(keys, now))
        if rated is None:
            self.store.save_rating(table.id, (), ())
            return False
        return self.store.save_rating(table.id, rated.players, rated.lines)

    def earlier(self, keys: list[str], now: datetime) -> dict[str, int]:
        """For each seat's player: its rated matches against the same two opponents within
        :data:`~cardroom.server.accounts.fair_play.SAME_OPPONENTS_WINDOW` before ``now``."""
        since = now - SAME_OPPONENTS_WINDOW
        counts: dict[str, int] = {}
        for seat, key in enumerate(keys):
            opponents = opponents_of(keys, seat)
            counts[key] = sum(
                line_opponents(line.data) == opponents
                for line in self.store.player_matches(key, limit=None, since=since)
            )
        return counts

    def catch_up(self) -> int:
        """Rate the finished tables not rated yet (a crash between the end and the rating, or tables
        from before ratings existed); how many."""
        count = 0
        for table_id in self.store.unrated_tables():
            row = self.store.table(table_id)
            if row is None:
                continue
            try:
                config = TableConfig.from_dict(row.config, self.defaults)
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
        """The accounts with a counted match (and ``min_matches`` or more), best first; never a bot
        nor a guest."""
        rows = [row for row in self.listed() if row.matches >= max(1, min_matches)]
        if by == "points":
            rows.sort(key=lambda row: (-row.points, -ordinal(row), row.key))
        else:
            rows.sort(key=lambda row: (-ordinal(row), -row.points, row.key))
        return [{"rank": rank, **player_json(row)} for rank, row in enumerate(rows[:limit], start=1)]

    def listed(self) -> list[PlayerRow]:
        """The rows the leaderboard ranks: accounts, with a counted match."""
        return [row for row in self.store.players(listed=True) if row.kind == "account" and row.matches > 0]

    def player(self, name: str) -> dict[str, Any] | None:
        """A player's page: the account of ``name``, else a stored key (``guest:ann``); never a bot's
        (bots rated before they were barred keep their rows, unshown)."""
        row = next(
            (
                found
                for key in (name_key(name), name.strip())
                if (found := self.store.player(key)) is not None and found.kind != "bot"
            ),
            None,
        )
        if row is None:
            return None
        key = row.key
        listed = row.kind == "account" and row.matches > 0
        better = sum(1 for other in self.listed() if (-ordinal(other), other.key) < (-ordinal(row), key))
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
                    **self._seat_kinds(line.table_id, data),
                    **data,
                }
            )
        return {**player_json(row), "rank": better + 1 if listed else None, "recent": recent}

    def _seat_kinds(self, table_id: str, data: Mapping[str, Any]) -> dict[str, Any]:
        """Whether the line's partner and opponents were bots (``partner_bot``, ``opponents_bot``):
        only lines from before bots were barred from rated tables have any."""
        seat = data.get("seat")
        row = self.store.table(table_id) if isinstance(seat, int) else None
        try:
            config = TableConfig.from_dict(row.config, self.defaults) if row is not None else None
        except ValueError:
            config = None
        if config is None or not isinstance(seat, int):
            return {"partner_bot": False, "opponents_bot": [False, False]}
        bot = [chosen.kind == "bot" for chosen in config.seats]
        return {
            "partner_bot": bot[(seat + 2) % 4],
            "opponents_bot": [bot[(seat + 1) % 4], bot[(seat + 3) % 4]],
        }


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


__all__ = [
    "Rated",
    "Ratings",
    "line_opponents",
    "name_key",
    "opponents_of",
    "ordinal",
    "player_json",
    "rate_table",
    "rated_keys",
]
