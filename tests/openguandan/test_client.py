"""``cardroom connect --protocol openguandan`` against the recorded server side (a scripted peer that
sends each seat the frames the Java server sent it, over websockets), and its ways of stopping
(docs/openguandan-protocol.md, "The client")."""

from __future__ import annotations

import asyncio
import contextlib
import json
import random
from collections.abc import AsyncIterator, Callable, Iterator
from contextlib import asynccontextmanager
from typing import Any

import pytest
from websockets.asyncio.server import ServerConnection, serve
from websockets.exceptions import ConnectionClosed

from cardroom.bots import HeuristicBot, RandomBot
from cardroom.competition.client import ConnectError
from cardroom.competition.messages import action_of_entry
from cardroom.guandan.deal import Action
from cardroom.guandan.observation import Observation
from cardroom.openguandan.client import Seating, SeatReport, play, play_ladder
from tests.openguandan.recordings import ONE_GAME, TWO_GAMES, games_of, seat_script

WAIT = 20.0


class RecordedChoices:
    """A bot that makes the recorded client's choices, in order (to compare our frames with its)."""

    name = "recorded"

    def __init__(self, entries: list[list[Any]]) -> None:
        self._entries: Iterator[list[Any]] = iter(entries)

    def act(self, observation: Observation) -> Action:
        return action_of_entry(next(self._entries), observation.seat, observation.level, observation.rules)


@asynccontextmanager
async def scripted_server(
    name: str, check: Callable[[int, dict[str, Any], dict[str, Any], dict[str, Any]], None]
) -> AsyncIterator[str]:
    """A server that plays the recorded server side of ``name``: the seat is read from the client's
    CREATE_ROOM or JOIN_ROOM, then the seat's recorded frames are sent, and where the recorded client
    answered, our client's answer is passed to ``check(seat, ours, recorded, request)``. After gameOver
    it stays silent, as the Java server does."""

    async def handler(connection: ServerConnection) -> None:
        first = json.loads(await connection.recv())
        seat = first["data"].get("seatNum", 0)
        script = seat_script(name, seat)
        request: dict[str, Any] = {}
        for line in script[1:]:
            if line.direction == "in":
                if line.frame.get("type") == "act":
                    request = line.frame
                await connection.send(json.dumps(line.frame, ensure_ascii=False))
            else:
                ours = json.loads(await asyncio.wait_for(connection.recv(), WAIT))
                check(seat, ours, line.frame, request)
        with contextlib.suppress(ConnectionClosed):
            await connection.wait_closed()

    async with serve(handler, "127.0.0.1", 0) as server:
        yield f"ws://127.0.0.1:{server.sockets[0].getsockname()[1]}"


def _seating(name: str, seat: int) -> Seating:
    first = seat_script(name, seat)[0].frame["data"]
    if "roomId" in first:
        return Seating(first["userId"], first["roomId"], seat)
    return Seating(first["userId"], None, seat, first["round"])


def _recorded_entries(name: str, seat: int) -> list[list[Any]]:
    outs = [line.frame for line in seat_script(name, seat) if line.direction == "out"]
    return [frame["data"]["act"] for frame in outs[1:]]


@pytest.mark.parametrize("name", [ONE_GAME, TWO_GAMES])
def test_with_the_recorded_choices_our_client_sends_the_recorded_frames(name: str) -> None:
    """Every answer of every seat — PLAY, TRIBUTE, PAYTRIBUTE — and the join before them are the
    recorded client's frames, field by field in the same order; each seat stops at gameOver."""
    mismatches: list[str] = []
    answers = [0]

    def check(seat: int, ours: dict[str, Any], recorded: dict[str, Any], request: dict[str, Any]) -> None:
        answers[0] += 1
        if json.dumps(ours) != json.dumps(recorded):
            mismatches.append(f"seat {seat}: {ours} != {recorded}")

    async def room() -> list[SeatReport]:
        async with scripted_server(name, check) as url:
            clients = [
                play(
                    url,
                    _seating(name, seat),
                    RecordedChoices(_recorded_entries(name, seat)),
                    fallback=RandomBot(random.Random(seat)),
                    idle=WAIT,
                )
                for seat in range(4)
            ]
            return list(await asyncio.wait_for(asyncio.gather(*clients), 300))

    reports = asyncio.run(room())
    assert mismatches == []
    assert answers[0] == sum(len(_recorded_entries(name, seat)) for seat in range(4))
    for seat, report in enumerate(reports):
        assert (report.seat, report.games) == (seat, games_of(name))
        assert (report.bot_failures, report.off_list) == (0, 0)
        assert report.decisions == len(_recorded_entries(name, seat))
        assert report.result is not None
        assert report.result["stage"] == "gameResult"
    assert reports[0].deals == (14 if name == ONE_GAME else 25)


