"""End to end, in Debian's chromium: accounts in the pages (docs/accounts.md; the pages are
src/cardroom/server/web/account.html, account-page.js, account.js and the lobby's and table's parts).

Registering and signing in through /account (the passwords checked before sending, a wrong password
told, ``?next=`` followed only to this site), the header's "Sign in" / "NAME · Sign out" on every
page; a rated table created from the lobby and seated under the account's name, a guest refused there
with a link to sign in, the account's seat taken again on another device; and the CSRF header every
signed-in request that changes something must carry.

Screenshots are written to tests/artifacts/ (git-ignored).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

from tests.server.browser import DESKTOP, PHONE, PageErrors, Server, password_of, run_server, screenshot

if TYPE_CHECKING:
    from playwright.sync_api import Browser, BrowserContext, Page


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory, browser: Browser) -> Iterator[Server]:
    # Depends on `browser` so that a missing browser fails (or skips) before a server is started.
    data: Path = tmp_path_factory.mktemp("cardroom-accounts")
    with run_server(data) as running:
        yield running


def account_ready(page: Page) -> None:
    """Wait until the header's account bar shows who is signed in (or "Sign in")."""
    page.wait_for_function("() => document.querySelector('#account-bar')?.dataset.signedIn !== undefined")


def test_register_sign_out_and_sign_in_again(
    browser: Browser, server: Server, context: BrowserContext
) -> None:
    page = context.new_page()
    errors = PageErrors(page)
    errors.allow(401)  # the wrong password, on purpose
    sent: list[str] = []
    page.on("request", lambda request: sent.append(request.url) if "/api/accounts" in request.url else None)

    # A guest's header: "Sign in", coming back to this page.
    page.goto(server.url + "/")
    account_ready(page)
    sign_in = page.get_by_test_id("header-sign-in")
    assert sign_in.inner_text() == "Sign in"
    assert sign_in.get_attribute("href") == "/account?next=%2F"
    assert not page.get_by_test_id("player-name").evaluate("input => input.readOnly")
    sign_in.click()
    page.wait_for_url(re.compile(r"/account\?next=%2F$"))
    page.wait_for_function("() => window.__account && window.__account.ready")
    assert page.get_by_test_id("signin-panel").is_visible()
    assert page.get_by_test_id("register-panel").is_visible()
    screenshot(page, "account-desktop")

    # Register: the two passwords must match (checked before anything is sent), then the lobby.
    page.get_by_test_id("register-name").fill("Ann")
    page.get_by_test_id("register-password").fill("correct horse")
    page.get_by_test_id("register-password2").fill("correct horsy")
    page.get_by_test_id("register-submit").click()
    assert "The two passwords differ" in page.get_by_test_id("register-error").inner_text()
    page.get_by_test_id("register-password2").fill("correct horse")
    page.get_by_test_id("register-submit").click()
    page.wait_for_url(server.url + "/")
    assert len(sent) == 1, "the mismatch was caught in the page"
    account_ready(page)
    assert page.get_by_test_id("header-account").inner_text() == "Ann"
    assert page.get_by_test_id("header-sign-out").is_visible()
    name = page.get_by_test_id("player-name")
    page.wait_for_function("() => document.querySelector('#name').value === 'Ann'")
    assert name.evaluate("input => input.readOnly"), "signed in, the seat is the account's, under its name"
    assert "Ann" in page.get_by_test_id("name-note").inner_text()

    # The same name again is taken.
    other = browser.new_context(viewport=DESKTOP, locale="en-US")
    taken = other.new_page()
    taken_errors = PageErrors(taken)
    taken_errors.allow(409)
    taken.goto(server.url + "/account")
    taken.wait_for_function("() => window.__account && window.__account.ready")
    assert taken.get_by_test_id("account-bar").inner_text() == "", "the page is the sign-in form"
    taken.get_by_test_id("register-name").fill("ann")
    taken.get_by_test_id("register-password").fill("another password")
    taken.get_by_test_id("register-password2").fill("another password")
    taken.get_by_test_id("register-submit").click()
    taken.get_by_test_id("register-error").filter(has_text="is taken").wait_for()
    taken_errors.check()
    other.close()

    # Sign out from the header: a guest again, on every page.
    page.get_by_test_id("header-sign-out").click()
    page.get_by_test_id("header-sign-in").wait_for()
    assert page.evaluate("() => fetch('/api/account').then(r => r.json())") == {"account": None, "csrf": None}
    assert not name.evaluate("input => input.readOnly")
    page.goto(server.url + "/leaderboard")
    account_ready(page)
    assert page.get_by_test_id("header-sign-in").get_attribute("href") == "/account?next=%2Fleaderboard"

    # Sign in again, from the leaderboard: a wrong password is told, the right one comes back here.
    page.get_by_test_id("header-sign-in").click()
    page.wait_for_function("() => window.__account && window.__account.ready")
    page.get_by_test_id("signin-name").fill("Ann")
    page.get_by_test_id("signin-password").fill("wrong horse")
    page.get_by_test_id("signin-submit").click()
    page.get_by_test_id("signin-error").filter(has_text="Wrong name or password").wait_for()
    page.get_by_test_id("signin-password").fill("correct horse")
    page.get_by_test_id("signin-submit").click()
    page.wait_for_url(server.url + "/leaderboard")
    account_ready(page)
    assert page.get_by_test_id("header-account").inner_text() == "Ann"

    # Signed in, the account page says who; ?next= leads only to this site's own paths.
    for wanted, expected in (
        ("/events", "/events"),
        ("//evil.example/", "/"),
        ("/\\evil.example/", "/"),
        ("https://evil.example/", "/"),
    ):
        page.goto(server.url + "/account?next=" + wanted.replace("/", "%2F").replace("\\", "%5C"))
        page.wait_for_function("() => window.__account && window.__account.ready")
        assert page.get_by_test_id("signed-in-as").inner_text() == "Signed in as Ann (player)"
        assert page.get_by_test_id("continue").get_attribute("href") == expected, wanted
    page.get_by_test_id("lang-toggle").click()
    assert page.get_by_test_id("signed-in-as").inner_text() == "已登录：Ann（玩家）"
    assert page.get_by_test_id("header-sign-out").inner_text() == "退出登录"
    page.get_by_test_id("lang-toggle").click()
    screenshot(page, "account-signed-in-desktop")
    errors.check()

    # Phone size: nothing wider than the screen, signed out and signed in.
    phone_ctx = browser.new_context(viewport=PHONE, locale="en-US", is_mobile=True, has_touch=True)
    phone = phone_ctx.new_page()
    phone_errors = PageErrors(phone)
    for shot in ("account-phone", "account-signed-in-phone"):
        phone.goto(server.url + "/account")
        phone.wait_for_function("() => window.__account && window.__account.ready")
        screenshot(phone, shot, full_page=True)
        width = phone.evaluate("() => document.documentElement.scrollWidth")
        assert width <= PHONE["width"], f"{shot}: {width}px wide on a {PHONE['width']}px screen"
        server.sign_in_browser(phone_ctx, "Ann", "correct horse")
    phone_errors.check()
    phone_ctx.close()


