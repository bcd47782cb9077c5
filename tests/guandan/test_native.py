"""The compiled core (``cardroom._core``) against the pure engine, its reference: identical legal plays
at the card level (kind, key rank, cards, readings, key, and order) on seeded positions of every preset
and of each extended play parameter alone (huopin's long sequences, airplanes, star-ordered and chained
bombs, wild big jokers), and at the rank level for the competition's play parameters; identical readings
of card sets; seeded random deals played in the core replayed through the pure phase machine; and bad
input refused with an exception.

The default run holds a share that fits CI; ``make crosscheck`` runs the full sweep
(``CARDROOM_NATIVE_POSITIONS`` positions a preset, ``CARDROOM_NATIVE_DEALS`` deals a preset). Without the
extension these tests skip, unless ``CARDROOM_REQUIRE_NATIVE=1`` (``make test``) makes that a failure.
"""

from __future__ import annotations

import os
import random
import subprocess
import sys
from collections import Counter
from collections.abc import Iterator
from contextlib import nullcontext
from dataclasses import FrozenInstanceError, replace
from types import ModuleType
from typing import TYPE_CHECKING

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cardroom.cards import NATURAL_RANKS, Card, Rank, Suit, full_deck, parse_cards
from cardroom.guandan import PASS, Play, PlayKind, classify, native
from cardroom.guandan.deal import Deal, EventKind, LegalPlays, Phase, PlayAction, random_playout
from cardroom.guandan.extended import EXTENDED_ENUMERATORS
from cardroom.guandan.hands import HandView
from cardroom.guandan.match import shuffled_hands
from cardroom.guandan.moves import iter_follows, iter_leads, legal_play_set, legal_plays
from cardroom.guandan.rankplays import RankCounts, RankPlay, iter_rank_follows, iter_rank_leads, rank_play_of
from cardroom.guandan.readings import EXTENDED_ORDER
from cardroom.guandan.ruleset import CLASSIC, COMPETITION, HUOPIN, PLATFORM, ReturnLimit, RuleSet

if TYPE_CHECKING:
    from cardroom._core import Deal as CoreDeal

POSITIONS = int(os.environ.get("CARDROOM_NATIVE_POSITIONS", "600"))
"""Positions per preset and test (leads, follows); the full sweep sets 200,000."""
LONG_HAND = 16
"""Rule sets with straights longer than five (huopin) list tens of thousands of card-level leads from a
full hand, a tenth of a second to seconds a hand in the pure engine: their lead and reading tests take
hands of at most 16 cards, and their lead and follow tests a quarter as many positions (150 in the
default run, 50,000 in the full sweep); full hands' leads are checked in the random deals."""


def long_plays(rules: RuleSet) -> bool:
    return rules.straight_lengths[1] > 5


DEALS = int(os.environ.get("CARDROOM_NATIVE_DEALS", "60"))
"""Random deals per preset; the full sweep sets 10,000."""

LOOSE = RuleSet(name="loose", natural_straight_flush_is_straight=True)
SERVED = (COMPETITION, CLASSIC, PLATFORM, LOOSE)
"""Rule sets with the competition's play parameters: both views come from the core."""
EXTENDED = (
    HUOPIN,
    RuleSet(name="two_high", two_high=True),
    RuleSet(name="no_level_lift", level_rank_high=False),
    RuleSet(name="long", straight_lengths=(5, 8), tube_lengths=(2, 5), plate_lengths=(2, 4)),
    RuleSet(name="airplanes", airplanes=True, plate_lengths=(2, 4)),
    RuleSet(name="big_joker_wild", big_joker_wild=True),
    RuleSet(
        name="stars", bombs_by_stars=True, three_jokers_bomb=True, chain_bomb_lengths=(2, 4), max_bomb_size=12
    ),
    replace(HUOPIN, name="huopin_loose", natural_straight_flush_is_straight=True),
)
"""Rule sets with extended plays (each parameter alone, and huopin): card-level plays from the core."""
CARD_RULES = SERVED + EXTENDED
PARAMETERS = native.play_parameters(COMPETITION)
DECK = full_deck()


