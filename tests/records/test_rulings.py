"""Records of the referee's rulings (docs/rules/competition.md#penalties): a skipped turn (违例), a foul
(犯规) with the next deal's named leader, and a forfeit (判负) are written, read back and replayed to the same
match; broken rulings are a ``RecordError`` naming the field, or the replay's first illegal action."""

from __future__ import annotations

import copy
import json
import random
from pathlib import Path
from typing import Any

import pytest

from cardroom.guandan.deal import Phase
from cardroom.guandan.match import Match
from cardroom.guandan.rulings import ForfeitRuling, FoulRuling, SkipTurnRuling
from cardroom.records import (
    VERSION,
    RecordError,
    dumps_record,
    loads_record,
    parse_record,
    read_record,
    record_of,
    replay,
    result_of,
    write_record,
)

Record = dict[str, Any]


def step(match: Match, rng: random.Random, count: int) -> None:
    """``count`` random legal actions (fewer if the deal ends)."""
    for _ in range(count):
        if match.current_deal is None:
            return
        match.apply(rng.choice(match.legal_actions()))


def ruled_match(forfeit: bool = True) -> Match:
    """Deal 1: a skipped follow, a skipped lead, then a foul by seat 1; deal 2 (no tribute, seat 3 named
    to lead): a few plays, then (optionally) team 0 forfeits mid-deal."""
    rng = random.Random(21)
    match = Match()
    match.deal_random(rng)
    step(match, rng, 3)
    deal = match.deals[-1]
    while deal.previous is None:  # a follow to skip
        step(match, rng, 1)
    seat = deal.current_player
    assert seat is not None
    match.apply_ruling(SkipTurnRuling(seat))
    while deal.previous is not None:  # a lead to skip
        step(match, rng, 1)
    seat = deal.current_player
    assert seat is not None
    match.apply_ruling(SkipTurnRuling(seat))
    step(match, rng, 2)
    match.apply_ruling(FoulRuling(1))
    match.deal_random(rng, leader=3)
    step(match, rng, 5)
    if forfeit:
        match.forfeit(0, "两次犯规")
    return match


def test_a_match_with_rulings_round_trips_through_its_record(tmp_path: Path) -> None:
    """摜彈 违例 "停止違規者一次出牌", 犯规 "本副牌結束，違規方雙下，下副牌不進貢，由違規者的下家或裁判長
    指定首圈領出者", 判负 "判本輪比賽結束，非違規方勝": the record holds each ruling where it was made, the
    named leader and the forfeit; the replay gives the same events, levels and result."""
    match = ruled_match()
    record = record_of(match, seed=21)
    assert record["version"] == VERSION == 1
    rulings = [action for action in record["deals"][0]["actions"] if "ruling" in action]
    assert [action["ruling"] for action in rulings] == ["skip_turn", "skip_turn", "foul"]
    assert rulings[-1] == {"seat": 1, "ruling": "foul"}
    assert record["deals"][0]["actions"][-1] == rulings[-1]
    assert record["deals"][1]["leader"] == 3
    assert record["deals"][1]["turned_card"] is None
    assert record["forfeit"] == {"side": 0, "reason": "两次犯规"}
    assert record["result"]["forfeited_by"] == 0
    assert record["result"]["winner"] == 1
    assert record["result"]["points"] == [0, 17]
    assert record["result"]["deals"][0]["foul_by"] == 1
    path = tmp_path / "ruled.json"
    write_record(path, record)
    assert read_record(path) == record
    assert '{"seat": 1, "ruling": "foul"}' in path.read_text(encoding="utf-8")
    report = replay(loads_record(dumps_record(record)))
    assert report.ok
    assert report.finished
    assert report.forfeited_by == 0
    assert report.result == result_of(match) == record["result"]
    assert report.deals[0].foul_by == 1
    assert report.deals[0].actions == len(record["deals"][0]["actions"])
    assert "forfeit of team 0" in report.state
    for original, again in zip(match.deals, report.match.deals, strict=True):
        assert again.events == original.events
        assert again.actions == original.actions
    assert record_of(report.match, seed=21) == record


