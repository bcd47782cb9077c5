"""The offender's 下家 chooses (docs/rules/competition.md#violation, #foul): after a 违例 whether the
offender's next turn is skipped, after a 犯规 who leads the next deal. The pure table (choice, answer,
defaults, refusals, replay) and the websocket protocol (docs/protocol.md, "Choices")."""

from __future__ import annotations

import time
from dataclasses import replace
from typing import Any

import pytest
from fastapi.testclient import TestClient

from cardroom.bots import make_bot
from cardroom.guandan.deal import Action
from cardroom.guandan.observation import Observation
from cardroom.server.tables.codec import ProtocolError
from cardroom.server.tables.config import HUMAN, TableConfig, bot_seat
from cardroom.server.tables.guandan import Due, Table
from cardroom.tournament.conduct import Clocks as ConductClocks
from cardroom.tournament.conduct import ConductPolicy, Offence, Penalty
from tests.server.conftest import LONG_CLOCKS, Peer, clocks, full_table, guandan_table_of

PLAY_S = 20
"""The conduct policy's play clock (no countdown): a choice's time to answer."""


def config(penalty: Penalty, seats: tuple[Any, ...] = (HUMAN,) * 4) -> TableConfig:
    """Four seats (humans unless told), long clocks but ``play_s``; a lost connection gives ``penalty``."""
    policy = ConductPolicy(
        timeout=None,
        disconnection=penalty,
        clocks=ConductClocks(tribute_s=600, return_s=600, first_lead_s=600, play_s=PLAY_S, countdown_s=0),
    )
    return TableConfig(
        clocks=clocks(),
        bot_delay=0.0,
        deal_pause=0.0,
        conduct=policy,
        seats=(seats[0], seats[1], seats[2], seats[3]),
    )


def seated(table_config: TableConfig) -> Table:
    table = Table("t1", table_config, seed="seed-2")
    for seat in table_config.human_seats:
        table.sit(seat, ("Ann", "Bo", "Cy", "Di")[seat], 1.0)
    assert table.status == "running"
    return table


def leader(table: Table) -> int:
    seat = table.match.current_player
    assert seat is not None
    return seat


def decide(seat: int, name: str, observation: Observation) -> Action:
    action: Action = make_bot(name, seat).act(observation)
    return action


def types(entries: list[dict[str, Any]]) -> list[str]:
    return [entry["type"] for entry in entries]


# -- 违例: skip the offender's next turn? --------------------------------------------------------------


def test_a_violation_asks_a_human_next_player_and_play_waits_for_the_answer() -> None:
    table = seated(config(Penalty.VIOLATION))
    offender = leader(table)
    chooser = (offender + 1) % 4
    entries = table.penalise(offender, Offence.DISCONNECTION, 5.0)
    assert types(entries) == ["penalty", "choice"]
    assert entries[1] == {
        "type": "choice",
        "kind": "skip_turn",
        "seat": chooser,
        "offender": offender,
        "deadline": 5.0 + PLAY_S,
        "at": 5.0,
    }
    assert table.view(chooser, 6.0)["choice"] == {"kind": "skip_turn", "offender": offender, "deadline": 25.0}
    for viewer in (offender, (offender + 2) % 4, (offender + 3) % 4, None):
        assert table.view(viewer, 6.0)["choice"] is None
    # the offender is to play, but play waits for the 下家: no legal actions, no clock, no action
    assert table.waits_for_choice()
    offender_view = table.view(offender, 6.0)
    assert offender_view["turn"] == offender
    assert offender_view["to_act"] is False
    assert table.legal_actions_json(offender) == []
    assert offender_view["deadline"] is None
    assert table.due() == Due(25.0, "choice", chooser)


def test_the_offender_cannot_act_while_the_choice_is_open() -> None:
    table = seated(config(Penalty.VIOLATION))
    offender = leader(table)
    table.penalise(offender, Offence.DISCONNECTION, 5.0)
    single = table.view(offender, 4.0)["hand"][-1]  # any card: a single is a legal lead
    before = list(table.log)
    with pytest.raises(ProtocolError) as refused:
        table.act(offender, {"type": "play", "cards": [single]}, 6.0)
    assert refused.value.code == "wrong_phase"
    assert "choosing" in refused.value.message
    assert table.log == before


