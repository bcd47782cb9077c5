"""The fast engine (``classify``, ``legal_leads``, ``legal_follows``) against the brute-force reference
of :mod:`tests.guandan.brute_force`, written from docs/rules/competition.md.

Plays are compared as sets of (kind, key rank, cards). Every play the engine returns is also checked on
its own: no duplicates, the deal's level, ``key == play_key(...)``, one ``stands_for`` card per wild
card, and its wild cards replaced by ``stands_for`` are that kind and rank by the plain definitions.

Small hands (up to about 10 cards) are compared with the exhaustive reference; full 27-card hands with
a pruned enumeration (:func:`candidate_multisets`) whose pruning is itself checked against the
exhaustive one on small hands.

The last part checks the rule-set variants: ``huopin`` (docs/rules/huopin.md) and each play parameter alone,
against the reference's own reading of them (:class:`~tests.guandan.brute_force.Variant`), on small hands with
0–2 ♥ level cards and 0–2 big jokers and on long shapes.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterable, Iterator, Sequence

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cardroom.cards import NATURAL_RANKS, Card, Rank, Suit, format_cards, full_deck, parse_cards
from cardroom.guandan import (
    HUOPIN,
    HandView,
    Play,
    PlayKind,
    RuleSet,
    can_play_cards,
    classify,
    legal_follows,
    legal_leads,
)
from cardroom.guandan.extended import EXTENDED_ENUMERATORS
from cardroom.guandan.plays import play_key
from tests.guandan.brute_force import (
    BIG,
    COMPETITION_VARIANT,
    HUOPIN_VARIANT,
    MAX_PLAY_SIZE,
    Reading,
    Variant,
    VariantReading,
    brute_beats,
    brute_classify,
    brute_follows,
    brute_lead_readings,
    brute_leads,
    brute_readings,
    candidate_multisets,
    forget,
    plain_accepts,
    rank_at,
    reading_play,
    sort_by_index,
    variant_accepts,
    variant_beats,
    variant_classify,
    variant_follows,
    variant_lead_readings,
    variant_leads,
    wild_card,
)

DECK = full_deck()
LOOSE = RuleSet(name="loose", natural_straight_flush_is_straight=True)
"""The rule-set parameter that lets five natural cards of one suit in sequence be a plain straight too."""

FAST = settings(max_examples=60, deadline=None, derandomize=True, database=None)
SLOW = settings(
    max_examples=400,
    deadline=None,
    derandomize=True,
    database=None,
    suppress_health_check=[HealthCheck.too_slow],
)


@pytest.fixture(scope="module", autouse=True)
def reference_memory() -> Iterator[None]:
    """The reference remembers its readings across this module's tests (many recur), and forgets them
    after it: over a gigabyte, which the rest of the worker's tests need not carry."""
    yield
    forget()


# --- helpers ---------------------------------------------------------------------------------------


def show(readings: Iterable[Reading]) -> list[str]:
    return sorted(f"{kind.name} {rank.letter}: {format_cards(cards)}" for kind, rank, cards in readings)


def reading_of(play: Play) -> Reading:
    assert play.rank is not None, play
    return (play.kind, play.rank, play.cards)


def reading_order(reading: Reading) -> tuple[int, int, tuple[int, ...]]:
    kind, rank, cards = reading
    return (kind, rank, tuple(card.index for card in cards))


def check_play(play: Play, level: Rank, loose: bool = False) -> None:
    """One play of the engine on its own: level, key, cards in print order, one ``stands_for`` card
    per wild card, and the concrete cards (wild cards replaced) are that kind and rank plainly."""
    assert play.kind is not PlayKind.PASS
    assert play.rank is not None, play
    assert play.level == level, play.describe()
    assert play.cards == sort_by_index(play.cards), play.describe()
    assert play.key == play_key(play.kind, play.rank, len(play.cards), level), play.describe()
    assert len(play.stands_for) == play.cards.count(wild_card(level)), play.describe()
    assert plain_accepts(play, level, loose), (
        f"{play.describe()}: the cards read as {format_cards(play.read_cards())} are not a plain "
        f"{play.kind.name} of rank {play.rank.letter} at level {level.letter}"
    )


def engine_readings(plays: Sequence[Play], level: Rank, loose: bool = False) -> set[Reading]:
    """The engine's plays as readings, after checking each and that none is offered twice."""
    duplicates = [play.describe() for play, n in Counter(plays).items() if n > 1]
    assert not duplicates, f"plays returned twice: {duplicates}"
    twice = [r for r, n in Counter(reading_of(play) for play in plays).items() if n > 1]
    assert not twice, f"readings offered twice (different stands_for): {show(twice)}"
    for play in plays:
        check_play(play, level, loose)
    return {reading_of(play) for play in plays}


def assert_same(
    fast: set[Reading], brute: set[Reading], hand: Iterable[Card], level: Rank, what: str
) -> None:
    assert fast == brute, (
        f"{what} of {format_cards(hand)} at level {level.letter}:\n"
        f"  engine only: {show(fast - brute)}\n  reference only: {show(brute - fast)}"
    )


def cards(text: str) -> tuple[Card, ...]:
    return parse_cards(text)


# --- strategies ------------------------------------------------------------------------------------


@st.composite
def hands(
    draw: st.DrawFn,
    wilds: int,
    max_naturals: int,
    narrow: bool,
    level: Rank | None = None,
    min_size: int = 1,
) -> tuple[Rank, tuple[Card, ...]]:
    """A level and a hand holding exactly ``wilds`` wild cards and up to ``max_naturals`` other cards,
    drawn from the whole 108-card deck or (``narrow``) from 3–5 adjacent ranks, optionally with A, 2,
    the level rank and the jokers, in all suits or one or two, so that sequences, full houses, bombs
    and straight flushes occur."""
    if level is None:
        level = draw(st.sampled_from(NATURAL_RANKS))
    wild = wild_card(level)
    pool = [card for card in DECK if card is not wild]
    if narrow:
        start = draw(st.integers(1, 13))
        width = draw(st.integers(3, 5))
        ranks = {rank_at(position) for position in range(start, min(start + width, 15))}
        ranks |= draw(st.sets(st.sampled_from((Rank.ACE, Rank.TWO, level))))
        suits = draw(st.sampled_from([set(Suit), {Suit.SPADES}, {Suit.HEARTS, Suit.CLUBS}]))
        with_jokers = draw(st.booleans())
        pool = [
            card
            for card in pool
            if (card.rank in ranks and card.suit in suits) or (with_jokers and card.is_joker)
        ]
    picks = draw(
        st.lists(
            st.integers(0, len(pool) - 1),
            unique=True,
            min_size=max(min_size - wilds, 0),
            max_size=max_naturals,
        )
    )
    return level, sort_by_index([pool[i] for i in picks] + [wild] * wilds)


