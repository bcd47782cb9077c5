"""Limits on what clients send (issue 25): the token buckets of ``cardroom.server.live.limits`` on their own,
then through the app: websocket messages per connection and per address (``rate_limited``, close 4429),
tables and events created per address (HTTP 429 with ``Retry-After``), idle websockets (close 4408),
the settings and the ``serve`` options."""

from __future__ import annotations

import gc
import json
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import anyio
import pytest
from fastapi.testclient import TestClient
from typer.testing import CliRunner

from cardroom.server.api.app import create_app
from cardroom.server.api.gate import FLOOD_CLOSE, IDLE_CLOSE
from cardroom.server.live.limits import Bucket, ClientLimits, Occupancy, Rate, RateLimiter, take_all
from cardroom.server.live.settings import GC_THRESHOLDS, Settings
from tests.server.conftest import CHEAP, FAST, Frame, Peer, full_table, room_of, signed_in

# -- the buckets on their own -----------------------------------------------------------------------------


def test_a_bucket_allows_its_burst_then_refuses_until_it_refills() -> None:
    bucket = Bucket(Rate(3, 2.0), now=100.0)
    assert [bucket.take(100.0) for _ in range(3)] == [0.0, 0.0, 0.0]
    assert bucket.take(100.0) == pytest.approx(0.5)  # one token every half second
    assert bucket.take(100.25) == pytest.approx(0.25)  # a refused take takes nothing
    assert bucket.take(100.5) == 0.0
    assert bucket.take(100.5) == pytest.approx(0.5)
    assert bucket.wait(1000.0) == 0.0
    assert [bucket.take(1000.0) for _ in range(4)][-1] > 0, "a long rest refills up to the burst, no more"


def test_a_clock_that_goes_back_refills_nothing() -> None:
    bucket = Bucket(Rate(1, 1.0), now=10.0)
    assert bucket.take(10.0) == 0.0
    assert bucket.take(5.0) == pytest.approx(1.0)
    assert bucket.take(11.0) == 0.0


def test_take_all_takes_from_every_bucket_or_from_none() -> None:
    wide, narrow = Bucket(Rate(5, 1.0), 0.0), Bucket(Rate(1, 1.0), 0.0)
    assert take_all([wide, narrow], 0.0) == 0.0
    assert take_all([wide, narrow], 0.0) == pytest.approx(1.0)
    assert wide.tokens == 4, "the refusal of one bucket costs the other nothing"


def test_keys_have_their_own_buckets() -> None:
    limiter = RateLimiter(Rate(2, 1.0))
    assert [limiter.take("10.0.0.1", 0.0) for _ in range(3)] == [0.0, 0.0, pytest.approx(1.0)]
    assert limiter.take("10.0.0.2", 0.0) == 0.0
    assert limiter.take("10.0.0.1", 1.0) == 0.0


def test_idle_keys_are_forgotten_once_their_bucket_is_full_again() -> None:
    limiter = RateLimiter(Rate(4, 2.0))  # an empty bucket fills in 2 s
    for key in ("a", "b"):
        limiter.take(key, 0.0)
    limiter.take("c", 1.0)
    assert len(limiter) == 3
    limiter.take("c", 2.5)
    assert len(limiter) == 1, "a and b, untouched for 2 s, are as new: forgotten"


def test_a_flood_of_keys_is_capped_and_forgets_the_least_recently_seen() -> None:
    limiter = RateLimiter(Rate(1, 0.001), max_keys=3)
    for number in range(1000):
        limiter.take(f"10.0.{number // 256}.{number % 256}", 0.0)
    assert len(limiter) == 3
    assert limiter.take("10.0.3.231", 0.0) > 0, "the most recent keys are kept"
    assert limiter.take("10.0.0.0", 0.0) == 0.0, "the oldest was forgotten"
    with pytest.raises(ValueError, match="max_keys"):
        RateLimiter(Rate(1, 1.0), max_keys=0)


