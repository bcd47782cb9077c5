"""The fixed action table: its shape, the mask against the card-level legal moves, the round trip
index → concrete cards → index, and the concrete-card rule (straight flushes and bombs kept)."""

from __future__ import annotations

import random
from collections import Counter

import pytest

pytest.importorskip("numpy")

import numpy as np

from cardroom.cards import ALL_CARDS, Card, Rank, Suit, full_deck, parse_cards
from cardroom.guandan import HUOPIN, PlayKind, is_legal, legal_follows, legal_leads, native
from cardroom.guandan.deal import PlayAction, ReturnAction, TributeAction
from cardroom.guandan.match import Match
from cardroom.guandan.plays import rank_at_position
from cardroom.guandan.ruleset import CLASSIC, RuleSet
from cardroom.rl.actions import (
    ACTION_TABLE,
    NUM_ACTIONS,
    PASS_INDEX,
    RETURN_BASE,
    TRIBUTE_BASE,
    ActionSpec,
    IllegalActionError,
    UnsupportedRulesError,
    action_index,
    action_indices,
    action_of,
    concrete_play,
    legal_action_mask,
    play_mask,
    pure_concrete_play,
    pure_play_mask,
    spec_of_play,
)

TWO = Rank.TWO


def index_of(spec: ActionSpec) -> int:
    return ACTION_TABLE.index(spec)


def test_table_blocks_and_size() -> None:
    """Passing first, then the plays (kind × ranks × wild cards), then 54 tribute and 54 return cards."""
    assert NUM_ACTIONS == len(ACTION_TABLE) == 1236
    assert len(set(ACTION_TABLE)) == NUM_ACTIONS
    assert ACTION_TABLE[PASS_INDEX].move == "pass"
    kinds = Counter(spec.kind for spec in ACTION_TABLE if spec.move == "play")
    assert kinds == {
        PlayKind.SINGLE: 13 * 2 + 2,
        PlayKind.PAIR: 13 * 3 + 2,
        PlayKind.TRIPLE: 13 * 3,
        PlayKind.FULL_HOUSE: 13 * (14 * 3 + 1),
        PlayKind.STRAIGHT: 10 * 3,
        PlayKind.TUBE: 12 * 3,
        PlayKind.PLATE: 13 * 3,
        PlayKind.BOMB: 13 * 18,
        PlayKind.STRAIGHT_FLUSH: 4 * 10 * 3,
        PlayKind.FOUR_JOKERS: 1,
    }
    assert [spec.card for spec in ACTION_TABLE[TRIBUTE_BASE:RETURN_BASE]] == list(ALL_CARDS)
    assert [spec.card for spec in ACTION_TABLE[RETURN_BASE:]] == list(ALL_CARDS)
    assert all(spec.move == "return" for spec in ACTION_TABLE[RETURN_BASE:])
    assert len({spec.label for spec in ACTION_TABLE}) == NUM_ACTIONS


def random_hands(count: int, seed: int) -> list[tuple[Rank, tuple[Card, ...]]]:
    """Seeded hands at random levels, each with 0–2 ♥ level cards: half from the whole deck, half from
    a few adjacent ranks (dense in sequences, bombs and straight flushes)."""
    rng = random.Random(seed)
    found = []
    for number in range(count):
        level = Rank(rng.randint(2, 14))
        wild = Card(level, Suit.HEARTS)
        pool = [card for card in full_deck() if card is not wild]
        if number % 2:
            start = rng.randint(1, 9)
            ranks = {rank_at_position(position) for position in range(start, start + rng.randint(3, 6))}
            pool = [card for card in pool if card.rank in ranks or card.is_joker]
        size = rng.choice([8, 14, 20, 25])
        found.append((level, (*rng.sample(pool, min(size, len(pool))), *[wild] * rng.randint(0, 2))))
    return found


def check_entries(hand: tuple[Card, ...], level: Rank, legal: set[int], plays: list[object]) -> None:
    """Each legal entry's concrete play is among the card-level plays and maps back to its index."""
    card_level = set(plays)
    for index in legal - {PASS_INDEX}:
        play = concrete_play(index, hand, level)
        assert play in card_level, ACTION_TABLE[index].label
        assert index_of(spec_of_play(play, level)) == index