def test_a_record_stopped_after_a_foul_replays_to_the_named_leaders_deal() -> None:
    """A record taken between the foul and the next deal is unfinished; the next deal then names its
    leader."""
    match = ruled_match(forfeit=False)
    report = replay(record_of(match))
    assert report.ok
    assert not report.finished
    deal = report.match.deals[-1]
    assert deal.after_foul
    assert deal.phase is Phase.PLAY
    assert report.match.deals[-1].events == match.deals[-1].events


@pytest.mark.parametrize("seed", range(6))
def test_random_rulings_replay_to_the_same_match(seed: int) -> None:
    """Rulings made at random moments (skipped turns, fouls, named leaders; for odd seeds a forfeit in
    deal 3) replay exactly."""
    rng = random.Random(seed)
    match = Match(max_deals=4)
    forfeit_after = rng.randrange(-1, 60) if seed % 2 else None
    rulings = 0
    while not match.is_over:
        match.deal_random(rng, leader=rng.randrange(4) if match.needs_named_leader else None)
        steps = 0
        while (deal := match.current_deal) is not None:
            seat = deal.current_player
            assert seat is not None
            roll = rng.random()
            if forfeit_after is not None and len(match.deals) == 3 and steps > forfeit_after:
                match.apply_ruling(ForfeitRuling(rng.randrange(2)))
            elif roll < 0.05 and match.can_ruling(SkipTurnRuling(seat)):
                match.apply_ruling(SkipTurnRuling(seat))
                rulings += 1
            elif roll < 0.06:
                match.apply_ruling(FoulRuling(rng.randrange(4)))
                rulings += 1
            else:
                match.apply(rng.choice(match.legal_actions()))
            steps += 1
    assert rulings > 0
    assert (match.forfeited is not None) == (seed % 2 == 1 and len(match.deals) == 3)
    record = json.loads(json.dumps(record_of(match, seed=seed)))
    report = replay(record)
    assert report.ok
    assert report.result == record["result"]
    for original, again in zip(match.deals, report.match.deals, strict=True):
        assert again.events == original.events


def test_a_forfeit_before_any_deal_is_recorded() -> None:
    """docs/rules/competition.md#late (摜彈, 比賽通則 九.1) "遲到超過10分鐘，按棄權處理": a match forfeited
    before its first deal is a record without deals whose ``forfeit`` ends it."""
    match = Match()
    match.forfeit(1, "迟到")
    record = record_of(match)
    assert record["deals"] == []
    report = replay(record)
    assert report.ok
    assert report.winner == 0
    assert report.points == (17, 0)


def test_a_version_1_record_without_rulings_is_read_and_written_as_before(legal: Record) -> None:
    """Records written before the rulings existed read as they did, and writing their match again gives
    the same record: no ruling, no named leader after the first deal, no forfeit, the same result."""
    report = replay(legal)
    assert report.ok
    again = record_of(report.match, legal["seats"], seed=legal["seed"])
    assert again == {**legal, "rules": again["rules"]}
    assert "forfeit" not in again
    assert all("foul_by" not in deal for deal in again["result"]["deals"])


# -- broken rulings ----------------------------------------------------------------------------------


@pytest.fixture
def ruled() -> Record:
    return record_of(ruled_match(), seed=21)


def foul_index(record: Record) -> int:
    actions = record["deals"][0]["actions"]
    return next(index for index, action in enumerate(actions) if action.get("ruling") == "foul")


