"""Units of play in Shengji: singles, pairs (对子) and tractors (拖拉机), and the structure (``Shape``) a
lead asks the other players to match.

A pair is two identical cards. A tractor is two or more pairs of one effective suit at consecutive orders
(see :mod:`cardroom.shengji.order`): the level rank is skipped (JJ99 at level 10), trump runs small-joker
pair – trump level pair – off-suit level pair – trump A pair, two off-suit level pairs are of equal order
(not a tractor), and nothing wraps (AA22 is not a tractor). docs/rules/shengji.md#tractors:
凡大小順序相鄰且花色相同的聯對均構成拖拉機 … 主牌中凡大小順序相鄰聯對均構成拖拉機 … 兩對副10, JJ1010, AA22
不是拖拉機.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from enum import IntEnum
from itertools import pairwise

from cardroom.cards import Card, format_cards
from cardroom.shengji.errors import NotOneSuitError
from cardroom.shengji.order import EffectiveSuit, TrickRules


class UnitKind(IntEnum):
    """The shapes a unit of play takes."""

    SINGLE = 1
    PAIR = 2
    """对子: two identical cards."""
    TRACTOR = 3
    """拖拉机: two or more pairs of one effective suit at consecutive orders."""


@dataclass(frozen=True)
class Unit:
    """One single, pair or tractor of one effective suit; ``cards`` highest first."""

    kind: UnitKind
    cards: tuple[Card, ...]
    suit: EffectiveSuit
    top: int
    """The order of the highest card."""
    bottom: int
    """The order of the lowest card."""

    @property
    def size(self) -> int:
        return len(self.cards)

    @property
    def pairs(self) -> int:
        """0 for a single, 1 for a pair, the number of pairs of a tractor."""
        return len(self.cards) // 2

    def __str__(self) -> str:
        return " ".join(str(card) for card in self.cards)


@dataclass(frozen=True)
class Shape:
    """The structure of a lead: its tractors' lengths (longest first), its other pairs and singles."""

    tractors: tuple[int, ...]
    pairs: int
    singles: int

    @property
    def size(self) -> int:
        return 2 * sum(self.tractors) + 2 * self.pairs + self.singles

    @property
    def total_pairs(self) -> int:
        """Pairs in all units, tractor pairs included."""
        return sum(self.tractors) + self.pairs

    @property
    def principal(self) -> UnitKind:
        """The unit that decides between plays of this shape: the longest tractor, else a pair, else a
        single (docs/rules/shengji.md#trick-winner: 斃牌的大小以斃牌中的拖拉機和對牌大小為準)."""
        if self.tractors:
            return UnitKind.TRACTOR
        return UnitKind.PAIR if self.pairs else UnitKind.SINGLE


def shape_of(units: Iterable[Unit]) -> Shape:
    """The shape of a decomposition."""
    tractors: list[int] = []
    pairs = singles = 0
    for unit in units:
        if unit.kind is UnitKind.TRACTOR:
            tractors.append(unit.pairs)
        elif unit.kind is UnitKind.PAIR:
            pairs += 1
        else:
            singles += 1
    return Shape(tuple(sorted(tractors, reverse=True)), pairs, singles)


def one_suit(cards: Iterable[Card], rules: TrickRules) -> EffectiveSuit:
    """The one effective suit of these cards; ``NotOneSuitError`` on mixed suits, ``ValueError`` on none."""
    suits = {rules.suit_of(card) for card in cards}
    if not suits:
        raise ValueError("no cards")
    if len(suits) > 1:
        names = ", ".join(suit.name.lower() for suit in sorted(suits))
        raise NotOneSuitError(
            f"cards of several effective suits ({names}) are not one lead",
            {"suits": [suit.letter for suit in sorted(suits)]},
        )
    return suits.pop()


