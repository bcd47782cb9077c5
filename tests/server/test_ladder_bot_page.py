"""A ladder bot's page and records (docs/ladder.md, "Reading it"). On a real ``cardroom serve`` two bots
play a ladder match with the house bots (tests/server/test_ladder_play.py's helpers): ``GET
/api/ladder/{bot}`` says who the bot is and its record against each house bot, checked against the
match's result by hand; ``GET /api/ladder/{bot}/records`` is a zip of its tables' records, each of which
``cardroom replay`` replays, none holding the pair's secret seed. In process, over a stored ladder of
several matches, the win rates and margins against each house bot and their 95% intervals are checked
against a hand computation."""

from __future__ import annotations

import io
import json
import math
import subprocess
import sys
import urllib.error
import urllib.request
import zipfile
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from cardroom.arena.stats import t_quantile
from cardroom.server.api.app import create_app
from cardroom.server.ladder import LadderSettings
from cardroom.server.storage.store import DATABASE_FILE, LadderEntrantRow, LadderMatchRow, Store
from tests.server.clients import call, open_account, until, websocket
from tests.server.serving import Server
from tests.server.test_ladder_play import play_seat, seats_of

HOUSES = ["random", "heuristic"]


@pytest.fixture
def server(tmp_path: Path) -> Iterator[Server]:
    running = Server(
        tmp_path, "--ladder-house", ",".join(HOUSES), "--ladder-deal-pairs", "1", "--ladder-interval", "0.2"
    )
    try:
        yield running
    finally:
        running.stop()


def download(server: Server, path: str) -> tuple[int, dict[str, str], bytes]:
    try:
        with urllib.request.urlopen(server.url + path, timeout=30) as response:
            return response.status, dict(response.headers), response.read()
    except urllib.error.HTTPError as error:
        return error.code, dict(error.headers), error.read()


