"""The arena's results for Shengji: per-team rates with their intervals over the duplicate pairs, the
deal statistics, the Rich tables, ``results.json`` and ``results.png``.

Per team, over the fresh deals: the **deal win rate** (the team keeps the deal as dealers or takes it
over as attackers: the side that gains the deal), the **levels gained** per deal (steps of the rule
set's ladder, :func:`~cardroom.arena.shengji_play.rungs_after`: 2 → 5 is one level on the seven-level
ladder, docs/rules/shengji.md#ladder), how often the team **deals** (declaring decides the first deal's
dealer), the **dealer-keep rate** (of the deals it dealt, those where the attackers scored under 80) and its
**attackers' points** (its score when attacking: card points + the kitty bonus + failed-throw penalties, read
in the result table). Over the matches: the match win rate. Guandan's play statistics (plays, bombs, return
cards) have no Shengji meaning and are left out; the Shengji deal statistics (every finished deal, fresh and
inside matches) stand instead.

Pure: the same outcomes give the same results (sums in schedule order). matplotlib is imported only in
:func:`write_shengji_chart`.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.table import Table

from cardroom.arena.config import ArenaConfig
from cardroom.arena.play import GameKind, GameOutcome
from cardroom.arena.report import (
    add_unfinished_row,
    interval_bars,
    number,
    percent,
    rate_axes,
    run_title,
    team_chart,
    team_headers,
)
from cardroom.arena.stats import Interval, cluster_mean
from cardroom.arena.summary import (
    RATE,
    SEEDING,
    TeamFigures,
    first_deal,
    match_team,
    run_json,
    summarize_pairs,
)
from cardroom.games import SHENGJI_GAME


@dataclass(frozen=True)
class ShengjiTeamResult(TeamFigures):
    """One team's Shengji results (``None`` where the run played no such game)."""

    deal_win_rate: Interval | None = None
    level_gain_per_deal: Interval | None = None
    dealer_rate: Interval | None = None
    dealer_keep_rate: Interval | None = None
    attackers_points: Interval | None = None
    match_win_rate: Interval | None = None


@dataclass(frozen=True)
class ShengjiDealStats:
    """Statistics over every finished deal of the run (fresh deals and deals inside matches)."""

    deals: int
    score: Interval
    take_over_rate: Interval
    declared_rate: Interval
    no_trump_rate: Interval
    tricks_per_deal: Interval
    failed_throws_per_deal: Interval
    score_histogram: dict[int, int] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        return {
            "deals": self.deals,
            "score": self.score.to_json(),
            "take_over_rate": self.take_over_rate.to_json(),
            "declared_rate": self.declared_rate.to_json(),
            "no_trump_rate": self.no_trump_rate.to_json(),
            "tricks_per_deal": self.tricks_per_deal.to_json(),
            "failed_throws_per_deal": self.failed_throws_per_deal.to_json(),
            "score_histogram": {str(key): value for key, value in sorted(self.score_histogram.items())},
        }


@dataclass(frozen=True)
class ShengjiArenaResults:
    """The results of a Shengji arena run."""

    config: ArenaConfig
    deal_pairs: int
    match_pairs: int
    teams: tuple[ShengjiTeamResult, ShengjiTeamResult]
    deals_per_match: Interval | None
    unfinished_matches: int
    stats: ShengjiDealStats

    def to_json(self) -> dict[str, Any]:
        """The ``results.json`` object (docs/arena.md, "Shengji"); no clock or worker count."""
        head = run_json(
            self.config,
            self.deal_pairs,
            self.match_pairs,
            self.teams,
            self.deals_per_match,
            self.unfinished_matches,
            game=SHENGJI_GAME.name,
            seeding=SEEDING.replace("shuffled_hands", "Match.deal_random").replace(
                "make_bot", "make_shengji_bot"
            ),
        )
        return head | {"shengji": self.stats.to_json()}


def shengji_team_result(
    config: ArenaConfig, team: int, pairs_: Sequence[tuple[GameOutcome, ...]]
) -> ShengjiTeamResult:
    """Team ``team``'s (0: A, 1: B) rates over the pairs."""
    bot = config.bot_a if team == 0 else config.bot_b
    deal_pairs = [pair for pair in pairs_ if pair[0].kind is GameKind.DEAL]
    match_pairs = [pair for pair in pairs_ if pair[0].kind is GameKind.MATCH]
    wins, gains, deals, keeps, attacks = [], [], [], [], []
    for pair in deal_pairs:
        facts = [(match_team(game, team), first_deal(game, game.shengji)) for game in pair]
        wins.append([float(deal.winning_team == own) for own, deal in facts])
        gains.append([float(deal.level_gain(own)) for own, deal in facts])
        deals.append([float(deal.dealer_team == own) for own, deal in facts])
        keeps.append([float(not deal.take_over) for own, deal in facts if deal.dealer_team == own])
        attacks.append([float(deal.score) for own, deal in facts if deal.dealer_team != own])
    matches = [
        [0.5 if game.winner is None else float(game.winner == match_team(game, team)) for game in pair]
        for pair in match_pairs
    ]
    return ShengjiTeamResult(
        bot,
        deal_win_rate=cluster_mean(wins, bounds=RATE) if deal_pairs else None,
        level_gain_per_deal=cluster_mean(gains) if deal_pairs else None,
        dealer_rate=cluster_mean(deals, bounds=RATE) if deal_pairs else None,
        dealer_keep_rate=cluster_mean(keeps, bounds=RATE) if deal_pairs else None,
        attackers_points=cluster_mean(attacks) if deal_pairs else None,
        match_win_rate=cluster_mean(matches, bounds=RATE) if match_pairs else None,
    )


