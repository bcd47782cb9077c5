"""``cardroom compete`` over real websockets on a free localhost port: two scripted external clients and
two of our bots play a whole match; clients see only their own cards, every ``actionList`` holds
exactly the legal actions, bad answers are answered with errors while the fallback bot plays, and the
record replays clean."""

from __future__ import annotations

import asyncio
import contextlib
import json
import random
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed, InvalidStatus

from cardroom.cards import Card, Rank, parse_cards
from cardroom.competition.messages import action_identity, action_of_entry, play_of_triple
from cardroom.competition.server import CompeteConfig, CompeteReport, CompetitionServer
from cardroom.guandan.deal import Action, PlayAction, ReturnAction, TributeAction
from cardroom.guandan.moves import legal_plays
from cardroom.guandan.ruleset import COMPETITION
from cardroom.guandan.tribute import return_cards, tribute_cards
from cardroom.records import read_record, replay

Answer = Callable[[dict[str, Any], int], str | None]
"""A scripted client's answer to its n-th ``act`` message (``None``: no answer)."""

BAD_ANSWERS = ["{oops", '{"actIndex": "2"}', '{"actIndex": 99999}', None, "[1]", '{"index": 0}']
BAD_CODES = [
    "malformed-json",
    "not-an-integer",
    "out-of-range",
    "timeout",
    "not-an-object",
    "missing-actIndex",
]


def random_answers(seed: int, bad: list[str | None] | None = None) -> Answer:
    rng = random.Random(seed)
    script = list(bad or [])

    def answer(message: dict[str, Any], number: int) -> str | None:
        if number < len(script):
            return script[number]
        return json.dumps({"actIndex": rng.randrange(len(message["actionList"]))})

    return answer


async def scripted_client(url: str, answer: Answer) -> list[dict[str, Any]]:
    """Connect, answer every ``act`` message as scripted, and keep every message received."""
    received: list[dict[str, Any]] = []
    async with connect(url, max_size=2**24) as connection:
        acts = 0
        with contextlib.suppress(ConnectionClosed):
            async for raw in connection:
                message = json.loads(raw)
                received.append(message)
                if message.get("type") == "act":
                    text = answer(message, acts)
                    acts += 1
                    if text is not None:
                        await connection.send(text)
    return received


async def run_with_clients(
    config: CompeteConfig, clients: dict[str, Answer]
) -> tuple[CompeteReport, dict[str, list[dict[str, Any]]]]:
    server = CompetitionServer(config)
    task = asyncio.create_task(server.run())
    await server.listening.wait()
    base = f"ws://127.0.0.1:{server.port}/game/"
    transcripts = await asyncio.wait_for(
        asyncio.gather(*(scripted_client(base + name, answer) for name, answer in clients.items())), 120
    )
    report = await asyncio.wait_for(task, 30)
    return report, dict(zip(clients, transcripts, strict=True))


def _cards(names: list[str]) -> Counter[Card]:
    return Counter(Card.parse(name) for name in names)


def check_transcript(seat: int, messages: list[dict[str, Any]], record: dict[str, Any]) -> None:
    """Only the seat's own cards, and exactly the legal actions in each ``actionList``."""
    deal = -1
    own: Counter[Card] = Counter()
    paid_to_me: dict[int, Card] = {}
    for message in messages:
        stage, kind = message.get("stage"), message.get("type")
        if kind == "notify" and stage == "beginning":
            deal += 1
            paid_to_me = {}
            assert message["myPos"] == seat
            own = _cards(message["handCards"])
            assert own == Counter(parse_cards(record["deals"][deal]["hands"][seat]))
        elif kind == "notify" and stage in ("tribute", "back"):
            for giver, receiver, name in message["result"]:
                if stage == "back":
                    assert seat in (giver, receiver), "a return shown to a seat that is no party to it"
                if receiver == seat:
                    own[Card.parse(name)] += 1
                    if stage == "tribute":
                        paid_to_me[giver] = Card.parse(name)
        elif kind == "notify" and stage == "episodeOver":
            assert all(entry[0] == seat for entry in message["restCards"])
            for entry in message["restCards"]:
                assert not _cards(entry[1]) - own
        elif kind == "act":
            hand = _cards(message["handCards"])
            assert not hand - own, "handCards holds a card this seat was never given"
            assert message["myPos"] == seat
            _check_action_list(seat, message, list(hand.elements()), paid_to_me)


