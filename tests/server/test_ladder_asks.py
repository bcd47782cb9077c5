"""A bot asking ``legal`` on each turn at its ladder tables on a real ``cardroom serve`` (docs/server.md,
"Limits"; docs/ladder.md, "Clocks and faults"): two bots play a two-pair match (four tables each) from one
address, each seat asking ``legal`` once a decision; none is refused as over the address's
limit on costly messages, so no decision is lost to the clock. Asked again and again about one decision,
the asks are limited as any."""

from __future__ import annotations

import json
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any, NamedTuple

import pytest

from cardroom.server.live.rooms import DECISION_MESSAGES
from tests.server.clients import frame, websocket
from tests.server.serving import Server
from tests.server.test_ladder_faults import events, finished, ready, sign_in
from tests.server.test_ladder_play import make_bot, seats_of

pytestmark = pytest.mark.server_process
"""Every test here starts `cardroom serve` (tests/server/serving.py)."""

Frame = dict[str, Any]


OPTIONS = ("--ladder-house", "random,heuristic", "--ladder-deal-pairs", "2", "--ladder-interval", "3600")


@pytest.fixture
def server(tmp_path: Path) -> Iterator[Server]:
    """A room whose ladder clock is 30 s: a decision is lost only to the limits (an ask refused leaves
    the seat nothing to play), not to a busy machine that delays a thread or the room past 5 s."""
    running = Server(tmp_path, *OPTIONS, "--ladder-clock", "30")
    try:
        yield running
    finally:
        running.stop()


@pytest.fixture
def quick_server(tmp_path: Path) -> Iterator[Server]:
    """A room whose ladder clock is 1 s: a decision the limits leave unasked runs out soon."""
    running = Server(tmp_path, *OPTIONS, "--ladder-clock", "1")
    try:
        yield running
    finally:
        running.stop()


class Played(NamedTuple):
    """What a seat saw: every frame, and among them the answers to its ``legal`` asks."""

    frames: list[Frame]
    answers: list[Frame]


def answers_an_ask(got: Frame) -> bool:
    """A ``legal`` frame, or an error that may refuse a ``legal``: not a refusal by the rules (it has a
    ``reason``: an earlier ``act`` that a busy machine answered after the turn moved on) nor a limit's
    refusal of another message (its ``refused`` names that message)."""
    if got["type"] == "legal":
        return True
    return got["type"] == "error" and "reason" not in got and got.get("refused", "legal") == "legal"


def ask_and_play(server: Server, token: str, seat: Frame, asks: int) -> Played:
    """Join the seat the ladder told; on each new turn send ``legal`` ``asks`` times and play the first
    action it lists, until the table ends."""
    frames: list[Frame] = []
    answers: list[Frame] = []
    acted = 0
    with websocket(server, f"/ws/tables/{seat['table']}") as ws:
        sign_in(ws, token)
        ws.send(json.dumps({"type": "join", "token": seat["token"], "since": 0}))
        while not frames or not finished(frames[-1]):
            got = frame(ws, 60)
            frames.append(got)
            if got["type"] == "state" and got["to_act"] and got["number"] > acted:
                acted = got["number"]
                for _ in range(asks):
                    ws.send(json.dumps({"type": "legal"}))
                for _ in range(asks):
                    answer = frame(ws, 60)
                    while not answers_an_ask(answer):
                        frames.append(answer)
                        answer = frame(ws, 60)
                    frames.append(answer)
                    answers.append(answer)
                legal = next((got for got in answers[-asks:] if got["type"] == "legal"), None)
                if legal is not None and legal["actions"]:
                    ws.send(json.dumps({"type": "act", "action": legal["actions"][0]}))
    return Played(frames, answers)


def test_bots_asking_legal_each_turn_at_eight_ladder_seats_from_one_address_are_never_refused(
    server: Server,
) -> None:
    _tao, tao_token, _ = make_bot(server, "Ann", "Asking Tao")
    _deep, deep_token, _ = make_bot(server, "Bob", "Asking Deep")
    with websocket(server, "/ws/ladder") as first, websocket(server, "/ws/ladder") as second:
        ready(first, tao_token)
        ready(second, deep_token)
        bots = {tao_token: seats_of(first, 4), deep_token: seats_of(second, 4)}
        with ThreadPoolExecutor(8) as pool:
            seen = list(
                pool.map(
                    lambda pair: (pair[1]["seat"], ask_and_play(server, pair[0], pair[1], 1).frames),
                    [(token, seat) for token, told in bots.items() for seat in told],
                )
            )
    assert len({seat["table"] for told in bots.values() for seat in told}) == 4
    answered = 0
    for at, frames in seen:
        errors = [got for got in frames if got["type"] == "error"]
        assert not [got for got in errors if got["code"] == "rate_limited"], errors
        faults = [fault for fault in events(frames, "fault") if fault["seat"] == at]
        assert not faults, "a bot that asks legal and answers loses no decision"
        answered += sum(1 for got in frames if got["type"] == "legal")
        assert finished(frames[-1])
    assert answered > 20, "the seats asked on each turn"


def test_asks_past_a_few_about_one_decision_are_limited_as_any(quick_server: Server) -> None:
    server = quick_server
    _tao, tao_token, _ = make_bot(server, "Ann", "Pestering Tao")
    _deep, deep_token, _ = make_bot(server, "Bob", "Patient Deep")
    with websocket(server, "/ws/ladder") as first, websocket(server, "/ws/ladder") as second:
        ready(first, tao_token)
        ready(second, deep_token)
        seats = seats_of(first, 4)
        patient = seats_of(second, 4)
        with ThreadPoolExecutor(8) as pool:
            calm = [pool.submit(ask_and_play, server, deep_token, seat, 1) for seat in patient]
            seen = list(pool.map(lambda seat: ask_and_play(server, tao_token, seat, 20), seats))
            for waiting in calm:
                waiting.result()
    refused = [got for played in seen for got in played.answers if got["type"] == "error"]
    assert refused, "twenty asks a decision at four tables are more than the limits allow"
    assert {got["code"] for got in refused} == {"rate_limited"}
    for played in seen:
        assert finished(played.frames[-1])
    assert DECISION_MESSAGES < 20
