"""A tournament (赛事) as an immutable value: teams register, lots are drawn, rounds are paired
(round robin or Swiss), results are entered per table, and the standings follow.

Every change returns a new :class:`Event`; nothing reads a clock or draws a number except
:meth:`Event.start`, which takes a ``random.Random`` and writes the lots it drew into the event. The
event is plain data: ``to_dict()`` / ``from_dict()`` carry it through JSON, and replaying the same calls
on the same inputs gives the same event.
"""

from __future__ import annotations

import random
from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from datetime import datetime, timedelta
from enum import Enum
from typing import Any

from cardroom.tournament.conduct import ConductPolicy, MatchConduct, Offence, Penalty, PenaltyRecord, Ruling
from cardroom.tournament.director import (
    Appeal,
    Arrival,
    PenaltyEntry,
    ResultChange,
    Withdrawal,
    check_time,
)
from cardroom.tournament.formats import MatchFormat
from cardroom.tournament.lateness import describe_late
from cardroom.tournament.pairing import Entrant, Pairing, RoundDraw, round_robin, swiss_round
from cardroom.tournament.refusals import EventError, EventLookupError
from cardroom.tournament.rounds import Round
from cardroom.tournament.scoring import COMPETITION_SCORING, ScoringRules, TableResult
from cardroom.tournament.standings import StandingRow, TeamRound, standings


class PairingSystem(Enum):
    """How rounds are paired: ``auto`` is a round robin when every team can meet every other within
    the rounds asked for (or no number is given), else Swiss."""

    AUTO = "auto"
    ROUND_ROBIN = "round_robin"
    SWISS = "swiss"


class EventPhase(Enum):
    REGISTRATION = "registration"
    RUNNING = "running"
    FINISHED = "finished"


@dataclass(frozen=True)
class Player:
    """A player: an id unique in the event, a display name, and the bot that plays the seat (a name of
    ``cardroom.bots``' registry) when no person does."""

    id: str
    name: str = ""
    bot: str | None = None

    @property
    def display(self) -> str:
        return self.name or self.id


@dataclass(frozen=True)
class Team:
    """A pair of partners (搭档)."""

    id: str
    players: tuple[Player, Player]
    name: str = ""

    @classmethod
    def of_bots(cls, team_id: str, bot: str = "heuristic", name: str = "") -> Team:
        """A team of two bots, to fill a field (e.g. instead of a bye)."""
        players = (Player(f"{team_id}-1", f"{bot} 1", bot), Player(f"{team_id}-2", f"{bot} 2", bot))
        return cls(team_id, players, name or f"{bot} bots")

    @property
    def display(self) -> str:
        return self.name or self.id

    @property
    def is_bot(self) -> bool:
        return all(player.bot is not None for player in self.players)


@dataclass(frozen=True)
class EventConfig:
    """What the organiser sets: the match format, the number of rounds (``None``: a full round robin),
    the pairing system, the scoring and the conduct policy."""

    name: str = ""
    format: MatchFormat = field(default_factory=MatchFormat.to_ace)
    rounds: int | None = None
    system: PairingSystem = PairingSystem.AUTO
    scoring: ScoringRules = COMPETITION_SCORING
    conduct: ConductPolicy = field(default_factory=ConductPolicy)
    correction_minutes: float = 10
    """"录入错误，应在一轮比赛结束后10分钟之内指出，可以更正"; "裁判长可以另行规定更短或更长的更正时限"."""
    appeal_minutes: float = 30
    """"应在该轮比赛结束后30分钟内提出书面申诉"."""

    def __post_init__(self) -> None:
        if self.correction_minutes < 0 or self.appeal_minutes < 0:
            raise EventError("negative_windows")
        if self.rounds is not None and self.rounds < 1:
            raise EventError("no_rounds", rounds=self.rounds)
        if self.system is PairingSystem.SWISS and self.rounds is None:
            raise EventError("swiss_needs_rounds")


