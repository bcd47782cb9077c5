"""Records round trip: random matches written, read back and replayed give the same deals, levels and
result; a record taken at any moment of a match replays to that moment."""

from __future__ import annotations

import json
import random
from collections import Counter
from pathlib import Path

import pytest

from cardroom.guandan.deal import Phase
from cardroom.guandan.match import Match, shuffled_hands
from cardroom.guandan.ruleset import COMPETITION, RuleSet
from cardroom.records import (
    dealt_hands,
    dumps_record,
    play_random,
    random_match,
    read_record,
    record_of,
    replay,
    result_of,
    write_record,
)

VARIANT = RuleSet(name="variant", lead_passes_to_partner=False, ace_failure_limit=3, pass_ace_partner_place=2)


@pytest.mark.parametrize(
    ("seed", "rules", "max_deals"),
    [(1, COMPETITION, None), (2, COMPETITION, None), (3, VARIANT, None), (4, COMPETITION, 3)],
)
def test_a_random_match_replays_to_the_same_result(seed: int, rules: RuleSet, max_deals: int | None) -> None:
    match = random_match(random.Random(seed), rules, max_deals=max_deals)
    record = record_of(match, seed=seed)
    assert record["rules"] == rules.to_dict()
    report = replay(json.loads(json.dumps(record)))
    assert report.ok
    assert report.finished
    assert report.result == result_of(match) == record["result"]
    assert report.levels == (match.levels[0], match.levels[1])
    assert report.winner == match.winner
    assert report.points == match.points()
    assert [deal.places for deal in report.deals] == [summary.result.places for summary in match.summaries]
    assert [deal.levels_after for deal in report.deals] == [
        summary.levels_after for summary in match.summaries
    ]
    assert report.actions_applied == sum(len(deal["actions"]) for deal in record["deals"])
    for original, again in zip(match.deals, report.match.deals, strict=True):
        assert again.events == original.events


def test_the_dealt_hands_are_recorded_as_dealt() -> None:
    """Deal.hands changes during play; the record keeps the hands as dealt and the turned card."""
    rng = random.Random(7)
    match = Match(max_deals=3)
    dealt = []
    while not match.is_over:
        hands, (holder, card) = shuffled_hands(rng)
        if match.needs_leader:
            match.deal(hands, holder, card)
        else:
            match.deal(hands)
        dealt.append(hands)
        while match.current_deal is not None:
            match.apply(rng.choice(match.legal_actions()))
    assert [dealt_hands(deal) for deal in match.deals] == dealt
    assert record_of(match)["deals"][0]["turned_card"] == str(match.deals[0].turned_card)


def test_a_record_taken_mid_match_replays_to_the_same_moment() -> None:
    """Snapshots during tribute (a double tribute's first card paid face down), return, play, and
    between deals: the replay reaches the same hands, phase, turn and levels, and says it is unfinished."""
    rng = random.Random(6)  # deal 2 of this seed opens with a double tribute (双下)
    match = Match(max_deals=2)
    snapshots = pending = 0
    while not match.is_over:
        match.deal_random(rng)
        step = 0
        while match.current_deal is not None:
            deal = match.deals[-1]
            if deal.phase is not Phase.PLAY or step % 41 == 0:
                snapshots += 1
                pending += bool(deal.pending_tributes)
                check_snapshot(match)
            match.apply(rng.choice(match.legal_actions()))
            step += 1
        if not match.is_over:
            check_snapshot(match)
    assert pending >= 1
    assert snapshots >= 8


def check_snapshot(match: Match) -> None:
    record = record_of(match)
    report = replay(record)
    assert report.ok
    assert not report.finished
    assert report.result == record["result"]
    assert report.result["finished"] is False
    assert report.result["points"] is None
    again = report.match
    assert again.phase is match.phase
    assert again.levels == match.levels
    assert len(again.deals) == len(match.deals)
    if match.deals:
        deal, replayed = match.deals[-1], again.deals[-1]
        assert replayed.phase is deal.phase
        assert replayed.current_player == deal.current_player
        assert replayed.pending_tributes == deal.pending_tributes
        assert [Counter(replayed.hand(seat)) for seat in range(4)] == [
            Counter(deal.hand(seat)) for seat in range(4)
        ]
        assert replayed.events == deal.events
    if match.current_deal is not None:
        assert f"deal {len(match.deals)} is in its" in report.state


def test_a_record_file_round_trips(tmp_path: Path) -> None:
    record = play_random(2, max_deals=1, seats=["东 East", "南 South", "西 West", "北 North"])
    path = tmp_path / "match.json"
    write_record(path, record)
    assert read_record(path) == record
    text = path.read_text(encoding="utf-8")
    assert text == dumps_record(record)
    assert "东 East" in text  # ensure_ascii=False
    action_lines = [line for line in text.splitlines() if line.lstrip().startswith('{"seat": ')]
    assert len(action_lines) == len(record["deals"][0]["actions"])  # one action per line
    assert all(len(line) <= 110 or '"play"' in line for line in action_lines)


def test_play_random_is_reproducible_under_a_seed() -> None:
    first = play_random(11, max_deals=1)
    assert play_random(11, max_deals=1) == first
    assert play_random(12, max_deals=1) != first
    assert first["seed"] == 11
    assert first["max_deals"] == 1
    assert replay(first).ok


def test_an_empty_match_is_an_unfinished_record() -> None:
    record = record_of(Match())
    report = replay(record)
    assert report.ok
    assert not report.finished
    assert report.deals == ()
    assert "0 deals played" in report.state
