"""What both games' referees share: the first illegal action of a record (:class:`Violation`), the loop
that applies a record's deals and actions to a match (:func:`replay_deals`), and the report's common part
(:class:`MatchReplay`). Each game's replay (:mod:`~cardroom.records.replay` for Guandan,
:mod:`~cardroom.records.shengji` for Shengji) gives how a deal starts and how an action is applied.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from enum import Enum
from typing import Any, Generic, Protocol, TypeVar

from cardroom.cards import Rank
from cardroom.records.jsonpaths import RecordError, differences


@dataclass(frozen=True)
class Violation:
    """The first illegal action of a record. Indices count from 0, as in the record's JSON paths:
    ``deal_index`` into ``deals``, ``action_index`` into that deal's ``actions``, ``overall_index`` over
    every action of the record. ``rule`` is the name of the rule error's class."""

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


class RecordedAction(Protocol):
    """An action as a record holds it, of either game."""

    @property
    def seat(self) -> int: ...

    def to_json(self) -> dict[str, Any]: ...

    def describe(self) -> str: ...


class ReplayedDeal(Protocol):
    """What a replay report reads of a deal in play."""

    @property
    def phase(self) -> Enum: ...

    @property
    def current_player(self) -> int | None: ...


class ReplayedMatch(Protocol):
    """What a replay reads of a match, of either game."""

    @property
    def is_over(self) -> bool: ...

    @property
    def winner(self) -> int | None: ...

    @property
    def levels(self) -> Sequence[Rank]: ...

    @property
    def deals(self) -> Sequence[object]: ...

    @property
    def current_deal(self) -> ReplayedDeal | None: ...


DealT = TypeVar("DealT")
ActionT = TypeVar("ActionT", bound=RecordedAction)
RecordT = TypeVar("RecordT")
DealReportT = TypeVar("DealReportT")
MatchT = TypeVar("MatchT", bound=ReplayedMatch)


def replay_deals(
    match: ReplayedMatch,
    deals: Sequence[DealT],
    start: Callable[[DealT], None],
    actions: Callable[[DealT], Sequence[ActionT]],
    apply: Callable[[ActionT], None],
    rule_error: type[ValueError],
) -> tuple[int, Violation | None]:
    """Start each recorded deal (``start``, a ``ValueError`` being a broken record) and ``apply`` its
    actions until one raises ``rule_error``: the actions applied and the first illegal one, if any.

    Raises :class:`RecordError` for deals that cannot follow each other (a deal after the match is
    over, or after a deal that did not finish)."""
    overall = 0
    for deal_index, deal_record in enumerate(deals):
        path = f"deals[{deal_index}]"
        if match.is_over:
            raise RecordError(path, f"the match was over after {deal_index} deals; no deal may follow")
        if match.current_deal is not None:
            raise RecordError(
                path,
                f"deal {deal_index} (deals[{deal_index - 1}]) did not finish; "
                "only the last deal of a record may be unfinished",
            )
        try:
            start(deal_record)
        except ValueError as error:
            raise RecordError(path, str(error)) from None
        for action_index, recorded in enumerate(actions(deal_record)):
            try:
                apply(recorded)
            except rule_error as error:
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
                return overall, violation
            overall += 1
    return overall, None


def mismatches(
    recorded: dict[str, Any] | None, replayed: dict[str, Any], violation: Violation | None
) -> tuple[str, ...]:
    """How a record's own ``result`` differs from the replayed one (nothing when it has none, or when an
    illegal action stopped the replay)."""
    if violation is not None or recorded is None:
        return ()
    return tuple(differences("result", recorded, replayed))


def deals_text(count: int) -> str:
    """``1 deal``, ``3 deals``."""
    return f"{count} deal" if count == 1 else f"{count} deals"


@dataclass(frozen=True)
class MatchReplay(Generic[RecordT, DealReportT, MatchT]):
    """What the replay of a record found, in either game. ``result`` is the replayed result in the
    record's format; ``mismatches`` lists how the record's own ``result`` differs from it (empty when it
    has none, or when an illegal action stopped the replay)."""

    record: RecordT
    deals: tuple[DealReportT, ...]
    actions_applied: int
    violation: Violation | None
    result: dict[str, Any]
    mismatches: tuple[str, ...]
    match: MatchT = field(compare=False, repr=False)

    @property
    def ok(self) -> bool:
        """No illegal action and no mismatch with the recorded result."""
        return self.violation is None and not self.mismatches

    @property
    def finished(self) -> bool:
        """The match reached its end."""
        return self.match.is_over

    @property
    def winner(self) -> int | None:
        return self.match.winner

    @property
    def levels(self) -> tuple[Rank, Rank]:
        return self.match.levels[0], self.match.levels[1]

    @property
    def state(self) -> str:
        """Where the replay stopped, in words (for an unfinished match: which deal, whose turn)."""
        match = self.match
        if self.violation is not None:
            return f"stopped at the illegal action {self.violation.path}"
        if match.is_over:
            return f"the match is over after {deals_text(len(match.deals))}"
        deal = match.current_deal
        if deal is None:
            return f"{deals_text(len(match.deals))} played; the next deal is not in the record"
        return (
            f"deal {len(match.deals)} is in its {deal.phase.value} phase, seat {deal.current_player} to act"
        )


__all__ = [
    "MatchReplay",
    "RecordedAction",
    "ReplayedMatch",
    "Violation",
    "deals_text",
    "mismatches",
    "replay_deals",
]