@pytest.mark.parametrize(("level", "hand"), random_hands(24, 11))
def test_lead_mask_is_exactly_the_card_level_leads(level: Rank, hand: tuple[Card, ...]) -> None:
    """Leading: the mask's entries are exactly the table names of every card-level lead, and each entry
    plays back to one of those leads."""
    leads = legal_leads(hand, level)
    expected = {index_of(spec_of_play(play, level)) for play in leads}
    legal = set(np.flatnonzero(play_mask(hand, level, None)).tolist())
    assert legal == expected
    check_entries(hand, level, legal, list(leads))


@pytest.mark.parametrize(("level", "hand"), random_hands(24, 12))
def test_follow_mask_is_exactly_passing_and_the_card_level_follows(
    level: Rank, hand: tuple[Card, ...]
) -> None:
    """Following a random play of another hand: passing and exactly the table names of the plays that
    beat it."""
    rng = random.Random(len(hand) * 100 + level)
    previous = rng.choice(legal_leads(rng.sample(full_deck(), 20), level))
    follows = legal_follows(hand, previous, level)
    expected = {PASS_INDEX} | {index_of(spec_of_play(play, level)) for play in follows}
    legal = set(np.flatnonzero(play_mask(hand, level, previous)).tolist())
    assert legal == expected
    check_entries(hand, level, legal, list(follows))
    for index in legal - {PASS_INDEX}:
        assert is_legal(hand, concrete_play(index, hand, level), previous, level)


@pytest.mark.parametrize(
    ("seed", "rules"), [(1, RuleSet()), (2, CLASSIC), (3, RuleSet(natural_straight_flush_is_straight=True))]
)
def test_random_matches_round_trip_every_legal_entry(seed: int, rules: RuleSet) -> None:
    """Over random matches (tribute and return included): at every decision the mask equals the table
    indices of ``observation.legal_actions``, and every legal index becomes a legal action that maps
    back to it."""
    rng = random.Random(seed)
    match = Match(rules, max_deals=3)
    decisions = 0
    phases: set[str] = set()
    while not match.is_over:
        if match.phase.value == "dealing":
            match.deal_random(rng)
        seat = match.current_player
        assert seat is not None
        observation = match.observation(seat)
        phases.add(observation.phase.value)
        mask = legal_action_mask(observation)
        assert set(np.flatnonzero(mask).tolist()) == set(action_indices(observation).tolist())
        for index in np.flatnonzero(mask).tolist():
            action = action_of(index, observation, check=False)
            assert match.can(action)
            assert action_index(action, observation) == index
        for other in range(4):
            if other != seat:
                assert not legal_action_mask(match.observation(other)).any()
        match.apply(rng.choice(observation.legal_actions))
        decisions += 1
    assert decisions > 100
    assert {"tribute", "return", "play"} <= phases


def test_tribute_and_return_entries_name_the_card() -> None:
    """One entry per card given: the tribute of ``c`` is ``TRIBUTE_BASE + c.index``, its return
    ``RETURN_BASE + c.index``."""
    match = Match(max_deals=4)
    rng = random.Random(5)
    seen: set[int] = set()
    while not match.is_over and len(seen) < 2:
        if match.phase.value == "dealing":
            match.deal_random(rng)
        seat = match.current_player
        assert seat is not None
        observation = match.observation(seat)
        action = rng.choice(observation.legal_actions)
        if isinstance(action, TributeAction | ReturnAction):
            base = TRIBUTE_BASE if isinstance(action, TributeAction) else RETURN_BASE
            index = action_index(action, observation)
            assert index == base + action.card.index
            assert action_of(index, observation) == action
            seen.add(base)
        match.apply(action)
    assert seen == {TRIBUTE_BASE, RETURN_BASE}


def test_illegal_entries_are_refused() -> None:
    match = Match()
    match.deal_random(random.Random(3))
    seat = match.current_player
    assert seat is not None
    observation = match.observation(seat)
    with pytest.raises(IllegalActionError, match="not legal"):
        action_of(PASS_INDEX, observation)  # the leader may not pass
    with pytest.raises(IllegalActionError, match="outside"):
        action_of(NUM_ACTIONS, observation)
    other = match.observation((seat + 1) % 4)
    index = int(np.flatnonzero(legal_action_mask(observation))[0])
    with pytest.raises(IllegalActionError):
        action_of(index, other)


def test_huopin_is_refused() -> None:
    match = Match(HUOPIN)
    match.deal_random(random.Random(1))
    with pytest.raises(UnsupportedRulesError, match="huopin"):
        legal_action_mask(match.observation(0))


# -- the concrete-card rule ----------------------------------------------------------------------


