"""One card table: a Guandan match, its seats and clocks, and the append-only log that rebuilds it.

:class:`Table` is pure: no I/O, no asyncio, no clock of its own (``now`` is passed in). Every change is
an entry of :attr:`Table.log` (docs/protocol.md, "The log"), and :meth:`Table.replay` applies the same
entries to a fresh table, so a table is exactly its log: the server stores each entry as it happens
and rebuilds running tables from the store when it starts again.

What a viewer may see is :mod:`cardroom.server.views`: :meth:`Table.view` (the ``state`` message) and
:meth:`Table.events_for` (the log projected for one seat or a spectator) never hold another seat's
cards.
"""

from __future__ import annotations

import hashlib
import hmac
import random
import secrets
import unicodedata
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Final, Literal

from cardroom.cards import Card, format_cards
from cardroom.guandan.deal import Action, Deal, Phase, PlayAction
from cardroom.guandan.errors import OutOfTurnError, RuleError, WrongPhaseError
from cardroom.guandan.match import Match, MatchPhase, shuffled_hands
from cardroom.guandan.observation import Observation
from cardroom.records import record_of
from cardroom.server import views
from cardroom.server.codec import (
    ProtocolError,
    describe,
    from_record_action,
    read_action,
    read_hand,
    record_action,
)
from cardroom.server.config import MAX_NAME, TableConfig

Entry = dict[str, Any]
"""One log entry: a JSON object with a ``type`` (docs/protocol.md)."""

Status = Literal["waiting", "running", "finished"]
DueKind = Literal["bot", "auto", "clock", "deal"]
Decide = Callable[[int, str, Observation], Action]
"""How :meth:`Table.step` gets a bot's decision: (seat, bot name, observation) → action."""

AUTO_BOT: Final = "heuristic"
"""The bot that plays a seat in 托管 (after its clock ran out) and gives hints."""


@dataclass(frozen=True)
class Due:
    """The next thing the table does by itself, at time ``at``: a bot seat acts (``bot``), a seat in
    托管 is played for (``auto``), a human's clock runs out (``clock``), or the next deal is dealt
    (``deal``)."""

    at: float
    kind: DueKind
    seat: int | None = None


def token_hash(token: str) -> str:
    """What the table keeps of a seat token: its SHA-256, in hex."""
    return hashlib.sha256(token.encode()).hexdigest()


def clean_name(name: object) -> str:
    """A player's name: 1 to 40 printable characters, spaces at the ends removed."""
    if not isinstance(name, str):
        raise ProtocolError("bad_message", f"name: a string, got {name!r}")
    text = name.strip()
    if not text or len(text) > MAX_NAME:
        raise ProtocolError("bad_message", f"name: 1 to {MAX_NAME} characters, got {len(text)}")
    if any(unicodedata.category(char).startswith("C") for char in text):
        raise ProtocolError("bad_message", "name: control characters are not allowed")
    return text


def _rule_error_code(error: RuleError) -> Literal["out_of_turn", "wrong_phase", "illegal_action"]:
    if isinstance(error, OutOfTurnError):
        return "out_of_turn"
    if isinstance(error, WrongPhaseError):
        return "wrong_phase"
    return "illegal_action"