def _check_action_list(
    seat: int, message: dict[str, Any], hand: list[Card], paid_to_me: dict[int, Card]
) -> None:
    level = Rank.from_letter(message["curRank"])
    entries = [action_of_entry(entry, seat, level) for entry in message["actionList"]]
    assert message["indexRange"] == len(entries) - 1
    expected: list[Action]
    if message["stage"] == "tribute":
        expected = [TributeAction(seat, card) for card in tribute_cards(hand, level)]
    elif message["stage"] == "back":
        (payer,) = paid_to_me
        cards = return_cards(hand, level, COMPETITION, to_partner=payer == (seat + 2) % 4)
        expected = [ReturnAction(seat, card) for card in cards]
    else:
        previous = None if message["greaterPos"] == -1 else play_of_triple(message["greaterAction"], level)
        expected = [PlayAction(seat, play) for play in legal_plays(hand, previous, level)]
    listed = [action_identity(entry) for entry in entries]
    assert len(set(listed)) == len(listed)
    assert sorted(map(repr, listed)) == sorted(repr(action_identity(action)) for action in expected)


def test_a_match_with_two_scripted_clients_and_two_bots(tmp_path: Path) -> None:
    config = CompeteConfig(
        port=0, bots={1: "heuristic", 3: "random"}, max_deals=2, seed=11, timeout=1.5, out=tmp_path
    )
    report, transcripts = asyncio.run(
        run_with_clients(config, {"client0": random_answers(1, BAD_ANSWERS), "client2": random_answers(2)})
    )
    (path,) = report.records
    record = read_record(path)
    assert replay(record).ok
    assert record["seats"] == ["client0 (external)", "heuristic (bot)", "client2 (external)", "random (bot)"]
    check_transcript(0, transcripts["client0"], record)
    check_transcript(2, transcripts["client2"], record)

    errors = [message for message in transcripts["client0"] if message["type"] == "error"]
    assert [error["code"] for error in errors] == BAD_CODES
    acts = [message for message in transcripts["client0"] if message["type"] == "act"]
    for error, asked, sent in zip(errors, acts[: len(BAD_ANSWERS)], BAD_ANSWERS, strict=True):
        assert error["stage"] == asked["stage"]
        assert error["received"] == sent
        assert 0 <= error["actIndex"] <= asked["indexRange"]
        assert error["message"].endswith(f"; heuristic played index {error['actIndex']} for you")
    assert "no answer within 1.5 s" in errors[3]["message"]
    assert not [message for message in transcripts["client2"] if message["type"] == "error"]

    seats = {seat.seat: seat for seat in report.seats}
    assert seats[0].substitutions == len(BAD_CODES)
    assert seats[0].errors == dict.fromkeys(BAD_CODES, 1)
    assert seats[2].substitutions == 0
    meta = record["meta"]["competition"]
    assert [error["code"] for error in meta["errors"]] == BAD_CODES
    assert meta["seats"][0]["substitutions"] == len(BAD_CODES)

    for transcript in transcripts.values():
        stages = [(message["type"], message["stage"]) for message in transcript]
        assert stages[0] == ("notify", "beginning")
        assert stages[-2:] == [("notify", "gameOver"), ("notify", "gameResult")]
        assert stages.count(("notify", "episodeOver")) == len(record["deals"])
        result = transcript[-1]
        assert result["victoryNum"] == report.victories
        assert sum(result["victoryNum"]) + sum(result["draws"]) in (2, 4)


def test_substitutions_are_the_fallback_s_listed_actions(tmp_path: Path) -> None:
    """The action the error names is the one played: the next notification of the seat's play."""
    config = CompeteConfig(
        port=0, bots={1: "random", 2: "random", 3: "random"}, max_deals=1, seed=4, timeout=10
    )
    _, transcripts = asyncio.run(
        run_with_clients(config, {"client0": random_answers(3, ["{", "{", "{", "{", "{", "{"])})
    )
    transcript = transcripts["client0"]
    checked = 0
    for index, message in enumerate(transcript):
        if message["type"] != "error" or message["stage"] != "play":
            continue
        asked = next(m for m in reversed(transcript[:index]) if m["type"] == "act")
        played = next(m for m in transcript[index:] if m["stage"] == "play" and m["type"] == "notify")
        assert played["curPos"] == 0
        assert played["curAction"] == asked["actionList"][message["actIndex"]]
        checked += 1
    assert checked >= 1


