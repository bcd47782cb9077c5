"""The websocket protocol and the lobby's HTTP API (docs/protocol.md), through the ASGI test client."""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from typer.testing import CliRunner

from cardroom.cli import app as cli_app
from cardroom.records import replay
from tests.server.conftest import (
    LONG_CLOCKS,
    Peer,
    check_frames,
    create_table,
    full_table,
    play_on,
    room_of,
    rooms_of,
    sit,
)

# -- HTTP ------------------------------------------------------------------------------------------------


def test_presets_list_the_rule_sets_bots_and_clocks(client: TestClient) -> None:
    presets = client.get("/api/presets").json()
    assert presets["rules"][0] == "competition"
    assert set(presets["rules"]) == {"competition", "classic", "platform", "huopin"}
    assert {"random", "heuristic", "search"} <= set(presets["bots"])
    assert presets["clocks"] == {
        "tribute": 20,
        "return": 40,
        "lead": 40,
        "follow": 20,
        "declare": 3,
        "bury": 60,
        "bot": 5,
    }
    shengji = presets["games"]["shengji"]
    assert shengji["rules"][0] == "shengji"
    assert set(shengji["bots"]) == {"random", "heuristic"}
    assert presets["games"]["guandan"]["rules"] == presets["rules"]


def test_the_pages_are_served(client: TestClient) -> None:
    lobby = client.get("/")
    assert lobby.status_code == 200
    assert "<html" in lobby.text.lower()
    assert client.get("/static/lobby.js").status_code == 200
    assert client.get("/static/no-such-file.js").status_code == 404


def test_creating_a_table_lists_it_as_waiting(client: TestClient) -> None:
    table = create_table(
        client,
        name="Evening",
        rules="classic",
        max_deals=2,
        seats=[{"kind": "human"}, {"kind": "bot", "bot": "random"}, {"kind": "human"}, {"kind": "bot"}],
        clocks={"follow": 15},
    )
    assert table["status"] == "waiting"
    assert table["rules"] == "classic"
    assert table["clocks"] == {
        "tribute": 20,
        "return": 40,
        "lead": 40,
        "follow": 15,
        "declare": 3,
        "bury": 60,
        "bot": 5,
    }
    assert [seat["kind"] for seat in table["seats"]] == ["human", "bot", "human", "bot"]
    assert table["seats"][3]["bot"] == "heuristic"
    listed = client.get("/api/tables").json()["tables"]
    assert [line["id"] for line in listed] == [table["id"]]
    assert client.get("/api/tables?status=finished").json()["tables"] == []
    assert client.get(f"/api/tables/{table['id']}").json()["name"] == "Evening"


@pytest.mark.parametrize(
    ("body", "named"),
    [
        ({"rules": "poker"}, "rules"),
        ({"max_deals": 0}, "max_deals"),
        ({"seats": [{"kind": "human"}] * 3}, "seats"),
        ({"seats": [{"kind": "bot", "bot": "genius"}] + [{"kind": "human"}] * 3}, "seats[0]"),
        ({"clocks": {"lead": -1}}, "clocks.lead"),
        ({"colour": "red"}, "colour"),
        ({"name": ""}, "name"),
    ],
)
def test_a_bad_table_is_refused_naming_the_field(
    client: TestClient, body: dict[str, Any], named: str
) -> None:
    response = client.post("/api/tables", json={"name": "T", **body})
    assert response.status_code == 400
    assert named in response.json()["detail"]
    assert client.get("/api/tables").json()["tables"] == []


