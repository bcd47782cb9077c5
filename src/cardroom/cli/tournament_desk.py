"""The director's desk in ``cardroom tournament``: what happens around the tables during an event, on the
same core as :mod:`cardroom.cli.tournament` (docs/tournaments.md, "The director's day"):

- ``start-round EVENT`` declares the published round started: lateness counts from then;
- ``arrive EVENT TEAM…`` records teams seated; ``arrivals EVENT`` shows every table's seats and records
  the lateness decided by now (a side missing past 10 minutes forfeits);
- ``penalty EVENT --table N --player P --penalty warning --reason …`` gives a penalty by hand;
- ``withdraw EVENT TEAM --reason …`` (``--disqualify``) and ``enter EVENT --team …`` (a late entry);
- ``appeal EVENT --table N --team T --text …`` and ``ruling EVENT NUMBER --ruling … --upheld``.
"""

from __future__ import annotations

from datetime import timedelta
from typing import Annotated

import typer
from rich.markup import escape
from rich.table import Table

import cardroom.cli.tournament as terminal
from cardroom.cli.options import open_console, print_table
from cardroom.cli.tournament import (
    AtOption,
    ByOption,
    EventFile,
    app,
    clock_text,
    fail,
    load,
    print_penalties,
    result_text,
    save_event,
    when,
    who,
)
from cardroom.tournament import Event, Penalty, Player, Team, penalty_text
from cardroom.tournament.conduct import Offence
from cardroom.tournament.lateness import describe_late

PENALTIES = {
    "warning": Penalty.WARNING,
    "violation": Penalty.VIOLATION,
    "foul": Penalty.FOUL,
    "forfeit": Penalty.FORFEIT,
}
"""``--penalty`` names: 警告, 违例, 犯规, 判负."""

SEAT_NAMES = ("seat 0", "seat 1", "seat 2", "seat 3")


def _new_penalties(before: Event, after: Event) -> None:
    current = after.current_round
    known = len(before.current_round.penalties) if before.current_round is not None else 0
    if current is None or len(current.penalties) == known:
        return
    console = open_console()
    for entry in current.penalties[known:]:
        console.print(f"Table {entry.table}: {escape(penalty_text(after, entry))}")
        if entry.offence is Offence.LATE and entry.penalty is Penalty.FOUL:
            other = next(team for team in current.pairing(entry.table).teams if team != entry.team)
            console.print(
                f"  The first deal of table {entry.table} ends as this foul (犯规): a 双下 of "
                f"{escape(after.team(entry.team).display)}, {escape(after.team(other).display)} rises 3 "
                "levels, and the next deal has no tribute (its leader named by the offender's 下家 or the "
                "chief referee). The table's score sheet (`cardroom tournament print EVENT sheets`) has "
                "the deal filled in; enter the result with it counted."
            )


ARRIVAL_TOLERANCE_S = 60
"""How far after now ``arrive --at`` may be (a clock a little ahead); later is refused."""


@app.command("start-round")
def start_round_command(event_file: EventFile, at: AtOption = None) -> None:
    """Declare the published round started (宣布比赛开始): from then a team not seated is late."""
    console = open_console()
    event = load(console, event_file)
    moment = when(at)
    try:
        event = event.start_round(moment)
    except ValueError as error:
        fail(console, str(error), "start the round")
    save_event(event_file, event)
    played = event.current_round
    assert played is not None
    waiting = [team for pairing in played.pairings for team in pairing.teams if played.arrival(team) is None]
    console.print(f"Round {played.number} started at {clock_text(moment)}.")
    if waiting:
        console.print(
            f"Not seated yet: {escape(', '.join(waiting))}. Record them with `cardroom tournament arrive`; "
            "`cardroom tournament arrivals` shows who is late."
        )


