"""Bots on the ladder over OpenGuanDan's protocol (docs/ladder.md, "Over OpenGuanDan's protocol"), on a
real ``cardroom serve``: one bot on ``/ws/ladder`` with the card room's protocol, the other through
``cardroom connect --protocol openguandan --token … --connections 2`` at ``/ws/ladder/openguandan``; a
match played, rated, listed and its records replayed; bad answers counted as faults, told with the
protocol's refusal; tokens refused and revoked."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest
from websockets.sync.client import ClientConnection, connect

from cardroom.openguandan import frames
from cardroom.server.live.bot_sockets import TOKEN_ENDED_CLOSE
from tests.server.clients import call, closing, frame, until, websocket
from tests.server.ladder.test_competition_bridge import bearer, ready_on_ladder, replay
from tests.server.serving import Server
from tests.server.test_ladder_play import make_bot, play_seat, seats_of

pytestmark = pytest.mark.server_process
"""Every test here starts `cardroom serve` (tests/server/serving.py)."""

Frame = dict[str, Any]
REPO = Path(__file__).resolve().parents[3]


@pytest.fixture
def server(tmp_path: Path) -> Iterator[Server]:
    running = Server(
        tmp_path, "--ladder-house", "random,heuristic", "--ladder-deal-pairs", "1", "--ladder-interval", "0.2"
    )
    try:
        yield running
    finally:
        running.stop()


def openguandan_url(server: Server, query: str = "") -> str:
    return f"ws://127.0.0.1:{server.port}/ws/ladder/openguandan{query}"


def connect_command(server: Server, *options: str) -> list[str]:
    return [
        sys.executable,
        "-m",
        "cardroom",
        "connect",
        openguandan_url(server),
        "--protocol",
        "openguandan",
        *options,
    ]


def test_a_bot_over_openguandans_protocol_plays_a_rated_ladder_match(server: Server) -> None:
    tao, tao_token, _ = make_bot(server, "Ann", "Little Tao")
    deep, deep_token, _ = make_bot(server, "Bob", "Deep Tao")
    client = subprocess.Popen(
        connect_command(server, "--connections", "2", "--episodes", "1", "--seed", "3"),
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        env={**os.environ, "CARDROOM_BOT_TOKEN": deep_token, "COLUMNS": "200"},
        cwd=REPO,
    )
    try:
        with ready_on_ladder(server, tao_token) as ladder:
            seats = seats_of(ladder, 2)
            match_id = seats[0]["match"]
            with ThreadPoolExecutor(2) as pool:
                played = list(pool.map(lambda seat: play_seat(server, tao_token, seat), seats))
            assert all(last["result"] is not None for last, _ in played)
            result = until(ladder, "result", timeout=60)
            assert result["match"] == match_id
            teams = result["team_a"] + result["team_b"]
            assert {f"{deep}#1", f"{tao}#1"} <= set(teams), "the match has both bots"
        output, _ = client.communicate(timeout=60)
    finally:
        if client.poll() is None:
            client.kill()
            client.communicate()
    assert client.returncode == 0, output
    assert deep_token not in output, "the token is never printed"
    assert output.count("1 deal") == 2, output  # each connection played its seat's deal
    assert "0 refusals" in output, output

    rows = {row["key"]: row for row in call(server, "GET", "/api/ladder").body["entrants"]}
    assert rows[f"{deep}#1"]["matches"] >= 1
    own = call(server, "GET", f"/api/ladder/{deep}")
    match = next(match for match in own.body["matches"] if match["id"] == match_id)
    assert (match["status"], match["winner"]) == ("rated", result["winner"])
    assert match["faults"].get(f"{deep}#1", 0) == 0, "the client's answers were all taken"
    assert len(match["records"]) == 2
    for number, link in enumerate(match["records"]):
        replayed = replay(link, server, f"ladder-{number}.json")
        assert replayed.returncode == 0, replayed.stdout + replayed.stderr
        assert "Deep Tao" in call(server, "GET", link).body["seats"]


def answer_each(ws: ClientConnection, bad: list[Frame | str], refusals: list[Frame]) -> list[Frame]:
    """Play one ladder seat: the ``bad`` answers first (each followed by its refusal), then the first
    entry of each request; every frame received, to the ``gameOver`` that ends the table."""
    received: list[Frame] = []
    seat: tuple[int, int] | None = None
    while True:
        message = frame(ws, timeout=60)
        received.append(message)
        if message.get("code") == frames.REFUSED:
            refusals.append(message)
        elif message.get("type") == "JOIN_ROOM":
            seat = (message["data"]["roomId"], message["data"]["userNum"])
        elif message.get("type") == "act":
            assert seat is not None, "the seat's JOIN_ROOM reply comes first"
            assert message["indexRange"] == len(message["actionList"]) - 1
            good = frames.answer(message, seat[0], seat[1], message["actionList"][0])
            chosen = bad.pop(0) if bad else good
            ws.send(chosen if isinstance(chosen, str) else json.dumps(chosen))
        elif message.get("stage") == "gameOver":
            return received


def test_bad_answers_are_faults_told_with_the_protocols_refusal(server: Server) -> None:
    _, tao_token, _ = make_bot(server, "Ann", "Little Tao")
    deep, deep_token, _ = make_bot(server, "Bob", "Deep Tao")
    url = openguandan_url(server)
    off_list = {"type": "PLAY", "data": {"roomId": 1, "player": 0, "act": ["Single", "X", ["X9"]]}}
    with (
        connect(url, additional_headers=bearer(deep_token), open_timeout=10, max_size=2**24) as first,
        connect(url, additional_headers=bearer(deep_token), open_timeout=10, max_size=2**24) as second,
        ready_on_ladder(server, tao_token) as ladder,
    ):
        seats = seats_of(ladder, 2)
        refusals: list[Frame] = []
        with ThreadPoolExecutor(4) as pool:
            ours = [
                pool.submit(answer_each, first, [off_list, "junk", {"type": "JOIN_ROOM"}], refusals),
                pool.submit(answer_each, second, [], []),
            ]
            for seat in seats:
                pool.submit(play_seat, server, tao_token, seat).result(timeout=120)
            told = [future.result(timeout=120) for future in ours]
        result = until(ladder, "result", timeout=60)
    for received in told:
        assert received[0]["type"] == "JOIN_ROOM"
        assert received[1]["stage"] == "beginning"
        assert (received[-1]["stage"], received[-1]["curTimes"], received[-1]["settingTimes"]) == (
            "gameOver",
            1,
            0,
        )
        assert any(message.get("stage") == "episodeOver" for message in received)
    assert len(refusals) >= 3, refusals
    assert all(refusal["code"] == -1 for refusal in refusals[:3])
    assert "fallback" in refusals[0]["data"]["msg"]
    match = next(
        match
        for match in call(server, "GET", f"/api/ladder/{deep}").body["matches"]
        if match["id"] == result["match"]
    )
    assert match["status"] == "rated"
    assert match["faults"][f"{deep}#1"] >= 3, match  # the three bad answers, counted in the match


def test_connections_of_both_seat_protocols_count_together(server: Server) -> None:
    """A bot alone with the two house bots is never seated (a match needs four entrants), so its
    readiness stands still to be read."""
    bot, token, _ = make_bot(server, "Ann", "Little Tao")

    def ready() -> bool:
        rows = {row["key"]: row for row in call(server, "GET", "/api/ladder").body["entrants"]}
        return bool(rows.get(f"{bot}#1", {}).get("ready"))

    competition = f"ws://127.0.0.1:{server.port}/ws/ladder/competition"
    with connect(openguandan_url(server), additional_headers=bearer(token), open_timeout=10) as first:
        assert not ready(), "one connection is not enough for a match's two seats"
        with connect(competition, additional_headers=bearer(token), open_timeout=10):
            assert wait_for(ready), "one connection of each protocol is two"
            first.close()
            assert wait_for(lambda: not ready()), "one left: not ready"


def wait_for(condition: Callable[[], bool], seconds: float = 15.0) -> bool:
    deadline = time.monotonic() + seconds
    while not condition():
        if time.monotonic() > deadline:
            return False
        time.sleep(0.05)
    return True


def test_tokens_only_in_the_header_and_a_revoked_one_closes_the_connection(server: Server) -> None:
    bot, token, owner = make_bot(server, "Ann", "Little Tao")
    with websocket(server, "/ws/ladder/openguandan") as bare:
        told, code, _ = closing(bare)
        assert code == TOKEN_ENDED_CLOSE
        assert (told[0]["code"], "Authorization" in told[0]["data"]["msg"]) == (-1, True)
    with connect(openguandan_url(server, f"?token={token}"), open_timeout=10) as in_query:
        _, code, _ = closing(in_query)
        assert code == TOKEN_ENDED_CLOSE, "a token in the URL is ignored"

    refused = subprocess.run(
        connect_command(server, "--wait", "0"),
        capture_output=True,
        text=True,
        timeout=60,
        env={**os.environ, "CARDROOM_BOT_TOKEN": token + "x", "COLUMNS": "200"},
        cwd=REPO,
    )
    assert refused.returncode == 1
    assert "The token was refused or revoked" in refused.stdout
    assert token not in refused.stdout + refused.stderr

    with connect(openguandan_url(server), additional_headers=bearer(token), open_timeout=10) as open_one:
        open_one.send("{}")  # answered only once signed in: the token is revoked after that, not before
        assert frame(open_one)["code"] == frames.REFUSED
        bot_id = bot.removeprefix("bot:")
        assert call(server, "DELETE", f"/api/account/bots/{bot_id}/token", None, owner).status == 200
        told, code, _ = closing(open_one, timeout=5)
        assert code == TOKEN_ENDED_CLOSE
        assert "token was revoked" in told[-1]["data"]["msg"]
