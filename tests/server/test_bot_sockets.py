"""A bot account's websocket (docs/ladder.md, "Bot accounts"; docs/protocol.md): it signs in with its API
token in an ``Authorization`` header or its first message, only then joins the bot's seat, and is cut off
(``token_revoked``, close 4401) the moment its token is rotated, revoked or the bot deleted."""

from __future__ import annotations

import json
from typing import Any

import anyio
import pytest
from fastapi.testclient import TestClient
from starlette.testclient import WebSocketTestSession

from cardroom.server.live.bot_sockets import TOKEN_ENDED_CLOSE
from tests.server.accounts.test_bot_accounts import bearer, new_bot
from tests.server.conftest import create_table, signed_in

Frame = dict[str, Any]


def read(ws: WebSocketTestSession, timeout: float = 10.0) -> Frame:
    """The next message as sent: a frame, or ``{"closed": code, "reason"}``."""

    async def get() -> Any:
        with anyio.fail_after(timeout):
            return await ws._send_rx.receive()

    message = ws.portal.call(get)
    if message["type"] == "websocket.close":
        return {"closed": message["code"], "reason": message.get("reason", "")}
    frame: Frame = json.loads(message["text"])
    return frame


def until(ws: WebSocketTestSession, wanted: str) -> Frame:
    while True:
        frame = read(ws)
        if frame.get("type") == wanted or "closed" in frame:
            return frame


def seated_bot(client: TestClient) -> tuple[str, str, str, dict[str, str]]:
    """A casual table, Ann's bot at seat 0: the table, the bot's API token, the seat's token, Ann's
    headers."""
    ann = signed_in(client, "Ann")
    token = new_bot(client, ann)["token"]
    table_id = create_table(client)["id"]
    answer = client.post(f"/api/tables/{table_id}/seats/0", json={}, headers=bearer(token))
    assert answer.status_code == 200, answer.text
    return table_id, token, answer.json()["token"], ann


def test_a_bots_seat_is_joined_only_by_a_socket_signed_in_as_the_bot(client: TestClient) -> None:
    table_id, token, seat_token, _ = seated_bot(client)
    with client.websocket_connect(f"/ws/tables/{table_id}") as ws:
        ws.send_json({"type": "join", "token": seat_token, "since": 0})
        refused = until(ws, "error")
        assert refused["code"] == "bad_token"
        assert "bot's API token" in refused["message"]
        ws.send_json({"type": "auth", "token": token})
        late = until(ws, "error")
        assert late["code"] == "bad_message"
        assert "'auth'" in late["message"]
    with client.websocket_connect(f"/ws/tables/{table_id}") as ws:
        ws.send_json({"type": "auth", "token": token})
        signed = until(ws, "authenticated")
        assert signed["account"]["bot"] is True
        assert signed["account"]["owner"] == "Ann"
        assert signed["generation"] == 1
        assert token not in json.dumps(signed)
        ws.send_json({"type": "join", "token": seat_token, "since": 0})
        assert until(ws, "welcome")["seat"] == 0
        assert until(ws, "state")["seats"][0]["account"] == signed["account"]["key"]


@pytest.mark.parametrize("how", ["header", "message"])
def test_a_wrong_token_is_refused_and_the_socket_closed(client: TestClient, how: str) -> None:
    table_id, token, _, _ = seated_bot(client)
    wrong = token[:-4] + "AAAA"
    headers = bearer(wrong) if how == "header" else {}
    with client.websocket_connect(f"/ws/tables/{table_id}", headers=headers) as ws:
        if how == "message":
            ws.send_json({"type": "auth", "token": wrong})
        refused = read(ws)
        assert refused["type"] == "error"
        assert refused["code"] == "bad_bot_token"
        assert "no bot's" in refused["message"]
        assert wrong not in refused["message"]
        assert read(ws)["closed"] == TOKEN_ENDED_CLOSE


@pytest.mark.parametrize(
    ("change", "why"),
    [("revoke", "revoked"), ("rotate", "rotated"), ("delete", "deleted")],
)
def test_ending_the_token_cuts_its_sockets_off_at_once(client: TestClient, change: str, why: str) -> None:
    table_id, token, seat_token, ann = seated_bot(client)
    bot_id = client.get("/api/account/bots", headers=ann).json()["bots"][0]["id"]
    with (
        client.websocket_connect(f"/ws/tables/{table_id}", headers=bearer(token)) as ws,
        client.websocket_connect(f"/ws/tables/{table_id}") as watcher,
    ):
        assert read(ws)["type"] == "authenticated"
        ws.send_json({"type": "join", "token": seat_token, "since": 0})
        until(ws, "state")
        watcher.send_json({"type": "join", "token": None, "since": 0})
        until(watcher, "state")
        method, path = {
            "revoke": ("DELETE", f"/api/account/bots/{bot_id}/token"),
            "rotate": ("POST", f"/api/account/bots/{bot_id}/token"),
            "delete": ("DELETE", f"/api/account/bots/{bot_id}"),
        }[change]
        assert client.request(method, path, headers=ann).status_code in (200, 204)
        ended = until(ws, "error")
        assert ended["code"] == "token_revoked"
        assert why in ended["message"]
        assert until(ws, "no more")["closed"] == TOKEN_ENDED_CLOSE
        watcher.send_json({"type": "ping"})
        assert until(watcher, "pong")["type"] == "pong"
    with client.websocket_connect(f"/ws/tables/{table_id}") as again:
        again.send_json({"type": "auth", "token": token})
        assert read(again)["code"] == "bad_bot_token"
        assert read(again)["closed"] == TOKEN_ENDED_CLOSE


def test_a_token_ended_by_another_process_is_cut_off_at_the_next_sweep(client: TestClient) -> None:
    """In a cluster the owner's request may reach another process: the sockets here close at the sweep
    (every 10 s), as those of a session ended elsewhere do."""
    table_id, token, _, ann = seated_bot(client)
    state: Any = client.app.state  # type: ignore[attr-defined]
    key = client.get("/api/account/bots", headers=ann).json()["bots"][0]["key"]
    with client.websocket_connect(f"/ws/tables/{table_id}", headers=bearer(token)) as ws:
        assert read(ws)["type"] == "authenticated"
        assert client.portal is not None
        assert client.portal.call(state.bot_sockets.sweep, state.bots.store) == 0
        state.bots.store.update_bot(key, token_hash=None)  # as another process revokes it
        assert client.portal.call(state.bot_sockets.sweep, state.bots.store) == 1
        ended = read(ws)
        assert ended["code"] == "token_revoked"
        assert read(ws)["closed"] == TOKEN_ENDED_CLOSE
