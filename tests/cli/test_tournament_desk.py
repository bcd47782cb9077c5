"""``cardroom tournament`` at the director's desk (docs/tournaments.md, "The director's day"): a round
published then started, teams seated late and judged by docs/rules/competition.md#late, penalties by
hand on the standings, results corrected inside the window and past it by override, a withdrawal, an
appeal, and the errors a first try met. Every time is given with ``--at``: no test waits."""

from __future__ import annotations

from datetime import datetime
from pathlib import Path

import pytest
from rich.console import Console
from rich.table import Table
from typer.testing import CliRunner

from cardroom.cli import app
from cardroom.cli import tournament as terminal
from cardroom.cli.options import print_table
from cardroom.cli.tournament import load_event
from cardroom.tournament import Penalty, ResultKind

runner = CliRunner()
ROSTER = """team,name,player_1,player_2,bot_1,bot_2
T1,Tigers of the Grand Canal Card Society,Ann,Bo,,
T2,Lions,Cai,Du,,
T3,Cranes,Fan,Gu,,
T4,Pandas,He,Jin,,
"""
FIRST_PLAYER = {line.split(",")[0]: line.split(",")[2] for line in ROSTER.splitlines()[1:]}
DAY = "2026-05-01T"
ZONE = "+08:00"


def at(clock: str) -> str:
    return f"{DAY}{clock}{ZONE}"


def run(*args: str, columns: str = "200") -> tuple[int, str]:
    result = runner.invoke(app, ["tournament", *args], env={"COLUMNS": columns})
    return result.exit_code, result.output


def swiss_event(tmp_path: Path, rounds: int = 2) -> tuple[Path, list[tuple[str, str]]]:
    roster = tmp_path / "roster.csv"
    roster.write_text(ROSTER, encoding="utf-8")
    event_file = tmp_path / "event.json"
    code, output = run(
        "create", str(event_file), "--roster", str(roster), "--rounds", str(rounds), "--system", "swiss"
    )
    assert code == 0, output
    code, output = run("pair", str(event_file))
    assert code == 0, output
    assert "start-round" in output, "pairing publishes; the director is told how to start the round"
    event = load_event(event_file)
    return event_file, [pairing.teams for pairing in event.round(1).pairings]


def test_rule_late_at_the_command_line(tmp_path: Path) -> None:
    """late: seated 5:00 late a warning, 5:01 a foul; missing at 10:00 not yet judged, at 10:01 a
    forfeit (弃权) that makes the table's result."""
    event_file, ((a1, b1), (a2, b2)) = swiss_event(tmp_path)
    code, output = run("arrivals", str(event_file), "--at", at("14:00:00"))
    assert code == 1
    assert "published but not started" in output
    code, output = run("start-round", str(event_file), "--at", at("14:00:00"))
    assert code == 0, output
    assert "Not seated yet" in output
    code, output = run("arrive", str(event_file), a1, a2, "--at", at("14:00:00"))
    assert code == 0, output
    assert "警告" not in output, "seated at the start is on time"
    code, output = run("arrive", str(event_file), b1, "--at", at("14:05:00"), "--by", "Wang")
    assert code == 0, output
    assert "警告 (迟到5分00秒)" in output
    code, output = run("arrivals", str(event_file), "--at", at("14:10:00"))
    assert code == 0, output
    assert "not seated" in output
    assert "犯规 so far" in output
    assert load_event(event_file).round(1).result(2) is None, "10:00 is not yet a forfeit"
    code, output = run("arrivals", str(event_file), "--at", at("14:10:01"))
    assert code == 0, output
    assert "判负 (迟到10分01秒仍未入座)" in output or "判负" in output
    event = load_event(event_file)
    result = event.round(1).result(2)
    assert result is not None
    assert result.kind is ResultKind.FORFEIT
    assert result.forfeited_by == 1
    penalties = {(entry.team, entry.penalty) for entry in event.round(1).penalties}
    assert penalties == {(b1, Penalty.WARNING), (b2, Penalty.FORFEIT)}