def test_a_rated_table_seats_accounts_only(browser: Browser, server: Server, context: BrowserContext) -> None:
    server.sign_in_browser(context, "Bea")
    page = context.new_page()
    errors = PageErrors(page)

    # Bea creates a rated table in the lobby and sits: the seat is hers, under her account's name. A
    # rated table seats four people: once "Rated" is ticked, no seat can be a bot's.
    page.goto(server.url + "/")
    account_ready(page)
    page.get_by_test_id("table-name").fill("Rated one")
    assert page.get_by_test_id("seat-config-1").input_value() == "heuristic"
    page.get_by_test_id("rated").check()
    assert page.get_by_test_id("rated-guest").is_hidden(), "signed in, nothing to ask"
    for seat in range(4):
        assert page.get_by_test_id(f"seat-config-{seat}").input_value() == "human"
    assert page.locator("[data-testid=seat-config-1] option[value=heuristic]").is_disabled()
    page.get_by_test_id("create-submit").click()
    page.get_by_test_id("created").wait_for()
    table_id = (page.get_by_test_id("open-created").get_attribute("href") or "").rsplit("/", 1)[1]
    row = page.locator(f'[data-testid=table-row][data-table-id="{table_id}"]')
    row.get_by_test_id("table-rated").wait_for()
    assert row.get_by_test_id("table-rated").inner_text() == "rated"
    row.get_by_test_id(f"sit-{table_id}-0").click()
    page.wait_for_url(re.compile(rf"/tables/{table_id}$"))
    page.wait_for_function(
        "() => window.__cardroom && window.__cardroom.state && window.__cardroom.seat === 0"
    )
    assert page.get_by_test_id("wait-seat-0").inner_text().endswith("Bea")
    assert page.get_by_test_id("table-rated").inner_text() == "Rated", "the table page says it is rated"
    # The card counter (记牌器) starts off at a rated table, though this browser keeps it on elsewhere.
    page.evaluate("() => localStorage.setItem('cardroom:counter', '1')")
    page.reload()
    page.wait_for_function(
        "() => window.__cardroom && window.__cardroom.state && window.__cardroom.seat === 0"
    )
    page.wait_for_function("() => document.querySelector('[data-testid=counter-toggle]').textContent !== ''")
    assert page.get_by_test_id("counter-toggle").get_attribute("aria-pressed") == "false"
    assert page.evaluate("() => localStorage.getItem('cardroom:counter')") == "1", "kept for casual tables"
    summary: dict[str, Any] = server.api("GET", f"/api/tables/{table_id}")
    assert summary["rated"] is True
    assert summary["seats"][0]["name"] == "Bea"
    assert summary["seats"][0]["account"] == "bea"
    assert page.get_by_test_id("seat-banner").is_hidden()
    errors.check()

    # A guest is refused at the rated table, in the lobby and on the table page, with a link to sign in.
    guest_ctx = browser.new_context(viewport=DESKTOP, locale="en-US")
    guest_ctx.set_default_timeout(20_000)
    guest = guest_ctx.new_page()
    guest_errors = PageErrors(guest)
    guest_errors.allow(403)
    guest_errors.allow(409)
    guest.goto(server.url + "/")
    account_ready(guest)
    guest.get_by_test_id("player-name").fill("Gus")
    guest.get_by_test_id("rated").check()
    assert "Sign in to sit at a rated table" in guest.get_by_test_id("rated-guest").inner_text()
    guest.get_by_test_id(f"sit-{table_id}-1").click()
    error = guest.get_by_test_id("lobby-error")
    error.filter(has_text="signed-in accounts").wait_for()
    assert error.get_by_test_id("error-sign-in").get_attribute("href") == "/account?next=%2F"
    screenshot(guest, "lobby-rated-refused-desktop")
    guest.goto(f"{server.url}/tables/{table_id}")
    guest.get_by_test_id("sit-name").fill("Gus")
    guest.get_by_test_id("sit-1").click()
    refusal = guest.get_by_test_id("sit-error")
    refusal.filter(has_text="signed-in accounts").wait_for()
    link = refusal.get_by_test_id("error-sign-in")
    assert link.get_attribute("href") == f"/account?next=%2Ftables%2F{table_id}"
    assert guest.evaluate("() => window.__cardroom.seat") is None

    # A guest may not take an account's name at an unrated table either: the link to sign in as Bea.
    plain = server.api("POST", "/api/tables", {"name": "Plain", "seats": [{"kind": "human"}] * 4})
    assert plain["rated"] is False
    guest.goto(server.url + "/")
    guest.get_by_test_id("player-name").fill("Bea")
    guest.get_by_test_id(f"sit-{plain['id']}-0").click()
    error.filter(has_text="is the account Bea's, or looks like it").wait_for()
    assert error.get_by_test_id("error-sign-in").is_visible()
    guest_errors.check()
    guest_ctx.close()

    # Bea on another device: the seat is offered back ("Take my seat here"); the first device's token
    # stops working, so that page offers it in turn.
    phone_ctx = browser.new_context(viewport=PHONE, locale="en-US", is_mobile=True, has_touch=True)
    phone_ctx.set_default_timeout(20_000)
    server.sign_in_browser(phone_ctx, "Bea")
    phone = phone_ctx.new_page()
    phone_errors = PageErrors(phone)
    phone.goto(f"{server.url}/tables/{table_id}")
    banner = phone.get_by_test_id("seat-banner")
    banner.wait_for()
    assert "Seat 1 at this table is yours (Bea)" in banner.inner_text()
    assert phone.get_by_test_id("sit-1").count() == 0, "no second seat for the same account"
    screenshot(phone, "table-take-seat-phone")
    width = phone.evaluate("() => document.documentElement.scrollWidth")
    assert width <= PHONE["width"], f"the table page is {width}px wide on a {PHONE['width']}px screen"
    phone.get_by_test_id("take-seat").click()
    phone.wait_for_function("() => window.__cardroom.seat === 0")
    banner.wait_for(state="hidden")
    assert phone.evaluate(f"() => localStorage.getItem('cardroom:{table_id}')")
    phone_errors.check()
    phone_ctx.close()
    page.reload()
    page.get_by_test_id("seat-banner").wait_for()
    assert page.evaluate(f"() => localStorage.getItem('cardroom:{table_id}')") is None, (
        "the old token is gone"
    )
    errors.check()


