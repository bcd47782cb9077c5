"""Conduct at a tournament table: penalties and their rulings (违例's skipped turn, 犯规's ended deal,
判负), and the choices the rules give the offender's 下家.

:class:`Conduct` is a table's conduct state (the penalties, pending skips, open choices, the named leader). It
reads only what it is given and never writes the log: its methods decide the entry to record (``penalty``,
``ruling``, ``choice``, ``chosen``; docs/protocol.md), which the table
(:class:`~cardroom.server.tables.guandan.Table`) records, and its ``apply_*`` methods are how the table
applies them, live or replayed. The table sequences the steps (a foul ends the deal, then the 下家 is asked).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any, Final

from cardroom.guandan.deal import Deal, EventKind, Phase
from cardroom.guandan.match import Match
from cardroom.guandan.rulings import FoulRuling, SkipTurnRuling
from cardroom.server.tables.codec import ChoiceKind, ProtocolError
from cardroom.server.tables.entries import By, ChoiceEntry, ChosenEntry, PenaltyEntry, RulingEntry
from cardroom.tournament.conduct import (
    ConductPolicy,
    EndDeal,
    EndMatch,
    MatchConduct,
    NoEffect,
    Offence,
    Penalty,
    PenaltyRecord,
    SkipTurn,
)

Effect = NoEffect | SkipTurn | EndDeal | EndMatch

EFFECT_NAMES: Final = {NoEffect: "none", SkipTurn: "skip_turn", EndDeal: "end_deal", EndMatch: "end_match"}
"""How a ruling's effect is named in a ``penalty`` entry."""


@dataclass(frozen=True)
class Choice:
    """A decision 摜彈 gives the offender's 下家 (``seat``), open until ``deadline``: after a 违例,
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

    @property
    def default(self) -> bool | int:
        """The answer at the deadline: skip the offender's turn, or the chooser leads."""
        return True if self.kind == "skip_turn" else self.seat


def can_skip(deal: Deal, seat: int) -> bool:
    """Whether a pending skip can be applied now: ``seat`` is to play (not tribute or return)."""
    return deal.phase is Phase.PLAY and deal.current_player == seat


