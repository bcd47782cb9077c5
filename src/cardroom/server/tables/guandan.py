"""One Guandan table: a Guandan match on the seats and append-only log of
:class:`~cardroom.server.tables.seated.SeatedTable`.

:class:`Table` is pure: no I/O, no asyncio, no clock of its own (``now`` is passed in). Every change is
an entry of :attr:`Table.log` (docs/protocol.md, "The log"; typed as :mod:`cardroom.server.tables.entries`),
and :meth:`Table.replay` applies the same entries to a fresh table, so a table is exactly its log: the
server stores each entry as it happens and rebuilds running tables from the store when it starts again.

This module is the table's core: players' actions, dealing, the order in which things happen, and
writing and applying the log. The table alone records entries; its helpers read the values they are
given and return what to record, and none of them imports the table:
:mod:`cardroom.server.tables.clocks` says what is due by itself and when (clocks, bots, 托管);
:mod:`cardroom.server.tables.conduct` holds the conduct state (penalties, pending skips, the 下家's choices)
and builds its entries; :mod:`cardroom.server.tables.outcomes` builds the ``match_end`` entry (the engine's
end, a format's decision, a forfeit) and reads the result back; names and tokens are
:mod:`cardroom.server.tables.seats`.

What a viewer may see is :mod:`cardroom.server.tables.views`: :meth:`Table.view` (the ``state`` message) and
:meth:`Table.events_for` (the log projected for one seat or a spectator) never hold another seat's
cards.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from dataclasses import replace
from typing import Any, ClassVar, cast

from cardroom.cards import Card, format_cards
from cardroom.guandan.deal import Action, Deal, EventKind, PlayAction
from cardroom.guandan.errors import DoesNotBeatError, RuleError
from cardroom.guandan.match import Match, MatchPhase, shuffled_hands
from cardroom.guandan.observation import Observation
from cardroom.guandan.ruleset import preset
from cardroom.records import record_of
from cardroom.server.tables import clocks, outcomes, views
from cardroom.server.tables.clocks import AUTO_BOT
from cardroom.server.tables.codec import (
    ChoiceKind,
    Choose,
    ProtocolError,
    action_json,
    describe,
    from_record_action,
    legal_json,
    read_action,
    read_choose,
    read_hand,
    record_action,
)
from cardroom.server.tables.conduct import EFFECT_NAMES, Choice, Conduct, Effect
from cardroom.server.tables.config import TableConfig
from cardroom.server.tables.entries import (
    GUANDAN_ENTRIES,
    ActionEntry,
    AutoEntry,
    By,
    ChoiceEntry,
    ChosenEntry,
    DealEndEntry,
    DealEntry,
    FaultEntry,
    FaultKind,
    LogEntry,
    MatchEndEntry,
    PenaltyEntry,
    Reader,
    RulingEntry,
)
from cardroom.server.tables.faults import BotFaults
from cardroom.server.tables.outcomes import DECIDED
from cardroom.server.tables.seated import Decide, Due, DueKind, Entry, SeatedTable, Status
from cardroom.server.tables.seats import clean_name, is_bot_account, token_hash
from cardroom.tournament.conduct import EndDeal, EndMatch, Offence, Penalty, PenaltyRecord, SkipTurn
from cardroom.tournament.scoring import TableResult

__all__ = [
    "AUTO_BOT",
    "DECIDED",
    "EFFECT_NAMES",
    "Choice",
    "Decide",
    "Due",
    "DueKind",
    "Entry",
    "Status",
    "Table",
    "clean_name",
    "token_hash",
]


class Table(SeatedTable):
    """A Guandan table: the seats and log of :class:`SeatedTable`, the match, and tournament conduct
    (penalties, the 下家's choices)."""

    AUTO_BOT = AUTO_BOT
    ENTRIES: ClassVar[Mapping[str, Reader]] = GUANDAN_ENTRIES
    match: Match

    def __init__(self, table_id: str, config: TableConfig, *, seed: str | None = None) -> None:
        super().__init__(table_id, config, seed=seed)
        self.rules = preset(config.rules)
        self.match = Match(self.rules, max_deals=None if config.format is not None else config.max_deals)
        self.conduct = Conduct(config.conduct)
        """The conduct state: penalties (tournament tables), pending skips, open choices."""
        self.faults = BotFaults()
        """Bot accounts' faults in the match (docs/ladder.md, "Clocks and faults")."""

    @property
    def current_player(self) -> int | None:
        return self.match.current_player

    # -- actions ---------------------------------------------------------------------------------

    def readings(self, seat: int, action: object) -> list[Action]:
        """The legal readings of the seat's action (the client's shape, docs/protocol.md): several when
        the cards can be played several ways and the action names no ``kind``/``rank``. Refused, it
        raises :class:`ProtocolError` naming the rule (nothing changes)."""
        self.check_turn(seat)
        deal = self.match.current_deal
        assert deal is not None
        if self.waits_for_choice():
            chooser = next(choice.seat for choice in self.conduct.choices if choice.offender == seat)
            raise ProtocolError(
                "wrong_phase",
                f"seat {chooser} ({self.names[chooser]}) is choosing whether seat {seat}'s turn is skipped",
            )
        legal: list[Action] = []
        errors: list[RuleError] = []
        for reading in read_action(seat, action, deal.level, self.rules):
            try:
                legal.append(self.match.verify(reading))
            except RuleError as error:
                errors.append(error)
        if not legal:
            beaten = (error for error in errors if isinstance(error, DoesNotBeatError))
            raise ProtocolError.refused(next(beaten, errors[0]))
        return legal

    def verify(self, seat: int, action: object) -> Action:
        """The one legal reading of the seat's action; cards that read several ways are
        ``ambiguous_play`` (send ``kind`` and ``rank``)."""
        legal = self.readings(seat, action)
        if len(legal) > 1:
            plays = [describe(reading.play) for reading in legal if isinstance(reading, PlayAction)]
            raise ProtocolError(
                "ambiguous_play",
                f'these cards can be played as {" or as ".join(plays)}: send "kind" and "rank" to choose',
            )
        return legal[0]

    def check(self, seat: int, action: object) -> dict[str, Any]:
        """Whether ``act`` would take this action now (the ``checked`` message's fields) and how it
        reads (``readings``: several when the cards read several ways, for the player to choose)."""
        return {"ok": True, "readings": legal_json(self.readings(seat, action))}

    def legal_actions_json(self, seat: int) -> list[dict[str, Any]]:
        """Every legal action of ``seat`` now, each reading once (the ``legal`` message); ``[]`` unless
        it is to act."""
        if self.current_player != seat or self.status != "running" or self.waits_for_choice():
            return []
        return legal_json(self.match.legal_actions())

    def act(self, seat: int, action: object, now: float) -> list[Entry]:
        """A seated player's action (the client's shape, docs/protocol.md); it ends the seat's 托管."""
        if self.fallback_plays(seat):
            raise ProtocolError.because("wrong_phase", "fallback_plays", seat=seat)
        chosen = self.verify(seat, action)
        before = self.number
        if self.auto[seat]:
            self._record(AutoEntry(seat, False, now))
        self._play(chosen, "player", now)
        return self.log[before:]

    # -- bot accounts: their clock and faults (cardroom.server.tables.faults) -----------------------

    def fallback_plays(self, seat: int) -> bool:
        """Whether the fallback is to play ``seat``'s move now, after its fault (the seat is not to act:
        docs/ladder.md, "Clocks and faults")."""
        turn = self.faults.waiting(self.match) if self.status == "running" else None
        return turn is not None and turn.seat == seat

    @property
    def bot_seats(self) -> tuple[bool, ...]:
        """Which seats bot accounts hold (their clock is ``clocks.bot``; no 托管)."""
        return tuple(is_bot_account(account) for account in self.accounts)

    def fault(self, seat: int, error: ProtocolError, now: float) -> list[Entry]:
        """The rules refused the ``act`` of a bot account's ``seat`` (``error``): on its turn, a fault
        (then the fallback plays, or the match is forfeited at the limit); nothing otherwise."""
        if (
            self.status != "running"
            or not self.bot_seats[seat]
            or self.current_player != seat
            or self.waits_for_choice()
            or not BotFaults.counts_as_fault(error)
            or self.faults.waiting(self.match) is not None
        ):
            return []
        before = self.number
        self._bot_fault(seat, "illegal", now, error.reason or error.code)
        return self.log[before:]

    def set_auto(self, seat: int, on: bool, now: float) -> list[Entry]:
        """:meth:`SeatedTable.set_auto`; a bot account plays its own moves (no 托管 by choice)."""
        if on and self.bot_seats[seat]:
            raise ProtocolError.because("wrong_phase", "bot_no_auto")
        return super().set_auto(seat, on, now)

    def _bot_fault(self, seat: int, kind: FaultKind, now: float, reason: str | None) -> None:
        """Record a bot account's fault; the one that reaches the table's limit forfeits the match."""
        entry = self._record(self.faults.entry(seat, kind, now, reason))
        if entry["count"] >= self.config.fault_limit:
            note = f"seat {seat} ({self.names[seat]}): {entry['count']} faults, the table's limit"
            self._record(outcomes.match_end(self.match, now, forfeited_by=seat % 2, note=note))

    def choose(self, seat: int, message: Choose | Mapping[str, Any], now: float) -> list[Entry]:
        """A ``choose`` message (as the codec read it, or its JSON): the seat answers its open choice
        (``skip`` true or false after a 违例, ``leader`` a seat after a 犯规). A skip chosen while the
        offender is to play is applied at once."""
        answer = message if isinstance(message, Choose) else read_choose(message)
        if self.status != "running":
            raise ProtocolError("wrong_phase", f"the table is {self.status}: there is no choice to make")
        choice = self.conduct.answering(seat, answer.kind, self.names)
        before = self.number
        self._answer(choice, answer.value, "player", now)
        return self.log[before:]

    def choice_for(self, seat: int | None) -> Choice | None:
        """The seat's open choice (the first, should it have two), or ``None``."""
        if seat is None or self.status != "running":
            return None
        return self.conduct.choice_for(seat)

    def waits_for_choice(self) -> bool:
        """Whether play waits for a choice: the player to act (in play) is an offender whose 下家 has not
        yet said whether its turn is skipped (its clock stands still; it may not act)."""
        return self.status == "running" and self.conduct.waits(self.match.current_deal)

    def choice_clock(self) -> float:
        """Seconds a 下家 has to answer: the follow clock (a tournament table's ``play_s`` plus its
        countdown)."""
        return self.conduct.choice_clock(self.config.clocks.follow)

    # -- what happens by itself (cardroom.server.tables.clocks) -----------------------------------------

    @property
    def penalising(self) -> bool:
        """Whether a timeout is penalised here (a tournament table whose policy names a penalty); a
        timeout then costs that penalty and the heuristic bot makes the one move, without 托管."""
        return self.conduct.penalising_timeouts

    def clock(self) -> float | None:
        """Seconds the player to act has for this action, by phase (tribute, return, lead, follow); a
        tournament table's are its conduct policy's (the deal's first lead, every other play) plus the
        countdown (读秒)."""
        deal = self.match.current_deal
        if deal is None or self.status != "running":
            return None
        if deal.current_player is not None and self.bot_seats[deal.current_player]:
            return self.config.clocks.bot
        return clocks.clock(deal, self.config, self.conduct)

    def due(self) -> Due | None:
        """The next automatic step and when it is due, or ``None`` (waiting for players, or over)."""
        if self.status != "running":
            return None
        fallback = self.faults.fallback_due(self.match)
        if fallback is not None:
            return fallback
        return clocks.due(
            self.match,
            self.config,
            self.conduct,
            auto=self.auto,
            turn_started=self.turn_started,
            deal_ended=self.deal_ended,
            bots=self.bot_seats,
        )

    def observation(self, seat: int) -> Observation:
        return self.match.observation(seat)

    def action_json(self, action: Action) -> dict[str, Any]:
        return action_json(action)

    def apply_due(self, due: Due, action: Action | None, now: float) -> list[Entry]:
        """Carry out ``due`` (as :meth:`due` gave it) with the bot's ``action``: nothing when the table
        has moved on since; the first legal action when the bot's is not legal (or missing)."""
        if self.due() != due:
            return []
        before = self.number
        if due.kind == "deal":
            self._next_deal(now)
            return self.log[before:]
        seat = due.seat
        assert seat is not None
        if due.kind == "skip":
            self._record(RulingEntry("skip_turn", seat, now))
        elif due.kind == "choice":
            choice = self.conduct.due_choice(seat, due.at)
            self._answer(choice, choice.default, "default", now)
        elif due.kind == "clock" and self.bot_seats[seat]:
            self._bot_fault(seat, "clock", now, None)
            if self.status == "running":
                self._play(clocks.bot_action(self.match, action), "auto", now)
        elif due.kind == "clock" and self.penalising:
            self._timeout(seat, action, now)
        else:
            chosen = clocks.bot_action(self.match, action)
            if due.kind == "clock":
                self._record(AutoEntry(seat, True, now))
            self._play(chosen, "bot" if due.kind == "bot" else "auto", now)
        return self.log[before:]

    def restart_clocks(self, now: float) -> None:
        """After the server was down: the player to act gets a full clock, the deal pause starts again,
        and so does an open choice."""
        super().restart_clocks(now)
        self.conduct.restart(now, self.choice_clock())

    # -- conduct and the match's end (tournament tables) -----------------------------------------

    def penalise(self, seat: int, offence: Offence, now: float) -> list[Entry]:
        """Penalise ``seat`` for ``offence`` (a disconnection, or a referee's call) under the table's
        conduct policy and apply the ruling's effect; nothing at a table without one, or not running."""
        if self.conduct.penalties is None or self.status != "running":
            return []
        before = self.number
        effect = self._penalise(seat, offence, now)
        if isinstance(effect, SkipTurn):
            self._skip_if_due(seat, now)
        return self.log[before:]

    def late_foul(self, seat: int, now: float, note: str = "") -> list[Entry]:
        """The event judged ``seat``'s side a foul (犯规) for lateness (docs/rules/competition.md#late): a
        ``penalty`` entry, and a deal ends as the side's foul (#foul): the deal in play (the match's
        first: the side's last player has just sat down), else the next one dealt (a table still
        waiting for its players: the first). Nothing at a table without a conduct policy, or over."""
        return self.late_penalty(seat, Penalty.FOUL, now, note)

    def late_penalty(self, seat: int, penalty: Penalty, now: float, note: str = "") -> list[Entry]:
        """The event judged ``seat``'s side late: a warning (警告) or a foul (:meth:`late_foul`). Either
        counts with the table's own penalties for escalation from then on (two warnings make a
        violation: docs/rules/competition.md#penalties, counted per side within one match)."""
        if self.conduct.penalties is None or self.status not in ("waiting", "running"):
            return []
        before = self.number
        at_s, deal_number = self.elapsed(now), len(self.match.deals)
        self._record(
            self.conduct.late_penalty(seat, penalty, note, at_s=at_s, deal_number=deal_number, now=now)
        )
        if penalty is Penalty.FOUL and self.status == "running" and self.match.current_deal is not None:
            self._rule_late_foul(now)
        return self.log[before:]

    def _rule_late_foul(self, now: float) -> None:
        """A deal just dealt (or in play) ends as the foul of the first side judged late not yet ruled."""
        if self.conduct.late_fouls and self.match.current_deal is not None:
            self._foul(self.conduct.late_fouls[0], now)

    def forfeit(self, side: int, now: float, note: str = "") -> list[Entry]:
        """End a running match by a forfeit of ``side`` (the director's 判负 or 弃权)."""
        if self.status != "running":
            return []
        return [self._record(outcomes.match_end(self.match, now, forfeited_by=side, note=note))]

    def result(self) -> TableResult | None:
        """The finished match's result for a tournament (``None`` while it runs)."""
        return outcomes.result(self.end, self.match)

    def outcome(self) -> dict[str, Any] | None:
        """The state's ``result``: winner, levels, 28-point score and why the match ended."""
        return outcomes.outcome(self.end, self.match)

    @property
    def penalties(self) -> tuple[PenaltyRecord, ...]:
        return self.conduct.records

    # -- writing the log: what happens, in order -------------------------------------------------

    def _deal(self, now: float) -> None:
        assert self.seed is not None
        number = len(self.match.deals) + 1
        hands, (holder, card) = shuffled_hands(random.Random(f"{self.seed}:{number}"))
        first = self.match.needs_leader
        leader = holder if first else None
        if self.match.needs_named_leader:
            # named by the offender's 下家 (a ``chosen`` entry); a bot, a 托管 seat or the default: itself
            named = self.conduct.named_leader
            leader = named if named is not None else self.match.leader_chooser
        self._record(
            DealEntry(
                number,
                self.match.level.letter,
                tuple(format_cards(hand) for hand in hands),
                leader,
                str(card) if first else None,
                now,
            )
        )
        self._rule_late_foul(now)

    def _next_deal(self, now: float) -> None:
        """Between deals: the match ends if its format says so, else the next deal is dealt."""
        decided = outcomes.decide(self.config.format, self.match, self.elapsed(now))
        if decided is not None:
            self._record(outcomes.match_end(self.match, now, decided=decided))
        else:
            self._deal(now)

    def _play(self, action: Action, by: By, now: float) -> None:
        """Record an action the rules verified in this very state (it is applied as it is)."""
        self._record(ActionEntry(action.seat, record_action(action), by, now, verified=action))
        if self.match.phase is MatchPhase.DEAL:
            return
        self._deal_ended(now)

    def _deal_ended(self, now: float) -> None:
        """After a deal's last action (or a foul): ``deal_end``, and ``match_end`` when it is over."""
        summary = self.match.summaries[-1]
        self._record(
            DealEndEntry(
                len(self.match.deals),
                tuple(summary.result.places),
                summary.result.rise(self.rules),
                tuple(level.letter for level in summary.levels_after),
                now,
            )
        )
        if self.match.is_over:
            self._record(outcomes.match_end(self.match, now))
            return
        decided = outcomes.decide(self.config.format, self.match, self.elapsed(now))
        if decided is not None:
            self._record(outcomes.match_end(self.match, now, decided=decided))

    def _timeout(self, seat: int, action: Action | None, now: float) -> None:
        """A penalised timeout: the penalty, then the heuristic bot's one move (its ``action`` when
        legal) unless the ruling skipped the turn, ended the deal or the match, or play now waits for a
        choice."""
        before = self.number
        effect = self._penalise(seat, Offence.TIMEOUT, now)
        if isinstance(effect, SkipTurn) and self._skip_if_due(seat, now):
            return
        if (
            self.status == "running"
            and self.match.current_player == seat
            and not self.waits_for_choice()
            and self.number > before
        ):
            self._play(clocks.bot_action(self.match, action), "auto", now)

    def _penalise(self, seat: int, offence: Offence, now: float) -> Effect:
        """Record the penalty of an offence and carry out an ``EndDeal`` or ``EndMatch``; for a
        ``SkipTurn`` ask the 下家 (a ``choice`` entry) when it is a person. The effect is returned (a skip
        is left to the caller and to :meth:`due`)."""
        asked = self.conduct.asked(seat)
        entry, effect = self.conduct.penalty(
            seat, offence, at_s=self.elapsed(now), deal_number=len(self.match.deals), now=now
        )
        if entry is None:
            return effect
        self._record(entry)
        if isinstance(effect, EndMatch):
            self._record(outcomes.match_end(self.match, now, forfeited_by=effect.side))
        elif isinstance(effect, EndDeal) and self.match.current_deal is not None:
            self._foul(seat, now)
        elif isinstance(effect, SkipTurn) and effect.chooser is not None and not asked:
            self._ask(effect.chooser, "skip_turn", seat, now)
        return effect

    def _foul(self, seat: int, now: float) -> None:
        """犯规's effect: the deal ends at once, the offender's side 双下; the next deal has no tribute,
        and its leader is named by the offender's 下家 (asked when it is a person)."""
        self._record(RulingEntry("foul", seat, now))
        self._deal_ended(now)
        chooser = self.match.leader_chooser
        if self.status == "running" and self.match.phase is MatchPhase.DEALING and chooser is not None:
            self._ask(chooser, "leader", seat, now)

    def _ask(self, chooser: int, kind: ChoiceKind, offender: int, now: float) -> None:
        """Open a choice of ``chooser`` when it is a person's seat not in 托管; a bot's or a 托管
        seat's is its default, taken at once: a skip (already pending), or the chooser leads."""
        if self.config.seats[chooser].kind != "human" or self.auto[chooser]:
            return
        self._record(ChoiceEntry(kind, chooser, offender, now + self.choice_clock(), now))

    def _answer(self, choice: Choice, value: bool | int, by: By, now: float) -> None:
        """Record the answer to an open choice; a skip is applied at once when the offender is to play."""
        self._record(Conduct.answer(choice, value, by, now))
        if choice.kind == "skip_turn" and value:
            self._skip_if_due(choice.offender, now)

    def _skip_if_due(self, seat: int, now: float) -> bool:
        """违例's effect, when a skip of ``seat`` is pending and it is to play: its turn is skipped (a
        pass when it follows; when it leads, the lead goes to the other side)."""
        if self.status != "running" or not self.conduct.skip_due(seat, self.match.current_deal):
            return False
        self._record(RulingEntry("skip_turn", seat, now))
        return True

    # -- applying the log (live or replayed) -----------------------------------------------------

    def _appliers(self) -> dict[type[Any], Callable[[Any], LogEntry | None]]:
        return {
            **super()._appliers(),
            DealEntry: self._apply_deal,
            ActionEntry: self._apply_action,
            PenaltyEntry: self._apply_penalty,
            RulingEntry: self._apply_ruling,
            ChoiceEntry: self._apply_choice,
            ChosenEntry: self._apply_chosen,
            FaultEntry: self._apply_fault,
            DealEndEntry: self._apply_deal_end,
            MatchEndEntry: self._apply_match_end,
        }

    def _apply_deal(self, entry: DealEntry) -> DealEntry | None:
        hands = [read_hand(text) for text in entry.hands]
        turned = Card.parse(entry.turned_card) if entry.turned_card else None
        dealt = self.match.deal(hands, entry.leader, turned)
        self.conduct.named_leader = None
        self.turn_started = entry.at
        exempt = tuple(
            event.seat
            for event in dealt.events
            if event.kind == EventKind.ANTI_TRIBUTE and event.seat is not None
        )
        return replace(entry, anti_tribute=exempt) if exempt else None

    def _apply_action(self, entry: ActionEntry) -> ActionEntry:
        current = self.match.current_deal
        if current is None:
            raise ValueError("an action outside a deal")
        before = len(current.events)
        if entry.verified is not None:
            self.match.apply_verified(cast(Action, entry.verified))
        else:
            self.match.apply(from_record_action(entry.action, current.level, self.rules))
        self.turn_started = entry.at
        return self._annotate(entry, current, before)

    def _apply_penalty(self, entry: PenaltyEntry) -> None:
        self.conduct.apply_penalty(entry)

    def _apply_ruling(self, entry: RulingEntry) -> RulingEntry:
        applied = self.conduct.apply_ruling(entry, self.match)
        self.turn_started = entry.at
        return applied

    def _apply_choice(self, entry: ChoiceEntry) -> None:
        self.conduct.apply_choice(
            entry, running=self.status == "running", between_deals=self.match.phase is MatchPhase.DEALING
        )

    def _apply_chosen(self, entry: ChosenEntry) -> None:
        if self.conduct.apply_chosen(entry, self.match.current_deal):
            self.turn_started = entry.at  # play waited: the offender's clock starts now

    def _apply_fault(self, entry: FaultEntry) -> None:
        if self.status != "running":
            raise ValueError("a fault outside a match in play")
        self.faults.apply(entry, self.match)

    def _apply_deal_end(self, entry: DealEndEntry) -> None:
        if not self.match.summaries or tuple(self.match.summaries[-1].result.places) != entry.places:
            raise ValueError("the deal's places differ from the log")
        self.deal_ended = entry.at

    def _apply_match_end(self, entry: MatchEndEntry) -> None:
        if entry.reason == "forfeit" and not self.match.is_over:
            if entry.forfeited_by is None:
                raise ValueError("a forfeit names the side that forfeits")
            self.match.forfeit(entry.forfeited_by, entry.note or "")
        if not self.match.is_over and entry.reason not in DECIDED:
            raise ValueError("the match is not over")
        self._finish(entry)
        self.conduct.end_match()

    @staticmethod
    def _annotate(entry: ActionEntry, deal: Deal, before: int) -> ActionEntry:
        """Note on an action entry what the projection needs: who may see its card (a face-down
        tribute, a return) and the tributes handed over by it."""
        events = deal.events[before:]
        private = next((event.private_to for event in events if event.private_to is not None), None)
        if private is not None:
            entry = replace(entry, private_to=tuple(private))
        handed = tuple(
            {"from": event.seat, "to": event.to, "card": str(event.card)}
            for event in events
            if event.kind == EventKind.TRIBUTE
        )
        if handed:
            entry = replace(entry, tributes=handed)
        return entry

    # -- what a viewer sees (cardroom.server.tables.views) ---------------------------------------------

    def project(self, entry: Entry, viewer: int | None) -> Entry:
        """A log entry as ``viewer`` (a seat, or ``None`` for a spectator) may see it."""
        return views.project(self, entry, viewer)

    def view(self, viewer: int | None, now: float) -> dict[str, Any]:
        """The ``state`` message for ``viewer``: everything needed to draw the table."""
        return views.state(self, viewer, now)

    def seat_view(self, seat: int, cards: int) -> dict[str, Any]:
        """:meth:`SeatedTable.seat_view` and the seat's ``faults`` in the match (a bot account's)."""
        return {**super().seat_view(seat, cards), "faults": self.faults.counts[seat]}

    def summary(self) -> dict[str, Any]:
        """The lobby's line, each seat with its ``faults`` in the match (a bot account's)."""
        line = super().summary()
        for seat in line["seats"]:
            seat["faults"] = self.faults.counts[seat["seat"]]
        return line

    # -- records ---------------------------------------------------------------------------------

    def _match_record(self, names: list[str], meta: dict[str, Any]) -> dict[str, Any]:
        return record_of(self.match, names, meta=meta)
