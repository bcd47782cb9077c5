"""The ``cardroom`` command line."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console
from rich.markup import escape
from rich.table import Table

from cardroom.arena.command import run_command as run_arena_command
from cardroom.arena.duplicate import ArenaConfig
from cardroom.arena.play import ArenaError
from cardroom.bots import BOTS
from cardroom.cards import NotationError, Rank
from cardroom.demo import run_demo
from cardroom.guandan.ruleset import RuleSet, preset
from cardroom.records import RecordError, ReplayReport, play_random, read_record, write_record
from cardroom.records import replay as replay_record

app = typer.Typer(
    help="Guandan (掼蛋) and Shengji (升级): rules engine, bots and card room.",
    no_args_is_help=True,
)


def _level(text: str) -> Rank:
    try:
        rank = Rank.from_letter(text)
    except NotationError as error:
        raise typer.BadParameter(str(error)) from None
    if rank.is_joker:
        raise typer.BadParameter("the level is a rank from 2 to A")
    return rank


@app.command()
def demo(
    seed: Annotated[int, typer.Option(help="Seed of the shuffle.")] = 1,
    level: Annotated[str, typer.Option(help="Level rank, 2…A (T for ten).")] = "2",
    seat: Annotated[int, typer.Option(min=0, max=3, help="Seat whose leads are listed.")] = 0,
    rules: Annotated[str, typer.Option(help="Rule-set preset: competition, classic, platform, huopin.")] = (
        "competition"
    ),
) -> None:
    """Deal a seeded hand and list every legal lead of one seat, grouped by kind."""
    run_demo(seed, _level(level), seat, Console(), _preset(rules))


def _preset(name: str) -> RuleSet:
    try:
        return preset(name)
    except KeyError as error:
        raise typer.BadParameter(str(error.args[0]), param_hint="--rules") from None


@app.command()
def version() -> None:
    """Print the version."""
    from cardroom import __version__

    typer.echo(__version__)


@app.command("replay")
def replay_command(
    file: Annotated[Path, typer.Argument(help="A match record (JSON, docs/records.md).")],
) -> None:
    """Replay a match record: each deal's result and the match result, or the first illegal action.

    Exit code 0 for a legal record, 1 for an illegal action or a result that does not match, 2 for a
    record that cannot be read.
    """
    console = Console()
    try:
        report = replay_record(read_record(file))
    except RecordError as error:
        console.print(f"[bold red]Broken record[/] {escape(str(file))}: {escape(str(error))}")
        raise typer.Exit(2) from None
    _print_report(report, console)
    raise typer.Exit(0 if report.ok else 1)


@app.command("play-random")
def play_random_command(
    seed: Annotated[int, typer.Option(help="Seed of random.Random: the shuffles and every choice.")],
    out: Annotated[Path, typer.Option(help="Where to write the match record (JSON).")],
    deals: Annotated[
        int | None, typer.Option(min=1, help="Play a fixed-deal match of this many deals.")
    ] = None,
    rules: Annotated[str, typer.Option(help="Rule-set preset.")] = "competition",
) -> None:
    """Play a match with uniformly random legal actions and write its record."""
    record = play_random(seed, max_deals=deals, rules=_preset(rules))
    write_record(out, record)
    result = record["result"]
    actions = sum(len(deal["actions"]) for deal in record["deals"])
    levels = " : ".join(result["levels"])
    points = " : ".join(str(value) for value in result["points"])
    winner = "a draw" if result["winner"] is None else f"team {result['winner']} wins"
    Console().print(
        f"Wrote {escape(str(out))}: {_count(len(record['deals']), 'deal')}, {_count(actions, 'action')}; "
        f"{winner}, levels {levels}, 28-point score {points}."
    )


def _count(number: int, noun: str) -> str:
    return f"{number} {noun}" if number == 1 else f"{number} {noun}s"


def _team(seats: tuple[str, ...], team: int) -> str:
    return f"team {team} ({escape(seats[team])} & {escape(seats[team + 2])})"


def _print_report(report: ReplayReport, console: Console) -> None:
    record = report.record
    seats = record.seats
    seed = f", seed {record.seed}" if record.seed is not None else ""
    console.print(
        f"[bold]Guandan match record[/]: rules {escape(record.rules.name)}{seed}, "
        f"{_count(len(record.deals), 'deal')}, {_count(record.action_count, 'action')}"
    )
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
        console.print(
            f"[bold red]Illegal action[/] at {violation.path}: deal {violation.deal_index + 1}, "
            f"action {violation.action_index + 1} of the deal, action {violation.overall_index + 1} "
            f"of the record"
        )
        console.print(
            f"  seat {violation.seat} ({escape(seats[violation.seat])}): {escape(violation.description)}"
        )
        console.print(f"  rule broken: [bold]{violation.rule}[/]: {escape(violation.message)}")
        return
    levels = " : ".join(level.letter for level in report.levels)
    if report.finished:
        points = report.points
        assert points is not None
        how = ", passed A" if report.match.passed_ace else ""
        winner = "A draw" if report.winner is None else f"{_team(seats, report.winner)} wins"
        console.print(
            f"[bold green]{winner}[/]{how}: levels {levels} (team 0 : team 1), "
            f"28-point score {points[0]} : {points[1]}"
        )
    else:
        console.print(
            f"[bold yellow]Unfinished match[/]: {escape(report.state)}; levels {levels} (team 0 : team 1)"
        )
    if report.mismatches:
        console.print("[bold red]The recorded result does not match the replay:[/]")
        for line in report.mismatches:
            console.print(f"  {escape(line)}")
    else:
        console.print(f"Legal record: all {report.actions_applied} actions replayed.")


def _bot(name: str, option: str) -> str:
    if name not in BOTS:
        raise typer.BadParameter(
            f"unknown bot {name!r}; available: {', '.join(sorted(BOTS))}", param_hint=option
        )
    return name


@app.command("arena")
def arena_command(
    a: Annotated[
        str,
        typer.Option(help=f"Bot of team A (seats 0 & 2, then 1 & 3); available: {', '.join(sorted(BOTS))}."),
    ],
    b: Annotated[str, typer.Option(help="Bot of team B (seats 1 & 3, then 0 & 2).")],
    deals: Annotated[
        int, typer.Option(min=0, help="Fresh deals (level 2), each played twice with the teams swapped.")
    ] = 100,
    matches: Annotated[
        int, typer.Option(min=0, help="Whole matches to passing A, each played twice with the teams swapped.")
    ] = 0,
    rules: Annotated[str, typer.Option(help="Rule-set preset.")] = "competition",
    seed: Annotated[int, typer.Option(help="Seed of the cards and the bots (docs/arena.md).")] = 1,
    workers: Annotated[
        int | None, typer.Option(min=1, help="Worker processes (default: the number of CPUs).")
    ] = None,
    out: Annotated[Path, typer.Option(help="Folder for results.json, results.png and records/.")] = Path(
        "arena-results"
    ),
    records: Annotated[
        bool, typer.Option("--records/--no-records", help="Write every game's record into OUT/records.")
    ] = True,
) -> None:
    """Play bot A against bot B in duplicate (every deal twice, teams swapped) and measure them.

    Prints deal and match win rates and level gain with 95% intervals over the duplicate pairs, and
    play statistics beside seed 001's human figures; writes OUT/results.json, OUT/results.png and a
    record per game (replay them with `cardroom replay`).
    """
    if deals == 0 and matches == 0:
        raise typer.BadParameter("nothing to play: give --deals or --matches above 0", param_hint="--deals")
    config = ArenaConfig(
        _bot(a, "--a"), _bot(b, "--b"), deals=deals, matches=matches, seed=seed, rules=_preset(rules)
    )
    console = Console()
    try:
        run_arena_command(
            config, workers=workers or os.cpu_count() or 1, out=out, records=records, console=console
        )
    except ArenaError as error:
        console.print(f"[bold red]Arena stopped[/]: {escape(str(error))}")
        raise typer.Exit(1) from None


@app.command("serve")
def serve_command(
    host: Annotated[str, typer.Option(help="Address to listen on.")] = "127.0.0.1",
    port: Annotated[int, typer.Option(min=1, max=65535, help="Port to listen on.")] = 8000,
    database_url: Annotated[
        str | None,
        typer.Option(
            help="Database URL (sqlite:///PATH or postgresql://USER@HOST/NAME); "
            "default: $DATABASE_URL, else SQLite in the data folder."
        ),
    ] = None,
    data: Annotated[
        Path | None,
        typer.Option(
            help="Data folder for the SQLite database (default: $CARDROOM_DATA or ~/.local/share/cardroom)."
        ),
    ] = None,
    bot_delay: Annotated[
        float, typer.Option(min=0, max=10, help="Seconds a bot waits before it acts.")
    ] = 0.6,
    deal_pause: Annotated[float, typer.Option(min=0, max=120, help="Seconds between two deals.")] = 4.0,
    log_level: Annotated[str, typer.Option(help="uvicorn's log level.")] = "info",
) -> None:
    """Run the web card room (docs/server.md): the lobby at http://HOST:PORT/, tables, bots, clocks.

    Every table's log is stored as it happens; a restarted server resumes its tables where they were.
    """
    import uvicorn

    from cardroom.server.app import create_app
    from cardroom.server.config import Settings

    settings = Settings(bot_delay=bot_delay, deal_pause=deal_pause)
    uvicorn.run(
        create_app(database_url, data, settings=settings),
        host=host,
        port=port,
        ws_max_size=settings.max_message * 4,
        log_level=log_level,
    )
