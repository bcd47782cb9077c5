"""Helpers of the end-to-end browser tests: a real card room server (uvicorn in a subprocess, SQLite in a
temporary folder, test settings), its accounts (a signed-in session for API calls, a browser context
signed in, the director role given through the database), and Debian's chromium driven by Playwright.

The browser tests skip, with the reason, when Playwright or chromium is missing; with
``CARDROOM_REQUIRE_BROWSER=1`` (CI) they fail instead. ``scripts/install-browser.sh`` installs chromium.
"""

from __future__ import annotations

import contextlib
import importlib.util
import json
import os
import shutil
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

from tests.ports import RETRIES, free_port, taken

if TYPE_CHECKING:
    from playwright.sync_api import Browser, BrowserContext, FloatRect, Page, ViewportSize

REPO = Path(__file__).resolve().parents[2]
ARTIFACTS = REPO / "tests" / "artifacts"
"""Screenshots land here (git-ignored)."""

CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]

DESKTOP: ViewportSize = {"width": 1280, "height": 800}
PHONE: ViewportSize = {"width": 390, "height": 844}

MESSAGES_UNLIMITED = "".join(
    f"    {limit}=None,\n"
    for limit in ("message_rate", "address_message_rate", "costly_rate", "address_costly_rate")
)
"""The lines of :data:`SERVER_CODE` that lift the limits on the pages' messages, ``legal`` and ``hint``
among them (a test's server without them keeps the defaults)."""

SERVER_CODE = (
    """
import sys
import uvicorn
from cardroom.server.api.app import create_app
from cardroom.server.live.settings import Settings
from cardroom.server.tables.config import Clocks, TableDefaults

host, port, data = sys.argv[1], int(sys.argv[2]), sys.argv[3]
settings = Settings(
    table_defaults=TableDefaults(
        clocks=Clocks(60.0, 60.0, 60.0, 60.0, declare=30.0), bot_delay=0.0, deal_pause=3.0, deal_pace=0.02
    ),
    create_rate=None,
    sign_in_rate=None,
    seat_rate=None,
    address_waiting_tables=None,
    bot_workers=1,
"""
    + MESSAGES_UNLIMITED
    + """)
uvicorn.run(create_app(None, data, settings=settings), host=host, port=port, log_level="warning")
"""
)
"""The test server: long clocks (a slow test machine must not put the player into 托管; a test that wants the
clock to run out creates its table with short ones), bots without delay in a pool of one process
(tests/server/serving.py says why), a short deal pause, Shengji's cards dealt fast (a person who could
declare has 30 s to say so). One address has its default number of websockets; the creation of tables and
events, the tables left waiting, the seats taken and signing in have no limit (a module's tests create, sit
and sign in more from one address than a person would), nor have the pages' messages
(:data:`MESSAGES_UNLIMITED`: a test clicks faster than a person and asks for the legal actions every turn,
as a tool does and a page does not; tests/server/test_browser_refusals.py keeps those limits). Passwords
are hashed with argon2's defaults, as in production."""

WATCH_VIOLATIONS = """
window.__violations = [];
document.addEventListener("securitypolicyviolation", (event) => {
  window.__violations.push(`${event.violatedDirective} ${event.blockedURI}`);
});
"""
"""An init script for a page (``context.add_init_script``): every Content-Security-Policy violation the
page reports goes to ``window.__violations``. Playwright's init scripts are not the page's, so the
policy lets them run, before the page's own scripts."""

SESSION_COOKIE = "cardroom_session"
CSRF_HEADER = "X-CSRF-Token"


def password_of(name: str) -> str:
    """The password the browser tests give ``name``'s account."""
    return f"secret of {name}"


def chromium_path() -> str | None:
    """``$CARDROOM_CHROMIUM``, else Debian's ``/usr/bin/chromium``, else ``chromium`` on the PATH."""
    explicit = os.environ.get("CARDROOM_CHROMIUM", "").strip()
    if explicit:
        return explicit if Path(explicit).exists() else None
    if Path("/usr/bin/chromium").exists():
        return "/usr/bin/chromium"
    return shutil.which("chromium")


def browser_missing() -> str | None:
    """Why the browser tests cannot run here, or ``None``."""
    if importlib.util.find_spec("playwright") is None:
        return "the Python package playwright is not installed (pip install -e '.[dev]')"
    if chromium_path() is None:
        return "chromium is not installed (scripts/install-browser.sh installs Debian's chromium)"
    return None


