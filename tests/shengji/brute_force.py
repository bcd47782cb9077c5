"""A slow, obviously-correct reference for Shengji tricks, written from docs/rules/shengji.md (the trick
section) alone, to cross-check :mod:`cardroom.shengji` (whose order, units and tricks modules are not
imported).

The method is literal:

* the trump ladder is written out as docs/rules/shengji.md#trump-order lists it — big joker, small joker, the
  trump suit's level card, the other level cards (one rung), trump A…2 without the level rank — and each plain
  suit as A…2 without the level rank; a card's rung is its height;
* a tractor is checked as written: pairs of one effective suit on adjacent rungs (one pair per rung);
  ``gap_adjacent=False`` breaks the adjacency of the two ranks either side of the level rank;
* a set of cards is read into units by trying every partition into singles, pairs and tractors and
  keeping the one with the longest tractors, then the most pairs, then the highest units;
* a follow is legal when, among all the sub-multisets of the hand of the lead's size, it has the most
  cards of the led suit and then the best structure score (tractors of the lead's lengths matched, then
  pairs up to the lead's count); for one-unit leads it is also checked against the rule
  docs/rules/shengji.md#follow-structure;
* a unit of a throw is beaten when some sub-multiset of another hand is a unit of the same suit and
  shape on a higher rung; the winner of a trick by trying every partition of every play.

Everything is exponential on purpose: hands of about a dozen cards and leads of up to six.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from functools import cache
from itertools import combinations, pairwise

from cardroom.cards import BIG_JOKER, SMALL_JOKER, Card, Rank, Suit

TRUMP = "trump"

DOWN_FROM_ACE = tuple(Rank(value) for value in range(14, 1, -1))


@dataclass(frozen=True)
class Deal:
    """The brute force's own description of a deal: level rank, trump suit (None = no trump)."""

    level: Rank
    trump: Suit | None
    gap_adjacent: bool = True


@cache
def ladders(deal: Deal) -> dict[str, tuple[frozenset[Card], ...]]:
    """Each effective suit's rungs, from high to low (docs/rules/shengji.md#trump-order: trump runs big joker,
    small joker, the level card of the trump suit, the other level cards, then the trump suit A…2; a plain
    suit runs A…2 without the level rank)."""
    level, trump = deal.level, deal.trump
    rungs: list[frozenset[Card]] = [frozenset([BIG_JOKER]), frozenset([SMALL_JOKER])]
    if trump is not None:
        rungs.append(frozenset([Card(level, trump)]))
    rungs.append(frozenset(Card(level, suit) for suit in Suit if suit != trump))
    if trump is not None:
        rungs += [frozenset([Card(rank, trump)]) for rank in DOWN_FROM_ACE if rank != level]
    result = {TRUMP: tuple(rungs)}
    for suit in Suit:
        if suit != trump:
            result[suit.name] = tuple(
                frozenset([Card(rank, suit)]) for rank in DOWN_FROM_ACE if rank != level
            )
    return result


def suit_of(card: Card, deal: Deal) -> str:
    for name, rungs in ladders(deal).items():
        if any(card in rung for rung in rungs):
            return name
    raise AssertionError(card)


def height(card: Card, deal: Deal) -> int:
    """The card's rung counted from the bottom of its suit (higher wins)."""
    rungs = ladders(deal)[suit_of(card, deal)]
    for index, rung in enumerate(rungs):
        if card in rung:
            return len(rungs) - index
    raise AssertionError(card)


def adjacent(low: Card, high: Card, deal: Deal) -> bool:
    """Cards of one suit on neighbouring rungs, high just above low."""
    if suit_of(low, deal) != suit_of(high, deal) or height(high, deal) != height(low, deal) + 1:
        return False
    if not deal.gap_adjacent and not (low.is_joker or high.is_joker):
        naturals = low.rank != deal.level and high.rank != deal.level
        if naturals and high.rank - low.rank == 2 and low.rank < deal.level < high.rank:
            return False
    return True


# --- units --------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class BUnit:
    """A unit as the brute force reads it: kind ``single``/``pair``/``tractor``, its cards, suit, top."""

    kind: str
    cards: tuple[Card, ...]
    suit: str
    top: int
    bottom: int

    @property
    def length(self) -> int:
        return len(self.cards) // 2 if self.kind != "single" else 0


def sort_by_index(cards: Sequence[Card]) -> tuple[Card, ...]:
    return tuple(sorted(cards, key=lambda card: card.index))


def is_pair(cards: Sequence[Card]) -> bool:
    return len(cards) == 2 and cards[0] == cards[1]


