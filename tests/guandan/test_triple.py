"""The competition action triple [type, rank, cards] (docs/notation.md#triple), both ways."""

from __future__ import annotations

import json
import random

import pytest

from cardroom.cards import Rank, full_deck, parse_cards
from cardroom.guandan import HUOPIN, PASS, Play, PlayKind, classify, legal_leads
from cardroom.guandan.triple import TripleError, from_triple, to_triple


def only(cards: str, level: Rank, kind: PlayKind) -> Play:
    (play,) = [play for play in classify(parse_cards(cards), level) if play.kind is kind]
    return play


@pytest.mark.parametrize(
    ("cards", "level", "kind", "expected"),
    [
        ("HT", Rank.TWO, PlayKind.SINGLE, ["Single", "T", ["HT"]]),
        ("SB SB", Rank.TWO, PlayKind.PAIR, ["Pair", "B", ["SB", "SB"]]),
        ("HR HR", Rank.TWO, PlayKind.PAIR, ["Pair", "R", ["HR", "HR"]]),
        ("S7 C7 D7", Rank.TWO, PlayKind.TRIPLE, ["Trips", "7", ["S7", "C7", "D7"]]),
        (
            "S7 C7 D7 S3 S3",
            Rank.TWO,
            PlayKind.FULL_HOUSE,
            ["ThreeWithTwo", "7", ["S3", "S3", "S7", "C7", "D7"]],
        ),
        ("DA S2 C3 S4 S5", Rank.TEN, PlayKind.STRAIGHT, ["Straight", "A", ["S2", "C3", "S4", "S5", "DA"]]),
        ("ST SJ CQ SK SA", Rank.TWO, PlayKind.STRAIGHT, ["Straight", "T", ["ST", "SJ", "CQ", "SK", "SA"]]),
        (
            "SA CA S2 D2 S3 S3",
            Rank.TEN,
            PlayKind.TUBE,
            ["ThreePair", "A", ["S2", "D2", "S3", "S3", "SA", "CA"]],
        ),
        (
            "SA CA DA S2 D2 C2",
            Rank.TEN,
            PlayKind.PLATE,
            ["TwoTrips", "A", ["S2", "C2", "D2", "SA", "CA", "DA"]],
        ),
        ("S9 C9 D9 H9", Rank.TWO, PlayKind.BOMB, ["Bomb", "9", ["S9", "H9", "C9", "D9"]]),
        (
            "C5 C6 C7 C8 C9",
            Rank.TWO,
            PlayKind.STRAIGHT_FLUSH,
            ["StraightFlush", "5", ["C5", "C6", "C7", "C8", "C9"]],
        ),
        ("SB SB HR HR", Rank.TWO, PlayKind.FOUR_JOKERS, ["FourKings", "B", ["SB", "SB", "HR", "HR"]]),
    ],
)
def test_triple_names_type_key_rank_and_cards(
    cards: str, level: Rank, kind: PlayKind, expected: list[object]
) -> None:
    """docs/notation.md#triple: rank is the key card's rank, the lowest for sequences (A for A2345, AA2233,
    AAA222), B and R for joker singles and pairs, B for four jokers; cards as played."""
    play = only(cards, level, kind)
    assert to_triple(play) == expected
    assert from_triple(expected, level) == play


def test_pass_is_pass_pass_pass() -> None:
    assert to_triple(PASS) == ["PASS", "PASS", "PASS"]
    assert from_triple(["PASS", "PASS", "PASS"], Rank.TWO) is PASS


def test_wild_cards_travel_as_held_and_the_triple_picks_the_reading() -> None:
    """One set of cards, several readings: the type and rank of the triple choose among them."""
    cards = ["H2", "S3", "S4", "S6", "S7"]
    straight = from_triple(["Straight", "3", cards], Rank.TWO)
    flush = from_triple(["StraightFlush", "3", cards], Rank.TWO)
    assert straight.kind is PlayKind.STRAIGHT
    assert flush.kind is PlayKind.STRAIGHT_FLUSH
    assert [str(card) for card in flush.stands_for] == ["S5"]
    low = from_triple(["ThreeWithTwo", "3", ["C3", "C3", "D5", "D5", "H2"]], Rank.TWO)
    high = from_triple(["ThreeWithTwo", "5", ["C3", "C3", "D5", "D5", "H2"]], Rank.TWO)
    assert (low.rank, high.rank) == (Rank.THREE, Rank.FIVE)


def test_every_lead_of_random_hands_round_trips_through_json() -> None:
    rng = random.Random(11)
    for _ in range(20):
        level = Rank(rng.randint(2, 14))
        for play in legal_leads(rng.sample(full_deck(), 27), level):
            triple = json.loads(json.dumps(to_triple(play)))
            assert from_triple(triple, level) == play


