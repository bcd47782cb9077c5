"""Determinisation: sampled hands fit everything the seat has seen, and the sampled position offers
the seat exactly its real legal actions."""

from __future__ import annotations

import random
from collections import Counter

from cardroom.bots.sampling import FULL_SET, known_holdings, sample_hands, sample_position, unseen_cards
from cardroom.guandan.deal import Phase
from cardroom.guandan.match import Match


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
                        if e.kind == "play" and e.play
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