def test_sitting_gives_a_token_and_a_taken_or_bot_seat_is_409(client: TestClient) -> None:
    table_id = create_table(client, seats=[{"kind": "human"}] * 3 + [{"kind": "bot"}])["id"]
    answer = client.post(f"/api/tables/{table_id}/seats/0", json={"name": "Ann"})
    assert answer.status_code == 200
    assert answer.json()["seat"] == 0
    assert len(answer.json()["token"]) >= 32
    taken = client.post(f"/api/tables/{table_id}/seats/0", json={"name": "Bo"})
    assert taken.status_code == 409
    assert "taken by Ann" in taken.json()["detail"]
    bot = client.post(f"/api/tables/{table_id}/seats/3", json={"name": "Bo"})
    assert bot.status_code == 409
    assert client.post(f"/api/tables/{table_id}/seats/1", json={"name": "  "}).status_code == 400
    assert client.post(f"/api/tables/{table_id}/seats/7", json={"name": "Bo"}).status_code == 400
    assert client.post("/api/tables/nope/seats/0", json={"name": "Bo"}).status_code == 404
    # the store keeps the token's hash, never the token
    entries = json.dumps(room_of(client, table_id).store.entries(table_id))
    assert answer.json()["token"] not in entries


def test_the_match_starts_when_the_last_human_sits(client: TestClient) -> None:
    table_id = create_table(client, seats=[{"kind": "human"}, {"kind": "bot"}] * 2)["id"]
    sit(client, table_id, 0, "Ann")
    assert client.get(f"/api/tables/{table_id}").json()["status"] == "waiting"
    sit(client, table_id, 2, "Cy")
    assert client.get(f"/api/tables/{table_id}").json()["status"] == "running"
    assert room_of(client, table_id).store.table(table_id).status == "running"  # type: ignore[union-attr]


def test_quick_play_seats_you_against_three_bots(client: TestClient) -> None:
    answer = client.post("/api/quick", json={"name": "Ann"})
    assert answer.status_code == 201
    quick = answer.json()
    assert quick["seat"] == 0
    table = client.get(f"/api/tables/{quick['id']}").json()
    assert table["status"] == "running"
    assert table["name"] == "Ann vs three bots", "named for what it is, not as if the viewer were Ann"
    assert [seat["kind"] for seat in table["seats"]] == ["human", "bot", "bot", "bot"]
    assert {seat["bot"] for seat in table["seats"][1:]} == {"heuristic"}
    assert client.post("/api/quick", json={"name": ""}).status_code == 400
    long = client.post("/api/quick", json={"name": "N" * 40}).json()
    assert client.get(f"/api/tables/{long['id']}").json()["name"] == "N" * 26 + " vs three bots"


# -- joining ---------------------------------------------------------------------------------------------


def test_joining_gives_welcome_the_log_and_the_seats_view(client: TestClient) -> None:
    table_id, tokens = full_table(client)
    with client.websocket_connect(f"/ws/tables/{table_id}") as ws:
        peer = Peer(ws, 1)
        state = peer.join(tokens[1])
        welcome, *events = peer.frames[:-1]
        assert welcome["type"] == "welcome"
        assert welcome["seat"] == 1
        assert welcome["v"] == 1
        assert welcome["table"]["config"]["seats"] == [{"kind": "human", "bot": None}] * 4
        assert [event["number"] for event in events] == list(range(1, state["number"] + 1))
        assert [event["event"]["type"] for event in events] == ["sit"] * 4 + ["start", "deal"]
        assert state["seat"] == 1
        assert state["phase"] == "play"
        assert len(state["hand"]) == 27
        assert state["hand"] == events[-1]["event"]["hand"]
        assert state["seats"][1]["connected"]
        assert not state["seats"][0]["connected"]
        leader = events[-1]["event"]["leader"]
        assert state["turn"] == leader
        assert state["to_act"] == (leader == 1)
        assert state["can_pass"] is False, "the first lead of a deal cannot pass"
        assert "legal" not in state, "plays are not listed: the page asks (check)"


def test_the_hand_is_in_level_order(client: TestClient) -> None:
    table_id, tokens = full_table(client)
    with client.websocket_connect(f"/ws/tables/{table_id}") as ws:
        hand = Peer(ws).join(tokens[0])["hand"]
    order = "RB2AKQJT9876543"
    ranks = [
        card[1] if card not in ("SB", "HR") else card[0].replace("S", "B").replace("H", "R") for card in hand
    ]
    assert [order.index(rank) for rank in ranks] == sorted(order.index(rank) for rank in ranks)


