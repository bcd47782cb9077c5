"""End to end, in Debian's chromium: a director's day at a small event (docs/tournaments.md, "Running an
event in the card room"), the server's event clock scripted by the test so that ten minutes of lateness
take seconds.

Six teams of people, one round published on the page and started with its button; at each table one
side is seated on time and the other late: 3:00 late (警告), 7:00 late (犯规), never (判负 at 10:01,
docs/rules/competition.md#late). The director gives a 判负 by hand (confirmed, with its reason) and
a forfeit, corrects a result on the page, withdraws a team, reads the printouts and the projector, and
the standings are the API's.
"""

from __future__ import annotations

import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

from tests.server.browser import SERVER_CODE, PageErrors, Server, in_front, run_server, screenshot

if TYPE_CHECKING:
    from playwright.sync_api import Browser, BrowserContext, Page

pytestmark = pytest.mark.browser

CLOCKED_SERVER = SERVER_CODE.replace(
    "uvicorn.run(create_app(None, data, settings=settings)",
    """import pathlib, time
frozen = pathlib.Path(data) / "clock"

def clock():
    try:
        return float(frozen.read_text())
    except (OSError, ValueError):
        return time.time()

uvicorn.run(create_app(None, data, settings=settings, event_clock=clock)""",
)
"""The test server with the events' clock stopped at the time written in the data folder's ``clock`` (the
real time until one is written); the tables keep their own clocks."""


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory, browser: Browser) -> Iterator[Server]:
    assert "event_clock=clock" in CLOCKED_SERVER
    data: Path = tmp_path_factory.mktemp("cardroom-director")
    with run_server(data, CLOCKED_SERVER) as running:
        yield running


def event_now(page: Page) -> dict[str, Any]:
    value: dict[str, Any] = page.evaluate("() => window.__event.event")
    return value


def set_clock(server: Server, start: float, minutes: int, seconds: int = 0) -> None:
    """Stop the events' clock at ``minutes:seconds`` after ``start``."""
    (server.data / "clock").write_text(str(start + minutes * 60 + seconds))


def table_of(page: Page, number: int) -> Any:
    return page.locator(
        f'[data-testid=round][data-round="1"] [data-testid=round-table][data-table="{number}"]'
    )