def test_rule_late_foul_at_five_minutes_one_second(tmp_path: Path) -> None:
    """late: "迟到10分钟以内，判犯规" from 5:01; foul: the first deal of the table ends as the late side's
    双下 (the other side up 3, no tribute next deal), which the director is told and the table's score
    sheet has filled in."""
    event_file, ((a1, b1), _) = swiss_event(tmp_path)
    assert run("start-round", str(event_file), "--at", at("14:00:00"))[0] == 0
    assert run("arrive", str(event_file), a1, "--at", at("14:00:00"))[0] == 0
    code, output = run("arrive", str(event_file), b1, "--at", at("14:05:01"))
    assert code == 0, output
    assert "犯规 (迟到5分01秒)" in output
    flat = " ".join(output.split())
    assert "The first deal of table 1 ends as this foul (犯规): a 双下 of" in flat
    assert "rises 3 levels, and the next deal has no tribute" in flat
    sheets = tmp_path / "sheets.html"
    code, output = run("print", str(event_file), "sheets", "--table", "1", "--out", str(sheets))
    assert code == 0, output
    assert '犯规 <span class="en">foul</span> (东西 <span class="en">E/W</span> 迟到' in sheets.read_text()


def test_corrections_penalties_withdrawal_and_appeal(tmp_path: Path) -> None:
    """Corrections inside the 10-minute window and past it by override; a penalty by hand on the
    standings; a withdrawal forfeits the team's next table; an appeal with its ruling."""
    event_file, ((a1, b1), (_a2, b2)) = swiss_event(tmp_path)
    assert run("start-round", str(event_file), "--at", at("14:00:00"))[0] == 0
    player = FIRST_PLAYER[a1]
    code, output = run(
        "penalty",
        str(event_file),
        "--table",
        "1",
        "--player",
        player,
        "--penalty",
        "warning",
        "--reason",
        "slow play",
        "--at",
        at("14:20:00"),
        "--by",
        "Wang",
    )
    assert code == 0, output
    assert f"{player} 警告 (slow play)" in output
    code, output = run(
        "penalty",
        str(event_file),
        "--table",
        "1",
        "--player",
        "Nobody",
        "--penalty",
        "warning",
        "--reason",
        "x",
    )
    assert code == 1
    assert "the players there" in output
    code, output = run(
        "penalty",
        str(event_file),
        "--table",
        "1",
        "--player",
        player,
        "--penalty",
        "forfeit",
        "--reason",
        "x",
    )
    assert code == 1, "a forfeit is confirmed first; no answer is no"
    assert "Aborted" in output
    for table in (1, 2):
        code, output = run(
            "result",
            str(event_file),
            "--table",
            str(table),
            "--levels",
            "10:6",
            "--deals",
            "8",
            "--at",
            at("15:00:00"),
            "--by",
            "Li",
        )
        assert code == 0, output
    assert "Corrections to round 1 are open until" in output
    assert load_event(event_file).correction_deadline(1) == datetime.fromisoformat(at("15:10:00"))
    code, output = run(
        "result",
        str(event_file),
        "--table",
        "2",
        "--levels",
        "10:7",
        "--deals",
        "8",
        "--correct",
        "--at",
        at("15:05:00"),
    )
    assert code == 1
    assert "needs its reason" in output
    code, output = run(
        "result",
        str(event_file),
        "--table",
        "2",
        "--levels",
        "10:7",
        "--deals",
        "8",
        "--correct",
        "--reason",
        "7 not 6",
        "--at",
        at("15:10:00"),
    )
    assert code == 0, output
    code, output = run(
        "result",
        str(event_file),
        "--table",
        "2",
        "--levels",
        "9:7",
        "--deals",
        "8",
        "--correct",
        "--reason",
        "9 not 10",
        "--at",
        at("15:10:01"),
    )
    assert code == 1
    assert "correction window of round 1 closed" in output
    code, output = run(
        "result",
        str(event_file),
        "--table",
        "2",
        "--levels",
        "9:7",
        "--deals",
        "8",
        "--correct",
        "--reason",
        "9 not 10",
        "--override",
        "both captains agree",
        "--at",
        at("15:30:00"),
        "--by",
        "Zhang",
    )
    assert code == 0, output
    assert "levels 9 : 7" in output
    code, output = run("standings", str(event_file))
    assert code == 0, output
    assert "Penalties (判罚)" in output
    assert f"{player} 警告 (slow play)" in output
    code, output = run(
        "appeal",
        str(event_file),
        "--table",
        "2",
        "--team",
        b2,
        "--text",
        "the levels",
        "--at",
        at("15:29:00"),
    )
    assert code == 0, output
    code, output = run(
        "ruling", str(event_file), "1", "--ruling", "维持", "--dismissed", "--by", "仲裁委员会"
    )
    assert code == 0, output
    code, output = run("withdraw", str(event_file), b1, "--reason", "illness", "--at", at("15:40:00"))
    assert code == 0, output
    assert "退赛 after round 1" in output
    assert "table 1 keeps its result, entered before" in output, "its result, entered, is kept"
    assert "is its forfeit" not in output
    code, output = run("pair", str(event_file))
    assert code == 0, output
    event = load_event(event_file)
    assert b1 not in event.round(2).draw.teams(), "Swiss: the pairing leaves a withdrawn team out"
    code, output = run("log", str(event_file))
    assert code == 0, output
    assert "(override: both captains agree)" in output
    assert "Appeal 1" in output
    assert "dismissed by 仲裁委员会" in output


