"""End to end, in Debian's chromium: the ladder page (/ladder, docs/ladder.md, "The ladder in the card
room") lists the entrants of a stored ladder, best first, with each one's generation or house mark,
rating, range, matches and faults, in English and in Chinese; and the live matches, each table a link
where a spectator watches it ("Reading it").

Screenshots are written to tests/artifacts/ (git-ignored).
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest
from websockets.sync.client import ClientConnection, connect

from cardroom.server.storage.store import DATABASE_FILE, LadderEntrantRow, LadderMatchRow, Store
from tests.server.browser import PageErrors, Server, run_server, screenshot
from tests.server.clients import until

if TYPE_CHECKING:
    from playwright.sync_api import Browser, BrowserContext

pytestmark = pytest.mark.browser

WHEN = datetime(2026, 12, 6, 10, tzinfo=UTC)
Live = tuple[Server, list[dict[str, Any]]]
"""A room with a live ladder match, and the seats its bot was told."""


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory, browser: Browser) -> Iterator[Server]:
    """A room whose store holds a ladder: two bots' entrants (one in its second generation) and one rated
    match they won with the house's random bot against the heuristic and search bots."""
    data: Path = tmp_path_factory.mktemp("cardroom-ladder")
    store = Store(f"sqlite:///{data / DATABASE_FILE}")
    try:
        for key, owner, name in (("bot:1#2", "ann", "Little Tao"), ("bot:2#1", "bob", "Deep Tao")):
            bot, _, generation = key.rpartition("#")
            store.save_ladder_entrant(
                LadderEntrantRow(key, bot, owner, int(generation), name, {"faults": 3}, WHEN, WHEN)
            )
        teams = {"team_a": ["bot:1#2", "bot:2#1"], "team_b": ["heuristic#1", "search#1"], "seed": 1}
        data_of = {**teams, "tables": [], "games": {}, "winner": 0, "margin": 2, "faults": {}}
        store.save_ladder_match(LadderMatchRow("m1", "rated", "2026-12-06", data_of, WHEN, WHEN))
    finally:
        store.close()
    with run_server(data) as running:
        yield running


@pytest.mark.parametrize(
    ("locale", "house", "generation"),
    [("en-US", "house bot", "generation 2"), ("zh-CN", "牌室机器人", "第 2 代")],
)
def test_the_ladder_page_lists_the_entrants_best_first(
    server: Server, context: BrowserContext, locale: str, house: str, generation: str
) -> None:
    page = context.new_page()
    errors = PageErrors(page)
    page.add_init_script(f"localStorage.setItem('cardroom:lang', '{locale[:2]}')")
    page.goto(server.url + "/ladder")
    page.wait_for_function("() => window.__ladder && window.__ladder.ready")
    rows = page.get_by_test_id("ladder-row")
    keys = [rows.nth(index).get_attribute("data-key") for index in range(rows.count())]
    assert set(keys) == {"bot:1#2", "bot:2#1", "random#1", "heuristic#1", "search#1", "distilled#1"}
    assert set(keys[:2]) == {"bot:1#2", "bot:2#1"}, "the winners rank first"
    first = page.locator('[data-testid="ladder-row"][data-key="bot:1#2"]')
    assert "Little Tao" in first.inner_text()
    assert generation in first.inner_text()
    assert first.locator('[data-col="faults"]').inner_text() == "3"
    assert first.locator('[data-col="matches"]').inner_text() == "1"
    assert house in page.locator('[data-testid="ladder-row"][data-key="random#1"]').inner_text()
    heading = "The bot ladder" if locale == "en-US" else "机器人天梯"
    assert page.locator("h2").first.inner_text() == heading
    screenshot(page, f"ladder-{locale}")
    errors.check()


@pytest.fixture(scope="module")
def live(tmp_path_factory: pytest.TempPathFactory, browser: Browser) -> Iterator[Live]:
    """A room where a bot said it is ready and was given its seats in a match with the house bots (it
    never sits down: its tables play on, its clock running out, while the test watches)."""
    with run_server(tmp_path_factory.mktemp("cardroom-ladder-live")) as running:
        token = running.sign_in("Ann").api("POST", "/api/account/bots", {"name": "Live Tao"})["token"]
        with connect(running.url.replace("http", "ws", 1) + "/ws/ladder", open_timeout=10) as ws:
            yield running, ready_and_seated(ws, token)


def ready_and_seated(ws: ClientConnection, token: str) -> list[dict[str, Any]]:
    """The bot signs in, says it is ready, and is told its seats: one at each of the match's tables."""
    ws.send(json.dumps({"type": "auth", "token": token}))
    until(ws, "authenticated")
    ws.send(json.dumps({"type": "ready"}))
    until(ws, "ready")
    return [until(ws, "seat", timeout=30) for _ in range(4)]


@pytest.mark.parametrize(
    ("locale", "heading", "against"),
    [("en-US", "Live matches", "against"), ("zh-CN", "正在进行的比赛", "对")],
)
def test_the_live_matches_link_to_their_tables_to_watch(
    live: Live, context: BrowserContext, locale: str, heading: str, against: str
) -> None:
    server, seats = live
    page = context.new_page()
    errors = PageErrors(page)
    page.add_init_script(f"localStorage.setItem('cardroom:lang', '{locale[:2]}')")
    page.goto(server.url + "/ladder")
    page.wait_for_function("() => window.__ladder && window.__ladder.ready")
    section = page.get_by_test_id("ladder-live")
    assert section.locator("h2").inner_text() == heading
    match = section.locator(f'[data-testid="ladder-live-match"][data-match="{seats[0]["match"]}"]')
    assert "Live Tao" in match.inner_text()
    assert f" {against} " in match.inner_text()
    links = match.get_by_test_id("ladder-live-table")
    assert links.count() == 4, "two deal pairs, two tables each"
    hrefs = {links.nth(index).get_attribute("href") for index in range(4)}
    assert hrefs == {f"/tables/{seat['table']}" for seat in seats}
    screenshot(page, f"ladder-live-{locale}")

    links.first.click()
    page.wait_for_url("**/tables/*")
    page.wait_for_function("() => window.__cardroom?.state?.seats.every(s => s.name)")
    assert page.get_by_test_id("spectator-banner").is_visible()
    assert page.evaluate("() => window.__cardroom.seat") is None
    names = " ".join(page.get_by_test_id(f"seat-{seat}").inner_text() for seat in range(4))
    assert "Live Tao" in names
    errors.check()


def test_no_live_match_says_so(server: Server, context: BrowserContext) -> None:
    page = context.new_page()
    page.goto(server.url + "/ladder")
    page.wait_for_function("() => window.__ladder && window.__ladder.ready")
    assert page.get_by_test_id("ladder-live-none").inner_text() == "No ladder match is being played now."
