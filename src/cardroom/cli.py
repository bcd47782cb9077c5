"""The ``cardroom`` command line."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console
from rich.markup import escape
from rich.table import Table

from cardroom.arena.command import run_command as run_arena_command
from cardroom.arena.duplicate import GAMES, ArenaConfig
from cardroom.arena.play import ArenaError
from cardroom.arena.ray_backend import LOCAL, RayUnavailableError, import_ray
from cardroom.bots import BOTS
from cardroom.bots.shengji import SHENGJI_BOTS
from cardroom.cards import NotationError, Rank
from cardroom.demo import run_demo
from cardroom.guandan.ruleset import RuleSet, preset
from cardroom.records import FORMAT as GUANDAN_FORMAT
from cardroom.records import RecordError, ReplayReport, Violation, play_random, read_record, write_record
from cardroom.records import replay as replay_record
from cardroom.records.shengji import (
    SHENGJI_FORMAT,
    ShengjiReplayReport,
    play_random_shengji,
    replay_shengji,
    write_shengji_record,
)
from cardroom.shengji import preset as shengji_preset
from cardroom.shengji.ruleset import PRESETS as SHENGJI_PRESETS
from cardroom.shengji.ruleset import ShengjiRules

app = typer.Typer(
    help="Guandan (掼蛋) and Shengji (升级): rules engine, bots and card room.",
    no_args_is_help=True,
)


def _console() -> Console:
    """Rich's console for a command's output: lines wrap at the terminal's width, and not at all when
    the output is a pipe or a file (where Rich would wrap at 80 columns)."""
    console = Console()
    console.soft_wrap = not console.is_terminal
    return console


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
    run_demo(seed, _level(level), seat, _console(), _preset(rules))


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
    file: Annotated[Path, typer.Argument(help="A match record (JSON, docs/records.md): Guandan or Shengji.")],
) -> None:
    """Replay a match record (Guandan or Shengji, by its format): each deal's result and the match
    result, or the first illegal action.

    Exit code 0 for a legal record, 1 for an illegal action or a result that does not match, 2 for a
    record that cannot be read.
    """
    console = _console()
    try:
        raw = read_record(file)
        if _record_format(raw) == SHENGJI_FORMAT:
            shengji_report = replay_shengji(raw)
            _print_shengji_report(shengji_report, console)
            ok = shengji_report.ok
        else:
            report = replay_record(raw)
            _print_report(report, console)
            ok = report.ok
    except RecordError as error:
        console.print(f"[bold red]Broken record[/] {escape(str(file))}: {escape(str(error))}")
        raise typer.Exit(2) from None
    raise typer.Exit(0 if ok else 1)


def _record_format(raw: dict[str, object]) -> object:
    """The record's ``format``; one neither game writes is a :class:`RecordError` naming both."""
    value = raw.get("format")
    if value not in (GUANDAN_FORMAT, SHENGJI_FORMAT):
        got = "missing" if "format" not in raw else f"got {json.dumps(value, ensure_ascii=False)[:60]}"
        raise RecordError("format", f'expected "{GUANDAN_FORMAT}" or "{SHENGJI_FORMAT}", {got}')
    return value


@app.command("play-random")
def play_random_command(
    seed: Annotated[int, typer.Option(help="Seed of random.Random: the shuffles and every choice.")],
    out: Annotated[Path, typer.Option(help="Where to write the match record (JSON).")],
    deals: Annotated[
        int | None,
        typer.Option(
            min=1,
            help="Guandan: play a fixed-deal match of this many deals. Shengji: stop after this many deals "
            "(an unfinished match).",
        ),
    ] = None,
    rules: Annotated[
        str | None, typer.Option(help="Rule-set preset (default: competition; Shengji: shengji).")
    ] = None,
    game: Annotated[str, typer.Option(help="The game: guandan or shengji.")] = "guandan",
) -> None:
    """Play a match with uniformly random legal actions and write its record."""
    if game == "shengji":
        _play_random_shengji(seed, out, deals, rules or "shengji")
        return
    if game != "guandan":
        raise typer.BadParameter(f"unknown game {game!r}; known: guandan, shengji", param_hint="--game")
    record = play_random(seed, max_deals=deals, rules=_preset(rules or "competition"))
    write_record(out, record)
    result = record["result"]
    actions = sum(len(deal["actions"]) for deal in record["deals"])
    levels = " : ".join(result["levels"])
    points = " : ".join(str(value) for value in result["points"])
    winner = "a draw" if result["winner"] is None else f"team {result['winner']} wins"
    _console().print(
        f"Wrote {escape(str(out))}: {_count(len(record['deals']), 'deal')}, {_count(actions, 'action')}; "
        f"{winner}, levels {levels}, 28-point score {points}."
    )


