"""``cardroom compete --protocol openguandan`` over real websockets: the recorded clients get the
recorded frames, and frames a careless server would take are refused saying why, changing nothing
(docs/openguandan-protocol.md, "What we do differently")."""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from typing import Any

import pytest
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed

from cardroom.openguandan.server import OpenGuanDanServer, ServeConfig
from tests.openguandan.recordings import ONE_GAME, TWO_GAMES, RecordedDealer, lines
from tests.openguandan.scripted import SeatScript

WAIT = 20.0


@asynccontextmanager
async def running(config: ServeConfig) -> AsyncIterator[OpenGuanDanServer]:
    server = OpenGuanDanServer(config)
    task = asyncio.create_task(server.run())
    await server.listening.wait()
    try:
        yield server
    finally:
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await task


async def _receive(connection: ClientConnection) -> dict[str, Any]:
    frame: dict[str, Any] = json.loads(await asyncio.wait_for(connection.recv(), WAIT))
    return frame


async def _recorded_client(
    url: str, script: SeatScript, my_turn: Awaitable[int], seated: Callable[[int], None]
) -> list[str]:
    """Play ``script``'s seat: its join once ``my_turn`` (the room's id), then each recorded answer once
    the frames before it have come and been checked; the first differences found, or none."""
    room = await my_turn
    async with connect(url) as connection:
        request = script.next_answer()
        assert request is not None
        if request["type"] == "JOIN_ROOM":
            request["data"]["roomId"] = room
        await connection.send(json.dumps(request))
        while not script.done:
            if not script.expects_frame:
                answer = script.next_answer()
                assert answer is not None
                await connection.send(json.dumps(answer))
                continue
            frame = await _receive(connection)
            found = script.check(frame)
            if found:
                return [f"seat {script.seat}, frame {script.checked}: {text}" for text in found]
            if frame.get("type") in ("CREATE_ROOM", "JOIN_ROOM"):
                seated(frame["data"]["roomId"])
    return []


async def _recorded_room(name: str) -> tuple[list[list[str]], list[SeatScript]]:
    """Our server, dealing the recorded hands, played by the four recorded clients over websockets
    until the room is over or a seat finds a difference (the others are then stopped)."""
    config = ServeConfig(port=0, rooms=1, dealers=lambda room: RecordedDealer(name))
    order = [line.seat for line in lines(name) if line.direction == "out" and "ROOM" in line.frame["type"]]
    turns: list[asyncio.Future[int]] = [asyncio.get_running_loop().create_future() for _ in order]
    scripts = [SeatScript(name, seat) for seat in range(4)]

    def seated_at(position: int) -> Callable[[int], None]:
        def seated(room: int) -> None:
            recorded = scripts[order[0]].recorded_room
            assert recorded is not None
            for script in scripts:
                script.map_room(recorded, room)
            if position + 1 < len(turns):
                turns[position + 1].set_result(room)

        return seated

    turns[0].set_result(0)
    async with running(config) as server:
        url = f"ws://127.0.0.1:{server.port}"
        tasks = [
            asyncio.ensure_future(_recorded_client(url, scripts[seat], turns[position], seated_at(position)))
            for position, seat in enumerate(order)
        ]
        pending = set(tasks)
        while pending:
            done, pending = await asyncio.wait(pending, timeout=600, return_when=asyncio.FIRST_COMPLETED)
            assert done, "the room stalled"
            if any(task.result() for task in done):
                for task in pending:
                    task.cancel()
                await asyncio.gather(*pending, return_exceptions=True)
                break
    found = [task.result() if task.done() and not task.cancelled() else [] for task in tasks]
    by_seat = [found[order.index(seat)] for seat in range(4)]
    return by_seat, scripts


def test_the_recorded_clients_of_the_two_game_room_get_the_recorded_frames() -> None:
    """Every frame of every stage, over websockets, field by field as recorded but for the documented
    differences; the room runs to its gameOver."""
    found, scripts = asyncio.run(_recorded_room(TWO_GAMES))
    assert found == [[], [], [], []]
    assert all(script.done for script in scripts)
    assert sum(script.checked for script in scripts) > 17_000


def test_the_recorded_clients_of_the_one_game_room_meet_our_tribute_rule_in_its_twelfth_deal() -> None:
    """As in tests/openguandan/test_room.py: equal tributes go by seat, not by arrival; every frame
    before is as recorded."""
    found, scripts = asyncio.run(_recorded_room(ONE_GAME))
    texts = [text for seat in found for text in seat]
    assert texts
    assert all(
        "result [[0, 3, 'DA'], [2, 1, 'SA']] != recorded [[2, 3, 'SA'], [0, 1, 'DA']]" in text
        for text in texts
    )
    assert sum(script.checked for script in scripts) > 7_900


# --- hostile frames -------------------------------------------------------------------------------------


