"""End to end, in Debian's chromium: a ladder bot's page (/ladder/bots/{bot}, docs/ladder.md, "Reading
it"), reached from the /ladder page, shows the bot (its description as text, its link), its entrant,
its record against each house bot with the intervals, its matches with their tables, and its "Download
records" link gives the zip of its tables' records; in English and in Chinese.

Screenshots are written to tests/artifacts/ (git-ignored).
"""

from __future__ import annotations

import time
import zipfile
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import TYPE_CHECKING
from urllib.parse import quote

import pytest

from cardroom.server.storage.store import DATABASE_FILE, LadderEntrantRow, LadderMatchRow, Store
from tests.server.browser import PageErrors, Server, run_server, screenshot

if TYPE_CHECKING:
    from playwright.sync_api import Browser, BrowserContext

pytestmark = pytest.mark.browser

WHEN = datetime(2026, 12, 6, 10, tzinfo=UTC)
BOTS = [{"kind": "bot", "bot": "random"}] * 4
DESCRIPTION = 'Plays <img src=x data-x="1"> bombs early.\nAsks for tribute.'


@dataclass(frozen=True)
class Ladder:
    server: Server
    bot: str
    tables: list[str]


def finished(server: Server, table: str) -> bool:
    return bool(server.api("GET", f"/api/tables/{table}")["status"] == "finished")


@pytest.fixture(scope="module")
def ladder(tmp_path_factory: pytest.TempPathFactory, browser: Browser) -> Iterator[Ladder]:
    """A room whose store holds Ann's bot on the ladder: three rated matches with the house bots (the
    newest played at two real finished tables, a deal pair), then the room started again to load them."""
    data: Path = tmp_path_factory.mktemp("cardroom-ladder-bot")
    with run_server(data) as first:
        ann = first.sign_in("Ann")
        about = {"name": "Little Tao", "description": DESCRIPTION, "link": "https://tao.example/x?y=1"}
        bot = ann.api("POST", "/api/account/bots", about)["bot"]["key"]
        tables = [
            first.api("POST", "/api/tables", {"name": "Gd", "seats": BOTS, "max_deals": 1})["id"]
            for _ in "ab"
        ]
        deadline = time.monotonic() + 120
        while not all(finished(first, table) for table in tables):
            assert time.monotonic() < deadline, "the bots' tables did not finish"
            time.sleep(0.2)
    key = f"{bot}#1"
    store = Store(f"sqlite:///{data / DATABASE_FILE}")
    try:
        store.save_ladder_entrant(
            LadderEntrantRow(key, bot, "ann", 1, "Little Tao", {"faults": 2}, WHEN, WHEN)
        )
        store.save_ladder_entrant(LadderEntrantRow("bot:x#1", "bot:x", "bob", 1, "Deep Tao", {}, WHEN, WHEN))
        games = {table: {"gains": [1, 0], "forfeited_by": None, "faults": [0, 0, 0, 0]} for table in tables}
        for number, (team_a, team_b, margin) in enumerate(
            [
                ([key, "random#1"], ["heuristic#1", "search#1"], 2),
                (["heuristic#1", "bot:x#1"], [key, "random#1"], 1),
                ([key, "bot:x#1"], ["heuristic#1", "random#1"], 3),
            ]
        ):
            newest = number == 2
            rated = {
                "team_a": team_a,
                "team_b": team_b,
                "seed": number,
                "tables": [tables] if newest else [],
                "games": games if newest else {},
                "margin": margin,
                "winner": 0 if margin > 0 else 1,
                "faults": {},
            }
            made = WHEN + timedelta(minutes=number)
            store.save_ladder_match(LadderMatchRow(f"m{number}", "rated", "2026-12-06", rated, made, made))
    finally:
        store.close()
    with run_server(data) as running:
        yield Ladder(running, bot, tables)


