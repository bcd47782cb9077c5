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
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any, Final, Literal

from cardroom.cards import Card, format_cards
from cardroom.guandan.deal import Action, Deal, Phase, PlayAction
from cardroom.guandan.errors import OutOfTurnError, RuleError, WrongPhaseError
from cardroom.guandan.match import Match, MatchPhase, shuffled_hands
from cardroom.guandan.observation import Observation
from cardroom.guandan.rulings import FoulRuling, SkipTurnRuling
from cardroom.records import record_of
from cardroom.server import views
from cardroom.server.codec import (
    ChoiceKind,
    ProtocolError,
    describe,
    from_record_action,
    read_action,
    read_choice,
    read_hand,
    record_action,
)
from cardroom.server.config import MAX_NAME, TableConfig
from cardroom.tournament.conduct import (
    EndDeal,
    EndMatch,
    MatchConduct,
    NoEffect,
    Offence,
    PenaltyRecord,
    SkipTurn,
)
from cardroom.tournament.formats import EndReason, MatchOutcome, decide_match, level_name
from cardroom.tournament.scoring import TableResult

Entry = dict[str, Any]
"""One log entry: a JSON object with a ``type`` (docs/protocol.md)."""

Status = Literal["waiting", "running", "finished"]
DueKind = Literal["bot", "auto", "clock", "deal", "skip", "choice"]
Decide = Callable[[int, str, Observation], Action]
"""How :meth:`Table.step` gets a bot's decision: (seat, bot name, observation) → action."""

AUTO_BOT: Final = "heuristic"
"""The bot that plays a seat in 托管 (after its clock ran out) and gives hints."""

DECIDED: Final = ("time_limit", "deal_limit", "forfeit")
"""Reasons a match ends that the server decides, not the engine (a tournament's format, a forfeit)."""

EFFECT_NAMES: Final = {NoEffect: "none", SkipTurn: "skip_turn", EndDeal: "end_deal", EndMatch: "end_match"}
"""How a ruling's effect is named in a ``penalty`` entry."""


@dataclass(frozen=True)
class Due:
    """The next thing the table does by itself, at time ``at``: a bot seat acts (``bot``), a seat in
    托管 is played for (``auto``), a human's clock runs out (``clock``), the next deal is dealt
    (``deal``), a seat's turn is skipped by a ruling (``skip``, 违例), or a choice's deadline passes
    and its default is taken (``choice``; ``seat`` is the chooser)."""

    at: float
    kind: DueKind
    seat: int | None = None


