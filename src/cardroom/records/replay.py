"""The referee: replay a record through the rules core and report what happened.

:func:`replay` reads the record (:func:`~cardroom.records.schema.parse_record`, which raises
:class:`~cardroom.records.schema.RecordError` for a broken record), rebuilds the match deal by deal and
applies every action (and every referee's ruling) with the core's own validator. The
:class:`ReplayReport` holds each finished deal's result and the match result, or the *first* illegal
action (where, who, and the rule broken), and — when the record carries a ``result`` — every way it
differs from the replay. A record may stop anywhere: an unfinished match is reported as such, not as an
error. A recorded ``forfeit`` ends the match after the last action.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from cardroom.cards import Rank
from cardroom.guandan.deal import Action, Phase, PlayAction, ReturnAction, TributeAction
from cardroom.guandan.errors import NotACombinationError, OutOfTurnError, RuleError, WrongPhaseError
from cardroom.guandan.match import Match, MatchPhase
from cardroom.guandan.plays import PASS
from cardroom.guandan.rulings import DealRuling, FoulRuling, SkipTurnRuling
from cardroom.guandan.triple import TripleError, from_triple
from cardroom.records.jsonpaths import differences as _differences
from cardroom.records.schema import MatchRecord, RecordedAction, RecordError, parse_record
from cardroom.records.writer import result_of


@dataclass(frozen=True)
class DealReport:
    """One finished deal: the level played (and whose it was), the finishing order, the 上游's team and
    its rise (+3/+2/+1 by the partner's place, before the cap at A), both levels afterwards; ``foul_by``
    the offender when a foul ended it; ``actions`` counts its actions and rulings."""

    index: int
    level: Rank
    level_team: int | None
    places: tuple[int, int, int, int]
    winner_team: int
    rise: int
    levels_after: tuple[Rank, Rank]
    passed_ace: bool
    failed_at_ace: tuple[int, ...]
    actions: int
    foul_by: int | None = None


@dataclass(frozen=True)
class Violation:
    """The first illegal action of a record. Indices count from 0, as in the record's JSON paths:
    ``deal_index`` into ``deals``, ``action_index`` into that deal's ``actions``, ``overall_index`` over
    every action of the record. ``rule`` is the name of the :class:`RuleError` subclass raised."""

    deal_index: int
    action_index: int
    overall_index: int
    seat: int
    action: dict[str, Any]
    description: str
    rule: str
    message: str

    @property
    def path(self) -> str:
        return f"deals[{self.deal_index}].actions[{self.action_index}]"


@dataclass(frozen=True)
class ReplayReport:
    """What the replay of a record found. ``result`` is the replayed result in the record's format;
    ``mismatches`` lists how the record's own ``result`` differs from it (empty when it has none, or
    when an illegal action stopped the replay)."""

    record: MatchRecord
    deals: tuple[DealReport, ...]
    actions_applied: int
    violation: Violation | None
    result: dict[str, Any]
    mismatches: tuple[str, ...]
    match: Match = field(compare=False, repr=False)

    @property
    def ok(self) -> bool:
        """No illegal action and no mismatch with the recorded result."""
        return self.violation is None and not self.mismatches

    @property
    def finished(self) -> bool:
        """The match reached its end (a team passed A, or the fixed number of deals was played)."""
        return self.match.is_over

    @property
    def winner(self) -> int | None:
        return self.match.winner

    @property
    def forfeited_by(self) -> int | None:
        """The side that lost by a recorded forfeit (判负), if any."""
        return self.match.forfeited_by

    @property
    def levels(self) -> tuple[Rank, Rank]:
        return self.match.levels[0], self.match.levels[1]

    @property
    def points(self) -> tuple[int, int] | None:
        """The 28-point round score, when the match is over."""
        return self.match.points() if self.match.is_over else None

    @property
    def state(self) -> str:
        """Where the replay stopped, in words (for an unfinished match: which deal, whose turn)."""
        match = self.match
        if self.violation is not None:
            return f"stopped at the illegal action {self.violation.path}"
        if match.forfeited is not None:
            side, played = match.forfeited.side, _deals(len(match.deals))
            return f"the match ended by a forfeit of team {side} after {played}"
        if match.is_over:
            return f"the match is over after {_deals(len(match.deals))}"
        deal = match.current_deal
        if deal is None:
            return f"{_deals(len(match.deals))} played; the next deal is not in the record"
        return (
            f"deal {len(match.deals)} is in its {deal.phase.value} phase, seat {deal.current_player} to act"
        )


def _deals(count: int) -> str:
    return f"{count} deal" if count == 1 else f"{count} deals"


def replay(raw: object) -> ReplayReport:
    """Replay a record (the JSON value, or an already read :class:`MatchRecord`).

    Raises :class:`RecordError` for a broken record, including deals that cannot follow each other
    (a deal after the match is over, or after a deal that did not finish).
    """
    record = raw if isinstance(raw, MatchRecord) else parse_record(raw)
    match = Match(record.rules, max_deals=record.max_deals)
    overall = 0
    violation: Violation | None = None
    for deal_index, deal_record in enumerate(record.deals):
        path = f"deals[{deal_index}]"
        if match.phase is MatchPhase.OVER:
            raise RecordError(path, f"the match was over after {deal_index} deals; no deal may follow")
        if match.phase is MatchPhase.DEAL:
            raise RecordError(
                path,
                f"deal {deal_index} (deals[{deal_index - 1}]) did not finish; "
                "only the last deal of a record may be unfinished",
            )
        try:
            deal = match.deal(deal_record.hands, deal_record.leader, deal_record.turned_card)
        except ValueError as error:
            raise RecordError(path, str(error)) from None
        for action_index, recorded in enumerate(deal_record.actions):
            try:
                action = _engine_action(recorded, deal.level, match)
                if isinstance(action, SkipTurnRuling | FoulRuling):
                    match.apply_ruling(action)
                else:
                    match.apply(action)
            except RuleError as error:
                violation = Violation(
                    deal_index,
                    action_index,
                    overall,
                    recorded.seat,
                    recorded.to_json(),
                    recorded.describe(),
                    type(error).__name__,
                    str(error),
                )
                break
            overall += 1
        if violation is not None:
            break
    if violation is None and record.forfeit is not None:
        try:
            match.apply_ruling(record.forfeit)
        except RuleError as error:
            raise RecordError("forfeit", f"{error}: a forfeit (判负) ends a match still in play") from None
    result = result_of(match)
    mismatches: tuple[str, ...] = ()
    if violation is None and record.result is not None:
        mismatches = tuple(_differences("result", record.result, result))
    return ReplayReport(record, _deal_reports(match), overall, violation, result, mismatches, match)


def _engine_action(recorded: RecordedAction, level: Rank, match: Match) -> Action | DealRuling:
    if recorded.kind == "ruling":
        return recorded.engine_ruling()
    if recorded.kind == "tribute":
        assert recorded.card is not None
        return TributeAction(recorded.seat, recorded.card)
    if recorded.kind == "return":
        assert recorded.card is not None
        return ReturnAction(recorded.seat, recorded.card)
    assert recorded.triple is not None
    type_name, rank, cards = recorded.triple
    try:
        play = from_triple([type_name, rank, list(cards)], level, match.rules)
    except TripleError as error:
        # The core checks turn and phase before the cards: keep its order for an unreadable play.
        try:
            match.verify(PlayAction(recorded.seat, PASS))
        except (OutOfTurnError, WrongPhaseError):
            raise
        except RuleError:
            pass
        raise NotACombinationError(str(error)) from None
    return PlayAction(recorded.seat, play)


def _deal_reports(match: Match) -> tuple[DealReport, ...]:
    reports = []
    for index, (deal, summary) in enumerate(zip(match.deals, match.summaries, strict=False)):
        assert deal.phase is Phase.OVER
        reports.append(
            DealReport(
                index=index,
                level=summary.level,
                level_team=summary.level_team,
                places=summary.result.places,
                winner_team=summary.result.winning_team,
                rise=summary.result.rise(match.rules),
                levels_after=summary.levels_after,
                passed_ace=summary.passed_ace,
                failed_at_ace=summary.failed_at_ace,
                actions=len(deal.actions),
                foul_by=summary.result.foul_by,
            )
        )
    return tuple(reports)