def _play_random_shengji(seed: int, out: Path, deals: int | None, rules: str) -> None:
    try:
        rule_set = shengji_preset(rules)
    except KeyError as error:
        raise typer.BadParameter(str(error.args[0]), param_hint="--rules") from None
    record = play_random_shengji(seed, max_deals=deals, rules=rule_set)
    write_shengji_record(out, record)
    result = record["result"]
    actions = sum(len(deal["actions"]) for deal in record["deals"])
    levels = " : ".join(result["levels"])
    state = f"team {result['winner']} wins" if result["finished"] else "unfinished"
    _console().print(
        f"Wrote {escape(str(out))}: Shengji, {_count(len(record['deals']), 'deal')}, "
        f"{_count(actions, 'action')}; {state}, levels {levels}."
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
        _print_violation(violation, seats, console)
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


def _print_shengji_report(report: ShengjiReplayReport, console: Console) -> None:
    record = report.record
    seats = record.seats
    seed = f", seed {record.seed}" if record.seed is not None else ""
    console.print(
        f"[bold]Shengji match record[/]: rules {escape(record.rules.name)}{seed}, "
        f"{_count(len(record.deals), 'deal')}, {_count(record.action_count, 'action')}"
    )
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


def _bot(name: str, option: str) -> str:
    if name not in BOTS:
        raise typer.BadParameter(
            f"unknown bot {name!r}; available: {', '.join(sorted(BOTS))}", param_hint=option
        )
    return name


RayFlag = Annotated[
    bool,
    typer.Option("--ray", help="Play on a local Ray instance started for the run (extra cardroom\\[ray])."),
]
RayAddress = Annotated[
    str | None,
    typer.Option(help="Play on the Ray cluster at this address (HOST:PORT, ray://HOST:10001 or auto)."),
]


@app.command("arena")
def arena_command(
    a: Annotated[
        str,
        typer.Option(help=f"Bot of team A (seats 0 & 2, then 1 & 3); available: {', '.join(sorted(BOTS))}."),
    ],
    b: Annotated[str, typer.Option(help="Bot of team B (seats 1 & 3, then 0 & 2).")],
    game: Annotated[
        str,
        typer.Option(help=f"The game: guandan or shengji (Shengji bots: {', '.join(sorted(SHENGJI_BOTS))})."),
    ] = "guandan",
    deals: Annotated[
        int, typer.Option(min=0, help="Fresh deals (level 2), each played twice with the teams swapped.")
    ] = 100,
    matches: Annotated[
        int, typer.Option(min=0, help="Whole matches to passing A, each played twice with the teams swapped.")
    ] = 0,
    rules: Annotated[
        str | None, typer.Option(help="Rule-set preset (default: competition; for Shengji: shengji).")
    ] = None,
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
    ray: RayFlag = False,
    ray_address: RayAddress = None,
) -> None:
    """Play bot A against bot B in duplicate (every deal twice, teams swapped) and measure them.

    Prints deal and match win rates and level gain with 95% intervals over the duplicate pairs, and
    play statistics beside seed 001's human figures; writes OUT/results.json, OUT/results.png and a
    record per game (replay them with `cardroom replay`). `--game shengji` plays Shengji with the
    Shengji bots: win rates, levels gained, dealer keeps and attackers' points (docs/arena.md).
    """
    if deals == 0 and matches == 0:
        raise typer.BadParameter("nothing to play: give --deals or --matches above 0", param_hint="--deals")
    if game not in GAMES:
        raise typer.BadParameter(f"unknown game {game!r}; available: {', '.join(GAMES)}", param_hint="--game")
    rule_set: RuleSet | ShengjiRules
    if game == "shengji":
        rule_set = _shengji_arena_rules(rules or "shengji")
        bot_a, bot_b = _shengji_bot(a, "--a"), _shengji_bot(b, "--b")
    else:
        rule_set = _preset(rules or "competition")
        bot_a, bot_b = _bot(a, "--a"), _bot(b, "--b")
    config = ArenaConfig(bot_a, bot_b, deals=deals, matches=matches, seed=seed, rules=rule_set, game=game)
    address = _ray_address(ray, ray_address)
    console = _console()
    try:
        run_arena_command(
            config,
            workers=workers or os.cpu_count() or 1,
            out=out,
            records=records,
            console=console,
            ray_address=address,
        )
    except ArenaError as error:
        console.print(f"[bold red]Arena stopped[/]: {escape(str(error))}")
        raise typer.Exit(1) from None
    except ConnectionError as error:
        console.print(f"[bold red]Cannot reach Ray[/] at {escape(str(address))}: {escape(str(error))}")
        raise typer.Exit(1) from None


def _shengji_bot(name: str, option: str) -> str:
    if name not in SHENGJI_BOTS:
        raise typer.BadParameter(
            f"unknown Shengji bot {name!r}; available: {', '.join(sorted(SHENGJI_BOTS))}", param_hint=option
        )
    return name


def _shengji_arena_rules(name: str) -> ShengjiRules:
    if name not in SHENGJI_PRESETS:
        raise typer.BadParameter(
            f"unknown Shengji rule set {name!r}; available: {', '.join(sorted(SHENGJI_PRESETS))}",
            param_hint="--rules",
        )
    return SHENGJI_PRESETS[name]


def _ray_address(ray: bool, ray_address: str | None) -> str | None:
    """The Ray address ``--ray`` / ``--ray-address`` ask for (``None``: no Ray), checking Ray imports."""
    address = ray_address or (LOCAL if ray else None)
    if address is not None:
        try:
            import_ray()
        except RayUnavailableError as error:
            hint = "--ray-address" if ray_address else "--ray"
            raise typer.BadParameter(str(error), param_hint=hint) from None
    return address


@app.command("selfplay")
def selfplay_command(
    bot: Annotated[
        str, typer.Option(help=f"The bot at all four seats; available: {', '.join(sorted(BOTS))}.")
    ],
    deals: Annotated[int, typer.Option(min=1, help="Fresh deals (level 2) to play.")],
    out: Annotated[Path, typer.Option(help="Folder for manifest.json, samples/ and records/.")],
    seed: Annotated[int, typer.Option(help="Seed of the cards and the bots (docs/rl.md).")] = 1,
    rules: Annotated[str, typer.Option(help="Rule-set preset (one with the competition plays).")] = (
        "competition"
    ),
    workers: Annotated[
        int | None, typer.Option(min=1, help="Worker processes (default: the number of CPUs).")
    ] = None,
    shard_deals: Annotated[
        int, typer.Option(min=1, help="Deals per .npz shard (one task each; the data does not depend on it).")
    ] = 50,
    features: Annotated[
        bool,
        typer.Option("--features/--no-features", help="Keep every legal card-level action's feature vector."),
    ] = True,
    records: Annotated[
        bool, typer.Option("--records/--no-records", help="Write every deal's record into OUT/records.")
    ] = True,
    ray: RayFlag = False,
    ray_address: RayAddress = None,
) -> None:
    """Write a self-play dataset for training: four copies of BOT play fresh deals.

    Every decision becomes a sample (encoded observation, legal action mask, chosen action index, the
    legal actions' features, seat, deal, the team's reward) in OUT/samples/shard-*.npz, with a record per
    deal in OUT/records and OUT/manifest.json (docs/rl.md, "Datasets"; read it with
    cardroom.rl.dataset.load_dataset). The same seed gives the same files, here, in a pool or on Ray.
    """
    import time

    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    address = _ray_address(ray, ray_address)
    console = _console()
    try:
        from cardroom.rl.dataset import SelfPlayConfig, SelfPlayError, write_dataset
    except ImportError as error:
        console.print(
            f"[bold red]Self-play needs the optional extra cardroom[rl][/] (pip install 'cardroom[rl]'): "
            f"{escape(str(error))}"
        )
        raise typer.Exit(2) from None
    try:
        config = SelfPlayConfig(
            _bot(bot, "--bot"),
            deals,
            seed=seed,
            rules=_preset(rules),
            shard_deals=shard_deals,
            features=features,
        )
    except ValueError as error:
        raise typer.BadParameter(str(error), param_hint="--rules") from None
    where = "a local Ray instance" if address == LOCAL else f"the Ray cluster at {address}"
    cpus = workers or os.cpu_count() or 1
    console.print(
        f"Self-play: four [bold]{escape(bot)}[/] bots, {deals} deals, rules {escape(config.rules.name)}, "
        f"seed {seed}, {config.shards} shards, "
        + (f"on {escape(where)}" if address else f"{cpus} worker{'s' * (cpus != 1)}")
    )
    start = time.perf_counter()
    try:
        with Progress(
            TextColumn("[progress.description]{task.description}"),
            BarColumn(),
            MofNCompleteColumn(),
            TimeElapsedColumn(),
            console=console,
        ) as progress:
            task = progress.add_task("deals", total=deals)
            manifest = write_dataset(
                config,
                out,
                workers=cpus,
                ray_address=address,
                records=records,
                progress=lambda done: progress.advance(task, done),
            )
    except SelfPlayError as error:
        console.print(f"[bold red]Self-play stopped[/]: {escape(str(error))}")
        raise typer.Exit(1) from None
    except ConnectionError as error:
        console.print(f"[bold red]Cannot reach Ray[/] at {escape(str(address))}: {escape(str(error))}")
        raise typer.Exit(1) from None
    counts = manifest["counts"]
    console.print(
        f"{counts['deals']} deals, {counts['samples']} decisions in {counts['shards']} shards, "
        f"{time.perf_counter() - start:.1f} s. Wrote {escape(str(out))}: manifest.json, samples/"
        + (", records/" if records else "")
        + "."
    )


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


def _competition_logging(verbose: bool) -> None:
    """Log the competition server's and client's progress to stderr (once, however often called)."""
    import logging
    import sys

    class StderrHandler(logging.Handler):
        """Writes to the ``sys.stderr`` of the moment (a test runner may swap it)."""

        def emit(self, record: logging.LogRecord) -> None:
            try:
                sys.stderr.write(self.format(record) + "\n")
            except Exception:  # logging must never break the command
                self.handleError(record)

    logger = logging.getLogger("cardroom.competition")
    if not any(getattr(handler, "name", None) == "cardroom-cli" for handler in logger.handlers):
        handler = StderrHandler()
        handler.name = "cardroom-cli"
        handler.setFormatter(logging.Formatter("%(asctime)s %(message)s", "%H:%M:%S"))
        logger.addHandler(handler)
    logger.setLevel(logging.INFO if verbose else logging.WARNING)


def _bot_seats(options: list[str]) -> dict[int, str]:
    seats: dict[int, str] = {}
    for option in options:
        seat_text, sep, name = option.partition("=")
        if not sep or seat_text.strip() not in ("0", "1", "2", "3"):
            raise typer.BadParameter(
                f"{option!r}: write SEAT=BOT with SEAT 0–3, e.g. 1=heuristic", param_hint="--bot"
            )
        seat = int(seat_text)
        if seat in seats:
            raise typer.BadParameter(f"seat {seat} is given twice", param_hint="--bot")
        seats[seat] = _bot(name.strip(), "--bot")
    return seats


@app.command("compete")
def compete_command(
    port: Annotated[
        int, typer.Option(min=0, max=65535, help="Port to listen on (0: any free port).")
    ] = 23456,
    host: Annotated[str, typer.Option(help="Address to listen on.")] = "127.0.0.1",
    bot: Annotated[
        list[str] | None,
        typer.Option(
            help=f"SEAT=BOT: our bot plays that seat (repeatable); other seats wait for clients at "
            f"ws://HOST:PORT/game/client{{SEAT}}. Bots: {', '.join(sorted(BOTS))}."
        ),
    ] = None,
    matches: Annotated[int, typer.Option(min=1, help="Matches to play.")] = 1,
    deals: Annotated[
        int | None, typer.Option(min=1, help="Deals per match (default: play until a team passes A).")
    ] = None,
    seed: Annotated[int | None, typer.Option(help="Seed of the shuffles and of our bots.")] = None,
    rules: Annotated[str, typer.Option(help="Rule-set preset.")] = "competition",
    timeout: Annotated[float, typer.Option(min=0.01, help="Seconds a client has for each decision.")] = 20.0,
    fallback: Annotated[
        str, typer.Option(help="Bot that plays a decision a client fails to answer in time or legibly.")
    ] = "heuristic",
    out: Annotated[Path, typer.Option(help="Folder for the match records (match-001.json, …).")] = Path(
        "compete-records"
    ),
    error_messages: Annotated[
        bool,
        typer.Option(
            "--error-messages/--no-error-messages",
            help="Send a client an error message when its answer cannot be used (else only log it).",
        ),
    ] = True,
    quiet: Annotated[bool, typer.Option(help="Log only warnings.")] = False,
) -> None:
    """Run matches in the Guandan AI competition's websocket protocol (docs/competition-protocol.md).

    Seats not given to our bots wait for external clients; the matches start once every one has
    connected. A record of each match is written to OUT (replay it with `cardroom replay`).
    """
    from cardroom.competition.server import CompeteConfig, run_compete

    config = CompeteConfig(
        host=host,
        port=port,
        bots=_bot_seats(bot or []),
        matches=matches,
        max_deals=deals,
        seed=seed,
        rules=_preset(rules),
        timeout=timeout,
        fallback=_bot(fallback, "--fallback"),
        out=out,
        send_errors=error_messages,
    )
    _competition_logging(not quiet)
    console = _console()
    try:
        report = run_compete(config)
    except KeyboardInterrupt:
        console.print(
            f"[bold yellow]Stopped[/]: the match in progress is recorded as it stood in {escape(str(out))}"
        )
        raise typer.Exit(130) from None
    except OSError as error:
        console.print(f"[bold red]Cannot listen on {escape(host)}:{port}[/]: {escape(str(error))}")
        raise typer.Exit(1) from None
    table = Table("match", "winner", "levels", "28-point score", "record")
    for number, (result, path) in enumerate(zip(report.results, report.records, strict=True), start=1):
        winner = "draw" if result["winner"] is None else f"team {result['winner']}"
        points = " : ".join(str(value) for value in result["points"]) if result["points"] else "-"
        table.add_row(str(number), winner, " : ".join(result["levels"]), points, escape(str(path)))
    console.print(table)
    for seat in report.seats:
        kind = "client" if seat.external else "bot"
        faults = ", ".join(f"{code} ×{count}" for code, count in sorted(seat.errors.items()))
        line = f"seat {seat.seat}: {escape(seat.name)} ({kind})"
        if seat.substitutions:
            line += f", {config.fallback} played {_count(seat.substitutions, 'decision')} ({escape(faults)})"
        console.print(line)


@app.command("connect")
def connect_command(
    url: Annotated[str, typer.Argument(help="The seat's address, e.g. ws://127.0.0.1:23456/game/client1.")],
    bot: Annotated[str, typer.Option(help=f"Our bot at the seat; available: {', '.join(sorted(BOTS))}.")] = (
        "heuristic"
    ),
    seed: Annotated[int | None, typer.Option(help="Seed of the bot.")] = None,
    fallback: Annotated[str, typer.Option(help="Bot that decides when the first one fails.")] = "heuristic",
    rules: Annotated[str, typer.Option(help="Rule-set preset the server plays.")] = "competition",
    wait: Annotated[
        float,
        typer.Option(
            min=0, help="Seconds to keep trying while nothing listens at URL (also when connecting again)."
        ),
    ] = 10.0,
    idle: Annotated[
        float | None,
        typer.Option(
            min=0.1, help="Seconds without a message from the server before giving up [default: 300]."
        ),
    ] = None,
    quiet: Annotated[bool, typer.Option(help="Log only warnings.")] = False,
) -> None:
    """Play one seat of a server that speaks the Guandan AI competition's protocol with one of our bots.

    The client rebuilds the seat's view from the messages and answers each `act` message with the
    index of the bot's choice in `actionList`; a connection that drops before the games end is made
    again. Exit code 0 when the server ends the games, 1 when it cannot connect, the server refuses the
    seat, stays silent for `--idle` seconds or speaks another protocol.
    """
    from cardroom.competition.client import DEFAULT_IDLE, ConnectError, run_connect

    _competition_logging(not quiet)
    console = _console()
    try:
        report = run_connect(
            url,
            _bot(bot, "--bot"),
            seed=seed,
            fallback=_bot(fallback, "--fallback"),
            rules=_preset(rules),
            wait=wait,
            idle=DEFAULT_IDLE if idle is None else idle,
        )
    except ConnectError as error:
        console.print(f"[bold red]Cannot play[/]: {escape(str(error))}")
        raise typer.Exit(1) from None
    except KeyboardInterrupt:
        console.print("[bold yellow]Stopped[/]")
        raise typer.Exit(130) from None
    if report.close_code == 1008:
        reason = next((str(error.get("message")) for error in report.errors), report.close_reason)
        console.print(f"[bold red]The server refused the seat[/]: {escape(reason)}")
        raise typer.Exit(1)
    seat = "?" if report.seat is None else str(report.seat)
    console.print(
        f"Seat {seat}: {_count(report.matches, 'match')}, {_count(report.deals, 'deal')}, "
        f"{_count(report.decisions, 'decision')}; the bot failed {report.bot_failures}×, chose off the "
        f"list {report.off_list}×; {_count(len(report.errors), 'error message')} from the server"
        + (f"; connected again {report.reconnections}×." if report.reconnections else ".")
    )
    if report.result is not None:
        victories, draws = report.result.get("victoryNum"), report.result.get("draws")
        console.print(f"Result: victories {victories}, draws {draws} (per seat)")
