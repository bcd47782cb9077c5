"""The tournament director through the HTTP API and the websockets (docs/tournaments-api.md): events,
teams, rounds played at the card room's tables, results, sheets, standings, CSV, conduct, restarts."""

from __future__ import annotations

import csv
import io
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from fastapi.testclient import TestClient

from cardroom.records import replay
from cardroom.server.api.app import create_app
from cardroom.server.tables.guandan import Table
from tests.server.conftest import CHEAP, FAST, Peer, guandan_table_of, password_of, room_of, signed_in

Json = dict[str, Any]
LONG = {"tribute_s": 600, "return_s": 600, "first_lead_s": 600, "play_s": 600, "countdown_s": 0}


def make_event(client: TestClient, **body: Any) -> tuple[str, dict[str, str]]:
    """``POST /api/events`` by the director's account: the event's id and the director token's header
    (the director's scripts run the event with it)."""
    body.setdefault("name", "淮安杯")
    body.setdefault("bot_delay", 0)
    body.setdefault("deal_pause", 0)
    response = client.post("/api/events", json=body, headers=signed_in(client, "Director", director=True))
    assert response.status_code == 201, response.text
    answer = response.json()
    return answer["event"]["id"], {"X-Director-Token": answer["director_token"]}


def open_accounts(client: TestClient, *players: Json) -> None:
    """The people's accounts (a team registers people by their accounts' names)."""
    for player in players:
        if "bot" not in player:
            credentials = {"name": player["name"], "password": password_of(player["name"])}
            assert client.post("/api/accounts", json=credentials).status_code in (201, 409)
    client.cookies.clear()


def register(client: TestClient, event_id: str, headers: dict[str, str], name: str, *players: Json) -> Json:
    open_accounts(client, *players)
    response = client.post(
        f"/api/events/{event_id}/teams", json={"name": name, "players": list(players)}, headers=headers
    )
    assert response.status_code == 201, response.text
    answer: Json = response.json()
    return answer


def seat_token(client: TestClient, event_id: str, name: str) -> str:
    """The player, signed in, asks where it plays and takes that seat: the seat's token."""
    headers = signed_in(client, name)
    where = client.post(f"/api/events/{event_id}/whoami", json={}, headers=headers).json()["seat"]
    response = client.post(f"/api/tables/{where['table_id']}/seats/{where['seat']}", json={}, headers=headers)
    assert response.status_code == 200, response.text
    token: str = response.json()["token"]
    return token


def seated_round(client: TestClient, event_id: str, headers: dict[str, str], *people: str) -> Json:
    """Publish the next round, have ``people`` (signed in) say they are at their tables, start it: the
    event as the start answers it (their tables play at once)."""
    assert client.post(f"/api/events/{event_id}/rounds", json={}, headers=headers).status_code == 201
    for name in people:
        arrived = client.post(f"/api/events/{event_id}/arrive", json={}, headers=signed_in(client, name))
        assert arrived.status_code == 200, arrived.text
    number = len(event_of(client, event_id)["rounds"])
    response = client.post(f"/api/events/{event_id}/rounds/{number}/start", headers=headers)
    assert response.status_code == 200, response.text
    answer: Json = response.json()
    return answer


def bots(first: str, second: str) -> tuple[Json, Json]:
    """Two named players played by bots (not rated: docs/accounts.md, "What a rating counts")."""
    return {"name": first, "bot": "heuristic"}, {"name": second, "bot": "random"}


def event_of(client: TestClient, event_id: str) -> Json:
    response = client.get(f"/api/events/{event_id}")
    assert response.status_code == 200, response.text
    answer: Json = response.json()
    return answer


def wait_for(client: TestClient, event_id: str, done: Callable[[Json], bool], timeout: float = 30.0) -> Json:
    """Poll the event until ``done`` holds (the server's tables play meanwhile)."""
    deadline = time.monotonic() + timeout
    while True:
        event = event_of(client, event_id)
        if done(event):
            return event
        assert time.monotonic() < deadline, f"the event did not get there in {timeout} s: {event}"
        time.sleep(0.05)


