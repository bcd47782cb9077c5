"""End to end, in Debian's chromium: the events, event, leaderboard and player pages and the lobby's
ratings snippet (docs/tournaments-api.md; the pages are src/cardroom/server/web/).

An event of eight teams (one registered by name through the form, seven bot teams filled by the page)
plays three Swiss rounds of one-deal matches, every round paired with the page's button; the standings
on the page must be the API's rows in the API's order, with every tie-break column and the criterion
that separated each row; then the leaderboard, a player's page, the lobby and the language switch. The
event is created by a director's account signed in in the browser (a guest is told to sign in first).
A second event seats people by their accounts: each signs in in their own browser, sees "Play" on the
event page, takes the seat and signs the sheet; the director's account runs the event with no token.

Screenshots (desktop and phone size) are written to tests/artifacts/ (git-ignored).
"""

from __future__ import annotations

import re
import urllib.parse
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

from tests.server.browser import (
    DESKTOP,
    PHONE,
    PageErrors,
    Server,
    run_server,
    screenshot,
)

if TYPE_CHECKING:
    from playwright.sync_api import Browser, BrowserContext, Page

CRITERIA = ["points", "progressive", "wins", "level_difference", "levels_gained", "lots"]
ROUND_TIMEOUT_MS = 120_000
"""A round of four bot tables with one-deal matches takes seconds; a slow shared machine gets room."""


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory, browser: Browser) -> Iterator[Server]:
    # Depends on `browser` so that a missing browser fails (or skips) before a server is started.
    data: Path = tmp_path_factory.mktemp("cardroom-events")
    with run_server(data) as running:
        yield running


def event_state(page: Page) -> dict[str, Any]:
    value = page.evaluate("() => window.__event && window.__event.event")
    assert isinstance(value, dict)
    return value


def wait_round_complete(page: Page, number: int) -> None:
    page.wait_for_function(
        """(n) => {
             const e = window.__event && window.__event.event;
             return e && e.rounds && e.rounds.length >= n && e.rounds[n - 1].complete;
           }""",
        arg=number,
        timeout=ROUND_TIMEOUT_MS,
    )
    page.wait_for_selector(f'[data-testid=round][data-round="{number}"][data-complete=true]')


def phone_shot(browser: Browser, url: str, name: str, ready: str) -> None:
    """Open ``url`` at phone size (English), wait for ``ready``, save a full-page screenshot."""
    ctx = browser.new_context(viewport=PHONE, locale="en-US", is_mobile=True, has_touch=True)
    page = ctx.new_page()
    errors = PageErrors(page)
    page.goto(url)
    page.wait_for_function(ready)
    screenshot(page, name, full_page=True)
    # Nothing wider than the phone's screen but the scrolling tables.
    width = page.evaluate("() => document.documentElement.scrollWidth")
    assert width <= PHONE["width"], f"{name}: the page is {width}px wide on a {PHONE['width']}px screen"
    errors.check()
    ctx.close()