class Conduct:
    """A table's conduct state: the match's penalties under its policy (``None`` at a table without
    one), the seats whose next turn is skipped, the open choices and the leader named after a foul."""

    def __init__(self, policy: ConductPolicy | None) -> None:
        self.penalties: MatchConduct | None = None if policy is None else MatchConduct(policy)
        """The penalties of this match (tournament tables)."""
        self.pending_skip: set[int] = set()
        """Seats whose next turn in play is skipped (违例: their 下家 chose the skip, or took the default)."""
        self.choices: list[Choice] = []
        """The open choices of offenders' 下家 (``choice`` entries not yet answered by ``chosen``)."""
        self.named_leader: int | None = None
        """The leader named for the deal after a foul (a ``chosen`` entry), until that deal is dealt."""
        self.late_fouls: list[int] = []
        """Seats of sides judged a foul for lateness (a ``penalty`` entry, offence ``late``, effect
        ``end_deal``) whose deal is not yet ruled: each ends the next deal dealt
        (docs/rules/competition.md#late)."""

    @property
    def records(self) -> tuple[PenaltyRecord, ...]:
        return () if self.penalties is None else self.penalties.records

    @property
    def penalising_timeouts(self) -> bool:
        """Whether a timeout is penalised (a policy that names a penalty for it)."""
        return self.penalties is not None and self.penalties.policy.timeout is not None

    # -- the 下家's choices -----------------------------------------------------------------------

    def choice_for(self, seat: int | None) -> Choice | None:
        """The seat's open choice (the first, should it have two), or ``None``."""
        return next((choice for choice in self.choices if choice.seat == seat), None)

    def open_choice(self, seat: int, kind: ChoiceKind) -> Choice | None:
        return next((c for c in self.choices if c.seat == seat and c.kind == kind), None)

    def open_skip(self, offender: int | None) -> Choice | None:
        return next((c for c in self.choices if c.kind == "skip_turn" and c.offender == offender), None)

    def waits(self, deal: Deal | None) -> bool:
        """Whether play in ``deal`` waits for a choice: the player to act is an offender whose 下家 has
        not yet said whether its turn is skipped."""
        if deal is None or deal.phase is not Phase.PLAY:
            return False
        return self.open_skip(deal.current_player) is not None

    def first_deadline(self) -> Choice | None:
        """The open choice whose deadline comes first, or ``None``."""
        return min(self.choices, key=lambda choice: choice.deadline) if self.choices else None

    def waits_for_leader(self) -> bool:
        """Whether the next deal waits for its leader to be named."""
        return any(choice.kind == "leader" for choice in self.choices)

    def due_choice(self, seat: int, deadline: float) -> Choice:
        """The open choice of ``seat`` whose deadline this is."""
        return next(c for c in self.choices if c.seat == seat and c.deadline == deadline)

    def choice_clock(self, follow: float) -> float:
        """Seconds a 下家 has to answer: the follow clock (``follow``, or a tournament table's
        ``play_s`` plus its countdown)."""
        if self.penalties is not None:
            clocks = self.penalties.policy.clocks
            return float(clocks.play_s + clocks.countdown_s)
        return follow

    def answering(self, seat: int, kind: ChoiceKind, names: list[str | None]) -> Choice:
        """The open choice a ``choose`` message of ``seat`` answers; refused (:class:`ProtocolError`)
        when it has none of that kind."""
        choice = self.open_choice(seat, kind)
        if choice is not None:
            return choice
        other = next((open_ for open_ in self.choices if open_.kind == kind), None)
        what = "whether the offender's turn is skipped" if kind == "skip_turn" else "the next leader"
        if other is not None:
            raise ProtocolError(
                "out_of_turn", f"seat {other.seat} ({names[other.seat]}) chooses {what}, not seat {seat}"
            )
        raise ProtocolError("wrong_phase", f"no choice of {what} is open")

    @staticmethod
    def answer(choice: Choice, value: bool | int, by: By, now: float) -> ChosenEntry:
        """The ``chosen`` entry answering ``choice`` (``by``: ``player`` or ``default``)."""
        if choice.kind == "skip_turn":
            return ChosenEntry(choice.kind, choice.seat, choice.offender, by, now, skip=bool(value))
        return ChosenEntry(choice.kind, choice.seat, choice.offender, by, now, leader=int(value))

    def restart(self, now: float, clock: float) -> None:
        """After the server was down: every open choice gets its full ``clock`` again."""
        self.choices = [replace(choice, deadline=now + clock) for choice in self.choices]

    # -- penalties and rulings --------------------------------------------------------------------

    def asked(self, seat: int) -> bool:
        """Whether a skip of ``seat``'s turn is already pending or being chosen."""
        return seat in self.pending_skip or self.open_skip(seat) is not None

    def penalty(
        self, seat: int, offence: Offence, *, at_s: float, deal_number: int, now: float
    ) -> tuple[PenaltyEntry | None, Effect]:
        """The ``penalty`` entry of an offence (``None`` when the policy records nothing) and the
        ruling's effect, which the table carries out."""
        assert self.penalties is not None
        _state, ruling = self.penalties.penalise(offence, at_s=at_s, deal=deal_number, seat=seat)
        if not ruling.records:
            return None, ruling.effect
        entry = PenaltyEntry(
            seat,
            seat % 2,
            offence.value,
            tuple(record.to_dict() for record in ruling.records),
            EFFECT_NAMES[type(ruling.effect)],
            deal_number,
            now,
        )
        return entry, ruling.effect

    def skip_due(self, seat: int, deal: Deal | None) -> bool:
        """Whether a pending skip of ``seat`` is to be applied now."""
        return deal is not None and seat in self.pending_skip and can_skip(deal, seat)

    def late_penalty(
        self, seat: int, penalty: Penalty, note: str, *, at_s: float, deal_number: int, now: float
    ) -> PenaltyEntry:
        """The ``penalty`` entry of a side judged late by the event, a warning or a foul (its record says
        so). Nothing escalates here, the event counted the side's penalties when it judged the
        lateness; the record counts with the table's own from then on (a late warning and a timeout's
        warning make a violation: docs/rules/competition.md#penalties). A foul ends a deal."""
        if penalty not in (Penalty.WARNING, Penalty.FOUL):
            raise ValueError(f"lateness gives a warning or a foul at a table, not {penalty.name}")
        record = PenaltyRecord(seat % 2, None, penalty, Offence.LATE, at_s, deal_number, False, note)
        effect = EFFECT_NAMES[EndDeal] if penalty is Penalty.FOUL else EFFECT_NAMES[NoEffect]
        return PenaltyEntry(seat, seat % 2, Offence.LATE.value, (record.to_dict(),), effect, deal_number, now)

    # -- applying the entries (live or replayed) --------------------------------------------------

    def apply_penalty(self, entry: PenaltyEntry) -> None:
        if self.penalties is None:
            raise ValueError("a penalty at a table without a conduct policy")
        records = tuple(PenaltyRecord.from_dict(dict(record)) for record in entry.records)
        self.penalties = MatchConduct(self.penalties.policy, self.penalties.records + records)
        if entry.effect == "skip_turn":
            self.pending_skip.add(entry.seat)
        if entry.effect == EFFECT_NAMES[EndDeal] and entry.offence == Offence.LATE.value:
            self.late_fouls.append(entry.seat)

    def apply_ruling(self, entry: RulingEntry, match: Match) -> RulingEntry:
        """Apply a ruling to ``match``; the entry is returned with where the lead went (a skip) or the
        deal's places (a foul)."""
        deal = match.current_deal
        if deal is None:
            raise ValueError("a ruling outside a deal")
        before = len(deal.events)
        if entry.kind == "skip_turn":
            self.pending_skip.discard(entry.seat)
            match.apply_ruling(SkipTurnRuling(entry.seat))
            lead = [event.to for event in deal.events[before:] if event.kind == EventKind.SKIP_TURN]
            return replace(entry, lead_to=lead[0]) if lead and lead[0] is not None else entry
        self.pending_skip.clear()
        self.choices = [choice for choice in self.choices if choice.kind != "skip_turn"]
        if entry.seat in self.late_fouls:
            self.late_fouls.remove(entry.seat)
        match.apply_ruling(FoulRuling(entry.seat))
        assert deal.result is not None
        return replace(entry, places=tuple(deal.result.places))

    def apply_choice(self, entry: ChoiceEntry, *, running: bool, between_deals: bool) -> None:
        choice = Choice(entry.kind, entry.seat, entry.offender, entry.deadline)
        if not running or self.open_choice(choice.seat, entry.kind) is not None:
            raise ValueError(f"seat {choice.seat} cannot be asked this choice now")
        if entry.kind == "leader" and not between_deals:
            raise ValueError("a leader is chosen between deals")
        if entry.kind == "skip_turn":
            self.pending_skip.discard(choice.offender)  # until the 下家 answers
        self.choices.append(choice)

    def apply_chosen(self, entry: ChosenEntry, deal: Deal | None) -> bool:
        """Apply an answer; whether the offender's clock starts now (play waited for the answer)."""
        choice = self.open_choice(entry.seat, entry.kind)
        if choice is None:
            raise ValueError(f"seat {entry.seat} has no open {entry.kind!r} choice")
        self.choices.remove(choice)
        if entry.kind == "leader":
            self.named_leader = entry.leader
            return False
        if entry.skip:
            self.pending_skip.add(choice.offender)
        return deal is not None and deal.phase is Phase.PLAY and deal.current_player == choice.offender

    def end_match(self) -> None:
        """The match is over: no choice stays open."""
        self.choices.clear()
