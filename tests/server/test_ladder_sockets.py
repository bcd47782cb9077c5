"""A bot's second ladder socket on a real ``cardroom serve`` (docs/ladder.md, "The ladder in the card
room"): when another socket of the bot says ``ready``, the first is told (``error`` ``replaced``) and
closed (4409, docs/protocol.md "Close codes"), and the result of a match it was seated from reaches the
newest socket; once a match is rated, the ladder looks for the next at once (its timer here is an
hour)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest
from websockets.sync.client import ClientConnection

from cardroom.server.ladder.service import REPLACED_CLOSE
from tests.server.clients import call, closing, frame, until, websocket
from tests.server.serving import Server
from tests.server.test_ladder_faults import ready, sign_in
from tests.server.test_ladder_play import make_bot, play_seat, seats_of

pytestmark = pytest.mark.server_process
"""Every test here starts `cardroom serve` (tests/server/serving.py)."""


@pytest.fixture
def server(tmp_path: Path) -> Iterator[Server]:
    options = ("--ladder-house", "random,heuristic", "--ladder-deal-pairs", "1", "--ladder-interval", "3600")
    running = Server(tmp_path, *options)
    try:
        yield running
    finally:
        running.stop()


def test_a_second_ready_socket_replaces_the_first_which_is_told_and_closed(server: Server) -> None:
    tao, tao_token, _ = make_bot(server, "Ann", "Twice Tao")
    _deep, deep_token, _ = make_bot(server, "Bob", "Once Deep")
    with websocket(server, "/ws/ladder") as old, websocket(server, "/ws/ladder") as other:
        ready(old, tao_token)
        ready(other, deep_token)
        seats = {tao_token: seats_of(old, 2), deep_token: seats_of(other, 2)}
        match_id = seats[tao_token][0]["match"]
        with websocket(server, "/ws/ladder") as new:
            ready(new, tao_token)
            frames, code, reason = closing(old, timeout=10)
            assert code == REPLACED_CLOSE == 4409
            assert "replaced" in reason
            assert frames[-1]["type"] == "error"
            assert frames[-1]["code"] == "replaced"
            assert "another socket of this bot said it is ready" in frames[-1]["message"]
            with ThreadPoolExecutor(4) as pool:
                played = list(
                    pool.map(
                        lambda pair: play_seat(server, pair[0], pair[1]),
                        [(token, seat) for token, told in seats.items() for seat in told],
                    )
                )
            assert all(last["result"] is not None for last, _ in played)
            result = until(new, "result", timeout=30)
            assert result["match"] == match_id, "the result of a match seated from the old socket"
            assert f"{tao}#1" in result["team_a"] + result["team_b"]
            assert until(other, "result", timeout=30)["match"] == match_id


def test_a_rated_match_is_followed_at_once_by_the_next_for_its_ready_bots(server: Server) -> None:
    _tao, tao_token, _ = make_bot(server, "Ann", "Eager Tao")
    _deep, deep_token, _ = make_bot(server, "Bob", "Eager Deep")
    with websocket(server, "/ws/ladder") as first, websocket(server, "/ws/ladder") as second:
        ready(first, tao_token)
        ready(second, deep_token)
        seats = {tao_token: seats_of(first, 2), deep_token: seats_of(second, 2)}
        match_id = seats[tao_token][0]["match"]
        with ThreadPoolExecutor(4) as pool:
            list(
                pool.map(
                    lambda pair: play_seat(server, pair[0], pair[1]),
                    [(token, seat) for token, told in seats.items() for seat in told],
                )
            )
        assert until(first, "result", timeout=30)["match"] == match_id
        following = seats_of(first, 2)
        assert {seat["match"] for seat in following} != {match_id}, "a new match, not the hour's timer"


def test_unready_keeps_the_results_coming_and_seats_the_bot_in_no_new_match(server: Server) -> None:
    """docs/ladder.md, "Saying it is ready": ``unready`` ends the bot's new matches, not its results."""
    key, token, _ = make_bot(server, "Ann", "Pausing Tao")
    _, other_token, _ = make_bot(server, "Bob", "Playing Deep")
    with websocket(server, "/ws/ladder") as ws, websocket(server, "/ws/ladder") as other:
        sign_in(ws, token)
        ws.send(json.dumps({"type": "unready"}))
        assert until(ws, "error")["code"] == "bad_message", "unready before ready"
        ws.send(json.dumps({"type": "ready"}))
        until(ws, "ready")
        ready(other, other_token)
        seats = seats_of(ws, 2)
        ws.send(json.dumps({"type": "unready"}))
        until(ws, "unready")
        theirs = [(other_token, seat) for seat in seats_of(other, 2)]
        with ThreadPoolExecutor(4) as pool:
            list(pool.map(lambda told: play_seat(server, *told), [(token, seat) for seat in seats] + theirs))
        assert until(ws, "result", timeout=60)["match"] == seats[0]["match"]
        ws.send(json.dumps({"type": "ping"}))
        assert until(ws, "pong")["type"] == "pong"
        assert not any(frame["type"] == "seat" for frame in frames_until_quiet(ws)), "no new match"
    rows = {row["key"]: row for row in call(server, "GET", "/api/ladder").body["entrants"]}
    assert rows[f"{key}#1"]["matches"] == 1


def frames_until_quiet(ws: ClientConnection, quiet: float = 2.0) -> list[dict[str, Any]]:
    """Every frame the socket gets until it has been silent ``quiet`` seconds."""
    got: list[dict[str, Any]] = []
    while True:
        try:
            got.append(frame(ws, quiet))
        except TimeoutError:
            return got