def test_a_spectator_sees_the_table_but_no_hand(client: TestClient) -> None:
    table_id, _ = full_table(client)
    with client.websocket_connect(f"/ws/tables/{table_id}") as ws:
        peer = Peer(ws)
        state = peer.join(None)
        assert state["seat"] is None
        assert state["hand"] is None
        assert state["to_act"] is False
        assert [seat["cards"] for seat in state["seats"]] == [27] * 4
        deal = [
            frame for frame in peer.frames if frame["type"] == "event" and frame["event"]["type"] == "deal"
        ]
        assert deal[0]["event"]["hand"] is None
        peer.send({"type": "act", "action": {"type": "pass"}})
        assert peer.error()["code"] == "not_seated"


def test_an_unknown_table_is_an_error_and_a_close(client: TestClient) -> None:
    with client.websocket_connect("/ws/tables/nope") as ws:
        assert ws.receive_json()["code"] == "unknown_table"
        assert ws.receive()["type"] == "websocket.close"


def test_a_wrong_token_is_refused_and_the_socket_stays_usable(client: TestClient) -> None:
    table_id, tokens = full_table(client)
    with client.websocket_connect(f"/ws/tables/{table_id}") as ws:
        peer = Peer(ws)
        peer.send({"type": "join", "token": "not-a-token", "since": 0})
        error = peer.error()
        assert error["code"] == "bad_token"
        assert peer.join(tokens[2])["seat"] == 2


# -- acting ----------------------------------------------------------------------------------------------


def _leader_and_other(client: TestClient, table_id: str) -> tuple[int, int]:
    leader = room_of(client, table_id).table.match.current_player
    assert leader is not None
    return leader, (leader + 1) % 4


def test_a_legal_play_reaches_everyone(client: TestClient) -> None:
    table_id, tokens = full_table(client)
    leader, other = _leader_and_other(client, table_id)
    with (
        client.websocket_connect(f"/ws/tables/{table_id}") as ws_leader,
        client.websocket_connect(f"/ws/tables/{table_id}") as ws_other,
    ):
        actor, watcher = Peer(ws_leader, leader), Peer(ws_other, other)
        state = actor.join(tokens[leader])
        watcher.join(tokens[other])
        single = next(action for action in actor.legal() if action["kind"] == "Single")
        actor.send({"type": "act", "action": {"type": "play", "cards": single["cards"]}})
        event = actor.until(lambda frame: frame["type"] == "event")
        after = actor.next_state()
        assert event["number"] == state["number"] + 1
        assert event["event"]["action"] == {
            "seat": leader,
            "play": ["Single", single["rank"], single["cards"]],
        }
        assert event["event"]["by"] == "player"
        assert after["turn"] == other
        assert after["seats"][leader]["cards"] == 26
        assert after["seats"][leader]["last"] == single
        assert after["to_beat"] == {"seat": leader, "play": single}
        assert len(after["hand"]) == 26
        seen = watcher.next_state(lambda frame: frame["number"] == after["number"])
        assert seen["turn"] == other
        assert seen["to_act"]
        assert seen["can_pass"]
        assert any(
            frame["type"] == "event" and frame["number"] == event["number"] for frame in watcher.frames
        )


def _state_unchanged(client: TestClient, table_id: str, before: dict[str, Any]) -> None:
    room = room_of(client, table_id)
    assert room.table.view(0, 0.0) == before
    assert room.store.last_number(table_id) == before["number"]


