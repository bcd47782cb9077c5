"""A seat's view rebuilt from the Java server's frames (docs/openguandan-protocol.md, "Reading the
server"), at every request of the recordings: the hand, the counts, the level and the trick agree with
what the server said, and every entry of every list reads as one of the seat's actions."""

from __future__ import annotations

from collections import Counter

import pytest

from cardroom.cards import Card, Rank
from cardroom.guandan.deal import Phase, ReturnAction, TributeAction
from cardroom.guandan.triple import from_triple
from cardroom.openguandan.view import OpenGuanDanView
from tests.openguandan.recordings import ONE_GAME, TWO_GAMES, seat_script


@pytest.mark.parametrize("name", [ONE_GAME, TWO_GAMES])
@pytest.mark.parametrize("seat", range(4))
def test_the_view_agrees_with_every_request(name: str, seat: int) -> None:
    view = OpenGuanDanView()
    stages: Counter[str] = Counter()
    for line in seat_script(name, seat):
        if line.direction != "in":
            continue
        frame = line.frame
        view.update(frame)
        if frame.get("type") != "act":
            continue
        stage = frame["stage"]
        stages[stage] += 1
        legal = view.legal_actions(frame)
        assert None not in legal, f"an entry of {frame['actionList']} could not be read"
        observation = view.observation(frame, [action for action in legal if action is not None])
        assert observation.seat == seat
        assert observation.level == Rank.from_letter(frame["curRank"])
        hand = Counter(Card.parse(name) for name in frame["handCards"])
        if stage == "back":
            hand[Card.parse(frame["tribute"])] += 1
            assert all(isinstance(action, ReturnAction) for action in observation.legal_actions)
            assert observation.phase is Phase.RETURN
        elif stage == "tribute":
            assert all(isinstance(action, TributeAction) for action in observation.legal_actions)
        else:
            counts = [info["rest"] for info in frame["publicInfo"]]
            assert list(observation.card_counts) == counts
            greater = frame["greaterAction"]
            if greater is None:
                assert observation.previous is None
            else:
                assert observation.previous == from_triple(greater, observation.level)
                assert observation.previous_seat == frame["greaterPos"]
        assert Counter(observation.hand) == hand
        assert observation.card_counts[seat] == len(observation.hand)
    assert stages["play"] > 300
    assert stages["tribute"] + stages["back"] > 0
