"""The trick core (:mod:`cardroom.shengji`) against the brute-force reference of
:mod:`tests.shengji.brute_force`, written from docs/rules/shengji.md alone.

Cases are drawn by Hypothesis from a *focused* pool of cards per deal — the jokers, the level cards of
every suit, and the ranks near the level rank and the ace in the trump suit and one plain suit, two copies
each — so that pairs, tractors across the level gap and the trump adjacency chain come up often. Checked:

* the order: both read each card into the same effective suit, and the same order between any two cards;
* the reading of a lead into units (same units, same shape);
* the follow duties: ``legal_follows`` yields each legal follow once, exactly the reference's set, and
  ``can_follow`` agrees with it on every follow of the lead's size (and with the literal sentence of
  docs/rules/shengji.md#follow-structure for one-unit leads);
* throws: legality, the failing units and the forced unit;
* the winner of a trick with follows of the led suit, of trump (ruffs, over-ruffs) and mixed.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cardroom.cards import ALL_CARDS, BIG_JOKER, SMALL_JOKER, Card, Rank, Suit, format_cards
from cardroom.shengji import (
    TrickRules,
    Unit,
    can_follow,
    check_throw,
    legal_follows,
    read_lead,
    trick_winner,
)
from tests.shengji import brute_force as bf

FAST = settings(max_examples=50, deadline=None, derandomize=True, database=None)
SLOW = settings(
    max_examples=600,
    deadline=None,
    derandomize=True,
    database=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
)

LEVELS = (Rank.TWO, Rank.FIVE, Rank.TEN, Rank.KING, Rank.ACE)


@dataclass(frozen=True)
class Case:
    deal: bf.Deal
    plays: tuple[tuple[Card, ...], ...]

    @property
    def rules(self) -> TrickRules:
        return TrickRules(self.deal.level, self.deal.trump, self.deal.gap_adjacent)

    def __repr__(self) -> str:
        shown = " / ".join(format_cards(cards) for cards in self.plays)
        trump = self.deal.trump.letter if self.deal.trump is not None else "none"
        return f"Case(level={self.deal.level.letter}, trump={trump}, gap={self.deal.gap_adjacent}: {shown})"


def focus(deal: bf.Deal) -> tuple[Card, ...]:
    """The jokers, the level cards, and ranks near the level rank and near the ace in the trump suit (♠
    under no trump) and one plain suit."""
    level = deal.level
    near = {rank for rank in Rank if not rank.is_joker and abs(rank - level) <= 2 and rank != level}
    near |= {Rank.ACE, Rank.KING, Rank.TWO} - {level}
    suits = [deal.trump or Suit.SPADES, Suit.DIAMONDS if deal.trump != Suit.DIAMONDS else Suit.CLUBS]
    cards = {SMALL_JOKER, BIG_JOKER} | {Card(level, suit) for suit in Suit}
    cards |= {Card(rank, suit) for rank in near for suit in suits}
    return tuple(sorted(cards, key=lambda card: card.index))


@st.composite
def deals(draw: st.DrawFn) -> bf.Deal:
    level = draw(st.sampled_from(LEVELS))
    trump = draw(st.sampled_from([Suit.SPADES, Suit.HEARTS, None]))
    return bf.Deal(level, trump, draw(st.booleans()))


@st.composite
def cards_from(
    draw: st.DrawFn, pool: Sequence[Card], left: Counter[Card], size: int, pairs: bool = False
) -> tuple[Card, ...]:
    """``size`` cards from the pool, at most ``left[card]`` of each (``left`` is updated); with
    ``pairs``, both copies of a card where both are left."""
    chosen: list[Card] = []
    while len(chosen) < size:
        available = [card for card in pool if left[card] > 0]
        if not available:
            break
        card = draw(st.sampled_from(available))
        take = min(left[card], 2 if pairs else 1, size - len(chosen))
        left[card] -= take
        chosen += [card] * take
    return bf.sort_by_index(chosen)


@st.composite
def one_suit_lead(
    draw: st.DrawFn, deal: bf.Deal, left: Counter[Card], most: int = 6, pairs: bool = False
) -> tuple[Card, ...]:
    """A lead of one effective suit; with ``pairs``, drawn a pair at a time (pairs and tractors)."""
    pool = focus(deal)
    suit = draw(st.sampled_from(sorted({bf.suit_of(card, deal) for card in pool})))
    suited = [card for card in pool if bf.suit_of(card, deal) == suit]
    size = draw(st.integers(1, most))
    # Pairs come more often when a card is drawn twice in a row.
    lead: list[Card] = []
    while len(lead) < size:
        available = [card for card in suited if left[card] > 0]
        if not available:
            break
        card = draw(st.sampled_from(available))
        take = min(left[card], 2 if pairs else draw(st.integers(1, 2)), size - len(lead))
        left[card] -= take
        lead += [card] * take
    return bf.sort_by_index(lead)


@st.composite
def follow_cases(draw: st.DrawFn, hand_sizes: tuple[int, int] = (1, 10), pairs: bool = False) -> Case:
    """A lead (one suit, 1–6 cards) and a follower's hand at least as long."""
    deal = draw(deals())
    left = Counter(dict.fromkeys(focus(deal), 2))
    lead = draw(one_suit_lead(deal, left, pairs=pairs))
    size = draw(st.integers(max(len(lead), hand_sizes[0]), max(len(lead), hand_sizes[1])))
    hand = draw(cards_from(focus(deal), left, size, pairs))
    if len(hand) < len(lead):
        hand = bf.sort_by_index([*hand, *_filler(len(lead) - len(hand), deal)])
    return Case(deal, (lead, hand))


