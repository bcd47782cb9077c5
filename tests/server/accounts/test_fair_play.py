"""Trust at the table (issue 40), against a real ``cardroom serve`` and real websockets: ratings that
measure people (docs/accounts.md, "What a rating counts"), bots' names and marks, and the accounts'
own safeguards (a password change and "sign out my other sessions" close the other sessions'
sockets at once; common passwords and lookalike names are refused).

The 30-second farm this answers: an account creates a rated table with three bots under fresh
names and short clocks, sits, and lets 托管 play every card; eight wins, no loss, first place.
"""

from __future__ import annotations

import json
import threading
import urllib.error
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import pytest
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import ClientConnection, connect

from cardroom.server.accounts.fair_play import SAME_OPPONENTS_LIMIT
from cardroom.server.live.session_sockets import SIGNED_OUT_CLOSE
from tests.server.conftest import team_play
from tests.server.serving import Server

pytestmark = pytest.mark.server_process
"""Every test here starts `cardroom serve` (tests/server/serving.py)."""

SESSION_COOKIE = "cardroom_session"
HUMANS = [{"kind": "human"}] * 4
THREE_BOTS = [
    {"kind": "human"},
    *[{"kind": "bot", "bot": "heuristic", "name": f"Farm{n}"} for n in (1, 2, 3)],
]
LONG = {"tribute": 600, "return": 600, "lead": 600, "follow": 600}


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    running = Server(tmp_path_factory.mktemp("fair-play"), "--rate-limits", "0")
    try:
        yield running
    finally:
        running.stop()


def call(
    server: Server, method: str, path: str, body: Any = None, headers: dict[str, str] | None = None
) -> Any:
    """One HTTP request: ``(status, answer)``, an error's answer as well as a success's."""
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(server.url + path, data=data, method=method)
    request.add_header("Content-Type", "application/json")
    for name, value in (headers or {}).items():
        request.add_header(name, value)
    try:
        with urllib.request.urlopen(request, timeout=20) as response:
            text = response.read()
            return response.status, json.loads(text) if text else None, response.headers
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read() or b"null"), error.headers


@dataclass
class Session:
    """A signed-in browser of an account: its cookie and CSRF token ride on every request."""

    server: Server
    name: str
    cookie: str
    csrf: str

    @property
    def headers(self) -> dict[str, str]:
        return {"Cookie": f"{SESSION_COOKIE}={self.cookie}", "X-CSRF-Token": self.csrf}

    def api(self, method: str, path: str, body: Any = None) -> tuple[int, Any]:
        status, answer, _ = call(self.server, method, path, body, self.headers)
        return status, answer

    def socket(self, path: str) -> ClientConnection:
        """A websocket opened by this browser (its cookies go with the handshake): enter it with
        ``with``, then :func:`opened`."""
        cookie = {"Cookie": f"{SESSION_COOKIE}={self.cookie}"}
        return connect(f"ws://127.0.0.1:{self.server.port}{path}", open_timeout=10, additional_headers=cookie)


def opened(ws: ClientConnection) -> ClientConnection:
    """The socket with its first frame read (a table's after joining as a spectator)."""
    if "/ws/tables/" in (ws.request.path if ws.request is not None else ""):
        ws.send(json.dumps({"type": "join", "token": None}))
    ws.recv(timeout=10)
    return ws


def password_of(name: str) -> str:
    return f"the long secret of {name}"


def session(server: Server, name: str, password: str | None = None, *, register: bool = True) -> Session:
    """Open ``name``'s account (or sign in to it): a new session."""
    credentials = {"name": name, "password": password or password_of(name)}
    status, answer, headers = call(
        server, "POST", "/api/accounts" if register else "/api/session", credentials
    )
    if status == 409 and register:
        return session(server, name, password, register=False)
    assert status in (200, 201), answer
    cookie = headers["Set-Cookie"].split(";", 1)[0].removeprefix(f"{SESSION_COOKIE}=")
    return Session(server, name, cookie, answer["csrf"])