def is_tractor(cards: Sequence[Card], deal: Deal) -> bool:
    """docs/rules/shengji.md#tractors: a tractor is pairs of consecutive rungs in one effective suit."""
    counts = Counter(cards)
    if len(cards) < 4 or any(count != 2 for count in counts.values()):
        return False
    ordered = sorted(counts, key=lambda card: height(card, deal))
    return all(adjacent(low, high, deal) for low, high in pairwise(ordered))


def as_unit(cards: Sequence[Card], deal: Deal) -> BUnit | None:
    """These cards as one unit, or None."""
    suits = {suit_of(card, deal) for card in cards}
    if len(suits) != 1:
        return None
    heights = [height(card, deal) for card in cards]
    if len(cards) == 1:
        kind = "single"
    elif is_pair(cards):
        kind = "pair"
    elif is_tractor(cards, deal):
        kind = "tractor"
    else:
        return None
    return BUnit(kind, sort_by_index(cards), suits.pop(), max(heights), min(heights))


def sub_multisets(cards: Sequence[Card], size: int) -> set[tuple[Card, ...]]:
    """Every distinct sub-multiset of ``size`` cards."""
    return {sort_by_index(chosen) for chosen in combinations(sort_by_index(cards), size)}


def remove(cards: Sequence[Card], taken: Sequence[Card]) -> tuple[Card, ...]:
    left = Counter(cards)
    left.subtract(taken)
    return sort_by_index(list(left.elements()))


def partitions(cards: Sequence[Card], deal: Deal) -> Iterator[tuple[BUnit, ...]]:
    """Every partition of the cards into units (the first card of print order always in the next unit)."""
    cards = sort_by_index(cards)
    if not cards:
        yield ()
        return
    first, rest = cards[0], cards[1:]
    for size in range(1, len(cards) + 1):
        for others in sub_multisets(rest, size - 1):
            unit = as_unit((first, *others), deal)
            if unit is not None:
                for tail in partitions(remove(rest, others), deal):
                    yield (unit, *tail)


def shape(units: Sequence[BUnit]) -> tuple[tuple[int, ...], int, int]:
    """(tractor lengths longest first, pairs, singles)."""
    tractors = tuple(sorted((unit.length for unit in units if unit.kind == "tractor"), reverse=True))
    return tractors, sum(unit.kind == "pair" for unit in units), sum(unit.kind == "single" for unit in units)


def read(cards: Sequence[Card], deal: Deal) -> tuple[BUnit, ...]:
    """The lead's units: the longest tractors, then the most pairs, then the highest units."""

    def preference(units: tuple[BUnit, ...]) -> tuple[tuple[int, ...], int, list[int]]:
        tractors, pairs, _ = shape(units)
        return tractors, pairs, sorted((unit.top for unit in units), reverse=True)

    return max(partitions(cards, deal), key=preference)


# --- follows --------------------------------------------------------------------------------------------


def tractor_score(cards: Sequence[Card], lengths: tuple[int, ...], deal: Deal) -> int:
    """The most lead tractors (these lengths) matched at once by disjoint tractors among the cards."""
    if not lengths:
        return 0
    length, rest = lengths[0], lengths[1:]
    best = tractor_score(cards, rest, deal)
    for chosen in sub_multisets(cards, 2 * length):
        if is_tractor(chosen, deal):
            best = max(best, 1 + tractor_score(remove(cards, chosen), rest, deal))
    return best


