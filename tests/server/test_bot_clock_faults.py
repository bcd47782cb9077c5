"""Bot accounts' clocks and faults on a real ``cardroom serve`` over the websocket (docs/ladder.md, "Clocks
and faults"): a silent bot's moves are played by the fallback once its clock runs out, an illegal play is
refused and played for, each a fault in the state; the limit's fault forfeits the match; a bot that
plays well has none. Clocks are short here; nothing is timed."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from websockets.sync.client import ClientConnection

from tests.server.clients import call, frame, open_account, until, websocket
from tests.server.serving import Server

pytestmark = pytest.mark.server_process
"""Every test here starts `cardroom serve` (tests/server/serving.py)."""

Frame = dict[str, Any]
HOUSE = {"kind": "bot", "bot": "heuristic"}


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    running = Server(tmp_path_factory.mktemp("bot-faults"))
    try:
        yield running
    finally:
        running.stop()


@pytest.fixture(scope="module")
def owner(server: Server) -> dict[str, str]:
    return open_account(server, "Ann")


def bot_at_a_table(server: Server, owner: dict[str, str], name: str, **config: Any) -> tuple[str, str, str]:
    """A new bot of ``owner`` seated at seat 0 of a new one-deal table (three house bots; ``config``
    added): its API token, the table's id and the seat's token."""
    created = call(server, "POST", "/api/account/bots", {"name": name}, owner)
    assert created.status == 201, created
    token = created.body["token"]
    body = {"name": name, "max_deals": 1, "seats": [{"kind": "human"}, HOUSE, HOUSE, HOUSE], **config}
    table = call(server, "POST", "/api/tables", body)
    assert table.status == 201, table
    seat = call(
        server, "POST", f"/api/tables/{table.body['id']}/seats/0", {}, {"Authorization": f"Bearer {token}"}
    )
    assert seat.status == 200, seat
    return token, table.body["id"], seat.body["token"]


def sign_in_and_join(ws: ClientConnection, token: str, seat_token: str) -> None:
    ws.send(json.dumps({"type": "auth", "token": token}))
    until(ws, "authenticated")
    ws.send(json.dumps({"type": "join", "token": seat_token, "since": 0}))
    assert until(ws, "welcome")["seat"] == 0


def read_until(ws: ClientConnection, done: Callable[[Frame], bool], timeout: float = 60.0) -> list[Frame]:
    """The frames up to the first for which ``done`` holds (an ``error`` on the way fails the test)."""
    frames: list[Frame] = []
    while True:
        got = frame(ws, timeout)
        assert got["type"] != "error", got
        frames.append(got)
        if done(got):
            return frames


def events(frames: list[Frame], kind: str) -> list[Frame]:
    return [got["event"] for got in frames if got["type"] == "event" and got["event"]["type"] == kind]


def finished(got: Frame) -> bool:
    return bool(got["type"] == "state" and got["phase"] == "finished")


def test_a_silent_bots_moves_are_played_by_the_fallback_each_a_fault(
    server: Server, owner: dict[str, str]
) -> None:
    token, _table, seat_token = bot_at_a_table(
        server, owner, "Quiet Tao", clocks={"bot": 0.3}, fault_limit=100
    )
    with websocket(server, f"/ws/tables/{_table}") as ws:
        sign_in_and_join(ws, token, seat_token)
        frames = read_until(ws, lambda got: got["type"] == "state" and got["seats"][0]["faults"] >= 2)
    faults = events(frames, "fault")
    assert [(fault["seat"], fault["kind"], fault["count"]) for fault in faults] == [
        (0, "clock", 1),
        (0, "clock", 2),
    ]
    mine = [action for action in events(frames, "action") if action["seat"] == 0]
    assert [action["by"] for action in mine] == ["auto", "auto"], "the fallback played both moves"
    assert not any(got["type"] == "event" and got["event"]["type"] == "auto" for got in frames), "no 托管"
    states = [got for got in frames if got["type"] == "state"]
    assert states[-1]["table"]["clocks"]["bot"] == 0.3
    assert any(got["to_act"] and got["deadline"] is not None for got in states)


def test_an_illegal_play_is_refused_then_played_by_the_fallback_and_counted(
    server: Server, owner: dict[str, str]
) -> None:
    token, table, seat_token = bot_at_a_table(server, owner, "Rash Tao", clocks={"bot": 30})
    with websocket(server, f"/ws/tables/{table}") as ws:
        sign_in_and_join(ws, token, seat_token)
        state = read_until(ws, lambda got: got["type"] == "state" and got["to_act"])[-1]
        assert state["phase"] == "play", "a match's first deal has no tribute"
        missing = next(card for card in ("H2", "S2", "C2", "D2", "H3", "S3") if card not in state["hand"])
        ws.send(json.dumps({"type": "act", "action": {"type": "play", "cards": [missing]}}))
        refused = until(ws, "error")
        assert refused["code"] == "illegal_action", refused
        frames = read_until(
            ws,
            lambda got: (
                got["type"] == "event" and got["event"]["type"] == "action" and got["event"]["seat"] == 0
            ),
        )
        after = read_until(ws, lambda got: got["type"] == "state")[-1]
    assert [(fault["kind"], fault["count"]) for fault in events(frames, "fault")] == [("illegal", 1)]
    assert events(frames, "fault")[0]["reason"] == refused["reason"]
    assert frames[-1]["event"]["by"] == "auto"
    assert after["seats"][0]["faults"] == 1
    listed = call(server, "GET", f"/api/tables/{table}").body
    assert listed["seats"][0]["faults"] == 1


def test_the_fault_that_reaches_the_limit_forfeits_the_match(server: Server, owner: dict[str, str]) -> None:
    token, table, seat_token = bot_at_a_table(server, owner, "Absent Tao", clocks={"bot": 0.2}, fault_limit=3)
    with websocket(server, f"/ws/tables/{table}") as ws:
        sign_in_and_join(ws, token, seat_token)
        frames = read_until(ws, finished)
    assert [fault["count"] for fault in events(frames, "fault")] == [1, 2, 3]
    last = frames[-1]
    assert last["seats"][0]["faults"] == 3
    result = last["result"]
    assert (result["reason"], result["forfeited_by"], result["winner"]) == ("forfeit", 0, 1)
    end = events(frames, "match_end")[0]
    assert "3 faults" in end["note"]
    assert call(server, "GET", f"/api/tables/{table}").body["seats"][0]["faults"] == 3
