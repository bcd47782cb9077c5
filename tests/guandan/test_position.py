"""Deal.at_position: a deal restarted from a position plays on exactly as the original."""

from __future__ import annotations

import random

import pytest

from cardroom.cards import Rank
from cardroom.guandan.deal import Deal, Phase
from cardroom.guandan.match import shuffled_hands
from tests.guandan.scenario import build_hands, cards, phase_of


def test_a_position_plays_on_as_the_deal_it_was_taken_from() -> None:
    rng = random.Random(3)
    for trial in range(20):
        hands, (leader, _) = shuffled_hands(rng)
        deal = Deal(hands, Rank.TWO, leader=leader)
        for _ in range(rng.randrange(1, 120)):
            if deal.phase is Phase.OVER:
                break
            deal.apply(rng.choice(deal.legal_actions()))
        if deal.phase is Phase.OVER or deal.current_player is None:
            continue
        position = Deal.at_position(
            [deal.hand(seat) for seat in range(4)],
            deal.level,
            current_player=deal.current_player,
            finished=deal.finished,
            last_play=deal.last_play,
            passes=deal.passes,
        )
        assert position.legal_actions() == deal.legal_actions(), trial
        while phase_of(deal) is not Phase.OVER:
            action = rng.choice(deal.legal_actions())
            assert position.legal_actions() == deal.legal_actions()
            deal.apply(action)
            position.apply(action)
        assert position.result is not None
        assert deal.result is not None
        assert position.result == deal.result


@pytest.mark.parametrize(
    ("hands", "kwargs", "message"),
    [
        (build_hands()[:3], {"current_player": 0}, "four hands"),
        (build_hands(), {"current_player": 4}, "cannot be the player to act"),
        (build_hands(), {"current_player": 0, "finished": [1]}, "exactly the seats that have gone out"),
        ((cards("S3"), (), cards("S4"), ()), {"current_player": 0, "finished": [1, 3]}, "both players out"),
    ],
)
def test_an_impossible_position_is_refused(
    hands: tuple[tuple[object, ...], ...], kwargs: dict[str, object], message: str
) -> None:
    with pytest.raises(ValueError, match=message):
        Deal.at_position(hands, Rank.TWO, **kwargs)  # type: ignore[arg-type]
