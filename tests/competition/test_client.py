"""``cardroom connect``: our bots play seats of our own ``compete`` server end to end, and the client's
choices fall back cleanly when a bot fails."""

from __future__ import annotations

import asyncio
import contextlib
import json
import random
from collections.abc import Awaitable, Callable
from pathlib import Path

import pytest
from websockets.asyncio.server import ServerConnection, serve

from cardroom.bots import HeuristicBot, RandomBot, SearchBot
from cardroom.competition.client import ConnectError, ConnectReport, Player, play, run_connect
from cardroom.competition.messages import act
from cardroom.competition.order import order_actions
from cardroom.competition.server import CompeteConfig, CompeteReport, CompetitionServer
from cardroom.competition.view import SeatView
from cardroom.guandan.deal import Action, PlayAction
from cardroom.guandan.match import Match
from cardroom.guandan.observation import Observation
from cardroom.guandan.plays import PASS
from cardroom.records import read_record, replay
from tests.ports import free_port


async def _match(
    config: CompeteConfig, seats: dict[str, SearchBot | HeuristicBot]
) -> tuple[CompeteReport, list[ConnectReport]]:
    server = CompetitionServer(config)
    task = asyncio.create_task(server.run())
    await server.listening.wait()
    base = f"ws://127.0.0.1:{server.port}/game/"
    clients = [
        play(base + name, bot, fallback=HeuristicBot(random.Random(9)), wait=2) for name, bot in seats.items()
    ]
    reports = await asyncio.wait_for(asyncio.gather(*clients), 120)
    return await asyncio.wait_for(task, 30), list(reports)


def test_connect_clients_play_a_compete_match_end_to_end(tmp_path: Path) -> None:
    config = CompeteConfig(
        port=0, bots={0: "random", 2: "heuristic"}, max_deals=2, seed=21, timeout=30, out=tmp_path
    )
    bots: dict[str, SearchBot | HeuristicBot] = {
        "client1": HeuristicBot(random.Random(1)),
        "client3": SearchBot(random.Random(2), samples=2),
    }
    server_report, reports = asyncio.run(_match(config, bots))
    (path,) = server_report.records
    record = read_record(path)
    assert replay(record).ok
    assert [report.seat for report in reports] == [1, 3]
    for report in reports:
        assert report.decisions > 5
        assert (report.bot_failures, report.off_list, report.errors) == (0, 0, [])
        assert report.deals == len(record["deals"])
        assert report.matches == 1
        assert report.result is not None
        assert report.result["victoryNum"] == server_report.victories
        assert report.close_code == 1000
    assert all(seat.substitutions == 0 for seat in server_report.seats)


def test_a_refused_client_reports_the_server_s_reason() -> None:
    async def refused() -> ConnectReport:
        server = CompetitionServer(CompeteConfig(port=0, bots={1: "random"}, max_deals=1))
        task = asyncio.create_task(server.run())
        await server.listening.wait()
        try:
            return await play(
                f"ws://127.0.0.1:{server.port}/game/client1",
                RandomBot(random.Random(1)),
                fallback=RandomBot(random.Random(2)),
            )
        finally:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task

    report = asyncio.run(refused())
    assert report.close_code == 1008
    assert [error["code"] for error in report.errors] == ["bot-seat"]
    assert report.decisions == 0


def test_connecting_where_nothing_listens_is_a_clear_error() -> None:
    with pytest.raises(ConnectError, match=r"cannot connect to ws://127\.0\.0\.1:\d+/game/client0"):
        run_connect(f"ws://127.0.0.1:{free_port()}/game/client0", "random", wait=0)
    with pytest.raises(ConnectError, match="not a websocket URL"):
        run_connect("http://127.0.0.1/game/client0", "random", wait=0)


class _Failing:
    name = "failing"

    def act(self, observation: Observation) -> Action:
        raise RuntimeError("boom")


class _OffList:
    name = "off-list"

    def act(self, observation: Observation) -> Action:
        return PlayAction(observation.seat, PASS)


def _leading_message(seed: int) -> tuple[SeatView, dict[str, object]]:
    match = Match()
    match.deal_random(random.Random(seed))
    seat = match.current_player
    assert seat is not None
    observation = match.observation(seat)
    message = act(observation, order_actions(observation))
    view = SeatView()
    view.update({"type": "notify", "stage": "beginning", "handCards": message["handCards"], "myPos": seat})
    view.update(message)
    return view, message


def test_a_failing_bot_hands_the_decision_to_its_fallback() -> None:
    view, message = _leading_message(3)
    report = ConnectReport()
    fallback = HeuristicBot(random.Random(1))
    index = Player(_Failing(), fallback, view).choose(message, report)
    assert report.bot_failures == 1
    assert index == Player(HeuristicBot(random.Random(1)), fallback, view).choose(message, ConnectReport())


def test_a_choice_off_the_list_goes_to_the_fallback_then_to_the_first_entry() -> None:
    view, message = _leading_message(4)
    report = ConnectReport()
    assert Player(_OffList(), _Failing(), view).choose(message, report) == 0
    assert (report.off_list, report.bot_failures) == (1, 1)


async def _with_server(
    handler: Callable[[ServerConnection], Awaitable[None]], client: Callable[[str], Awaitable[ConnectReport]]
) -> ConnectReport:
    """Run ``client`` against a scripted websocket server that runs ``handler`` on each connection."""
    async with serve(handler, "127.0.0.1", 0) as server:
        port = next(iter(server.sockets)).getsockname()[1]
        return await client(f"ws://127.0.0.1:{port}/game/client1")


