"""``cardroom tournament``: a whole event directed from the command line (a roster, lots, rounds of
bot tables played here and a table of people entered by hand, standings and CSV), resumed from its file
at every step, and the errors a director meets."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from cardroom.cli import app
from cardroom.cli.tournament import load_event
from cardroom.tournament import EventPhase

runner = CliRunner()
ENV = {"COLUMNS": "200"}
ROSTER = """team,name,player_1,player_2,bot_1,bot_2
T1,Tigers,Ann,Bo,,
T2,Randoms,r1,r2,random,random
T3,Heuristics,h1,h2,heuristic,heuristic
T4,More randoms,s1,s2,random,random
"""


def run(*args: str) -> tuple[int, str]:
    result = runner.invoke(app, ["tournament", *args], env=ENV)
    return result.exit_code, result.output


def test_a_round_robin_directed_from_the_command_line(tmp_path: Path) -> None:
    roster = tmp_path / "roster.csv"
    roster.write_text(ROSTER, encoding="utf-8")
    event_file = tmp_path / "event.json"
    code, output = run(
        "create", str(event_file), "--roster", str(roster), "--name", "Club night", "--deals", "1"
    )
    assert code == 0, output
    assert "4 teams, 3 rounds (round_robin)" in output
    assert "Ann & Bo" in output
    assert run("create", str(event_file), "--roster", str(roster))[0] == 1, (
        "an event file is never overwritten"
    )
    for number in (1, 2, 3):
        code, output = run("pair", str(event_file))
        assert code == 0, output
        assert f"Round {number} of 3" in output
        code, output = run("play", str(event_file), "--records", str(tmp_path / "records"))
        assert code == 0, output
        assert "Played 1 table of bots." in output
        event = load_event(event_file)
        (waiting,) = [
            p
            for p, r in zip(event.round(number).pairings, event.round(number).results, strict=True)
            if r is None
        ]
        assert "T1" in waiting.teams, "the people's table waits for its result"
        code, output = run("pair", str(event_file))
        assert code == 1, "a round with a table still open cannot be followed"
        assert f"round {number} still has tables without a result" in output
        levels = "A+:Q" if waiting.teams[0] == "T1" else "Q:A+"
        code, output = run(
            "result", str(event_file), "--table", str(waiting.table), "--levels", levels, "--deals", "9"
        )
        assert code == 0, output
        assert "Tigers wins, levels 过A : Q" in output or "Tigers wins, levels Q : 过A" in output
    event = load_event(event_file)
    assert event.phase is EventPhase.FINISHED
    code, output = run(
        "standings",
        str(event_file),
        "--csv",
        str(tmp_path / "s.csv"),
        "--results-csv",
        str(tmp_path / "r.csv"),
    )
    assert code == 0, output
    assert "Club night: 3 of 3 rounds complete, finished; 级差分 in the 26-point table." in output
    assert "Tigers" in output.splitlines()[4], "the team of people won every match: it leads"
    rows = [line for line in output.splitlines() if line.startswith("│")]
    decided = [line.split("│")[-2].strip() for line in rows]
    assert decided[0] == "", "the first row has no team above it"
    assert all(text.endswith(")") and " (" in text for text in decided[1:]), (
        "each other row names its tie-break"
    )
    standings = (tmp_path / "s.csv").read_text(encoding="utf-8-sig").splitlines()
    assert standings[0].startswith("rank,team,name,points")
    assert standings[1].split(",")[1] == "T1"
    assert len((tmp_path / "r.csv").read_text(encoding="utf-8-sig").splitlines()) == 1 + 6
    assert len(list((tmp_path / "records").glob("*.json"))) == 3


def test_a_forfeit_and_the_errors_a_director_meets(tmp_path: Path) -> None:
    roster = tmp_path / "roster.csv"
    roster.write_text(ROSTER, encoding="utf-8")
    event_file = tmp_path / "event.json"
    assert run("create", str(event_file), "--roster", str(roster), "--deals", "1")[0] == 0
    code, output = run("play", str(event_file))
    assert code == 1
    assert "no round is paired yet" in output
    assert run("pair", str(event_file))[0] == 0
    event = load_event(event_file)
    people = next(p for p in event.round(1).pairings if "T1" in p.teams)
    code, output = run("result", str(event_file), "--table", str(people.table), "--forfeit", "T1")
    assert code == 0, output
    assert "wins" in output
    assert load_event(event_file).round(1).result(people.table).kind.value == "forfeit"  # type: ignore[union-attr]
    code, output = run(
        "result", str(event_file), "--table", str(people.table), "--levels", "3:2", "--deals", "4"
    )
    assert code == 1
    assert f"table {people.table} has its result already" in output
    assert "give --correct to replace it" in output
    code, output = run(
        "result",
        str(event_file),
        "--table",
        str(people.table),
        "--levels",
        "Z:3",
        "--deals",
        "4",
        "--correct",
        "--reason",
        "typo",
    )
    assert code == 1
    assert "'Z' is not a level" in output
    code, output = run(
        "result",
        str(event_file),
        "--table",
        str(people.table),
        "--levels",
        "3:2",
        "--deals",
        "4",
        "--correct",
        "--reason",
        "typo",
    )
    assert code == 0, output
    assert "levels 3 : 2" in output
    code, output = run("result", str(event_file), "--table", "9", "--levels", "3:2", "--deals", "4")
    assert code == 1
    assert "round 1 has no table 9" in output
    broken = tmp_path / "broken.json"
    broken.write_text(json.dumps({"format": "other"}), encoding="utf-8")
    code, output = run("standings", str(broken))
    assert code == 1
    assert "not an event file" in output
    bad = tmp_path / "bad.csv"
    bad.write_text("team,name,player_1,player_2,bot_1\nX,,a,b,nobot\n", encoding="utf-8")
    code, output = run("create", str(tmp_path / "e2.json"), "--roster", str(bad))
    assert code == 1
    assert "line 2: no name" in output


def test_rule_create_chooses_the_level_difference_table(tmp_path: Path) -> None:
    """competition.md#tie-breaks (*Reading*): ``--level-table 28`` counts the 级差分 in the 28-point
    table, the standings say which; 26 is the default; another number is refused naming the option."""
    roster = tmp_path / "roster.csv"
    roster.write_text(ROSTER, encoding="utf-8")
    default, chosen = tmp_path / "default.json", tmp_path / "chosen.json"
    code, output = run("create", str(default), "--roster", str(roster))
    assert code == 0, output
    assert "级差分 in the 26-point table" in output
    assert load_event(default).config.scoring.level_table == 26
    code, output = run("create", str(chosen), "--roster", str(roster), "--level-table", "28")
    assert code == 0, output
    assert "级差分 in the 28-point table" in output
    assert load_event(chosen).config.scoring.level_table == 28
    code, output = run("standings", str(chosen), "--csv", str(tmp_path / "s.csv"))
    assert code == 0, output
    assert "级差分 in the 28-point table" in output
    assert (tmp_path / "s.csv").read_text(encoding="utf-8-sig").splitlines()[0].endswith(",level_table")
    code, output = run("create", str(tmp_path / "bad.json"), "--roster", str(roster), "--level-table", "27")
    assert code == 2
    assert "--level-table" in output
    assert "26 or 28" in output
    assert not (tmp_path / "bad.json").exists()
