"""A bot account's clock and faults at the pure table (docs/ladder.md, "Clocks and faults"): a decision it
lets run out or an action the rules refuse is a fault, the fallback plays the move, the limit's fault
forfeits the match; the log replays the count."""

from __future__ import annotations

from typing import Any

import pytest

from cardroom.server.tables.codec import ProtocolError
from cardroom.server.tables.config import HUMAN, TableConfig, bot_seat
from cardroom.server.tables.entries import entry_from_json
from cardroom.server.tables.guandan import Due, Table
from tests.server.conftest import clocks
from tests.server.tables.test_guandan import bots, play_out

BOT = "bot:b1"
CONFIG = TableConfig(
    seats=(HUMAN, bot_seat(), bot_seat(), bot_seat()), clocks=clocks(bot=2.0), bot_delay=0.0, deal_pause=0.0
)


def bot_table(config: TableConfig = CONFIG, account: str | None = BOT) -> Table:
    """Seat 0 taken by a bot account (or a person, ``account`` None) at 1.0; the match has begun."""
    table = Table("t1", config, seed="faults-1")
    table.sit(0, "Little Tao", 1.0, account=account)
    return table


def to_seat_0(table: Table, now: float) -> float:
    """Let the house bots play until seat 0 is to act; the time then."""
    while table.match.current_player != 0:
        due = table.due()
        assert due is not None
        now = max(now, due.at)
        table.step(now, bots())
    return now


def illegal(table: Table) -> ProtocolError:
    """The refusal of seat 0's play of a card it does not hold."""
    held = {str(card) for card in table.match.current_deal.hand(0)}  # type: ignore[union-attr]
    missing = next(card for card in ("H2", "S2", "C2", "D2", "H3", "S3") if card not in held)
    with pytest.raises(ProtocolError) as refused:
        table.act(0, {"type": "play", "cards": [missing]}, 5.0)
    return refused.value


def test_a_bot_accounts_clock_runs_out_the_fallback_plays_and_the_fault_counts() -> None:
    table = bot_table()
    now = to_seat_0(table, 1.0)
    started = table.turn_started
    assert table.due() == Due(started + 2.0, "clock", 0)
    assert table.clock() == 2.0
    assert table.view(0, now)["deadline"] == started + 2.0
    assert table.step(started + 1.9, bots()) == []
    entries = table.step(started + 2.0, bots())
    assert [entry["type"] for entry in entries] == ["fault", "action"]
    assert entries[0] == {"type": "fault", "seat": 0, "kind": "clock", "count": 1, "at": started + 2.0}
    assert (entries[1]["seat"], entries[1]["by"]) == (0, "auto")
    assert table.auto == [False] * 4, "no 托管: the next decision has the bot clock again"
    assert table.view(None, started + 2.0)["seats"][0]["faults"] == 1
    assert [seat["faults"] for seat in table.summary()["seats"]] == [1, 0, 0, 0]
    to_seat_0(table, started + 2.0)
    assert table.due() == Due(table.turn_started + 2.0, "clock", 0)


def test_a_persons_clock_is_not_a_bots_and_makes_no_fault() -> None:
    table = bot_table(
        TableConfig(seats=CONFIG.seats, clocks=clocks(lead=7.0, follow=7.0, tribute=7.0, bot=2.0)),
        account=None,
    )
    to_seat_0(table, 1.0)
    assert table.due() == Due(table.turn_started + 7.0, "clock", 0)
    entries = table.step(table.turn_started + 7.0, bots())
    assert [entry["type"] for entry in entries] == ["auto", "action"]
    assert table.faults.counts == [0, 0, 0, 0]


def test_an_illegal_action_is_refused_counted_and_played_by_the_fallback_without_a_retry() -> None:
    table = bot_table()
    to_seat_0(table, 1.0)
    error = illegal(table)
    assert error.code == "illegal_action"
    entries = table.fault(0, error, 5.0)
    assert entries == [
        {"type": "fault", "seat": 0, "kind": "illegal", "count": 1, "reason": error.reason, "at": 5.0}
    ]
    assert table.due() == Due(5.0, "auto", 0)
    assert table.fault(0, error, 5.1) == [], "one fault a decision"
    legal = table.legal_actions_json(0)[0]
    with pytest.raises(ProtocolError) as again:
        table.act(0, legal, 5.2)
    assert (again.value.code, again.value.reason) == ("wrong_phase", "fallback_plays")
    played = table.step(5.3, bots())
    assert [(entry["type"], entry["seat"], entry["by"]) for entry in played] == [("action", 0, "auto")]
    assert table.faults.counts[0] == 1
    assert table.due() != Due(5.0, "auto", 0)


def test_while_the_fallback_plays_the_bots_state_says_it_is_not_to_act() -> None:
    table = bot_table()
    to_seat_0(table, 1.0)
    assert table.view(0, 4.0)["to_act"]
    table.fault(0, illegal(table), 5.0)
    during = table.view(0, 5.0)
    assert (during["turn"], during["to_act"], during["deadline"]) == (0, False, None)
    assert (during["can_pass"], during["options"]) == (False, [])
    table.step(5.3, bots())
    assert table.fallback_plays(0) is False