def test_choosing_not_to_skip_lets_the_offender_play_on_a_fresh_clock() -> None:
    table = seated(config(Penalty.VIOLATION))
    offender = leader(table)
    chooser = (offender + 1) % 4
    table.penalise(offender, Offence.DISCONNECTION, 5.0)
    entries = table.choose(chooser, {"type": "choose", "skip": False}, 9.0)
    assert entries == [
        {
            "type": "chosen",
            "kind": "skip_turn",
            "seat": chooser,
            "offender": offender,
            "skip": False,
            "by": "player",
            "at": 9.0,
        }
    ]
    assert table.conduct.choices == []
    assert offender not in table.conduct.pending_skip
    assert table.view(chooser, 9.0)["choice"] is None
    view = table.view(offender, 9.0)
    assert view["to_act"]
    assert table.due() == Due(9.0 + 600, "clock", offender)  # the deal's first lead: first_lead_s
    played = table.act(offender, table.legal_actions_json(offender)[0], 10.0)
    assert types(played) == ["action"]
    assert played[0]["seat"] == offender
    assert not any(entry["type"] == "ruling" for entry in table.log)


def test_choosing_to_skip_skips_the_offender_at_once_when_it_is_to_play() -> None:
    table = seated(config(Penalty.VIOLATION))
    offender = leader(table)
    chooser = (offender + 1) % 4
    table.penalise(offender, Offence.DISCONNECTION, 5.0)
    entries = table.choose(chooser, {"type": "choose", "skip": True}, 7.0)
    assert types(entries) == ["chosen", "ruling"]
    assert entries[0]["skip"] is True
    assert entries[1]["kind"] == "skip_turn"
    assert entries[1]["seat"] == offender
    assert entries[1]["lead_to"] == chooser  # a skipped lead goes to the next player of the other side
    assert table.match.current_player == chooser
    assert table.conduct.pending_skip == set()


def test_a_skip_chosen_before_the_offenders_turn_waits_for_that_turn() -> None:
    table = seated(config(Penalty.VIOLATION))
    first = leader(table)
    offender = (first + 2) % 4  # not to play now
    chooser = (offender + 1) % 4
    assert types(table.penalise(offender, Offence.DISCONNECTION, 5.0)) == ["penalty", "choice"]
    assert not table.waits_for_choice()  # play goes on meanwhile
    assert table.due() == Due(5.0 + PLAY_S, "choice", chooser)  # before the leader's clock (601)
    assert types(table.choose(chooser, {"type": "choose", "skip": True}, 6.0)) == ["chosen"]
    assert table.conduct.pending_skip == {offender}
    # the leader leads, the next passes: the offender's turn is skipped when it comes
    table.act(first, table.legal_actions_json(first)[-1], 7.0)
    table.act((first + 1) % 4, {"type": "pass"}, 8.0)
    assert table.due() == Due(8.0, "skip", offender)
    assert types(table.step(8.0, decide)) == ["ruling"]
    assert table.match.current_player == (offender + 1) % 4


@pytest.mark.parametrize(
    ("who", "message", "code"),
    [
        ("other", {"type": "choose", "skip": True}, "out_of_turn"),
        ("offender", {"type": "choose", "skip": False}, "out_of_turn"),
        ("chooser", {"type": "choose", "leader": 1}, "wrong_phase"),
        ("chooser", {"type": "choose"}, "bad_message"),
        ("chooser", {"type": "choose", "skip": "yes"}, "bad_message"),
        ("chooser", {"type": "choose", "skip": 1}, "bad_message"),
        ("chooser", {"type": "choose", "skip": True, "leader": 1}, "bad_message"),
        ("chooser", {"type": "choose", "skip": True, "why": "x"}, "bad_message"),
        ("chooser", {"type": "choose", "leader": 4}, "bad_message"),
        ("chooser", {"type": "choose", "leader": True}, "bad_message"),
    ],
)
def test_a_refused_choice_raises_its_code_and_changes_nothing(
    who: str, message: dict[str, Any], code: str
) -> None:
    table = seated(config(Penalty.VIOLATION))
    offender = leader(table)
    table.penalise(offender, Offence.DISCONNECTION, 5.0)
    seat = {"chooser": (offender + 1) % 4, "other": (offender + 2) % 4, "offender": offender}[who]
    before = list(table.log)
    views = [table.view(viewer, 6.0) for viewer in range(4)]
    with pytest.raises(ProtocolError) as refused:
        table.choose(seat, message, 6.0)
    assert refused.value.code == code
    assert table.log == before
    assert [table.view(viewer, 6.0) for viewer in range(4)] == views