@app.command("arrive")
def arrive_command(
    event_file: EventFile,
    teams: Annotated[list[str], typer.Argument(help="The teams seated, by id.")],
    at: AtOption = None,
    by: ByOption = None,
) -> None:
    """Record teams seated at their tables; after the start their lateness is judged."""
    console = open_console()
    event = load(console, event_file)
    moment = when(at)
    now = terminal.clock()
    if moment > now + timedelta(seconds=ARRIVAL_TOLERANCE_S):
        fail(
            console,
            f"an arrival at {clock_text(moment)} is later than now ({clock_text(now)}): a team is recorded "
            "seated when it sits down, or after",
            "record the arrival",
        )
    before = event
    try:
        for team in teams:
            event = event.arrive(team, moment, by=who(by))
    except (KeyError, ValueError) as error:
        fail(console, str(error.args[0] if error.args else error), "record the arrival")
    save_event(event_file, event)
    console.print(f"Seated at {clock_text(moment)}: {escape(', '.join(teams))}.")
    _new_penalties(before, event)


@app.command("arrivals")
def arrivals_command(event_file: EventFile, at: AtOption = None, by: ByOption = None) -> None:
    """Show the current round's seats (who is in, who is late and by how long) and record the lateness
    decided by now: a side missing more than 10 minutes after the start forfeits (弃权)."""
    console = open_console()
    event = load(console, event_file)
    played = event.current_round
    if played is None:
        fail(console, "no round is paired yet")
    if played.started_at is None:
        fail(
            console, f"round {played.number} is published but not started: `cardroom tournament start-round`"
        )
    moment = when(at)
    before = event
    event = event.settle_lateness(moment, by=who(by))
    save_event(event_file, event)
    played = event.round(played.number)
    assert played.started_at is not None
    before_start = moment < played.started_at
    if before_start:
        console.print(
            f"Round {played.number} starts at {clock_text(played.started_at)}, later than now "
            f"({clock_text(moment)}): nobody is late before the start; a team seated before it is on time."
        )
    else:
        console.print(
            f"Round {played.number}, started at {clock_text(played.started_at)}; now {clock_text(moment)}."
        )
    table = Table("table", "team", "seated", "late", "penalty")
    clocks = event.config.conduct.clocks
    for pairing in played.pairings:
        done = played.result(pairing.table) is not None
        verdicts = played.lateness(pairing.table, moment, clocks)
        for team, verdict in zip(pairing.teams, verdicts, strict=True):
            late = describe_late(verdict.late_s) if verdict.late_s > 0 else "on time"
            if before_start and not verdict.seated:
                late = "not started"
            penalty = "-" if verdict.penalty is None else verdict.penalty.label
            if verdict.penalty is not None and not verdict.final:
                penalty += " so far"
            seated = clock_text(played.arrival(team)) if verdict.seated else "not seated"
            table.add_row(
                str(pairing.table), escape(team), seated, late, penalty + (" (result in)" if done else "")
            )
    print_table(console, table)
    _new_penalties(before, event)


