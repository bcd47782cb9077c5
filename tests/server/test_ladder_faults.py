"""Faulty bots on the ladder of a real ``cardroom serve`` (docs/ladder.md, "Clocks and faults" and "The
ladder in the card room"): a bot that answers every turn illegally, one that joins and never acts and
one that never joins each have a fault counted per decision, the fallback playing the move, until the
10th fault forfeits the table for its side (a deal can end sooner, with a seat's 8 or 9 decisions); the
match is rated with each forfeit scored 3 : 0 and its faults listed. A revoked token closes the bot's
ladder and table sockets at once and is refused after. What is checked is what a user sees: frames and
HTTP answers. Nothing is timed."""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import ExitStack
from pathlib import Path
from typing import Any

import pytest
from websockets.sync.client import ClientConnection

from cardroom.cards import full_deck
from cardroom.server.ladder.service import FORFEIT_RISE
from cardroom.server.live.bot_sockets import TOKEN_ENDED_CLOSE
from cardroom.server.tables.config import FAULT_LIMIT
from tests.server.clients import call, closing, frame, until, websocket
from tests.server.serving import Server
from tests.server.test_ladder_play import make_bot, seats_of

pytestmark = pytest.mark.server_process
"""Every test here starts `cardroom serve` (tests/server/serving.py)."""

Frame = dict[str, Any]
CARDS = sorted({str(card) for card in full_deck()})
LADDER = ("--ladder-house", "random,heuristic", "--ladder-deal-pairs", "1", "--ladder-interval", "3600")
"""Two house bots and two bot accounts make the one match; the room looks for another only when a bot
says it is ready, so each test's match is its own."""


def serve(tmp_path: Path, *options: str) -> Iterator[Server]:
    running = Server(tmp_path, *LADDER, *options)
    try:
        yield running
    finally:
        running.stop()


@pytest.fixture
def server(tmp_path: Path) -> Iterator[Server]:
    """The ladder's own clock (5 s a decision): an illegal answer is a fault whatever the machine's load."""
    yield from serve(tmp_path)


@pytest.fixture
def quick(tmp_path: Path) -> Iterator[Server]:
    """A short ladder clock (``--ladder-clock``): a silent bot runs out of time at once."""
    yield from serve(tmp_path, "--ladder-clock", "0.3")


def sign_in(ws: ClientConnection, token: str) -> None:
    ws.send(json.dumps({"type": "auth", "token": token}))
    until(ws, "authenticated")


def ready(ws: ClientConnection, token: str) -> None:
    sign_in(ws, token)
    ws.send(json.dumps({"type": "ready"}))
    until(ws, "ready")


def finished(got: Frame) -> bool:
    return bool(got["type"] == "state" and got["phase"] == "finished")


def watch(server: Server, table: str) -> list[Frame]:
    """Watch a table from its first event to its end: every frame."""
    frames: list[Frame] = []
    with websocket(server, f"/ws/tables/{table}") as ws:
        ws.send(json.dumps({"type": "join", "token": None, "since": 0}))
        while not frames or not finished(frames[-1]):
            frames.append(frame(ws, 60))
            assert frames[-1]["type"] != "error", frames[-1]
    return frames


def sit(server: Server, token: str, seat: Frame, answer: Callable[[Frame], Frame | None]) -> list[Frame]:
    """Join the seat the ladder told and answer each new turn with ``answer(state)`` (``None``: stay
    silent) until the table ends: every frame."""
    frames: list[Frame] = []
    acted = 0
    with websocket(server, f"/ws/tables/{seat['table']}") as ws:
        sign_in(ws, token)
        ws.send(json.dumps({"type": "join", "token": seat["token"], "since": 0}))
        while not frames or not finished(frames[-1]):
            got = frame(ws, 60)
            frames.append(got)
            if got["type"] == "state" and got["to_act"] and got["number"] > acted:
                acted = got["number"]
                action = answer(got)
                if action is not None:
                    ws.send(json.dumps({"type": "act", "action": action}))
    return frames


def illegal(state: Frame) -> Frame:
    """A play of a card the seat does not hold."""
    missing = next(card for card in CARDS if card not in state["hand"])
    return {"type": "play", "cards": [missing]}


def events(frames: list[Frame], kind: str) -> list[Frame]:
    return [got["event"] for got in frames if got["type"] == "event" and got["event"]["type"] == kind]


def rated_match(server: Server, bot: str, match_id: str) -> Frame:
    """The match as ``GET /api/ladder/{bot}`` lists it, once rated."""
    for _ in range(300):
        listed = call(server, "GET", f"/api/ladder/{bot}")
        assert listed.status == 200, listed
        match: Frame = next(match for match in listed.body["matches"] if match["id"] == match_id)
        if match["status"] == "rated":
            return match
        time.sleep(0.2)
    raise AssertionError(f"match {match_id} was not rated: {match}")


