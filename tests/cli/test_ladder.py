"""``cardroom ladder`` against a real ``cardroom serve`` (docs/ladder.md, "On the command line"): ``watch``
shows a running match with the links to watch its tables, and its result once it ends; ``list`` the
ladder after it; ``export`` a bot's records, which ``cardroom replay`` replays; the errors of a room that
does not answer, a bad address and an unknown bot."""

from __future__ import annotations

import os
import queue
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from typer.testing import CliRunner

from cardroom.cli import app
from cardroom.cli.ladder import changes, result_line, room_url, table_line
from tests.ports import free_port
from tests.server.clients import call
from tests.server.serving import REPO, Server
from tests.server.test_ladder_live import Started, finish_match, ladder_server, start_match

runner = CliRunner()


@dataclass
class Room:
    server: Server
    started: Started


@pytest.fixture(scope="module")
def room(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Room]:
    """A room where two bots' match with the house bots has started (its tables not played yet)."""
    server = ladder_server(tmp_path_factory.mktemp("ladder-cli"))
    try:
        yield Room(server, start_match(server))
    finally:
        server.stop()


@pytest.fixture
def played(room: Room) -> Room:
    """The room once the match is played and rated."""
    if call(room.server, "GET", "/api/ladder/live").body["matches"]:
        finish_match(room.server, room.started)
    return room


def ladder(*args: str, env: dict[str, str] | None = None) -> tuple[int, str]:
    result = runner.invoke(app, ["ladder", *args], env={"COLUMNS": "200", **(env or {})})
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise result.exception
    return result.exit_code, result.output


def lines_of(process: subprocess.Popen[str]) -> queue.Queue[str]:
    """The process's output lines, as they come."""
    lines: queue.Queue[str] = queue.Queue()

    def read() -> None:
        assert process.stdout is not None
        for line in process.stdout:
            lines.put(line)

    threading.Thread(target=read, daemon=True).start()
    return lines


def wait_for(lines: queue.Queue[str], text: str, timeout: float = 60.0) -> tuple[str, list[str]]:
    """The first line holding ``text``, and every line read up to it."""
    seen: list[str] = []
    deadline = time.monotonic() + timeout
    while True:
        line = lines.get(timeout=max(0.1, deadline - time.monotonic()))
        seen.append(line)
        if text in line:
            return line, seen


@pytest.mark.server_process
def test_watch_shows_the_running_match_its_tables_to_watch_and_its_result(room: Room) -> None:
    server, started = room.server, room.started
    code, output = ladder("watch", "--room", server.url, "--once")
    assert code == 0, output
    assert "1 ladder match running" in output
    assert started.match in output
    for name in ("Little Tao", "Deep Tao", "random bot"):
        assert name in output
    tables = [seat["table"] for seats in started.seats.values() for seat in seats]
    for table in tables:
        assert f"{server.url}/tables/{table}" in output

    process = subprocess.Popen(
        [sys.executable, "-m", "cardroom", "ladder", "watch", "--interval", "0.2"],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        cwd=REPO,
        env={**os.environ, "CARDROOM_URL": server.url, "PYTHONUNBUFFERED": "1", "COLUMNS": "200"},
    )
    try:
        lines = lines_of(process)
        wait_for(lines, "1 ladder match running")
        finish_match(server, started)
        ended, _ = wait_for(lines, f"{started.match} ended")
        rated = next(
            match
            for match in call(server, "GET", f"/api/ladder/{next(iter(started.tokens))}").body["matches"]
            if match["id"] == started.match
        )
        if rated["winner"] is None:
            assert "a draw" in ended
        else:
            levels = abs(rated["margin"])
            assert f"won by {levels} level{'' if levels == 1 else 's'}" in ended
            assert "margin" not in ended
        process.send_signal(signal.SIGINT)
        assert process.wait(timeout=30) == 0
        wait_for(lines, "Stopped watching", timeout=10)
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()

    code, output = ladder("watch", "--room", server.url, "--once")
    assert (code, output.strip()) == (0, f"0 ladder matches running at {server.url}.")


@pytest.mark.server_process
def test_list_prints_the_ladder_best_first(played: Room) -> None:
    code, output = ladder("list", "--room", played.server.url + "/")
    assert code == 0, output
    entrants = call(played.server, "GET", "/api/ladder").body["entrants"]
    rows = [line for line in output.splitlines() if any(row["key"] in line for row in entrants)]
    assert len(rows) == 4
    for line, row in zip(rows, entrants, strict=True):
        assert row["key"] in line, "best first"
        assert row["name"] in line
        assert f"{row['wins']}-{row['draws']}-{row['losses']}" in line
        assert f"{row['mu']:.1f}" in line
        assert ("house bot" in line) == row["house"]
    assert "Last seen" in output


