"""``cardroom ladder``: the bot ladder of a running card room, read over its HTTP API (docs/ladder.md, "On
the command line"): ``list`` the standings, ``watch`` the matches start and end, ``export`` a bot's
records (they replay with ``cardroom replay``)."""

from __future__ import annotations

import os
import signal
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from types import FrameType
from typing import Annotated, Any, NoReturn
from urllib.parse import quote, urlsplit

import httpx
import typer
from rich.console import Console
from rich.markup import escape
from rich.table import Table

from cardroom.cli.options import open_console, plural, print_table

DEFAULT_ROOM = "http://127.0.0.1:8000"

app = typer.Typer(help="The bot ladder of a running card room: list it, watch its matches, export records.")

RoomOption = Annotated[
    str,
    typer.Option(
        "--room", envvar="CARDROOM_URL", help="The card room's address (default: $CARDROOM_URL, else this)."
    ),
]


class LadderCliError(Exception):
    """What went wrong talking to the card room, in words for the command's user."""


def room_url(text: str) -> str:
    """A card room's address, ``http://`` or ``https://`` with a host, without a trailing ``/``."""
    parts = urlsplit(text.strip())
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise LadderCliError(f"--room: an http:// or https:// address with a host, got {text!r}")
    if parts.query or parts.fragment:
        raise LadderCliError(f"--room: an address without ? or #, got {text!r}")
    return text.strip().rstrip("/")


class RoomClient:
    """The card room's ladder routes, each answer read as JSON or told as a :class:`LadderCliError`."""

    def __init__(self, url: str, client: httpx.Client) -> None:
        self.url = url
        self.client = client

    def get(self, path: str) -> httpx.Response:
        try:
            return self.client.get(self.url + path)
        except httpx.HTTPError as error:
            raise LadderCliError(f"the card room at {self.url} does not answer ({error})") from None

    def json(self, path: str, missing: str | None = None) -> Any:
        """``GET path``'s JSON; a 404 is ``missing`` (what was not found), else the room's own words."""
        answer = self.get(path)
        if answer.status_code == 404 and missing is not None:
            raise LadderCliError(f"{missing} at {self.url}")
        if answer.status_code != 200:
            raise LadderCliError(
                f"the card room at {self.url} refused {path}: {answer.status_code} {words(answer)}"
            )
        try:
            return answer.json()
        except ValueError:
            raise LadderCliError(
                f"{self.url} answered {path} with something other than JSON: is it a card room?"
            ) from None

    def standings(self) -> list[dict[str, Any]]:
        entrants: list[dict[str, Any]] = self.json("/api/ladder", "no ladder runs")["entrants"]
        return entrants

    def live(self) -> list[dict[str, Any]]:
        matches: list[dict[str, Any]] = self.json("/api/ladder/live", "no ladder runs")["matches"]
        return matches

    def bot_of(self, given: str) -> str:
        """The bot ``given`` stands for: a key (``bot:…``) as it is, else the bot whose entrant has that
        name on the ladder (as ``ladder list`` shows it), else ``given`` (a house bot's name)."""
        if given.startswith("bot:"):
            return given
        named = {row["bot"] for row in self.standings() if str(row["name"]).casefold() == given.casefold()}
        return named.pop() if len(named) == 1 else given

    def matches_of(self, bot: str) -> list[dict[str, Any]]:
        missing = (
            f"no ladder entrant {bot!r}: give the bot's key (e.g. bot:9f856696dfef: `cardroom ladder list` "
            "shows it, as does the bot's page address and its owner's account page), its name on the "
            "ladder, or a house bot's name"
        )
        matches: list[dict[str, Any]] = self.json(f"/api/ladder/{quote(bot, safe=':')}", missing)["matches"]
        return matches


def words(answer: httpx.Response) -> str:
    """The room's words of a refusal (its JSON ``detail``), else its status's reason."""
    try:
        detail = answer.json().get("detail")
    except (ValueError, AttributeError):
        detail = None
    return str(detail) if detail else answer.reason_phrase


@contextmanager
def opened(room: str) -> Iterator[RoomClient]:
    with httpx.Client(timeout=15.0, follow_redirects=False) as client:
        yield RoomClient(room_url(room), client)


def fail(console: Console, error: LadderCliError) -> NoReturn:
    console.print(f"[bold red]Error:[/] {escape(str(error))}")
    raise typer.Exit(1)


# -- what is printed -----------------------------------------------------------------------------------


def seen(when: str | None) -> str:
    """An ISO time as ``YYYY-MM-DD HH:MM`` (UTC, as the room stores it)."""
    return "—" if not when else when[:16].replace("T", " ")


