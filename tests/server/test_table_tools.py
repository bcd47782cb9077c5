"""The table's helpers over the protocol (docs/protocol.md): 托管 turned on and off at will (``auto``),
the quick chat (``chat``: fixed phrases, rate-limited, never stored) and Guandan's ``last_trick`` in the
state; through the app's websocket, then through a real ``cardroom serve`` and a real websocket."""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from websockets.sync.client import ClientConnection

from cardroom.server.tables.codec import CHAT_PHRASES
from tests.server.conftest import Frame, Peer, create_table, full_table, room_of
from tests.server.serving import Server


def _turn(client: TestClient, table_id: str) -> int:
    turn = room_of(client, table_id).table.current_player
    assert turn is not None
    return turn


def test_a_player_turns_auto_on_and_the_bot_plays_then_turns_it_off(client: TestClient) -> None:
    table_id, tokens = full_table(client)
    room = room_of(client, table_id)
    leader = _turn(client, table_id)
    with client.websocket_connect(f"/ws/tables/{table_id}") as ws:
        peer = Peer(ws, leader)
        peer.join(tokens[leader])
        peer.send({"type": "auto", "on": True})
        on = peer.until(lambda frame: frame["type"] == "event" and frame["event"]["type"] == "auto")
        assert on["event"]["on"] is True
        assert on["event"]["seat"] == leader
        played = peer.until(lambda frame: frame["type"] == "event" and frame["event"]["type"] == "action")
        assert played["event"]["seat"] == leader
        assert played["event"]["by"] == "auto"
        peer.send({"type": "auto", "on": False})
        off = peer.until(lambda frame: frame["type"] == "event" and frame["event"]["type"] == "auto")
        assert off["event"]["on"] is False
        assert not peer.next_state(lambda frame: frame["number"] >= off["number"])["seats"][leader]["auto"]
    kinds = [entry["type"] for entry in room.table.log]
    assert kinds.count("auto") == 2, "both switches are in the log (a restart replays them)"


def test_auto_refusals_change_nothing(client: TestClient) -> None:
    table_id, tokens = full_table(client)
    room = room_of(client, table_id)
    waiting = create_table(client)["id"]
    with client.websocket_connect(f"/ws/tables/{table_id}") as ws:
        peer = Peer(ws, 0)
        peer.join(tokens[0])
        before = len(room.table.log)
        for bad in ({"type": "auto"}, {"type": "auto", "on": "yes"}, {"type": "auto", "on": 1}):
            peer.send(bad)
            error = peer.error()
            assert error["code"] == "bad_message"
            assert "auto.on" in error["message"]
        assert len(room.table.log) == before
    with client.websocket_connect(f"/ws/tables/{table_id}") as ws:
        watcher = Peer(ws)
        watcher.join(None)
        watcher.send({"type": "auto", "on": True})
        assert watcher.error()["code"] == "not_seated"
    token = client.post(f"/api/tables/{waiting}/seats/0", json={"name": "Ann"}).json()["token"]
    with client.websocket_connect(f"/ws/tables/{waiting}") as ws:
        early = Peer(ws, 0)
        early.join(token)
        early.send({"type": "auto", "on": True})
        assert early.error()["code"] == "wrong_phase"


def test_quick_chat_reaches_every_seat_and_is_not_stored(client: TestClient) -> None:
    table_id, tokens = full_table(client)
    room = room_of(client, table_id)
    before = len(room.table.log)
    with (
        client.websocket_connect(f"/ws/tables/{table_id}") as ws0,
        client.websocket_connect(f"/ws/tables/{table_id}") as ws1,
    ):
        ann, bo = Peer(ws0, 0), Peer(ws1, 1)
        ann.join(tokens[0])
        bo.join(tokens[1])
        ann.send({"type": "chat", "phrase": "nice"})
        heard = bo.until(lambda frame: frame["type"] == "chat")
        assert heard == {**heard, "seat": 0, "phrase": "nice", "v": 1}
        assert ann.until(lambda frame: frame["type"] == "chat")["phrase"] == "nice"
    assert len(room.table.log) == before, "a chat is not a log entry"