def _connect(idle: float = 5.0) -> Callable[[str], Awaitable[ConnectReport]]:
    def client(url: str) -> Awaitable[ConnectReport]:
        return play(url, RandomBot(random.Random(1)), fallback=RandomBot(random.Random(2)), wait=2, idle=idle)

    return client


def test_a_silent_server_is_left_after_idle_seconds() -> None:
    async def silent(connection: ServerConnection) -> None:
        await connection.wait_closed()

    with pytest.raises(ConnectError, match=r"sent nothing for 0\.3 s \(--idle\)"):
        asyncio.run(_with_server(silent, _connect(idle=0.3)))


def test_a_server_that_speaks_another_protocol_is_named_so() -> None:
    async def other(connection: ServerConnection) -> None:
        for text in ('{"msg_type": "ROOM_LIST"}', "hello", "[1, 2]"):
            await connection.send(text)
        await connection.wait_closed()

    with pytest.raises(
        ConnectError,
        match=r"does not speak the competition protocol; its first messages: "
        r'\{"msg_type": "ROOM_LIST"\} \| hello \| \[1, 2\]',
    ):
        asyncio.run(_with_server(other, _connect()))


def test_a_plain_tcp_server_is_not_a_websocket_server() -> None:
    async def run() -> None:
        async def answer(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
            await reader.read(100)
            writer.write(b"hello\r\n\r\n")
            await writer.drain()
            writer.close()

        server = await asyncio.start_server(answer, "127.0.0.1", 0)
        port = server.sockets[0].getsockname()[1]
        async with server:
            await play(
                f"ws://127.0.0.1:{port}/game/client1",
                RandomBot(random.Random(1)),
                fallback=RandomBot(random.Random(2)),
                wait=0,
            )

    with pytest.raises(ConnectError, match="is not a websocket server"):
        asyncio.run(run())


def test_a_dropped_connection_is_made_again_until_the_games_end() -> None:
    """The first connection drops without a close (as a network failure does); the client connects
    again, and the second connection carries the games to their end."""
    connections: list[int] = []

    async def flaky(connection: ServerConnection) -> None:
        connections.append(len(connections))
        await connection.send(
            json.dumps({"type": "notify", "stage": "beginning", "myPos": 1, "handCards": ["S3"]})
        )
        if len(connections) == 1:
            connection.transport.abort()
            return
        await connection.send(
            json.dumps(
                {"type": "notify", "stage": "gameResult", "victoryNum": [1, 0, 1, 0], "draws": [0, 0, 0, 0]}
            )
        )
        await connection.close()

    report = asyncio.run(_with_server(flaky, _connect()))
    assert connections == [0, 1]
    assert report.reconnections == 1
    assert report.result is not None
    assert report.result["victoryNum"] == [1, 0, 1, 0]
    assert report.close_code == 1000


def _ladder(idle: float | None = 5.0) -> Callable[[str], Awaitable[ConnectReport]]:
    def client(url: str) -> Awaitable[ConnectReport]:
        bots = RandomBot(random.Random(1)), RandomBot(random.Random(2))
        return play(url, bots[0], fallback=bots[1], wait=0, idle=idle, token="t0ken")

    return client


def test_a_token_connection_to_another_protocol_stops_at_its_first_message() -> None:
    """The card room's own ladder socket answers ``authenticated``: no waiting, no reconnecting."""
    connections: list[int] = []

    async def card_room(connection: ServerConnection) -> None:
        connections.append(1)
        await connection.send(json.dumps({"type": "authenticated", "generation": 1}))
        await connection.wait_closed()

    with pytest.raises(ConnectError, match=r"speaks another protocol .*use ws://HOST/ws/ladder/competition"):
        asyncio.run(_with_server(card_room, _ladder()))
    assert connections == [1]


def test_an_idle_close_before_any_message_of_the_protocol_is_final() -> None:
    connections: list[int] = []

    async def idle_close(connection: ServerConnection) -> None:
        connections.append(1)
        await connection.close(4408, "idle: no message for 120 s")

    with pytest.raises(ConnectError, match=r"closed the connection as idle \(close 4408\).*no message for"):
        asyncio.run(_with_server(idle_close, _connect()))
    assert connections == [1]


def test_each_table_ended_is_said_with_its_connection_and_seat(caplog: pytest.LogCaptureFixture) -> None:
    async def one_deal(connection: ServerConnection) -> None:
        for message in (
            {"type": "notify", "stage": "beginning", "myPos": 1, "handCards": ["S3"]},
            {"type": "notify", "stage": "episodeOver", "order": [3, 0, 1, 2], "curRank": "2"},
            {"type": "notify", "stage": "beginning", "myPos": 1, "handCards": ["S3"]},
            {"type": "notify", "stage": "gameOver", "curTimes": 1, "settingTimes": 1},
        ):
            await connection.send(json.dumps(message))
        await connection.close()

    with caplog.at_level("INFO", logger="cardroom.competition"):
        report = asyncio.run(_with_server(one_deal, _connect()))
    assert report.episodes == 2
    lines = [record.getMessage() for record in caplog.records]
    assert "Connection 1 (seat 1): deal over, finishing order 3 0 1 2 (our team went out first)" in lines
    forfeit = "the table ended without its deal (a forfeit: gameOver without episodeOver)"
    assert f"Connection 1 (seat 1): {forfeit}" in lines