def random_hand(rng: random.Random, level: Rank, wilds: int, size: int = 27) -> tuple[Card, ...]:
    """A seeded hand of ``size`` cards from the deck with exactly ``wilds`` wild cards."""
    wild = wild_card(level)
    pool = [card for card in DECK if card is not wild]
    return sort_by_index(rng.sample(pool, size - wilds) + [wild] * wilds)


# --- the reference itself reads docs/rules/competition.md right
# ------------------------------------------------------

R = Rank
K = PlayKind
RULE_EXAMPLES: list[tuple[str, str, Rank, set[tuple[PlayKind, Rank]]]] = [
    ("single: any card", "SB", R.TWO, {(K.SINGLE, R.SMALL_JOKER)}),
    ("pair: two of one rank", "S7 D7", R.TWO, {(K.PAIR, R.SEVEN)}),
    ("pair: two big jokers", "HR HR", R.TWO, {(K.PAIR, R.BIG_JOKER)}),
    ("small + big joker is not a pair", "SB HR", R.TWO, set()),
    ("triple: three of one rank", "S9 H9 C9", R.TWO, {(K.TRIPLE, R.NINE)}),
    ("full house keyed by its triple", "S3 H3 C3 SK DK", R.TWO, {(K.FULL_HOUSE, R.THREE)}),
    ("full house with a joker pair", "S3 H3 C3 SB SB", R.TWO, {(K.FULL_HOUSE, R.THREE)}),
    ("A2345 is the lowest straight, key A", "SA H2 C3 D4 S5", R.TEN, {(K.STRAIGHT, R.ACE)}),
    ("10JQKA is the highest straight, key 10", "ST HJ CQ DK SA", R.TWO, {(K.STRAIGHT, R.TEN)}),
    ("no wrap-around: JQKA2", "SJ HQ CK DA S2", R.TEN, set()),
    ("no wrap-around: QKA23", "SQ HK CA D2 S3", R.TEN, set()),
    ("a straight has no jokers", "S3 H4 C5 D6 SB", R.TEN, set()),
    (
        "five natural cards of one suit in sequence: a straight flush only",
        "S3 S4 S5 S6 S7",
        R.TEN,
        {(K.STRAIGHT_FLUSH, R.THREE)},
    ),
    ("三连对 AA2233 is the lowest", "SA HA S2 H2 S3 H3", R.TEN, {(K.TUBE, R.ACE)}),
    ("三连对 QQKKAA is the highest", "SQ HQ SK HK SA HA", R.TEN, {(K.TUBE, R.QUEEN)}),
    ("三连对: no wrap-around KKAA22", "SK HK SA HA S2 H2", R.TEN, set()),
    ("钢板 AAA222", "SA HA CA S2 H2 C2", R.TEN, {(K.PLATE, R.ACE)}),
    ("钢板 KKKAAA", "SK HK CK SA HA CA", R.TEN, {(K.PLATE, R.KING)}),
    ("bomb: four of a rank", "S8 H8 C8 D8", R.TWO, {(K.BOMB, R.EIGHT)}),
    ("four jokers", "SB SB HR HR", R.TWO, {(K.FOUR_JOKERS, R.SMALL_JOKER)}),
    ("three jokers are nothing", "SB SB HR", R.TWO, set()),
    ("a wild card alone is a single of the level rank", "H5", R.FIVE, {(K.SINGLE, R.FIVE)}),
    ("two wild cards alone are a pair of the level rank", "H5 H5", R.FIVE, {(K.PAIR, R.FIVE)}),
    ("a wild card never stands for a joker", "H5 SB", R.FIVE, set()),
    ("a wild card makes a pair with any natural card", "H5 SK", R.FIVE, {(K.PAIR, R.KING)}),
    (
        "a wild card completes either end of a straight",
        "H5 S7 D8 C9 ST",
        R.FIVE,
        {(K.STRAIGHT, R.SIX), (K.STRAIGHT, R.SEVEN)},
    ),
    (
        "with a wild card, five of one suit may be a straight or a straight flush",
        "H5 S7 S8 S9 ST",
        R.FIVE,
        {(K.STRAIGHT, R.SIX), (K.STRAIGHT, R.SEVEN), (K.STRAIGHT_FLUSH, R.SIX), (K.STRAIGHT_FLUSH, R.SEVEN)},
    ),
    (
        "two wild cards with a triple: full house or 5-bomb",
        "H5 H5 S9 C9 D9",
        R.FIVE,
        {(K.FULL_HOUSE, R.NINE), (K.BOMB, R.NINE)},
    ),
    (
        "a wild card joins either rank of a full house",
        "H5 S9 C9 SK DK",
        R.FIVE,
        {(K.FULL_HOUSE, R.NINE), (K.FULL_HOUSE, R.KING)},
    ),
    (
        "a 10-card bomb: eight natural cards and both wild cards",
        "H5 H5 S9 S9 H9 H9 C9 C9 D9 D9",
        R.FIVE,
        {(K.BOMB, R.NINE)},
    ),
]


@pytest.mark.parametrize(
    ("rule", "text", "level", "expected"), RULE_EXAMPLES, ids=[e[0] for e in RULE_EXAMPLES]
)
def test_reference_reads_rules_examples(
    rule: str, text: str, level: Rank, expected: set[tuple[PlayKind, Rank]]
) -> None:
    """The reference gives the readings (docs/rules/competition.md#readings) of hand-picked card sets, and so
    does ``classify``."""
    held = cards(text)
    brute = brute_classify(held, level)
    assert {(kind, rank) for kind, rank, _ in brute} == expected, rule
    assert engine_readings(classify(held, level), level) == brute, rule


def test_reference_loose_rule_lets_natural_straight_flush_be_a_straight() -> None:
    """With ``natural_straight_flush_is_straight``, five natural cards of one suit in sequence are a
    straight flush and also a plain straight."""
    held = cards("S3 S4 S5 S6 S7")
    brute = brute_classify(held, Rank.TEN, natural_straight_flush_is_straight=True)
    assert {(kind, rank) for kind, rank, _ in brute} == {
        (PlayKind.STRAIGHT_FLUSH, Rank.THREE),
        (PlayKind.STRAIGHT, Rank.THREE),
    }
    assert engine_readings(classify(held, Rank.TEN, LOOSE), Rank.TEN, loose=True) == brute