class Seats:
    """Four raw connections seated in one room of our server."""

    def __init__(
        self, connections: list[ClientConnection], room: int, first: list[list[dict[str, Any]]]
    ) -> None:
        self.connections = connections
        self.room = room
        self.received = first

    async def until_asked(self) -> tuple[int, dict[str, Any]]:
        """Read the seats' frames until one is asked to act; that seat and its request."""
        for _ in range(400):
            for seat, connection in enumerate(self.connections):
                self.received[seat] += await _all_pending(connection)
            for seat, frames in enumerate(self.received):
                for frame in frames:
                    if frame.get("type") == "act":
                        frames.remove(frame)
                        return seat, frame
        raise AssertionError("no request came")

    async def send(self, seat: int, frame: object) -> dict[str, Any]:
        """Send ``frame`` on seat's connection and return the refusal (or reply) it gets."""
        await self.connections[seat].send(frame if isinstance(frame, str) else json.dumps(frame))
        while True:
            reply = await _receive(self.connections[seat])
            if reply.get("code") is not None:
                return reply
            self.received[seat].append(reply)


async def _all_pending(connection: ClientConnection) -> list[dict[str, Any]]:
    found = []
    while True:
        try:
            found.append(json.loads(await asyncio.wait_for(connection.recv(), 0.05)))
        except TimeoutError:
            return found


async def _seated(url: str, games: int = 1) -> Seats:
    connections = [await connect(url) for _ in range(4)]
    await connections[0].send(json.dumps({"type": "CREATE_ROOM", "data": {"userId": "u0", "round": games}}))
    room = (await _receive(connections[0]))["data"]["roomId"]
    for seat in (1, 2, 3):
        await connections[seat].send(
            json.dumps({"type": "JOIN_ROOM", "data": {"userId": f"u{seat}", "roomId": room, "seatNum": seat}})
        )
    first = [await _all_pending(connection) for connection in connections]
    return Seats(connections, room, first)


def _play(room: int, seat: int, entry: object, kind: str = "PLAY") -> dict[str, Any]:
    return {"type": kind, "data": {"roomId": room, "player": seat, "act": entry}}


def _refusal(kind: str | None, text: str) -> dict[str, Any]:
    return {"code": -1, "data": {"msg": text}, "type": kind}


def test_hostile_frames_are_refused_and_change_nothing() -> None:
    async def scenario() -> None:
        async with running(ServeConfig(port=0, seed=2)) as server:
            url = f"ws://127.0.0.1:{server.port}"
            seats = await _seated(url)
            room = seats.room
            asked, request = await seats.until_asked()
            other = (asked + 1) % 4
            entry = request["actionList"][0]
            assert await seats.send(other, _play(room, asked, entry)) == _refusal(
                "PLAY", f"this connection holds seat {other}; it cannot act for seat {asked}"
            )
            assert await seats.send(other, _play(room, other, entry)) == _refusal(
                "PLAY", f"no action is asked of seat {other} now; seat {asked} is to act"
            )
            reply = await seats.send(asked, _play(room, asked, ["Single", "3", ["S3", "S3"]]))
            assert reply["code"] == -1
            assert "is not an entry of the actionList sent to seat" in reply["data"]["msg"]
            assert (await seats.send(asked, _play(room + 1, asked, entry)))["data"]["msg"] == (
                f"this connection plays room {room}, not room {room + 1}"
            )
            assert await seats.send(asked, _play(room, asked, entry, "TRIBUTE")) == _refusal(
                "TRIBUTE", f"seat {asked} owes a PLAY, not a TRIBUTE"
            )
            wrong_type = {"type": "PLAY", "data": {"roomId": str(room), "player": asked, "act": entry}}
            assert await seats.send(asked, wrong_type) == _refusal(
                "PLAY", f'roomId is not an integer: "{room}"'
            )
            assert await seats.send(asked, {"type": "HELLO"}) == _refusal(
                "HELLO",
                "unknown type 'HELLO'; this server takes CREATE_ROOM, JOIN_ROOM, PLAY, TRIBUTE, PAYTRIBUTE",
            )
            assert await seats.send(
                asked, {"type": "JOIN_ROOM", "data": {"userId": "x", "roomId": 99}}
            ) == _refusal("JOIN_ROOM", f"this connection already holds seat {asked} of room {room}")
            async with connect(url) as stranger:
                await stranger.send(json.dumps(_play(room, asked, entry)))
                assert await _receive(stranger) == _refusal(
                    "PLAY", "this connection holds no seat: CREATE_ROOM or JOIN_ROOM first"
                )
                await stranger.send(json.dumps({"type": "JOIN_ROOM", "data": {"userId": "x", "roomId": 99}}))
                assert await _receive(stranger) == _refusal(
                    "JOIN_ROOM", "房间不存在 (room 99 does not exist)"
                )
                await stranger.send(
                    json.dumps({"type": "JOIN_ROOM", "data": {"userId": "x", "roomId": room}})
                )
                assert await _receive(stranger) == _refusal(
                    "JOIN_ROOM", f"房间已满 (room {room} is full, and no seat of 'x' is free)"
                )
            # after all that, the asked seat still plays its entry, and the game goes on
            await seats.connections[asked].send(json.dumps(_play(room, asked, entry)))
            notice = await _receive(seats.connections[other])
            while notice.get("stage") != "play" or notice.get("type") != "notify":
                notice = await _receive(seats.connections[other])
            assert (notice["curPos"], notice["curAction"]) == (asked, entry)
            for connection in seats.connections:
                await connection.close()

    asyncio.run(scenario())


