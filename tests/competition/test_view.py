"""A seat's view rebuilt from the protocol's messages matches the seat's own observation in the core."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from cardroom.bots.sampling import sample_position
from cardroom.cards import Card, Rank
from cardroom.competition.messages import (
    Message,
    act,
    action_identity,
    after_action,
    anti_tribute_seats,
    beginning,
    episode_over,
    notify_anti_tribute,
)
from cardroom.competition.order import order_actions
from cardroom.competition.view import LOOKUP_ENTRIES, SeatView
from cardroom.guandan.deal import Action, Event, EventKind, Phase, PlayAction, ReturnAction, TributeAction
from cardroom.guandan.match import Match
from cardroom.guandan.observation import Observation
from cardroom.guandan.plays import PlayKind


def wire(message: Message) -> dict[str, Any]:
    """The message as a client receives it (through JSON)."""
    value = json.loads(json.dumps(message))
    assert isinstance(value, dict)
    return value


def _public_log(history: tuple[Event, ...], seat: int) -> list[tuple[Any, ...]]:
    """What the view can know of a log: plays and passes, tributes, the returns the seat is shown."""
    kept: list[tuple[Any, ...]] = []
    for event in history:
        if event.kind == EventKind.PLAY and event.play is not None:
            kept.append(("play", event.seat, action_identity(PlayAction(0, event.play))))
        elif event.kind == EventKind.PASS:
            kept.append(("pass", event.seat))
        elif event.kind in (EventKind.TRIBUTE, EventKind.RETURN) and event.visible_to(seat):
            kept.append((event.kind, event.seat, event.card, event.to))
    return kept


def _same_view(mine: Observation, truth: Observation) -> None:
    assert mine.seat == truth.seat
    assert sorted(mine.hand) == sorted(truth.hand)
    assert (mine.level, mine.levels, mine.level_team) == (truth.level, truth.levels, truth.level_team)
    assert (mine.phase, mine.current_player) == (truth.phase, truth.current_player)
    assert mine.card_counts == truth.card_counts
    assert mine.finished == truth.finished
    assert mine.previous_seat == truth.previous_seat
    if truth.previous is None:
        assert mine.previous is None
    else:
        assert mine.previous is not None
        assert action_identity(PlayAction(0, mine.previous)) == action_identity(PlayAction(0, truth.previous))
    assert _public_log(mine.history, mine.seat) == _public_log(truth.history, truth.seat)
    assert [action_identity(a) for a in mine.legal_actions] == [
        action_identity(a) for a in order_actions(truth)
    ]


def _play_match(seed: int, watched: int) -> tuple[int, set[str]]:
    """Play a two-deal match at random, feeding ``watched``'s messages to a view; compare at each of
    its decisions. Returns the number of decisions compared and the stages seen."""
    rng = random.Random(seed)
    match = Match(max_deals=2)
    view = SeatView()
    compared = 0
    stages: set[str] = set()
    while not match.is_over:
        deal = match.deal_random(rng)
        view.update(wire(beginning(watched, deal.dealt_hands[watched], deal.level, match.levels)))
        excused = anti_tribute_seats(deal)
        if excused:
            view.update(wire(notify_anti_tribute(excused)))
        while deal.phase is not Phase.OVER:
            seat = deal.current_player
            assert seat is not None
            truth = match.observation(seat)
            ordered = order_actions(truth)
            if seat == watched:
                message = wire(act(truth, ordered))
                stages.add(message["stage"])
                view.update(message)
                entries = view.legal_actions(message)
                legal = [entry for entry in entries if entry is not None]
                assert len(legal) == len(entries) == len(ordered)
                assert view.read_alone == 0
                mine = view.observation(message, legal)
                _same_view(mine, truth)
                if mine.phase is Phase.PLAY and compared % 5 == 0:
                    sample_position(mine, random.Random(compared))
                compared += 1
            action: Action = ordered[rng.randrange(len(ordered))]
            before = deal.last_play
            match.apply(action)
            for note in after_action(deal, action, before)[watched]:
                view.update(wire(note))
        assert deal.result is not None
        rest = [(watched, deal.hand(watched))] if deal.card_count(watched) else []
        view.update(wire(episode_over(deal.result.places, deal.level, rest)))
    return compared, stages


@pytest.mark.parametrize(("seed", "watched"), [(1, 0), (2, 1), (3, 2), (4, 3), (5, 0), (6, 3)])
def test_the_view_matches_the_seat_s_observation_through_a_match(seed: int, watched: int) -> None:
    compared, stages = _play_match(seed, watched)
    assert compared > 10
    assert "play" in stages


def test_views_meet_tribute_and_return_decisions() -> None:
    stages: set[str] = set()
    for seed in range(7, 30):
        for watched in range(4):
            stages |= _play_match(seed, watched)[1]
        if {"tribute", "back"} <= stages:
            break
    assert {"tribute", "back", "play"} <= stages


def test_a_view_from_the_competition_server_s_own_message_shapes() -> None:
    """Messages as the competition's server writes them: no ranks in ``beginning``, ``-1``/``null``
    swapped in a tribute's ``act``, every return shown to every seat, four jokers as ``Bomb JOKER``."""
    view = SeatView()
    hand = ["S2", "H2", "D3", "C4", "HA", "SB", "SB", "HR", "HR"]
    view.update({"type": "notify", "stage": "beginning", "handCards": hand, "myPos": 1})
    assert (view.seat, view.deal_number, view.level) == (1, 1, Rank.TWO)
    view.update(
        {
            "type": "notify",
            "stage": "play",
            "curPos": 0,
            "curAction": ["Single", "5", ["D5"]],
            "greaterPos": 0,
            "greaterAction": ["Single", "5", ["D5"]],
        }
    )
    message = {
        "type": "act",
        "handCards": hand,
        "publicInfo": [{"rest": 26, "playArea": ["Single", "5", ["D5"]]}]
        + [{"rest": 27, "playArea": None}] * 3,
        "selfRank": "2",
        "oppoRank": "2",
        "curRank": "2",
        "stage": "play",
        "curPos": 0,
        "curAction": ["Single", "5", ["D5"]],
        "greaterPos": 0,
        "greaterAction": ["Single", "5", ["D5"]],
        "actionList": [
            ["PASS", "PASS", "PASS"],
            ["Single", "A", ["HA"]],
            ["Bomb", "JOKER", ["SB", "SB", "HR", "HR"]],
        ],
        "indexRange": 2,
    }
    view.update(message)
    entries = view.legal_actions(message)
    assert [entry is not None for entry in entries] == [True, True, True]
    last = entries[2]
    assert isinstance(last, PlayAction)
    assert last.play.kind is PlayKind.FOUR_JOKERS
    legal = [entry for entry in entries if entry is not None]
    observation = view.observation(message, legal)
    assert observation.previous_seat == 0
    assert observation.card_counts == (26, 27, 27, 27)
    assert [event.kind.value for event in observation.history] == ["play"]
    view.update(
        {"type": "notify", "stage": "episodeOver", "order": [1, 3, 0, 2], "curRank": "2", "restCards": []}
    )
    assert view.level_team == 1
    view.update({"type": "notify", "stage": "beginning", "handCards": hand, "myPos": 1})
    assert view.level is None
    view.update({"type": "notify", "stage": "tribute", "result": [[0, 1, "HA"], [2, 3, "SA"]]})
    tribute_act = {
        "type": "act",
        "handCards": [*hand, "HA"],
        "publicInfo": [{"rest": 26, "playArea": None}, {"rest": 28, "playArea": None}] * 2,
        "selfRank": "5",
        "oppoRank": "2",
        "curRank": "5",
        "stage": "back",
        "curPos": -1,
        "curAction": None,
        "greaterAction": -1,
        "greaterPos": None,
        "actionList": [["back", "back", ["S2"]], ["back", "back", ["D3"]]],
    }
    view.update(tribute_act)
    assert _ranks(view) == (Rank.FIVE, (Rank.TWO, Rank.FIVE), 1)
    entries = view.legal_actions(tribute_act)
    assert entries == [ReturnAction(1, Card.parse("S2")), ReturnAction(1, Card.parse("D3"))]
    observation = view.observation(tribute_act, [entry for entry in entries if entry is not None])
    assert (observation.phase, observation.previous) == (Phase.RETURN, None)
    view.update({"type": "notify", "stage": "back", "result": [[1, 0, "S2"], [3, 2, "C3"]]})
    kinds = [(e.kind.value, e.seat, e.to, e.private_to) for e in view.history(Rank.FIVE)]
    assert kinds == [
        ("tribute", 0, 1, None),
        ("tribute", 2, 3, None),
        ("return", 1, 0, (1, 0)),
        ("return", 3, 2, (3, 2)),
    ]
    assert view.counts == [27, 27, 27, 27]
    assert TributeAction(0, Card.parse("HA")) != entries[0]