def test_a_bot_event_through_the_pages(browser: Browser, server: Server, context: BrowserContext) -> None:
    page = context.new_page()
    errors = PageErrors(page)

    # --- a guest is told that creating an event takes a director's account ----------------------------
    page.goto(server.url + "/events")
    page.wait_for_function("() => window.__events && window.__events.ready")
    note = page.get_by_test_id("event-account")
    assert "sign in first" in note.inner_text()
    assert note.get_by_test_id("event-sign-in").get_attribute("href") == "/account?next=%2Fevents"
    assert page.get_by_test_id("event-submit").is_disabled()
    server.sign_in_browser(context, "Rex")
    page.reload()
    page.wait_for_function("() => window.__events && window.__events.ready")
    assert "Rex is not a director's" in page.get_by_test_id("event-account").inner_text()
    assert page.get_by_test_id("event-submit").is_disabled()
    assert page.get_by_test_id("header-account").inner_text() == "Rex"

    # --- create the event with the form, signed in as a director: 1-deal matches, Swiss, 3 rounds ------
    server.sign_in_browser(context, "Dora", director=True)
    page.reload()
    page.wait_for_function("() => window.__events && window.__events.ready")
    assert page.get_by_test_id("event-account").is_hidden()
    page.get_by_test_id("event-name").fill("Bot Cup")
    page.get_by_test_id("event-format").select_option("deals")
    page.get_by_test_id("event-deals").fill("1")
    page.get_by_test_id("event-system").select_option("swiss")
    page.get_by_test_id("event-rounds").fill("3")
    assert page.get_by_test_id("event-level-table").input_value() == "26", "the rules' table by default"
    page.get_by_test_id("event-level-table").select_option("28")
    page.locator("#more summary").click()
    page.get_by_test_id("event-bot-delay").fill("0")
    page.get_by_test_id("event-deal-pause").fill("0")
    screenshot(page, "events-create-desktop")
    page.get_by_test_id("event-submit").click()
    page.wait_for_url(re.compile(r"/events/[^/]+$"))
    event_id = page.url.rstrip("/").rsplit("/", 1)[1]
    page.wait_for_function("() => window.__event && window.__event.ready")
    assert page.evaluate(f"() => localStorage.getItem('cardroom:event:{event_id}')"), (
        "the director's token is kept (for scripts)"
    )
    page.get_by_test_id("director-note").wait_for()
    assert page.get_by_test_id("director-token").is_visible(), "a new event shows its director's token once"
    created = server.api("GET", f"/api/events/{event_id}")
    assert created["director"] == "dora"
    config = created["config"]
    assert config["format"]["deals"] == 1
    assert config["system"] == "swiss"
    assert config["rounds"] == 3
    assert config["bot_delay"] == 0
    assert config["level_table"] == 28, "the 级差分 counted in the 28-point table (competition.md#tie-breaks)"
    assert "28-point table for the level difference" in page.get_by_test_id("event-scoretables").inner_text()

    # --- register one team by name (two named bots), then fill the field to eight with bot teams -------
    page.get_by_test_id("reg-team").fill("Pandas")
    page.get_by_test_id("reg-kind-1").select_option("heuristic")
    page.get_by_test_id("reg-player-1").fill("Ada")
    page.get_by_test_id("reg-kind-2").select_option("heuristic")
    page.get_by_test_id("reg-player-2").fill("Bea")
    page.get_by_test_id("register-submit").click()
    page.wait_for_selector("[data-testid=team] >> text=Pandas")
    page.get_by_test_id("fill-to").fill("8")
    page.get_by_test_id("fill-bots").click()
    page.get_by_test_id("fill-confirm").click()  # asked first: "Add 7 … bot teams (up to 8)?"
    page.wait_for_function("() => document.querySelectorAll('[data-testid=team]').length === 8")
    teams = server.api("GET", f"/api/events/{event_id}")["teams"]
    assert len(teams) == 8
    assert [p["name"] for p in teams[0]["players"]] == ["Ada", "Bea"]
    names = [p["name"] for team in teams for p in team["players"]]
    assert len(set(names)) == 16, "every bot has its own name"
    marks = page.locator("[data-testid=team] [data-testid=bot-mark]")
    assert marks.count() == 16, "every bot's name is marked as a bot's"
    assert page.locator("[data-testid=team] [data-testid=player-link]").count() == 0, "no page for a bot"
    screenshot(page, "event-registration-desktop", full_page=True)

    # --- start, then pair and play three rounds with the page's button ----------------------------------
    page.get_by_test_id("start-event").click()
    page.wait_for_function("() => window.__event.event.phase === 'running'")
    page.wait_for_selector("[data-testid=standing-row]")
    assert page.locator("[data-testid=standing-row]").count() == 8
    for number in (1, 2, 3):
        button = page.get_by_test_id("pair-round")
        assert button.inner_text() == f"Pair round {number}"
        button.click()
        page.wait_for_selector(f'[data-testid=round][data-round="{number}"]')
        page.get_by_test_id("start-round").click()  # published, then started (bots are seated at once)
        page.wait_for_function(f"() => window.__event.event.rounds[{number - 1}].started_at")
        tables = page.locator(f'[data-testid=round][data-round="{number}"] [data-testid=round-table]')
        assert tables.count() == 4
        if number == 1:
            # Each table links into the card room.
            href = tables.first.get_by_test_id("watch-link").get_attribute("href")
            assert href is not None
            assert href.startswith("/tables/")
            # its seats show the event's names for its bots, not "Bot 1" (issue 44, names at an event's table)
            watcher = page.context.new_page()
            watcher.goto(f"{server.url}{href}")
            watcher.wait_for_function("() => window.__cardroom && window.__cardroom.state")
            shown = [watcher.get_by_test_id(f"seat-{seat}").inner_text() for seat in range(4)]
            table_names = [seat["name"] for seat in watcher.evaluate("() => window.__cardroom.state.seats")]
            assert set(table_names) <= set(names), table_names
            for name, text in zip(table_names, shown, strict=True):
                assert name in text, (name, text)
            watcher.close()
        wait_round_complete(page, number)
        if number < 3:
            page.wait_for_function("() => !document.querySelector('[data-testid=pair-round]').disabled")
    page.wait_for_function("() => window.__event.event.phase === 'finished'")

    # --- the standings: the API's rows, in its order, with every tie-break column -----------------------
    api_rows = server.api("GET", f"/api/events/{event_id}/standings")["standings"]
    assert [row["rank"] for row in api_rows] == list(range(1, 9))
    page.wait_for_function(
        "(teams) => JSON.stringify([...document.querySelectorAll('[data-testid=standing-row]')]"
        ".map(r => r.dataset.team)) === JSON.stringify(teams)",
        arg=[row["team"] for row in api_rows],
    )
    table = page.get_by_test_id("standings")
    heads = [text.strip() for text in table.locator("thead th").all_inner_texts()]
    for label in (
        "Points",
        "Progressive (cut 1)",
        "Rounds won",
        "Level diff. (28)",  # the event's table
        "Levels gained",
        "Lot",
        "Decided by",
    ):
        assert label in heads, (label, heads)
    dom_rows = page.locator("[data-testid=standing-row]")
    keys = {
        "points": "points",
        "progressive": "progressive",
        "wins": "wins",
        "level_difference": "level_difference",
        "levels_gained": "levels_gained",
        "lots": "lot",
    }
    for index, row in enumerate(api_rows):
        dom = dom_rows.nth(index)
        assert dom.get_attribute("data-rank") == str(row["rank"])
        for criterion, key in keys.items():
            cell = dom.locator(f'td[data-crit="{criterion}"]')
            assert cell.inner_text().strip() == str(row[key]), (row["team"], criterion)
        decided = dom.get_by_test_id("decided-by")
        assert (decided.get_attribute("data-above") or None) == row["above"]
        highlighted = dom.locator("td.decided")
        if row["above"] is None:
            assert highlighted.count() == 0
        else:
            assert highlighted.count() == 1
            assert highlighted.get_attribute("data-crit") == row["above"]
    assert api_rows[0]["points"] >= api_rows[-1]["points"]

    # --- a score sheet: the deal's line, the result, bot teams signed by themselves ---------------------
    first = page.locator('[data-testid=round][data-round="1"] [data-testid=round-table]').first
    first.get_by_test_id("sheet-toggle").click()
    sheet = first.get_by_test_id("sheet")
    sheet.get_by_test_id("sheet-line").first.wait_for()
    assert sheet.get_by_test_id("sheet-line").count() == 1
    assert "wins" in sheet.get_by_test_id("sheet-result").inner_text()
    assert sheet.get_by_test_id("signed-0").is_visible()
    assert sheet.get_by_test_id("signed-1").is_visible()

    # --- exports -------------------------------------------------------------------------------------------
    for testid, wanted in (("csv-results", "round"), ("csv-standings", "rank")):
        href = page.get_by_test_id(testid).get_attribute("href")
        assert href
        answer = page.request.get(server.url + href)
        assert answer.ok, (href, answer.status)
        assert answer.text().lstrip("\ufeff").startswith(wanted)
    print_href = page.get_by_test_id("print-link").get_attribute("href")
    assert print_href == f"/events/{event_id}/print"
    assert page.request.get(server.url + print_href).ok

    page.evaluate("() => window.scrollTo(0, 0)")
    screenshot(page, "event-standings-desktop")
    screenshot(page, "event-standings-desktop-full", full_page=True)

    # --- the language switch: labels change, the data stays --------------------------------------------
    page.get_by_test_id("lang-toggle").click()
    assert page.evaluate("() => document.documentElement.lang") == "zh-CN"
    heads_zh = table.locator("thead th").all_inner_texts()
    assert "总积分" in heads_zh
    assert "去首累进分" in heads_zh
    assert (
        page.get_by_test_id("pair-round").count() == 0
        or "编排" in page.get_by_test_id("pair-round").inner_text()
    )
    assert page.locator("[data-testid=standing-row]").count() == 8
    screenshot(page, "event-standings-zh-desktop", full_page=True)
    page.get_by_test_id("lang-toggle").click()
    assert "Points" in table.locator("thead th").all_inner_texts()
    errors.check()

    # --- the event list shows it ----------------------------------------------------------------------------
    page.goto(server.url + "/events")
    row = page.locator(f'[data-testid=event-row][data-event-id="{event_id}"]')
    row.wait_for()
    assert row.get_attribute("data-phase") == "finished"
    screenshot(page, "events-desktop")

    # --- bots are not rated: the leaderboard is empty after the bots' event ------------------------------
    page.goto(server.url + "/leaderboard")
    page.wait_for_function("() => window.__leaderboard && window.__leaderboard.ready")
    assert server.api("GET", "/api/leaderboard?limit=200")["players"] == []
    assert page.get_by_test_id("leaderboard-empty").is_visible()

    # --- the leaderboard: every rated player, the API's order, ratings and titles ----------------------
    seed_rated_match(server)  # four accounts' rated match, rated as the server would
    page.goto(server.url + "/leaderboard")
    page.wait_for_function("() => window.__leaderboard && window.__leaderboard.ready")
    board = server.api("GET", "/api/leaderboard?limit=200")["players"]
    assert {p["name"] for p in board} == {"Ada", "Bo", "Cy", "Di"}
    rows = page.locator("[data-testid=leaderboard-row]")
    assert rows.count() == len(board)
    assert [rows.nth(i).get_attribute("data-name") for i in range(len(board))] == [p["name"] for p in board]
    top = rows.first
    assert top.locator('td[data-col="rating"]').inner_text() == f"{board[0]['rating']:.2f}"
    assert top.get_by_test_id("title").get_attribute("data-title") == board[0]["title"]
    assert board[0]["title"] in top.get_by_test_id("title").inner_text()
    titles = {p["title"] for p in board}
    assert titles <= {"笨蛋", "坏蛋", "鸡蛋", "活珠", "毛蛋", "铁蛋", "银蛋", "金蛋", "掼蛋"}
    screenshot(page, "leaderboard-desktop")
    page.get_by_test_id("leaderboard-by").select_option("points")
    page.wait_for_function("() => window.__leaderboard.by === 'points' && window.__leaderboard.rows")
    by_points = server.api("GET", "/api/leaderboard?by=points&limit=200")["players"]
    page.wait_for_function(
        "(first) => document.querySelector('[data-testid=leaderboard-row]').dataset.name === first",
        arg=by_points[0]["name"],
    )
    page.get_by_test_id("lang-toggle").click()
    assert "等级分" in page.get_by_test_id("leaderboard-table").locator("thead").inner_text()
    page.get_by_test_id("lang-toggle").click()
    errors.check()

    # --- a player's page, opened from the leaderboard --------------------------------------------------
    page.goto(server.url + "/leaderboard")
    page.wait_for_function("() => window.__leaderboard && window.__leaderboard.ready")
    link = page.locator('[data-testid=leaderboard-row][data-name="Ada"] [data-testid=player-link]')
    link.click()
    page.wait_for_url(re.compile(r"/players/Ada$"))
    page.wait_for_function("() => window.__player && window.__player.ready")
    ada = server.api("GET", "/api/players/Ada")
    assert page.get_by_test_id("player-title").inner_text() == "Ada"
    assert page.get_by_test_id("stat-rating").inner_text().find(f"{ada['rating']:.2f}") >= 0
    assert ada["title"] in page.get_by_test_id("stat-title").inner_text()
    assert page.get_by_test_id("stat-points").inner_text().strip().endswith(str(ada["points"]))
    matches = page.get_by_test_id("recent-match")
    assert matches.count() == len(ada["recent"]) == 1
    assert "casual table" in matches.first.inner_text()
    assert matches.first.get_by_test_id("player-link").first.inner_text() == "Cy"  # the partner
    replay = matches.first.get_by_test_id("replay-link").get_attribute("href")
    assert replay == ada["recent"][0]["table"]
    record_href = matches.first.get_by_test_id("record-link").get_attribute("href")
    assert record_href is not None
    assert record_href == ada["recent"][0]["record"]
    assert page.request.get(server.url + record_href).ok
    screenshot(page, "player-desktop")
    page.get_by_test_id("lang-toggle").click()
    assert "等级分" in page.get_by_test_id("player-stats").inner_text()
    page.get_by_test_id("lang-toggle").click()
    missing = context.new_page()
    missing.goto(server.url + "/players/" + urllib.parse.quote("Nobody At All"))
    missing.wait_for_function("() => window.__player && window.__player.ready")
    assert "no rated match" in missing.get_by_test_id("player-error").inner_text()
    missing.close()
    errors.check()

    # --- the lobby's snippet ---------------------------------------------------------------------------
    page.goto(server.url + "/")
    page.get_by_test_id("lobby-leaderboard-table").wait_for()
    snippet = page.locator("[data-testid=lobby-leaderboard] [data-testid=leaderboard-row]")
    assert snippet.count() == 4
    assert snippet.first.get_attribute("data-name") == board[0]["name"]
    assert page.get_by_test_id("leaderboard-link").get_attribute("href") == "/leaderboard"
    screenshot(page, "lobby-ratings-desktop")
    errors.check()

    # --- phone size ------------------------------------------------------------------------------------
    for path, name, ready in (
        (f"/events/{event_id}", "event-standings-phone", "window.__event && window.__event.ready"),
        ("/events", "events-phone", "window.__events && window.__events.ready"),
        ("/leaderboard", "leaderboard-phone", "window.__leaderboard && window.__leaderboard.ready"),
        ("/players/Ada", "player-phone", "window.__player && window.__player.ready"),
        ("/", "lobby-ratings-phone", "!!document.querySelector('[data-testid=lobby-leaderboard-table]')"),
    ):
        phone_shot(browser, server.url + path, name, f"() => {ready}")


