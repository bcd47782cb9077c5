"""The position evaluation: finishing-order odds from the four plans, valued for a team."""

from __future__ import annotations

import math
import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from cardroom.bots import HeuristicBot
from cardroom.bots.evaluation import (
    FEATURES,
    WEIGHTS,
    order_odds,
    places_value,
    position_features,
    position_value,
    strength,
)
from cardroom.bots.planning import Planner
from cardroom.bots.playout import play_out
from cardroom.bots.sampling import sample_position
from cardroom.cards import ALL_CARDS, Card, Rank, Suit
from cardroom.guandan.deal import Deal, Phase
from cardroom.guandan.match import Match
from cardroom.guandan.observation import Observation
from cardroom.guandan.ruleset import COMPETITION, PRESETS


def midgame(seed: int, moves: int) -> tuple[Deal, Observation]:
    """A sampled play-phase position after ``moves`` random actions of a fresh deal, and the
    observation it was sampled from."""
    rng = random.Random(seed)
    match = Match(COMPETITION)
    match.deal_random(rng)
    for _ in range(moves):
        match.apply(rng.choice(match.legal_actions()))
    seat = match.current_player
    assert seat is not None
    observation = match.observation(seat)
    return sample_position(observation, random.Random(seed)), observation


def test_the_weights_match_the_features() -> None:
    assert len(WEIGHTS) == len(FEATURES)


@pytest.mark.parametrize(
    ("name", "places", "value"),
    [
        ("competition", (0, 2, 1, 3), 4),
        ("competition", (0, 1, 2, 3), 3),
        ("competition", (0, 1, 3, 2), 2),
        ("competition", (1, 0, 3, 2), 3),
        ("platform", (0, 2, 1, 3), 5),
        ("platform", (3, 0, 2, 1), 2),
    ],
)
def test_an_orders_value_is_one_plus_the_level_rise_for_the_winners_and_its_opposite(
    name: str, places: tuple[int, int, int, int], value: int
) -> None:
    """docs/rules/competition.md#level-up: the 上游's team rises by its partner's place (二游 +3, 三游 +2,
    下游 +1; the platform rule set's 双下 +4)."""
    rules = PRESETS[name]
    winner = places[0]
    assert places_value(places, winner, rules) == places_value(places, (winner + 2) % 4, rules) == value
    assert places_value(places, (winner + 1) % 4, rules) == places_value(places, (winner + 3) % 4, rules)
    assert places_value(places, (winner + 1) % 4, rules) == -value


def slow_order_probability(strengths: dict[int, float], order: tuple[int, ...]) -> float:
    """The Plackett-Luce probability, written out as a product of softmax choices."""
    left = dict(strengths)
    probability = 1.0
    for seat in order:
        probability *= math.exp(left[seat]) / sum(math.exp(value) for value in left.values())
        del left[seat]
    return probability


@given(st.lists(st.floats(-6, 6), min_size=1, max_size=4))
def test_order_odds_are_the_plackett_luce_probabilities_and_sum_to_one(values: list[float]) -> None:
    strengths = dict(enumerate(values))
    odds = order_odds(strengths)
    assert len(odds) == math.factorial(len(values))
    assert sum(probability for _, probability in odds) == pytest.approx(1.0)
    for order, probability in odds:
        assert probability == pytest.approx(slow_order_probability(strengths, order))


def test_a_finished_deal_is_valued_exactly() -> None:
    deal, observation = midgame(4, moves=0)
    play_out(deal, HeuristicBot(random.Random(0)), observation)
    assert deal.result is not None
    planner = Planner(deal.level)
    for seat in range(4):
        assert position_value(deal, seat, planner) == places_value(deal.result.places, seat, deal.rules)


@pytest.mark.parametrize("seed", range(6))
def test_partners_share_a_value_and_opponents_have_its_opposite(seed: int) -> None:
    deal, _ = midgame(seed, moves=12)
    planner = Planner(deal.level)
    value = position_value(deal, 0, planner)
    assert -4 <= value <= 4
    assert position_value(deal, 2, planner) == pytest.approx(value)
    assert position_value(deal, 1, planner) == pytest.approx(-value)
    assert position_value(deal, 3, planner) == pytest.approx(-value)


def test_features_cover_exactly_the_seats_still_in_play() -> None:
    deal, _ = midgame(5, moves=20)
    features = position_features(deal, Planner(deal.level))
    assert set(features) == {seat for seat in range(4) if seat not in deal.finished}
    for seat, values in features.items():
        assert len(values) == len(FEATURES)
        assert values[FEATURES.index("cards")] == deal.card_count(seat)
        assert values[FEATURES.index("has the lead")] == (seat == deal.current_player)


def one_play_from_out() -> Deal:
    """Seat 0 leads holding one pair; the others hold 27 cards each."""
    nine = Card(Rank.NINE, Suit.SPADES)
    cards = [card for card in ALL_CARDS for _ in range(2) if card != nine]
    random.Random(9).shuffle(cards)
    hands = [[nine, nine], cards[:27], cards[27:54], cards[54:81]]
    return Deal.at_position(hands, Rank.TWO, COMPETITION, current_player=0)


def test_a_leader_one_play_from_going_out_is_the_likeliest_upstream() -> None:
    """The fitted weights agree with play: a seat to lead with a single play left goes out first."""
    deal = one_play_from_out()
    assert deal.phase is Phase.PLAY
    planner = Planner(deal.level)
    features = position_features(deal, planner)
    assert features[0][FEATURES.index("plain plays")] == 1
    odds = order_odds({seat: strength(values) for seat, values in features.items()})
    first = sum(probability for order, probability in odds if order[0] == 0)
    assert first > 0.8
    assert position_value(deal, 0, planner) > 1.5
