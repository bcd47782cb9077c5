"""The director's day through the API (docs/tournaments.md, "Running an event in the card room"): the
pairings published, then the round started; arrivals and lateness by the rules
(docs/rules/competition.md#late) under a scripted clock; penalties by hand; results entered and
corrected within the window or by override; withdrawals, late entries, appeals; editing and deleting
an event not started; the errors a bad request gets."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from cardroom.guandan.rulings import foul_places
from cardroom.server.api.app import create_app
from cardroom.server.events.director import Director
from cardroom.server.tables.guandan import Table
from cardroom.tournament.conduct import Offence, Penalty
from tests.server.conftest import CHEAP, FAST, guandan_table_of, signed_in
from tests.server.events.test_events import (
    LONG,
    bot_event,
    bots,
    event_of,
    make_event,
    register,
    round_done,
    wait_for,
)

Json = dict[str, Any]
START = 1_750_000_000.0
"""The scripted clock's first reading (seconds since the epoch)."""


class ScriptedClock:
    """The events' clock, moved by the test."""

    def __init__(self) -> None:
        self.now = START

    def __call__(self) -> float:
        return self.now

    def at(self, minutes: int, seconds: int = 0) -> None:
        """Set the clock to ``minutes:seconds`` after :data:`START`."""
        self.now = START + minutes * 60 + seconds


@pytest.fixture
def clock() -> ScriptedClock:
    return ScriptedClock()


@pytest.fixture
def day(tmp_path: Path, clock: ScriptedClock) -> Iterator[TestClient]:
    app = create_app(
        f"sqlite:///{tmp_path}/cardroom.sqlite3", settings=FAST, password_hasher=CHEAP, event_clock=clock
    )
    with TestClient(app) as test_client:
        yield test_client


def tick(client: TestClient) -> None:
    """What the server does every second: start rounds due, judge lateness (on the app's loop)."""
    portal = client.portal
    assert portal is not None
    director: Director = client.app.state.director  # type: ignore[attr-defined]

    async def tick_now() -> None:
        director.tick()

    portal.call(tick_now)


def arrive(client: TestClient, event_id: str, name: str) -> Json:
    answer = client.post(f"/api/events/{event_id}/arrive", json={}, headers=signed_in(client, name))
    assert answer.status_code == 200, answer.text
    result: Json = answer.json()
    return result


def people_event(client: TestClient, teams: int) -> tuple[str, dict[str, str], list[tuple[str, str]]]:
    """An event of ``teams`` teams of people (slow clocks), started (lots drawn)."""
    event_id, headers = make_event(client, conduct={"clocks": LONG}, rounds=2, system="swiss")
    names = [(f"A{number}", f"B{number}") for number in range(1, teams + 1)]
    for number, (first, second) in enumerate(names, 1):
        register(client, event_id, headers, f"队{number}", {"name": first}, {"name": second})
    assert client.post(f"/api/events/{event_id}/start", json={}, headers=headers).status_code == 200
    return event_id, headers, names


def players_of(event: Json, team_id: str) -> list[str]:
    team = next(team for team in event["teams"] if team["id"] == team_id)
    return [player["name"] for player in team["players"]]