def table_gains(state: Frame) -> list[int]:
    """The levels each side (seats 0 & 2, 1 & 3) rose at an ended one-deal table, as its last state
    shows them: a forfeit 3 : 0 for the side that did not forfeit."""
    result = state["result"]
    if result["reason"] == "forfeit":
        return [0 if side == result["forfeited_by"] else FORFEIT_RISE for side in (0, 1)]
    deal = state["last_deal"]
    return [deal["rise"] if side == deal["places"][0] % 2 else 0 for side in (0, 1)]


def check_forfeits(
    server: Server, bots: dict[str, list[Frame]], watched: dict[str, list[Frame]], kind: str
) -> dict[str, Any]:
    """Each decision of the bots was one fault (of ``kind``), its move played by the fallback, until
    one of them reached 10 at a table: the table ended there, a forfeit of its side (a deal may end
    first, rarely: at least one table of the match is forfeited); the match is rated with each forfeit
    3 : 0 and the bots' faults listed. ``bots``: each bot's key and the seats it was told. The rated
    match."""
    match_id = next(iter(bots.values()))[0]["match"]
    match = rated_match(server, next(iter(bots)), match_id)
    faults = dict.fromkeys(bots, 0)
    for bot, told in bots.items():
        for seat in told:
            frames = watched[seat["table"]]
            last = frames[-1]
            at = seat["seat"]
            own_faults = [fault for fault in events(frames, "fault") if fault["seat"] == at]
            assert {fault["kind"] for fault in own_faults} <= {kind}, own_faults
            assert [fault["count"] for fault in own_faults] == list(range(1, len(own_faults) + 1))
            assert last["seats"][at]["faults"] == len(own_faults) <= FAULT_LIMIT
            faults[bot] += len(own_faults)
            moves = [action for action in events(frames, "action") if action["seat"] == at]
            assert {action["by"] for action in moves} <= {"auto"}, "the fallback plays every move"
            if len(own_faults) == FAULT_LIMIT:
                result = last["result"]
                assert (result["reason"], result["forfeited_by"], result["winner"]) == (
                    "forfeit",
                    at % 2,
                    1 - at % 2,
                )
                assert len(moves) == FAULT_LIMIT - 1, "the fallback does not play the forfeiting move"
                assert f"{FAULT_LIMIT} faults" in events(frames, "match_end")[0]["note"]
            else:
                assert len(moves) == len(own_faults), "each decision one fault, each played for"
    margin = 0
    forfeits = 0
    for pair in match["tables"]:
        for table, a_side in zip(pair, (0, 1), strict=True):
            state = watched[table][-1]
            at_limit = [seat for seat in state["seats"] if seat["faults"] == FAULT_LIMIT]
            assert len(at_limit) == (state["result"]["reason"] == "forfeit"), "a forfeit at the 10th fault"
            forfeits += len(at_limit)
            gains = table_gains(state)
            margin += gains[a_side] - gains[1 - a_side]
    assert forfeits >= 1, "10 faults forfeit a table"
    assert (match["margin"], match["winner"]) == (margin, 0 if margin > 0 else 1 if margin < 0 else None)
    assert match["faults"] == {
        **dict.fromkeys(match["team_a"] + match["team_b"], 0),
        **{f"{bot}#1": count for bot, count in faults.items()},
    }
    assert sum(faults.values()) >= FAULT_LIMIT
    listed = {row["key"]: row for row in call(server, "GET", "/api/ladder").body["entrants"]}
    for bot, count in faults.items():
        assert listed[f"{bot}#1"]["faults"] == count
        assert listed[f"{bot}#1"]["matches"] == 1
    return match


def test_a_bot_answering_every_turn_illegally_forfeits_its_tables_and_the_match_is_rated(
    server: Server,
) -> None:
    rash, rash_token, _ = make_bot(server, "Ann", "Rash Tao")
    wild, wild_token, _ = make_bot(server, "Bob", "Wild Tao")
    with websocket(server, "/ws/ladder") as first, websocket(server, "/ws/ladder") as second:
        ready(first, rash_token)
        ready(second, wild_token)
        bots = {rash: seats_of(first, 2), wild: seats_of(second, 2)}
        tokens = {rash: rash_token, wild: wild_token}
        tables = sorted({seat["table"] for told in bots.values() for seat in told})
        with ThreadPoolExecutor(6) as pool:
            watching = {table: pool.submit(watch, server, table) for table in tables}
            sitting = [
                (seat["seat"], pool.submit(sit, server, tokens[bot], seat, illegal))
                for bot, told in bots.items()
                for seat in told
            ]
            seen = [(at, future.result()) for at, future in sitting]
            watched = {table: future.result() for table, future in watching.items()}
        assert until(first, "result", timeout=30)["match"] == bots[rash][0]["match"]
    for at, frames in seen:
        refusals = [got for got in frames if got["type"] == "error" and got["code"] == "illegal_action"]
        # an act on a state sent before the fault (the bot's own turn again, say) is refused (while
        # the fallback plays, or once it has), and is no fault
        waits = [got for got in frames if got["type"] == "error" and got["code"] != "illegal_action"]
        late = {("wrong_phase", "fallback_plays"), ("out_of_turn", "out_of_turn")}
        assert {(got["code"], got["reason"]) for got in waits} <= late, waits
        faults = [fault for fault in events(frames, "fault") if fault["seat"] == at]
        assert len(faults) == len(refusals), "each refused play one fault"
        assert [fault["reason"] for fault in faults] == [got["reason"] for got in refusals]
    check_forfeits(server, bots, watched, "illegal")