@pytest.mark.parametrize(
    ("message", "code", "words"),
    [
        ({"type": "act", "action": {"type": "tribute", "card": "HA"}}, "wrong_phase", "tribute"),
        ({"type": "act", "action": {"type": "play", "cards": ["S3", "H9"]}}, "illegal_action", "not any"),
        ({"type": "act", "action": {"type": "pass"}}, "illegal_action", "lead"),
        ({"type": "act", "action": {"type": "play", "cards": ["XX"]}}, "bad_message", "XX"),
        (
            {"type": "act", "action": {"type": "play", "cards": ["S3"], "kind": "Poker"}},
            "bad_message",
            "kind",
        ),
        ({"type": "act", "action": {"type": "fold"}}, "bad_message", "fold"),
        ({"type": "act"}, "bad_message", "action"),
        ({"type": "dance"}, "bad_message", "dance"),
        ({"type": "join", "token": 5}, "bad_message", "token"),
        ({"type": "join", "token": None, "since": -1}, "bad_message", "since"),
        ({"type": "join", "token": None, "since": 10**9}, "bad_message", "the last event number seen, 0 to"),
    ],
)
def test_a_refused_message_is_an_error_to_the_sender_and_changes_nothing(
    client: TestClient, message: dict[str, Any], code: str, words: str
) -> None:
    table_id, tokens = full_table(client)
    leader, _ = _leader_and_other(client, table_id)
    with client.websocket_connect(f"/ws/tables/{table_id}") as ws:
        peer = Peer(ws, leader)
        peer.join(tokens[leader])
        before = room_of(client, table_id).table.view(0, 0.0)
        peer.send(message)
        error = peer.error()
        assert error["code"] == code
        assert words in error["message"]
        _state_unchanged(client, table_id, before)
        peer.send({"type": "ping"})
        assert peer.receive()["type"] == "pong"


def test_cards_not_held_are_refused_by_name(client: TestClient) -> None:
    table_id, tokens = full_table(client)
    leader, _ = _leader_and_other(client, table_id)
    hand = {str(card) for card in room_of(client, table_id).table.match.current_deal.hand(leader)}  # type: ignore[union-attr]
    missing = next(
        f"{suit}{rank}" for rank in "3456789TJQKA" for suit in "SHCD" if f"{suit}{rank}" not in hand
    )
    with client.websocket_connect(f"/ws/tables/{table_id}") as ws:
        peer = Peer(ws, leader)
        peer.join(tokens[leader])
        before = room_of(client, table_id).table.view(0, 0.0)
        peer.send({"type": "act", "action": {"type": "play", "cards": [missing]}})
        error = peer.error()
        assert error["code"] == "illegal_action"
        assert missing in error["message"]
        assert (error["reason"], error["args"]) == ("not_held", {"cards": [missing]})
        _state_unchanged(client, table_id, before)


def test_acting_out_of_turn_is_refused(client: TestClient) -> None:
    table_id, tokens = full_table(client)
    leader, other = _leader_and_other(client, table_id)
    with client.websocket_connect(f"/ws/tables/{table_id}") as ws:
        peer = Peer(ws, other)
        state = peer.join(tokens[other])
        before = room_of(client, table_id).table.view(0, 0.0)
        card = state["hand"][-1]
        peer.send({"type": "act", "action": {"type": "play", "cards": [card]}})
        error = peer.error()
        assert error["code"] == "out_of_turn"
        assert f"seat {leader}'s turn" in error["message"]
        _state_unchanged(client, table_id, before)
        peer.send({"type": "hint"})
        assert peer.error()["code"] == "out_of_turn"


def test_malformed_and_oversized_frames_are_refused(client: TestClient) -> None:
    table_id, tokens = full_table(client)
    leader, _ = _leader_and_other(client, table_id)
    with client.websocket_connect(f"/ws/tables/{table_id}") as ws:
        peer = Peer(ws, leader)
        peer.send({"type": "act", "action": {"type": "pass"}})
        assert "join" in peer.error()["message"]
        peer.join(tokens[leader])
        before = room_of(client, table_id).table.view(0, 0.0)
        for raw in ("{not json", "[1, 2]", '{"type": 7}', json.dumps({"type": "ping", "pad": "x" * 20000})):
            ws.send_text(raw)
            error = peer.error()
            assert error["code"] == "bad_message"
        assert "too large" in error["message"]
        ws.send_bytes(b"\x00\x01")
        assert peer.error()["code"] == "bad_message"
        for raw, words in (("[" * 5000 + "]" * 5000, "nested"), ('{"type": "ping", "n": NaN}', "NaN")):
            ws.send_text(raw)
            error = peer.error()
            assert error["code"] == "bad_message", error
            assert words in error["message"]
        _state_unchanged(client, table_id, before)


