"""The competition simulator's order of the cards in a triple and of actionList's entries
(docs/competition-protocol.md, "The order of cards and of actionList"): pinned on hand-written
situations, and checked on seeded random hands against a slow reference that builds the list as the
simulator's generator does, kind by kind and rank by rank."""

from __future__ import annotations

import itertools
import random
from collections.abc import Iterator, Sequence
from typing import TypeVar

import pytest

from cardroom.cards import Card, Rank, Suit, full_deck, parse_cards
from cardroom.competition.messages import action_triple, play_of_triple, wire_triple
from cardroom.competition.order import order_actions, rank_combinations, wire_cards
from cardroom.guandan import Play, PlayKind, classify
from cardroom.guandan.deal import Action, Phase, PlayAction, ReturnAction
from cardroom.guandan.moves import legal_plays
from cardroom.guandan.observation import Observation
from cardroom.guandan.plays import rank_order

TWO, FIVE = Rank.TWO, Rank.FIVE
T = TypeVar("T")


def play(text: str, level: Rank = TWO, kind: PlayKind | None = None, wild_as: str | None = None) -> Play:
    found = [
        p
        for p in classify(parse_cards(text), level)
        if (kind is None or p.kind is kind)
        and (wild_as is None or " ".join(str(card) for card in p.stands_for) == wild_as)
    ]
    assert len(found) == 1, found
    return found[0]


def cards(played: Play) -> list[str]:
    return [str(card) for card in wire_cards(played)]


def observation(
    hand: str, legal: Sequence[Action], level: Rank = TWO, previous: Play | None = None
) -> Observation:
    return Observation(
        seat=1,
        hand=parse_cards(hand),
        level=level,
        levels=(level, level),
        level_team=None,
        deal_number=1,
        phase=Phase.PLAY,
        current_player=1,
        card_counts=(27, 27, 27, 27),
        finished=(),
        previous=previous,
        previous_seat=0 if previous is not None else None,
        history=(),
        legal_actions=tuple(legal),
    )


def ordered(hand: str, level: Rank = TWO, previous: Play | None = None) -> list[list[object]]:
    """The actionList of a seat holding ``hand``, shuffled first so that only the order's key counts."""
    legal: list[Action] = [PlayAction(1, p) for p in legal_plays(parse_cards(hand), previous, level)]
    random.Random(len(legal)).shuffle(legal)
    return [action_triple(action) for action in order_actions(observation(hand, legal, level, previous))]


# --- the cards inside a triple ----------------------------------------------------------------------------


def test_cards_of_one_rank_go_in_suit_order_with_the_wild_card_last() -> None:
    assert cards(play("C3 H2")) == ["C3", "H2"]
    assert cards(play("D7 S7 H2 C7 H2", kind=PlayKind.BOMB)) == ["S7", "C7", "D7", "H2", "H2"]
    assert cards(play("HK SK CK DK")) == ["SK", "HK", "CK", "DK"]


def test_level_cards_held_go_by_their_suit_even_the_heart() -> None:
    """The ♥ level card read as the level rank is one of that rank's cards: pairs of 2s at level 2."""
    assert cards(play("C2 H2")) == ["H2", "C2"]
    assert cards(play("H2 H2")) == ["H2", "H2"]
    assert cards(play("D5 H5 S5", FIVE)) == ["S5", "H5", "D5"]


def test_a_full_house_puts_its_triple_before_its_pair() -> None:
    """The issue's example: ``['ThreeWithTwo','K',['HT','CT','HK','CK','CK']]`` becomes triple first."""
    assert wire_triple(play("HT CT HK CK CK")) == ["ThreeWithTwo", "K", ["HK", "CK", "CK", "HT", "CT"]]
    assert cards(play("S3 H3 D3 C7 D7")) == ["S3", "H3", "D3", "C7", "D7"]
    assert cards(play("HR HR S4 C4 D4")) == ["S4", "C4", "D4", "HR", "HR"]
    assert cards(play("H2 H2 S3 C3 S5", wild_as="H3 H5")) == ["S3", "C3", "H2", "S5", "H2"]
    assert cards(play("H2 H2 S3 C3 S5", wild_as="H5 H5")) == ["S5", "H2", "H2", "S3", "C3"]