@pytest.mark.parametrize(
    ("triple", "message"),
    [
        ("Single", "an action triple is [type, rank, cards]"),
        (["Single", "T"], "an action triple is [type, rank, cards]"),
        (["Rocket", "T", ["HT"]], "unknown action type 'Rocket'"),
        (["Single", "X", ["HT"]], "unknown rank 'X'"),
        (["Single", 10, ["HT"]], "the rank must be a rank letter"),
        (["Single", "T", "HT"], "the cards must be a list of card names"),
        (["Single", "T", ["HT", 3]], "the cards must be a list of card names"),
        (["Single", "T", ["HX"]], "cannot read card 'HX'"),
        (["Pair", "T", ["HT", "ST", "CT"]], "cannot be read as Pair T at level 2"),
        (["Single", "9", ["HT"]], "cannot be read as Single 9 at level 2"),
        (["Straight", "3", ["S3", "S4", "S5", "S6", "S7"]], "cannot be read as Straight 3"),
    ],
)
def test_malformed_triples_are_rejected_with_what_is_wrong(triple: object, message: str) -> None:
    with pytest.raises(TripleError, match=message.replace("[", r"\[").replace("]", r"\]")):
        from_triple(triple, Rank.TWO)
    assert issubclass(TripleError, ValueError)


# --- huopin (docs/rules/huopin.md): the kinds the protocol lacks (docs/plays.md, "huopin")
# ----------------------


@pytest.mark.parametrize(
    ("cards", "kind", "expected"),
    [
        (
            "S3 C3 D3 S4 C4 D4 S6 C6 S7 C7",
            PlayKind.AIRPLANE,
            ["Airplane", "3", ["S3", "C3", "D3", "S4", "C4", "D4", "S6", "C6", "S7", "C7"]],
        ),
        (
            "S7 H7 C7 D7 S8 H8 C8 D8 S9 H9 C9 D9",
            PlayKind.CHAIN_BOMB,
            ["ChainBomb", "7", ["S7", "H7", "C7", "D7", "S8", "H8", "C8", "D8", "S9", "H9", "C9", "D9"]],
        ),
        ("SB SB HR", PlayKind.THREE_JOKERS, ["ThreeKings", "B", ["SB", "SB", "HR"]]),
        (
            "S3 C4 D5 S6 C7 D8 S9 CT",
            PlayKind.STRAIGHT,
            ["Straight", "3", ["S3", "C4", "D5", "S6", "C7", "D8", "S9", "CT"]],
        ),
        (
            "S5 C5 S6 C6 S7 C7 S8 C8",
            PlayKind.TUBE,
            ["ThreePair", "5", ["S5", "C5", "S6", "C6", "S7", "C7", "S8", "C8"]],
        ),
        (
            "S5 C5 D5 S6 C6 D6 S7 C7 D7",
            PlayKind.PLATE,
            ["TwoTrips", "5", ["S5", "C5", "D5", "S6", "C6", "D6", "S7", "C7", "D7"]],
        ),
        ("S4 C5 D6 S7 HR", PlayKind.STRAIGHT, ["Straight", "4", ["HR", "S4", "C5", "D6", "S7"]]),
        ("SB HR", PlayKind.PAIR, ["Pair", "B", ["SB", "HR"]]),
    ],
)
def test_huopin_triples_name_the_new_kinds(cards: str, kind: PlayKind, expected: list[object]) -> None:
    """docs/plays.md: ``Airplane`` (lowest triple), ``ChainBomb`` (lowest rank), ``ThreeKings`` (``B``);
    longer sequences keep ``Straight``, ``ThreePair``, ``TwoTrips`` with their lowest rank; big jokers
    travel as held."""
    (play,) = [play for play in classify(parse_cards(cards), Rank.TWO, HUOPIN) if play.kind is kind]
    assert to_triple(play) == expected
    assert from_triple(expected, Rank.TWO, HUOPIN) == play


def test_the_competition_rules_refuse_the_huopin_kinds() -> None:
    with pytest.raises(TripleError, match="cannot be read as ThreeKings B"):
        from_triple(["ThreeKings", "B", ["SB", "SB", "HR"]], Rank.TWO)
    with pytest.raises(TripleError, match="cannot be read as Straight 3"):
        from_triple(["Straight", "3", ["S3", "C4", "D5", "S6", "C7", "D8"]], Rank.TWO)


def test_huopin_triples_keep_the_largest_reading_only() -> None:
    """4567+大王 is 45678 (seed: 注意不是34567): the triple naming 34567 is refused."""
    with pytest.raises(TripleError, match="cannot be read as Straight 3"):
        from_triple(["Straight", "3", ["HR", "S4", "C5", "D6", "S7"]], Rank.TWO, HUOPIN)


def test_every_huopin_lead_of_random_hands_round_trips_through_json() -> None:
    rng = random.Random(12)
    for _ in range(12):
        level = Rank(rng.randint(2, 14))
        hand = rng.sample(full_deck(), 16)
        for play in legal_leads(hand, level, HUOPIN):
            triple = json.loads(json.dumps(to_triple(play)))
            assert from_triple(triple, level, HUOPIN) == play
