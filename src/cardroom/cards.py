"""Cards of the two-deck 108-card set and their notation (docs/notation.md).

Notation is the Guandan AI competition's: suit letter then rank letter (``HT``, ``SA``, ``D2``), ``SB``
for the small joker 小王 and ``HR`` for the big joker 大王. Parsing is forgiving (``10``, lowercase, suit
symbols before or after the rank, ``大王``/``小王``) and raises :class:`NotationError` naming the token it
could not read and where it stands.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from enum import IntEnum
from operator import attrgetter
from typing import Final


class Rank(IntEnum):
    """A card's rank; naturals by face value (ace high), then the two jokers."""

    TWO = 2
    THREE = 3
    FOUR = 4
    FIVE = 5
    SIX = 6
    SEVEN = 7
    EIGHT = 8
    NINE = 9
    TEN = 10
    JACK = 11
    QUEEN = 12
    KING = 13
    ACE = 14
    SMALL_JOKER = 15
    BIG_JOKER = 16

    @property
    def letter(self) -> str:
        """The notation letter: ``2``–``9``, ``T``, ``J``, ``Q``, ``K``, ``A``, ``B``, ``R``."""
        return RANK_LETTERS[self]

    @property
    def is_joker(self) -> bool:
        return self >= Rank.SMALL_JOKER

    @classmethod
    def from_letter(cls, text: str) -> Rank:
        """Read a rank letter (``T`` or ``10`` for ten; ``B``/``R`` for the jokers)."""
        rank = _RANK_BY_TEXT.get(text.upper())
        if rank is None:
            raise NotationError(f"unknown rank {text!r}")
        return rank


class Suit(IntEnum):
    """The four suits, in the order cards of one rank are printed."""

    SPADES = 0
    HEARTS = 1
    CLUBS = 2
    DIAMONDS = 3

    @property
    def letter(self) -> str:
        return "SHCD"[self]

    @property
    def symbol(self) -> str:
        return "♠♥♣♦"[self]


NATURAL_RANKS: Final = tuple(Rank(value) for value in range(2, 15))
RANK_LETTERS: Final = {rank: "23456789TJQKABR"[rank - 2] for rank in Rank}
_RANK_BY_TEXT: Final = {letter: rank for rank, letter in RANK_LETTERS.items()} | {"10": Rank.TEN}


class NotationError(ValueError):
    """Card notation that cannot be read; the message names the token and its position."""


class Card:
    """One card: a natural rank and suit, or a joker (suit ``None``).

    There are 54 distinct values, interned, so ``Card(Rank.ACE, Suit.SPADES) is Card.parse("SA")``.
    The two decks make each value appear twice in the full set.
    """

    __slots__ = ("index", "rank", "suit")

    index: int
    rank: Rank
    suit: Suit | None

    def __new__(cls, rank: Rank, suit: Suit | None = None) -> Card:
        rank = Rank(rank)
        if rank.is_joker:
            if suit is not None:
                raise ValueError(f"a joker has no suit, got {suit!r}")
            return _ALL[rank - Rank.SMALL_JOKER]
        if suit is None:
            raise ValueError(f"a {rank.name} needs a suit")
        return _ALL[natural_index(rank, Suit(suit))]

    @classmethod
    def _make(cls, index: int, rank: Rank, suit: Suit | None) -> Card:
        card = object.__new__(cls)
        object.__setattr__(card, "index", index)
        object.__setattr__(card, "rank", rank)
        object.__setattr__(card, "suit", suit)
        return card

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("Card is immutable")

    def __delattr__(self, name: str) -> None:
        raise AttributeError("Card is immutable")

    def __reduce__(self) -> tuple[type[Card], tuple[Rank, Suit | None]]:
        return (Card, (self.rank, self.suit))

    def __hash__(self) -> int:
        return self.index

    def __lt__(self, other: Card) -> bool:
        return self.index < other.index

    def __str__(self) -> str:
        return _NOTATION[self.index]

    def __repr__(self) -> str:
        return f"Card.parse({_NOTATION[self.index]!r})"

    @property
    def is_joker(self) -> bool:
        return self.suit is None

    @classmethod
    def parse(cls, token: str) -> Card:
        """Read one card; raises :class:`NotationError` naming the token."""
        card = _parse_token(token)
        if card is None:
            raise NotationError(f"cannot read card {token!r}")
        return card