@app.command("penalty")
def penalty_command(
    event_file: EventFile,
    table: Annotated[int, typer.Option(min=1, help="The table.")],
    player: Annotated[str, typer.Option(help="The player, by id or name.")],
    penalty: Annotated[
        str, typer.Option(help="warning (警告), violation (违例), foul (犯规) or forfeit (判负).")
    ],
    reason: Annotated[str, typer.Option(help="What it is for.")],
    round_number: Annotated[
        int | None, typer.Option("--round", min=1, help="Default: the current round.")
    ] = None,
    yes: Annotated[
        bool, typer.Option("--yes", help="Do not ask to confirm a forfeit (or a penalty escalating to one).")
    ] = False,
    override: Annotated[str, typer.Option(help="For a forfeit past the correction window: why.")] = "",
    at: AtOption = None,
    by: ByOption = None,
) -> None:
    """Give a player a penalty by hand; two warnings make a violation, and so on; a forfeit (判负) ends the
    table's match and is asked to be confirmed."""
    console = open_console()
    event = load(console, event_file)
    chosen = PENALTIES.get(penalty.lower())
    if chosen is None:
        raise typer.BadParameter(f"{penalty!r}: one of {', '.join(PENALTIES)}", param_hint="--penalty")
    number = round_number or len(event.rounds)
    try:
        pairing = event.round(number).pairing(table)
    except KeyError as error:
        fail(console, str(error.args[0]), "give the penalty")
    seats = event.seat_players(pairing)
    found = [p for p in seats if player in (p.id, p.name)]
    if len(found) != 1:
        there = ", ".join(f"{p.id} ({p.display}, {SEAT_NAMES[i]})" for i, p in enumerate(seats))
        fail(
            console,
            f"no single player {player!r} at table {table}; the players there: {there}",
            "give the penalty",
        )
    offender = found[0]
    try:
        outcome = event.penalty_outcome(number, table, offender.id, chosen)
    except (KeyError, ValueError) as error:
        fail(console, str(error.args[0] if error.args else error), "give the penalty")
    if outcome is Penalty.FORFEIT and not yes:
        team = next(t for t in pairing.teams if offender in event.team(t).players)
        escalates = (
            "" if chosen is Penalty.FORFEIT else f"this {chosen.label} escalates to 判负 (two fouls): "
        )
        typer.confirm(
            f"判负: {escalates}{offender.display}'s team {team} loses table {table}'s match. Go on?",
            abort=True,
        )
    before = event
    try:
        event = event.penalise(
            number, table, offender.id, chosen, reason, at=when(at), by=who(by), override=override
        )
    except (KeyError, ValueError) as error:
        fail(console, str(error.args[0] if error.args else error), "give the penalty")
    save_event(event_file, event)
    _new_penalties(before, event)
    result = event.round(number).result(table)
    if result is not None and result is not before.round(number).result(table):
        console.print(
            f"Table {table}'s result is now the forfeit of {escape(pairing.teams[result.forfeited_by or 0])}."
        )


@app.command("withdraw")
def withdraw_command(
    event_file: EventFile,
    team: Annotated[str, typer.Argument(help="The team, by id.")],
    reason: Annotated[str, typer.Option(help="Why.")],
    disqualify: Annotated[
        bool, typer.Option(help="A disqualification (取消参赛资格), not a withdrawal.")
    ] = False,
    at: AtOption = None,
    by: ByOption = None,
) -> None:
    """Take a team out of the event: its table in the current round (without a result) is its forfeit;
    later rounds leave it out (Swiss) or forfeit its tables (round robin)."""
    console = open_console()
    event = load(console, event_file)
    before = event
    try:
        event = event.withdraw(team, reason, at=when(at), by=who(by), disqualify=disqualify)
    except (KeyError, ValueError) as error:
        fail(console, str(error.args[0] if error.args else error), "withdraw the team")
    save_event(event_file, event)
    if not any(t.id == team for t in event.teams):
        console.print(f"{escape(team)} is unregistered (the event had not started).")
        return
    out = event.withdrawal_of(team)
    console.print(f"{escape(team)}: {out.label} after round {out.last_round} ({escape(reason)}).")
    current = event.current_round
    if current is not None and team in current.draw.teams() and current.draw.bye != team:
        table = current.table_of(team).table
        kept = before.round(current.number).result(table)
        if kept is not None:
            console.print(
                f"Round {current.number}: table {table} keeps its result, entered before: "
                f"{result_text(event, current.pairing(table).teams, kept)}."
            )
        else:
            console.print(f"Round {current.number}: table {table} is its forfeit (弃权).")


@app.command("enter")
def enter_command(
    event_file: EventFile,
    team: Annotated[str, typer.Option(help="The team's id.")],
    name: Annotated[str, typer.Option(help="The team's name.")],
    player_1: Annotated[str, typer.Option(help="The first player's name.")],
    player_2: Annotated[str, typer.Option(help="The second player's name.")],
) -> None:
    """A late entry: a team joins a Swiss event before the next round is paired (no points so far)."""
    console = open_console()
    event = load(console, event_file)
    entrant = Team(team, (Player(f"{team}-1", player_1), Player(f"{team}-2", player_2)), name)
    try:
        event = event.enter_late(entrant)
    except ValueError as error:
        fail(console, str(error), "enter the team")
    save_event(event_file, event)
    console.print(
        f"{escape(entrant.display)} entered, lot {event.lot(team)}; it is paired from the next round."
    )