# -- ratings that measure people ---------------------------------------------------------------------------


def test_the_thirty_second_farm_is_refused_at_each_step(server: Server) -> None:
    """A guest creates no rated table and no event; an account creates no rated table with bots and
    takes one seat of a rated table, not two; quick play against bots is casual; the leaderboard stays
    empty."""
    rated_bots = {"name": "farm", "seats": THREE_BOTS, "rated": True, "max_deals": 1, "clocks": LONG}
    status, answer, _ = call(server, "POST", "/api/tables", rated_bots)
    assert (status, answer["detail"]) == (
        401,
        "sign in first: a rated table is created by a signed-in account",
    )
    status, _answer, _ = call(server, "POST", "/api/tables", {**rated_bots, "seats": HUMANS})
    assert status == 401
    status, answer, _ = call(server, "POST", "/api/events", {"name": "Farm Cup"})
    assert status == 401
    assert "sign in first" in answer["detail"]

    farmer = session(server, "Farmer")
    status, answer = farmer.api("POST", "/api/events", {"name": "Farm Cup"})
    assert status == 403
    assert "director role" in answer["detail"]
    status, answer = farmer.api("POST", "/api/tables", rated_bots)
    assert status == 400
    assert "seats [1, 2, 3]: a rated table seats four people" in answer["detail"]

    status, table = farmer.api("POST", "/api/tables", {**rated_bots, "seats": HUMANS})
    assert status == 201
    assert table["rated"] is True
    path = f"/api/tables/{table['id']}/seats"
    status, first = farmer.api("POST", f"{path}/0", {})
    assert status == 200
    status, answer = farmer.api("POST", f"{path}/1", {})
    assert status == 409
    assert answer["detail"] == "Farmer holds seat 0 of this rated table already: one seat each"
    assert [seat["account"] for seat in call(server, "GET", f"/api/tables/{table['id']}")[1]["seats"]] == [
        "farmer",
        None,
        None,
        None,
    ]
    status, again = farmer.api("POST", f"{path}/0", {})  # the same player on another device: its own seat
    assert status == 200
    assert again["token"] != first["token"]

    status, quick = farmer.api("POST", "/api/quick", {})
    assert status == 201
    assert call(server, "GET", f"/api/tables/{quick['id']}")[1]["rated"] is False
    assert call(server, "GET", "/api/leaderboard")[1]["players"] == []


class Player(threading.Thread):
    """One seat played through its websocket: team 0 plays its longest play, team 1 passes whenever
    it may (``team_play``), until the match is over."""

    def __init__(self, server: Server, table_id: str, seat: int, token: str) -> None:
        super().__init__(daemon=True)
        self.url = f"ws://127.0.0.1:{server.port}/ws/tables/{table_id}"
        self.seat = seat
        self.token = token
        self.error: BaseException | None = None
        self.last: dict[str, Any] | None = None

    def run(self) -> None:
        try:
            with connect(self.url, open_timeout=10) as ws:
                self.play(ws)
        except BaseException as error:  # reported by the test
            self.error = error

    def play(self, ws: ClientConnection) -> None:
        def frame() -> dict[str, Any]:
            value: dict[str, Any] = json.loads(ws.recv(timeout=60))
            return value

        ws.send(json.dumps({"type": "join", "token": self.token}))
        while True:
            state = frame()
            if state["type"] == "error":
                raise AssertionError(state)
            if state["type"] != "state":
                continue
            self.last = state
            if state["phase"] == "finished":
                return
            if state["turn"] == self.seat and state["phase"] not in ("between", "waiting"):
                ws.send(json.dumps({"type": "legal"}))
                while (answer := frame())["type"] != "legal":
                    pass
                if answer["actions"]:
                    ws.send(json.dumps({"type": "act", "action": team_play(state, answer["actions"])}))


