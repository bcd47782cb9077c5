"""What an event prints (docs/tournaments.md, "Printouts"): each printout names the right teams at the
right tables and seats by direction, escapes every name, carries no inline style or script, puts one
table card and one score sheet per printed page, and the results show what the director recorded."""

from __future__ import annotations

import random
import re
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from cardroom.tournament import (
    Event,
    EventConfig,
    MatchFormat,
    Offence,
    PairingSystem,
    Penalty,
    PenaltyRecord,
    Player,
    ScoreSheet,
    ScoringRules,
    TableResult,
    Team,
)
from cardroom.tournament.printouts import (
    DEFAULT_STYLESHEET,
    deal_line_count,
    pairing_list,
    results_page,
    score_sheets,
    table_cards,
)
from cardroom.tournament.seating import Wind, table_seats
from tests.tournament.html_tree import Element, parse

START = datetime(2026, 5, 1, 14, 0, tzinfo=UTC)
EVIL = "<script>alert(1)</script>"
BOLD = "<b>Bold</b> & co"
PRINT_CSS = Path(__file__).resolve().parents[2] / "src" / "cardroom" / "server" / "web" / "print.css"


def after(minutes: float) -> datetime:
    return START + timedelta(minutes=minutes)


def event_of_five(fmt: MatchFormat | None = None) -> Event:
    """Five teams, Swiss over three rounds: two tables and a bye each round; T1 is named like a
    script and one of its players like markup."""
    config = EventConfig("淮安杯 <春季>", fmt or MatchFormat.fixed_deals(8), 3, PairingSystem.SWISS)
    event = Event(config)
    event = event.register(Team("T1", (Player("p1a", BOLD), Player("p1b", "Ann")), EVIL))
    for index in range(2, 6):
        event = event.register(
            Team(
                f"T{index}",
                (Player(f"p{index}a", f"甲{index}"), Player(f"p{index}b", f"乙{index}")),
                f"队{index}",
            )
        )
    return event.start(random.Random(3)).pair_next_round()


def all_printouts(event: Event, stylesheet: str = DEFAULT_STYLESHEET) -> dict[str, str]:
    return {
        "pairings": pairing_list(event, 1, stylesheet=stylesheet),
        "cards": table_cards(event, 1, stylesheet=stylesheet),
        "sheets": score_sheets(event, 1, stylesheet=stylesheet),
        "results": results_page(event, stylesheet=stylesheet),
    }


def body(html: str) -> Element:
    return parse(html).find("body")


def test_pairing_list_names_the_teams_and_every_seat_by_direction() -> None:
    event = event_of_five()
    played = event.round(1)
    page = body(pairing_list(event, 1))
    headers = [th.text for th in page.find("table", "pairings").find_all("th")]
    assert headers == ["桌号 Table", "南北 N/S", "北 North", "南 South", "东西 E/W", "东 East", "西 West"]
    rows = page.find("table", "pairings").rows()
    assert [row[0] for row in rows] == [str(p.table) for p in sorted(played.pairings, key=lambda p: p.table)]
    for pairing, row in zip(sorted(played.pairings, key=lambda p: p.table), rows, strict=True):
        first, second = (event.team(team) for team in pairing.teams)
        assert row == [
            str(pairing.table),
            first.display,
            first.players[0].display,  # North: seat 0
            first.players[1].display,  # South: seat 2
            second.display,
            second.players[1].display,  # East: seat 3
            second.players[0].display,  # West: seat 1
        ]
        seats = table_seats(event, pairing)
        assert (row[2], row[5]) == (seats[Wind.NORTH].player.display, seats[Wind.EAST].player.display)
    assert played.draw.bye is not None
    assert page.find("p", "bye").text == f"轮空 Bye: {event.team(played.draw.bye).display}"
    assert "published, not started" in page.find("p", "meta").text
    started = body(pairing_list(event.start_round(START), 1)).find("p", "meta").text
    assert "开始 started 2026-05-01 14:00:00" in started