def seed_rated_match(server: Server) -> None:
    """A rated match of four accounts (Ada, Bo, Cy, Di; Ada is also a bot's name in the bots' event,
    which a bot took before any account had it), played in the test and stored in the server's
    database, then rated as the server rates a finished table. Created now: the running server's sweep
    deletes a table still waiting past its expiry, as one created long ago would be while its log is
    written."""
    from cardroom.server.accounts.ratings import Ratings
    from cardroom.server.storage.store import Store
    from tests.server.accounts.test_ratings import people_table, play_out

    for name in ("Ada", "Bo", "Cy", "Di"):
        server.sign_in(name)
    table = play_out(people_table(["ada", "bo", "cy", "di"], table_id="seeded"))
    store = Store(f"sqlite:///{server.data / 'cardroom.sqlite3'}")
    try:
        store.create_table(table.id, table.config.to_dict(), datetime.now(UTC))
        for number, entry in enumerate(table.log, start=1):
            store.append(table.id, number, entry)
        store.set_status(table.id, "finished")
        assert Ratings(store).rate(table)
    finally:
        store.close()


def test_people_play_signed_in(browser: Browser, server: Server, context: BrowserContext) -> None:
    """People's teams: the director's account registers them by their accounts' names and runs the
    event with no token; each player, signed in in their own browser, sees "Your table: Play", takes
    the seat (the token lands where the table page looks) and signs the sheet."""
    players: dict[str, tuple[BrowserContext, Page, PageErrors]] = {}
    for name in ("Cleo", "Dmitri"):
        ctx = browser.new_context(viewport=DESKTOP, locale="en-US")
        ctx.set_default_timeout(20_000)
        server.sign_in_browser(ctx, name)
        player_page = ctx.new_page()
        players[name] = (ctx, player_page, PageErrors(player_page))

    director = server.sign_in("Vera", director=True)
    created = director.api(
        "POST",
        "/api/events",
        {
            "name": "People Cup",
            "format": {"deals": 1},
            "rounds": 1,
            # Short clocks and no penalties: the people's seats go into 托管 at once and the bots finish.
            "conduct": {
                "timeout": None,
                "disconnection": None,
                "clocks": {"tribute_s": 1, "return_s": 1, "first_lead_s": 1, "play_s": 1, "countdown_s": 0},
            },
            "bot_delay": 0,
            "deal_pause": 0,
        },
    )
    event_id = created["event"]["id"]
    assert created["event"]["director"] == director.account["key"]

    # The director, signed in (no token in this browser), registers a people's team through the page.
    server.sign_in_browser(context, "Vera")
    page = context.new_page()
    errors = PageErrors(page)
    errors.allow(409)
    page.goto(f"{server.url}/events/{event_id}")
    page.wait_for_function("() => window.__event && window.__event.ready && window.__event.director")
    assert page.evaluate(f"() => localStorage.getItem('cardroom:event:{event_id}')") is None
    page.get_by_test_id("reg-team").fill("Humans")
    page.get_by_test_id("reg-player-1").fill("Cleo")
    page.get_by_test_id("reg-player-2").fill("Zed")
    page.get_by_test_id("register-submit").click()
    page.get_by_test_id("event-error").filter(has_text="there is no account Zed").wait_for()
    page.get_by_test_id("reg-player-2").fill("dmitri")
    page.get_by_test_id("register-submit").click()
    page.wait_for_selector("[data-testid=team] >> text=Humans")
    humans = server.api("GET", f"/api/events/{event_id}")["teams"][0]
    assert [player["name"] for player in humans["players"]] == ["Cleo", "Dmitri"], "the accounts' names"
    assert page.locator("[data-testid=copy-player-link]").count() == 0, "no player tokens any more"
    page.get_by_test_id("add-bot-team").click()
    page.wait_for_function("() => document.querySelectorAll('[data-testid=team]').length === 2")
    page.get_by_test_id("start-event").click()
    page.wait_for_function("() => window.__event.event.phase === 'running'")
    page.get_by_test_id("pair-round").click()
    page.wait_for_selector('[data-testid=round][data-round="1"] [data-testid=round-table]')
    page.get_by_test_id("start-round").click()
    page.wait_for_function("() => window.__event.event.rounds[0].started_at")
    # the director sees Dmitri seated (a referee's call); Cleo takes her seat herself
    page.locator("[data-testid=arrive-seat]", has_text="Dmitri").click()
    page.wait_for_function(
        "() => window.__event.event.rounds[0].tables[0].arrivals.filter(Boolean).length === 1"
    )
    assert page.locator("[data-testid=play-link]").count() == 0, "the director plays at no table"
    errors.check()

    # Cleo opens the event in her own browser: her table, "Play", her seat.
    _, cleo, cleo_errors = players["Cleo"]
    cleo.goto(f"{server.url}/events/{event_id}")
    cleo.wait_for_function("() => window.__event && window.__event.me && window.__event.me.seat")
    assert "You are Cleo" in cleo.get_by_test_id("identity").inner_text()
    me = cleo.evaluate("() => window.__event.me")
    table_id = me["seat"]["table_id"]
    assert cleo.locator("[data-testid=play-link]").count() == 1, "Play at her own table only"
    assert not cleo.evaluate("() => window.__event.director")
    screenshot(cleo, "event-player-desktop", full_page=True)
    cleo.get_by_test_id("my-table").click()
    cleo.wait_for_url(re.compile(rf"/tables/{table_id}$"))
    assert cleo.evaluate(f"() => localStorage.getItem('cardroom:{table_id}')"), "the seat's token is kept"
    cleo.wait_for_function("() => window.__cardroom && window.__cardroom.state !== null")
    assert cleo.get_by_test_id("table").get_attribute("data-seat") == str(me["seat"]["seat"])

    # The match finishes (托管 plays for the people); Cleo signs for her team on the sheet.
    cleo.goto(f"{server.url}/events/{event_id}")
    wait_round_complete(cleo, 1)
    cleo.locator("[data-testid=sheet-toggle]").first.click()
    sheet = cleo.get_by_test_id("sheet")
    paired = server.api("GET", f"/api/events/{event_id}")["rounds"][0]["tables"][0]
    humans_side = paired["teams"].index(me["team"])
    sign = sheet.get_by_test_id(f"sign-{humans_side}")
    sign.wait_for()
    assert sign.is_enabled()
    assert sheet.get_by_test_id(f"signed-{1 - humans_side}").is_visible(), "the bot team signed by itself"
    sign.click()
    sheet.get_by_test_id(f"signed-{humans_side}").wait_for()
    table = server.api("GET", f"/api/events/{event_id}")["rounds"][0]["tables"][0]
    assert table["signed"] == [True, True]
    assert table["final"] is True
    screenshot(cleo, "event-signed-desktop", full_page=True)
    cleo_errors.check()

    # Dmitri, the other player of the team, sees the finished table: no Play, the sheet signed.
    _, dmitri, dmitri_errors = players["Dmitri"]
    dmitri.goto(f"{server.url}/events/{event_id}")
    dmitri.wait_for_function("() => window.__event && window.__event.me")
    assert dmitri.evaluate("() => window.__event.me.player.name") == "Dmitri"
    assert dmitri.locator("[data-testid=play-link]").count() == 0
    assert dmitri.get_by_test_id("my-table").inner_text() == "Watch"
    dmitri_errors.check()
    for ctx, _, _ in players.values():
        ctx.close()

    # The director corrects the result on the sheet: the bot team forfeits; the signatures are cleared.
    page.reload()
    page.wait_for_function("() => window.__event && window.__event.ready && window.__event.director")
    page.locator("[data-testid=sheet-toggle]").first.click()
    sheet = page.get_by_test_id("sheet")
    sheet.locator(".forfeit summary").click()
    bots = paired["teams"][1 - humans_side]
    sheet.get_by_test_id("forfeit-team").select_option(bots)
    sheet.get_by_test_id("forfeit-reason").fill("记分有误")
    sheet.get_by_test_id("forfeit-submit").click()
    sheet.get_by_test_id("forfeit-confirm").click()  # a forfeit asks for confirmation
    page.wait_for_function(
        "() => { const t = window.__event.event.rounds[0].tables[0];"
        " return t.result && t.result.kind === 'forfeit'; }"
    )
    table = server.api("GET", f"/api/events/{event_id}")["rounds"][0]["tables"][0]
    assert table["result"]["forfeited_by"] == 1 - humans_side
    assert "forfeit by Bots 2" in page.get_by_test_id("table-result").inner_text()
    page.wait_for_function(
        "(team) => document.querySelector('[data-testid=standing-row]').dataset.team === team", arg=me["team"]
    )
    errors.check()