def play_match(server: Server, people: list[Session], *, idle: int | None = None) -> str:
    """A rated one-deal match of the four ``people`` (seat by seat) played to its end through their
    websockets; the seat ``idle`` never acts, so its clock runs out and 托管 plays it. The table's id."""
    clocks = {"tribute": 2, "return": 2, "lead": 2, "follow": 2} if idle is not None else LONG
    body = {"name": "rated", "seats": HUMANS, "rated": True, "max_deals": 1, "clocks": clocks}
    status, table = people[0].api("POST", "/api/tables", body)
    assert status == 201, table
    tokens = []
    for seat, person in enumerate(people):
        status, answer = person.api("POST", f"/api/tables/{table['id']}/seats/{seat}", {})
        assert status == 200, answer
        tokens.append(answer["token"])
    players = [Player(server, table["id"], seat, token) for seat, token in enumerate(tokens) if seat != idle]
    for player in players:
        player.start()
    for player in players:
        player.join(timeout=120)
        assert player.error is None, player.error
        assert player.last is not None
        assert player.last["phase"] == "finished"
    return str(table["id"])


def page(server: Server, name: str) -> dict[str, Any]:
    status, answer, _ = call(server, "GET", f"/api/players/{name}")
    assert status == 200, answer
    result: dict[str, Any] = answer
    return result


def test_a_match_toguan_played_gains_nothing_and_the_same_opponents_count_three_times(server: Server) -> None:
    """A seat 托管 played for more than half its decisions earns its player nothing from a win (its
    partner, who played, gains); then only the first three rated matches against the same two
    opponents within a day count (docs/accounts.md: 3 in 24 hours)."""
    assert SAME_OPPONENTS_LIMIT == 3
    people = [session(server, name) for name in ("Ada", "Bert", "Cleo", "Dirk")]
    first = play_match(server, people, idle=0)
    record = call(server, "GET", f"/api/tables/{first}/record")[1]
    assert record["meta"]["outcome"]["winner"] == 0, "team 0 (Ada and Cleo) wins: team 1 always passes"
    ada, cleo = page(server, "Ada"), page(server, "Cleo")
    (line,) = ada["recent"]
    assert (line["result"], line["counted"], line["withheld"]) == ("won", False, "auto")
    assert line["auto_decisions"] == line["decisions"] > 0
    assert (ada["matches"], ada["wins"], ada["rating"], ada["points"]) == (0, 0, 0.0, 0)
    assert ada["rank"] is None
    assert (cleo["matches"], cleo["wins"]) == (1, 1)
    assert cleo["rating"] > 0
    assert cleo["recent"][0]["counted"] is True
    assert cleo["recent"][0]["auto_decisions"] == 0
    board = [row["name"] for row in call(server, "GET", "/api/leaderboard")[1]["players"]]
    assert "Ada" not in board
    assert "Cleo" in board

    for _ in range(SAME_OPPONENTS_LIMIT - 1):  # the second and third against Bert and Dirk count
        play_match(server, people)
    before = {person.name: page(server, person.name) for person in people}
    assert before["Cleo"]["matches"] == SAME_OPPONENTS_LIMIT
    assert before["Ada"]["matches"] == SAME_OPPONENTS_LIMIT - 1
    fourth = play_match(server, people)
    for person in people:
        after = page(server, person.name)
        latest = after["recent"][0]
        assert latest["table_id"] == fourth
        assert (latest["counted"], latest["withheld"]) == (False, "same_opponents")
        assert latest["rating_change"] == 0
        assert latest["points_change"] == 0
        for field in ("rating", "mu", "sigma", "points", "matches", "wins", "losses"):
            assert after[field] == before[person.name][field], (person.name, field)