@st.composite
def tractor_follow_cases(draw: st.DrawFn) -> Case:
    """A lead of two or three pairs on neighbouring rungs of one suit (mostly a tractor) and a hand of
    several pairs of that suit and a few other cards: where the tractor duty binds."""
    deal = draw(deals())
    pool = focus(deal)
    suit = draw(st.sampled_from(sorted({bf.suit_of(card, deal) for card in pool})))
    suited = sorted(
        (card for card in pool if bf.suit_of(card, deal) == suit), key=lambda card: bf.height(card, deal)
    )
    length = draw(st.integers(2, 3))
    start = draw(st.integers(0, max(0, len(suited) - length)))
    lead = bf.sort_by_index([card for card in suited[start : start + length] for _ in range(2)])
    left = Counter(dict.fromkeys(pool, 2))
    left.subtract(lead)
    hand = [*draw(cards_from(suited, left, draw(st.integers(4, 8)), pairs=True))]
    hand += draw(cards_from(pool, left, draw(st.integers(0, 3))))
    if len(hand) < len(lead):
        hand += _filler(len(lead) - len(hand), deal)
    return Case(deal, (lead, bf.sort_by_index(hand)))


def _filler(count: int, deal: bf.Deal) -> list[Card]:
    """Cards outside the focused pool (a plain suit's low ranks), to make a hand long enough."""
    pool = [card for card in ALL_CARDS if card not in focus(deal) and not card.is_joker]
    return pool[:count]


@st.composite
def trick_cases(draw: st.DrawFn) -> Case:
    """A lead and three follows of its size, each drawn from the led suit, from trump, or from anything."""
    deal = draw(deals())
    pool = focus(deal)
    left = Counter(dict.fromkeys(pool, 2))
    lead = draw(one_suit_lead(deal, left, most=5))
    suit = bf.suit_of(lead[0], deal)
    plays = [lead]
    for _ in range(3):
        source = draw(st.sampled_from(["suit", "trump", "any"]))
        wanted = {"suit": suit, "trump": bf.TRUMP, "any": None}[source]
        sub_pool = [card for card in pool if wanted is None or bf.suit_of(card, deal) == wanted]
        follow = list(draw(cards_from(sub_pool, left, len(lead))))
        if len(follow) < len(lead):
            follow += _filler(len(lead) - len(follow), deal)
        plays.append(bf.sort_by_index(follow))
    return Case(deal, tuple(plays))


@st.composite
def throw_cases(draw: st.DrawFn) -> Case:
    """A lead of 2–6 cards of one suit and the three other hands (3–8 cards each)."""
    deal = draw(deals())
    pool = focus(deal)
    left = Counter(dict.fromkeys(pool, 2))
    lead = draw(one_suit_lead(deal, left))
    others = [draw(cards_from(pool, left, draw(st.integers(0, 8)))) for _ in range(3)]
    return Case(deal, (lead, *others))


# --- the checks ---------------------------------------------------------------------------------------


def as_set(follows: list[tuple[Card, ...]]) -> set[tuple[Card, ...]]:
    found = [bf.sort_by_index(cards) for cards in follows]
    assert len(found) == len(set(found)), "legal_follows repeats a follow"
    return set(found)


def check_order(deal: bf.Deal) -> None:
    rules = TrickRules(deal.level, deal.trump, deal.gap_adjacent)
    for card in ALL_CARDS:
        expected = bf.suit_of(card, deal)
        name = rules.suit_of(card).name
        assert (name == "TRUMP") == (expected == bf.TRUMP), card
        if expected != bf.TRUMP:
            assert name == expected, card
    for first in ALL_CARDS:
        for second in ALL_CARDS:
            if bf.suit_of(first, deal) == bf.suit_of(second, deal):
                expected_cmp = bf.height(first, deal) - bf.height(second, deal)
                actual_cmp = rules.order_of(first) - rules.order_of(second)
                assert (expected_cmp > 0) == (actual_cmp > 0), (first, second)
                assert (expected_cmp == 0) == (actual_cmp == 0), (first, second)


