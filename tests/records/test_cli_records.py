"""The command line of records: ``cardroom replay FILE`` (exit 0 legal, 1 illegal or a wrong result,
2 unreadable) and ``cardroom play-random``."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from cardroom.cli import app
from cardroom.records import read_record, record_of, replay, write_record
from tests.records.test_rulings import ruled_match

DATA = Path(__file__).parent / "data"
runner = CliRunner()
WIDE = {"COLUMNS": "200"}


def run(*args: str) -> tuple[int, str]:
    result = runner.invoke(app, list(args), env=WIDE)
    return result.exit_code, result.output


def test_a_legal_record_prints_each_deal_and_the_result() -> None:
    code, output = run("replay", str(DATA / "legal.json"))
    assert code == 0, output
    assert "Chen 陈 → Dai → Bo → Ann" in output
    assert "Chen 陈 → Ann → Bo → Dai" in output
    assert "team 0 (Ann & Chen 陈) wins: levels 6 : 2" in output
    assert "28-point score 18 : 10" in output
    assert "Legal record: all 282 actions replayed." in output


@pytest.mark.parametrize(
    ("name", "where", "seat", "rule"),
    [
        (
            "out_of_turn.json",
            "deals[0].actions[5]: deal 1, action 6 of the deal, action 6 of the record",
            3,
            "OutOfTurnError",
        ),
        ("does_not_beat.json", "deals[0].actions[16]", 1, "DoesNotBeatError"),
        (
            "tribute_not_highest.json",
            "deals[1].actions[0]: deal 2, action 1 of the deal, action 133",
            0,
            "IllegalTributeError",
        ),
        ("return_too_high.json", "deals[1].actions[1]", 2, "IllegalReturnError"),
    ],
)
def test_an_illegal_action_exits_1_naming_index_seat_and_rule(
    name: str, where: str, seat: int, rule: str
) -> None:
    code, output = run("replay", str(DATA / name))
    assert code == 1, output
    assert f"Illegal action at {where}" in output
    assert f"seat {seat} (" in output
    assert f"rule broken: {rule}: " in output


def test_a_tribute_paid_under_anti_tribute_names_the_rule_on_one_line_when_piped() -> None:
    """The message names the rule and why; piped output (not a terminal, no COLUMNS) is not wrapped."""
    result = runner.invoke(
        app, ["replay", str(DATA / "tribute_under_anti_tribute.json")], env={"COLUMNS": None}
    )
    assert result.exit_code == 1, result.output
    assert (
        "Illegal action at deals[1].actions[0]: deal 2, action 1 of the deal, action 133 of the record"
        in result.output
    )
    assert (
        "rule broken: WrongPhaseError: seat 0 pays no tribute: 抗贡: the paying side holds both big "
        "jokers, so nobody pays; seat 2 (上游) leads" in result.output
    )


def test_a_wrong_result_exits_1() -> None:
    code, output = run("replay", str(DATA / "result_mismatch.json"))
    assert code == 1, output
    assert "does not match the replay" in output
    assert 'result.levels: the record says ["A", "2"], the replay gives ["6", "2"]' in output


def test_an_unfinished_record_exits_0() -> None:
    code, output = run("replay", str(DATA / "unfinished.json"))
    assert code == 0, output
    assert "Unfinished match: deal 2 is in its play phase, seat 2 to act" in output


def test_a_broken_record_exits_2_naming_the_field() -> None:
    code, output = run("replay", str(DATA / "bad_card_token.json"))
    assert code == 2, output
    assert "Broken record" in output
    assert "deals[0].actions[4].play[2][0]: cannot read card 'SX' (seat 1)" in output


def test_bad_json_and_missing_files_exit_2(tmp_path: Path) -> None:
    path = tmp_path / "cut.json"
    path.write_text((DATA / "legal.json").read_text(encoding="utf-8")[:500], encoding="utf-8")
    code, output = run("replay", str(path))
    assert code == 2, output
    assert "not valid JSON" in output
    assert "line " in output
    assert "column " in output
    code, output = run("replay", str(tmp_path / "nothing.json"))
    assert code == 2, output
    assert "cannot read" in output


def test_play_random_writes_a_record_that_replays(tmp_path: Path) -> None:
    out = tmp_path / "random.json"
    code, output = run("play-random", "--seed", "5", "--deals", "2", "--out", str(out))
    assert code == 0, output
    assert f"Wrote {out}" in output
    record = read_record(out)
    assert record["seed"] == 5
    assert record["max_deals"] == 2
    assert replay(record).ok
    again = tmp_path / "again.json"
    run("play-random", "--seed", "5", "--deals", "2", "--out", str(again))
    assert again.read_bytes() == out.read_bytes()
    code, output = run("replay", str(out))
    assert code == 0, output


def test_play_random_rejects_an_unknown_rule_set(tmp_path: Path) -> None:
    code, output = run("play-random", "--seed", "1", "--rules", "nope", "--out", str(tmp_path / "x.json"))
    assert code != 0
    assert "unknown rule set 'nope'" in output


def test_python_dash_m_cardroom_replay() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "cardroom", "replay", str(DATA / "not_held.json")],
        capture_output=True,
        text=True,
        encoding="utf-8",
        env={**os.environ, "COLUMNS": "200", "PYTHONIOENCODING": "utf-8"},
        check=False,
    )
    assert done.returncode == 1, done.stdout + done.stderr
    assert "NotHeldError" in done.stdout


def test_a_forfeited_record_says_who_forfeited_and_why(tmp_path: Path) -> None:
    path = tmp_path / "forfeited.json"
    write_record(path, record_of(ruled_match(), seed=21))
    code, output = run("replay", str(path))
    assert code == 0, output
    assert "team 1 (seat 1 & seat 3) wins, forfeited by team 0 (seat 0 & seat 2) (两次犯规): levels" in output