def require_browser() -> None:
    """Skip (or, with ``CARDROOM_REQUIRE_BROWSER=1``, fail) when the browser tests cannot run."""
    reason = browser_missing()
    if reason is None:
        return
    if os.environ.get("CARDROOM_REQUIRE_BROWSER", "").strip() in ("1", "true", "yes"):
        pytest.fail(f"CARDROOM_REQUIRE_BROWSER=1 but {reason}", pytrace=False)
    pytest.skip(f"browser tests skipped: {reason}")


def call(url: str, method: str, body: dict[str, Any] | None, headers: dict[str, str]) -> Any:
    """One HTTP request; the JSON answer (an HTTP error raises ``urllib.error.HTTPError``)."""
    data = json.dumps(body).encode() if body is not None else None
    request = urllib.request.Request(url, data=data, method=method)
    request.add_header("Content-Type", "application/json")
    for name, value in headers.items():
        request.add_header(name, value)
    with urllib.request.urlopen(request, timeout=10) as response:
        return json.loads(response.read() or b"null")


@dataclass
class Session:
    """A signed-in account's session for API calls: its cookie and CSRF token ride on every request."""

    url: str
    account: dict[str, str]
    cookie: str
    csrf: str

    def api(self, method: str, path: str, body: dict[str, Any] | None = None) -> Any:
        """Call the HTTP API signed in; the JSON answer (an HTTP error raises)."""
        headers = {"Cookie": f"{SESSION_COOKIE}={self.cookie}", CSRF_HEADER: self.csrf}
        return call(self.url + path, method, body, headers)


@dataclass
class Server:
    """A running card room: its base URL, its data folder (the SQLite file) and the log file of its
    process."""

    url: str
    log: Path
    data: Path

    def api(self, method: str, path: str, body: dict[str, Any] | None = None) -> Any:
        """Call the HTTP API as a guest; the JSON answer (an HTTP error raises)."""
        return call(self.url + path, method, body, {})

    def sign_in(self, name: str, password: str | None = None, *, director: bool = False) -> Session:
        """A session of ``name``'s account, opened first if there is none (``password`` defaults to
        :func:`password_of`); with ``director``, the account gets the director role first."""
        credentials = {"name": name, "password": password or password_of(name)}
        request = urllib.request.Request(
            self.url + "/api/accounts", data=json.dumps(credentials).encode(), method="POST"
        )
        request.add_header("Content-Type", "application/json")
        try:
            response = urllib.request.urlopen(request, timeout=10)
        except urllib.error.HTTPError as error:
            if error.code != 409:
                raise
            request.full_url = self.url + "/api/session"
            response = urllib.request.urlopen(request, timeout=10)
        with response:
            answer = json.loads(response.read())
            cookie = response.headers.get("Set-Cookie", "")
        secret = cookie.split(";", 1)[0].removeprefix(f"{SESSION_COOKIE}=")
        assert secret, f"no session cookie in {cookie!r}"
        if director:
            self.make_director(name)
        account: dict[str, str] = answer["account"]
        return Session(self.url, account, secret, answer["csrf"])

    def sign_in_browser(
        self, context: BrowserContext, name: str, password: str | None = None, *, director: bool = False
    ) -> dict[str, Any]:
        """Sign a browser context in as ``name`` (the account opened first if there is none, the
        director role given if asked): its pages then carry the session cookie. The account."""
        credentials = {"name": name, "password": password or password_of(name)}
        answer = context.request.post(self.url + "/api/accounts", data=credentials)
        if answer.status == 409:
            answer = context.request.post(self.url + "/api/session", data=credentials)
        assert answer.ok, (answer.status, answer.text())
        if director:
            self.make_director(name)
        account: dict[str, Any] = answer.json()["account"]
        return account

    def make_director(self, name: str) -> None:
        """Give ``name``'s account the director role, in the server's database (the server reads roles
        from it on every request), as an operator's ``cardroom accounts role`` does."""
        from cardroom.server.storage.store import Store

        store = Store(f"sqlite:///{self.data / 'cardroom.sqlite3'}")
        try:
            assert store.update_account(name.casefold(), role="director"), f"no account {name!r}"
        finally:
            store.close()


