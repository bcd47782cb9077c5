"""Reading clients' actions and messages, and writing cards, plays and actions as JSON."""

from __future__ import annotations

import json
from typing import Any

import pytest

from cardroom.cards import Card, Rank, parse_cards
from cardroom.guandan import COMPETITION, HUOPIN, classify
from cardroom.guandan.deal import Action, PlayAction, ReturnAction, TributeAction
from cardroom.guandan.plays import PASS, PlayKind
from cardroom.server.tables.codec import (
    ProtocolError,
    action_json,
    from_record_action,
    hand_order,
    hide_card,
    legal_json,
    parse_message,
    read_action,
    record_action,
    wild_card,
)


def codes(value: Any, level: Rank = Rank.TWO) -> str:
    with pytest.raises(ProtocolError) as raised:
        read_action(0, value, level, COMPETITION)
    assert raised.value.message
    return raised.value.code


def test_pass_tribute_and_return_read_as_one_action() -> None:
    assert read_action(1, {"type": "pass"}, Rank.TWO, COMPETITION) == [PlayAction(1, PASS)]
    assert read_action(2, {"type": "tribute", "card": "HA"}, Rank.TWO, COMPETITION) == [
        TributeAction(2, Card.parse("HA"))
    ]
    assert read_action(3, {"type": "return", "card": "s3"}, Rank.TWO, COMPETITION) == [
        ReturnAction(3, Card.parse("S3"))
    ]


def test_a_play_reads_as_each_distinct_reading_of_its_cards() -> None:
    (pair,) = read_action(0, {"type": "play", "cards": ["H5", "S5"]}, Rank.TWO, COMPETITION)
    assert isinstance(pair, PlayAction)
    assert pair.play.kind is PlayKind.PAIR
    assert pair.play.rank is Rank.FIVE
    readings = read_action(
        0, {"type": "play", "cards": ["H2", "S3", "S4", "S6", "S7"]}, Rank.TWO, COMPETITION
    )
    kinds = sorted(reading.play.kind.name for reading in readings if isinstance(reading, PlayAction))
    assert kinds == ["STRAIGHT", "STRAIGHT_FLUSH"]
    chosen = read_action(
        0,
        {"type": "play", "cards": ["H2", "S3", "S4", "S6", "S7"], "kind": "StraightFlush", "rank": "3"},
        Rank.TWO,
        COMPETITION,
    )
    assert [reading.play.kind for reading in chosen if isinstance(reading, PlayAction)] == [
        PlayKind.STRAIGHT_FLUSH
    ]
    by_kind = read_action(
        0,
        {"type": "play", "cards": ["H2", "S3", "S4", "S6", "S7"], "kind": "Straight"},
        Rank.TWO,
        COMPETITION,
    )
    assert len(by_kind) == 1


@pytest.mark.parametrize(
    ("value", "code"),
    [
        ("pass", "bad_message"),
        ({"type": "fold"}, "bad_message"),
        ({"type": "pass", "cards": ["S3"]}, "bad_message"),
        ({"type": "play"}, "bad_message"),
        ({"type": "play", "cards": []}, "bad_message"),
        ({"type": "play", "cards": "H5 S5"}, "bad_message"),
        ({"type": "play", "cards": ["H5", 5]}, "bad_message"),
        ({"type": "play", "cards": ["X9"]}, "bad_message"),
        ({"type": "play", "cards": ["S3"] * 28}, "bad_message"),
        ({"type": "play", "cards": ["S3"], "kind": "Poker"}, "bad_message"),
        ({"type": "play", "cards": ["S3"], "kind": ["Single"]}, "bad_message"),
        ({"type": "play", "cards": ["S3"], "kind": "PASS"}, "bad_message"),
        ({"type": "play", "cards": ["S3"], "rank": "Z"}, "bad_message"),
        ({"type": "tribute"}, "bad_message"),
        ({"type": "return", "card": 3}, "bad_message"),
        ({"type": "play", "cards": ["S3", "H9"]}, "illegal_action"),
        ({"type": "play", "cards": ["S3"], "kind": "Pair"}, "illegal_action"),
        ({"type": "play", "cards": ["S3", "D3"], "kind": "Pair", "rank": "4"}, "illegal_action"),
    ],
)
def test_what_cannot_be_read_is_refused_with_its_code(value: Any, code: str) -> None:
    assert codes(value) == code


