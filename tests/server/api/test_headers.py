"""The headers of every answer (issue 40, "Headers"; docs/server.md, "Headers and a reverse proxy"),
through a real server: every route the app has (each filled with a real table, event and player), every
static file, an unknown path and refusals carry the Content-Security-Policy (no inline script or style,
``frame-ancestors 'none'``), ``X-Content-Type-Options: nosniff`` and a Referrer-Policy; the account's
answers and every answer to a request that changes something are ``Cache-Control: no-store``.

In Debian's chromium every page (lobby, both games' tables, events, an event, its printout, account,
leaderboard, a player, the bot ladder, a ladder bot) loads under that policy with no violation reported and
still works: its scripts run, its styles apply, the table's websocket connects. A control proves a
violation would be seen.
"""

from __future__ import annotations

import json
import re
import urllib.error
import urllib.request
from collections.abc import Iterator
from email.message import Message
from pathlib import Path
from typing import TYPE_CHECKING

import pytest
from fastapi.routing import APIRoute
from fastapi.testclient import TestClient

from cardroom.server.api.app import WEB, create_app
from cardroom.server.api.headers import CONTENT_SECURITY_POLICY, content_security_policy
from cardroom.server.storage.store import Store
from tests.server import browser as browsing
from tests.server.serving import Server

if TYPE_CHECKING:
    from playwright.sync_api import Browser, BrowserContext, Page

BOTS = [{"kind": "bot", "bot": "random"}] * 4


def answer(
    url: str, method: str = "GET", headers: dict[str, str] | None = None
) -> tuple[int, Message, bytes]:
    body = b"{}" if method not in ("GET", "HEAD") else None
    sent = urllib.request.Request(url, data=body, method=method)
    sent.add_header("Content-Type", "application/json")
    for name, value in (headers or {}).items():
        sent.add_header(name, value)
    try:
        with urllib.request.urlopen(sent, timeout=15) as response:
            return response.status, response.headers, response.read()
    except urllib.error.HTTPError as error:
        return error.code, error.headers, error.read()


def assert_headers(where: str, headers: Message, *, no_store: bool) -> None:
    policy = headers.get("Content-Security-Policy")
    assert policy == CONTENT_SECURITY_POLICY, where
    directives = dict(part.strip().split(" ", 1) for part in policy.split(";"))
    assert directives["frame-ancestors"] == "'none'", where
    assert directives["script-src"] == "'self'", where
    assert "unsafe" not in policy, where
    assert headers.get("X-Content-Type-Options") == "nosniff", where
    assert headers.get("Referrer-Policy") == "same-origin", where
    assert headers.get("X-Frame-Options") == "DENY", where
    assert (headers.get("Cache-Control") == "no-store") is no_store, (where, headers.get("Cache-Control"))


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    running = Server(tmp_path_factory.mktemp("headers"))
    try:
        yield running
    finally:
        running.stop()


def signed_in_director(server: Server, name: str) -> dict[str, str]:
    """An account opened over HTTP and given the director role in the database: its request headers."""
    credentials = json.dumps({"name": name, "password": f"the secret of {name}"}).encode()
    sent = urllib.request.Request(server.url + "/api/accounts", data=credentials, method="POST")
    sent.add_header("Content-Type", "application/json")
    with urllib.request.urlopen(sent, timeout=10) as response:
        cookie = response.headers["Set-Cookie"].split(";", 1)[0]
        csrf = json.loads(response.read())["csrf"]
    store = Store(f"sqlite:///{server.log.parent / 'cardroom.sqlite3'}")
    try:
        assert store.update_account(name.casefold(), role="director")
    finally:
        store.close()
    return {"Cookie": cookie, "X-CSRF-Token": csrf}


