"""The referee: hand-edited records in ``data/`` (see ``build_data.py``) each reported at the first
illegal action, with its deal, index, seat and the rule broken; result mismatches; unfinished records."""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

import pytest

from cardroom.guandan import errors
from cardroom.records import read_record, replay

DATA = Path(__file__).parent / "data"


@pytest.mark.parametrize(
    ("name", "deal_index", "action_index", "overall_index", "seat", "rule"),
    [
        ("out_of_turn.json", 0, 5, 5, 3, "OutOfTurnError"),
        ("pass_on_lead.json", 0, 0, 0, 1, "MustLeadError"),
        ("does_not_beat.json", 0, 16, 16, 1, "DoesNotBeatError"),
        ("not_held.json", 0, 26, 26, 3, "NotHeldError"),
        ("not_a_combination.json", 0, 31, 31, 0, "NotACombinationError"),
        ("tribute_not_highest.json", 1, 0, 132, 0, "IllegalTributeError"),
        ("play_during_tribute.json", 1, 0, 132, 0, "WrongPhaseError"),
        ("tribute_under_anti_tribute.json", 1, 0, 132, 0, "WrongPhaseError"),
        ("return_too_high.json", 1, 1, 133, 2, "IllegalReturnError"),
    ],
)
def test_the_first_illegal_action_is_named(
    name: str, deal_index: int, action_index: int, overall_index: int, seat: int, rule: str
) -> None:
    record = read_record(DATA / name)
    report = replay(record)
    violation = report.violation
    assert violation is not None
    assert not report.ok
    assert (violation.deal_index, violation.action_index, violation.overall_index) == (
        deal_index,
        action_index,
        overall_index,
    )
    assert violation.seat == seat
    assert violation.rule == rule
    assert issubclass(getattr(errors, rule), errors.RuleError)
    assert violation.path == f"deals[{deal_index}].actions[{action_index}]"
    assert violation.action == record["deals"][deal_index]["actions"][action_index]
    assert report.actions_applied == overall_index
    assert len(report.deals) == deal_index  # the deals before it finished
    assert report.mismatches == ()
    assert "illegal action" in report.state


def test_messages_say_what_the_rule_wants() -> None:
    tribute = replay(read_record(DATA / "tribute_not_highest.json")).violation
    assert tribute is not None
    assert "highest" in tribute.message
    assert tribute.description == "tribute S2"
    beat = replay(read_record(DATA / "does_not_beat.json")).violation
    assert beat is not None
    assert "does not beat" in beat.message


def test_an_action_after_the_match_is_over(legal: dict[str, Any]) -> None:
    actions = legal["deals"][1]["actions"]
    actions.append(copy.deepcopy(actions[-1]))
    report = replay(legal)
    assert report.violation is not None
    assert report.violation.rule == "WrongPhaseError"
    assert report.violation.path == f"deals[1].actions[{len(actions) - 1}]"
    assert len(report.deals) == 2


def test_an_unreadable_play_out_of_turn_is_out_of_turn(legal: dict[str, Any]) -> None:
    """The core checks whose turn it is before the cards; the referee keeps that order."""
    leader = legal["deals"][0]["leader"]
    legal["deals"][0]["actions"][0] = {"seat": (leader + 1) % 4, "play": ["Pair", "3", ["S3", "H4"]]}
    report = replay(legal)
    assert report.violation is not None
    assert report.violation.rule == "OutOfTurnError"


def test_a_record_with_a_wrong_result_is_reported() -> None:
    report = replay(read_record(DATA / "result_mismatch.json"))
    assert report.violation is None
    assert not report.ok
    assert report.mismatches == (
        'result.levels: the record says ["A", "2"], the replay gives ["6", "2"]',
        "result.deals[0].rise: the record says 3, the replay gives 1",
    )


def test_a_legal_record_replays_to_its_result(legal: dict[str, Any]) -> None:
    report = replay(legal)
    assert report.ok
    assert report.finished
    assert report.result == legal["result"]
    assert [deal.places for deal in report.deals] == [(2, 3, 1, 0), (2, 0, 1, 3)]
    assert [deal.rise for deal in report.deals] == [1, 3]
    assert [level.letter for level in report.levels] == ["6", "2"]
    assert report.winner == 0
    assert report.points == (18, 10)
    assert report.actions_applied == 282


def test_an_unfinished_record_is_not_an_error() -> None:
    report = replay(read_record(DATA / "unfinished.json"))
    assert report.ok
    assert not report.finished
    assert report.points is None
    assert len(report.deals) == 1
    assert report.state == "deal 2 is in its play phase, seat 2 to act"
    assert report.result["finished"] is False