class Table:
    """A table: config, seats (names, token hashes, 托管 flags), the match and its log.

    Mutating methods append entries to :attr:`log` and return the new ones; a refused request raises
    :class:`ProtocolError` and changes nothing. ``connected`` is set by the server (it is not logged).
    """

    def __init__(self, table_id: str, config: TableConfig, *, seed: str | None = None) -> None:
        self.id = table_id
        self.config = config
        self.rules = config.ruleset
        self.match = Match(self.rules, max_deals=config.max_deals)
        self.names: list[str | None] = [
            None if seat.kind == "human" else f"{seat.bot} bot" for seat in config.seats
        ]
        self.token_hashes: list[str | None] = [None] * 4
        self.auto = [False] * 4
        self.connected = [False] * 4
        self.log: list[Entry] = []
        self.status: Status = "waiting"
        self.seed = seed
        """The secret the deals are shuffled from (kept in the ``start`` entry, never sent)."""
        self.turn_started = 0.0
        self.deal_ended = 0.0

    # -- rebuilding ------------------------------------------------------------------------------

    @classmethod
    def replay(cls, table_id: str, config: TableConfig, entries: Sequence[Entry]) -> Table:
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
        """Apply one stored entry, as :meth:`replay` does (a step at a time)."""
        self._apply(dict(entry))

    @property
    def number(self) -> int:
        """The number of the last entry (0 for an empty log)."""
        return len(self.log)

    # -- seats -----------------------------------------------------------------------------------

    def sit(self, seat: int, name: object, now: float, token: str | None = None) -> str:
        """Take an empty human seat under ``name``; the seat's token (a new secret unless given) is
        returned, only its hash kept. The match starts when every human seat is taken."""
        if isinstance(seat, bool) or not isinstance(seat, int) or seat not in range(4):
            raise ProtocolError("bad_message", f"seat: 0 to 3, got {seat!r}")
        player = clean_name(name)
        if self.config.seats[seat].kind == "bot":
            raise ProtocolError(
                "wrong_phase", f"seat {seat} is played by the {self.config.seats[seat].bot} bot"
            )
        if self.names[seat] is not None:
            raise ProtocolError("wrong_phase", f"seat {seat} is taken by {self.names[seat]}")
        if self.status != "waiting":
            raise ProtocolError("wrong_phase", f"the table is {self.status}")
        token = token or secrets.token_urlsafe(24)
        self._record(
            {"type": "sit", "seat": seat, "name": player, "token_hash": token_hash(token), "at": now}
        )
        self.start_if_ready(now)
        return token

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
        self._record({"type": "start", "seed": self.seed or secrets.token_hex(16), "at": now})
        self._deal(now)
        return self.log[before:]

    # -- actions ---------------------------------------------------------------------------------

    def act(self, seat: int, action: object, now: float) -> list[Entry]:
        """A seated player's action (the client's shape, docs/protocol.md); it ends the seat's 托管."""
        deal = self._deal_to_act()
        if seat != deal.current_player:
            who = self.names[deal.current_player] if deal.current_player is not None else None
            raise ProtocolError(
                "out_of_turn", f"it is seat {deal.current_player}'s turn ({who}), not seat {seat}'s"
            )
        readings = read_action(seat, action, deal.level, self.rules)
        legal: list[Action] = []
        errors: list[RuleError] = []
        for reading in readings:
            try:
                legal.append(self.match.verify(reading))
            except RuleError as error:
                errors.append(error)
        if not legal:
            raise ProtocolError(_rule_error_code(errors[0]), str(errors[0]))
        if len(legal) > 1:
            plays = [describe(reading.play) for reading in legal if isinstance(reading, PlayAction)]
            raise ProtocolError(
                "ambiguous_play",
                f'these cards can be played as {" or as ".join(plays)}: send "kind" and "rank" to choose',
            )
        before = self.number
        if self.auto[seat]:
            self._record({"type": "auto", "seat": seat, "on": False, "at": now})
        self._play(legal[0], "player", now)
        return self.log[before:]

    def resume(self, seat: int, now: float) -> list[Entry]:
        """The player takes the seat back from 托管 (nothing happens when it is not in 托管)."""
        if not self.auto[seat]:
            return []
        return [self._record({"type": "auto", "seat": seat, "on": False, "at": now})]

    def _deal_to_act(self) -> Deal:
        if self.status == "waiting":
            raise ProtocolError("wrong_phase", "the match has not started: seats are still empty")
        if self.status == "finished":
            raise ProtocolError("wrong_phase", "the match is over")
        deal = self.match.current_deal
        if deal is None:
            raise ProtocolError(
                "wrong_phase", f"deal {len(self.match.deals)} is over; the next one is about to start"
            )
        return deal

    # -- what happens by itself ------------------------------------------------------------------

    def clock(self) -> float | None:
        """Seconds the player to act has for this action, by phase (tribute, return, lead, follow)."""
        deal = self.match.current_deal
        if deal is None or self.status != "running":
            return None
        clocks = self.config.clocks
        if deal.phase is Phase.TRIBUTE:
            return clocks.tribute
        if deal.phase is Phase.RETURN:
            return clocks.return_
        return clocks.lead if deal.previous is None else clocks.follow

    def due(self) -> Due | None:
        """The next automatic step and when it is due, or ``None`` (waiting for players, or over)."""
        if self.status != "running":
            return None
        if self.match.phase is MatchPhase.DEALING:
            return Due(self.deal_ended + self.config.deal_pause, "deal")
        deal = self.match.current_deal
        assert deal is not None
        assert deal.current_player is not None
        seat = deal.current_player
        if self.config.seats[seat].kind == "bot":
            return Due(self.turn_started + self.config.bot_delay, "bot", seat)
        if self.auto[seat]:
            return Due(self.turn_started + self.config.bot_delay, "auto", seat)
        clock = self.clock()
        assert clock is not None
        return Due(self.turn_started + clock, "clock", seat)

    def bot_name(self, seat: int) -> str:
        """The bot that acts for ``seat``: its own, or the 托管 bot for a human seat."""
        return self.config.seats[seat].bot or AUTO_BOT

    def observation(self, seat: int) -> Observation:
        return self.match.observation(seat)

    def apply_due(self, due: Due, action: Action | None, now: float) -> list[Entry]:
        """Carry out ``due`` (as :meth:`due` gave it) with the bot's ``action``: nothing when the table
        has moved on since; the first legal action when the bot's is not legal (or missing)."""
        if self.due() != due:
            return []
        before = self.number
        if due.kind == "deal":
            self._deal(now)
            return self.log[before:]
        chosen: Action | None = None
        if action is not None:
            try:
                chosen = self.match.verify(action)
            except RuleError:
                chosen = None
        if chosen is None:
            chosen = self.match.legal_actions()[0]
        if due.kind == "clock":
            assert due.seat is not None
            self._record({"type": "auto", "seat": due.seat, "on": True, "at": now})
        self._play(chosen, "bot" if due.kind == "bot" else "auto", now)
        return self.log[before:]

    def step(self, now: float, decide: Decide) -> list[Entry]:
        """Carry out the next automatic step if it is due by ``now`` (what the server's task does,
        without threads): ``decide`` gives the bot's action."""
        due = self.due()
        if due is None or due.at > now:
            return []
        action = None
        if due.seat is not None:
            action = decide(due.seat, self.bot_name(due.seat), self.observation(due.seat))
        return self.apply_due(due, action, now)

    def restart_clocks(self, now: float) -> None:
        """After the server was down: the player to act gets a full clock, the deal pause starts again."""
        self.turn_started = now
        self.deal_ended = now

    # -- writing the log -------------------------------------------------------------------------

    def _deal(self, now: float) -> None:
        assert self.seed is not None
        number = len(self.match.deals) + 1
        hands, (holder, card) = shuffled_hands(random.Random(f"{self.seed}:{number}"))
        first = self.match.needs_leader
        self._record(
            {
                "type": "deal",
                "deal_number": number,
                "level": self.match.level.letter,
                "hands": [format_cards(hand) for hand in hands],
                "leader": holder if first else None,
                "turned_card": str(card) if first else None,
                "at": now,
            }
        )

    def _play(self, action: Action, by: str, now: float) -> None:
        self._record(
            {"type": "action", "seat": action.seat, "action": record_action(action), "by": by, "at": now}
        )
        if self.match.phase is MatchPhase.DEAL:
            return
        summary = self.match.summaries[-1]
        self._record(
            {
                "type": "deal_end",
                "deal_number": len(self.match.deals),
                "places": list(summary.result.places),
                "rise": summary.result.rise(self.rules),
                "levels": [level.letter for level in summary.levels_after],
                "at": now,
            }
        )
        if self.match.is_over:
            points = self.match.points()
            self._record(
                {
                    "type": "match_end",
                    "winner": self.match.winner,
                    "levels": [level.letter for level in self.match.levels],
                    "score": list(points),
                    "at": now,
                }
            )

    def _record(self, entry: Entry) -> Entry:
        self._apply(entry)
        return entry

    def _apply(self, entry: Entry) -> None:
        """Apply one entry (live or replayed) and append it to the log."""
        kind = entry["type"]
        at = float(entry["at"])
        if kind == "sit":
            seat = entry["seat"]
            if self.names[seat] is not None:
                raise ValueError(f"seat {seat} is already taken")
            self.names[seat] = entry["name"]
            self.token_hashes[seat] = entry["token_hash"]
        elif kind == "start":
            self.seed = entry["seed"]
            self.status = "running"
        elif kind == "deal":
            hands = [read_hand(text) for text in entry["hands"]]
            turned = Card.parse(entry["turned_card"]) if entry.get("turned_card") else None
            dealt = self.match.deal(hands, entry.get("leader"), turned)
            exempt = [event.seat for event in dealt.events if event.kind == "anti_tribute"]
            if exempt:
                entry["anti_tribute"] = exempt
            self.turn_started = at
        elif kind == "action":
            current = self.match.current_deal
            if current is None:
                raise ValueError("an action outside a deal")
            before = len(current.events)
            self.match.apply(from_record_action(entry["action"], current.level, self.rules))
            self._annotate(entry, current, before)
            self.turn_started = at
        elif kind == "auto":
            seat = entry["seat"]
            self.auto[seat] = bool(entry["on"])
            if not entry["on"] and seat == self.match.current_player:
                self.turn_started = at
        elif kind == "deal_end":
            if not self.match.summaries or list(self.match.summaries[-1].result.places) != entry["places"]:
                raise ValueError("the deal's places differ from the log")
            self.deal_ended = at
        elif kind == "match_end":
            if not self.match.is_over:
                raise ValueError("the match is not over")
            self.status = "finished"
        else:
            raise ValueError(f"unknown entry type {kind!r}")
        self.log.append(entry)

    @staticmethod
    def _annotate(entry: Entry, deal: Deal, before: int) -> None:
        """Note on an action entry what the projection needs: who may see its card (a face-down
        tribute, a return) and the tributes handed over by it."""
        events = deal.events[before:]
        private = next((event.private_to for event in events if event.private_to is not None), None)
        if private is not None:
            entry["private_to"] = list(private)
        handed = [
            {"from": event.seat, "to": event.to, "card": str(event.card)}
            for event in events
            if event.kind == "tribute"
        ]
        if handed:
            entry["tributes"] = handed

    # -- what a viewer sees (cardroom.server.views) ---------------------------------------------

    def phase(self) -> str:
        """``waiting``, ``tribute``, ``return``, ``play``, ``between`` (deals) or ``finished``."""
        if self.status != "running":
            return self.status
        deal = self.match.current_deal
        return "between" if deal is None else deal.phase.value

    def project(self, entry: Entry, viewer: int | None) -> Entry:
        """A log entry as ``viewer`` (a seat, or ``None`` for a spectator) may see it."""
        return views.project(self, entry, viewer)

    def events_for(self, viewer: int | None, since: int = 0) -> list[tuple[int, Entry]]:
        """The entries after number ``since``, numbered and projected for ``viewer``."""
        start = max(0, since)
        return [
            (number, views.project(self, entry, viewer))
            for number, entry in enumerate(self.log[start:], start + 1)
        ]

    def view(self, viewer: int | None, now: float) -> dict[str, Any]:
        """The ``state`` message for ``viewer``: everything needed to draw the table."""
        return views.state(self, viewer, now)

    # -- records ---------------------------------------------------------------------------------

    def record(self) -> dict[str, Any]:
        """The match record (``cardroom replay`` reads it). While the match runs, only the finished
        deals are in it: the deal in play would show every hand."""
        names = [name or f"seat {seat}" for seat, name in enumerate(self.names)]
        meta = {
            "table": self.id,
            "name": self.config.name,
            "config": self.config.to_dict(),
            "status": self.status,
        }
        record = record_of(self.match, names, meta=meta)
        record["deals"] = record["deals"][: len(self.match.summaries)]
        return record

    def summary(self) -> dict[str, Any]:
        """The lobby's line for this table."""
        return {
            "id": self.id,
            "name": self.config.name,
            "status": self.status,
            "rules": self.config.rules,
            "max_deals": self.config.max_deals,
            "clocks": self.config.clocks.to_dict(),
            "seats": [
                {"seat": seat, "name": self.names[seat], "kind": config.kind, "bot": config.bot}
                for seat, config in enumerate(self.config.seats)
            ],
            "deal_number": len(self.match.deals),
            "levels": [rank.letter for rank in self.match.levels],
        }