def test_a_late_side_is_warned_then_fouled_then_forfeits_by_the_clock(
    day: TestClient, clock: ScriptedClock
) -> None:
    """docs/rules/competition.md#late: up to 5 minutes a warning, up to 10 a foul, over 10 a forfeit."""
    event_id, headers, _names = people_event(day, 6)
    published = day.post(f"/api/events/{event_id}/rounds", json={}, headers=headers)
    assert published.status_code == 201, published.text
    event = published.json()
    tables = event["rounds"][0]["tables"]
    assert [table["table_id"] for table in tables] == [None, None, None]
    assert event["rounds"][0]["started_at"] is None
    on_time = [table["teams"][0] for table in tables]
    late = [table["teams"][1] for table in tables]
    for team in on_time:
        for name in players_of(event, team):
            arrive(day, event_id, name)
    assert day.post(f"/api/events/{event_id}/rounds/1/start").status_code == 403
    started = day.post(f"/api/events/{event_id}/rounds/1/start", headers=headers)
    assert started.status_code == 200, started.text
    assert started.json()["rounds"][0]["started_at"].startswith("2025-06-15T15:06:40")
    again = day.post(f"/api/events/{event_id}/rounds/1/start", headers=headers)
    assert again.status_code == 409
    for table in started.json()["rounds"][0]["tables"]:
        assert table["status"] == "waiting"  # no move clock before the table is complete
    # table 1's late side sits at 3:00 (a warning), table 2's at 7:00 (a foul), table 3's never
    clock.at(3)
    for name in players_of(event, late[0]):
        arrive(day, event_id, name)
    clock.at(7)
    for name in players_of(event, late[1]):
        arrive(day, event_id, name)
    clock.at(10)
    tick(day)
    now = event_of(day, event_id)["rounds"][0]["tables"]
    assert now[0]["status"] == "running"
    assert now[1]["status"] == "running"
    assert [(p["label"], p["team"], p["reason"]) for p in now[0]["director_penalties"]] == [
        ("警告", late[0], "迟到3分00秒")
    ]
    assert [(p["label"], p["team"], p["reason"]) for p in now[1]["director_penalties"]] == [
        ("犯规", late[1], "迟到7分00秒")
    ]
    assert now[0]["director_penalties"][0]["by"] == ""  # the lateness rule's, not the arriving player's
    # the late warning and foul count with each table's own penalties (docs/rules/competition.md#penalties)
    told = [guandan_table_of(day, now[i]["table_id"]).penalties for i in (0, 1)]
    assert [[(r.penalty, r.offence, r.side) for r in penalties] for penalties in told] == [
        [(Penalty.WARNING, Offence.LATE, 1)],
        [(Penalty.FOUL, Offence.LATE, 1)],
    ]
    assert now[2]["director_penalties"] == []  # 10:00 late is still a foul, not yet final
    assert now[2]["result"] is None
    assert now[2]["lateness"][1] == {
        "seated": False,
        "late_s": 600.0,
        "late_text": "迟到10分00秒",
        "penalty": "FOUL",
        "final": False,
    }
    clock.at(10, 1)
    tick(day)
    table3 = event_of(day, event_id)["rounds"][0]["tables"][2]
    assert [(p["label"], p["team"], p["reason"]) for p in table3["director_penalties"]] == [
        ("弃权", late[2], "迟到10分01秒仍未入座")  # docs/rules/competition.md#late: 按弃权处理
    ]
    assert table3["result"]["kind"] == "forfeit"
    assert table3["result"]["forfeited_by"] == 1
    assert table3["table_id"] is None  # its waiting table is closed
    sheet = day.get(f"/api/events/{event_id}/rounds/1/tables/3/sheet").json()
    assert sheet["result"]["kind"] == "forfeit"
    assert sheet["director_penalties"][0]["label"] == "弃权"
    printout = day.get(f"/events/{event_id}/print").text
    assert "迟到10分01秒仍未入座" in printout
    assert "迟到3分00秒" in printout


def test_a_round_starts_by_itself_at_its_time(day: TestClient, clock: ScriptedClock) -> None:
    event_id, headers, _names = people_event(day, 2)
    bad = day.post(f"/api/events/{event_id}/rounds", json={"start_at": "9am"}, headers=headers)
    assert bad.status_code == 400
    assert "start_at" in bad.json()["detail"]
    at = "2025-06-15T15:16:40+00:00"  # START + 10 minutes
    published = day.post(f"/api/events/{event_id}/rounds", json={"start_at": at}, headers=headers).json()
    assert published["rounds"][0]["start_at"] == at
    clock.at(9, 59)
    tick(day)
    assert event_of(day, event_id)["rounds"][0]["started_at"] is None
    clock.at(10)
    tick(day)
    event = event_of(day, event_id)
    assert event["rounds"][0]["started_at"] == at
    assert event["rounds"][0]["start_at"] is None
    assert event["rounds"][0]["tables"][0]["status"] == "waiting"


