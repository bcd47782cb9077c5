"""``cardroom tournament print`` (docs/tournaments.md, "Printouts"): the director writes a round's
pairing list, table cards and score sheets and the results to HTML files, with the stylesheet beside
them; a round or table that does not exist is refused, naming the ones there are, and nothing is written."""

from __future__ import annotations

from pathlib import Path

from typer.testing import CliRunner

from cardroom.cli import app
from cardroom.cli.tournament import load_event
from cardroom.cli.tournament_print import STYLESHEET
from cardroom.tournament.seating import Wind, table_seats
from tests.tournament.html_tree import parse

runner = CliRunner()
ROSTER = """team,name,player_1,player_2,bot_1,bot_2
T1,<script>alert(1)</script>,Ann,Bo,,
T2,Lions,Cai,Du,,
T3,Cranes,Fan,Gu,,
T4,Pandas,He,Jin,,
"""
CSS = Path(__file__).resolve().parents[2] / "src" / "cardroom" / "server" / "web" / "print.css"


def run(*args: str) -> tuple[int, str]:
    result = runner.invoke(app, ["tournament", *args], env={"COLUMNS": "200"})
    return result.exit_code, result.output


def paired_event(tmp_path: Path) -> Path:
    roster = tmp_path / "roster.csv"
    roster.write_text(ROSTER, encoding="utf-8")
    event_file = tmp_path / "club.json"
    code, output = run(
        "create", str(event_file), "--roster", str(roster), "--name", "Club night", "--deals", "8"
    )
    assert code == 0, output
    return event_file


def test_print_writes_each_printout_and_the_stylesheet(tmp_path: Path) -> None:
    event_file = paired_event(tmp_path)
    code, output = run("print", str(event_file), "pairings")
    assert code == 1
    assert "no round is paired yet" in output
    assert run("pair", str(event_file))[0] == 0
    event = load_event(event_file)
    pairings = event.round(1).pairings
    for what, pages in (("pairings", None), ("cards", 2), ("sheets", 2)):
        code, output = run("print", str(event_file), what)
        assert code == 0, output
        written = tmp_path / f"club-{what}-r1.html"
        assert f"Wrote round 1's {what}" in output
        assert written.name in output
        if pages is not None:
            assert f"({pages} pages)" in output
        tree = parse(written.read_text(encoding="utf-8"))
        assert [link.attrs["href"] for link in tree.find_all("link")] == [STYLESHEET]
        assert "<script>alert(1)</script>" in tree.text, "the name shown as text"
        assert "<script" not in written.read_text(encoding="utf-8")
        if what == "cards":
            cards = tree.find_all("section", "card")
            assert len(cards) == len(pairings)
            for pairing, card in zip(sorted(pairings, key=lambda p: p.table), cards, strict=True):
                seats = table_seats(event, pairing)
                assert (
                    card.find("div", "north").find("span", "player").text == seats[Wind.NORTH].player.display
                )
                assert card.find("span", "number").text == str(pairing.table)
    assert (tmp_path / STYLESHEET).read_text(encoding="utf-8") == CSS.read_text(encoding="utf-8")

    out = tmp_path / "sheet-2.html"
    code, output = run("print", str(event_file), "sheets", "--round", "1", "--table", "2", "--out", str(out))
    assert code == 0, output
    assert "(1 page)" in output
    assert len(parse(out.read_text(encoding="utf-8")).find_all("section", "scoresheet")) == 1

    out = tmp_path / "results.html"
    code, output = run("print", str(event_file), "results", "--out", str(out), "--stylesheet", "/print.css")
    assert code == 0, output
    assert "Wrote the results" in output
    assert STYLESHEET not in output
    tree = parse(out.read_text(encoding="utf-8"))
    assert tree.find("h1").text == "Club night"
    assert [link.attrs["href"] for link in tree.find_all("link")] == ["/print.css"]


def test_print_refuses_a_round_or_table_that_does_not_exist(tmp_path: Path) -> None:
    event_file = paired_event(tmp_path)
    assert run("pair", str(event_file))[0] == 0
    before = set(tmp_path.iterdir())
    code, output = run("print", str(event_file), "cards", "--round", "3")
    assert code == 1
    assert "Cannot print the cards: there is no round 3: round 1 is paired" in output
    code, output = run("print", str(event_file), "sheets", "--table", "7")
    assert code == 1
    assert "round 1 has no table 7 (its tables: 1, 2)" in output
    code, output = run("print", str(event_file), "pairings", "--table", "1")
    assert code == 1
    assert "--table is for the score sheets" in output
    code, output = run("print", str(event_file), "results", "--round", "1")
    assert code == 1
    assert "the results print the whole event" in output
    code, output = run("print", str(event_file), "posters")
    assert code == 2
    assert "posters" in output
    assert set(tmp_path.iterdir()) == before, "nothing written"