def test_request_bodies_are_checked_before_they_are_read_whole(client: TestClient) -> None:
    """A body over the limit is refused by its Content-Length, or as it arrives when it has none; a
    body with NaN or nested too deep is refused with the reason; the table list is unchanged."""
    before = client.get("/api/tables").json()
    huge = client.post("/api/quick", content=b"{}", headers={"content-length": str(300 * 1024 * 1024)})
    assert huge.status_code == 413
    assert "at most 65536 bytes" in huge.json()["detail"]

    def chunks() -> Any:
        for _ in range(100):
            yield b" " * 4096

    streamed = client.post("/api/quick", content=chunks())
    assert streamed.status_code == 413
    for body, words in ((b'{"name": NaN}', "NaN"), (b"[" * 5000 + b"]" * 5000, "nested")):
        refused = client.post("/api/quick", content=body)
        assert refused.status_code == 400
        assert words in refused.json()["detail"]
    assert client.get("/api/tables").json() == before


def test_an_ambiguous_play_asks_for_its_reading(client: TestClient) -> None:
    table_id, tokens = full_table(client)
    room = room_of(client, table_id)
    leader, _ = _leader_and_other(client, table_id)
    # find in the leader's legal plays two readings of the same cards
    legal = room.table.legal_actions_json(leader)
    by_cards: dict[str, list[dict[str, Any]]] = {}
    for action in legal:
        if action["type"] == "play":
            by_cards.setdefault(" ".join(sorted(action["cards"])), []).append(action)
    shared = [readings for readings in by_cards.values() if len(readings) > 1]
    assert shared, "with this seed the leader holds a play with two readings"
    readings = shared[0]
    with client.websocket_connect(f"/ws/tables/{table_id}") as ws:
        peer = Peer(ws, leader)
        peer.join(tokens[leader])
        before = room.table.view(0, 0.0)
        peer.send({"type": "check", "id": 7, "action": {"type": "play", "cards": readings[0]["cards"]}})
        checked = peer.until(lambda frame: frame["type"] == "checked")
        assert checked["ok"] is True
        assert checked["id"] == 7
        assert sorted(checked["readings"], key=str) == sorted(readings, key=str), "the page asks which"
        peer.send({"type": "act", "action": {"type": "play", "cards": readings[0]["cards"]}})
        error = peer.error()
        assert error["code"] == "ambiguous_play"
        assert all(f"{reading['kind']} {reading['rank']}" in error["message"] for reading in readings)
        _state_unchanged(client, table_id, before)
        peer.send({"type": "act", "action": readings[1]})
        event = peer.until(lambda frame: frame["type"] == "event")
        assert event["event"]["action"]["play"][:2] == [readings[1]["kind"], readings[1]["rank"]]