# -- bots' names and marks ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "status", "told"),
    [
        ("\u202eAnnika", 400, "right-to-left marks"),
        ("Rex\x07", 400, "control characters"),
        ("Re\u200bx", 400, "control characters"),
        ("Re\u3164x", 400, "invisible characters"),
        ("x" * 41, 400, "1 to 40 characters"),
        ("Annika", 409, "is, or looks like, the account 'Annika'"),
        ("ANNIKA", 409, "is, or looks like, the account 'Annika'"),
        ("\u0410nnika", 409, "is, or looks like, the account 'Annika'"),  # Cyrillic А
        ("\uff21nnika", 409, "is, or looks like, the account 'Annika'"),  # full-width Ａ
    ],
)
def test_a_bots_name_follows_the_rules_of_peoples_names(
    server: Server, name: str, status: int, told: str
) -> None:
    session(server, "Annika")
    seats = [{"kind": "human"}, {"kind": "bot", "bot": "random", "name": name}, *HUMANS[:2]]
    got, answer, _ = call(server, "POST", "/api/tables", {"name": "t", "seats": seats, "clocks": LONG})
    assert got == status, answer
    assert told in answer["detail"]
    assert answer["detail"].startswith("seats[1]")
    director = session(server, "Dora")
    make_director(server, "Dora")
    status_event, event = director.api("POST", "/api/events", {"name": "Names Cup"})
    assert status_event == 201, event
    team = {
        "name": "Bots",
        "players": [{"bot": "random", "name": name}, {"bot": "random", "name": "Bot Two"}],
    }
    got, answer = director.api("POST", f"/api/events/{event['event']['id']}/teams", team)
    assert got == status, answer
    assert told in answer["detail"]


def make_director(server: Server, name: str) -> None:
    """Give ``name``'s account the director role, as the operator's ``cardroom accounts role`` does."""
    from cardroom.server.storage.store import Store

    store = Store(f"sqlite:///{server.log.parent / 'cardroom.sqlite3'}")
    try:
        assert store.update_account(name.casefold(), role="director")
    finally:
        store.close()


def test_a_bots_name_is_nfkc_normalised_and_every_bot_is_marked(server: Server) -> None:
    seats = [{"kind": "human"}, {"kind": "bot", "bot": "random", "name": "\uff32\uff45\uff58"}, *HUMANS[:2]]
    status, table, _ = call(server, "POST", "/api/tables", {"name": "t", "seats": seats, "clocks": LONG})
    assert status == 201, table
    bot = table["seats"][1]
    assert (bot["name"], bot["kind"], bot["bot"]) == ("Rex", "bot", "random")
    with connect(f"ws://127.0.0.1:{server.port}/ws/tables/{table['id']}", open_timeout=10) as ws:
        ws.send(json.dumps({"type": "join", "token": None}))
        while (frame := json.loads(ws.recv(timeout=10)))["type"] != "state":
            pass
    assert (frame["seats"][1]["name"], frame["seats"][1]["kind"]) == ("Rex", "bot")
    status, _answer, _ = call(server, "GET", "/api/players/Rex")
    assert status == 404
    assert all(row["name"] != "Rex" for row in call(server, "GET", "/api/leaderboard")[1]["players"])


# -- the accounts' own safeguards ------------------------------------------------------------------------


def closed_with(ws: ClientConnection) -> int | None:
    """Read until the server closes the socket: its close code (fails after 5 s without one)."""
    try:
        while True:
            ws.recv(timeout=5)
    except ConnectionClosed as closed:
        return None if closed.rcvd is None else closed.rcvd.code
    except TimeoutError:
        raise AssertionError("the socket was not closed within 5 s") from None