def _ranks(view: SeatView) -> tuple[Rank | None, tuple[Rank, Rank], int | None]:
    return view.level, view.levels, view.level_team


def test_unreadable_entries_and_plays_are_left_out() -> None:
    view = SeatView()
    view.update({"type": "notify", "stage": "beginning", "handCards": ["S3"], "myPos": 2, "curRank": "2"})
    view.update({"type": "notify", "stage": "play", "curPos": 1, "curAction": ["Pair", "4", ["S4", "C5"]]})
    message = {"type": "act", "stage": "play", "actionList": [["Single", "3", ["S3"]], ["Nonsense", "3", []]]}
    view.update(message)
    assert view.legal_actions(message)[1] is None
    assert view.history(Rank.TWO) == ()
    assert view.unread == 1


def test_an_entry_not_among_the_seat_s_own_plays_is_read_on_its_own() -> None:
    """Entries are looked up among the plays the seat's hand makes; one that is not there (a server
    whose lists differ from ours) is read from its triple, and counted."""
    view = SeatView()
    view.update(
        {"type": "notify", "stage": "beginning", "handCards": ["S3", "H2"], "myPos": 2, "curRank": "2"}
    )
    padding = [["Single", "3", ["S3"]]] * LOOKUP_ENTRIES
    entries = [["Single", "3", ["S3"]], ["Pair", "3", ["S3", "H2"]], ["Pair", "4", ["S4", "C4"]], *padding]
    message = {"type": "act", "stage": "play", "handCards": ["S3", "H2"], "actionList": entries}
    view.update(message)
    found = view.legal_actions(message)
    assert [action.play.kind if isinstance(action, PlayAction) else None for action in found[:3]] == [
        PlayKind.SINGLE,
        PlayKind.PAIR,
        PlayKind.PAIR,
    ]
    assert view.read_alone == 1