def test_check_answers_like_act_would_and_changes_nothing(client: TestClient) -> None:
    """Issue 25: the state lists no plays; the page asks whether a selection may be played."""
    table_id, tokens = full_table(client)
    leader, other = _leader_and_other(client, table_id)
    with client.websocket_connect(f"/ws/tables/{table_id}") as ws:
        peer = Peer(ws, leader)
        state = peer.join(tokens[leader])
        single = next(action for action in peer.legal() if action["kind"] == "Single")
        peer.send({"type": "check", "id": "a", "action": {"type": "play", "cards": single["cards"]}})
        assert peer.until(lambda frame: frame["type"] == "checked") == {
            "type": "checked",
            "v": 1,
            "id": "a",
            "number": state["number"],
            "ok": True,
            "readings": [single],
        }
        peer.send({"type": "check", "action": {"type": "pass"}})
        refused = peer.until(lambda frame: frame["type"] == "checked")
        assert (refused["ok"], refused["code"], refused["id"]) == (False, "illegal_action", None)
        assert (refused["reason"], refused["args"]) == ("must_lead", {})
        assert "lead" in refused["message"]
        peer.send({"type": "check", "id": True, "action": {"type": "pass"}})
        assert peer.error()["code"] == "bad_message"
        assert room_of(client, table_id).table.number == state["number"]
    with client.websocket_connect(f"/ws/tables/{table_id}") as ws:
        waiting = Peer(ws, other)
        waiting.join(tokens[other])
        assert waiting.legal() == [], "only the seat to act gets its legal actions"
        waiting.send({"type": "check", "action": {"type": "pass"}})
        out_of_turn = waiting.until(lambda frame: frame["type"] == "checked")
        assert (out_of_turn["code"], out_of_turn["reason"]) == ("out_of_turn", "out_of_turn")


def test_a_too_low_single_is_refused_as_does_not_beat_naming_the_play_to_beat(client: TestClient) -> None:
    """Issue 45, "Saying no in plain words": a valid single too low to beat the trick is refused with
    ``reason`` ``does_not_beat`` and the play to beat in ``args`` (docs/protocol.md, "Refusals"), on
    ``checked`` and on ``act``'s ``error`` alike; never ``not_a_combination``."""
    table_id, tokens = full_table(client)
    leader, other = _leader_and_other(client, table_id)
    with (
        client.websocket_connect(f"/ws/tables/{table_id}") as ws_leader,
        client.websocket_connect(f"/ws/tables/{table_id}") as ws_other,
    ):
        actor, follower = Peer(ws_leader, leader), Peer(ws_other, other)
        actor.join(tokens[leader])
        state = follower.join(tokens[other])
        single = next(action for action in actor.legal() if action["kind"] == "Single")
        actor.send({"type": "act", "action": {"type": "play", "cards": single["cards"]}})
        state = follower.next_state(lambda frame: frame["turn"] == other)
        beaters = {" ".join(action["cards"]) for action in follower.legal() if action["type"] == "play"}
        low = [card for card in state["hand"] if card not in beaters]
        assert low, "the follower holds a single that does not beat the lead"
        beat = {"kind": "Single", "rank": single["rank"], "cards": single["cards"]}
        follower.send({"type": "check", "id": 1, "action": {"type": "play", "cards": [low[0]]}})
        checked = follower.until(lambda frame: frame["type"] == "checked")
        assert (checked["ok"], checked["code"]) == (False, "illegal_action")
        assert checked["reason"] == "does_not_beat"
        assert checked["args"] == {"beat": beat}
        assert "does not beat" in checked["message"]
        follower.send({"type": "act", "action": {"type": "play", "cards": [low[0]]}})
        error = follower.error()
        assert (error["code"], error["reason"]) == ("illegal_action", "does_not_beat")
        assert error["args"] == {"beat": beat}


def test_a_refusal_not_by_the_rules_has_no_reason(client: TestClient) -> None:
    """``reason`` and ``args`` are the rules' (docs/protocol.md, "Refusals"): a malformed message has
    neither, cards that make no combination say so by ``not_a_combination``."""
    table_id, tokens = full_table(client)
    leader, _ = _leader_and_other(client, table_id)
    with client.websocket_connect(f"/ws/tables/{table_id}") as ws:
        peer = Peer(ws, leader)
        peer.join(tokens[leader])
        peer.send({"type": "act", "action": {"type": "play", "cards": ["XX"]}})
        error = peer.error()
        assert error["code"] == "bad_message"
        assert "reason" not in error
        assert "args" not in error
        peer.send({"type": "check", "action": {"type": "play", "cards": ["S3", "H9"]}})
        checked = peer.until(lambda frame: frame["type"] == "checked")
        assert (checked["reason"], checked["args"]) == (
            "not_a_combination",
            {"cards": ["S3", "H9"], "kind": None, "rank": None},
        )