def play_of(text: str, spec: ActionSpec, level: Rank = TWO) -> tuple[Card, ...]:
    hand = parse_cards(text)
    assert play_mask(hand, level, None)[index_of(spec)], spec.label
    return concrete_play(spec, hand, level).cards


def test_a_single_comes_from_outside_a_straight_flush() -> None:
    assert play_of("S3 S4 S5 S6 S7 D5", ActionSpec("play", PlayKind.SINGLE, Rank.FIVE, 1, 0)) == parse_cards(
        "D5"
    )


def test_a_plain_straight_leaves_a_straight_flush_whole() -> None:
    """♠3–7 stays whole: the straight takes the other suits' cards."""
    cards = play_of("S3 S4 S5 S6 S7 D3 D4 D5 D6 C7", ActionSpec("play", PlayKind.STRAIGHT, Rank.THREE, 5, 0))
    assert cards == parse_cards("D3 D4 D5 D6 C7")


def test_a_plain_straight_never_takes_five_cards_of_one_suit() -> None:
    cards = play_of("S3 S4 S5 S6 S7 D6", ActionSpec("play", PlayKind.STRAIGHT, Rank.THREE, 5, 0))
    assert cards == parse_cards("S3 S4 S5 D6 S7")


def test_spare_wild_cards_stand_where_a_bomb_would_break() -> None:
    """A straight with a wild card to spare: the wild card stands for the seven, so 7777 stays a bomb
    (by default it would stand at the top anyway); a tube with one to spare takes the threes' place so
    that 33333 keeps a bomb of four (against the default, the highest position)."""
    straight = play_of("S3 S4 S5 S6 S7 C7 D7 D7 H2", ActionSpec("play", PlayKind.STRAIGHT, Rank.THREE, 5, 1))
    assert straight == parse_cards("H2 S3 S4 S5 S6")
    tube = play_of("S3 S3 C3 D3 D3 S4 C4 S5 C5 H2", ActionSpec("play", PlayKind.TUBE, Rank.THREE, 6, 1))
    assert Counter(card.rank for card in tube) == {Rank.THREE: 1, Rank.FOUR: 2, Rank.FIVE: 2, Rank.TWO: 1}
    plain = play_of("S3 C3 S4 C4 S5 C5 H2", ActionSpec("play", PlayKind.TUBE, Rank.THREE, 6, 1))
    assert Counter(card.rank for card in plain)[Rank.FIVE] == 1  # the default: wild at the top


def test_a_full_house_splits_its_wild_card_to_keep_a_straight_flush() -> None:
    """555+88 with one wild card: in the pair (555 + 8W) when the second eight is ♠8 of ♠4–8; otherwise
    in the triple first (55W + 88)."""
    spec = ActionSpec("play", PlayKind.FULL_HOUSE, Rank.FIVE, 5, 1, pair=Rank.EIGHT)
    kept = play_of("S4 S5 S6 S7 S8 C5 D5 D5 C8 H2", spec)
    assert kept == parse_cards("H2 C5 D5 D5 C8")
    default = play_of("C5 D5 D5 C8 D8 H2", spec)
    assert default == parse_cards("H2 C5 D5 C8 D8")


def test_bombs_and_straight_flushes_use_what_they_name() -> None:
    bomb = play_of("S9 H9 C9 D9 D9 H2", ActionSpec("play", PlayKind.BOMB, Rank.NINE, 6, 1))
    assert bomb == parse_cards("H2 S9 H9 C9 D9 D9")
    flush = play_of(
        "C9 CT CQ CK D9 H2", ActionSpec("play", PlayKind.STRAIGHT_FLUSH, Rank.NINE, 5, 1, Suit.CLUBS)
    )
    assert flush == parse_cards("H2 C9 CT CQ CK")


def test_the_choice_is_deterministic_and_ignores_hand_order() -> None:
    rng = random.Random(4)
    for level, hand in random_hands(8, 13):
        legal = np.flatnonzero(play_mask(hand, level, None)).tolist()
        shuffled = list(hand)
        rng.shuffle(shuffled)
        for index in legal:
            assert concrete_play(index, hand, level) == concrete_play(index, shuffled, level)


def test_action_index_takes_plays_and_actions() -> None:
    match = Match()
    match.deal_random(random.Random(9))
    seat = match.current_player
    assert seat is not None
    observation = match.observation(seat)
    action = observation.legal_actions[0]
    assert isinstance(action, PlayAction)
    assert action_index(action, observation) == action_index(action.play, observation)


