"""The ladder service (docs/ladder.md, "The ladder in the card room"): how a match's tables are seated,
what an ended table scores, the one rated result, what a restart rebuilds, and which matches it makes."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

from cardroom.ladder import HOUSE, Entrant, LadderMatch, Roster
from cardroom.server.ladder import LadderService, LadderSettings
from cardroom.server.ladder.service import FORFEIT_RISE, pair_configs, seat_entrants, table_gains
from cardroom.server.live.rooms import Rooms
from cardroom.server.live.settings import Settings
from cardroom.server.storage.store import LadderEntrantRow, LadderMatchRow, Store
from cardroom.server.tables.config import BOT_CLOCK, FAULT_LIMIT, TableConfig, TableDefaults
from cardroom.server.tables.guandan import Table
from tests.server.conftest import run_coroutine
from tests.server.tables.test_guandan import play_out

MATCH = LadderMatch(("bot:1#1", "random#1"), ("bot:2#1", "heuristic#1"), 7)
ROSTER = Roster.of(
    [Entrant("bot:1", "ann"), Entrant("bot:2", "bob"), Entrant("random", HOUSE), Entrant("heuristic", HOUSE)]
)


def test_the_swapped_table_seats_team_a_where_team_b_sat() -> None:
    assert seat_entrants(MATCH, False) == ("bot:1#1", "bot:2#1", "random#1", "heuristic#1")
    assert seat_entrants(MATCH, True) == ("bot:2#1", "bot:1#1", "heuristic#1", "random#1")


def test_a_pairs_tables_seat_house_bots_as_bots_and_bot_accounts_as_taken_seats() -> None:
    direct, swapped = pair_configs("m1", MATCH, 0, ROSTER, TableConfig(bot_delay=0.0, deal_pause=0.0))
    assert [seat.kind for seat in direct.seats] == ["human", "human", "bot", "bot"]
    assert [seat.bot for seat in swapped.seats] == [None, None, "heuristic", "random"]
    for config, swapped_flag in ((direct, False), (swapped, True)):
        assert config.ladder is not None
        assert (config.ladder.match, config.ladder.pair, config.ladder.swapped) == ("m1", 0, swapped_flag)
        assert (config.max_deals, config.rated, config.clocks.bot, config.fault_limit) == (
            1,
            False,
            BOT_CLOCK,
            FAULT_LIMIT,
        )


def house_table(seed: str = "s") -> Table:
    config, _ = pair_configs(
        "m1",
        LadderMatch(("random#1", "heuristic#1"), ("search#1", "distilled#1"), 1),
        0,
        Roster.of(Entrant(name, HOUSE) for name in ("random", "heuristic", "search", "distilled")),
        TableConfig(bot_delay=0.0, deal_pause=0.0),
    )
    table = Table("t1", config, seed=seed)
    table.start_if_ready(1.0)
    return table


def test_an_ended_table_scores_each_teams_levels_risen() -> None:
    table = house_table()
    play_out(table)
    gains, forfeited = table_gains(table)
    assert forfeited is None
    assert sorted(gains)[0] == 0
    assert sorted(gains)[1] in (1, 2, 3)
    assert [gain + 2 for gain in gains] == list(table.match.level_values())


def test_a_forfeited_table_scores_a_double_down_for_the_other_side() -> None:
    table = house_table()
    table.forfeit(1, 2.0, "ten faults")
    assert table_gains(table) == ([FORFEIT_RISE, 0], 1)


@pytest.mark.parametrize(
    ("values", "problem"),
    [
        ({"house": ("random", "nobody")}, "ladder house"),
        ({"house": ("random", "random")}, "ladder house"),
        ({"deal_pairs": 0}, "deal_pairs"),
        ({"most_matches": True}, "most_matches"),
        ({"interval": 0}, "interval"),
        ({"clock": 0}, "ladder clock"),
        ({"clock": 61}, "ladder clock"),
    ],
)
def test_bad_ladder_settings_are_refused_by_name(values: dict[str, Any], problem: str) -> None:
    with pytest.raises(ValueError, match=problem):
        LadderSettings(**values)


def entrant_row(key: str, owner: str) -> LadderEntrantRow:
    bot, _, generation = key.rpartition("#")
    when = datetime(2026, 12, 6, tzinfo=UTC)
    return LadderEntrantRow(key, bot, owner, int(generation), bot, {"faults": 0}, when, None)


def test_a_restart_rates_the_stored_matches_again_and_keeps_running_ones(tmp_path: Path) -> None:
    store = Store(f"sqlite:///{tmp_path}/ladder.sqlite3")
    try:
        for key, owner in (("bot:1#1", "ann"), ("bot:2#1", "bob")):
            store.save_ladder_entrant(entrant_row(key, owner))
        when = datetime(2026, 12, 6, 10, tzinfo=UTC)
        teams = {"team_a": list(MATCH.team_a), "team_b": list(MATCH.team_b), "seed": 7, "tables": []}
        store.save_ladder_match(
            LadderMatchRow("m1", "rated", "2026-12-06", {**teams, "winner": 0, "margin": 2}, when, when)
        )
        running = {**teams, "deal_pairs": 1, "tables": [["x1", "x2"]], "games": {}}
        store.save_ladder_match(LadderMatchRow("m2", "running", "2026-12-06", running, when, None))
        service = LadderService(store, None, LadderSettings(house=("random", "heuristic")))  # type: ignore[arg-type]
        assert service.load() == 1
        standings = {row["key"]: row for row in service.standings()}
        assert set(standings) == {"bot:1#1", "bot:2#1", "random#1", "heuristic#1"}
        assert standings["bot:1#1"]["mu"] > 25 > standings["bot:2#1"]["mu"]
        assert standings["bot:1#1"]["rank"] < standings["bot:2#1"]["rank"]
        assert list(service.running) == ["m2"]
        assert [row["id"] for row in service.matches_of("bot:1")] == ["m2", "m1"]
    finally:
        store.close()


def test_a_ready_bot_gets_a_match_with_the_house_and_its_two_seats(tmp_path: Path) -> None:
    async def scenario() -> tuple[list[dict[str, Any]], list[Table], list[str]]:
        store = Store(f"sqlite:///{tmp_path}/ladder.sqlite3")
        defaults = TableDefaults(bot_delay=0.0, deal_pause=0.0)
        rooms = Rooms(store, Settings(table_defaults=defaults, bot_workers=0))
        try:
            settings = LadderSettings(house=("random", "heuristic", "search"), deal_pairs=1, clock=0.5)
            service = LadderService(store, rooms, settings)
            service.load()
            assert service.schedule() == [], "no match of the house alone"
            told: list[dict[str, Any]] = []
            service.mark_ready("bot:1", "ann", 1, "Little Tao", told.append)
            made = service.schedule()
            assert service.schedule() == [], "every entrant is in the running match"
            tables = [rooms.rooms[table_id].table for table_id in service.running[made[0]].data["tables"][0]]
            return told, [table for table in tables if isinstance(table, Table)], made
        finally:
            await rooms.close()
            store.close()

    told, tables, made = run_coroutine(scenario())
    assert len(made) == 1
    assert len(tables) == 2
    assert [frame["type"] for frame in told] == ["seat", "seat"]
    assert [frame["table"] for frame in told] == [table.id for table in tables]
    assert [frame["swapped"] for frame in told] == [False, True]
    assert told[0]["seat"] % 2 != told[1]["seat"] % 2, "the teams swap"
    assert tables[0].seed == tables[1].seed is not None
    assert all(table.status == "running" for table in tables), "every seat was taken: the deal began"
    assert [table.config.clocks.bot for table in tables] == [0.5, 0.5], "the ladder's clock, at every table"
    for frame in told:
        table = tables[frame["swapped"]]
        assert table.accounts[frame["seat"]] == "bot:1"
        assert table.seat_of(frame["token"]) == frame["seat"]


def test_a_restart_rates_a_running_match_whose_tables_ended_while_the_room_was_down(tmp_path: Path) -> None:
    store = Store(f"sqlite:///{tmp_path}/ladder.sqlite3")
    try:
        match = LadderMatch(("random#1", "heuristic#1"), ("search#1", "distilled#1"), 1)
        roster = Roster.of(Entrant(name, HOUSE) for name in ("random", "heuristic", "search", "distilled"))
        margin = 0
        ids = []
        for config in pair_configs("m3", match, 0, roster, TableConfig(bot_delay=0.0, deal_pause=0.0)):
            assert config.ladder is not None
            table = Table(f"t{config.ladder.swapped}", config, seed="shared")
            table.start_if_ready(1.0)
            play_out(table)
            gains, _ = table_gains(table)
            a_side = 1 if config.ladder.swapped else 0
            margin += gains[a_side] - gains[1 - a_side]
            store.create_table(table.id, config.to_dict(), datetime(2026, 12, 6, tzinfo=UTC))
            for number, entry in enumerate(table.log, start=1):
                store.append(table.id, number, entry)
            store.set_status(table.id, "finished")
            ids.append(table.id)
        teams = {"team_a": list(match.team_a), "team_b": list(match.team_b), "seed": 1}
        running = {**teams, "deal_pairs": 1, "tables": [ids], "games": {}}
        when = datetime(2026, 12, 6, 10, tzinfo=UTC)
        store.save_ladder_match(LadderMatchRow("m3", "running", "2026-12-06", running, when, None))
        house = ("random", "heuristic", "search", "distilled")
        service = LadderService(store, None, LadderSettings(house=house))  # type: ignore[arg-type]
        service.load()
        assert service.running == {}
        (rated,) = store.ladder_matches("rated")
        assert (rated.id, rated.data["margin"]) == ("m3", margin)
        assert rated.data["winner"] == (0 if margin > 0 else 1 if margin < 0 else None)
        assert all(row["matches"] == 1 for row in service.standings())
        assert {row.key: row.data["matches"] for row in store.ladder_entrants()} == dict.fromkeys(
            match.entrants, 1
        )
    finally:
        store.close()


class Socket:
    def __init__(self) -> None:
        self.frames: list[dict[str, Any]] = []

    def send(self, frame: dict[str, Any]) -> None:
        self.frames.append(frame)


def test_a_bot_is_ready_while_the_socket_that_said_so_is_open(tmp_path: Path) -> None:
    store = Store(f"sqlite:///{tmp_path}/ladder.sqlite3")
    try:
        service = LadderService(store, None, LadderSettings(house=("random",)))  # type: ignore[arg-type]
        service.load()
        first, second = Socket(), Socket()
        assert service.mark_ready("bot:1", "ann", 1, "Little Tao", first.send).key == "bot:1#1"
        service.mark_ready("bot:1", "ann", 1, "Little Tao", second.send)
        service.unready("bot:1", first.send)
        assert "bot:1" in service.ready, "the second socket took over"
        service.unready("bot:1", second.send)
        assert "bot:1" not in service.ready
        assert service.mark_ready("bot:1", "ann", 2, "Little Tao", first.send).key == "bot:1#2"
        keys = {row["key"]: row["ready"] for row in service.standings()}
        assert keys == {"bot:1#1": False, "bot:1#2": True, "random#1": True}, (
            "a new generation, a new entrant"
        )
    finally:
        store.close()


def test_a_match_whose_tables_cannot_all_be_made_is_void_and_frees_its_entrants(tmp_path: Path) -> None:
    async def scenario() -> tuple[list[str], list[dict[str, Any]]]:
        store = Store(f"sqlite:///{tmp_path}/ladder.sqlite3")
        rooms = Rooms(
            store, Settings(table_defaults=TableDefaults(bot_delay=0.0, deal_pause=0.0), bot_workers=0)
        )
        create = rooms.create
        made: list[int] = []

        def failing(*args: Any, **kwargs: Any) -> Any:
            if made:
                raise OSError("the disk is full")
            made.append(1)
            return create(*args, **kwargs)

        rooms.create = failing  # type: ignore[method-assign]
        try:
            service = LadderService(store, rooms, LadderSettings(house=("random", "heuristic", "search")))
            service.load()
            socket = Socket()
            service.mark_ready("bot:1", "ann", 1, "Little Tao", socket.send)
            with pytest.raises(OSError, match="disk is full"):
                service.schedule()
            assert service.running == {}
            return [row.status for row in store.ladder_matches()], socket.frames
        finally:
            await rooms.close()
            store.close()

    statuses, frames = run_coroutine(scenario())
    assert statuses == ["void"]
    assert frames == [], "no bot is sent to a match that is void"
