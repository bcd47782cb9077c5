"""The pure table: seats, actions through the engine's validator, clocks and 托管, the log and its replay,
what each viewer sees, and the record."""

from __future__ import annotations

import json
from typing import Any

import pytest

from cardroom.bots import make_bot
from cardroom.guandan.deal import PASS, Action, PlayAction
from cardroom.guandan.observation import Observation
from cardroom.records import replay
from cardroom.server.tables.codec import ProtocolError
from cardroom.server.tables.config import HUMAN, TableConfig, bot_seat
from cardroom.server.tables.guandan import Due, Table, token_hash
from tests.server.conftest import check_frames, clocks

FOUR_HUMANS = TableConfig(clocks=clocks(), bot_delay=0.0, deal_pause=0.0)


def seated(config: TableConfig = FOUR_HUMANS, seed: str = "seed-2") -> tuple[Table, list[str]]:
    table = Table("t1", config, seed=seed)
    tokens = [table.sit(seat, name, 1.0) for seat, name in enumerate(("Ann", "Bo", "Cy", "Di"))]
    return table, tokens


def bots() -> Any:
    made: dict[tuple[int, str], Any] = {}

    def decide(seat: int, name: str, observation: Observation) -> Action:
        bot = made.setdefault((seat, name), make_bot(name, seat))
        action: Action = bot.act(observation)
        return action

    return decide


def play_out(table: Table, start: float = 10.0, limit: int = 5000) -> float:
    """Let the table's automatic steps run (bots, expired clocks, deals) until it waits for no one."""
    now = start
    decide = bots()
    for _ in range(limit):
        due = table.due()
        if due is None:
            return now
        now = max(now, due.at)
        assert table.step(now, decide), f"the due step {due} did nothing"
    raise AssertionError("the table did not finish")


# -- seats -----------------------------------------------------------------------------------------------


def test_sitting_keeps_the_tokens_hash_and_starts_the_match_when_full() -> None:
    table = Table("t1", FOUR_HUMANS, seed="s")
    token = table.sit(0, " Ann ", 1.0)
    assert table.names[0] == "Ann"
    assert table.token_hashes[0] == token_hash(token)
    assert token not in json.dumps(table.log)
    assert table.seat_of(token) == 0
    assert table.seat_of("forged") is None
    assert (table.status, table.due()) == ("waiting", None)
    for seat in (1, 2, 3):
        table.sit(seat, f"P{seat}", 2.0)
    assert (table.status, table.due() is not None) == ("running", True)
    assert [entry["type"] for entry in table.log] == ["sit"] * 4 + ["start", "deal"]
    assert table.log[4]["seed"] == "s"
    deal = table.log[5]
    assert deal["deal_number"] == 1
    assert deal["leader"] == table.match.current_player
    assert deal["turned_card"] in deal["hands"][deal["leader"]].split()


@pytest.mark.parametrize(
    ("seat", "name", "words"),
    [
        (0, "Bo", "taken by Ann"),
        (3, "Bo", "heuristic bot"),
        (4, "Bo", "seat"),
        (1, "", "name"),
        (1, "a\nb", "control"),
    ],
)
def test_a_seat_that_cannot_be_taken_is_refused(seat: int, name: str, words: str) -> None:
    table = Table("t1", TableConfig(seats=(HUMAN, HUMAN, HUMAN, bot_seat())))
    table.sit(0, "Ann", 1.0)
    with pytest.raises(ProtocolError, match=words):
        table.sit(seat, name, 2.0)
    assert table.number == 1


def test_the_deals_follow_from_the_seed() -> None:
    first, _ = seated(seed="alpha")
    same, _ = seated(seed="alpha")
    other, _ = seated(seed="beta")
    assert first.log[5]["hands"] == same.log[5]["hands"]
    assert first.log[5]["hands"] != other.log[5]["hands"]


# -- acting ----------------------------------------------------------------------------------------------


def _frozen(table: Table) -> str:
    return json.dumps([table.log, [table.view(seat, 0.0) for seat in (0, 1, 2, 3, None)]], sort_keys=True)


@pytest.mark.parametrize(
    ("who", "action", "code"),
    [
        ("other", {"type": "pass"}, "out_of_turn"),
        ("leader", {"type": "pass"}, "illegal_action"),
        ("leader", {"type": "tribute", "card": "HA"}, "wrong_phase"),
        ("leader", {"type": "return", "card": "S3"}, "wrong_phase"),
        ("leader", {"type": "play", "cards": ["S3", "HA"]}, "illegal_action"),
        ("leader", {"type": "play", "cards": ["S3"], "kind": "Pair"}, "illegal_action"),
        ("leader", {"type": "bid"}, "bad_message"),
        ("leader", "pass", "bad_message"),
    ],
)
def test_a_refused_action_raises_its_code_and_changes_nothing(who: str, action: Any, code: str) -> None:
    table, _ = seated()
    leader = table.match.current_player
    assert leader is not None
    seat = leader if who == "leader" else (leader + 1) % 4
    before = _frozen(table)
    with pytest.raises(ProtocolError) as raised:
        table.act(seat, action, 5.0)
    assert raised.value.code == code
    assert raised.value.message
    assert _frozen(table) == before