def test_a_request_without_the_csrf_header_is_refused(server: Server, context: BrowserContext) -> None:
    """A signed-in page's own requests carry X-CSRF-Token; the same request without it (what another
    site's script or form could make the browser send, cookie and all) is refused with 403."""
    server.sign_in_browser(context, "Cyd")
    page = context.new_page()
    errors = PageErrors(page)
    errors.allow(403)
    page.goto(server.url + "/")
    account_ready(page)
    body = {"name": "Forged", "seats": [{"kind": "human"}] * 4}
    forged = page.evaluate(
        """async (body) => {
             const headers = {'Content-Type': 'application/json'};
             const r = await fetch('/api/tables', {method: 'POST', headers, body: JSON.stringify(body)});
             return [r.status, await r.json()];
           }""",
        body,
    )
    assert forged[0] == 403
    assert "X-CSRF-Token" in forged[1]["detail"]
    signed_out = page.evaluate("() => fetch('/api/session', {method: 'DELETE'}).then(r => r.status)")
    assert signed_out == 403, "not even signing out"
    assert page.evaluate("() => fetch('/api/account').then(r => r.json())")["account"]["name"] == "Cyd"
    # The page's own helper sends the header: the same table is created.
    created = page.evaluate(
        "async (body) => (await import('/static/common.js')).api('POST', '/api/tables', body)", body
    )
    assert created["name"] == "Forged"
    # A guest's request (no session cookie) needs no token.
    assert server.api("POST", "/api/tables", body)["name"] == "Forged"
    errors.check()


