"""A Shengji table of the card room (issue 26): seats, dealing card by card with declaring, burying,
tricks, clocks and 托管, the log and its replay, what each viewer sees, and the record."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from cardroom.bots.shengji import make_shengji_bot
from cardroom.cards import format_cards, full_deck, parse_in_order
from cardroom.records.shengji import replay_shengji
from cardroom.server.tables import shengji as shengji_table
from cardroom.server.tables.codec import ProtocolError
from cardroom.server.tables.config import Clocks, TableConfig, bot_seat
from cardroom.server.tables.seated import Due
from cardroom.server.tables.shengji import ShengjiTable
from cardroom.shengji import Observation, Phase, Play, shuffled_deck

HUMAN_AND_BOTS = TableConfig(
    game="shengji",
    seats=(TableConfig().seats[0], bot_seat("heuristic"), bot_seat("random"), bot_seat("heuristic")),
    clocks=Clocks(lead=600.0, follow=600.0, declare=5.0, bury=600.0),
    bot_delay=0.0,
    deal_pause=0.0,
    deal_pace=0.1,
    max_deals=1,
)
FOUR_BOTS = TableConfig(
    game="shengji",
    seats=(bot_seat("heuristic"), bot_seat("random"), bot_seat("heuristic"), bot_seat("random")),
    bot_delay=0.0,
    deal_pause=0.0,
    deal_pace=0.0,
    max_deals=2,
)


def decide() -> Any:
    made: dict[tuple[int, str], Any] = {}

    def act(seat: int, name: str, observation: Observation) -> Any:
        return made.setdefault((seat, name), make_shengji_bot(name, seat)).act(observation)

    return act


def run_until(table: ShengjiTable, stop: Any, now: float = 10.0, limit: int = 20_000) -> float:
    """Carry out the table's automatic steps until ``stop(table)`` or nothing is due."""
    bots = decide()
    for _ in range(limit):
        if stop(table):
            return now
        due = table.due()
        if due is None:
            return now
        now = max(now, due.at)
        assert table.step(now, bots), f"the due step {due} did nothing"
    raise AssertionError("the table did not stop")


def my_turn(table: ShengjiTable) -> bool:
    return table.current_player == 0 and table.match.current_deal is not None


def test_a_table_of_bots_plays_its_deals_and_is_its_log() -> None:
    table = ShengjiTable("s1", FOUR_BOTS, seed="bots")
    table.start_if_ready(1.0)
    run_until(table, lambda t: t.status == "finished")
    assert table.status == "finished"
    kinds = [entry["type"] for entry in table.log]
    assert kinds.count("deal") == 2
    assert kinds.count("deal_end") == 2
    assert kinds[-1] == "match_end"
    assert table.log[-1]["reason"] == "deal_limit"
    rebuilt = ShengjiTable.replay("s1", FOUR_BOTS, json.loads(json.dumps(table.log)))
    assert rebuilt.log == table.log
    assert rebuilt.match.levels == table.match.levels
    assert rebuilt.status == "finished"
    report = replay_shengji(json.loads(json.dumps(table.record())))
    assert report.ok, report
    assert len(report.deals) == 2


def test_the_log_and_the_record_keep_the_deck_in_dealing_order() -> None:
    """Issue 40: the deal entry once held the deck in print order and the table dealt from it, so every
    Shengji table dealt the sorted deck. The deck is the shuffle of the deal's seed, in the order the
    cards are drawn, in the log, the match and the record alike."""
    table = ShengjiTable("s1", FOUR_BOTS, seed="order")
    table.start_if_ready(1.0)
    run_until(table, lambda t: t.status == "finished")
    entries = [entry for entry in table.log if entry["type"] == "deal"]
    record = table.record()
    assert len(entries) == len(record["deals"]) == 2
    for number, (entry, deal) in enumerate(zip(entries, record["deals"], strict=True), start=1):
        shuffled = shuffled_deck(random.Random(f"order:{number}"))
        assert parse_in_order(entry["deck"]) == shuffled
        assert table.match.deals[number - 1].deck == shuffled
        assert parse_in_order(deal["deck"]) == shuffled
        assert shuffled != full_deck()
    assert entries[0]["deck"] != entries[1]["deck"]


