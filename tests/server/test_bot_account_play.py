"""A bot account plays a whole deal on a real ``cardroom serve`` over the card room's own websocket protocol
(docs/ladder.md, "Bot accounts"), choosing its moves with the heuristic house bot (``cardroom.bots``); then
its owner revokes its token: the open socket is closed at once and a new one is refused."""

from __future__ import annotations

import json
import logging
import random
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from websockets.sync.client import ClientConnection

from cardroom.bots.heuristic import HeuristicBot
from cardroom.cards import Rank
from cardroom.guandan.deal import Action, Phase, PlayAction
from cardroom.guandan.moves import legal_plays
from cardroom.guandan.observation import Observation
from cardroom.guandan.ruleset import preset
from cardroom.server.live.bot_sockets import TOKEN_ENDED_CLOSE
from cardroom.server.tables.codec import action_json, read_action, read_cards, read_play
from tests.server.clients import call, closing, frame, open_account, until, websocket
from tests.server.serving import Server

pytestmark = pytest.mark.server_process
"""Every test here starts `cardroom serve` (tests/server/serving.py)."""

Frame = dict[str, Any]


@pytest.fixture
def server(tmp_path: Path) -> Iterator[Server]:
    running = Server(tmp_path, "--log-level", "info")
    try:
        yield running
    finally:
        running.stop()


def observation_of(state: Frame, ask: Callable[[], list[Frame]]) -> Observation:
    """The seat's view as the state frame shows it, for a house bot (no history: the frame lists none).
    Its legal plays are worked out here, by the rules core (``legal`` is a costly message, limited to
    one a second); outside the play phase they are asked of the server (``ask``)."""
    rules = preset(state["table"]["rules"])
    level = Rank.from_letter(state["level"])
    seat = state["seat"]
    hand = read_cards(state["hand"], "hand")
    to_beat = state["to_beat"]
    previous = None if to_beat is None else read_play(to_beat["play"], level, rules)[0]
    places = {info["place"]: info["seat"] for info in state["seats"] if info["place"] is not None}
    if state["phase"] == "play":
        legal: tuple[Action, ...] = tuple(
            PlayAction(seat, play) for play in legal_plays(hand, previous, level, rules)
        )
    else:
        legal = tuple(action for value in ask() for action in read_action(seat, value, level, rules))
    return Observation(
        seat=seat,
        hand=hand,
        level=level,
        levels=(Rank.from_letter(state["levels"][0]), Rank.from_letter(state["levels"][1])),
        level_team=state["level_team"],
        deal_number=state["deal_number"],
        phase=Phase(state["phase"]),
        current_player=state["turn"],
        card_counts=tuple(info["cards"] for info in state["seats"]),
        finished=tuple(places[place] for place in sorted(places)),
        previous=previous,
        previous_seat=None if to_beat is None else to_beat["seat"],
        history=(),
        legal_actions=legal,
        rules=rules,
    )


def play_a_deal(ws: ClientConnection, bot: HeuristicBot) -> Frame:
    """Answer every turn of the seat with the bot's move until the match is over: the last state."""

    def ask() -> list[Frame]:
        ws.send(json.dumps({"type": "legal"}))
        actions: list[Frame] = until(ws, "legal")["actions"]
        return actions

    acted = 0  # the state acted on: a state sent again (a seat's connection changed) is not a new turn
    while True:
        got = frame(ws)
        assert got["type"] != "error", got
        if got["type"] != "state":
            continue
        if got["phase"] == "finished":
            return got
        if got["to_act"] and got["number"] > acted:
            acted = got["number"]
            action = bot.act(observation_of(got, ask))
            ws.send(json.dumps({"type": "act", "action": action_json(action)}))


def test_a_bot_account_plays_a_deal_then_its_revoked_token_is_cut_off(
    server: Server, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG)
    ann = open_account(server, "Ann")
    created = call(server, "POST", "/api/account/bots", {"name": "Little Tao"}, ann)
    assert created.status == 201, created
    token, bot_id = created.body["token"], created.body["bot"]["id"]
    auth = {"Authorization": f"Bearer {token}"}
    house = {"kind": "bot", "bot": "heuristic"}
    table = call(
        server,
        "POST",
        "/api/tables",
        {
            "name": "Tao's first deal",
            "max_deals": 1,
            "seats": [{"kind": "human"}, house, house, house],
            "clocks": {"bot": 60},
        },
    )
    assert table.status == 201, table
    table_id = table.body["id"]
    seat = call(server, "POST", f"/api/tables/{table_id}/seats/0", {}, auth)
    assert seat.status == 200, seat
    listed = call(server, "GET", f"/api/tables/{table_id}").body["seats"][0]
    assert listed["name"] == "Little Tao"
    assert listed["account"] == f"bot:{bot_id}"

    with websocket(server, f"/ws/tables/{table_id}") as ws:
        ws.send(json.dumps({"type": "auth", "token": token}))
        assert until(ws, "authenticated")["account"]["name"] == "Little Tao"
        ws.send(json.dumps({"type": "join", "token": seat.body["token"], "since": 0}))
        assert until(ws, "welcome")["seat"] == 0
        last = play_a_deal(ws, HeuristicBot(random.Random(7)))
        assert last["result"] is not None
        assert last["seats"][0]["place"] is not None
        assert not any(info["auto"] for info in last["seats"]), "托管 played for the bot"
        assert [info["faults"] for info in last["seats"]] == [0, 0, 0, 0], "a bot that plays well"

        revoked = call(server, "DELETE", f"/api/account/bots/{bot_id}/token", None, ann)
        assert revoked.status == 200
        assert revoked.body["bot"]["active"] is False
        frames, code, reason = closing(ws, timeout=5)
        assert code == TOKEN_ENDED_CLOSE, (code, reason, frames[-3:])
        assert frames[-1]["type"] == "error"
        assert frames[-1]["code"] == "token_revoked"

    with websocket(server, f"/ws/tables/{table_id}") as again:
        again.send(json.dumps({"type": "auth", "token": token}))
        frames, code, _ = closing(again, timeout=5)
        assert [got["code"] for got in frames] == ["bad_bot_token"]
        assert code == TOKEN_ENDED_CLOSE
    assert call(server, "POST", f"/api/tables/{table_id}/seats/0", {}, auth).status == 401
    record = call(server, "GET", f"/api/tables/{table_id}/record")
    assert record.status == 200
    assert token not in json.dumps(record.body)
    assert token not in server.log.read_text()
    assert token not in caplog.text