def test_an_event_table_seat_is_its_player_and_a_director_marks_arrivals(
    day: TestClient, clock: ScriptedClock
) -> None:
    event_id, headers, _names = people_event(day, 2)
    event = day.post(f"/api/events/{event_id}/rounds", json={"start": True}, headers=headers).json()
    table = event["rounds"][0]["tables"][0]
    url = f"/api/events/{event_id}/rounds/1/tables/1/arrivals"
    for body, status in (({"seat": 4}, 400), ({"seat": "0"}, 400)):
        answer = day.post(url, json=body, headers=headers)
        assert answer.status_code == status, answer.text
    assert day.post(url, json={"seat": 0}).status_code == 403
    clock.at(1)
    for seat in range(4):
        assert day.post(url, json={"seat": seat}, headers=headers).status_code == 200
    assert day.post(url, json={"seat": 0}, headers=headers).status_code == 409
    lobby = day.get(f"/api/tables/{table['table_id']}").json()
    assert lobby["status"] == "running"  # every seat taken: the match and its clocks start
    event = event_of(day, event_id)
    warnings = [(p["label"], p["team"]) for p in event["rounds"][0]["tables"][0]["director_penalties"]]
    # both sides seated at the same moment a minute late: each is warned by its own time
    assert sorted(warnings) == sorted([("警告", team) for team in table["teams"]])


