"""Fixtures and helpers of the server tests: fast settings, an app on a temporary SQLite file, websocket
peers that read with a timeout, and the check that no frame shows a viewer cards it may not know."""

from __future__ import annotations

import asyncio
import json
import re
from collections import Counter
from collections.abc import Callable, Coroutine, Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

import anyio
import pytest
from argon2 import PasswordHasher
from argon2.profiles import CHEAPEST
from fastapi.testclient import TestClient
from starlette.testclient import WebSocketTestSession

from cardroom.server.api.app import create_app
from cardroom.server.api.requests import SESSION_COOKIE
from cardroom.server.live.rooms import Room, Rooms
from cardroom.server.live.settings import Settings
from cardroom.server.tables.config import Clocks, TableConfig, TableDefaults
from cardroom.server.tables.guandan import Entry, Table
from tests.server.browser import DESKTOP, launch_browser, require_browser

if TYPE_CHECKING:
    from playwright.sync_api import Browser, BrowserContext


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    """Debian's chromium under Playwright, once per browser test module (tests/server/browser.py); fails
    or skips, as ``CARDROOM_REQUIRE_BROWSER`` says, when it is missing. Not once a session: Playwright's
    sync API keeps an event loop running in the thread while it is open, and every later test there
    that calls ``asyncio.run`` (the competition and OpenGuanDan commands) would fail."""
    require_browser()
    with launch_browser() as launched:
        yield launched


@pytest.fixture
def context(browser: Browser) -> Iterator[BrowserContext]:
    """A fresh browser context (its own storage) at desktop size, English."""
    ctx = browser.new_context(viewport=DESKTOP, locale="en-US")
    ctx.set_default_timeout(20_000)
    try:
        yield ctx
    finally:
        ctx.close()


T = TypeVar("T")


def run_coroutine(work: Coroutine[Any, Any, T]) -> T:
    """Run ``work`` to its end on an event loop of its own thread: once a browser test has run, the
    session's Playwright keeps a loop running in the main thread, where ``asyncio.run`` is refused."""
    with ThreadPoolExecutor(1) as pool:
        return pool.submit(asyncio.run, work).result()


FAST = Settings(
    table_defaults=TableDefaults(bot_delay=0.0, deal_pause=0.0),
    message_rate=None,
    address_message_rate=None,
    sign_in_rate=None,
    costly_rate=None,
    address_costly_rate=None,
    seat_rate=None,
    bot_workers=0,
)
"""Bots act at once and deals follow each other at once; the clocks are the rules' (long for a test). The
scripted peers answer at once, faster than a person, and sign in and take seats as often as a test needs, so
none of that is rate limited (the limits' own tests, tests/server/live/test_limits.py, set them). Bots think
in threads of the test's process: a pool of processes for each app would cost more than the tests' bots
think (tests/server/live/test_bot_runner.py holds the pool to the threads' answers; a real server's tests
use the pool)."""

CHEAP = PasswordHasher.from_parameters(CHEAPEST)
"""argon2 at its cheapest: the tests make many accounts (the server's default costs about 0.1 s)."""

Headers = dict[str, str]


def password_of(name: str) -> str:
    """The password the tests give ``name``'s account."""
    return f"secret of {name}"


def signed_in(client: TestClient, name: str, *, director: bool = False) -> Headers:
    """The headers of a request signed in as ``name`` (the account opened first if there is none; given
    the director role if asked): its session cookie and CSRF token. The client's own cookie jar is
    left empty, so other requests stay a guest's."""
    credentials = {"name": name, "password": password_of(name)}
    response = client.post("/api/accounts", json=credentials)
    if response.status_code == 409:
        response = client.post("/api/session", json=credentials)
    assert response.status_code in (200, 201), response.text
    secret = response.cookies[SESSION_COOKIE]
    client.cookies.clear()
    if director:
        client.app.state.accounts.set_role(name, "director")  # type: ignore[attr-defined]
    return {"Cookie": f"{SESSION_COOKIE}={secret}", "X-CSRF-Token": response.json()["csrf"]}


LONG_CLOCKS = {"tribute": 600, "return": 600, "lead": 600, "follow": 600}

Frame = dict[str, Any]


@pytest.fixture
def database_url(tmp_path: Path) -> str:
    return f"sqlite:///{tmp_path}/cardroom.sqlite3"


@pytest.fixture
def client(database_url: str) -> Iterator[TestClient]:
    with TestClient(create_app(database_url, settings=FAST, password_hasher=CHEAP)) as test_client:
        yield test_client


def rooms_of(client: TestClient) -> Rooms:
    rooms: Rooms = client.app.state.rooms  # type: ignore[attr-defined]
    return rooms


def room_of(client: TestClient, table_id: str) -> Room:
    return rooms_of(client).rooms[table_id]


def guandan_table_of(client: TestClient, table_id: str) -> Table:
    """The live Guandan table of that id."""
    table = room_of(client, table_id).table
    assert isinstance(table, Table), f"table {table_id} plays {table.config.game}"
    return table