@pytest.mark.parametrize(
    ("locale", "words"),
    [
        ("en-US", {"versus": "Against the house bots", "download": "Download records", "won": "won by 3"}),
        ("zh-CN", {"versus": "对牌室机器人", "download": "下载记录", "won": "净胜 3 级"}),
    ],
)
def test_a_bots_page_shows_it_and_its_records_download(
    ladder: Ladder, context: BrowserContext, tmp_path: Path, locale: str, words: dict[str, str]
) -> None:
    page = context.new_page()
    errors = PageErrors(page)
    page.add_init_script(f"localStorage.setItem('cardroom:lang', '{locale[:2]}')")
    page.goto(ladder.server.url + "/ladder")
    page.wait_for_function("() => window.__ladder && window.__ladder.ready")
    page.locator(
        f'[data-testid="ladder-row"][data-key="{ladder.bot}#1"] [data-testid="ladder-bot-link"]'
    ).click()
    page.wait_for_function("() => window.__ladderBot && window.__ladderBot.data")
    assert page.url.endswith(f"/ladder/bots/{quote(ladder.bot, safe='')}")

    assert page.get_by_test_id("bot-title").inner_text() == "Little Tao"
    assert "Ann" in page.get_by_test_id("bot-owner").inner_text()
    assert page.get_by_test_id("bot-description").inner_text() == DESCRIPTION, "shown as text"
    assert page.locator("[data-testid=bot-about] img").count() == 0, "never as markup"
    assert page.get_by_test_id("bot-link").get_attribute("href") == "https://tao.example/x?y=1"

    entrant = page.get_by_test_id("entrant-row")
    assert entrant.count() == 1
    assert entrant.locator('[data-col="matches"]').inner_text() == "3"
    assert entrant.locator('[data-col="wdl"]').inner_text() == "2-0-1"
    assert entrant.locator('[data-col="faults"]').inner_text() == "2"

    assert page.locator("h2").filter(has_text=words["versus"]).count() == 1
    heuristic = page.locator('[data-testid="versus-row"][data-house="heuristic"]')
    # against heuristic in all three: won by 2, lost by 1, won by 3; scores 1, 0, 1
    assert heuristic.locator('[data-col="matches"]').inner_text() == "3"
    assert heuristic.locator('[data-col="win_rate"]').inner_text() == "66.7%"
    assert heuristic.locator('[data-col="margin"]').inner_text() == "+1.33"
    assert "–" in heuristic.locator('[data-col="margin_ci"]').inner_text(), "an interval from three matches"
    search = page.locator('[data-testid="versus-row"][data-house="search"]')
    assert search.locator('[data-col="matches"]').inner_text() == "1"
    assert "–" not in search.locator('[data-col="win_rate_ci"]').inner_text(), "one match: no interval"

    rows = page.get_by_test_id("match-row")
    assert [rows.nth(index).get_attribute("data-match") for index in range(rows.count())] == [
        "m2",
        "m1",
        "m0",
    ]
    assert words["won"] in rows.first.locator('[data-col="result"]').inner_text()
    watch = rows.first.get_by_test_id("watch-link")
    assert [watch.nth(index).get_attribute("href") for index in range(2)] == [
        f"/tables/{t}" for t in ladder.tables
    ]
    assert rows.first.get_by_test_id("bot-page-link").first.get_attribute("href") == "/ladder/bots/bot%3Ax"

    link = page.get_by_test_id("bot-download")
    assert link.inner_text() == words["download"]
    with page.expect_download() as downloading:
        link.click()
    download = downloading.value
    assert download.suggested_filename == f"ladder-{ladder.bot.replace(':', '-')}-records.zip"
    saved = tmp_path / "records.zip"
    download.save_as(saved)
    with zipfile.ZipFile(saved) as archive:
        assert archive.namelist() == [f"m2-1a-{ladder.tables[0]}.json", f"m2-1b-{ladder.tables[1]}.json"]
    screenshot(page, f"ladder-bot-{locale}", full_page=True)
    errors.check()


@pytest.mark.parametrize(
    ("locale", "words"),
    [("en-US", "No such bot on the ladder: nobody."), ("zh-CN", "天梯上没有这个机器人：nobody。")],
)
def test_a_bot_not_on_the_ladder_gets_a_page_saying_so(
    ladder: Ladder, context: BrowserContext, locale: str, words: str
) -> None:
    page = context.new_page()
    page.add_init_script(f"localStorage.setItem('cardroom:lang', '{locale[:2]}')")
    answer = page.goto(ladder.server.url + "/ladder/bots/nobody")
    assert answer is not None
    assert answer.status == 200, "a page like the others; the API says 404"
    page.wait_for_function("() => window.__ladderBot && window.__ladderBot.ready")
    shown = page.get_by_test_id("ladder-bot-error")
    assert shown.is_visible()
    assert shown.inner_text() == words
    sections = page.get_by_test_id("bot-section")
    assert sections.count() == 3
    assert all(sections.nth(index).is_hidden() for index in range(3)), "no empty tables of nothing"
    screenshot(page, f"ladder-bot-unknown-{locale}")
