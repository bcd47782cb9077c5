"""The competition protocol's messages, field by field against hand-written expected messages
(docs/competition-protocol.md), and the answers' errors."""

from __future__ import annotations

import random

import pytest

from cardroom.cards import Card, Rank, parse_cards
from cardroom.competition.messages import (
    AnswerError,
    act,
    action_of_entry,
    action_triple,
    after_action,
    anti_tribute_seats,
    beginning,
    episode_over,
    error_message,
    game_over,
    game_result,
    hand_cards,
    notify_anti_tribute,
    notify_back,
    notify_play,
    notify_tribute,
    parse_answer,
    play_of_triple,
    wire_triple,
)
from cardroom.guandan import PASS, Play, PlayKind, classify
from cardroom.guandan.deal import (
    Action,
    Deal,
    Event,
    EventKind,
    Phase,
    PlayAction,
    ReturnAction,
    TributeAction,
)
from cardroom.guandan.match import Match
from cardroom.guandan.moves import legal_plays
from cardroom.guandan.observation import Observation
from tests.guandan.scenario import build_hands

TWO, FIVE, NINE = Rank.TWO, Rank.FIVE, Rank.NINE


def play(text: str, level: Rank = TWO, kind: PlayKind | None = None) -> Play:
    found = [p for p in classify(parse_cards(text), level) if kind is None or p.kind is kind]
    assert len(found) == 1
    return found[0]


def card(text: str) -> Card:
    return Card.parse(text)


def observation(
    hand: str,
    *,
    seat: int = 1,
    level: Rank = TWO,
    levels: tuple[Rank, Rank] = (TWO, TWO),
    phase: Phase = Phase.PLAY,
    counts: tuple[int, int, int, int] = (27, 27, 27, 27),
    previous: tuple[int, Play] | None = None,
    history: tuple[Event, ...] = (),
    legal: tuple[Action, ...] = (),
) -> Observation:
    return Observation(
        seat=seat,
        hand=parse_cards(hand),
        level=level,
        levels=levels,
        level_team=None,
        deal_number=1,
        phase=phase,
        current_player=seat,
        card_counts=counts,
        finished=(),
        previous=previous[1] if previous else None,
        previous_seat=previous[0] if previous else None,
        history=history,
        legal_actions=legal,
    )


# --- cards and triples ----------------------------------------------------------------------------------


def test_hand_cards_sort_as_the_competition_server_does_at_level_5() -> None:
    """The server's own example (还贡 at level 5): ranks up to A, then the level cards, then jokers."""
    sent = [
        "H2",
        "S3",
        "H3",
        "C3",
        "D3",
        "S4",
        "C4",
        "S6",
        "C6",
        "C7",
        "C7",
        "C8",
        "H9",
        "CJ",
        "HQ",
        "SK",
        "SK",
        "CK",
        "SA",
        "SA",
        "DA",
        "H5",
        "C5",
        "SB",
        "HR",
        "HR",
    ]
    shuffled = [card(name) for name in sent]
    random.Random(1).shuffle(shuffled)
    assert hand_cards(shuffled, FIVE) == sent


def test_hand_cards_sort_as_the_competition_server_does_at_level_9() -> None:
    sent = [
        "S2",
        "H2",
        "H2",
        "C2",
        "D2",
        "S3",
        "H3",
        "D3",
        "S4",
        "D5",
        "C6",
        "H7",
        "C7",
        "C8",
        "D8",
        "DT",
        "HJ",
        "DJ",
        "HQ",
        "HQ",
        "CQ",
        "SK",
        "H9",
        "H9",
        "C9",
        "D9",
        "HR",
    ]
    assert hand_cards(reversed([card(name) for name in sent]), NINE) == sent


def test_wire_triples_of_plays_and_four_jokers() -> None:
    assert wire_triple(PASS) == ["PASS", "PASS", "PASS"]
    assert wire_triple(play("D5")) == ["Single", "5", ["D5"]]
    assert wire_triple(play("SB SB")) == ["Pair", "B", ["SB", "SB"]]
    assert wire_triple(play("S3 H3 D3 C7 D7")) == ["ThreeWithTwo", "3", ["S3", "H3", "D3", "C7", "D7"]]
    assert wire_triple(play("SA S2 C3 H4 D5")) == ["Straight", "A", ["SA", "S2", "C3", "H4", "D5"]]
    assert wire_triple(play("SB SB HR HR")) == ["Bomb", "JOKER", ["SB", "SB", "HR", "HR"]]
    assert action_triple(TributeAction(0, card("HA"))) == ["tribute", "tribute", ["HA"]]
    assert action_triple(ReturnAction(3, card("S2"))) == ["back", "back", ["S2"]]