class CorrectionWindowError(EventError):
    """A correction after the round's correction window, without the director's override."""


def _minutes(minutes: float) -> timedelta:
    return timedelta(minutes=minutes)


def round_robin_rounds(teams: int) -> int:
    """Rounds of a full round robin: n − 1, or n with an odd number of teams (one bye each)."""
    return teams - 1 if teams % 2 == 0 else teams


@dataclass(frozen=True)
class Event:
    """A tournament's whole state. Build it with ``Event(config)``, then :meth:`register` teams,
    :meth:`start` (draws the lots), and for each round :meth:`pair_next_round` and :meth:`record`."""

    config: EventConfig = field(default_factory=EventConfig)
    teams: tuple[Team, ...] = ()
    lots: tuple[str, ...] = ()
    """Team ids in the order of the lots drawn at the start (lot 1 first): the seeding of a Swiss
    round one and of the round robin's numbers, and the last tie-break."""
    system: PairingSystem | None = None
    """The pairing system in force, fixed at the start."""
    rounds: tuple[Round, ...] = ()
    withdrawals: tuple[Withdrawal, ...] = ()
    """Teams out of the event (退赛, 取消参赛资格), in order."""
    appeals: tuple[Appeal, ...] = ()
    """Appeals (申诉), numbered 1, 2, … in order."""

    # -- registration --------------------------------------------------------------------------------

    @property
    def phase(self) -> EventPhase:
        if not self.lots:
            return EventPhase.REGISTRATION
        if len(self.rounds) == self.total_rounds and self.rounds[-1].complete:
            return EventPhase.FINISHED
        return EventPhase.RUNNING

    def team(self, team_id: str) -> Team:
        for team in self.teams:
            if team.id == team_id:
                return team
        raise EventLookupError("no_team", team=team_id)

    def register(self, team: Team) -> Event:
        """Add a team before the start; team ids and player ids are unique in the event."""
        if self.phase is not EventPhase.REGISTRATION:
            raise EventError("registration_closed")
        self._check_new_team(team)
        return replace(self, teams=(*self.teams, team))

    def _check_new_team(self, team: Team) -> None:
        if any(other.id == team.id for other in self.teams):
            raise EventError("team_registered", team=team.id)
        if team.players[0].id == team.players[1].id:
            raise EventError("same_player_twice")
        taken = {player.id for other in self.teams for player in other.players}
        clash = [player.id for player in team.players if player.id in taken]
        if clash:
            raise EventError("players_taken", players=clash)

    def fill_with_bots(self, bot: str = "heuristic") -> Event:
        """Make the field even with a bot team (instead of a bye each round)."""
        if len(self.teams) % 2 == 0:
            return self
        return self.register(Team.of_bots(f"bots-{len(self.teams) + 1}", bot))

    # -- the draw ------------------------------------------------------------------------------------

    def start(self, rng: random.Random) -> Event:
        """Close registration: draw the lots with ``rng`` (recorded in ``lots``) and fix the system."""
        if self.phase is not EventPhase.REGISTRATION:
            raise EventError("event_started")
        if len(self.teams) < 2:
            raise EventError("too_few_teams")
        order = [team.id for team in self.teams]
        rng.shuffle(order)
        full = round_robin_rounds(len(order))
        system, rounds = self.config.system, self.config.rounds
        if system is PairingSystem.AUTO:
            if rounds is not None and rounds > full:
                raise EventError("rounds_past_round_robin", rounds=rounds, full=full)
            system = PairingSystem.ROUND_ROBIN if rounds is None or rounds == full else PairingSystem.SWISS
        if system is PairingSystem.ROUND_ROBIN and rounds is not None and rounds > full:
            raise EventError("round_robin_rounds", teams=len(order), full=full, rounds=rounds)
        return replace(self, lots=tuple(order), system=system)

    def lot(self, team_id: str) -> int:
        """The team's lot number (1 first)."""
        return self.lots.index(team_id) + 1

    @property
    def total_rounds(self) -> int:
        full = round_robin_rounds(len(self.teams))
        if self.system is PairingSystem.ROUND_ROBIN:
            return min(full, self.config.rounds or full)
        return self.config.rounds or full

    # -- rounds --------------------------------------------------------------------------------------

    def round(self, number: int) -> Round:
        if not 1 <= number <= len(self.rounds):
            raise EventLookupError("no_round", round=number, paired=len(self.rounds))
        return self.rounds[number - 1]

    @property
    def current_round(self) -> Round | None:
        return self.rounds[-1] if self.rounds else None

    def pair_next_round(self) -> Event:
        """Publish the next round's pairings: the round robin's next round, or a Swiss round over the
        standings. The previous round must be complete (every table's result entered). The round is
        not started yet (:meth:`start_round`). Teams out of the event (:meth:`withdraw`) are left out
        of a Swiss round; in a round robin, whose rounds are fixed at the start, their tables are
        forfeited (a table of two teams out is dropped)."""
        if self.phase is EventPhase.REGISTRATION:
            raise EventError("event_not_started")
        if self.phase is EventPhase.FINISHED:
            raise EventError("no_round_left", round=self.total_rounds)
        if self.rounds and not self.rounds[-1].complete:
            raise EventError("round_incomplete", round=len(self.rounds))
        if len(self.rounds) >= self.total_rounds:
            raise EventError("every_round_paired")
        out = {withdrawal.team for withdrawal in self.withdrawals}
        if self.system is PairingSystem.ROUND_ROBIN:
            full = round_robin(self.lots)[len(self.rounds)]
            kept = tuple(p for p in full.pairings if not (p.teams[0] in out and p.teams[1] in out))
            draw = RoundDraw(kept, None if full.bye in out else full.bye)
        else:
            entrants = [entrant for entrant in self.entrants() if entrant.team not in out]
            if len(entrants) < 2:
                raise EventError("too_few_left")
            draw = swiss_round(entrants)
        number = len(self.rounds) + 1
        event = replace(self, rounds=(*self.rounds, Round(number, draw, (None,) * len(draw.pairings))))
        for pairing in draw.pairings:
            gone = [team for team in pairing.teams if team in out]
            if gone:
                reason = f"{self.withdrawal_of(gone[0]).label}: {self.withdrawal_of(gone[0]).reason}"
                event = event.record_forfeit(number, pairing.table, gone[0], reason=reason)
        return event

    def start_round(self, at: datetime, round_number: int | None = None) -> Event:
        """Declare the round started (宣布比赛开始) at ``at``: from now a side not seated is late
        (docs/rules/competition.md#late). Teams of bots are seated at the start."""
        played = self._round_or_current(round_number)
        if played.started_at is not None:
            raise EventError("round_started", round=played.number, at=played.started_at.isoformat())
        check_time(at, "the start")
        seated = {arrival.team for arrival in played.arrivals}
        bots = tuple(
            Arrival(team, at)
            for pairing in played.pairings
            for team in pairing.teams
            if self.team(team).is_bot and team not in seated
        )
        return self._with_round(replace(played, started_at=at, arrivals=(*played.arrivals, *bots)))

    def arrive(self, team_id: str, at: datetime, *, by: str = "") -> Event:
        """Record that ``team_id`` is seated (入座) at ``at`` in the current round; once the round is
        started, its lateness is judged (:meth:`settle_lateness`)."""
        played = self._round_or_current(None)
        self.team(team_id)
        check_time(at, "an arrival")
        pairing = played.table_of(team_id)
        seated = played.arrival(team_id)
        if seated is not None:
            raise EventError("seated_already", team=team_id, at=seated.isoformat())
        if played.result(pairing.table) is not None:
            raise EventError("table_decided", table=pairing.table)
        event = self._with_round(replace(played, arrivals=(*played.arrivals, Arrival(team_id, at))))
        return event.settle_lateness(at, by=by) if played.started_at is not None else event

    def settle_lateness(self, now: datetime, *, by: str = "") -> Event:
        """Record the lateness penalties that are decided at ``now`` in the current round, at each
        table without a result: a side seated late (warning or foul; the earlier of two late sides a
        warning) and a side missing for more than 10 minutes (弃权: the table's result is its forfeit;
        when both sides are missing, both forfeit and the result is left to the director)."""
        played = self._round_or_current(None)
        if played.started_at is None:
            return self
        check_time(now)
        event = self
        clocks = self.config.conduct.clocks
        for pairing in played.pairings:
            if played.result(pairing.table) is not None:
                continue
            verdicts = played.lateness(pairing.table, now, clocks)
            both_gone = all(v.penalty is Penalty.FORFEIT and not v.seated for v in verdicts)
            gravest_last = sorted(enumerate(verdicts), key=lambda pair: pair[1].penalty or 0)
            for side, verdict in gravest_last:
                team = pairing.teams[side]
                done = any(
                    entry.team == team and entry.offence is Offence.LATE and not entry.escalated
                    for entry in played.penalties
                )
                if not verdict.final or verdict.penalty is None or done:
                    continue
                at = played.arrival(team) if verdict.seated else now
                reason = describe_late(verdict.late_s) + ("" if verdict.seated else "仍未入座")
                if both_gone:
                    entry = PenaltyEntry(
                        pairing.table, team, None, None, Penalty.FORFEIT, Offence.LATE, reason, at, by
                    )
                    current = event._round_or_current(None)
                    event = event._with_round(replace(current, penalties=(*current.penalties, entry)))
                else:
                    event = event._penalise(
                        played.number,
                        pairing.table,
                        team,
                        None,
                        verdict.penalty,
                        Offence.LATE,
                        reason,
                        at,
                        by,
                    )
        return event

    def penalise(
        self,
        round_number: int,
        table: int,
        player_id: str,
        penalty: Penalty,
        reason: str,
        *,
        at: datetime | None = None,
        by: str = "",
        override: str = "",
    ) -> Event:
        """A penalty by hand (警告, 违例, 犯规, 判负) for a player at ``table``, with its reason. Penalties
        accumulate per side within the round (docs/rules/competition.md#penalties): the warning that
        makes two is also a violation, and so on; a 判负 makes the table's result the side's forfeit
        (a correction when a result was entered: the correction window applies, ``override`` with its
        reason lifts it)."""
        if not reason.strip():
            raise EventError("penalty_reason")
        team = self._team_of_player(round_number, table, player_id)
        return self._penalise(
            round_number, table, team, player_id, penalty, Offence.MISCONDUCT, reason, at, by, override
        )

    def _team_of_player(self, round_number: int, table: int, player_id: str) -> str:
        pairing = self.round(round_number).pairing(table)
        team = next((t for t in pairing.teams if player_id in (p.id for p in self.team(t).players)), None)
        if team is None:
            names = ", ".join(f"{p.id} ({p.display})" for p in self.seat_players(pairing))
            raise EventError(
                "no_player_at_table", player=player_id, table=table, round=round_number, players=names
            )
        return team

    def _penalise(
        self,
        round_number: int,
        table: int,
        team: str,
        player_id: str | None,
        penalty: Penalty,
        offence: Offence,
        reason: str,
        at: datetime | None,
        by: str,
        override: str = "",
    ) -> Event:
        played = self.round(round_number)
        pairing = played.pairing(table)
        seat = None
        if player_id is not None:
            seat = [p.id for p in self.seat_players(pairing)].index(player_id)
        if at is not None:
            check_time(at)
        ruling = self._ruling(round_number, table, team, seat, penalty, offence, reason, at)
        entries = tuple(
            PenaltyEntry(table, team, player_id, seat, r.penalty, offence, reason, at, by, r.escalated)
            for r in ruling.records
        )
        event = self._with_round(replace(played, penalties=(*played.penalties, *entries)))
        if ruling.penalty is Penalty.FORFEIT:
            labels = "弃权" if offence is Offence.LATE else "判负"
            previous = played.result(table)
            event = event.record_forfeit(
                round_number,
                table,
                team,
                (2, 2) if previous is None else previous.table_levels or previous.levels,
                0 if previous is None else previous.deals,
                at=at,
                by=by,
                reason=f"{labels}: {reason}",
                override=override,
            )
        return event

    def _ruling(
        self,
        round_number: int,
        table: int,
        team: str,
        seat: int | None,
        penalty: Penalty,
        offence: Offence,
        reason: str,
        at: datetime | None,
    ) -> Ruling:
        """The ruling a penalty makes with the side's others at the table (its escalation); a table whose
        match is decided by a forfeit takes no more: its result stands (docs/rules/competition.md#forfeit:
        the match ends at once)."""
        played = self.round(round_number)
        pairing = played.pairing(table)
        conduct = MatchConduct(
            self.config.conduct,
            tuple(
                PenaltyRecord(
                    pairing.teams.index(e.team), e.seat, e.penalty, e.offence, 0.0, 0, e.escalated, e.reason
                )
                for e in played.table_penalties(table)
            ),
        )
        result = played.result(table)
        if conduct.forfeited is not None or (result is not None and result.forfeited_by is not None):
            raise EventError("decided_by_forfeit", table=table, round=round_number)
        base = played.started_at
        at_s = 0.0 if at is None or base is None else (at - base).total_seconds()
        _, ruling = conduct.penalise(
            offence,
            at_s=at_s,
            deal=0,
            side=pairing.teams.index(team),
            seat=seat,
            penalty=penalty,
            note=reason,
        )
        return ruling

    def penalty_outcome(self, round_number: int, table: int, player_id: str, penalty: Penalty) -> Penalty:
        """What a penalty by hand for ``player_id`` would make with the side's others in the round: the
        penalty itself, or the graver one it escalates to (docs/rules/competition.md#penalties; two fouls
        make a 判负, which a director confirms). Raises as :meth:`penalise` would."""
        played = self.round(round_number)
        pairing = played.pairing(table)
        team = self._team_of_player(round_number, table, player_id)
        seat = [p.id for p in self.seat_players(pairing)].index(player_id)
        ruling = self._ruling(round_number, table, team, seat, penalty, Offence.MISCONDUCT, "", None)
        return ruling.penalty or penalty

    def correction_deadline(self, round_number: int) -> datetime | None:
        """Until when a table's result of the round may be corrected: "录入错误，应在一轮比赛结束后10分钟
        之内指出，可以更正" (docs/tournaments.md, "Corrections"); ``None`` while the round is not over
        (corrections are free) or its end time is unknown."""
        ended = self.round(round_number).ended_at
        return None if ended is None else ended + _minutes(self.config.correction_minutes)

    def record(
        self,
        round_number: int,
        table: int,
        result: TableResult,
        *,
        at: datetime | None = None,
        by: str = "",
        reason: str = "",
        override: str = "",
    ) -> Event:
        """Enter (or correct) a table's result; ``result``'s side 0 is the team at seats 0 & 2. Every
        entry is kept (:attr:`Round.changes`: what, when, by whom, why). A correction after the round's
        correction window (:meth:`correction_deadline`) is refused unless the director overrides it
        with a reason (``override``). A correction never changes pairings already made ("成绩更正不改变
        已公布的编排")."""
        played = self.round(round_number)
        index = played.pairings.index(played.pairing(table))
        previous = played.results[index]
        if at is not None:
            check_time(at)
        deadline = self.correction_deadline(round_number)
        late = previous is not None and deadline is not None and at is not None and at > deadline
        if late and deadline is not None and not override.strip():
            raise CorrectionWindowError(
                "correction_window",
                round=round_number,
                deadline=deadline.isoformat(),
                minutes=self.config.correction_minutes,
            )
        why = reason if not late else f"{reason} (override: {override})".strip()
        results = list(played.results)
        results[index] = result
        change = ResultChange(table, result, previous, at, by, why, late)
        updated = replace(played, results=tuple(results), changes=(*played.changes, change))
        if updated.complete and updated.ended_at is None and at is not None:
            updated = replace(updated, ended_at=at)
        return self._with_round(updated)

    def record_forfeit(
        self,
        round_number: int,
        table: int,
        team_id: str,
        table_levels: tuple[int, int] = (2, 2),
        deals: int = 0,
        *,
        at: datetime | None = None,
        by: str = "",
        reason: str = "",
        override: str = "",
    ) -> Event:
        """Enter a forfeit (判负 or 弃权) by ``team_id`` at ``table``; ``table_levels`` by side."""
        side = self.round(round_number).side_of(table, team_id)
        result = TableResult.forfeit(side, table_levels, deals, self.config.scoring)
        return self.record(round_number, table, result, at=at, by=by, reason=reason, override=override)

    # -- teams out and late entries ------------------------------------------------------------------

    def withdrawal_of(self, team_id: str) -> Withdrawal:
        for withdrawal in self.withdrawals:
            if withdrawal.team == team_id:
                return withdrawal
        raise EventLookupError("not_withdrawn", team=team_id)

    def is_out(self, team_id: str) -> bool:
        return any(withdrawal.team == team_id for withdrawal in self.withdrawals)

    def withdraw(
        self, team_id: str, reason: str, *, at: datetime | None = None, by: str = "", disqualify: bool = False
    ) -> Event:
        """Take a team out: withdrawn (退赛) or disqualified (取消参赛资格). Before the start it is simply
        unregistered. Later its results stand; its table in the current round, if still without a
        result, is its forfeit; later rounds leave it out (Swiss) or forfeit its tables (round robin)."""
        self.team(team_id)
        if not reason.strip():
            raise EventError("withdrawal_reason")
        if self.phase is EventPhase.REGISTRATION:
            return replace(self, teams=tuple(team for team in self.teams if team.id != team_id))
        if self.is_out(team_id):
            raise EventError("team_out", team=team_id, label=self.withdrawal_of(team_id).label)
        if at is not None:
            check_time(at)
        out = Withdrawal(team_id, len(self.rounds), reason, at, by, disqualify)
        event = replace(self, withdrawals=(*self.withdrawals, out))
        current = self.current_round
        if current is not None and team_id in current.draw.teams() and current.draw.bye != team_id:
            table = current.table_of(team_id).table
            if current.result(table) is None:
                event = event.record_forfeit(
                    current.number, table, team_id, at=at, by=by, reason=f"{out.label}: {reason}"
                )
        return event

    def enter_late(self, team: Team) -> Event:
        """A late entry (Swiss only): a team registered after the start, before the next round is
        paired; it takes the next lot number and starts with no points."""
        if self.phase is EventPhase.REGISTRATION:
            return self.register(team)
        if self.phase is EventPhase.FINISHED:
            raise EventError("event_finished")
        if self.system is not PairingSystem.SWISS:
            raise EventError("no_late_entries")
        if self.rounds and not self.rounds[-1].complete:
            raise EventError("round_under_way", round=len(self.rounds))
        self._check_new_team(team)
        return replace(self, teams=(*self.teams, team), lots=(*self.lots, team.id))

    # -- appeals -------------------------------------------------------------------------------------

    def file_appeal(
        self,
        round_number: int,
        table: int,
        team_id: str,
        text: str,
        *,
        at: datetime | None = None,
        by: str = "",
        override: str = "",
    ) -> Event:
        """An appeal (申诉) by a team at a table: "应在该轮比赛结束后30分钟内提出" (the window is
        ``config.appeal_minutes``); later only when the director overrides it with a reason."""
        played = self.round(round_number)
        played.side_of(table, team_id)
        if not text.strip():
            raise EventError("appeal_text")
        if at is not None:
            check_time(at)
        ended = played.ended_at
        late = ended is not None and at is not None and at > ended + _minutes(self.config.appeal_minutes)
        if late and not override.strip():
            raise EventError("appeal_window", round=round_number, minutes=self.config.appeal_minutes)
        appeal = Appeal(len(self.appeals) + 1, round_number, table, team_id, text, at, by, bool(late))
        return replace(self, appeals=(*self.appeals, appeal))

    def rule_appeal(
        self, number: int, ruling: str, upheld: bool, *, by: str, at: datetime | None = None
    ) -> Event:
        """Record the ruling on appeal ``number`` and who made it; a ruling is final."""
        if not 1 <= number <= len(self.appeals):
            raise EventLookupError("no_appeal", appeal=number, filed=len(self.appeals))
        appeal = self.appeals[number - 1]
        if appeal.decided:
            raise EventError("appeal_decided", appeal=number, ruling=appeal.ruling)
        if not ruling.strip() or not by.strip():
            raise EventError("ruling_text")
        if at is not None:
            check_time(at)
        decided = replace(appeal, ruling=ruling, upheld=upheld, ruled_by=by, ruled_at=at)
        appeals = list(self.appeals)
        appeals[number - 1] = decided
        return replace(self, appeals=tuple(appeals))

    # -- helpers -------------------------------------------------------------------------------------

    def _round_or_current(self, number: int | None) -> Round:
        if number is not None:
            return self.round(number)
        if self.current_round is None:
            raise EventError("no_round_paired")
        return self.current_round

    def _with_round(self, played: Round) -> Event:
        rounds = list(self.rounds)
        rounds[played.number - 1] = played
        return replace(self, rounds=tuple(rounds))

    def seat_players(self, pairing: Pairing) -> tuple[Player, Player, Player, Player]:
        """The players by seat 0–3: the first team's players at 0 and 2, the second's at 1 and 3."""
        first, second = (self.team(team_id).players for team_id in pairing.teams)
        return first[0], second[0], first[1], second[1]

    # -- standings -----------------------------------------------------------------------------------

    def team_rounds(self) -> dict[str, list[TeamRound]]:
        """Each team's entered results, byes included, as seen from its side."""
        entries: dict[str, list[TeamRound]] = {team.id: [] for team in self.teams}
        bye = TableResult.bye(self.config.scoring)
        for played in self.rounds:
            for pairing, result in zip(played.pairings, played.results, strict=True):
                if result is None:
                    continue
                first, second = pairing.teams
                entries[first].append(TeamRound(played.number, second, 0, result))
                entries[second].append(TeamRound(played.number, first, 1, result))
            if played.draw.bye is not None:
                entries[played.draw.bye].append(TeamRound(played.number, None, 0, bye))
        return entries

    def standings(self) -> tuple[StandingRow, ...]:
        """The ranking over the results entered so far (:func:`cardroom.tournament.standings.standings`)."""
        if not self.lots:
            raise EventError("standings_need_lots")
        lots = {team_id: self.lot(team_id) for team_id in self.lots}
        return standings(self.team_rounds(), lots, self.config.scoring.level_table)

    def entrants(self) -> list[Entrant]:
        """What Swiss pairing needs of each team, in standings order."""
        met: dict[str, set[str]] = {team.id: set() for team in self.teams}
        sides: dict[str, list[int]] = {team.id: [0, 0] for team in self.teams}
        last: dict[str, int | None] = dict.fromkeys(met)
        byes = dict.fromkeys(met, 0)
        for played in self.rounds:
            for pairing in played.pairings:
                first, second = pairing.teams
                met[first].add(second)
                met[second].add(first)
                for side, team_id in enumerate(pairing.teams):
                    sides[team_id][side] += 1
                    last[team_id] = side
            if played.draw.bye is not None:
                byes[played.draw.bye] += 1
        return [
            Entrant(
                row.team,
                row.tally.points,
                frozenset(met[row.team]),
                byes[row.team],
                (sides[row.team][0], sides[row.team][1]),
                last[row.team],
            )
            for row in self.standings()
        ]

    # -- persistence ---------------------------------------------------------------------------------

    def to_dict(self) -> dict[str, Any]:
        """The event as JSON-ready data."""
        config = self.config
        return {
            "config": {
                "name": config.name,
                "format": config.format.to_dict(),
                "rounds": config.rounds,
                "system": config.system.value,
                "scoring": {
                    "win": config.scoring.win,
                    "draw": config.scoring.draw,
                    "loss": config.scoring.loss,
                    "forfeit_levels": config.scoring.forfeit_levels,
                    "forfeit_floor": config.scoring.forfeit_floor,
                    "forfeit_score": list(config.scoring.forfeit_score),
                    "level_table": config.scoring.level_table,
                },
                "conduct": config.conduct.to_dict(),
                "correction_minutes": config.correction_minutes,
                "appeal_minutes": config.appeal_minutes,
            },
            "teams": [
                {
                    "id": team.id,
                    "name": team.name,
                    "players": [{"id": p.id, "name": p.name, "bot": p.bot} for p in team.players],
                }
                for team in self.teams
            ],
            "lots": list(self.lots),
            "system": None if self.system is None else self.system.value,
            "rounds": [played.to_dict() for played in self.rounds],
            "withdrawals": [withdrawal.to_dict() for withdrawal in self.withdrawals],
            "appeals": [appeal.to_dict() for appeal in self.appeals],
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Event:
        raw = data["config"]
        scoring = raw.get("scoring", {})
        win_score, loss_score = scoring.get("forfeit_score", (17, 0))
        config = EventConfig(
            raw.get("name", ""),
            MatchFormat.from_dict(raw.get("format", {})),
            raw.get("rounds"),
            PairingSystem(raw.get("system", "auto")),
            ScoringRules(
                scoring.get("win", 2),
                scoring.get("draw", 1),
                scoring.get("loss", 0),
                scoring.get("forfeit_levels", 4),
                scoring.get("forfeit_floor", 11),
                (int(win_score), int(loss_score)),
                int(scoring.get("level_table", 26)),
            ),
            ConductPolicy.from_dict(raw.get("conduct", {})),
            float(raw.get("correction_minutes", 10)),
            float(raw.get("appeal_minutes", 30)),
        )
        teams = tuple(_team_from_dict(team) for team in data.get("teams", ()))
        rounds = tuple(Round.from_dict(played) for played in data.get("rounds", ()))
        system = data.get("system")
        return cls(
            config,
            teams,
            tuple(data.get("lots", ())),
            None if system is None else PairingSystem(system),
            rounds,
            tuple(Withdrawal.from_dict(w) for w in data.get("withdrawals", ())),
            tuple(Appeal.from_dict(a) for a in data.get("appeals", ())),
        )


def _team_from_dict(data: dict[str, Any]) -> Team:
    first, second = (Player(p["id"], p.get("name", ""), p.get("bot")) for p in data["players"])
    return Team(data["id"], (first, second), data.get("name", ""))


def new_event(config: EventConfig, teams: Iterable[Team]) -> Event:
    """An event in registration with these teams."""
    event = Event(config)
    for team in teams:
        event = event.register(team)
    return event


__all__ = [
    "CorrectionWindowError",
    "Event",
    "EventConfig",
    "EventPhase",
    "PairingSystem",
    "Player",
    "Round",
    "Team",
    "new_event",
    "round_robin_rounds",
]