@contextlib.contextmanager
def run_server(data_dir: Path, code: str = SERVER_CODE) -> Iterator[Server]:
    """Start ``cardroom.server`` with uvicorn on a free port (another one if the port was taken before
    the server bound it), by ``code`` (:data:`SERVER_CODE` unless a test needs its own); stop it
    afterwards."""
    for _ in range(RETRIES):
        process, server = _start_server(data_dir, free_port(), code)
        if process is not None:
            break
    else:
        raise RuntimeError(f"{RETRIES} ports taken before the server bound one:\n{server.log.read_text()}")
    try:
        yield server
    finally:
        process.terminate()
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


def _start_server(
    data_dir: Path, port: int, code: str = SERVER_CODE
) -> tuple[subprocess.Popen[bytes] | None, Server]:
    """The server process once it answers, or ``None`` if its port was taken (it exited)."""
    log = data_dir / "server.log"
    env = {**os.environ, "PYTHONUNBUFFERED": "1"}
    env.pop("DATABASE_URL", None)  # SQLite in data_dir, whatever the environment says
    with log.open("w") as out:
        process = subprocess.Popen(
            [sys.executable, "-c", code, "127.0.0.1", str(port), str(data_dir)],
            stdout=out,
            stderr=subprocess.STDOUT,
            env=env,
            cwd=REPO,
        )
    server = Server(f"http://127.0.0.1:{port}", log, data_dir)
    deadline = time.monotonic() + 30
    try:
        while True:
            if process.poll() is not None:
                if taken(log.read_text()):
                    return None, server
                raise RuntimeError(f"the server exited with {process.returncode}:\n{log.read_text()}")
            try:
                server.api("GET", "/api/presets")
                return process, server
            except (urllib.error.URLError, ConnectionError, OSError):
                if time.monotonic() > deadline:
                    raise RuntimeError(f"the server did not answer within 30 s:\n{log.read_text()}") from None
                time.sleep(0.1)
    except BaseException:
        process.kill()
        process.wait()
        raise


