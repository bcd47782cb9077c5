"""The asyncio side of the card room: one :class:`Room` per table (its connections, the task that runs
clocks and bots) and :class:`Rooms`, the registry that creates, resumes and finds them.

Every change to a table goes the same way (:meth:`Room.commit`): the pure table appends entries to its
log and returns them; those entries go to the store writer (:mod:`cardroom.server.storage.writer`: off
the event loop, batched with other tables'); once they are stored, every connection gets them as its
viewer may see them and a fresh ``state``. Nobody hears of an entry before it is stored.

A table is in memory only while it is used: :meth:`Rooms.sweep` unloads a table nobody is connected to
and where nothing is due (no bot's move, no clock, nothing being stored) once it has been idle for
``Settings.unload_after`` seconds, or at once past ``Settings.idle_tables`` idle ones; asked for again,
it is replayed from its log. A table that waits for its players longer than ``Settings.waiting_expiry``
expires: it is deleted (no card was dealt), its clients told.

With several processes on one database (:mod:`cardroom.server.storage.leases`), a process keeps a table live
only while it holds the table's lease; :meth:`Rooms.locate` says which process owns a table, and
:meth:`Rooms.tend` renews the leases, lets go of tables lost, and adopts those whose process died.
A table whose write failed halts until the store answers (:mod:`cardroom.server.live.recovery`).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
import time
import zlib
from collections.abc import Callable, Coroutine, Mapping, Sequence
from datetime import UTC, datetime, timedelta
from typing import Any, Final

from cardroom.server.live.bot_runner import BotRunner
from cardroom.server.live.limits import Bucket, Rate
from cardroom.server.live.recovery import (
    RECONNECT_CLOSE,
    Entries,
    Recovery,
    cannot_store,
    halted_frame,
)
from cardroom.server.live.settings import Settings
from cardroom.server.storage.leases import PRIMARY, Leases, table_key
from cardroom.server.storage.store import LeaseRow, Store, Write
from cardroom.server.storage.writer import StoreWriter
from cardroom.server.tables.codec import (
    Act,
    Auto,
    Chat,
    Check,
    Choose,
    ClientMessage,
    Hint,
    Join,
    Legal,
    Ping,
    ProtocolError,
    Resume,
    read_message,
    server_message,
)
from cardroom.server.tables.config import TableConfig
from cardroom.server.tables.refusals import RefusedError
from cardroom.server.tables.registry import GameTable, new_table, replay_table
from cardroom.server.tables.seated import Due, Entry, Status
from cardroom.server.tables.seats import is_bot_account, token_hash
from cardroom.tournament.conduct import Offence

log = logging.getLogger(__name__)

QUEUE_LIMIT: Final = 2000
"""Messages waiting for one connection before it is dropped as too slow."""

CHAT_RATE: Final = Rate(3, 0.2)
"""Quick chat per seat: 3 at once, then one every 5 s."""

LIST_LIMIT: Final = 200
"""The most tables the lobby's list shows (the newest)."""
DECISION_MESSAGES: Final = 4
"""Messages (``legal``, ``hint``, ``act``…) a ladder bot's connection may send about one decision of its
seat free of the rate limits (docs/server.md, "Limits"); past these they are limited as any."""

SEAT_REPLACED_CLOSE: Final = 4409
"""The websocket close code of a connection whose seat was claimed again with a new token (another
device took it): its token holds nothing any more (HTTP's 409, a conflict)."""
EXPIRED_CLOSE: Final = 4410
"""The websocket close code when the table expired, nobody having taken its last seat in time (HTTP's
410, gone): do not reconnect."""
SWEEP_MOST: Final = 5.0
"""Seconds between two sweeps at most (unloading idle tables, expiring waiting ones)."""

Listener = Callable[["Room", Sequence[Entry]], None]
"""Told after every commit: the room and the entries just stored (the tournament director and the
ratings listen)."""
Person = tuple[int, str, str, str | None]
"""A tournament's player seated when its table is made: seat, name, token hash, account key."""


class TableMovingError(RuntimeError):
    """The table is between processes (its owner died and no process may take it yet): try again."""


class Connection:
    """One websocket client of a table: its seat once joined (``None``: a spectator) and the queue of
    messages the websocket task sends in order."""

    def __init__(self) -> None:
        self.joined = False
        self.seat: int | None = None
        self.token_hash: str | None = None
        """The hash of the token it joined its seat with: once the seat has another, it holds nothing."""
        self.account: str | None = None
        """The bot account it signed in as with the bot's API token (docs/ladder.md), if any."""
        self.decision_messages: tuple[tuple[int, int], int] = ((-1, -1), 0)
        """The decision (seat, event number) its last messages free of the rate limits were about, and
        how many (:meth:`Room.decision_message`)."""
        self.queue: asyncio.Queue[dict[str, Any] | None] = asyncio.Queue()
        self.closed = False
        self.ending: tuple[int, str] = (1000, "")
        """The close code and reason its websocket is closed with (docs/protocol.md, "Close codes")."""

    def send(self, message: dict[str, Any]) -> None:
        """Queue a message; a client that lets too many pile up is closed."""
        if self.closed:
            return
        if self.queue.qsize() >= QUEUE_LIMIT:
            self.close()
            return
        self.queue.put_nowait(message)

    def close(self, code: int = 1000, reason: str = "") -> None:
        """Close it (after the messages queued) with ``code`` and ``reason``."""
        if not self.closed:
            self.closed = True
            self.ending = (code, reason)
            self.queue.put_nowait(None)

    def end(self, error: ProtocolError, code: int) -> None:
        """Tell the client why (an ``error`` frame), then close with ``code``."""
        self.send(error.frame())
        self.close(code, error.message[:120])