@pytest.mark.server_process
def test_export_writes_each_table_record_once_and_they_replay(played: Room, tmp_path: Path) -> None:
    tao = next(iter(played.started.tokens))
    out = tmp_path / "records"
    code, output = ladder("export", tao, "--out", str(out), "--room", played.server.url)
    assert code == 0, output
    files = sorted(out.iterdir())
    assert len(files) == 2, "one deal pair: two tables"
    assert "Wrote 2 records" in output
    assert "1 rated match" in output
    tables = {seat["table"] for seat in played.started.seats[tao]}
    assert {path.stem.rpartition("-")[2] for path in files} == tables
    for path in files:
        replayed = runner.invoke(app, ["replay", str(path)])
        assert replayed.exit_code == 0, replayed.output

    files[0].write_text("kept", encoding="utf-8")
    code, output = ladder("export", f"{tao}#1", "--out", str(out), "--room", played.server.url)
    assert code == 0, output
    assert "Wrote 0 records" in output
    assert "(2 already there)" in output
    assert files[0].read_text(encoding="utf-8") == "kept", "a file already there is kept"

    by_name = tmp_path / "by-name"
    code, output = ladder("export", "little tao", "--out", str(by_name), "--room", played.server.url)
    assert code == 0, output
    assert f"of {tao}'s 1 rated match" in output
    assert len(list(by_name.iterdir())) == 2

    house = tmp_path / "house"
    code, output = ladder("export", "heuristic", "--out", str(house), "--room", played.server.url)
    assert code == 0, output
    assert len(list(house.iterdir())) == 2


@pytest.mark.server_process
def test_errors_name_what_is_wrong(played: Room, tmp_path: Path) -> None:
    url = played.server.url
    code, output = ladder("export", "bot:999", "--out", str(tmp_path / "none"), "--room", url)
    assert code == 1
    assert "no ladder entrant 'bot:999': give the bot's key (e.g. bot:9f856696dfef" in output
    assert "`cardroom ladder list` shows it" in output
    assert not (tmp_path / "none").exists()
    tao = next(iter(played.started.tokens))
    code, output = ladder("export", f"{tao}#7", "--out", str(tmp_path), "--room", url)
    assert code == 1
    assert "no rated ladder match" in output

    nobody = f"http://127.0.0.1:{free_port()}"
    for command in (["list"], ["watch", "--once"], ["export", "bot:1", "--out", str(tmp_path)]):
        code, output = ladder(*command, env={"CARDROOM_URL": nobody})
        assert code == 1, command
        assert f"the card room at {nobody} does not answer" in output, command

    code, output = ladder("list", "--room", "ftp://example.org")
    assert code == 1
    assert "--room: an http:// or https:// address with a host, got 'ftp://example.org'" in output
    code, output = ladder("list", "--room", url + "/nothing-here")
    assert code == 1
    assert "no ladder runs" in output


def test_room_url_and_changes() -> None:
    assert room_url(" http://room.example:8000/ ") == "http://room.example:8000"
    before = {"a": {"id": "a"}, "b": {"id": "b"}}
    started, ended = changes(before, [{"id": "b"}, {"id": "c"}])
    assert ([match["id"] for match in started], [match["id"] for match in ended]) == (["c"], ["a"])


def test_a_table_s_levels_and_rises_are_both_by_ladder_team() -> None:
    """On the swapped table team A sits at seats 1 and 3: its levels come second in ``levels``."""
    seats = [{"cards": None, "faults": 0}] * 4
    table = {"pair": 0, "swapped": True, "url": "/tables/t1", "status": "finished", "phase": "finished"}
    line = table_line("http://room", {**table, "levels": ["4", "2"], "rises": [0, 2], "seats": seats})
    assert "1b http://room/tables/t1" in line
    assert "levels A:B 2:4 · rose A:B 0:2" in line


def test_a_result_is_said_from_the_winner_s_side() -> None:
    match = {
        "id": "m1",
        "team_a": ["bot:1"],
        "team_b": ["bot:2"],
        "names": {"bot:1": "CompBot", "bot:2": "Tao"},
    }
    lost = result_line(match, {"status": "rated", "winner": 1, "margin": -7})
    assert lost.endswith("Tao won by 7 levels")
    assert "-7" not in lost
    assert result_line(match, {"status": "rated", "winner": 0, "margin": 1}).endswith(
        "CompBot won by 1 level"
    )
