"""Players' ratings in the card room: every match played to its end at a rated table by four
different accounts is rated once, as those accounts; a guest's table, a casual one and one where a
bot plays are not rated; the leaderboard and the player API list accounts only (issue 25: ratings
only for accounts; issue 40: ratings that measure people, docs/accounts.md "What a rating counts")."""

from __future__ import annotations

from collections.abc import Collection
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from fastapi.testclient import TestClient

from cardroom.bots import make_bot
from cardroom.guandan.deal import Action
from cardroom.guandan.observation import Observation
from cardroom.server.accounts.ratings import MODEL, Ratings, ordinal, rate_table
from cardroom.server.api.app import create_app
from cardroom.server.storage.store import PlayerRow, Store
from cardroom.server.tables.config import EventLink, SeatConfig, TableConfig
from cardroom.server.tables.guandan import Table
from tests.server.conftest import CHEAP, FAST, create_table, signed_in

AT = datetime(2025, 12, 1, tzinfo=UTC)


def play_out(table: Table, auto: Collection[int] = ()) -> Table:
    """Play a table to its end with time passed in (no server): people's seats act through
    ``Table.act`` as the heuristic bot would, except the seats in ``auto``, whose clocks run out (托管
    plays them); bots act by themselves."""
    bots: dict[int, Any] = {}

    def decide(seat: int, name: str, observation: Observation) -> Action:
        bot = bots.setdefault(seat, make_bot(name, seat))
        action: Action = bot.act(observation)
        return action

    now = 1000.0
    table.start_if_ready(now)
    while table.status != "finished":
        now += 1.0
        seat = table.current_player
        if (
            seat is not None
            and table.config.seats[seat].kind == "human"
            and seat not in auto
            and not table.auto[seat]
            and not table.waits_for_choice()
        ):
            table.act(seat, table.action_json(decide(seat, "heuristic", table.observation(seat))), now)
        else:
            table.step(now + 3600.0 if seat in auto else now, decide)
    return table


def people_table(
    accounts: list[str | None], *, rated: bool = True, table_id: str = "people", event: bool = False
) -> Table:
    """A table of four people (``None``: a guest), seated, not yet played."""
    link = EventLink("e1", "Cup", 1, 1) if event else None
    config = TableConfig(name="people", max_deals=1, rated=rated and not event, event=link)
    table = Table(table_id, config, seed="ratings")
    for seat, account in enumerate(accounts):
        table.sit_hashed(seat, account.title() if account else f"Guest{seat}", 0.0, f"hash{seat}", account)
    return table


def test_a_rated_table_of_four_accounts_rates_each_once_as_its_account() -> None:
    table = play_out(people_table(["ann", "bo", "cy", "di"]))
    rated = rate_table(table, {}, AT)
    assert rated is not None
    rows = {row.key: row for row in rated.players}
    assert set(rows) == {"ann", "bo", "cy", "di"}
    assert {row.kind for row in rows.values()} == {"account"}
    assert all(row.matches == 1 for row in rows.values())
    winner = table.outcome()["winner"]  # type: ignore[index]
    winners = [key for seat, key in enumerate(["ann", "bo", "cy", "di"]) if seat % 2 == winner]
    losers = sorted(set(rows) - set(winners))
    assert all(rows[key].wins == 1 and rows[key].mu > MODEL.mu for key in winners)
    assert all(rows[key].losses == 1 and rows[key].mu < MODEL.mu for key in losers)
    assert all(rows[key].points > 0 >= rows[other].points for key in winners for other in losers)
    lines = {line.key: line.data for line in rated.lines}
    assert all(line["counted"] and line["withheld"] is None for line in lines.values())
    assert lines["ann"]["opponent_keys"] == ["bo", "di"]
    assert lines["ann"]["auto_decisions"] == 0 < lines["ann"]["decisions"]


def test_a_table_with_a_bot_a_guest_or_one_account_twice_is_not_rated() -> None:
    """Bots do not play rated tables: a rated table from before the rule, or an event's table where a
    bot plays, is not rated at all; nor is a table with a guest, nor a casual one."""
    seats = (SeatConfig(), SeatConfig("bot", "random", "Rex"), SeatConfig(), SeatConfig("bot", "random"))
    with_bots = Table("b", TableConfig(name="b", max_deals=1, seats=seats, rated=True), seed="ratings")
    with_bots.sit_hashed(0, "Ann", 0.0, "h0", "ann")
    with_bots.sit_hashed(2, "Cy", 0.0, "h2", "cy")
    assert rate_table(play_out(with_bots), {}, AT) is None
    for table in (
        people_table(["ann", None, "cy", "di"]),
        people_table(["ann", "bo", "cy", "di"], rated=False),
    ):
        assert play_out(table).status == "finished"
        assert rate_table(table, {}, AT) is None
    assert rate_table(play_out(people_table(["ann", "bo", "cy", "di"], event=True)), {}, AT) is not None
    # a table from before one account was refused a second seat (its log says so)
    twice = Table("t", TableConfig(name="t", max_deals=1, rated=True), seed="ratings")
    for seat, account in enumerate(["ann", "bo", "ann", "di"]):
        sit = {"type": "sit", "seat": seat, "name": account, "token_hash": f"h{seat}", "at": 0.0}
        twice.apply_entry({**sit, "account": account})
    assert rate_table(play_out(twice), {}, AT) is None


