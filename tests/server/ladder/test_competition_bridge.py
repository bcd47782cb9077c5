"""Bots on the ladder over the Guandan AI competition's protocol (docs/ladder.md, "Over the competition
protocol"), on a real ``cardroom serve``: one bot on ``/ws/ladder`` with the card room's protocol, the
other through ``cardroom connect --token … --connections 2`` at ``/ws/ladder/competition``; a match played,
rated, listed and its records replayed; bad answers counted as faults; tokens refused and revoked."""

from __future__ import annotations

import contextlib
import json
import os
import subprocess
import sys
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest
from websockets.sync.client import ClientConnection, connect

from cardroom.server.live.bot_sockets import TOKEN_ENDED_CLOSE
from tests.server.clients import call, closing, frame, until, websocket
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


def competition_url(server: Server, query: str = "") -> str:
    return f"ws://127.0.0.1:{server.port}/ws/ladder/competition{query}"


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


@contextlib.contextmanager
def ready_on_ladder(server: Server, token: str) -> Iterator[ClientConnection]:
    """A bot's ``/ws/ladder`` socket, signed in and ready."""
    url = f"ws://127.0.0.1:{server.port}/ws/ladder"
    with connect(url, additional_headers=bearer(token), open_timeout=10) as ws:
        until(ws, "authenticated")
        ws.send(json.dumps({"type": "ready"}))
        until(ws, "ready")
        yield ws


def replay(link: str, server: Server, name: str) -> subprocess.CompletedProcess[str]:
    record = call(server, "GET", link)
    assert record.status == 200
    saved = server.log.parent / name
    saved.write_text(json.dumps(record.body), encoding="utf-8")
    return subprocess.run(
        [sys.executable, "-m", "cardroom", "replay", str(saved)],
        capture_output=True,
        text=True,
        timeout=60,
        cwd=REPO,
    )


def test_a_bot_over_the_competition_protocol_plays_a_rated_ladder_match(server: Server) -> None:
    tao, tao_token, _ = make_bot(server, "Ann", "Little Tao")
    deep, deep_token, _ = make_bot(server, "Bob", "Deep Tao")
    client = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "cardroom",
            "connect",
            competition_url(server),
            "--connections",
            "2",
            "--episodes",
            "1",
            "--seed",
            "3",
        ],
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

    rows = {row["key"]: row for row in call(server, "GET", "/api/ladder").body["entrants"]}
    assert rows[f"{deep}#1"]["matches"] >= 1
    assert rows[f"{deep}#1"]["name"] == "Deep Tao"
    own = call(server, "GET", f"/api/ladder/{deep}")
    assert own.status == 200
    match = next(match for match in own.body["matches"] if match["id"] == match_id)
    assert (match["status"], match["margin"], match["winner"]) == (
        "rated",
        result["margin"],
        result["winner"],
    )
    assert len(match["records"]) == 2
    for number, link in enumerate(match["records"]):
        replayed = replay(link, server, f"ladder-{number}.json")
        assert replayed.returncode == 0, replayed.stdout + replayed.stderr
        record = call(server, "GET", link).body
        assert "Deep Tao" in record["seats"]


def answer_each(ws: ClientConnection, bad: list[str], errors: list[Frame]) -> Frame:
    """Answer every ``act``: the ``bad`` answers first (each followed by its ``error``), then index 0;
    the ``gameOver`` that ends the table."""
    while True:
        message = frame(ws, timeout=60)
        if message["type"] == "error":
            errors.append(message)
        elif message["type"] == "act":
            assert message["indexRange"] == len(message["actionList"]) - 1
            ws.send(bad.pop(0) if bad else json.dumps({"actIndex": 0}))
        elif message.get("stage") == "gameOver":
            return message


def test_bad_answers_are_faults_told_with_the_protocols_error(server: Server) -> None:
    _, tao_token, _ = make_bot(server, "Ann", "Little Tao")
    deep, deep_token, _ = make_bot(server, "Bob", "Deep Tao")
    url = competition_url(server)
    with (
        connect(url, additional_headers=bearer(deep_token), open_timeout=10, max_size=2**24) as first,
        connect(url, additional_headers=bearer(deep_token), open_timeout=10, max_size=2**24) as second,
        ready_on_ladder(server, tao_token) as ladder,
    ):
        seats = seats_of(ladder, 2)
        errors: list[Frame] = []
        with ThreadPoolExecutor(4) as pool:
            ours = [
                pool.submit(answer_each, first, ['{"actIndex": 9999}', "junk", '{"actIndex": "1"}'], errors),
                pool.submit(answer_each, second, [], []),
            ]
            for seat in seats:
                pool.submit(play_seat, server, tao_token, seat).result(timeout=120)
            ends = [future.result(timeout=120) for future in ours]
        assert all(end["type"] == "notify" for end in ends)
        result = until(ladder, "result", timeout=60)
    codes = [error["code"] for error in errors]
    assert codes[:3] == ["out-of-range", "malformed-json", "not-an-integer"], errors
    assert errors[0]["received"] == '{"actIndex": 9999}'
    assert "fallback" in errors[0]["message"]
    match = next(
        match
        for match in call(server, "GET", f"/api/ladder/{deep}").body["matches"]
        if match["id"] == result["match"]
    )
    assert match["status"] == "rated"
    assert match["faults"][f"{deep}#1"] >= 3, match  # the three bad answers, counted in the match


def test_tokens_only_in_the_header_and_a_revoked_one_closes_the_connection(server: Server) -> None:
    bot, token, owner = make_bot(server, "Ann", "Little Tao")
    with websocket(server, "/ws/ladder/competition") as bare:
        frames, code, _ = closing(bare)
        assert code == TOKEN_ENDED_CLOSE
        assert frames[0]["type"] == "error"
        assert frames[0]["code"] == "bad-token"
        assert "Authorization" in frames[0]["message"]
    with connect(competition_url(server, f"?token={token}"), open_timeout=10) as in_query:
        frames, code, _ = closing(in_query)
        assert code == TOKEN_ENDED_CLOSE, "a token in the URL is ignored"
    with connect(competition_url(server), additional_headers=bearer(token + "x"), open_timeout=10) as wrong:
        frames, code, _ = closing(wrong)
        assert (code, frames[0]["code"]) == (TOKEN_ENDED_CLOSE, "bad-token")

    refused = subprocess.run(
        [sys.executable, "-m", "cardroom", "connect", competition_url(server), "--wait", "0"],
        capture_output=True,
        text=True,
        timeout=60,
        env={**os.environ, "CARDROOM_BOT_TOKEN": token + "x", "COLUMNS": "200"},
        cwd=REPO,
    )
    assert refused.returncode == 1
    assert "The token was refused or revoked" in refused.stdout
    assert token not in refused.stdout + refused.stderr

    with connect(competition_url(server), additional_headers=bearer(token), open_timeout=10) as open_one:
        open_one.send("{}")  # answered only once signed in: the token is revoked after that, not before
        assert frame(open_one)["code"] == "unexpected"
        ready = {row["key"]: row["ready"] for row in call(server, "GET", "/api/ladder").body["entrants"]}
        assert not ready.get(f"{bot}#1"), "one connection is not enough for a match's two seats"
        bot_id = bot.removeprefix("bot:")
        assert call(server, "DELETE", f"/api/account/bots/{bot_id}/token", None, owner).status == 200
        frames, code, _ = closing(open_one, timeout=5)
        assert code == TOKEN_ENDED_CLOSE
        assert frames[-1]["code"] == "token-revoked"