def round_done(number: int) -> Callable[[Json], bool]:
    return lambda event: len(event["rounds"]) >= number and event["rounds"][number - 1]["complete"]


def bot_event(client: TestClient, teams: int = 4, **body: Any) -> tuple[str, dict[str, str]]:
    """An event of named bot players, 1-deal matches, started."""
    body.setdefault("format", {"deals": 1})
    event_id, headers = make_event(client, **body)
    for number in range(1, teams + 1):
        register(client, event_id, headers, f"队{number}", *bots(f"P{number}a", f"P{number}b"))
    response = client.post(f"/api/events/{event_id}/start", json={}, headers=headers)
    assert response.status_code == 200, response.text
    return event_id, headers


# -- creating and registering --------------------------------------------------------------------------


def test_an_event_is_created_listed_and_refuses_bad_fields(client: TestClient) -> None:
    event_id, _headers = make_event(client, format={"deals": 8}, rounds=5, system="swiss")
    listed = client.get("/api/events").json()["events"]
    assert [line["id"] for line in listed] == [event_id]
    assert listed[0]["phase"] == "registration"
    assert listed[0]["format"].startswith("8副")
    event = event_of(client, event_id)
    assert event["config"]["format"] == {"deals": 8, "minutes": None, "tie_extra_deal": True}
    assert event["standings"] == []
    assert event["rounds"] == []
    assert event["system"] is None
    for body, named in [
        ({"name": "x", "rounds": 0}, "rounds"),
        ({"name": "x", "format": {"deals": 0}}, "format.deals"),
        ({"name": "x", "system": "knockout"}, "system"),
        ({"name": "x", "conduct": {"timeout": "SCOLD"}}, "conduct.timeout"),
        ({"name": "x", "conduct": {"clocks": {"play_s": 0}}}, "conduct.clocks.play_s"),
        ({"name": "x", "colour": "red"}, "colour"),
        ({"name": ""}, "name"),
    ]:
        response = client.post("/api/events", json=body, headers=signed_in(client, "Director"))
        assert response.status_code == 400, (body, response.text)
        assert named in response.json()["detail"], (body, response.text)
    assert client.get("/api/events/nope").status_code == 404


def test_only_a_directors_account_creates_an_event(client: TestClient) -> None:
    """The director role (issue 25): a guest is asked to sign in, a player's account is refused."""
    body = {"name": "淮安杯"}
    response = client.post("/api/events", json=body)
    assert response.status_code == 401
    assert "sign in" in response.json()["detail"]
    response = client.post("/api/events", json=body, headers=signed_in(client, "Ann"))
    assert response.status_code == 403
    assert "director role" in response.json()["detail"]
    director = signed_in(client, "Dora", director=True)
    response = client.post("/api/events", json=body, headers=director)
    assert response.status_code == 201
    event_id = response.json()["event"]["id"]
    # the director's account runs it; another director's does not
    team = {"name": "队1", "players": [{"bot": "heuristic"}, {"bot": "random"}]}
    assert client.post(f"/api/events/{event_id}/teams", json=team, headers=director).status_code == 201
    other = signed_in(client, "Otto", director=True)
    assert client.post(f"/api/events/{event_id}/teams", json=team, headers=other).status_code == 403


