"""``cardroom tournament``: direct an event from the command line on the tournament core
(:mod:`cardroom.tournament`, the same the card room's director uses). The event lives in one JSON file,
written after every change, so a director can stop at any point and go on later:

- ``create EVENT --roster TEAMS.csv`` registers the teams and draws the lots;
- ``pair EVENT`` pairs the next round (round robin or Swiss);
- ``play EVENT`` plays the round's tables of bots here, one match each, in the event's format;
- ``result EVENT --table N --levels 10:6 --deals 8`` enters the result of a table of people (or
  ``--forfeit``), ``--correct --reason`` corrects one within the correction window (``--override``
  past it);
- ``standings EVENT`` prints the standings with the tie-break that separated each team from the one
  above (the order of docs/rules/competition.md#tie-breaks: 总积分, 去首累进分, 胜轮次, 级差分, 升级数, 抽签),
  the penalties, and exports CSV.

The director's other commands (starting a round, arrivals and lateness, penalties, withdrawals, late
entries, appeals) are in :mod:`cardroom.cli.tournament_desk`; docs/tournaments.md describes them all.
Every command that records something takes ``--at`` (the time it happened; default: now) and ``--by``
(who did it; default: the user's login name).
"""

from __future__ import annotations

import csv
import getpass
import json
import random
from collections.abc import Callable
from datetime import date, datetime, time
from pathlib import Path
from typing import Annotated, Final, NoReturn

import typer
from rich.console import Console
from rich.markup import escape
from rich.table import Table

from cardroom.bots import BOTS, make_bot
from cardroom.cards import NotationError, Rank
from cardroom.cli.options import bot_name, open_console, plural, print_table
from cardroom.guandan.match import Match
from cardroom.guandan.scoring import PASSED_ACE
from cardroom.records import record_of, write_record
from cardroom.tournament import (
    Event,
    EventConfig,
    MatchFormat,
    PairingSystem,
    Player,
    TableResult,
    Team,
    decide_match,
    level_name,
    new_event,
    penalty_text,
    results_csv,
    standings_csv,
)
from cardroom.tournament.scoring import LEVEL_TABLES, ScoringRules

FILE_FORMAT: Final = "cardroom-tournament"
FILE_VERSION: Final = 2
READS_VERSIONS: Final = (1, 2)
"""Version 2 adds the director's records (round starts, arrivals, penalties, result changes,
withdrawals, appeals); a version-1 file reads as an event without them."""
ROSTER_COLUMNS: Final = ("team", "name", "player_1", "player_2", "bot_1", "bot_2")
"""A roster's CSV columns; ``bot_1`` and ``bot_2`` (optional) name the bot that plays that seat."""

app = typer.Typer(help="Direct a tournament: create it from a roster, pair, play, enter results, standings.")

EventFile = Annotated[Path, typer.Argument(help="The event's file (JSON), written after every change.")]
AtOption = Annotated[
    str | None,
    typer.Option(
        "--at", help="When it happened: HH:MM[:SS] today, or a date and time (ISO 8601). Default: now."
    ),
]
ByOption = Annotated[str | None, typer.Option("--by", help="Who did it (default: your login name).")]


def _now() -> datetime:
    return datetime.now().astimezone()


clock: Callable[[], datetime] = _now
"""The time source of ``--at``'s default (tests replace it)."""


def when(text: str | None) -> datetime:
    """The time ``--at`` names (local time unless it gives its offset), or now."""
    if text is None:
        return clock()
    try:
        if len(text) <= 8 and ":" in text:
            moment = datetime.combine(clock().date(), time.fromisoformat(text))
        else:
            moment = datetime.fromisoformat(text)
    except ValueError:
        raise typer.BadParameter(
            f"{text!r}: a time is HH:MM, HH:MM:SS or an ISO 8601 date and time", param_hint="--at"
        ) from None
    return moment if moment.tzinfo is not None else moment.astimezone()


def who(name: str | None) -> str:
    """``--by``, or the login name."""
    if name:
        return name
    try:
        return getpass.getuser()
    except (KeyError, OSError):
        return "director"


