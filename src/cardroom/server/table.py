"""One Guandan table: a Guandan match on the seats and append-only log of
:class:`~cardroom.server.seated.SeatedTable`.

:class:`Table` is pure: no I/O, no asyncio, no clock of its own (``now`` is passed in). Every change is
an entry of :attr:`Table.log` (docs/protocol.md, "The log"), and :meth:`Table.replay` applies the same
entries to a fresh table, so a table is exactly its log: the server stores each entry as it happens
and rebuilds running tables from the store when it starts again.

This module is the table's core: players' actions, dealing, and writing and applying the log.
What it does by itself (clocks, bots, 托管) is :mod:`cardroom.server.clocks`; penalties, rulings and
the 下家's choices are :mod:`cardroom.server.conduct`; a format's or a forfeit's end of the match and
the result are :mod:`cardroom.server.outcomes`; names and tokens are :mod:`cardroom.server.seats`.
The table's methods delegate to them, so :class:`Table` stays the one interface.

What a viewer may see is :mod:`cardroom.server.views`: :meth:`Table.view` (the ``state`` message) and
:meth:`Table.events_for` (the log projected for one seat or a spectator) never hold another seat's
cards.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any, Literal

from cardroom.bots import Bot, make_bot
from cardroom.cards import Card, format_cards
from cardroom.guandan.deal import Action, Deal, EventKind, PlayAction
from cardroom.guandan.errors import OutOfTurnError, RuleError, WrongPhaseError
from cardroom.guandan.match import Match, MatchPhase, shuffled_hands
from cardroom.guandan.observation import Observation
from cardroom.guandan.ruleset import preset
from cardroom.records import record_of
from cardroom.server import clocks, conduct, outcomes, views
from cardroom.server.clocks import AUTO_BOT
from cardroom.server.codec import (
    ProtocolError,
    action_json,
    describe,
    from_record_action,
    legal_json,
    read_action,
    read_hand,
    record_action,
)
from cardroom.server.conduct import EFFECT_NAMES, Choice
from cardroom.server.config import TableConfig
from cardroom.server.outcomes import DECIDED
from cardroom.server.seated import Decide, Due, DueKind, Entry, SeatedTable, Status
from cardroom.server.seats import clean_name, token_hash
from cardroom.tournament.conduct import MatchConduct, Offence, PenaltyRecord
from cardroom.tournament.formats import EndReason
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


def _rule_error_code(error: RuleError) -> Literal["out_of_turn", "wrong_phase", "illegal_action"]:
    if isinstance(error, OutOfTurnError):
        return "out_of_turn"
    if isinstance(error, WrongPhaseError):
        return "wrong_phase"
    return "illegal_action"


class Table(SeatedTable):
    """A Guandan table: the seats and log of :class:`SeatedTable`, the match, and tournament conduct
    (penalties, the 下家's choices)."""

    AUTO_BOT = AUTO_BOT
    match: Match

    def __init__(self, table_id: str, config: TableConfig, *, seed: str | None = None) -> None:
        super().__init__(table_id, config, seed=seed)
        self.rules = preset(config.rules)
        self.match = Match(self.rules, max_deals=None if config.format is not None else config.max_deals)
        self.conduct: MatchConduct | None = None if config.conduct is None else MatchConduct(config.conduct)
        """The penalties of this match (tournament tables)."""
        self.pending_skip: set[int] = set()
        """Seats whose next turn in play is skipped (违例: their 下家 chose the skip, or took the default)."""
        self.choices: list[Choice] = []
        """The open choices of offenders' 下家 (``choice`` entries not yet answered by ``chosen``)."""
        self.named_leader: int | None = None
        """The leader named for the deal after a foul (a ``chosen`` entry), until that deal is dealt."""

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
            chooser = next(choice.seat for choice in self.choices if choice.offender == seat)
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
            raise ProtocolError(_rule_error_code(errors[0]), str(errors[0]))
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
        chosen = self.verify(seat, action)
        before = self.number
        if self.auto[seat]:
            self._record({"type": "auto", "seat": seat, "on": False, "at": now})
        self._play(chosen, "player", now)
        return self.log[before:]

    def choose(self, seat: int, message: Mapping[str, Any], now: float) -> list[Entry]:
        """A ``choose`` message: the seat answers its open choice (``skip`` true or false after a 违例,
        ``leader`` a seat after a 犯规). A skip chosen while the offender is to play is applied at once."""
        return conduct.choose(self, seat, message, now)

    def choice_for(self, seat: int | None) -> Choice | None:
        """The seat's open choice (the first, should it have two), or ``None``."""
        return conduct.choice_for(self, seat)

    def waits_for_choice(self) -> bool:
        """Whether play waits for a choice: the player to act (in play) is an offender whose 下家 has not
        yet said whether its turn is skipped (its clock stands still; it may not act)."""
        return conduct.waits_for_choice(self)

    def choice_clock(self) -> float:
        """Seconds a 下家 has to answer: the follow clock (a tournament table's ``play_s`` plus its
        countdown)."""
        return conduct.choice_clock(self)

    # -- what happens by itself ------------------------------------------------------------------

    @property
    def penalising(self) -> bool:
        """Whether a timeout is penalised here (a tournament table whose policy names a penalty); a
        timeout then costs that penalty and the heuristic bot makes the one move, without 托管."""
        return clocks.penalising(self)

    def clock(self) -> float | None:
        """Seconds the player to act has for this action, by phase (tribute, return, lead, follow); a
        tournament table's are its conduct policy's (the deal's first lead, every other play) plus the
        countdown (读秒)."""
        return clocks.clock(self)

    def due(self) -> Due | None:
        """The next automatic step and when it is due, or ``None`` (waiting for players, or over)."""
        return clocks.due(self)

    def observation(self, seat: int) -> Observation:
        return self.match.observation(seat)

    def make_bot(self, name: str, seed: int) -> Bot:
        return make_bot(name, seed)

    def action_json(self, action: Action) -> dict[str, Any]:
        return action_json(action)

    def apply_due(self, due: Due, action: Action | None, now: float) -> list[Entry]:
        """Carry out ``due`` (as :meth:`due` gave it) with the bot's ``action``: nothing when the table
        has moved on since; the first legal action when the bot's is not legal (or missing)."""
        return clocks.apply_due(self, due, action, now)

    def restart_clocks(self, now: float) -> None:
        """After the server was down: the player to act gets a full clock, the deal pause starts again,
        and so does an open choice."""
        super().restart_clocks(now)
        clocks.restart_clocks(self, now)

    # -- conduct and the match's end (tournament tables) -----------------------------------------

    def penalise(self, seat: int, offence: Offence, now: float) -> list[Entry]:
        """Penalise ``seat`` for ``offence`` (a disconnection, or a referee's call) under the table's
        conduct policy and apply the ruling's effect; nothing at a table without one, or not running."""
        return conduct.penalise(self, seat, offence, now)

    def forfeit(self, side: int, now: float, note: str = "") -> list[Entry]:
        """End a running match by a forfeit of ``side`` (the director's 判负 or 弃权)."""
        return outcomes.forfeit(self, side, now, note)

    def result(self) -> TableResult | None:
        """The finished match's result for a tournament (``None`` while it runs)."""
        return outcomes.result(self)

    def outcome(self) -> dict[str, Any] | None:
        """The state's ``result``: winner, levels, 28-point score and why the match ended."""
        return outcomes.outcome(self)

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
        outcome = outcomes.decide(self, now)
        if outcome is not None:
            outcomes.finish_decided(self, outcome, now)

    def _apply_game(self, entry: Entry, at: float) -> None:
        kind = entry["type"]
        if kind == "deal":
            hands = [read_hand(text) for text in entry["hands"]]
            turned = Card.parse(entry["turned_card"]) if entry.get("turned_card") else None
            dealt = self.match.deal(hands, entry.get("leader"), turned)
            self.named_leader = None
            exempt = [event.seat for event in dealt.events if event.kind == EventKind.ANTI_TRIBUTE]
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
        elif kind == "penalty":
            conduct.apply_penalty(self, entry)
        elif kind == "ruling":
            conduct.apply_ruling(self, entry)
            self.turn_started = at
        elif kind == "choice":
            conduct.apply_choice(self, entry)
        elif kind == "chosen":
            conduct.apply_chosen(self, entry, at)
        elif kind == "deal_end":
            if not self.match.summaries or list(self.match.summaries[-1].result.places) != entry["places"]:
                raise ValueError("the deal's places differ from the log")
            self.deal_ended = at
        elif kind == "match_end":
            if entry.get("reason") == "forfeit" and not self.match.is_over:
                self.match.forfeit(int(entry["forfeited_by"]), str(entry.get("note", "")))
            if not self.match.is_over and entry.get("reason") not in DECIDED:
                raise ValueError("the match is not over")
            self._finish(entry)
            self.choices.clear()
        else:
            super()._apply_game(entry, at)

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
            if event.kind == EventKind.TRIBUTE
        ]
        if handed:
            entry["tributes"] = handed

    # -- what a viewer sees (cardroom.server.views) ---------------------------------------------

    def project(self, entry: Entry, viewer: int | None) -> Entry:
        """A log entry as ``viewer`` (a seat, or ``None`` for a spectator) may see it."""
        return views.project(self, entry, viewer)

    def view(self, viewer: int | None, now: float) -> dict[str, Any]:
        """The ``state`` message for ``viewer``: everything needed to draw the table."""
        return views.state(self, viewer, now)

    # -- records ---------------------------------------------------------------------------------

    def _match_record(self, names: list[str], meta: dict[str, Any]) -> dict[str, Any]:
        return record_of(self.match, names, meta=meta)