def test_a_password_change_signs_out_the_other_sessions_and_closes_their_sockets(server: Server) -> None:
    here, there = session(server, "Petra"), session(server, "Petra")
    status, table = here.api("POST", "/api/tables", {"name": "t", "seats": HUMANS, "clocks": LONG})
    assert status == 201
    director = session(server, "Elsa")
    make_director(server, "Elsa")
    event = director.api("POST", "/api/events", {"name": "Socket Cup"})[1]["event"]
    with (
        there.socket(f"/ws/tables/{table['id']}") as their_table,
        there.socket(f"/ws/events/{event['id']}") as their_event,
        here.socket(f"/ws/tables/{table['id']}") as my_table,
    ):
        for ws in (their_table, their_event, my_table):
            opened(ws)
        change = {"current_password": "wrong one!", "new_password": "a new long secret"}
        status, answer = here.api("POST", "/api/account/password", change)
        assert (status, answer["detail"]) == (403, "current_password: wrong password")
        change["current_password"] = password_of("Petra")
        status, answer = here.api("POST", "/api/account/password", change)
        assert status == 200, answer
        assert answer["signed_out"] == 1
        assert closed_with(their_table) == SIGNED_OUT_CLOSE
        assert closed_with(their_event) == SIGNED_OUT_CLOSE
        my_table.send(json.dumps({"type": "ping"}))
        while json.loads(my_table.recv(timeout=10))["type"] != "pong":  # this browser's socket stays open
            pass
    assert there.api("GET", "/api/account")[1]["account"] is None
    assert here.api("GET", "/api/account")[1]["account"]["name"] == "Petra"
    status, _answer, _ = call(
        server, "POST", "/api/session", {"name": "Petra", "password": password_of("Petra")}
    )
    assert status == 401
    session(server, "Petra", "a new long secret", register=False)


def test_signing_out_the_other_sessions_closes_their_sockets_at_once(server: Server) -> None:
    here, there, third = session(server, "Quinn"), session(server, "Quinn"), session(server, "Quinn")
    status, table = here.api("POST", "/api/tables", {"name": "t", "seats": HUMANS, "clocks": LONG})
    assert status == 201
    path = f"/ws/tables/{table['id']}"
    with there.socket(path) as theirs, third.socket(path) as thirds:
        opened(theirs)
        opened(thirds)
        assert call(server, "DELETE", "/api/account/sessions")[0] == 401  # a guest has no sessions
        status, answer = here.api("DELETE", "/api/account/sessions")
        assert (status, answer) == (200, {"signed_out": 2})
        assert [closed_with(theirs), closed_with(thirds)] == [SIGNED_OUT_CLOSE, SIGNED_OUT_CLOSE]
    assert here.api("GET", "/api/account")[1]["account"]["name"] == "Quinn"
    # signing out this browser closes its own sockets too
    with here.socket(path) as mine:
        opened(mine)
        assert here.api("DELETE", "/api/session")[0] == 204
        assert closed_with(mine) == SIGNED_OUT_CLOSE


@pytest.mark.parametrize("password", ["password1", "Iloveyou", "qwertyuiop", " 1q2w3e4r5t "])
def test_a_common_password_is_refused(server: Server, password: str) -> None:
    status, answer, _ = call(server, "POST", "/api/accounts", {"name": "Common", "password": password})
    assert status == 400
    assert answer["detail"].startswith("password: this is one of the most common passwords")
    person = session(server, "Uncommon")
    status, answer = person.api(
        "POST",
        "/api/account/password",
        {"current_password": password_of("Uncommon"), "new_password": password},
    )
    assert status == 400
    assert "most common passwords" in answer["detail"]


@pytest.mark.parametrize(
    ("name", "status", "told"),
    [
        ("\u0412\u0435t\u0430", 409, "looks like the account 'Beta'"),  # Cyrillic В, е, а
        ("Bet\u0430", 409, "looks like the account 'Beta'"),  # one Cyrillic а
        ("\uff22\uff45\uff54\uff41", 409, "the name 'Beta' is taken"),  # full-width: NFKC makes it Beta
        ("B\u200beta", 400, "control characters"),  # zero width space
        ("Be\u3164ta", 400, "invisible characters"),  # Hangul filler
        ("8eta", 201, ""),
    ],
)
def test_a_name_that_looks_like_an_accounts_is_refused(
    server: Server, name: str, status: int, told: str
) -> None:
    session(server, "Beta")
    got, answer, _ = call(server, "POST", "/api/accounts", {"name": name, "password": "a long enough one"})
    assert got == status, answer
    if told:
        assert told in answer["detail"]
        table = call(server, "POST", "/api/tables", {"name": "t", "seats": HUMANS, "clocks": LONG})[1]
        got, answer, _ = call(server, "POST", f"/api/tables/{table['id']}/seats/0", {"name": name})
        assert got == status, answer  # a guest may not sit under it either