def test_a_play_is_logged_as_the_records_action_and_moves_the_turn() -> None:
    table, _ = seated()
    leader = table.match.current_player
    assert leader is not None
    single = next(action for action in table.legal_actions_json(leader) if action["kind"] == "Single")
    entries = table.act(leader, {"type": "play", "cards": single["cards"]}, 5.0)
    assert entries == [
        {
            "type": "action",
            "seat": leader,
            "action": {"seat": leader, "play": ["Single", single["rank"], single["cards"]]},
            "by": "player",
            "at": 5.0,
        }
    ]
    assert table.match.current_player == (leader + 1) % 4
    assert table.turn_started == 5.0


def test_an_ambiguous_play_names_its_readings_and_a_chosen_one_is_taken() -> None:
    table, _ = seated()
    leader = table.match.current_player
    assert leader is not None
    legal = table.legal_actions_json(leader)
    groups: dict[str, list[dict[str, Any]]] = {}
    for action in legal:
        if action["type"] == "play":
            groups.setdefault(" ".join(sorted(action["cards"])), []).append(action)
    readings = next(group for group in groups.values() if len(group) > 1)
    before = _frozen(table)
    with pytest.raises(ProtocolError) as raised:
        table.act(leader, {"type": "play", "cards": readings[0]["cards"]}, 5.0)
    assert raised.value.code == "ambiguous_play"
    assert _frozen(table) == before
    chosen = readings[-1]
    entry = table.act(leader, chosen, 5.0)[0]
    assert entry["action"]["play"][:2] == [chosen["kind"], chosen["rank"]]


# -- clocks, bots, 托管 -----------------------------------------------------------------------------------


def test_the_clock_of_each_phase_and_its_expiry_puts_the_seat_in_auto() -> None:
    table, _ = seated(TableConfig(clocks=clocks(lead=40.0, follow=20.0), bot_delay=0.5))
    leader = table.match.current_player
    assert leader is not None
    assert table.due() == Due(1.0 + 40.0, "clock", leader)
    assert table.view(leader, 2.0)["deadline"] == 41.0
    assert table.step(40.9, bots()) == []
    entries = table.step(41.0, bots())
    assert [entry["type"] for entry in entries] == ["auto", "action"]
    assert entries[0] == {"type": "auto", "seat": leader, "on": True, "at": 41.0}
    assert entries[1]["by"] == "auto"
    follower = (leader + 1) % 4
    assert table.due() == Due(41.0 + 20.0, "clock", follower)
    assert table.view(0, 41.0)["seats"][leader]["auto"]
    # the follower's clock runs out too; around the table, the leader in 托管 then acts after bot_delay
    now = 61.0
    while table.match.current_player != leader:
        due = table.due()
        assert due is not None
        now = due.at
        table.step(now, bots())
    due = table.due()
    assert due == Due(now + 0.5, "auto", leader)
    assert table.view(leader, now)["deadline"] is None
    assert table.resume(leader, now + 0.1) == [{"type": "auto", "seat": leader, "on": False, "at": now + 0.1}]
    assert table.due() == Due(now + 0.1 + table.clock(), "clock", leader)  # type: ignore[operator]
    assert table.resume(leader, now + 0.2) == []


def test_acting_in_auto_ends_it() -> None:
    table, _ = seated(TableConfig(clocks=clocks(lead=1.0, follow=1.0), bot_delay=5.0))
    leader = table.match.current_player
    assert leader is not None
    table.step(2.0, bots())
    now = 2.0
    while table.match.current_player != leader:
        now += 1.0
        table.step(now, bots())
    action = table.legal_actions_json(leader)[0]
    entries = table.act(leader, action, now + 0.5)
    assert [entry["type"] for entry in entries] == ["auto", "action"]
    assert entries[0]["on"] is False
    assert entries[1]["by"] == "player"


def test_a_stale_due_does_nothing() -> None:
    table, _ = seated()
    due = table.due()
    assert due is not None
    leader = due.seat
    assert leader is not None
    table.act(leader, table.legal_actions_json(leader)[0], 3.0)
    number = table.number
    assert table.apply_due(due, None, 1000.0) == []
    assert table.number == number


def test_a_bots_illegal_answer_is_replaced_by_a_legal_action() -> None:
    table = Table("t1", TableConfig(seats=(bot_seat(),) * 4, bot_delay=0.0), seed="s")
    table.start_if_ready(0.0)
    due = table.due()
    assert due is not None
    assert due.kind == "bot"
    assert due.seat is not None
    leading_pass = PlayAction(due.seat, PASS)  # the leader of a trick may not pass
    entries = table.apply_due(due, leading_pass, 1.0)
    assert entries[0]["seat"] == due.seat
    assert entries[0]["by"] == "bot"
    assert entries[0]["action"]["play"][0] != "PASS"