def test_text_that_is_not_json_closes_that_connection_only() -> None:
    async def scenario() -> None:
        async with running(ServeConfig(port=0)) as server:
            url = f"ws://127.0.0.1:{server.port}"
            async with connect(url) as careless, connect(url) as careful:
                await careless.send("not json")
                with pytest.raises(ConnectionClosed) as closed:
                    await asyncio.wait_for(careless.recv(), WAIT)
                assert closed.value.rcvd is not None
                assert closed.value.rcvd.code == 1007
                assert "not JSON" in closed.value.rcvd.reason
                await careful.send(json.dumps({"type": "CREATE_ROOM", "data": {"userId": "u"}}))
                assert (await _receive(careful))["code"] == 200

    asyncio.run(scenario())


def test_a_dropped_seat_comes_back_with_join_room_and_is_asked_again() -> None:
    async def scenario() -> None:
        async with running(ServeConfig(port=0, seed=4)) as server:
            url = f"ws://127.0.0.1:{server.port}"
            seats = await _seated(url)
            asked, request = await seats.until_asked()
            await seats.connections[asked].close()
            await asyncio.sleep(0.1)
            async with connect(url) as thief:
                join = {
                    "type": "JOIN_ROOM",
                    "data": {"userId": "thief", "roomId": seats.room, "seatNum": asked},
                }
                await thief.send(json.dumps(join))
                assert (await _receive(thief))["data"]["msg"] == (
                    f"seat {asked} of room {seats.room} belongs to 'u{asked}'; only it may come back"
                )
            async with connect(url) as back:
                join = {"type": "JOIN_ROOM", "data": {"userId": f"u{asked}", "roomId": seats.room}}
                await back.send(json.dumps(join))
                assert await _receive(back) == {
                    "code": 200,
                    "data": {"userNum": asked, "roomId": seats.room},
                    "type": "JOIN_ROOM",
                }
                assert await _receive(back) == request
                await back.send(json.dumps(_play(seats.room, asked, request["actionList"][0])))
                assert (await _receive(back))["curPos"] == asked
            for connection in seats.connections:
                await connection.close()

    asyncio.run(scenario())


async def _first_entries(connection: ClientConnection, room: int, seat: int) -> list[dict[str, Any]]:
    """Answer each request of this seat with the first entry of its list until gameOver (a careless but
    lawful client); the frames received."""
    seen = []
    while True:
        frame = await _receive(connection)
        seen.append(frame)
        if frame.get("stage") == "gameOver":
            return seen
        if frame.get("type") != "act":
            continue
        kind = {"play": "PLAY", "tribute": "TRIBUTE", "back": "PAYTRIBUTE"}[frame["stage"]]
        answer = _play(room, seat, frame["actionList"][0], kind)
        if kind == "PAYTRIBUTE":
            answer["data"].update(tributePos=frame["tributePos"], tribute=frame["tribute"])
        await connection.send(json.dumps(answer))


def test_a_connection_whose_room_is_over_may_make_another() -> None:
    async def scenario() -> None:
        async with running(ServeConfig(port=0, seed=8, max_deals=1)) as server:
            seats = await _seated(f"ws://127.0.0.1:{server.port}")
            for seat, frames in enumerate(seats.received):
                pending = [frame for frame in frames if frame.get("type") == "act"]
                for frame in pending:  # a request that came with the seating frames
                    kind = {"play": "PLAY", "tribute": "TRIBUTE", "back": "PAYTRIBUTE"}[frame["stage"]]
                    await seats.connections[seat].send(
                        json.dumps(_play(seats.room, seat, frame["actionList"][0], kind))
                    )
            ends = await asyncio.wait_for(
                asyncio.gather(
                    *(
                        _first_entries(connection, seats.room, seat)
                        for seat, connection in enumerate(seats.connections)
                    )
                ),
                WAIT,
            )
            assert all(frames[-2]["stage"] == "gameResult" for frames in ends)
            create = {"type": "CREATE_ROOM", "data": {"userId": "again"}}
            assert (await seats.send(0, create))["data"]["roomId"] == seats.room + 1
            for connection in seats.connections:
                await connection.close()

    asyncio.run(scenario())