def test_reference_bomb_ladder_orders_as_rules_md() -> None:
    """docs/rules/competition.md#bomb-order: every non-bomb < 4-card bomb < 5-card bomb < straight flush < 6 <
    7 < 8 < 9 < 10-card bomb < four jokers; within a rung, the order of ranks (level rank above A) or the top
    rank of a straight flush."""
    level = Rank.FIVE
    ladder = [
        (K.STRAIGHT, R.TEN, 5),
        (K.BOMB, R.TWO, 4),
        (K.BOMB, R.ACE, 4),
        (K.BOMB, R.FIVE, 4),
        (K.BOMB, R.TWO, 5),
        (K.STRAIGHT_FLUSH, R.ACE, 5),
        (K.STRAIGHT_FLUSH, R.TEN, 5),
        (K.BOMB, R.TWO, 6),
        (K.BOMB, R.FIVE, 8),
        (K.BOMB, R.THREE, 9),
        (K.BOMB, R.TWO, 10),
        (K.FOUR_JOKERS, R.SMALL_JOKER, 4),
    ]
    for i, lower in enumerate(ladder):
        for j, higher in enumerate(ladder):
            assert brute_beats(*higher, *lower, level) == (j > i), (higher, lower)


def test_reference_same_kind_and_size_with_higher_key() -> None:
    """Non-bombs beat only the same kind and size with a higher key: level rank above A, jokers above
    it, sequences by top rank (A2345 lowest)."""
    level = Rank.SEVEN
    assert brute_beats(K.SINGLE, R.SEVEN, 1, K.SINGLE, R.ACE, 1, level)
    assert brute_beats(K.SINGLE, R.SMALL_JOKER, 1, K.SINGLE, R.SEVEN, 1, level)
    assert not brute_beats(K.PAIR, R.ACE, 2, K.SINGLE, R.TWO, 1, level)
    assert brute_beats(K.STRAIGHT, R.TWO, 5, K.STRAIGHT, R.ACE, 5, level)
    assert not brute_beats(K.STRAIGHT, R.ACE, 5, K.STRAIGHT, R.TEN, 5, level)
    assert brute_beats(K.FULL_HOUSE, R.THREE, 5, K.FULL_HOUSE, R.TWO, 5, level)
    assert not brute_beats(K.TUBE, R.TWO, 6, K.PLATE, R.ACE, 6, level)


# --- classify --------------------------------------------------------------------------------------


@pytest.mark.parametrize("wilds", [0, 1, 2])
@FAST
@given(deal=st.data())
def test_classify_matches_reference_narrow_windows(wilds: int, deal: st.DataObject) -> None:
    """``classify`` gives exactly the reference readings (every wild card tried as every non-joker
    card) of card sets from a few adjacent ranks, at every level."""
    level, held = deal.draw(hands(wilds, MAX_PLAY_SIZE - wilds, narrow=True))
    fast = engine_readings(classify(held, level), level)
    assert_same(fast, brute_classify(held, level), held, level, "classify")


@pytest.mark.parametrize("wilds", [0, 1, 2])
@FAST
@given(deal=st.data())
def test_classify_matches_reference_loose_rule(wilds: int, deal: st.DataObject) -> None:
    """With ``natural_straight_flush_is_straight``, ``classify`` still gives exactly the reference
    readings."""
    level, held = deal.draw(hands(wilds, 6 - wilds, narrow=True, min_size=5))
    fast = engine_readings(classify(held, level, LOOSE), level, loose=True)
    brute = brute_classify(held, level, natural_straight_flush_is_straight=True)
    assert_same(fast, brute, held, level, "classify (loose)")


@pytest.mark.parametrize("level", NATURAL_RANKS)
def test_classify_matches_reference_on_every_five_card_run(level: Rank) -> None:
    """Every straight shape A2345 … 10JQKA, natural or with one or two wild cards in every position, in
    one suit or mixed, reads the same in ``classify`` and in the reference, at every level."""
    wild = wild_card(level)
    for start in range(1, 11):
        ranks = [rank_at(position) for position in range(start, start + 5)]
        for suits in ([Suit.SPADES] * 5, [Suit.HEARTS] * 5, [Suit.CLUBS] * 4 + [Suit.DIAMONDS]):
            run = [Card(rank, suit) for rank, suit in zip(ranks, suits, strict=True)]
            for holes in [(), *((i,) for i in range(5)), *((i, j) for i in range(5) for j in range(i))]:
                held = sort_by_index([c for i, c in enumerate(run) if i not in holes] + [wild] * len(holes))
                if held.count(wild) != len(holes):
                    continue  # the run itself holds the wild card: a different number of wild cards
                for loose in (False, True):
                    rules = LOOSE if loose else RuleSet()
                    fast = engine_readings(classify(held, level, rules), level, loose)
                    brute = brute_classify(held, level, loose)
                    assert_same(fast, brute, held, level, f"classify (loose={loose})")


# --- legal leads -----------------------------------------------------------------------------------


@pytest.mark.parametrize("wilds", [0, 1, 2])
@FAST
@given(deal=st.data())
def test_legal_leads_match_reference_whole_deck(wilds: int, deal: st.DataObject) -> None:
    """``legal_leads`` of a small hand from the whole deck is exactly the set of readings of its
    sub-multisets."""
    level, hand = deal.draw(hands(wilds, 8 - wilds, narrow=False))
    fast = engine_readings(legal_leads(hand, level), level)
    assert_same(fast, brute_leads(hand, level), hand, level, "legal_leads")


@pytest.mark.parametrize("wilds", [0, 1, 2])
@FAST
@given(deal=st.data())
def test_legal_leads_match_reference_narrow_windows(wilds: int, deal: st.DataObject) -> None:
    """``legal_leads`` of a small hand from a few adjacent ranks (sequences, full houses, bombs) is
    exactly the set of readings of its sub-multisets."""
    level, hand = deal.draw(hands(wilds, 9 - wilds, narrow=True))
    fast = engine_readings(legal_leads(hand, level), level)
    assert_same(fast, brute_leads(hand, level), hand, level, "legal_leads")


@pytest.mark.parametrize("wilds", [0, 1, 2])
@pytest.mark.parametrize("level", NATURAL_RANKS)
@settings(max_examples=4, deadline=None, derandomize=True, database=None)
@given(deal=st.data())
def test_legal_leads_match_reference_at_every_level(level: Rank, wilds: int, deal: st.DataObject) -> None:
    """At every level 2…A (level rank above A for singles to bombs, natural place in sequences),
    ``legal_leads`` is exactly the reference's set of leads."""
    _, hand = deal.draw(hands(wilds, 8 - wilds, narrow=True, level=level))
    fast = engine_readings(legal_leads(hand, level), level)
    assert_same(fast, brute_leads(hand, level), hand, level, "legal_leads")


