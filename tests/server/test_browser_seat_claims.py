"""End to end, in Debian's chromium (issue 40, "Sessions and seats"): when an account takes its seat
again on another device ("Take my seat here"), the first device's page, left open, is cut off at once:
told so, its token forgotten, it goes on watching and offers the seat back (docs/protocol.md,
``seat_replaced``)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from tests.server.browser import PHONE, PageErrors, Server, run_server

if TYPE_CHECKING:
    from playwright.sync_api import Browser, BrowserContext


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory, browser: Browser) -> Iterator[Server]:
    data: Path = tmp_path_factory.mktemp("cardroom-seat-claims")
    with run_server(data) as running:
        yield running


def test_the_first_devices_page_is_cut_off_when_the_seat_is_taken_again(
    browser: Browser, server: Server, context: BrowserContext
) -> None:
    bots = [{"kind": "bot", "bot": "heuristic"}] * 3
    table_id = server.api("POST", "/api/tables", {"name": "Bea's", "seats": [{"kind": "human"}, *bots]})["id"]
    server.sign_in_browser(context, "Bea")
    laptop = context.new_page()
    laptop_errors = PageErrors(laptop)
    laptop.goto(f"{server.url}/tables/{table_id}")
    laptop.get_by_test_id("sit-0").click()
    laptop.wait_for_function("() => window.__cardroom.seat === 0")

    phone_ctx = browser.new_context(viewport=PHONE, locale="en-US", is_mobile=True, has_touch=True)
    phone_ctx.set_default_timeout(20_000)
    server.sign_in_browser(phone_ctx, "Bea")
    phone = phone_ctx.new_page()
    phone.goto(f"{server.url}/tables/{table_id}")
    phone.get_by_test_id("take-seat").click()
    phone.wait_for_function("() => window.__cardroom.seat === 0")
    phone_ctx.close()

    laptop.wait_for_function("() => window.__cardroom.seat === null")
    assert "taken again on another device" in laptop.locator("#error-banner").inner_text()
    assert laptop.evaluate(f"() => localStorage.getItem('cardroom:{table_id}')") is None
    laptop.get_by_test_id("seat-banner").wait_for()
    assert "Seat 1 at this table is yours (Bea)" in laptop.get_by_test_id("seat-banner").inner_text()
    laptop_errors.check()