def by_name(rule_sets: tuple[RuleSet, ...], *slow: str) -> list[object]:
    """The rule sets as parameters named after them; those named in ``slow`` (ten seconds or more)
    marked slow, so that ``make test-fast`` leaves them to ``make test``."""
    return [
        pytest.param(rules, id=rules.name, marks=[pytest.mark.slow] if rules.name in slow else [])
        for rules in rule_sets
    ]


def pure_leads(hand: tuple[Card, ...], level: Rank, rules: RuleSet) -> list[Play]:
    return list(iter_leads(HandView(hand, level, rules)))


def pure_follows(hand: tuple[Card, ...], previous: Play, level: Rank, rules: RuleSet) -> list[Play]:
    return list(iter_follows(HandView(hand, level, rules), previous))


def positions(seed: int, count: int, largest: int = 27) -> Iterator[tuple[Rank, tuple[Card, ...]]]:
    """Seeded hands of 1 to ``largest`` cards (half of them ``largest``) at every level, holding 0, 1 and
    2 ♥ level cards in turn."""
    rng = random.Random(seed)
    for number in range(count):
        level = NATURAL_RANKS[number % len(NATURAL_RANKS)]
        wild = Card(level, Suit.HEARTS)
        wilds = number % 3
        size = largest if number % 2 else rng.randint(max(1, wilds), largest)
        others = [card for card in DECK if card is not wild]
        yield level, tuple(sorted([wild] * wilds + rng.sample(others, size - wilds), key=lambda c: c.index))


def previous_play(rng: random.Random, level: Rank, rules: RuleSet) -> Play:
    """A play to beat: a uniformly chosen kind among a random hand's leads (bombs, straight flushes and
    four jokers included), then a uniform play of it. The leads come from the core (the test of leads
    holds them to the pure engine's); this only chooses what to ask."""
    hand = rng.sample(DECK, 27)
    leads = native.leads(tuple(hand), level, rules)
    kinds = leads.kinds().tolist()  # not every play made: a Huopin hand has thousands
    kind = rng.choice(sorted(set(kinds)))
    play: Play = leads[rng.choice([index for index, each in enumerate(kinds) if each == kind])]
    return play


