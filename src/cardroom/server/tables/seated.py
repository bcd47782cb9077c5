"""What every game's table shares: seats (names, token hashes, 托管 flags), its status, and the
append-only log that rebuilds it.

:class:`SeatedTable` is pure: no I/O, no asyncio, no clock of its own (``now`` is passed in). A game's table
(:class:`~cardroom.server.tables.guandan.Table` for Guandan,
:class:`~cardroom.server.tables.shengji.ShengjiTable`) adds its match, the entries it writes and how each is
applied (:meth:`SeatedTable._appliers`), what it does by itself and what a viewer sees. The server's rooms
talk to either through the methods here.

The log is JSON (:data:`Entry`, what the store keeps); the table writes and applies typed entries
(:mod:`cardroom.server.tables.entries`), and :meth:`SeatedTable._record` is the one place an entry is written.
"""

from __future__ import annotations

import hmac
import secrets
from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from enum import Enum
from typing import Any, ClassVar, Literal, Protocol, Self

from cardroom.cards import Rank
from cardroom.server.tables.codec import Choose, ProtocolError
from cardroom.server.tables.config import TableConfig
from cardroom.server.tables.entries import (
    SEATED_ENTRIES,
    AutoEntry,
    Entry,
    KeyEntry,
    LogEntry,
    MatchEndEntry,
    Reader,
    SitEntry,
    StartEntry,
    entry_from_json,
)
from cardroom.server.tables.seats import clean_name, token_hash
from cardroom.tournament.conduct import Offence, PenaltyRecord

Status = Literal["waiting", "running", "finished"]

DueKind = Literal["bot", "auto", "clock", "deal", "skip", "choice", "pass"]
Decide = Callable[[int, str, Any], Any]
"""How :meth:`SeatedTable.step` gets a bot's decision: (seat, bot name, observation) → action."""


@dataclass(frozen=True)
class Due:
    """The next thing the table does by itself, at time ``at``: a bot seat acts (``bot``), a seat in
    托管 is played for (``auto``), a human's clock runs out (``clock``), the next deal is dealt
    (``deal``), a seat's turn is skipped by a ruling (``skip``, 违例), a choice's deadline passes and
    its default is taken (``choice``; ``seat`` is the chooser), or a Shengji seat lets the dealing go on
    (``pass``: it has nothing to declare, or its moment to declare is over)."""

    at: float
    kind: DueKind
    seat: int | None = None


class DealInPlay(Protocol):
    """What the shared table reads of a deal in play: its phase."""

    @property
    def phase(self) -> Enum: ...


class PlayedMatch(Protocol):
    """What the shared table reads of a game's match: its deals, the finished ones, both levels."""

    @property
    def deals(self) -> Sequence[object]: ...

    @property
    def summaries(self) -> Sequence[object]: ...

    @property
    def levels(self) -> Sequence[Rank]: ...

    @property
    def current_deal(self) -> DealInPlay | None: ...


def public_entry(entry: Entry) -> Entry:
    """An entry without what no viewer may see: a ``sit``'s or ``key``'s token hash, a ``start``'s
    seed."""
    secret = {"sit": "token_hash", "key": "token_hash", "start": "seed"}.get(entry["type"])
    return {key: value for key, value in entry.items() if key != secret}


