"""The one base of both games' rule errors: :class:`RuleError`, an action the rules refuse.

Each game names its rules in subclasses (:mod:`cardroom.guandan.errors`, :mod:`cardroom.shengji.errors`
and :mod:`cardroom.shengji.deal_errors`), so a tool that plays either game catches ``RuleError`` alone.
"""

from __future__ import annotations


class RuleError(ValueError):
    """An action the rules refuse; the message names what is wrong, the subclass the rule. A refused
    action leaves the state unchanged."""


__all__ = ["RuleError"]