def test_a_hint_is_a_legal_action_of_the_seat_to_act(client: TestClient) -> None:
    table_id, tokens = full_table(client)
    leader, _ = _leader_and_other(client, table_id)
    with client.websocket_connect(f"/ws/tables/{table_id}") as ws:
        peer = Peer(ws, leader)
        state = peer.join(tokens[leader])
        peer.send({"type": "hint"})
        hint = peer.until(lambda frame: frame["type"] == "hint")
        assert hint["action"] in peer.legal()
        assert hint["number"] == state["number"]


# -- whole deals: nobody ever sees another seat's cards ------------------------------------------------


def test_no_frame_shows_a_seat_cards_it_may_not_know_over_whole_deals(client: TestClient) -> None:
    """Two whole deals (the second with a double tribute, its first card face down, and two returns),
    four seats and a spectator: every frame is checked against what its viewer may know."""
    table_id, tokens = full_table(client, max_deals=2)
    with (
        client.websocket_connect(f"/ws/tables/{table_id}") as ws0,
        client.websocket_connect(f"/ws/tables/{table_id}") as ws1,
        client.websocket_connect(f"/ws/tables/{table_id}") as ws2,
        client.websocket_connect(f"/ws/tables/{table_id}") as ws3,
        client.websocket_connect(f"/ws/tables/{table_id}") as ws_watch,
    ):
        peers = [Peer(ws, seat) for seat, ws in enumerate((ws0, ws1, ws2, ws3))]
        watcher = Peer(ws_watch)
        watcher.join(None)
        for peer in peers:
            peer.join(tokens[peer.seat])  # type: ignore[index]
        for peer in [watcher, *peers]:  # each join changes "connected": read up to the last state
            if not all(seat["connected"] for seat in peer.state["seats"]):  # type: ignore[index]
                peer.next_state(lambda frame: all(seat["connected"] for seat in frame["seats"]))
        final = play_on(peers, watchers=(watcher,))
        assert final["result"] is not None
        table = room_of(client, table_id).table
        log = table.log
        tribute_entries = [
            entry for entry in log if entry["type"] == "action" and "tribute" in entry["action"]
        ]
        assert len(tribute_entries) == 2, "the second deal should open with a double tribute"
        assert "private_to" in tribute_entries[0]
        assert sum(1 for entry in log if entry["type"] == "action" and "return" in entry["action"]) == 2
        for peer in [*peers, watcher]:
            checked = check_frames(peer.frames, peer.seat, log, table.config)
            assert checked > len(log)
        # the face-down tribute: its card reached its payer and no one else before it was handed over
        first = log.index(tribute_entries[0]) + 1
        payer = tribute_entries[0]["seat"]
        for peer in [*peers, watcher]:
            event = next(f for f in peer.frames if f["type"] == "event" and f["number"] == first)
            card = event["event"]["action"]["tribute"]
            assert (card is not None) == (peer.seat == payer)


# -- reconnecting ----------------------------------------------------------------------------------------


def test_a_reconnecting_seat_gets_exactly_what_it_missed(client: TestClient) -> None:
    table_id, tokens = full_table(client)
    room = room_of(client, table_id)
    leader, _ = _leader_and_other(client, table_id)
    away = (leader + 2) % 4
    with client.websocket_connect(f"/ws/tables/{table_id}") as ws:
        gone = Peer(ws, away)
        last = gone.join(tokens[away])["number"]
        hand = gone.state["hand"]  # type: ignore[index]
    with (
        client.websocket_connect(f"/ws/tables/{table_id}") as ws_a,
        client.websocket_connect(f"/ws/tables/{table_id}") as ws_b,
    ):
        first, second = Peer(ws_a, leader), Peer(ws_b, (leader + 1) % 4)
        state = first.join(tokens[leader])
        assert not state["seats"][away]["connected"]
        second.join(tokens[(leader + 1) % 4])
        first.send({"type": "act", "action": first.legal()[0]})
        after = first.next_state(lambda frame: frame["turn"] != leader)
        second.next_state(lambda frame: frame["number"] >= after["number"])
        second.send({"type": "act", "action": {"type": "pass"}})
        second.next_state(lambda frame: frame["turn"] == away)
    missed = room.table.number - last
    assert missed == 2
    with client.websocket_connect(f"/ws/tables/{table_id}") as ws:
        back = Peer(ws, away)
        state = back.join(tokens[away], since=last)
        events = [frame for frame in back.frames if frame["type"] == "event"]
        assert [event["number"] for event in events] == [last + 1, last + 2]
        assert [event["event"]["action"]["seat"] for event in events] == [leader, (leader + 1) % 4]
        assert state["hand"] == hand
        assert state["turn"] == away
        assert state["to_act"]
        assert state["seats"][away]["connected"]