# -- the log ---------------------------------------------------------------------------------------------


def test_a_whole_match_replays_from_its_log_to_the_same_table() -> None:
    config = TableConfig(seats=(bot_seat("random"),) * 4, max_deals=3, bot_delay=0.0, deal_pause=0.0)
    table = Table("t1", config, seed="whole")
    table.start_if_ready(0.0)
    end = play_out(table)
    assert table.status == "finished"
    assert [entry["type"] for entry in table.log].count("deal_end") == len(table.match.deals) >= 3
    assert table.log[-1]["type"] == "match_end"
    stored = json.loads(json.dumps(table.log))  # what the store gives back
    again = Table.replay("t1", config, stored)
    assert again.log == table.log
    for viewer in (0, 1, 2, 3, None):
        assert again.view(viewer, end) == table.view(viewer, end)
        assert again.events_for(viewer) == table.events_for(viewer)
    report = replay(table.record())
    assert report.ok
    assert report.finished
    assert [list(deal.places) for deal in report.deals] == [
        entry["places"] for entry in table.log if entry["type"] == "deal_end"
    ]


def test_replaying_stops_at_an_entry_that_does_not_fit() -> None:
    table, _ = seated()
    leader = table.match.current_player
    entries = [
        *table.log,
        {
            "type": "action",
            "seat": leader,
            "action": {"seat": leader, "play": ["PASS", "PASS", "PASS"]},
            "by": "player",
            "at": 3.0,
        },
    ]
    with pytest.raises(ValueError, match="log entry 7"):
        Table.replay("t1", FOUR_HUMANS, entries)


def test_a_mid_deal_replay_has_the_same_state_clock_and_auto() -> None:
    table, _ = seated(TableConfig(clocks=clocks(lead=2.0, follow=2.0), bot_delay=0.0, deal_pause=0.0))
    now = 1.0
    for _ in range(12):
        due = table.due()
        assert due is not None
        now = due.at
        table.step(now, bots())
    again = Table.replay("t1", table.config, table.log)
    assert again.due() == table.due()
    assert again.auto == table.auto
    assert again.view(2, now) == table.view(2, now)
    again.restart_clocks(500.0)
    due = again.due()
    assert due is not None
    assert due.at == 500.0 + (0.0 if due.kind == "auto" else 2.0)


def test_the_record_while_running_holds_only_finished_deals() -> None:
    config = TableConfig(seats=(bot_seat("random"),) * 4, max_deals=2, bot_delay=0.0, deal_pause=0.0)
    table = Table("t1", config, seed="rec")
    table.start_if_ready(0.0)
    assert table.record()["deals"] == []
    now = 1.0
    while len(table.match.summaries) < 1 or table.match.current_deal is None:
        due = table.due()
        assert due is not None
        now = max(now, due.at)
        table.step(now, bots())
    record = table.record()
    assert len(table.match.deals) == 2
    assert len(record["deals"]) == 1
    assert record["meta"]["table"] == "t1"
    report = replay(record)
    assert report.ok
    assert not report.finished


# -- what each viewer sees -------------------------------------------------------------------------------


def test_no_projection_of_a_whole_match_shows_a_viewer_cards_it_may_not_know() -> None:
    """Four random bots play a match of several deals (tributes, returns); every event and a state
    after each entry, for each seat and a spectator, is checked."""
    config = TableConfig(seats=(bot_seat("random"),) * 4, max_deals=3, bot_delay=0.0, deal_pause=0.0)
    table = Table("t1", config, seed="whole")
    table.start_if_ready(0.0)
    frames: dict[int | None, list[dict[str, Any]]] = {viewer: [] for viewer in (0, 1, 2, 3, None)}
    decide = bots()
    now = 0.0
    while (due := table.due()) is not None:
        now = max(now, due.at)
        before = table.number
        table.step(now, decide)
        for viewer, seen in frames.items():
            seen += [
                {"type": "event", "number": number, "event": event}
                for number, event in table.events_for(viewer, before)
            ]
            seen.append(table.view(viewer, now))
    assert any(entry["type"] == "action" and "return" in entry["action"] for entry in table.log)
    for viewer, seen in frames.items():
        assert check_frames(seen, viewer, table.log, config) == len(seen)


def test_a_spectator_sees_no_hand_and_a_seat_only_its_own() -> None:
    table, _ = seated()
    deal = table.log[5]
    assert table.project(deal, None)["hand"] is None
    for seat in range(4):
        seen = table.project(deal, seat)
        assert "hands" not in seen
        assert sorted(seen["hand"]) == sorted(deal["hands"][seat].split())
    assert "token_hash" not in table.project(table.log[0], 0)
    assert "seed" not in table.project(table.log[4], 0)
    spectator = table.view(None, 0.0)
    assert spectator["hand"] is None
    assert spectator["to_act"] is False
    assert len(table.view(1, 0.0)["hand"]) == 27
