"""The errors the rules core raises for an action the rules do not allow; each names the rule broken.

All derive from :class:`RuleError` (:class:`cardroom.rule_errors.RuleError`, the base both games share,
a ``ValueError``), and a rejected action leaves the state unchanged.
"""

from __future__ import annotations

from cardroom.rule_errors import OutOfTurnError, RuleError, WrongPhaseError


class IllegalTributeError(RuleError):
    """进贡: the tribute must be one of the payer's highest cards, the ♥ level cards excepted."""

    reason = "illegal_tribute"


class IllegalReturnError(RuleError):
    """还贡: the return card breaks the rank limit (at most 10, or the lowest card if none is)."""

    reason = "illegal_return"


class IllegalPlayError(RuleError):
    """A play the rules do not allow here; subclasses name the rule broken."""

    reason = "illegal_play"


class NotHeldError(IllegalPlayError):
    """The play uses cards the player does not hold."""

    reason = "not_held"


class NotACombinationError(IllegalPlayError):
    """The cards do not make the claimed combination (docs/rules/competition.md#no-other-shapes)."""

    reason = "not_a_combination"


class DoesNotBeatError(IllegalPlayError):
    """The play is not the same kind and size with a higher key, nor a bigger bomb-class play."""

    reason = "does_not_beat"


class MustLeadError(IllegalPlayError):
    """The leader of a trick may not pass."""

    reason = "must_lead"


class WrongLevelError(IllegalPlayError):
    """The play was read at another level rank than the deal's."""

    reason = "wrong_level"


class RulingError(RuleError):
    """A referee's ruling (违例, 犯规, 判负) that cannot apply here: no such seat or side."""

    reason = "bad_ruling"


class SkipTurnError(RulingError):
    """违例: only the offender's own turn to play can be skipped ("停止违规者一次出牌"), when it comes."""

    reason = "no_turn_to_skip"


__all__ = [
    "DoesNotBeatError",
    "IllegalPlayError",
    "IllegalReturnError",
    "IllegalTributeError",
    "MustLeadError",
    "NotACombinationError",
    "NotHeldError",
    "OutOfTurnError",
    "RuleError",
    "RulingError",
    "SkipTurnError",
    "WrongLevelError",
    "WrongPhaseError",
]
