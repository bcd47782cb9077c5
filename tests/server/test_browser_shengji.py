"""End to end, in Debian's chromium: Shengji (升级) at the card room's table (issue 26). A whole deal
played by a person against three bots (declaring while the cards arrive, burying the kitty, tricks with
the selection checked before it is sent), a reload mid-deal, the deal's result with the kitty revealed,
the replay, the lobby's Shengji form, a spectator and the phone size.

Screenshots are written to tests/artifacts/ (git-ignored).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

from tests.server.browser import (
    PHONE,
    PageErrors,
    Server,
    assert_laid_out,
    checked,
    click_card,
    hand,
    run_server,
    screenshot,
    selected,
    state,
)

if TYPE_CHECKING:
    from playwright.sync_api import Browser, BrowserContext, Page


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory, browser: Browser) -> Iterator[Server]:
    data: Path = tmp_path_factory.mktemp("cardroom-shengji")
    with run_server(data) as running:
        yield running


SITUATION = """() => {
  const app = window.__cardroom;
  const s = app && app.state;
  if (!s) return null;
  if (s.phase === "between" || s.phase === "finished") return s.phase;
  if (app.pending || s.turn !== app.seat) return null;
  if (s.phase === "declare") return (s.declarations || []).length ? "declare" : null;
  if (s.phase === "tricks" && app.check && app.check.ok === null) return null;
  return s.phase;
}"""
"""What the test waits for: ``declare`` (the person could declare), ``kitty``, ``tricks`` when the person
is to act, ``between`` or ``finished`` after the deal."""


MOST_DEALS = 6
"""Deals the person plays, at most, until one lets them declare or bury the kitty (a shuffled deck gives
some deals without a level card in the person's hand; six such deals in a row are rare)."""


def situation(page: Page, timeout_ms: float = 60_000) -> str:
    value = page.wait_for_function(SITUATION, timeout=timeout_ms).json_value()
    assert isinstance(value, str)
    return value


def wait_ready(page: Page) -> None:
    page.wait_for_function("() => window.__cardroom && window.__cardroom.state !== null")


def open_table(context: BrowserContext, server: Server, table_id: str, token: str | None) -> Page:
    if token is not None:
        context.add_init_script(f"localStorage.setItem({f'cardroom:{table_id}'!r}, {token!r})")
    page = context.new_page()
    page.goto(f"{server.url}/tables/{table_id}")
    wait_ready(page)
    return page


def test_a_whole_shengji_deal_against_three_bots(
    browser: Browser, server: Server, context: BrowserContext
) -> None:
    page = context.new_page()
    errors = PageErrors(page)
    page.goto(server.url + "/")
    page.get_by_test_id("player-name").fill("Ann")
    page.get_by_test_id("quick-shengji").click()
    page.wait_for_url(re.compile(r"/tables/[^/]+$"))
    wait_ready(page)
    table = page.get_by_test_id("table")
    assert table.get_attribute("data-game") == "shengji"
    assert table.get_attribute("data-seat") == "0"
    assert "Shengji" in page.get_by_test_id("table-title").inner_text()
    assert "2·5·10·J·Q·K·A" in page.get_by_test_id("ladder").inner_text(), "docs/rules/shengji.md#ladder"

    declared = buried = reloaded = checked_illegal = kept_seen = cycled = False
    tricks = 0
    deals = 0
    while True:
        now = situation(page)
        if now in ("between", "finished"):
            deals += 1
            if declared or buried or now == "finished" or deals == MOST_DEALS:
                break
            # the deck is shuffled: this deal gave the person nothing to declare and no kitty to bury
            page.wait_for_function(
                "(n) => window.__cardroom.state.deal_number > n", arg=deals, timeout=60_000
            )
            continue
        current = state(page)
        if now == "declare":
            options = page.get_by_test_id("declare-option")
            assert options.count() == len(current["declarations"])
            if not declared:
                declared = True
                cards = current["declarations"][0]
                options.first.click()
                page.wait_for_function(
                    "(cards) => { const d = window.__cardroom.state.declaration; "
                    "return d && d.seat === 0 && d.cards.join(' ') === cards.join(' '); }",
                    arg=cards,
                )
                assert "declared" in page.get_by_test_id("declaration").inner_text()
            else:
                page.get_by_test_id("pass-button").click()
            page.wait_for_function("() => !window.__cardroom.pending")
            continue
        if now == "kitty":
            buried = True
            assert len(hand(page)) == 33, "the dealer holds 25 cards and the kitty's 8"
            assert len(current["kitty"]) == 8
            for index in range(7):
                click_card(page, index)
            assert page.get_by_test_id("bury-button").is_disabled(), "burying takes exactly 8 cards"
            click_card(page, 7)
            assert len(selected(page)) == 8
            burying = selected(page)
            page.get_by_test_id("bury-button").click()
            page.wait_for_function("() => window.__cardroom.state.phase !== 'kitty'")
            # The dealer sees the kitty it buried beside the table (issue 45).
            kitty = page.get_by_test_id("kitty").locator(".card")
            assert sorted(kitty.evaluate_all("els => els.map(e => e.dataset.card)")) == sorted(burying)
            continue
        assert now == "tricks", now
        cards = hand(page)
        assert cards == current["hand"]
        play = page.get_by_test_id("play-button")
        assert play.is_disabled(), "Play is disabled with nothing selected"
        if not checked_illegal and len(set(current["hand_suits"])) > 1 and len(cards) > 5:
            checked_illegal = True  # the whole hand: several suits, or the wrong number of cards
            for index in range(len(cards)):
                click_card(page, index)
            assert not checked(page)
            assert play.is_disabled(), "Play is disabled on an illegal selection"
            # Issue 45: the rule broken, in the player's words (docs/protocol.md, "Refusals").
            refusal = page.get_by_test_id("status-line").inner_text()
            reason = page.evaluate("() => window.__cardroom.check.reason")
            if reason == "wrong_count":
                assert refusal.startswith("Play "), refusal
                assert refusal.endswith(" cards, as many as the lead"), refusal
            else:
                assert reason == "not_one_suit", reason
                assert refusal.startswith("A lead is of one suit (trump counts as one): "), refusal
            page.get_by_test_id("clear-button").click()
            assert selected(page) == []
        if tricks == 3 and not reloaded:
            reloaded = True
            before = hand(page)
            page.reload()
            wait_ready(page)
            assert table.get_attribute("data-seat") == "0"
            assert hand(page) == before, "back in the seat with the same hand"
            continue
        if current["last_trick"] and not current["trick"]["plays"] and not kept_seen:
            # The trick stays on the table until the next lead: each seat's cards, the leader and the
            # winner marked; "Last trick" shows it again with its points.
            kept_seen = True
            last = current["last_trick"]
            winner = page.get_by_test_id(f"seat-{last['winner']}")
            assert f"({last['points']} pts)" in winner.get_by_test_id("trick-winner").inner_text()
            assert page.get_by_test_id(f"seat-{last['leader']}").get_by_test_id("trick-leader").is_visible()
            assert page.locator(".last-play.previous").count() == 4
            page.get_by_test_id("last-trick-button").click()
            assert page.get_by_test_id("last-trick-row").count() == 4
            assert page.get_by_test_id("last-trick-view").locator(".trick-row.won").count() == 1
            page.get_by_test_id("last-trick-close").click()
        if tricks == 5:
            # The header stays on one line at 1280 px in English: every item of the top bar on one
            # row, inside the viewport, none over another, the levels, trump and points not cut.
            items = page.locator(".topbar > :visible, .levels > :visible").evaluate_all(
                "els => els.flatMap((e, i) => {"
                " e.dataset.headerItem = String(i); return e.id === 'levels' ? [] : [i]; })"
            )
            assert_laid_out(page, [f"[data-header-item='{i}']" for i in items])
            tops = page.locator(".topbar > :visible").evaluate_all(
                "els => els.map(e => {"
                " const r = e.getBoundingClientRect(); return Math.round(r.top + r.height / 2); })"
            )
            assert max(tops) - min(tops) <= 4, tops
            assert page.locator(".levels").evaluate("e => e.scrollWidth <= e.clientWidth + 1"), "levels cut"
            assert page.get_by_test_id("points").inner_text() == f"Attackers: {current['points']} pts"
            screenshot(page, "shengji-table-desktop")
        hints = page.evaluate("() => window.__cardroom.hints")
        page.get_by_test_id("hint-button").click()
        page.wait_for_function("(n) => window.__cardroom.hints > n", arg=hints)
        assert selected(page), "the hint selects the bot's cards"
        assert checked(page), "the bot's play is legal"
        choices = page.evaluate("() => window.__cardroom.hintCycle.list.length")
        if choices > 2 and not cycled:
            # Hint again: the bot's next choices, each legal, then back to its first.
            cycled = True
            shown = [sorted(selected(page))]
            for press in range(1, choices + 1):
                page.get_by_test_id("hint-button").click()
                page.wait_for_function("(n) => window.__cardroom.hints > n", arg=hints + press)
                assert checked(page), "each choice is legal"
                shown.append(sorted(selected(page)))
            assert len({" ".join(cards) for cards in shown[:-1]}) == choices, "each press another choice"
            assert shown[-1] == shown[0], "after the last, the first again"
        number = current["number"]
        play.click()
        page.wait_for_function("(n) => window.__cardroom.state.number > n", arg=number)
        tricks += 1
    assert reloaded
    assert cycled, "Hint offered several choices on some turn"
    assert tricks >= 5

    result = page.get_by_test_id("deal-result")
    result.wait_for()
    screenshot(page, "shengji-deal-result")
    last = state(page)["last_deal"]
    assert page.locator("[data-testid=deal-kitty] .card").count() == 8, "the kitty revealed at the end"
    assert str(last["score"]) in page.get_by_test_id("deal-score").inner_text()
    assert f"× {last['kitty_multiplier']}" in page.get_by_test_id("deal-score").inner_text()
    if not declared and not buried:
        pytest.fail(f"in {deals} shuffled deals the person could neither declare nor bury the kitty")

    page.get_by_test_id("deal-replay").click()
    replay = page.get_by_test_id("replay")
    replay.wait_for()
    page.wait_for_function("() => document.querySelector('[data-testid=replay-step]') !== null")
    assert page.get_by_test_id("replay-note").inner_text() != ""
    total = int(page.get_by_test_id("replay-step").get_attribute("data-total") or 0)
    assert total > 25, "every declaration, the burial and every play"
    page.get_by_test_id("replay-last").click()
    assert "kitty" in page.get_by_test_id("replay-note").inner_text().lower()
    page.get_by_test_id("replay-close").click()
    errors.check()


def human_and_bots(server: Server, **extra: Any) -> tuple[str, str]:
    """A Shengji table: Ann at seat 0, three heuristic bots; its id and Ann's token."""
    body = {
        "name": "Tractor",
        "game": "shengji",
        "seats": [{"kind": "human"}] + [{"kind": "bot", "bot": "heuristic"}] * 3,
        **extra,
    }
    table = server.api("POST", "/api/tables", body)
    token = server.api("POST", f"/api/tables/{table['id']}/seats/0", {"name": "Ann"})["token"]
    return table["id"], token


def test_a_spectator_sees_no_hand_and_the_phone_size_fits(browser: Browser, server: Server) -> None:
    table_id, token = human_and_bots(server, clocks={"declare": 0.05})  # Ann lets every card go by
    watcher = browser.new_context(viewport=PHONE, locale="en-US", has_touch=True, is_mobile=True)
    player = browser.new_context(viewport=PHONE, locale="zh-CN", has_touch=True, is_mobile=True)
    try:
        seated = open_table(player, server, table_id, token)
        seated.wait_for_function("() => window.__cardroom.state.hand.length >= 25")
        box = seated.get_by_test_id("hand").bounding_box()
        assert box is not None
        assert box["width"] <= PHONE["width"]
        screenshot(seated, "shengji-phone-zh")
        spectator = open_table(watcher, server, table_id, None)
        spectator.wait_for_function("() => window.__cardroom.state.deal_number >= 1")
        assert state(spectator)["hand"] is None
        assert state(spectator)["kitty"] == []
        assert spectator.get_by_test_id("spectator-banner").is_visible()
        assert spectator.locator("[data-testid=hand-card]").count() == 0
        assert spectator.get_by_test_id("controls").is_hidden()
        screenshot(spectator, "shengji-spectator-phone")
    finally:
        watcher.close()
        player.close()


def test_the_lobby_creates_a_shengji_table(server: Server, context: BrowserContext) -> None:
    page = context.new_page()
    page.goto(server.url + "/")
    page.get_by_test_id("game").select_option("shengji")
    assert page.get_by_test_id("rules").is_hidden(), "Shengji's rules are two choices"
    ladders = page.get_by_test_id("sj-ladder").locator("option").evaluate_all("els => els.map(e => e.value)")
    assert ladders == ["seven", "all_ranks"], "seven levels (docs/rules/shengji.md#ladder) first: the default"
    tables = page.get_by_test_id("sj-table").locator("option").evaluate_all("els => els.map(e => e.value)")
    assert tables == ["forty", "second"]
    assert page.get_by_test_id("clock-declare").is_visible()
    assert page.get_by_test_id("clock-bury").is_visible()
    assert page.get_by_test_id("clock-tribute").is_hidden(), "Shengji pays no tribute"
    bots = page.get_by_test_id("seat-config-1").locator("option").evaluate_all("els => els.map(e => e.value)")
    assert "search" not in bots, "Shengji has no search bot"
    page.get_by_test_id("sj-ladder").select_option("all_ranks")
    page.get_by_test_id("sj-table").select_option("second")
    page.get_by_test_id("table-name").fill("升级 evening")
    page.get_by_test_id("create-submit").click()
    link = page.get_by_test_id("share-link")
    link.wait_for()
    table_id = link.input_value().rsplit("/", 1)[1]
    table = server.api("GET", f"/api/tables/{table_id}")
    assert table["game"] == "shengji"
    assert table["rules"] == "shengji_all_ranks_second_table"
    assert table["clocks"]["declare"] == server.api("GET", "/api/presets")["clocks"]["declare"]
    row = page.locator(f"[data-testid=table-row][data-table-id='{table_id}']")
    row.wait_for()
    assert row.get_by_test_id("table-game").inner_text() == "Shengji (升级)"
