"""The arena's results as a Rich table, ``results.json`` and ``results.png``.

matplotlib is imported only inside :func:`write_chart` (Agg backend, no pyplot), so importing the arena
costs nothing for it.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Protocol

from rich.console import Console
from rich.markup import escape
from rich.table import Table

from cardroom.arena.config import ArenaConfig
from cardroom.arena.play import MAX_MATCH_DEALS
from cardroom.arena.stats import Interval
from cardroom.arena.summary import HUMAN, PLAYS_RANGE, WINNER_PLAYS_RANGE, ArenaResults


class ResultsJson(Protocol):
    """Results that write themselves as ``results.json``."""

    def to_json(self) -> dict[str, Any]: ...


def percent(interval: Interval | None) -> str:
    """``51.0% [44.1, 57.9]``, or ``—`` when there is nothing to show."""
    return _format(interval, lambda value: f"{100 * value:.1f}", "%")


def number(interval: Interval | None, digits: int = 2) -> str:
    """``1.23 [1.10, 1.36]``."""
    return _format(interval, lambda value: f"{value:.{digits}f}", "")


def _format(interval: Interval | None, show: Any, unit: str) -> str:
    if interval is None or interval.estimate is None:
        return "—"
    text = f"{show(interval.estimate)}{unit}"
    if interval.low is not None and interval.high is not None:
        text += f" [{show(interval.low)}, {show(interval.high)}]"
    return text


def team_headers(a: str, b: str) -> tuple[str, str, str]:
    """The team table's column heads, in either game: the interval's kind, then each team's bot and
    seats (``a``, ``b``: the bots)."""
    return (
        "95% intervals over duplicate pairs",
        f"team A: {escape(a)}\n(seats 0 & 2 direct)",
        f"team B: {escape(b)}\n(seats 1 & 3 direct)",
    )


def run_title(config: ArenaConfig, deal_pairs: int, match_pairs: int) -> str:
    """``heuristic (A) vs random (B): 3 duplicate deal pairs, …, seed 7``: the team table's title."""
    return (
        f"{escape(config.bot_a)} (A) vs {escape(config.bot_b)} (B): "
        f"{deal_pairs} duplicate deal pairs, {match_pairs} match pairs, "
        f"rules {escape(config.rule_set.name)}, seed {config.seed}"
    )


def add_unfinished_row(teams: Table, unfinished_matches: int) -> None:
    """The team table's warning row for matches stopped unfinished, when there were any."""
    if unfinished_matches:
        teams.add_row(
            f"[yellow]unfinished matches (stopped after {MAX_MATCH_DEALS} deals, counted as draws)[/]",
            str(unfinished_matches),
            "",
        )


def results_tables(results: ArenaResults) -> list[Table]:
    """The team table and the play-statistics table."""
    a, b = results.teams
    teams = Table(
        *team_headers(a.bot, b.bot), title=run_title(results.config, results.deal_pairs, results.match_pairs)
    )
    if results.deal_pairs:
        teams.add_row("deal win rate (上游 on the team)", percent(a.deal_win_rate), percent(b.deal_win_rate))
        teams.add_row("level gain per deal", number(a.level_gain_per_deal), number(b.level_gain_per_deal))
        teams.add_row("双下 (places 1 & 2)", percent(a.double_down_rate), percent(b.double_down_rate))
    if results.match_pairs:
        teams.add_row("match win rate", percent(a.match_win_rate), percent(b.match_win_rate))
        teams.add_row("28-point score per match", number(a.points_per_match), number(b.points_per_match))
        teams.add_row(
            "deals won inside the matches",
            percent(a.deal_win_rate_in_matches),
            percent(b.deal_win_rate_in_matches),
        )
        teams.add_row(
            "level gain per deal inside the matches",
            number(a.level_gain_per_deal_in_matches),
            number(b.level_gain_per_deal_in_matches),
        )
        add_unfinished_row(teams, results.unfinished_matches)
    play = results.play
    low, high = PLAYS_RANGE
    winner_low, winner_high = WINNER_PLAYS_RANGE
    stats = Table(
        "play statistic",
        "this run [95% interval]",
        "humans (platform rules)",
        title=f"Play statistics over {play.deals} deals, {play.returns} return cards",
    )
    if results.deals_per_match is not None:
        stats.add_row("deals per match", number(results.deals_per_match, 1), "")
    stats.add_row("plays per deal (not passes)", number(play.plays_per_deal, 1), "")
    stats.add_row(f"deals with {low}–{high} plays", percent(play.plays_in_range), "90%")
    stats.add_row("plays by the 上游", number(play.winner_plays, 1), f"{winner_low}–{winner_high}")
    stats.add_row(f"上游 with {winner_low}–{winner_high} plays", percent(play.winner_plays_in_range), "all")
    stats.add_row("bombs per deal", number(play.bombs_per_deal), "")
    stats.add_row("  by team A", number(play.bombs_per_deal_by_team[0]), "")
    stats.add_row("  by team B", number(play.bombs_per_deal_by_team[1]), "")
    no_returns = "— (fresh deals have no tribute: use --matches)"
    stats.add_row(
        "return card completes a bomb (4+ of its rank)",
        percent(play.return_completes_bomb) if play.returns else no_returns,
        f"about {100 * HUMAN['return_completes_bomb']:.0f}%",
    )
    stats.add_row(
        "  counting the receiver's ♥ level cards",
        percent(play.return_completes_bomb_with_wilds) if play.returns else "—",
        "",
    )
    return [teams, stats]