@pytest.mark.parametrize("level", NATURAL_RANKS)
def test_legal_leads_match_reference_on_whole_ranks_and_jokers(level: Rank) -> None:
    """Bombs of every size 4…10 (up to eight natural cards and both wild cards), of the level rank and
    of others, and four jokers beside wild cards: ``legal_leads`` is exactly the reference's set."""
    wild = wild_card(level)
    jokers = [Card(Rank.SMALL_JOKER), Card(Rank.SMALL_JOKER), Card(Rank.BIG_JOKER), Card(Rank.BIG_JOKER)]
    for rank in sorted({level, Rank.TWO, Rank.ACE}):
        whole = [card for card in DECK if card.rank == rank and card is not wild]
        for hand in (
            sort_by_index([*whole, wild, wild, jokers[0], jokers[2]]),
            sort_by_index([*whole[:4], wild, wild, *jokers]),
        ):
            fast = engine_readings(legal_leads(hand, level), level)
            assert_same(fast, brute_leads(hand, level), hand, level, "legal_leads")


@pytest.mark.parametrize("wilds", [0, 1, 2])
@FAST
@given(deal=st.data())
def test_legal_leads_match_reference_loose_rule(wilds: int, deal: st.DataObject) -> None:
    """With ``natural_straight_flush_is_straight``, ``legal_leads`` is exactly the reference's."""
    level, hand = deal.draw(hands(wilds, 8 - wilds, narrow=True))
    fast = engine_readings(legal_leads(hand, level, LOOSE), level, loose=True)
    brute = brute_leads(hand, level, natural_straight_flush_is_straight=True)
    assert_same(fast, brute, hand, level, "legal_leads (loose)")


# --- legal follows ---------------------------------------------------------------------------------


def draw_previous(deal: st.DataObject, level: Rank, other: tuple[Card, ...]) -> Play | None:
    """A previous play: one of the reference's leads of another hand, as a :class:`Play`."""
    readings = brute_lead_readings(other, level)
    if not readings:
        return None
    reading = deal.draw(st.sampled_from(sorted(readings, key=reading_order)))
    return reading_play(reading, readings[reading], level)


@pytest.mark.parametrize("wilds", [0, 1, 2])
@FAST
@given(deal=st.data())
def test_can_play_cards_matches_reference(wilds: int, deal: st.DataObject) -> None:
    """``can_play_cards`` (may these cards, all of them, be played now?) is whether the reference reads
    them as some play: any reading leads, a follow needs a reading that beats the previous play."""
    level, hand = deal.draw(hands(wilds, 8 - wilds, narrow=True))
    readings = brute_classify(hand, level)
    assert can_play_cards(hand, None, level) == bool(readings)
    other_wilds = deal.draw(st.integers(0, 2))
    _, other = deal.draw(hands(other_wilds, 6 - other_wilds, narrow=True, level=level))
    previous = draw_previous(deal, level, other)
    if previous is None:
        return
    assert previous.rank is not None
    size = len(previous.cards)
    beats = any(
        brute_beats(kind, rank, len(cards), previous.kind, previous.rank, size, level)
        for kind, rank, cards in readings
    )
    assert can_play_cards(hand, previous, level) == beats, f"{format_cards(hand)} on {previous.describe()}"


@pytest.mark.parametrize("wilds", [0, 1, 2])
@FAST
@given(deal=st.data())
def test_legal_follows_match_reference(wilds: int, deal: st.DataObject) -> None:
    """``legal_follows`` is exactly the reference leads that beat the previous play: the same kind and
    size with a higher key, or a bomb-class play higher on the bomb ladder."""
    level, hand = deal.draw(hands(wilds, 8 - wilds, narrow=True))
    other_wilds = deal.draw(st.integers(0, 2))
    _, other = deal.draw(hands(other_wilds, 6 - other_wilds, narrow=True, level=level))
    previous = draw_previous(deal, level, other)
    if previous is None:
        return
    fast = engine_readings(legal_follows(hand, previous, level), level)
    brute = brute_follows(hand, previous, level)
    assert_same(fast, brute, hand, level, f"legal_follows on {previous.describe()}")


@pytest.mark.parametrize("wilds", [0, 1, 2])
@FAST
@given(deal=st.data())
def test_play_beats_matches_reference(wilds: int, deal: st.DataObject) -> None:
    """``Play.beats`` on any two engine plays agrees with the reference's reading of
    docs/rules/competition.md#beating: comparison (same kind and size with a higher key, or higher on the bomb
    ladder)."""
    level, hand = deal.draw(hands(wilds, 10 - wilds, narrow=True))
    plays = legal_leads(hand, level)
    if not plays:
        return
    chosen = deal.draw(st.lists(st.sampled_from(plays), min_size=1, max_size=12))
    for play in chosen:
        for previous in chosen:
            kind, rank, held = reading_of(play)
            previous_kind, previous_rank, previous_held = reading_of(previous)
            expected = brute_beats(
                kind, rank, len(held), previous_kind, previous_rank, len(previous_held), level
            )
            assert play.beats(previous) == expected, (play.describe(), previous.describe())


# --- the pruned enumeration used for full hands ---------------------------------------------------


@pytest.mark.parametrize("wilds", [0, 1, 2])
@FAST
@given(deal=st.data())
def test_pruned_enumeration_finds_every_reference_lead(wilds: int, deal: st.DataObject) -> None:
    """The pruned enumeration of sub-multisets (one rank for 4 and 7–10 cards, two ranks or five
    adjacent ranks for 5, three adjacent ranks for 6) loses no reading of the exhaustive one."""
    level, hand = deal.draw(hands(wilds, 9 - wilds, narrow=deal.draw(st.booleans())))
    pruned: set[Reading] = set()
    for size in range(1, MAX_PLAY_SIZE + 1):
        for multiset in candidate_multisets(hand, level, size):
            pruned |= brute_classify(multiset, level)
    assert_same(pruned, brute_leads(hand, level), hand, level, "pruned leads")


# --- full 27-card hands ----------------------------------------------------------------------------


def pruned_reference(
    hand: tuple[Card, ...], level: Rank, size: int, loose: bool = False
) -> dict[Reading, tuple[Card, ...]]:
    """The reference's leads of ``size`` cards, over the pruned enumeration, each with a witness."""
    found: dict[Reading, tuple[Card, ...]] = {}
    for multiset in candidate_multisets(hand, level, size):
        found.update(brute_readings(multiset, level, loose))
    return found


def check_full_hand(
    hand: tuple[Card, ...], level: Rank, loose: bool = False
) -> dict[Reading, tuple[Card, ...]]:
    """Soundness and completeness of ``legal_leads`` on a full hand, size class by size class; returns
    the reference's leads, each with a witness."""
    rules = LOOSE if loose else RuleSet()
    plays = legal_leads(hand, level, rules)
    fast = engine_readings(plays, level, loose)
    for play in plays:
        assert reading_of(play) in brute_readings(play.cards, level, loose), play.describe()
    reference: dict[Reading, tuple[Card, ...]] = {}
    for size in range(1, MAX_PLAY_SIZE + 1):
        brute = pruned_reference(hand, level, size, loose)
        fast_size = {reading for reading in fast if len(reading[2]) == size}
        assert_same(fast_size, set(brute), hand, level, f"legal_leads of {size} cards")
        reference.update(brute)
    return reference