@pytest.mark.server_process
def test_a_bots_page_shows_its_record_against_the_house_and_its_records_replay(server: Server) -> None:
    ann = open_account(server, "Ann")
    about = {"name": "Little Tao", "description": "Plays <b>bombs</b> early.", "link": "https://tao.example/"}
    created = call(server, "POST", "/api/account/bots", about, ann)
    assert created.status == 201, created
    tao, tao_token = created.body["bot"]["key"], created.body["token"]
    bob = open_account(server, "Bob")
    created = call(server, "POST", "/api/account/bots", {"name": "Deep Tao"}, bob)
    deep, deep_token = created.body["bot"]["key"], created.body["token"]
    tokens = {tao: tao_token, deep: deep_token}

    with websocket(server, "/ws/ladder") as first, websocket(server, "/ws/ladder") as second:
        for ws, token in ((first, tao_token), (second, deep_token)):
            ws.send(json.dumps({"type": "auth", "token": token}))
            until(ws, "authenticated")
            ws.send(json.dumps({"type": "ready"}))
            until(ws, "ready")
        seats = {tao: seats_of(first, 2), deep: seats_of(second, 2)}
        match_id = seats[tao][0]["match"]
        with ThreadPoolExecutor(4) as pool:
            list(
                pool.map(
                    lambda pair: play_seat(server, tokens[pair[0]], pair[1]),
                    [(bot, seat) for bot, told in seats.items() for seat in told],
                )
            )
        result = until(first, "result", timeout=30)
    assert result["match"] == match_id

    page = call(server, "GET", f"/api/ladder/{tao}")
    assert page.status == 200
    assert page.body["bot"] == {
        "key": tao,
        "name": "Little Tao",
        "owner": "Ann",
        "description": "Plays <b>bombs</b> early.",
        "link": "https://tao.example/",
        "house": False,
    }
    (entrant,) = page.body["entrants"]
    # by hand: the match's margin from Little Tao's side, against each house bot on the other team
    ours = "team_a" if f"{tao}#1" in result["team_a"] else "team_b"
    margin = result["margin"] if ours == "team_a" else -result["margin"]
    others = {key.rpartition("#")[0] for key in result["team_b" if ours == "team_a" else "team_a"]}
    versus = {row["house"]: row for row in entrant["versus"]}
    assert list(versus) == HOUSES
    for house, row in versus.items():
        if house not in others:
            assert (row["matches"], row["win_rate"], row["margin"]) == (0, None, None), house
            continue
        score = 1.0 if margin > 0 else 0.5 if margin == 0 else 0.0
        assert (row["matches"], row["win_rate"], row["margin"]) == (1, score, float(margin)), house
        assert (row["wins"], row["draws"], row["losses"]) == (margin > 0, margin == 0, margin < 0)
        assert (row["win_rate_low"], row["win_rate_high"], row["margin_low"]) == (None, None, None), (
            "one match: no interval"
        )
    house_page = call(server, "GET", "/api/ladder/random").body
    assert house_page["bot"]["house"]
    assert house_page["bot"]["owner"] is None
    assert [row["house"] for row in house_page["entrants"][0]["versus"]] == ["heuristic"]

    status, headers, body = download(server, f"/api/ladder/{tao}/records")
    assert status == 200
    assert headers["content-type"] == "application/zip"
    assert (
        headers["content-disposition"] == f'attachment; filename="ladder-{tao.replace(":", "-")}-records.zip"'
    )
    match = next(row for row in page.body["matches"] if row["id"] == match_id)
    tables = [table for pair in match["tables"] for table in pair]
    with zipfile.ZipFile(io.BytesIO(body)) as archive:
        names = archive.namelist()
        assert [f"{match_id}-1a-{tables[0]}.json", f"{match_id}-1b-{tables[1]}.json"] == [
            name for name in names if name.startswith(match_id)
        ]
        archive.extractall(server.log.parent / "records")
        texts = [archive.read(name).decode() for name in names]
    for name in names:
        replayed = subprocess.run(
            [sys.executable, "-m", "cardroom", "replay", str(server.log.parent / "records" / name)],
            capture_output=True,
            text=True,
            timeout=60,
        )
        assert replayed.returncode == 0, replayed.stdout + replayed.stderr
    store = Store(f"sqlite:///{server.log.parent / DATABASE_FILE}")
    try:
        seed = next(entry["seed"] for entry in store.entries(tables[0]) if entry["type"] == "start")
    finally:
        store.close()
    assert not [text for text in texts if seed in text], "a record holds the pair's secret seed"

    assert download(server, "/api/ladder/bot:999/records")[0] == 404
    assert call(server, "GET", "/api/ladder/bot:999").status == 404
    page_status, page_headers, html = download(server, f"/ladder/bots/{tao}")
    assert page_status == 200
    assert b"ladder-bot.js" in html
    assert page_headers["x-frame-options"] == "DENY"


WHEN = datetime(2026, 12, 6, 10, tzinfo=UTC)
ME = "bot:1#1"