def test_every_printout_escapes_names_and_has_no_inline_style_or_script() -> None:
    """Served under a Content-Security-Policy allowing only the site's own stylesheet: no <style>,
    style= or <script> at all; a team named like a script is shown as its text."""
    event = event_of_five()
    for kind, html in all_printouts(event, stylesheet='/static/print.css?v="2"').items():
        lowered = html.lower()
        assert "<script" not in lowered, kind
        assert "<style" not in lowered, kind
        assert "style=" not in lowered, kind
        assert "<b>" not in html, kind
        tree = parse(html)
        assert EVIL in tree.text, f"{kind}: the name is shown as text"
        links = tree.find_all("link")
        assert [link.attrs for link in links] == [{"rel": "stylesheet", "href": '/static/print.css?v="2"'}]
        assert tree.find("title").text.startswith("淮安杯 <春季>")
    pairings = all_printouts(event)["pairings"]
    assert '<link rel="stylesheet" href="/static/print.css">' in pairings, (
        "the card room's stylesheet by default"
    )
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in pairings
    assert BOLD in parse(pairings).text


def test_one_table_card_per_printed_page() -> None:
    event = event_of_five()
    played = event.round(1)
    page = body(table_cards(event, 1))
    cards = [child for child in page.children if isinstance(child, Element)]
    assert len(cards) == len(played.pairings) == 2
    assert all(card.tag == "section" and card.classes == {"page", "card"} for card in cards)
    css = PRINT_CSS.read_text(encoding="utf-8")
    rule = re.search(r"section\.page \{([^}]*)\}", css)
    assert rule is not None
    assert "break-after: page" in rule.group(1), "each section.page ends its page"
    for pairing, card in zip(sorted(played.pairings, key=lambda p: p.table), cards, strict=True):
        assert card.find("p", "table-number").find("span", "number").text == str(pairing.table)
        assert "第1轮 Round 1" in card.find("p", "event").text
        seats = table_seats(event, pairing)
        for wind in Wind:
            box = card.find("div", wind.name.lower())
            assert box.find("span", "wind").text == f"{wind.chinese} {wind.english}"
            assert box.find("span", "player").text == seats[wind].player.display
            assert box.find("span", "team").text == seats[wind].team.display
        sides = card.find("table", "sides").rows()
        assert [row[1] for row in sides] == [event.team(team).display for team in pairing.teams]
        assert sides[0][0] == "南北 N/S"
        assert sides[1][0] == "东西 E/W"


def test_a_blank_score_sheet_per_table_and_page() -> None:
    event = event_of_five().start_round(START)
    played = event.round(1)
    late_table = played.pairings[0]
    late_team = late_table.teams[1]
    for pairing in played.pairings:
        for team in pairing.teams:
            event = event.arrive(team, after(5.5) if team == late_team else START)
    page = body(score_sheets(event, 1))
    sheets = [child for child in page.children if isinstance(child, Element)]
    assert len(sheets) == 2
    assert all(sheet.classes == {"page", "scoresheet"} for sheet in sheets)
    by_table = {
        int(sheet.find("table", "sheet-header").find("span", "number").text): sheet for sheet in sheets
    }
    assert sorted(by_table) == [1, 2]
    for pairing in played.pairings:
        sheet = by_table[pairing.table]
        seats = table_seats(event, pairing)
        header = sheet.find("table", "sheet-header").rows()
        assert header[0][1] == "淮安杯 <春季>"
        assert header[0][3] == "8副，平级加打一副"
        assert (header[1][1], header[1][3]) == ("1", str(pairing.table))
        sides = sheet.find("table", "sides").rows()
        assert [row[1] for row in sides] == [event.team(team).display for team in pairing.teams]
        assert [row[3] for row in sides] == ["2", "2"], "双方从打2开始"
        north, south = seats[Wind.NORTH].player.display, seats[Wind.SOUTH].player.display
        assert sides[0][2] == f"北 North {north} · 南 South {south}"
        duty = sheet.find("p", "meta").text
        assert f"西 West {seats[Wind.WEST].player.display}" in duty
        assert f"北 North {north}" in duty
        deals = sheet.find("table", "deals").rows()
        assert [row[0] for row in deals] == [str(n) for n in range(1, 11)], "8 deals and 2 for a tie"
        if pairing is late_table:
            # competition.md#late, #foul: the late side's foul ends the first deal, its 双下
            ruled = ["1", "2", "—", "南北 N/S", "3", "5", "2", "—", "犯规 foul (东西 E/W 迟到 late)"]
            assert deals[0] == ruled
            deals = deals[1:]
        assert all(cell == "" for row in deals for cell in row[1:]), "a blank sheet"
        assert len(sheet.find("table", "result").rows()) == 1
        signatures = [div.text for div in sheet.find_all("div", "signature")]
        assert signatures == [
            f"南北 N/S {event.team(pairing.teams[0]).display}",
            f"东西 E/W {event.team(pairing.teams[1]).display}",
            "裁判 Referee",
        ]
        penalties = sheet.find("table", "penalties").rows()
        recorded = [row for row in penalties if any(row)]
        if pairing is late_table:
            assert len(recorded) == 1
            assert recorded[0][1].endswith(event.team(late_team).display)
            assert recorded[0][2] == "犯规"
            assert recorded[0][3] == "迟到5分30秒"
        else:
            assert recorded == []
        assert len(penalties) - len(recorded) == 3, "room for more penalties"
    one = body(score_sheets(event, 1, 2)).find_all("section", "scoresheet")
    assert len(one) == 1