def check_lead(case: Case) -> None:
    lead_cards = case.plays[0]
    lead = read_lead(lead_cards, case.rules)
    expected = bf.read(lead_cards, case.deal)
    assert (lead.shape.tractors, lead.shape.pairs, lead.shape.singles) == bf.shape(expected)

    # Off-suit level cards are of equal order, so which of them goes into a tractor is immaterial:
    # units are compared by the heights of their cards.
    def heights(cards: Sequence[Card]) -> tuple[int, ...]:
        return tuple(sorted(bf.height(card, case.deal) for card in cards))

    assert Counter(heights(unit.cards) for unit in lead.units) == Counter(
        heights(unit.cards) for unit in expected
    )


def check_follows(case: Case) -> None:
    lead_cards, hand = case.plays
    rules = case.rules
    lead = read_lead(lead_cards, rules)
    expected = bf.legal_follows(hand, lead_cards, case.deal)
    assert as_set(list(legal_follows(hand, lead, rules))) == expected
    one_unit = len(lead.units) == 1
    for cards in bf.sub_multisets(hand, len(lead_cards)):
        assert can_follow(hand, lead, cards, rules) == (cards in expected), format_cards(cards)
        if one_unit:
            assert bf.literal_follow_ok(hand, lead_cards, cards, case.deal) == (cards in expected)


def check_throw_case(case: Case) -> None:
    lead_cards, *others = case.plays
    rules = case.rules
    lead = read_lead(lead_cards, rules)
    result = check_throw(lead, others, rules, penalty=10)
    legal, failed, played = bf.check_throw(lead_cards, others, case.deal)
    assert result.legal == legal
    assert {bf.sort_by_index(unit.cards) for unit in result.failed} == failed
    assert bf.sort_by_index(result.played.cards) == played
    assert result.penalty == (0 if legal else 10)
    beaten = {
        i
        for i, hand in enumerate(others)
        for unit in result.failed
        if bf.beats(hand, _bunit(unit, case), case.deal)
    }
    assert set(result.beaten_by) == beaten


def _bunit(unit: Unit, case: Case) -> bf.BUnit:
    cards = bf.sort_by_index(unit.cards)
    found = bf.as_unit(cards, case.deal)
    assert found is not None
    return found


def check_winner(case: Case) -> None:
    lead_cards, *follows = case.plays
    lead = read_lead(lead_cards, case.rules)
    assert trick_winner(lead, follows, case.rules) == bf.winner(lead_cards, follows, case.deal)


# --- the tests ----------------------------------------------------------------------------------------


@pytest.mark.parametrize("level", [Rank.TWO, Rank.SEVEN, Rank.ACE])
@pytest.mark.parametrize("trump", [Suit.HEARTS, None])
@pytest.mark.parametrize("gap_adjacent", [True, False])
def test_order_matches_reference(level: Rank, trump: Suit | None, gap_adjacent: bool) -> None:
    """Effective suit and order of every card as docs/rules/shengji.md#trump-order and #no-trump list them, at
    several levels, with no trump."""
    check_order(bf.Deal(level, trump, gap_adjacent))


@FAST
@given(follow_cases())
def test_lead_reading_matches_reference(case: Case) -> None:
    check_lead(case)


@FAST
@given(follow_cases())
def test_follows_match_reference(case: Case) -> None:
    check_follows(case)


@FAST
@given(follow_cases(hand_sizes=(6, 10), pairs=True))
def test_follows_to_pairs_match_reference(case: Case) -> None:
    check_follows(case)


@FAST
@given(tractor_follow_cases())
def test_follows_to_tractors_match_reference(case: Case) -> None:
    check_lead(case)
    check_follows(case)


@FAST
@given(throw_cases())
def test_throws_match_reference(case: Case) -> None:
    check_throw_case(case)


@FAST
@given(trick_cases())
def test_winner_matches_reference(case: Case) -> None:
    check_winner(case)


@pytest.mark.slow
@SLOW
@given(follow_cases(hand_sizes=(6, 12)))
def test_follows_match_reference_many(case: Case) -> None:
    check_lead(case)
    check_follows(case)


@pytest.mark.slow
@SLOW
@given(follow_cases(hand_sizes=(6, 12), pairs=True))
def test_follows_to_pairs_match_reference_many(case: Case) -> None:
    check_lead(case)
    check_follows(case)


@pytest.mark.slow
@SLOW
@given(tractor_follow_cases())
def test_follows_to_tractors_match_reference_many(case: Case) -> None:
    check_lead(case)
    check_follows(case)


@pytest.mark.slow
@SLOW
@given(throw_cases())
def test_throws_match_reference_many(case: Case) -> None:
    check_throw_case(case)


@pytest.mark.slow
@SLOW
@given(trick_cases())
def test_winner_matches_reference_many(case: Case) -> None:
    check_winner(case)


@pytest.mark.slow
@pytest.mark.parametrize("level", [rank for rank in Rank if not rank.is_joker])
@pytest.mark.parametrize("trump", [*Suit, None])
@pytest.mark.parametrize("gap_adjacent", [True, False])
def test_order_matches_reference_every_level(level: Rank, trump: Suit | None, gap_adjacent: bool) -> None:
    check_order(bf.Deal(level, trump, gap_adjacent))