@pytest.fixture
def stored(tmp_path: Path) -> Iterator[TestClient]:
    """A room whose store holds six rated matches of ``bot:1`` and ``bot:2`` with the house bots, and a
    running one; the bots' accounts are gone (deleted)."""
    store = Store(f"sqlite:///{tmp_path / DATABASE_FILE}")
    matches = [
        (["bot:1#1", "random#1"], ["heuristic#1", "search#1"], 3),
        (["heuristic#1", "bot:2#1"], ["bot:1#1", "random#1"], 2),
        (["search#1", "bot:1#1"], ["heuristic#1", "bot:2#1"], 0),
        (["bot:1#1", "heuristic#1"], ["random#1", "bot:2#1"], -1),
        (["bot:1#1", "bot:2#1"], ["heuristic#1", "random#1"], 4),
        (["bot:2#1", "random#1"], ["heuristic#1", "search#1"], 1),
    ]
    try:
        for key, name in ((ME, "Little Tao"), ("bot:2#1", "Deep Tao")):
            store.save_ladder_entrant(LadderEntrantRow(key, key[:-2], "ann", 1, name, {}, WHEN, WHEN))
        for number, (team_a, team_b, margin) in enumerate(matches):
            data = {"team_a": team_a, "team_b": team_b, "seed": number, "tables": [], "games": {}}
            winner = None if margin == 0 else 0 if margin > 0 else 1
            rated = {**data, "margin": margin, "winner": winner, "faults": {}}
            made = WHEN + timedelta(minutes=number)
            store.save_ladder_match(LadderMatchRow(f"m{number}", "rated", "2026-12-06", rated, made, made))
        running = {"team_a": [ME, "search#1"], "team_b": ["heuristic#1", "random#1"], "seed": 9}
        later = WHEN + timedelta(hours=1)
        store.save_ladder_match(
            LadderMatchRow("m9", "running", "2026-12-06", {**running, "tables": [], "games": {}}, later, None)
        )
    finally:
        store.close()
    app = create_app(
        None, tmp_path, ladder=LadderSettings(house=("random", "heuristic", "search"), interval=60)
    )
    with TestClient(app) as client:
        yield client


def test_the_record_against_each_house_bot_is_the_hand_computation(stored: TestClient) -> None:
    answer = stored.get("/api/ladder/bot:1")
    assert answer.status_code == 200, answer.text
    body = answer.json()
    assert body["bot"] == {
        "key": "bot:1",
        "name": "Little Tao",
        "owner": None,
        "description": "",
        "link": "",
        "house": False,
    }, "a deleted bot: its entrant's name, nothing more"
    assert [match["id"] for match in body["matches"]] == ["m9", "m4", "m3", "m2", "m1", "m0"], "newest first"
    versus = {row["house"]: row for row in body["entrants"][0]["versus"]}
    assert list(versus) == ["random", "heuristic", "search"]
    # heuristic on the other team in m0 (+3), m1 (−2), m2 (0), m4 (+4): scores 1, 0, ½, 1
    heuristic = versus["heuristic"]
    assert (heuristic["matches"], heuristic["wins"], heuristic["draws"], heuristic["losses"]) == (4, 2, 1, 1)
    t3 = t_quantile(0.975, 3)
    scores, margins = [1, 0, 0.5, 1], [3, -2, 0, 4]
    for values, name in ((scores, "win_rate"), (margins, "margin")):
        mean = sum(values) / 4
        s = math.sqrt(sum((value - mean) ** 2 for value in values) / 3)
        assert heuristic[name] == pytest.approx(mean, abs=1e-3)
        low, high = mean - t3 * s / 2, mean + t3 * s / 2
        if name == "win_rate":
            low, high = max(0, low), min(1, high)
        assert heuristic[f"{name}_low"] == pytest.approx(low, abs=1e-3), name
        assert heuristic[f"{name}_high"] == pytest.approx(high, abs=1e-3), name
    # random on the other team in m3 (−1) and m4 (+4) (in m1 it was on bot:1's); search in m0 (+3)
    # only; the running m9 does not count
    assert (versus["random"]["matches"], versus["random"]["wins"], versus["random"]["losses"]) == (2, 1, 1)
    assert versus["random"]["margin"] == 1.5
    assert (versus["search"]["matches"], versus["search"]["win_rate"], versus["search"]["margin_low"]) == (
        1,
        1.0,
        None,
    )

    empty = stored.get("/api/ladder/bot:1/records")
    assert empty.status_code == 200, "no table finished: an empty zip"
    with zipfile.ZipFile(io.BytesIO(empty.content)) as archive:
        assert archive.namelist() == []
    missing = stored.get("/api/ladder/bot:3/records")
    assert missing.status_code == 404
    assert "bot:3" in missing.json()["detail"]