def test_only_a_bot_accounts_refusal_on_its_turn_is_a_fault() -> None:
    person = bot_table(account=None)
    to_seat_0(person, 1.0)
    assert person.fault(0, illegal(person), 5.0) == []
    table = bot_table()
    to_seat_0(table, 1.0)
    out_of_turn = ProtocolError("out_of_turn", "it is seat 1's turn")
    assert table.fault(0, out_of_turn, 5.0) == []
    table.act(0, table.legal_actions_json(0)[0], 5.0)
    assert table.fault(0, ProtocolError("illegal_action", "not now"), 5.1) == [], "not its turn"
    assert table.faults.counts == [0, 0, 0, 0]


def test_a_bot_account_may_not_turn_on_auto() -> None:
    table = bot_table()
    with pytest.raises(ProtocolError) as refused:
        table.set_auto(0, True, 2.0)
    assert refused.value.reason == "bot_no_auto"
    assert table.set_auto(0, False, 2.0) == []


def test_the_fault_that_reaches_the_limit_forfeits_the_match_for_the_bots_side() -> None:
    config = TableConfig(
        seats=CONFIG.seats, clocks=CONFIG.clocks, bot_delay=0.0, deal_pause=0.0, fault_limit=3
    )
    table = bot_table(config)
    play_out(table)
    faults = [entry for entry in table.log if entry["type"] == "fault"]
    assert [(entry["seat"], entry["count"]) for entry in faults] == [(0, 1), (0, 2), (0, 3)]
    last = table.log.index(faults[-1])
    end = table.log[last + 1]
    assert table.log[last + 1 :] == [end], "no move after the forfeiting fault"
    assert (end["type"], end["reason"], end["forfeited_by"], end["winner"]) == ("match_end", "forfeit", 0, 1)
    assert "3 faults" in end["note"]
    assert table.outcome() is not None
    assert table.outcome()["winner"] == 1  # type: ignore[index]
    assert table.view(None, 99.0)["seats"][0]["faults"] == 3


def test_faults_replay_from_the_log_with_the_fallback_still_to_play() -> None:
    table = bot_table()
    now = to_seat_0(table, 1.0)
    table.step(table.turn_started + 2.0, bots())  # a clock's fault
    now = to_seat_0(table, now)
    table.fault(0, illegal(table), 6.0)  # an illegal action's: the fallback has not played yet
    stored: list[dict[str, Any]] = [dict(entry) for entry in table.log]
    for fault in (entry for entry in stored if entry["type"] == "fault"):
        assert entry_from_json(fault).to_json() == fault
    again = Table.replay("t1", table.config, stored)
    assert again.faults.counts == [2, 0, 0, 0]
    assert again.due() == table.due() == Due(6.0, "auto", 0)
    assert again.view(0, 7.0) == table.view(0, 7.0)
    assert again.summary() == table.summary()
    assert again.step(7.0, bots())[0]["by"] == "auto"


def test_a_forfeited_match_replays_finished() -> None:
    config = TableConfig(
        seats=CONFIG.seats, clocks=CONFIG.clocks, bot_delay=0.0, deal_pause=0.0, fault_limit=2
    )
    table = bot_table(config)
    play_out(table)
    again = Table.replay("t1", config, [dict(entry) for entry in table.log])
    assert (again.status, again.outcome(), again.faults.counts) == ("finished", table.outcome(), [2, 0, 0, 0])


def test_a_fault_that_does_not_fit_the_log_is_refused_on_replay() -> None:
    table = bot_table()
    to_seat_0(table, 1.0)
    table.fault(0, illegal(table), 5.0)
    wrong_count = [*table.log[:-1], {**table.log[-1], "count": 2}]
    with pytest.raises(ValueError, match="fault 2: it has 0 so far"):
        Table.replay("t1", CONFIG, wrong_count)
    wrong_seat = [*table.log[:-1], {**table.log[-1], "seat": 1}]
    with pytest.raises(ValueError, match="not to act"):
        Table.replay("t1", CONFIG, wrong_seat)
    with pytest.raises(ValueError, match="unknown fault"):
        Table.replay("t1", CONFIG, [*table.log[:-1], {**table.log[-1], "kind": "rude"}])


def test_the_bot_clock_and_fault_limit_are_read_and_checked() -> None:
    config = TableConfig.from_dict({"clocks": {"bot": 3}, "fault_limit": 4})
    assert (config.clocks.bot, config.fault_limit) == (3.0, 4)
    assert TableConfig.from_dict(config.to_dict()) == config
    assert (TableConfig().clocks.bot, TableConfig().fault_limit) == (5.0, 10)
    with pytest.raises(ValueError, match="fault_limit: a whole number from 1 to 100"):
        TableConfig.from_dict({"fault_limit": 0})
    with pytest.raises(ValueError, match=r"clocks\.bot"):
        TableConfig.from_dict({"clocks": {"bot": -1}})