# -- the errors a first try met -----------------------------------------------------------------------


def test_a_forfeit_by_a_team_not_at_the_table_says_who_is_there(tmp_path: Path) -> None:
    event_file, ((a1, b1), (a2, _)) = swiss_event(tmp_path)
    code, output = run("result", str(event_file), "--table", "1", "--forfeit", a2)
    assert code == 1
    assert "tuple.index" not in output
    assert (
        f"team {a2} is not at table 1 in round 1: the teams there are {a1} (seats 0 & 2) and {b1}" in output
    )


def test_levels_without_deals_are_refused(tmp_path: Path) -> None:
    event_file, _ = swiss_event(tmp_path)
    code, output = run("result", str(event_file), "--table", "1", "--levels", "10:6")
    assert code == 2
    assert "--deals" in output
    assert load_event(event_file).round(1).result(1) is None, "nothing recorded"


def test_standings_are_not_cut_at_80_columns(tmp_path: Path) -> None:
    event_file, _ = swiss_event(tmp_path, rounds=1)
    for table in (1, 2):
        assert (
            run("result", str(event_file), "--table", str(table), "--levels", "10:6", "--deals", "8")[0] == 0
        )
    code, output = run("standings", str(event_file), columns="80")
    assert code == 0, output
    assert "…" not in output
    assert "Tigers of the Grand Canal Card Society" in output
    assert "去首累进分" in output
    assert "(level_difference)" in output or "(levels_gained)" in output or "(lots)" in output


def test_a_table_at_a_narrow_terminal_wraps_without_cutting() -> None:
    console = Console(force_terminal=True, width=50, record=True)
    table = Table("team", "去首累进分", "decided by")
    table.add_row("Tigers of the Grand Canal Card Society", "12", "级差分 (level_difference)")
    print_table(console, table)
    text = console.export_text()
    assert "…" not in text
    assert "level_differen" in text


def test_pairing_after_the_last_round_says_the_event_is_finished(tmp_path: Path) -> None:
    event_file, _ = swiss_event(tmp_path, rounds=1)
    for table in (1, 2):
        assert (
            run("result", str(event_file), "--table", str(table), "--levels", "10:6", "--deals", "8")[0] == 0
        )
    code, output = run("pair", str(event_file))
    assert code == 1
    assert "is in finished" not in output
    assert "Cannot pair: the event is finished: its last round (round 1) is complete" in output


def test_accounts_role_without_data_names_the_folder_and_creates_nothing(tmp_path: Path) -> None:
    folder = tmp_path / "nowhere"
    result = runner.invoke(
        app,
        ["accounts", "role", "alice", "director"],
        env={"CARDROOM_DATA": str(folder), "DATABASE_URL": "", "COLUMNS": "200"},
    )
    assert result.exit_code == 1
    assert f"no card room database in the data folder {folder.resolve()}" in result.output
    assert "--data" in result.output
    assert not folder.exists(), "no database is created where none was"


