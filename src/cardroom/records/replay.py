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

from dataclasses import dataclass

from cardroom.cards import Rank
from cardroom.guandan.deal import Action, Phase, PlayAction, ReturnAction, TributeAction
from cardroom.guandan.errors import NotACombinationError, OutOfTurnError, RuleError, WrongPhaseError
from cardroom.guandan.match import Match
from cardroom.guandan.plays import PASS
from cardroom.guandan.rulings import DealRuling, FoulRuling, SkipTurnRuling
from cardroom.guandan.triple import TripleError, from_triple
from cardroom.records.replaying import MatchReplay, Violation, deals_text, mismatches, replay_deals
from cardroom.records.schema import DealRecord, MatchRecord, RecordedAction, RecordError, parse_record
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
class ReplayReport(MatchReplay[MatchRecord, DealReport, Match]):
    """What the replay of a Guandan record found (:class:`~cardroom.records.replaying.MatchReplay`),
    with the 28-point score and a recorded forfeit."""

    @property
    def forfeited_by(self) -> int | None:
        """The side that lost by a recorded forfeit (判负), if any."""
        return self.match.forfeited_by

    @property
    def points(self) -> tuple[int, int] | None:
        """The 28-point round score, when the match is over."""
        return self.match.points() if self.match.is_over else None

    @property
    def state(self) -> str:
        """Where the replay stopped, in words; a forfeit says so."""
        match = self.match
        if self.violation is None and match.forfeited is not None:
            side, played = match.forfeited.side, deals_text(len(match.deals))
            return f"the match ended by a forfeit of team {side} after {played}"
        return super().state


def replay(raw: object) -> ReplayReport:
    """Replay a record (the JSON value, or an already read :class:`MatchRecord`).

    Raises :class:`RecordError` for a broken record, including deals that cannot follow each other
    (a deal after the match is over, or after a deal that did not finish).
    """
    record = raw if isinstance(raw, MatchRecord) else parse_record(raw)
    match = Match(record.rules, max_deals=record.max_deals)

    def start(deal: DealRecord) -> None:
        match.deal(deal.hands, deal.leader, deal.turned_card)

    def apply(recorded: RecordedAction) -> None:
        action = _engine_action(recorded, match.deals[-1].level, match)
        if isinstance(action, SkipTurnRuling | FoulRuling):
            match.apply_ruling(action)
        else:
            match.apply(action)

    overall, violation = replay_deals(match, record.deals, start, lambda deal: deal.actions, apply, RuleError)
    if violation is None and record.forfeit is not None:
        try:
            match.apply_ruling(record.forfeit)
        except RuleError as error:
            raise RecordError("forfeit", f"{error}: a forfeit (判负) ends a match still in play") from None
    result = result_of(match)
    found = mismatches(record.result, result, violation)
    return ReplayReport(record, _deal_reports(match), overall, violation, result, found, match)


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


__all__ = ["DealReport", "ReplayReport", "Violation", "replay"]