def test_registering_needs_the_director_and_the_peoples_accounts(client: TestClient) -> None:
    event_id, headers = make_event(client)
    team = {"name": "队1", "players": [{"name": "Ann"}, {"bot": "heuristic"}]}
    assert client.post(f"/api/events/{event_id}/teams", json=team).status_code == 403
    wrong = {"X-Director-Token": "not-it"}
    assert client.post(f"/api/events/{event_id}/teams", json=team, headers=wrong).status_code == 403
    response = client.post(f"/api/events/{event_id}/teams", json=team, headers=headers)
    assert response.status_code == 409, "Ann has no account yet"
    assert "no account 'Ann'" in response.json()["detail"]
    answer = register(client, event_id, headers, "队1", {"name": "ann"}, {"bot": "heuristic"})
    assert answer["team"]["id"] == "T1"
    assert [p["name"] for p in answer["team"]["players"]] == ["ann", "heuristic bot"]
    assert "tokens" not in answer, "no token to hand on: each player signs in"
    # a person plays in one team only (names case-insensitively); bots may share a name
    again = {"name": "队2", "players": [{"name": "ANN"}, {"name": "Bo"}]}
    response = client.post(f"/api/events/{event_id}/teams", json=again, headers=headers)
    assert response.status_code == 409
    assert "'ann' plays in team T1" in response.json()["detail"]
    register(client, event_id, headers, "队2", {"name": "Bo"}, {"bot": "heuristic"})
    bad = {"name": "队3", "players": [{"name": "Cy"}, {"bot": "chess"}]}
    open_accounts(client, {"name": "Cy"})
    response = client.post(f"/api/events/{event_id}/teams", json=bad, headers=headers)
    assert response.status_code == 400
    assert "players[1].bot" in response.json()["detail"]
    register(client, event_id, headers, "队3", {"name": "Cy"}, {"name": "Di"})
    assert client.delete(f"/api/events/{event_id}/teams/T3", headers=headers).status_code == 200
    assert [team["id"] for team in event_of(client, event_id)["teams"]] == ["T1", "T2"]
    response = client.post(f"/api/events/{event_id}/start", json={}, headers=headers)
    assert response.status_code == 200
    started = response.json()
    assert started["phase"] == "running"
    assert started["system"] == "round_robin"
    assert sorted(team["lot"] for team in started["teams"]) == [1, 2]
    response = client.post(f"/api/events/{event_id}/teams", json=again, headers=headers)
    assert response.status_code == 409


# -- rounds at the card room's tables ---------------------------------------------------------------------


def test_a_round_started_makes_tables_that_play_once_every_seat_is_taken(client: TestClient) -> None:
    event_id, headers = make_event(client, conduct={"clocks": LONG})
    register(client, event_id, headers, "队1", {"name": "Ann"}, {"name": "Cy"})
    register(client, event_id, headers, "队2", {"name": "Bo"}, {"bot": "heuristic", "name": "Robo"})
    client.post(f"/api/events/{event_id}/start", json={}, headers=headers)
    assert client.post(f"/api/events/{event_id}/rounds").status_code == 403
    published = client.post(f"/api/events/{event_id}/rounds", json={}, headers=headers)
    assert published.status_code == 201, published.text
    (table,) = published.json()["rounds"][0]["tables"]
    assert table["table_id"] is None  # published: the tables are made when the round starts
    assert published.json()["rounds"][0]["started_at"] is None
    response = client.post(f"/api/events/{event_id}/rounds/1/start", headers=headers)
    assert response.status_code == 200, response.text
    (table,) = response.json()["rounds"][0]["tables"]
    assert table["status"] == "waiting"  # no move clock runs before the table is complete
    assert table["result"] is None
    lobby = client.get(f"/api/tables/{table['table_id']}").json()
    assert lobby["status"] == "waiting"
    robo = next(seat for seat in lobby["seats"] if seat["name"] == "Robo")
    assert robo["kind"] == "bot"
    assert robo["bot"] == "heuristic"
    # signed in, Bo learns where he plays and takes that seat's token; no one else can
    bo = signed_in(client, "Bo")
    where = client.post(f"/api/events/{event_id}/whoami", json={}, headers=bo).json()
    assert where["player"]["name"] == "Bo"
    assert where["team"] == "T2"
    assert where["seat"]["table_id"] == table["table_id"]
    assert client.post(f"/api/events/{event_id}/whoami", json={}).status_code == 401
    assert client.post(f"/api/events/{event_id}/whoami", json={"token": "nope"}).status_code == 403
    stranger = signed_in(client, "Stranger")
    assert client.post(f"/api/events/{event_id}/whoami", json={}, headers=stranger).status_code == 403
    seat_url = f"/api/tables/{table['table_id']}/seats/{where['seat']['seat']}"
    for refused in ({}, stranger, signed_in(client, "Ann")):
        answer = client.post(seat_url, json={"name": "Someone"}, headers=refused)
        assert answer.status_code == 403, (refused, answer.text)
        assert "Bo's" in answer.json()["detail"]
    token = client.post(seat_url, json={}, headers=bo).json()["token"]
    for name in ("Ann", "Cy"):
        seat_token(client, event_id, name)
    lobby = client.get(f"/api/tables/{table['table_id']}").json()
    assert lobby["status"] == "running"
    assert [seat["name"] for seat in lobby["seats"]] == [seat["player"] for seat in table["seats"]]
    with client.websocket_connect(f"/ws/tables/{table['table_id']}") as ws:
        peer = Peer(ws)
        state = peer.join(token)
        assert state["seat"] == where["seat"]["seat"]
        assert state["event"] == {"id": event_id, "name": "淮安杯", "round": 1, "table": 1}
        welcome = next(frame for frame in peer.frames if frame["type"] == "welcome")
        assert welcome["table"]["config"]["conduct"]["clocks"]["play_s"] == 600
    # the round is not over: no second round yet
    response = client.post(f"/api/events/{event_id}/rounds", json={"start": True}, headers=headers)
    assert response.status_code == 409
    assert "without a result" in response.json()["detail"]