class Room:
    """A live table: the :class:`Table`, who is connected, and the task that makes bots, 托管 seats,
    clocks and the next deal happen on time."""

    def __init__(
        self,
        table: GameTable,
        store: Store,
        writer: StoreWriter,
        runner: BotRunner,
        clock: Callable[[], float] = time.time,
        listeners: list[Listener] | None = None,
    ) -> None:
        self.table = table
        self.store = store
        self.writer = writer
        self.runner = runner
        self.stored = table.number
        """The number of the last entry stored (and so sent): the table may be ahead while writing."""
        self.generation = 0
        """Counts reloads: a write answered after one belongs to the table before it."""
        self.shown_status = table.status
        """The table's status as stored and told (the lobby's), behind ``table.status`` while writing."""
        self.clock = clock
        self.listeners: list[Listener] = listeners if listeners is not None else []
        self.lost: dict[int, asyncio.TimerHandle] = {}
        """Seats whose connection was lost, with the timer that penalises it after the grace."""
        self.connections: set[Connection] = set()
        """The connections that joined (seated or watching): they are told every change."""
        self.attached: set[Connection] = set()
        """Every websocket of the table, joined or not yet: while one is open, it stays in memory."""
        self.active_at = clock()
        """When it was last asked for or left by a client (its idle time counts from then)."""
        self.wake = asyncio.Event()
        self.task: asyncio.Task[None] | None = None
        self.stored_status = table.status
        self.written_summary: dict[str, Any] | None = None
        """The lobby's line as last sent to the store."""
        self.halted = False
        """A write failed: the table takes no move and runs no clock until :meth:`rebuild`."""
        self.on_halt: Callable[[Room], None] = lambda _room: None
        """Called when the table halts (the rooms try the store until they can rebuild it)."""
        self.chat_buckets: dict[int, Bucket] = {}
        """Each seat's quick chat allowance (:data:`CHAT_RATE`)."""

    def start(self) -> None:
        """Start the task that runs the table's clocks and bots."""
        if self.task is None:
            self.task = asyncio.create_task(self._run(), name=f"table {self.table.id}")

    async def stop(self, code: int = 1000, reason: str = "") -> None:
        """Stop the task and close every websocket of the table, joined or not, with ``code`` and
        ``reason``."""
        if self.task is not None:
            self.task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self.task
            self.task = None
        for connection in list(self.attached | self.connections):
            connection.close(code, reason)
        for handle in self.lost.values():
            handle.cancel()
        self.lost.clear()

    def attach(self, connection: Connection) -> None:
        """A websocket of this table opened (it joins later)."""
        self.attached.add(connection)
        self.active_at = self.clock()

    def idle(self) -> bool:
        """Whether it may leave memory now: no websocket open, nothing due (no bot's or 托管 move, no
        clock, no deal to come, no lost connection awaiting its grace), nothing being stored, and not
        halted (a halted table waits in memory to be rebuilt, :mod:`cardroom.server.live.recovery`)."""
        self.attached = {connection for connection in self.attached if not connection.closed}
        return (
            not self.attached
            and not self.halted
            and not self.lost
            and self.stored == self.table.number
            and self.table.due() is None
        )

    # -- changes ---------------------------------------------------------------------------------

    def commit(self, entries: Sequence[Entry]) -> asyncio.Future[None]:
        """Store the entries a table's method returned, the last of its log (off the event loop), then
        tell every connection; the future is done once they are stored (an HTTP answer waits for it)."""
        table = self.table
        upto = table.number
        before = upto - len(entries)
        assert not entries or table.log[-1] is entries[-1], "the entries to commit end the log"
        status = table.status if table.status != self.stored_status else None
        self.stored_status = table.status
        summary: dict[str, Any] | None = table.summary()
        if summary == self.written_summary:
            summary = None
        else:
            self.written_summary = summary
        write = Write(
            table.id,
            tuple(enumerate(entries, before + 1)),
            status,
            table.record() if table.status == "finished" else None,
            summary,
        )
        self.wake.set()
        generation = self.generation
        done = asyncio.wrap_future(self.writer.submit(write))
        status_now: Status = table.status
        done.add_done_callback(lambda future: self._stored(future, before, upto, generation, status_now))
        return done

    def summary(self) -> dict[str, Any]:
        """The lobby's line for the table, with its status as stored."""
        return {**self.table.summary(), "status": self.shown_status}

    def _stored(
        self, future: asyncio.Future[None], before: int, upto: int, generation: int, status: Status
    ) -> None:
        """A write answered: tell everyone, or halt the table when it failed."""
        failed = future.cancelled() or future.exception() is not None
        if generation != self.generation:
            return
        if failed:
            self.halt()
            return
        self.stored = upto
        self.shown_status = status
        self.broadcast(before, upto)
        self._tell_listeners(self.table.log[before:upto])

    def halt(self) -> None:
        """A write failed: what is not stored is never told; the table takes no move, runs no clock
        and no bot, and its clients hear ``halted``, until :meth:`rebuild` from the store."""
        if self.halted:
            return
        log.error("table %s: storing failed; it waits until the store answers", self.table.id)
        self.halted = True
        self.generation += 1
        frame = halted_frame()
        for connection in list(self.connections):
            connection.send(frame)
        self.on_halt(self)

    def rebuild(self, entries: Entries) -> None:
        """Replay the stored log ``entries`` after a halt: the table as stored, its clocks given a full
        turn; every connection gets what it missed and a fresh ``state``."""
        told = self.stored
        self.generation += 1
        connected = self.table.connected
        self.table = replay_table(self.table.id, self.table.config, entries)
        self.table.connected = connected
        self.table.restart_clocks(self.clock())
        self.stored = self.table.number
        self.stored_status = self.shown_status = self.table.status
        self.written_summary = None
        self.halted = False
        self.writer.forgive(self.table.id)
        self.broadcast(min(told, self.stored))
        if self.stored > told:  # a write stored though its answer was lost
            self._tell_listeners(self.table.log[told:])

    def _tell_listeners(self, entries: Sequence[Entry]) -> None:
        for listener in list(self.listeners):
            try:
                listener(self, entries)
            except Exception:
                log.exception("table %s: a listener failed", self.table.id)

    def broadcast(self, before: int, upto: int | None = None) -> None:
        """Send each connection the stored entries after ``before`` (up to ``upto``), projected for it,
        and a fresh state, unless later entries are still being stored (their commit sends it)."""
        upto = self.stored if upto is None else upto
        now = self.clock()
        self.wake.set()
        current = upto == self.table.number and not self.halted
        views: dict[int | None, dict[str, Any]] = {}
        for connection in list(self.connections):
            if connection.closed:
                self.connections.discard(connection)
                continue
            seat = connection.seat
            for number, event in self.table.events_for(seat, before, upto):
                connection.send(server_message("event", number=number, event=event))
            if current:
                if seat not in views:
                    views[seat] = self.table.view(seat, now)
                connection.send(views[seat])

    def create_start(self) -> None:
        """Start a table that needs no human (four bots) as soon as it is made."""
        entries = self.table.start_if_ready(self.clock())
        if entries:
            self.commit(entries)

    def seat_people(self, people: list[Person]) -> None:
        """Seat tournament players: ``(seat, name, token hash, account key)`` each."""
        entries: list[Entry] = []
        for seat, name, hashed, account in people:
            entries += self.table.sit_hashed(seat, name, self.clock(), hashed, account)
        if entries:
            self.commit(entries)

    def forfeit(self, side: int, note: str = "") -> None:
        """End the running match by a forfeit of ``side`` (the director's call)."""
        if self.halted:
            raise cannot_store()
        entries = self.table.forfeit(side, self.clock(), note)
        if entries:
            self.commit(entries)

    def sit(self, seat: int, name: object, account: str | None = None) -> tuple[str, asyncio.Future[None]]:
        """Take a human seat (the lobby's ``POST /api/tables/{id}/seats/{seat}``; ``account``: the key
        of the signed-in account taking it): the seat's token, and the future done once the seat is
        stored. A seat the account owns already gives a new token (:meth:`SeatedTable.new_key`)."""
        if self.halted:
            raise cannot_store()
        if account is not None and seat in range(4) and self.table.accounts[seat] == account:
            token, entries = self.table.renew_key(seat, account, self.clock())
            self._cut_off(seat)
        else:
            token, entries = self.table.take_seat(seat, name, self.clock(), account=account)
        return token, self.commit(entries)

    def _cut_off(self, seat: int) -> None:
        """Close every connection that joined ``seat`` with a token that no longer holds it (its
        account took the seat again elsewhere): told ``seat_replaced``, closed with
        :data:`SEAT_REPLACED_CLOSE`."""
        held = self.table.token_hashes[seat]
        replaced = ProtocolError(
            "seat_replaced",
            f"seat {seat} was taken again with a new token (another device): this connection's token "
            "no longer holds it",
        )
        for connection in list(self.connections):
            if connection.seat == seat and connection.token_hash != held:
                connection.end(replaced, SEAT_REPLACED_CLOSE)
                self.connections.discard(connection)
        self._update_connected({seat})

    # -- messages --------------------------------------------------------------------------------

    async def handle(self, connection: Connection, message: Mapping[str, Any] | ClientMessage) -> None:
        """Answer one client message (its JSON is read once, :func:`read_message`); a refused one raises
        :class:`ProtocolError`."""
        if isinstance(message, Mapping):
            message = read_message(message)
        match message:
            case Ping():
                connection.send(server_message("pong"))
                return
            case Join(token, since):
                self.join(connection, token, since)
                return
        seat = self._seated(connection, message.KIND)
        now = self.clock()
        match message:
            case Act(action):
                try:
                    self.commit(self.table.act(seat, action, now))
                except ProtocolError as error:  # a bot account's illegal action is a fault
                    self._commit_any(self.table.fault(seat, error, now))
                    raise
            case Check():
                self.check(connection, seat, message)
            case Legal():
                actions = self.table.legal_actions_json(seat)
                connection.send(server_message("legal", actions=actions, number=self.table.number))
            case Choose():
                self.commit(self.table.choose(seat, message, now))
            case Resume():
                self._commit_any(self.table.resume(seat, now))
            case Auto(on):
                self._commit_any(self.table.set_auto(seat, on, now))
            case Chat(phrase):
                self.chat(connection, seat, phrase)
            case Hint():
                await self.hint(connection, seat)

    def at_decision(self, connection: Connection) -> bool:
        """Whether ``connection`` is a ladder bot at its own decision now: signed in as the bot account
        that holds its seat at a ladder table, the seat to act. A few of its messages are then bounded by
        the game (one decision at a time a seat), not by the rate limits (docs/server.md, "Limits")."""
        table = self.table
        seat = connection.seat
        return not (
            table.config.ladder is None
            or seat is None
            or connection.account is None
            or connection.closed
            or connection.token_hash != table.token_hashes[seat]
            or table.accounts[seat] != connection.account
            or table.current_player != seat
        )

    def decision_message(self, connection: Connection) -> bool:
        """Whether a message from ``connection`` now is one of a ladder bot's few about its own decision
        (:meth:`at_decision`; ``legal``, ``hint``, ``act``), free of the rate limits (docs/server.md,
        "Limits"): at most :data:`DECISION_MESSAGES` a decision, counted when it is."""
        if not self.at_decision(connection):
            return False
        decision = (connection.seat if connection.seat is not None else -1, self.table.number)
        asked, count = connection.decision_messages
        count = count + 1 if asked == decision else 1
        if count > DECISION_MESSAGES:
            return False
        connection.decision_messages = (decision, count)
        return True

    def refuse_act(self, seat: int, reason: str) -> bool:
        """A move of ``seat`` that could not be read as an action (a bot's answer over another protocol:
        an index off its list, junk): counted as an ``act`` the rules refuse is, a fault when the seat is
        a bot account's and on its turn (docs/ladder.md, "Clocks and faults"); whether it was one."""
        if self.halted:
            raise cannot_store()
        entries = self.table.fault(seat, ProtocolError("bad_message", reason), self.clock())
        self._commit_any(entries)
        return bool(entries)

    def _seated(self, connection: Connection, kind: str) -> int:
        """The seat a joined connection holds, to send a message of ``kind``: refused before ``join``,
        from a spectator, from a token that no longer holds the seat, and while the table is halted."""
        if not connection.joined:
            raise ProtocolError("bad_message", f'send "join" before {kind!r}')
        seat = connection.seat
        if seat is None:
            raise ProtocolError("not_seated", f"spectators cannot {kind}: join with a seat token")
        if connection.closed or connection.token_hash != self.table.token_hashes[seat]:
            raise ProtocolError("seat_replaced", f"this connection's token no longer holds seat {seat}")
        if self.halted:
            raise cannot_store()
        return seat

    def _commit_any(self, entries: Sequence[Entry]) -> None:
        """Commit ``entries`` unless there are none (nothing changed)."""
        if entries:
            self.commit(entries)

    def join(self, connection: Connection, token: str | None, since: int) -> None:
        """``join``: take the token's seat (or watch), then get ``welcome``, what was missed, ``state``."""
        if not 0 <= since <= self.stored:
            raise ProtocolError(
                "bad_message",
                f"join.since: the last event number seen, 0 to {self.stored}, got {since!r}",
            )
        seat = None
        if token is not None:
            seat = self.table.seat_of(token)
            if seat is None:
                raise ProtocolError("bad_token", "this token holds no seat at this table")
            owner = self.table.accounts[seat]
            if is_bot_account(owner) and connection.account != owner:
                raise ProtocolError(
                    "bad_token",
                    f"seat {seat} is a bot account's: sign this connection in with the bot's API token "
                    'first ({"type": "auth", "token": …} or an Authorization header)',
                )
        previous = connection.seat if connection.joined else None
        connection.joined = True
        connection.seat = seat
        connection.token_hash = None if seat is None or token is None else token_hash(token)
        self.attached.add(connection)
        self.connections.add(connection)
        table = self.table
        connection.send(
            server_message(
                "welcome",
                table={"id": table.id, "name": table.config.name, "config": table.config.to_dict()},
                seat=seat,
                protocol=1,
            )
        )
        for number, event in table.events_for(seat, since, self.stored):
            connection.send(server_message("event", number=number, event=event))
        changed = self._update_connected({previous, seat})
        if changed:
            self.broadcast(self.stored)
        elif self.stored == table.number and not self.halted:  # else a commit or rebuild sends it
            connection.send(table.view(seat, self.clock()))
        if self.halted:
            connection.send(halted_frame())

    def leave(self, connection: Connection) -> None:
        """A websocket closed: the seat is kept (its clock runs on); others see it disconnected."""
        self.connections.discard(connection)
        self.attached.discard(connection)
        self.active_at = self.clock()
        connection.close()
        if self._update_connected({connection.seat}):
            self.broadcast(self.stored)

    def _update_connected(self, seats: set[int | None]) -> bool:
        changed = False
        for seat in seats:
            if seat is None:
                continue
            now = any(other.seat == seat and not other.closed for other in self.connections)
            if self.table.connected[seat] != now:
                self.table.connected[seat] = now
                changed = True
                self._watch_connection(seat, now)
        return changed

    def _watch_connection(self, seat: int, connected: bool) -> None:
        """At a table with a conduct policy, a seat whose connection is lost for longer than the grace
        is penalised once (掉线); coming back in time cancels it."""
        handle = self.lost.pop(seat, None)
        if handle is not None:
            handle.cancel()
        table = self.table
        policy = table.config.conduct
        if connected or policy is None or policy.disconnection is None or table.status != "running":
            return
        loop = asyncio.get_running_loop()
        self.lost[seat] = loop.call_later(table.config.disconnect_grace, self._disconnected, seat)

    def _disconnected(self, seat: int) -> None:
        self.lost.pop(seat, None)
        if self.table.connected[seat] or self.table.status != "running" or self.halted:
            return
        try:
            self._commit_any(self.table.penalise(seat, Offence.DISCONNECTION, self.clock()))
        except Exception:
            log.exception("table %s: penalising the disconnection of seat %s failed", self.table.id, seat)

    def chat(self, connection: Connection, seat: int, phrase: str) -> None:
        """``chat``: a quick chat phrase (an id of :data:`CHAT_PHRASES`, as the codec checked it) told to
        every connection; not stored. A seat may say :data:`CHAT_RATE`'s number of them."""
        now = self.clock()
        bucket = self.chat_buckets.setdefault(seat, Bucket(CHAT_RATE, now))
        wait = bucket.take(now)
        if wait:
            connection.send(
                server_message(
                    "error",
                    code="rate_limited",
                    message=f"too much quick chat from one seat: {CHAT_RATE}; wait {wait:.1f} s",
                    retry_after=round(wait, 3),
                    refused="chat",
                )
            )
            return
        said = server_message("chat", seat=seat, phrase=phrase, at=now)
        for connection in self.connections:
            connection.send(said)

    def check(self, connection: Connection, seat: int, message: Check) -> None:
        """``check``: whether ``act`` would take the message's action now (the page checks a selection
        before it is sent), answered by ``checked`` with the message's ``id``: the readings of cards
        that read several ways, or the rule's error."""
        number = self.table.number
        try:
            answer = self.table.check(seat, message.action)
        except ProtocolError as error:
            answer = {"ok": False, **error.fields()}
        connection.send(server_message("checked", id=message.ident, number=number, **answer))

    async def hint(self, connection: Connection, seat: int) -> None:
        """``hint``: what the heuristic bot would do for this seat now (``action``), and the choices it
        ranks, its own first (``choices``: the page's Hint cycles through them)."""
        table = self.table
        if table.current_player != seat or table.status != "running" or table.waits_for_choice():
            raise ProtocolError("out_of_turn", "a hint is given when it is your turn")
        number = table.number
        actions = await self.runner.advise(table.config.game, table.AUTO_BOT, number, table.observation(seat))
        if self.table.number == number:
            choices = [table.action_json(action) for action in actions]
            connection.send(server_message("hint", action=choices[0], choices=choices, number=number))

    # -- the clock and bot task ------------------------------------------------------------------

    async def _run(self) -> None:
        while True:
            self.wake.clear()
            due = None if self.halted else self.table.due()
            if due is None:
                await self.wake.wait()
                continue
            delay = due.at - self.clock()
            if delay > 0:
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(self.wake.wait(), delay)
                continue
            try:
                await self._perform(due)
            except Exception:
                log.exception("table %s: the automatic step %s failed", self.table.id, due)
                await asyncio.sleep(1.0)

    async def _perform(self, due: Due) -> None:
        table = self.table
        before = table.number
        action: Any = None
        if due.seat is not None and due.kind in ("bot", "auto", "clock"):
            name = table.bot_name(due.seat)
            seed = zlib.crc32(f"{table.seed}:{table.id}:{due.seat}:{name}:{before}".encode())
            try:
                action = await self.runner.decide(table.config.game, name, seed, table.observation(due.seat))
            except Exception:
                log.exception("table %s: bot %s failed at seat %s", table.id, name, due.seat)
        if self.table is not table or table.number != before or self.halted:
            return
        self._commit_any(table.apply_due(due, action, self.clock()))