def test_penalties_results_corrections_withdrawals_and_appeals(day: TestClient, clock: ScriptedClock) -> None:
    event_id, headers = bot_event(day, teams=4, rounds=3, system="swiss")
    day.post(f"/api/events/{event_id}/rounds", json={"start": True}, headers=headers)
    event = wait_for(day, event_id, round_done(1))
    table = event["rounds"][0]["tables"][0]
    url = f"/api/events/{event_id}/rounds/1/tables/1"
    player = table["seats"][1]["player"]
    # a penalty by hand: a player at the table, a reason; 判负 asks for confirmation
    for body, status, says in (
        ({"player": player, "penalty": "WARNING"}, 400, "reason"),
        ({"player": "Nobody", "penalty": "WARNING", "reason": "x"}, 400, "players at table 1"),
        ({"player": player, "penalty": "SCOLD", "reason": "x"}, 400, "penalty"),
        ({"player": player, "penalty": "FORFEIT", "reason": "x"}, 400, "confirm"),
        ({"player": player, "penalty": "WARNING", "reason": "x", "extra": 1}, 400, "unknown"),
    ):
        answer = day.post(f"{url}/penalties", json=body, headers=headers)
        assert answer.status_code == status, answer.text
        assert says in answer.json()["detail"]
    assert (
        day.post(f"{url}/penalties", json={"player": player, "penalty": "WARNING", "reason": "x"}).status_code
        == 403
    )
    assert (
        day.post(f"/api/events/{event_id}/rounds/1/tables/9/penalties", json={}, headers=headers).status_code
        == 404
    )
    given = day.post(
        f"{url}/penalties", json={"player": player, "penalty": "警告", "reason": "交流暗号"}, headers=headers
    )
    assert given.status_code == 201, given.text
    (entry,) = given.json()["rounds"][0]["tables"][0]["director_penalties"]
    assert (entry["player"], entry["seat"], entry["label"], entry["reason"], entry["by"]) == (
        player,
        1,
        "警告",
        "交流暗号",
        "director token",
    )
    assert day.get(f"{url}/sheet").json()["director_penalties"][0]["reason"] == "交流暗号"
    assert "交流暗号" in day.get(f"/events/{event_id}/print").text
    # a correction: within 10 minutes of the round's end with a reason; later only by override
    for body, status, says in (
        ({"levels": ["10", "6"], "deals": 1}, 400, "reason"),
        ({"levels": ["10"], "deals": 1, "reason": "r"}, 400, "levels"),
        ({"levels": ["Z", "6"], "deals": 1, "reason": "r"}, 400, "levels[0]"),
        ({"levels": ["10", "6"], "reason": "r"}, 400, "deals"),
        ({"levels": ["10", "6"], "deals": 1, "forfeit": "T1", "reason": "r"}, 400, "levels"),
        ({"forfeit": "T99", "reason": "r"}, 400, "teams at table 1"),
    ):
        answer = day.post(f"{url}/result", json=body, headers=headers)
        assert answer.status_code == status, answer.text
        assert says in answer.json()["detail"]
    clock.at(5)
    fixed = day.post(
        f"{url}/result", json={"levels": ["10", "6"], "deals": 1, "reason": "记错"}, headers=headers
    )
    assert fixed.status_code == 200, fixed.text
    changes = fixed.json()["rounds"][0]["tables"][0]["changes"]
    assert changes[-1]["correction"] is True
    assert changes[-1]["result"]["level_names"] == ["10", "6"]
    assert (changes[-1]["reason"], changes[-1]["override"]) == ("记错", False)
    clock.at(11)
    late = day.post(
        f"{url}/result", json={"levels": ["A", "6"], "deals": 1, "reason": "again"}, headers=headers
    )
    assert late.status_code == 409
    assert "correction window" in late.json()["detail"]
    overridden = day.post(
        f"{url}/result",
        json={"levels": ["A", "6"], "deals": 1, "reason": "again", "override": "裁判长认定"},
        headers=headers,
    )
    assert overridden.status_code == 200, overridden.text
    last = overridden.json()["rounds"][0]["tables"][0]["changes"][-1]
    assert last["override"] is True
    assert "裁判长认定" in last["reason"]
    # an appeal against the table's result and its ruling
    team = table["teams"][1]
    assert (
        day.post(
            f"/api/events/{event_id}/appeals", json={"round": 1, "table": 1, "team": team}, headers=headers
        ).status_code
        == 400
    )
    filed = day.post(
        f"/api/events/{event_id}/appeals",
        json={"round": 1, "table": 1, "team": team, "text": "升级数有误"},
        headers=headers,
    )
    assert filed.status_code == 201, filed.text
    ruled = day.post(
        f"/api/events/{event_id}/appeals/1/ruling",
        json={"ruling": "维持原判", "upheld": False, "by": "仲裁委员会"},
        headers=headers,
    )
    assert ruled.status_code == 200, ruled.text
    (appeal,) = ruled.json()["appeals"]
    assert (appeal["ruling"], appeal["upheld"], appeal["ruled_by"]) == ("维持原判", False, "仲裁委员会")
    assert (
        day.post(
            f"/api/events/{event_id}/appeals/1/ruling", json={"ruling": "x", "upheld": True}, headers=headers
        ).status_code
        == 409
    )
    assert (
        day.post(
            f"/api/events/{event_id}/appeals/7/ruling", json={"ruling": "x", "upheld": True}, headers=headers
        ).status_code
        == 404
    )
    # a withdrawal: its reason is required; the next round leaves the team out
    out = event["teams"][0]["id"]
    assert (
        day.post(f"/api/events/{event_id}/teams/{out}/withdraw", json={}, headers=headers).status_code == 400
    )
    assert (
        day.post(
            f"/api/events/{event_id}/teams/T99/withdraw", json={"reason": "x"}, headers=headers
        ).status_code
        == 404
    )
    gone = day.post(f"/api/events/{event_id}/teams/{out}/withdraw", json={"reason": "生病"}, headers=headers)
    assert gone.status_code == 200, gone.text
    assert gone.json()["withdrawals"][0]["team"] == out
    again = day.post(f"/api/events/{event_id}/teams/{out}/withdraw", json={"reason": "生病"}, headers=headers)
    assert again.status_code == 409
    # a late entry joins before round 2 is paired
    late_team = register(day, event_id, headers, "迟到队", *bots("Late1", "Late2"))["team"]
    round2 = day.post(f"/api/events/{event_id}/rounds", json={"start": True}, headers=headers).json()[
        "rounds"
    ][1]
    teams = {team for table in round2["tables"] for team in table["teams"]} | {round2["bye"]}
    assert out not in teams
    assert late_team["id"] in teams
    printout = day.get(f"/events/{event_id}/print").text
    assert "生病" in printout
    assert "维持原判" in printout


def test_an_event_not_started_is_edited_and_deleted(day: TestClient) -> None:
    event_id, headers = make_event(day, rounds=3, system="swiss")
    edited = day.patch(f"/api/events/{event_id}", json={"name": "改名杯", "rounds": 4}, headers=headers)
    assert edited.status_code == 200, edited.text
    assert (edited.json()["name"], edited.json()["config"]["rounds"]) == ("改名杯", 4)
    assert edited.json()["config"]["system"] == "swiss"
    bad = day.patch(f"/api/events/{event_id}", json={"rounds": 0}, headers=headers)
    assert bad.status_code == 400
    assert "rounds" in bad.json()["detail"]
    assert day.patch(f"/api/events/{event_id}", json={"name": "x"}).status_code == 403
    assert day.delete(f"/api/events/{event_id}").status_code == 403
    assert day.delete(f"/api/events/{event_id}", headers=headers).status_code == 200
    assert day.get(f"/api/events/{event_id}").status_code == 404
    started, headers = bot_event(day, teams=2)
    assert day.patch(f"/api/events/{started}", json={"name": "x"}, headers=headers).status_code == 409
    assert day.delete(f"/api/events/{started}", headers=headers).status_code == 409