def test_a_silent_bot_and_an_absent_one_run_out_of_time_until_they_forfeit(quick: Server) -> None:
    mute, mute_token, _ = make_bot(quick, "Ann", "Mute Tao")
    gone, gone_token, _ = make_bot(quick, "Bob", "Gone Tao")
    with websocket(quick, "/ws/ladder") as first, websocket(quick, "/ws/ladder") as second:
        ready(first, mute_token)
        ready(second, gone_token)
        bots = {mute: seats_of(first, 2), gone: seats_of(second, 2)}
        tables = sorted({seat["table"] for told in bots.values() for seat in told})
        with ThreadPoolExecutor(4) as pool:
            watching = {table: pool.submit(watch, quick, table) for table in tables}
            sitting = [pool.submit(sit, quick, mute_token, seat, lambda _state: None) for seat in bots[mute]]
            seen = [future.result() for future in sitting]
            watched = {table: future.result() for table, future in watching.items()}
        assert until(second, "result", timeout=30)["match"] == bots[mute][0]["match"]
    for frames in seen:
        assert not [got for got in frames if got["type"] == "error"]
        states = [got for got in frames if got["type"] == "state"]
        assert states[-1]["table"]["clocks"]["bot"] == 0.3, "the ladder's clock"
        assert any(got["to_act"] and got["deadline"] is not None for got in states)
    check_forfeits(quick, bots, watched, "clock")


def test_a_revoked_token_closes_the_bots_ladder_and_table_sockets_at_once_and_is_refused(
    quick: Server,
) -> None:
    tao, tao_token, ann = make_bot(quick, "Ann", "Little Tao")
    other, other_token, _ = make_bot(quick, "Bob", "Deep Tao")
    with ExitStack() as stack:
        first = stack.enter_context(websocket(quick, "/ws/ladder"))
        second = stack.enter_context(websocket(quick, "/ws/ladder"))
        ready(first, tao_token)
        ready(second, other_token)
        seat = seats_of(first, 2)[0]
        table = stack.enter_context(websocket(quick, f"/ws/tables/{seat['table']}"))
        sign_in(table, tao_token)
        table.send(json.dumps({"type": "join", "token": seat["token"], "since": 0}))
        assert until(table, "welcome")["seat"] == seat["seat"]
        ready_now = {row["key"]: row["ready"] for row in call(quick, "GET", "/api/ladder").body["entrants"]}
        assert ready_now[f"{tao}#1"]

        bot_id = tao.removeprefix("bot:")
        assert call(quick, "DELETE", f"/api/account/bots/{bot_id}/token", None, ann).status == 200
        for ws in (first, table):
            frames, code, _ = closing(ws, timeout=5)
            assert code == TOKEN_ENDED_CLOSE
            assert frames[-1]["code"] == "token_revoked"
        ready_now = {row["key"]: row["ready"] for row in call(quick, "GET", "/api/ladder").body["entrants"]}
        assert not ready_now[f"{tao}#1"], "a revoked bot is ready no more"
        assert ready_now[f"{other}#1"]

        for path in ("/ws/ladder", f"/ws/tables/{seat['table']}"):
            with websocket(quick, path) as again:
                again.send(json.dumps({"type": "auth", "token": tao_token}))
                frames, code, _ = closing(again, timeout=5)
                assert code == TOKEN_ENDED_CLOSE
                assert frames[-1]["code"] == "bad_bot_token", frames
        assert (
            call(quick, "GET", "/api/account", None, {"Authorization": f"Bearer {tao_token}"}).status == 401
        )
        # the seats left behind run out of time: the match ends all the same, rated
        assert until(second, "result", timeout=60)["match"] == seat["match"]
    match = rated_match(quick, tao, seat["match"])
    assert match["faults"][f"{tao}#1"] >= FAULT_LIMIT