class Rooms:
    """Every table of the server in memory, by id: created from the lobby, resumed from the store at
    start, or loaded on demand (to join, watch or take a seat); unloaded when idle (:meth:`sweep`)."""

    def __init__(
        self,
        store: Store,
        settings: Settings,
        clock: Callable[[], float] = time.time,
        leases: Leases | None = None,
    ) -> None:
        self.store = store
        self.leases = leases
        """This process's leases when several share the database; ``None``: it owns every table."""
        self.writer = StoreWriter(store)
        """Every room's store writes, off the event loop (one thread, batched)."""
        self.runner = BotRunner(settings.bot_workers)
        """Where every room's bots think (processes sized to the cores)."""
        self.settings = settings
        self.clock = clock
        self.rooms: dict[str, Room] = {}
        self._stopping: set[asyncio.Future[Any]] = set()
        self.listeners: list[Listener] = []
        """Told after every commit of every room (:data:`Listener`)."""
        self.recovery = Recovery(self._read_stored, self._restore, self.settled)
        """The halted rooms, rebuilt once the store answers again."""
        self.creators: dict[str, str] = {}
        """The address that created each table still waiting for players (this process's, since it
        started): an address may have ``Settings.address_waiting_tables`` of them."""
        self._sweeper: asyncio.Task[None] | None = None
        self._resuming = False
        """While every table is resumed at start: the sweep that follows trims them, once."""

    def start(self) -> None:
        """Start sweeping: idle tables unloaded, waiting ones expired (:meth:`sweep`)."""
        if self._sweeper is None:
            self._sweeper = asyncio.create_task(self._sweep_forever(), name="sweeping the tables")

    @property
    def sweep_interval(self) -> float:
        """Seconds between two sweeps: half the shortest idle or waiting time, at most :data:`SWEEP_MOST`."""
        expiry = self.settings.waiting_expiry
        shortest = min(self.settings.unload_after, SWEEP_MOST * 2 if expiry is None else expiry)
        return min(SWEEP_MOST, max(0.05, shortest / 2))

    async def _sweep_forever(self) -> None:
        while True:
            await asyncio.sleep(self.sweep_interval)
            try:
                await self.sweep()
            except Exception:
                log.exception("sweeping the tables failed; trying again")

    @property
    def primary(self) -> bool:
        """Whether this process runs the events and rates matches (the only process, or the holder
        of the primary lease)."""
        return self.leases is None or self.leases.holds(PRIMARY)

    def resume_all(self) -> int:
        """Rebuild every waiting and running table this process may own from its stored log; how
        many were resumed."""
        count = 0
        self._resuming = True
        try:
            for row in self.store.tables(["waiting", "running"]):
                if row.id in self.rooms:
                    continue
                try:
                    if isinstance(self._own(row.id, row.config), Room):
                        count += 1
                except Exception:
                    log.exception("table %s cannot be resumed", row.id)
        finally:
            self._resuming = False
        return count

    def _load(self, table_id: str, config_values: dict[str, Any]) -> Room:
        table = self._replay(table_id, config_values)
        room = self._add(Room(table, self.store, self.writer, self.runner, self.clock, self.listeners))
        self._trim(keep=room)
        return room

    def _replay(self, table_id: str, config_values: dict[str, Any]) -> GameTable:
        config = TableConfig.from_dict(config_values, self.settings.table_defaults)
        table = replay_table(table_id, config, self.store.entries(table_id))
        table.restart_clocks(self.clock())
        return table

    def _add(self, room: Room) -> Room:
        room.on_halt = lambda halted: self.recovery.add(halted.table.id)
        self.rooms[room.table.id] = room
        room.start()
        return room

    def _own(self, table_id: str, config_values: dict[str, Any]) -> Room | LeaseRow | None:
        """Load a waiting or running table when this process may own it: its room; else the lease
        of the process that owns it, or ``None`` when it is an event's table and this process is
        not the primary one (the primary process owns those)."""
        if self.leases is None:
            return self._load(table_id, config_values)
        if config_values.get("event") is not None and not self.primary:
            return self.leases.owner(PRIMARY)
        lease = self.leases.claim(table_key(table_id))
        if lease.node != self.leases.node.name:
            return lease
        return self._load(table_id, config_values)

    def locate(self, table_id: str) -> Room | LeaseRow | None:
        """Where the table lives: its room here (loaded from the store if need be, taking its lease),
        the lease of the process that owns it, or ``None`` for an unknown id. A finished table is
        loaded anywhere (it changes no more). Raises :class:`TableMovingError` while nobody may own it."""
        room = self.rooms.get(table_id)
        if room is not None:
            room.active_at = self.clock()
            return room
        row = self.store.table(table_id)
        if row is None:
            return None
        if row.status == "finished" or self.leases is None:
            return self._load(row.id, row.config)
        found = self._own(row.id, row.config)
        if found is None:
            raise TableMovingError(f"table {table_id!r} is moving to another server process; try again")
        return found

    def owner(self, table_id: str) -> LeaseRow | None:
        """The lease of the other process that owns the table (its requests go there); ``None`` to
        serve it here (this process's, a finished or an unknown table: nothing is loaded for those).
        Raises :class:`TableMovingError` while nobody may own it."""
        if self.leases is None or table_id in self.rooms:
            return None
        row = self.store.table(table_id)
        if row is None or row.status == "finished":
            return None
        found = self._own(row.id, row.config)
        if found is None:
            raise TableMovingError(f"table {table_id!r} is moving to another server process; try again")
        return found if isinstance(found, LeaseRow) else None

    def summary_of(self, table_id: str) -> dict[str, Any] | None:
        """The lobby's line of a table (``None`` for an unknown id), from memory or, for a table not
        loaded, from the store: reading it loads nothing."""
        room = self.rooms.get(table_id)
        if room is not None:
            return room.summary()
        row = self.store.table(table_id)
        if row is None:
            return None
        if row.summary is not None:
            return {**row.summary, "status": row.status}
        return self._stored_summary(row.id, row.config, row.status)

    def record_of(self, table_id: str) -> dict[str, Any] | None:
        """The match record (only the finished deals while it runs; ``None`` for an unknown id), read
        without loading the table: a finished one's as stored when it ended, a waiting one's replayed
        for the caller (a few entries) and not kept."""
        room = self.rooms.get(table_id)
        if room is not None:
            return room.table.record()
        row = self.store.table(table_id)
        if row is None:
            return None
        if row.status == "finished":
            stored = self.store.record(table_id)
            if stored is not None:
                return stored
        elif row.status == "waiting":
            return self._replay(row.id, row.config).record()
        found = self.get(table_id)
        return None if found is None else found.table.record()

    def game(self, table_id: str) -> str | None:
        """The game a table plays (``None`` for an unknown id), wherever it lives."""
        room = self.rooms.get(table_id)
        if room is not None:
            return room.table.config.game
        row = self.store.table(table_id)
        return None if row is None else str(row.config.get("game", "guandan"))

    def get(self, table_id: str) -> Room | None:
        """The live room, loading a stored table that is not in memory; ``None`` for an unknown id
        or a table another process owns."""
        found = self.locate(table_id)
        return found if isinstance(found, Room) else None

    def waiting_refusal(self, address: str) -> RefusedError | None:
        """Why ``address`` may not create another table that waits for players (429: it has
        ``Settings.address_waiting_tables`` waiting already), or ``None``."""
        most = self.settings.address_waiting_tables
        if most is None:
            return None
        self._forget_started()
        if sum(1 for creator in self.creators.values() if creator == address) < most:
            return None
        return RefusedError(429, "too_many_waiting", most=most)

    def _forget_started(self) -> None:
        """Drop the creators of tables no longer waiting (started, or gone from memory and store)."""
        for table_id in list(self.creators):
            room = self.rooms.get(table_id)
            if room is not None and room.table.status != "waiting":
                del self.creators[table_id]

    def create(
        self,
        config: TableConfig,
        people: list[Person] | None = None,
        creator: str | None = None,
        *,
        seed: str | None = None,
    ) -> Room:
        """A new table, stored, its task started (a table of four bots starts playing at once);
        ``people`` are seated first (a tournament's players, a ladder's bot accounts). ``creator``, the
        client's address, is counted against its waiting tables (:meth:`waiting_refusal`) while the
        table waits. ``seed``: the secret the deals are shuffled from (a ladder pair's two tables share
        one), drawn at the start when not given."""
        table_id = secrets.token_hex(5)
        while table_id in self.rooms or self.store.table(table_id) is not None:
            table_id = secrets.token_hex(5)
        self.store.create_table(table_id, config.to_dict(), datetime.fromtimestamp(self.clock(), UTC))
        if self.leases is not None:
            self.leases.claim(table_key(table_id))
        table = new_table(table_id, config, seed=seed)
        room = self._add(Room(table, self.store, self.writer, self.runner, self.clock, self.listeners))
        if people:
            room.seat_people(people)
        room.create_start()
        if creator is not None and room.table.status == "waiting":
            self.creators[table_id] = creator
        return room

    def listed(self, statuses: tuple[str, ...] = ("waiting", "running")) -> list[dict[str, Any]]:
        """The lobby's list, newest first."""
        result = []
        for row in self.store.tables(list(statuses))[:LIST_LIMIT]:
            room = self.rooms.get(row.id)
            if room is not None:
                line = room.summary()
            elif row.summary is not None:
                line = {**row.summary, "status": row.status}
            else:
                line = self._stored_summary(row.id, row.config, row.status)
            line["created"] = row.created.isoformat()
            line["updated"] = row.updated.isoformat()
            result.append(line)
        return result

    def _stored_summary(self, table_id: str, config_values: dict[str, Any], status: str) -> dict[str, Any]:
        """A finished table not in memory, from its config and saved record (which names the seats,
        not their accounts)."""
        config = TableConfig.from_dict(config_values, self.settings.table_defaults)
        record = self.store.record(table_id) or {}
        names = record.get("seats") or [None] * 4
        result = record.get("result") or {}
        return {
            "id": table_id,
            "name": config.name,
            "game": config.game,
            "status": status,
            "rules": config.rules,
            "max_deals": config.max_deals,
            "clocks": config.clocks.to_dict(),
            "rated": config.is_rated,
            "seats": [
                {
                    "seat": seat,
                    "name": names[seat],
                    "kind": seat_config.kind,
                    "bot": seat_config.bot,
                    "account": None,
                }
                for seat, seat_config in enumerate(config.seats)
            ],
            "deal_number": len(record.get("deals", [])),
            "levels": result.get("levels", ["2", "2"]),
        }

    # -- idle and expired tables -----------------------------------------------------------------

    async def sweep(self) -> None:
        """Unload the tables idle for ``Settings.unload_after`` seconds (and the longest idle past
        ``Settings.idle_tables``), then expire the tables that waited for their players longer than
        ``Settings.waiting_expiry``."""
        now = self.clock()
        self._forget_started()
        for room in self._idle():
            if now - room.active_at >= self.settings.unload_after:
                self._unload(room)
        self._trim()
        expiry = self.settings.waiting_expiry
        if expiry is None:
            return
        cutoff = datetime.fromtimestamp(now, UTC) - timedelta(seconds=expiry)
        for table_id in await asyncio.to_thread(self.store.waiting_since, cutoff):
            try:
                self.expire(table_id)
            except Exception:
                log.exception("table %s could not be expired", table_id)

    def _idle(self, keep: Room | None = None) -> list[Room]:
        """The rooms that may leave memory now (but ``keep``), the longest idle first."""
        idle = [room for room in self.rooms.values() if room is not keep and room.idle()]
        return sorted(idle, key=lambda room: room.active_at)

    def _trim(self, keep: Room | None = None) -> None:
        """Unload the longest idle rooms past ``Settings.idle_tables`` (never ``keep``, just loaded)."""
        if len(self.rooms) <= self.settings.idle_tables or self._resuming:
            return
        idle = self._idle(keep)
        for room in idle[: max(0, len(idle) - self.settings.idle_tables)]:
            self._unload(room)

    def _unload(self, room: Room) -> None:
        """Let an idle room go (it is replayed from its log when asked for again). A waiting table's
        lease is kept (no other process adopts it meanwhile); a finished table's is given back."""
        table_id = room.table.id
        if self.rooms.get(table_id) is not room:
            return
        del self.rooms[table_id]
        if room.table.status != "waiting":
            self.creators.pop(table_id, None)
        self._later(room.stop())
        leases = self.leases
        if leases is not None and room.table.status == "finished" and leases.holds(table_key(table_id)):
            self._later(asyncio.to_thread(leases.release, {table_key(table_id)}))
        log.info("table %s unloaded: idle", table_id)

    def expire(self, table_id: str) -> bool:
        """Delete a table still waiting for its players (its clients told ``table_expired`` and closed
        with :data:`EXPIRED_CLOSE`); whether it was. A table another process owns is left to it."""
        room = self.rooms.get(table_id)
        if room is not None:
            table = room.table
            if table.status != "waiting" or room.stored != table.number or room.halted:
                return False
            gone = ProtocolError(
                "table_expired",
                f"table {table_id!r} expired: nobody took its last seat within "
                f"{self.settings.waiting_expiry or 0:g} s",
            )
            for connection in room.attached | room.connections:
                connection.end(gone, EXPIRED_CLOSE)
            del self.rooms[table_id]
            self._later(room.stop())
        elif self.leases is not None and self.leases.claim(table_key(table_id)).node != self.leases.node.name:
            return False
        deleted = self.store.delete_waiting_table(table_id)
        if self.leases is not None:
            self.leases.held.discard(table_key(table_id))
        self.creators.pop(table_id, None)
        if deleted:
            log.info("table %s expired: nobody took its last seat in time", table_id)
        return deleted

    def _later(self, work: Coroutine[Any, Any, Any]) -> None:
        """Run ``work`` on the loop, kept until done (:meth:`close` waits for nothing of it)."""
        task = asyncio.ensure_future(work)
        self._stopping.add(task)
        task.add_done_callback(self._stopping.discard)

    async def settled(self) -> None:
        """Wait until every change made so far is stored and told (an HTTP answer waits for it, so
        that what it reports is in the store)."""
        await asyncio.wrap_future(self.writer.barrier())

    # -- several processes -----------------------------------------------------------------------

    async def tend(self) -> int:
        """Renew this process's leases, let go of the tables whose lease was lost and of the leases
        of finished tables, and adopt the tables whose process died; how many were adopted. The
        regular queries run off the event loop; adopting a table (rare) replays its log on it."""
        leases = self.leases
        if leases is None:
            return 0
        for key in await asyncio.to_thread(leases.renew):
            room = self.rooms.get(key.removeprefix(table_key("")))
            if room is not None:
                log.warning("table %s: its lease was lost; another process owns it now", room.table.id)
                self._abandon(room)
        finished = {
            table_key(table_id)
            for table_id, room in self.rooms.items()
            if room.shown_status == "finished" and leases.holds(table_key(table_id))
        }
        if finished:
            await asyncio.to_thread(leases.release, finished)
        adopted = 0
        for table_id in await asyncio.to_thread(leases.orphans):
            if table_id in self.rooms:
                continue
            row = self.store.table(table_id)
            try:
                if row is not None and isinstance(self._own(row.id, row.config), Room):
                    log.info("table %s: adopted from a process that stopped", table_id)
                    adopted += 1
            except Exception:
                log.exception("table %s cannot be adopted", table_id)
        return adopted

    def _read_stored(self, table_id: str) -> Entries | None:
        """A halted table's stored log, or ``None`` when another process owns the table now (in a
        thread: the store's calls block)."""
        leases = self.leases
        if leases is not None and leases.claim(table_key(table_id)).node != leases.node.name:
            return None
        return self.store.entries(table_id)

    def _restore(self, table_id: str, entries: Entries | None) -> None:
        room = self.rooms.get(table_id)
        if room is None or not room.halted:
            return
        if entries is None:
            log.warning("table %s: another process owns it now; letting it go", table_id)
            self._abandon(room)
            return
        room.rebuild(entries)
        log.info("table %s: rebuilt from the store", table_id)

    def _abandon(self, room: Room) -> None:
        """Stop a room whose table another process owns now: its clients are told to reconnect
        (:data:`RECONNECT_CLOSE`), and reach the owner."""
        if self.rooms.get(room.table.id) is room:
            del self.rooms[room.table.id]
        self.recovery.discard(room.table.id)
        self.creators.pop(room.table.id, None)
        room.generation += 1
        self._later(room.stop(RECONNECT_CLOSE, "the table moved to another server process; reconnect"))

    async def close(self) -> None:
        """Stop every room (its clients told to reconnect), write what is still queued, then give
        the leases back."""
        if self._sweeper is not None:
            self._sweeper.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._sweeper
            self._sweeper = None
        await self.recovery.close()
        for room in list(self.rooms.values()):
            await room.stop(RECONNECT_CLOSE, "the server process is stopping; reconnect")
        self.rooms.clear()
        await asyncio.to_thread(self.writer.close)
        self.runner.close()
        if self.leases is not None:
            self.leases.release()
