"""Issue 40, "Sessions and seats", on a real ``cardroom serve`` with real websockets: an account that
claims its seat again ("Take my seat here", docs/accounts.md) cuts off every connection of the old
token at once (``seat_replaced``, close 4409: its ``act`` and ``legal`` refused), and claiming seats
is rate-limited per address (docs/server.md, "Limits")."""

from __future__ import annotations

import contextlib
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from websockets.exceptions import ConnectionClosed

from cardroom.server.live.rooms import SEAT_REPLACED_CLOSE
from tests.server.clients import call, closing, frame, joined, open_account, until, websocket
from tests.server.serving import Server

pytestmark = pytest.mark.server_process
"""Every test here starts `cardroom serve` (tests/server/serving.py)."""

LONG = {"tribute": 600, "return": 600, "lead": 600, "follow": 600}
BOTS = [{"kind": "human"}, {"kind": "bot", "bot": "heuristic"}, {"kind": "bot", "bot": "heuristic"}]


@pytest.fixture
def server(tmp_path: Path) -> Iterator[Server]:
    running = Server(tmp_path)
    try:
        yield running
    finally:
        running.stop()


def ann_against_bots(server: Server) -> tuple[str, dict[str, str], str]:
    """A casual table, Ann (signed in) at seat 0 and three bots: its id, Ann's headers, her token."""
    ann = open_account(server, "Ann")
    table = call(server, "POST", "/api/tables", {"name": "Ann's", "seats": [*BOTS, BOTS[1]], "clocks": LONG})
    assert table.status == 201, table
    table_id = table.body["id"]
    sat = call(server, "POST", f"/api/tables/{table_id}/seats/0", {}, ann)
    assert sat.status == 200, sat
    return table_id, ann, sat.body["token"]


def to_act(ws: Any) -> dict[str, Any]:
    """Read until a state in which the seat is to act."""
    while not (state := until(ws, "state"))["to_act"]:
        pass
    return state


def test_claiming_a_seat_again_cuts_off_the_old_tokens_connections_at_once(server: Server) -> None:
    """Ann plays on her laptop; on her phone she takes her seat again. The laptop's socket is told
    ``seat_replaced`` and closed with 4409 at once, and the action it sends right after the claim
    is not taken (before: it kept getting ``legal`` and its ``act`` was accepted). The phone plays on."""
    table_id, ann, old = ann_against_bots(server)
    path = f"/ws/tables/{table_id}"
    with websocket(server, path) as laptop, websocket(server, path) as watcher:
        joined(watcher, None)
        if not joined(laptop, old)["to_act"]:
            to_act(laptop)
        laptop.send(json.dumps({"type": "legal"}))
        action = until(laptop, "legal")["actions"][0]

        again = call(server, "POST", f"/api/tables/{table_id}/seats/0", {}, ann)
        assert again.status == 200, again
        new = again.body["token"]
        assert new != old
        with contextlib.suppress(ConnectionClosed):  # it may be closed already
            laptop.send(json.dumps({"type": "act", "action": action}))
            laptop.send(json.dumps({"type": "legal"}))
        frames, code, reason = closing(laptop)
        errors = [got for got in frames if got["type"] == "error"]
        assert errors, frames
        assert errors[0]["code"] == "seat_replaced", errors
        assert "no longer holds" in errors[0]["message"]
        assert code == SEAT_REPLACED_CLOSE, (code, reason)
        assert not [got for got in frames if got["type"] == "legal"], "no legal actions for the old token"
        while not ((got := until(watcher, "event"))["event"]["type"] == "key" and got["event"]["seat"] == 0):
            pass
        keyed = got["number"]

    with websocket(server, path) as phone, websocket(server, path) as stale:
        state = joined(phone, new)
        assert state["number"] == keyed, "nothing was played after the claim: the laptop's act was refused"
        assert state["seat"] == 0
        assert state["to_act"]
        assert state["seats"][0]["connected"]
        phone.send(json.dumps({"type": "act", "action": action}))
        event = until(phone, "event")
        assert event["number"] == keyed + 1
        assert event["event"]["type"] == "action"
        assert event["event"]["seat"] == 0
        assert event["event"]["by"] == "player"
        stale.send(json.dumps({"type": "join", "token": old, "since": 0}))
        assert until_error(stale)["code"] == "bad_token"


def until_error(ws: Any) -> dict[str, Any]:
    while (got := frame(ws))["type"] != "error":
        pass
    return got


def test_claiming_seats_is_rate_limited_per_address(server: Server) -> None:
    """Each claim stores a log entry and closes sockets: past its burst (20 at once by default) an
    address is answered 429 with ``Retry-After``, naming the limit; another table's seat from the
    same address waits too (the limit is the address's, not the seat's)."""
    table_id, ann, _ = ann_against_bots(server)  # one claim
    answers = [call(server, "POST", f"/api/tables/{table_id}/seats/0", {}, ann) for _ in range(20)]
    assert [answer.status for answer in answers[:19]] == [200] * 19
    refused = answers[19]
    assert refused.status == 429, refused
    assert refused.body["detail"].startswith("too many seats taken from one address: at most 20 at once")
    assert int(refused.headers["retry-after"]) >= 1
    other = call(server, "POST", "/api/tables", {"name": "Other", "seats": [*BOTS, BOTS[1]], "clocks": LONG})
    assert call(server, "POST", f"/api/tables/{other.body['id']}/seats/0", {"name": "Bo"}).status == 429
