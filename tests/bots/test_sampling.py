"""Determinisation: sampled hands fit everything the seat has seen, and the sampled position offers
the seat exactly its real legal actions."""

from __future__ import annotations

import random
from collections import Counter

from cardroom.bots.sampling import FULL_SET, known_holdings, sample_hands, sample_position, unseen_cards
from cardroom.guandan.deal import EventKind, Phase
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
    """Seed 002 通則 二.2 (抓到翻出牌張者首圈領出牌): every seat saw the first deal's turned card go to
    its holder, so every sample deals it there; once the holder plays that card, its copies are drawn as
    any other unseen card."""
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