# -- clocks and 托管 -------------------------------------------------------------------------------------


def test_a_clock_that_runs_out_puts_the_seat_in_auto_until_it_resumes(client: TestClient) -> None:
    table_id, tokens = full_table(client, clocks={**LONG_CLOCKS, "lead": 1.0})
    room = room_of(client, table_id)
    leader, _ = _leader_and_other(client, table_id)
    with client.websocket_connect(f"/ws/tables/{table_id}") as ws:
        peer = Peer(ws, leader)
        state = peer.join(tokens[leader])
        if not state["seats"][leader]["auto"]:  # (a slow machine may have let the clock run out already)
            assert 0 < state["deadline"] - state["server_time"] <= 1.0
            state = peer.next_state(lambda frame: frame["seats"][leader]["auto"])
        assert state["deadline"] is None or state["turn"] != leader
        events = [frame["event"] for frame in peer.frames if frame["type"] == "event"]
        auto = next(index for index, event in enumerate(events) if event["type"] == "auto")
        assert events[auto] == {**events[auto], "seat": leader, "on": True}
        assert events[auto + 1]["type"] == "action"
        assert events[auto + 1]["by"] == "auto"
        assert events[auto + 1]["seat"] == leader
        peer.send({"type": "resume"})
        off = peer.until(lambda frame: frame["type"] == "event" and frame["event"]["type"] == "auto")
        assert off["event"]["on"] is False
        assert not peer.next_state(lambda frame: frame["number"] == off["number"])["seats"][leader]["auto"]
    assert [entry["type"] for entry in room.table.log[-3:]] == ["auto", "action", "auto"]


def test_a_four_bot_table_plays_to_the_end_and_its_record_replays(client: TestClient, tmp_path: Path) -> None:
    table = create_table(client, seats=[{"kind": "bot", "bot": "random"}] * 4, max_deals=1)
    deadline = time.monotonic() + 20
    while client.get(f"/api/tables/{table['id']}").json()["status"] != "finished":
        assert time.monotonic() < deadline, "the bots did not finish one deal in 20 s"
        time.sleep(0.05)
    record = client.get(f"/api/tables/{table['id']}/record").json()
    assert len(record["deals"]) == 1
    report = replay(record)
    assert report.ok
    assert report.finished
    path = tmp_path / "match.json"
    path.write_text(json.dumps(record))
    result = CliRunner().invoke(cli_app, ["replay", str(path)])
    assert result.exit_code == 0, result.output
    assert client.get("/api/tables").json()["tables"] == []
    assert [line["id"] for line in client.get("/api/tables?status=finished").json()["tables"]] == [
        table["id"]
    ]
    assert room_of(client, table["id"]).store.record(table["id"]) == record


def test_the_record_of_a_running_match_holds_only_its_finished_deals(client: TestClient) -> None:
    table_id, _ = full_table(client)
    record = client.get(f"/api/tables/{table_id}/record").json()
    assert record["deals"] == []
    assert replay(record).ok
    assert client.get("/api/tables/nope/record").status_code == 404
    assert rooms_of(client).get("nope") is None
