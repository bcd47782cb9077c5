"""What the network knows of each entry of the action table (:mod:`cardroom.rl.actions`), beyond its
index: the move, the kind, the key rank, a full house's pair, the number of cards, the wild cards, the
suit (a straight flush's, a tribute or return card's) and whether it is a bomb. Entries that share
features (single 5 and single 6, tribute S5 and return S5) share what the network learns of them.
"""

from __future__ import annotations

from typing import Final

import numpy as np
import numpy.typing as npt

from cardroom.cards import Rank
from cardroom.guandan.plays import PlayKind
from cardroom.rl.actions import ACTION_TABLE, ActionSpec

MOVES: Final = ("pass", "play", "tribute", "return")
KINDS: Final = tuple(PlayKind(value) for value in range(PlayKind.SINGLE, PlayKind.FOUR_JOKERS + 1))
RANKS: Final = tuple(Rank)
MAX_SIZE: Final = 10

_PARTS: Final = (
    ("move", len(MOVES)),
    ("kind", len(KINDS)),
    ("rank", len(RANKS)),
    ("pair", len(RANKS) + 1),
    ("size", MAX_SIZE + 1),
    ("wilds", 3),
    ("suit", 4),
    ("bomb", 1),
)
FEATURE_SIZE: Final = sum(size for _, size in _PARTS)
_AT: Final = dict(
    zip((name for name, _ in _PARTS), np.cumsum([0] + [size for _, size in _PARTS]), strict=False)
)


def entry_features(spec: ActionSpec) -> npt.NDArray[np.float32]:
    """One entry's features: one-hots of its move, kind, key rank, pair (the last slot: a wild pair),
    size, wild cards and suit, and a bomb flag."""
    row = np.zeros(FEATURE_SIZE, dtype=np.float32)
    row[_AT["move"] + MOVES.index(spec.move)] = 1
    if spec.kind in KINDS:
        row[_AT["kind"] + KINDS.index(spec.kind)] = 1
        row[_AT["bomb"]] = float(spec.kind.is_bomb)
    if spec.rank is not None:
        row[_AT["rank"] + RANKS.index(spec.rank)] = 1
    if spec.kind is PlayKind.FULL_HOUSE:
        row[_AT["pair"] + (len(RANKS) if spec.pair is None else RANKS.index(spec.pair))] = 1
    row[_AT["size"] + min(spec.size, MAX_SIZE)] = 1
    row[_AT["wilds"] + spec.wilds] = 1
    suit = spec.suit if spec.card is None else spec.card.suit
    if suit is not None:
        row[_AT["suit"] + int(suit)] = 1
    return row


def table_features() -> npt.NDArray[np.float32]:
    """Every entry's features, one row per table index."""
    return np.stack([entry_features(spec) for spec in ACTION_TABLE])


__all__ = ["FEATURE_SIZE", "entry_features", "table_features"]