def test_sequences_go_from_their_lowest_rank_up() -> None:
    """A2345 starts with its ace, 10JQKA ends with it; a wild card stands at the rank it is read as."""
    assert wire_triple(play("SA S2 C3 H4 D5")) == ["Straight", "A", ["SA", "S2", "C3", "H4", "D5"]]
    assert cards(play("SA ST CJ HQ DK")) == ["ST", "CJ", "HQ", "DK", "SA"]
    assert cards(play("S6 H2 C8 H9 DT", wild_as="H7")) == ["S6", "H2", "C8", "H9", "DT"]


def test_pairs_and_triples_in_sequence_go_rank_by_rank() -> None:
    assert cards(play("C4 S4 H3 D3 S5 H2")) == ["H3", "D3", "S4", "C4", "S5", "H2"]
    assert cards(play("SA HA CA S2 C2 D2", FIVE)) == ["SA", "HA", "CA", "S2", "C2", "D2"]
    assert cards(play("SK HK DK SA HA CA")) == ["SK", "HK", "DK", "SA", "HA", "CA"]


def test_straight_flushes_bombs_and_four_jokers() -> None:
    assert wire_triple(play("S9 S7 S8 ST S6")) == ["StraightFlush", "6", ["S6", "S7", "S8", "S9", "ST"]]
    assert cards(play("C9 C7 H2 CT C6", wild_as="C8")) == ["C6", "C7", "H2", "C9", "CT"]
    assert wire_triple(play("HR SB HR SB")) == ["Bomb", "JOKER", ["SB", "SB", "HR", "HR"]]
    assert cards(play("S9 C9 D9 H9 S9 C9")) == ["S9", "S9", "H9", "C9", "C9", "D9"]


def test_a_triple_read_back_is_the_same_play() -> None:
    for text in ("HT CT HK CK CK", "SA S2 C3 H4 D5", "C9 C7 H2 CT C6", "C4 S4 H3 D3 S5 H2"):
        original = classify(parse_cards(text), TWO)[0]
        assert play_of_triple(wire_triple(original), TWO) == original


# --- the order of actionList ------------------------------------------------------------------------------


def test_rank_combinations_keep_all_but_the_last_card_from_the_front() -> None:
    """The simulator's walk over one rank's cards: the last card runs from the end of the pool down, the
    others from the front; copies of the same card are met once."""
    spades, hearts, clubs, wild = int(Suit.SPADES), int(Suit.HEARTS), int(Suit.CLUBS), 4
    assert list(rank_combinations((spades, hearts, clubs), 2)) == [
        (spades, clubs),
        (spades, hearts),
        (hearts, clubs),
    ]
    assert list(rank_combinations((spades, spades, hearts), 2)) == [(spades, hearts), (spades, spades)]
    assert list(rank_combinations((spades, clubs, wild, wild), 3)) == [
        (spades, clubs, wild),
        (spades, wild, wild),
        (clubs, wild, wild),
    ]


def test_a_lead_lists_kind_by_kind_and_each_rank_as_the_simulator_walks_it() -> None:
    assert ordered("S3 C3 D5 H2 SB") == [
        ["Single", "3", ["S3"]],
        ["Single", "3", ["C3"]],
        ["Single", "5", ["D5"]],
        ["Single", "2", ["H2"]],
        ["Single", "B", ["SB"]],
        ["Pair", "3", ["S3", "H2"]],
        ["Pair", "3", ["S3", "C3"]],
        ["Pair", "3", ["C3", "H2"]],
        ["Pair", "5", ["D5", "H2"]],
        ["Trips", "3", ["S3", "C3", "H2"]],
    ]


