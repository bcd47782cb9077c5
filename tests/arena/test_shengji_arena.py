"""The arena playing Shengji: duplicate fresh deals (the same deck, teams swapped), the Shengji summary,
records, the CLI, and the heuristic clearly ahead of the random bot."""

from __future__ import annotations

import json
import random
from dataclasses import replace
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
from cardroom.arena.games import run_game
from cardroom.arena.play import card_seed
from cardroom.arena.shengji_play import play_shengji_game, shengji_facts
from cardroom.cards import Rank, full_deck, parse_in_order
from cardroom.cli import app
from cardroom.guandan.ruleset import COMPETITION
from cardroom.records.shengji import replay_shengji
from cardroom.shengji import ALL_RANKS, SHENGJI, Match, ShengjiRules, shuffled_deck

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
    outcome = run_game(spec(1, True), tmp_path)
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


def test_a_record_keeps_the_deck_in_dealing_order(tmp_path: Path) -> None:
    """Issue 40: the record's deck is the seed's shuffle in the order the cards are drawn (a sorted
    deck would deal other hands and a kitty of aces)."""
    game = spec(2, False)
    run_game(game, tmp_path)
    (path,) = tmp_path.iterdir()
    deck = parse_in_order(json.loads(path.read_text(encoding="utf-8"))["deals"][0]["deck"])
    assert deck == shuffled_deck(random.Random(card_seed(game.seed, game.kind, game.index, 0)))
    assert deck != full_deck()


Levels = tuple[Rank, Rank]
R2, R5, R10, RJ, RA = Rank.TWO, Rank.FIVE, Rank.TEN, Rank.JACK, Rank.ACE


def forged_match(rules: ShengjiRules, history: list[tuple[Levels, bool]]) -> Match:
    """A match of ``rules`` whose deals are one played deal again, team 0 dealing each, and whose
    summaries say both teams' levels after each deal and whether the dealers passed the top."""
    played = play_shengji_game(GameSpec(GameKind.DEAL, 0, False, 3, "heuristic", "random", rules))
    deal, summary = played.deals[0], played.summaries[0]
    match = Match(rules)
    for levels, passed in history:
        match.deals.append(deal)
        match.summaries.append(replace(summary, dealer=0, levels_after=levels, passed_top=passed))
    return match


def gains(rules: ShengjiRules, history: list[tuple[Levels, bool]]) -> list[tuple[int, int]]:
    return [(deal.level_gain(0), deal.level_gain(1)) for deal in shengji_facts(forged_match(rules, history))]


def test_a_level_gained_is_one_rung_of_the_seven_level_ladder() -> None:
    """2 → 5 and 10 → J are one level each on 2, 5, 10, J, Q, K, A; the J reset back to 2 loses 3."""
    assert SHENGJI.levels == (R2, R5, R10, RJ, Rank.QUEEN, Rank.KING, RA)
    history = [((R5, R2), False), ((R10, R2), False), ((RJ, R2), False), ((R2, R2), False)]
    assert gains(SHENGJI, history) == [(1, 0), (1, 0), (1, 0), (-3, 0)]
    assert gains(SHENGJI, [((R2, RJ), False)]) == [(0, 3)]


def test_passing_the_top_level_is_one_rung_more() -> None:
    history = [((RA, R2), False), ((RA, R2), False), ((RA, R2), True)]
    facts = shengji_facts(forged_match(SHENGJI, history))
    assert [deal.level_gain(0) for deal in facts] == [6, 0, 1]
    assert facts[-1].rungs_after == (len(SHENGJI.levels), 0)


def test_on_the_every_rank_ladder_a_rung_is_a_rank() -> None:
    """``shengji_all_ranks`` keeps the rank differences the arena counted before (a passed A: 15)."""
    history = [((R5, R2), False), ((R10, R2), False), ((RJ, R2), False), ((R2, R2), False)]
    assert gains(ALL_RANKS, history) == [(3, 0), (5, 0), (1, 0), (-9, 0)]
    assert gains(ALL_RANKS, [((RA, R2), False), ((RA, R2), True)]) == [(12, 0), (1, 0)]


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


def test_a_match_pair_runs_to_its_end_climbing_the_whole_ladder() -> None:
    """The winner's levels gained add up to the ladder's length (six steps to A, one to pass it); no deal
    gives more than 3."""
    config = ArenaConfig("heuristic", "random", deals=0, matches=1, seed=1, game="shengji")
    outcomes = run_arena(config, workers=1)
    results = summarize_shengji(config, outcomes)
    assert results.match_pairs == 1
    assert results.teams[0].match_win_rate is not None
    assert results.deals_per_match is not None
    for game in outcomes:
        assert game.finished
        assert game.winner is not None
        assert sum(deal.level_gain(game.winner) for deal in game.shengji) == len(SHENGJI.levels)
        assert all(deal.level_gain(team) <= SHENGJI.max_rise for deal in game.shengji for team in (0, 1))


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