def standings_table(entrants: list[dict[str, Any]]) -> Table:
    table = Table(title="The bot ladder")
    for name, justify in (
        ("#", "right"),
        ("Bot", "left"),
        ("Generation", "left"),
        ("Rating", "right"),
        ("Range (μ ± 3σ)", "right"),
        ("Matches", "right"),
        ("W-D-L", "right"),
        ("Faults", "right"),
        ("Last seen", "left"),
    ):
        table.add_column(name, justify=justify)  # type: ignore[arg-type]
    for row in entrants:
        table.add_row(
            str(row["rank"]),
            f"{escape(row['name'])} [dim]{escape(row['key'])}[/]",
            "house bot" if row["house"] else str(row["generation"]),
            f"{row['mu']:.1f}",
            f"{row['low']:.1f} – {row['high']:.1f}",
            str(row["matches"]),
            f"{row['wins']}-{row['draws']}-{row['losses']}",
            str(row["faults"]),
            "always ready" if row["house"] else seen(row["last_seen"]),
        )
    return table


def team(match: dict[str, Any], side: str) -> str:
    names = match.get("names", {})
    return " + ".join(escape(names.get(key, key)) for key in match[side])


def match_line(match: dict[str, Any]) -> str:
    return f"[bold]{match['id']}[/] {team(match, 'team_a')} [dim]against[/] {team(match, 'team_b')}"


def table_line(room: str, table: dict[str, Any]) -> str:
    """A running match's table: its deal pair and side, where to watch it, and how far it is; levels and
    rises both by ladder team (team A first), whichever seats team A holds there."""
    label = f"{table['pair'] + 1}{'b' if table['swapped'] else 'a'}"
    now: list[str] = [table["phase"] or table["status"] or "?"]
    if table.get("levels"):
        levels = list(reversed(table["levels"])) if table["swapped"] else list(table["levels"])
        now.append(f"levels A:B {levels[0]}:{levels[1]}")
    cards = [seat["cards"] for seat in table["seats"]]
    if all(count is not None for count in cards) and table["status"] == "running":
        now.append("cards " + " ".join(str(count) for count in cards))
    faults = [seat["faults"] for seat in table["seats"]]
    if any(faults):
        now.append("faults " + " ".join(str(count) for count in faults))
    if table.get("rises") is not None:
        now.append(f"rose A:B {table['rises'][0]}:{table['rises'][1]}")
    return f"  {label} {room}{table['url']}  {' · '.join(now)}"


def result_line(match: dict[str, Any], ended: dict[str, Any] | None) -> str:
    """A match that ended: who won and by how many levels (the margin, team A's levels risen minus team
    B's, said from the winner's side)."""
    head = f"[bold]{match['id']}[/] ended"
    if ended is None:
        return f"{head} (its result is not listed)"
    if ended["status"] == "void":
        return f"{head}: void (not rated)"
    margin, winner = ended.get("margin"), ended.get("winner")
    if winner is None:
        return f"{head}: a draw, margin {margin}"
    side = "team_a" if winner == 0 else "team_b"
    return f"{head}: {team(match, side)} won by {plural(abs(int(margin or 0)), 'level')}"


def changes(
    before: dict[str, dict[str, Any]], now: list[dict[str, Any]]
) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """The matches started (listed now, not before) and ended (listed before, not now)."""
    ids = {match["id"] for match in now}
    return [match for match in now if match["id"] not in before], [
        match for key, match in before.items() if key not in ids
    ]


def result_of(client: RoomClient, match: dict[str, Any]) -> dict[str, Any] | None:
    """The ended match as its bot's list says it (a bot account's, or a house bot's)."""
    keys = [*match["team_a"], *match["team_b"]]
    bot = next((key for key in keys if key.startswith("bot:")), keys[0]).rpartition("#")[0]
    return next((row for row in client.matches_of(bot) if row["id"] == match["id"]), None)


def record_name(match: dict[str, Any], pair: int, swapped: bool, table: str) -> str:
    return f"ladder-{match['id']}-{pair + 1}{'b' if swapped else 'a'}-{table}.json"


# -- the commands ----------------------------------------------------------------------------------------


@app.command("list")
def list_command(room: RoomOption = DEFAULT_ROOM) -> None:
    """Print the ladder: each entrant's rank, name, generation (or house bot), rating and range, matches,
    wins-draws-losses, faults and when last seen, best first."""
    console = open_console()
    try:
        with opened(room) as client:
            entrants = client.standings()
    except LadderCliError as error:
        fail(console, error)
    if not entrants:
        console.print("No bot on the ladder yet.")
        return
    print_table(console, standings_table(entrants))


