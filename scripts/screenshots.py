"""The README's pictures of the table: docs/images/table-desktop.png (1280×800) and table-phone.png (390×844).

Starts ``cardroom serve`` with its defaults on a free 127.0.0.1 port (SQLite in a temporary folder),
opens a Guandan table against three bots in Debian's chromium under Playwright (as the browser tests
do: tests/server/browser.py), plays a few moves, selects a legal play, and takes both pictures of the
same seat. The server and the browser are stopped, and the folder removed, however the script ends.

    .venv/bin/python scripts/screenshots.py            # needs chromium: scripts/install-browser.sh
"""

from __future__ import annotations

import argparse
import contextlib
import io
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

from PIL import Image

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Page, ViewportSize

REPO = Path(__file__).resolve().parents[1]
IMAGES = REPO / "docs" / "images"
DESKTOP: ViewportSize = {"width": 1280, "height": 800}
PHONE: ViewportSize = {"width": 390, "height": 844}
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-sync"]
MOVES = 4
"""Plays of our seat before the pictures: enough for cards of every seat on the table."""

MY_TURN = """() => {
  const app = window.__cardroom, s = app && app.state;
  if (!s || !app.connected || app.pending) return null;
  if (s.phase === "between" || s.phase === "finished") return s.phase;
  return s.turn === app.seat && s.to_act ? s.phase : null;
}"""
"""Null until our seat is to act or the deal is over; then the phase."""
PLAYS_SHOWN = "() => window.__cardroom.state.seats.filter(s => s.last && s.last.type === 'play').length"
"""How many seats' plays lie on the table in this trick."""


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


@contextlib.contextmanager
def card_room() -> Iterator[str]:
    """``cardroom serve`` with the defaults, SQLite in a temporary folder: its URL while it runs."""
    port = free_port()
    with tempfile.TemporaryDirectory(prefix="cardroom-screenshots-") as data:
        env = {key: value for key, value in os.environ.items() if key != "DATABASE_URL"}
        log = Path(data) / "server.log"
        command = [sys.executable, "-m", "cardroom", "serve", "--port", str(port), "--data", data]
        with log.open("w") as out:
            process = subprocess.Popen(command, stdout=out, stderr=subprocess.STDOUT, env=env, cwd=REPO)
        url = f"http://127.0.0.1:{port}"
        try:
            deadline = time.monotonic() + 60
            while True:
                if process.poll() is not None:
                    sys.exit(f"cardroom serve exited with {process.returncode}:\n{log.read_text()}")
                try:
                    urllib.request.urlopen(url + "/api/presets", timeout=5).close()
                    break
                except (urllib.error.URLError, OSError):
                    if time.monotonic() > deadline:
                        sys.exit(f"cardroom serve did not answer within 60 s:\n{log.read_text()}")
                    time.sleep(0.2)
            yield url
        finally:
            process.terminate()
            try:
                process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()


@contextlib.contextmanager
def chromium() -> Iterator[Browser]:
    """Headless Debian chromium (``$CARDROOM_CHROMIUM`` or ``/usr/bin/chromium``), never a download."""
    from playwright.sync_api import sync_playwright

    path = os.environ.get("CARDROOM_CHROMIUM") or shutil.which("chromium") or "/usr/bin/chromium"
    if not Path(path).exists():
        sys.exit("chromium is missing: scripts/install-browser.sh installs Debian's")
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=path, args=CHROMIUM_ARGS)
        try:
            yield browser
        finally:
            browser.close()


def legal(page: Page) -> list[dict[str, Any]]:
    """Our seat's legal actions, asked of the server (the ``legal`` message)."""
    page.evaluate("() => { window.__cardroom.legal = null; window.__cardroom.requestLegal(); }")
    actions: list[dict[str, Any]] = page.wait_for_function("() => window.__cardroom.legal").json_value()
    return actions


def smallest_play(actions: list[dict[str, Any]]) -> dict[str, Any] | None:
    """The legal play of fewest cards (the lowest first), or None when only a pass is left."""
    plays = [action for action in actions if action["type"] == "play"]
    return min(plays, key=lambda action: len(action["cards"])) if plays else None


