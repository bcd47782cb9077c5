"""What a hostile client sends, through a real server (``cardroom serve`` in a subprocess) over real HTTP
and real websockets (issue 40): three copies of one card in an action are the rules' refusal naming the
card (``illegal_action``, not ``server_error``) at both games' tables, and a lone surrogate (``"\\ud800"``,
which JSON's escapes can spell but no text holds) in any name or message is a 400 or a ``bad_message``
naming the field, never a 500; the table and the socket go on as before.
"""

from __future__ import annotations

import json
import urllib.error
import urllib.request
from collections.abc import Iterator
from email.message import Message
from typing import Any

import pytest
from websockets.sync.client import ClientConnection

from cardroom.server.storage.store import Store
from tests.server.serving import Server

pytestmark = pytest.mark.server_process
"""Every test here starts `cardroom serve` (tests/server/serving.py)."""

LONG = {"tribute": 600, "return": 600, "lead": 600, "follow": 600, "declare": 0.05, "bury": 600}
"""Ann has all the time she needs to act (Shengji's dealing goes on while she has nothing to declare)."""
LONE = "\ud800"


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """One server for the module's many refused creations, its per-address creation limit off (a refused
    creation still counts towards it)."""
    running = Server(tmp_path_factory.mktemp("hostile"), "--address-tables", "0", "--rate-limits", "0")
    try:
        yield running
    finally:
        running.stop()


def request(
    server: Server, method: str, path: str, body: Any = None, headers: dict[str, str] | None = None
) -> tuple[int, Any, Message]:
    """One HTTP request (its body JSON with ASCII escapes, as a client writes it): status, JSON answer,
    headers; an HTTP error is an answer too."""
    data = None if body is None else json.dumps(body).encode()
    sent = urllib.request.Request(server.url + path, data=data, method=method)
    sent.add_header("Content-Type", "application/json")
    for name, value in (headers or {}).items():
        sent.add_header(name, value)
    try:
        with urllib.request.urlopen(sent, timeout=10) as response:
            return response.status, json.loads(response.read() or b"null"), response.headers
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read() or b"null"), error.headers


def refused(server: Server, method: str, path: str, body: Any, field: str, **kwargs: Any) -> None:
    status, answer, _ = request(server, method, path, body, **kwargs)
    assert status == 400, (path, status, answer)
    assert answer["detail"].startswith(f"request body: {field}: a lone surrogate"), answer


def seated_ann(server: Server, game: str) -> tuple[str, str]:
    table = server.api(
        "POST",
        "/api/tables",
        {
            "name": f"{game} hostile",
            "game": game,
            "clocks": LONG,
            "seats": [{"kind": "human"}, *[{"kind": "bot", "bot": "random"}] * 3],
        },
    )
    seat = server.api("POST", f"/api/tables/{table['id']}/seats/0", {"name": "Ann"})
    return table["id"], seat["token"]


def receive(ws: ClientConnection) -> dict[str, Any]:
    frame: dict[str, Any] = json.loads(ws.recv(timeout=30))
    return frame


def until(ws: ClientConnection, kinds: tuple[str, ...]) -> dict[str, Any]:
    while (frame := receive(ws))["type"] not in kinds:
        pass
    return frame


def anns_turn(ws: ClientConnection, phases: tuple[str, ...]) -> dict[str, Any]:
    while True:
        frame = receive(ws)
        if frame["type"] == "state" and frame["turn"] == 0 and frame["phase"] in phases:
            return frame


@pytest.mark.parametrize(
    ("game", "phases", "kind"),
    [("guandan", ("play",), "play"), ("shengji", ("kitty", "tricks"), "play")],
)
def test_three_copies_of_one_card_are_an_illegal_action_naming_it(
    server: Server, game: str, phases: tuple[str, ...], kind: str
) -> None:
    table_id, token = seated_ann(server, game)
    with server.socket(table_id) as ws:
        ws.send(json.dumps({"type": "join", "token": token, "since": 0}))
        state = anns_turn(ws, phases)
        actions: list[dict[str, Any]] = [
            {"type": kind, "cards": ["S3", "S3", "S3"]},
            {"type": kind, "cards": ["SB", "HR", "SB", "SB"]},
            {"type": kind, "cards": ["S3"] * 9},
        ]
        if game == "guandan":
            actions += [
                {"type": "play", "cards": ["S3", "S3", "S3"], "kind": "Trips", "rank": "3"},
                {"type": "play", "cards": ["S3"] * 9, "kind": "Bomb", "rank": "3"},
            ]
        for action in actions:
            for message in ("act", "check"):
                ws.send(json.dumps({"type": message, "action": action}))
                answer = until(ws, ("error", "checked"))
                assert answer["code"] == "illegal_action", (message, action, answer)
                card = "SB" if "SB" in action["cards"] else "S3"
                times = action["cards"].count(card)
                assert answer["message"] == (
                    f"action.cards: {card} is sent {times} times; the two decks hold each card twice"
                )
        ws.send(json.dumps({"type": "legal" if game == "guandan" else "check", "action": {"type": "pass"}}))
        assert until(ws, ("legal", "checked", "error"))["type"] in ("legal", "checked")
    assert server.api("GET", f"/api/tables/{table_id}")["status"] == "running"
    assert state["number"] >= 1


