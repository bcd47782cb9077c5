"""The errors the Shengji rules core raises for an action the rules do not allow; each names the rule.

All derive from :class:`ShengjiRuleError`, a :class:`cardroom.rule_errors.RuleError` (the base both games
share, a ``ValueError``), and a rejected action leaves the state unchanged. A failed throw's
error, which carries the check of the other hands, stands beside that check:
:class:`cardroom.shengji.tricks.BadThrowError`.
"""

from __future__ import annotations

from cardroom.rule_errors import RuleError


class ShengjiRuleError(RuleError):
    """An action the Shengji rules do not allow here (a :class:`~cardroom.rule_errors.RuleError`, as
    Guandan's are)."""

    reason = "illegal_action"


class NotHeldError(ShengjiRuleError):
    """The play uses cards the player does not hold."""

    reason = "not_held"


class NotOneSuitError(ShengjiRuleError):
    """A lead must be of one effective suit (trump counts as one suit): 同門花色的大牌可以聯出."""

    reason = "not_one_suit"


class WrongCountError(ShengjiRuleError):
    """A follow has as many cards as the lead."""

    reason = "wrong_count"


class MustFollowSuitError(ShengjiRuleError):
    """跟牌: 必須跟出首家出的花色牌 — the led suit while any is left."""

    reason = "must_follow_suit"


class MustPlayTractorError(ShengjiRuleError):
    """首家出拖拉機時，其餘家有拖拉機必須出拖拉機 — a tractor of the led length while the suit has one."""

    reason = "must_play_tractor"


class MustPlayPairError(ShengjiRuleError):
    """首家出對牌時，其餘家有對牌必須出對牌 — as many pairs as the lead has, or as the suit holds."""

    reason = "must_play_pair"