def test_rule_penalties_a_foul_escalating_to_forfeit_is_confirmed(tmp_path: Path) -> None:
    """penalties (docs/rules/competition.md#penalties): a side's second 犯规 is a 判负, so the terminal asks
    to confirm it as it asks for a 判负 (no answer is no); ``--yes`` gives it."""
    event_file, ((a1, _b1), _second) = swiss_event(tmp_path)
    assert run("start-round", str(event_file), "--at", at("14:00:00"))[0] == 0
    player = FIRST_PLAYER[a1]
    foul = ("penalty", str(event_file), "--table", "1", "--player", player, "--penalty", "foul")
    assert run(*foul, "--reason", "信号", "--at", at("14:10:00"))[0] == 0
    code, output = run(*foul, "--reason", "骂人", "--at", at("14:20:00"))
    assert code == 1
    assert "this 犯规 escalates to 判负" in output
    assert "Aborted" in output
    assert load_event(event_file).round(1).result(1) is None
    code, output = run(*foul, "--reason", "骂人", "--at", at("14:20:00"), "--yes")
    assert code == 0, output
    assert "is now the forfeit of" in output


def test_rule_penalties_a_late_warning_counts_with_a_warning_by_hand(tmp_path: Path) -> None:
    """penalties, late (docs/rules/competition.md#penalties, #late): at the terminal too, the side's
    late warning and a warning by hand make a violation (违例, marked 累计)."""
    event_file, ((a1, b1), (a2, b2)) = swiss_event(tmp_path)
    assert run("start-round", str(event_file), "--at", at("14:00:00"))[0] == 0
    assert run("arrive", str(event_file), a1, a2, b2, "--at", at("14:00:00"))[0] == 0
    code, output = run("arrive", str(event_file), b1, "--at", at("14:03:00"))
    assert code == 0, output
    assert "警告" in output
    player = FIRST_PLAYER[b1]
    code, output = run(
        "penalty", str(event_file), "--table", "1", "--player", player, "--penalty", "warning",
        "--reason", "slow play", "--at", at("14:20:00"),
    )  # fmt: skip
    assert code == 0, output
    assert "违例" in output
    penalties = [(e.penalty, e.escalated) for e in load_event(event_file).round(1).penalties if e.team == b1]
    assert penalties == [(Penalty.WARNING, False), (Penalty.WARNING, False), (Penalty.VIOLATION, True)]


def test_a_withdrawal_before_its_table_has_a_result_forfeits_it(tmp_path: Path) -> None:
    event_file, ((a1, _b1), _second) = swiss_event(tmp_path)
    assert run("start-round", str(event_file), "--at", at("14:00:00"))[0] == 0
    code, output = run("withdraw", str(event_file), a1, "--reason", "illness", "--at", at("14:30:00"))
    assert code == 0, output
    assert "Round 1: table 1 is its forfeit (弃权)." in output
    result = load_event(event_file).round(1).result(1)
    assert result is not None
    assert result.forfeited_by == 0


def test_rule_late_times_agree_with_a_start_in_the_future(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """late (docs/rules/competition.md#late): lateness counts from the round's start. Before a start
    declared for later, `arrivals` says nobody is late yet (missing teams: "not started") and shows who is
    seated; a team seated before the start is on time; an arrival later than now is refused."""
    monkeypatch.setattr(terminal, "clock", lambda: datetime.fromisoformat(at("13:50:00")))
    event_file, ((a1, b1), (a2, b2)) = swiss_event(tmp_path)
    assert run("start-round", str(event_file), "--at", at("14:00:00"))[0] == 0
    code, output = run("arrive", str(event_file), b2, "--at", at("14:05:01"))
    assert code == 1
    assert "later than now" in output
    assert load_event(event_file).round(1).arrivals == ()
    code, output = run("arrive", str(event_file), a1)
    assert code == 0, output
    code, output = run("arrivals", str(event_file))
    assert code == 0, output
    assert "Round 1 starts at" in output
    assert "later than now" in output
    assert "nobody is late before the start" in output
    rows = [line for line in output.splitlines() if any(team in line for team in (a1, b1, a2, b2))]
    assert len(rows) == 4
    assert all("not started" in row for row in rows if a1 not in row)
    assert "not seated" not in next(row for row in rows if a1 in row)
    assert load_event(event_file).round(1).penalties == ()
