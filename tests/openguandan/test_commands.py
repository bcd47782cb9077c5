"""``cardroom compete --protocol openguandan`` and ``cardroom connect --protocol openguandan`` as a user
runs them: a room made and played to its gameOver, the exit codes, and the options' errors."""

from __future__ import annotations

import asyncio
import threading
from pathlib import Path

from typer.testing import CliRunner

from cardroom.cli import app
from cardroom.openguandan.client import Seating, SeatReport, run_connect
from cardroom.openguandan.server import OpenGuanDanServer, ServeConfig, ServeReport
from cardroom.records import read_record, replay
from tests.ports import free_port

runner = CliRunner()
ENV = {"COLUMNS": "200"}


def _joiners(port: int, room: int, reports: list[SeatReport]) -> list[threading.Thread]:
    """Seats 1–3 of ``room`` (which exists) taken by random bots, each in a thread."""
    threads = [
        threading.Thread(
            target=lambda seat=seat: reports.append(
                run_connect(
                    f"ws://127.0.0.1:{port}", Seating(f"bot{seat}", room, seat), "random", seed=seat, wait=20
                )
            )
        )
        for seat in (1, 2, 3)
    ]
    for thread in threads:
        thread.start()
    return threads


def test_compete_serves_a_room_to_its_end_and_writes_its_records(tmp_path: Path) -> None:
    port = free_port()
    reports: list[SeatReport] = []
    joiners: list[threading.Thread] = []

    def make_room() -> None:
        def seated(room: int, _: int) -> None:
            joiners.extend(_joiners(port, room, reports))

        url = f"ws://127.0.0.1:{port}"
        reports.append(
            run_connect(url, Seating("maker", None, 0, 2), "heuristic", seed=1, wait=20, on_room=seated)
        )

    creator = threading.Thread(target=make_room)
    creator.start()
    options = ["--port", str(port), "--rooms", "1", "--deals", "1", "--seed", "6", "--out", str(tmp_path)]
    result = runner.invoke(app, ["compete", "--protocol", "openguandan", *options, "--quiet"], env=ENV)
    for thread in [creator, *joiners]:
        thread.join(60)
    assert result.exit_code == 0, result.output
    assert "1 room;" in result.output
    assert "0 client frames refused" in result.output
    records = sorted(tmp_path.glob("room-001-game-*.json"))
    assert [path.name for path in records] == ["room-001-game-01.json", "room-001-game-02.json"]
    assert all(replay(read_record(path)).ok for path in records)
    assert sorted(report.seat for report in reports if report.seat is not None) == [0, 1, 2, 3]
    assert all(report.games == 2 for report in reports)


def _serving(
    config: ServeConfig,
) -> tuple[OpenGuanDanServer, threading.Thread, list[ServeReport], asyncio.AbstractEventLoop]:
    """Our server in a thread of its own, listening."""
    server = OpenGuanDanServer(config)
    done: list[ServeReport] = []
    loop = asyncio.new_event_loop()
    thread = threading.Thread(target=lambda: done.append(loop.run_until_complete(server.run())))
    thread.start()
    for _ in range(200):
        if server.listening.is_set():
            break
        thread.join(0.05)
    return server, thread, done, loop


def test_connect_creates_a_room_prints_its_id_and_plays_to_game_over() -> None:
    server, thread, done, _ = _serving(ServeConfig(port=0, rooms=1, max_deals=1, seed=2))
    reports: list[SeatReport] = []
    joiners: list[threading.Thread] = []

    def join_once_made() -> None:
        for _ in range(400):
            if 1 in server.rooms:
                joiners.extend(_joiners(server.port, 1, reports))
                return
            threading.Event().wait(0.05)

    waiter = threading.Thread(target=join_once_made)
    waiter.start()
    url = f"ws://127.0.0.1:{server.port}"
    try:
        result = runner.invoke(
            app,
            [
                "connect",
                url,
                "--protocol",
                "openguandan",
                "--create",
                "--seat",
                "0",
                "--bot",
                "search",
                "--quiet",
            ],
            env=ENV,
        )
    finally:
        waiter.join(30)
        for joiner in joiners:
            joiner.join(60)
        thread.join(30)
    assert result.exit_code == 0, result.output
    assert "Created room 1 (1 game): others join it with --room 1" in result.output
    assert "Seat 0 of room 1 as cardroom-0, with the search bot" in result.output
    assert "Room 1, seat 0: 1 game, 1 deal," in result.output
    assert "the bot failed 0×, chose off the list 0×." in result.output
    assert done
    assert len(reports) == 3


def test_connect_exits_1_when_the_room_does_not_exist() -> None:
    server, thread, _, loop = _serving(ServeConfig(port=0))
    try:
        url = f"ws://127.0.0.1:{server.port}"
        result = runner.invoke(
            app,
            ["connect", url, "--protocol", "openguandan", "--room", "9", "--seat", "1", "--quiet"],
            env=ENV,
        )
    finally:
        loop.call_soon_threadsafe(server.stop)
        thread.join(30)
    assert result.exit_code == 1
    assert "Cannot play: the server refused JOIN_ROOM: 房间不存在 (room 9 does not exist)" in result.output


def test_connect_and_compete_reject_options_of_the_other_protocol() -> None:
    result = runner.invoke(app, ["connect", "ws://127.0.0.1:1", "--protocol", "openguandan"], env=ENV)
    assert result.exit_code == 2
    assert "give --room N to join a room, or --create to make one" in result.output
    result = runner.invoke(app, ["connect", "ws://127.0.0.1:1", "--room", "3"], env=ENV)
    assert result.exit_code == 2
    assert "--room, --seat, --create and --user are for --protocol openguandan" in result.output
    result = runner.invoke(app, ["compete", "--protocol", "openguandan", "--bot", "1=random"], env=ENV)
    assert result.exit_code == 2
    assert "openguandan rooms are played by clients" in result.output


def test_connect_to_the_ladder_takes_no_room_and_the_ladders_options_need_a_token() -> None:
    ladder = ["connect", "ws://127.0.0.1:1/ws/ladder/openguandan", "--protocol", "openguandan"]
    result = runner.invoke(app, [*ladder, "--room", "3"], env={**ENV, "CARDROOM_BOT_TOKEN": "cardroom_bot_x"})
    assert result.exit_code == 2
    assert "the ladder gives each connection its seats" in result.output
    assert "cardroom_bot_x" not in result.output
    result = runner.invoke(app, [*ladder, "--create", "--connections", "2"], env=ENV)
    assert result.exit_code == 2
    assert "--connections and --episodes are for the ladder (with --token)" in result.output
