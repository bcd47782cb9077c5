"""Input a client controls, given to the compiled core and to the pure engine (its reference): the same
answer, or the same exception with the same message (issue 40: three copies of one card made the core
raise where a server expected a rule's refusal; this holds every entry point to the pure engine's word).

Hypothesis draws hostile inputs: cards held three or four times, negative counts in a ``Counter``, a
play to beat of any kind, kinds and ranks that do not fit the cards, action triples with any type,
rank and cards (as a record, a websocket client or a competition server sends them), action-table
indices in and out of range, play-set indices and plays not in the set, a competition server's action
list (what ``cardroom connect`` matches to its plays). Each call runs twice, once
with the core and once inside :func:`cardroom.guandan.native.pure_engine`.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from types import ModuleType
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cardroom.cards import ALL_CARDS, NATURAL_RANKS, Card, Rank
from cardroom.competition.view import CARD_INDICES, WIRE_HEADS
from cardroom.guandan import PASS, Play, PlayKind, classify, native
from cardroom.guandan.moves import legal_play_set, verify_play
from cardroom.guandan.rankplays import rank_follows, rank_leads, rank_play_of
from cardroom.guandan.readings import read_as
from cardroom.guandan.ruleset import COMPETITION, HUOPIN, RuleSet
from cardroom.guandan.triple import KINDS_BY_TYPE, from_triple
from cardroom.rl import actions

RULES = (COMPETITION, HUOPIN)
Outcome = tuple[str, Any]


def outcome(call: Callable[[], Any]) -> Outcome:
    """What a call answers: its value, or its exception's class and message."""
    try:
        value = call()
    except Exception as error:  # the point: every exception, compared
        return type(error).__name__, str(error)
    if isinstance(value, native.ListPlaySet) or type(value).__name__ == "PlaySet":
        return "plays", value.to_list()
    if hasattr(value, "tolist"):
        return "array", value.tolist()
    return "value", value


def same_in_both(call: Callable[[], Any]) -> Outcome:
    """The call's outcome with the core, asserted equal to the pure engine's."""
    core = outcome(call)
    with native.pure_engine():
        pure = outcome(call)
    assert core == pure
    return core


cards = st.sampled_from(ALL_CARDS)
hostile_hands = st.lists(st.tuples(cards, st.integers(1, 4)), max_size=12).map(
    lambda pairs: [card for card, times in pairs for _ in range(times)]
)
"""Up to a dozen cards, each held one to four times (the two decks hold each twice)."""
counted_hands = st.dictionaries(cards, st.integers(-2, 4), max_size=12).map(Counter)
levels = st.sampled_from(NATURAL_RANKS)
rule_sets = st.sampled_from(RULES)


@st.composite
def plays_to_beat(draw: st.DrawFn) -> Play | None:
    """None (a lead), or a play read from a random legal hand."""
    hand = draw(st.lists(cards, min_size=1, max_size=10, unique=True))
    readings = classify(hand, draw(levels), draw(rule_sets))
    return draw(st.sampled_from(readings)) if readings else None


SETTINGS = settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@SETTINGS
@given(hostile_hands, levels, rule_sets)
def test_reading_cards_answers_alike(core: ModuleType, hand: list[Card], level: Rank, rules: RuleSet) -> None:
    same_in_both(lambda: classify(hand, level, rules))


@SETTINGS
@given(hostile_hands, st.sampled_from(list(PlayKind)), st.sampled_from(list(Rank)), levels, rule_sets)
def test_reading_cards_as_a_kind_answers_alike(
    core: ModuleType, hand: list[Card], kind: PlayKind, rank: Rank, level: Rank, rules: RuleSet
) -> None:
    same_in_both(lambda: read_as(hand, kind, rank, level, rules))


type_names = st.sampled_from([*KINDS_BY_TYPE, "PASS", "tribute", "", "Bomb "])
rank_texts = st.sampled_from(["2", "3", "9", "T", "10", "J", "A", "B", "R", "X", "", "\ud800"])
card_names = st.lists(
    st.sampled_from([str(card) for card in ALL_CARDS] + ["S1", "", "\ud800", "h10", "大王"]), max_size=10
)


@SETTINGS
@given(type_names, rank_texts, card_names, levels, rule_sets)
def test_action_triples_answer_alike(
    core: ModuleType, type_name: str, rank: str, names: list[str], level: Rank, rules: RuleSet
) -> None:
    same_in_both(lambda: from_triple([type_name, rank, names], level, rules))


@SETTINGS
@given(st.one_of(hostile_hands, counted_hands), plays_to_beat(), levels, rule_sets)
def test_legal_plays_of_a_hand_answer_alike(
    core: ModuleType, hand: Any, previous: Play | None, level: Rank, rules: RuleSet
) -> None:
    same_in_both(lambda: legal_play_set(hand, previous, level, rules))