@app.command("appeal")
def appeal_command(
    event_file: EventFile,
    table: Annotated[int, typer.Option(min=1, help="The table.")],
    team: Annotated[str, typer.Option(help="The team appealing, by id.")],
    text: Annotated[str, typer.Option(help="What the appeal is against.")],
    round_number: Annotated[
        int | None, typer.Option("--round", min=1, help="Default: the current round.")
    ] = None,
    override: Annotated[str, typer.Option(help="Past the 30-minute window: why it is accepted.")] = "",
    at: AtOption = None,
    by: ByOption = None,
) -> None:
    """Record an appeal (申诉) against a table's ruling or result."""
    console = open_console()
    event = load(console, event_file)
    number = round_number or len(event.rounds)
    try:
        event = event.file_appeal(number, table, team, text, at=when(at), by=who(by), override=override)
    except (KeyError, ValueError) as error:
        fail(console, str(error.args[0] if error.args else error), "record the appeal")
    save_event(event_file, event)
    console.print(
        f"Appeal {event.appeals[-1].number} recorded: round {number}, table {table}, {escape(team)}."
    )


@app.command("ruling")
def ruling_command(
    event_file: EventFile,
    number: Annotated[int, typer.Argument(help="The appeal's number.")],
    ruling: Annotated[str, typer.Option(help="What was decided.")],
    upheld: Annotated[bool, typer.Option("--upheld/--dismissed", help="Whether the appeal was upheld.")],
    at: AtOption = None,
    by: ByOption = None,
) -> None:
    """Record the ruling on an appeal and who made it (final)."""
    console = open_console()
    event = load(console, event_file)
    try:
        event = event.rule_appeal(number, ruling, upheld, by=who(by), at=when(at))
    except (KeyError, ValueError) as error:
        fail(console, str(error.args[0] if error.args else error), "record the ruling")
    save_event(event_file, event)
    verdict = "upheld" if upheld else "dismissed"
    console.print(f"Appeal {number} {verdict} by {escape(who(by))}: {escape(ruling)}")


@app.command("log")
def log_command(
    event_file: EventFile,
    round_number: Annotated[int | None, typer.Option("--round", min=1, help="Default: every round.")] = None,
) -> None:
    """The director's record: every result entry and correction (what, when, who, why), the penalties,
    the withdrawals and the appeals."""
    console = open_console()
    event = load(console, event_file)
    changes = Table("round", "table", "result", "was", "time", "by", "reason", title="Results entered (成绩)")
    for played in event.rounds:
        if round_number not in (None, played.number):
            continue
        for change in played.changes:
            teams = played.pairing(change.table).teams
            was = "-" if change.previous is None else result_text(event, teams, change.previous)
            changes.add_row(
                str(played.number),
                str(change.table),
                result_text(event, teams, change.result),
                was,
                clock_text(change.at),
                escape(change.by or "the rules"),
                escape(change.reason),
            )
    print_table(console, changes)
    print_penalties(console, event, round_number)
    for out in event.withdrawals:
        console.print(
            f"{escape(out.team)}: {out.label} after round {out.last_round}, {clock_text(out.at)}, "
            f"by {escape(out.by)}: {escape(out.reason)}"
        )
    for appeal in event.appeals:
        ruled = (
            "pending"
            if not appeal.decided
            else (f"{'upheld' if appeal.upheld else 'dismissed'} by {appeal.ruled_by}: {appeal.ruling}")
        )
        console.print(
            f"Appeal {appeal.number}: round {appeal.round}, table {appeal.table}, {escape(appeal.team)} "
            f"({clock_text(appeal.filed_at)}): {escape(appeal.text)} — {escape(ruled)}"
        )


__all__ = ["PENALTIES"]