@contextlib.contextmanager
def launch_browser() -> Iterator[Browser]:
    """Headless Debian chromium under Playwright (never ``playwright install``: no downloads here)."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=chromium_path(), args=CHROMIUM_ARGS)
        try:
            yield browser
        finally:
            browser.close()


class PageErrors:
    """Collects uncaught script errors and console errors of a page."""

    def __init__(self, page: Page) -> None:
        self.errors: list[str] = []
        self.allowed: list[str] = []
        page.on("pageerror", lambda error: self.errors.append(f"pageerror: {error}"))
        page.on(
            "console", lambda message: self.errors.append(message.text) if message.type == "error" else None
        )

    def allow(self, status: int) -> None:
        """Expect refusals with this HTTP status: chromium logs each as a console error ("Failed to
        load resource: the server responded with a status of 403"), which is then no script error."""
        self.allowed.append(f"the server responded with a status of {status} ")

    def check(self) -> None:
        errors = [error for error in self.errors if not any(allowed in error for allowed in self.allowed)]
        assert not errors, "script errors in the page:\n" + "\n".join(errors)


def in_front(page: Page) -> Page:
    """``page`` brought to the front, as a person turns back to the window they act in after looking
    at another: chromium draws a page left behind another page once a second, and each click waits
    for its element to hold still over two drawn frames (two seconds a click instead of a few
    milliseconds)."""
    page.bring_to_front()
    return page


def screenshot(page: Page, name: str, *, full_page: bool = False) -> Path:
    """Save ``tests/artifacts/<name>.png``: the viewport, or with ``full_page`` the whole page."""
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    path = ARTIFACTS / f"{name}.png"
    page.screenshot(path=str(path), full_page=full_page)
    return path


def assert_laid_out(page: Page, selectors: list[str]) -> dict[str, FloatRect]:
    """With the page at its top and no animation running (a bomb's shake …), each element of
    ``selectors`` lies wholly inside the viewport (none below the fold) and no two of them overlap (a
    pixel of rounding allowed); their boxes by selector."""
    size = page.viewport_size
    assert size is not None
    page.emulate_media(reduced_motion="reduce")  # no animation moves a box while it is measured
    page.evaluate("() => window.scrollTo(0, 0)")
    boxes: dict[str, FloatRect] = {}
    for selector in selectors:
        box = page.locator(selector).bounding_box()
        assert box is not None, f"{selector} is not shown"
        assert box["x"] >= -1, (selector, box)
        assert box["y"] >= -1, (selector, box)
        assert box["x"] + box["width"] <= size["width"] + 1, (selector, "past the right edge", box, size)
        assert box["y"] + box["height"] <= size["height"] + 1, (selector, "below the fold", box, size)
        boxes[selector] = box
    names = list(boxes)
    for index, one in enumerate(names):
        for other in names[index + 1 :]:
            a, b = boxes[one], boxes[other]
            across = min(a["x"] + a["width"], b["x"] + b["width"]) - max(a["x"], b["x"])
            down = min(a["y"] + a["height"], b["y"] + b["height"]) - max(a["y"], b["y"])
            assert across <= 1 or down <= 1, (f"{one} overlaps {other}", a, b)
    page.emulate_media(reduced_motion="no-preference")
    return boxes


# --- reading and driving the table page ---------------------------------------------------------------

SITUATION = """() => {
  const app = window.__cardroom;
  const s = app && app.state;
  if (!s || !app.connected) return null;
  if (s.phase === "between" || s.phase === "finished") return s.phase;
  if (app.pending || s.turn !== app.seat || !s.to_act) return null;
  return s.phase;
}"""
"""What the page waits for: ``play``/``tribute``/``return`` when the player is to act, ``between`` or
``finished`` after the deal, else null."""


def situation(page: Page, timeout_ms: float = 30_000) -> str:
    """Wait until the player is to act or the deal is over; which of them."""
    handle = page.wait_for_function(SITUATION, timeout=timeout_ms)
    value = handle.json_value()
    assert isinstance(value, str)
    return value


def legal_actions(page: Page) -> list[dict[str, Any]]:
    """The seat's legal actions, asked of the server as a tool would (the ``legal`` message): the state
    lists none."""
    page.evaluate("() => { window.__cardroom.legal = null; window.__cardroom.requestLegal(); }")
    value = page.wait_for_function("() => window.__cardroom.legal").json_value()
    assert isinstance(value, list)
    return value


def checked(page: Page) -> bool:
    """Wait for the server's answer on the selection (the ``check`` message): whether it may be played."""
    answer = page.wait_for_function(
        "() => { const c = window.__cardroom.check; return c && c.ok !== null ? [c.ok] : null; }"
    ).json_value()
    return bool(answer[0])


def state(page: Page) -> dict[str, Any]:
    value = page.evaluate("() => window.__cardroom.state")
    assert isinstance(value, dict)
    return value


def hand(page: Page) -> list[str]:
    """The cards shown in the hand, in order (from the DOM)."""
    codes = page.locator("[data-testid=hand-card]").evaluate_all("els => els.map(e => e.dataset.card)")
    return [str(code) for code in codes]


def selected(page: Page) -> list[str]:
    codes = page.locator("[data-testid=hand-card].selected").evaluate_all(
        "els => els.map(e => e.dataset.card)"
    )
    return sorted(str(code) for code in codes)


def click_card(page: Page, index: int) -> None:
    """Click a hand card on its visible left strip (the cards overlap)."""
    page.locator(f'[data-testid=hand-card][data-index="{index}"]').click(position={"x": 7, "y": 22})


def indices_of(cards: list[str], wanted: list[str]) -> list[int]:
    """Positions in the hand of these cards (a card may appear twice)."""
    used: list[int] = []
    for code in wanted:
        index = next(i for i, card in enumerate(cards) if card == code and i not in used)
        used.append(index)
    return used


def select_cards(page: Page, wanted: list[str]) -> None:
    """Select exactly these cards by clicking them."""
    if selected(page):
        page.get_by_test_id("clear-button").click()
    for index in indices_of(hand(page), wanted):
        click_card(page, index)
    assert selected(page) == sorted(wanted)


def click_play(page: Page) -> None:
    """Press Play once the server has accepted the selection; when the cards read several ways, take
    the first reading offered."""
    assert checked(page), "the selection may be played"
    page.get_by_test_id("play-button").click()
    readings = page.get_by_test_id("reading-option")
    if page.get_by_test_id("readings").is_visible():
        readings.first.click()