def select(page: Page, cards: list[str]) -> None:
    """Select these cards of the hand by clicking each on its visible strip."""
    hand: list[str] = page.locator("[data-testid=hand-card]").evaluate_all(
        "els => els.map(e => e.dataset.card)"
    )
    used: list[int] = []
    for code in cards:
        used.append(next(i for i, card in enumerate(hand) if card == code and i not in used))
    for index in used:
        page.locator(f'[data-testid=hand-card][data-index="{index}"]').click(position={"x": 7, "y": 22})


def play_a_few(page: Page) -> list[str]:
    """Play ``MOVES`` times (the smallest legal play, or pass), then on the next turn that can beat the
    plays of two seats on the table (any play, after six turns more), select the answer and stop: the
    pictures show the cards on the table and a hand ready to play. The cards selected."""
    moves = 0
    while True:
        phase = page.wait_for_function(MY_TURN, timeout=60_000).json_value()
        if phase != "play":
            sys.exit(f"the deal reached {phase!r} before the pictures: try again")
        choice = smallest_play(legal(page))
        following = page.evaluate("() => window.__cardroom.state.can_pass")
        shown = page.evaluate(PLAYS_SHOWN)
        ready = shown >= 2 or moves >= MOVES + 6  # a busy table if it comes soon, else any answer
        if moves >= MOVES and following and choice is not None and ready:
            select(page, choice["cards"])
            page.wait_for_function("() => { const c = window.__cardroom.check; return c && c.ok; }")
            return list(choice["cards"])
        if choice is None:
            page.get_by_test_id("pass-button").click()
        else:
            select(page, choice["cards"])
            page.wait_for_function("() => { const c = window.__cardroom.check; return c && c.ok; }")
            page.get_by_test_id("play-button").click()
            if page.get_by_test_id("readings").is_visible():
                page.get_by_test_id("reading-option").first.click()
        moves += 1
        page.wait_for_function("() => !window.__cardroom.pending")


def save(page: Page, name: str) -> Path:
    """The viewport as docs/images/<name>.png, in a 256-colour palette (a tenth of the size, the same
    picture to the eye)."""
    picture = Image.open(io.BytesIO(page.screenshot())).convert("RGB")
    path = IMAGES / f"{name}.png"
    picture.quantize(colors=256, method=Image.Quantize.MEDIANCUT).save(path, optimize=True)
    print(f"{path.relative_to(REPO)}: {picture.width}×{picture.height}, {path.stat().st_size // 1024} KB")
    return path


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.parse_args()
    signal.signal(signal.SIGTERM, lambda *_: sys.exit("stopped"))  # so that the server is stopped too
    IMAGES.mkdir(parents=True, exist_ok=True)
    with card_room() as url, chromium() as browser:
        desktop = browser.new_context(viewport=DESKTOP, locale="en-US")
        desktop.set_default_timeout(30_000)
        page = desktop.new_page()
        page.goto(url + "/")
        page.get_by_test_id("player-name").fill("Ann")
        page.get_by_test_id("quick-play").click()
        page.wait_for_url(lambda address: "/tables/" in address)
        table_id = page.url.rstrip("/").rsplit("/", 1)[1]
        token = page.evaluate(f"() => localStorage.getItem('cardroom:{table_id}')")
        answer = play_a_few(page)
        save(page, "table-desktop")

        phone = browser.new_context(viewport=PHONE, locale="en-US", is_mobile=True, has_touch=True)
        phone.set_default_timeout(30_000)
        phone.add_init_script(f"localStorage.setItem({f'cardroom:{table_id}'!r}, {token!r})")
        other = phone.new_page()
        other.goto(f"{url}/tables/{table_id}")
        other.wait_for_function("() => window.__cardroom && window.__cardroom.state !== null")
        other.wait_for_function(MY_TURN)
        select(other, answer)
        other.wait_for_function("() => { const c = window.__cardroom.check; return c && c.ok; }")
        save(other, "table-phone")
        phone.close()
        desktop.close()


if __name__ == "__main__":
    main()
