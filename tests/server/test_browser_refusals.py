"""In Debian's chromium, the page in Chinese: the server's refusals in the page's words (docs/server.md,
"Errors": ``error.<reason>``, not the English ``detail``), and a missing side's lateness counting on second
by second on the event page while the server's event clock stands still (issue 44)."""

from __future__ import annotations

import re
import time
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from tests.server.browser import PageErrors, Server, run_server
from tests.server.test_browser_event_director import CLOCKED_SERVER, set_clock

if TYPE_CHECKING:
    from playwright.sync_api import Browser, BrowserContext

pytestmark = pytest.mark.browser

CHINESE = "localStorage.setItem('cardroom:lang', 'zh')"


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory, browser: Browser) -> Iterator[Server]:
    data: Path = tmp_path_factory.mktemp("cardroom-refusals")
    with run_server(data, CLOCKED_SERVER) as running:
        yield running


def test_refusals_and_lateness_in_chinese(server: Server, context: BrowserContext) -> None:
    context.add_init_script(CHINESE)
    # --- an account refused: a common password, in the page's words --------------------------------
    page = context.new_page()
    errors = PageErrors(page)
    errors.allow(400)
    page.goto(f"{server.url}/account")
    page.get_by_test_id("register-name").fill("Lian")
    page.get_by_test_id("register-password").fill("password123")
    page.get_by_test_id("register-password2").fill("password123")
    page.get_by_test_id("register-submit").click()
    box = page.get_by_test_id("register-error")
    box.wait_for()
    assert "这是最常见的密码之一" in box.inner_text()
    assert "common passwords" not in box.inner_text(), "not the server's English detail"

    # --- a director's refused action: a penalty without its reason -------------------------------------
    director = server.sign_in("Rong", director=True)
    server.sign_in_browser(context, "Rong", director=True)
    for name in ("Ann", "Bob", "Cai", "Dai"):
        server.sign_in(name)
    event_id = director.api("POST", "/api/events", {"name": "译文杯", "rounds": 1, "system": "swiss"})[
        "event"
    ]["id"]
    for number, pair in enumerate((("Ann", "Bob"), ("Cai", "Dai")), 1):
        director.api(
            "POST",
            f"/api/events/{event_id}/teams",
            {"name": f"队{number}", "players": [{"name": pair[0]}, {"name": pair[1]}]},
        )
    director.api("POST", f"/api/events/{event_id}/start", {})
    director.api("POST", f"/api/events/{event_id}/rounds", {})
    start = float(int(time.time()))
    set_clock(server, start, 0)
    director.api("POST", f"/api/events/{event_id}/rounds/1/start", {})
    event_page = context.new_page()
    event_errors = PageErrors(event_page)
    event_errors.allow(400)
    event_page.goto(f"{server.url}/events/{event_id}")
    event_page.wait_for_function("() => window.__event && window.__event.ready && window.__event.director")
    tools = event_page.get_by_test_id("table-tools").first
    tools.get_by_test_id("penalty-open").click()
    tools.get_by_test_id("penalty-player").select_option(index=0)
    tools.get_by_test_id("penalty-kind").select_option("WARNING")
    tools.get_by_test_id("penalty-submit").click()
    refusal = event_page.locator("#event-error")
    refusal.wait_for()
    assert "请写明理由" in refusal.inner_text()
    assert "say why" not in refusal.inner_text(), "not the server's English detail"

    # --- nobody seated: each side's lateness counts on, though the event clock stands still -----------
    sides = event_page.get_by_test_id("lateness-side")
    sides.first.wait_for()
    assert sides.count() == 2
    first = sides.first.inner_text()
    assert re.search(r"已迟到 0分0\d秒，仍未入座", first), first
    event_page.wait_for_timeout(2200)
    later = sides.first.inner_text()
    seconds = [int(re.search(r"(\d+)秒", text).group(1)) for text in (first, later)]  # type: ignore[union-attr]
    assert seconds[1] - seconds[0] >= 2, (first, later)
    errors.check()
    event_errors.check()