@pytest.mark.parametrize(
    ("fmt", "lines"),
    [
        (MatchFormat.fixed_deals(8), 10),
        (MatchFormat.fixed_deals(8, tie_extra_deal=False), 8),
        (MatchFormat.to_ace(), 24),
        (MatchFormat.timed(50), 24),
    ],
)
def test_deal_lines_follow_the_format(fmt: MatchFormat, lines: int) -> None:
    assert deal_line_count(fmt) == lines
    sheet = body(score_sheets(event_of_five(fmt), 1)).find("section", "scoresheet")
    assert len(sheet.find("table", "deals").rows()) == lines


def test_a_round_that_does_not_exist_is_refused() -> None:
    event = event_of_five()
    for printout in (pairing_list, table_cards, score_sheets):
        with pytest.raises(KeyError, match="no round 2: 1 paired"):
            printout(event, 2)
    with pytest.raises(KeyError, match="no table 9"):
        score_sheets(event, 1, 9)


def directed_day() -> tuple[Event, dict[tuple[int, int], ScoreSheet]]:
    """Round 1 with a late side (犯规), a warning by hand, results, a correction past the window by
    override, an appeal ruled on, a withdrawal; round 2 paired; a sheet with a clock's penalty."""
    event = event_of_five().start_round(START)
    played = event.round(1)
    late = played.pairings[0].teams[1]
    for pairing in played.pairings:
        for team in pairing.teams:
            event = event.arrive(team, after(7) if team == late else START, by="Wang")
    hand_table = played.pairings[1]
    offender = event.seat_players(hand_table)[1]
    event = event.penalise(
        1, hand_table.table, offender.id, Penalty.WARNING, "slow play", at=after(20), by="Zhang"
    )
    for pairing in played.pairings:
        event = event.record(1, pairing.table, TableResult.played((10, 6), 8), at=after(60), by="Li")
    event = event.record(
        1,
        1,
        TableResult.played((10, 7), 8),
        at=after(80),
        by="Li",
        reason="7, not 6",
        override="both signed 7",
    )
    event = event.file_appeal(1, 1, played.pairings[0].teams[0], "the 7 was a 6", at=after(81), by="Cap")
    event = event.rule_appeal(1, "the sheet says 7", upheld=False, by="Chief", at=after(90))
    event = event.withdraw("T3", "illness", at=after(95), by="Zhang")
    event = event.pair_next_round()
    record = PenaltyRecord(0, 2, Penalty.WARNING, Offence.TIMEOUT, 125.0, 3)
    sheet = ScoreSheet(1, 2, hand_table.teams, ("a", "b", "c", "d"), penalties=(record,), result=None)
    sheet = sheet.with_result(TableResult.played((10, 6), 8)).sign(0)
    return event, {(1, 2): sheet}