def test_wire_triples_read_back_in_both_spellings_of_four_jokers() -> None:
    four = play("SB SB HR HR")
    assert play_of_triple(["Bomb", "JOKER", ["SB", "SB", "HR", "HR"]], TWO) == four
    assert play_of_triple(["FourKings", "B", ["SB", "SB", "HR", "HR"]], TWO) == four
    assert play_of_triple(["Straight", "A", ["SA", "S2", "C3", "H4", "D5"]], TWO) == play("SA S2 C3 H4 D5")


def test_action_entries_read_as_the_seat_s_actions() -> None:
    assert action_of_entry(["tribute", "tribute", ["D2"]], 2, TWO) == TributeAction(2, card("D2"))
    assert action_of_entry(["back", "back", ["S3"]], 0, TWO) == ReturnAction(0, card("S3"))
    assert action_of_entry(["PASS", "PASS", "PASS"], 1, TWO) == PlayAction(1, PASS)
    assert action_of_entry(["Pair", "4", ["H4", "C4"]], 1, TWO) == PlayAction(1, play("H4 C4"))
    for bad in (["Pair", "4", ["H4", "C5"]], ["back", "back", ["X9"]], "PASS", ["Single", "4"]):
        with pytest.raises(ValueError, match=r"."):
            action_of_entry(bad, 1, TWO)


# --- notify messages ----------------------------------------------------------------------------------


def test_beginning() -> None:
    hand = parse_cards("HR S2 D3 H2")
    assert beginning(2, hand, Rank.SEVEN, (Rank.SEVEN, Rank.FOUR)) == {
        "type": "notify",
        "stage": "beginning",
        "handCards": ["S2", "H2", "D3", "HR"],
        "myPos": 2,
        "selfRank": "7",
        "oppoRank": "4",
        "curRank": "7",
    }
    assert beginning(3, hand, Rank.SEVEN, (Rank.SEVEN, Rank.FOUR))["selfRank"] == "4"


def test_notify_play_of_a_play_and_of_a_pass() -> None:
    two = play("S2")
    assert notify_play(1, two, (1, two)) == {
        "type": "notify",
        "stage": "play",
        "curPos": 1,
        "curAction": ["Single", "2", ["S2"]],
        "greaterPos": 1,
        "greaterAction": ["Single", "2", ["S2"]],
    }
    assert notify_play(2, PASS, (1, two)) == {
        "type": "notify",
        "stage": "play",
        "curPos": 2,
        "curAction": ["PASS", "PASS", "PASS"],
        "greaterPos": 1,
        "greaterAction": ["Single", "2", ["S2"]],
    }


def test_tribute_anti_tribute_and_back_notifications() -> None:
    assert notify_tribute([(0, 3, card("S2")), (2, 1, card("S2"))]) == {
        "type": "notify",
        "stage": "tribute",
        "result": [[0, 3, "S2"], [2, 1, "S2"]],
    }
    assert notify_anti_tribute([0, 2]) == {
        "type": "notify",
        "stage": "anti-tribute",
        "antiNums": 2,
        "antiPos": [0, 2],
    }
    assert notify_back([(3, 0, card("S2"))]) == {"type": "notify", "stage": "back", "result": [[3, 0, "S2"]]}
    assert notify_back([]) == {"type": "notify", "stage": "back", "result": []}


def test_episode_game_over_and_game_result() -> None:
    assert episode_over([0, 1, 2, 3], Rank.ACE, [(3, parse_cards("C2"))]) == {
        "type": "notify",
        "stage": "episodeOver",
        "order": [0, 1, 2, 3],
        "curRank": "A",
        "restCards": [[3, ["C2"]]],
    }
    assert episode_over([0, 2, 1, 3], TWO, [])["restCards"] == []
    assert game_over(1, 3) == {"type": "notify", "stage": "gameOver", "curTimes": 1, "settingTimes": 3}
    assert game_result([2, 0, 2, 0], [0, 0, 0, 0]) == {
        "type": "notify",
        "stage": "gameResult",
        "victoryNum": [2, 0, 2, 0],
        "draws": [0, 0, 0, 0],
    }


def test_error_message() -> None:
    assert error_message(
        "out-of-range",
        "actIndex 9 is outside the actionList (0…3)",
        stage="play",
        received="x" * 300,
        substitute=2,
    ) == {
        "type": "error",
        "stage": "play",
        "code": "out-of-range",
        "message": "actIndex 9 is outside the actionList (0…3)",
        "received": "x" * 200,
        "actIndex": 2,
    }
    assert error_message("seat-taken", "seat 1 already has a client") == {
        "type": "error",
        "stage": None,
        "code": "seat-taken",
        "message": "seat 1 already has a client",
        "received": None,
        "actIndex": None,
    }


