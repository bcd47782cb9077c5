"""The event's results and standings as CSV."""

from __future__ import annotations

import csv

from cardroom.tournament import EventConfig, PairingSystem, TableResult, results_csv, standings_csv
from cardroom.tournament.export import RESULT_COLUMNS, STANDING_COLUMNS
from tests.tournament.helpers import event_of


def parse(text: str) -> list[dict[str, str]]:
    return list(csv.DictReader(text.lstrip("\ufeff").splitlines()))


def test_results_csv_with_bye_and_pending() -> None:
    """Five teams, round robin: each round two tables and a bye; one table still pending."""
    event = event_of(5, EventConfig("春季赛", system=PairingSystem.ROUND_ROBIN)).pair_next_round()
    first, second = event.round(1).pairings
    event = event.record(1, first.table, TableResult.played((15, 12), 14))
    text = results_csv(event)
    assert text.splitlines()[0] == ",".join(RESULT_COLUMNS)
    assert text.endswith("\r\n")
    rows = parse(text)
    assert len(rows) == 3
    played, pending, bye = rows
    assert (played["team_02"], played["team_13"], played["winner"]) == (*first.teams, first.teams[0])
    assert (played["level_02"], played["level_13"], played["score28_02"], played["score26_13"]) == (
        "过A",
        "Q",
        "17",
        "10",
    )
    assert played["players_02"] == f"p{first.teams[0][1:]}a / p{first.teams[0][1:]}b"
    assert (pending["table"], pending["kind"], pending["winner"]) == (str(second.table), "pending", "")
    assert (bye["kind"], bye["team_02"], bye["team_13"], bye["round_points_02"]) == (
        "bye",
        event.round(1).draw.bye,
        "",
        "2",
    )


def test_forfeit_row() -> None:
    event = event_of(4, EventConfig(system=PairingSystem.ROUND_ROBIN)).pair_next_round()
    pairing = event.round(1).pairings[0]
    event = event.record_forfeit(1, pairing.table, pairing.teams[1], table_levels=(5, 7), deals=4)
    row = parse(results_csv(event))[0]
    assert (
        row["kind"],
        row["winner"],
        row["level_02"],
        row["level_13"],
        row["score28_02"],
        row["score28_13"],
    ) == (
        "forfeit",
        pairing.teams[0],
        "J",
        "7",
        "17",
        "0",
    )


def test_standings_csv_and_bom() -> None:
    event = event_of(4, EventConfig(system=PairingSystem.ROUND_ROBIN)).pair_next_round()
    for pairing in event.round(1).pairings:
        event = event.record(1, pairing.table, TableResult.played((6, 6), 8))
    text = standings_csv(event, bom=True)
    assert text.startswith("\ufeff" + ",".join(STANDING_COLUMNS))
    rows = parse(text)
    assert [row["rank"] for row in rows] == ["1", "2", "3", "4"]
    assert [row["team"] for row in rows] == list(event.lots), "all drawn: the lots decide"
    assert [row["decided_by"] for row in rows] == ["", "抽签", "抽签", "抽签"]
    assert rows[0]["name"] == event.team(rows[0]["team"]).name


def test_results_csv_names_the_teams_after_the_ids() -> None:
    """The name columns come last: every column before them keeps its place (RESULT_COLUMNS' order)."""
    event = event_of(5, EventConfig("春季赛", system=PairingSystem.ROUND_ROBIN)).pair_next_round()
    first, second = event.round(1).pairings
    event = event.record(1, first.table, TableResult.played((15, 12), 14))
    assert RESULT_COLUMNS[-3:] == ("name_02", "name_13", "winner_name")
    assert RESULT_COLUMNS[:18][-1] == "penalties", "the columns before the names keep their places"
    played, pending, bye = parse(results_csv(event))
    names = [event.team(team).name for team in first.teams]
    assert (played["name_02"], played["name_13"], played["winner_name"]) == (*names, names[0])
    assert names[0].startswith("队"), "names, not ids"
    assert (pending["name_02"], pending["winner_name"]) == (event.team(second.teams[0]).name, "")
    bye_team = event.team(event.round(1).draw.bye or "")
    assert (bye["name_02"], bye["name_13"], bye["winner_name"]) == (bye_team.name, "", bye_team.name)


def test_standings_csv_names_the_players() -> None:
    event = event_of(4, EventConfig(system=PairingSystem.ROUND_ROBIN)).pair_next_round()
    rows = parse(standings_csv(event))
    assert STANDING_COLUMNS[-2:] == ("players", "level_table")
    for row in rows:
        team = event.team(row["team"])
        assert row["players"] == f"{team.players[0].display} / {team.players[1].display}"