def print_results(results: ArenaResults, console: Console) -> None:
    for table in results_tables(results):
        console.print(table)


def write_json(results: ResultsJson, path: Path) -> None:
    """``results.json``: the results' ``to_json()`` (:class:`ArenaResults`, or the Shengji results),
    indented, non-ASCII kept."""
    path.write_text(json.dumps(results.to_json(), ensure_ascii=False, indent=2) + "\n", encoding="utf-8")


TEAM_COLORS = ("tab:blue", "tab:orange")
"""Team A's and team B's colour in the charts."""


def team_chart(
    config: ArenaConfig, deal_pairs: int, match_pairs: int, size: tuple[float, float], game: str = ""
) -> tuple[Any, list[str]]:
    """Either game's ``results.png`` figure, titled with the bots, the pairs, the rules and the seed
    (``game``, e.g. ``"Shengji: "``, first), and the teams' labels."""
    from matplotlib.figure import Figure

    figure = Figure(figsize=size, layout="constrained")
    figure.suptitle(
        f"{game}{config.bot_a} (A) vs {config.bot_b} (B) — {deal_pairs} deal pairs, "
        f"{match_pairs} match pairs, {config.rule_set.name}, seed {config.seed}"
    )
    return figure, [f"A: {config.bot_a}", f"B: {config.bot_b}"]


def interval_bars(axes: Any, labels: list[str], intervals: list[Interval | None], scale: float) -> None:
    """One bar per interval (its estimate times ``scale``, the interval as its error bar), A's colour
    then B's; ``None`` and empty intervals leave their slot empty."""
    for slot, (label, interval) in enumerate(zip(labels, intervals, strict=True)):
        if interval is None or interval.estimate is None:
            continue
        estimate = interval.estimate * scale
        error = None
        if interval.low is not None and interval.high is not None:
            error = [[estimate - interval.low * scale], [interval.high * scale - estimate]]
        axes.bar(slot, estimate, yerr=error, capsize=6, color=TEAM_COLORS[slot % 2], label=label)
    axes.set_xticks(range(len(labels)), labels, fontsize=8)


def rate_axes(axes: Any) -> None:
    """Rates in per cent, the even line at 50."""
    axes.axhline(50, color="grey", linestyle="--", linewidth=1)
    axes.set_ylim(0, 100)
    axes.set_ylabel("%")


def write_chart(results: ArenaResults, path: Path) -> None:
    """``results.png``: team rates with their intervals, and the play statistics' distributions beside
    the human ranges (docs/rules/platform.md#human-figures). The labels avoid Chinese: matplotlib's default
    font has no CJK glyphs."""
    figure, names = team_chart(results.config, results.deal_pairs, results.match_pairs, (11, 8))
    (rates, gains), (plays, winner) = figure.subplots(2, 2)
    a, b = results.teams
    rate_labels: list[str] = []
    rate_values: list[Interval | None] = []
    if results.deal_pairs:
        rate_labels += [f"deal win\n{names[0]}", f"deal win\n{names[1]}"]
        rate_values += [a.deal_win_rate, b.deal_win_rate]
    if results.match_pairs:
        rate_labels += [f"match win\n{names[0]}", f"match win\n{names[1]}"]
        rate_values += [a.match_win_rate, b.match_win_rate]
    interval_bars(rates, rate_labels, rate_values, 100)
    rate_axes(rates)
    rates.set_title("win rates, 95% intervals over pairs")

    if results.deal_pairs:
        interval_bars(gains, names, [a.level_gain_per_deal, b.level_gain_per_deal], 1)
        gains.set_title("level gain per fresh deal")
    else:
        interval_bars(gains, names, [a.points_per_match, b.points_per_match], 1)
        gains.set_title("28-point score per match")

    play = results.play
    for axes, histogram, (low, high), title in (
        (plays, play.plays_histogram, PLAYS_RANGE, "plays per deal (humans: 90% within 30–50)"),
        (winner, play.winner_plays_histogram, WINNER_PLAYS_RANGE, "plays by the first out (humans: 7–16)"),
    ):
        if histogram:
            keys = sorted(histogram)
            axes.bar(keys, [histogram[key] for key in keys], width=1.0, color="tab:green")
        axes.axvspan(low - 0.5, high + 0.5, color="grey", alpha=0.2, label="human range", zorder=0)
        axes.set_title(title)
        axes.set_ylabel("deals")
        axes.legend(fontsize=8)
    figure.savefig(path, dpi=100)


__all__ = [
    "TEAM_COLORS",
    "add_unfinished_row",
    "interval_bars",
    "number",
    "percent",
    "print_results",
    "rate_axes",
    "results_tables",
    "run_title",
    "team_chart",
    "team_headers",
    "write_chart",
    "write_json",
]