def test_a_table_is_rated_once_and_catch_up_rates_what_was_missed(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path}/ratings.sqlite3"
    table = play_out(people_table(["ann", "bo", "cy", "di"]))
    with Store(url) as store:
        store.create_table(table.id, table.config.to_dict(), AT)
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
        assert set(players) == {"ann", "bo", "cy", "di"}
        assert all(row.matches == 1 for row in players.values())
        assert len(store.player_matches("ann")) == 1
        board = ratings.leaderboard()
        assert [row["rating"] for row in board] == sorted((row["rating"] for row in board), reverse=True)


def test_ratings_survive_a_restart_and_the_api_answers_them(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path}/room.sqlite3"
    table = play_out(people_table(["ann", "bo", "cy", "di"], table_id="t1"))
    with Store(url) as store:
        store.create_table(table.id, table.config.to_dict(), AT)
        for number, entry in enumerate(table.log, start=1):
            store.append(table.id, number, entry)
        store.set_status(table.id, "finished")
    with TestClient(create_app(url, settings=FAST, password_hasher=CHEAP)) as client:
        board = client.get("/api/leaderboard").json()  # the server rated it when it started
        assert board["by"] == "rating"
        assert [row["rank"] for row in board["players"]] == [1, 2, 3, 4]
        assert {row["kind"] for row in board["players"]} == {"account"}
        first = board["players"][0]
        assert first["wins"] == 1
        assert first["rating"] > board["players"][-1]["rating"]
        assert first["points"] > 0 >= board["players"][-1]["points"]
        page = client.get("/api/players/ANN").json()  # names are case-insensitive
        assert page["name"] == "Ann"
        (recent,) = page["recent"]
        assert recent["table_id"] == "t1"
        assert recent["record"] == "/api/tables/t1/record"
        assert recent["table"] == "/tables/t1"
        assert (recent["partner"], recent["opponents"]) == ("Cy", ["Bo", "Di"])
        assert (recent["partner_bot"], recent["opponents_bot"]) == (False, [False, False])
        assert recent["event"] is None
        assert recent["reason"] == "deal_limit"
        assert recent["counted"] is True
        assert client.get("/api/players/nobody").status_code == 404
        by_points = client.get("/api/leaderboard?by=points&limit=1").json()["players"]
        assert len(by_points) == 1
        assert by_points[0]["points"] == max(row["points"] for row in board["players"])
        assert client.get("/api/leaderboard?by=luck").status_code == 400
        assert client.get("/api/leaderboard?limit=0").status_code == 400
        assert client.get("/api/leaderboard?min_matches=2").json()["players"] == []
    with TestClient(create_app(url, settings=FAST, password_hasher=CHEAP)) as client:
        assert client.get("/api/leaderboard").json() == board


def test_ordinal_of_a_new_player_is_zero() -> None:
    row = PlayerRow("new", "New", MODEL.mu, MODEL.sigma)
    assert abs(ordinal(row)) < 1e-9


def test_the_leaderboard_lists_accounts_only_never_a_bot_or_a_guest(client: TestClient) -> None:
    """Bots never appear on the leaderboard: a bots' table is casual and rates no one, and the rows of
    bots (and guests) rated before the rules are kept but never listed nor shown."""
    seats = [{"kind": "bot", "bot": "heuristic"}, {"kind": "bot", "bot": "random"}] * 2
    create_table(client, seats=seats, max_deals=1)
    assert client.get("/api/leaderboard").json()["players"] == []
    store: Store = client.app.state.rooms.store  # type: ignore[attr-defined]
    store.create_table("legacy", {}, AT)
    store.save_rating(
        "legacy",
        [
            PlayerRow("zed", "Zed", MODEL.mu, MODEL.sigma, matches=3, kind="guest"),
            PlayerRow("bot:rex", "Rex", MODEL.mu + 5, MODEL.sigma, matches=8, wins=8, kind="bot"),
            PlayerRow("ann", "Ann", MODEL.mu, MODEL.sigma, matches=1, wins=1, kind="account"),
        ],
        (),
    )
    names = {row["name"] for row in client.get("/api/leaderboard").json()["players"]}
    assert names == {"Ann"}
    assert client.get("/api/players/Rex").status_code == 404
    assert client.get("/api/players/bot:rex").status_code == 404
    assert client.get("/api/players/Zed").json()["kind"] == "guest"
    # Zed opens an account: the guest's history moves aside, the account starts its own rating
    signed_in(client, "Zed")
    assert client.get("/api/players/Zed").status_code == 404
    aside = client.get("/api/players/guest:zed").json()
    assert (aside["name"], aside["matches"], aside["kind"], aside["rank"]) == ("Zed", 3, "guest", None)