def shengji_deal_stats(pairs_: Sequence[tuple[GameOutcome, ...]]) -> ShengjiDealStats:
    """The deal statistics over every finished deal, one cluster per pair."""
    score, take_over, declared, no_trump, tricks, throws = [], [], [], [], [], []
    histogram: Counter[int] = Counter()
    for pair in pairs_:
        deals = [deal for game in pair for deal in game.shengji]
        score.append([float(deal.score) for deal in deals])
        take_over.append([float(deal.take_over) for deal in deals])
        declared.append([float(deal.declared) for deal in deals])
        no_trump.append([float(deal.trump is None) for deal in deals])
        tricks.append([float(deal.tricks) for deal in deals])
        throws.append([float(deal.failed_throws) for deal in deals])
        histogram.update(deal.score for deal in deals)
    return ShengjiDealStats(
        deals=sum(len(cluster) for cluster in score),
        score=cluster_mean(score),
        take_over_rate=cluster_mean(take_over, bounds=RATE),
        declared_rate=cluster_mean(declared, bounds=RATE),
        no_trump_rate=cluster_mean(no_trump, bounds=RATE),
        tricks_per_deal=cluster_mean(tricks),
        failed_throws_per_deal=cluster_mean(throws),
        score_histogram=dict(histogram),
    )


def summarize_shengji(config: ArenaConfig, outcomes: Iterable[GameOutcome]) -> ShengjiArenaResults:
    """The results of a Shengji run from its game outcomes."""
    return summarize_pairs(config, outcomes, shengji_team_result, shengji_deal_stats, ShengjiArenaResults)


# -- output ------------------------------------------------------------------------------------------


def shengji_tables(results: ShengjiArenaResults) -> list[Table]:
    """The team table and the deal-statistics table."""
    a, b = results.teams
    title = run_title(results.config, results.deal_pairs, results.match_pairs)
    teams = Table(*team_headers(a.bot, b.bot), title=f"Shengji: {title}")
    if results.deal_pairs:
        teams.add_row(
            "deal win rate (keeps or takes the deal)", percent(a.deal_win_rate), percent(b.deal_win_rate)
        )
        teams.add_row("levels gained per deal", number(a.level_gain_per_deal), number(b.level_gain_per_deal))
        teams.add_row("deals as dealer (庄家)", percent(a.dealer_rate), percent(b.dealer_rate))
        teams.add_row("dealer keeps the deal", percent(a.dealer_keep_rate), percent(b.dealer_keep_rate))
        teams.add_row(
            "attackers' points (score)", number(a.attackers_points, 1), number(b.attackers_points, 1)
        )
    if results.match_pairs:
        teams.add_row("match win rate", percent(a.match_win_rate), percent(b.match_win_rate))
        add_unfinished_row(teams, results.unfinished_matches)
    stats = results.stats
    table = Table("deal statistic", "this run [95% interval]", title=f"Shengji deals: {stats.deals}")
    if results.deals_per_match is not None:
        table.add_row("deals per match", number(results.deals_per_match, 1))
    table.add_row("attackers' score", number(stats.score, 1))
    table.add_row("attackers take over (80+)", percent(stats.take_over_rate))
    table.add_row("somebody declared", percent(stats.declared_rate))
    table.add_row("no trump (无主)", percent(stats.no_trump_rate))
    table.add_row("tricks per deal", number(stats.tricks_per_deal, 1))
    table.add_row("failed throws per deal", number(stats.failed_throws_per_deal))
    return [teams, table]


def print_shengji_results(results: ShengjiArenaResults, console: Console) -> None:
    for table in shengji_tables(results):
        console.print(table)


def write_shengji_chart(results: ShengjiArenaResults, path: Path) -> None:
    """``results.png``: the teams' deal win rates and levels gained with their intervals, and the
    histogram of the attackers' scores with the take-over line at 80."""
    figure, names = team_chart(
        results.config, results.deal_pairs, results.match_pairs, (11, 4.5), game="Shengji: "
    )
    rates, gains, scores = figure.subplots(1, 3)
    a, b = results.teams
    if results.deal_pairs:
        interval_bars(rates, names, [a.deal_win_rate, b.deal_win_rate], 100)
        interval_bars(gains, names, [a.level_gain_per_deal, b.level_gain_per_deal], 1)
    else:
        interval_bars(rates, names, [a.match_win_rate, b.match_win_rate], 100)
    rate_axes(rates)
    rates.set_title("deal win rate" if results.deal_pairs else "match win rate")
    gains.set_title("levels gained per fresh deal")
    histogram = results.stats.score_histogram
    if histogram:
        keys = sorted(histogram)
        scores.bar(keys, [histogram[key] for key in keys], width=4.0, color="tab:green")
    scores.axvline(80, color="grey", linestyle="--", linewidth=1, label="take-over (80)")
    scores.set_title("attackers' score per deal")
    scores.set_ylabel("deals")
    scores.legend(fontsize=8)
    figure.savefig(path, dpi=100)


__all__ = [
    "ShengjiArenaResults",
    "ShengjiDealStats",
    "ShengjiTeamResult",
    "print_shengji_results",
    "shengji_deal_stats",
    "shengji_tables",
    "shengji_team_result",
    "summarize_shengji",
    "write_shengji_chart",
]