@pytest.mark.parametrize("bot", ["random", "heuristic"])
def test_with_our_bots_every_answer_is_an_entry_of_its_request(bot: str) -> None:
    """Whatever our bots choose (the recording then goes its own way), each answer is of the request's
    type, for the seat's room and seat, an entry of the actionList sent, and a return copies the
    request's tributePos and tribute."""
    faults: list[str] = []
    stages: dict[str, int] = {}

    def check(seat: int, ours: dict[str, Any], recorded: dict[str, Any], request: dict[str, Any]) -> None:
        expected = {"play": "PLAY", "tribute": "TRIBUTE", "back": "PAYTRIBUTE"}[request["stage"]]
        stages[expected] = stages.get(expected, 0) + 1
        data = ours.get("data", {})
        if ours.get("type") != expected or data.get("player") != seat or data.get("roomId") != 2:
            faults.append(f"seat {seat}: {ours} answers {request['stage']}")
        if data.get("act") not in request["actionList"]:
            faults.append(f"seat {seat}: {data.get('act')} is not in the list")
        if expected == "PAYTRIBUTE" and (data["tributePos"], data["tribute"]) != (
            request["tributePos"],
            request["tribute"],
        ):
            faults.append(f"seat {seat}: {data} does not copy the request's tribute")

    def bot_of(seat: int) -> RandomBot | HeuristicBot:
        return RandomBot(random.Random(seat)) if bot == "random" else HeuristicBot(random.Random(seat))

    async def room() -> list[SeatReport]:
        async with scripted_server(TWO_GAMES, check) as url:
            clients = [
                play(
                    url,
                    _seating(TWO_GAMES, seat),
                    bot_of(seat),
                    fallback=RandomBot(random.Random(9)),
                    idle=WAIT,
                )
                for seat in range(4)
            ]
            return list(await asyncio.wait_for(asyncio.gather(*clients), 300))

    reports = asyncio.run(room())
    assert faults == []
    assert set(stages) == {"PLAY", "TRIBUTE", "PAYTRIBUTE"}
    assert all(report.games == 2 and report.bot_failures == 0 for report in reports)


# --- how the client stops ---------------------------------------------------------------------------------


@asynccontextmanager
async def peer(frames: list[object], *, close: bool = False) -> AsyncIterator[str]:
    """A server that answers the client's first frame with ``frames`` (text as is, the rest as JSON),
    then closes the connection (``close``) or stays silent."""

    async def handler(connection: ServerConnection) -> None:
        await connection.recv()
        for frame in frames:
            await connection.send(frame if isinstance(frame, str) else json.dumps(frame))
        if close:
            await connection.close(1011, "gone")
            return
        with contextlib.suppress(ConnectionClosed):
            await connection.wait_closed()

    async with serve(handler, "127.0.0.1", 0) as server:
        yield f"ws://127.0.0.1:{server.sockets[0].getsockname()[1]}"


def _stops(frames: list[object], *, close: bool = False, idle: float = 5.0) -> str:
    async def run() -> str:
        async with peer(frames, close=close) as url:
            with pytest.raises(ConnectError) as caught:
                await play(
                    url,
                    Seating("u1", 5, 1),
                    RandomBot(random.Random(1)),
                    fallback=RandomBot(random.Random(2)),
                    idle=idle,
                    wait=0,
                )
            return str(caught.value)

    return asyncio.run(run())


JOINED = {"code": 200, "data": {"userNum": 1, "roomId": 5}, "type": "JOIN_ROOM"}


def test_a_refused_join_stops_the_client_with_the_server_s_reason() -> None:
    refusal = {"code": -1, "data": {"msg": "房间不存在"}, "type": "JOIN_ROOM"}
    assert _stops([refusal]) == "the server refused JOIN_ROOM: 房间不存在"


def test_a_refused_answer_stops_the_client_too() -> None:
    refusal = {"code": -1, "data": {"msg": "not an entry"}, "type": "PLAY"}
    assert _stops([JOINED, refusal]) == "the server refused PLAY: not an entry"


def test_a_frame_that_cannot_be_read_stops_the_client() -> None:
    assert _stops([JOINED, "<html>"]).endswith("sent a frame that is not a JSON object: <html>")
    assert _stops([JOINED, "[1, 2]"]).endswith("sent a frame that is not a JSON object: [1, 2]")
    request = {"type": "act", "stage": "play", "handCards": ["S2"]}
    assert _stops([JOINED, request]).startswith("cannot read the request: ")


def test_a_silent_server_stops_the_client_after_idle_seconds() -> None:
    assert "sent nothing for 0.3 s (--idle)" in _stops([JOINED], idle=0.3)


def test_a_dropped_connection_loses_the_seat() -> None:
    message = _stops([JOINED], close=True)
    assert "dropped before gameOver (close code 1011): seat 1 of room 5 is lost" in message
    assert "no reconnection" in message


def _ladder_stops(first: object) -> str:
    """What stops a ladder client whose server sends ``first`` (closing with 4408 when it is None)."""

    async def handler(connection: ServerConnection) -> None:
        if first is None:
            await connection.close(4408, "idle: no message for 120 s")
            return
        await connection.send(json.dumps(first))
        await connection.wait_closed()

    async def run() -> str:
        async with serve(handler, "127.0.0.1", 0) as server:
            port = next(iter(server.sockets)).getsockname()[1]
            bots = RandomBot(random.Random(1)), RandomBot(random.Random(2))
            url = f"ws://127.0.0.1:{port}/ws/ladder"
            with pytest.raises(ConnectError) as caught:
                await play_ladder(url, "t0ken", bots[0], fallback=bots[1], wait=0)
            return str(caught.value)

    return asyncio.run(run())


def test_a_ladder_client_at_another_protocol_s_socket_stops_at_the_first_frame() -> None:
    message = _ladder_stops({"type": "authenticated", "generation": 1})
    assert "speaks another protocol" in message
    assert "use ws://HOST/ws/ladder/openguandan" in message


def test_a_ladder_client_closed_as_idle_before_any_frame_says_so() -> None:
    message = _ladder_stops(None)
    assert "closed the connection as idle (close 4408) before any frame of OpenGuanDan's protocol" in message
