"""The ladder in the card room (docs/ladder.md, "The ladder in the card room").

Bot accounts say they are ready over the ladder's websocket; the house bots always are. Every
:attr:`LadderSettings.interval` seconds (and at once when a bot becomes ready) :meth:`LadderService.schedule`
asks :class:`cardroom.ladder.Scheduler` for matches among them, within the limits, and makes each deal
pair's two tables (:func:`pair_configs`): one deal each, the same secret seed, the teams swapped. A bot
account is seated by the ladder (its seat's token sent over its ladder socket only); a house bot plays its
seat in the room. When every table of a match has ended (:meth:`LadderService.listener`), its duplicate
margin decides the one rated result, rated in the ladder's own pool and stored with the match.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
import secrets
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, date, datetime
from typing import Any, Final

from cardroom.games import GAMES
from cardroom.ladder import (
    HOUSE,
    HOUSE_BOTS,
    Entrant,
    LadderMatch,
    LadderPool,
    Limits,
    NotEnoughEntrantsError,
    Played,
    Roster,
    Scheduler,
    winner_of,
)
from cardroom.server.live.rooms import SEAT_REPLACED_CLOSE, Person, Room, Rooms
from cardroom.server.storage.store import LadderEntrantRow, LadderMatchRow, Store
from cardroom.server.tables.codec import server_message
from cardroom.server.tables.config import (
    BOT_CLOCK,
    FAULT_LIMIT,
    HUMAN,
    Clocks,
    LadderLink,
    SeatConfig,
    TableConfig,
    bot_seat,
)
from cardroom.server.tables.guandan import Table
from cardroom.server.tables.registry import replay_table
from cardroom.server.tables.seated import Entry
from cardroom.server.tables.seats import token_hash

log = logging.getLogger(__name__)

FORFEIT_RISE: Final = 3
"""A forfeited ladder table scores as a 双下 for the side that did not forfeit: 3 levels to 0."""
MAX_DEAL_PAIRS: Final = 10

REPLACED_CLOSE: Final = SEAT_REPLACED_CLOSE
"""The close code of a bot's ladder socket replaced by another of the bot's that said ``ready`` (the
code of a seat claimed again: docs/protocol.md, "Close codes")."""

Send = Callable[[dict[str, Any]], None]
"""Sends one frame to a ready bot's ladder socket."""


@dataclass(frozen=True)
class LadderSettings:
    """How the room runs its ladder: the house bots (permanent entrants), deal pairs per match, seconds
    between two looks for matches, matches running at once at most, the bot clock of its tables (the
    same for every bot) and the core's limits."""

    house: tuple[str, ...] = HOUSE_BOTS
    deal_pairs: int = 2
    interval: float = 5.0
    most_matches: int = 4
    clock: float = BOT_CLOCK
    limits: Limits = field(default_factory=Limits)

    def __post_init__(self) -> None:
        bots = GAMES["guandan"].bots
        unknown = [name for name in self.house if name not in bots]
        if unknown or len(set(self.house)) != len(self.house):
            raise ValueError(
                f"ladder house: different Guandan bots of {', '.join(sorted(bots))}, got {list(self.house)}"
            )
        for name, value, high in (
            ("deal_pairs", self.deal_pairs, MAX_DEAL_PAIRS),
            ("most_matches", self.most_matches, 1000),
        ):
            if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= high:
                raise ValueError(f"ladder {name}: a whole number from 1 to {high}, got {value!r}")
        if (
            isinstance(self.interval, bool)
            or not isinstance(self.interval, int | float)
            or not 0 < self.interval <= 3600
        ):
            raise ValueError(f"ladder interval: seconds above 0 up to 3600, got {self.interval!r}")
        clock = self.clock
        if isinstance(clock, bool) or not isinstance(clock, int | float) or not 0 < clock <= 60:
            raise ValueError(f"ladder clock: seconds above 0 up to 60, got {self.clock!r}")


@dataclass
class ReadyBot:
    """A bot account ready on the ladder: its entrant (this token generation), name and socket."""

    entrant: Entrant
    name: str
    send: Send
    close: Callable[[int, str], None] | None = None
    """Closes its socket with a code and reason (``None``: it has no socket of its own to close)."""
    paused: bool = False
    """It said ``unready``: seated in no new match, still told the results of its matches."""