def test_results_flow_in_from_finished_matches(client: TestClient) -> None:
    event_id, headers = bot_event(client, rounds=3, system="swiss")
    client.post(f"/api/events/{event_id}/rounds", json={"start": True}, headers=headers)
    event = wait_for(client, event_id, round_done(1))
    tables = event["rounds"][0]["tables"]
    assert len(tables) == 2
    for table in tables:
        result = table["result"]
        assert table["status"] == "finished"
        assert result["kind"] == "played"
        assert result["deals"] == 1
        assert sorted(result["round_points"]) == [0, 2]
        assert table["final"]  # teams of bots sign by themselves
        sheet = client.get(f"/api/events/{event_id}/rounds/1/tables/{table['table']}/sheet").json()
        assert len(sheet["lines"]) == 1
        assert sheet["result"] == result
        assert sheet["signed"] == [True, True]
        line = sheet["lines"][0]
        assert line["levels_after"] == result["levels"]
        assert line["text"].startswith("第1副 打2")
        record = client.get(f"/api/tables/{table['table_id']}/record").json()
        assert record["meta"]["event"]["round"] == 1
        assert record["meta"]["outcome"]["reason"] == "deal_limit"
    standings = event["standings"]
    assert [row["rank"] for row in standings] == [1, 2, 3, 4]
    assert sorted(row["points"] for row in standings) == [0, 0, 2, 2]
    assert standings[0]["above"] is None
    assert standings[1]["above"] is not None
    # Swiss round 2: winners meet winners
    response = client.post(f"/api/events/{event_id}/rounds", json={"start": True}, headers=headers)
    assert response.status_code == 201
    points = {row["team"]: row["points"] for row in standings}
    for table in response.json()["rounds"][1]["tables"]:
        first, second = table["teams"]
        assert points[first] == points[second]
    wait_for(client, event_id, round_done(2))
    client.post(f"/api/events/{event_id}/rounds", json={"start": True}, headers=headers)
    event = wait_for(client, event_id, lambda e: e["phase"] == "finished")
    assert (
        client.post(f"/api/events/{event_id}/rounds", json={"start": True}, headers=headers).status_code
        == 409
    )
    # CSV: one row per table and round, with a byte-order mark
    text = client.get(f"/api/events/{event_id}/results.csv")
    assert text.headers["content-type"].startswith("text/csv")
    rows = list(csv.DictReader(io.StringIO(text.content.decode("utf-8-sig"))))
    assert len(rows) == 6
    assert {row["kind"] for row in rows} == {"played"}
    assert {(row["round"], row["table"]) for row in rows} == {
        (str(r), str(t)) for r in (1, 2, 3) for t in (1, 2)
    }
    standings_rows = list(
        csv.DictReader(
            io.StringIO(client.get(f"/api/events/{event_id}/standings.csv").content.decode("utf-8-sig"))
        )
    )
    assert [row["team"] for row in standings_rows] == [row["team"] for row in event["standings"]]
    assert [int(row["points"]) for row in standings_rows] == [row["points"] for row in event["standings"]]
    page = client.get(f"/events/{event_id}/print")
    assert page.status_code == 200
    assert page.headers["content-type"].startswith("text/html")
    assert "淮安杯" in page.text
    assert "第3轮" in page.text
    assert "队1" in page.text
    for what in ("pairings", "cards", "sheets"):  # docs/tournaments-api.md: a round's printouts
        printed = client.get(f"/events/{event_id}/print/{what}?round=2")
        assert printed.status_code == 200, printed.text
        assert "第2轮" in printed.text
        assert "队1" in printed.text
    assert client.get("/favicon.ico").headers["content-type"].startswith("image/svg+xml")
    assert "not started" not in client.get(f"/events/{event_id}/print/pairings").text, "started as paired"
    assert client.get(f"/events/{event_id}/print/sheets").text.count('class="page scoresheet"') == 2
    assert (
        client.get(f"/events/{event_id}/print/sheets?round=1&table=2").text.count('class="page scoresheet"')
        == 1
    )
    # a printout refused is a short page in both languages (a browser opened it), with its status
    for url, status, english, chinese in (
        (f"/events/{event_id}/print/cards?round=9", 404, "no round 9: 3 paired", "没有这一轮"),
        (f"/events/{event_id}/print/sheets?round=9", 404, "no round 9: 3 paired", "没有这一轮"),
        (
            f"/events/{event_id}/print/sheets?round=1&table=7",
            404,
            "round 1 has no table 7 (its tables: 1, 2)",
            "这一轮没有这张桌",
        ),
        (
            f"/events/{event_id}/print/cards?round=abc",
            400,
            "round: a whole number, got &#x27;abc&#x27;",
            "整数",
        ),
        (f"/events/{event_id}/print/sheets?round=1&table=x", 400, "table: a whole number", "整数"),
        (f"/events/{event_id}/print/cards?table=1", 400, "a table is for the score sheets", "只有记分表"),
        (f"/events/{event_id}/print/menu", 404, "no printout &#x27;menu&#x27;", "没有这种打印件"),
        ("/events/nope/print", 404, "unknown event &#x27;nope&#x27;", "没有这项赛事"),
        ("/events/nope/print/cards", 404, "unknown event", "没有这项赛事"),
    ):
        refused = client.get(url)
        assert refused.status_code == status, (url, refused.text)
        assert refused.headers["content-type"].startswith("text/html"), url
        assert english in refused.text, (url, refused.text)
        assert chinese in refused.text, url
        assert "无法打印" in refused.text
        assert "No printout" in refused.text
    assert client.get("/api/events/nope").json()["reason"] == "unknown_event", "the API keeps its JSON"
    # bots are not rated: an event's table where a bot plays counts for no one's rating
    assert client.get("/api/leaderboard").json()["players"] == []
    assert client.get("/api/players/P1a").status_code == 404