def natural_index(rank: Rank, suit: Suit) -> int:
    """The index of a suited card; indices follow the print order."""
    return 2 + (rank - 2) * 4 + suit


def _build() -> list[Card]:
    cards = [Card._make(0, Rank.SMALL_JOKER, None), Card._make(1, Rank.BIG_JOKER, None)]
    cards += [Card._make(natural_index(r, s), r, s) for r in NATURAL_RANKS for s in Suit]
    return cards


_ALL: Final = _build()
ALL_CARDS: Final[tuple[Card, ...]] = tuple(_ALL)
"""The 54 distinct cards by index, which is also the print order: jokers (small, big), then ranks
2…A with suits ♠♥♣♦ within a rank."""

SMALL_JOKER: Final = _ALL[0]
BIG_JOKER: Final = _ALL[1]

_NOTATION: Final = ["SB", "HR", *(s.letter + RANK_LETTERS[r] for r in NATURAL_RANKS for s in Suit)]

_SUIT_BY_TEXT: Final = {
    **{suit.letter: suit for suit in Suit},
    **{suit.symbol: suit for suit in Suit},
    **dict(zip("♤♡♧♢", Suit, strict=True)),
}
_JOKERS_BY_TEXT: Final = {
    "SB": SMALL_JOKER,
    "HR": BIG_JOKER,
    "小王": SMALL_JOKER,
    "大王": BIG_JOKER,
}
_SYMBOLS: Final = "♠♥♣♦♤♡♧♢"


def _parse_token(token: str) -> Card | None:
    text = token.strip().upper()
    joker = _JOKERS_BY_TEXT.get(text)
    if joker is not None:
        return joker
    if len(text) < 2:
        return None
    if text[-1] in _SYMBOLS:
        suit_text, rank_text = text[-1], text[:-1]
    else:
        suit_text, rank_text = text[0], text[1:]
    suit = _SUIT_BY_TEXT.get(suit_text)
    rank = _RANK_BY_TEXT.get(rank_text)
    if suit is None or rank is None or rank.is_joker:
        return None
    return _ALL[natural_index(rank, suit)]


_TOKEN: Final = re.compile(r"[^\s,\[\]\"']+")


def parse_cards(text: str) -> tuple[Card, ...]:
    """Read cards separated by spaces or commas; the result is in print order (a hand, a play).

    Raises :class:`NotationError` naming the first token it cannot read, its number and its column.
    """
    return sort_cards(parse_in_order(text))


def parse_in_order(text: str) -> tuple[Card, ...]:
    """Read cards as :func:`parse_cards` does, in the order they are written: a deck in dealing order,
    where sorting would deal other hands."""
    cards = []
    for number, match in enumerate(_TOKEN.finditer(text), start=1):
        card = _parse_token(match.group())
        if card is None:
            raise NotationError(
                f"cannot read card {match.group()!r} (token {number}, column {match.start() + 1})"
            )
        cards.append(card)
    return tuple(cards)


def sort_cards(cards: Iterable[Card]) -> tuple[Card, ...]:
    """Cards in the stable print order (jokers, then 2…A, ♠♥♣♦ within a rank)."""
    return tuple(sorted(cards, key=card_index))


card_index: Final = attrgetter("index")


def format_cards(cards: Iterable[Card]) -> str:
    """Cards in notation, space-separated, in print order: ``SB HR HR H2 ST``."""
    return " ".join(_NOTATION[card.index] for card in sort_cards(cards))


def format_in_order(cards: Iterable[Card]) -> str:
    """Cards in notation, space-separated, in the order given: a deck in dealing order, which
    :func:`format_cards` would sort (and :func:`parse_in_order` reads back)."""
    return " ".join(_NOTATION[card.index] for card in cards)


def full_deck() -> tuple[Card, ...]:
    """The 108 cards of two decks, in print order."""
    return tuple(card for card in sort_cards(ALL_CARDS) for _ in range(2))
