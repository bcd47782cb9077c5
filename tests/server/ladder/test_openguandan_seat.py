"""OpenGuanDan's side of a ladder seat (:class:`OpenGuanDanProtocol` in a :class:`SeatBridge`,
docs/ladder.md, "Over OpenGuanDan's protocol"): fed a table's frames, it sends the seat what our
OpenGuanDan server's room sends that seat for the same deals, but for what a card room seat may not see
(others' returns, others' cards left) and the room's end; the bot's entry is the listed action; bad
answers are refusals, as faults."""

from __future__ import annotations

import json
import random
from typing import Any

from cardroom.cards import Card, Rank
from cardroom.competition.messages import Message, action_identity
from cardroom.guandan.match import Match
from cardroom.openguandan import frames
from cardroom.openguandan.room import Room
from cardroom.server.ladder.bridge import Move, Refusal, SeatBridge
from cardroom.server.ladder.openguandan_seat import OpenGuanDanProtocol
from cardroom.server.tables.codec import from_record_action, read_hand
from cardroom.server.tables.guandan import Table
from tests.server.ladder.test_bridge import TWO_DEALS
from tests.server.tables.test_bot_faults import bot_table
from tests.server.tables.test_guandan import bots


class Seat:
    """A bridge speaking OpenGuanDan's protocol for seat 0 of a pure table, fed its frames as the room
    sends them (events, then the state)."""

    def __init__(self, table: Table) -> None:
        self.table = table
        self.bridge = SeatBridge(table, 0, OpenGuanDanProtocol(1))
        self.told = 0
        self.sent: list[Message] = self.bridge.protocol.seated(self.bridge)

    def tell(self, now: float) -> list[Message]:
        new: list[Message] = []
        for number, event in self.table.events_for(0, self.told):
            new += self.bridge.frame({"type": "event", "number": number, "event": event})
        self.told = self.table.number
        new += self.bridge.frame(self.table.view(0, now))
        self.sent += new
        return new

    def to_act(self) -> None:
        """Run the table's bots until seat 0 is asked."""
        now = 2.0
        self.tell(now)
        while self.table.match.current_player != 0:
            due = self.table.due()
            assert due is not None
            now = max(now, due.at)
            self.table.step(now, bots())
            self.tell(now)


def play_through(seat: Seat, rng: random.Random) -> None:
    """Play the table out, seat 0 answering each ``act`` with a random entry of its list."""
    table, now = seat.table, 2.0
    seat.tell(now)
    while table.status == "running":
        request = seat.sent[-1]
        if table.match.current_player == 0 and request["type"] == "act":
            entry = rng.choice(request["actionList"])
            answer = seat.bridge.answer(json.dumps(frames.answer(request, 1, 0, entry)))
            assert isinstance(answer, Move)
            table.act(0, answer.action, now)
        else:
            due = table.due()
            assert due is not None
            now = max(now, due.at)
            table.step(now, bots())
        seat.tell(now)


def room_frames(table: Table) -> list[Message]:
    """What our OpenGuanDan server's room sends seat 0 for the table's deals: a one-game room of the same
    deals, each seat answering with the action the table's log has."""
    entries = table.log
    dealt = iter([entry for entry in entries if entry["type"] == "deal"])

    def dealer(match: Match) -> Any:
        entry = next(dealt)
        turned = Card.parse(entry["turned_card"]) if entry["turned_card"] else None
        return match.deal([read_hand(text) for text in entry["hands"]], entry["leader"], turned)

    room = Room(1, 1, dealer, rules=table.rules, max_deals=2)
    sent: list[Message] = []
    for seat in range(4):
        sent += [frame for to, frame in room.join(f"user-{seat}", None, seat) if to == 0]
    level = Rank.TWO
    for entry in entries:
        if entry["type"] == "deal":
            level = Rank.from_letter(entry["level"])
        if entry["type"] != "action":
            continue
        action = from_record_action(entry["action"], level, table.rules)
        request = room.request_of(action.seat)
        assert request is not None
        index = [action_identity(each) for each in request.actions].index(action_identity(action))
        answer = frames.parse_client_frame(
            json.dumps(frames.answer(request.frame, 1, action.seat, request.entries[index]))
        )
        assert isinstance(answer, frames.Answer)
        sent += [frame for to, frame in room.answer(action.seat, answer) if to == 0]
    return sent


def as_a_seat_sees(sent: list[Message]) -> list[Message]:
    """The room's frames for seat 0 with only what a card room seat may see: its own returns and cards
    left; no ``JOIN`` notices, and the room's end as the ladder's (``gameOver``, ``settingTimes`` 0)."""
    seen: list[Message] = []
    for message in sent:
        stage = message.get("stage")
        if message.get("type") == "JOIN" or stage == "gameResult":
            continue
        if stage == "back":
            message = {**message, "result": [item for item in message["result"] if 0 in item[:2]]}
        elif stage == "episodeOver":
            message = {**message, "restCards": [item for item in message["restCards"] if item[0] == 0]}
        elif stage == "gameOver":
            message = frames.game_over(1, 0)
        seen.append(message)
    return seen


def test_the_bridge_sends_what_our_openguandan_room_sends_for_the_same_deals() -> None:
    table = Table("t1", TWO_DEALS, seed="bridge-1")
    table.sit(0, "Little Tao", 1.0, account="bot:b1")
    seat = Seat(table)
    play_through(seat, random.Random(5))
    assert [message["type"] for message in seat.sent].count("act") > 3, "seat 0 was asked"
    stages = [message.get("stage") for message in seat.sent]
    assert "tribute" in stages or "anti-tribute" in stages, "deal 2 opens with tribute"
    assert seat.sent[0] == frames.joined(1, 0)
    assert seat.sent == as_a_seat_sees(room_frames(table))


def test_bad_answers_are_refused_as_faults_and_late_ones_are_not() -> None:
    seat = Seat(bot_table())
    seat.to_act()
    request = seat.sent[-1]
    assert request["type"] == "act"
    good = frames.answer(request, 1, 0, request["actionList"][0])
    for bad in (
        {**good, "data": {**good["data"], "act": ["Single", "X", ["X9"]]}},
        {**good, "data": {**good["data"], "player": 2}},
        {"type": "CREATE_ROOM", "data": {"userId": "me"}},
    ):
        seat.bridge.asked = seat.bridge.turn()
        refused = seat.bridge.answer(json.dumps(bad))
        assert isinstance(refused, Refusal)
        assert refused.fault, bad
        assert (refused.message["code"], refused.message["type"]) == (-1, "PLAY")
        assert "fallback" in refused.message["data"]["msg"]
    late = seat.bridge.answer(json.dumps(good))
    assert isinstance(late, Refusal)
    assert not late.fault, "one answer per request: after a refusal nothing is asked"
    seat.bridge.asked = seat.bridge.turn()
    assert isinstance(seat.bridge.answer(json.dumps(good)), Move)
