"""A whole event through the server: 8 teams of bots, 5 Swiss rounds of 1-deal matches, every round
paired by the director as the last one ends (``auto_advance``), every match played at a card-room
table, results, sheets, standings, CSV and ratings checked at the end."""

from __future__ import annotations

import csv
import io
import itertools
import time
from collections import Counter

from fastapi.testclient import TestClient

from tests.server.events.test_events import bots, event_of, make_event, register

TEAMS = 8
ROUNDS = 5


def test_an_eight_team_five_round_swiss_is_played_by_bots_end_to_end(client: TestClient) -> None:
    started = time.monotonic()
    event_id, headers = make_event(
        client, format={"deals": 1}, rounds=ROUNDS, system="swiss", auto_advance=True
    )
    for number in range(1, TEAMS + 1):
        register(client, event_id, headers, f"队{number}", *bots(f"S{number}a", f"S{number}b"))
    assert client.post(f"/api/events/{event_id}/start", json={}, headers=headers).status_code == 200
    while (event := event_of(client, event_id))["phase"] != "finished":
        assert time.monotonic() - started < 60, (
            f"not finished in a minute: {len(event['rounds'])} rounds paired"
        )
        time.sleep(0.1)

    rounds = event["rounds"]
    assert [played["number"] for played in rounds] == list(range(1, ROUNDS + 1))
    tables = [table for played in rounds for table in played["tables"]]
    assert len(tables) == ROUNDS * TEAMS // 2
    assert all(played["bye"] is None and played["complete"] and played["signed"] for played in rounds)
    for table in tables:
        assert table["status"] == "finished"
        assert table["result"]["kind"] == "played"
        assert table["result"]["deals"] == 1
        assert table["final"]
    # Swiss: no two teams meet twice; every team plays every round; at each table the team with fewer
    # rounds at seats 0 & 2 so far takes them
    met = Counter(tuple(sorted(table["teams"])) for table in tables)
    assert max(met.values()) == 1
    played_by = Counter(team for table in tables for team in table["teams"])
    assert set(played_by.values()) == {ROUNDS}
    balance: Counter[str] = Counter()
    for played in rounds:
        for table in played["tables"]:
            first, second = table["teams"]
            assert balance[first] <= balance[second]
        for table in played["tables"]:
            first, second = table["teams"]
            balance[first] += 1
            balance[second] -= 1
    assert all(abs(balance[team]) <= 3 for team in played_by)
    # the tables were the card room's own, each a distinct finished table with its record
    ids = {table["table_id"] for table in tables}
    assert len(ids) == len(tables)
    finished = {line["id"] for line in client.get("/api/tables?status=finished").json()["tables"]}
    assert ids <= finished
    # standings: every round point accounted for, ranked by points first
    standings = event["standings"]
    assert [row["rank"] for row in standings] == list(range(1, TEAMS + 1))
    assert sum(row["points"] for row in standings) == 2 * len(tables)
    assert [row["points"] for row in standings] == sorted((row["points"] for row in standings), reverse=True)
    assert all(row["wins"] + row["losses"] == ROUNDS for row in standings)
    for upper, lower in itertools.pairwise(standings):
        if upper["points"] == lower["points"]:
            assert upper["progressive"] >= lower["progressive"]
            assert lower["above"] is not None
    results = client.get(f"/api/events/{event_id}/results.csv").content.decode("utf-8-sig")
    rows = list(csv.DictReader(io.StringIO(results)))
    assert len(rows) == len(tables)
    assert {row["kind"] for row in rows} == {"played"}
    table_csv = client.get(f"/api/events/{event_id}/standings.csv").content.decode("utf-8-sig")
    assert [row["team"] for row in csv.DictReader(io.StringIO(table_csv))] == [
        row["team"] for row in standings
    ]
    # bots are not rated: no table of this event counts for a rating
    assert client.get("/api/leaderboard?limit=500").json()["players"] == []