def test_quick_chat_refuses_free_text_and_floods(client: TestClient) -> None:
    table_id, tokens = full_table(client)
    room = room_of(client, table_id)
    before = list(room.table.log)
    with client.websocket_connect(f"/ws/tables/{table_id}") as ws:
        ann = Peer(ws, 0)
        ann.join(tokens[0])
        for phrase in ("you are bad", None, 7, "<script>", "hello" * 20):
            ann.send({"type": "chat", "phrase": phrase})
            error = ann.error()
            assert error["code"] == "bad_message", error
            assert "chat.phrase: one of hello" in error["message"]
        said = 0
        for _ in range(10):
            ann.send({"type": "chat", "phrase": "hello"})
        frames = [ann.until(lambda frame: frame["type"] in ("chat", "error")) for _ in range(10)]
        said = sum(frame["type"] == "chat" for frame in frames)
        limited = [frame for frame in frames if frame["type"] == "error"]
        assert said == 3, "three at once, then one every five seconds"
        assert {frame["code"] for frame in limited} == {"rate_limited"}
        assert all(frame["refused"] == "chat" and frame["retry_after"] > 0 for frame in limited)
        ann.send({"type": "ping"})
        assert ann.until(lambda frame: frame["type"] in ("pong", "error"))["type"] == "pong", "still served"
    assert room.table.log == before


def _from(number: int) -> Callable[[Frame], bool]:
    return lambda frame: bool(frame["number"] >= number)


def _turn_left(seat: int) -> Callable[[Frame], bool]:
    return lambda frame: bool(frame["turn"] != seat)


def test_guandan_state_keeps_the_last_trick(client: TestClient) -> None:
    """A trick's plays vanish from ``seats[].last`` when it ends; ``last_trick`` keeps them, names the
    winner and the next leader."""
    table_id, tokens = full_table(client)
    leader = _turn(client, table_id)
    peers: list[Peer] = []
    with (
        client.websocket_connect(f"/ws/tables/{table_id}") as ws0,
        client.websocket_connect(f"/ws/tables/{table_id}") as ws1,
        client.websocket_connect(f"/ws/tables/{table_id}") as ws2,
        client.websocket_connect(f"/ws/tables/{table_id}") as ws3,
    ):
        for seat, ws in enumerate((ws0, ws1, ws2, ws3)):
            peer = Peer(ws, seat)
            state = peer.join(tokens[seat])
            assert state["last_trick"] is None
            peers.append(peer)
        lead = next(a for a in peers[leader].legal() if a["type"] == "play" and a["kind"] == "Single")
        peers[leader].send({"type": "act", "action": lead})
        number = peers[leader].next_state(lambda f: f["turn"] != leader)["number"]
        for step in range(1, 4):
            seat = (leader + step) % 4
            peers[seat].next_state(_from(number))
            peers[seat].send({"type": "act", "action": {"type": "pass"}})
            number = peers[seat].next_state(_turn_left(seat))["number"]
        state = peers[leader].next_state(_from(number))
    assert all(seat["last"] is None for seat in state["seats"])
    trick = state["last_trick"]
    assert trick["winner"] == leader
    assert trick["leader"] == leader
    assert trick["plays"][leader]["cards"] == lead["cards"]
    assert [trick["plays"][(leader + k) % 4] for k in (1, 2, 3)] == [{"type": "pass"}] * 3
    assert [made["seat"] for made in trick["order"]] == [(leader + k) % 4 for k in range(4)]