@contextmanager
def interrupted() -> Iterator[threading.Event]:
    """An event set by the first Ctrl-C (SIGINT), so that a loop stops between two requests rather than
    inside one; a second Ctrl-C interrupts as usual."""
    stop = threading.Event()
    previous = signal.getsignal(signal.SIGINT)

    def first(_signal: int, _frame: FrameType | None) -> None:
        stop.set()
        signal.signal(signal.SIGINT, previous)

    signal.signal(signal.SIGINT, first)
    try:
        yield stop
    finally:
        signal.signal(signal.SIGINT, previous)


@app.command("watch")
def watch_command(
    room: RoomOption = DEFAULT_ROOM,
    interval: Annotated[float, typer.Option(min=0.2, max=3600, help="Seconds between two looks.")] = 5.0,
    once: Annotated[bool, typer.Option("--once", help="Print the matches running now and exit.")] = False,
) -> None:
    """Print the live ladder matches, each table with where to watch it, then each match as it starts
    and as it ends, with its result, until Ctrl-C."""
    console = open_console()
    try:
        with opened(room) as client:
            running = client.live()
            console.print(f"{plural(len(running), 'ladder match')} running at {escape(client.url)}.")
            for match in running:
                print_match(console, client.url, match)
            if once:
                return
            before = {match["id"]: match for match in running}
            with interrupted() as stop:
                while not stop.wait(interval):
                    now = client.live()
                    started, ended = changes(before, now)
                    for match in ended:
                        console.print(result_line(match, result_of(client, match)))
                    for match in started:
                        console.print("Started:", end=" ")
                        print_match(console, client.url, match)
                    before = {match["id"]: match for match in now}
    except LadderCliError as error:
        fail(console, error)
    except KeyboardInterrupt:  # a second Ctrl-C, or one before the loop
        pass
    console.print("Stopped watching.")


def print_match(console: Console, room: str, match: dict[str, Any]) -> None:
    console.print(match_line(match))
    for table in match["watch"]:
        console.print(table_line(room, table), highlight=False)


@app.command("export")
def export_command(
    bot: Annotated[
        str,
        typer.Argument(
            help="The bot: its key (bot:9f856696dfef, shown by `cardroom ladder list`), one generation's "
            "(bot:9f856696dfef#2), its name on the ladder, or a house bot's name."
        ),
    ],
    out: Annotated[Path, typer.Option(help="The folder to write the records into (made if need be).")],
    room: RoomOption = DEFAULT_ROOM,
) -> None:
    """Download the records of the bot's rated ladder matches, one file per table (docs/records.md);
    files already in the folder are kept, not fetched again. They replay with cardroom replay."""
    console = open_console()
    given, _, generation = bot.partition("#")
    try:
        with opened(room) as client:
            bot_id = client.bot_of(given)
            bot = f"{bot_id}#{generation}" if generation else bot_id
            matches = [
                match
                for match in client.matches_of(bot_id)
                if match["status"] == "rated"
                and (not generation or any(key == bot for key in (*match["team_a"], *match["team_b"])))
            ]
            if not matches and generation:
                raise LadderCliError(f"no rated ladder match of {bot!r} at {client.url}")
            written, kept = download(client, matches, out)
    except LadderCliError as error:
        fail(console, error)
    except OSError as error:
        fail(console, LadderCliError(f"--out {out}: {error.strerror or error}"))
    console.print(
        f"Wrote {plural(written, 'record')} of {escape(bot)}'s {plural(len(matches), 'rated match')} "
        f"to {escape(str(out))}" + (f" ({kept} already there)." if kept else ".")
    )


def download(client: RoomClient, matches: list[dict[str, Any]], out: Path) -> tuple[int, int]:
    """Each match's tables' records into ``out`` (written whole or not at all): how many were written,
    how many were there already."""
    out.mkdir(parents=True, exist_ok=True)
    written = kept = 0
    for match in matches:
        for pair, tables in enumerate(match["tables"]):
            for table, swapped in zip(tables, (False, True), strict=False):
                path = out / record_name(match, pair, swapped, table)
                if path.exists():
                    kept += 1
                    continue
                answer = client.get(f"/api/tables/{table}/record")
                if answer.status_code != 200:
                    raise LadderCliError(f"the record of table {table}: {answer.status_code} {words(answer)}")
                part = path.with_suffix(".part")
                part.write_bytes(answer.content)
                os.replace(part, path)
                written += 1
    return written, kept


__all__ = ["LadderCliError", "app", "changes", "room_url"]