@SETTINGS
@given(st.one_of(hostile_hands, counted_hands), plays_to_beat(), levels, rule_sets)
def test_rank_level_plays_answer_alike(
    core: ModuleType, hand: Any, previous: Play | None, level: Rank, rules: RuleSet
) -> None:
    if previous is None:
        same_in_both(lambda: rank_leads(hand, level, rules))
    else:
        same_in_both(lambda: rank_follows(hand, rank_play_of(previous), level, rules))


@SETTINGS
@given(st.one_of(hostile_hands, counted_hands), plays_to_beat(), levels)
def test_checking_one_play_answers_alike(core: ModuleType, hand: Any, play: Play | None, level: Rank) -> None:
    same_in_both(lambda: verify_play(hand, play or PASS, None, level))


@SETTINGS
@given(st.one_of(hostile_hands, counted_hands), plays_to_beat(), levels, st.integers(-3, 500))
def test_the_action_table_answers_alike(
    core: ModuleType, hand: Any, previous: Play | None, level: Rank, index: int
) -> None:
    if previous is not None and previous.kind not in native.kinds_of(COMPETITION):
        previous = None
    same_in_both(lambda: actions.play_mask(hand, level, previous))
    same_in_both(lambda: actions.concrete_play(index, hand, level))


@SETTINGS
@given(st.lists(cards, max_size=8, unique=True), levels, st.integers(-300, 300), plays_to_beat())
def test_a_play_set_is_indexed_alike(
    core: ModuleType, hand: list[Card], level: Rank, index: int, play: Play | None
) -> None:
    same_in_both(lambda: legal_play_set(hand, None, level)[index])
    same_in_both(lambda: legal_play_set(hand, None, level).index(play or PASS))


NOT_PLAYS: list[Any] = [None, 5, "S3", (), (PlayKind.SINGLE,), tuple("abcdef"), [1, 2, 3, 4, 5, 6]]
"""Values that are not plays at all (the core read past a short tuple's end before)."""


@pytest.mark.parametrize("value", NOT_PLAYS, ids=repr)
def test_a_play_set_finds_no_index_of_what_is_not_a_play_alike(core: ModuleType, value: Any) -> None:
    hand = [Card.parse(name) for name in ("S3", "H3", "S4")]
    assert same_in_both(lambda: legal_play_set(hand, None, Rank.TWO).index(value)) == (
        "ValueError",
        "the play is not in this set",
    )


wire_entries: st.SearchStrategy[list[Any]] = st.lists(
    st.one_of(
        st.tuples(type_names, rank_texts, card_names).map(list),
        st.tuples(type_names, rank_texts, st.sampled_from(["PASS", None, 3])).map(list),
        st.sampled_from([None, "Single", ["Single", "3"], [1, 2, 3], {}]),
    ),
    max_size=8,
)
"""A competition server's action list as a hostile server may send it (``[type, rank, cards]``)."""


@SETTINGS
@given(st.lists(cards, max_size=10, unique=True), levels, wire_entries)
def test_a_servers_action_list_is_matched_alike(
    core: ModuleType, hand: list[Card], level: Rank, entries: list[Any]
) -> None:
    """What ``cardroom connect`` reads from another server (``PlaySet.match_entries``)."""
    same_in_both(lambda: legal_play_set(hand, None, level).match_entries(entries, WIRE_HEADS, CARD_INDICES))


def test_three_copies_of_one_card_are_refused_alike(core: ModuleType) -> None:
    """The issue's case, and the same wherever the cards go: the pure engine's ValueError naming the
    card, from both engines."""
    three = [Card.parse("S3")] * 3
    for call in (
        lambda: classify(three, Rank.TWO),
        lambda: read_as(three, PlayKind.TRIPLE, Rank.THREE, Rank.TWO),
        lambda: from_triple(["Trips", "3", ["S3", "S3", "S3"]], Rank.TWO),
        lambda: legal_play_set(three, None, Rank.TWO),
        lambda: rank_leads(three, Rank.TWO),
        lambda: actions.play_mask(three, Rank.TWO, None),
    ):
        assert same_in_both(call) == ("ValueError", "S3 is held 3 times: the two decks hold each card twice")


@pytest.mark.parametrize("level", [Rank.SMALL_JOKER, Rank.BIG_JOKER])
def test_a_joker_level_is_refused_alike(core: ModuleType, level: Rank) -> None:
    hand = [Card.parse("S3")]
    for call in (lambda: classify(hand, level), lambda: legal_play_set(hand, None, level)):
        assert same_in_both(call) == ("ValueError", f"the level rank must be 2…A, got {level.name}")
