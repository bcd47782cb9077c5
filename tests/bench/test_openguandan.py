"""The OpenGuanDan benchmark (bench/openguandan.py) measures what it says: real requests of our room, the
choice found in both clients' lists, and a room played to its end (no times asserted)."""

from __future__ import annotations

from bench.openguandan import decisions, in_memory, take_in
from cardroom.competition.view import SeatView
from cardroom.openguandan.view import OpenGuanDanView


def test_the_client_table_times_real_requests_of_our_room() -> None:
    found = decisions(2, 3)
    assert len(found) > 50
    for observation, frame, message, choice in found[:40]:
        assert frame["type"] == message["type"] == "act"
        assert len(frame["actionList"]) == len(message["actionList"]) == len(observation.legal_actions)
        assert choice in observation.legal_actions
        ours = OpenGuanDanView(seat=observation.seat, hand=observation.hand, level=observation.level)
        assert take_in(ours, frame, choice) > 0
        theirs = SeatView(seat=observation.seat, hand=observation.hand, level=observation.level)
        assert take_in(theirs, message, choice) > 0


def test_the_room_in_memory_plays_its_games_to_game_over() -> None:
    frames, seconds = in_memory(1, 2)
    assert frames > 1000
    assert seconds > 0