@dataclass(frozen=True)
class Choice:
    """A decision the seed gives the offender's 下家 (``seat``), open until ``deadline``: after a 违例,
    whether the offender's next turn in play is skipped (``skip_turn``, "由违规者的下家决定是否停止违规者
    一次出牌"); after a 犯规, who leads the next deal (``leader``, "由违规者的下家…指定首圈领出者"). Only a
    person is asked (a bot or a seat in 托管 takes the default at once, without a ``choice`` entry); the
    default, at the deadline, is to skip, or the chooser itself leads."""

    kind: ChoiceKind
    seat: int
    offender: int
    deadline: float

    def to_json(self) -> dict[str, Any]:
        """The state's ``choice`` (shown to the chooser only)."""
        value: dict[str, Any] = {"kind": self.kind, "offender": self.offender, "deadline": self.deadline}
        if self.kind == "leader":
            value["seats"] = [0, 1, 2, 3]
        return value


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
        self.match = Match(self.rules, max_deals=None if config.format is not None else config.max_deals)
        self.names: list[str | None] = [seat.player_name for seat in config.seats]
        self.token_hashes: list[str | None] = [None] * 4
        self.auto = [False] * 4
        self.connected = [False] * 4
        self.log: list[Entry] = []
        self.status: Status = "waiting"
        self.seed = seed
        """The secret the deals are shuffled from (kept in the ``start`` entry, never sent)."""
        self.turn_started = 0.0
        self.deal_ended = 0.0
        self.started_at: float | None = None
        """When the match began (the ``start`` entry): the clock of a timed format and of penalties."""
        self.conduct: MatchConduct | None = None if config.conduct is None else MatchConduct(config.conduct)
        """The penalties of this match (tournament tables)."""
        self.pending_skip: set[int] = set()
        """Seats whose next turn in play is skipped (违例: their 下家 chose the skip, or took the default)."""
        self.choices: list[Choice] = []
        """The open choices of offenders' 下家 (``choice`` entries not yet answered by ``chosen``)."""
        self.named_leader: int | None = None
        """The leader named for the deal after a foul (a ``chosen`` entry), until that deal is dealt."""
        self.end: Entry | None = None
        """The ``match_end`` entry once the match is over."""

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
        token = token or secrets.token_urlsafe(24)
        self.sit_hashed(seat, name, now, token_hash(token))
        return token

    def sit_hashed(self, seat: int, name: object, now: float, hashed: str) -> list[Entry]:
        """Take an empty human seat for the holder of the token whose SHA-256 is ``hashed`` (a
        tournament seats its players by the tokens they were given at registration)."""
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
        before = self.number
        self._record({"type": "sit", "seat": seat, "name": player, "token_hash": hashed, "at": now})
        self.start_if_ready(now)
        return self.log[before:]

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
        if self.waits_for_choice():
            chooser = next(choice.seat for choice in self.choices if choice.offender == seat)
            raise ProtocolError(
                "wrong_phase",
                f"seat {chooser} ({self.names[chooser]}) is choosing whether seat {seat}'s turn is skipped",
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

    def choose(self, seat: int, message: Mapping[str, Any], now: float) -> list[Entry]:
        """A ``choose`` message: the seat answers its open choice (``skip`` true or false after a 违例,
        ``leader`` a seat after a 犯规). A skip chosen while the offender is to play is applied at once."""
        kind, value = read_choice(message)
        if self.status != "running":
            raise ProtocolError("wrong_phase", f"the table is {self.status}: there is no choice to make")
        choice = self._open_choice(seat, kind)
        if choice is None:
            other = next((open_ for open_ in self.choices if open_.kind == kind), None)
            what = "whether the offender's turn is skipped" if kind == "skip_turn" else "the next leader"
            if other is not None:
                raise ProtocolError(
                    "out_of_turn",
                    f"seat {other.seat} ({self.names[other.seat]}) chooses {what}, not seat {seat}",
                )
            raise ProtocolError("wrong_phase", f"no choice of {what} is open")
        before = self.number
        self._answer(choice, value, "player", now)
        return self.log[before:]

    def choice_for(self, seat: int | None) -> Choice | None:
        """The seat's open choice (the first, should it have two), or ``None``."""
        if seat is None or self.status != "running":
            return None
        return next((choice for choice in self.choices if choice.seat == seat), None)

    def waits_for_choice(self) -> bool:
        """Whether play waits for a choice: the player to act (in play) is an offender whose 下家 has not
        yet said whether its turn is skipped (its clock stands still; it may not act)."""
        deal = self.match.current_deal
        if self.status != "running" or deal is None or deal.phase is not Phase.PLAY:
            return False
        return self._open_skip(deal.current_player) is not None

    def _open_choice(self, seat: int, kind: ChoiceKind) -> Choice | None:
        return next((c for c in self.choices if c.seat == seat and c.kind == kind), None)

    def _open_skip(self, offender: int | None) -> Choice | None:
        return next((c for c in self.choices if c.kind == "skip_turn" and c.offender == offender), None)

    def choice_clock(self) -> float:
        """Seconds a 下家 has to answer: the follow clock (a tournament table's ``play_s`` plus its
        countdown)."""
        if self.conduct is not None:
            clocks = self.conduct.policy.clocks
            return float(clocks.play_s + clocks.countdown_s)
        return self.config.clocks.follow

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

    @property
    def penalising(self) -> bool:
        """Whether a timeout is penalised here (a tournament table whose policy names a penalty); a
        timeout then costs that penalty and the heuristic bot makes the one move, without 托管."""
        return self.conduct is not None and self.conduct.policy.timeout is not None

    def clock(self) -> float | None:
        """Seconds the player to act has for this action, by phase (tribute, return, lead, follow); a
        tournament table's are its conduct policy's (the deal's first lead, every other play) plus the
        countdown (读秒)."""
        deal = self.match.current_deal
        if deal is None or self.status != "running":
            return None
        if self.conduct is not None:
            clocks = self.conduct.policy.clocks
            allowed = clocks.time_allowed(deal)
            return None if allowed is None else float(allowed + clocks.countdown_s)
        table_clocks = self.config.clocks
        if deal.phase is Phase.TRIBUTE:
            return table_clocks.tribute
        if deal.phase is Phase.RETURN:
            return table_clocks.return_
        return table_clocks.lead if deal.previous is None else table_clocks.follow

    def elapsed(self, now: float) -> float:
        """Seconds since the match began (0 before)."""
        return 0.0 if self.started_at is None else max(0.0, now - self.started_at)

    def due(self) -> Due | None:
        """The next automatic step and when it is due, or ``None`` (waiting for players, or over)."""
        if self.status != "running":
            return None
        regular = self._regular_due()
        if self.choices:
            first = min(self.choices, key=lambda choice: choice.deadline)
            if regular is None or first.deadline <= regular.at:
                return Due(first.deadline, "choice", first.seat)
        return regular

    def _regular_due(self) -> Due | None:
        """:meth:`due` but for the choices' deadlines; ``None`` while play waits for a choice."""
        if self.match.phase is MatchPhase.DEALING:
            if any(choice.kind == "leader" for choice in self.choices):
                return None
            return Due(self.deal_ended + self.config.deal_pause, "deal")
        deal = self.match.current_deal
        assert deal is not None
        assert deal.current_player is not None
        seat = deal.current_player
        if self.waits_for_choice():
            return None
        if seat in self.pending_skip and self._can_skip(deal, seat):
            return Due(self.turn_started, "skip", seat)
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
            outcome = self._decide(now)
            if outcome is not None:
                self._finish_decided(outcome, now)
            else:
                self._deal(now)
            return self.log[before:]
        assert due.seat is not None
        if due.kind == "skip":
            self._skip(due.seat, now)
            return self.log[before:]
        if due.kind == "choice":
            choice = next(c for c in self.choices if c.seat == due.seat and c.deadline == due.at)
            self._answer(choice, True if choice.kind == "skip_turn" else choice.seat, "default", now)
            return self.log[before:]
        chosen: Action | None = None
        if action is not None:
            try:
                chosen = self.match.verify(action)
            except RuleError:
                chosen = None
        if chosen is None:
            chosen = self.match.legal_actions()[0]
        if due.kind == "clock" and self.penalising:
            effect = self._penalise(due.seat, Offence.TIMEOUT, now)
            if isinstance(effect, SkipTurn) and self._skip_if_due(due.seat, now):
                return self.log[before:]
            if (
                self.status == "running"
                and self.match.current_player == due.seat
                and not self.waits_for_choice()
                and self.number > before
            ):
                self._play(chosen, "auto", now)
            return self.log[before:]
        if due.kind == "clock":
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
        if due.seat is not None and due.kind in ("bot", "auto", "clock"):
            action = decide(due.seat, self.bot_name(due.seat), self.observation(due.seat))
        return self.apply_due(due, action, now)

    def restart_clocks(self, now: float) -> None:
        """After the server was down: the player to act gets a full clock, the deal pause starts again,
        and so does an open choice."""
        self.turn_started = now
        self.deal_ended = now
        self.choices = [replace(choice, deadline=now + self.choice_clock()) for choice in self.choices]

    # -- conduct (tournament tables) -------------------------------------------------------------

    def penalise(self, seat: int, offence: Offence, now: float) -> list[Entry]:
        """Penalise ``seat`` for ``offence`` (a disconnection, or a referee's call) under the table's
        conduct policy and apply the ruling's effect; nothing at a table without one, or not running."""
        if self.conduct is None or self.status != "running":
            return []
        before = self.number
        effect = self._penalise(seat, offence, now)
        if isinstance(effect, SkipTurn):
            self._skip_if_due(seat, now)
        return self.log[before:]

    def forfeit(self, side: int, now: float, note: str = "") -> list[Entry]:
        """End a running match by a forfeit of ``side`` (the director's 判负 or 弃权)."""
        if self.status != "running":
            return []
        before = self.number
        self._end_by_forfeit(side, now, note)
        return self.log[before:]

    def _penalise(self, seat: int, offence: Offence, now: float) -> NoEffect | SkipTurn | EndDeal | EndMatch:
        """Record the penalty entry of an offence and carry out an ``EndDeal`` or ``EndMatch``; for a
        ``SkipTurn`` ask the 下家 (a ``choice`` entry) when it is a person. The effect is returned (a skip
        is left to the caller and to :meth:`due`)."""
        assert self.conduct is not None
        deal_number = len(self.match.deals)
        asked = seat in self.pending_skip or self._open_skip(seat) is not None
        _state, ruling = self.conduct.penalise(offence, at_s=self.elapsed(now), deal=deal_number, seat=seat)
        if not ruling.records:
            return ruling.effect
        self._record(
            {
                "type": "penalty",
                "seat": seat,
                "side": seat % 2,
                "offence": offence.value,
                "records": [record.to_dict() for record in ruling.records],
                "effect": EFFECT_NAMES[type(ruling.effect)],
                "deal_number": deal_number,
                "at": now,
            }
        )
        effect = ruling.effect
        if isinstance(effect, EndMatch):
            self._end_by_forfeit(effect.side, now)
        elif isinstance(effect, EndDeal) and self.match.current_deal is not None:
            self._foul(seat, now)
        elif isinstance(effect, SkipTurn) and effect.chooser is not None and not asked:
            self._ask(effect.chooser, "skip_turn", seat, now)
        return effect

    def _in_person(self, seat: int) -> bool:
        """Whether a choice of ``seat`` is asked of its player: a person's seat, not in 托管."""
        return self.config.seats[seat].kind == "human" and not self.auto[seat]

    def _ask(self, chooser: int, kind: ChoiceKind, offender: int, now: float) -> None:
        """Open a choice of ``chooser`` (a person) with a deadline; a bot's or a 托管 seat's is its
        default, taken at once: a skip (already pending), or the chooser leads."""
        if not self._in_person(chooser):
            return
        self._record(
            {
                "type": "choice",
                "kind": kind,
                "seat": chooser,
                "offender": offender,
                "deadline": now + self.choice_clock(),
                "at": now,
            }
        )

    def _answer(self, choice: Choice, value: bool | int, by: str, now: float) -> None:
        """Record the answer to an open choice (``by``: ``player`` or ``default``); a skip is applied at
        once when the offender is to play."""
        entry: Entry = {
            "type": "chosen",
            "kind": choice.kind,
            "seat": choice.seat,
            "offender": choice.offender,
            "by": by,
            "at": now,
        }
        if choice.kind == "skip_turn":
            entry["skip"] = bool(value)
        else:
            entry["leader"] = int(value)
        self._record(entry)
        if choice.kind == "skip_turn" and value:
            self._skip_if_due(choice.offender, now)

    def _skip_if_due(self, seat: int, now: float) -> bool:
        """Skip the seat's turn now if a skip is pending and it is to play."""
        deal = self.match.current_deal
        if self.status != "running" or deal is None or seat not in self.pending_skip:
            return False
        if not self._can_skip(deal, seat):
            return False
        self._skip(seat, now)
        return True

    def _can_skip(self, deal: Deal, seat: int) -> bool:
        """Whether a pending skip can be applied now: ``seat`` is to play (not tribute or return)."""
        return deal.phase is Phase.PLAY and deal.current_player == seat

    def _skip(self, seat: int, now: float) -> None:
        """违例's effect (when the offender's 下家 chose it, or took the default): the seat's turn to play
        is skipped, a pass when it follows; when it leads, the lead goes to the other side."""
        self._record({"type": "ruling", "kind": "skip_turn", "seat": seat, "at": now})

    def _foul(self, seat: int, now: float) -> None:
        """犯规's effect: the deal ends at once, the offender's side 双下; the next deal has no tribute,
        and its leader is named by the offender's 下家 (asked when it is a person)."""
        self._record({"type": "ruling", "kind": "foul", "seat": seat, "at": now})
        self._deal_ended(now)
        chooser = self.match.leader_chooser
        if self.status == "running" and self.match.phase is MatchPhase.DEALING and chooser is not None:
            self._ask(chooser, "leader", seat, now)

    def _end_by_forfeit(self, side: int, now: float, note: str = "") -> None:
        """判负 / 弃权: the match ends, the other side wins (the engine's forfeit ruling)."""
        levels = self.match.level_values()
        result = TableResult.forfeit(side, levels, len(self.match.summaries))
        self._record(
            {
                "type": "match_end",
                "winner": result.winner,
                "levels": [rank.letter for rank in self.match.levels],
                "score": list(result.score28),
                "reason": "forfeit",
                "forfeited_by": side,
                "table_levels": list(levels),
                "note": note,
                "at": now,
            }
        )

    # -- the match format (tournament tables) ----------------------------------------------------

    def _decide(self, now: float) -> MatchOutcome | None:
        """Whether a tournament match is over between deals (its format, the server's clock)."""
        fmt = self.config.format
        if fmt is None or self.match.current_deal is not None or self.match.is_over:
            return None
        return decide_match(fmt, self.match, self.elapsed(now))

    def _finish_decided(self, outcome: MatchOutcome, now: float) -> None:
        result = TableResult.from_outcome(outcome)
        self._record(
            {
                "type": "match_end",
                "winner": outcome.winner,
                "levels": [
                    level_name(value) if value > 14 else rank.letter
                    for value, rank in zip(outcome.levels, self.match.levels, strict=True)
                ],
                "score": list(result.score28),
                "reason": outcome.reason.value,
                "level_values": list(outcome.levels),
                "at": now,
            }
        )

    def result(self) -> TableResult | None:
        """The finished match's result for a tournament (``None`` while it runs)."""
        end = self.end
        if end is None:
            return None
        deals = len(self.match.summaries)
        if end.get("reason") == "forfeit":
            first, second = end["table_levels"]
            return TableResult.forfeit(int(end["forfeited_by"]), (int(first), int(second)), deals)
        values = end.get("level_values")
        if values is None:
            return TableResult.played(self.match.level_values(), deals)
        return TableResult.played((int(values[0]), int(values[1])), deals)

    def outcome(self) -> dict[str, Any] | None:
        """The state's ``result``: winner, levels, 28-point score and why the match ended."""
        end = self.end
        if end is None:
            return None
        return {
            "winner": end["winner"],
            "levels": end["levels"],
            "score": end["score"],
            "reason": end.get("reason", "passed_ace" if self.match.passed_ace else "deal_limit"),
            "forfeited_by": end.get("forfeited_by"),
        }

    @property
    def penalties(self) -> tuple[PenaltyRecord, ...]:
        return () if self.conduct is None else self.conduct.records

    # -- writing the log -------------------------------------------------------------------------

    def _deal(self, now: float) -> None:
        assert self.seed is not None
        number = len(self.match.deals) + 1
        hands, (holder, card) = shuffled_hands(random.Random(f"{self.seed}:{number}"))
        first = self.match.needs_leader
        leader = holder if first else None
        if self.match.needs_named_leader:
            # named by the offender's 下家 (a ``chosen`` entry); a bot, a 托管 seat or the default: itself
            leader = self.named_leader if self.named_leader is not None else self.match.leader_chooser
        self._record(
            {
                "type": "deal",
                "deal_number": number,
                "level": self.match.level.letter,
                "hands": [format_cards(hand) for hand in hands],
                "leader": leader,
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
        self._deal_ended(now)

    def _deal_ended(self, now: float) -> None:
        """After a deal's last action (or a foul): ``deal_end``, and ``match_end`` when it is over."""
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
                    "reason": EndReason.PASSED_ACE.value
                    if self.match.passed_ace
                    else EndReason.DEAL_LIMIT.value,
                    "level_values": list(self.match.level_values()),
                    "at": now,
                }
            )
            return
        outcome = self._decide(now)
        if outcome is not None:
            self._finish_decided(outcome, now)

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
            self.started_at = at
        elif kind == "deal":
            hands = [read_hand(text) for text in entry["hands"]]
            turned = Card.parse(entry["turned_card"]) if entry.get("turned_card") else None
            dealt = self.match.deal(hands, entry.get("leader"), turned)
            self.named_leader = None
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
        elif kind == "penalty":
            self._apply_penalty(entry)
        elif kind == "ruling":
            self._apply_ruling(entry)
            self.turn_started = at
        elif kind == "choice":
            self._apply_choice(entry)
        elif kind == "chosen":
            self._apply_chosen(entry, at)
        elif kind == "deal_end":
            if not self.match.summaries or list(self.match.summaries[-1].result.places) != entry["places"]:
                raise ValueError("the deal's places differ from the log")
            self.deal_ended = at
        elif kind == "match_end":
            if entry.get("reason") == "forfeit" and not self.match.is_over:
                self.match.forfeit(int(entry["forfeited_by"]), str(entry.get("note", "")))
            if not self.match.is_over and entry.get("reason") not in DECIDED:
                raise ValueError("the match is not over")
            self.status = "finished"
            self.end = entry
            self.choices.clear()
        else:
            raise ValueError(f"unknown entry type {kind!r}")
        self.log.append(entry)

    def _apply_penalty(self, entry: Entry) -> None:
        if self.conduct is None:
            raise ValueError("a penalty at a table without a conduct policy")
        records = tuple(PenaltyRecord.from_dict(record) for record in entry["records"])
        self.conduct = MatchConduct(self.conduct.policy, self.conduct.records + records)
        if entry["effect"] == "skip_turn":
            self.pending_skip.add(int(entry["seat"]))

    def _apply_ruling(self, entry: Entry) -> None:
        seat = int(entry["seat"])
        deal = self.match.current_deal
        if deal is None:
            raise ValueError("a ruling outside a deal")
        before = len(deal.events)
        if entry["kind"] == "skip_turn":
            self.pending_skip.discard(seat)
            self.match.apply_ruling(SkipTurnRuling(seat))
            lead = [event.to for event in deal.events[before:] if event.kind == "skip_turn"]
            if lead and lead[0] is not None:
                entry["lead_to"] = lead[0]
        elif entry["kind"] == "foul":
            self.pending_skip.clear()
            self.choices = [choice for choice in self.choices if choice.kind != "skip_turn"]
            self.match.apply_ruling(FoulRuling(seat))
            assert deal.result is not None
            entry["places"] = list(deal.result.places)
        else:
            raise ValueError(f"unknown ruling {entry['kind']!r}")

    def _apply_choice(self, entry: Entry) -> None:
        kind = entry["kind"]
        if kind not in ("skip_turn", "leader"):
            raise ValueError(f"unknown choice {kind!r}")
        choice = Choice(kind, int(entry["seat"]), int(entry["offender"]), float(entry["deadline"]))
        if self.status != "running" or self._open_choice(choice.seat, kind) is not None:
            raise ValueError(f"seat {choice.seat} cannot be asked this choice now")
        if kind == "leader" and self.match.phase is not MatchPhase.DEALING:
            raise ValueError("a leader is chosen between deals")
        if kind == "skip_turn":
            self.pending_skip.discard(choice.offender)  # until the 下家 answers
        self.choices.append(choice)

    def _apply_chosen(self, entry: Entry, at: float) -> None:
        kind = entry["kind"]
        choice = self._open_choice(int(entry["seat"]), kind)
        if choice is None:
            raise ValueError(f"seat {entry['seat']} has no open {kind!r} choice")
        if kind == "skip_turn":
            if not isinstance(entry["skip"], bool):
                raise ValueError("skip: true or false")
            self.choices.remove(choice)
            if entry["skip"]:
                self.pending_skip.add(choice.offender)
            deal = self.match.current_deal
            if deal is not None and deal.phase is Phase.PLAY and deal.current_player == choice.offender:
                self.turn_started = at  # play waited: the offender's clock starts now
        else:
            leader = entry["leader"]
            if isinstance(leader, bool) or not isinstance(leader, int) or leader not in range(4):
                raise ValueError(f"leader: a seat 0 to 3, got {leader!r}")
            self.choices.remove(choice)
            self.named_leader = leader

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
        record = record_of(self.match, names, meta=meta)
        if self.status != "finished":
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