def test_a_log_written_with_the_deck_in_print_order_replays_as_it_was_dealt(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A table logged before issue 40 (its deck in print order) was dealt that sorted deck: its log
    still replays, and its record says so and replays (docs/records.md, "Shengji")."""
    monkeypatch.setattr(shengji_table, "format_in_order", format_cards)  # the writer before the fix
    old = ShengjiTable("s1", FOUR_BOTS, seed="old")
    old.start_if_ready(1.0)
    run_until(old, lambda t: t.status == "finished")
    monkeypatch.undo()
    log = json.loads(json.dumps(old.log))
    assert next(entry for entry in log if entry["type"] == "deal")["deck"] == format_cards(full_deck())
    rebuilt = ShengjiTable.replay("s1", FOUR_BOTS, log)
    assert rebuilt.log == log
    assert rebuilt.status == "finished"
    assert rebuilt.match.deals[0].deck == full_deck()
    record = json.loads(json.dumps(rebuilt.record()))
    assert parse_in_order(record["deals"][0]["deck"]) == full_deck()
    assert replay_shengji(record).ok


def test_a_state_is_small_whatever_the_hand() -> None:
    """Issue 25: a seat's ``state`` stays within 4 KB at every step of a deal (no list of every legal
    action: the page asks the server, ``check``)."""
    table = ShengjiTable("s1", FOUR_BOTS, seed="size")
    table.start_if_ready(1.0)
    largest = 0
    bots = decide()
    while table.status != "finished":
        due = table.due()
        assert due is not None
        for viewer in (None, 0, 1, 2, 3):
            largest = max(largest, len(json.dumps(table.view(viewer, due.at)).encode()))
        table.step(due.at, bots)
    assert 1000 < largest <= 4096


def test_deal_end_reveals_the_kitty_and_the_result() -> None:
    """docs/rules/shengji.md#kitty-bonus: 底牌的分牌至少要加倍加到抓分方的得分中: at the end the kitty is
    shown with its multiplier."""
    table = ShengjiTable("s1", FOUR_BOTS, seed="kitty")
    table.start_if_ready(1.0)
    run_until(table, lambda t: any(entry["type"] == "deal_end" for entry in t.log))
    end = next(entry for entry in table.log if entry["type"] == "deal_end")
    summary = table.match.summaries[0]
    assert end["kitty"] == " ".join(str(card) for card in table.match.deals[0].buried)
    assert end["score"] == summary.result.score
    assert end["kitty_multiplier"] == summary.result.kitty_multiplier
    assert end["levels_after"] == [level.letter for level in summary.levels_after]
    assert end["next_dealer"] == summary.next_dealer
    for viewer in (None, 0, 1):
        seen = table.view(viewer, 99.0)
        assert seen["last_deal"]["kitty"] == end["kitty"].split()
        assert seen["last_deal"]["score"] == end["score"]


def test_no_viewer_sees_the_deck_another_hand_or_the_buried_cards() -> None:
    table = ShengjiTable("s1", HUMAN_AND_BOTS, seed="secret")
    table.sit(0, "Ann", 1.0)
    run_until(table, lambda t: t.match.deals and t.match.deals[-1].phase is Phase.TRICKS and my_turn(t))
    deal = table.match.deals[-1]
    for viewer in (None, 0, 1, 2, 3):
        for _, entry in table.events_for(viewer):
            assert not {"deck", "seed", "token_hash"} & set(entry)
            action = entry.get("action", {})
            if "bury" in action and viewer != deal.dealer:
                assert action["bury"] is None
        state = table.view(viewer, 50.0)
        if viewer is None:
            assert state["hand"] is None
        else:
            assert sorted(state["hand"]) == sorted(str(card) for card in deal.hand(viewer))
        assert state["kitty"] == ([str(card) for card in deal.buried] if viewer == deal.dealer else [])
        assert "deck" not in json.dumps(state)


def test_dealing_goes_on_by_itself_when_the_person_has_nothing_to_declare() -> None:
    """A seat that cannot declare lets the dealing go on at the table's pace; one that can has its
    declare clock (docs/rules/shengji.md#declaring: 在摸牌過程中，任一方均可亮出任一花色級牌叫主)."""
    table = ShengjiTable("s1", HUMAN_AND_BOTS, seed="pace")
    table.sit(0, "Ann", 1.0)
    now = 10.0
    bots = decide()
    waited = {"pace": 0, "declare": 0}
    while table.match.deals[-1].phase is Phase.DECLARE:
        due = table.due()
        assert due is not None
        if due.seat == 0:
            assert due.kind == "pass"
            options = table.view(0, now)["declarations"]
            window = due.at - table.turn_started
            if options:
                assert window == pytest.approx(5.0)
                waited["declare"] += 1
            else:
                assert window == pytest.approx(0.1)
                waited["pace"] += 1
        now = max(now, due.at)
        table.step(now, bots)
    assert waited["pace"] > 0
    assert all(
        entry["by"] == "auto" for entry in table.log if entry.get("seat") == 0 and entry["type"] == "action"
    )


def test_a_person_declares_and_the_declaration_is_public() -> None:
    table = ShengjiTable("s1", HUMAN_AND_BOTS, seed="declare-7")
    table.sit(0, "Ann", 1.0)
    now = run_until(table, lambda t: my_turn(t) and bool(t.view(0, 0.0)["declarations"]))
    deal = table.match.deals[-1]
    assert deal.phase is Phase.DECLARE, "this seed gives seat 0 something to declare"
    cards = table.view(0, now)["declarations"][0]
    entries = table.act(0, {"type": "declare", "cards": cards}, now)
    assert entries[0]["action"] == {"seat": 0, "declare": " ".join(cards)}
    for viewer in (None, 1, 2, 3):
        assert table.view(viewer, now)["declaration"] == {"seat": 0, "cards": cards}


def test_refused_actions_name_the_rule_and_change_nothing() -> None:
    table = ShengjiTable("s1", HUMAN_AND_BOTS, seed="refuse")
    with pytest.raises(ProtocolError, match="the match has not started"):
        table.act(0, {"type": "pass"}, 1.0)
    table.sit(0, "Ann", 1.0)
    now = run_until(table, lambda t: t.match.deals[-1].phase is not Phase.DECLARE and my_turn(t))
    before = list(table.log)
    for action, code, text in [
        ({"type": "dance"}, "bad_message", "action.type"),
        ({"type": "play", "cards": []}, "bad_message", "action.cards"),
        ({"type": "play", "cards": ["S1"]}, "bad_message", "action.cards"),
        ({"type": "declare", "cards": ["HR", "HR"]}, "wrong_phase", "declaring is over"),
    ]:
        with pytest.raises(ProtocolError) as refused:
            table.act(0, action, now)
        assert refused.value.code == code
        assert text in refused.value.message
    with pytest.raises(ProtocolError) as refused:
        table.act(1, {"type": "pass"}, now)
    assert refused.value.code == "out_of_turn"
    assert table.log == before


def test_the_dealer_buries_eight_hidden_from_the_others() -> None:
    """docs/rules/shengji.md#kitty: 莊家具有摳底牌…: the dealer takes the 8 cards and buries 8 (扣底), seen by
    the dealer alone."""
    config = TableConfig.from_dict(
        {**HUMAN_AND_BOTS.to_dict(), "seats": [{"kind": "human"}] + [{"kind": "bot"}] * 3}
    )
    for seed in range(40):
        table = ShengjiTable("s1", config, seed=f"bury-{seed}")
        table.sit(0, "Ann", 1.0)
        now = 10.0
        while True:  # seat 0 declares whenever it can (the first deal's declarer deals)
            now = run_until(
                table,
                lambda t: (
                    my_turn(t)
                    and (t.match.deals[-1].phase is not Phase.DECLARE or bool(t.view(0, 0.0)["declarations"]))
                ),
                now,
            )
            options = table.view(0, now)["declarations"]
            if table.match.deals[-1].phase is not Phase.DECLARE:
                break
            table.act(0, {"type": "declare", "cards": options[-1]}, now)
        if table.match.deals[-1].phase is Phase.KITTY:
            break
    else:
        pytest.fail("no seed made seat 0 the dealer")
    hand = table.view(0, now)["hand"]
    assert len(hand) == 33
    assert len(table.view(0, now)["kitty"]) == 8
    with pytest.raises(ProtocolError, match="the dealer buries exactly 8 cards"):
        table.act(0, {"type": "bury", "cards": hand[:7]}, now)
    entries = table.act(0, {"type": "bury", "cards": hand[:8]}, now)
    assert sorted(table.view(0, now)["kitty"]) == sorted(hand[:8])
    assert len(table.view(0, now)["hand"]) == 25
    for viewer in (None, 1, 2, 3):
        assert table.view(viewer, now)["kitty"] == []
        assert table.project(entries[0], viewer)["action"] == {"seat": 0, "bury": None}
    assert table.project(entries[0], 0)["action"] == {"seat": 0, "bury": " ".join(sorted_cards(hand[:8]))}


def sorted_cards(names: list[str]) -> list[str]:
    from cardroom.cards import Card, sort_cards

    return [str(card) for card in sort_cards(Card.parse(name) for name in names)]


def test_a_play_breaking_the_follow_duty_is_refused() -> None:
    """docs/rules/shengji.md#follow-suit: follow suit; a play that does not is refused with the rule's
    name."""
    for seed in range(40):
        table = ShengjiTable("s1", HUMAN_AND_BOTS, seed=f"follow-{seed}")
        table.sit(0, "Ann", 1.0)
        now = run_until(table, lambda t: my_turn(t) and t.match.deals[-1].phase is Phase.TRICKS)
        observation = table.observation(0)
        legal = {action.cards for action in observation.legal_actions() if isinstance(action, Play)}
        if observation.lead is None or observation.lead.size != 1:
            continue
        wrong = [card for card in observation.hand if (card,) not in legal]
        if wrong:
            break
    else:
        pytest.fail("no seed gave seat 0 a single to follow with a card it may not play")
    with pytest.raises(ProtocolError) as refused:
        table.act(0, {"type": "play", "cards": [str(wrong[0])]}, now)
    assert refused.value.code == "illegal_action"
    assert refused.value.message.startswith("must follow"), "in the rule's words"
    assert "Error" not in refused.value.message, "never an exception's name (issue 45)"


def test_a_clock_run_out_puts_the_seat_in_tuoguan_until_it_resumes() -> None:
    config = TableConfig.from_dict(
        {**HUMAN_AND_BOTS.to_dict(), "clocks": {"lead": 5, "follow": 5, "bury": 5}}
    )
    table = ShengjiTable("s1", config, seed="clock")
    table.sit(0, "Ann", 1.0)
    run_until(table, lambda t: my_turn(t) and t.match.deals[-1].phase is not Phase.DECLARE)
    due = table.due()
    assert due is not None
    assert due.kind == "clock"
    assert due == Due(table.turn_started + 5.0, "clock", 0)
    entries = table.step(due.at, decide())
    assert entries[0] == {"type": "auto", "seat": 0, "on": True, "at": due.at}
    assert entries[1]["by"] == "auto"
    assert table.auto[0]
    assert table.resume(0, due.at + 1)[0]["on"] is False
    assert not table.auto[0]


def test_a_check_answers_like_the_action_would() -> None:
    table = ShengjiTable("s1", HUMAN_AND_BOTS, seed="check")
    table.sit(0, "Ann", 1.0)
    now = run_until(table, lambda t: my_turn(t) and t.match.deals[-1].phase is Phase.TRICKS)
    action = next(table.observation(0).legal_actions())
    assert isinstance(action, Play)
    number = table.number
    assert table.verify(0, {"type": "play", "cards": [str(card) for card in action.cards]}) == action
    assert table.number == number
    table.act(0, {"type": "play", "cards": [str(card) for card in action.cards]}, now)
    assert table.number > number


def test_a_shengji_table_refuses_what_it_does_not_play() -> None:
    with pytest.raises(ValueError, match="unknown shengji bot 'search'"):
        TableConfig(game="shengji", seats=(bot_seat("search"),) * 4)
    with pytest.raises(ValueError, match="unknown shengji rule set 'competition'"):
        TableConfig(game="shengji", rules="competition")
    with pytest.raises(ValueError, match="unknown game 'bridge'"):
        TableConfig(game="bridge")
    assert TableConfig(game="shengji").rules == "shengji"