def test_the_last_trick_keeps_the_lead_of_a_seat_that_passed_later(client: TestClient) -> None:
    """A lead beaten by the next seat, then three passes (the leader's among them): ``order`` keeps the
    lead, the beating play and the passes in the order made; ``plays`` only each seat's last action."""
    table_id, tokens = full_table(client)
    leader = _turn(client, table_id)
    second = (leader + 1) % 4
    with (
        client.websocket_connect(f"/ws/tables/{table_id}") as ws0,
        client.websocket_connect(f"/ws/tables/{table_id}") as ws1,
        client.websocket_connect(f"/ws/tables/{table_id}") as ws2,
        client.websocket_connect(f"/ws/tables/{table_id}") as ws3,
    ):
        peers = [Peer(ws, seat) for seat, ws in enumerate((ws0, ws1, ws2, ws3))]
        for seat, peer in enumerate(peers):
            peer.join(tokens[seat])
        singles = [a for a in peers[leader].legal() if a["type"] == "play" and a["kind"] == "Single"]
        low = "3456789TJQKA"  # at level 2: the lowest single lead leaves the next seat something to beat it
        lead = min((a for a in singles if a["cards"][0][1] in low), key=lambda a: low.index(a["cards"][0][1]))
        peers[leader].send({"type": "act", "action": lead})
        number = peers[leader].next_state(lambda f: f["turn"] != leader)["number"]
        peers[second].next_state(_from(number))
        beat = next(a for a in peers[second].legal() if a["type"] == "play")
        peers[second].send({"type": "act", "action": beat})
        number = peers[second].next_state(_turn_left(second))["number"]
        for step in (2, 3, 4):
            seat = (leader + step) % 4
            peers[seat].next_state(_from(number))
            peers[seat].send({"type": "act", "action": {"type": "pass"}})
            number = peers[seat].next_state(_turn_left(seat))["number"]
        state = peers[second].next_state(_from(number))
    trick = state["last_trick"]
    assert trick["winner"] == second
    assert trick["plays"][leader] == {"type": "pass"}, "the leader's last action in the trick"
    order = trick["order"]
    assert [made["seat"] for made in order] == [leader, second, (leader + 2) % 4, (leader + 3) % 4, leader]
    assert order[0]["play"]["cards"] == lead["cards"], "the lead is kept"
    assert order[1]["play"]["cards"] == beat["cards"]


# -- through a real server and a real websocket -------------------------------------------------------


def _read(ws: ClientConnection, predicate: Any, timeout: float = 10.0) -> Frame:
    deadline = time.monotonic() + timeout
    while True:
        left = deadline - time.monotonic()
        assert left > 0, "no such frame in time"
        frame: Frame = json.loads(ws.recv(timeout=left))
        if predicate(frame):
            return frame


@pytest.mark.server_process
def test_auto_and_chat_over_a_real_websocket(tmp_path: Path) -> None:
    server = Server(tmp_path)
    try:
        table = server.api(
            "POST",
            "/api/tables",
            {"name": "Tools", "seats": [{"kind": "human"}, {"kind": "bot", "bot": "heuristic"}] * 2},
        )
        tokens = [
            server.api("POST", f"/api/tables/{table['id']}/seats/{seat}", {"name": n})["token"]
            for seat, n in ((0, "Ann"), (2, "Cy"))
        ]
        with server.socket(table["id"]) as ann, server.socket(table["id"]) as cy:
            ann.send(json.dumps({"type": "join", "token": tokens[0], "since": 0}))
            cy.send(json.dumps({"type": "join", "token": tokens[1], "since": 0}))
            _read(ann, lambda f: f["type"] == "state")
            _read(cy, lambda f: f["type"] == "state")
            ann.send(json.dumps({"type": "chat", "phrase": "thumbs"}))
            heard = _read(cy, lambda f: f["type"] == "chat")
            assert (heard["seat"], heard["phrase"]) == (0, "thumbs")
            ann.send(json.dumps({"type": "chat", "phrase": "free text"}))
            assert _read(ann, lambda f: f["type"] == "error")["code"] == "bad_message"
            ann.send(json.dumps({"type": "auto", "on": True}))
            on = _read(cy, lambda f: f["type"] == "state" and f["seats"][0]["auto"])
            assert on["seats"][0]["auto"] is True
            ann.send(json.dumps({"type": "auto", "on": False}))
            _read(cy, lambda f: f["type"] == "state" and not f["seats"][0]["auto"])
    finally:
        server.stop()
    assert set(CHAT_PHRASES) >= {"thumbs", "hello"}