def pair_score(cards: Sequence[Card]) -> int:
    """The most disjoint pairs among the cards."""
    return sum(count // 2 for count in Counter(cards).values())


def follow_score(cards: Sequence[Card], lead_units: Sequence[BUnit], deal: Deal) -> tuple[int, int, int]:
    """(cards of the led suit, lead tractors matched, pairs up to the lead's pairs)."""
    suit = lead_units[0].suit
    in_suit = [card for card in cards if suit_of(card, deal) == suit]
    tractors, pairs, _ = shape(lead_units)
    return (
        len(in_suit),
        tractor_score(in_suit, tractors, deal),
        min(pair_score(in_suit), sum(tractors) + pairs),
    )


def legal_follows(hand: Sequence[Card], lead: Sequence[Card], deal: Deal) -> set[tuple[Card, ...]]:
    """The follows whose score is the best the hand allows (docs/rules/shengji.md#follow-structure: follow
    suit; a pair led calls for a pair if the hand has one, a tractor for a tractor, else for pairs, else
    anything)."""
    units = read(lead, deal)
    candidates = sub_multisets(hand, len(lead))
    scores = {cards: follow_score(cards, units, deal) for cards in candidates}
    best_suit = max(score[0] for score in scores.values())
    best = max(score for score in scores.values() if score[0] == best_suit)
    return {cards for cards, score in scores.items() if score == best}


def literal_follow_ok(hand: Sequence[Card], lead: Sequence[Card], cards: Sequence[Card], deal: Deal) -> bool:
    """A follow to a one-unit lead, by docs/rules/shengji.md#follow-structure (and the brief): follow suit; a
    pair lead forces a pair if you have one; a tractor forces a tractor of its length if you have one, else as
    many pairs as you have."""
    (unit,) = read(lead, deal)
    in_hand = [card for card in hand if suit_of(card, deal) == unit.suit]
    played = [card for card in cards if suit_of(card, deal) == unit.suit]
    if len(played) != min(len(lead), len(in_hand)):
        return False
    if len(in_hand) <= len(lead):
        return True
    has = any(_same_shape(chosen, unit, deal) for chosen in sub_multisets(in_hand, len(lead)))
    if unit.kind == "pair":
        return is_pair(played) or not has
    if unit.kind == "tractor":
        if has:
            return is_tractor(played, deal)
        return pair_score(played) >= min(unit.length, pair_score(in_hand))
    return True


def _same_shape(cards: Sequence[Card], unit: BUnit, deal: Deal) -> bool:
    other = as_unit(cards, deal)
    return other is not None and other.kind == unit.kind and other.length == unit.length


# --- throws -------------------------------------------------------------------------------------------


def beats(hand: Sequence[Card], unit: BUnit, deal: Deal) -> bool:
    """Some unit of the hand of the same suit and shape is on a higher rung."""
    for chosen in sub_multisets(hand, len(unit.cards)):
        other = as_unit(chosen, deal)
        if (
            other is not None
            and other.suit == unit.suit
            and other.kind == unit.kind
            and other.length == unit.length
            and other.top > unit.top
        ):
            return True
    return False


def check_throw(
    lead: Sequence[Card], others: Sequence[Sequence[Card]], deal: Deal
) -> tuple[bool, set[tuple[Card, ...]], tuple[Card, ...]]:
    """(legal, the failing units' cards, the cards actually played). docs/rules/shengji.md#throw: a throw
    stands only if no other hand can beat any of its units; otherwise the thrower plays the smallest unit —
    the smallest failing unit by its lowest card, then fewer cards, then its highest card."""
    units = read(lead, deal)
    if len(units) == 1:
        return True, set(), sort_by_index(lead)
    failed = [unit for unit in units if any(beats(hand, unit, deal) for hand in others)]
    if not failed:
        return True, set(), sort_by_index(lead)
    smallest = min(failed, key=lambda unit: (unit.bottom, len(unit.cards), unit.top))
    return False, {unit.cards for unit in failed}, smallest.cards


# --- the winner ---------------------------------------------------------------------------------------


def strength(cards: Sequence[Card], lead_units: Sequence[BUnit], deal: Deal) -> tuple[bool, int] | None:
    """(trump, top of the principal unit) of a play that is all of the led suit or all trump and has a
    partition into units of exactly the lead's shape (a tractor may serve as shorter tractors or pairs, a
    pair as two singles), maximised over those partitions; None for a play that cannot win."""
    suit = lead_units[0].suit
    suits = {suit_of(card, deal) for card in cards}
    if suits != {suit} and suits != {TRUMP}:
        return None
    wanted = shape(lead_units)
    tractors, pairs, _ = wanted
    principal = "tractor" if tractors else "pair" if pairs else "single"
    longest = tractors[0] if tractors else 0
    best: int | None = None
    for units in partitions(cards, deal):
        if shape(units) == wanted:
            top = max(
                unit.top
                for unit in units
                if unit.kind == principal and (principal != "tractor" or unit.length == longest)
            )
            best = top if best is None else max(best, top)
    return None if best is None else (TRUMP in suits, best)


def winner(lead: Sequence[Card], follows: Sequence[Sequence[Card]], deal: Deal) -> int:
    """0 for the leader, i for follows[i-1]: the strongest play, the earliest of equals."""
    units = read(lead, deal)
    plays = [lead, *follows]
    ranks = [strength(cards, units, deal) for cards in plays]
    best = 0
    for index, rank in enumerate(ranks):
        current = ranks[best]
        if rank is not None and current is not None and rank > current:
            best = index
    return best