def test_a_rate_names_itself_and_refuses_nonsense() -> None:
    assert str(Rate(20, 10.0)) == "at most 20 at once, then 10 a second"
    assert str(Rate(10, 10 / 60)) == "at most 10 at once, then 10 a minute"
    assert str(Rate(1, 1 / 7200)) == "at most 1 at once, then 0.5 a hour"
    assert Rate(20, 10.0).scaled(0.5) == Rate(10, 5.0)
    assert Rate(1, 1.0).scaled(0.1).burst == 1
    for burst, per_second in ((0, 1.0), (1.5, 1.0), (True, 1.0), (1, 0.0), (1, float("nan")), (1, -2.0)):
        with pytest.raises(ValueError, match=r"^(burst|per_second):"):
            Rate(burst, per_second)  # type: ignore[arg-type]


def test_a_connection_that_sends_past_the_flood_factor_floods() -> None:
    limits = ClientLimits(
        messages=Rate(2, 1.0), address_messages=None, flood_factor=2, creations=None, registrations=None
    )
    connection = limits.connection(0.0)
    verdicts = [limits.message(connection, "a", 0.0) for _ in range(5)]
    assert verdicts[:2] == [None, None]
    assert [refusal is not None and refusal.flood for refusal in verdicts[2:]] == [False, False, True]
    first = verdicts[2]
    assert first is not None
    assert (
        first.message == "too many messages on one connection: at most 2 at once, then 1 a second; wait 1 s"
    )


def test_occupancy_counts_each_keys_open_connections_up_to_its_most() -> None:
    """Issue 40: the websockets one address holds open; a key is forgotten with its last one."""
    sockets = Occupancy(2)
    assert [sockets.enter("10.0.0.1") for _ in range(3)] == [True, True, False]
    assert sockets.enter("10.0.0.2")
    assert len(sockets) == 3
    sockets.leave("10.0.0.1")
    assert sockets.enter("10.0.0.1"), "a connection closed frees a place"
    for _ in range(2):
        sockets.leave("10.0.0.1")
    sockets.leave("10.0.0.1")  # one more than entered: nothing goes below zero
    assert len(sockets) == 1
    for bad in (0, 1.5, True):
        with pytest.raises(ValueError, match="most"):
            Occupancy(bad)  # type: ignore[arg-type]


def test_costly_messages_are_counted_per_connection_and_per_address() -> None:
    """Issue 40: many sockets of one address share one budget of ``legal`` and ``hint``."""
    limits = ClientLimits(
        messages=None,
        address_messages=None,
        flood_factor=1,
        creations=None,
        registrations=None,
        costly=Rate(2, 1.0),
        address_costly=Rate(3, 1.0),
    )
    connections = [limits.connection(0.0) for _ in range(3)]
    verdicts = [limits.costly(connection, "a", 0.0) for connection in connections for _ in range(2)]
    assert verdicts[:3] == [None, None, None]
    refused = verdicts[3]
    assert refused is not None
    assert refused.message.startswith("too many costly messages (legal, hint) from one address: at most 3")
    assert limits.costly(limits.connection(0.0), "b", 0.0) is None, "another address has its own"
    assert limits.costly(connections[0], "a", 1.0) is None
    own = limits.costly(connections[0], "a", 1.0)
    assert own is not None
    assert own.what == "costly messages (legal, hint) on one connection"


# -- the settings and the serve options ---------------------------------------------------------------------


def test_the_settings_check_the_limits() -> None:
    defaults = Settings()
    assert defaults.message_rate == Rate(40, 10.0)
    assert defaults.idle_timeout == 120.0
    for bad in (
        {"message_rate": (20, 10)},
        {"flood_factor": 0.5},
        {"flood_factor": float("inf")},
        {"idle_timeout": 0},
        {"idle_timeout": -1.0},
        {"tracked_addresses": 0},
    ):
        with pytest.raises(ValueError, match=next(iter(bad))):
            Settings(**bad)
    off = defaults.with_rate_limits(0)
    assert (off.message_rate, off.address_message_rate, off.create_rate, off.register_rate) == (None,) * 4
    assert defaults.with_rate_limits(2).create_rate == Rate(20, 20 / 60)
    with pytest.raises(ValueError, match="factor"):
        defaults.with_rate_limits(-1)


