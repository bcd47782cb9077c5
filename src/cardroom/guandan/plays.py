"""Guandan plays (一手牌): small immutable values with a kind, a key rank, the cards and the wild cards'
readings, and the rule for which play beats which.

Order of ranks for singles, pairs, triples, full houses and bombs: big joker > small joker > level rank >
A > K > … > 2 (competition); the rule set may instead put 2 above A without lifting the level rank
(``huopin``: big joker > small joker > 2 > A > … > 3). Sequences keep natural order with A high or low and
no wrap-around. Bomb ladder (competition): every non-bomb < 4-card bomb < 5-card bomb < straight flush <
6 < 7 < 8 < 9 < 10-card bomb < four jokers; ``bombs_by_stars`` orders bombs by star level instead.
"""

from __future__ import annotations

from enum import IntEnum
from typing import Final, NamedTuple

from cardroom.cards import BIG_JOKER, Card, Rank, Suit, format_cards
from cardroom.guandan.ruleset import COMPETITION, RuleSet


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
    AIRPLANE = 11
    """飞机带翅膀 (``airplanes``): n ≥ 2 consecutive triples and n pairs of consecutive other ranks."""
    THREE_JOKERS = 12
    """三王炸 (``three_jokers_bomb``): any three jokers."""
    CHAIN_BOMB = 13
    """X相Y连环炸弹 (``chain_bomb_lengths``): Y bombs of X cards each on consecutive ranks."""

    @property
    def is_bomb(self) -> bool:
        """Bomb-class kinds beat every non-bomb play."""
        return self in _BOMB_KINDS


_BOMB_KINDS: Final = frozenset(
    (PlayKind.BOMB, PlayKind.STRAIGHT_FLUSH, PlayKind.FOUR_JOKERS, PlayKind.THREE_JOKERS, PlayKind.CHAIN_BOMB)
)


SEQUENCE_WIDTH: Final = {
    PlayKind.STRAIGHT: 1,
    PlayKind.STRAIGHT_FLUSH: 1,
    PlayKind.TUBE: 2,
    PlayKind.PLATE: 3,
    PlayKind.AIRPLANE: 5,
}
"""Cards per rank in each sequence kind (for an airplane, cards per triple with its wing)."""

LEVEL_ORDER: Final = 15
"""Order value of the level rank: above the ace (14), below the small joker (16) and big joker (17)."""

BOMB_TIER_STEP: Final = 32
"""Bomb-class keys are ``tier * BOMB_TIER_STEP + value``: the tier decides, then the value."""

FOUR_JOKERS_TIER: Final = 100


def _orders(level: int) -> tuple[int, ...]:
    return tuple(
        LEVEL_ORDER if value == level else value + (value >= Rank.SMALL_JOKER) for value in range(17)
    )


def _line_orders(level: int, level_high: bool, two_high: bool) -> tuple[int, ...]:
    """Order values from the line of ranks, lowest first: 2 (unless ``two_high``) … A, then 2 (if
    ``two_high``), the level rank (if ``level_high``), small joker, big joker; the top is 17."""
    line = [
        value
        for value in range(2, 15)
        if not (two_high and value == 2) and not (level_high and value == level)
    ]
    if two_high and not (level_high and level == 2):
        line.append(2)
    if level_high:
        line.append(level)
    line += [Rank.SMALL_JOKER, Rank.BIG_JOKER]
    values = [0] * 17
    for place, value in enumerate(reversed(line)):
        values[value] = 17 - place
    return tuple(values)


_ORDERS: Final = tuple(_orders(level) for level in range(15))
_ORDER_TABLES: Final = {
    (True, False): _ORDERS,
    **{
        (level_high, two_high): tuple(_line_orders(level, level_high, two_high) for level in range(15))
        for level_high, two_high in ((True, True), (False, True), (False, False))
    },
}


def rank_order(rank: Rank, level: Rank, rules: RuleSet = COMPETITION) -> int:
    """Order value of a rank for singles, pairs, triples, full houses and bombs at this level (the
    competition's by default: level rank above A; 2…A by face value, the level rank 15, small joker 16,
    big joker 17). ``rules.level_rank_high`` and ``rules.two_high`` choose the line of ranks."""
    if rules is COMPETITION:
        return _ORDERS[level][rank]
    return _ORDER_TABLES[rules.level_rank_high, rules.two_high][level][rank]


def rank_orders(level: Rank, rules: RuleSet = COMPETITION) -> tuple[int, ...]:
    """:func:`rank_order` of every rank at this level, indexed by rank (for hot loops)."""
    if rules is COMPETITION:
        return _ORDERS[level]
    return _ORDER_TABLES[rules.level_rank_high, rules.two_high][level]


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

STAR_STEP: Final = 4096
"""Bomb keys by stars (``bombs_by_stars``): ``half_stars * STAR_STEP + (128 - cards) * 32 + value``, so
that more stars win, then fewer cards, then the higher rank (the top position for sequences); three
jokers take the lowest place of the 6★ and four jokers the highest of the 7★."""