def previous_plays(readings: dict[Reading, tuple[Card, ...]], level: Rank) -> list[Play]:
    """One previous play per (kind, key rank, size) among the readings (which play beats it depends on
    nothing else), as :class:`Play` values for the engine."""
    shapes: dict[tuple[PlayKind, Rank, int], Play] = {}
    for reading in sorted(readings, key=reading_order):
        kind, rank, held = reading
        if (kind, rank, len(held)) not in shapes:
            shapes[kind, rank, len(held)] = reading_play(reading, readings[reading], level)
    return list(shapes.values())


def check_follows(
    hand: tuple[Card, ...],
    reference: Iterable[Reading],
    previous: Iterable[Play],
    level: Rank,
) -> None:
    """``legal_follows`` of the hand on each previous play is exactly the reference leads that beat
    it. Whether a lead beats depends on its kind, key rank and size alone, so the reference is asked
    once for each of those and its answer holds for every lead of that shape."""
    shapes: dict[tuple[PlayKind, Rank, int], list[Reading]] = {}
    for reading in reference:
        kind, rank, held = reading
        shapes.setdefault((kind, rank, len(held)), []).append(reading)
    for play in previous:
        fast = engine_readings(legal_follows(hand, play, level), level)
        previous_rank = play.rank
        assert previous_rank is not None
        brute = {
            reading
            for (kind, rank, size), readings in shapes.items()
            if brute_beats(kind, rank, size, play.kind, previous_rank, len(play.cards), level)
            for reading in readings
        }
        assert_same(fast, brute, hand, level, f"legal_follows on {play.describe()}")


def full_hand_reference(hand: tuple[Card, ...], level: Rank) -> dict[Reading, tuple[Card, ...]]:
    found: dict[Reading, tuple[Card, ...]] = {}
    for size in range(1, MAX_PLAY_SIZE + 1):
        found.update(pruned_reference(hand, level, size))
    return found


@pytest.mark.parametrize("wilds", [0, 1, 2])
@pytest.mark.parametrize("seed", range(2))
def test_full_hand_leads_and_follows_match_reference(seed: int, wilds: int) -> None:
    """On seeded 27-card hands, every engine lead is a reading of its own cards (soundness) and every
    reading of every sub-multiset that can make a play is an engine lead (completeness), size by size;
    follows are exactly the reference leads that beat the previous play (drawn from the reference
    leads of another 27-card hand)."""
    rng = random.Random(1000 * seed + wilds)
    level = rng.choice(NATURAL_RANKS)
    hand = random_hand(rng, level, wilds)
    reference = check_full_hand(hand, level)
    other = full_hand_reference(random_hand(rng, level, rng.randint(0, 2)), level)
    shapes = previous_plays(other, level)
    check_follows(hand, reference, rng.sample(shapes, min(15, len(shapes))), level)


@pytest.mark.parametrize("level", [Rank.TWO, Rank.NINE, Rank.ACE])
def test_legal_follows_match_reference_along_the_bomb_ladder(level: Rank) -> None:
    """Against every rung of the bomb ladder (4…10-card bombs, straight flushes, four jokers) and every
    non-bomb shape, ``legal_follows`` of a hand holding plays of every rung is exactly the reference
    leads that beat it: every non-bomb < 4-card bomb < 5-card bomb < straight flush < 6 < … < 10-card
    bomb < four jokers."""
    wild = wild_card(level)
    run = [Card(rank_at(position), Suit.SPADES) for position in range(1, 8)]
    nines = [card for card in DECK if card.rank == Rank.NINE and card is not wild]
    jokers = [Card(Rank.SMALL_JOKER), Card(Rank.BIG_JOKER)] * 2
    hand = sort_by_index([*run, *nines, wild, wild, *jokers])
    reference = check_full_hand(hand, level)
    check_follows(hand, reference, previous_plays(reference, level), level)


# --- slow: more and larger hands -------------------------------------------------------------------


@pytest.mark.slow
@pytest.mark.parametrize("wilds", [0, 1, 2])
@SLOW
@given(deal=st.data())
def test_slow_legal_leads_match_reference_larger_hands(wilds: int, deal: st.DataObject) -> None:
    """``legal_leads`` of hands of up to 12 cards, from a few adjacent ranks or the whole deck, is
    exactly the set of readings of their sub-multisets."""
    narrow = deal.draw(st.booleans())
    level, hand = deal.draw(hands(wilds, 12 - wilds, narrow=narrow))
    fast = engine_readings(legal_leads(hand, level), level)
    assert_same(fast, brute_leads(hand, level), hand, level, "legal_leads")


@pytest.mark.slow
@pytest.mark.parametrize("wilds", [0, 1, 2])
@SLOW
@given(deal=st.data())
def test_slow_legal_follows_match_reference(wilds: int, deal: st.DataObject) -> None:
    """``legal_follows`` of hands of up to 10 cards is exactly the reference leads that beat the
    previous play (drawn from another hand's reference leads)."""
    level, hand = deal.draw(hands(wilds, 10 - wilds, narrow=True))
    other_wilds = deal.draw(st.integers(0, 2))
    _, other = deal.draw(hands(other_wilds, 8 - other_wilds, narrow=True, level=level))
    previous = draw_previous(deal, level, other)
    if previous is None:
        return
    fast = engine_readings(legal_follows(hand, previous, level), level)
    brute = brute_follows(hand, previous, level)
    assert_same(fast, brute, hand, level, f"legal_follows on {previous.describe()}")


@pytest.mark.slow
@pytest.mark.parametrize("wilds", [0, 1, 2])
@SLOW
@given(deal=st.data())
def test_slow_classify_matches_reference(wilds: int, deal: st.DataObject) -> None:
    """``classify`` of card sets from the whole deck or a few adjacent ranks, under both settings of
    ``natural_straight_flush_is_straight``, gives exactly the reference readings."""
    level, held = deal.draw(hands(wilds, MAX_PLAY_SIZE - wilds, narrow=deal.draw(st.booleans())))
    for loose in (False, True):
        fast = engine_readings(classify(held, level, LOOSE if loose else RuleSet()), level, loose)
        assert_same(fast, brute_classify(held, level, loose), held, level, "classify")


