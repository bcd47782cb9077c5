"""The arena playing Shengji: duplicate fresh deals (the same deck, teams swapped), the Shengji summary,
records, the CLI, and the heuristic clearly ahead of the random bot."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from cardroom.arena import (
    ArenaConfig,
    GameKind,
    GameSpec,
    Interval,
    run_arena,
    schedule,
    summarize_shengji,
)
from cardroom.arena.shengji_play import play_shengji_game, run_shengji_game
from cardroom.cli import app
from cardroom.guandan.ruleset import COMPETITION
from cardroom.records.shengji import replay_shengji
from cardroom.shengji import ALL_RANKS, SHENGJI

runner = CliRunner()
ENV = {"COLUMNS": "160"}


def estimate(interval: Interval | None) -> float:
    assert interval is not None
    assert interval.estimate is not None
    return interval.estimate


def spec(index: int, swapped: bool, a: str = "heuristic", b: str = "random", seed: int = 3) -> GameSpec:
    return GameSpec(GameKind.DEAL, index, swapped, seed, a, b, SHENGJI)


def test_the_config_takes_the_shengji_rules_and_bots() -> None:
    config = ArenaConfig("heuristic", "random", deals=2, game="shengji")
    assert config.rules is SHENGJI
    assert [spec.game for spec in schedule(config)] == ["shengji"] * 4
    assert ArenaConfig("random", "random", rules=ALL_RANKS, game="shengji").rules is ALL_RANKS
    with pytest.raises(ValueError, match=r"available: heuristic, random"):
        ArenaConfig("search", "random", game="shengji")
    with pytest.raises(ValueError, match="not a shengji rule set"):
        ArenaConfig("random", "random", rules=COMPETITION.__class__(name="other"), game="shengji")
    with pytest.raises(ValueError, match="'competition' is not a shengji rule set"):
        ArenaConfig("random", "random", rules=COMPETITION, game="shengji")
    assert ArenaConfig("random", "random").rules is COMPETITION
    with pytest.raises(ValueError, match="unknown game"):
        ArenaConfig("random", "random", game="bridge")
    with pytest.raises(ValueError, match="not a guandan rule set"):
        ArenaConfig("random", "random", rules=SHENGJI)


def test_both_games_of_a_pair_deal_the_same_deck() -> None:
    direct, swapped = play_shengji_game(spec(4, False)), play_shengji_game(spec(4, True))
    assert direct.deals[0].deck == swapped.deals[0].deck
    assert direct.deals[0].first_drawer == swapped.deals[0].first_drawer
    assert play_shengji_game(spec(5, False)).deals[0].deck != direct.deals[0].deck
    assert len(direct.summaries) == 1
    assert direct.deals[0].level.letter == "2"


def test_a_game_writes_a_legal_shengji_record(tmp_path: Path) -> None:
    outcome = run_shengji_game(spec(1, True), tmp_path)
    (path,) = tmp_path.iterdir()
    assert path.name == "deal-00001-swapped.json"
    raw = json.loads(path.read_text(encoding="utf-8"))
    assert raw["seats"] == ["B random", "A heuristic", "B random", "A heuristic"]
    assert raw["meta"]["arena"]["game"] == "shengji"
    report = replay_shengji(raw)
    assert report.violation is None
    assert not report.mismatches
    (facts,) = outcome.shengji
    assert outcome.deals == ()
    assert facts.score == raw["result"]["deals"][0]["score"]
    assert facts.dealer == raw["result"]["deals"][0]["dealer"]


def test_a_toy_run_summarises_per_team() -> None:
    config = ArenaConfig("heuristic", "random", deals=3, seed=2, game="shengji")
    outcomes = run_arena(config, workers=1)
    results = summarize_shengji(config, outcomes)
    assert (results.deal_pairs, results.match_pairs, results.stats.deals) == (3, 0, 6)
    a, b = results.teams
    assert estimate(a.deal_win_rate) + estimate(b.deal_win_rate) == pytest.approx(1.0)
    assert estimate(a.dealer_rate) + estimate(b.dealer_rate) == pytest.approx(1.0)
    data = results.to_json()
    assert data["game"] == "shengji"
    assert data["config"]["rules"]["name"] == "shengji"
    assert set(data["teams"]["A"]) >= {"deal_win_rate", "dealer_keep_rate", "attackers_points"}
    assert "play" not in data
    assert summarize_shengji(config, run_arena(config, workers=1)).to_json() == data


def test_a_deterministic_bot_against_itself_wins_exactly_half() -> None:
    config = ArenaConfig("heuristic", "heuristic", deals=4, seed=9, game="shengji")
    results = summarize_shengji(config, run_arena(config, workers=1))
    for team in results.teams:
        assert team.deal_win_rate is not None
        assert team.deal_win_rate.estimate == pytest.approx(0.5)
        assert team.deal_win_rate.low == pytest.approx(0.5)


def test_a_match_pair_runs_to_its_end() -> None:
    config = ArenaConfig("heuristic", "random", deals=0, matches=1, seed=1, game="shengji")
    results = summarize_shengji(config, run_arena(config, workers=1))
    assert results.match_pairs == 1
    assert results.teams[0].match_win_rate is not None
    assert results.deals_per_match is not None


def test_the_heuristic_clearly_beats_random() -> None:
    """A sanity bound on 10 pairs (the arena's full figure is in docs/bots.md)."""
    config = ArenaConfig("heuristic", "random", deals=10, seed=7, game="shengji")
    results = summarize_shengji(config, run_arena(config, workers=1))
    assert estimate(results.teams[0].deal_win_rate) >= 0.7


def test_the_cli_runs_shengji(tmp_path: Path) -> None:
    out = tmp_path / "run"
    args = ["arena", "--game", "shengji", "--a", "heuristic", "--b", "random", "--deals", "2"]
    result = runner.invoke(app, [*args, "--workers", "1", "--seed", "4", "--out", str(out)], env=ENV)
    assert result.exit_code == 0, result.output
    assert "Shengji arena" in result.output
    assert "dealer keeps the deal" in result.output
    assert "return card" not in result.output
    results = json.loads((out / "results.json").read_text(encoding="utf-8"))
    assert results["game"] == "shengji"
    assert (results["deal_pairs"], results["games"]) == (2, 4)
    assert (out / "results.png").read_bytes().startswith(b"\x89PNG")
    assert len(list((out / "records").iterdir())) == 4


def test_the_cli_names_the_shengji_bots_and_rules(tmp_path: Path) -> None:
    base = ["arena", "--game", "shengji", "--deals", "1", "--out", str(tmp_path)]
    result = runner.invoke(app, [*base, "--a", "search", "--b", "random"], env=ENV)
    assert result.exit_code == 2
    assert "unknown Shengji bot 'search'" in result.output
    result = runner.invoke(app, [*base, "--a", "random", "--b", "random", "--rules", "competition"], env=ENV)
    assert result.exit_code == 2
    assert "unknown Shengji rule set" in result.output
    result = runner.invoke(app, ["arena", "--game", "bridge", "--a", "random", "--b", "random"], env=ENV)
    assert result.exit_code == 2
    assert "unknown game" in result.output
