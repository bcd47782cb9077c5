"""Every arena game is written as a record that the referee replays."""

from __future__ import annotations

from pathlib import Path

from cardroom.arena import ArenaConfig, run_arena
from cardroom.records import read_record, replay


def test_every_game_is_a_record_the_replay_accepts(tmp_path: Path) -> None:
    config = ArenaConfig("random", "random", deals=2, matches=1, seed=3)
    outcomes = run_arena(config, workers=1, records=tmp_path)
    names = sorted(path.name for path in tmp_path.iterdir())
    assert names == [
        "deal-00000-direct.json",
        "deal-00000-swapped.json",
        "deal-00001-direct.json",
        "deal-00001-swapped.json",
        "match-00000-direct.json",
        "match-00000-swapped.json",
    ]
    for outcome in outcomes:
        way = "swapped" if outcome.swapped else "direct"
        record = read_record(tmp_path / f"{outcome.kind.value}-{outcome.index:05d}-{way}.json")
        report = replay(record)
        assert report.ok, report.violation or report.mismatches
        assert len(report.deals) == len(outcome.deals)
        assert [deal.places for deal in report.deals] == [facts.places for facts in outcome.deals]
        assert record["meta"]["arena"]["team_a_seats"] == [outcome.team_a, outcome.team_a + 2]
        assert record["seats"][outcome.team_a] == "A random"
        assert record["seed"] == 3
    match = read_record(tmp_path / "match-00000-direct.json")
    assert replay(match).finished
    swapped = read_record(tmp_path / "match-00000-swapped.json")
    assert [deal["hands"] for deal in match["deals"][:1]] == [deal["hands"] for deal in swapped["deals"][:1]]