def test_no_open_choice_is_refused() -> None:
    table = seated(config(Penalty.VIOLATION))
    with pytest.raises(ProtocolError) as refused:
        table.choose(0, {"type": "choose", "skip": True}, 2.0)
    assert refused.value.code == "wrong_phase"
    waiting = Table("t2", config(Penalty.VIOLATION))
    with pytest.raises(ProtocolError) as refused:
        waiting.choose(0, {"type": "choose", "leader": 0}, 2.0)
    assert refused.value.code == "wrong_phase"


def test_without_an_answer_the_skip_is_taken_at_the_deadline() -> None:
    table = seated(config(Penalty.VIOLATION))
    offender = leader(table)
    chooser = (offender + 1) % 4
    table.penalise(offender, Offence.DISCONNECTION, 5.0)
    assert table.step(24.9, decide) == []
    entries = table.step(25.0, decide)
    assert types(entries) == ["chosen", "ruling"]
    assert entries[0] == {**entries[0], "seat": chooser, "skip": True, "by": "default"}
    assert table.match.current_player == chooser


def test_a_default_skip_before_the_offenders_turn_waits_for_that_turn() -> None:
    table = seated(config(Penalty.VIOLATION))
    offender = (leader(table) + 2) % 4
    table.penalise(offender, Offence.DISCONNECTION, 5.0)
    entries = table.step(25.0, decide)
    assert types(entries) == ["chosen"]
    assert entries[0]["skip"] is True
    assert table.conduct.pending_skip == {offender}
    assert table.conduct.choices == []


def test_a_penalised_timeout_of_the_offender_waits_for_the_choice_instead_of_the_bots_move() -> None:
    policy = config(Penalty.VIOLATION).conduct
    assert policy is not None
    table = seated(replace(config(Penalty.VIOLATION), conduct=replace(policy, timeout=Penalty.VIOLATION)))
    offender = leader(table)
    chooser = (offender + 1) % 4
    entries = table.step(1.0 + 600, decide)  # the deal's first lead: first_lead_s
    assert types(entries) == ["penalty", "choice"]
    assert table.match.current_player == offender
    assert table.waits_for_choice()
    table.choose(chooser, {"type": "choose", "skip": False}, 610.0)
    assert table.due() == Due(610.0 + 600, "clock", offender)


def test_a_bot_next_player_skips_at_once_without_a_choice() -> None:
    table = seated(config(Penalty.VIOLATION, seats=(HUMAN, bot_seat(), HUMAN, bot_seat())))
    # make a human seat the player to act: step the bots until then
    now = 2.0
    while table.match.current_player not in (0, 2):
        now += 1
        table.step(now, decide)
    offender = leader(table)
    entries = table.penalise(offender, Offence.DISCONNECTION, now)
    assert types(entries) == ["penalty", "ruling"]
    assert entries[1]["kind"] == "skip_turn"
    assert table.conduct.choices == []


def test_a_next_player_in_auto_skips_at_once_without_a_choice() -> None:
    table = seated(config(Penalty.VIOLATION))
    first = leader(table)
    entries = table.step(1.0 + 600, decide)  # the leader's clock runs out: 托管, the bot leads for it
    assert types(entries) == ["auto", "action"]
    assert table.auto[first]
    offender = (first + 3) % 4  # its 下家 is the seat in 托管
    assert types(table.penalise(offender, Offence.DISCONNECTION, 602.0)) == ["penalty"]
    assert table.conduct.pending_skip == {offender}
    assert table.conduct.choices == []


def test_the_log_rebuilds_an_open_choice_and_a_restart_gives_it_a_full_clock() -> None:
    table = seated(config(Penalty.VIOLATION))
    offender = leader(table)
    chooser = (offender + 1) % 4
    table.penalise(offender, Offence.DISCONNECTION, 5.0)
    again = Table.replay("t1", table.config, table.log)
    assert again.conduct.choices == table.conduct.choices
    assert again.due() == table.due()
    assert again.view(chooser, 6.0) == table.view(chooser, 6.0)
    assert again.view(offender, 6.0) == table.view(offender, 6.0)
    again.restart_clocks(100.0)
    assert again.view(chooser, 100.0)["choice"]["deadline"] == 100.0 + PLAY_S
    # answered, the replay has no choice open and the same state
    table.choose(chooser, {"type": "choose", "skip": False}, 7.0)
    again = Table.replay("t1", table.config, table.log)
    assert again.conduct.choices == []
    assert again.view(offender, 8.0) == table.view(offender, 8.0)


