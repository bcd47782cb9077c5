"""In Debian's chromium: what a new director and its players read on the event page and the projector
(issue 44): seats named by the directions the printouts use (docs/tournaments.md, "Seats by direction"),
no stray "null", a player's "I am at my table" gone once recorded, the round's state, withdrawn teams
in the standings, the event name's limit, and the bot-team filler asked first and stoppable.
"""

from __future__ import annotations

import re
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from cardroom.server.tables.config import MAX_NAME
from tests.server.browser import PageErrors, Server, in_front, run_server
from tests.server.test_browser_event_director import CLOCKED_SERVER, set_clock

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Page

pytestmark = pytest.mark.browser

WEB = Path(__file__).parents[2] / "src" / "cardroom" / "server" / "web"


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory, browser: Browser) -> Iterator[Server]:
    data: Path = tmp_path_factory.mktemp("cardroom-event-page")
    with run_server(data, CLOCKED_SERVER) as running:
        yield running


def open_event(page: Page, server: Server, event_id: str) -> None:
    page.goto(f"{server.url}/events/{event_id}")
    page.wait_for_function("() => window.__event && window.__event.ready")


def printed_winds(server: Server, event_id: str) -> dict[str, str]:
    """Each player's direction (its Chinese name) on the printed pairing list of round 1."""
    with urllib.request.urlopen(
        f"{server.url}/events/{event_id}/print/pairings?round=1", timeout=10
    ) as answer:
        html = answer.read().decode()
    headers = [re.sub(r"<[^>]+>", "", cell).split()[0] for cell in re.findall(r"<th[^>]*>(.*?)</th>", html)]
    rows = re.findall(r"<tr>(.*?)</tr>", html, re.S)
    winds: dict[str, str] = {}
    for row in rows:
        cells = [re.sub(r"<[^>]+>", "", cell).strip() for cell in re.findall(r"<td[^>]*>(.*?)</td>", row)]
        for header, value in zip(headers, cells, strict=False):
            if header in "北西南东":
                winds[value] = header
    return winds


