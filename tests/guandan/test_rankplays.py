"""The rank-level view: plays by kind and ranks with the wild cards they need, for bots and search."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from cardroom.cards import BIG_JOKER, Card, Rank, Suit, full_deck, parse_cards
from cardroom.guandan import HUOPIN, PlayKind, legal_follows, legal_leads
from cardroom.guandan.plays import rank_at_position
from cardroom.guandan.rankplays import RankPlay, rank_follows, rank_leads, rank_play_of


def random_hands(count: int, seed: int) -> list[tuple[Rank, tuple[Card, ...]]]:
    rng = random.Random(seed)
    return [
        (Rank(rng.randint(2, 14)), tuple(rng.sample(full_deck(), rng.choice([6, 10, 16, 27]))))
        for _ in range(count)
    ]


@pytest.mark.parametrize(("level", "hand"), random_hands(60, 3))
def test_rank_view_names_exactly_the_card_level_plays(level: Rank, hand: tuple[Card, ...]) -> None:
    """Every (kind, key rank, size, straight-flush suit) the card level offers appears at the rank level,
    nothing else does, each with the fewest wild cards any card-level play of it uses, and its concrete
    choice is one of the card-level plays."""
    cards = legal_leads(hand, level)
    fewest: dict[tuple[object, ...], int] = {}
    for play in cards:
        name = (play.kind, play.rank, len(play.cards), play.suit)
        fewest[name] = min(fewest.get(name, 99), play.wild_count)
    ranked = rank_leads(hand, level)
    assert {(p.kind, p.rank, p.size, p.suit) for p in ranked} == set(fewest)
    card_set = set(cards)
    for rank_play in ranked:
        if rank_play.kind is not PlayKind.FULL_HOUSE:
            assert rank_play.wilds == fewest[rank_play.kind, rank_play.rank, rank_play.size, rank_play.suit]
        play = rank_play.to_play(hand, level)
        assert play in card_set
        assert play.wild_count == rank_play.wilds
        assert play.key == rank_play.key


def test_rank_leads_have_no_duplicates() -> None:
    for level, hand in random_hands(30, 4):
        ranked = rank_leads(hand, level)
        assert len(ranked) == len(set(ranked))


def test_rank_follows_match_card_follows() -> None:
    """Following at the rank level offers the same (kind, rank, size, suit) as at the card level."""
    rng = random.Random(8)
    for level, hand in random_hands(40, 5):
        other = legal_leads(rng.sample(full_deck(), 27), level)
        previous = rng.choice(other)
        cards = {(p.kind, p.rank, len(p.cards), p.suit) for p in legal_follows(hand, previous, level)}
        ranked = rank_follows(hand, rank_play_of(previous), level)
        assert {(p.kind, p.rank, p.size, p.suit) for p in ranked} == cards


def test_a_plain_straight_from_one_suit_needs_a_wild_card() -> None:
    """Five natural cards of one suit are a straight flush only: the rank view asks a wild card for the plain
    straight, and the concrete choice replaces one natural card by it."""
    hand = parse_cards("S3 S4 S5 S6 S7 H2")
    (straight,) = [
        p for p in rank_leads(hand, Rank.TWO) if p.kind is PlayKind.STRAIGHT and p.rank == Rank.THREE
    ]
    assert straight.wilds == 1
    play = straight.to_play(hand, Rank.TWO)
    assert play.kind is PlayKind.STRAIGHT
    assert Counter(card.suit for card in play.read_cards())[Suit.SPADES] == 4


def test_to_play_refuses_a_hand_that_cannot_make_it() -> None:
    bomb = RankPlay(PlayKind.BOMB, Rank.NINE, 4, 0, 0)
    with pytest.raises(ValueError, match="cannot make"):
        bomb.to_play(parse_cards("S9 C9 D9"), Rank.TWO)


# --- huopin (docs/rules/huopin.md): long sequences, airplanes, chained and joker bombs, the big joker wild
# -------


def huopin_hands(count: int, seed: int) -> list[tuple[Rank, tuple[Card, ...]]]:
    """Seeded hands for the huopin rank view: half from the whole deck, half from a few adjacent ranks
    with the small jokers, each with 0–2 ♥ level cards and 0–2 big jokers (dense in long plays)."""
    rng = random.Random(seed)
    found = []
    for number in range(count):
        level = Rank(rng.randint(2, 14))
        wild = Card(level, Suit.HEARTS)
        pool = [card for card in full_deck() if card is not wild and card is not BIG_JOKER]
        if number % 2:
            start = rng.randint(1, 9)
            ranks = {rank_at_position(position) for position in range(start, start + rng.randint(3, 6))}
            pool = [card for card in pool if card.rank in ranks or card.is_joker]
        size = rng.choice([6, 10, 14, 18])
        hand = (
            rng.sample(pool, min(size, len(pool)))
            + [wild] * rng.randint(0, 2)
            + [BIG_JOKER] * rng.randint(0, 2)
        )
        found.append((level, tuple(hand)))
    return found


@pytest.mark.parametrize(("level", "hand"), huopin_hands(50, 6))
def test_huopin_rank_view_names_exactly_the_card_level_plays(level: Rank, hand: tuple[Card, ...]) -> None:
    """Under huopin too, every (kind, key rank, size, straight-flush suit) the card level offers appears
    at the rank level and nothing else does, each with the fewest wild cards a card-level play of it uses
    (a full house, airplane or chained bomb is named finer: by its pair, wings or shape), and its concrete
    choice is one of the card-level plays — a largest reading wherever it holds a big joker."""
    cards = legal_leads(hand, level, HUOPIN)
    fewest: dict[tuple[object, ...], int] = {}
    for play in cards:
        name = (play.kind, play.rank, len(play.cards), play.suit)
        fewest[name] = min(fewest.get(name, 99), play.wild_count)
    ranked = rank_leads(hand, level, HUOPIN)
    assert {(p.kind, p.rank, p.size, p.suit) for p in ranked} == set(fewest)
    assert len(ranked) == len(set(ranked))
    card_set = set(cards)
    finer = (PlayKind.FULL_HOUSE, PlayKind.AIRPLANE, PlayKind.CHAIN_BOMB)
    for rank_play in ranked:
        if rank_play.kind not in finer:
            assert rank_play.wilds == fewest[rank_play.kind, rank_play.rank, rank_play.size, rank_play.suit]
        play = rank_play.to_play(hand, level, HUOPIN)
        assert play in card_set
        assert play.wild_count == rank_play.wilds
        assert play.key == rank_play.key
        back = rank_play_of(play)
        assert (back.kind, back.rank, back.size, back.key, back.big_jokers) == (
            rank_play.kind,
            rank_play.rank,
            rank_play.size,
            rank_play.key,
            rank_play.big_jokers,
        )


def test_huopin_rank_follows_match_card_follows() -> None:
    """Following at the rank level offers the same (kind, rank, size, suit) as at the card level, under
    huopin."""
    rng = random.Random(9)
    for level, hand in huopin_hands(30, 7):
        other = legal_leads(rng.sample(full_deck(), 14), level, HUOPIN)
        previous = rng.choice(other)
        cards = {(p.kind, p.rank, len(p.cards), p.suit) for p in legal_follows(hand, previous, level, HUOPIN)}
        ranked = rank_follows(hand, rank_play_of(previous), level, HUOPIN)
        assert {(p.kind, p.rank, p.size, p.suit) for p in ranked} == cards


def test_huopin_rank_view_names_the_big_jokers_it_uses() -> None:
    """♥ level cards are used before big jokers; a straight whose natural cards are all of one suit takes
    no big joker (its cards would be a straight flush, the larger reading)."""
    hand = parse_cards("S4 C5 D6 S7 HR H2")
    straights = {p.rank: p for p in rank_leads(hand, Rank.TWO, HUOPIN) if p.kind is PlayKind.STRAIGHT}
    assert (straights[Rank.THREE].wilds, straights[Rank.THREE].big_jokers) == (1, 0)
    suited = parse_cards("S4 S5 S6 S7 HR")
    assert not [p for p in rank_leads(suited, Rank.TWO, HUOPIN) if p.kind is PlayKind.STRAIGHT]


def test_to_play_refuses_a_straight_from_an_empty_hand() -> None:
    straight = RankPlay(PlayKind.STRAIGHT, Rank.THREE, 5, 0, 7)
    with pytest.raises(ValueError, match="cannot make"):
        straight.to_play((), Rank.TWO)
