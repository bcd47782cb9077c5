"""The competition protocol's side of a ladder seat (:class:`SeatBridge`, docs/ladder.md, "Over the
competition protocol"): fed a table's frames, it sends the seat what ``cardroom compete`` sends for the
same deals (the same builders, on a match dealt the same cards); the bot's index is the listed action; bad
answers are refused, as faults, and late ones as none."""

from __future__ import annotations

import json
import random
from typing import Any

from cardroom.cards import Card, Rank
from cardroom.competition.messages import (
    Message,
    act,
    action_identity,
    action_of_entry,
    after_action,
    anti_tribute_seats,
    beginning,
    episode_over,
    notify_anti_tribute,
)
from cardroom.competition.order import order_actions
from cardroom.guandan.deal import Phase
from cardroom.guandan.match import Match
from cardroom.server.ladder.bridge import Move, Refusal, SeatBridge
from cardroom.server.tables.codec import from_record_action, read_hand
from cardroom.server.tables.config import TableConfig
from cardroom.server.tables.guandan import Table
from tests.server.tables.test_bot_faults import CONFIG, bot_table
from tests.server.tables.test_guandan import bots

TWO_DEALS = TableConfig(
    seats=CONFIG.seats, clocks=CONFIG.clocks, bot_delay=0.0, deal_pause=0.0, max_deals=2, rules="competition"
)


class Seat:
    """A bridge fed a pure table's frames for seat 0 as the room sends them (events, then the state)."""

    def __init__(self, table: Table) -> None:
        self.table = table
        self.bridge = SeatBridge(table, 0)
        self.told = 0
        self.sent: list[Message] = []

    def tell(self, now: float) -> list[Message]:
        new: list[Message] = []
        for number, event in self.table.events_for(0, self.told):
            new += self.bridge.frame({"type": "event", "number": number, "event": event})
        self.told = self.table.number
        new += self.bridge.frame(self.table.view(0, now))
        self.sent += new
        return new


def play_through(seat: Seat, rng: random.Random) -> list[int]:
    """Play the table out, seat 0 answering each ``act`` with a random index; the indexes."""
    table, now, chosen = seat.table, 2.0, []
    seat.tell(now)
    while table.status == "running":
        if table.match.current_player == 0 and seat.sent and seat.sent[-1]["type"] == "act":
            index = rng.randrange(len(seat.sent[-1]["actionList"]))
            chosen.append(index)
            answer = seat.bridge.answer(json.dumps({"actIndex": index}))
            assert isinstance(answer, Move)
            table.act(0, answer.action, now)
        else:
            due = table.due()
            assert due is not None
            now = max(now, due.at)
            table.step(now, bots())
        seat.tell(now)
    return chosen


def compete_messages(table: Table) -> list[Message]:
    """What ``cardroom compete``'s loop sends seat 0 for the table's deals, built on a match dealt the same
    cards and given the same actions."""
    rules = table.rules
    match = Match(rules, max_deals=2)
    sent: list[Message] = []
    deal = None
    level = Rank.TWO
    for entry in table.log:
        kind = entry["type"]
        if kind == "deal":
            hands = [read_hand(text) for text in entry["hands"]]
            turned = Card.parse(entry["turned_card"]) if entry["turned_card"] else None
            deal = match.deal(hands, entry["leader"], turned)
            level = deal.level
            sent.append(beginning(0, deal.dealt_hands[0], level, match.levels, rules))
            excused = anti_tribute_seats(deal)
            if excused:
                sent.append(notify_anti_tribute(excused))
        elif kind == "action":
            assert deal is not None
            action = from_record_action(entry["action"], level, rules)
            if action.seat == 0:
                observation = match.observation(0)
                sent.append(act(observation, order_actions(observation)))
            before = deal.last_play
            match.apply(action)
            sent += after_action(deal, action, before)[0]
            if deal.phase is Phase.OVER:
                assert deal.result is not None
                rest = [(0, deal.hand(0))] if deal.card_count(0) else []
                sent.append(episode_over(deal.result.places, level, rest, rules))
    return sent


def test_the_bridge_sends_what_compete_sends_for_the_same_deals() -> None:
    table = Table("t1", TWO_DEALS, seed="bridge-1")
    table.sit(0, "Little Tao", 1.0, account="bot:b1")
    seat = Seat(table)
    chosen = play_through(seat, random.Random(5))
    assert chosen, "seat 0 was asked"
    stages = [(message["type"], message["stage"]) for message in seat.sent]
    assert stages[-1] == ("notify", "gameOver")
    assert seat.sent[-1]["curTimes"] == 1
    assert seat.sent[:-1] == compete_messages(table)
    assert ("notify", "tribute") in stages or ("notify", "anti-tribute") in stages, (
        "deal 2 opens with tribute"
    )
    played = [
        (from_record_action(entry["action"], Rank.from_letter(level), table.rules), Rank.from_letter(level))
        for entry, level in _levelled(table.log)
        if entry["type"] == "action" and entry["action"]["seat"] == 0
    ]
    asked = [message for message in seat.sent if message["type"] == "act"]
    assert len(played) == len(asked) == len(chosen)
    for (action, level), message, index in zip(played, asked, chosen, strict=True):
        listed = action_of_entry(message["actionList"][index], 0, level, table.rules)
        assert action_identity(listed) == action_identity(action), "the index chose the action played"


def _levelled(log: list[dict[str, Any]]) -> list[tuple[dict[str, Any], str]]:
    """Each log entry with the level of its deal."""
    level, out = "2", []
    for entry in log:
        if entry["type"] == "deal":
            level = entry["level"]
        out.append((entry, level))
    return out


def test_bad_answers_are_faults_and_late_ones_are_not() -> None:
    table = bot_table()
    seat = Seat(table)
    now = 2.0
    seat.tell(now)
    while table.match.current_player != 0:
        due = table.due()
        assert due is not None
        now = max(now, due.at)
        table.step(now, bots())
        seat.tell(now)
    request = seat.sent[-1]
    assert request["type"] == "act"
    assert seat.tell(now) == [], "a state sent again is no new request"
    refused = seat.bridge.answer(json.dumps({"actIndex": request["indexRange"] + 1}))
    assert isinstance(refused, Refusal)
    assert refused.fault
    assert (refused.message["type"], refused.message["code"]) == ("error", "out-of-range")
    assert refused.message["stage"] == request["stage"]
    late = seat.bridge.answer(json.dumps({"actIndex": 0}))
    assert isinstance(late, Refusal)
    assert (late.fault, late.message["code"]) == (False, "unexpected"), "one answer per request"