async def _leave_after(url: str, acts: int) -> int:
    """Answer ``acts`` act messages with index 0, then hang up."""
    async with connect(url, max_size=2**24) as connection:
        async for raw in connection:
            if json.loads(raw).get("type") == "act":
                await connection.send('{"actIndex": 0}')
                acts -= 1
                if acts == 0:
                    break
    return acts


def test_a_client_that_leaves_is_replaced_by_the_fallback_bot(tmp_path: Path) -> None:
    async def leave() -> CompeteReport:
        server = CompetitionServer(
            CompeteConfig(
                port=0, bots={1: "random", 2: "random", 3: "random"}, max_deals=1, seed=6, out=tmp_path
            )
        )
        task = asyncio.create_task(server.run())
        await server.listening.wait()
        await _leave_after(f"ws://127.0.0.1:{server.port}/game/client0", 2)
        return await asyncio.wait_for(task, 30)

    report = asyncio.run(leave())
    seat = report.seats[0]
    assert seat.substitutions > 1
    assert seat.errors == {"disconnected": seat.substitutions}
    record = read_record(report.records[0])
    assert replay(record).ok
    (error,) = record["meta"]["competition"]["errors"]
    assert error["message"] == "the client is gone; the heuristic bot plays the seat until one connects again"


async def _refusals(config: CompeteConfig) -> dict[str, Any]:
    server = CompetitionServer(config)
    task = asyncio.create_task(server.run())
    await server.listening.wait()
    base = f"ws://127.0.0.1:{server.port}"
    seen: dict[str, Any] = {}

    async def refused(path: str) -> tuple[dict[str, Any], int | None]:
        async with connect(base + path) as connection:
            message = json.loads(await connection.recv())
            with contextlib.suppress(ConnectionClosed):
                await connection.recv()
            return message, connection.close_code

    try:
        with pytest.raises(InvalidStatus) as caught:
            await connect(base + "/elsewhere")
        seen["404"] = caught.value.response.status_code
        seen["bot"] = await refused("/game/client1")
        first: ClientConnection = await connect(base + "/game/client0")
        seen["taken"] = await refused("/game/client0")
        await first.send('{"actIndex": 0}')
        seen["unexpected"] = json.loads(await first.recv())
        second = await connect(base + "/game/anyone")
        assert server.seats[2].connection is not None
        seen["full"] = await refused("/game/someone")
        await first.close()
        await second.close()
    finally:
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await task
    return seen


def test_connections_are_refused_clearly() -> None:
    seen = asyncio.run(_refusals(CompeteConfig(port=0, bots={1: "random", 3: "random"}, max_deals=1, seed=1)))
    assert seen["404"] == 404
    message, code = seen["bot"]
    assert (message["type"], message["code"], code) == ("error", "bot-seat", 1008)
    assert message["message"] == "seat 1 is played by our random bot; external seats: 0, 2"
    message, code = seen["taken"]
    assert (message["code"], message["message"], code) == ("seat-taken", "seat 0 already has a client", 1008)
    assert seen["unexpected"]["code"] == "unexpected"
    assert seen["unexpected"]["received"] == '{"actIndex": 0}'
    assert seen["unexpected"]["actIndex"] is None
    message, code = seen["full"]
    assert (message["code"], code) == ("no-free-seat", 1008)


def test_a_server_with_four_bots_needs_no_client(tmp_path: Path) -> None:
    config = CompeteConfig(
        port=0, bots=dict.fromkeys(range(4), "random"), matches=2, max_deals=1, seed=3, out=tmp_path
    )
    report = asyncio.run(CompetitionServer(config).run())
    assert [path.name for path in report.records] == ["match-001.json", "match-002.json"]
    assert all(replay(read_record(path)).ok for path in report.records)
    assert sum(report.victories) // 2 + sum(report.draws) // 4 == 2


def test_config_is_checked() -> None:
    with pytest.raises(ValueError, match="bot seats are 0–3"):
        CompeteConfig(bots={4: "random"})
    with pytest.raises(ValueError, match="matches must be at least 1"):
        CompeteConfig(matches=0)
    with pytest.raises(ValueError, match="timeout must be positive"):
        CompeteConfig(timeout=0)
