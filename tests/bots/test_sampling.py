"""Determinisation: sampled hands fit everything the seat has seen, and the sampled position offers
the seat exactly its real legal actions."""

from __future__ import annotations

import itertools
import math
import random
from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import replace

import pytest

from cardroom.bots.heuristic import HeuristicBot
from cardroom.bots.sampling import (
    FULL_SET,
    HandSampler,
    excluded_cards,
    known_holdings,
    sample_hands,
    sample_position,
    unseen_cards,
)
from cardroom.cards import BIG_JOKER, SMALL_JOKER, Card, parse_cards
from cardroom.guandan.deal import Deal, EventKind, Phase
from cardroom.guandan.match import Match
from cardroom.guandan.ruleset import PRESETS, preset
from cardroom.guandan.tribute import TributePlan


def test_sampled_hands_fit_counts_cards_and_known_holdings() -> None:
    rng = random.Random(1)
    checked = 0
    for _ in range(6):
        match = Match(max_deals=3)
        while not match.is_over:
            deal = match.deal_random(rng)
            while deal.phase is not Phase.OVER:
                seat = deal.current_player
                assert seat is not None
                observation = match.observation(seat)
                if deal.phase is Phase.PLAY and rng.random() < 0.2:
                    hands = sample_hands(observation, random.Random(checked))
                    assert hands[seat] == observation.hand
                    assert tuple(len(hand) for hand in hands) == observation.card_counts
                    played = Counter(
                        card
                        for e in observation.history
                        if e.kind == EventKind.PLAY and e.play
                        for card in e.play.cards
                    )
                    assert sum((Counter(hand) for hand in hands), Counter()) + played == FULL_SET
                    for other, held in enumerate(known_holdings(observation)):
                        assert not held - Counter(deal.hand(other)), "a known card is really held"
                        assert not held - Counter(hands[other]), "a known card is placed with its holder"
                    position = sample_position(observation, random.Random(checked))
                    assert tuple(position.legal_actions()) == observation.legal_actions
                    assert sum(unseen_cards(observation).values()) == sum(observation.card_counts) - len(
                        observation.hand
                    )
                    checked += 1
                match.apply(rng.choice(match.legal_actions()))
    assert checked > 50


def test_sampling_is_deterministic_under_a_seed() -> None:
    rng = random.Random(2)
    match = Match()
    match.deal_random(rng)
    for _ in range(30):
        match.apply(rng.choice(match.legal_actions()))
    seat = match.current_player
    assert seat is not None
    observation = match.observation(seat)
    assert sample_hands(observation, random.Random(5)) == sample_hands(observation, random.Random(5))
    assert sample_hands(observation, random.Random(5)) != sample_hands(observation, random.Random(6))


def test_the_turned_card_stays_with_its_holder_until_played() -> None:
    """docs/rules/competition.md#first-lead (抓到翻出牌張者首圈領出牌): every seat saw the first deal's turned
    card go to its holder, so every sample deals it there; once the holder plays that card, its copies are
    drawn as any other unseen card."""
    rng = random.Random(3)
    match = Match()
    deal = match.deal_random(rng)
    turned = match.observation(0).turned
    assert turned is not None
    holder, card = turned
    placed_elsewhere = 0
    while deal.phase is Phase.PLAY:
        seat = deal.current_player
        assert seat is not None
        observation = match.observation(seat)
        played_it = any(
            event.seat == holder and event.play is not None and card in event.play.cards
            for event in observation.history
        )
        if seat != holder:
            for index in range(8):
                hands = sample_hands(observation, random.Random(index))
                if not played_it:
                    assert card in hands[holder], "the turned card is in its holder's sampled hand"
                elif card not in hands[holder]:
                    placed_elsewhere += 1
            assert (known_holdings(observation)[holder][card] > 0) is (not played_it)
        match.apply(rng.choice(match.legal_actions()))
    assert placed_elsewhere > 0, "after it is played, the card's other copy is sampled freely"


def heuristic_matches(rules_name: str, matches: int, seed: int) -> Iterator[tuple[Match, Deal, int]]:
    """Every turn of heuristic matches (with tribute) under a preset: the match, its deal and the seat
    to act, before it acts."""
    rng = random.Random(seed)
    bots = [HeuristicBot(random.Random(seed + seat)) for seat in range(4)]
    for _ in range(matches):
        match = Match(preset(rules_name), max_deals=8)
        while not match.is_over:
            deal = match.deal_random(rng)
            while deal.phase is not Phase.OVER:
                seat = deal.current_player
                assert seat is not None
                yield match, deal, seat
                match.apply(bots[seat].act(match.observation(seat)))