@pytest.mark.slow
def test_many_more_hands_cross_check() -> None:
    """The lead and follow cross-checks over 400 more hands, three plays to beat each (about 20 s)."""
    for level, hand in random_hands(400, 99):
        test_lead_mask_is_exactly_the_card_level_leads(level, hand)
        rng = random.Random(len(hand))
        for _ in range(3):
            previous = rng.choice(legal_leads(rng.sample(full_deck(), 20), level))
            follows = legal_follows(hand, previous, level)
            expected = {PASS_INDEX} | {index_of(spec_of_play(play, level)) for play in follows}
            legal = set(np.flatnonzero(play_mask(hand, level, previous)).tolist())
            assert legal == expected
            check_entries(hand, level, legal, list(follows))


@pytest.mark.parametrize("rules", [RuleSet(), RuleSet(name="loose", natural_straight_flush_is_straight=True)])
def test_the_cores_mask_is_the_pure_mask(rules: RuleSet) -> None:
    """Where the compiled core computes the mask (from its rank-level plays over the registered table),
    it equals the NumPy mask on seeded hands, leading and following plays of every kind."""
    if native.CORE is None:
        pytest.skip("the compiled core is not built")
    rng = random.Random(21)
    checked = Counter[PlayKind]()
    for level, hand in random_hands(300, 23):
        leading = native.action_mask(hand, level, rules, None)
        assert (leading == pure_play_mask(hand, level, None, rules)).all()
        for _ in range(3):
            leads = legal_leads(rng.sample(full_deck(), 20), level, rules)
            previous = rng.choice(leads)
            core = native.action_mask(hand, level, rules, previous)
            assert (core == pure_play_mask(hand, level, previous, rules)).all(), (hand, previous)
            checked[previous.kind] += 1
    assert set(checked) >= {PlayKind.SINGLE, PlayKind.PAIR, PlayKind.FULL_HOUSE, PlayKind.STRAIGHT}


def test_the_cores_mask_refuses_plays_outside_the_table() -> None:
    """The core's mask serves the table's rule sets only, as the NumPy one does."""
    if native.CORE is None:
        pytest.skip("the compiled core is not built")
    with pytest.raises(ValueError, match="competition's play parameters"):
        native.action_mask(parse_cards("S3 S4"), TWO, HUOPIN, None)


@pytest.mark.parametrize("rules", [RuleSet(), RuleSet(name="loose", natural_straight_flush_is_straight=True)])
def test_the_cores_concrete_cards_are_the_pure_choice(rules: RuleSet) -> None:
    """The compiled core names the same cards (and reading) as the Python rule for every entry a hand can
    make, and refuses the same entries, on seeded hands dense in sequences, bombs and straight flushes."""
    if native.CORE is None:
        pytest.skip("the compiled core is not built")
    checked = Counter[PlayKind]()
    for level, hand in random_hands(300, 29):
        available = np.flatnonzero(pure_play_mask(hand, level, None, rules)).tolist()
        refused = random.Random(len(hand)).sample(range(1, TRIBUTE_BASE), 20)
        for index in available + refused:
            spec = ACTION_TABLE[index]
            core = native.table_play(index, hand, level, rules)
            assert core == pure_concrete_play(spec, hand, level, rules), (spec.label, hand)
            if core is not None:
                checked[core.kind] += 1
    assert set(checked) == {PlayKind(value) for value in range(PlayKind.SINGLE, PlayKind.FOUR_JOKERS + 1)}


def test_the_cores_table_refuses_bad_input() -> None:
    """Bad input through the binding raises, naming what is wrong, and leaves the registered table as
    it was."""
    core = native.CORE
    if core is None:
        pytest.skip("the compiled core is not built")
    with pytest.raises(ValueError, match="out of range"):
        core.register_action_table(10, 0, [(5, 99, 2, 1, 0, -1, -1)])
    with pytest.raises(ValueError, match="outside the table"):
        core.register_action_table(10, 0, [(10, 1, 2, 1, 0, -1, -1)])
    hand = parse_cards("S3 S3 H4")
    for index in (PASS_INDEX, TRIBUTE_BASE, NUM_ACTIONS + 5):
        with pytest.raises(ValueError, match="not a play entry"):
            native.table_play(index, hand, TWO, RuleSet())
    single = index_of(ActionSpec("play", PlayKind.SINGLE, Rank.THREE, 1, 0))
    assert native.table_play(single, hand, TWO, RuleSet()) == concrete_play(single, hand, TWO)