class SeatedTable(ABC):
    """A table's seats, status and log; a game's table subclasses it.

    Mutating methods append entries to :attr:`log` and return the new ones; a refused request raises
    :class:`ProtocolError` and changes nothing. ``connected`` is set by the server (it is not logged).
    """

    AUTO_BOT = "heuristic"
    """The bot that plays a seat in 托管 (after its clock ran out) and gives hints."""

    ENTRIES: ClassVar[Mapping[str, Reader]] = SEATED_ENTRIES
    """How the game's stored entries are read back, by ``type``."""

    match: PlayedMatch

    def __init__(self, table_id: str, config: TableConfig, *, seed: str | None = None) -> None:
        self.id = table_id
        self.config = config
        self.names: list[str | None] = [seat.player_name for seat in config.seats]
        self.token_hashes: list[str | None] = [None] * 4
        self.accounts: list[str | None] = [None] * 4
        """The key of the account that owns each seat (``None``: a guest's, a bot's, or empty)."""
        self.auto = [False] * 4
        self.connected = [False] * 4
        self.log: list[Entry] = []
        self.status: Status = "waiting"
        self.seed = seed
        """The secret the deals are shuffled from (kept in the ``start`` entry, never sent)."""
        self.turn_started = 0.0
        self.deal_ended = 0.0
        self.started_at: float | None = None
        """When the match began (the ``start`` entry)."""
        self.end: MatchEndEntry | None = None
        """The ``match_end`` entry once the match is over."""
        self._apply_by_type = self._appliers()

    # -- rebuilding ------------------------------------------------------------------------------

    @classmethod
    def replay(cls, table_id: str, config: TableConfig, entries: Sequence[Entry]) -> Self:
        """The table these entries make (a ``ValueError`` names the first entry that does not fit)."""
        table = cls(table_id, config)
        for number, entry in enumerate(entries, start=1):
            try:
                table.apply_entry(entry)
            except (KeyError, TypeError, ValueError) as error:
                raise ValueError(
                    f"table {table_id}: log entry {number} ({entry.get('type')}): {error}"
                ) from error
        return table

    def apply_entry(self, entry: Entry) -> None:
        """Apply one stored entry, as :meth:`replay` does (a step at a time). The log keeps the stored
        dict, with what applying it notes (:mod:`cardroom.server.tables.entries`) added where it lacks it."""
        typed = entry_from_json(entry, self.ENTRIES)
        applied = self._apply(typed)
        stored = dict(entry)
        written = typed.to_json()
        stored.update((key, value) for key, value in applied.to_json().items() if key not in written)
        self.log.append(stored)

    @property
    def number(self) -> int:
        """The number of the last entry (0 for an empty log)."""
        return len(self.log)

    # -- seats -----------------------------------------------------------------------------------

    def sit(
        self, seat: int, name: object, now: float, token: str | None = None, account: str | None = None
    ) -> str:
        """Take an empty human seat under ``name`` (for ``account``, the key of the signed-in account
        taking it; a rated table seats only accounts); the seat's token (a new secret unless given)
        is returned, only its hash kept. The match starts when every human seat is taken."""
        return self.take_seat(seat, name, now, token, account)[0]

    def take_seat(
        self, seat: int, name: object, now: float, token: str | None = None, account: str | None = None
    ) -> tuple[str, list[Entry]]:
        """:meth:`sit`, returning the entries it recorded with the token (the room stores them)."""
        if self.config.is_rated and account is None:
            raise ProtocolError.because("not_signed_in", "rated_seat_account")
        token = token or secrets.token_urlsafe(24)
        return token, self.sit_hashed(seat, name, now, token_hash(token), account)

    def sit_hashed(
        self, seat: int, name: object, now: float, hashed: str, account: str | None = None
    ) -> list[Entry]:
        """Take an empty human seat for the holder of the token whose SHA-256 is ``hashed`` (a
        tournament seats its players' accounts with a hash no one holds: each takes a token with
        :meth:`new_key`)."""
        if isinstance(seat, bool) or not isinstance(seat, int) or seat not in range(4):
            raise ProtocolError.because("bad_message", "bad_seat", seat=seat)
        player = clean_name(name)
        if self.config.seats[seat].kind == "bot":
            raise ProtocolError.because(
                "wrong_phase", "seat_is_bot", seat=seat, bot=self.config.seats[seat].bot
            )
        if self.names[seat] is not None:
            raise ProtocolError.because("wrong_phase", "seat_taken", seat=seat, name=self.names[seat])
        if self.status != "waiting":
            raise ProtocolError.because("wrong_phase", "table_not_waiting", status=self.status)
        if self.config.is_rated and account is not None and account in self.accounts:
            held = self.accounts.index(account)
            raise ProtocolError.because("wrong_phase", "one_seat_each", name=player, held=held)
        before = self.number
        self._record(SitEntry(seat, player, hashed, now, account))
        self.start_if_ready(now)
        return self.log[before:]

    def new_key(self, seat: int, account: str, now: float) -> str:
        """A new token for the seat ``account`` owns (its owner on another device, or a tournament's
        player taking the seat); the seat's old token stops working."""
        return self.renew_key(seat, account, now)[0]

    def renew_key(self, seat: int, account: str, now: float) -> tuple[str, list[Entry]]:
        """:meth:`new_key`, returning the entry it recorded with the token (the room stores it)."""
        if self.accounts[seat] is None or not hmac.compare_digest(self.accounts[seat] or "", account):
            raise ProtocolError("wrong_phase", f"seat {seat} is not this account's")
        if self.status == "finished":
            raise ProtocolError("wrong_phase", "the table is finished")
        token = secrets.token_urlsafe(24)
        return token, [self._record(KeyEntry(seat, token_hash(token), now))]

    def seat_of_account(self, account: str) -> int | None:
        """The seat this account owns (the first, should it own two), or ``None``."""
        return next((seat for seat, owner in enumerate(self.accounts) if owner == account), None)

    def seat_of(self, token: str) -> int | None:
        """The seat this token holds, or ``None``."""
        digest = token_hash(token)
        for seat, held in enumerate(self.token_hashes):
            if held is not None and hmac.compare_digest(held, digest):
                return seat
        return None

    def start_if_ready(self, now: float) -> list[Entry]:
        """Start the match and deal the first deal once every human seat is taken."""
        if self.status != "waiting" or any(name is None for name in self.names):
            return []
        before = self.number
        self._record(StartEntry(self.seed or secrets.token_hex(16), now))
        self._deal(now)
        return self.log[before:]

    def bot_name(self, seat: int) -> str:
        """The bot that acts for ``seat``: its own, or the 托管 bot for a human seat."""
        return self.config.seats[seat].bot or self.AUTO_BOT

    def elapsed(self, now: float) -> float:
        """Seconds since the match began (0 before)."""
        return 0.0 if self.started_at is None else max(0.0, now - self.started_at)

    # -- what happens by itself ------------------------------------------------------------------

    @abstractmethod
    def due(self) -> Due | None:
        """The next automatic step and when it is due, or ``None`` (waiting for players, or over)."""

    @abstractmethod
    def apply_due(self, due: Due, action: Any, now: float) -> list[Entry]:
        """Carry out ``due`` (as :meth:`due` gave it) with the bot's ``action``: nothing when the table
        has moved on since; the first legal action when the bot's is not legal (or missing)."""

    @abstractmethod
    def observation(self, seat: int) -> Any:
        """What ``seat`` may know now (the game's observation: what its bots read)."""

    def step(self, now: float, decide: Decide) -> list[Entry]:
        """Carry out the next automatic step if it is due by ``now`` (what the server's task does,
        without threads): ``decide`` gives the bot's action."""
        next_step = self.due()
        if next_step is None or next_step.at > now:
            return []
        action = None
        if next_step.seat is not None and next_step.kind in ("bot", "auto", "clock"):
            seat = next_step.seat
            action = decide(seat, self.bot_name(seat), self.observation(seat))
        return self.apply_due(next_step, action, now)

    def restart_clocks(self, now: float) -> None:
        """After the server was down: the player to act gets a full clock and the deal pause starts
        again."""
        self.turn_started = now
        self.deal_ended = now

    # -- actions ---------------------------------------------------------------------------------

    @property
    @abstractmethod
    def current_player(self) -> int | None:
        """The seat to act in the deal in play, or ``None``."""

    def check_turn(self, seat: int) -> None:
        """Refuse an action of ``seat`` unless a deal is in play and it is the seat's turn."""
        if self.status == "waiting":
            raise ProtocolError("wrong_phase", "the match has not started: seats are still empty")
        if self.status == "finished":
            raise ProtocolError("wrong_phase", "the match is over")
        current = self.current_player
        if current is None:
            raise ProtocolError("wrong_phase", "the deal is over; the next one is about to start")
        if seat != current:
            raise ProtocolError(
                "out_of_turn", f"it is seat {current}'s turn ({self.names[current]}), not seat {seat}'s"
            )

    def resume(self, seat: int, now: float) -> list[Entry]:
        """The player takes the seat back from 托管 (nothing happens when it is not in 托管)."""
        if not self.auto[seat]:
            return []
        return [self._record(AutoEntry(seat, False, now))]

    def set_auto(self, seat: int, on: bool, now: float) -> list[Entry]:
        """The player turns 托管 on or off at will (the ``auto`` message): a match in play only, and not
        at a table with a conduct policy (a tournament's: a bot may not play a player's match for it)."""
        if not on:
            return self.resume(seat, now)
        if self.status != "running":
            raise ProtocolError("wrong_phase", f"the table is {self.status}: 托管 needs a match in play")
        if self.config.conduct is not None:
            raise ProtocolError("wrong_phase", "a tournament table plays without 托管 by choice")
        if self.auto[seat]:
            return []
        return [self._record(AutoEntry(seat, True, now))]

    def choose(self, seat: int, message: Choose | Mapping[str, Any], now: float) -> list[Entry]:
        """A ``choose`` message: refused where the game has no conduct choices."""
        raise ProtocolError("wrong_phase", "there is no open choice at this table")

    def waits_for_choice(self) -> bool:
        """Whether play waits for a 下家's choice (tournament conduct; never at a game without it)."""
        return False

    def fault(self, seat: int, error: ProtocolError, now: float) -> list[Entry]:
        """A bot account's refused ``act`` as a fault (Guandan's tables count them: docs/ladder.md,
        "Clocks and faults"); nothing here."""
        return []

    def penalise(self, seat: int, offence: Offence, now: float) -> list[Entry]:
        """Penalise ``seat`` under the table's conduct policy (none here: nothing happens)."""
        return []

    @property
    def penalties(self) -> tuple[PenaltyRecord, ...]:
        return ()

    # -- the log ---------------------------------------------------------------------------------

    @abstractmethod
    def _deal(self, now: float) -> None:
        """Record the next deal."""

    def _record(self, entry: LogEntry) -> Entry:
        """Apply a new entry and append it to the log (as its JSON); the one place the log is written."""
        stored = self._apply(entry).to_json()
        self.log.append(stored)
        return stored

    def _apply(self, entry: LogEntry) -> LogEntry:
        """Apply one entry (live or replayed) by its type; what is returned is the entry with what
        applying it notes (an ``action``'s ``private_to`` …). A type the game does not write is a
        ``ValueError``."""
        apply = self._apply_by_type.get(type(entry))
        if apply is None:
            raise ValueError(f"unknown entry type {entry.to_json()['type']!r}")
        return apply(entry) or entry

    def _appliers(self) -> dict[type[Any], Callable[[Any], LogEntry | None]]:
        """How each type of entry is applied (a game's table adds its own kinds): a method that takes
        the entry and returns it annotated, or ``None`` when there is nothing to note."""
        return {
            SitEntry: self._apply_sit,
            KeyEntry: self._apply_key,
            StartEntry: self._apply_start,
            AutoEntry: self._apply_auto,
        }

    def _apply_sit(self, entry: SitEntry) -> None:
        if self.names[entry.seat] is not None:
            raise ValueError(f"seat {entry.seat} is already taken")
        self.names[entry.seat] = entry.name
        self.token_hashes[entry.seat] = entry.token_hash
        self.accounts[entry.seat] = entry.account

    def _apply_key(self, entry: KeyEntry) -> None:
        if self.accounts[entry.seat] is None:
            raise ValueError(f"seat {entry.seat} has no account to take a new token")
        self.token_hashes[entry.seat] = entry.token_hash

    def _apply_start(self, entry: StartEntry) -> None:
        self.seed = entry.seed
        self.status = "running"
        self.started_at = entry.at

    def _apply_auto(self, entry: AutoEntry) -> None:
        self.auto[entry.seat] = entry.on
        if not entry.on and entry.seat == self.current_player:
            self.turn_started = entry.at

    def _finish(self, entry: MatchEndEntry) -> None:
        """The ``match_end`` entry applied: the table is finished."""
        self.status = "finished"
        self.end = entry

    # -- what a viewer sees ----------------------------------------------------------------------

    @abstractmethod
    def project(self, entry: Entry, viewer: int | None) -> Entry:
        """A log entry as ``viewer`` (a seat, or ``None`` for a spectator) may see it."""

    def events_for(
        self, viewer: int | None, since: int = 0, upto: int | None = None
    ) -> list[tuple[int, Entry]]:
        """The entries after number ``since`` (up to number ``upto``, default the last), numbered and
        projected for ``viewer``."""
        start = max(0, since)
        return [
            (number, self.project(entry, viewer))
            for number, entry in enumerate(self.log[start:upto], start + 1)
        ]

    def seat_view(self, seat: int, cards: int) -> dict[str, Any]:
        """What the state says of every seat (a game's view adds its own): who sits there (and the key
        of its account, if any), its team, how many cards it holds, whether it is connected and in
        托管."""
        config = self.config.seats[seat]
        return {
            "seat": seat,
            "name": self.names[seat],
            "account": self.accounts[seat],
            "kind": config.kind,
            "bot": config.bot,
            "team": seat % 2,
            "cards": cards,
            "connected": config.kind == "bot" or self.connected[seat],
            "auto": self.auto[seat],
        }

    @abstractmethod
    def outcome(self) -> dict[str, Any] | None:
        """The state's ``result`` once the match is over (``None`` before)."""

    def phase(self) -> str:
        """``waiting``, the phase of the deal in play (Guandan's ``tribute``, ``return``, ``play``;
        Shengji's ``declare``, ``kitty``, ``tricks``), ``between`` (deals) or ``finished``."""
        if self.status != "running":
            return self.status
        deal = self.match.current_deal
        return "between" if deal is None else str(deal.phase.value)

    def state_head(self, viewer: int | None) -> dict[str, Any]:
        """The ``state`` message's fields every game has: the table, the viewer, levels and phase."""
        config = self.config
        return {
            "type": "state",
            "v": 1,
            "game": config.game,
            "number": self.number,
            "table": {
                "id": self.id,
                "name": config.name,
                "game": config.game,
                "status": self.status,
                "rules": config.rules,
                "max_deals": config.max_deals,
                "clocks": config.clocks.to_dict(),
            },
            "seat": viewer,
            "levels": self.team_levels,
            "deal_number": self.deals_dealt,
            "phase": self.phase(),
        }

    # -- records and the lobby -------------------------------------------------------------------

    @property
    def deals_dealt(self) -> int:
        """How many deals have been dealt (the one in play included)."""
        return len(self.match.deals)

    @property
    def deals_finished(self) -> int:
        """How many deals are over."""
        return len(self.match.summaries)

    @property
    def team_levels(self) -> list[str]:
        """Both teams' levels, as rank letters."""
        return [rank.letter for rank in self.match.levels]

    @abstractmethod
    def _match_record(self, names: list[str], meta: dict[str, Any]) -> dict[str, Any]:
        """The game's match record of the deals so far (docs/records.md)."""

    def record(self) -> dict[str, Any]:
        """The match record (``cardroom replay`` reads it). While the match runs, only the finished
        deals are in it: the deal in play would show every hand."""
        names = [name or f"seat {seat}" for seat, name in enumerate(self.names)]
        meta: dict[str, Any] = {
            "table": self.id,
            "name": self.config.name,
            "config": self.config.to_dict(),
            "status": self.status,
        }
        if self.config.event is not None:
            meta["event"] = self.config.event.to_dict()
        if self.end is not None:
            meta["outcome"] = self.outcome()
        if self.penalties:
            meta["penalties"] = [penalty.to_dict() for penalty in self.penalties]
        record = self._match_record(names, meta)
        if self.status != "finished":
            record["deals"] = record["deals"][: self.deals_finished]
        return record

    def summary(self) -> dict[str, Any]:
        """The lobby's line for this table."""
        return {
            "id": self.id,
            "name": self.config.name,
            "game": self.config.game,
            "status": self.status,
            "rules": self.config.rules,
            "max_deals": self.config.max_deals,
            "clocks": self.config.clocks.to_dict(),
            "rated": self.config.is_rated,
            "seats": [
                {
                    "seat": seat,
                    "name": self.names[seat],
                    "kind": config.kind,
                    "bot": config.bot,
                    "account": self.accounts[seat],
                }
                for seat, config in enumerate(self.config.seats)
            ],
            "deal_number": self.deals_dealt,
            "levels": self.team_levels,
        }


__all__ = ["Decide", "Due", "DueKind", "Entry", "SeatedTable", "Status", "public_entry"]