_HALF_STARS_OF_STRAIGHT_FLUSH: Final = 11
"""A straight flush between the 5★ and the 6★ bombs (our choice, docs/rules/huopin.md#bomb-order: 火拚摜蛋 is
silent)."""


def play_stars(kind: PlayKind, size: int, length: int = 0) -> int:
    """The star level of a bomb-class play (docs/rules/huopin.md#stars): an X-card bomb X★, a chained bomb
    of Y bombs of X cards X+Y★, three jokers 6★, four jokers 7★; a straight flush, placed between the 5★
    and 6★ bombs, counts 5★; 0 for a non-bomb. ``length`` is Y for a chained bomb."""
    if kind is PlayKind.BOMB:
        return size
    if kind is PlayKind.CHAIN_BOMB:
        return size // length + length
    return {PlayKind.STRAIGHT_FLUSH: 5, PlayKind.THREE_JOKERS: 6, PlayKind.FOUR_JOKERS: 7}.get(kind, 0)


def star_key(half_stars: int, size: int, value: int) -> int:
    """A bomb's key by stars (see :data:`STAR_STEP`)."""
    return half_stars * STAR_STEP + (128 - size) * 32 + value


THREE_JOKERS_STAR_KEY: Final = 12 * STAR_STEP
FOUR_JOKERS_STAR_KEY: Final = 15 * STAR_STEP - 1


def play_key(
    kind: PlayKind, rank: Rank, size: int, level: Rank, rules: RuleSet = COMPETITION, length: int = 0
) -> int:
    """The comparison key of a play: within a kind for non-bombs, across the ladder (or the star levels,
    ``rules.bombs_by_stars``) for bombs. ``length`` is the number of bombs Y of a chained bomb, whose
    shape its size alone does not give (20 cards: 4×5 or 5×4)."""
    width = SEQUENCE_WIDTH.get(kind)
    stars = rules.bombs_by_stars
    if width is not None:
        top = sequence_position(rank) + size // width - 1
        if kind is not PlayKind.STRAIGHT_FLUSH:
            return top
        if stars:
            return star_key(_HALF_STARS_OF_STRAIGHT_FLUSH, size, top)
        return STRAIGHT_FLUSH_TIER * BOMB_TIER_STEP + top
    if kind is PlayKind.BOMB:
        if stars:
            return star_key(2 * size, size, rank_order(rank, level, rules))
        return bomb_tier(size) * BOMB_TIER_STEP + rank_order(rank, level, rules)
    if kind is PlayKind.FOUR_JOKERS:
        return FOUR_JOKERS_STAR_KEY if stars else FOUR_JOKERS_TIER * BOMB_TIER_STEP
    if kind is PlayKind.THREE_JOKERS:
        return THREE_JOKERS_STAR_KEY
    if kind is PlayKind.CHAIN_BOMB:
        if length < 1:
            raise ValueError("a chained bomb's key needs its length (the number of bombs)")
        top = sequence_position(rank) + length - 1
        return star_key(2 * play_stars(kind, size, length), size, top)
    return rank_order(rank, level, rules)


class Play(NamedTuple):
    """One play: its kind, key rank, cards and the wild cards' readings.

    ``rank`` is the key rank as the competition triple names it: the rank of a single, pair, triple or
    bomb, the triple of a full house, the *lowest* rank of a sequence (``A`` for A2345, AA2233, AAA222),
    of an airplane's triples or of a chained bomb, and the small joker for three and four jokers.
    ``cards`` are in print order, wild cards as held (the ♥ level card; a big joker where the rule set
    makes it wild). ``stands_for`` has one card per wild card in ``cards``: the card it is read as (big
    jokers' first). ``key`` orders plays (see :func:`play_key`). Build plays with
    :func:`cardroom.guandan.classify` or the legal-move generators rather than by hand.
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
        if kind in _BOMB_KINDS:
            return previous.kind not in _BOMB_KINDS or self.key > previous.key
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

    @property
    def length(self) -> int:
        """The number of ranks of a sequence (the triples of an airplane) or of bombs in a chained bomb;
        0 for the other kinds."""
        if self.kind is PlayKind.CHAIN_BOMB:
            return len({card.rank for card in self.read_cards()})
        width = SEQUENCE_WIDTH.get(self.kind)
        return len(self.cards) // width if width else 0

    def read_cards(self) -> tuple[Card, ...]:
        """The cards as read: each wild card replaced by the card it stands for.

        The wild cards are the ♥ level cards and, where the rule set makes it wild, each big joker that
        stands for another card; ``stands_for`` lists the big jokers' readings first (they print first),
        then the ♥ level cards'."""
        if not self.stands_for:
            return self.cards
        wild = Card(self.level, Suit.HEARTS) if self.level is not None else None
        big = len(self.stands_for) - sum(1 for card in self.cards if card is wild)
        natural: list[Card] = []
        for card in self.cards:
            if card is wild:
                continue
            if card is BIG_JOKER and big > 0:
                big -= 1
                continue
            natural.append(card)
        return tuple(sorted((*natural, *self.stands_for), key=_card_index))

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