@pytest.mark.server_process
def test_every_answer_carries_the_headers(server: Server) -> None:
    shengji = server.api(
        "POST", "/api/tables", {"name": "Sj", "game": "shengji", "max_deals": 1, "seats": BOTS}
    )
    guandan = server.api("POST", "/api/tables", {"name": "Gd", "max_deals": 1, "seats": BOTS})
    director = signed_in_director(server, "Dee")
    sent = urllib.request.Request(
        server.url + "/api/events", data=json.dumps({"name": "Club"}).encode(), method="POST"
    )
    sent.add_header("Content-Type", "application/json")
    for name, value in director.items():
        sent.add_header(name, value)
    with urllib.request.urlopen(sent, timeout=10) as response:
        event = json.loads(response.read())["event"]
    values = {
        "table_id": shengji["id"],
        "deal_number": "1",
        "event_id": event["id"],
        "round_number": "1",
        "table": "1",
        "team_id": "T1",
        "seat": "0",
        "name": "Dee",
        "what": "sheets",
        "number": "1",
        "bot_id": "nobot",
        "bot": "heuristic",
    }
    asked: list[tuple[str, str]] = []
    for route in create_app().routes:
        if not isinstance(route, APIRoute):
            continue
        path = re.sub(r"\{(\w+)\}", lambda match: values[match.group(1)], route.path)
        for method in sorted(route.methods or ()):
            for headers in ({}, director):
                status, got, _ = answer(server.url + path, method, headers)
                where = f"{method} {path} ({status})"
                assert status < 500, where
                account = path.startswith(("/api/account", "/api/session"))
                assert_headers(where, got, no_store=account or method != "GET")
                asked.append((method, route.path))
    assert ("GET", "/api/tables/{table_id}/deals/{deal_number}/replay") in asked
    assert ("GET", "/events/{event_id}/print") in asked
    for path in (f"/tables/{guandan['id']}", "/no/such/page", "/api/tables/nosuchtable", "/openapi.json"):
        status, got, _ = answer(server.url + path)
        assert_headers(f"GET {path} ({status})", got, no_store=False)
    assert answer(server.url + "/docs")[0] == 404, "FastAPI's API page runs inline script: it is off"
    types = {".js": "text/javascript", ".css": "text/css", ".html": "text/html", ".svg": "image/svg+xml"}
    for file in sorted(WEB.iterdir()):
        status, got, _ = answer(f"{server.url}/static/{file.name}")
        assert status == 200, file.name
        assert_headers(f"/static/{file.name}", got, no_store=False)
        assert got.get_content_type() == types[file.suffix], file.name


@pytest.mark.server_process
def test_the_account_answers_are_not_stored(server: Server) -> None:
    for method, path in (("GET", "/api/account"), ("POST", "/api/accounts"), ("POST", "/api/session")):
        status, got, _ = answer(server.url + path, method)
        assert_headers(f"{method} {path} ({status})", got, no_store=True)
    status, got, body = answer(server.url + "/api/quick", "POST")
    assert status == 400, body
    assert got.get("Cache-Control") == "no-store"


def test_no_page_holds_inline_script_or_style() -> None:
    """The pages' files themselves: scripts and styles come from /static only."""
    for page in sorted(WEB.glob("*.html")):
        text = page.read_text(encoding="utf-8")
        assert not re.search(r"<script(?![^>]*\bsrc=)", text), page.name
        assert not re.search(r"<style|\sstyle=|\son[a-z]+=", text), page.name


def test_a_failure_of_the_server_answers_500_with_the_headers(tmp_path: Path) -> None:
    """An unhandled failure is answered by Starlette's error middleware, outside every other one: its
    plain 500 carries the headers too (it had none)."""
    app = create_app(None, tmp_path)

    async def boom() -> None:
        raise RuntimeError("a bug")

    app.add_api_route("/api/boom", boom, methods=["GET", "POST"])
    client = TestClient(app, raise_server_exceptions=False)
    for method in ("GET", "POST"):
        response = client.request(method, "/api/boom")
        assert response.status_code == 500, response.text
        assert response.text == "Internal Server Error", "nothing of the failure is told"
        message = Message()
        for name, value in response.headers.items():
            message[name] = value
        assert_headers(f"{method} /api/boom (500)", message, no_store=method == "POST")


def test_the_policy_lets_pages_connect_to_the_live_processes_and_nothing_else() -> None:
    """With ``--public-url`` (docs/server.md, "Several processes"), the table page fails over to the
    other live processes: ``connect-src`` names each one's origin for ``fetch`` and its websocket, and
    leaves out whatever is not a plain origin (no directive can be slipped in)."""
    policy = content_security_policy(
        [
            "http://127.0.0.1:8001",
            "https://b.example/",
            "http://127.0.0.1:8001",
            "http://x.example; script-src *",
            "javascript:alert(1)",
            "https://c.example/path",
        ]
    )
    directives = dict(part.strip().split(" ", 1) for part in policy.split(";"))
    assert directives["connect-src"].split() == [
        "'self'",
        "http://127.0.0.1:8001",
        "ws://127.0.0.1:8001",
        "https://b.example",
        "wss://b.example",
    ]
    assert directives["script-src"] == "'self'"
    assert {name: value for name, value in directives.items() if name != "connect-src"} == {
        name: value
        for name, value in (part.strip().split(" ", 1) for part in CONTENT_SECURITY_POLICY.split(";"))
        if name != "connect-src"
    }


# -- in chromium --------------------------------------------------------------------------------------------

WATCH_VIOLATIONS = browsing.WATCH_VIOLATIONS


@pytest.fixture(scope="module")
def room(tmp_path_factory: pytest.TempPathFactory, browser: Browser) -> Iterator[browsing.Server]:
    with browsing.run_server(tmp_path_factory.mktemp("headers-browser")) as running:
        yield running


