"""Duplicate play: the same cards twice with the teams swapped, results independent of the workers."""

from __future__ import annotations

import pytest

from cardroom.arena import ArenaConfig, ArenaError, GameKind, play_game, run_arena, schedule, summarize
from cardroom.arena.games import batches
from cardroom.arena.play import GameSpec, bot_seed, deal_cards, outcome_of
from cardroom.bots import BOTS
from cardroom.guandan.deal import Action
from cardroom.guandan.observation import Observation
from cardroom.guandan.ruleset import COMPETITION
from tests.arena.bots import FirstBot, LastBot, OutOfTurnBot


@pytest.fixture(params=[FirstBot, LastBot], ids=["first", "last"])
def deterministic_bot(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> str:
    bot: type[FirstBot] = request.param
    monkeypatch.setitem(BOTS, bot.name, bot)
    return bot.name


def test_the_schedule_pairs_every_deal_and_match() -> None:
    specs = schedule(ArenaConfig("random", "random", deals=2, matches=1, seed=5))
    assert [(spec.kind, spec.index, spec.swapped) for spec in specs] == [
        (GameKind.DEAL, 0, False),
        (GameKind.DEAL, 0, True),
        (GameKind.DEAL, 1, False),
        (GameKind.DEAL, 1, True),
        (GameKind.MATCH, 0, False),
        (GameKind.MATCH, 0, True),
    ]
    assert [spec.team_a for spec in specs[:2]] == [0, 1]
    assert specs[1].seat_names() == ("B random", "A random", "B random", "A random")
    tasks = batches(specs, 1)
    assert [spec for task in tasks for spec in task] == specs
    assert all(len({spec.kind for spec in task}) == 1 for task in tasks)


def test_the_config_names_the_available_bots() -> None:
    with pytest.raises(ValueError, match=r"available: .*random"):
        ArenaConfig("nobody", "random")
    with pytest.raises(ValueError, match="nothing to play"):
        ArenaConfig("random", "random", deals=0, matches=0)


def test_both_games_of_a_pair_deal_the_same_cards_to_the_same_seats() -> None:
    direct, swapped = (
        GameSpec(GameKind.DEAL, 3, way, 9, "random", "random", COMPETITION) for way in (False, True)
    )
    first, second = play_game(direct), play_game(swapped)
    assert first.deals[0].dealt_hands == second.deals[0].dealt_hands
    assert first.deals[0].leader == second.deals[0].leader
    assert first.deals[0].dealt_hands == tuple(deal_cards(9, GameKind.DEAL, 3, 0)[0])
    assert bot_seed(direct, 0) != bot_seed(swapped, 0)
    assert deal_cards(9, GameKind.DEAL, 3, 0) != deal_cards(9, GameKind.DEAL, 4, 0)
    assert deal_cards(9, GameKind.DEAL, 3, 0) != deal_cards(10, GameKind.DEAL, 3, 0)


def test_a_fresh_deal_is_one_first_deal_at_level_two() -> None:
    spec = GameSpec(GameKind.DEAL, 0, False, 1, "random", "random", COMPETITION)
    match = play_game(spec)
    assert len(match.deals) == 1
    assert match.deals[0].level.letter == "2"
    (facts,) = outcome_of(spec, match).deals
    assert facts.levels_before == (2, 2)
    assert facts.level_gain(facts.winning_team) in (1, 2, 3)
    assert facts.level_gain(1 - facts.winning_team) == 0


def test_bots_see_only_their_own_observation(monkeypatch: pytest.MonkeyPatch) -> None:
    seen: list[tuple[int, int | None]] = []

    class Watcher(FirstBot):
        def act(self, observation: Observation) -> Action:
            assert isinstance(observation, Observation)
            seen.append((observation.seat, observation.current_player))
            return super().act(observation)

    monkeypatch.setitem(BOTS, "watcher", Watcher)
    play_game(GameSpec(GameKind.DEAL, 0, False, 1, "watcher", "watcher", COMPETITION))
    assert seen
    assert all(seat == to_act for seat, to_act in seen)


def test_bots_given_to_a_game_play_its_seats_in_place_of_the_named_ones() -> None:
    """``play_game(spec, bots)`` seats the four bots given (the ladder's four entrants), each at its
    seat; the spec's names only label the game. Anything but four bots is refused."""
    seen: list[tuple[int, int]] = []

    class Seated(FirstBot):
        def __init__(self, seat: int) -> None:
            self.seat = seat

        def act(self, observation: Observation) -> Action:
            seen.append((self.seat, observation.seat))
            return super().act(observation)

    spec = GameSpec(GameKind.DEAL, 0, False, 1, "nobody", "nobody", COMPETITION)
    match = play_game(spec, [Seated(seat) for seat in range(4)])
    assert len(match.summaries) == 1
    assert {seat for seat, _ in seen} == {0, 1, 2, 3}
    assert all(mine == observed for mine, observed in seen)
    with pytest.raises(ValueError, match="four bots, one per seat, got 3"):
        play_game(spec, [Seated(seat) for seat in range(3)])


def test_a_deterministic_bot_against_itself_wins_exactly_half(deterministic_bot: str) -> None:
    config = ArenaConfig(deterministic_bot, deterministic_bot, deals=12, seed=4)
    results = summarize(config, run_arena(config, workers=1))
    a, b = results.teams
    for team in (a, b):
        interval = team.deal_win_rate
        assert interval is not None
        assert (interval.low, interval.estimate, interval.high) == (0.5, 0.5, 0.5)
    assert a.level_gain_per_deal == b.level_gain_per_deal


def test_random_against_random_is_even_within_the_interval() -> None:
    config = ArenaConfig("random", "random", deals=40, seed=2024)
    results = summarize(config, run_arena(config, workers=1))
    for team in results.teams:
        interval = team.deal_win_rate
        assert interval is not None
        assert interval.low is not None
        assert interval.high is not None
        assert interval.contains(0.5)
        assert 0 < interval.high - interval.low < 0.5
        assert interval.clusters == 40
        assert interval.units == 80
    a, b = results.teams
    assert a.deal_win_rate is not None
    assert b.deal_win_rate is not None
    assert a.deal_win_rate.estimate == pytest.approx(1 - (b.deal_win_rate.estimate or 0))
    assert results.play.deals == 80


def test_the_same_seed_gives_the_same_results_with_one_or_two_workers() -> None:
    config = ArenaConfig("random", "random", deals=10, matches=1, seed=77)
    progress: list[int] = []
    one = run_arena(config, workers=1)
    two = run_arena(config, workers=2, progress=progress.append)
    assert one == two
    assert sum(progress) == config.games
    assert summarize(config, one).to_json() == summarize(config, two).to_json()
    other = run_arena(ArenaConfig("random", "random", deals=10, matches=1, seed=78), workers=1)
    assert other != one


def test_an_illegal_answer_stops_the_game_naming_bot_and_seat(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(BOTS, OutOfTurnBot.name, OutOfTurnBot)
    spec = GameSpec(GameKind.DEAL, 0, False, 1, "out-of-turn", "out-of-turn", COMPETITION)
    with pytest.raises(
        ArenaError, match=r"deal 0 \(direct\), deal 1: bot 'out-of-turn' at seat \d.*OutOfTurnError"
    ):
        play_game(spec)


def test_the_deals_inside_matches_are_counted_per_team_and_pair() -> None:
    """Match mode: the deals played inside the matches (tribute and return included), the team that
    takes 上游 winning each, one cluster per match pair; the two teams' rates add up to one, and the
    level gain per deal is the levels climbed over the deals played."""
    config = ArenaConfig("heuristic", "random", deals=0, matches=3, seed=6)
    outcomes = run_arena(config, workers=1)
    a, b = summarize(config, outcomes).teams
    assert a.deal_win_rate is None
    assert a.deal_win_rate_in_matches is not None
    assert b.deal_win_rate_in_matches is not None
    deals = sum(len(outcome.deals) for outcome in outcomes)
    assert (a.deal_win_rate_in_matches.clusters, a.deal_win_rate_in_matches.units) == (3, deals)
    assert a.deal_win_rate_in_matches.estimate == pytest.approx(
        1 - (b.deal_win_rate_in_matches.estimate or 0)
    )
    won_by_a = sum(deal.winning_team == outcome.team_a for outcome in outcomes for deal in outcome.deals)
    assert a.deal_win_rate_in_matches.estimate == pytest.approx(won_by_a / deals)
    climbed = sum(deal.level_gain(outcome.team_a) for outcome in outcomes for deal in outcome.deals)
    assert a.level_gain_per_deal_in_matches is not None
    assert a.level_gain_per_deal_in_matches.estimate == pytest.approx(climbed / deals)
    assert (a.deal_win_rate_in_matches.estimate or 0) > 0.9
