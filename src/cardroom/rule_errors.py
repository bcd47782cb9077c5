"""The one base of both games' rule errors: :class:`RuleError`, an action the rules refuse, and the two
refusals every game shares, :class:`OutOfTurnError` and :class:`WrongPhaseError`.

Each game names its rules in subclasses (:mod:`cardroom.guandan.errors`, :mod:`cardroom.shengji.errors`
and :mod:`cardroom.shengji.deal_errors`), so a tool that plays either game catches ``RuleError`` alone.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar


class RuleError(ValueError):
    """An action the rules refuse; the message names what is wrong, the subclass the rule. A refused
    action leaves the state unchanged.

    ``reason`` is the rule's stable code (``does_not_beat``, ``must_follow_suit`` …) and ``details`` its
    arguments as JSON values (the play to beat, the suit to follow …), for a client to say the refusal
    in the player's language (docs/protocol.md, "Refusals")."""

    reason: ClassVar[str] = "illegal_action"

    def __init__(self, message: str = "", details: Mapping[str, Any] | None = None) -> None:
        super().__init__(message)
        self.details: dict[str, Any] = dict(details or {})


class OutOfTurnError(RuleError):
    """The action comes from a seat whose turn it is not."""

    reason = "out_of_turn"


class WrongPhaseError(RuleError):
    """The action belongs to another phase of the deal, or the deal or match is over."""

    reason = "wrong_phase"


__all__ = ["OutOfTurnError", "RuleError", "WrongPhaseError"]