def test_a_director_runs_a_small_event(browser: Browser, server: Server, context: BrowserContext) -> None:
    director = server.sign_in("Dora", director=True)
    server.sign_in_browser(context, "Dora", director=True)
    names = [(f"Ann{n}", f"Bob{n}") for n in range(1, 7)]
    people = {name: server.sign_in(name) for pair in names for name in pair}
    created = director.api("POST", "/api/events", {"name": "Director's day", "rounds": 2, "system": "swiss"})
    event_id = created["event"]["id"]
    for number, (first, second) in enumerate(names, 1):
        director.api(
            "POST",
            f"/api/events/{event_id}/teams",
            {"name": f"Team {number}", "players": [{"name": first}, {"name": second}]},
        )
    page = context.new_page()
    errors = PageErrors(page)
    page.goto(f"{server.url}/events/{event_id}")
    page.wait_for_function("() => window.__event && window.__event.ready && window.__event.director")
    assert page.get_by_test_id("director-input").count() == 0, "no token box: the director is signed in"
    assert "28-point" in page.get_by_test_id("event-scoretables").inner_text()
    page.get_by_test_id("start-event").click()
    page.wait_for_function("() => window.__event.event.phase === 'running'")

    # --- publish the pairings: no table yet; the on-time sides check in before the start ---------------
    page.get_by_test_id("pair-round").click()
    page.wait_for_selector("[data-testid=start-round]")
    tables = event_now(page)["rounds"][0]["tables"]
    assert [table["table_id"] for table in tables] == [None, None, None]
    team_players = {team["id"]: [p["name"] for p in team["players"]] for team in event_now(page)["teams"]}
    late = [table["teams"][1] for table in tables]
    for table in tables:
        for name in team_players[table["teams"][0]]:
            people[name].api("POST", f"/api/events/{event_id}/arrive", {})
    projector = context.new_page()
    projector_errors = PageErrors(projector)
    projector.goto(f"{server.url}/events/{event_id}/projector")
    projector.wait_for_function("() => window.__projector && window.__projector.event")
    assert projector.locator("[data-testid=projector-table]").count() == 3
    assert projector.locator("[data-testid=projector-standing]").count() == 6
    lines = projector.evaluate(
        """() => [...document.querySelectorAll('#standings td.team-name')].map((cell) => {
            const range = document.createRange();
            range.selectNodeContents(cell);
            return range.getClientRects().length;
        })"""
    )
    assert lines == [1] * 6, "each team's name on one line on the projector"
    headings = projector.locator("#standings th").all_inner_texts()
    assert any(heading.endswith(("(26)", "（26）")) for heading in headings), "the 级差分's table is named"

    start = float(int(time.time()) + 5)  # after the check-ins
    set_clock(server, start, 0)
    in_front(page).get_by_test_id("start-round").click()
    page.wait_for_function("() => window.__event.event.rounds[0].started_at")
    for number in (1, 2, 3):
        assert table_of(page, number).get_attribute("data-status") == "waiting"
    # a guest at a waiting event table is not offered a player's seat (a new director's trial was)
    guest = browser.new_context(viewport={"width": 1280, "height": 800}, locale="en-US")
    guest_page = guest.new_page()
    waiting_id = server.api("GET", f"/api/events/{event_id}")["rounds"][0]["tables"][2]["table_id"]
    guest_page.goto(f"{server.url}/tables/{waiting_id}")
    guest_page.get_by_test_id("waiting-screen").wait_for()
    assert "An event's table" in guest_page.get_by_test_id("waiting-note").inner_text()
    assert guest_page.locator("[data-testid^=sit-]").count() == 0, "no seat and no name field for a guest"
    guest.close()
    in_front(page)

    # --- 3:00 late: a warning; 7:00 late: a foul; still missing at 10:01: a forfeit ------------------
    set_clock(server, start, 3)
    for name in team_players[late[0]]:
        people[name].api("POST", f"/api/events/{event_id}/arrive", {})
    table_of(page, 1).get_by_test_id("table-penalties").wait_for()
    assert "seated 3:00 late" in table_of(page, 1).get_by_test_id("table-penalties").inner_text()
    assert "Warning" in table_of(page, 1).get_by_test_id("table-penalties").inner_text()
    assert "by the lateness rule" in table_of(page, 1).get_by_test_id("table-penalties").inner_text()
    set_clock(server, start, 7)
    for name in team_players[late[1]]:
        people[name].api("POST", f"/api/events/{event_id}/arrive", {})
    table_of(page, 2).get_by_test_id("table-penalties").wait_for()
    assert "Foul" in table_of(page, 2).get_by_test_id("table-penalties").inner_text()
    assert "seated 7:00 late" in table_of(page, 2).get_by_test_id("table-penalties").inner_text()
    # the foul costs the late side its first deal (competition.md#late, #foul): the table says why
    fouled = server.api("GET", f"/api/events/{event_id}")["rounds"][0]["tables"][1]
    watcher = context.new_page()
    watcher_errors = PageErrors(watcher)
    watcher.goto(f"{server.url}/tables/{fouled['table_id']}")
    why = watcher.get_by_test_id("deal-foul")
    why.wait_for()
    assert why.get_attribute("data-offence") == "late"
    assert (
        "came late (迟到) and were judged a foul (犯规): the first deal ended as their 双下"
        in why.inner_text()
    )
    assert "Team" in why.inner_text(), "the late team by its event name"
    penalty = watcher.get_by_test_id("table-penalty").first.inner_text()
    assert penalty.startswith("before the first deal, Team"), penalty
    screenshot(watcher, "event-late-foul-at-the-table")
    watcher_errors.check()
    watcher.close()
    in_front(page)
    set_clock(server, start, 10)
    page.wait_for_timeout(1500)  # a tick or two at 10:00: still only late
    assert table_of(page, 3).get_by_test_id("table-penalties").count() == 0
    set_clock(server, start, 10, 1)
    page.wait_for_function("() => window.__event.event.rounds[0].tables[2].result")
    text = table_of(page, 3).get_by_test_id("table-penalties").inner_text()
    assert "10:01 late, not seated" in text, "the page's words for the rule's 迟到10分01秒仍未入座"
    assert "Forfeit by absence (弃权" in text, "missing past 10 minutes is 弃权 (competition.md#late)"
    projector.wait_for_function(
        "() => [...document.querySelectorAll('[data-testid=projector-result]')]"
        ".some(c => c.textContent.includes('forfeits'))"
    )
    screenshot(page, "event-director-lateness", full_page=True)

    # --- a 判负 by hand at table 1 (a reason, then the confirmation); a forfeit at table 2 ------------
    tools = table_of(page, 1).get_by_test_id("table-tools")
    tools.get_by_test_id("penalty-open").click()
    offender = team_players[late[0]][0]
    tools.get_by_test_id("penalty-player").select_option(offender)
    tools.get_by_test_id("penalty-kind").select_option("FORFEIT")
    tools.get_by_test_id("penalty-reason").fill("拒绝服从裁判")
    tools.get_by_test_id("penalty-submit").click()
    tools.get_by_test_id("penalty-confirm").click()
    page.wait_for_function("() => window.__event.event.rounds[0].tables[0].result")
    assert "拒绝服从裁判" in table_of(page, 1).get_by_test_id("table-penalties").inner_text()
    table2 = table_of(page, 2)
    # a second 犯规 for the side fouled for lateness escalates to 判负: confirmed like one (#penalties)
    errors.allow(400)  # the first answer asks for the confirmation
    tools = table2.get_by_test_id("table-tools")
    tools.get_by_test_id("penalty-open").click()
    tools.get_by_test_id("penalty-player").select_option(team_players[late[1]][0])
    tools.get_by_test_id("penalty-kind").select_option("FOUL")
    tools.get_by_test_id("penalty-reason").fill("再次犯规")
    tools.get_by_test_id("penalty-submit").click()
    tools.get_by_test_id("penalty-confirm").wait_for()
    assert "escalates to a loss of the match" in tools.locator(".confirm").inner_text()
    assert server.api("GET", f"/api/events/{event_id}")["rounds"][0]["tables"][1]["result"] is None
    tools.get_by_test_id("penalty-kind").select_option("WARNING")
    assert tools.get_by_test_id("penalty-confirm").count() == 0 or tools.locator(".confirm").is_hidden()
    table2.locator(".forfeit summary").click()
    table2.get_by_test_id("forfeit-team").select_option(late[1])
    table2.get_by_test_id("forfeit-reason").fill("离场")
    table2.get_by_test_id("forfeit-submit").click()
    table2.get_by_test_id("forfeit-confirm").click()
    page.wait_for_function("() => window.__event.event.rounds[0].complete")

    # --- a correction by hand within the window: table 2 was played out, A : 6 in 5 deals ------------
    set_clock(server, start, 12)
    table_of(page, 2).get_by_test_id("table-tools").wait_for()
    tools = table_of(page, 2).get_by_test_id("table-tools")
    tools.get_by_test_id("result-open").click()
    tools.get_by_test_id("result-level-0").fill("A")
    tools.get_by_test_id("result-level-1").fill("6")
    tools.get_by_test_id("result-deals").fill("5")
    tools.get_by_test_id("result-reason").fill("纸质记分表为准")
    tools.get_by_test_id("result-submit").click()
    table_of(page, 2).get_by_test_id("table-changes").wait_for()
    assert "纸质记分表为准" in table_of(page, 2).get_by_test_id("table-changes").inner_text()
    result = server.api("GET", f"/api/events/{event_id}")["rounds"][0]["tables"][1]["result"]
    assert (result["kind"], result["level_names"], result["deals"]) == ("played", ["A", "6"], 5)

    # --- a withdrawal, with its reason --------------------------------------------------------------
    out = late[2]
    card = page.locator(f'[data-testid=team][data-team="{out}"]')
    card.get_by_test_id("withdraw-open").click()
    card.get_by_test_id("withdraw-reason").fill("全队缺席")
    card.get_by_test_id("withdraw-submit").click()
    card.get_by_test_id("withdrawn").wait_for()
    assert server.api("GET", f"/api/events/{event_id}")["withdrawals"][0]["team"] == out

    # --- the standings are the API's; the printouts carry the director's records ---------------------
    api_rows = server.api("GET", f"/api/events/{event_id}/standings")["standings"]
    page.wait_for_function(
        "(teams) => JSON.stringify([...document.querySelectorAll('[data-testid=standing-row]')]"
        ".map(r => r.dataset.team)) === JSON.stringify(teams)",
        arg=[row["team"] for row in api_rows],
    )
    projector.wait_for_function(
        "(names) => JSON.stringify([...document.querySelectorAll("
        "'[data-testid=projector-standing] td:nth-child(2)')]"
        ".map(c => c.textContent)) === JSON.stringify(names)",
        arg=[row["name"] for row in api_rows],
    )
    with urllib.request.urlopen(f"{server.url}/events/{event_id}/print", timeout=10) as response:
        printed = response.read().decode()
    for text in (
        "迟到3分00秒",
        "迟到7分00秒",
        "迟到10分01秒仍未入座",
        "拒绝服从裁判",
        "纸质记分表为准",
        "全队缺席",
    ):
        assert text in printed, text
    for what in ("pairings", "cards", "sheets"):
        with urllib.request.urlopen(
            f"{server.url}/events/{event_id}/print/{what}?round=1", timeout=10
        ) as response:
            assert response.status == 200
            assert "Team 1" in response.read().decode()
    # --- at an event's table: the event's team names; the match's end leads back to the event ----------
    finished = server.api("GET", f"/api/events/{event_id}")["rounds"][0]["tables"][0]
    at_table = context.new_page()
    at_table.goto(f"{server.url}/tables/{finished['table_id']}")
    back = at_table.get_by_test_id("back-to-event")
    back.wait_for()
    assert back.get_attribute("href") == f"/events/{event_id}"
    from playwright.sync_api import expect

    team_names = {team["id"]: team["name"] for team in event_now(page)["teams"]}
    # the page names the sides generically until it has read the event's team names, then again
    expect(at_table.get_by_test_id("match-result")).to_contain_text(team_names[finished["teams"][0]])
    assert at_table.get_by_test_id("top-event-link").get_attribute("href") == f"/events/{event_id}"
    forfeited = [
        table
        for table in server.api("GET", f"/api/events/{event_id}")["rounds"][0]["tables"]
        if table["result"] and table["result"]["kind"] == "forfeit" and table["table_id"]
    ]
    assert forfeited, "round 1 has a table the lateness rule forfeited"
    at_table.goto(f"{server.url}/tables/{forfeited[0]['table_id']}")
    loser = team_names[forfeited[0]["teams"][forfeited[0]["result"]["forfeited_by"]]]
    expect(at_table.get_by_test_id("match-forfeit")).to_have_text(
        f"{loser} lost the match by forfeit (判负 / 弃权)"
    )
    screenshot(page, "event-director-day", full_page=True)
    screenshot(projector, "event-projector")
    errors.check()
    projector_errors.check()


