"""The table page through faults, in Debian's chromium (docs/server.md, "When the database goes away"
and "Several processes"): it says the table is paused while the database is away, in both languages,
and plays on when it is back; it reaches the table through another process when its own dies; and
its reconnecting rules (``reconnectPlan``, ``endpoints`` in web/common.js) as a unit."""

from __future__ import annotations

import json
import time
import urllib.request
from pathlib import Path
from typing import TYPE_CHECKING, Any

from tests.server import postgres
from tests.server.browser import WATCH_VIOLATIONS, legal_actions, select_cards, situation, state
from tests.server.serving import Server
from tests.server.test_faults import two_processes

if TYPE_CHECKING:
    from playwright.sync_api import Browser, BrowserContext, Page

postgres_cluster = postgres.postgres_cluster
postgres_url = postgres.postgres_url
own_postgres_cluster = postgres.own_postgres_cluster


def open_seat(context: BrowserContext, url: str, table_id: str, token: str) -> tuple[Page, list[str]]:
    """The table page at ``url``, seated with ``token`` (kept as the page keeps it); and the list its
    uncaught script errors go to."""
    context.add_init_script(f"localStorage.setItem({f'cardroom:{table_id}'!r}, {token!r})")
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(f"{url}/tables/{table_id}")
    page.wait_for_function("() => window.__cardroom && window.__cardroom.state !== null")
    return page, errors


def act_on_the_page(page: Page) -> int:
    """Wait for the player's turn, then pass if it may, else play its smallest legal play, through the
    page's buttons; the state's number it acted on."""
    assert situation(page) == "play"
    now = state(page)
    if now["can_pass"]:
        page.get_by_test_id("pass-button").click()
        return int(now["number"])
    plays = [action for action in legal_actions(page) if action["type"] == "play"]
    select_cards(page, min(plays, key=lambda action: len(action["cards"]))["cards"])
    page.wait_for_function("() => window.__cardroom.check && window.__cardroom.check.ok === true")
    page.get_by_test_id("play-button").click()
    if page.get_by_test_id("readings").is_visible():
        page.get_by_test_id("reading-option").first.click()
    return int(now["number"])


def label(page: Page, key: str) -> str:
    """The page's text for ``key`` in its language now (web/i18n.js)."""
    text = page.evaluate(f"() => import('/static/i18n.js').then((i18n) => i18n.t({json.dumps(key)}))")
    assert isinstance(text, str)
    assert text != key, f"web/i18n.js has no {key!r} in this language"
    return text


def test_the_page_says_the_table_is_paused_while_the_database_is_away(
    browser: Browser, context: BrowserContext, own_postgres_cluster: postgres.PostgresCluster, tmp_path: Path
) -> None:
    cluster = own_postgres_cluster
    server = Server(tmp_path, "--database-url", cluster.create_database("room"))
    try:
        quick = server.api("POST", "/api/quick", {"name": "Ann"})
        page, errors = open_seat(context, server.url, quick["id"], quick["token"])
        banner = page.get_by_test_id("error-banner")
        assert situation(page) == "play"
        legal_actions(page)  # asked while the database answers: a question, not stored

        cluster.stop_server()
        number = act_on_the_page(page)
        page.wait_for_function("() => window.__cardroom.halted !== null")
        assert banner.is_visible()
        english = label(page, "banner.halted")
        assert banner.inner_text() == english
        page.get_by_test_id("lang-toggle").click()
        chinese = label(page, "banner.halted")
        assert chinese != english
        assert "暂停" in chinese
        assert banner.inner_text() == chinese, "the banner follows the language"
        assert state(page)["number"] == number, "the move that was not stored was not shown"

        cluster.start_server()
        page.wait_for_function("() => window.__cardroom.halted === null", timeout=30_000)
        assert banner.is_hidden()
        assert state(page)["number"] == number, "the table as stored"
        act_on_the_page(page)
        page.wait_for_function(f"() => window.__cardroom.state.number > {number}")
        assert not errors, errors
    finally:
        server.stop()