def test_rule_an_event_chooses_the_table_of_its_level_difference(day: TestClient) -> None:
    """competition.md#tie-breaks (*Reading*): ``level_table`` 26 (the default) or 28, chosen when the
    event is created or edited before it starts; the standings and their CSV count and name it."""
    event_id, headers = make_event(day)
    assert event_of(day, event_id)["config"]["level_table"] == 26
    edited = day.patch(f"/api/events/{event_id}", json={"level_table": 28}, headers=headers)
    assert edited.status_code == 200, edited.text
    assert edited.json()["config"]["level_table"] == 28
    bad = day.patch(f"/api/events/{event_id}", json={"level_table": 27}, headers=headers)
    assert bad.status_code == 400
    assert "level_table: the table of the level difference (级差分), 26" in bad.json()["detail"]
    director = signed_in(day, "Director", director=True)
    refused = day.post("/api/events", json={"name": "x", "level_table": "28"}, headers=director)
    assert refused.status_code == 400
    assert "level_table" in refused.json()["detail"]
    started, started_headers = bot_event(day, teams=2, level_table=28)
    paired = day.post(f"/api/events/{started}/rounds", json={"start": True}, headers=started_headers)
    assert paired.status_code == 201, paired.text
    event = wait_for(day, started, round_done(1))
    result = event["rounds"][0]["tables"][0]["result"]
    first, second = event["rounds"][0]["tables"][0]["teams"]
    by_team = {row["team"]: row for row in event["standings"]}
    assert by_team[first]["level_difference"] == result["score28"][0]
    assert by_team[second]["level_difference"] == result["score28"][1]
    assert {row["level_table"] for row in event["standings"]} == {28}
    csv_text = day.get(f"/api/events/{started}/standings.csv").text.lstrip("\ufeff")
    assert csv_text.splitlines()[0].endswith(",level_table")
    assert all(line.endswith(",28") for line in csv_text.splitlines()[1:])


def test_rule_a_side_fouled_for_lateness_loses_the_first_deal_at_its_table(
    day: TestClient, clock: ScriptedClock
) -> None:
    """docs/rules/competition.md#late and #foul: a side seated 5:01 late is judged a foul, and its table's
    first deal ends as that foul: the late side's 双下, the other side at 5, no tribute next deal (its
    leader named by the offender's 下家); the table, the sheet and the printout show why."""
    event_id, headers, _names = people_event(day, 2)
    event = day.post(f"/api/events/{event_id}/rounds", json={}, headers=headers).json()
    (table,) = event["rounds"][0]["tables"]
    on_time, late = table["teams"]
    for name in players_of(event, on_time):
        arrive(day, event_id, name)
    assert day.post(f"/api/events/{event_id}/rounds/1/start", headers=headers).status_code == 200
    clock.at(5, 1)
    first, second = players_of(event, late)
    arrive(day, event_id, first)
    clock.at(5, 2)
    arrive(day, event_id, second)  # the side is seated now: 5:02 late, a foul
    now = event_of(day, event_id)["rounds"][0]["tables"][0]
    assert [(p["label"], p["team"], p["reason"]) for p in now["director_penalties"]] == [
        ("犯规", late, "迟到5分02秒")
    ]
    director: Director = day.app.state.director  # type: ignore[attr-defined]
    room = director.rooms.get(now["table_id"])
    assert room is not None
    played = room.table
    assert isinstance(played, Table)
    assert played.status == "running"
    offender = 3  # the late side's player seated last (seats 1 and 3: the second player, seat 3)
    (summary,) = played.match.summaries
    assert summary.result.foul_by == offender
    assert summary.result.places == foul_places(offender)
    assert played.match.level_values() == (5, 2)
    assert played.match.needs_named_leader, "no tribute next deal: its leader is named"
    assert played.view(0, clock.now)["last_deal"]["foul"] == {"seat": offender, "side": 1, "offence": "late"}
    assert played.view(0, clock.now)["choice"]["kind"] == "leader", "the offender's 下家 names the leader"
    sheet = wait_for(day, event_id, lambda e: e["rounds"][0]["tables"][0]["levels"] == ["5", "2"])["rounds"][
        0
    ]["tables"][0]
    assert sheet["deal_number"] == 1
    answer = day.get(f"/api/events/{event_id}/rounds/1/tables/1/sheet").json()
    assert answer["lines"][0]["note"] == f"犯规 seat {offender}"
    assert answer["penalties"] == [], "the foul is the event's (director_penalties), listed once"
    assert [p["label"] for p in answer["director_penalties"]] == ["犯规"]
    printout = day.get(f"/events/{event_id}/print/sheets").text
    assert "迟到5分02秒" in printout
    assert '犯规 <span class="en">foul</span> (东西 <span class="en">E/W</span> 迟到' in printout, (
        "deal 1 filled"
    )
    # the table does not take the foul twice (a later commit of the table)
    director._rule_late_fouls(director.get(event_id), (1, 1))
    assert len(played.match.summaries) == 1