def test_a_lead_lists_straight_flushes_before_the_bombs_and_four_jokers_after_the_4_card_bombs() -> None:
    hand = "S6 S7 S8 S9 ST C3 D3 H3 S3 HQ HQ CQ DQ DQ SB SB HR HR"
    bombs = [entry[:2] for entry in ordered(hand) if entry[0] in ("Bomb", "StraightFlush")]
    assert bombs == [
        ["StraightFlush", "6"],
        ["Bomb", "3"],
        ["Bomb", "Q"],
        ["Bomb", "Q"],
        ["Bomb", "Q"],
        ["Bomb", "JOKER"],
        ["Bomb", "Q"],
    ]


def test_a_follow_lists_pass_then_its_kind_then_bombs_then_straight_flushes() -> None:
    hand = "S6 S7 S8 S9 ST C3 D3 H3 S3 SQ SB SB HR HR"
    assert [entry[:2] for entry in ordered(hand, previous=play("DJ"))] == [
        ["PASS", "PASS"],
        ["Single", "Q"],
        ["Single", "B"],
        ["Single", "R"],
        ["Bomb", "3"],
        ["Bomb", "JOKER"],
        ["StraightFlush", "6"],
    ]


def test_on_a_straight_flush_the_higher_ones_come_before_the_bombs() -> None:
    hand = "H7 H8 H9 HT HJ S3 C3 D3 H3 D3 C3 SB SB HR HR"
    assert [entry[:2] for entry in ordered(hand, previous=play("S6 S7 S8 S9 ST"))] == [
        ["PASS", "PASS"],
        ["StraightFlush", "7"],
        ["Bomb", "JOKER"],
        ["Bomb", "3"],
    ]


def test_on_a_bomb_bigger_bombs_come_before_straight_flushes() -> None:
    hand = "H7 H8 H9 HT HJ S5 C5 D5 H5 SA CA DA HA DA"
    assert [entry[:2] for entry in ordered(hand, previous=play("S4 C4 D4 H4"))] == [
        ["PASS", "PASS"],
        ["Bomb", "5"],
        ["Bomb", "A"],
        ["Bomb", "A"],
        ["Bomb", "A"],
        ["Bomb", "A"],
        ["Bomb", "A"],
        ["StraightFlush", "7"],
    ]


def test_tribute_and_return_lists_go_lowest_first() -> None:
    returns = [ReturnAction(0, Card.parse(name)) for name in ("ST", "H2", "C3", "S3", "H5")]
    listed = order_actions(observation("ST H2 C3 S3 H5", returns, FIVE))
    assert [action_triple(a)[2][0] for a in listed] == ["H2", "S3", "C3", "ST", "H5"]


# --- against a reference built as the simulator builds its list ---------------------------------------------

Entry = tuple[str, str, tuple[str, ...]]
PASS_ENTRY: Entry = ("PASS", "PASS", ("PASS",))


def entry_of(triple: Sequence[object]) -> Entry:
    """A wire triple as a hashable entry (a pass's cards read as ``("PASS",)``)."""
    kind, rank, held = triple
    assert isinstance(kind, str)
    assert isinstance(rank, str)
    if isinstance(held, str):
        return kind, rank, (held,)
    assert isinstance(held, list)
    return kind, rank, tuple(str(card) for card in held)


def same_cards(entry: Entry) -> Entry:
    return entry[0], entry[1], tuple(sorted(entry[2]))