def test_a_lone_surrogate_in_a_websocket_message_is_a_bad_message(server: Server) -> None:
    table_id, token = seated_ann(server, "guandan")
    with server.socket(table_id) as ws:
        ws.send(json.dumps({"type": "join", "token": token, "since": 0}))
        anns_turn(ws, ("play",))
        for message, field in (
            ({"type": "act", "action": {"type": "play", "cards": [LONE]}}, "action.cards[0]"),
            ({"type": "check", "action": {"type": "play", "cards": ["S3"], "kind": LONE}}, "action.kind"),
            ({"type": "act", "action": {"type": "play", "cards": ["S3"], "rank": LONE}}, "action.rank"),
            ({"type": LONE}, "type"),
        ):
            ws.send(json.dumps(message))
            answer = until(ws, ("error", "checked"))
            assert answer["code"] == "bad_message", answer
            assert answer["message"].startswith(f"{field}: a lone surrogate (\\ud800) is not text")
        ws.send(json.dumps({"type": "ping"}))
        assert until(ws, ("pong", "error"))["type"] == "pong", "the socket goes on"


def test_a_lone_surrogate_in_any_name_is_a_400_naming_the_field(server: Server) -> None:
    human = {"kind": "human"}
    refused(server, "POST", "/api/tables", {"name": LONE, "seats": [human] * 4}, "name")
    bot_named = {"kind": "bot", "bot": "random", "name": f"Bot{LONE}"}
    refused(
        server,
        "POST",
        "/api/tables",
        {"name": "T", "seats": [human, bot_named, human, human]},
        "seats[1].name",
    )
    refused(server, "POST", "/api/quick", {"name": LONE}, "name")
    table_id, _ = seated_ann(server, "guandan")
    refused(server, "POST", f"/api/tables/{table_id}/seats/2", {"name": f"Bo{LONE}"}, "name")
    refused(server, "POST", "/api/accounts", {"name": LONE, "password": "a long enough secret"}, "name")
    refused(server, "POST", "/api/accounts", {"name": "Cy", "password": f"secret {LONE} secret"}, "password")
    refused(server, "POST", "/api/session", {"name": LONE, "password": "whatever it is"}, "name")

    status, answer, headers = request(
        server, "POST", "/api/accounts", {"name": "Dee", "password": "dee's secret pass"}
    )
    assert status == 201, answer
    cookie = headers["Set-Cookie"].split(";", 1)[0]
    signed = {"Cookie": cookie, "X-CSRF-Token": answer["csrf"]}
    store = Store(f"sqlite:///{server.log.parent / 'cardroom.sqlite3'}")
    try:
        assert store.update_account("dee", role="director")
    finally:
        store.close()
    refused(server, "POST", "/api/events", {"name": LONE}, "name", headers=signed)
    status, created, _ = request(server, "POST", "/api/events", {"name": "Club night"}, signed)
    assert status == 201, created
    teams = f"/api/events/{created['event']['id']}/teams"
    bots = [{"bot": "random"}, {"bot": "random"}]
    refused(server, "POST", teams, {"name": f"队{LONE}", "players": bots}, "name", headers=signed)
    named = [{"bot": "random", "name": LONE}, {"bot": "random"}]
    refused(server, "POST", teams, {"name": "队1", "players": named}, "players[0].name", headers=signed)
    status, team, _ = request(server, "POST", teams, {"name": "队1", "players": bots}, signed)
    assert status == 201, team
    assert "Internal Server Error" not in server.log.read_text()


@pytest.mark.parametrize("hidden", ["\u202e", "\u2067", "\u200b", "\x07"])
def test_a_control_or_bidirectional_character_in_a_table_name_is_a_400(server: Server, hidden: str) -> None:
    """The lobby shows every table's name to everyone: a right-to-left override, a zero-width space or
    a control character there would let a table pose as another (docs/accounts.md, "Names")."""
    seats = [{"kind": "bot", "bot": "random"}] * 4
    status, answer, _ = request(
        server, "POST", "/api/tables", {"name": f"Ann{hidden}s table", "max_deals": 1, "seats": seats}
    )
    assert status == 400, (status, answer)
    assert answer["detail"].startswith("name: "), answer
    listed = server.api("GET", "/api/tables?status=waiting,running,finished")["tables"]
    assert all(hidden not in table["name"] for table in listed)
