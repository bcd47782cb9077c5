"""The 108-card set and the card notation of docs/notation.md.

docs/notation.md#cards: a card is its suit, then its rank, and the jokers are `SB` (小王) and `HR` (大王); a
set of cards prints space-separated in print order (`SB HR HR H2 ST`); reading is forgiving (`10` for `T`,
lower case, suit symbols before or after the rank, `大王` and `小王`), and anything else is an error naming
what could not be read and where.
"""

from __future__ import annotations

import copy
import pickle
import re
from collections import Counter

import pytest
from hypothesis import given
from hypothesis import strategies as st

from cardroom.cards import (
    ALL_CARDS,
    BIG_JOKER,
    NATURAL_RANKS,
    SMALL_JOKER,
    Card,
    NotationError,
    Rank,
    Suit,
    format_cards,
    format_in_order,
    full_deck,
    parse_cards,
    parse_in_order,
    sort_cards,
)

CANONICAL = re.compile(r"^(SB|HR|[SHCD][2-9TJQKA])$")
SYMBOLS = {Suit.SPADES: "♠", Suit.HEARTS: "♥", Suit.CLUBS: "♣", Suit.DIAMONDS: "♦"}


# --- the 108-card set -------------------------------------------------------------------------


def test_full_deck_is_108_cards_each_of_54_values_twice() -> None:
    """docs/rules/competition.md#cards: two 54-card decks, jokers included, 27 cards to each player."""
    deck = full_deck()
    assert len(deck) == 108
    counts = Counter(deck)
    assert len(counts) == 54
    assert set(counts.values()) == {2}
    assert set(counts) == set(ALL_CARDS)


def test_full_deck_holds_two_of_each_joker_and_eight_of_each_natural_rank() -> None:
    """Two decks: 小王 ×2, 大王 ×2 and eight cards (two per suit) of every rank 2…A."""
    by_rank = Counter(card.rank for card in full_deck())
    assert by_rank[Rank.SMALL_JOKER] == 2
    assert by_rank[Rank.BIG_JOKER] == 2
    assert all(by_rank[rank] == 8 for rank in NATURAL_RANKS)
    assert len(NATURAL_RANKS) == 13


def test_full_deck_is_in_print_order() -> None:
    """The full set comes in the stable print order, so it is equal to itself sorted."""
    deck = full_deck()
    assert deck == sort_cards(deck)
    assert deck[:4] == (SMALL_JOKER, SMALL_JOKER, BIG_JOKER, BIG_JOKER)
    assert str(deck[-1]) == "DA"


def test_all_cards_are_the_54_distinct_values_in_print_order() -> None:
    assert len(ALL_CARDS) == 54
    assert len(set(ALL_CARDS)) == 54
    assert sort_cards(reversed(ALL_CARDS)) == ALL_CARDS
    assert [card.index for card in ALL_CARDS] == list(range(54))


# --- interning, immutability, pickling --------------------------------------------------------


def test_cards_are_interned() -> None:
    """Card docstring: "54 distinct values, interned, so Card(Rank.ACE, Suit.SPADES) is
    Card.parse("SA")"."""
    assert Card(Rank.ACE, Suit.SPADES) is Card.parse("SA")
    assert Card(Rank.SMALL_JOKER) is SMALL_JOKER is Card.parse("SB")
    assert Card(Rank.BIG_JOKER) is BIG_JOKER is Card.parse("HR")
    for card in ALL_CARDS:
        assert Card(card.rank, card.suit) is card
        assert Card.parse(str(card)) is card


def test_card_constructor_accepts_plain_ints() -> None:
    assert Card(Rank(10), Suit(1)) is Card.parse("HT")


def test_cards_are_immutable() -> None:
    card = Card.parse("SA")
    with pytest.raises(AttributeError):
        card.rank = Rank.KING
    with pytest.raises(AttributeError):
        card.suit = None
    with pytest.raises(AttributeError):
        card.colour = "black"
    assert card.rank is Rank.ACE
    assert card.suit is Suit.SPADES