def simulator_list(hand: Sequence[Card], level: Rank, previous: Play | None) -> list[Entry]:
    """actionList as the simulator's generator walks it, kind by kind and rank by rank, kept to the
    legal entries. The rules are ours where its generator's differ: a wild card joins every rank but the
    level rank and the jokers also when following, and a straight flush may hold a wild card in any
    suit."""
    wild = f"H{level.letter}"
    wilds = sum(1 for card in hand if str(card) == wild)
    held = sorted(hand, key=lambda card: (rank_order(card.rank, level), int(card.suit or 0)))
    by_rank: dict[Rank, list[str]] = {}
    for card in held:
        by_rank.setdefault(card.rank, []).append(str(card))

    def fits(chosen: Sequence[str]) -> bool:
        return list(chosen).count(wild) <= wilds

    def same(size: int) -> list[Entry]:
        name = {2: "Pair", 3: "Trips"}.get(size, "Bomb")
        found: list[Entry] = []
        for rank, cards_held in by_rank.items():
            joinable = 0 if rank == level or rank.is_joker else min(wilds, 1 if size == 2 else 2)
            pool = [*cards_held, *[wild] * joinable]
            found += [(name, rank.letter, chosen) for chosen in cursor(pool, size)]
        jokers = (Rank.SMALL_JOKER, Rank.BIG_JOKER)
        if size == 4 and all(len(by_rank.get(joker, [])) == 2 for joker in jokers):
            found.append(("Bomb", "JOKER", ("SB", "SB", "HR", "HR")))
        return found

    def ranks_from(start: int, width: int) -> list[Rank]:
        return [Rank.ACE if position == 1 else Rank(position) for position in range(start, start + width)]

    def windows(name: str, width: int, size: int) -> list[Entry]:
        pieces = same(size)
        found: list[Entry] = []
        for start in range(1, 16 - width):
            ranks = ranks_from(start, width)
            choices = [[piece[2] for piece in pieces if piece[1] == rank.letter] for rank in ranks]
            for combined in itertools.product(*choices):
                chosen = tuple(card for piece in combined for card in piece)
                if fits(chosen):
                    found.append((name, ranks[0].letter, chosen))
        return found

    def straights(flush: bool) -> list[Entry]:
        found: list[Entry] = []
        for start in range(1, 11):
            ranks = ranks_from(start, 5)
            columns = []
            for rank in ranks:
                column = list(dict.fromkeys(by_rank.get(rank, [])))
                if wilds and rank != level:
                    column.append(wild)
                columns.append(column)
            for chosen in itertools.product(*columns):
                suits = {name[0] for name in chosen if name != wild}
                if fits(chosen) and (not flush or len(suits) <= 1):
                    found.append(("StraightFlush" if flush else "Straight", ranks[0].letter, chosen))
        return found

    full_houses = [
        ("ThreeWithTwo", three[1], three[2] + two[2])
        for three in same(3)
        for two in same(2)
        if two[1] != three[1] and fits(three[2] + two[2])
    ]
    bombs = [*same(4), *itertools.chain.from_iterable(same(size) for size in range(5, 11))]
    flushes = straights(flush=True)
    plain: dict[str, list[Entry]] = {
        "Single": [("Single", name[1], (name,)) for name in dict.fromkeys(str(card) for card in held)],
        "Pair": same(2),
        "Trips": same(3),
        "ThreePair": windows("ThreePair", 3, 2),
        "ThreeWithTwo": full_houses,
        "TwoTrips": windows("TwoTrips", 2, 3),
        "Straight": straights(flush=False),
    }
    if previous is None:
        walk = [*itertools.chain.from_iterable(plain.values()), *flushes, *bombs]
    elif previous.kind is PlayKind.STRAIGHT_FLUSH:
        walk = [PASS_ENTRY, *flushes, *bombs]
    elif previous.kind.is_bomb:
        walk = [PASS_ENTRY, *bombs, *flushes]
    else:
        walk = [PASS_ENTRY, *plain[str(wire_triple(previous)[0])], *bombs, *flushes]
    legal = {same_cards(entry_of(wire_triple(p))) for p in legal_plays(hand, previous, level)}
    if previous is not None:
        legal.add(PASS_ENTRY)
    kept: list[Entry] = []
    for entry in walk:
        if same_cards(entry) in legal and entry not in kept:
            kept.append(entry)
    return kept