@pytest.mark.slow
@pytest.mark.parametrize("loose", [False, True])
@pytest.mark.parametrize("wilds", [0, 1, 2])
@pytest.mark.parametrize("seed", range(2, 22))
def test_slow_full_hand_leads_and_follows_match_reference(seed: int, wilds: int, loose: bool) -> None:
    """More seeded 27-card hands, both settings of ``natural_straight_flush_is_straight``: leads sound
    and complete size by size, follows exactly the reference leads that beat the previous play."""
    rng = random.Random(1000 * seed + wilds)
    level = rng.choice(NATURAL_RANKS)
    hand = random_hand(rng, level, wilds)
    reference = check_full_hand(hand, level, loose)
    if not loose:
        other = full_hand_reference(random_hand(rng, level, rng.randint(0, 2)), level)
        check_follows(hand, reference, previous_plays(other, level), level)


@pytest.mark.slow
@pytest.mark.parametrize("wilds", [0, 1, 2])
@pytest.mark.parametrize("seed", range(30))
def test_slow_full_hand_from_narrow_ranks(seed: int, wilds: int) -> None:
    """27-card hands drawn from five adjacent ranks and the jokers (dense in bombs, tubes, plates and
    straight flushes): leads sound and complete size by size."""
    rng = random.Random(7000 + 100 * seed + wilds)
    level = rng.choice(NATURAL_RANKS)
    wild = wild_card(level)
    start = rng.randint(1, 10)
    ranks = {rank_at(position) for position in range(start, start + 5)} | {level}
    pool = [card for card in DECK if card is not wild and (card.rank in ranks or card.is_joker)]
    hand = sort_by_index(rng.sample(pool, 27 - wilds) + [wild] * wilds)
    reference = check_full_hand(hand, level)
    check_follows(hand, reference, previous_plays(reference, level), level)


# === rule-set variants: huopin (docs/rules/huopin.md) and each play parameter alone
# ==========================
#
# The reference's :class:`Variant` restates the play parameters; the engine reads them from
# :class:`RuleSet`. Each variant below pairs the two, and the engine must give exactly the reference's
# readings, leads and follows: with the big joker wild, only the largest readings of cards holding one.

VARIANTS: dict[str, tuple[RuleSet, Variant]] = {
    "huopin": (HUOPIN, HUOPIN_VARIANT),
    "two_high": (RuleSet(name="v", two_high=True), Variant(two_high=True)),
    "no_level_lift": (RuleSet(name="v", level_rank_high=False), Variant(level_high=False)),
    "long_sequences": (
        RuleSet(name="v", straight_lengths=(5, 8), tube_lengths=(2, 5), plate_lengths=(2, 4)),
        Variant(straights=(5, 8), tubes=(2, 5), plates=(2, 4)),
    ),
    "airplanes": (RuleSet(name="v", airplanes=True), Variant(airplanes=True)),
    "big_joker_wild": (RuleSet(name="v", big_joker_wild=True), Variant(big_joker_wild=True)),
    "stars_and_joker_bombs": (
        RuleSet(name="v", bombs_by_stars=True, three_jokers_bomb=True, chain_bomb_lengths=(2, 4)),
        Variant(stars=True, three_jokers=True, chains=(2, 4)),
    ),
}
"""Rule sets and the reference's reading of them: huopin, and single parameters off the competition's."""

HUOPIN_FAST = settings(max_examples=25, deadline=None, derandomize=True, database=None)


def variant_check_play(play: Play, level: Rank, rules: RuleSet, variant: Variant) -> None:
    """One play of the engine on its own under a variant: level, key (with the chained bomb's length),
    print order, ``stands_for`` a valid list of readings (big jokers' first), and the cards as read
    plainly that kind and rank."""
    assert play.rank is not None, play
    assert play.level == level, play.describe()
    assert play.cards == sort_by_index(play.cards), play.describe()
    key = play_key(play.kind, play.rank, len(play.cards), level, rules, play.length)
    assert play.key == key, play.describe()
    assert variant_accepts(play, level, variant), (
        f"{play.describe()}: read as {format_cards(play.read_cards())}, not a plain {play.kind.name} "
        f"{play.rank.letter} at level {level.letter}"
    )


def variant_engine_readings(
    plays: Sequence[Play], level: Rank, rules: RuleSet, variant: Variant
) -> set[Reading]:
    twice = [r for r, n in Counter(reading_of(play) for play in plays).items() if n > 1]
    assert not twice, f"readings offered twice: {show(twice)}"
    for play in plays:
        variant_check_play(play, level, rules, variant)
    return {reading_of(play) for play in plays}


@st.composite
def variant_hands(
    draw: st.DrawFn, hearts: int, bigs: int, max_naturals: int, narrow: bool = True, min_size: int = 1
) -> tuple[Rank, tuple[Card, ...]]:
    """A level and a hand with exactly ``hearts`` ♥ level cards and ``bigs`` big jokers, and up to
    ``max_naturals`` other cards from a few adjacent ranks (or the whole deck), the small jokers
    sometimes among them."""
    level = draw(st.sampled_from(NATURAL_RANKS))
    wild = wild_card(level)
    pool = [card for card in DECK if card is not wild and card is not BIG]
    if narrow:
        start = draw(st.integers(1, 12))
        width = draw(st.integers(2, 5))
        ranks = {rank_at(position) for position in range(start, min(start + width, 15))}
        suits = draw(st.sampled_from([set(Suit), {Suit.SPADES}, {Suit.SPADES, Suit.CLUBS}]))
        small_jokers = draw(st.booleans())
        pool = [
            card
            for card in pool
            if (card.rank in ranks and card.suit in suits) or (small_jokers and card.is_joker)
        ]
    picks = draw(
        st.lists(
            st.integers(0, len(pool) - 1),
            unique=True,
            min_size=max(min_size - hearts - bigs, 0),
            max_size=max_naturals,
        )
    )
    return level, sort_by_index([pool[i] for i in picks] + [wild] * hearts + [BIG] * bigs)


