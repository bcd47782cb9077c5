"""``cardroom connect``: our bots play seats of our own ``compete`` server end to end, and the client's
choices fall back cleanly when a bot fails."""

from __future__ import annotations

import asyncio
import contextlib
import random
import socket
from pathlib import Path

import pytest

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


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
    return port


def test_connecting_where_nothing_listens_is_a_clear_error() -> None:
    with pytest.raises(ConnectError, match=r"cannot connect to ws://127\.0\.0\.1:\d+/game/client0"):
        run_connect(f"ws://127.0.0.1:{_free_port()}/game/client0", "random", wait=0)
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