def test_the_refusal_names_the_bad_card() -> None:
    with pytest.raises(ProtocolError, match=r"action.cards\[1\].*X9"):
        read_action(0, {"type": "play", "cards": ["S3", "X9"]}, Rank.TWO, COMPETITION)


def test_actions_round_trip_through_the_records_shape() -> None:
    level = Rank.TWO
    plays = classify(parse_cards("H2 S3 S4 S6 S7"), level, COMPETITION)
    actions: list[Action] = [
        TributeAction(1, Card.parse("HA")),
        ReturnAction(0, Card.parse("S3")),
        PlayAction(2, PASS),
        *(PlayAction(3, play) for play in plays),
    ]
    for action in actions:
        stored = json.loads(json.dumps(record_action(action)))
        again = from_record_action(stored, level, COMPETITION)
        assert record_action(again) == record_action(action)
        assert action_json(again) == action_json(action)
    assert record_action(PlayAction(2, PASS)) == {"seat": 2, "play": ["PASS", "PASS", "PASS"]}
    assert hide_card({"seat": 1, "return": "S3"}) == {"seat": 1, "return": None}


def test_legal_actions_list_each_reading_once() -> None:
    plays = classify(parse_cards("H2 S3 S4 S6 S7"), Rank.TWO, COMPETITION)
    actions = [PlayAction(0, play) for play in plays] * 2 + [PlayAction(0, PASS)]
    listed = legal_json(actions)
    assert listed[-1] == {"type": "pass"}
    assert len(listed) == len(plays) + 1
    assert {entry["kind"] for entry in listed[:-1]} == {"Straight", "StraightFlush"}


def test_a_hand_is_ordered_jokers_level_cards_then_ace_down() -> None:
    hand = parse_cards("S3 H7 HR SB D7 CA H2 S7 DK")
    assert [str(card) for card in hand_order(hand, Rank.SEVEN, COMPETITION)] == [
        "HR",
        "SB",
        "S7",
        "H7",
        "D7",
        "CA",
        "DK",
        "S3",
        "H2",
    ]
    assert [str(card) for card in hand_order(hand, Rank.SEVEN, HUOPIN)][:3] == ["HR", "SB", "H2"]
    assert str(wild_card(Rank.TEN)) == "HT"


@pytest.mark.parametrize(
    ("raw", "words"),
    [
        ("{", "not valid JSON"),
        ("[]", "JSON object"),
        ('{"kind": "join"}', "type"),
        ('{"type": 3}', "type"),
        (json.dumps({"type": "ping", "pad": "é" * 9000}), "too large"),
        (b"\xff\xfe", "not valid JSON"),
        ("[" * 5000 + "]" * 5000, "nested more than 16 deep"),
        ('{"type": "join", "since": ' + "[" * 17 + "]" * 17 + "}", "nested more than 16 deep"),
        ('{"type": "ping", "x": NaN}', "NaN is not a JSON number"),
        ('{"type": "ping", "x": -Infinity}', "Infinity is not a JSON number"),
    ],
)
def test_a_message_that_cannot_be_read_is_a_bad_message(raw: str | bytes, words: str) -> None:
    with pytest.raises(ProtocolError, match=words) as raised:
        parse_message(raw, 16 * 1024)
    assert raised.value.code == "bad_message"
    assert raised.value.frame() == {
        "type": "error",
        "v": 1,
        "code": "bad_message",
        "message": raised.value.message,
    }


def test_brackets_and_escapes_inside_strings_do_not_count_as_nesting() -> None:
    deep_text = json.dumps({"type": "chat", "text": "[" * 40 + '\\"{' * 20})
    assert parse_message(deep_text, 16 * 1024)["text"].startswith("[[[")


def test_a_good_message_is_read() -> None:
    assert parse_message('{"type": "join", "token": null, "since": 0}', 16 * 1024) == {
        "type": "join",
        "token": None,
        "since": 0,
    }
