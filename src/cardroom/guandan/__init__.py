"""Guandan (掼蛋): the pure rules core (no I/O, no global state, randomness injected)."""

from cardroom.guandan.errors import (
    DoesNotBeatError,
    IllegalPlayError,
    IllegalReturnError,
    IllegalTributeError,
    MustLeadError,
    NotACombinationError,
    NotHeldError,
    OutOfTurnError,
    RuleError,
    WrongLevelError,
    WrongPhaseError,
)
from cardroom.guandan.hands import HandView
from cardroom.guandan.moves import (
    can_play_cards,
    is_legal,
    legal_follows,
    legal_leads,
    legal_plays,
    verify_play,
)
from cardroom.guandan.plays import PASS, Play, PlayKind, rank_order
from cardroom.guandan.readings import classify
from cardroom.guandan.ruleset import CLASSIC, COMPETITION, HUOPIN, PLATFORM, PRESETS, RuleSet, preset

__all__ = [
    "CLASSIC",
    "COMPETITION",
    "HUOPIN",
    "PASS",
    "PLATFORM",
    "PRESETS",
    "DoesNotBeatError",
    "HandView",
    "IllegalPlayError",
    "IllegalReturnError",
    "IllegalTributeError",
    "MustLeadError",
    "NotACombinationError",
    "NotHeldError",
    "OutOfTurnError",
    "Play",
    "PlayKind",
    "RuleError",
    "RuleSet",
    "WrongLevelError",
    "WrongPhaseError",
    "can_play_cards",
    "classify",
    "is_legal",
    "legal_follows",
    "legal_leads",
    "legal_plays",
    "preset",
    "rank_order",
    "verify_play",
]