@st.composite
def shaped_cards(draw: st.DrawFn, max_wilds: int = 4) -> tuple[Rank, tuple[Card, ...]]:
    """Cards shaped like one of huopin's longer plays (a straight of 5–9 ranks, 连对, 连三张, an airplane,
    a chained bomb, a bomb, a full house), some replaced by ♥ level cards or big jokers, sometimes one
    card changed, so that near misses occur too."""
    level = draw(st.sampled_from(NATURAL_RANKS))
    wild = wild_card(level)
    naturals = [card for card in DECK if card is not wild and not card.is_joker]

    def of_rank(rank: Rank, count: int) -> list[Card]:
        pool = [card for card in naturals if card.rank == rank]
        count = min(count, len(pool))
        return [
            pool[i]
            for i in draw(
                st.lists(st.integers(0, len(pool) - 1), unique=True, min_size=count, max_size=count)
            )
        ]

    shape = draw(st.sampled_from(["straight", "tube", "plate", "airplane", "chain", "bomb"]))
    cards: list[Card] = []
    if shape == "straight":
        length = draw(st.integers(5, 9))
        low = draw(st.integers(1, 15 - length))
        suit = draw(st.sampled_from([None, *Suit]))
        for position in range(low, low + length):
            rank = rank_at(position)
            card = Card(rank, suit) if suit is not None and Card(rank, suit) is not wild else None
            cards += [card] if card is not None else of_rank(rank, 1)
    elif shape in ("tube", "plate"):
        width = 2 if shape == "tube" else 3
        length = draw(st.integers(2, 4))
        low = draw(st.integers(1, 15 - length))
        for position in range(low, low + length):
            cards += of_rank(rank_at(position), width)
    elif shape == "airplane":
        length = draw(st.integers(2, 3))
        low, wings = draw(st.integers(1, 15 - length)), draw(st.integers(1, 15 - length))
        for position in range(low, low + length):
            cards += of_rank(rank_at(position), 3)
        for position in range(wings, wings + length):
            cards += of_rank(rank_at(position), 2)
    elif shape == "chain":
        width, length = draw(st.integers(4, 5)), 3
        low = draw(st.integers(1, 12))
        for position in range(low, low + length):
            cards += of_rank(rank_at(position), width)
    else:
        cards += of_rank(draw(st.sampled_from(NATURAL_RANKS)), draw(st.integers(3, 7)))
    hearts = draw(st.integers(0, min(2, max_wilds)))
    bigs = draw(st.integers(0, min(2, max_wilds - hearts)))
    replaced = draw(st.permutations(range(len(cards))))[: hearts + bigs]
    kept = [card for i, card in enumerate(cards) if i not in replaced]
    if draw(st.booleans()) and kept:
        kept[draw(st.integers(0, len(kept) - 1))] = draw(st.sampled_from([*naturals, Card(Rank.SMALL_JOKER)]))
    held = kept + [wild] * hearts + [BIG] * bigs
    if max(Counter(held).values()) > 2:
        held = list(dict.fromkeys(held))  # two decks: at most two of a card
    return level, sort_by_index(held)


def test_the_variant_reference_with_competition_parameters_is_the_competition_reference() -> None:
    """The reference's reading of the variants, with every parameter at its competition value, gives the
    competition reference's readings (on hand-picked and seeded card sets)."""
    rng = random.Random(404)
    for rule, text, level, _ in RULE_EXAMPLES:
        held = cards(text)
        assert variant_classify(held, level, COMPETITION_VARIANT) == brute_classify(held, level), rule
    for _ in range(300):
        level = rng.choice(NATURAL_RANKS)
        start = rng.randint(1, 11)
        pool = [card for card in DECK if card.rank in {rank_at(p) for p in range(start, start + 4)}]
        held = sort_by_index(rng.sample(pool, rng.randint(1, 8)) + [wild_card(level)] * rng.randint(0, 2))
        assert variant_classify(held, level, COMPETITION_VARIANT) == brute_classify(held, level), held


@pytest.mark.parametrize("wilds", [0, 1, 2])
@FAST
@given(deal=st.data())
def test_extended_enumerators_with_competition_parameters_are_the_competition_engine(
    wilds: int, deal: st.DataObject
) -> None:
    """The extended enumerators, run on a competition hand view, give exactly the competition leads: the
    parameters they read add to the competition rules and change nothing at their competition values."""
    level, hand = deal.draw(hands(wilds, 14 - wilds, narrow=deal.draw(st.booleans())))
    view = HandView(hand, level)
    extended = [play for enumerate_kind in EXTENDED_ENUMERATORS.values() for play in enumerate_kind(view)]
    assert sorted(extended) == sorted(legal_leads(hand, level))


@pytest.mark.parametrize("name", VARIANTS)
@pytest.mark.parametrize(("hearts", "bigs"), [(0, 0), (1, 1), (2, 2), (0, 2), (2, 0)])
@HUOPIN_FAST
@given(deal=st.data())
def test_variant_classify_matches_reference(name: str, hearts: int, bigs: int, deal: st.DataObject) -> None:
    """``classify`` under each variant gives exactly the reference readings (every wild card tried as
    every card it may stand for; with a big joker wild, only the largest readings)."""
    rules, variant = VARIANTS[name]
    level, held = deal.draw(variant_hands(hearts, bigs, 9 - hearts - bigs, narrow=True))
    fast = variant_engine_readings(classify(held, level, rules), level, rules, variant)
    assert_same(fast, variant_classify(held, level, variant), held, level, f"classify ({name})")


@HUOPIN_FAST
@given(deal=st.data())
def test_huopin_classify_matches_reference_on_long_shapes(deal: st.DataObject) -> None:
    """Long straights, 连对, 连三张, airplanes, chained bombs and bombs, with up to four wild cards (♥
    level cards and big jokers) and near misses: ``classify`` gives exactly the reference readings."""
    level, held = deal.draw(shaped_cards())
    fast = variant_engine_readings(classify(held, level, HUOPIN), level, HUOPIN, HUOPIN_VARIANT)
    assert_same(fast, variant_classify(held, level, HUOPIN_VARIANT), held, level, "classify (huopin)")


@pytest.mark.parametrize("name", VARIANTS)
@pytest.mark.parametrize(("hearts", "bigs"), [(0, 0), (1, 1), (2, 1), (0, 2)])
@settings(max_examples=6, deadline=None, derandomize=True, database=None)
@given(deal=st.data())
def test_variant_legal_leads_match_reference(name: str, hearts: int, bigs: int, deal: st.DataObject) -> None:
    """``legal_leads`` of a small hand under each variant is exactly the reference's readings of its
    sub-multisets."""
    rules, variant = VARIANTS[name]
    level, hand = deal.draw(variant_hands(hearts, bigs, 7 - hearts - bigs, narrow=deal.draw(st.booleans())))
    fast = variant_engine_readings(legal_leads(hand, level, rules), level, rules, variant)
    assert_same(fast, variant_leads(hand, level, variant), hand, level, f"legal_leads ({name})")


def variant_previous(
    deal: st.DataObject, level: Rank, other: tuple[Card, ...], rules: RuleSet, variant: Variant
) -> tuple[Play, VariantReading] | None:
    """A previous play: one of the reference's leads of another hand, as a :class:`Play` and as the
    reference's reading."""
    readings = variant_lead_readings(other, level, variant)
    if not readings:
        return None
    reading = deal.draw(st.sampled_from(sorted(readings, key=lambda r: (reading_order(r[:3]), r[3]))))
    kind, rank, held, length = reading
    key = play_key(kind, rank, len(held), level, rules, length)
    return Play(kind, rank, held, readings[reading], level, key), reading


