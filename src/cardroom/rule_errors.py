"""The one base of both games' rule errors: :class:`RuleError`, an action the rules refuse, and the two
refusals every game shares, :class:`OutOfTurnError` and :class:`WrongPhaseError`.

Each game names its rules in subclasses (:mod:`cardroom.guandan.errors`, :mod:`cardroom.shengji.errors`
and :mod:`cardroom.shengji.deal_errors`), so a tool that plays either game catches ``RuleError`` alone.
"""

from __future__ import annotations


class RuleError(ValueError):
    """An action the rules refuse; the message names what is wrong, the subclass the rule. A refused
    action leaves the state unchanged."""


class OutOfTurnError(RuleError):
    """The action comes from a seat whose turn it is not."""


class WrongPhaseError(RuleError):
    """The action belongs to another phase of the deal, or the deal or match is over."""


__all__ = ["OutOfTurnError", "RuleError", "WrongPhaseError"]