def test_a_director_edits_an_event_not_started(
    browser: Browser, server: Server, context: BrowserContext
) -> None:
    """docs/tournaments.md, "Running an event in the card room": before the start the director changes
    the event on its page (name, format, pairing, rounds, rules, the 级差分 table); a bad value is refused
    in the form, naming the field, and so is what the server refuses; a player sees no form, and none is
    left once the event has started."""
    director = server.sign_in("Edda", director=True)
    server.sign_in_browser(context, "Edda", director=True)
    created = director.api("POST", "/api/events", {"name": "Spring cup", "rounds": 3, "system": "swiss"})
    event_id = created["event"]["id"]
    page = context.new_page()
    errors = PageErrors(page)
    page.goto(f"{server.url}/events/{event_id}")
    page.wait_for_function("() => window.__event && window.__event.ready && window.__event.director")
    assert "26-point table for the level difference" in page.get_by_test_id("event-scoretables").inner_text()
    edit = page.get_by_test_id("event-edit")
    page.get_by_test_id("edit-open").click()
    assert edit.get_by_test_id("edit-name").input_value() == "Spring cup"
    assert edit.get_by_test_id("edit-rounds").input_value() == "3"
    assert edit.get_by_test_id("edit-system").input_value() == "swiss"
    assert edit.get_by_test_id("edit-level-table").input_value() == "26"
    assert not edit.get_by_test_id("edit-deals").is_visible(), "played to A: no number of deals"

    # refused in the form: a number out of range, named
    edit.get_by_test_id("edit-rounds").fill("0")
    edit.get_by_test_id("edit-save").click()
    refusal = page.get_by_test_id("edit-error")
    refusal.wait_for()
    assert refusal.inner_text() == "Rounds: enter a number from 1 to 50."
    assert server.api("GET", f"/api/events/{event_id}")["config"]["rounds"] == 3, "nothing sent"
    # refused by the server: a Swiss event without its number of rounds
    errors.allow(400)  # on purpose
    page.get_by_test_id("edit-rounds").fill("")
    page.get_by_test_id("edit-save").click()
    page.wait_for_function(
        "() => document.querySelector('[data-testid=edit-error]')?.textContent.includes('Swiss')"
    )
    assert "A Swiss event needs its number of rounds" in page.get_by_test_id("edit-error").inner_text()
    assert server.api("GET", f"/api/events/{event_id}")["config"]["rounds"] == 3, "nothing changed"
    screenshot(page, "event-director-edit-refused", full_page=True)

    # saved: every field changed is the event's now, on the page and in the API
    page.get_by_test_id("edit-name").fill("Spring cup 2026")
    page.get_by_test_id("edit-format").select_option("deals")
    page.get_by_test_id("edit-deals").fill("6")
    page.get_by_test_id("edit-rounds").fill("4")
    page.get_by_test_id("edit-level-table").select_option("28")
    page.get_by_test_id("edit-save").click()
    page.wait_for_function("() => window.__event.event.name === 'Spring cup 2026'")
    config = server.api("GET", f"/api/events/{event_id}")["config"]
    assert (config["rounds"], config["format"]["deals"], config["level_table"]) == (4, 6, 28)
    assert page.get_by_test_id("event-title").inner_text() == "Spring cup 2026"
    assert "28-point table for the level difference" in page.get_by_test_id("event-scoretables").inner_text()
    page.get_by_test_id("edit-open").click()
    assert not page.get_by_test_id("edit-error").is_visible(), "the refusals are gone once saved"
    assert page.get_by_test_id("edit-level-table").input_value() == "28"
    page.get_by_test_id("lang-toggle").click()
    assert page.get_by_test_id("edit-open").inner_text() == "修改赛事设置"
    assert "级差分用28分制表" in page.get_by_test_id("event-scoretables").inner_text()
    page.get_by_test_id("lang-toggle").click()

    # another account sees no form
    other = browser.new_context(locale="en-US")
    try:
        server.sign_in_browser(other, "Pia")
        visitor = other.new_page()
        visitor.goto(f"{server.url}/events/{event_id}")
        visitor.wait_for_function("() => window.__event && window.__event.ready")
        assert visitor.get_by_test_id("event-title").inner_text() == "Spring cup 2026"
        assert visitor.get_by_test_id("event-edit").count() == 0
    finally:
        other.close()
    # started, the form is gone
    for number in (1, 2):
        director.api(
            "POST",
            f"/api/events/{event_id}/teams",
            {"name": f"Bots {number}", "players": [{"bot": "random"}, {"bot": "random"}]},
        )
    director.api("POST", f"/api/events/{event_id}/start", {})
    page.wait_for_function("() => window.__event.event.phase === 'running'")
    assert page.get_by_test_id("event-edit").count() == 0
    screenshot(page, "event-director-edit", full_page=True)
    errors.check()