def cursor(pool: Sequence[T], size: int) -> Iterator[tuple[T, ...]]:
    """The simulator's walk over ``size`` of one rank's cards, step by step: every pointer but the last
    at the front of the pool, the last at its end. The last steps down (two steps where the card below
    is a copy of its own); when it reaches the pointer before it, it goes back to the end and that
    pointer steps on (once more onto a card that is not a copy of the one it left), carrying to the
    pointer before it when it runs into the next; the pointers after it follow it closely."""
    last = size - 1
    if len(pool) < size or last == 0:
        return
    pointers = [*range(last), len(pool) - 1]
    while pointers[0] <= len(pool) - size:
        yield tuple(pool[index] for index in pointers)
        pointers[last] -= 2 if pool[pointers[last] - 1] == pool[pointers[last]] else 1
        if pointers[last] > pointers[last - 1]:
            continue
        pointers[last] = len(pool) - 1
        index = last - 1
        while True:
            pointers[index] += 1
            if pointers[index] != pointers[index + 1] and pool[pointers[index]] == pool[pointers[index] - 1]:
                pointers[index] += 1
            if pointers[index] == pointers[index + 1]:
                pointers[index] -= 1
                if index == 0:
                    return
                index -= 1
                continue
            for later in range(index + 1, last):
                pointers[later] = pointers[later - 1] + 1
            break


def random_situations(count: int, seed: int) -> Iterator[tuple[list[Card], Rank, Play | None]]:
    """Seeded hands of 8 to 27 cards at a random level, a third with one or two extra wild cards, 60%
    following a random play."""
    rng = random.Random(seed)
    deck = list(full_deck())
    for _ in range(count):
        level = rng.choice([rank for rank in Rank if not rank.is_joker])
        hand = rng.sample(deck, rng.choice((8, 12, 18, 27)))
        wild = Card(level, Suit.HEARTS)
        if rng.random() < 0.3:
            hand += [wild] * (rng.choice((1, 2)) - hand.count(wild))
        previous = None
        if rng.random() < 0.6:
            previous = rng.choice(list(legal_plays(rng.sample(deck, 27), None, level)))
        yield hand, level, previous


def test_the_reference_walk_meets_each_choice_of_a_rank_once() -> None:
    """The reference's step-by-step walk and :func:`rank_combinations` agree on every pool a rank can
    hold: up to two copies of each suit and up to two wild cards."""
    for copies in itertools.product(range(3), repeat=4):
        for wild_cards in range(3):
            pool = tuple(suit for suit in range(4) for _ in range(copies[suit])) + (4,) * wild_cards
            for size in range(2, min(len(pool), 10) + 1):
                walked = list(cursor(pool, size))
                assert list(dict.fromkeys(walked)) == list(rank_combinations(pool, size)), (pool, size)


@pytest.mark.parametrize("seed", range(4))
def test_action_lists_follow_the_simulator_s_walk(seed: int) -> None:
    """Every entry the simulator's walk meets is in our list, in its order and with its cards in its
    order; the only entries it does not meet are those with a pair of two wild cards (in a 三连对 or
    the pair of a 三带二): its walk joins one wild card at most to a pair's rank."""
    for hand, level, previous in random_situations(60, seed):
        text = " ".join(str(card) for card in hand)
        ours = [entry_of(triple) for triple in ordered(text, level, previous)]
        reference = simulator_list(hand, level, previous)
        met = {same_cards(entry) for entry in reference}
        assert [entry for entry in ours if same_cards(entry) in met] == reference, (text, level, previous)
        for entry in ours:
            if same_cards(entry) not in met:
                assert entry[0] in ("ThreePair", "ThreeWithTwo"), (entry, text, level)
                assert entry[2].count(f"H{level.letter}") == 2, (entry, text, level)
