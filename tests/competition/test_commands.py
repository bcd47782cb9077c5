"""The ``compete`` and ``connect`` commands: a server of four bots, a client at one seat, and their
errors."""

from __future__ import annotations

import asyncio
import contextlib
import threading
from pathlib import Path

import pytest
from typer.testing import CliRunner
from websockets.exceptions import ConnectionClosed
from websockets.sync.server import ServerConnection, serve

from cardroom.cli import app
from cardroom.competition.client import ConnectReport, run_connect
from cardroom.competition.server import CompeteConfig, CompeteReport, CompetitionServer
from cardroom.records import read_record, replay
from tests.ports import free_port

runner = CliRunner()


def test_compete_with_four_bots_writes_records(tmp_path: Path) -> None:
    bots = [option for seat in range(4) for option in ("--bot", f"{seat}=random")]
    result = runner.invoke(
        app,
        [
            "compete",
            "--port",
            "0",
            *bots,
            "--deals",
            "1",
            "--matches",
            "2",
            "--seed",
            "5",
            "--out",
            str(tmp_path),
        ],
        env={"COLUMNS": "200"},
    )
    assert result.exit_code == 0, result.output
    records = sorted(tmp_path.glob("match-*.json"))
    assert [path.name for path in records] == ["match-001.json", "match-002.json"]
    assert all(replay(read_record(path)).ok for path in records)
    assert "match-002.json" in result.output
    assert "seat 3: random (bot)" in result.output


def test_compete_waits_for_a_connect_client(tmp_path: Path) -> None:
    port = free_port()
    reports: list[ConnectReport] = []
    client = threading.Thread(
        target=lambda: reports.append(
            run_connect(f"ws://127.0.0.1:{port}/game/client2", "heuristic", seed=1, wait=20)
        )
    )
    client.start()
    options = ["--bot", "0=random", "--bot", "1=random", "--bot", "3=random", "--deals", "1", "--seed", "8"]
    result = runner.invoke(
        app,
        ["compete", "--port", str(port), *options, "--out", str(tmp_path), "--quiet"],
        env={"COLUMNS": "200"},
    )
    client.join(30)
    assert result.exit_code == 0, result.output
    assert "seat 2: client2 (client)" in result.output
    (report,) = reports
    assert (report.seat, report.deals, report.bot_failures, report.errors) == (2, 1, 0, [])
    assert replay(read_record(tmp_path / "match-001.json")).ok


def test_compete_runs_with_one_seed_deal_the_same_cards_whichever_team_sits_where(tmp_path: Path) -> None:
    """Duplicate (docs/competition-protocol.md): the cards of deal n depend on the seed alone, so two runs
    with the teams' seats swapped deal every seat the same hand, deal by deal, however the play went."""
    hands = []
    for name, first, second in (("a", "heuristic", "random"), ("b", "random", "heuristic")):
        bots = [option for seat in range(4) for option in ("--bot", f"{seat}={(first, second)[seat % 2]}")]
        out = tmp_path / name
        options = ["--port", "0", "--deals", "1", "--matches", "3", "--seed", "7", "--out", str(out)]
        result = runner.invoke(app, ["compete", *bots, *options], env={"COLUMNS": "200"})
        assert result.exit_code == 0, result.output
        hands.append([read_record(path)["deals"][0]["hands"] for path in sorted(out.glob("match-*.json"))])
    assert len(hands[0]) == 3
    assert hands[0] == hands[1]
    assert len({tuple(deal) for deal in hands[0]}) == 3


def test_connect_plays_a_seat_of_a_running_server() -> None:
    config = CompeteConfig(port=0, bots={0: "random", 1: "random", 2: "random"}, max_deals=1, seed=9)
    server = CompetitionServer(config)
    done: list[CompeteReport] = []
    loop = asyncio.new_event_loop()
    thread = threading.Thread(target=lambda: done.append(loop.run_until_complete(server.run())))
    thread.start()
    try:
        for _ in range(200):
            if server.listening.is_set():
                break
            thread.join(0.05)
        url = f"ws://127.0.0.1:{server.port}/game/client3"
        result = runner.invoke(
            app, ["connect", url, "--bot", "random", "--seed", "3", "--quiet"], env={"COLUMNS": "200"}
        )
    finally:
        thread.join(30)
        loop.close()
    assert result.exit_code == 0, result.output
    assert "Connection 1 (seat 3): 1 match, 1 deal," in result.output
    assert "the bot failed 0×, chose off the list 0×; 0 error messages from the server." in result.output
    assert done
    assert done[0].seats[3].substitutions == 0


def test_connect_exits_1_when_it_cannot_connect() -> None:
    result = runner.invoke(app, ["connect", f"ws://127.0.0.1:{free_port()}/game/client0", "--wait", "0"])
    assert result.exit_code == 1
    assert "Cannot play" in result.output
    assert "cannot connect to" in result.output


def test_connect_exits_1_when_the_server_stays_silent() -> None:
    def silent(connection: ServerConnection) -> None:
        with contextlib.suppress(ConnectionClosed):
            connection.recv()

    with serve(silent, "127.0.0.1", 0) as server:
        thread = threading.Thread(target=server.serve_forever)
        thread.start()
        try:
            url = f"ws://127.0.0.1:{server.socket.getsockname()[1]}/game/client0"
            result = runner.invoke(app, ["connect", url, "--idle", "0.3", "--quiet"], env={"COLUMNS": "200"})
        finally:
            server.shutdown()
            thread.join(10)
    assert result.exit_code == 1
    assert "sent nothing for 0.3 s (--idle)" in result.output


def test_compete_rejects_bad_bot_options() -> None:
    for option, message in (
        ("5=random", "write SEAT=BOT with SEAT 0–3"),
        ("random", "write SEAT=BOT"),
        ("1=nobody", "unknown bot 'nobody'"),
    ):
        result = runner.invoke(app, ["compete", "--bot", option], env={"COLUMNS": "200"})
        assert result.exit_code == 2, result.output
        assert message in result.output
    result = runner.invoke(app, ["compete", "--bot", "1=random", "--bot", "1=random"], env={"COLUMNS": "200"})
    assert result.exit_code == 2
    assert "seat 1 is given twice" in result.output


def test_with_a_token_connect_opens_4_connections_and_sums_up_even_a_refusal(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    asked: dict[str, object] = {}

    def refused(url: str, bot: str, **options: object) -> list[ConnectReport]:
        asked.update(options)
        return [ConnectReport(number=n, close_code=4401, close_reason="bad bot token") for n in range(4)]

    monkeypatch.setattr("cardroom.competition.client.run_connections", refused)
    result = runner.invoke(
        app, ["connect", "ws://127.0.0.1:1/ws/ladder/competition", "--token", "t0ken"], env={"COLUMNS": "200"}
    )
    assert result.exit_code == 1, result.output
    assert asked["connections"] == 4
    assert "The token was refused or revoked (close 4401): bad bot token" in result.output
    assert "Connection 4 (seat ?): 0 matches, 0 deals, 0 decisions;" in result.output
    assert "t0ken" not in result.output
