"""Commands on match records: ``replay`` (the referee) and ``play-random``."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated

import typer
from rich.markup import escape

from cardroom.cli.options import guandan_rules, open_console, plural
from cardroom.records import FORMAT as GUANDAN_FORMAT
from cardroom.records import RecordError, play_random, read_record, write_record
from cardroom.records import replay as replay_record
from cardroom.records.render import print_replay_report, print_shengji_replay_report
from cardroom.records.shengji import SHENGJI_FORMAT, play_random_shengji, replay_shengji, write_shengji_record
from cardroom.shengji import preset as shengji_preset


def replay_command(
    file: Annotated[Path, typer.Argument(help="A match record (JSON, docs/records.md): Guandan or Shengji.")],
) -> None:
    """Replay a match record (Guandan or Shengji, by its format): each deal's result and the match
    result, or the first illegal action.

    Exit code 0 for a legal record, 1 for an illegal action or a result that does not match, 2 for a
    record that cannot be read.
    """
    console = open_console()
    try:
        raw = read_record(file)
        if _record_format(raw) == SHENGJI_FORMAT:
            shengji_report = replay_shengji(raw)
            print_shengji_replay_report(shengji_report, console)
            ok = shengji_report.ok
        else:
            report = replay_record(raw)
            print_replay_report(report, console)
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
    record = play_random(seed, max_deals=deals, rules=guandan_rules(rules or "competition"))
    write_record(out, record)
    result = record["result"]
    actions = sum(len(deal["actions"]) for deal in record["deals"])
    levels = " : ".join(result["levels"])
    points = " : ".join(str(value) for value in result["points"])
    winner = "a draw" if result["winner"] is None else f"team {result['winner']} wins"
    open_console().print(
        f"Wrote {escape(str(out))}: {plural(len(record['deals']), 'deal')}, {plural(actions, 'action')}; "
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
    open_console().print(
        f"Wrote {escape(str(out))}: Shengji, {plural(len(record['deals']), 'deal')}, "
        f"{plural(actions, 'action')}; {state}, levels {levels}."
    )
