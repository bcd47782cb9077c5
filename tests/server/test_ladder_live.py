"""The live ladder matches on a real ``cardroom serve`` (docs/ladder.md, "Reading it"): while a match is
played, ``GET /api/ladder/live`` lists it with its teams, names and tables, each with its watch link (a
spectator joins there); once it is rated, the list is empty and the match is the bot's, as
``GET /api/ladder/{bot}`` shows it. In the room alone, a table that ended while its pair plays on shows
what each team rose there."""

from __future__ import annotations

import json
import time
import urllib.request
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from cardroom.server.ladder import LadderService, LadderSettings
from cardroom.server.live.rooms import Rooms
from cardroom.server.live.settings import Settings
from cardroom.server.storage.store import Store
from cardroom.server.tables.config import TableDefaults
from cardroom.server.tables.guandan import Table
from tests.server.clients import call, joined, until, websocket
from tests.server.conftest import run_coroutine
from tests.server.serving import Server
from tests.server.test_ladder_play import make_bot, play_seat, seats_of

Frame = dict[str, Any]


@dataclass(frozen=True)
class Started:
    """A ladder match made for two bots that then left the ladder (no next match follows): its id,
    the bots' keys and tokens, and the seats each was told."""

    match: str
    tokens: dict[str, str]
    seats: dict[str, list[Frame]]


@pytest.fixture
def server(tmp_path: Path) -> Iterator[Server]:
    running = ladder_server(tmp_path)
    try:
        yield running
    finally:
        running.stop()


def ladder_server(data: Path) -> Server:
    """A room whose ladder plays one deal pair with the random and heuristic house bots, looking often."""
    return Server(
        data, "--ladder-house", "random,heuristic", "--ladder-deal-pairs", "1", "--ladder-interval", "0.2"
    )


def start_match(server: Server) -> Started:
    """Two owners' bots say they are ready, are told their seats, and leave the ladder's socket."""
    tao, tao_token, _ = make_bot(server, "Ann", "Little Tao")
    deep, deep_token, _ = make_bot(server, "Bob", "Deep Tao")
    with websocket(server, "/ws/ladder") as first, websocket(server, "/ws/ladder") as second:
        for ws, token in ((first, tao_token), (second, deep_token)):
            ws.send(json.dumps({"type": "auth", "token": token}))
            until(ws, "authenticated")
            ws.send(json.dumps({"type": "ready"}))
            until(ws, "ready")
        seats = {tao: seats_of(first, 2), deep: seats_of(second, 2)}
    return Started(seats[tao][0]["match"], {tao: tao_token, deep: deep_token}, seats)


def finish_match(server: Server, started: Started) -> None:
    """The bots play their seats; back once the ladder lists no live match."""
    with ThreadPoolExecutor(4) as pool:
        played = list(
            pool.map(
                lambda pair: play_seat(server, started.tokens[pair[0]], pair[1]),
                [(bot, seat) for bot, told in started.seats.items() for seat in told],
            )
        )
    assert all(last["result"] is not None for last, _ in played)
    deadline = time.monotonic() + 30
    while call(server, "GET", "/api/ladder/live").body["matches"]:
        assert time.monotonic() < deadline, "the match was not rated"
        time.sleep(0.1)