def test_the_page_reaches_its_table_through_another_process_when_its_own_dies(
    browser: Browser, context: BrowserContext, postgres_url: str, tmp_path: Path
) -> None:
    """The page is served by ``a``; the table lives at ``b``; ``a`` is killed: the page, which learnt
    the live processes' public URLs from ``a`` (GET /api/nodes), reconnects to ``b`` and plays on.
    ``a``'s Content-Security-Policy lets it (``connect-src`` names ``b``): no violation is reported."""
    with two_processes(postgres_url, tmp_path, lease=2, public=True) as (a, b):
        deadline = time.monotonic() + 20
        while b.url not in a.api("GET", "/api/nodes")["nodes"]:
            assert time.monotonic() < deadline, "a never listed b"
            time.sleep(0.1)
        with urllib.request.urlopen(a.url + "/", timeout=10) as answer:
            policy = answer.headers["Content-Security-Policy"]
        connect = dict(part.strip().split(" ", 1) for part in policy.split(";"))["connect-src"].split()
        socket_b = b.url.replace("http://", "ws://")
        assert {b.url, socket_b} <= set(connect), policy
        context.add_init_script(WATCH_VIOLATIONS)
        quick = b.api("POST", "/api/quick", {"name": "Ann"})
        page, errors = open_seat(context, a.url, quick["id"], quick["token"])
        page.wait_for_function(f"() => window.__cardroom.nodes.includes({json.dumps(b.url)})", timeout=20_000)
        assert page.evaluate("() => window.__cardroom.origin") == a.url
        number = act_on_the_page(page)
        page.wait_for_function(f"() => window.__cardroom.state.number > {number}")

        a.kill()
        page.wait_for_function(
            f"() => window.__cardroom.connected && window.__cardroom.origin === {json.dumps(b.url)}",
            timeout=30_000,
        )
        assert page.evaluate("() => window.__cardroom.seat") == 0, "back in its seat, by its token"
        number = act_on_the_page(page)
        page.wait_for_function(f"() => window.__cardroom.state.number > {number}")
        assert not errors, errors
        assert page.evaluate("() => window.__violations") == [], "the policy let the page fail over"


PLANS = """async () => {
  const { CLOSE, endpoints, reconnectPlan } = await import('/static/common.js');
  return {
    moved: reconnectPlan({ code: CLOSE.reconnect, opened: true }, 0, 2, 1, 1),
    later: reconnectPlan({ code: CLOSE.tryAgain, opened: true, retryAfter: 2 }, 0, 2, 0, 0),
    laterNoHint: reconnectPlan({ code: CLOSE.tryAgain, opened: true }, 0, 2, 0, 0),
    refused: reconnectPlan({ code: 1006, opened: false }, 0, 3, 2, 0),
    refusedAgain: reconnectPlan({ code: 1006, opened: false }, 3, 3, 0, 0),
    broken: reconnectPlan({ code: 1006, opened: true }, 0, 3, 1, 0),
    alone: reconnectPlan({ code: 1006, opened: false }, 0, 1, 0, 0),
    gone: reconnectPlan({ code: CLOSE.unknown, opened: true }, 0, 2, 0, 0),
    signedOut: reconnectPlan({ code: CLOSE.signedOut, opened: true }, 0, 2, 0, 0),
    expired: reconnectPlan({ code: CLOSE.expired, opened: true }, 0, 2, 0, 0),
    replaced: reconnectPlan({ code: CLOSE.seatReplaced, opened: true }, 0, 2, 1, 0),
    limited: reconnectPlan({ code: CLOSE.limited, opened: true }, 2, 2, 0, 0),
    plain: endpoints('http://a:1', ['http://b:2/', 'http://a:1', 'https://c', 'ftp://d', 'http://e/x']),
    secure: endpoints('https://a', ['http://b:2', 'https://c:3']),
  };
}"""


def test_the_pages_reconnecting_rules(browser: Browser, context: BrowserContext, tmp_path: Path) -> None:
    server = Server(tmp_path)
    try:
        page = context.new_page()
        page.goto(server.url + "/")
        plans: dict[str, Any] = page.evaluate(PLANS)
    finally:
        server.stop()
    assert plans["moved"]["index"] == 1, "1012: the same process again, which forwards to the new owner"
    assert plans["moved"]["delay"] <= 500, "at once"
    assert plans["later"] == {"delay": 2000, "index": 0}, "1013: after the retry_after sent before it"
    assert plans["laterNoHint"]["delay"] == 1000
    assert plans["refused"]["index"] == 0, "a socket that never opened: the next process, round"
    assert plans["refusedAgain"]["index"] == 1
    assert plans["refusedAgain"]["delay"] > plans["refused"]["delay"], "slower after a round of failures"
    assert plans["broken"]["index"] == 1, "a socket that had opened: its own process first"
    assert plans["alone"]["index"] == 0
    assert plans["gone"] is None, "4404: no such table, no reconnecting"
    assert plans["signedOut"] is None, "4401: this browser was signed out, no reconnecting"
    assert plans["expired"] is None, "4410: the table expired, no reconnecting"
    assert plans["replaced"] == {"delay": 300, "index": 1}, "4409: the same process again, to watch"
    assert plans["limited"] == {"delay": 600, "index": 0}, "4429: after a growing pause"
    assert plans["plain"] == ["http://a:1", "http://b:2", "https://c"]
    assert plans["secure"] == ["https://a", "https://c:3"], "an https page cannot open ws://"