def test_auto_advance_pairs_each_round_as_the_last_one_ends(client: TestClient) -> None:
    event_id, _headers = bot_event(client, teams=3, auto_advance=True)
    event = wait_for(client, event_id, lambda e: e["phase"] == "finished")
    assert len(event["rounds"]) == 3  # a round robin of three: a bye each round
    assert sorted(played["bye"] for played in event["rounds"]) == ["T1", "T2", "T3"]
    assert all(row["points"] >= 2 for row in event["standings"])  # a bye counts as a round won
    rows = list(
        csv.DictReader(io.StringIO(client.get(f"/api/events/{event_id}/results.csv").text.lstrip("\ufeff")))
    )
    assert sum(1 for row in rows if row["team_13"] == "") == 3


# -- score sheets -------------------------------------------------------------------------------------


def test_sheets_are_signed_by_a_seated_player_of_each_team_only(client: TestClient) -> None:
    event_id, headers = make_event(client, conduct={"clocks": LONG}, require_signatures=True, rounds=1)
    names = ("Ann", "Cy", "Bo", "Di", "Eve", "Fay", "Gus", "Hal")
    for number in range(4):
        first, second = names[2 * number : 2 * number + 2]
        register(client, event_id, headers, f"队{number + 1}", {"name": first}, {"name": second})
    client.post(f"/api/events/{event_id}/start", json={}, headers=headers)
    table = seated_round(client, event_id, headers, *names)["rounds"][0]["tables"][0]
    url = f"/api/events/{event_id}/rounds/1/tables/1"
    side0, side1 = (
        [seat["player"] for seat in table["seats"] if seat["seat"] % 2 == side] for side in (0, 1)
    )
    others = [name for name in names if name not in side0 + side1]
    response = client.post(f"{url}/sign", json={}, headers=signed_in(client, side0[0]))
    assert response.status_code == 409  # no result yet
    team = table["teams"][1]
    response = client.post(f"{url}/forfeit", json={"team": team, "note": "弃权"}, headers=headers)
    assert response.status_code == 200, response.text
    event = wait_for(client, event_id, lambda e: e["rounds"][0]["tables"][0]["result"] is not None)
    result = event["rounds"][0]["tables"][0]["result"]
    assert result["kind"] == "forfeit"
    assert result["forfeited_by"] == 1
    assert result["round_points"] == [2, 0]
    assert result["score28"] == [17, 0]
    assert result["level_names"] == ["6", "2"]
    assert client.get(f"/api/tables/{table['table_id']}").json()["status"] == "finished"
    assert client.post(f"{url}/sign", json={}, headers=signed_in(client, others[0])).status_code == 403
    for token in ("forged", ""):
        assert client.post(f"{url}/sign", json={"token": token}).status_code == 403
    sheet = client.post(f"{url}/sign", json={}, headers=signed_in(client, side0[1])).json()
    assert sheet["signed"] == [True, False]
    assert not sheet["final"]
    sheet = client.post(f"{url}/sign", json={}, headers=signed_in(client, side1[0])).json()
    assert sheet["signed"] == [True, True]
    assert sheet["final"]
    assert event_of(client, event_id)["rounds"][0]["tables"][0]["final"]