@pytest.mark.server_process
def test_a_running_match_is_listed_with_its_tables_to_watch_and_gone_once_rated(server: Server) -> None:
    assert call(server, "GET", "/api/ladder/live").body == {"matches": []}
    started = start_match(server)
    live = call(server, "GET", "/api/ladder/live")
    assert live.status == 200
    (match,) = live.body["matches"]
    tao, deep = started.tokens
    assert (match["id"], match["status"]) == (started.match, "running")
    entrants = {f"{tao}#1", f"{deep}#1", "random#1", "heuristic#1"}
    assert {*match["team_a"], *match["team_b"]} == entrants
    assert match["names"][f"{tao}#1"] == "Little Tao"
    assert match["names"]["random#1"] == "random bot"
    assert match["started"]
    told = {seat["table"]: seat for seats in started.seats.values() for seat in seats}
    assert [[table["id"] for table in match["watch"]]] == match["tables"]
    assert {table["id"] for table in match["watch"]} == set(told)
    for table in match["watch"]:
        assert table["url"] == f"/tables/{table['id']}"
        assert (table["pair"], table["swapped"]) == (0, told[table["id"]]["swapped"])
        assert table["status"] == "running"
        assert table["phase"] in ("play", "tribute", "return")
        assert table["levels"] == ["2", "2"]
        assert all(0 < seat["cards"] <= 27 for seat in table["seats"])
        assert {seat["entrant"] for seat in table["seats"]} == entrants
        # the swapped table holds team A at seats 1 and 3
        a_seats = {seat["seat"] % 2 for seat in table["seats"] if seat["entrant"] in match["team_a"]}
        assert a_seats == {1 if table["swapped"] else 0}
        assert table["rises"] is None
    by_id = {table["id"]: table for table in match["watch"]}
    for bot, seats in started.seats.items():
        for seat in seats:
            sitting = by_id[seat["table"]]["seats"][seat["seat"]]
            assert sitting["entrant"] == f"{bot}#1", "each bot where the ladder seated it"

    watched = match["watch"][0]
    with urllib.request.urlopen(server.url + watched["url"], timeout=10) as page:
        assert page.status == 200, "the watch link is the table's page"
        assert "text/html" in page.headers["content-type"]
    with websocket(server, f"/ws/tables/{watched['id']}") as ws:
        state = joined(ws, None)
        assert state["seat"] is None, "a spectator"
        assert state["table"]["id"] == watched["id"]

    finish_match(server, started)
    assert call(server, "GET", "/api/ladder/live").body == {"matches": []}
    own = call(server, "GET", f"/api/ladder/{tao}").body["matches"]
    (rated,) = [row for row in own if row["id"] == started.match]
    assert rated["status"] == "rated"
    assert set(rated) <= set(match), "a live match says what a listed one does"
    assert all(row["matches"] == 1 for row in call(server, "GET", "/api/ladder").body["entrants"])


@pytest.mark.server_process
def test_live_is_no_bot_and_a_room_without_a_ladder_says_so(server: Server, tmp_path: Path) -> None:
    assert call(server, "GET", "/api/ladder/live/more").status == 404
    assert call(server, "GET", "/api/ladder/live").status == 200
    (tmp_path / "plain").mkdir()
    plain = Server(tmp_path / "plain", "--no-ladder")
    try:
        refused = call(plain, "GET", "/api/ladder/live")
        assert refused.status == 404
        assert "no ladder" in json.dumps(refused.body)
    finally:
        plain.stop()


def test_a_table_that_ended_shows_what_each_team_rose_while_its_pair_plays_on(tmp_path: Path) -> None:
    """In the room (no server): one table of a running match forfeited, the other still dealt."""

    async def scenario() -> tuple[list[Frame], list[Frame]]:
        store = Store(f"sqlite:///{tmp_path}/ladder.sqlite3")
        rooms = Rooms(
            store, Settings(table_defaults=TableDefaults(bot_delay=0.0, deal_pause=0.0), bot_workers=0)
        )
        try:
            service = LadderService(
                store, rooms, LadderSettings(house=("random", "heuristic", "search"), deal_pairs=1)
            )
            service.load()
            service.mark_ready("bot:1", "ann", 1, "Little Tao", lambda _frame: None)
            (made,) = service.schedule()
            before = service.live()
            direct = rooms.rooms[service.running[made].data["tables"][0][0]]
            assert isinstance(direct.table, Table)
            service.listener(direct, direct.table.forfeit(1, 2.0, "ten faults"))
            return before, service.live()
        finally:
            await rooms.close()
            store.close()

    before, after = run_coroutine(scenario())
    assert [table["status"] for table in before[0]["watch"]] == ["running", "running"]
    assert before[0]["names"]["bot:1#1"] == "Little Tao"
    (match,) = after
    direct, swapped = match["watch"]
    assert (direct["status"], direct["phase"], direct["rises"]) == ("finished", "finished", [3, 0])
    assert [seat["cards"] for seat in direct["seats"]] == [None] * 4, "no deal in play"
    assert (swapped["status"], swapped["rises"]) == ("running", None)
    assert sum(seat["cards"] for seat in swapped["seats"]) <= 108