@pytest.mark.parametrize("rules", by_name(CARD_RULES, "big_joker_wild"))
def test_card_level_leads_are_the_pure_engines(core: ModuleType, rules: RuleSet) -> None:
    """Every lead, in the same order with the same readings, on every level with 0–2 wild cards."""
    count, largest = (POSITIONS // 4, LONG_HAND) if long_plays(rules) else (POSITIONS, 27)
    for level, hand in positions(11, count, largest):
        assert native.leads(hand, level, rules).to_list() == pure_leads(hand, level, rules), (level, hand)


@pytest.mark.parametrize("rules", by_name(CARD_RULES, "huopin", "huopin_loose"))
def test_card_level_follows_are_the_pure_engines(core: ModuleType, rules: RuleSet) -> None:
    """Every follow of every kind of play to beat, bombs and straight flushes included."""
    rng = random.Random(12)
    seen: set[PlayKind] = set()
    for level, hand in positions(13, POSITIONS // 4 if long_plays(rules) else POSITIONS):
        previous = previous_play(rng, level, rules)
        seen.add(previous.kind)
        expected = pure_follows(hand, previous, level, rules)
        assert native.follows(hand, previous, level, rules).to_list() == expected, (level, hand, previous)
        with_pass = native.follows(hand, previous, level, rules, with_pass=True).to_list()
        assert with_pass == [PASS, *expected]
    assert seen >= set(native.NATIVE_KINDS) - {PlayKind.FOUR_JOKERS} or POSITIONS < 300


@pytest.mark.parametrize("rules", CARD_RULES, ids=[rules.name for rules in CARD_RULES])
def test_rank_level_plays_are_the_pure_engines(core: ModuleType, rules: RuleSet) -> None:
    """Rank-level leads, and follows of each rank-level lead of another hand."""
    rng = random.Random(14)
    for level, hand in positions(15, POSITIONS):
        leads = list(iter_rank_leads(RankCounts(hand, level, rules)))
        assert native.rank_leads(hand, level, rules) == leads, (level, hand)
        other = rng.sample(DECK, rng.randint(1, 27))
        others = native.rank_leads(other, level, rules)
        for previous in rng.sample(others, min(3, len(others))):
            expected = list(iter_rank_follows(RankCounts(hand, level, rules), previous))
            assert native.rank_follows(hand, previous, level, rules) == expected, (level, hand, previous)


@pytest.mark.parametrize("rules", CARD_RULES, ids=[rules.name for rules in CARD_RULES])
def test_readings_of_card_sets_are_the_pure_engines(
    core: ModuleType, rules: RuleSet, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``classify`` of card sets drawn from the plays of random hands and at random, through both paths."""
    rng = random.Random(16)
    sets: list[tuple[Rank, tuple[Card, ...]]] = []
    for level, hand in positions(17, POSITIONS // 4, LONG_HAND if long_plays(rules) else 27):
        leads = native.leads(hand, level, rules)
        sets += [(level, leads[rng.randrange(len(leads))].cards) for _ in range(3)]
        sets.append((level, tuple(rng.sample(hand, min(len(hand), rng.randint(1, 10))))))
    native_readings = [classify(cards, level, rules) for level, cards in sets]
    monkeypatch.setattr(native, "CORE", None)
    assert [classify(cards, level, rules) for level, cards in sets] == native_readings


DEAL_RULES = (
    *CARD_RULES,
    RuleSet(name="old_lead", lead_passes_to_partner=False),
    RuleSet(name="to_partner", return_limit=ReturnLimit.TO_PARTNER, return_limit_rank=Rank.NINE),
    RuleSet(name="face_value", return_limit_by_face_value=True, anti_tribute_big_jokers=1),
)
"""Every rule set of the play tests, and the deal parameters the presets leave at their defaults: 下家
接风, a return limit only towards one's partner, limits by face value and 抗贡 on one big joker (CLASSIC
places double tributes and excuses a payer on two small jokers; HUOPIN lets any card be returned and
the 下游 lead after a double tribute)."""


def lockstep_deal(
    core_deal: CoreDeal, deal: Deal, rng: random.Random, *, check_every: int
) -> tuple[int, int]:
    """Play the core's deal and the pure one side by side, choosing at random among the core's legal
    actions: the same player to act and phase at every turn, the same tribute and return cards, the
    core's plays equal to the pure list every ``check_every`` turns (and legal for the pure machine at
    every turn). Returns (tribute and return actions, plays)."""
    phases = {Phase.TRIBUTE: 0, Phase.RETURN: 1, Phase.PLAY: 2, Phase.OVER: 3}
    cards = plays = 0
    while deal.phase is not Phase.OVER:
        seat = deal.current_player
        assert seat is not None
        assert (core_deal.phase, core_deal.current_player) == (phases[deal.phase], seat)
        if deal.phase is Phase.PLAY:
            listed = core_deal.legal_plays()
            if plays % check_every == 0:
                pure = deal.legal_actions()
                assert isinstance(pure, LegalPlays)
                assert listed.to_list() == pure.plays.to_list()
            play = listed[rng.randrange(len(listed))]
            core_deal.play(play)
            deal.apply(PlayAction(seat, play))
            plays += 1
            continue
        given = core_deal.legal_cards()
        assert given == [action.card for action in deal.legal_actions()]  # type: ignore[union-attr]
        card = rng.choice(given)
        core_deal.give(card)
        deal.apply(deal.legal_actions()[given.index(card)])
        cards += 1
        if deal.phase is not Phase.RETURN:
            assert [sorted(core_deal.hand(s)) for s in range(4)] == [sorted(deal.hand(s)) for s in range(4)]
    assert deal.result is not None
    assert core_deal.places == list(deal.result.places)
    return cards, plays


@pytest.mark.parametrize("rules", by_name(DEAL_RULES, "huopin", "huopin_loose"))
def test_deals_in_the_core_step_with_the_pure_machine(
    core: ModuleType, rules: RuleSet, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The core's deal machine against the pure one, first deals and deals after random places alike:
    tribute (进贡) and 抗贡, the assignment of a double tribute, the return (还贡) and its limit, who
    leads after it, then the plays, 接风 and the places; every action chosen at random from the core's
    legal list."""
    rng = random.Random(18)
    monkeypatch.setattr(native, "CORE", None)
    counted = Counter[str]()
    for number in range(DEALS):
        hands, (leader, _) = shuffled_hands(rng)
        level = NATURAL_RANKS[number % len(NATURAL_RANKS)]
        if number % 4 == 0:
            core_deal = core.Deal(hands, level, native.deal_parameters(rules), leader)
            deal = Deal(hands, level, rules, leader=leader)
        else:
            places = rng.sample(range(4), 4)
            core_deal = core.Deal(hands, level, native.deal_parameters(rules), previous_places=places)
            deal = Deal(hands, level, rules, previous_places=places)
            excused = sorted(event.seat or 0 for event in deal.events if event.kind is EventKind.ANTI_TRIBUTE)
            assert excused == ([places[0]] if core_deal.anti_tribute else core_deal.exempt)
            counted["抗贡"] += core_deal.anti_tribute
            counted["exempt"] += len(core_deal.exempt)
        cards, plays = lockstep_deal(core_deal, deal, rng, check_every=1 if number < 8 else 16)
        counted["tribute and return"] += cards
        counted["plays"] += plays
        if deal.tribute_plan is not None and deal.tribute_plan.payers:
            assert core_deal.receiver_of == deal._receiver_of
            assert core_deal.leader == deal.leader
    assert counted["tribute and return"] > 0
    assert counted["plays"] > 27 * DEALS


def test_a_return_with_no_card_within_the_limit_is_the_lowest_card(core: ModuleType) -> None:
    """还贡 at most 10 (docs/rules/competition.md#return-card), or the lowest card when the receiver holds
    none that low: 上游 holding J and above, given a level card (2, ranked above A), returns a J, in both
    machines."""
    high = [card for card in DECK if card.rank >= Rank.JACK]
    low = [card for card in DECK if card.rank < Rank.JACK]
    winner, leftover = high[:27], high[27:]
    hands = [winner, leftover + low[27:45], low[45:], low[:27]]
    core_deal = core.Deal(hands, 2, native.deal_parameters(COMPETITION), previous_places=[0, 1, 2, 3])
    deal = Deal(hands, Rank.TWO, COMPETITION, previous_places=[0, 1, 2, 3])
    lockstep_deal(core_deal, deal, random.Random(5), check_every=50)
    given = [event.card for event in deal.events if event.kind in (EventKind.TRIBUTE, EventKind.RETURN)]
    assert [card.rank if card is not None else None for card in given] == [Rank.TWO, Rank.JACK]


def test_random_deals_batch_counts_whole_deals(core: ModuleType) -> None:
    """The batch call plays every deal to its end: each takes at least the 27 plays of one seat."""
    for tribute in (False, True):
        deals, actions = core.random_deals(50, 3, 2, native.deal_parameters(COMPETITION), tribute)
        assert deals == 50
        assert actions >= 50 * 27 * 2


@settings(max_examples=150, deadline=None, derandomize=True, database=None)
@given(
    positions=st.lists(st.integers(0, 107), unique=True, min_size=1, max_size=27),
    level=st.sampled_from(NATURAL_RANKS),
    rules=st.sampled_from(CARD_RULES),
)
def test_property_leads_and_readings_agree(positions: list[int], level: Rank, rules: RuleSet) -> None:
    """Any hand, any level: the same leads, and the same readings of its first plays' cards."""
    if native.CORE is None:
        pytest.skip("the compiled core is not built")
    hand = tuple(sorted((DECK[position] for position in positions), key=lambda card: card.index))
    leads = native.leads(hand, level, rules).to_list()
    assert leads == pure_leads(hand, level, rules)
    cards = [play.cards for play in leads[:: max(1, len(leads) // 5)]] + [hand[:5], hand[-8:]]
    readings = [classify(each, level, rules) for each in cards]
    with native.pure_engine():
        assert [classify(each, level, rules) for each in cards] == readings


def test_a_play_set_is_packed_and_lazy(core: ModuleType) -> None:
    """8 bytes a play (the cards as a mask over the hand's, kind, rank and the wild cards' stand-ins; the
    key recomputed), 24 where a play holds more than two wild cards; columns as NumPy arrays; plays
    made on access; ``index`` finds a play."""
    hand = parse_cards("H2 H2 S3 S4 S5 S6 S7 C7 D7 S8 S9 ST SJ SQ SK SA HA CA DA SB SB HR HR C9 D9 CT DT")
    plays = legal_play_set(hand, None, Rank.TWO)
    listed = plays.to_list()
    packed = core.card_leads(hand, 2, PARAMETERS)
    assert packed.compact
    assert packed.nbytes == 8 * len(plays) + 32
    assert core.PLAY_BYTES == 24
    wide = core.card_leads(parse_cards("H2 H2 S3 S4 S5 HR HR"), 2, native.play_parameters(HUOPIN))
    assert not wide.compact
    assert wide.nbytes == 24 * len(wide)
    assert max(play.wild_count for play in wide.to_list()) == 4
    assert len(plays) == len(listed) > 1000
    assert plays.of_kind(PlayKind.PAIR).to_list() == [play for play in listed if play.kind is PlayKind.PAIR]
    assert plays[-1] == listed[-1]
    assert plays.index(listed[700]) == 700
    actions = plays.actions(3, PlayAction)
    assert actions == tuple(PlayAction(3, play) for play in listed)
    assert hash(actions[5]) == hash(PlayAction(3, listed[5]))
    with pytest.raises(FrozenInstanceError):
        actions[0].seat = 1  # type: ignore[misc]
    assert list(plays.kinds()) == [play.kind for play in listed]
    assert list(plays.keys()) == [play.key for play in listed]
    assert list(plays.sizes()) == [len(play.cards) for play in listed]
    assert list(plays.wild_counts()) == [play.wild_count for play in listed]
    counts = plays.card_counts()
    assert counts.shape == (len(listed), 54)
    assert all(
        Counter(play.cards) == Counter({card: counts[i, card.index] for card in play.cards})
        for i, play in enumerate(listed[:50])
    )


def test_a_pure_play_set_answers_alike() -> None:
    """Where the pure engine serves (no core), the play set has the same interface."""
    hand = parse_cards("H2 S3 S4 S5 S6 S7 SB HR HR")
    with native.pure_engine():
        plays = legal_play_set(hand, None, Rank.TWO, HUOPIN)
    listed = plays.to_list()
    assert isinstance(plays, native.ListPlaySet)
    assert len(plays) == len(listed)
    assert list(plays.kinds()) == [play.kind for play in listed]
    assert plays.index(listed[3]) == 3
    assert plays.actions(0, PlayAction) == tuple(PlayAction(0, play) for play in listed)
    assert plays.of_kind(PlayKind.SINGLE).to_list() == [
        play for play in listed if play.kind is PlayKind.SINGLE
    ]
    assert plays.card_counts().sum() == sum(len(p.cards) for p in listed)


def test_a_play_set_s_columns_are_the_pure_set_s(core: ModuleType) -> None:
    """The core's columns (kinds, key ranks, keys, sizes, wild cards, card counts) are those the pure
    set computes from the same plays, passes included."""
    hand = parse_cards("H2 H2 S3 S4 S5 S6 S7 C7 D7 SB SB HR HR")
    for previous in (None, *(classify(parse_cards(text), Rank.TWO)[0] for text in ("S5", "C3 C3 D3 S6 S6"))):
        packed = legal_play_set(hand, previous, Rank.TWO)
        assert not isinstance(packed, native.ListPlaySet)
        listed = native.ListPlaySet(packed.to_list())
        for column in ("kinds", "ranks", "keys", "sizes", "wild_counts", "card_counts"):
            assert getattr(packed, column)().tolist() == getattr(listed, column)().tolist(), column


@pytest.mark.parametrize("pure", [False, True], ids=["native", "pure"])
def test_a_card_held_three_times_is_refused(pure: bool, monkeypatch: pytest.MonkeyPatch) -> None:
    """Two decks hold each card twice: nine ♠3 (or ♠A three times) are no hand, in both paths."""
    if pure:
        monkeypatch.setattr(native, "CORE", None)
    with pytest.raises(ValueError, match="S3 is held 9 times"):
        classify(parse_cards(" ".join(["S3"] * 9)), Rank.TWO)
    with pytest.raises(ValueError, match="SA is held 3 times"):
        classify(parse_cards("SA SA SA"), Rank.TWO)


def test_bad_input_through_the_binding_raises(core: ModuleType) -> None:
    """Wrong objects, out-of-range levels and impossible hands raise Python exceptions, never a crash."""
    with pytest.raises(TypeError, match="expected a Card"):
        core.card_leads([1, 2, 3], 2, PARAMETERS)
    with pytest.raises(ValueError, match="level"):
        core.card_leads(parse_cards("S3"), 15, PARAMETERS)
    with pytest.raises(ValueError, match="held -1 times"):
        core.card_leads(Counter({Card(Rank.THREE, Suit.SPADES): -1}), 2, PARAMETERS)
    with pytest.raises(ValueError, match="kind"):
        core.card_follows(parse_cards("S3"), 2, PARAMETERS, int(PlayKind.AIRPLANE), 10, 5)
    with pytest.raises(IndexError):
        core.card_leads(parse_cards("S3"), 2, PARAMETERS)[5]
    deal_parameters = native.deal_parameters(COMPETITION)
    with pytest.raises(ValueError, match="four hands"):
        core.Deal([parse_cards("S3")], 2, deal_parameters, 0)
    with pytest.raises(ValueError, match="27 cards"):
        core.Deal([parse_cards("S3")] * 4, 2, deal_parameters, 0)
    hands = [DECK[seat::4] for seat in range(4)]
    with pytest.raises(ValueError, match="23 integers"):
        core.Deal(hands, 2, PARAMETERS, 0)
    with pytest.raises(ValueError, match="either the first leader or"):
        core.Deal(hands, 2, deal_parameters, 0, [0, 1, 2, 3])
    with pytest.raises(ValueError, match="four seats in finishing order"):
        core.Deal(hands, 2, deal_parameters, previous_places=[0, 0, 2, 3])
    deal = core.Deal(hands, 2, deal_parameters, previous_places=[0, 1, 2, 3])
    with pytest.raises(ValueError, match="no play now"):
        deal.play(PASS)
    with pytest.raises(ValueError, match="may not give"):
        deal.give(Card(Rank.THREE, Suit.SPADES))
    deal.give(deal.legal_cards()[0])
    assert deal.phase == 1


def test_a_deal_state_fits_in_a_kilobyte(core: ModuleType) -> None:
    """Memory: a deal in the core is a few hundred bytes (the issue's bound is 1 KB)."""
    assert core.DEAL_BYTES <= 1024


def test_cardroom_pure_forces_the_pure_engine(core: ModuleType) -> None:
    """``CARDROOM_PURE=1`` leaves the core unloaded in a fresh process, whatever the rule set; without it
    the same process loads the core and serves every rule set."""
    probe = "from cardroom.guandan import HUOPIN, native; print(native.CORE is None, native.serves(HUOPIN))"
    for value, expected in (("1", "True False"), ("0", "False True"), ("", "False True")):
        environment = {**os.environ, "CARDROOM_PURE": value}
        run = subprocess.run(
            [sys.executable, "-c", probe], env=environment, capture_output=True, text=True, check=True
        )
        assert run.stdout.split() == expected.split(), value
    assert tuple(EXTENDED_ENUMERATORS) == EXTENDED_ORDER


def test_bad_play_parameters_are_refused(core: ModuleType) -> None:
    """Parameters out of a RuleSet's range raise instead of reaching the enumerators."""
    bad = list(PARAMETERS)
    bad[10] = 40  # max_bomb_size
    with pytest.raises(ValueError, match="out of range"):
        core.card_leads(parse_cards("S3"), 2, tuple(bad))
    with pytest.raises(ValueError, match="15 integers"):
        core.card_leads(parse_cards("S3"), 2, (1, 2))


def test_rank_play_of_a_native_play_names_it(core: ModuleType) -> None:
    """Values from the core are ordinary plays: the rank view of one is its RankPlay."""
    play = classify(parse_cards("H2 S3 S4 S6 S7"), Rank.TWO)[0]
    assert rank_play_of(play) == RankPlay(PlayKind.STRAIGHT, Rank.THREE, 5, 1, 7)


@pytest.mark.parametrize("pure", [False, True], ids=["native", "pure"])
def test_a_play_to_beat_of_a_kind_the_rules_lack_is_refused(pure: bool) -> None:
    """Following an airplane under the competition's plays is a caller's error, said in both engines."""
    airplane = classify(parse_cards("S3 H3 C3 S4 H4 C4 S6 H6 S7 H7"), Rank.TWO, HUOPIN)[0]
    hand = parse_cards("S5 H5 C5 D5 S9")
    with native.pure_engine() if pure else nullcontext(), pytest.raises(ValueError, match="airplane play"):
        legal_play_set(hand, airplane, Rank.TWO)


@pytest.mark.parametrize("rules", [COMPETITION, HUOPIN], ids=["competition", "huopin"])
def test_playouts_from_positions_are_legal_for_the_pure_machine(core: ModuleType, rules: RuleSet) -> None:
    """A position met in a random deal (some seats out, a play to beat, passes on it), played on in the
    core to the end of the deal or of the trick: every action legal for the pure machine on a copy, which
    ends where the playout said (the deal over, or the trick), the deal itself untouched."""
    rng = random.Random(19)
    checked = 0
    for number in range(DEALS // 2):
        hands, (leader, _) = shuffled_hands(rng)
        deal = Deal(hands, Rank.TWO, rules, leader=leader)
        stop = rng.randrange(20, 140)
        while deal.phase is Phase.PLAY and len(deal.actions) < stop:
            deal.apply(rng.choice(deal.legal_actions()))
        if deal.phase is not Phase.PLAY:
            continue
        before = [deal.hand(seat) for seat in range(4)]
        for trick_only in (False, True):
            actions = random_playout(deal, number, trick_only=trick_only)
            copy = Deal.at_position(
                before,
                Rank.TWO,
                rules,
                current_player=deal.current_player or 0,
                finished=deal.finished,
                last_play=deal.last_play,
                passes=deal.passes,
            )
            with native.pure_engine():
                for action in actions:
                    copy.apply(action)
            if trick_only:
                assert copy.phase is Phase.OVER or copy.last_play is None
                assert all(event.kind != EventKind.TRICK for event in copy.events[:-1])
            else:
                assert copy.phase is Phase.OVER
            checked += 1
        assert [deal.hand(seat) for seat in range(4)] == before
    assert checked >= DEALS // 4


def test_a_pure_playout_answers_alike() -> None:
    """Without the core the same call plays on with the pure machine."""
    rng = random.Random(20)
    hands, (leader, _) = shuffled_hands(rng)
    deal = Deal(hands, Rank.TWO, COMPETITION, leader=leader)
    with native.pure_engine():
        actions = random_playout(deal, 5)
        copy = Deal(hands, Rank.TWO, COMPETITION, leader=leader)
        for action in actions:
            copy.apply(action)
    assert copy.phase is Phase.OVER


def test_entries_are_matched_to_plays_as_the_pure_set_matches_them(core: ModuleType) -> None:
    """``PlaySet.match_entries`` (the competition client's lookup) answers as the pure set's, index for
    index, on the wire lists of random deals' leads and follows with malformed entries mixed in."""
    from cardroom.competition.messages import wire_triple
    from cardroom.competition.view import CARD_INDICES, WIRE_HEADS

    rng = random.Random(5)
    malformed: list[object] = [
        ["Single", "3"],
        ["Pair", "Z", ["S3", "S3"]],
        ["Nope", "3", ["S3"]],
        ["Single", "3", ["X9"]],
        ["Trips", "3", ["S3", "S3", "S3"]],
        "PASS",
        ["Single", 3, ["S3"]],
        ["Single", "3", [3]],
        ["PASS", "PASS", "PASS"],
    ]
    compared = 0
    for _ in range(40):
        hand = rng.sample(list(full_deck()), 27)
        level = rng.choice([rank for rank in Rank if not rank.is_joker])
        previous = (
            None
            if rng.random() < 0.5
            else rng.choice(legal_plays(rng.sample(list(full_deck()), 27), None, level))
        )
        packed = legal_play_set(hand, previous, level)
        assert not isinstance(packed, native.ListPlaySet)
        entries: list[object] = [wire_triple(play) for play in packed.to_list()]
        entries += [
            wire_triple(play) for play in legal_plays(rng.sample(list(full_deck()), 27), None, level)[:20]
        ]
        entries += malformed
        rng.shuffle(entries)
        listed = native.ListPlaySet(packed.to_list())
        assert packed.match_entries(entries, WIRE_HEADS, CARD_INDICES) == listed.match_entries(
            entries, WIRE_HEADS, CARD_INDICES
        )
        compared += len(entries)
    assert compared > 10_000
