"""Declaring trump while the cards are dealt (亮牌, 叫主, 定主, 翻主), as docs/rules/shengji.md#declaring
gives it.

在摸牌過程中，任一方均可亮出任一花色級牌叫主，若再亮出同一花色級牌即為"定主"。一方叫主后，其他三方均可翻主
(自已叫主后本人不能再翻主)，翻主時必須用一對同花色的本局級牌或用一對小王或大王翻主。如果一方定主后，其他三方
只能用一對小王或大王翻主，本局為無主牌。

Read as a ladder of strength: one level card (叫主) < a pair of one level card (定主 by the declarer, 翻主
by another) < a pair of small jokers < a pair of big jokers (both no trump, 无主). A declaration must be
strictly stronger than the one standing (so equal ones keep the first: 以先出現者為準); the declarer's
own only move is to fix its suit with the pair (自保), unless ``self_overturn`` (自反) is on.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from enum import IntEnum

from cardroom.cards import BIG_JOKER, SMALL_JOKER, Card, Rank, Suit, format_cards, sort_cards
from cardroom.shengji.deal_errors import NotADeclarationError, OwnDeclarationError, WeakOverturnError
from cardroom.shengji.errors import NotHeldError
from cardroom.shengji.ruleset import ShengjiRules


class DeclarationKind(IntEnum):
    """What a declaration shows, weakest first."""

    SINGLE = 1
    """One level card: 叫主, names its suit."""
    PAIR = 2
    """Two of one level card: 定主 (the declarer's own suit) or 翻主 (another player)."""
    SMALL_JOKERS = 3
    """两张小王: no trump (无主)."""
    BIG_JOKERS = 4
    """两张大王: no trump (无主)."""


@dataclass(frozen=True)
class Declaration:
    """``seat`` shows ``cards`` to declare trump."""

    seat: int
    cards: tuple[Card, ...]
    kind: DeclarationKind

    @property
    def suit(self) -> Suit | None:
        """The trump suit it names; ``None``: no trump (a joker pair)."""
        return self.cards[0].suit

    @property
    def fixed(self) -> bool:
        """定主: a pair stands against everything but a stronger joker pair."""
        return self.kind >= DeclarationKind.PAIR

    def __str__(self) -> str:
        return f"seat {self.seat}: {format_cards(self.cards)}"


def read_declaration(seat: int, cards: Iterable[Card], level: Rank) -> Declaration:
    """Read shown cards as a declaration; :class:`NotADeclarationError` when they are none."""
    shown = sort_cards(cards)
    kind: DeclarationKind | None = None
    if len(shown) == 1 and shown[0].rank == level:
        kind = DeclarationKind.SINGLE
    elif len(shown) == 2 and shown[0] is shown[1]:
        if shown[0].rank == level:
            kind = DeclarationKind.PAIR
        elif shown[0] is SMALL_JOKER:
            kind = DeclarationKind.SMALL_JOKERS
        elif shown[0] is BIG_JOKER:
            kind = DeclarationKind.BIG_JOKERS
    if kind is None:
        raise NotADeclarationError(
            f"a declaration shows one level card ({level.letter}), a pair of one level card, or a pair "
            f"of small or of big jokers; {format_cards(shown) or 'nothing'} is none"
        )
    return Declaration(seat, shown, kind)


def strength(declaration: Declaration | None, rules: ShengjiRules) -> int:
    """0 for none; the kind's rank, the two joker pairs equal unless ``big_jokers_over_small``."""
    if declaration is None:
        return 0
    if declaration.kind is DeclarationKind.BIG_JOKERS and not rules.big_jokers_over_small:
        return int(DeclarationKind.SMALL_JOKERS)
    return int(declaration.kind)


def verify_declaration(
    declaration: Declaration, held: Mapping[Card, int], standing: Declaration | None, rules: ShengjiRules
) -> None:
    """Raise naming the rule if ``declaration`` may not be made over ``standing`` from ``held``."""
    need = Counter(declaration.cards)
    if any(held.get(card, 0) < count for card, count in need.items()):
        raise NotHeldError(f"seat {declaration.seat} does not hold {format_cards(declaration.cards)}")
    if standing is not None and standing.seat == declaration.seat:
        fixing = (
            standing.kind is DeclarationKind.SINGLE
            and declaration.kind is DeclarationKind.PAIR
            and declaration.suit == standing.suit
        )
        if not fixing and not rules.self_overturn:
            raise OwnDeclarationError(
                f"seat {declaration.seat} declared {format_cards(standing.cards)}: it may fix that suit with "
                "the pair (自保, 定主) but not overturn itself (自已叫主后本人不能再翻主)"
            )
    if strength(declaration, rules) <= strength(standing, rules):
        assert standing is not None
        if standing.fixed:
            need_text = "a stronger pair of jokers" if standing.suit is None else "a pair of jokers"
            rule = f"after 定主 ({standing}) only {need_text} overturns (其他三方只能用一對小王或大王翻主)"
        else:
            rule = (
                f"{standing} named the suit first: overturning (翻主) takes a pair of one level card or "
                "a pair of jokers (翻主時必須用一對同花色的本局級牌或用一對小王或大王)"
            )
        raise WeakOverturnError(f"{format_cards(declaration.cards)} does not overturn: {rule}")


def declaration_options(
    seat: int, held: Mapping[Card, int], level: Rank, standing: Declaration | None, rules: ShengjiRules
) -> Iterator[Declaration]:
    """Every declaration ``seat`` may make now, weakest first."""
    candidates: list[tuple[Card, ...]] = []
    for suit in Suit:
        card = Card(level, suit)
        if held.get(card, 0) >= 1:
            candidates.append((card,))
    for suit in Suit:
        card = Card(level, suit)
        if held.get(card, 0) >= 2:
            candidates.append((card, card))
    for joker in (SMALL_JOKER, BIG_JOKER):
        if held.get(joker, 0) >= 2:
            candidates.append((joker, joker))
    for cards in candidates:
        declaration = read_declaration(seat, cards, level)
        try:
            verify_declaration(declaration, held, standing, rules)
        except ValueError:
            continue
        yield declaration


__all__ = [
    "Declaration",
    "DeclarationKind",
    "declaration_options",
    "read_declaration",
    "strength",
    "verify_declaration",
]