def test_a_chosen_entry_without_its_choice_does_not_replay() -> None:
    table = seated(config(Penalty.VIOLATION))
    offender = leader(table)
    table.penalise(offender, Offence.DISCONNECTION, 5.0)
    table.choose((offender + 1) % 4, {"type": "choose", "skip": False}, 6.0)
    entries = [entry for entry in table.log if entry["type"] != "choice"]
    with pytest.raises(ValueError, match="no open 'skip_turn' choice"):
        Table.replay("t1", table.config, entries)


# -- 犯规: who leads the next deal? -----------------------------------------------------------------------


def test_after_a_foul_the_human_next_player_names_the_next_leader() -> None:
    table = seated(config(Penalty.FOUL))
    offender = leader(table)
    chooser = (offender + 1) % 4
    entries = table.penalise(offender, Offence.DISCONNECTION, 5.0)
    assert types(entries) == ["penalty", "ruling", "deal_end", "choice"]
    assert entries[-1] == {**entries[-1], "kind": "leader", "seat": chooser, "offender": offender}
    assert table.phase() == "between"
    assert table.view(chooser, 6.0)["choice"] == {
        "kind": "leader",
        "offender": offender,
        "deadline": 5.0 + PLAY_S,
        "seats": [0, 1, 2, 3],
    }
    assert table.view(offender, 6.0)["choice"] is None
    assert table.due() == Due(25.0, "choice", chooser)  # the next deal waits for the choice
    assert table.step(6.0, decide) == []
    named = (offender + 2) % 4
    answered = table.choose(chooser, {"type": "choose", "leader": named}, 7.0)
    assert answered == [
        {
            "type": "chosen",
            "kind": "leader",
            "seat": chooser,
            "offender": offender,
            "leader": named,
            "by": "player",
            "at": 7.0,
        }
    ]
    assert table.due() == Due(5.0, "deal")  # deal_pause 0: due at once
    (deal,) = table.step(7.0, decide)
    assert deal["type"] == "deal"
    assert deal["leader"] == named
    assert deal["turned_card"] is None
    assert table.match.current_player == named
    assert table.phase() == "play"  # no tribute
    again = Table.replay("t1", table.config, table.log)
    assert again.log == table.log
    assert again.view(named, 8.0) == table.view(named, 8.0)


def test_a_leader_choice_refuses_a_skip_answer_and_another_seat() -> None:
    table = seated(config(Penalty.FOUL))
    offender = leader(table)
    chooser = (offender + 1) % 4
    table.penalise(offender, Offence.DISCONNECTION, 5.0)
    before = list(table.log)
    with pytest.raises(ProtocolError) as refused:
        table.choose(chooser, {"type": "choose", "skip": True}, 6.0)
    assert refused.value.code == "wrong_phase"
    with pytest.raises(ProtocolError) as refused:
        table.choose(offender, {"type": "choose", "leader": offender}, 6.0)
    assert refused.value.code == "out_of_turn"
    assert table.log == before


def test_without_an_answer_the_next_player_leads_itself() -> None:
    table = seated(config(Penalty.FOUL))
    offender = leader(table)
    chooser = (offender + 1) % 4
    table.penalise(offender, Offence.DISCONNECTION, 5.0)
    again = Table.replay("t1", table.config, table.log)  # a restart keeps the open choice
    assert again.conduct.choices == table.conduct.choices
    entries = table.step(25.0, decide)
    assert types(entries) == ["chosen"]
    assert entries[0] == {**entries[0], "leader": chooser, "by": "default"}
    (deal,) = table.step(25.0, decide)
    assert deal["leader"] == chooser


def test_a_bot_next_player_leads_the_deal_after_a_foul_itself() -> None:
    table = seated(config(Penalty.FOUL, seats=(HUMAN, bot_seat(), HUMAN, bot_seat())))
    now = 2.0
    while table.match.current_player not in (0, 2):
        now += 1
        table.step(now, decide)
    offender = leader(table)
    entries = table.penalise(offender, Offence.DISCONNECTION, now)
    assert types(entries) == ["penalty", "ruling", "deal_end"]
    (deal,) = table.step(now, decide)
    assert deal["leader"] == (offender + 1) % 4


# -- over the websocket -------------------------------------------------------------------------------------

CONDUCT_LONG = {"tribute_s": 600, "return_s": 600, "first_lead_s": 600, "play_s": 600, "countdown_s": 0}


def wait_until(check: Any, timeout: float = 10.0) -> None:
    deadline = time.monotonic() + timeout
    while not check():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.02)