def test_serve_passes_the_limits_to_the_app_and_uvicorn(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    import uvicorn

    from cardroom.cli import app as cli

    calls: list[dict[str, Any]] = []
    monkeypatch.setattr(uvicorn, "run", lambda app, **options: calls.append({"app": app, **options}))
    tuned: list[tuple[int, ...]] = []
    monkeypatch.setattr(gc, "set_threshold", lambda *values: tuned.append(values))
    options = ["--idle-timeout", "0", "--rate-limits", "0", "--forwarded-allow-ips", "10.0.0.5"]
    result = CliRunner().invoke(cli, ["serve", "--data", str(tmp_path), *options])
    assert result.exit_code == 0, result.output
    assert tuned == [GC_THRESHOLDS], "the collector is tuned for a server's many objects"
    settings: Settings = calls[0]["app"].state.settings
    assert settings.idle_timeout is None
    assert settings.message_rate is None
    assert settings.create_rate is None
    assert calls[0]["forwarded_allow_ips"] == "10.0.0.5"
    result = CliRunner().invoke(cli, ["serve", "--data", str(tmp_path), "--rate-limits", "3"])
    assert result.exit_code == 0, result.output
    assert calls[1]["app"].state.settings.message_rate == Rate(120, 30.0)
    assert calls[1]["forwarded_allow_ips"] is None, "uvicorn's default: $FORWARDED_ALLOW_IPS, else 127.0.0.1"


def test_the_settings_check_the_resource_limits() -> None:
    """Issue 40's settings: counts are whole numbers (or ``None``), times seconds, and ``--rate-limits``
    scales the per-address costly and seat rates too."""
    defaults = Settings()
    assert (defaults.address_sockets, defaults.address_waiting_tables) == (50, 10)
    assert (defaults.waiting_expiry, defaults.unload_after, defaults.idle_tables) == (3600.0, 30.0, 100)
    for bad in (
        {"address_sockets": 0},
        {"address_waiting_tables": 2.5},
        {"waiting_expiry": 0},
        {"unload_after": -1.0},
        {"idle_tables": -1},
        {"seat_rate": (20, 1)},
    ):
        with pytest.raises(ValueError, match=next(iter(bad))):
            Settings(**bad)
    off = defaults.with_rate_limits(0)
    assert (off.address_costly_rate, off.seat_rate) == (None, None)
    assert off.address_sockets == 50, "a count is not a rate: --address-sockets sets it"
    assert defaults.with_rate_limits(2).address_costly_rate == Rate(20, 4.0)


def test_serve_passes_the_resource_limits(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    import uvicorn

    from cardroom.cli import app as cli

    calls: list[Any] = []
    monkeypatch.setattr(uvicorn, "run", lambda app, **_options: calls.append(app))
    monkeypatch.setattr(gc, "set_threshold", lambda *_values: None)
    options = ["--address-sockets", "0", "--address-tables", "3", "--waiting-expiry", "0"]
    options += ["--unload-after", "5", "--idle-tables", "7"]
    result = CliRunner().invoke(cli, ["serve", "--data", str(tmp_path), *options])
    assert result.exit_code == 0, result.output
    settings: Settings = calls[0].state.settings
    assert settings.address_sockets is None
    assert settings.address_waiting_tables == 3
    assert settings.waiting_expiry is None
    assert (settings.unload_after, settings.idle_tables) == (5.0, 7)
    assert calls[0].state.limits.sockets is None


# -- through the app -------------------------------------------------------------------------------------


class FakeClock:
    """The limits' clock, moved by hand: nothing refills while a test sends."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


@contextmanager
def limited_app(database_url: str, clock: FakeClock, **limits: Any) -> Iterator[TestClient]:
    """The app with the fast test settings and these limits (none but these), on ``clock``."""
    settings = FAST.with_(create_rate=None, register_rate=None, flood_factor=1000.0).with_(**limits)
    app = create_app(database_url, settings=settings, limits_clock=clock, password_hasher=CHEAP)
    with TestClient(app) as client:
        yield client


def new_event(client: TestClient) -> dict[str, Any]:
    """``POST /api/events`` by a director's account: the answer."""
    response = client.post(
        "/api/events", json={"name": "淮安杯"}, headers=signed_in(client, "D", director=True)
    )
    assert response.status_code == 201, response.text
    answer: dict[str, Any] = response.json()
    return answer


def raw(peer: Peer, timeout: float = 5.0) -> dict[str, Any]:
    """The next ASGI message to the client: a frame (kept, as ``Peer.receive`` does) or the close."""

    async def get() -> Any:
        with anyio.fail_after(timeout):
            return await peer.ws._send_rx.receive()

    message: dict[str, Any] = peer.ws.portal.call(get)
    if message["type"] == "websocket.send":
        frame = json.loads(message["text"])
        peer.frames.append(frame)
        if frame["type"] == "state":
            peer.state = frame
    return message


def closed(peer: Peer, timeout: float = 5.0) -> dict[str, Any]:
    """Read until the server closes the socket; the close message (``code``, ``reason``)."""
    while (message := raw(peer, timeout))["type"] != "websocket.close":
        pass
    return message


def answer(peer: Peer, message: dict[str, Any]) -> Frame:
    """Send ``message`` and read its answer (``pong``, ``error``, …: not the table's events and
    states), or the close if the server closes instead."""
    peer.send(message)
    while (got := raw(peer))["type"] == "websocket.send":
        if peer.frames[-1]["type"] not in ("event", "state", "welcome"):
            return peer.frames[-1]
    return got


def test_a_flood_of_table_messages_is_refused_then_closed(database_url: str) -> None:
    """Past its burst a connection's messages are answered ``rate_limited`` and not handled (the table
    does not change); once its bucket refills the same action is taken; a connection that keeps
    sending past twice its rate (the flood factor here) is closed with 4429."""
    clock = FakeClock()
    with limited_app(database_url, clock, message_rate=Rate(5, 1.0), flood_factor=2.0) as client:
        table_id, tokens = full_table(client)
        room = room_of(client, table_id)
        with client.websocket_connect(f"/ws/tables/{table_id}") as watching:
            turn = Peer(watching).join()["turn"]
            with client.websocket_connect(f"/ws/tables/{table_id}") as ws:
                peer = Peer(ws, turn)
                peer.join(tokens[turn])  # 1
                peer.send({"type": "hint"})  # 2
                action = peer.until(lambda frame: frame["type"] == "hint")["action"]
                for _ in range(3):  # 3, 4, 5
                    assert answer(peer, {"type": "ping"})["type"] == "pong"
                before = room.table.number
                refused = answer(peer, {"type": "act", "action": action})
                assert refused["code"] == "rate_limited", refused
                assert "at most 5 at once, then 1 a second; wait 1 s" in refused["message"]
                assert refused["retry_after"] == 1.0
                assert "id" not in refused
                assert room.table.number == before, "a refused message changes nothing"
                check = answer(peer, {"type": "check", "id": 7, "action": action})
                assert (check["code"], check["id"]) == ("rate_limited", 7), (
                    "a page knows which check to ask again"
                )

                clock.now += 1.0
                peer.send({"type": "act", "action": action})
                assert peer.next_state()["number"] > before, "the same action, in time, is taken"

                # the flood bucket (10 at once, 2 a second): 7 used at first, 2 back, 1 for the act
                answers = [answer(peer, {"type": "ping"}) for _ in range(5)]
                assert [frame.get("code") for frame in answers[:4]] == ["rate_limited"] * 4
                assert answers[4] == {
                    "type": "websocket.close",
                    "code": FLOOD_CLOSE,
                    "reason": "too many messages",
                }


def test_costly_messages_have_a_limit_of_their_own(database_url: str) -> None:
    """``legal`` (every legal action) and ``hint`` (a bot's search) cost far more than a ``ping``: past
    their own burst they are refused while cheap messages still go through."""
    clock = FakeClock()
    with limited_app(database_url, clock, costly_rate=Rate(2, 1.0)) as client:
        table_id, tokens = full_table(client)
        with client.websocket_connect(f"/ws/tables/{table_id}") as ws:
            turn = Peer(ws).join()["turn"]
        with client.websocket_connect(f"/ws/tables/{table_id}") as ws:
            peer = Peer(ws, turn)
            peer.join(tokens[turn])
            assert answer(peer, {"type": "legal"})["type"] == "legal"
            assert answer(peer, {"type": "hint"})["type"] == "hint"
            refused = answer(peer, {"type": "legal"})
            assert refused["code"] == "rate_limited", refused
            assert "costly messages (legal, hint) on one connection: at most 2 at once" in refused["message"]
            assert answer(peer, {"type": "ping"})["type"] == "pong"
            clock.now += 1.0
            assert answer(peer, {"type": "legal"})["type"] == "legal"


def test_one_address_shares_a_wider_limit_across_its_connections(database_url: str) -> None:
    """Each connection has its own bucket; all of one address's connections (the test client has one
    address) share the address's."""
    clock = FakeClock()
    limits = {"message_rate": Rate(5, 1.0), "address_message_rate": Rate(8, 1.0)}
    with limited_app(database_url, clock, **limits) as client:
        table_id, _tokens = full_table(client)
        with (
            client.websocket_connect(f"/ws/tables/{table_id}") as first_ws,
            client.websocket_connect(f"/ws/tables/{table_id}") as second_ws,
        ):
            first, second = Peer(first_ws), Peer(second_ws)
            assert [answer(first, {"type": "ping"})["type"] for _ in range(6)] == ["pong"] * 5 + ["error"]
            assert "on one connection" in first.frames[-1]["message"]
            assert [answer(second, {"type": "ping"})["type"] for _ in range(4)] == ["pong"] * 3 + ["error"]
            assert "from one address: at most 8 at once" in second.frames[-1]["message"]
            clock.now += 1.0
            assert answer(second, {"type": "ping"})["type"] == "pong"
            assert answer(first, {"type": "ping"})["type"] == "error", "the address's token went to the other"


def test_an_event_websocket_is_limited_too(database_url: str) -> None:
    clock = FakeClock()
    with limited_app(database_url, clock, message_rate=Rate(2, 1.0), flood_factor=2.0) as client:
        event_id = new_event(client)["event"]["id"]
        with client.websocket_connect(f"/ws/events/{event_id}") as ws:
            peer = Peer(ws)
            assert peer.receive()["type"] == "event"
            answers = [answer(peer, {"type": "ping"}) for _ in range(5)]
            assert [frame["type"] for frame in answers[:4]] == ["pong", "pong", "error", "error"]
            assert answers[2]["code"] == "rate_limited"
            assert answers[4]["code"] == FLOOD_CLOSE


def test_creating_tables_and_events_past_the_limit_is_429_with_retry_after(database_url: str) -> None:
    clock = FakeClock()
    with limited_app(
        database_url, clock, create_rate=Rate(2, 1 / 60), register_rate=Rate(1, 1 / 60)
    ) as client:
        assert client.post("/api/quick", json={"name": "Ann"}).status_code == 201
        assert client.post("/api/tables", json={"name": "Mine"}).status_code == 201
        listed = client.get("/api/tables").json()
        for path, body in (
            ("/api/quick", {"name": "Bo"}),
            ("/api/tables", {}),
            ("/api/events", {"name": "杯"}),
        ):
            refused = client.post(path, json=body)
            assert refused.status_code == 429, refused.text
            assert refused.headers["retry-after"] == "60"
            assert refused.json()["detail"] == (
                "too many tables and events created from one address: at most 2 at once, "
                "then 1 a minute; wait 60 s"
            )
        assert client.get("/api/tables").json() == listed
        clock.now += 60
        created = new_event(client)
        headers = {"X-Director-Token": created["director_token"]}
        teams = f"/api/events/{created['event']['id']}/teams"
        team = {"name": "队1", "players": [{"name": "A", "bot": "heuristic"}, {"name": "B", "bot": "random"}]}
        assert client.post(teams, json=team, headers=headers).status_code == 201
        refused = client.post(teams, json={**team, "name": "队2"}, headers=headers)
        assert refused.status_code == 429
        assert refused.headers["retry-after"] == "60"
        assert "teams registered from one address: at most 1 at once" in refused.json()["detail"]


def test_an_idle_websocket_is_closed_and_one_that_pings_stays(database_url: str) -> None:
    """The idle timeout (0.3 s here, 120 s by default) closes a connection that sends nothing with
    4408 (a table's, an event's, the ladder's); ``ping`` keeps one open, as the page's ping every 20 s
    does."""
    with limited_app(database_url, FakeClock(), idle_timeout=0.3) as client:
        table_id, tokens = full_table(client)
        event_id = new_event(client)["event"]["id"]
        with (
            client.websocket_connect(f"/ws/tables/{table_id}") as idle_ws,
            client.websocket_connect(f"/ws/events/{event_id}") as event_ws,
            client.websocket_connect("/ws/ladder") as ladder_ws,
            client.websocket_connect(f"/ws/tables/{table_id}") as busy_ws,
        ):
            idle, watcher, busy = Peer(idle_ws), Peer(event_ws), Peer(busy_ws, 0)
            ladder = Peer(ladder_ws)
            idle.join(tokens[1])
            busy.join(tokens[0])
            start = time.monotonic()
            while time.monotonic() - start < 1.0:
                assert answer(busy, {"type": "ping"})["type"] == "pong"
                time.sleep(0.1)
            for peer in (idle, watcher, ladder):
                close = closed(peer)
                assert close["code"] == IDLE_CLOSE
                assert close["reason"] == "idle: no message for 0.3 s"
            assert answer(busy, {"type": "ping"})["type"] == "pong"
            assert busy.state is not None
            assert busy.state["seats"][1]["connected"] is False, "the idle seat shows as gone"


def test_sign_ins_past_the_limit_are_429_whether_right_or_wrong(database_url: str) -> None:
    """Guessing passwords is held up (issue 25): every try at signing in or opening an account counts
    for the address, a right password as much as a wrong one."""
    clock = FakeClock()
    with limited_app(database_url, clock, sign_in_rate=Rate(3, 1 / 60)) as client:
        ann = {"name": "Ann", "password": "correct horse"}
        assert client.post("/api/accounts", json=ann).status_code == 201
        wrong = {"name": "Ann", "password": "wrong horse!"}
        assert client.post("/api/session", json=wrong).status_code == 401
        assert client.post("/api/session", json=ann).status_code == 200
        for body in (ann, wrong):
            refused = client.post("/api/session", json=body)
            assert refused.status_code == 429, refused.text
            assert refused.headers["retry-after"] == "60"
            assert "sign-ins and new accounts from one address" in refused.json()["detail"]
        assert client.post("/api/accounts", json={"name": "Bo", "password": "long enough"}).status_code == 429
        clock.now += 60
        assert client.post("/api/session", json=ann).status_code == 200


def test_an_account_tried_from_many_addresses_is_held_up_as_from_one(database_url: str) -> None:
    """Guessing one account's password from many addresses is no faster: the tries count for the
    account too, at the same rate (issue 25)."""
    clock = FakeClock()
    with limited_app(database_url, clock, sign_in_rate=Rate(3, 1 / 60)) as client:
        ann = {"name": "Ann", "password": "correct horse"}
        assert client.post("/api/accounts", json=ann).status_code == 201
        answers = []
        for host in range(5):
            elsewhere = TestClient(client.app, client=(f"10.0.0.{host}", 4000))
            answers.append(elsewhere.post("/api/session", json={"name": "ANN", "password": "guess!!!"}))
        assert [answer.status_code for answer in answers] == [401, 401, 401, 429, 429]
        assert "sign-ins to one account" in answers[-1].json()["detail"]
        other = TestClient(client.app, client=("10.0.0.9", 4000))
        bo = {"name": "Bo", "password": "long enough"}
        assert other.post("/api/accounts", json=bo).status_code == 201, "another account is not held up"
        clock.now += 60
        fresh = TestClient(client.app, client=("10.0.0.10", 4000))
        assert fresh.post("/api/session", json=ann).status_code == 200