# -- formats and conduct ----------------------------------------------------------------------------------


def test_a_timed_format_ends_between_deals_on_the_servers_clock(client: TestClient) -> None:
    event_id, headers = bot_event(client, teams=2, format={"minutes": 0.001})
    client.post(f"/api/events/{event_id}/rounds", json={"start": True}, headers=headers)
    event = wait_for(client, event_id, round_done(1))
    table = event["rounds"][0]["tables"][0]
    # Time is up (0.06 s) during the first deal, or a later one where the bots play deals faster than
    # that: either way the deal under way is played out and none begins after it.
    assert table["result"]["deals"] >= 1
    assert table["result"]["kind"] == "played"
    record = client.get(f"/api/tables/{table['table_id']}/record").json()
    assert record["meta"]["outcome"]["reason"] == "time_limit"
    report = replay(record)
    assert report.ok
    assert len(record["deals"]) == table["result"]["deals"]
    assert report.match.current_deal is None, "the match ended between deals: its last deal was played out"


def test_timeouts_escalate_to_a_skipped_turn_a_foul_and_a_forfeit(client: TestClient) -> None:
    quick = {"tribute_s": 0.01, "return_s": 0.01, "first_lead_s": 0.01, "play_s": 0.01, "countdown_s": 0}
    event_id, headers = make_event(client, conduct={"clocks": quick, "timeout": "WARNING"})
    register(client, event_id, headers, "队1", {"name": "Ann"}, {"name": "Cy"})
    register(client, event_id, headers, "队2", *bots("Bo", "Di"))
    client.post(f"/api/events/{event_id}/start", json={}, headers=headers)
    table = seated_round(client, event_id, headers, "Ann", "Cy")["rounds"][0]["tables"][0]
    event = wait_for(client, event_id, round_done(1))
    people = table["teams"].index("T1")
    result = event["rounds"][0]["tables"][0]["result"]
    assert result["kind"] == "forfeit"
    assert result["forfeited_by"] == people
    log = room_of(client, table["table_id"]).table.log
    penalties = [entry for entry in log if entry["type"] == "penalty"]
    labels = [record["penalty"] for entry in penalties for record in entry["records"]]
    # 警告 ×2 → 违例; ×2 违例 → 犯规; ×2 犯规 → 判负 (escalated records follow the direct one)
    assert labels.count("WARNING") == 8
    assert labels.count("VIOLATION") == 4
    assert labels.count("FOUL") == 2
    assert labels[-1] == "FORFEIT"
    assert [entry["effect"] for entry in penalties if entry["effect"] != "none"] == [
        "skip_turn",
        "end_deal",
        "skip_turn",
        "end_match",
    ]
    assert all(entry["side"] == people and entry["offence"] == "timeout" for entry in penalties)
    rulings = [entry for entry in log if entry["type"] == "ruling"]
    assert [entry["kind"] for entry in rulings].count("foul") == 1
    foul = next(entry for entry in rulings if entry["kind"] == "foul")
    # the deal ended at once, the offender's side 双下; the next deal has no tribute, a named leader
    after = log[log.index(foul) + 1 :]
    deal_end = next(entry for entry in after if entry["type"] == "deal_end")
    assert [seat % 2 for seat in deal_end["places"][2:]] == [people, people]
    assert deal_end["rise"] == 3
    next_deal = next(entry for entry in after if entry["type"] == "deal")
    assert next_deal["leader"] == (foul["seat"] + 1) % 4
    following = after[after.index(next_deal) + 1 :]
    end = next(n for n, entry in enumerate(following) if entry["type"] in ("deal_end", "match_end"))
    actions = [entry["action"] for entry in following[:end] if entry["type"] == "action"]
    assert actions
    assert not any("tribute" in action or "return" in action for action in actions)
    sheet = client.get(f"/api/events/{event_id}/rounds/1/tables/1/sheet").json()
    assert any(line["note"].startswith("犯规") for line in sheet["lines"])
    assert len(sheet["penalties"]) == len(labels)
    assert sheet["penalties"][0]["label"] == "警告"
    assert all(penalty["deal"] >= 1 and penalty["at_s"] >= 0 for penalty in sheet["penalties"])
    # forfeits are not rated
    assert client.get("/api/players/Ann").status_code == 404
    # the log rebuilds the same table, and the match record (with its rulings) replays
    room = room_of(client, table["table_id"])
    again = Table.replay(room.table.id, room.table.config, room.store.entries(room.table.id))
    assert again.log == room.table.log
    assert again.penalties == room.table.penalties
    assert again.result() == guandan_table_of(client, table["table_id"]).result()
    record = client.get(f"/api/tables/{table['table_id']}/record").json()
    report = replay(record)
    assert report.ok, report
    assert record["result"]["forfeited_by"] == people


