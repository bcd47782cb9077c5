"""Shengji tables through the websocket and the HTTP API (issue 26; docs/protocol.md, "Shengji tables"):
joining, declaring, the ``check`` message, a finished deal's replay, and the record ``cardroom replay``
reads."""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

from fastapi.testclient import TestClient
from typer.testing import CliRunner

from cardroom.cards import Card
from cardroom.cli import app as cli_app
from cardroom.shengji.deal import Deal
from tests.server.conftest import Frame, Peer, room_of

BOTS = [{"kind": "bot", "bot": "heuristic"}] * 3


def shengji_table(client: TestClient, **body: Any) -> tuple[str, str]:
    """Ann at seat 0 and three heuristic bots at a Shengji table dealt at once: its id and Ann's token."""
    body.setdefault("deal_pace", 0)
    response = client.post(
        "/api/tables",
        json={
            "name": "Tractor",
            "game": "shengji",
            "seats": [{"kind": "human"}, *BOTS],
            "deal_pace": 0,
            **body,
        },
    )
    assert response.status_code == 201, response.text
    table_id = response.json()["id"]
    token = client.post(f"/api/tables/{table_id}/seats/0", json={"name": "Ann"}).json()["token"]
    return table_id, token


def my_turn(phase: str) -> Any:
    return lambda frame: frame["type"] == "state" and frame["turn"] == 0 and frame["phase"] == phase


def test_a_quick_shengji_table_shows_the_dealing_and_no_deck(client: TestClient) -> None:
    """The lobby's quick table takes a game (an unknown one is refused by name); the page learns the
    seven-level ladder of docs/rules/shengji.md#ladder, and no frame holds the deck or the seed."""
    quick = client.post("/api/quick", json={"name": "Ann", "game": "shengji"})
    assert quick.status_code == 201, quick.text
    answer = quick.json()
    assert client.get(f"/api/tables/{answer['id']}").json()["game"] == "shengji"
    refused = client.post("/api/quick", json={"name": "Ann", "game": "bridge"})
    assert refused.status_code == 400
    assert "game" in refused.json()["detail"]
    with client.websocket_connect(f"/ws/tables/{answer['id']}") as ws:
        peer = Peer(ws, 0)
        state = peer.join(answer["token"])
        welcome = peer.frames[0]
        assert welcome["table"]["config"]["game"] == "shengji"
        assert state["game"] == "shengji"
        assert state["ladder"] == ["2", "5", "T", "J", "Q", "K", "A"]
        assert state["must_play"] == ["2", "J", "A"]
        events = [frame["event"] for frame in peer.frames if frame["type"] == "event"]
        deal = next(event for event in events if event["type"] == "deal")
        assert "deck" not in deal
        assert "seed" not in json.dumps(peer.frames)


def test_check_answers_without_acting_and_act_plays(client: TestClient) -> None:
    table_id, token = shengji_table(client, clocks={"declare": 0.01})
    with client.websocket_connect(f"/ws/tables/{table_id}") as ws:
        peer = Peer(ws, 0)
        state = peer.join(token)  # the bots may have declared already: the join's state may be Ann's turn

        def to_act(frame: Frame) -> bool:
            return bool(my_turn("kitty")(frame) or my_turn("tricks")(frame))

        if not to_act(state):
            state = peer.until(to_act, timeout=60)
        if state["phase"] == "kitty":
            peer.send({"type": "check", "action": {"type": "bury", "cards": state["hand"][:8]}})
            assert peer.until(lambda frame: frame["type"] == "checked")["ok"] is True
            peer.send({"type": "act", "action": {"type": "bury", "cards": state["hand"][:8]}})
            state = peer.until(my_turn("tricks"), timeout=60)
        number = state["number"]
        peer.send({"type": "check", "action": {"type": "play", "cards": state["hand"]}})
        checked = peer.until(lambda frame: frame["type"] == "checked")
        assert checked == {
            "type": "checked",
            "v": 1,
            "id": None,
            "ok": False,
            "code": "illegal_action",
            "message": checked["message"],
            "reason": checked["reason"],
            "args": checked["args"],
            "number": number,
        }
        assert checked["reason"] in ("not_one_suit", "wrong_count"), (
            "the whole hand: several suits or too many"
        )
        assert "Error" not in checked["message"], "the rule's words, never an exception's name"
        assert room_of(client, table_id).table.number == number, "a check changes nothing"
        peer.send({"type": "check", "action": {"type": "fold"}})
        assert peer.until(lambda frame: frame["type"] == "checked")["code"] == "bad_message"
        peer.send({"type": "hint"})
        answer = peer.until(lambda frame: frame["type"] == "hint")
        hint = answer["action"]
        # The choices Hint cycles through (issue 45): the bot's own first, several, each legal now.
        choices = answer["choices"]
        assert choices[0] == hint
        assert choices, "at least the bot's own choice (one only when the deal leaves one: a must-follow)"
        assert len({" ".join(sorted(choice["cards"])) for choice in choices}) == len(choices)
        for choice in choices:
            peer.send({"type": "check", "action": choice})
            assert peer.until(lambda frame: frame["type"] == "checked")["ok"] is True, choice
        peer.send({"type": "act", "action": hint})
        after = peer.next_state(lambda frame: frame["number"] > number)
        assert len(after["hand"]) == len(state["hand"]) - len(hint["cards"])