@pytest.mark.parametrize(
    "rules_name",
    [pytest.param(name, marks=[pytest.mark.slow] if name == "huopin" else []) for name in sorted(PRESETS)],
)
def test_excluded_cards_are_never_held_and_never_sampled(rules_name: str) -> None:
    """docs/rules/competition.md#tribute-card: 下游 gives the highest card in hand (the ♥ level card
    excluded), so a payer holds nothing above its tribute but what its return brought; 抗贡: the paying side
    holding both big jokers pays nothing; `classic` (docs/rules/classic.md#exemptions:
    如果進貢一方，有一人摸到兩張副畫，則此人不用進貢) a payer with both small jokers is excused. What each
    seat reads from these is true of the real hands, and no sample deals an excluded card to the seat it is
    excluded from."""
    excluded_seen = Counter[str]()
    for match, deal, seat in heuristic_matches(rules_name, 4, 40):
        observation = match.observation(seat)
        excluded = excluded_cards(observation)
        known = known_holdings(observation)
        assert not excluded[seat]
        for other in range(4):
            unknown = Counter(deal.hand(other)) - known[other]
            assert not excluded[other] & set(unknown), f"seat {other} holds a card excluded from it"
            excluded_seen["big joker"] += BIG_JOKER in excluded[other]
            excluded_seen["below the big joker"] += any(card is not BIG_JOKER for card in excluded[other])
        if deal.phase in (Phase.PLAY, Phase.RETURN) and any(excluded):
            sampler = HandSampler.for_observation(observation)
            hands = sampler.sample(random.Random(len(excluded_seen)))
            for other in range(4):
                drawn = Counter(hands[other]) - Counter(sampler.fixed[other])
                assert not excluded[other] & set(drawn), f"a sample gives seat {other} an excluded card"
    assert excluded_seen["big joker"] > 100
    assert excluded_seen["below the big joker"] > 100


def test_tribute_facts_under_each_rule() -> None:
    """The facts one by one: a payer that gave a small joker holds no big joker (read from the tribute
    alone, as through the competition protocol, which carries no previous places); the whole paying
    side's 抗贡 puts the unplayed big jokers with the payers; in `classic` an excused payer holds the
    small jokers it has not played."""
    found = Counter[str]()
    for rules_name in ("competition", "classic"):
        for match, deal, seat in heuristic_matches(rules_name, 12, 41):
            if deal.phase is not Phase.PLAY:
                continue
            observation = match.observation(seat)
            excluded = excluded_cards(observation)
            plan = deal.tribute_plan
            for event in observation.history:
                if event.kind is EventKind.TRIBUTE and event.card is SMALL_JOKER and event.seat != seat:
                    assert event.seat is not None
                    assert BIG_JOKER in excluded[event.seat]
                    blind = replace(observation, previous_places=None)
                    assert BIG_JOKER in excluded_cards(blind)[event.seat], "the protocol's view tells it too"
                    found["paid a small joker"] += 1
                elif event.kind is EventKind.ANTI_TRIBUTE and plan is not None:
                    payers = TributePlan.from_places(plan.places).payers
                    if event.seat in payers:
                        holder = "the excused payer"
                        assert all(
                            SMALL_JOKER in excluded[other]
                            for other in range(4)
                            if other not in (seat, event.seat)
                        )
                    else:
                        holder = "the paying side"
                        assert all(
                            BIG_JOKER in excluded[other]
                            for other in range(4)
                            if other != seat and other not in payers
                        )
                    found[holder] += 1
    assert found["paid a small joker"] > 20
    assert found["the paying side"] > 20
    assert found["the excused payer"] > 0


def brute_force_dealings(
    seat: int, counts: Sequence[int], cards: Sequence[Card], excluded: Sequence[frozenset[Card]]
) -> Counter[tuple[tuple[Card, ...], ...]]:
    """Every dealing of ``cards`` (distinct) to the other seats that fits the counts and exclusions."""
    dealings = Counter[tuple[tuple[Card, ...], ...]]()
    others = [other for other in range(4) if other != seat]
    for owners in itertools.product(others, repeat=len(cards)):
        hands = tuple(
            tuple(sorted(card for card, owner in zip(cards, owners, strict=True) if owner == other))
            for other in range(4)
        )
        if all(len(hands[other]) == counts[other] for other in others) and not any(
            excluded[other] & set(hands[other]) for other in others
        ):
            dealings[hands] += 1
    return dealings


def test_restricted_dealing_is_uniform_over_what_fits() -> None:
    """Cross-checked against brute force: with cards excluded from some seats, each dealing that fits is
    drawn equally often (a chi-squared test over 12,000 draws, far inside its 0.1% bound)."""
    cards = parse_cards("S3 H4 C5 D6 S7 H8 C9 DT")
    excluded = [frozenset(), frozenset(parse_cards("S3 H4 C5")), frozenset(), frozenset(parse_cards("C5 D6"))]
    counts = (0, 3, 2, 3)
    dealings = brute_force_dealings(0, counts, cards, excluded)
    sampler = HandSampler(0, [(), (), (), ()], counts, cards, excluded)
    rng = random.Random(9)
    draws = 12_000
    drawn = Counter(tuple(tuple(sorted(hand)) for hand in sampler.sample(rng)) for _ in range(draws))
    assert set(drawn) == set(dealings)
    expected = draws / len(dealings)
    chi_squared = sum((drawn[dealing] - expected) ** 2 / expected for dealing in dealings)
    degrees = len(dealings) - 1
    assert chi_squared < degrees + 4.4 * math.sqrt(2 * degrees)


def test_nothing_fitting_the_exclusions_falls_back_to_uniform() -> None:
    """Exclusions that no dealing fits (a return that broke the limit) are dropped, not an error."""
    cards = parse_cards("S3 H4 C5")
    excluded = [frozenset(), frozenset(cards), frozenset(cards), frozenset()]
    sampler = HandSampler(0, [(), (), (), ()], (0, 1, 1, 1), cards, excluded)
    assert not sampler.groups
    hands = sampler.sample(random.Random(1))
    assert sorted(card for hand in hands for card in hand) == sorted(cards)


def test_inconsistent_counts_are_refused_by_name() -> None:
    with pytest.raises(ValueError, match="4 unseen cards for 3 places"):
        HandSampler(0, [(), (), (), ()], (0, 1, 1, 1), parse_cards("S3 H4 C5 D6"), [frozenset()] * 4)
