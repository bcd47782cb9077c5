"""The platform's rating points (积分, docs/rules/platform.md#points-per-level) of a recorded match: the
record is replayed through the rules core, and the seat events come as arguments or from the record's
``meta.seat_events``."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest

from cardroom.cards import Rank
from cardroom.guandan.match import Match
from cardroom.guandan.platform_points import PlayerState, Reason, SeatEvent, match_points
from cardroom.guandan.ruleset import RuleSet
from cardroom.records import RecordError, parse_record, read_record, record_of, replay
from cardroom.records.platform_points import (
    META_KEY,
    points_of_record,
    seat_event_to_json,
    seat_events_from_json,
)
from tests.guandan.scenario import play_match_deal

R = Rank
DATA = Path(__file__).parent / "data"


def test_the_points_of_the_legal_record_by_hand(legal: dict[str, Any]) -> None:
    """``data/legal.json``: deal 1, places 2, 3, 1, 0: seat 2 上游, partner 下游, team 0 2 → 3: +1 / −1
    (赢方每升一级加1分，输方扣1分); deal 2, places 2, 0, 1, 3: 双下, team 0 3 → 6: +3 / −3. Seat 0 was
    末游 in deal 1, seat 3 in deal 2."""
    points = points_of_record(legal)
    assert points.changes == (4, -4, 4, -4)
    assert points.deal_changes(1) == (1, -1, 1, -1)
    assert points.deal_changes(2) == (3, -3, 3, -3)
    assert tuple(state.last_place_streak for state in points.states) == (0, 0, 0, 1)
    assert points_of_record(parse_record(legal)) == points


def test_a_record_gives_the_points_of_its_match() -> None:
    """Record any match, replay it: the same points as the match itself, events and states included."""
    match = Match(RuleSet(name="platform-like", partner_rises=(4, 2, 1)))
    rng = random.Random(4)
    for first, partner_place in [(1, 2), (0, 3), (1, 4)]:
        play_match_deal(match, rng, first, partner_place)
    record = json.loads(json.dumps(record_of(match, ["甲", "乙", "丙", "丁"])))
    events = [SeatEvent(0, "left", 3, R.FOUR, during_play=False)]
    states = [PlayerState(points=7, last_place_streak=3)] * 4
    assert points_of_record(record, events, states) == match_points(match, events, states)
    assert points_of_record(record).changes == (-4 + 2 - 1, 4 - 2 + 1, -4 + 2 - 1, 4 - 2 + 1)


def test_seat_events_kept_in_the_records_meta(legal: dict[str, Any]) -> None:
    """The server may keep the events in the record's free-form ``meta``; the replay ignores them.
    Seat 1 leaves between the two deals (牌局中途退出扣2分): −1 from deal 1, −2, and no part in deal 2."""
    event = SeatEvent(1, "left", 1, R.TWO, during_play=False)
    legal["meta"] = {"table": 9, META_KEY: [seat_event_to_json(event)]}
    assert replay(legal).ok
    points = points_of_record(legal)
    assert points.changes == (4, -3, 4, -4)
    assert [(item.deal_number, item.reason) for item in points.seats[1].items] == [
        (1, Reason.LOST_LEVELS),
        (1, Reason.LEFT_BETWEEN_DEALS),
    ]
    assert points_of_record(legal, events=[]).changes == (4, -4, 4, -4)


def test_a_seat_event_round_trips_through_json() -> None:
    event = SeatEvent(3, "disconnected", 12, R.KING)
    raw = seat_event_to_json(event)
    assert raw == {
        "seat": 3,
        "kind": "disconnected",
        "deal_number": 12,
        "level_of_leaver_team": "K",
        "during_play": True,
    }
    assert seat_events_from_json(json.loads(json.dumps([raw]))) == (event,)
    del raw["during_play"]
    assert seat_events_from_json([raw]) == (event,)


@pytest.mark.parametrize(
    ("raw", "path", "message"),
    [
        ({"seat": 0}, "meta.seat_events", "a list of seat events"),
        ([3], "meta.seat_events[0]", "an object"),
        (
            [{"seat": 0, "kind": "left", "deal_number": 1}],
            "meta.seat_events[0].level_of_leaver_team",
            "missing",
        ),
        ([{"seat": 4, "kind": "left", "deal_number": 1, "level_of_leaver_team": "2"}], ".seat", "0–3"),
        ([{"seat": 0, "kind": "quit", "deal_number": 1, "level_of_leaver_team": "2"}], ".kind", "'left'"),
        (
            [{"seat": 0, "kind": "left", "deal_number": 0, "level_of_leaver_team": "2"}],
            ".deal_number",
            "from 1",
        ),
        (
            [{"seat": 0, "kind": "left", "deal_number": 1, "level_of_leaver_team": "X"}],
            "team",
            "unknown rank",
        ),
        ([{"seat": 0, "kind": "left", "deal_number": 1, "level_of_leaver_team": "R"}], "team", "2…A"),
        ([{"seat": 0, "kind": "left", "deal_number": 1, "level_of_leaver_team": 2}], "team", "rank letter"),
        (
            [{"seat": 0, "kind": "left", "deal_number": 1, "level_of_leaver_team": "2", "during_play": 1}],
            ".during_play",
            "true or false",
        ),
        (
            [{"seat": 0, "kind": "left", "deal_number": 1, "level_of_leaver_team": "2", "x": 1}],
            "[0]",
            "unknown",
        ),
    ],
)
def test_malformed_seat_events_name_the_field(raw: object, path: str, message: str) -> None:
    with pytest.raises(RecordError, match=message) as caught:
        seat_events_from_json(raw)
    assert caught.value.path.startswith("meta.seat_events")
    assert caught.value.path.endswith(path)


def test_seat_events_that_do_not_fit_the_record_are_refused(legal: dict[str, Any]) -> None:
    """After deal 1 team 1 stood at 2, not K; the match was over after deal 2 (no 中途 leaving then); a
    player leaves once."""
    wrong_level = {
        "seat": 1,
        "kind": "left",
        "deal_number": 1,
        "level_of_leaver_team": "K",
        "during_play": False,
    }
    legal["meta"] = {META_KEY: [wrong_level]}
    with pytest.raises(RecordError, match="stood at level 2") as caught:
        points_of_record(legal)
    assert caught.value.path == "meta.seat_events[0]"
    with pytest.raises(RecordError, match="the match was over") as caught:
        points_of_record(legal, [SeatEvent(1, "left", 2, R.TWO, during_play=False)])
    assert caught.value.path == "events[0]"
    twice = [SeatEvent(1, "left", 1, R.TWO), SeatEvent(1, "left", 2, R.TWO)]
    with pytest.raises(RecordError, match="two events") as caught:
        points_of_record(legal, twice)
    assert caught.value.path == "events[1]"


def test_no_points_from_an_illegal_record() -> None:
    """The referee first: a record with an illegal action gives no points."""
    with pytest.raises(RecordError, match="DoesNotBeatError") as caught:
        points_of_record(read_record(DATA / "does_not_beat.json"))
    assert caught.value.path == "deals[0].actions[16]"


def test_no_points_from_a_record_whose_result_differs_from_the_replay() -> None:
    with pytest.raises(RecordError, match=r"result\.levels") as caught:
        points_of_record(read_record(DATA / "result_mismatch.json"))
    assert caught.value.path == "result"


def test_a_broken_record_is_a_record_error() -> None:
    with pytest.raises(RecordError, match="version"):
        points_of_record({"format": "cardroom-guandan-match", "version": 2})