def test_seats_states_and_a_players_arrival_read_as_the_printouts(browser: Browser, server: Server) -> None:
    director = server.sign_in("Dana", director=True)
    names = [("Ann", "Bea"), ("Cal", "Dov")]
    people = {name: server.sign_in(name) for pair in names for name in pair}
    event_id = director.api("POST", "/api/events", {"name": "Seats", "rounds": 2, "system": "swiss"})[
        "event"
    ]["id"]
    for number, (first, second) in enumerate(names, 1):
        director.api(
            "POST",
            f"/api/events/{event_id}/teams",
            {"name": f"Team {number}", "players": [{"name": first}, {"name": second}]},
        )
    director.api("POST", f"/api/events/{event_id}/start", {})

    context = browser.new_context(locale="zh-CN", timezone_id="UTC")
    player_context = browser.new_context(locale="zh-CN", timezone_id="UTC")
    try:
        server.sign_in_browser(context, "Dana", director=True)
        server.sign_in_browser(player_context, "Ann")
        player = player_context.new_page()
        player_errors = PageErrors(player)
        open_event(player, server, event_id)
        player.wait_for_selector("#identity p")
        assert "null" not in player.locator("#identity").inner_text(), (
            "nothing printed as null before pairing"
        )

        page = context.new_page()
        errors = PageErrors(page)
        open_event(page, server, event_id)
        page.wait_for_function("() => window.__event.director")
        page.get_by_test_id("pair-round").click()
        page.wait_for_selector("[data-testid=start-round]")
        assert "null" not in page.locator("#round-controls").inner_text(), "a round without a start time"
        state = page.get_by_test_id("round-state")
        assert state.get_attribute("data-state") == "published"
        assert state.inner_text() == "已公布，未开始"

        # the page names each player's seat as the printed pairing list does
        printed = printed_winds(server, event_id)
        assert sorted(printed) == ["Ann", "Bea", "Cal", "Dov"]
        shown = {
            seat.locator("a, span:not(.wind)").first.inner_text(): seat.locator(".wind").inner_text()
            for seat in page.get_by_test_id("table-seat").all()
        }
        assert shown == printed
        assert sorted(printed.values()) == sorted("北西南东")
        arrive = {button.inner_text() for button in page.get_by_test_id("arrive-seat").all()}
        assert arrive == {f"{name}（{wind}）已入座" for name, wind in printed.items()}
        options = set(page.get_by_test_id("penalty-player").locator("option").all_text_contents())
        assert options == {f"{name} ({wind})" for name, wind in printed.items()}

        projector = context.new_page()
        projector_errors = PageErrors(projector)
        projector.goto(f"{server.url}/events/{event_id}/projector")
        projector.wait_for_function("() => window.__projector && window.__projector.event")
        headings = projector.locator("#pairings th").all_inner_texts()
        assert headings[1:3] == ["南北", "东西"], "the first team sits 南北, as printed"
        team = {t["id"]: t["name"] for t in director.api("GET", f"/api/events/{event_id}")["teams"]}
        table = director.api("GET", f"/api/events/{event_id}")["rounds"][0]["tables"][0]
        by_wind = {wind: name for name, wind in printed.items()}
        assert projector.get_by_test_id("projector-side").all_inner_texts() == [
            f"{team[table['teams'][0]]} (北 {by_wind['北']} · 南 {by_wind['南']})",
            f"{team[table['teams'][1]]} (东 {by_wind['东']} · 西 {by_wind['西']})",
        ]

        # the player says it is at its table: the button gives way to the time, on a 24-hour clock
        start = float(int(time.time()) // 86400 * 86400 + 14 * 3600 + 5 * 60)  # 14:05 UTC today
        set_clock(server, start, 0)
        player.reload()
        player.wait_for_function("() => window.__event && window.__event.ready")
        player.get_by_test_id("arrive").click()
        player.wait_for_selector("[data-testid=arrived]")
        assert player.get_by_test_id("arrive").count() == 0
        assert player.get_by_test_id("arrived").inner_text() == "你已于 14:05 入座"
        me = people["Ann"].api("POST", f"/api/events/{event_id}/whoami", {})["seat"]
        assert me["arrived"].startswith(time.strftime("%Y-%m-%dT14:05", time.gmtime(start)))
        assert me["started"] is None
        assert me["decided"] is False
        assert "null" not in player.locator("#identity").inner_text()

        # the round starts; the other side sits down 3:00 late: late while missing, not once seated
        people["Bea"].api("POST", f"/api/events/{event_id}/arrive", {})
        director.api("POST", f"/api/events/{event_id}/rounds/1/start", {})
        page.wait_for_function("() => window.__event.event.rounds[0].started_at")
        assert page.get_by_test_id("round-state").inner_text() == "进行中"
        set_clock(server, start, 3)
        director.api("GET", f"/api/events/{event_id}")
        projector.reload()
        projector.wait_for_function("() => window.__projector && window.__projector.event")
        assert projector.get_by_test_id("projector-result").inner_text() == "有一方迟到"
        for name in ("Cal", "Dov"):
            people[name].api("POST", f"/api/events/{event_id}/arrive", {})
        projector.wait_for_function(
            "() => document.querySelector('[data-testid=projector-result]').textContent !== '有一方迟到'"
        )

        # the table is decided by a forfeit: the other player has no "I am at my table" to press
        cal_context = browser.new_context(locale="zh-CN", timezone_id="UTC")
        try:
            teams = director.api("GET", f"/api/events/{event_id}")["teams"]
            cal_team = next(t["id"] for t in teams if any(p["name"] == "Cal" for p in t["players"]))
            other = next(t["id"] for t in teams if t["id"] != cal_team)
            server.sign_in_browser(cal_context, "Dov")
            dov = cal_context.new_page()
            dov_errors = PageErrors(dov)
            open_event(dov, server, event_id)
            dov.wait_for_selector("[data-testid=arrived]")
            director.api(
                "POST",
                f"/api/events/{event_id}/rounds/1/tables/1/forfeit",
                {"team": other, "note": "test"},
            )
            dov.reload()
            dov.wait_for_function("() => window.__event && window.__event.ready")
            dov.wait_for_selector("#identity p")
            assert dov.get_by_test_id("arrive").count() == 0
            assert "null" not in dov.locator("#identity").inner_text(), (
                "nothing printed as null once finished"
            )
            dov_errors.check()
        finally:
            cal_context.close()
        in_front(page)

        # a withdrawn team is marked in the standings, in either language
        director.api("POST", f"/api/events/{event_id}/teams/{other}/withdraw", {"reason": "病"})
        page.wait_for_function("() => (window.__event.event.withdrawals || []).length === 1")
        out = page.locator(f'[data-testid=standing-row][data-team="{other}"] [data-testid=team-out]')
        assert out.inner_text().strip() == "退赛"
        page.get_by_test_id("lang-toggle").click()
        out = page.locator(f'[data-testid=standing-row][data-team="{other}"] [data-testid=team-out]')
        assert out.inner_text().strip() == "withdrawn (退赛)"
        assert (
            page.locator(f'[data-testid=standing-row][data-team="{cal_team}"] [data-testid=team-out]').count()
            == 0
        )
        page.get_by_test_id("lang-toggle").click()
        errors.check()
        player_errors.check()
        projector_errors.check()
    finally:
        context.close()
        player_context.close()


def test_name_limit_and_the_bot_filler(browser: Browser, server: Server) -> None:
    assert f"export const NAME_MAX = {MAX_NAME};" in (WEB / "common.js").read_text()
    server.sign_in("Eve", director=True)
    context = browser.new_context(locale="en-US", timezone_id="UTC")
    try:
        server.sign_in_browser(context, "Eve", director=True)
        page = context.new_page()
        errors = PageErrors(page)
        page.goto(f"{server.url}/events")
        page.wait_for_function("() => window.__events && window.__events.ready")
        assert page.get_by_test_id("event-name").evaluate("(el) => el.maxLength") == MAX_NAME
        director = server.sign_in("Eve")
        event_id = director.api("POST", "/api/events", {"name": "Fill"})["event"]["id"]
        open_event(page, server, event_id)
        page.wait_for_function("() => window.__event.director")
        page.get_by_test_id("edit-open").click()
        assert page.get_by_test_id("edit-name").evaluate("(el) => el.maxLength") == MAX_NAME
        # a refused change is said once, in the form
        page.get_by_test_id("edit-name").fill("   ")
        errors.allow(400)
        page.get_by_test_id("edit-save").click()
        page.wait_for_selector("[data-testid=edit-error]:not([hidden])")
        assert not page.locator("#event-error").is_visible()

        # more than the filler makes: said before anything is added
        page.get_by_test_id("fill-to").fill("100")
        page.get_by_test_id("fill-bots").click()
        assert (
            page.get_by_test_id("fill-error").inner_text()
            == "Fill up to: a whole number of teams from 2 to 64"
        )
        assert page.get_by_test_id("fill-confirm").count() == 0
        # asked first, then filled
        page.get_by_test_id("fill-to").fill("3")
        page.get_by_test_id("fill-bots").click()
        assert not page.get_by_test_id("fill-error").is_visible()
        assert "Add 3" in page.get_by_test_id("fill-confirm-box").inner_text()
        assert len(director.api("GET", f"/api/events/{event_id}")["teams"]) == 0, (
            "nothing before the confirmation"
        )
        page.get_by_test_id("fill-confirm").click()
        page.wait_for_function(
            "() => window.__event.event.teams.length === 3 && !document.body.classList.contains('busy')"
        )
        # a long fill stops when the number changes
        page.get_by_test_id("fill-to").fill("40")
        page.get_by_test_id("fill-bots").click()
        page.get_by_test_id("fill-confirm").click()
        page.wait_for_function("() => window.__event.event.teams.length >= 4")
        page.get_by_test_id("fill-to").fill("5")
        page.wait_for_function("() => !document.body.classList.contains('busy')")
        count = len(director.api("GET", f"/api/events/{event_id}")["teams"])
        assert count < 40, "stopped"
        time.sleep(0.5)
        assert len(director.api("GET", f"/api/events/{event_id}")["teams"]) == count

        # deleting a team is asked first
        first = page.get_by_test_id("withdraw").first
        first.click()
        assert len(director.api("GET", f"/api/events/{event_id}")["teams"]) == count
        page.get_by_test_id("delete-team-confirm").click()
        page.wait_for_function(f"() => window.__event.event.teams.length === {count - 1}")
        errors.check()
    finally:
        context.close()