def test_rule_penalties_a_penalty_escalating_to_forfeit_is_confirmed_and_a_forfeit_stands(
    day: TestClient,
) -> None:
    """penalties, forfeit (docs/rules/competition.md#penalties, #forfeit): a 犯规 by hand that makes a
    side's second foul escalates to 判负, so it asks for the confirmation a 判负 asks for; once the table
    is decided by a forfeit, no penalty rewrites its result."""
    event_id, headers = bot_event(day, teams=4, rounds=3, system="swiss")
    day.post(f"/api/events/{event_id}/rounds", json={"start": True}, headers=headers)
    event = wait_for(day, event_id, round_done(1))
    table = event["rounds"][0]["tables"][1]
    played = table["result"]
    url = f"/api/events/{event_id}/rounds/1/tables/2/penalties"
    east, west = table["seats"][1]["player"], table["seats"][3]["player"]
    first = day.post(url, json={"player": east, "penalty": "FOUL", "reason": "信号"}, headers=headers)
    assert first.status_code == 201, first.text
    second = {"player": west, "penalty": "FOUL", "reason": "骂人"}
    refused = day.post(url, json=second, headers=headers)
    assert refused.status_code == 400, refused.text
    answer = refused.json()
    assert (answer["reason"], answer["args"]["penalty"]) == ("confirm_escalated_forfeit", "犯规")
    assert "escalates to 判负" in refused.json()["detail"]
    assert event_of(day, event_id)["rounds"][0]["tables"][1]["result"] == played
    given = day.post(url, json={**second, "confirm": True}, headers=headers)
    assert given.status_code == 201, given.text
    forfeit = given.json()["rounds"][0]["tables"][1]["result"]
    assert forfeit["forfeited_by"] == 1
    for body in (second, {**second, "confirm": True}, {**second, "penalty": "FORFEIT", "confirm": True}):
        again = day.post(url, json=body, headers=headers)
        assert again.status_code == 409, again.text
        assert again.json()["reason"] == "decided_by_forfeit"
    assert event_of(day, event_id)["rounds"][0]["tables"][1]["result"] == forfeit


def test_a_start_time_in_the_past_is_refused_unless_a_moment_ago(
    day: TestClient, clock: ScriptedClock
) -> None:
    """A round's "Starts at" more than a minute ago is refused, naming the time and now, and publishes
    nothing; a time a moment ago (a form just filled) starts the round now."""
    event_id, headers, _names = people_event(day, 2)
    clock.at(5)
    url = f"/api/events/{event_id}/rounds"
    past = day.post(url, json={"start_at": "2025-06-15T15:06:40+00:00"}, headers=headers)  # START, 5 min ago
    assert past.status_code == 400, past.text
    assert past.json()["reason"] == "start_at_past"
    assert past.json()["args"]["now"] == "2025-06-15T15:11:40+00:00"
    assert event_of(day, event_id)["rounds"] == [], "nothing is published"
    moment = day.post(url, json={"start_at": "2025-06-15T15:11:00+00:00"}, headers=headers)
    assert moment.status_code == 201, moment.text
    assert moment.json()["rounds"][0]["started_at"].startswith("2025-06-15T15:11:40")
