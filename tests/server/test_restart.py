"""A real server (``cardroom serve`` under uvicorn, SQLite in a temporary folder) is killed mid-deal and
started again: the deal goes on from the same point, with the same hands, and nothing is lost."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from websockets.sync.client import ClientConnection

from tests.server.serving import Server

pytestmark = pytest.mark.server_process
"""Every test here starts `cardroom serve` (tests/server/serving.py)."""


def receive(ws: ClientConnection, frames: list[dict[str, Any]]) -> dict[str, Any]:
    frame: dict[str, Any] = json.loads(ws.recv(timeout=15))
    frames.append(frame)
    return frame


def legal(ws: ClientConnection, frames: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Ask for seat 0's legal actions (the ``legal`` message)."""
    ws.send(json.dumps({"type": "legal"}))
    while (frame := receive(ws, frames))["type"] != "legal":
        pass
    actions: list[dict[str, Any]] = frame["actions"]
    return actions


def my_turn(ws: ClientConnection, frames: list[dict[str, Any]], after: int = 0) -> dict[str, Any]:
    """Read until a state after event ``after`` in which seat 0 is to play."""
    while True:
        frame = receive(ws, frames)
        assert frame["type"] != "error", frame
        if (
            frame["type"] == "state"
            and frame["number"] > after
            and frame["turn"] == 0
            and frame["phase"] == "play"
        ):
            return frame


def test_a_killed_server_resumes_the_deal_with_the_same_hands(tmp_path: Path) -> None:
    server = Server(tmp_path)
    try:
        quick = server.api("POST", "/api/quick", {"name": "Ann"})
        frames: list[dict[str, Any]] = []
        with server.socket(quick["id"]) as ws:
            ws.send(json.dumps({"type": "join", "token": quick["token"], "since": 0}))
            state = my_turn(ws, frames)
            turns = 0
            while turns < 3 or len(state["hand"]) == 27:  # seat 0 acts; the bots answer at once
                plays = [action for action in legal(ws, frames) if action["type"] == "play"]
                ws.send(json.dumps({"type": "act", "action": plays[0] if plays else {"type": "pass"}}))
                state = my_turn(ws, frames, after=state["number"])
                turns += 1
        before = state
        assert before["deal_number"] == 1
        assert len(before["hand"]) < 27
        server.kill()
    finally:
        server.stop()

    server = Server(tmp_path)
    try:
        listed = server.api("GET", "/api/tables")["tables"]
        assert [table["id"] for table in listed] == [quick["id"]]
        assert listed[0]["status"] == "running"
        again: list[dict[str, Any]] = []
        with server.socket(quick["id"]) as ws:
            ws.send(json.dumps({"type": "join", "token": quick["token"], "since": before["number"]}))
            welcome = receive(ws, again)
            assert welcome["type"] == "welcome"
            assert welcome["seat"] == 0
            state = receive(ws, again)
            assert state["type"] == "state", "nothing happened while the server was down: no event to send"
            for field in ("number", "hand", "turn", "phase", "can_pass", "levels", "deal_number", "to_beat"):
                assert state[field] == before[field], field
            assert [seat["cards"] for seat in state["seats"]] == [seat["cards"] for seat in before["seats"]]
            clock = state["table"]["clocks"]["lead" if state["to_beat"] is None else "follow"]
            assert 0 < state["deadline"] - state["server_time"] <= clock
            assert state["deadline"] > before["deadline"], "the player to act gets a full clock again"
            # the deal goes on
            ws.send(json.dumps({"type": "act", "action": legal(ws, again)[0]}))
            event = receive(ws, again)
            assert event["type"] == "event"
            assert event["number"] == before["number"] + 1
            assert event["event"]["by"] == "player"
            after = my_turn(ws, again, after=event["number"])
            assert after["deal_number"] == 1
        # the whole log, read afresh, is the log the first server sent, and then more
        with server.socket(quick["id"]) as ws:
            fresh: list[dict[str, Any]] = []
            ws.send(json.dumps({"type": "join", "token": None, "since": 0}))
            while receive(ws, fresh)["type"] != "state":
                pass
        first_events = {frame["number"]: frame["event"] for frame in frames if frame["type"] == "event"}
        fresh_events = {frame["number"]: frame["event"] for frame in fresh if frame["type"] == "event"}
        assert sorted(first_events) == list(range(1, before["number"] + 1))
        for number, event in first_events.items():
            if event["type"] == "deal":
                assert fresh_events[number] == {**event, "hand": None}  # the spectator sees no hand
            else:
                assert fresh_events[number] == event
        assert len(fresh_events) >= after["number"]
    finally:
        server.stop()


def test_a_killed_server_resumes_a_shengji_deal(tmp_path: Path) -> None:
    """Issue 26: a Shengji table is its log too: the kitty buried, the trump, the hand and the points
    come back after a kill -9, and the deal goes on."""
    server = Server(tmp_path)
    try:
        quick = server.api("POST", "/api/quick", {"name": "Ann", "game": "shengji"})
        frames: list[dict[str, Any]] = []
        with server.socket(quick["id"]) as ws:
            ws.send(json.dumps({"type": "join", "token": quick["token"], "since": 0}))
            tricks = 0
            acted = 0  # the number of the state last answered: a repeated state is not answered twice
            while True:
                state = receive(ws, frames)
                assert state["type"] != "error", state
                if state["type"] != "state" or state["turn"] != 0 or state["number"] <= acted:
                    continue
                acted = state["number"]
                if state["phase"] == "declare" and state["declarations"]:  # else it passes by itself
                    ws.send(json.dumps({"type": "act", "action": {"type": "pass"}}))
                elif state["phase"] == "kitty":
                    bury = {"type": "bury", "cards": state["hand"][:8]}
                    ws.send(json.dumps({"type": "act", "action": bury}))
                elif state["phase"] == "tricks":
                    if tricks == 3:
                        break
                    ws.send(json.dumps({"type": "hint"}))
                    while (hint := receive(ws, frames))["type"] != "hint":
                        pass
                    ws.send(json.dumps({"type": "act", "action": hint["action"]}))
                    tricks += 1
        before = state
        server.kill()
    finally:
        server.stop()

    server = Server(tmp_path)
    try:
        with server.socket(quick["id"]) as ws:
            ws.send(json.dumps({"type": "join", "token": quick["token"], "since": before["number"]}))
            again: list[dict[str, Any]] = []
            assert receive(ws, again)["type"] == "welcome"
            state = receive(ws, again)
            assert state["type"] == "state"
            for field in ("number", "hand", "turn", "phase", "trump", "dealer", "kitty", "points", "trick"):
                assert state[field] == before[field], field
            ws.send(json.dumps({"type": "hint"}))
            while (hint := receive(ws, again))["type"] != "hint":
                pass
            ws.send(json.dumps({"type": "act", "action": hint["action"]}))
            event = receive(ws, again)
            assert event["type"] == "event"
            assert event["number"] == before["number"] + 1
            assert event["event"]["seat"] == 0
    finally:
        server.stop()