def seat_entrants(match: LadderMatch, swapped: bool) -> tuple[str, str, str, str]:
    """The entrant at each seat of a pair's table: team A at seats 0 and 2 (direct) or 1 and 3
    (swapped), as the core plays it (:mod:`cardroom.ladder.runner`)."""
    a_side = 1 if swapped else 0
    seats = [match.team_a[seat // 2] if seat % 2 == a_side else match.team_b[seat // 2] for seat in range(4)]
    return (seats[0], seats[1], seats[2], seats[3])


def pair_configs(
    match_id: str, match: LadderMatch, pair: int, roster: Roster, base: TableConfig
) -> tuple[TableConfig, TableConfig]:
    """A deal pair's two table configs, direct then swapped: a house entrant's seat is its bot's, a bot
    account's seat a human one (the ladder seats the account); ``base`` gives the bot clock and the
    house bots' pace."""

    def config(swapped: bool) -> TableConfig:
        seats: list[SeatConfig] = []
        for key in seat_entrants(match, swapped):
            entrant = roster[key]
            seats.append(bot_seat(entrant.id) if entrant.is_house else HUMAN)
        name = f"Ladder {match_id} · {pair + 1}{'b' if swapped else 'a'}"
        return TableConfig(
            name=name,
            max_deals=1,
            seats=(seats[0], seats[1], seats[2], seats[3]),
            clocks=Clocks(bot=base.clocks.bot),
            bot_delay=base.bot_delay,
            deal_pause=base.deal_pause,
            fault_limit=FAULT_LIMIT,
            ladder=LadderLink(match_id, pair, swapped),
        )

    return config(False), config(True)


def table_gains(table: Table) -> tuple[list[int], int | None]:
    """A finished ladder table's levels risen by each team (seats 0 & 2, 1 & 3), and the side that
    forfeited (``None``): a forfeit scores :data:`FORFEIT_RISE` to 0 for the other side."""
    end = table.end
    assert end is not None, f"table {table.id} has not ended"
    if end.reason == "forfeit" and end.forfeited_by is not None:
        gains = [0, 0]
        gains[1 - end.forfeited_by] = FORFEIT_RISE
        return gains, end.forfeited_by
    first, second = table.match.level_values()
    return [first - 2, second - 2], None


def rating_data(pool: LadderPool, key: str, faults: int) -> dict[str, Any]:
    rating = pool.rating(key)
    return {
        "mu": rating.mu,
        "sigma": rating.sigma,
        "matches": rating.matches,
        "wins": rating.wins,
        "draws": rating.draws,
        "losses": rating.losses,
        "faults": faults,
    }


class LadderService:
    """The room's ladder: its roster and pool, the ready bots, the matches running, and the loop that
    makes new ones."""

    def __init__(
        self,
        store: Store,
        rooms: Rooms,
        settings: LadderSettings | None = None,
        clock: Callable[[], float] = time.time,
        rng: random.Random | None = None,
    ) -> None:
        self.store = store
        self.rooms = rooms
        self.settings = settings or LadderSettings()
        self.clock = clock
        self.rng = rng or random.Random(secrets.randbits(64))
        self.scheduler = Scheduler(self.settings.limits)
        self.rows: dict[str, LadderEntrantRow] = {}
        """Every entrant's stored row, by key."""
        self.pool = LadderPool(Roster.of(()))
        self.history: list[Played] = []
        self.running: dict[str, LadderMatchRow] = {}
        """The matches under way, by id."""
        self.ready: dict[str, ReadyBot] = {}
        """The bot accounts ready now, by account key (one socket each: the latest)."""
        self._task: asyncio.Task[None] | None = None

    # -- loading ---------------------------------------------------------------------------------

    def _now(self) -> datetime:
        return datetime.fromtimestamp(self.clock(), UTC)

    def _today(self) -> date:
        return self._now().date()

    def load(self) -> int:
        """Read the entrants and matches from the store, rate the rated matches again in order (the
        pool is their replay), add the house bots, and settle running matches whose tables ended while
        the room was down; how many matches were rated."""
        entrants = self.store.ladder_entrants()
        self.rows = {row.key: row for row in entrants}
        roster = Roster.of(Entrant(row.bot, row.owner, row.generation) for row in entrants)
        self.pool = LadderPool(roster)
        for name in self.settings.house:
            self._enter(Entrant(name, HOUSE), f"{name} bot")
        rated = self.store.ladder_matches("rated")
        rated.sort(key=lambda row: (row.finished or row.created, row.id))
        for row in rated:
            match = self._match_of(row)
            self.pool = self.pool.rate(match.team_a, match.team_b, row.data["winner"])
            self.history.append(Played(match, date.fromisoformat(row.day)))
        for row in self.store.ladder_matches("running"):
            self.running[row.id] = row
            for pair in row.data["tables"]:
                for table_id in pair:
                    if table_id not in row.data["games"]:
                        self._settle_stored(row.id, table_id)
        return len(rated)

    def _settle_stored(self, match_id: str, table_id: str) -> None:
        stored = self.store.table(table_id)
        if stored is None or stored.status != "finished":
            return
        config = TableConfig.from_dict(stored.config)
        table = replay_table(table_id, config, self.store.entries(table_id))
        if isinstance(table, Table):
            self._table_ended(match_id, table)

    @staticmethod
    def _match_of(row: LadderMatchRow) -> LadderMatch:
        team_a, team_b = row.data["team_a"], row.data["team_b"]
        return LadderMatch((team_a[0], team_a[1]), (team_b[0], team_b[1]), int(row.data["seed"]))

    def _enter(self, entrant: Entrant, name: str) -> LadderEntrantRow:
        """The entrant's row, made (and stored) if it is new, the roster and pool grown."""
        row = self.rows.get(entrant.key)
        if row is None:
            row = LadderEntrantRow(
                entrant.key,
                entrant.id,
                entrant.owner,
                entrant.generation,
                name,
                rating_data(LadderPool(Roster.of([entrant])), entrant.key, 0),
                self._now(),
                None,
            )
            self.store.save_ladder_entrant(row)
            self.rows[entrant.key] = row
        if entrant.key not in self.pool.roster:
            self.pool = self.pool.with_roster(self.pool.roster.add(entrant))
        return row

    # -- ready bots ------------------------------------------------------------------------------

    def mark_ready(
        self,
        bot: str,
        owner: str,
        generation: int,
        name: str,
        send: Send,
        close: Callable[[int, str], None] | None = None,
    ) -> Entrant:
        """A bot account's socket says it is ready (``bot`` its key, ``owner`` its owner's): its entrant
        for this generation (a new one is entered, rated afresh). A second socket replaces the first,
        which is told (``error`` ``replaced``) and closed (``close``, :data:`REPLACED_CLOSE`): the bot's
        seats and results go to the newest (docs/ladder.md, "The ladder in the card room")."""
        entrant = Entrant(bot, owner, generation)
        row = self._enter(entrant, name)
        self._seen(row)
        previous = self.ready.get(bot)
        self.ready[bot] = ReadyBot(entrant, name, send, close)
        if previous is not None and previous.send != send:
            previous.send(
                server_message(
                    "error",
                    code="replaced",
                    message="another socket of this bot said it is ready: this one is closed",
                )
            )
            if previous.close is not None:
                previous.close(REPLACED_CLOSE, "replaced by another socket of this bot")
        return entrant

    def unready(self, bot: str, send: Send) -> None:
        """The bot's ladder socket closed (only the socket that made it ready counts)."""
        held = self.ready.get(bot)
        if held is not None and held.send == send:
            del self.ready[bot]

    def pause(self, bot: str, send: Send) -> bool:
        """The bot's socket says ``unready``: no new match for it, its results still told; whether that
        socket is the bot's ready one."""
        held = self.ready.get(bot)
        if held is None or held.send != send:
            return False
        held.paused = True
        return True

    def _seen(self, row: LadderEntrantRow) -> None:
        updated = LadderEntrantRow(**{**vars(row), "last_seen": self._now()})
        self.rows[row.key] = updated
        self.store.save_ladder_entrant(updated)

    # -- scheduling ------------------------------------------------------------------------------

    def schedule(self) -> list[str]:
        """Make the matches the scheduler finds now, each with at least one bot account in it, up to
        :attr:`LadderSettings.most_matches` running; their ids."""
        made: list[str] = []
        if not self.ready:
            return made
        today = self._today()
        while len(self.running) < self.settings.most_matches:
            ready = [
                *(f"{name}#1" for name in self.settings.house),
                *(bot.entrant.key for bot in self.ready.values() if not bot.paused),
            ]
            running = [
                Played(self._match_of(row), date.fromisoformat(row.day)) for row in self.running.values()
            ]
            try:
                match = self.scheduler.next_match(
                    self.pool, ready, history=self.history, running=running, today=today, rng=self.rng
                )
            except NotEnoughEntrantsError:
                break
            if all(self.pool.roster[key].is_house for key in match.entrants):
                break
            made.append(self._start(match, today))
        return made

    def _start(self, match: LadderMatch, today: date) -> str:
        """Store the match, make its tables (each pair's two sharing a fresh secret seed) and tell its
        bots where they sit."""
        match_id = secrets.token_hex(5)
        defaults = self.rooms.settings.table_defaults
        clocks = Clocks(bot=self.settings.clock)
        base = TableConfig(clocks=clocks, bot_delay=defaults.bot_delay, deal_pause=defaults.deal_pause)
        row = LadderMatchRow(
            match_id,
            "running",
            today.isoformat(),
            {
                "team_a": list(match.team_a),
                "team_b": list(match.team_b),
                "seed": match.seed,
                "deal_pairs": self.settings.deal_pairs,
                "tables": [],
                "games": {},
            },
            self._now(),
            None,
        )
        self.store.save_ladder_match(row)
        self.running[match_id] = row
        try:
            notices: list[tuple[ReadyBot, dict[str, Any]]] = []
            for pair in range(self.settings.deal_pairs):
                secret = secrets.token_hex(16)
                tables = []
                for config in pair_configs(match_id, match, pair, self.pool.roster, base):
                    assert config.ladder is not None
                    people: list[Person] = []
                    for seat, key in enumerate(seat_entrants(match, config.ladder.swapped)):
                        entrant = self.pool.roster[key]
                        if entrant.is_house:
                            continue
                        token = secrets.token_urlsafe(32)
                        people.append((seat, self.rows[key].name, token_hash(token), entrant.id))
                        bot = self.ready.get(entrant.id)
                        if bot is not None and bot.entrant.key == key:
                            notices.append(
                                (
                                    bot,
                                    {
                                        "seat": seat,
                                        "token": token,
                                        "pair": pair,
                                        "swapped": config.ladder.swapped,
                                    },
                                )
                            )
                    room = self.rooms.create(config, people, seed=secret)
                    tables.append(room.table.id)
                    for _, notice in notices:
                        notice.setdefault("table", room.table.id)
                row.data["tables"].append(tables)
            self.store.save_ladder_match(row)
        except Exception:
            # a match without all its tables could never be rated: it is void, its entrants free again
            del self.running[match_id]
            self.store.save_ladder_match(LadderMatchRow(**{**vars(row), "status": "void"}))
            raise
        for bot, notice in notices:
            bot.send({"type": "seat", "match": match_id, **notice})
        log.info(
            "ladder match %s: %s against %s", match_id, " + ".join(match.team_a), " + ".join(match.team_b)
        )
        return match_id

    # -- results ---------------------------------------------------------------------------------

    def listener(self, room: Room, entries: Sequence[Entry]) -> None:
        """Told of every commit: a ladder table's ``match_end`` is its game of the match."""
        link = room.table.config.ladder
        if link is None or not isinstance(room.table, Table):
            return
        if any(entry["type"] == "match_end" for entry in entries) and link.match in self.running:
            try:
                self._table_ended(link.match, room.table)
            except Exception:
                log.exception("ladder match %s: table %s could not be counted", link.match, room.table.id)

    def _table_ended(self, match_id: str, table: Table) -> None:
        row = self.running[match_id]
        gains, forfeited_by = table_gains(table)
        row.data["games"][table.id] = {
            "gains": gains,
            "forfeited_by": forfeited_by,
            "faults": list(table.faults.counts),
        }
        expected = {table_id for pair in row.data["tables"] for table_id in pair}
        if len(row.data["tables"]) < row.data["deal_pairs"] or set(row.data["games"]) != expected:
            self.store.save_ladder_match(row)
            return
        self._rate(row)

    def _rate(self, row: LadderMatchRow) -> None:
        """Every table of the match has ended: its margin, the one rated result, stored with the
        entrants' new ratings."""
        match = self._match_of(row)
        margin = 0
        faults: dict[str, int] = dict.fromkeys(match.entrants, 0)
        for direct, swapped in row.data["tables"]:
            for table_id, is_swapped in ((direct, False), (swapped, True)):
                game = row.data["games"][table_id]
                a_side = 1 if is_swapped else 0
                margin += game["gains"][a_side] - game["gains"][1 - a_side]
                for seat, key in enumerate(seat_entrants(match, is_swapped)):
                    faults[key] += game["faults"][seat]
        winner = winner_of(margin)
        self.pool = self.pool.rate(match.team_a, match.team_b, winner)
        self.history.append(Played(match, date.fromisoformat(row.day)))
        now = self._now()
        rated = LadderMatchRow(
            row.id,
            "rated",
            row.day,
            {**row.data, "margin": margin, "winner": winner, "faults": faults},
            row.created,
            now,
        )
        entrants = []
        for key in match.entrants:
            old = self.rows[key]
            data = rating_data(self.pool, key, int(old.data.get("faults", 0)) + faults[key])
            seen = now if not self.pool.roster[key].is_house else old.last_seen
            self.rows[key] = LadderEntrantRow(**{**vars(old), "data": data, "last_seen": seen})
            entrants.append(self.rows[key])
        self.store.save_ladder_match(rated, entrants)
        del self.running[row.id]
        result = {
            "type": "result",
            "match": row.id,
            "margin": margin,
            "winner": winner,
            "team_a": list(match.team_a),
            "team_b": list(match.team_b),
        }
        for bot in list(self.ready.values()):
            if bot.entrant.key in match.entrants:
                bot.send(result)
        log.info("ladder match %s rated: margin %d", row.id, margin)
        self._schedule_soon()

    def _schedule_soon(self) -> None:
        """Look for matches as soon as the commit being told is done: a rated match's bots are free again
        (docs/ladder.md, "Its matches"). Nothing without a running event loop (a test's bare service)."""
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            return
        loop.call_soon(self._schedule_logged)

    def _schedule_logged(self) -> None:
        try:
            self.schedule()
        except Exception:
            log.exception("the ladder's scheduling failed; trying again")

    # -- the loop --------------------------------------------------------------------------------

    def start(self) -> None:
        if self._task is None:
            self._task = asyncio.create_task(self._run(), name="the ladder")

    async def _run(self) -> None:
        while True:
            await asyncio.sleep(self.settings.interval)
            self._schedule_logged()

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
            self._task = None

    # -- what the pages show ---------------------------------------------------------------------

    def standings(self) -> list[dict[str, Any]]:
        """The ladder: each entrant's rank, name, generation, rating and range, record, faults and when
        last seen, best first."""
        shown = []
        for standing in self.pool.standings():
            entrant = standing.entrant
            row = self.rows[entrant.key]
            shown.append(
                {
                    "rank": standing.rank,
                    "key": entrant.key,
                    "bot": entrant.id,
                    "name": row.name,
                    "generation": entrant.generation,
                    "house": entrant.is_house,
                    "mu": round(standing.mu, 3),
                    "sigma": round(standing.sigma, 3),
                    "low": round(standing.low, 3),
                    "high": round(standing.high, 3),
                    "matches": standing.matches,
                    "wins": standing.rating.wins,
                    "draws": standing.rating.draws,
                    "losses": standing.rating.losses,
                    "faults": int(row.data.get("faults", 0)),
                    "last_seen": None if row.last_seen is None else row.last_seen.isoformat(),
                    "ready": (entrant.is_house and entrant.id in self.settings.house)
                    or (
                        entrant.id in self.ready
                        and self.ready[entrant.id].entrant.key == entrant.key
                        and not self.ready[entrant.id].paused
                    ),
                }
            )
        return shown

    def matches_of(self, bot: str) -> list[dict[str, Any]]:
        """The matches (rated and running) of every generation of ``bot``, newest first."""
        rows = self.store.ladder_matches()
        return [
            match_data(row)
            for row in reversed(rows)
            if any(key.rpartition("#")[0] == bot for key in (*row.data["team_a"], *row.data["team_b"]))
        ]

    def live(self) -> list[dict[str, Any]]:
        """The matches running now, oldest first: each as :func:`match_data` says it, with its entrants'
        ``names``, when it ``started``, and each table to ``watch`` (:meth:`table_now`)."""
        shown = []
        for row in sorted(self.running.values(), key=lambda row: (row.created, row.id)):
            match = self._match_of(row)
            shown.append(
                {
                    **match_data(row),
                    "names": {key: self.rows[key].name for key in match.entrants if key in self.rows},
                    "started": row.created.isoformat(),
                    "watch": [
                        self.table_now(row, match, pair, table_id, swapped)
                        for pair, tables in enumerate(row.data["tables"])
                        for table_id, swapped in zip(tables, (False, True), strict=False)
                    ],
                }
            )
        return shown

    def table_now(
        self, row: LadderMatchRow, match: LadderMatch, pair: int, table_id: str, swapped: bool
    ) -> dict[str, Any]:
        """One table of a running match as a spectator finds it: where to watch it, its status and
        phase, its deal and levels, each seat's entrant, cards left and faults, and once it has ended the
        levels each team rose (team A's, team B's)."""
        keys = seat_entrants(match, swapped)
        game = row.data["games"].get(table_id)
        a_side = 1 if swapped else 0
        shown: dict[str, Any] = {
            "id": table_id,
            "pair": pair,
            "swapped": swapped,
            "url": f"/tables/{table_id}",
            "status": None,
            "phase": None,
            "deal_number": None,
            "levels": None,
            "rises": None if game is None else [game["gains"][a_side], game["gains"][1 - a_side]],
        }
        cards: list[int | None] = [None] * 4
        faults: list[int] = list(game["faults"]) if game is not None else [0] * 4
        room = self.rooms.rooms.get(table_id)
        if room is not None and isinstance(room.table, Table):
            table = room.table
            deal = table.match.current_deal
            shown |= {
                "status": table.status,
                "phase": table.phase(),
                "deal_number": table.deals_dealt,
                "levels": table.team_levels,
            }
            if deal is not None:
                cards = [deal.card_count(seat) for seat in range(4)]
            faults = list(table.faults.counts)
        elif game is not None:
            shown |= {"status": "finished", "phase": "finished"}
        shown["seats"] = [
            {
                "seat": seat,
                "entrant": key,
                "name": self.rows[key].name if key in self.rows else key,
                "cards": cards[seat],
                "faults": faults[seat],
            }
            for seat, key in enumerate(keys)
        ]
        return shown


def match_data(row: LadderMatchRow) -> dict[str, Any]:
    """A ladder match as the API shows it (docs/ladder.md, "Reading it"): its status, day, teams, tables
    (a pair per deal pair, direct then swapped), margin, winner, faults and its tables' record links."""
    return {
        "id": row.id,
        "status": row.status,
        "day": row.day,
        "team_a": row.data["team_a"],
        "team_b": row.data["team_b"],
        "tables": row.data["tables"],
        "margin": row.data.get("margin"),
        "winner": row.data.get("winner"),
        "faults": row.data.get("faults"),
        "records": [f"/api/tables/{table_id}/record" for pair in row.data["tables"] for table_id in pair],
    }


__all__ = [
    "FORFEIT_RISE",
    "LadderService",
    "LadderSettings",
    "ReadyBot",
    "match_data",
    "pair_configs",
    "seat_entrants",
    "table_gains",
]
