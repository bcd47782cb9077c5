"""The errors of a deal's phases outside trick play (declaring, the kitty, turns); each names the rule.

They extend :class:`cardroom.shengji.errors.ShengjiRuleError` (a :class:`cardroom.rule_errors.RuleError`);
a rejected action leaves the state unchanged.
"""

from __future__ import annotations

from cardroom import rule_errors
from cardroom.shengji.errors import ShengjiRuleError


class OutOfTurnError(ShengjiRuleError, rule_errors.OutOfTurnError):
    """The action comes from a seat whose turn it is not."""

    reason = "out_of_turn"


class WrongPhaseError(ShengjiRuleError, rule_errors.WrongPhaseError):
    """The action belongs to another phase (declare, kitty, tricks) or the deal or match is over."""

    reason = "wrong_phase"


class IllegalDeclarationError(ShengjiRuleError):
    """亮牌 / 叫主 / 翻主: a declaration the rules do not allow now; subclasses name the rule."""

    reason = "illegal_declaration"


class NotADeclarationError(IllegalDeclarationError):
    """A declaration shows one level card, a pair of one level card (同花色的本局級牌), or a pair of small or
    of big jokers (一對小王或大王)."""

    reason = "not_a_declaration"


class WeakOverturnError(IllegalDeclarationError):
    """翻主 must beat what stands: a single level card is overturned by a pair of level cards or jokers;
    after 定主 only a pair of jokers (如果一方定主后，其他三方只能用一對小王或大王翻主)."""

    reason = "weak_overturn"


class OwnDeclarationError(IllegalDeclarationError):
    """The declarer may only fix its own suit (自保, 定主), not overturn itself (自已叫主后本人不能再翻主)."""

    reason = "own_declaration"


class EmptyPlayError(ShengjiRuleError):
    """A lead plays at least one card (首家可以單獨出單牌、對牌、拖拉機 … 或任意組合)."""

    reason = "empty_play"


class IllegalBuryError(ShengjiRuleError):
    """扣底: the dealer buries exactly eight cards of its hand (莊家再根據牌情任意抽取8張作為底牌)."""

    reason = "illegal_bury"


__all__ = [
    "EmptyPlayError",
    "IllegalBuryError",
    "IllegalDeclarationError",
    "NotADeclarationError",
    "OutOfTurnError",
    "OwnDeclarationError",
    "WeakOverturnError",
    "WrongPhaseError",
]
