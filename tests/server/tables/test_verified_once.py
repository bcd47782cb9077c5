"""An action is read from the client once, verified by the rules once, and its log entry carries the
verified value: applying the entry does not read the record's shape back nor check it again. Replayed
from the store, an entry has no such value and is verified as it is applied."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from cardroom.guandan.deal import Deal as GuandanDeal
from cardroom.server.tables import guandan as guandan_table
from cardroom.server.tables import shengji as shengji_table
from cardroom.server.tables.guandan import Table
from cardroom.server.tables.shengji import ShengjiTable
from cardroom.shengji import Phase
from cardroom.shengji.deal import Deal as ShengjiDeal
from tests.server.tables.test_guandan import FOUR_HUMANS, bots, seated
from tests.server.tables.test_shengji import HUMAN_AND_BOTS, decide, my_turn, run_until


def counting(monkeypatch: pytest.MonkeyPatch, owner: object, name: str) -> list[object]:
    """Record what every call of ``owner.name`` returns, calling through."""
    calls: list[object] = []
    original: Callable[..., Any] = getattr(owner, name)

    def counted(*args: Any, **kwargs: Any) -> Any:
        result = original(*args, **kwargs)
        calls.append(result)
        return result

    monkeypatch.setattr(owner, name, counted)
    return calls


def test_a_guandan_act_is_verified_once_and_not_read_back(monkeypatch: pytest.MonkeyPatch) -> None:
    table, _ = seated()
    seat = table.current_player
    assert seat is not None
    single = next(action for action in table.legal_actions_json(seat) if len(action.get("cards", [])) == 1)
    verified = counting(monkeypatch, GuandanDeal, "verify")
    read_back = counting(monkeypatch, guandan_table, "from_record_action")
    entries = table.act(seat, {"type": "play", "cards": single["cards"]}, 5.0)
    assert [entry["type"] for entry in entries] == ["action"]
    assert len(verified) == 1
    assert read_back == []
    assert table.match.current_deal is not None
    assert table.match.current_deal.actions[-1] is verified[0]


def test_a_guandan_bot_step_is_verified_once(monkeypatch: pytest.MonkeyPatch) -> None:
    table, _ = seated()
    now = 10.0
    table.set_auto(table.current_player or 0, True, now)
    due = table.due()
    assert due is not None
    assert due.kind == "auto"
    verified = counting(monkeypatch, GuandanDeal, "verify")
    entries = table.step(max(now, due.at), bots())
    assert [entry["type"] for entry in entries] == ["action"]
    assert len(verified) == 1


def test_a_replayed_guandan_log_is_verified_entry_by_entry(monkeypatch: pytest.MonkeyPatch) -> None:
    table, _ = seated()
    seat = table.current_player
    assert seat is not None
    table.act(seat, table.legal_actions_json(seat)[0], 5.0)
    verified = counting(monkeypatch, GuandanDeal, "verify")
    again = Table.replay("t1", FOUR_HUMANS, table.log)
    assert len(verified) == 1
    assert again.log == table.log


def test_a_shengji_act_is_verified_once_and_not_read_back(monkeypatch: pytest.MonkeyPatch) -> None:
    table = ShengjiTable("s1", HUMAN_AND_BOTS, seed="declare-7")
    table.sit(0, "Ann", 1.0)
    now = run_until(table, my_turn)
    assert table.match.deals[-1].phase is Phase.DECLARE
    verified = counting(monkeypatch, ShengjiDeal, "verify")
    read_back = counting(monkeypatch, shengji_table, "parse_shengji_action")
    entries = table.act(0, {"type": "pass"}, now)
    assert [entry["action"] for entry in entries] == [{"seat": 0, "pass": True}]
    assert len(verified) == 1
    assert read_back == []


def test_a_shengji_bot_step_is_verified_once(monkeypatch: pytest.MonkeyPatch) -> None:
    table = ShengjiTable("s1", HUMAN_AND_BOTS, seed="declare-7")
    table.sit(0, "Ann", 1.0)
    now = run_until(table, lambda t: t.current_player == 1)
    due = table.due()
    assert due is not None
    assert due.kind == "bot"
    verified = counting(monkeypatch, ShengjiDeal, "verify")
    assert table.step(max(now, due.at), decide())
    assert len(verified) == 1
    replayed = counting(monkeypatch, shengji_table, "parse_shengji_action")
    again = ShengjiTable.replay("s1", HUMAN_AND_BOTS, table.log)
    assert again.log == table.log
    assert len(replayed) == sum(entry["type"] == "action" for entry in table.log)
