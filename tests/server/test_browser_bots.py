"""End to end, in Debian's chromium: the account page's "Bots" section (docs/ladder.md, "Bot accounts";
src/cardroom/server/web/account-bots.js): create a bot and see its token once, a refusal told, a new
token, revoke, delete; the bot's seat marked as a bot's at the table. In English and in Chinese.

Screenshots are written to tests/artifacts/ (git-ignored).
"""

from __future__ import annotations

import urllib.error
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from tests.server.browser import PageErrors, Server, call, run_server, screenshot

if TYPE_CHECKING:
    from playwright.sync_api import Browser, BrowserContext, Page


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory, browser: Browser) -> Iterator[Server]:
    data: Path = tmp_path_factory.mktemp("cardroom-bots")
    with run_server(data) as running:
        yield running


def whoami(server: Server, token: str) -> int:
    """The status of ``GET /api/account`` with the bot's token."""
    try:
        call(server.url + "/api/account", "GET", None, {"Authorization": f"Bearer {token}"})
    except urllib.error.HTTPError as error:
        return error.code
    return 200


def bots_ready(page: Page) -> None:
    page.wait_for_function("() => window.__account && window.__account.ready")
    page.get_by_test_id("bots-panel").wait_for()


def test_the_bots_section_creates_shows_the_token_once_rotates_revokes_and_deletes(
    server: Server, context: BrowserContext
) -> None:
    server.sign_in_browser(context, "Ann")
    page = context.new_page()
    errors = PageErrors(page)
    errors.allow(400)  # the bad link, on purpose
    page.on("dialog", lambda dialog: dialog.accept())
    page.goto(server.url + "/account")
    bots_ready(page)
    assert page.get_by_test_id("bots-none").inner_text() == "You have no bots yet."

    page.get_by_test_id("bot-name").fill("Deep Tao")
    page.get_by_test_id("bot-link").fill("ftp://example.org/tao")
    page.get_by_test_id("bot-submit").click()
    error = page.get_by_test_id("bots-error")
    error.wait_for()
    assert "The link must be an http:// or https:// address" in error.inner_text(), "the page's own words"

    page.get_by_test_id("bot-link").fill("https://example.org/tao")
    page.get_by_test_id("bot-description").fill("plays its bombs late")
    page.get_by_test_id("bot-submit").click()
    page.get_by_test_id("bot-token").wait_for()
    first = page.get_by_test_id("bot-token-value").inner_text()
    assert first.startswith("cardroom_bot_")
    assert "shown this once" in page.get_by_test_id("bot-token-note").inner_text()
    assert page.get_by_test_id("bot-token-copy").inner_text() == "Copy the token"
    assert whoami(server, first) == 200
    item = page.get_by_test_id("bot-item")
    assert item.get_by_test_id("bot-name").inner_text() == "Deep Tao"
    assert item.get_by_test_id("bot-status").inner_text() == "token of generation 1"
    assert item.get_by_test_id("bot-link").get_attribute("href") == "https://example.org/tao"
    assert item.get_by_test_id("bot-link").get_attribute("rel") == "noopener noreferrer nofollow"
    assert "bot" in item.locator(".badge.bot").inner_text()
    screenshot(page, "account-bots-token")

    page.get_by_test_id("bot-token-hide").click()
    assert page.get_by_test_id("bot-token").is_hidden()
    page.reload()
    bots_ready(page)
    page.get_by_test_id("bot-item").wait_for()
    assert first not in page.content(), "the token is shown once"

    page.get_by_test_id("bot-rotate").click()
    page.get_by_test_id("bot-token").wait_for()
    second = page.get_by_test_id("bot-token-value").inner_text()
    assert second != first
    assert "generation 2" in page.get_by_test_id("bot-token-note").inner_text()
    page.wait_for_function(
        "() => document.querySelector('[data-testid=bot-status]').textContent === 'token of generation 2'"
    )
    assert whoami(server, first) == 401
    assert whoami(server, second) == 200

    page.get_by_test_id("bot-version").click()
    page.wait_for_function(
        "() => document.querySelector('[data-testid=bot-status]').textContent === 'token of generation 3'"
    )
    assert whoami(server, second) == 200, "a new version keeps its token"

    page.get_by_test_id("bot-revoke").click()
    page.wait_for_function(
        "() => document.querySelector('[data-testid=bot-status]').textContent === 'no token (revoked)'"
    )
    assert page.get_by_test_id("bot-revoke").count() == 0
    assert whoami(server, second) == 401

    page.get_by_test_id("lang-toggle").click()
    page.wait_for_function(
        "() => document.querySelector('[data-testid=bot-status]').textContent === '没有令牌（已吊销）'"
    )
    assert page.get_by_test_id("bot-delete").inner_text() == "删除"
    assert page.locator("#bots-panel h2").inner_text() == "机器人"
    screenshot(page, "account-bots-zh")
    page.get_by_test_id("bot-delete").click()
    page.get_by_test_id("bots-none").wait_for()
    assert page.get_by_test_id("bots-none").inner_text() == "你还没有机器人。"
    assert whoami(server, second) == 401
    errors.check()


def test_a_bot_accounts_seat_is_marked_as_a_bot_at_the_table(server: Server, context: BrowserContext) -> None:
    bo = server.sign_in("Bo")
    token = bo.api("POST", "/api/account/bots", {"name": "Little Tao"})["token"]
    table = server.api("POST", "/api/tables", {"name": "Tao's table", "seats": [{"kind": "human"}] * 4})
    call(f"{server.url}/api/tables/{table['id']}/seats/1", "POST", {}, {"Authorization": f"Bearer {token}"})
    page = context.new_page()
    errors = PageErrors(page)
    page.goto(f"{server.url}/tables/{table['id']}")
    badge = page.get_by_test_id("bot-account-badge")
    badge.wait_for()
    assert badge.inner_text() == "bot"
    page.goto(server.url + "/")
    page.get_by_text("Little Tao · bot").first.wait_for()
    errors.check()


def test_a_bot_accounts_faults_are_shown_at_its_seat(server: Server, context: BrowserContext) -> None:
    """docs/ladder.md, "Clocks and faults": a silent bot's missed moves, counted beside its seat."""
    cy = server.sign_in("Cy")
    token = cy.api("POST", "/api/account/bots", {"name": "Silent Tao"})["token"]
    house = {"kind": "bot", "bot": "heuristic"}
    body = {
        "name": "Silent Tao's table",
        "max_deals": 1,
        "seats": [{"kind": "human"}, house, house, house],
        "clocks": {"bot": 0.3},
        "fault_limit": 100,
    }
    table = server.api("POST", "/api/tables", body)
    call(f"{server.url}/api/tables/{table['id']}/seats/0", "POST", {}, {"Authorization": f"Bearer {token}"})
    page = context.new_page()
    errors = PageErrors(page)
    page.goto(f"{server.url}/tables/{table['id']}")
    badge = page.get_by_test_id("faults-badge")
    badge.wait_for()
    assert badge.inner_text().startswith("faults: ")
    page.get_by_test_id("lang-toggle").click()
    page.wait_for_function(
        "() => document.querySelector('[data-testid=faults-badge]').textContent.startsWith('违规 ')"
    )
    errors.check()
