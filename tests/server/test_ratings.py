"""Players' ratings in the card room: every match played to its end at a rated table is rated once,
people as their accounts (names case-insensitively), bots under their seat names; a guest's table and a
casual one are not rated; the leaderboard and the player API (issue 25: ratings only for accounts)."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

from fastapi.testclient import TestClient

from cardroom.bots import make_bot
from cardroom.guandan.deal import Action
from cardroom.guandan.observation import Observation
from cardroom.server.app import create_app
from cardroom.server.config import SeatConfig, TableConfig
from cardroom.server.ratings import MODEL, Ratings, ordinal, rate_table
from cardroom.server.store import PlayerRow, Store
from cardroom.server.table import Table
from tests.server.conftest import FAST, create_table, signed_in


def play_out(table: Table) -> Table:
    """Play a table of bots to its end, with time passed in (no server)."""
    bots: dict[int, Any] = {}

    def decide(seat: int, name: str, observation: Observation) -> Action:
        bot = bots.setdefault(seat, make_bot(name, seat))
        action: Action = bot.act(observation)
        return action

    now = 1000.0
    table.start_if_ready(now)
    while table.status != "finished":
        now += 1.0
        table.step(now, decide)
    return table


def bot_table(names: list[str], max_deals: int = 1, table_id: str = "t1", *, rated: bool = True) -> Table:
    seats = tuple(SeatConfig("bot", "random", name) for name in names)
    config = TableConfig(
        name="rated", max_deals=max_deals, seats=(seats[0], seats[1], seats[2], seats[3]), rated=rated
    )
    return Table(table_id, config, seed="ratings")


def people_table(accounts: list[str | None], *, rated: bool = True) -> Table:
    """A table of four people (``None``: a guest), played out by the 托管 bot at each seat."""
    config = TableConfig(name="people", max_deals=1, rated=rated)
    table = Table("people", config, seed="ratings")
    for seat, account in enumerate(accounts):
        table.sit_hashed(seat, account or f"Guest{seat}", 0.0, f"hash{seat}", account)
    table.auto = [True] * 4
    return table


def finished(client: TestClient, table_id: str) -> None:
    deadline = time.monotonic() + 20
    while client.get(f"/api/tables/{table_id}").json()["status"] != "finished":
        assert time.monotonic() < deadline, "the bots did not finish"
        time.sleep(0.05)


def test_a_rated_bot_table_rates_each_name_once(client: TestClient) -> None:
    seats = [{"kind": "bot", "bot": "heuristic"}, {"kind": "bot", "bot": "random"}] * 2
    table = create_table(client, seats=seats, max_deals=1, rated=True)
    finished(client, table["id"])
    board = client.get("/api/leaderboard").json()
    assert board["by"] == "rating"
    rows = {row["name"]: row for row in board["players"]}
    assert set(rows) == {"heuristic bot", "random bot"}  # two seats each, one player each
    assert {row["kind"] for row in rows.values()} == {"bot"}
    assert [row["rank"] for row in board["players"]] == [1, 2]
    winner, loser = board["players"]
    assert winner["matches"] == loser["matches"] == 1
    assert (winner["wins"], loser["losses"]) == (1, 1)
    assert winner["mu"] > MODEL.mu > loser["mu"]
    assert winner["rating"] > loser["rating"]
    assert winner["points"] > 0 >= loser["points"]
    assert loser["title"] == "笨蛋"
    page = client.get("/api/players/HEURISTIC%20Bot").json()  # names are case-insensitive
    assert page["name"] == "heuristic bot"
    assert page["rank"] == rows["heuristic bot"]["rank"]
    (recent,) = page["recent"]
    assert recent["table_id"] == table["id"]
    assert recent["record"] == f"/api/tables/{table['id']}/record"
    assert recent["table"] == f"/tables/{table['id']}"
    assert recent["partner"] == "heuristic bot"
    assert recent["opponents"] == ["random bot", "random bot"]
    assert recent["event"] is None
    assert recent["result"] in ("won", "lost")
    assert recent["reason"] == "deal_limit"
    assert client.get(recent["record"]).status_code == 200
    assert client.get("/api/players/nobody").status_code == 404
    by_points = client.get("/api/leaderboard?by=points&limit=1").json()["players"]
    assert len(by_points) == 1
    assert by_points[0]["points"] == max(row["points"] for row in rows.values())
    assert client.get("/api/leaderboard?by=luck").status_code == 400
    assert client.get("/api/leaderboard?limit=0").status_code == 400
    assert client.get("/api/leaderboard?min_matches=2").json()["players"] == []


def test_partners_move_together_and_a_name_on_both_teams_does_not_move() -> None:
    table = play_out(bot_table(["Ann", "Bo", "ann", "X"]))  # Ann at 0 and 2; X alone
    rated = rate_table(table, {}, table_time())
    assert rated is not None
    assert {row.key for row in rated.players} == {"bot:ann", "bot:bo", "bot:x"}
    ann = next(row for row in rated.players if row.key == "bot:ann")
    assert ann.name == "Ann"
    assert ann.matches == 1
    both = play_out(bot_table(["Ann", "Bo", "bo", "Cy"], table_id="t2"))  # Bo on both teams
    again = rate_table(both, {row.key: row for row in rated.players}, table_time())
    assert again is not None
    assert "bot:bo" not in {row.key for row in again.players}
    cy = next(row for row in again.players if row.key == "bot:cy")
    ann_after = next(row for row in again.players if row.key == "bot:ann")
    assert ann_after.matches == 2
    assert cy.matches == 1
    assert (ann_after.mu > ann.mu) != (cy.mu > MODEL.mu)  # opponents move opposite ways


def table_time() -> Any:
    from datetime import UTC, datetime

    return datetime(2025, 12, 1, tzinfo=UTC)


def test_a_table_is_rated_once_and_catch_up_rates_what_was_missed(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path}/ratings.sqlite3"
    table = play_out(bot_table(["Ann", "Bo", "Cy", "Di"]))
    with Store(url) as store:
        store.create_table(table.id, table.config.to_dict(), table_time())
        for number, entry in enumerate(table.log, start=1):
            store.append(table.id, number, entry)
        store.set_status(table.id, "finished")
        assert store.unrated_tables() == [table.id]
        ratings = Ratings(store)
        assert ratings.catch_up() == 1
        assert store.unrated_tables() == []
        assert not ratings.rate(table)  # rated already: nothing changes
        assert ratings.catch_up() == 0
        players = {row.key: row for row in store.players()}
        assert set(players) == {"bot:ann", "bot:bo", "bot:cy", "bot:di"}
        assert all(row.matches == 1 for row in players.values())
        assert len(store.player_matches("bot:ann")) == 1
        board = ratings.leaderboard()
        assert [row["rating"] for row in board] == sorted((row["rating"] for row in board), reverse=True)


def test_ratings_survive_a_restart(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path}/room.sqlite3"
    seats = [{"kind": "bot", "bot": "random"}, {"kind": "bot", "bot": "heuristic"}] * 2
    with TestClient(create_app(url, settings=FAST)) as client:
        finished(client, create_table(client, seats=seats, max_deals=1, rated=True)["id"])
        before = client.get("/api/leaderboard").json()
    with TestClient(create_app(url, settings=FAST)) as client:
        assert client.get("/api/leaderboard").json() == before
        assert len(client.get("/api/players/random bot").json()["recent"]) == 1


def test_ordinal_of_a_new_player_is_zero() -> None:
    row = PlayerRow("new", "New", MODEL.mu, MODEL.sigma)
    assert abs(ordinal(row)) < 1e-9


def test_people_are_rated_as_their_accounts_and_only_at_a_rated_table() -> None:
    """Ratings only for accounts (issue 25): a rated table of accounts is rated under their keys; a
    casual table, or a rated one with a guest at it, is not rated at all."""
    rated = rate_table(play_out(people_table(["ann", "bo", "cy", "di"])), {}, table_time())
    assert rated is not None
    assert {(row.key, row.kind) for row in rated.players} == {
        ("ann", "account"),
        ("bo", "account"),
        ("cy", "account"),
        ("di", "account"),
    }
    casual = play_out(people_table(["ann", "bo", "cy", "di"], rated=False))
    assert casual.status == "finished"
    assert rate_table(casual, {}, table_time()) is None
    with_guest = play_out(people_table(["ann", None, "cy", "di"]))
    assert with_guest.status == "finished"
    assert rate_table(with_guest, {}, table_time()) is None


def test_a_casual_table_is_not_rated_and_the_leaderboard_lists_no_guests(client: TestClient) -> None:
    seats = [{"kind": "bot", "bot": "heuristic"}, {"kind": "bot", "bot": "random"}] * 2
    finished(client, create_table(client, seats=seats, max_deals=1)["id"])
    assert client.get("/api/leaderboard").json()["players"] == []
    store: Store = client.app.state.rooms.store  # type: ignore[attr-defined]
    table = create_table(client, seats=seats, max_deals=1, rated=True)
    finished(client, table["id"])
    # a player rated before accounts existed (the migration marks such rows "guest")
    store.create_table("legacy", {}, table_time())
    store.save_rating("legacy", [PlayerRow("zed", "Zed", MODEL.mu, MODEL.sigma, matches=3, kind="guest")], ())
    names = {row["name"] for row in client.get("/api/leaderboard").json()["players"]}
    assert names == {"heuristic bot", "random bot"}
    assert client.get("/api/players/Zed").json()["kind"] == "guest"
    # Zed opens an account: the guest's history moves aside, the account starts its own rating
    signed_in(client, "Zed")
    assert client.get("/api/players/Zed").status_code == 404
    aside = client.get("/api/players/guest:zed").json()
    assert (aside["name"], aside["matches"], aside["kind"]) == ("Zed", 3, "guest")