def test_card_attributes_cannot_be_deleted() -> None:
    card = Card.parse("SK")
    with pytest.raises(AttributeError, match="immutable"):
        del card.rank
    assert card.rank is Rank.KING


def test_cards_hash_and_compare_by_value() -> None:
    assert hash(Card.parse("SA")) == hash(Card(Rank.ACE, Suit.SPADES))
    assert len({Card.parse("ha"), Card.parse("HA"), Card.parse("♥A")}) == 1
    assert Card.parse("S2") < Card.parse("SA")
    assert SMALL_JOKER < BIG_JOKER < Card.parse("S2")


def test_pickling_round_trip_keeps_identity() -> None:
    for card in ALL_CARDS:
        assert pickle.loads(pickle.dumps(card)) is card
    deck = full_deck()
    assert pickle.loads(pickle.dumps(deck)) == deck


def test_copy_and_deepcopy_return_the_same_card() -> None:
    card = Card.parse("D7")
    assert copy.copy(card) is card
    assert copy.deepcopy(card) is card


def test_repr_reads_back() -> None:
    for card in ALL_CARDS:
        assert repr(card) == f"Card.parse({str(card)!r})"


# --- canonical notation -----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("card", "text"),
    [
        (Card(Rank.TEN, Suit.HEARTS), "HT"),
        (Card(Rank.ACE, Suit.SPADES), "SA"),
        (Card(Rank.TWO, Suit.DIAMONDS), "D2"),
        (Card(Rank.KING, Suit.CLUBS), "CK"),
        (Card(Rank.SMALL_JOKER), "SB"),
        (Card(Rank.BIG_JOKER), "HR"),
    ],
)
def test_canonical_str(card: Card, text: str) -> None:
    """docs/notation.md#cards: `HT` is the ten of hearts, `SA` the ace of spades, `D2` the two of diamonds,
    and `SB`, `HR` jokers."""
    assert str(card) == text


def test_every_card_prints_suit_then_rank_and_uniquely() -> None:
    texts = [str(card) for card in ALL_CARDS]
    assert all(CANONICAL.match(text) for text in texts)
    assert len(set(texts)) == 54
    for card in ALL_CARDS:
        if not card.is_joker:
            assert card.suit is not None
            assert str(card) == card.suit.letter + card.rank.letter


def test_rank_and_suit_letters() -> None:
    assert "".join(rank.letter for rank in NATURAL_RANKS) == "23456789TJQKA"
    assert Rank.SMALL_JOKER.letter == "B"
    assert Rank.BIG_JOKER.letter == "R"
    assert "".join(suit.letter for suit in Suit) == "SHCD"
    assert "".join(suit.symbol for suit in Suit) == "♠♥♣♦"


# --- forgiving input --------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("token", "expected"),
    [
        ("HT", "HT"),
        ("H10", "HT"),
        ("h10", "HT"),
        ("ht", "HT"),
        ("♥10", "HT"),
        ("10♥", "HT"),
        ("♥T", "HT"),
        ("t♥", "HT"),
        ("♠A", "SA"),
        ("A♠", "SA"),
        ("a♠", "SA"),
        ("sa", "SA"),
        ("♦2", "D2"),
        ("2♦", "D2"),
        ("d2", "D2"),
        ("♣q", "CQ"),
        ("Q♣", "CQ"),
        ("大王", "HR"),
        ("小王", "SB"),
        ("hr", "HR"),
        ("sb", "SB"),
        ("  SA  ", "SA"),
    ],
)
def test_forgiving_input(token: str, expected: str) -> None:
    """docs/notation.md#reading: reading also accepts `10` for `T`, lower case, a suit symbol before or after
    the rank (`♥10`, `10♥`), and `大王`, `小王`."""
    assert str(Card.parse(token)) == expected
    assert parse_cards(token) == (Card.parse(expected),)


@pytest.mark.parametrize(
    "text",
    ["SA HT D2", "SA,HT,D2", "SA, HT, D2", "  SA\tHT\nD2  ", "SA ,HT,, D2", "d2 ♥10 A♠"],
)
def test_parse_cards_accepts_spaces_and_commas(text: str) -> None:
    assert parse_cards(text) == (Card.parse("D2"), Card.parse("HT"), Card.parse("SA"))