def visit(context: BrowserContext, url: str, *, settle: bool = True) -> tuple[Page, list[str]]:
    """Open ``url``; the page and the console's messages about the Content-Security-Policy. The page has
    settled (no request for half a second) unless ``settle`` is false: then its caller waits for that."""
    page = context.new_page()
    console: list[str] = []
    page.on(
        "console",
        lambda message: console.append(message.text) if "Content Security Policy" in message.text else None,
    )
    page.goto(url)
    if settle:
        page.wait_for_load_state("networkidle")
    return page, console


def assert_no_violation(page: Page, console: list[str]) -> None:
    violations = page.evaluate("() => window.__violations")
    assert violations == [], (page.url, violations)
    assert console == [], (page.url, console)


def test_every_page_loads_under_the_policy_and_works(room: browsing.Server, context: BrowserContext) -> None:
    context.add_init_script(WATCH_VIOLATIONS)
    director = room.sign_in("Dee", director=True)
    event = director.api("POST", "/api/events", {"name": "Club night"})["event"]
    guandan = room.api("POST", "/api/tables", {"name": "Gd", "seats": BOTS, "max_deals": 1})
    shengji = room.api(
        "POST", "/api/tables", {"name": "Sj", "game": "shengji", "seats": BOTS, "max_deals": 1}
    )
    room.sign_in_browser(context, "Ann")
    scripted = {
        "/": "[data-testid=quick-play]",
        "/events": "[data-testid=lang-toggle]",
        f"/events/{event['id']}": "[data-testid=event-title]",
        "/account": "[data-testid=signed-in]",
        "/leaderboard": "[data-testid=lang-toggle]",
        "/players/Ann": "[data-testid=lang-toggle]",
        "/ladder": "[data-testid=lang-toggle]",
        "/ladder/bots/heuristic": "[data-testid=lang-toggle]",
        f"/tables/{guandan['id']}": "[data-testid=lang-toggle]",
        f"/tables/{shengji['id']}": "[data-testid=lang-toggle]",
    }
    # every page opened first, so that their half seconds of settling overlap
    visited = {path: visit(context, room.url + path, settle=False) for path in scripted}
    for path, ready in scripted.items():
        page, console = visited[path]
        browsing.in_front(page).wait_for_load_state("networkidle")
        errors = browsing.PageErrors(page)
        page.wait_for_selector(ready)
        assert page.evaluate("() => document.documentElement.lang") == "en", f"{path}: the scripts ran"
        page.get_by_test_id("lang-toggle").click()
        page.wait_for_function("() => document.documentElement.lang === 'zh-CN'")
        page.get_by_test_id("lang-toggle").click()  # back to English for the next page
        page.wait_for_function("() => document.documentElement.lang === 'en'")
        colour = page.evaluate("() => getComputedStyle(document.body).backgroundColor")
        assert colour != "rgba(0, 0, 0, 0)", f"{path}: the stylesheet applies"
        if path.startswith("/tables/"):
            page.wait_for_function("() => window.__cardroom && window.__cardroom.connected")
        if path.startswith("/events/"):
            assert page.get_by_test_id("event-title").inner_text() == "Club night"
        assert_no_violation(page, console)
        errors.check()
        page.close()
    page, console = visit(context, f"{room.url}/events/{event['id']}/print")
    assert_no_violation(page, console)
    assert page.locator("h1").inner_text() == "Club night"
    margin = page.evaluate("() => getComputedStyle(document.body).marginLeft")
    assert margin.endswith("px"), margin
    assert abs(float(margin[:-2]) - 56.69) < 1, "print.css applies (a margin of 1.5 cm)"
    page.close()


def test_a_violation_would_be_seen(room: browsing.Server, context: BrowserContext) -> None:
    """The control: inline script and style put into a page are refused, and reported."""
    context.add_init_script(WATCH_VIOLATIONS)
    page, console = visit(context, room.url + "/leaderboard")
    page.evaluate(
        """() => {
             const script = document.createElement("script");
             script.textContent = "window.__ran = true";
             document.body.append(script);
             document.body.insertAdjacentHTML("beforeend", '<p style="color: red">inline</p>');
           }"""
    )
    page.wait_for_function("() => window.__violations.length >= 2")
    assert page.evaluate("() => window.__ran") is None
    violations = page.evaluate("() => window.__violations")
    assert any(v.startswith("script-src") for v in violations), violations
    assert any(v.startswith("style-src") for v in violations), violations
    assert any("Content Security Policy" in text for text in console)
    page.close()


def test_no_other_site_may_frame_a_page(room: browsing.Server, context: BrowserContext) -> None:
    """``frame-ancestors 'none'``: a page of another origin that frames the lobby gets nothing."""
    page = context.new_page()
    with page.expect_console_message(lambda message: "frame-ancestors" in message.text) as refusal:
        page.set_content(f'<iframe src="{room.url}/" width="600" height="400"></iframe>')
    assert "'none'" in refusal.value.text
    framed = [frame for frame in page.frames if frame is not page.main_frame]
    assert framed, "the frame is there"
    assert framed[0].locator("[data-testid=quick-play]").count() == 0, "the lobby is not in it"
    page.close()
