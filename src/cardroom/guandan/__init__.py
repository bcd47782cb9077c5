"""Guandan (掼蛋): the pure rules core (no I/O, no global state, randomness injected)."""

from cardroom.guandan.combinations import HandView, classify
from cardroom.guandan.moves import (
    DoesNotBeatError,
    IllegalPlayError,
    MustLeadError,
    NotACombinationError,
    NotHeldError,
    WrongLevelError,
    is_legal,
    legal_follows,
    legal_leads,
    legal_plays,
    verify_play,
)
from cardroom.guandan.plays import PASS, Play, PlayKind, rank_order
from cardroom.guandan.ruleset import COMPETITION, PRESETS, RuleSet, preset

__all__ = [
    "COMPETITION",
    "PASS",
    "PRESETS",
    "DoesNotBeatError",
    "HandView",
    "IllegalPlayError",
    "MustLeadError",
    "NotACombinationError",
    "NotHeldError",
    "Play",
    "PlayKind",
    "RuleSet",
    "WrongLevelError",
    "classify",
    "is_legal",
    "legal_follows",
    "legal_leads",
    "legal_plays",
    "preset",
    "rank_order",
    "verify_play",
]
