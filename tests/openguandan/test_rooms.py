"""Our client against our server: whole rooms of OpenGuanDan's protocol played by each of our bots over
websockets, each game written as a record that replays."""

from __future__ import annotations

import asyncio
import random
from pathlib import Path

from cardroom.bots import make_bot
from cardroom.openguandan.client import Seating, SeatReport, play
from cardroom.openguandan.server import OpenGuanDanServer, ServeConfig, ServeReport
from cardroom.records import read_record, replay


async def _room(config: ServeConfig, bots: list[str], games: int) -> tuple[ServeReport, list[SeatReport]]:
    server = OpenGuanDanServer(config)
    task = asyncio.create_task(server.run())
    await server.listening.wait()
    url = f"ws://127.0.0.1:{server.port}"
    room: asyncio.Future[int] = asyncio.get_running_loop().create_future()

    async def seat(number: int) -> SeatReport:
        bot, fallback = make_bot(bots[number], number), make_bot("random", 10 + number)
        if number == 0:
            seating = Seating("creator", None, 0, games)
            return await play(
                url, seating, bot, fallback=fallback, on_room=lambda found, _: room.set_result(found)
            )
        return await play(url, Seating(f"user{number}", await room, number), bot, fallback=fallback)

    reports = await asyncio.wait_for(asyncio.gather(*(seat(number) for number in range(4))), 600)
    return await asyncio.wait_for(task, 30), list(reports)


def _check(server: ServeReport, reports: list[SeatReport], games: int) -> None:
    (room,) = server.rooms
    assert len(room.winners) == games
    assert server.refused == 0
    for number, report in enumerate(reports):
        assert (report.room, report.seat, report.games) == (room.room_id, number, games)
        assert (report.bot_failures, report.off_list) == (0, 0)
        assert report.decisions > 10
        assert report.result == reports[0].result
    result = reports[0].result
    assert result is not None
    assert result["gameResult"][2:] == [room.winners.count(0), room.winners.count(1)]
    assert result["victory"] == room.winners[-1]
    for path in room.records:
        assert replay(read_record(path)).ok


def test_random_and_heuristic_bots_play_a_room_of_two_games_to_a(tmp_path: Path) -> None:
    config = ServeConfig(port=0, seed=12, rooms=1, out=tmp_path)
    server, reports = asyncio.run(_room(config, ["random", "heuristic", "random", "heuristic"], 2))
    _check(server, reports, 2)
    (room,) = server.rooms
    assert [path.name for path in room.records] == ["room-001-game-01.json", "room-001-game-02.json"]
    record = read_record(room.records[0])
    assert record["seats"] == ["creator", "user1", "user2", "user3"]
    assert record["result"]["winner"] in (0, 1)
    for levels, winner in zip(room.levels, room.winners, strict=True):
        assert winner is not None
        assert levels[winner] == "A"


def test_the_other_bots_play_a_short_room(tmp_path: Path) -> None:
    """distilled, value, search and search-value: one game of one deal (docs/openguandan-protocol.md,
    ``--deals``), tribute-free but with every other stage."""
    config = ServeConfig(port=0, seed=3, rooms=1, max_deals=1, out=tmp_path)
    server, reports = asyncio.run(_room(config, ["distilled", "value", "search", "search-value"], 1))
    _check(server, reports, 1)
    assert all(report.deals == 1 for report in reports)


def test_rooms_run_side_by_side_on_one_server() -> None:
    async def two_rooms() -> tuple[ServeReport, list[SeatReport]]:
        config = ServeConfig(port=0, seed=5, rooms=2, max_deals=2)
        server = OpenGuanDanServer(config)
        task = asyncio.create_task(server.run())
        await server.listening.wait()
        url = f"ws://127.0.0.1:{server.port}"

        async def room(name: str) -> list[SeatReport]:
            found: asyncio.Future[int] = asyncio.get_running_loop().create_future()
            rng = random.Random(name)

            async def seat(number: int) -> SeatReport:
                bot, fallback = make_bot("random", rng.randrange(99)), make_bot("random", 1)
                if number == 0:
                    seating = Seating(f"{name}0", None, None, 1)
                    return await play(
                        url, seating, bot, fallback=fallback, on_room=lambda r, _: found.set_result(r)
                    )
                return await play(url, Seating(f"{name}{number}", await found, None), bot, fallback=fallback)

            return list(await asyncio.gather(*(seat(number) for number in range(4))))

        reports = await asyncio.wait_for(asyncio.gather(room("a"), room("b")), 300)
        return await asyncio.wait_for(task, 30), reports[0] + reports[1]

    server, reports = asyncio.run(two_rooms())
    assert sorted(room.room_id for room in server.rooms) == [1, 2]
    expected = [(room, seat) for room in (1, 2) for seat in range(4)]
    assert sorted((report.room, report.seat) for report in reports) == expected