def test_a_lost_connection_past_the_grace_is_penalised_once(client: TestClient) -> None:
    event_id, headers = make_event(
        client, conduct={"clocks": LONG, "disconnection": "WARNING"}, disconnect_grace=0.05
    )
    register(client, event_id, headers, "队1", {"name": "Ann"}, {"bot": "heuristic"})
    register(client, event_id, headers, "队2", *bots("Bo", "Di"))
    client.post(f"/api/events/{event_id}/start", json={}, headers=headers)
    # Ann is at her table before the start: on time, so her lost connection is the side's only penalty
    table = seated_round(client, event_id, headers, "Ann")["rounds"][0]["tables"][0]
    with client.websocket_connect(f"/ws/tables/{table['table_id']}") as ws:
        Peer(ws).join(seat_token(client, event_id, "Ann"))
    sheet_url = f"/api/events/{event_id}/rounds/1/tables/1/sheet"
    deadline = time.monotonic() + 10
    while not client.get(sheet_url).json()["penalties"]:
        assert time.monotonic() < deadline, "the disconnection was not penalised"
        time.sleep(0.05)
    time.sleep(0.2)
    (penalty,) = client.get(sheet_url).json()["penalties"]
    assert penalty["offence"] == "disconnection"
    assert penalty["penalty"] == "WARNING"