@pytest.mark.parametrize(
    ("mutate", "path", "words"),
    [
        (
            lambda r: r["deals"][0]["actions"][foul_index(r)].update(ruling="red_card"),
            "ruling",
            "unknown ruling",
        ),
        (
            lambda r: r["deals"][0]["actions"][foul_index(r)].update(ruling=3),
            "ruling",
            "known: skip_turn, foul",
        ),
        (lambda r: r["deals"][0]["actions"][foul_index(r)].update(tribute="HA"), "", "exactly one of"),
        (lambda r: r["deals"][1].update(leader=None), "deals[1].leader", "missing: the deal after a foul"),
        (lambda r: r["deals"][1].update(leader=5), "deals[1].leader", "a seat 0–3, got 5"),
        (lambda r: r["deals"][1].update(turned_card="SA"), "deals[1].turned_card", "only the first deal"),
        (lambda r: r["forfeit"].update(side=2), "forfeit.side", "0 or 1, got 2"),
        (lambda r: r["forfeit"].update(reason=1), "forfeit.reason", "a string"),
        (lambda r: r["forfeit"].update(seat=1), "forfeit", "unknown field seat"),
        (lambda r: r.update(forfeit=[0]), "forfeit", "must be a JSON object"),
    ],
)
def test_a_malformed_ruling_is_a_record_error(ruled: Record, mutate: Any, path: str, words: str) -> None:
    mutate(ruled)
    with pytest.raises(RecordError) as raised:
        parse_record(ruled)
    expected = path or f"deals[0].actions[{foul_index(ruled)}]"
    if path == "ruling":
        expected = f"deals[0].actions[{foul_index_of_raw(ruled)}].ruling"
    assert raised.value.path == expected
    assert words in raised.value.message


def foul_index_of_raw(record: Record) -> int:
    """The index of the mutated ruling (no longer a foul): the last ruling of the first deal."""
    actions = record["deals"][0]["actions"]
    return max(index for index, action in enumerate(actions) if "ruling" in action)


def test_a_named_leader_without_a_foul_before_is_refused(legal: Record) -> None:
    """docs/rules/competition.md#tribute (摜彈, 比賽通則 三) "從第二副牌開始，在出牌前…進貢": a later deal
    names a leader only after a foul."""
    legal["deals"][1]["leader"] = 0
    with pytest.raises(RecordError, match=r"deals\[1\]\.leader: only the first deal names a leader"):
        parse_record(legal)


def test_a_skipped_turn_of_another_seat_is_the_first_illegal_action(ruled: Record) -> None:
    """摜彈 违例 "停止違規者一次出牌": a ruling that skips a seat not to act is reported as the replay's
    violation, with the rule's name."""
    actions = ruled["deals"][0]["actions"]
    index = next(i for i, action in enumerate(actions) if action.get("ruling") == "skip_turn")
    actions[index]["seat"] = (actions[index]["seat"] + 1) % 4
    report = replay(ruled)
    assert report.violation is not None
    assert report.violation.rule == "SkipTurnError"
    assert report.violation.path == f"deals[0].actions[{index}]"
    assert report.violation.description == "ruling skip_turn"
    assert "not to act" in report.violation.message


def test_an_action_after_a_foul_is_the_first_illegal_action(ruled: Record) -> None:
    """摜彈 犯规 "本副牌結束": nothing can follow a foul in its deal."""
    actions = ruled["deals"][0]["actions"]
    index = foul_index(ruled)
    actions.insert(index, copy.deepcopy(actions[index]))
    report = replay(ruled)
    assert report.violation is not None
    assert report.violation.rule == "WrongPhaseError"
    assert report.violation.path == f"deals[0].actions[{index + 1}]"


def test_a_forfeit_after_the_match_is_over_is_a_record_error(legal: Record) -> None:
    """摜彈 判负 "判本輪比賽結束": a forfeit ends a match still in play, not one already over."""
    legal["forfeit"] = {"side": 1}
    with pytest.raises(RecordError, match="forfeit: the match is over"):
        replay(legal)


def test_a_result_that_forgets_the_forfeit_is_a_mismatch(ruled: Record) -> None:
    broken = copy.deepcopy(ruled)
    del broken["result"]["forfeited_by"]
    broken["result"]["points"] = [14, 14]
    report = replay(broken)
    assert not report.ok
    assert any(line.startswith("result.forfeited_by: missing in the record") for line in report.mismatches)
    assert any(line.startswith("result.points") for line in report.mismatches)