def test_parse_cards_of_nothing_is_empty() -> None:
    assert parse_cards("") == ()
    assert parse_cards(" , ") == ()
    assert format_cards(()) == ""


def test_parse_cards_keeps_duplicates() -> None:
    """Two decks, so a card may appear twice."""
    assert parse_cards("HR SB HR") == (SMALL_JOKER, BIG_JOKER, BIG_JOKER)


# --- print order ------------------------------------------------------------------------------


def test_format_cards_print_order_example() -> None:
    """docs/notation.md#print-order: a set of cards is written space-separated in print order (`SB HR HR H2
    ST`)."""
    cards = [Card.parse(token) for token in ("ST", "HR", "H2", "SB", "HR")]
    assert format_cards(cards) == "SB HR HR H2 ST"


@pytest.mark.parametrize(
    ("text", "printed"),
    [
        ("HR SB", "SB HR"),
        ("SA S2 SK ST S9", "S2 S9 ST SK SA"),
        ("D5 C5 H5 S5", "S5 H5 C5 D5"),
        ("DA SB C3 HR H3 S3", "SB HR S3 H3 C3 DA"),
        ("♥10 10♠ 大王", "HR ST HT"),
    ],
)
def test_format_cards_orders_jokers_then_ranks_then_suits(text: str, printed: str) -> None:
    """Print order: jokers first (small, then big), then ranks 2…A, suits S H C D within a rank."""
    assert format_cards(parse_cards(text)) == printed


def test_format_cards_accepts_any_iterable() -> None:
    assert format_cards(iter(parse_cards("SA D2"))) == "D2 SA"


# --- round trips ------------------------------------------------------------------------------


def test_round_trip_every_card() -> None:
    for card in ALL_CARDS:
        text = format_cards([card])
        assert parse_cards(text) == (card,)
        assert format_cards(parse_cards(text)) == text


def test_round_trip_full_deck() -> None:
    text = format_cards(full_deck())
    assert len(text.split()) == 108
    assert parse_cards(text) == full_deck()


multisets = st.lists(st.sampled_from(ALL_CARDS), max_size=40)


@given(multisets)
def test_round_trip_random_multisets(cards: list[Card]) -> None:
    text = format_cards(cards)
    parsed = parse_cards(text)
    assert Counter(parsed) == Counter(cards)
    assert parsed == sort_cards(cards)
    assert format_cards(parsed) == text


@given(st.permutations(full_deck()))
def test_a_deck_round_trips_in_dealing_order(deck: list[Card]) -> None:
    """A deck is written and read in the order it is dealt; print order would deal other hands."""
    text = format_in_order(deck)
    assert parse_in_order(text) == tuple(deck)
    assert parse_cards(text) == full_deck()
    assert format_in_order(full_deck()) == format_cards(full_deck())


def test_parse_in_order_reads_as_forgivingly_and_names_the_bad_token() -> None:
    assert parse_in_order("sa, ♥10 大王 D2") == tuple(Card.parse(token) for token in ("SA", "HT", "HR", "D2"))
    with pytest.raises(NotationError, match=r"'X9' \(token 2, column 4\)"):
        parse_in_order("SA X9")


def _spellings(card: Card) -> list[str]:
    """Every forgiving spelling docs/notation.md#reading allows for one card."""
    if card.is_joker:
        chinese = "小王" if card is SMALL_JOKER else "大王"
        return [str(card), str(card).lower(), chinese]
    assert card.suit is not None
    ranks = [card.rank.letter, card.rank.letter.lower()]
    if card.rank is Rank.TEN:
        ranks.append("10")
    suit_letters = [card.suit.letter, card.suit.letter.lower()]
    symbol = SYMBOLS[card.suit]
    spellings = [suit + rank for suit in suit_letters for rank in ranks]
    spellings += [symbol + rank for rank in ranks] + [rank + symbol for rank in ranks]
    return spellings