def count_pairs(cards: Iterable[Card]) -> int:
    """How many disjoint pairs of identical cards these cards hold."""
    return sum(count // 2 for count in Counter(cards).values())


def _by_order(cards: Iterable[Card], rules: TrickRules) -> list[Card]:
    """Highest first; cards of equal order in print order."""
    return sorted(cards, key=lambda card: (-rules.order_of(card), card.index))


def _make_unit(kind: UnitKind, cards: Iterable[Card], rules: TrickRules) -> Unit:
    ordered = tuple(_by_order(cards, rules))
    return Unit(
        kind,
        ordered,
        rules.suit_of(ordered[0]),
        rules.order_of(ordered[0]),
        rules.order_of(ordered[-1]),
    )


def units_of(cards: Iterable[Card], rules: TrickRules) -> tuple[Unit, ...]:
    """Cards of one effective suit read as a lead: tractors first (longest, then highest), then pairs,
    then singles, each group highest first. Raises ``NotOneSuitError`` on mixed suits."""
    cards = tuple(cards)
    one_suit(cards, rules)
    counts = Counter(cards)
    atoms: dict[int, list[Card]] = {}
    for card in sorted(counts, key=lambda card: card.index):
        for _ in range(counts[card] // 2):
            atoms.setdefault(rules.order_of(card), []).append(card)
    singles = [card for card, count in counts.items() if count % 2]
    tractors: list[Unit] = []
    while True:
        run = _longest_run(atoms)
        if len(run) < 2:
            break
        chain = []
        for order in run:
            card = atoms[order].pop(0)
            if not atoms[order]:
                del atoms[order]
            chain += [card, card]
        tractors.append(_make_unit(UnitKind.TRACTOR, chain, rules))
    pairs = [_make_unit(UnitKind.PAIR, (card, card), rules) for group in atoms.values() for card in group]
    units = sorted(tractors, key=lambda unit: (-unit.size, -unit.top))
    units += sorted(pairs, key=lambda unit: (-unit.top, unit.cards[0].index))
    units += [_make_unit(UnitKind.SINGLE, (card,), rules) for card in _by_order(singles, rules)]
    return tuple(units)


def _longest_run(atoms: dict[int, list[Card]]) -> list[int]:
    """The longest run of consecutive orders that hold a pair; the highest among equally long runs."""
    best: list[int] = []
    run: list[int] = []
    for order in sorted(atoms):
        run = [*run, order] if run and run[-1] == order - 1 else [order]
        if len(run) >= len(best):
            best = run
    return best


def is_pair(cards: Iterable[Card], rules: TrickRules) -> bool:
    """Exactly two identical cards."""
    cards = tuple(cards)
    return len(cards) == 2 and cards[0] == cards[1]


def is_tractor(cards: Iterable[Card], rules: TrickRules) -> bool:
    """Exactly one tractor: two or more pairs of one effective suit at consecutive orders."""
    cards = tuple(cards)
    if len(cards) < 4 or len({rules.suit_of(card) for card in cards}) != 1:
        return False
    counts = Counter(cards)
    if any(count != 2 for count in counts.values()):
        return False
    orders = sorted(rules.order_of(card) for card in counts)
    return all(high == low + 1 for low, high in pairwise(orders))


# --- matching a shape: the follow duties and the comparison of ruffs ------------------------------


class _Lines:
    """The pairs held, as counts per (effective suit, order) on one line with a gap between suits, so
    that a tractor of length n is a window of n positions that all hold a pair."""

    def __init__(self, cards: Iterable[Card], rules: TrickRules) -> None:
        width = rules.top_natural_order() + 5
        counts = Counter(cards)
        self.counts = [0] * (len(EffectiveSuit) * (width + 1))
        self.orders = [(position % (width + 1)) for position in range(len(self.counts))]
        for card, count in counts.items():
            if count >= 2:
                position = rules.suit_of(card) * (width + 1) + rules.order_of(card)
                self.counts[position] += count // 2

    def windows(self, length: int) -> list[int]:
        """Start positions of the windows of ``length`` positions that all hold a pair now."""
        counts = self.counts
        return [
            start
            for start in range(len(counts) - length + 1)
            if all(counts[start + step] for step in range(length))
        ]

    def take(self, start: int, length: int, delta: int) -> None:
        for step in range(length):
            self.counts[start + step] -= delta

    def max_placed(self, lengths: tuple[int, ...]) -> int:
        """The most of these tractors (lengths) that fit at once in disjoint pairs."""
        best = 0

        def place(index: int, placed: int) -> None:
            nonlocal best
            if placed + len(lengths) - index <= best:
                return
            if index == len(lengths):
                best = placed
                return
            length = lengths[index]
            for start in self.windows(length):
                self.take(start, length, 1)
                place(index + 1, placed + 1)
                self.take(start, length, -1)
                if best == len(lengths):
                    return
            place(index + 1, placed)

        place(0, 0)
        return best


def tractor_matches(cards: Iterable[Card], lengths: tuple[int, ...], rules: TrickRules) -> int:
    """How many of the lead's tractors (their lengths) these cards can match at once, each with a tractor
    of the same length (part of a longer one will do), all disjoint."""
    if not lengths:
        return 0
    return _Lines(cards, rules).max_placed(tuple(sorted(lengths, reverse=True)))


def fits(cards: Iterable[Card], shape: Shape, rules: TrickRules) -> bool:
    """The cards split into the shape's units: a tractor of each length, then pairs, then singles (a
    tractor may serve as shorter tractors or pairs, a pair as two singles)."""
    cards = tuple(cards)
    if len(cards) != shape.size or count_pairs(cards) < shape.total_pairs:
        return False
    return tractor_matches(cards, shape.tractors, rules) == len(shape.tractors)


def principal_key(cards: Iterable[Card], shape: Shape, rules: TrickRules) -> int | None:
    """The order of the top of the principal unit when the cards fit the shape (the highest over the
    ways to split them), else ``None``. Plays of one shape and suit compare by it."""
    cards = tuple(cards)
    if not fits(cards, shape, rules):
        return None
    if shape.tractors:
        lines = _Lines(cards, rules)
        longest, rest = shape.tractors[0], shape.tractors[1:]
        best = -1
        for start in lines.windows(longest):
            top = lines.orders[start + longest - 1]
            if top <= best:
                continue
            lines.take(start, longest, 1)
            if lines.max_placed(rest) == len(rest):
                best = top
            lines.take(start, longest, -1)
        return best
    counts = Counter(cards)
    if shape.pairs:
        return max(rules.order_of(card) for card, count in counts.items() if count >= 2)
    return max(rules.order_of(card) for card in cards)


def describe(units: Iterable[Unit]) -> str:
    """Units in notation, separated by `` | `` (``HA HA | HK | H9``)."""
    return " | ".join(format_cards(unit.cards) for unit in units)