# --- act messages ----------------------------------------------------------------------------------------


def test_act_when_following_in_a_trick() -> None:
    """Seat 1 follows: seat 3 led D3, seat 0 played S4 (the trick before ended with a pass)."""
    d3, s4 = play("D3"), play("S4")
    history = (
        Event(EventKind.PLAY, seat=2, play=play("SK")),
        Event(EventKind.PASS, seat=3),
        Event(EventKind.TRICK, seat=2, to=3),
        Event(EventKind.PLAY, seat=3, play=d3),
        Event(EventKind.PLAY, seat=0, play=s4),
    )
    hand = "S3 C3 D5 H2 SB"
    legal = tuple(PlayAction(1, p) for p in legal_plays(parse_cards(hand), s4, TWO))
    obs = observation(
        hand, counts=(25, 5, 26, 20), previous=(0, s4), history=history, levels=(TWO, Rank.THREE), legal=legal
    )
    assert act(obs, legal) == {
        "type": "act",
        "stage": "play",
        "myPos": 1,
        "handCards": ["S3", "C3", "D5", "H2", "SB"],
        "publicInfo": [
            {"rest": 25, "playArea": ["Single", "4", ["S4"]]},
            {"rest": 5, "playArea": None},
            {"rest": 26, "playArea": None},
            {"rest": 20, "playArea": ["Single", "3", ["D3"]]},
        ],
        "selfRank": "3",
        "oppoRank": "2",
        "curRank": "2",
        "curPos": 0,
        "curAction": ["Single", "4", ["S4"]],
        "greaterPos": 0,
        "greaterAction": ["Single", "4", ["S4"]],
        "actionList": [
            ["PASS", "PASS", "PASS"],
            ["Single", "5", ["D5"]],
            ["Single", "2", ["H2"]],
            ["Single", "B", ["SB"]],
        ],
        "indexRange": 3,
    }


def test_act_after_a_pass_names_the_pass_and_the_greater_play() -> None:
    s4 = play("S4")
    history = (Event(EventKind.PLAY, seat=3, play=s4), Event(EventKind.PASS, seat=0))
    legal = (PlayAction(1, PASS), PlayAction(1, play("SB")))
    message = act(observation("S3 SB", previous=(3, s4), history=history, legal=legal), legal)
    assert message["curPos"] == 0
    assert message["curAction"] == ["PASS", "PASS", "PASS"]
    assert (message["greaterPos"], message["greaterAction"]) == (3, ["Single", "4", ["S4"]])
    assert [info["playArea"] for info in message["publicInfo"]] == [
        ["PASS", "PASS", "PASS"],
        None,
        None,
        ["Single", "4", ["S4"]],
    ]


def test_act_when_leading_has_no_current_or_greater_action() -> None:
    history = (
        Event(EventKind.PLAY, seat=1, play=play("S4")),
        Event(EventKind.PASS, seat=2),
        Event(EventKind.TRICK, seat=1, to=1),
    )
    legal = (PlayAction(1, play("S3")),)
    message = act(observation("S3", history=history, legal=legal), legal)
    assert (message["curPos"], message["curAction"], message["greaterPos"], message["greaterAction"]) == (
        -1,
        None,
        -1,
        None,
    )
    assert all(info["playArea"] is None for info in message["publicInfo"])
    assert message["actionList"] == [["Single", "3", ["S3"]]]
    assert message["indexRange"] == 0


def test_act_for_a_tribute_and_a_return() -> None:
    tribute = (TributeAction(3, card("HA")), TributeAction(3, card("CA")))
    message = act(
        observation(
            "S3 HA CA", seat=3, phase=Phase.TRIBUTE, level=Rank.THREE, levels=(Rank.THREE, TWO), legal=tribute
        ),
        tribute,
    )
    assert message == {
        "type": "act",
        "stage": "tribute",
        "myPos": 3,
        "handCards": ["HA", "CA", "S3"],
        "publicInfo": [{"rest": 27, "playArea": None}] * 4,
        "selfRank": "2",
        "oppoRank": "3",
        "curRank": "3",
        "curPos": -1,
        "curAction": None,
        "greaterPos": -1,
        "greaterAction": None,
        "actionList": [["tribute", "tribute", ["HA"]], ["tribute", "tribute", ["CA"]]],
        "indexRange": 1,
    }
    back = (ReturnAction(0, card("S3")), ReturnAction(0, card("D4")))
    message = act(observation("S3 D4 HA", seat=0, phase=Phase.RETURN, legal=back), back)
    assert message["stage"] == "back"
    assert message["actionList"] == [["back", "back", ["S3"]], ["back", "back", ["D4"]]]