@pytest.mark.parametrize(("hearts", "bigs"), [(0, 0), (1, 1), (2, 2), (0, 1)])
@HUOPIN_FAST
@given(deal=st.data())
def test_huopin_legal_follows_match_reference(hearts: int, bigs: int, deal: st.DataObject) -> None:
    """``legal_follows`` under huopin is exactly the reference leads that beat the previous play: the
    same kind and number of cards with a higher key, or a bomb higher by stars, cards, rank."""
    level, hand = deal.draw(variant_hands(hearts, bigs, 7 - hearts - bigs))
    other_hearts, other_bigs = deal.draw(st.integers(0, 2)), deal.draw(st.integers(0, 2))
    other = deal.draw(variant_hands(other_hearts, other_bigs, 6 - other_hearts - other_bigs))[1]
    drawn = variant_previous(deal, level, other, HUOPIN, HUOPIN_VARIANT)
    if drawn is None:
        return
    previous, reading = drawn
    fast = variant_engine_readings(
        legal_follows(hand, previous, level, HUOPIN), level, HUOPIN, HUOPIN_VARIANT
    )
    brute = variant_follows(hand, reading, level, HUOPIN_VARIANT)
    assert_same(fast, brute, hand, level, f"legal_follows (huopin) on {previous.describe()}")


@pytest.mark.parametrize(("hearts", "bigs"), [(0, 0), (2, 2)])
@HUOPIN_FAST
@given(deal=st.data())
def test_huopin_play_beats_matches_reference(hearts: int, bigs: int, deal: st.DataObject) -> None:
    """``Play.beats`` on any two huopin plays agrees with the reference's reading of
    docs/rules/huopin.md#bomb-order: comparison (same kind and number of cards, higher top; bombs by stars,
    then fewer cards, then rank)."""
    level, hand = deal.draw(variant_hands(hearts, bigs, 10 - hearts - bigs))
    plays = legal_leads(hand, level, HUOPIN)
    if not plays:
        return
    chosen = deal.draw(st.lists(st.sampled_from(plays), min_size=1, max_size=12))
    for play in chosen:
        for previous in chosen:
            mine = (*reading_of(play), play.length if play.kind is PlayKind.CHAIN_BOMB else 0)
            theirs = (*reading_of(previous), previous.length if previous.kind is PlayKind.CHAIN_BOMB else 0)
            expected = variant_beats(mine, theirs, level, HUOPIN_VARIANT)
            assert play.beats(previous) == expected, (play.describe(), previous.describe())


@pytest.mark.parametrize("seed", range(3))
def test_huopin_full_hands_are_sound_and_every_play_is_a_largest_reading(seed: int) -> None:
    """On seeded 27-card huopin hands holding wild cards of both kinds, every lead is a reading of its
    own cards that the reference keeps (a largest reading where a big joker is among them), keys and
    ``stands_for`` in order; checked on a sample of the (many) leads."""
    rng = random.Random(9000 + seed)
    level = rng.choice(NATURAL_RANKS)
    wild = wild_card(level)
    pool = [card for card in DECK if card is not wild and card is not BIG]
    hand = sort_by_index([*rng.sample(pool, 24), wild, BIG, BIG])
    plays = legal_leads(hand, level, HUOPIN)
    assert len(set(plays)) == len(plays)
    for play in rng.sample(plays, min(300, len(plays))):
        variant_check_play(play, level, HUOPIN, HUOPIN_VARIANT)
        assert reading_of(play) in variant_classify(play.cards, level, HUOPIN_VARIANT), play.describe()


# --- slow: more and larger hands under the variants ----------------------------------------------


@pytest.mark.slow
@pytest.mark.parametrize("name", VARIANTS)
@pytest.mark.parametrize(("hearts", "bigs"), [(0, 0), (1, 0), (0, 1), (1, 1), (2, 1), (1, 2), (2, 2)])
@settings(
    max_examples=40,
    deadline=None,
    derandomize=True,
    database=None,
    suppress_health_check=[HealthCheck.too_slow],
)
@given(deal=st.data())
def test_slow_variant_legal_leads_match_reference(
    name: str, hearts: int, bigs: int, deal: st.DataObject
) -> None:
    """``legal_leads`` of hands of up to 9 cards under each variant, from a few adjacent ranks or the
    whole deck, is exactly the reference's readings of their sub-multisets."""
    rules, variant = VARIANTS[name]
    level, hand = deal.draw(variant_hands(hearts, bigs, 9 - hearts - bigs, narrow=deal.draw(st.booleans())))
    fast = variant_engine_readings(legal_leads(hand, level, rules), level, rules, variant)
    assert_same(fast, variant_leads(hand, level, variant), hand, level, f"legal_leads ({name})")


@pytest.mark.slow
@settings(
    max_examples=1500,
    deadline=None,
    derandomize=True,
    database=None,
    suppress_health_check=[HealthCheck.too_slow],
)
@given(deal=st.data())
def test_slow_huopin_classify_matches_reference_on_long_shapes(deal: st.DataObject) -> None:
    """More long shapes with wild cards of both kinds under huopin."""
    level, held = deal.draw(shaped_cards())
    fast = variant_engine_readings(classify(held, level, HUOPIN), level, HUOPIN, HUOPIN_VARIANT)
    assert_same(fast, variant_classify(held, level, HUOPIN_VARIANT), held, level, "classify (huopin)")


@pytest.mark.slow
@pytest.mark.parametrize(("hearts", "bigs"), [(0, 0), (1, 1), (2, 2), (0, 2), (2, 0)])
@settings(
    max_examples=150,
    deadline=None,
    derandomize=True,
    database=None,
    suppress_health_check=[HealthCheck.too_slow],
)
@given(deal=st.data())
def test_slow_huopin_legal_follows_match_reference(hearts: int, bigs: int, deal: st.DataObject) -> None:
    """More follows under huopin, hands of up to 8 cards."""
    level, hand = deal.draw(variant_hands(hearts, bigs, 8 - hearts - bigs, narrow=deal.draw(st.booleans())))
    other_hearts, other_bigs = deal.draw(st.integers(0, 2)), deal.draw(st.integers(0, 2))
    other = deal.draw(variant_hands(other_hearts, other_bigs, 7 - other_hearts - other_bigs))[1]
    drawn = variant_previous(deal, level, other, HUOPIN, HUOPIN_VARIANT)
    if drawn is None:
        return
    previous, reading = drawn
    fast = variant_engine_readings(
        legal_follows(hand, previous, level, HUOPIN), level, HUOPIN, HUOPIN_VARIANT
    )
    brute = variant_follows(hand, reading, level, HUOPIN_VARIANT)
    assert_same(fast, brute, hand, level, f"legal_follows (huopin) on {previous.describe()}")