def clock_text(moment: datetime | None) -> str:
    """A recorded time as the director reads it: local HH:MM:SS, with the date when not today."""
    if moment is None:
        return "-"
    local = moment.astimezone()
    today: date = clock().astimezone().date()
    return local.strftime("%H:%M:%S" if local.date() == today else "%Y-%m-%d %H:%M:%S")


class TournamentError(Exception):
    """A command the event cannot take, with what is wrong."""


# -- the event's file ------------------------------------------------------------------------------


def load_event(path: Path) -> Event:
    """The event stored at ``path``; :class:`TournamentError` when it is missing or not an event file."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise TournamentError(
            f"{path}: no such event file (`cardroom tournament create` makes one)"
        ) from None
    except (OSError, json.JSONDecodeError) as error:
        raise TournamentError(f"{path}: not an event file: {error}") from None
    if not isinstance(data, dict) or data.get("format") != FILE_FORMAT:
        raise TournamentError(f'{path}: not an event file (format "{FILE_FORMAT}" expected)')
    if data.get("version") not in READS_VERSIONS:
        version = data.get("version")
        raise TournamentError(f"{path}: event file version {version!r}; this program reads {FILE_VERSION}")
    try:
        return Event.from_dict(data["event"])
    except (KeyError, TypeError, ValueError) as error:
        raise TournamentError(f"{path}: a broken event: {error}") from None


def save_event(path: Path, event: Event) -> None:
    """Write the event (to a temporary file first, so that a stop never leaves half a file)."""
    stored = {"format": FILE_FORMAT, "version": FILE_VERSION, "event": event.to_dict()}
    text = json.dumps(stored, ensure_ascii=False)
    partial = path.with_name(path.name + ".partial")
    partial.write_text(text + "\n", encoding="utf-8")
    partial.replace(path)


def read_roster(path: Path) -> list[Team]:
    """Teams from a CSV roster (columns :data:`ROSTER_COLUMNS`; a seat with a bot is played by it)."""
    try:
        with path.open(encoding="utf-8-sig", newline="") as handle:
            rows = list(csv.DictReader(handle))
    except OSError as error:
        raise TournamentError(f"{path}: {error.strerror or error}") from None
    teams = []
    for number, row in enumerate(rows, start=2):
        missing = [column for column in ROSTER_COLUMNS[:4] if not (row.get(column) or "").strip()]
        if missing:
            columns = ", ".join(ROSTER_COLUMNS)
            raise TournamentError(f"{path}, line {number}: no {', '.join(missing)} (columns: {columns})")
        players = []
        for seat in (1, 2):
            bot = (row.get(f"bot_{seat}") or "").strip() or None
            if bot is not None and bot not in BOTS:
                known = ", ".join(sorted(BOTS))
                raise TournamentError(f"{path}, line {number}: unknown bot {bot!r}; available: {known}")
            name = row[f"player_{seat}"].strip()
            players.append(Player(f"{row['team'].strip()}-{seat}", name, bot))
        teams.append(Team(row["team"].strip(), (players[0], players[1]), row["name"].strip()))
    if not teams:
        raise TournamentError(f"{path}: no teams (columns: {', '.join(ROSTER_COLUMNS)})")
    return teams


# -- the commands ----------------------------------------------------------------------------------


@app.command("create")
def create_command(
    event_file: EventFile,
    roster: Annotated[Path, typer.Option(help=f"CSV of the teams: {', '.join(ROSTER_COLUMNS)}.")],
    name: Annotated[str, typer.Option(help="The event's name.")] = "",
    rounds: Annotated[int | None, typer.Option(min=1, help="Rounds (default: a full round robin).")] = None,
    system: Annotated[str, typer.Option(help="Pairing: auto, round_robin or swiss.")] = "auto",
    deals: Annotated[int | None, typer.Option(min=1, help="Deals a match (default: to A).")] = None,
    level_table: Annotated[
        int,
        typer.Option(
            help="The table of the level difference (级差分) in the tie-break: 26 (the rules') or 28 points."
        ),
    ] = 26,
    seed: Annotated[int, typer.Option(help="Seed of the lots.")] = 1,
    fill_bot: Annotated[
        str | None, typer.Option(help="With an odd number of teams, add a team of this bot instead of byes.")
    ] = None,
) -> None:
    """Create an event from a roster and draw the lots."""
    console = open_console()
    if event_file.exists():
        fail(console, f"{event_file} exists already: choose another file, or go on with it")
    try:
        pairing = PairingSystem(system)
    except ValueError:
        raise typer.BadParameter(
            f"{system!r}: choose auto, round_robin or swiss", param_hint="--system"
        ) from None
    if level_table not in LEVEL_TABLES:
        raise typer.BadParameter(f"{level_table}: 26 or 28 (points)", param_hint="--level-table")
    fmt = MatchFormat.fixed_deals(deals) if deals is not None else MatchFormat.to_ace()
    scoring = ScoringRules(level_table=level_table)
    try:
        event = new_event(EventConfig(name, fmt, rounds, pairing, scoring), read_roster(roster))
        if fill_bot is not None:
            event = event.fill_with_bots(bot_name(fill_bot, "--fill-bot"))
        event = event.start(random.Random(seed))
    except TournamentError as error:
        fail(console, str(error))
    except ValueError as error:
        fail(console, str(error), "create the event")
    save_event(event_file, event)
    console.print(
        f"Created {escape(str(event_file))}: {escape(name or 'an event')}, "
        f"{plural(len(event.teams), 'team')}, {plural(event.total_rounds, 'round')} "
        f"({event.system.value if event.system else '-'}), {escape(fmt.describe())}, "
        f"级差分 in the {level_table}-point table."
    )
    table = Table("lot", "team", "players")
    for lot, team_id in enumerate(event.lots, start=1):
        team = event.team(team_id)
        table.add_row(str(lot), escape(team.display), escape(_players(team)))
    print_table(console, table)


@app.command("pair")
def pair_command(event_file: EventFile) -> None:
    """Pair the next round (the last one must have every result)."""
    console = open_console()
    event = load(console, event_file)
    try:
        event = event.pair_next_round()
    except ValueError as error:
        fail(console, str(error), "pair")
    save_event(event_file, event)
    _print_round(console, event, len(event.rounds))
    console.print(
        "The pairings are published; the round starts when you declare it: "
        "`cardroom tournament start-round` (lateness counts from then)."
    )


@app.command("play")
def play_command(
    event_file: EventFile,
    seed: Annotated[int, typer.Option(help="Seed of the cards and the bots (with the round and table).")] = 1,
    records: Annotated[Path | None, typer.Option(help="Folder for each match's record.")] = None,
) -> None:
    """Play the current round's tables where every seat is a bot, here, in the event's format."""
    console = open_console()
    event = load(console, event_file)
    current = event.current_round
    if current is None:
        fail(console, "no round is paired yet: run `cardroom tournament pair` first")
    played = 0
    for pairing, result in zip(current.pairings, current.results, strict=True):
        if result is not None or not all(event.team(team_id).is_bot for team_id in pairing.teams):
            continue
        players = event.seat_players(pairing)
        rng = random.Random(f"{seed}:{current.number}:{pairing.table}")
        match = play_table(event.config.format, players, rng)
        result = TableResult.from_match(match, event.config.scoring, fmt=event.config.format)
        event = event.record(current.number, pairing.table, result)
        save_event(event_file, event)
        played += 1
        if records is not None:
            records.mkdir(parents=True, exist_ok=True)
            names = tuple(player.display for player in players)
            name = f"round-{current.number:02d}-table-{pairing.table:02d}.json"
            write_record(records / name, record_of(match, names))
        console.print(
            f"Round {current.number}, table {pairing.table}: {result_text(event, pairing.teams, result)}"
        )
    now = event.round(current.number)
    waiting = [
        str(pairing.table) for pairing, result in zip(now.pairings, now.results, strict=True) if not result
    ]
    after = (
        f"Tables waiting for a result: {', '.join(waiting)}."
        if waiting
        else f"Round {now.number} is complete."
    )
    console.print(f"Played {plural(played, 'table')} of bots. {after}")


@app.command("result")
def result_command(
    event_file: EventFile,
    table: Annotated[int, typer.Option(min=1, help="The table (of the current round unless --round).")],
    levels: Annotated[
        str | None, typer.Option(help="Levels at the end, seats 0 & 2 first: 10:6, K:A, A+:Q (A+: passed A).")
    ] = None,
    deals: Annotated[
        int | None, typer.Option(min=0, help="Deals played (needed with --levels; a forfeit: default 0).")
    ] = None,
    forfeit: Annotated[
        str | None, typer.Option(help="The team that forfeits (判负 or 弃权), by its id.")
    ] = None,
    round_number: Annotated[
        int | None, typer.Option("--round", min=1, help="The round (default: the current one).")
    ] = None,
    correct: Annotated[bool, typer.Option(help="Replace a result entered before (成绩更正).")] = False,
    reason: Annotated[str, typer.Option(help="Why (needed for a correction).")] = "",
    override: Annotated[
        str, typer.Option(help="Correct past the correction window; the reason for allowing it.")
    ] = "",
    at: AtOption = None,
    by: ByOption = None,
) -> None:
    """Enter the result of a table of people (or, with --correct, correct one)."""
    console = open_console()
    event = load(console, event_file)
    number = round_number or len(event.rounds)
    if number == 0:
        fail(console, "no round is paired yet")
    if (levels is None) == (forfeit is None):
        raise typer.BadParameter("give --levels, or --forfeit TEAM", param_hint="--levels")
    if levels is not None and deals is None:
        raise typer.BadParameter(
            "give the number of deals played with the levels, e.g. --levels 10:6 --deals 8",
            param_hint="--deals",
        )
    moment = when(at)
    try:
        played = event.round(number)
        pairing = played.pairing(table)
        entered = played.result(table)
        if entered is not None and not correct:
            before = result_text(event, pairing.teams, entered)
            raise ValueError(f"table {table} has its result already ({before}); give --correct to replace it")
        if entered is not None and not reason.strip():
            raise ValueError("a correction needs its reason: --reason TEXT")
        if forfeit is not None:
            event = event.record_forfeit(
                number,
                table,
                forfeit,
                deals=deals or 0,
                at=moment,
                by=who(by),
                reason=reason,
                override=override,
            )
        else:
            assert levels is not None
            assert deals is not None
            if deals == 0:
                raise ValueError("a match played has at least one deal: --deals N")
            played_result = TableResult.played(_levels(levels), deals, event.config.scoring)
            event = event.record(
                number, table, played_result, at=moment, by=who(by), reason=reason, override=override
            )
    except (KeyError, ValueError) as error:
        fail(console, str(error.args[0] if error.args else error), "enter the result")
    save_event(event_file, event)
    result = event.round(number).result(table)
    assert result is not None
    console.print(f"Round {number}, table {table}: {result_text(event, pairing.teams, result)}")
    deadline = event.correction_deadline(number)
    if deadline is not None and moment <= deadline:
        console.print(f"Corrections to round {number} are open until {clock_text(deadline)}.")


@app.command("standings")
def standings_command(
    event_file: EventFile,
    csv_file: Annotated[Path | None, typer.Option("--csv", help="Write the standings here as CSV.")] = None,
    results_file: Annotated[
        Path | None, typer.Option("--results-csv", help="Write every table's result here as CSV.")
    ] = None,
) -> None:
    """Print the standings, each row with the tie-break that put it below the team above; export CSV."""
    console = open_console()
    event = load(console, event_file)
    done = sum(1 for played in event.rounds if played.complete)
    console.print(
        f"{escape(event.config.name or 'Event')}: {done} of {plural(event.total_rounds, 'round')} complete, "
        f"{event.phase.value}; 级差分 in the {event.config.scoring.level_table}-point table."
    )
    table = Table("rank", "team", "总积分", "去首累进分", "胜轮次", "级差分", "升级数", "lot", "decided by")
    for row in event.standings():
        tally = row.tally
        decided = "" if row.above is None else f"{row.above.label} ({row.above.value})"
        out = f" ({event.withdrawal_of(row.team).label})" if event.is_out(row.team) else ""
        table.add_row(
            str(row.rank),
            escape(event.team(row.team).display + out),
            str(tally.points),
            str(tally.progressive),
            str(tally.wins),
            str(tally.level_difference),
            str(tally.levels_gained),
            str(tally.lot),
            decided,
        )
    print_table(console, table)
    print_penalties(console, event)
    if csv_file is not None:
        csv_file.write_text(standings_csv(event, bom=True), encoding="utf-8")
        console.print(f"Wrote {escape(str(csv_file))}.")
    if results_file is not None:
        results_file.write_text(results_csv(event, bom=True), encoding="utf-8")
        console.print(f"Wrote {escape(str(results_file))}.")


# -- playing and showing ---------------------------------------------------------------------------


def play_table(fmt: MatchFormat, players: tuple[Player, Player, Player, Player], rng: random.Random) -> Match:
    """A match of the four seats' bots, deal by deal until ``fmt`` ends it (played here at once: a
    timed format ends by its deal limit or at A)."""
    bots = []
    for player in players:
        assert player.bot is not None
        bots.append(make_bot(player.bot, rng.randrange(2**32)))
    match = Match()
    while decide_match(fmt, match) is None:
        match.deal_random(rng)
        while match.current_deal is not None:
            seat = match.current_player
            assert seat is not None
            match.apply(bots[seat].act(match.observation(seat)))
    return match


def _levels(text: str) -> tuple[int, int]:
    parts = text.split(":")
    if len(parts) != 2:
        raise ValueError(f"levels are written LEVEL:LEVEL, seats 0 & 2 first, e.g. 10:6; got {text!r}")
    return _level(parts[0]), _level(parts[1])


def _level(text: str) -> int:
    text = text.strip().upper()
    if text in ("A+", "过A", "過A"):
        return PASSED_ACE
    try:
        rank = Rank.from_letter("T" if text == "10" else text)
    except NotationError:
        raise ValueError(
            f"{text!r} is not a level: 2…10, J, Q, K, A, or A+ for a team that passed A"
        ) from None
    if rank.is_joker:
        raise ValueError(f"{text!r} is not a level")
    return int(rank)


def _players(team: Team) -> str:
    return " & ".join(f"{p.display} ({p.bot} bot)" if p.bot else p.display for p in team.players)


def result_text(event: Event, teams: tuple[str, str], result: TableResult) -> str:
    first, second = (event.team(team_id).display for team_id in teams)
    levels = " : ".join(level_name(value) for value in result.levels)
    winner = "a draw" if result.winner is None else f"{event.team(teams[result.winner]).display} wins"
    return (
        f"{escape(first)} – {escape(second)}: {escape(winner)}, levels {levels}, "
        f"round points {result.round_points[0]} : {result.round_points[1]}, {plural(result.deals, 'deal')}"
    )


def _print_round(console: Console, event: Event, number: int) -> None:
    played = event.round(number)
    table = Table("table", "seats 0 & 2", "seats 1 & 3", "played by")
    for pairing in played.pairings:
        teams = [event.team(team_id) for team_id in pairing.teams]
        kind = "bots" if all(team.is_bot for team in teams) else "people"
        table.add_row(str(pairing.table), escape(teams[0].display), escape(teams[1].display), kind)
    console.print(f"Round {number} of {event.total_rounds}:")
    print_table(console, table)
    if played.draw.bye is not None:
        console.print(f"Bye: {escape(event.team(played.draw.bye).display)}")


def print_penalties(console: Console, event: Event, round_number: int | None = None) -> None:
    """The penalties of the event (or of one round): round, table, the team or player, the penalty,
    the reason, when and by whom."""
    rows = [
        (played.number, entry)
        for played in event.rounds
        if round_number in (None, played.number)
        for entry in played.penalties
    ]
    if not rows:
        console.print("No penalties.")
        return
    table = Table("round", "table", "penalty", "time", "by", title="Penalties (判罚)")
    for number, entry in rows:
        table.add_row(
            str(number),
            str(entry.table),
            escape(penalty_text(event, entry)),
            clock_text(entry.at),
            escape(entry.by or "the rules"),
        )
    print_table(console, table)


def load(console: Console, path: Path) -> Event:
    try:
        return load_event(path)
    except TournamentError as error:
        fail(console, str(error))


def fail(console: Console, message: str, doing: str = "") -> NoReturn:
    console.print(f"[bold red]Cannot{' ' + doing if doing else ''}[/]: {escape(message)}")
    raise typer.Exit(1)


__all__ = [
    "AtOption",
    "ByOption",
    "EventFile",
    "app",
    "clock_text",
    "fail",
    "load",
    "load_event",
    "play_table",
    "print_penalties",
    "read_roster",
    "result_text",
    "save_event",
    "when",
    "who",
]