def test_a_human_next_player_chooses_not_to_skip_and_the_offender_plays(client: TestClient) -> None:
    table_id, tokens = full_table(
        client,
        conduct={"timeout": None, "disconnection": "VIOLATION", "clocks": CONDUCT_LONG},
        disconnect_grace=0.05,
        clocks=LONG_CLOCKS,
    )
    table = guandan_table_of(client, table_id)
    offender = leader(table)
    chooser = (offender + 1) % 4
    url = f"/ws/tables/{table_id}"
    with client.websocket_connect(url) as ws_chooser, client.websocket_connect(url) as ws_other:
        asker = Peer(ws_chooser, chooser)
        asker.join(tokens[chooser])
        other = Peer(ws_other, (offender + 2) % 4)
        other.join(tokens[(offender + 2) % 4])
        with client.websocket_connect(url) as ws_gone:  # the offender comes and goes: 掉线 → 违例
            Peer(ws_gone, offender).join(tokens[offender])
        state = asker.next_state(lambda frame: frame["choice"] is not None)
        assert state["choice"]["kind"] == "skip_turn"
        assert state["choice"]["offender"] == offender
        assert state["to_act"] is False
        event = next(
            f["event"] for f in asker.frames if f["type"] == "event" and f["event"]["type"] == "choice"
        )
        assert event["seat"] == chooser
        # the other seats see no choice; another seat's answer is refused
        assert other.next_state(lambda frame: frame["number"] >= state["number"])["choice"] is None
        other.send({"type": "choose", "skip": True})
        assert other.error()["code"] == "out_of_turn"
        asker.send({"type": "choose", "skip": "no"})
        assert asker.error()["code"] == "bad_message"
        with client.websocket_connect(url) as ws_back:
            back = Peer(ws_back, offender)
            waiting = back.join(tokens[offender])
            assert waiting["turn"] == offender
            assert waiting["to_act"] is False
            back.send({"type": "act", "action": {"type": "play", "cards": [waiting["hand"][-1]]}})
            assert back.error()["code"] == "wrong_phase"
            asker.send({"type": "choose", "skip": False})
            assert asker.next_state(lambda frame: frame["choice"] is None)["turn"] == offender
            back.next_state(lambda frame: frame["to_act"])
            back.send({"type": "act", "action": back.legal()[0]})
            played = back.next_state(lambda frame: frame["turn"] != offender)
            assert played["seats"][offender]["last"] is not None
            log = list(table.log)
    chosen = next(entry for entry in log if entry["type"] == "chosen")
    assert chosen == {**chosen, "kind": "skip_turn", "seat": chooser, "skip": False, "by": "player"}
    after = log[log.index(chosen) + 1 :]
    assert types(after)[:1] == ["action"]
    assert after[0]["seat"] == offender
    assert after[0]["by"] == "player"
    assert not any(entry["type"] == "ruling" for entry in log)


def test_a_human_next_player_names_the_leader_after_a_foul(client: TestClient) -> None:
    table_id, tokens = full_table(
        client,
        conduct={"timeout": None, "disconnection": "FOUL", "clocks": CONDUCT_LONG},
        disconnect_grace=0.05,
        clocks=LONG_CLOCKS,
    )
    table = guandan_table_of(client, table_id)
    offender = leader(table)
    chooser = (offender + 1) % 4
    named = (offender + 3) % 4
    url = f"/ws/tables/{table_id}"
    with client.websocket_connect(url) as ws_chooser, client.websocket_connect(url) as ws_watch:
        asker = Peer(ws_chooser, chooser)
        asker.join(tokens[chooser])
        watcher = Peer(ws_watch)
        watcher.join(None)
        with client.websocket_connect(url) as ws_gone:
            Peer(ws_gone, offender).join(tokens[offender])
        state = asker.next_state(lambda frame: frame["choice"] is not None)
        assert state["phase"] == "between"
        assert state["choice"] == {**state["choice"], "kind": "leader", "seats": [0, 1, 2, 3]}
        watcher.send({"type": "choose", "leader": 0})
        assert watcher.error()["code"] == "not_seated"
        asker.send({"type": "choose", "leader": named})
        dealt = asker.next_state(lambda frame: frame["deal_number"] == 2)
        assert dealt["choice"] is None
        assert dealt["turn"] == named
        assert dealt["phase"] == "play"
        deal = next(
            f["event"]
            for f in asker.frames
            if f["type"] == "event" and f["event"]["type"] == "deal" and f["event"]["deal_number"] == 2
        )
        assert deal["leader"] == named
    wait_until(lambda: any(entry["type"] == "chosen" for entry in table.log))
    chosen = next(entry for entry in table.log if entry["type"] == "chosen")
    assert chosen == {**chosen, "kind": "leader", "seat": chooser, "leader": named, "by": "player"}