# --- what follows an action -----------------------------------------------------------------------------


def _second_deal(seed: int) -> tuple[Match, Deal]:
    """A match whose second deal starts with a double tribute (the first deal is played at random)."""
    for attempt in range(200):
        rng = random.Random(seed * 1000 + attempt)
        match = Match(max_deals=2)
        match.deal_random(rng)
        while match.current_deal is not None:
            match.apply(rng.choice(match.legal_actions()))
        deal = match.deal_random(rng)
        if deal.phase is Phase.TRIBUTE and len(deal.tribute_plan.payers if deal.tribute_plan else ()) == 2:
            return match, deal
    raise AssertionError("no double tribute found")


def test_after_action_notifies_plays_tributes_once_all_paid_and_returns_to_their_parties() -> None:
    match, deal = _second_deal(1)
    plan = deal.tribute_plan
    assert plan is not None
    first, second = plan.payers
    action: Action = deal.legal_actions()[0]
    match.apply(action)
    assert after_action(deal, action, None) == [[], [], [], []]
    action = deal.legal_actions()[0]
    match.apply(action)
    tributes = [[e.seat, e.to, str(e.card)] for e in deal.events if e.kind == EventKind.TRIBUTE]
    assert {t[0] for t in tributes} == {first, second}
    expected = {"type": "notify", "stage": "tribute", "result": tributes}
    assert after_action(deal, action, None) == [[expected]] * 4
    action = deal.legal_actions()[0]
    match.apply(action)
    assert after_action(deal, action, None) == [[], [], [], []]
    action = deal.legal_actions()[0]
    match.apply(action)
    returns = [e for e in deal.events if e.kind == EventKind.RETURN]
    messages = after_action(deal, action, None)
    for seat in range(4):
        seen = [[e.seat, e.to, str(e.card)] for e in returns if seat in (e.seat, e.to)]
        assert messages[seat] == [{"type": "notify", "stage": "back", "result": seen}]
        assert len(seen) == 1
    assert deal.phase is Phase.PLAY
    leader = deal.current_player
    assert leader is not None
    lead = deal.legal_actions()[0]
    match.apply(lead)
    assert isinstance(lead, PlayAction)
    note = notify_play(leader, lead.play, (leader, lead.play))
    assert after_action(deal, lead, None) == [[note]] * 4
    follower = deal.current_player
    assert follower is not None
    before = deal.last_play
    match.apply(PlayAction(follower, PASS))
    assert after_action(deal, PlayAction(follower, PASS), before)[2] == [notify_play(follower, PASS, before)]


def test_anti_tribute_seats_name_the_excused_payers() -> None:
    single = Deal(build_hands(seat3="HR HR"), TWO, previous_places=(0, 1, 2, 3))
    assert anti_tribute_seats(single) == [3]
    double = Deal(build_hands(seat1="HR", seat3="HR"), TWO, previous_places=(0, 2, 1, 3))
    assert anti_tribute_seats(double) == [1, 3]
    paying = Deal(build_hands(seat0="HR HR"), TWO, previous_places=(0, 1, 2, 3))
    assert anti_tribute_seats(paying) == []


# --- answers -----------------------------------------------------------------------------------------------


def test_parse_answer_reads_the_index() -> None:
    assert parse_answer('{"actIndex": 3}', 5) == 3
    assert parse_answer(b'{"actIndex": 0, "note": "x"}', 0) == 0


@pytest.mark.parametrize(
    ("text", "code", "message"),
    [
        (
            "{oops",
            "malformed-json",
            "the answer is not valid JSON: Expecting property name enclosed in double",
        ),
        ("[1]", "not-an-object", 'a JSON object like {"actIndex": 0}, got an array'),
        ('{"index": 1}', "missing-actIndex", 'the answer has no "actIndex"'),
        ('{"actIndex": "1"}', "not-an-integer", 'actIndex must be an integer, got "1"'),
        ('{"actIndex": 1.5}', "not-an-integer", "actIndex must be an integer, got 1.5"),
        ('{"actIndex": true}', "not-an-integer", "actIndex must be an integer, got true"),
        ('{"actIndex": 6}', "out-of-range", "actIndex 6 is outside the actionList (0…5)"),
        ('{"actIndex": -1}', "out-of-range", "actIndex -1 is outside the actionList (0…5)"),
    ],
)
def test_parse_answer_errors(text: str, code: str, message: str) -> None:
    with pytest.raises(AnswerError) as caught:
        parse_answer(text, 5)
    assert caught.value.code == code
    assert message in caught.value.message