def test_not_following_suit_is_refused_as_must_follow_suit_with_the_suit(client: TestClient) -> None:
    """Issue 45, "Saying no in plain words": a follow of other suits while holding the led one is
    refused with ``reason`` ``must_follow_suit`` and ``args`` naming the suit and how many of it the
    player holds (docs/protocol.md, "Refusals"; docs/rules/shengji.md, 跟牌)."""
    table_id, token = shengji_table(client, clocks={"declare": 0.01})
    with client.websocket_connect(f"/ws/tables/{table_id}") as ws:
        peer = Peer(ws, 0)
        state = peer.join(token)
        deadline = time.monotonic() + 120
        while True:
            assert time.monotonic() < deadline, "no follow where Ann could break the suit"
            if state["turn"] == 0 and state["phase"] == "tricks" and state["trick"]["plays"]:
                deal = room_of(client, table_id).table.match.current_deal
                assert isinstance(deal, Deal)
                rules = deal.trick_rules
                assert rules is not None
                lead = state["trick"]["plays"][0]["cards"]
                suit = rules.suit_of(Card.parse(lead[0]))
                hand = state["hand"]
                held = [card for card in hand if rules.suit_of(Card.parse(card)) is suit]
                others = [card for card in hand if card not in held]
                if held and len(others) >= len(lead):
                    break
            if state["turn"] == 0 and state["phase"] in ("kitty", "tricks"):
                peer.send({"type": "hint"})
                hint = peer.until(lambda frame: frame["type"] in ("hint", "error"))
                if hint["type"] == "hint":
                    peer.send({"type": "act", "action": hint["action"]})
            state = peer.next_state()
        cards = others[: len(lead)]
        peer.send({"type": "check", "action": {"type": "play", "cards": cards}})
        checked = peer.until(lambda frame: frame["type"] == "checked")
        assert (checked["ok"], checked["code"], checked["reason"]) == (
            False,
            "illegal_action",
            "must_follow_suit",
        )
        assert checked["args"] == {
            "suit": suit.letter,
            "held": len(held),
            "required": min(len(lead), len(held)),
            "played": 0,
        }
        peer.send({"type": "act", "action": {"type": "play", "cards": cards}})
        error = peer.error()
        assert (error["reason"], error["args"]) == ("must_follow_suit", checked["args"])


def play_deal_out(client: TestClient, table_id: str, token: str) -> Frame:
    """Ann plays the bot's hint at every turn until the first deal is over; the last state."""
    with client.websocket_connect(f"/ws/tables/{table_id}") as ws:
        peer = Peer(ws, 0)
        state = peer.join(token)
        deadline = time.monotonic() + 120
        while state["last_deal"] is None:
            assert time.monotonic() < deadline, "the deal did not end"
            if state["turn"] == 0 and state["phase"] in ("kitty", "tricks"):
                peer.send({"type": "hint"})
                hint = peer.until(lambda frame: frame["type"] in ("hint", "error"))
                if hint["type"] == "hint":
                    peer.send({"type": "act", "action": hint["action"]})
            state = peer.next_state()
        return state


def test_a_finished_deal_replays_step_by_step_and_as_a_record(client: TestClient, tmp_path: Path) -> None:
    table_id, token = shengji_table(client, clocks={"declare": 0.01}, max_deals=1)
    state = play_deal_out(client, table_id, token)
    last = state["last_deal"]
    assert len(last["kitty"]) == 8
    assert (
        last["score"]
        == last["attackers_card_points"] + last["kitty_points"] * last["kitty_multiplier"] + last["penalty"]
    )
    replay = client.get(f"/api/tables/{table_id}/deals/1/replay").json()
    frames = replay["frames"]
    keys = [frame["note"]["key"] for frame in frames]
    assert set(keys[: keys.index("sj.replay.start")]) <= {"sj.replay.declare"}
    dealt = frames[keys.index("sj.replay.start")]["hands"]
    assert sorted(len(hand) for hand in dealt) == [25, 25, 25, 33], "the dealer holds the kitty's 8 too"
    plays = [frame for frame in frames if frame["note"]["key"] in ("sj.replay.play", "sj.replay.failed")]
    assert sum(len(frame["note"]["cards"]) for frame in plays) == 100, "every card of the four hands"
    tricks = [frame for frame in plays if "trick" in frame["note"]]
    assert len(plays) == 4 * len(tricks), "four plays a trick, each trick's last one says who won it"
    assert frames[-1]["note"]["cards"] == last["kitty"]
    assert client.get(f"/api/tables/{table_id}/deals/2/replay").status_code == 404
    guandan = client.post("/api/tables", json={"name": "G", "seats": [{"kind": "human"}] * 4}).json()
    assert client.get(f"/api/tables/{guandan['id']}/deals/1/replay").status_code == 404

    record = client.get(f"/api/tables/{table_id}/record").json()
    path = tmp_path / "shengji.json"
    path.write_text(json.dumps(record), encoding="utf-8")
    result = CliRunner().invoke(cli_app, ["replay", str(path)])
    assert result.exit_code == 0, result.output
    assert "Shengji" in result.output
