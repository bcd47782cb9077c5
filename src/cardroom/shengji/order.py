"""The order of cards in a deal of Shengji: each card's effective suit (trump 主 or a plain suit 副)
and its rank within it, given the level rank and the trump suit (or no trump 无主).

Trump, high to low: big joker, small joker, the level card of the trump suit (主级牌), the other level
cards (副级牌, equal among themselves), trump A…2 without the level rank. A plain suit: A…2 without the
level rank. docs/rules/shengji.md#trump-order, at level 10: 主牌從大至小依次為：大王, 小王, 主10, 副10, A, K …
2；副牌 A, K … 2.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import IntEnum
from functools import cache

from cardroom.cards import ALL_CARDS, NATURAL_RANKS, Card, Rank, Suit


class EffectiveSuit(IntEnum):
    """The suit a card plays in this deal: one of the four plain suits (their ``Suit`` values), or trump."""

    SPADES = 0
    HEARTS = 1
    CLUBS = 2
    DIAMONDS = 3
    TRUMP = 4
    """主: the jokers, every level card and the trump suit."""

    @property
    def letter(self) -> str:
        return "SHCDT"[self]


@dataclass(frozen=True)
class TrickRules:
    """The deal's level rank and trump suit, and the one play parameter of tricks.

    ``level_gap_adjacent``: the ranks either side of the level rank are adjacent for tractors
    (docs/rules/shengji.md#tractors: JJ99 is a tractor at level 10); off, the gap breaks them.
    """

    level: Rank
    trump: Suit | None
    """The trump suit (主), or ``None`` for no trump (无主: only jokers and level cards are trump)."""
    level_gap_adjacent: bool = True

    def __post_init__(self) -> None:
        if Rank(self.level).is_joker:
            raise ValueError(f"the level rank must be 2…A, got {self.level!r}")
        if self.trump is not None:
            Suit(self.trump)

    def suit_of(self, card: Card) -> EffectiveSuit:
        """The card's effective suit: ``TRUMP`` for jokers, level cards and the trump suit."""
        return _tables(self.level, self.trump, self.level_gap_adjacent)[0][card.index]

    def is_trump(self, card: Card) -> bool:
        return self.suit_of(card) is EffectiveSuit.TRUMP

    def order_of(self, card: Card) -> int:
        """The card's rank within its effective suit; higher wins, adjacent values are adjacent ranks."""
        return _tables(self.level, self.trump, self.level_gap_adjacent)[1][card.index]

    def sort_key(self, card: Card) -> tuple[int, int, int]:
        """Sorts a hand by effective suit (♠♥♣♦, then trump), then order, then print order."""
        suits, orders = _tables(self.level, self.trump, self.level_gap_adjacent)
        return (suits[card.index], orders[card.index], card.index)

    def top_natural_order(self) -> int:
        """The order of the highest natural rank other than the level rank (A, or K at level A)."""
        return _natural_positions(self.level, self.level_gap_adjacent)[-1][1]


def _natural_positions(level: Rank, gap_adjacent: bool) -> tuple[tuple[Rank, int], ...]:
    ranks = [rank for rank in NATURAL_RANKS if rank != level]
    if gap_adjacent:
        return tuple((rank, position) for position, rank in enumerate(ranks))
    return tuple((rank, rank - 2) for rank in ranks)


@cache
def _tables(
    level: Rank, trump: Suit | None, gap_adjacent: bool
) -> tuple[tuple[EffectiveSuit, ...], tuple[int, ...]]:
    """Effective suit and order of each of the 54 cards, by ``card.index``."""
    positions = dict(_natural_positions(level, gap_adjacent))
    top = max(positions.values())
    off_level = top + 1
    trump_level = off_level + (trump is not None)
    small_joker = trump_level + 1
    suits: list[EffectiveSuit] = []
    orders: list[int] = []
    for card in ALL_CARDS:
        if card.suit is None:
            suits.append(EffectiveSuit.TRUMP)
            orders.append(small_joker + (card.rank == Rank.BIG_JOKER))
        elif card.rank == level:
            suits.append(EffectiveSuit.TRUMP)
            orders.append(trump_level if card.suit == trump else off_level)
        else:
            suits.append(EffectiveSuit.TRUMP if card.suit == trump else EffectiveSuit(card.suit))
            orders.append(positions[card.rank])
    return tuple(suits), tuple(orders)


def describe_order(rules: TrickRules, suit: EffectiveSuit) -> list[list[Card]]:
    """The cards of one effective suit from high to low, cards of equal order grouped (for docs, tests)."""
    by_order: dict[int, list[Card]] = {}
    for card in ALL_CARDS:
        if rules.suit_of(card) is suit:
            by_order.setdefault(rules.order_of(card), []).append(card)
    return [by_order[order] for order in sorted(by_order, reverse=True)]
