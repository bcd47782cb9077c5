"""Guandan plays (一手牌): small immutable values with a kind, a key rank, the cards and the wild cards'
readings, and the rule for which play beats which.

Order of ranks for singles, pairs, triples, full houses and bombs: big joker > small joker > level rank >
A > K > … > 2. Sequences keep natural order with A high or low and no wrap-around. Bomb ladder: every
non-bomb < 4-card bomb < 5-card bomb < straight flush < 6 < 7 < 8 < 9 < 10-card bomb < four jokers.
"""

from __future__ import annotations

from enum import IntEnum
from typing import Final, NamedTuple

from cardroom.cards import Card, Rank, Suit, format_cards


class PlayKind(IntEnum):
    """The combination kinds (牌型) of the competition rules, and passing."""

    PASS = 0
    SINGLE = 1
    PAIR = 2
    TRIPLE = 3
    FULL_HOUSE = 4
    """三带二: a triple and a pair, compared by the triple."""
    STRAIGHT = 5
    """顺子: five consecutive ranks."""
    TUBE = 6
    """三连对: three consecutive pairs."""
    PLATE = 7
    """钢板: two consecutive triples."""
    BOMB = 8
    """炸弹: four or more cards of one rank."""
    STRAIGHT_FLUSH = 9
    """同花顺: a straight of one suit."""
    FOUR_JOKERS = 10
    """天王炸: both small and both big jokers."""

    @property
    def is_bomb(self) -> bool:
        """Bomb-class kinds beat every non-bomb play."""
        return self >= PlayKind.BOMB


SEQUENCE_WIDTH: Final = {
    PlayKind.STRAIGHT: 1,
    PlayKind.STRAIGHT_FLUSH: 1,
    PlayKind.TUBE: 2,
    PlayKind.PLATE: 3,
}
"""Cards per rank in each sequence kind."""

LEVEL_ORDER: Final = 15
"""Order value of the level rank: above the ace (14), below the small joker (16) and big joker (17)."""

BOMB_TIER_STEP: Final = 32
"""Bomb-class keys are ``tier * BOMB_TIER_STEP + value``: the tier decides, then the value."""

FOUR_JOKERS_TIER: Final = 100


def _orders(level: int) -> tuple[int, ...]:
    return tuple(
        LEVEL_ORDER if value == level else value + (value >= Rank.SMALL_JOKER) for value in range(17)
    )


_ORDERS: Final = tuple(_orders(level) for level in range(15))


def rank_order(rank: Rank, level: Rank) -> int:
    """Order value of a rank for singles, pairs, triples, full houses and bombs at this level."""
    return _ORDERS[level][rank]


def rank_orders(level: Rank) -> tuple[int, ...]:
    """:func:`rank_order` of every rank at this level, indexed by rank (for hot loops)."""
    return _ORDERS[level]


def sequence_position(lowest: Rank) -> int:
    """Position of a sequence's lowest rank: 1 for an ace (A2345, AA2233, AAA222), else the face value."""
    return 1 if lowest == Rank.ACE else int(lowest)


_RANK_AT_POSITION: Final = (Rank.ACE, Rank.ACE, *(Rank(value) for value in range(2, 15)))


def rank_at_position(position: int) -> Rank:
    """The rank at a sequence position (1 and 14 are both the ace)."""
    return _RANK_AT_POSITION[position]


def bomb_tier(size: int) -> int:
    """Tier of an n-card bomb on the ladder: 4 → 1, 5 → 2, (straight flush 3), 6 → 4, …, 10 → 8."""
    return size - 3 if size <= 5 else size - 2


STRAIGHT_FLUSH_TIER: Final = 3


def play_key(kind: PlayKind, rank: Rank, size: int, level: Rank) -> int:
    """The comparison key of a play: within a kind for non-bombs, across the ladder for bombs."""
    width = SEQUENCE_WIDTH.get(kind)
    if width is not None:
        top = sequence_position(rank) + size // width - 1
        return STRAIGHT_FLUSH_TIER * BOMB_TIER_STEP + top if kind.is_bomb else top
    if kind is PlayKind.BOMB:
        return bomb_tier(size) * BOMB_TIER_STEP + rank_order(rank, level)
    if kind is PlayKind.FOUR_JOKERS:
        return FOUR_JOKERS_TIER * BOMB_TIER_STEP
    return rank_order(rank, level)


class Play(NamedTuple):
    """One play: its kind, key rank, cards and the wild cards' readings.

    ``rank`` is the key rank as the competition triple names it: the rank of a single, pair, triple or
    bomb, the triple of a full house, the *lowest* rank of a sequence (``A`` for A2345, AA2233, AAA222)
    and the small joker for four jokers. ``cards`` are in print order, wild cards as held (the ♥ level
    card). ``stands_for`` has one card per wild card in ``cards``: the card it is read as. ``key``
    orders plays (see :func:`play_key`). Build plays with :func:`cardroom.guandan.classify` or the
    legal-move generators rather than by hand.
    """

    kind: PlayKind
    rank: Rank | None
    cards: tuple[Card, ...]
    stands_for: tuple[Card, ...] = ()
    level: Rank | None = None
    key: int = 0

    def beats(self, previous: Play) -> bool:
        """Whether this play may be played on ``previous`` (same kind and size and higher, or a bigger
        bomb-class play). Passing beats nothing."""
        kind = self.kind
        if kind is PlayKind.PASS or previous.kind is PlayKind.PASS:
            return False
        if kind >= PlayKind.BOMB:
            return previous.kind < PlayKind.BOMB or self.key > previous.key
        return kind is previous.kind and len(self.cards) == len(previous.cards) and self.key > previous.key

    @property
    def is_pass(self) -> bool:
        return self.kind is PlayKind.PASS

    @property
    def wild_count(self) -> int:
        return len(self.stands_for)

    @property
    def suit(self) -> Suit | None:
        """The suit of a straight flush; ``None`` for every other kind."""
        if self.kind is not PlayKind.STRAIGHT_FLUSH:
            return None
        return self.read_cards()[0].suit

    def read_cards(self) -> tuple[Card, ...]:
        """The cards as read: each wild card replaced by the card it stands for."""
        if not self.stands_for:
            return self.cards
        wild = Card(self.level, Suit.HEARTS) if self.level is not None else None
        natural = tuple(card for card in self.cards if card is not wild)
        return tuple(sorted(natural + self.stands_for, key=_card_index))

    def __str__(self) -> str:
        return "PASS" if self.kind is PlayKind.PASS else format_cards(self.cards)

    def __repr__(self) -> str:
        level = f" at level {self.level.letter}" if self.level is not None else ""
        return f"<Play {self.describe()}{level}>"

    def describe(self) -> str:
        """A readable line: kind, key rank, cards and what each wild card stands for."""
        if self.kind is PlayKind.PASS:
            return "pass"
        text = f"{self.kind.name.lower().replace('_', ' ')} {self.rank.letter if self.rank else ''}"
        text += f": {format_cards(self.cards)}"
        if self.stands_for:
            text += " (wild as " + " ".join(str(card) for card in self.stands_for) + ")"
        return text


def _card_index(card: Card) -> int:
    return card.index


PASS: Final = Play(PlayKind.PASS, None, ())
"""Passing (不出 / 过)."""
