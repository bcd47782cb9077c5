"""In Debian's chromium, the page in Chinese: the server's refusals in the page's words (docs/server.md,
"Errors": ``error.<reason>``, not the English ``detail``), and a missing side's lateness counting on second
by second on the event page while the server's event clock stands still (issue 44); a question the
server refuses for coming too often, asked again once the wait is over."""

from __future__ import annotations

import re
import time
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from cardroom.server.live.settings import COSTLY_RATE
from tests.server.browser import MESSAGES_UNLIMITED, PageErrors, Server, legal_actions, run_server, situation
from tests.server.test_browser_event_director import CLOCKED_SERVER, set_clock

if TYPE_CHECKING:
    from playwright.sync_api import Browser, BrowserContext

pytestmark = pytest.mark.browser

CHINESE = "localStorage.setItem('cardroom:lang', 'zh')"
LIMITED_SERVER = CLOCKED_SERVER.replace(MESSAGES_UNLIMITED, "")
"""The clocked test server with the default limits on the pages' messages, ``legal`` and ``hint`` too."""
assert LIMITED_SERVER != CLOCKED_SERVER


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory, browser: Browser) -> Iterator[Server]:
    data: Path = tmp_path_factory.mktemp("cardroom-refusals")
    with run_server(data, LIMITED_SERVER) as running:
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
    shown = int(re.search(r"(\d+)秒", first).group(1))  # type: ignore[union-attr]
    event_page.wait_for_function(
        """([shown]) => {
            const text = document.querySelector('[data-testid="lateness-side"]').innerText;
            return Number(/(\\d+)秒/.exec(text)[1]) >= shown + 2;
        }""",
        arg=[shown],
        timeout=6000,
    )
    errors.check()
    event_errors.check()


def test_a_question_refused_for_coming_too_often_is_asked_again_after_the_wait(
    server: Server, context: BrowserContext
) -> None:
    """docs/protocol.md, "Limits": a connection's ``legal`` and ``hint`` count against its limit on costly
    questions; one refused ``rate_limited`` is asked again by the page after ``retry_after``, and its
    answer comes with no error for the player to see."""
    page = context.new_page()
    errors = PageErrors(page)
    page.goto(server.url + "/")
    page.get_by_test_id("player-name").fill("Quinn")  # a guest's name, not one of the accounts above
    page.get_by_test_id("quick-play").click()
    page.wait_for_url(re.compile(r"/tables/[^/]+$"))
    assert situation(page) == "play"
    for _ in range(COSTLY_RATE.burst + 30):
        assert legal_actions(page), "the player to act has legal actions"
        if page.evaluate("() => window.__cardroom.retries"):
            break
    assert page.evaluate("() => window.__cardroom.retries") >= 1, (
        f"{COSTLY_RATE.burst} questions at once, then {COSTLY_RATE.per_second:g} a second: one past them"
        " was refused and asked again"
    )
    assert page.evaluate("() => window.__cardroom.errors") == []
    errors.check()
