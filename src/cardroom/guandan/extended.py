"""The combination engine for rule sets whose play parameters differ from the competition's.

Each parameter of :class:`~cardroom.guandan.ruleset.RuleSet` that shapes plays is read here, so that the
competition enumerators of :mod:`cardroom.guandan.combinations` stay as they are and every addition is
one more parameter, not another engine:

* ``level_rank_high`` / ``two_high``: the order of ranks (through ``HandView.orders``);
* ``straight_lengths``, ``tube_lengths``, ``plate_lengths``: sequences of any length in a range, ranks
  on the line A 2 3 … K A with the ace at one end only;
* ``airplanes``: 飞机带翅膀, n consecutive triples with n pairs of consecutive other ranks;
* ``max_bomb_size``, ``chain_bomb_lengths``, ``three_jokers_bomb``, ``bombs_by_stars``: bombs;
* ``big_joker_wild``: the big joker as a second wild card.

The big joker, played with a card that is not a big joker, stands for any card: a natural card (as the
♥ level cards do), the small joker (大王可以搭配小王一起出: ``SB HR`` is a pair of small jokers) or itself.
火拚摜蛋's (docs/rules/huopin.md#largest-reading) 选择大的牌型为优先 is read as: a set of cards holding a big
joker (and another card) is offered only in its *largest readings*, those that no other reading of the same
cards beats (:meth:`Play.beats`). Since the cards of two readings are the same, this comes to: if the cards
can be a bomb-class play, only their highest bomb-class reading; else, within each kind, only the reading with
the highest key. The enumerators test this on the natural cards of each candidate (:func:`highest_top`,
:func:`bomb_reading_exists`, :func:`full_house_dominated`, :func:`best_airplane_top`,
:func:`best_chain_key`; the rank level shares them) rather than by reading every candidate again.
A set without a big joker keeps every reading (the player's choice, as in the competition rules).

A play holding only ♥ level cards and big jokers reads the ♥ level cards as level cards (a big joker
copies them): ``HR H5`` at level 5 is a pair of fives.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from functools import cache
from itertools import combinations, product
from typing import Any, Final, NamedTuple

from cardroom.cards import ALL_CARDS, BIG_JOKER, NATURAL_RANKS, SMALL_JOKER, Card, Rank, Suit, card_index
from cardroom.cards import natural_index as _natural_index
from cardroom.guandan.hands import Enumerator, HandView, other_rank, with_wilds
from cardroom.guandan.plays import Play, PlayKind, play_key, rank_at_position, star_key
from cardroom.guandan.ruleset import RuleSet

_SUITS: Final = tuple(Suit)
_new: Final = tuple.__new__


def _card(rank: Rank, suit: Suit) -> Card:
    return ALL_CARDS[_natural_index(rank, suit)]


def _heart(rank: Rank) -> Card:
    return ALL_CARDS[_natural_index(rank, Suit.HEARTS)]


# --- windows on the sequence line A(1) 2 … K A(14) -------------------------------------------------------


class Window(NamedTuple):
    """``length`` consecutive positions ``low``…``top`` on the line A 2 3 … K A: the ranks in print order
    and their bitmask (bit ``rank``; the ace is bit 14 at either end)."""

    top: int
    low: int
    mask: int
    ranks: tuple[Rank, ...]


def _window(low: int, length: int) -> Window:
    ranks = tuple(sorted(rank_at_position(position) for position in range(low, low + length)))
    return Window(low + length - 1, low, sum(1 << rank for rank in ranks), ranks)


WINDOWS: Final = {
    length: tuple(_window(top - length + 1, length) for top in range(14, length - 1, -1))
    for length in range(1, 14)
}
"""Every window of each length 1…13, highest top first (13 ranks hold each rank once: A…K and 2…A)."""


@cache
def highest_top(mask: int, length: int) -> int:
    """The top of the highest window of ``length`` ranks holding every rank of ``mask``; 0 if none."""
    for window in WINDOWS[length]:
        if not mask & ~window.mask:
            return window.top
    return 0


@cache
def lowest_wing(mask: int, length: int, taken: int) -> int:
    """The top of the lowest window of ``length`` ranks holding ``mask`` and none of ``taken``; 0 if
    none (the wings of an airplane whose triples take ``taken``)."""
    for window in reversed(WINDOWS[length]):
        if not window.mask & taken and not mask & ~window.mask:
            return window.top
    return 0


@cache
def best_airplane_top(naturals: int, triples: int, length: int) -> int:
    """The highest triple top of an airplane of ``length`` triples over natural cards of the ranks in
    ``naturals``, those in ``triples`` held three times (they must be triples; the others, held once or
    twice, may be either): the key an airplane of these cards has at best."""
    for window in WINDOWS[length]:
        if triples & ~window.mask:
            continue
        if lowest_wing(naturals & ~window.mask, length, window.mask):
            return window.top
    return 0


def _usages(
    totals: Sequence[int], ranks: Sequence[Rank], widths: Sequence[int], budget: int
) -> list[tuple[int, ...]]:
    """Every way to lay at most ``budget`` wild cards over the ranks, ``widths[i]`` cards wanted of
    ``ranks[i]``: each rank takes the wild cards it lacks and may take more in place of held cards."""
    lacking = [max(0, width - totals[rank]) for rank, width in zip(ranks, widths, strict=True)]
    spare = budget - sum(lacking)
    if spare < 0:
        return []
    found: list[tuple[tuple[int, ...], int]] = [((), spare)]
    for short, width in zip(lacking, widths, strict=True):
        found = [
            ((*usage, short + extra), left - extra)
            for usage, left in found
            for extra in range(min(width - short, left) + 1)
        ]
    return [usage for usage, _ in found]


# --- dominance: 选择大的牌型为优先 -----------------------------------------------------------------------


def bomb_reading_exists(rules: RuleSet, naturals: int, rank_count: int, most: int, size: int) -> bool:
    """Whether ``size`` cards whose natural cards (no joker) are of the ranks in ``naturals`` (that many
    ranks, at most ``most`` of one), the rest wild, can be a bomb of one rank or a chained bomb."""
    if rank_count == 1 and 4 <= size <= rules.max_bomb_size:
        return True
    return best_chain_key(rules, naturals, most, size) > 0


def best_chain_key(rules: RuleSet, naturals: int, most: int, size: int) -> int:
    """The highest key of a chained bomb of ``size`` cards over these natural cards; 0 if none."""
    fewest, longest = rules.chain_bomb_lengths
    best = 0
    for length in range(max(fewest, 1), longest + 1):
        width = size // length
        if width * length != size or not max(4, most) <= width <= rules.max_bomb_size:
            continue
        top = highest_top(naturals, length)
        if top:
            best = max(best, star_key(2 * (width + length), size, top))
    return best


def _one_suit(cards: tuple[Card, ...]) -> bool:
    suit = cards[0].suit
    return suit is not None and all(card.suit is suit for card in cards)


# --- building plays -------------------------------------------------------------------------------------


def _assemble(naturals: tuple[Card, ...], big: int, hearts: int, wild: Card) -> tuple[Card, ...]:
    """The cards of a play in print order: the natural cards, ``big`` big jokers and ``hearts`` ♥ level
    cards."""
    if hearts:
        naturals = with_wilds(naturals, wild, hearts)
    if big:
        start = 0  # big jokers print after the small jokers, before every suited card
        while start < len(naturals) and naturals[start] is SMALL_JOKER:
            start += 1
        naturals = naturals[:start] + (BIG_JOKER,) * big + naturals[start:]
    return naturals


def _splits(view: HandView, used: int, jokers: int = 0) -> range:
    """How many of ``used`` wild cards may be big jokers (the rest ♥ level cards): at least ``jokers``,
    the wild cards that stand for a joker, which only a big joker may."""
    return range(max(jokers, used - view.wilds), min(used, view.big_wilds) + 1)


def singles(view: HandView, above: int = 0, size: int = 0) -> Iterator[Play]:
    """单张: every distinct card held; a wild card alone is itself (a ♥ level card is a level card)."""
    if size > 1:
        return
    level, orders = view.level, view.orders
    single = PlayKind.SINGLE
    for rank in NATURAL_RANKS:
        key = orders[rank]
        if key > above:
            for cards in view.subsets[rank][1]:
                yield _new(Play, (single, rank, cards, (), level, key))
    if view.wilds and orders[level] > above:
        yield _new(Play, (single, level, (view.wild,), (view.wild,), level, orders[level]))
    for joker, held in ((SMALL_JOKER, view.small_jokers), (BIG_JOKER, view.big_jokers)):
        key = orders[joker.rank]
        if held and key > above:
            yield _new(Play, (single, joker.rank, (joker,), (), level, key))


def pairs(view: HandView, above: int = 0, size: int = 0) -> Iterator[Play]:
    """对子: two of a rank (one may be wild), two wild cards of the level rank, a joker pair; with the
    big joker wild, a big joker with any other card (``SB HR``: small jokers)."""
    if size and size != 2:
        return
    level, wild, orders = view.level, view.wild, view.orders
    wilds, bigs = view.wilds, view.big_wilds
    pair = PlayKind.PAIR
    for rank in NATURAL_RANKS:
        key = orders[rank]
        if key <= above:
            continue
        subsets = view.subsets[rank]
        for cards in subsets[2]:
            yield _new(Play, (pair, rank, cards, (), level, key))
        stands = (_heart(rank),)
        for cards in subsets[1] if wilds or bigs else ():
            if wilds:
                yield _new(Play, (pair, rank, _assemble(cards, 0, 1, wild), stands, level, key))
            if bigs:
                yield _new(Play, (pair, rank, (BIG_JOKER, *cards), stands, level, key))
    key = orders[level]
    if key > above:
        if wilds == 2:
            yield _new(Play, (pair, level, (wild, wild), (wild, wild), level, key))
        if wilds and bigs:
            yield _new(Play, (pair, level, (BIG_JOKER, wild), (wild, wild), level, key))
    key = orders[Rank.SMALL_JOKER]
    if key > above:
        if view.small_jokers == 2:
            yield _new(Play, (pair, Rank.SMALL_JOKER, (SMALL_JOKER, SMALL_JOKER), (), level, key))
        if view.small_jokers and bigs:
            yield _new(Play, (pair, Rank.SMALL_JOKER, (SMALL_JOKER, BIG_JOKER), (SMALL_JOKER,), level, key))
    key = orders[Rank.BIG_JOKER]
    if view.big_jokers == 2 and key > above:
        yield _new(Play, (pair, Rank.BIG_JOKER, (BIG_JOKER, BIG_JOKER), (), level, key))


def _of_a_rank(
    view: HandView, kind: PlayKind, size: int, above: int, keys: dict[Rank, int]
) -> Iterator[Play]:
    """``size`` cards of one natural rank: natural cards (at least one) and wild cards of both kinds; a
    bomb of five with a single natural card is left out when the big joker is among its wild cards (its
    cards are a straight flush, which the preference for the larger reading keeps instead)."""
    level, wild = view.level, view.wild
    budget = view.wilds + view.big_wilds
    for rank in NATURAL_RANKS:
        key = keys[rank]
        if key <= above:
            continue
        subsets = view.subsets[rank]
        heart = _heart(rank)
        for held in range(min(view.totals[rank], size), max(1, size - budget) - 1, -1):
            used = size - held
            for big in _splits(view, used):
                if big and size == 5 and held == 1 and kind is PlayKind.BOMB:
                    continue
                for cards in subsets[held]:
                    yield _new(
                        Play,
                        (kind, rank, _assemble(cards, big, used - big, wild), (heart,) * used, level, key),
                    )


def _all_wild(view: HandView, kind: PlayKind, size: int, above: int, key: int) -> Iterator[Play]:
    """``size`` cards of ♥ level cards and big jokers only: the ♥ level cards are level cards and the big
    jokers copy them."""
    if key <= above or not view.big_wilds:
        return
    wild = view.wild
    for hearts in range(1, view.wilds + 1):
        big = size - hearts
        if 1 <= big <= view.big_wilds:
            cards = (BIG_JOKER,) * big + (wild,) * hearts
            yield _new(Play, (kind, view.level, cards, (wild,) * size, view.level, key))


def triples(view: HandView, above: int = 0, size: int = 0) -> Iterator[Play]:
    """三同张: three of a rank, wild cards where short."""
    if size and size != 3:
        return
    orders = view.orders
    keys = {rank: orders[rank] for rank in NATURAL_RANKS}
    yield from _of_a_rank(view, PlayKind.TRIPLE, 3, above, keys)
    yield from _all_wild(view, PlayKind.TRIPLE, 3, above, orders[view.level])


def bombs(view: HandView, above: int = 0, size: int = 0) -> Iterator[Play]:
    """炸弹: 4 to ``max_bomb_size`` cards of one rank, wild cards of both kinds included."""
    rules, level = view.rules, view.level
    largest = min(max(view.totals) + view.wilds + view.big_wilds, rules.max_bomb_size)
    for count in range(4, max(largest, 4) + 1):
        if size and count != size:
            continue
        keys = {rank: play_key(PlayKind.BOMB, rank, count, level, rules) for rank in NATURAL_RANKS}
        yield from _of_a_rank(view, PlayKind.BOMB, count, above, keys)
        if count == 4:
            yield from _all_wild(
                view, PlayKind.BOMB, 4, above, play_key(PlayKind.BOMB, level, 4, level, rules)
            )


_PairPart = tuple[Rank | None, tuple[Card, ...], int, int]
"""A full house's pair: its rank (``None`` for two ♥ level cards), natural cards, wild cards used, and
how many of those must stand for a joker (a big joker as the small joker)."""


def _pair_parts(view: HandView) -> list[_PairPart]:
    parts: list[_PairPart] = []
    budget = view.wilds + view.big_wilds
    for rank in NATURAL_RANKS:
        subsets = view.subsets[rank]
        parts += [(rank, cards, 0, 0) for cards in subsets[2]]
        if budget:
            parts += [(rank, cards, 1, 0) for cards in subsets[1]]
    if view.small_jokers == 2:
        parts.append((Rank.SMALL_JOKER, (SMALL_JOKER, SMALL_JOKER), 0, 0))
    if view.small_jokers and view.big_wilds:
        parts.append((Rank.SMALL_JOKER, (SMALL_JOKER,), 1, 1))
    if view.big_jokers == 2 and not view.rules.big_joker_wild:
        # with the big joker wild, triple + 大王大王 is always a five-card bomb of the triple's rank
        parts.append((Rank.BIG_JOKER, (BIG_JOKER, BIG_JOKER), 0, 0))
    if view.wilds == 2:
        parts.append((None, (), 2, 0))
    return parts


def full_houses(view: HandView, above: int = 0, size: int = 0) -> Iterator[Play]:
    """三带二: a triple and a pair of another rank (a joker pair allowed), compared by the triple; with a
    big joker among the cards, only the largest readings (a bomb or straight flush of the same cards
    wins; of two full houses, the higher triple)."""
    if size and size != 5:
        return
    level, wild, orders = view.level, view.wild, view.orders
    budget = view.wilds + view.big_wilds
    full_house = PlayKind.FULL_HOUSE
    parts = _pair_parts(view)
    top_rank = max(NATURAL_RANKS, key=orders.__getitem__)
    for rank in NATURAL_RANKS:
        key = orders[rank]
        if key <= above:
            continue
        heart = _heart(rank)
        for held in range(min(view.totals[rank], 3), -1, -1):
            triple_used = 3 - held
            if triple_used > budget:
                break
            for pair_rank, pair_cards, pair_used, jokers in parts:
                used = triple_used + pair_used
                if pair_rank == rank or used > budget:
                    continue
                natural_pair = pair_rank is not None and not pair_rank.is_joker
                pair_stands: tuple[Card, ...]
                if pair_rank is None:
                    pair_stands = (_heart(level if rank != level else other_rank(level)),) * 2
                elif pair_rank.is_joker:
                    pair_stands = (SMALL_JOKER,) * pair_used  # a big joker as the small joker
                else:
                    pair_stands = (_heart(pair_rank),) * pair_used
                stands = tuple(sorted((*pair_stands, *(heart,) * triple_used), key=card_index))
                for big in _splits(view, used, jokers):
                    if big and full_house_dominated(rank, held, pair_rank, natural_pair, orders, top_rank):
                        continue
                    for triple_cards in view.subsets[rank][held] if held else ((),):
                        if (
                            big
                            and held == 1
                            and natural_pair
                            and len(pair_cards) == 1
                            and _straight_flush_of(triple_cards[0], pair_cards[0])
                        ):
                            continue
                        naturals = tuple(sorted((*triple_cards, *pair_cards), key=card_index))
                        cards = _assemble(naturals, big, used - big, wild)
                        yield _new(Play, (full_house, rank, cards, stands, level, key))


def full_house_dominated(
    rank: Rank, held: int, pair_rank: Rank | None, natural_pair: bool, orders: Sequence[int], top_rank: Rank
) -> bool:
    """Whether a full house holding a big joker has a larger reading of its cards (its straight-flush
    reading is checked on the cards): its natural cards all of one rank (a bomb), or its pair's rank
    could be the triple and is higher, or a wholly wild triple that is not of the highest rank."""
    if pair_rank is None:
        return True  # two wild cards as the pair: the natural cards are one rank, a bomb
    if natural_pair:
        if held == 0:
            return True
        return held <= 2 and orders[pair_rank] > orders[rank]
    return held == 0 and rank != top_rank


def _straight_flush_of(first: Card, second: Card) -> bool:
    """Whether two natural cards and three wild cards can be a straight flush."""
    return first.suit is second.suit and bool(highest_top(1 << first.rank | 1 << second.rank, 5))


def _sequences(
    view: HandView, kind: PlayKind, width: int, lengths: tuple[int, int], above: int, size: int
) -> Iterator[Play]:
    rules, level, wild = view.rules, view.level, view.wild
    wilds, bigs = view.wilds, view.big_wilds
    budget = wilds + bigs
    totals, subsets, distinct = view.totals, view.subsets, view.distinct
    straight = kind is PlayKind.STRAIGHT
    loose = rules.natural_straight_flush_is_straight
    fewest, longest = lengths
    for length in range(fewest, longest + 1):
        count = length * width
        if size and count != size:
            continue
        widths = (width,) * length
        for window in WINDOWS[length]:
            top = window.top
            if top <= above:
                break
            lowest = rank_at_position(window.low)
            for usage in _usages(totals, window.ranks, widths, budget):
                stand_ins: tuple[Card, ...] = ()
                choices: list[tuple[Any, ...]] = []
                naturals_mask = rank_count = 0
                split: int | None = 0  # where the ♥ level cards print among the natural cards
                for rank, used in zip(window.ranks, usage, strict=True):
                    if used:
                        stand_ins += (_heart(rank),) * used
                    if used < width:
                        choices.append(distinct[rank] if width == 1 else subsets[rank][width - used])
                        naturals_mask |= 1 << rank
                        rank_count += 1
                        if split is not None and rank <= level:
                            split = split + width - used if rank < level else None
                used = len(stand_ins)
                for big in _splits(view, used):
                    if big and (
                        highest_top(naturals_mask, length) != top
                        or (
                            not straight
                            and bomb_reading_exists(rules, naturals_mask, rank_count, width, count)
                        )
                    ):
                        continue
                    hearts = used - big
                    before, run = (BIG_JOKER,) * big, (wild,) * hearts
                    for groups in product(*choices):
                        naturals: tuple[Card, ...] = groups if width == 1 else sum(groups, ())
                        stands = stand_ins
                        if straight and length == 5 and _one_suit(naturals):
                            if big or (not used and not loose):
                                continue  # a straight flush (the larger reading, or the only one)
                            if used and naturals[0].suit is Suit.HEARTS:
                                stands = tuple(_card(card.rank, Suit.SPADES) for card in stand_ins)
                        if not hearts:
                            cards = before + naturals
                        elif split is None:
                            cards = before + with_wilds(naturals, wild, hearts)
                        else:
                            cards = before + naturals[:split] + run + naturals[split:]
                        yield _new(Play, (kind, lowest, cards, stands, level, top))


def straights(view: HandView, above: int = 0, size: int = 0) -> Iterator[Play]:
    """顺子: ``straight_lengths`` consecutive ranks, no jokers; five natural cards of one suit are a
    straight flush only (unless ``natural_straight_flush_is_straight``), longer runs of one suit are
    straights."""
    return _sequences(view, PlayKind.STRAIGHT, 1, view.rules.straight_lengths, above, size)


def tubes(view: HandView, above: int = 0, size: int = 0) -> Iterator[Play]:
    """连对: ``tube_lengths`` consecutive pairs."""
    return _sequences(view, PlayKind.TUBE, 2, view.rules.tube_lengths, above, size)


def plates(view: HandView, above: int = 0, size: int = 0) -> Iterator[Play]:
    """连三张 / 钢板: ``plate_lengths`` consecutive triples."""
    return _sequences(view, PlayKind.PLATE, 3, view.rules.plate_lengths, above, size)


def airplanes(view: HandView, above: int = 0, size: int = 0) -> Iterator[Play]:
    """飞机带翅膀: n consecutive triples and n pairs of consecutive ranks other than the triples'
    (333444+6677), compared by the top triple; the same cards whose wings could sit on several windows
    are one play."""
    rules, level, wild = view.rules, view.level, view.wild
    if not rules.airplanes:
        return
    budget = view.wilds + view.big_wilds
    totals, subsets = view.totals, view.subsets
    fewest, longest = rules.plate_lengths
    airplane = PlayKind.AIRPLANE
    for length in range(max(2, fewest), min(longest, 6) + 1):
        if size and 5 * length != size:
            continue
        for triples_window in WINDOWS[length]:
            top = triples_window.top
            if top <= above:
                break
            lowest = rank_at_position(triples_window.low)
            taken = triples_window.mask
            for wings in WINDOWS[length]:
                if wings.mask & taken:
                    continue
                slots = sorted(
                    [(rank, 3) for rank in triples_window.ranks] + [(rank, 2) for rank in wings.ranks]
                )
                ranks = [rank for rank, _ in slots]
                widths = [width for _, width in slots]
                for usage in _usages(totals, ranks, widths, budget):
                    stand_ins: tuple[Card, ...] = ()
                    choices = []
                    naturals_mask = wing_mask = three_mask = 0
                    for (rank, width), used in zip(slots, usage, strict=True):
                        if used:
                            stand_ins += (_heart(rank),) * used
                        if used < width:
                            choices.append(subsets[rank][width - used])
                            naturals_mask |= 1 << rank
                            if width == 2:
                                wing_mask |= 1 << rank
                            elif used == 0:
                                three_mask |= 1 << rank
                    if lowest_wing(wing_mask, length, taken) != wings.top:
                        continue  # the same cards with the wings on a lower window
                    used = len(stand_ins)
                    for big in _splits(view, used):
                        if big and best_airplane_top(naturals_mask, three_mask, length) != top:
                            continue
                        for groups in product(*choices):
                            cards = _assemble(sum(groups, ()), big, used - big, wild)
                            yield _new(Play, (airplane, lowest, cards, stand_ins, level, top))


def straight_flushes(view: HandView, above: int = 0, size: int = 0) -> Iterator[Play]:
    """同花顺: five consecutive ranks of one suit, wild cards taking that suit (also in place of held
    cards); with a big joker among them, only the highest such reading of the cards."""
    if size and size != 5:
        return
    rules, level, wild, masks = view.rules, view.level, view.wild, view.suit_masks
    budget = view.wilds + view.big_wilds
    flush = PlayKind.STRAIGHT_FLUSH
    runs = [0, 0, 0, 0]
    for position in range(1, 15):
        mask = masks[rank_at_position(position)]
        for suit in _SUITS:
            if mask >> suit & 1:
                runs[suit] |= 1 << position
    for window in WINDOWS[5]:
        top, low = window.top, window.low
        lowest = rank_at_position(low)
        key = play_key(flush, lowest, 5, level, rules)
        if key <= above:
            continue
        span = 0b11111 << low
        for suit in _SUITS:
            if (runs[suit] & span).bit_count() + budget < 5:
                continue
            bit = 1 << suit
            held = [rank for rank in window.ranks if masks[rank] & bit]
            missing = 5 - len(held)
            for extra in range(budget - missing + 1):
                for replaced in combinations(held, extra):
                    kept = [rank for rank in held if rank not in replaced]
                    naturals = tuple(_card(rank, suit) for rank in kept)
                    stands = tuple(_card(rank, suit) for rank in window.ranks if rank not in kept)
                    used = len(stands)
                    for big in _splits(view, used):
                        if big and highest_top(sum(1 << rank for rank in kept), 5) != top:
                            continue
                        cards = _assemble(naturals, big, used - big, wild)
                        yield _new(Play, (flush, lowest, cards, stands, level, key))


def chain_bombs(view: HandView, above: int = 0, size: int = 0) -> Iterator[Play]:
    """X相Y连环炸弹: Y (``chain_bomb_lengths``) bombs of X cards each (X ≥ 4) on consecutive ranks, no
    joker; compared by stars X+Y, then fewer cards, then the top rank."""
    rules, level, wild = view.rules, view.level, view.wild
    fewest, longest = rules.chain_bomb_lengths
    if not longest:
        return
    budget = view.wilds + view.big_wilds
    totals, subsets = view.totals, view.subsets
    chain = PlayKind.CHAIN_BOMB
    for width in range(4, rules.max_bomb_size + 1):
        # the ranks that can hold a bomb of this width at all (wider bombs only fewer)
        strong = sum(1 << rank for rank in NATURAL_RANKS if totals[rank] + budget >= width)
        if strong.bit_count() < fewest:
            break
        for length in range(fewest, longest + 1):
            count = width * length
            if size and count != size:
                continue
            widths = (width,) * length
            for window in WINDOWS[length]:
                key = star_key(2 * (width + length), count, window.top)
                if key <= above:
                    break
                if window.mask & ~strong:
                    continue
                lowest = rank_at_position(window.low)
                for usage in _usages(totals, window.ranks, widths, budget):
                    stand_ins: tuple[Card, ...] = ()
                    choices = []
                    naturals_mask = most = 0
                    for rank, used in zip(window.ranks, usage, strict=True):
                        if used:
                            stand_ins += (_heart(rank),) * used
                        if used < width:
                            choices.append(subsets[rank][width - used])
                            naturals_mask |= 1 << rank
                            most = max(most, width - used)
                    used = len(stand_ins)
                    for big in _splits(view, used):
                        if big and best_chain_key(rules, naturals_mask, most, count) != key:
                            continue
                        for groups in product(*choices):
                            cards = _assemble(sum(groups, ()), big, used - big, wild)
                            yield _new(Play, (chain, lowest, cards, stand_ins, level, key))


def three_jokers(view: HandView, above: int = 0, size: int = 0) -> Iterator[Play]:
    """三王炸: any three jokers (``three_jokers_bomb``), the lowest of the 6★ bombs."""
    rules, level = view.rules, view.level
    if not rules.three_jokers_bomb or (size and size != 3):
        return
    key = play_key(PlayKind.THREE_JOKERS, Rank.SMALL_JOKER, 3, level, rules)
    if key <= above:
        return
    small, big = view.small_jokers, view.big_jokers
    for cards in ((SMALL_JOKER, SMALL_JOKER, BIG_JOKER), (SMALL_JOKER, BIG_JOKER, BIG_JOKER)):
        if cards.count(SMALL_JOKER) <= small and cards.count(BIG_JOKER) <= big:
            yield _new(Play, (PlayKind.THREE_JOKERS, Rank.SMALL_JOKER, cards, (), level, key))


def four_jokers(view: HandView, above: int = 0, size: int = 0) -> Iterator[Play]:
    """天王炸: both small and both big jokers; beats everything."""
    if size and size != 4:
        return
    key = play_key(PlayKind.FOUR_JOKERS, Rank.SMALL_JOKER, 4, view.level, view.rules)
    if view.small_jokers == 2 and view.big_jokers == 2 and key > above:
        cards = (SMALL_JOKER, SMALL_JOKER, BIG_JOKER, BIG_JOKER)
        yield _new(Play, (PlayKind.FOUR_JOKERS, Rank.SMALL_JOKER, cards, (), view.level, key))


EXTENDED_ENUMERATORS: Final[dict[PlayKind, Enumerator]] = {
    PlayKind.SINGLE: singles,
    PlayKind.PAIR: pairs,
    PlayKind.TRIPLE: triples,
    PlayKind.FULL_HOUSE: full_houses,
    PlayKind.STRAIGHT: straights,
    PlayKind.TUBE: tubes,
    PlayKind.PLATE: plates,
    PlayKind.AIRPLANE: airplanes,
    PlayKind.BOMB: bombs,
    PlayKind.STRAIGHT_FLUSH: straight_flushes,
    PlayKind.CHAIN_BOMB: chain_bombs,
    PlayKind.THREE_JOKERS: three_jokers,
    PlayKind.FOUR_JOKERS: four_jokers,
}
"""One enumerator per kind, ``enumerate(view, above=key, size=cards)``; a kind the rule set lacks yields
nothing."""