def test_results_page_shows_the_standings_and_what_the_director_recorded() -> None:
    event, sheets = directed_day()
    page = body(results_page(event, title="淮安杯 2026", sheets=sheets))
    assert page.find("h1").text == "淮安杯 2026"
    assert "2/3 轮 rounds" in page.find("p", "meta").text
    standings = page.find("table", "standings").rows()
    assert [row[0] for row in standings] == ["1", "2", "3", "4", "5"]
    by_team = {row[1]: row for row in standings}
    assert by_team["队3"][11] == "退赛", "a team out is marked"
    for row in event.standings():
        printed = by_team[event.team(row.team).display]
        assert printed[3] == str(row.tally.points)
        assert printed[4] == str(row.tally.progressive)
        assert printed[9] == str(row.tally.lot)
    played = event.round(1)
    late_team, hand_table = played.pairings[0].teams[1], played.pairings[1]
    offender = event.seat_players(hand_table)[1]
    assert by_team[event.team(late_team).display][12] == "R1 犯规"
    assert (
        "名次依次比较 ties are broken by: 总积分 > 去首累进分 > 胜轮次 > 级差分 > 升级数 > 抽签" in page.text
    )

    rounds = page.find_all("section", "round")
    assert [section.find("h2").text for section in rounds] == ["第1轮 Round 1", "第2轮 Round 2"]
    first = {row[0]: row for row in rounds[0].find("table", "results").rows()}
    assert first["1"][3:8] == ["10 : 7", "8", "2 : 0", "17 : 11", "16 : 10"], "the corrected result"
    assert first["2"][8] == "✓ —", "the sheet's signatures"
    assert "迟到" in first["1"][9]
    assert "犯规" in first["1"][9]
    assert f"西 West {offender.display} 警告 (违规: slow play)" in first["2"][9]
    assert "第3副 125s 南 South" in first["2"][9], "the sheet's clock penalty, by direction"
    assert first["轮空 Bye"][1] == event.team(played.draw.bye or "").display

    penalties = page.find("table", "penalties").rows()
    assert [row[3] for row in penalties] == ["犯规", "警告", "警告"]
    late_row, hand_row, clock_row = penalties
    assert late_row[2] == f"东西 E/W {event.team(late_team).display}"
    assert (late_row[4], late_row[6]) == ("迟到7分00秒", "Wang")
    assert hand_row[2] == f"西 West {offender.display}"
    assert (hand_row[4], hand_row[5], hand_row[6]) == ("违规: slow play", "2026-05-01 14:20:00", "Zhang")
    assert clock_row[6] == "计时 the clocks"

    corrections = page.find("table", "corrections").rows()
    assert corrections == [
        [
            "1",
            "1",
            "10 : 6",
            "10 : 7",
            "2026-05-01 15:20:00",
            "Li",
            "7, not 6 (override: both signed 7) (逾时更正 past the window, overridden)",
        ]
    ]
    withdrawals = page.find_all("table")[-2].rows()
    assert withdrawals == [["队3", "退赛", "1", "illness", "2026-05-01 15:35:00", "Zhang"]]
    appeals = page.find("table", "appeals").rows()
    team = event.team(played.pairings[0].teams[0]).display
    assert appeals == [
        [
            "1",
            "1",
            "1",
            team,
            "the 7 was a 6",
            "2026-05-01 15:21:00",
            "驳回 dismissed",
            "the sheet says 7 (Chief, 2026-05-01 15:30:00)",
        ]
    ]


def test_results_page_before_the_draw_and_without_records() -> None:
    event = Event(EventConfig("Club night")).register(
        Team("T1", (Player("a", "A"), Player("b", "B")), "Tigers")
    )
    page = body(results_page(event))
    assert page.find("h1").text == "Club night"
    assert "报名 registration" in page.find("p", "meta").text
    assert page.find_all("table") == [], "no standings before the lots, no records"


def test_rule_the_results_page_names_the_level_difference_table() -> None:
    """competition.md#tie-breaks (*Reading*): the printout names the table the 级差分 is counted in, in
    its header line and its standings column, and counts it there."""
    for points in (26, 28):
        config = EventConfig("Club night", scoring=ScoringRules(level_table=points))
        event = Event(config)
        for number in (1, 2):
            event = event.register(Team(f"T{number}", (Player(f"a{number}"), Player(f"b{number}"))))
        event = event.start(random.Random(1)).pair_next_round()
        event = event.record(1, 1, TableResult.played((6, 2), 8))
        page = body(results_page(event))
        meta = page.find("p", "meta").text
        assert f"级差分按{points}分制 level difference in the {points}-point table" in meta
        standings = page.find("table", "standings")
        assert f"级差分（{points}分制） Level difference ({points}-point)" in standings.find("tr").text
        assert [row[6] for row in standings.rows()] == (["18", "10"] if points == 28 else ["17", "9"])
