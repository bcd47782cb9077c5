"""Replay reports (:class:`~cardroom.records.ReplayReport` and
:class:`~cardroom.records.shengji.ShengjiReplayReport`) printed for people: a table of the deals, the
result, the first illegal action, result mismatches (what ``cardroom replay`` shows)."""

from __future__ import annotations

from rich.console import Console
from rich.markup import escape
from rich.table import Table

from cardroom.records.replay import ReplayReport, Violation
from cardroom.records.shengji import ShengjiReplayReport


def plural(number: int, noun: str) -> str:
    """``1 deal``, ``2 deals``, ``0 matches``."""
    if number == 1:
        return f"{number} {noun}"
    return f"{number} {noun}es" if noun.endswith(("s", "x", "ch", "sh")) else f"{number} {noun}s"


def _team(seats: tuple[str, ...], team: int) -> str:
    return f"team {team} ({escape(seats[team])} & {escape(seats[team + 2])})"


def _print_heading(
    game: str, rules: str, seed: int | None, deals: int, actions: int, console: Console
) -> None:
    seeded = f", seed {seed}" if seed is not None else ""
    console.print(
        f"[bold]{game} match record[/]: rules {escape(rules)}{seeded}, "
        f"{plural(deals, 'deal')}, {plural(actions, 'action')}"
    )


def print_replay_report(report: ReplayReport, console: Console) -> None:
    """A Guandan replay's report: the record, a table of its deals, the result or the first illegal action,
    and whether the stored result agrees."""
    record = report.record
    seats = record.seats
    _print_heading("Guandan", record.rules.name, record.seed, len(record.deals), record.action_count, console)
    if report.deals:
        table = Table("deal", "level", "places (上游 → 下游)", "winner", "rise", "levels after")
        for deal in report.deals:
            whose = "" if deal.level_team is None else f" (team {deal.level_team})"
            rise = "passed A" if deal.passed_ace else f"+{deal.rise}"
            table.add_row(
                str(deal.index + 1),
                deal.level.letter + whose,
                " → ".join(escape(seats[seat]) for seat in deal.places),
                f"team {deal.winner_team}",
                rise,
                " : ".join(level.letter for level in deal.levels_after),
            )
        console.print(table)
    violation = report.violation
    if violation is not None:
        _print_violation(violation, seats, console)
        return
    levels = " : ".join(level.letter for level in report.levels)
    if report.finished:
        points = report.points
        assert points is not None
        how = ", passed A" if report.match.passed_ace else ""
        if report.forfeited_by is not None:
            reason = record.forfeit.reason if record.forfeit is not None else ""
            how = f", forfeited by {_team(seats, report.forfeited_by)}" + (
                f" ({escape(reason)})" if reason else ""
            )
        winner = "A draw" if report.winner is None else f"{_team(seats, report.winner)} wins"
        console.print(
            f"[bold green]{winner}[/]{how}: levels {levels} (team 0 : team 1), "
            f"28-point score {points[0]} : {points[1]}"
        )
    else:
        console.print(
            f"[bold yellow]Unfinished match[/]: {escape(report.state)}; levels {levels} (team 0 : team 1)"
        )
    _print_mismatches(report.mismatches, report.actions_applied, console)


def _print_violation(violation: Violation, seats: tuple[str, ...], console: Console) -> None:
    console.print(
        f"[bold red]Illegal action[/] at {violation.path}: deal {violation.deal_index + 1}, "
        f"action {violation.action_index + 1} of the deal, action {violation.overall_index + 1} "
        f"of the record"
    )
    console.print(
        f"  seat {violation.seat} ({escape(seats[violation.seat])}): {escape(violation.description)}"
    )
    console.print(f"  rule broken: [bold]{violation.rule}[/]: {escape(violation.message)}")


def _print_mismatches(mismatches: tuple[str, ...], applied: int, console: Console) -> None:
    if mismatches:
        console.print("[bold red]The recorded result does not match the replay:[/]")
        for line in mismatches:
            console.print(f"  {escape(line)}")
    else:
        console.print(f"Legal record: all {applied} actions replayed.")


def print_shengji_replay_report(report: ShengjiReplayReport, console: Console) -> None:
    """A Shengji replay's report, as :func:`print_replay_report`."""
    record = report.record
    seats = record.seats
    _print_heading("Shengji", record.rules.name, record.seed, len(record.deals), record.action_count, console)
    if report.deals:
        table = Table(
            "deal", "level", "dealer", "trump", "attackers' points", "kitty", "result", "levels after"
        )
        before = (record.rules.first_level, record.rules.first_level)
        for deal in report.deals:
            summary, result = deal.summary, deal.summary.result
            dealers = summary.dealer % 2
            points = str(result.score)
            if result.penalty:
                points += f" (cards {result.attackers_card_points}, penalty {result.penalty:+d})"
            kitty = f"{result.kitty_points} ×{result.kitty_multiplier}"
            if summary.passed_top:
                outcome = f"team {dealers} passes {summary.level.letter}"
            elif summary.outcome.attackers_take_over:
                outcome = f"team {1 - dealers} takes over"
            else:
                outcome = f"team {dealers} keeps the deal"
            changes = [
                f"team {team} {old.letter} → {new.letter}"
                for team, (old, new) in enumerate(zip(before, summary.levels_after, strict=True))
                if old != new
            ]
            if summary.reset:
                changes.append(f"J 摳底: team {dealers} back to {record.rules.first_level.letter}")
            table.add_row(
                str(deal.index + 1),
                f"{summary.level.letter} (team {dealers})",
                f"seat {summary.dealer} ({escape(seats[summary.dealer])})",
                "no trump" if result.trump is None else f"{result.trump.symbol} {result.trump.letter}",
                points,
                kitty,
                "; ".join([outcome, *changes]) if changes else f"{outcome}; no level change",
                " : ".join(level.letter for level in summary.levels_after),
            )
            before = summary.levels_after
        console.print(table)
    if report.violation is not None:
        _print_violation(report.violation, seats, console)
        return
    levels = " : ".join(level.letter for level in report.levels)
    if report.finished:
        assert report.winner is not None
        top = record.rules.top_level.letter
        console.print(
            f"[bold green]{_team(seats, report.winner)} wins[/], passed {top}: "
            f"levels {levels} (team 0 : team 1)"
        )
    else:
        console.print(
            f"[bold yellow]Unfinished match[/]: {escape(report.state)}; levels {levels} (team 0 : team 1)"
        )
    _print_mismatches(report.mismatches, report.actions_applied, console)