def create_table(client: TestClient, headers: Headers | None = None, **body: Any) -> dict[str, Any]:
    """``POST /api/tables`` (four human seats and long clocks unless told otherwise; ``headers``: a
    signed-in account's, which a rated table needs)."""
    body.setdefault("name", "Test table")
    body.setdefault("seats", [{"kind": "human"}] * 4)
    body.setdefault("clocks", LONG_CLOCKS)
    response = client.post("/api/tables", json=body, headers=headers)
    assert response.status_code == 201, response.text
    table: dict[str, Any] = response.json()
    return table


def sit(client: TestClient, table_id: str, seat: int, name: str) -> str:
    response = client.post(f"/api/tables/{table_id}/seats/{seat}", json={"name": name})
    assert response.status_code == 200, response.text
    token: str = response.json()["token"]
    return token


def full_table(client: TestClient, seed: str = "seed-2", **body: Any) -> tuple[str, list[str]]:
    """A table of four humans, all seated (so the match has begun): its id and the four tokens. The
    shuffle's secret is set to ``seed`` first, so the deals are known."""
    table_id = create_table(client, **body)["id"]
    room_of(client, table_id).table.seed = seed
    tokens = [sit(client, table_id, seat, name) for seat, name in enumerate(("Ann", "Bo", "Cy", "Di"))]
    return table_id, tokens


class Peer:
    """One websocket client: sends messages, keeps every frame it receives, reads with a timeout."""

    def __init__(self, ws: WebSocketTestSession, seat: int | None = None) -> None:
        self.ws = ws
        self.seat = seat
        self.frames: list[Frame] = []
        self.state: Frame | None = None

    def send(self, message: dict[str, Any]) -> None:
        self.ws.send_json(message)

    def receive(self, timeout: float = 10.0) -> Frame:
        """The next frame; fails the test if none comes within ``timeout`` seconds."""

        async def get() -> Any:
            with anyio.fail_after(timeout):
                return await self.ws._send_rx.receive()

        message = self.ws.portal.call(get)
        assert message["type"] == "websocket.send", f"the server closed the socket: {message}"
        frame: Frame = json.loads(message["text"])
        self.frames.append(frame)
        if frame["type"] == "state":
            self.state = frame
        return frame

    def until(self, predicate: Callable[[Frame], bool], timeout: float = 10.0) -> Frame:
        """Read until a frame satisfies ``predicate``; return it."""
        while True:
            frame = self.receive(timeout)
            if predicate(frame):
                return frame

    def next_state(self, predicate: Callable[[Frame], bool] = lambda _: True) -> Frame:
        return self.until(lambda frame: frame["type"] == "state" and predicate(frame))

    def join(self, token: str | None = None, since: int = 0) -> Frame:
        """``join`` and read up to the ``state`` that answers it."""
        self.send({"type": "join", "token": token, "since": since})
        return self.next_state()

    def error(self) -> Frame:
        return self.until(lambda frame: frame["type"] == "error")

    def legal(self) -> list[dict[str, Any]]:
        """Ask for the seat's legal actions (the ``legal`` message) and read the answer."""
        self.send({"type": "legal"})
        actions: list[dict[str, Any]] = self.until(lambda frame: frame["type"] == "legal")["actions"]
        return actions


# -- driving whole deals ---------------------------------------------------------------------------------


def team_play(state: Frame, legal: list[dict[str, Any]]) -> dict[str, Any]:
    """A fixed way of playing that makes team 0 take 上游 and 二游 (双下), so the next deal has a
    double tribute: team 0 leads its longest play and beats team 1; team 1 passes whenever it may."""
    assert legal, f"seat {state['seat']} is to act but has no legal action"
    if state["phase"] != "play":
        return legal[0]
    plays = [action for action in legal if action["type"] == "play"]
    can_pass = len(plays) < len(legal)
    seat = state["seat"]
    if seat % 2 == 1 and can_pass:
        return {"type": "pass"}
    to_beat = state["to_beat"]
    if can_pass and (to_beat is None or to_beat["seat"] % 2 == seat % 2):
        return {"type": "pass"}
    if not plays:
        return {"type": "pass"}
    return max(plays, key=lambda action: len(action["cards"]))


def play_on(
    peers: list[Peer],
    choose: Callable[[Frame, list[dict[str, Any]]], dict[str, Any]] = team_play,
    stop: Callable[[Frame], bool] = lambda state: state["phase"] == "finished",
    watchers: tuple[Peer, ...] = (),
) -> Frame:
    """Let the four seated ``peers`` play (each from its own state) until ``stop`` holds; every peer and
    watcher reads every frame. Returns the last state."""
    everyone = [*peers, *watchers]
    while True:
        state = peers[0].state
        assert state is not None
        if stop(state):
            return state
        if state["phase"] == "between":
            for peer in everyone:
                peer.next_state(lambda frame: frame["phase"] != "between")
            continue
        actor = peers[state["turn"]]
        assert actor.state is not None
        assert actor.state["number"] == state["number"]
        actor.send({"type": "act", "action": choose(actor.state, actor.legal())})
        answer = actor.until(lambda frame: frame["type"] == "error" or frame["type"] == "state")
        assert answer["type"] == "state", answer
        number: int = answer["number"]
        for peer in everyone:
            if peer is not actor:
                peer.next_state(lambda frame: frame["number"] >= number)  # noqa: B023