def test_the_account_page_changes_the_password_and_signs_out_the_other_devices(
    browser: Browser, server: Server, context: BrowserContext
) -> None:
    """A password change from /account: a wrong current password and a common new one are told; the
    change signs out the other device, whose table page loses its connection at once and says so.
    Then "Sign out my other devices" does the same to another browser."""
    server.sign_in_browser(context, "Cato")
    table = server.api("POST", "/api/tables", {"name": "Watched", "seats": [{"kind": "human"}] * 4})
    other_ctx = browser.new_context(viewport=DESKTOP, locale="en-US")
    other_ctx.set_default_timeout(20_000)
    server.sign_in_browser(other_ctx, "Cato")
    other = other_ctx.new_page()
    other.goto(f"{server.url}/tables/{table['id']}")
    other.wait_for_function("() => window.__cardroom && window.__cardroom.state")
    assert other.get_by_test_id("error-banner").is_hidden()

    page = context.new_page()
    errors = PageErrors(page)
    errors.allow(403)  # the wrong current password, on purpose
    errors.allow(400)  # the common password, on purpose
    page.goto(server.url + "/account")
    page.wait_for_function("() => window.__account && window.__account.ready")
    assert page.get_by_test_id("password-panel").is_visible()
    assert page.get_by_test_id("sessions-panel").is_visible()

    def change(current: str, new: str) -> None:
        page.get_by_test_id("current-password").fill(current)
        page.get_by_test_id("new-password").fill(new)
        page.get_by_test_id("new-password2").fill(new)
        page.get_by_test_id("password-submit").click()

    change("not the password", "a brand new secret")
    page.get_by_test_id("password-error").filter(has_text="The current password is wrong").wait_for()
    change(password_of("Cato"), "password1")
    page.get_by_test_id("password-error").filter(has_text="most common passwords").wait_for()
    change(password_of("Cato"), "a brand new secret")
    done = page.get_by_test_id("password-done")
    done.filter(has_text="Password changed; 1 other session(s) signed out.").wait_for()
    other.get_by_test_id("error-banner").filter(has_text="Signed out").wait_for()
    assert other.evaluate("() => window.__cardroom.connected") is False
    screenshot(page, "account-password-desktop")
    other_ctx.close()

    third_ctx = browser.new_context(viewport=DESKTOP, locale="en-US")
    third_ctx.set_default_timeout(20_000)
    server.sign_in_browser(third_ctx, "Cato", "a brand new secret")
    third = third_ctx.new_page()
    third.goto(f"{server.url}/tables/{table['id']}")
    third.wait_for_function("() => window.__cardroom && window.__cardroom.state")
    page.get_by_test_id("sign-out-others").click()
    page.get_by_test_id("sessions-done").filter(has_text="1 other session(s) signed out.").wait_for()
    third.get_by_test_id("error-banner").filter(has_text="Signed out").wait_for()
    errors.check()
    third_ctx.close()