@given(st.lists(st.sampled_from(ALL_CARDS), max_size=20), st.data())
def test_forgiving_spellings_parse_to_the_same_cards(cards: list[Card], data: st.DataObject) -> None:
    tokens = [data.draw(st.sampled_from(_spellings(card))) for card in cards]
    separators = [data.draw(st.sampled_from([" ", ",", ", ", "  ", "\t"])) for _ in tokens]
    text = "".join(token + separator for token, separator in zip(tokens, separators, strict=True))
    assert parse_cards(text) == sort_cards(cards)


# --- exact errors -----------------------------------------------------------------------------


def test_notation_error_is_a_value_error() -> None:
    assert issubclass(NotationError, ValueError)


def test_parse_cards_error_names_token_number_and_column() -> None:
    """docs/notation.md#reading: an error names what it could not read and where."""
    with pytest.raises(NotationError) as caught:
        parse_cards("SA XX H3")
    message = str(caught.value)
    assert "'XX'" in message
    assert "token 2" in message
    assert "column 4" in message


@pytest.mark.parametrize(
    ("text", "token", "number", "column"),
    [
        ("XX", "XX", 1, 1),
        ("SA,HT,Z9", "Z9", 3, 7),
        ("SA  S1", "S1", 2, 5),
        ("♥10 zz", "zz", 2, 5),
        ("HB", "HB", 1, 1),
        ("SR SA", "SR", 1, 1),
        ("SA 10", "10", 2, 4),
        ("SA H11", "H11", 2, 4),
        ("SA ♥", "♥", 2, 4),
        ("S2 S3 王", "王", 3, 7),
        ("SA S10♥", "S10♥", 2, 4),
    ],
)
def test_parse_cards_errors_are_exact(text: str, token: str, number: int, column: int) -> None:
    """A joker written with a suit letter (`HB`, `SR`), a rank without a suit, or anything unknown is
    an error naming the token, its number and its column (1-based)."""
    with pytest.raises(NotationError) as caught:
        parse_cards(text)
    message = str(caught.value)
    assert repr(token) in message
    assert f"token {number}" in message
    assert f"column {column}" in message


@given(
    st.lists(st.sampled_from(ALL_CARDS), max_size=10),
    st.sampled_from(["XX", "S1", "HB", "11", "ZA", "♥", "S♥"]),
    st.data(),
)
def test_error_position_anywhere(cards: list[Card], bad: str, data: st.DataObject) -> None:
    tokens = [str(card) for card in cards]
    where = data.draw(st.integers(min_value=0, max_value=len(tokens)))
    tokens.insert(where, bad)
    separator = data.draw(st.sampled_from([" ", ",", ", "]))
    text = separator.join(tokens)
    column = sum(len(token) + len(separator) for token in tokens[:where]) + 1
    with pytest.raises(NotationError) as caught:
        parse_cards(text)
    assert f"{bad!r} (token {where + 1}, column {column})" in str(caught.value)


@pytest.mark.parametrize("token", ["XX", "", "S", "S1", "HB", "SR", "10", "♥", "S10♥", "大", "AS"])
def test_card_parse_error_names_the_token(token: str) -> None:
    with pytest.raises(NotationError) as caught:
        Card.parse(token)
    assert repr(token) in str(caught.value)


def test_joker_with_a_suit_is_a_value_error() -> None:
    with pytest.raises(ValueError, match="joker"):
        Card(Rank.SMALL_JOKER, Suit.HEARTS)
    with pytest.raises(ValueError, match="joker"):
        Card(Rank.BIG_JOKER, Suit.SPADES)


@pytest.mark.parametrize("rank", NATURAL_RANKS)
def test_natural_card_without_a_suit_is_a_value_error(rank: Rank) -> None:
    with pytest.raises(ValueError, match="suit"):
        Card(rank)


def test_rank_from_letter() -> None:
    assert Rank.from_letter("T") is Rank.TEN
    assert Rank.from_letter("10") is Rank.TEN
    assert Rank.from_letter("a") is Rank.ACE
    assert Rank.from_letter("B") is Rank.SMALL_JOKER
    assert Rank.from_letter("R") is Rank.BIG_JOKER
    with pytest.raises(NotationError, match="'1'"):
        Rank.from_letter("1")
