"""The search bot and its greedy playout policy."""

from __future__ import annotations

import random

import pytest

from cardroom.bots import Bot, RandomBot, SearchBot
from cardroom.bots.playout import greedy_play, play_out
from cardroom.bots.sampling import sample_position
from cardroom.cards import Rank
from cardroom.guandan.deal import Action, Deal, Phase, PlayAction
from cardroom.guandan.match import Match, shuffled_hands
from cardroom.guandan.ruleset import COMPETITION, PRESETS


def play_deal(bots: list[Bot], rng: random.Random) -> tuple[list[Action], int]:
    """One fresh deal with these bots, every action through the validator: (actions, 上游's team)."""
    match = Match(COMPETITION, max_deals=1)
    match.deal_random(rng)
    actions = []
    while match.current_deal is not None:
        seat = match.current_player
        assert seat is not None
        observation = match.observation(seat)
        action = bots[seat].act(observation)
        assert match.can(action)
        match.apply(action)
        actions.append(action)
    return actions, match.summaries[0].result.winning_team


@pytest.mark.parametrize("name", sorted(PRESETS))
def test_the_greedy_playout_only_plays_legal_moves(name: str) -> None:
    rng = random.Random(1)
    for _ in range(5):
        hands, (leader, _) = shuffled_hands(rng)
        deal = Deal(hands, Rank.TWO, PRESETS[name], leader=leader)
        play_out(deal)
        assert deal.phase is Phase.OVER


def test_a_sampled_position_gives_the_greedy_policy_a_legal_play() -> None:
    rng = random.Random(5)
    match = Match()
    match.deal_random(rng)
    for _ in range(25):
        match.apply(rng.choice(match.legal_actions()))
    seat = match.current_player
    assert seat is not None
    position = sample_position(match.observation(seat), random.Random(1))
    assert position.can(PlayAction(seat, greedy_play(position)))


def test_search_makes_only_legal_actions_and_is_deterministic_under_a_seed() -> None:
    def bots() -> list[Bot]:
        return [SearchBot(random.Random(seat), playouts=24) for seat in range(4)]

    first = play_deal(bots(), random.Random(3))
    assert first == play_deal(bots(), random.Random(3))


def test_search_beats_random_players() -> None:
    """A sanity check of strength, not the benchmark: six deals against random bots."""
    rng = random.Random(4)
    won = 0
    for deal in range(6):
        bots: list[Bot] = [
            SearchBot(random.Random(deal * 4 + seat), playouts=24)
            if seat % 2 == 0
            else RandomBot(random.Random(seat))
            for seat in range(4)
        ]
        _, winner = play_deal(bots, rng)
        won += winner == 0
    assert won >= 5


def test_search_needs_a_positive_budget() -> None:
    with pytest.raises(ValueError, match="playouts must be at least 1"):
        SearchBot(random.Random(0), playouts=0)