# -- the event's websocket and restarts ------------------------------------------------------------------


def test_the_event_socket_sends_the_event_and_each_change(client: TestClient) -> None:
    event_id, headers = make_event(client)
    with client.websocket_connect(f"/ws/events/{event_id}") as ws:
        first = ws.receive_json()
        assert first["type"] == "event"
        assert first["event"]["teams"] == []
        register(client, event_id, headers, "队1", *bots("A1", "A2"))
        changed = ws.receive_json()
        assert [team["name"] for team in changed["event"]["teams"]] == ["队1"]
        ws.send_json({"type": "ping"})
        assert ws.receive_json() == {"type": "pong", "v": 1}
    with client.websocket_connect("/ws/events/nope") as ws:
        assert ws.receive_json()["code"] == "unknown_event"


def test_a_restart_keeps_the_event_its_tables_and_accounts(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path}/room.sqlite3"
    with TestClient(create_app(url, settings=FAST, password_hasher=CHEAP)) as client:
        event_id, headers = make_event(client, conduct={"clocks": LONG}, rounds=2, system="swiss")
        register(client, event_id, headers, "队1", {"name": "Ann"}, {"name": "Cy"})
        register(client, event_id, headers, "队2", *bots("Bo", "Di"))
        client.post(f"/api/events/{event_id}/start", json={}, headers=headers)
        seated_round(client, event_id, headers, "Ann", "Cy")
        before = event_of(client, event_id)
    with TestClient(create_app(url, settings=FAST, password_hasher=CHEAP)) as client:
        after = event_of(client, event_id)
        assert after["teams"] == before["teams"]
        assert after["rounds"][0]["tables"][0]["table_id"]
        assert after["standings"] == before["standings"]
        table = after["rounds"][0]["tables"][0]
        assert table["status"] == "running"
        ann = signed_in(client, "Ann")
        where = client.post(f"/api/events/{event_id}/whoami", json={}, headers=ann).json()
        assert where["seat"]["table_id"] == table["table_id"]
        assert seat_token(client, event_id, "Ann"), "the seat is still Ann's account's to take"
        team = next(t for t in table["teams"] if t != "T1")
        response = client.post(
            f"/api/events/{event_id}/rounds/1/tables/1/forfeit", json={"team": team}, headers=headers
        )
        assert response.status_code == 200
        event = wait_for(client, event_id, round_done(1))
        assert event["rounds"][0]["tables"][0]["result"]["kind"] == "forfeit"
        assert (
            client.post(f"/api/events/{event_id}/rounds", json={"start": True}, headers=headers).status_code
            == 201
        )