# -- what a viewer may know --------------------------------------------------------------------------------

STATE_LIMIT = 4096
"""The most bytes a ``state`` may take (issue 25: no list of every legal action)."""

CARD = re.compile(r"^(?:[SHCD][2-9TJQKA]|SB|HR)$")
FORBIDDEN_KEYS = {"hands", "token_hash", "token", "seed"}


def cards_in(value: object, key: str = "") -> list[str]:
    """Every card name in a frame, outside the ``wild`` field (the ♥ level card names no holding)."""
    if isinstance(value, dict):
        found = []
        for name, item in value.items():
            assert name not in FORBIDDEN_KEYS, f"a frame carries {name!r}"
            if name != "wild":
                found += cards_in(item, name)
        return found
    if isinstance(value, list):
        return [card for item in value for card in cards_in(item, key)]
    if isinstance(value, str) and CARD.match(value):
        return [value]
    return []


def known_cards(log: list[Entry], viewer: int | None) -> list[set[str]]:
    """``known[n]``: the cards ``viewer`` may have heard of after log entry ``n``: its own dealt hands,
    every card played, public tributes and turned cards, and the private cards shown to it."""
    known: set[str] = set()
    result = [set(known)]
    for entry in log:
        if entry["type"] == "deal":
            if viewer is not None:
                known |= set(entry["hands"][viewer].split())
            if entry.get("turned_card"):
                known.add(entry["turned_card"])
        elif entry["type"] == "action":
            action = entry["action"]
            if "play" in action:
                known |= set(action["play"][2]) if action["play"][0] != "PASS" else set()
            elif "private_to" not in entry or viewer in entry["private_to"]:
                known.add(action.get("tribute") or action["return"])
            known |= {handed["card"] for handed in entry.get("tributes", [])}
        result.append(set(known))
    return result


def check_frames(frames: list[Frame], viewer: int | None, log: list[Entry], config: TableConfig) -> int:
    """Fail if any frame sent to ``viewer`` holds a card it may not know, another hand, a token, a
    token hash or the seed; ``hand`` fields must be exactly the viewer's own. Returns the frames checked."""
    known = known_cards(log, viewer)
    shadow = Table("shadow", config)
    hands: list[list[str] | None] = [[]]
    for entry in log:
        shadow.apply_entry(entry)
        deal = shadow.match.deals[-1] if shadow.match.deals else None
        hands.append(sorted(map(str, deal.hand(viewer))) if deal is not None and viewer is not None else [])
    checked = 0
    for frame in frames:
        if frame["type"] in ("event", "state", "hint", "legal", "checked"):
            number = frame["number"]
        elif frame["type"] == "welcome":
            number = 0
        else:
            assert not cards_in(frame), frame
            continue
        unknown = set(cards_in(frame)) - known[number]
        assert not unknown, f"viewer {viewer} got {sorted(unknown)} in frame {frame} (after entry {number})"
        if frame["type"] == "state":
            if viewer is None:
                assert frame["hand"] is None
            else:
                assert sorted(frame["hand"]) == hands[number], f"viewer {viewer}: wrong hand at {number}"
            assert not Counter(frame["options"]) - Counter(frame["hand"]), frame["options"]
            assert len(json.dumps(frame).encode()) <= STATE_LIMIT, "a state is small whatever the hand"
            # a card passed face down shows only to the seats it passes between
            for handed in frame["returns"]:
                if viewer not in (handed["from"], handed["to"]):
                    assert handed["card"] is None, f"viewer {viewer} sees the return {handed}"
            for handed in frame["tributes"]:
                if handed["to"] is None and viewer != handed["from"]:
                    assert handed["card"] is None, f"viewer {viewer} sees the face-down tribute {handed}"
        if frame["type"] == "event" and frame["event"]["type"] == "action":
            entry = log[number - 1]
            action = frame["event"]["action"]
            for key in ("tribute", "return"):
                if key in action and "private_to" in entry and viewer not in entry["private_to"]:
                    assert action[key] is None, f"viewer {viewer} sees the {key} card in {frame}"
        if frame["type"] == "event" and frame["event"]["type"] == "deal":
            entry = log[number - 1]
            expected = None if viewer is None else sorted(entry["hands"][viewer].split())
            shown = frame["event"]["hand"]
            assert (sorted(shown) if shown is not None else None) == expected
        checked += 1
    return checked


def clocks(**seconds: float) -> Clocks:
    """Long clocks but for the ones given."""
    values = {"tribute": 600.0, "return_": 600.0, "lead": 600.0, "follow": 600.0}
    values.update(seconds)
    return Clocks(**values)
