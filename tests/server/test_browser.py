"""End to end, in Debian's chromium: the lobby, a whole deal against three bots, reload, language,
replay, the spectator's view and 托管 (docs/protocol.md; the pages are src/cardroom/server/web/).

Screenshots of the table (desktop and phone size) are written to tests/artifacts/ (git-ignored).
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

from cardroom.records import play_random
from tests.server.browser import (
    DESKTOP,
    PHONE,
    PageErrors,
    Server,
    checked,
    click_card,
    click_play,
    hand,
    legal_actions,
    run_server,
    screenshot,
    select_cards,
    selected,
    situation,
    state,
)

if TYPE_CHECKING:
    from playwright.sync_api import Browser, BrowserContext, Page, WebSocket


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory, browser: Browser) -> Iterator[Server]:
    # Depends on `browser` so that a missing browser skips before a server is started.
    data: Path = tmp_path_factory.mktemp("cardroom-data")
    with run_server(data) as running:
        yield running


def open_table(context: BrowserContext, server: Server, table_id: str, token: str | None) -> Page:
    """A page on the table, seated with ``token`` (stored as the page stores it) or watching."""
    if token is not None:
        context.add_init_script(f"localStorage.setItem({f'cardroom:{table_id}'!r}, {token!r})")
    page = context.new_page()
    page.goto(f"{server.url}/tables/{table_id}")
    page.wait_for_function("() => window.__cardroom && window.__cardroom.state !== null")
    return page


def illegal_pair(cards: list[str], legal: list[dict[str, Any]]) -> list[int]:
    """Two hand positions whose cards are no legal play."""
    plays = {" ".join(sorted(action["cards"])) for action in legal if action["type"] == "play"}
    for i in range(len(cards)):
        for j in range(i + 1, len(cards)):
            if " ".join(sorted((cards[i], cards[j]))) not in plays:
                return [i, j]
    raise AssertionError("every pair of cards is a legal play")


KIND_WORDS = {"Single": ("Single", "单张"), "Pair": ("Pair", "对子"), "Trips": ("Triple", "三张")}
"""How the page names the plain kinds, in English and Chinese."""

RANK_WORDS = {"T": "10", "B": "small joker", "R": "big joker"}
"""How the page shows the rank letters that are not shown as they are (in English)."""


def first_play(legal: list[dict[str, Any]]) -> dict[str, Any] | None:
    """The legal play of fewest cards, if any."""
    plays = [action for action in legal if action["type"] == "play"]
    return min(plays, key=lambda action: len(action["cards"])) if plays else None


def test_quick_play_a_whole_deal(browser: Browser, server: Server, context: BrowserContext) -> None:
    page = context.new_page()
    errors = PageErrors(page)
    page.goto(server.url + "/")
    page.get_by_test_id("player-name").fill("Ann")
    screenshot(page, "lobby-desktop")
    page.get_by_test_id("quick-play").click()
    page.wait_for_url(re.compile(r"/tables/[^/]+$"))
    table_id = page.url.rstrip("/").rsplit("/", 1)[1]
    token = page.evaluate(f"() => localStorage.getItem('cardroom:{table_id}')")
    assert token, "the seat token is kept in localStorage['cardroom:<table id>']"
    page.wait_for_function("() => window.__cardroom && window.__cardroom.state !== null")

    # The player's own seat at the bottom, three bots, a sorted hand of 27 (or fewer after a play).
    assert page.get_by_test_id("table").get_attribute("data-seat") == "0"
    for seat in range(4):
        assert page.get_by_test_id(f"seat-{seat}").is_visible()
    assert "Ann" in page.get_by_test_id("seat-0").inner_text()
    assert page.locator("[data-testid=seat-1] .badge.bot").count() == 1
    assert len(hand(page)) == 27
    assert page.locator("[data-testid=hand-card].wild").count() == hand(page).count(state(page)["wild"])

    turns = 0
    reloaded = dragged = checked_illegal = refused_low = phone_shot = False
    while True:
        now = situation(page)
        if now in ("between", "finished"):
            break
        assert now == "play", now
        current = state(page)
        legal = legal_actions(page)
        cards = hand(page)
        assert cards == current["hand"]
        play_button = page.get_by_test_id("play-button")
        assert play_button.is_disabled(), "Play is disabled with nothing selected"
        assert page.locator("[data-testid=seat-0] [data-testid=clock]").is_visible()

        if not checked_illegal and len(cards) >= 2:
            checked_illegal = True
            i, j = illegal_pair(cards, legal)
            click_card(page, i)
            click_card(page, j)
            assert len(selected(page)) == 2
            assert not checked(page), "the server refuses the pair"
            assert play_button.is_disabled(), "Play is disabled on an illegal selection"
            # Issue 45: the refusal in the player's words and language, from the server's reason code;
            # a valid pair that is simply too low says so, never "not a legal play".
            reason = page.evaluate("() => window.__cardroom.check.reason")
            refusal = page.get_by_test_id("status-line").inner_text()
            words = {
                "does_not_beat": ("Does not beat ", "管不上"),
                "not_a_combination": ("These cards make no combination", "这几张牌不成牌型"),
            }
            assert reason in words, reason
            in_english, in_chinese = words[reason]
            assert refusal.startswith(in_english), refusal
            assert "Error" not in refusal
            assert "Not a legal play" not in refusal
            if reason == "does_not_beat":
                beat = page.evaluate("() => window.__cardroom.check.args.beat")
                assert beat == {key: current["to_beat"]["play"][key] for key in ("kind", "rank", "cards")}
            page.get_by_test_id("lang-toggle").click()
            assert page.get_by_test_id("status-line").inner_text().startswith(in_chinese)
            page.get_by_test_id("lang-toggle").click()
            assert page.get_by_test_id("status-line").inner_text() == refusal
            page.get_by_test_id("clear-button").click()
            assert selected(page) == []

        singles = {
            action["cards"][0] for action in legal if action["type"] == "play" and len(action["cards"]) == 1
        }
        low = [index for index, card in enumerate(cards) if card not in singles]
        if not refused_low and current["to_beat"] is not None and low:
            refused_low = True  # issue 45: a single too low for the trick says what it does not beat
            click_card(page, low[0])
            assert not checked(page)
            assert page.evaluate("() => window.__cardroom.check.reason") == "does_not_beat"
            beat = current["to_beat"]["play"]
            kind = KIND_WORDS.get(beat["kind"])
            in_english = page.get_by_test_id("status-line").inner_text()
            if kind is None:
                assert in_english.startswith("Does not beat "), in_english
            else:
                assert in_english == f"Does not beat {kind[0]} {RANK_WORDS.get(beat['rank'], beat['rank'])}"
            page.get_by_test_id("lang-toggle").click()
            in_chinese = page.get_by_test_id("status-line").inner_text()
            assert in_chinese.startswith(f"管不上{kind[1] if kind else ''}"), in_chinese
            page.get_by_test_id("lang-toggle").click()
            page.get_by_test_id("clear-button").click()

        if not dragged and len(cards) >= 5:
            dragged = True  # select four cards by dragging across them
            strip = page.locator('[data-testid=hand-card][data-index="1"]').bounding_box()
            end = page.locator('[data-testid=hand-card][data-index="4"]').bounding_box()
            assert strip is not None
            assert end is not None
            page.mouse.move(strip["x"] + 6, strip["y"] + 24)
            page.mouse.down()
            page.mouse.move(end["x"] + 6, end["y"] + 24, steps=8)
            page.mouse.up()
            assert len(selected(page)) == 4
            page.get_by_test_id("clear-button").click()

        if turns == 1 and not reloaded:
            # Reload mid-deal: back in the seat with the same hand.
            reloaded = True
            before = hand(page)
            page.reload()
            page.wait_for_function("() => window.__cardroom && window.__cardroom.state !== null")
            assert page.get_by_test_id("table").get_attribute("data-seat") == "0"
            assert hand(page) == before
            continue

        if turns == 2 and not phone_shot:
            phone_shot = True
            phone = browser.new_context(viewport=PHONE, locale="en-US", has_touch=True, is_mobile=True)
            try:
                other = open_table(phone, server, table_id, token)
                assert hand(other) == hand(page), "a second tab on the seat shows the same hand"
                screenshot(other, "table-phone")
                box = other.get_by_test_id("hand").bounding_box()
                assert box is not None
                assert box["width"] <= PHONE["width"]
                assert other.get_by_test_id("play-button").is_visible()
                other.evaluate("() => localStorage.setItem('cardroom:lang', 'zh')")
                other.reload()
                other.wait_for_function("() => window.__cardroom && window.__cardroom.state !== null")
                assert other.get_by_test_id("play-button").inner_text() == "出牌"
                screenshot(other, "table-phone-zh")
            finally:
                phone.close()

        play = first_play(legal)
        if turns == 0 and play is not None:
            # Cards that read several ways (a wild card): Play asks which reading. The server never
            # offers this second reading; it is added here to exercise the question.
            fake = {**play, "kind": "Bomb" if play["kind"] != "Bomb" else "Single", "rank": "Q"}
            select_cards(page, play["cards"])
            assert checked(page)
            page.evaluate("(extra) => window.__cardroom.check.readings.push(extra)", fake)
            play_button.click()
            options = page.get_by_test_id("reading-option")
            assert options.count() == 2
            assert sorted(options.evaluate_all("els => els.map(e => e.dataset.kind)")) == sorted(
                [play["kind"], fake["kind"]]
            )
            options.and_(page.locator(f"[data-kind='{play['kind']}'][data-rank='{play['rank']}']")).click()
        elif turns % 2 == 0:
            # Select a legal play card by card.
            if play is None:
                page.get_by_test_id("pass-button").click()
            else:
                select_cards(page, play["cards"])
                assert checked(page)
                assert play_button.is_enabled(), f"Play is enabled on a legal selection {play['cards']}"
                if turns == 2:
                    screenshot(page, "table-desktop")
                click_play(page)
        else:
            # Ask the heuristic bot: it selects the cards, or says to pass.
            hints = page.evaluate("() => window.__cardroom.hints")
            page.get_by_test_id("hint-button").click()
            page.wait_for_function(f"() => window.__cardroom.hints > {hints}")
            hint = page.evaluate("() => window.__cardroom.lastHint")
            if hint["type"] == "play":
                assert selected(page) == sorted(hint["cards"])
                click_play(page)
            else:
                assert hint["type"] == "pass"
                page.get_by_test_id("pass-button").click()
        page.wait_for_function(
            f"() => window.__cardroom.state.number > {current['number']} || window.__cardroom.errors.length"
        )
        assert page.evaluate("() => window.__cardroom.errors") == []
        turns += 1

    # 27 cards take the player at least four turns before the deal can end: all the checks ran.
    assert (reloaded, phone_shot, checked_illegal, dragged) == (True, True, True, True), turns
    result = page.get_by_test_id("deal-result")
    result.wait_for()
    assert result.locator("ol.places li").count() == 4
    screenshot(page, "deal-result-desktop")
    last_deal = state(page)["last_deal"]
    assert last_deal["deal_number"] == 1
    assert sorted(last_deal["places"]) == [0, 1, 2, 3]

    assert refused_low, "a single too low for a trick was tried"

    # The language switch changes the labels, and is remembered.
    def labels() -> tuple[str | None, str | None, str]:
        return (
            page.get_by_test_id("play-button").text_content(),
            page.get_by_test_id("lobby-link").text_content(),
            page.evaluate("() => document.documentElement.lang"),
        )

    english = labels()
    assert english == ("Play", "Lobby", "en")
    page.get_by_test_id("lang-toggle").click()
    chinese = labels()
    assert chinese == ("出牌", "大厅", "zh-CN")
    page.reload()
    page.wait_for_function("() => window.__cardroom && window.__cardroom.state !== null")
    assert labels() == chinese
    page.get_by_test_id("lang-toggle").click()
    assert labels() == english

    # The finished deal, replayed step by step from the record.
    page.get_by_test_id("replay-open").click()
    step = page.get_by_test_id("replay-step")
    step.wait_for()
    assert step.get_attribute("data-step") == "0"
    total = int(step.get_attribute("data-total") or 0)
    assert total >= 8
    dealt = page.get_by_test_id("replay-hand-0").locator(".card").count()
    assert dealt == 27
    for _ in range(6):
        page.get_by_test_id("replay-next").click()
    assert step.get_attribute("data-step") == "6"
    shown = sum(page.get_by_test_id(f"replay-hand-{seat}").locator(".card").count() for seat in range(4))
    assert shown < 108
    screenshot(page, "replay-desktop")
    page.get_by_test_id("replay-last").click()
    assert step.get_attribute("data-step") == str(total)
    page.get_by_test_id("replay-prev").click()
    assert step.get_attribute("data-step") == str(total - 1)
    page.get_by_test_id("replay-close").click()
    errors.check()


def test_match_end_for_a_spectator(server: Server, context: BrowserContext) -> None:
    bots = [{"kind": "bot", "bot": "heuristic"}] * 4
    table = server.api("POST", "/api/tables", {"name": "Bots only", "max_deals": 1, "seats": bots})
    page = open_table(context, server, table["id"], None)
    errors = PageErrors(page)
    result = page.get_by_test_id("match-result")
    result.wait_for(timeout=30_000)
    final = state(page)["result"]
    score = result.get_by_test_id("match-score").inner_text()
    assert f"{final['score'][0]} : {final['score'][1]}" in score
    assert sum(final["score"]) == 28
    screenshot(page, "match-end-desktop")
    result.get_by_test_id("overlay-close").click()
    assert result.is_hidden()
    page.get_by_test_id("replay-open").click()
    page.get_by_test_id("replay-step").wait_for()
    assert page.get_by_test_id("replay-hand-0").locator(".card").count() == 27
    errors.check()


REPLAY_CHECK = """async (record) => {
  const { buildFrames } = await import("/static/replay.js");
  const problems = [];
  record.deals.forEach((deal, i) => {
    const { frames } = buildFrames(record, i);
    if (frames.length !== deal.actions.length + 1) problems.push(`deal ${i}: ${frames.length} frames`);
    deal.actions.forEach((action, k) => {
      const passed = action.play && action.play[0] === "PASS";
      const cards = action.play ? (passed ? [] : action.play[2]) : [action.tribute ?? action.return];
      const held = [...frames[k].hands[action.seat]];
      for (const card of cards) {
        const at = held.indexOf(card);
        if (at < 0) problems.push(`deal ${i} action ${k}: seat ${action.seat} does not hold ${card}`);
        else held.splice(at, 1);
      }
    });
    const winner = record.result.deals[i].places[0];
    if (frames[frames.length - 1].hands[winner].length) problems.push(`deal ${i}: the winner holds cards`);
  });
  return problems;
}"""


def test_replay_follows_every_card(server: Server, context: BrowserContext) -> None:
    """The replay's own bookkeeping (who holds what after tributes, returns and plays) over whole
    random matches, double tributes included: every card an action uses is in that seat's hand."""
    page = context.new_page()
    page.goto(server.url + "/")
    for seed in (3, 7):
        record = play_random(seed)
        assert any(sum("tribute" in action for action in deal["actions"]) == 2 for deal in record["deals"])
        assert page.evaluate(REPLAY_CHECK, record) == []


TRIBUTE_OR_PLAY = """() => {
  const app = window.__cardroom;
  const s = app && app.state;
  if (!s || s.deal_number < 2 || app.pending) return null;
  const mine = s.turn === app.seat && s.to_act;
  if ((s.phase === "tribute" || s.phase === "return") && mine) return s.phase;
  return s.phase === "play" || s.phase === "between" || s.phase === "finished" ? "other" : null;
}"""


def test_tribute_and_return_screens(browser: Browser, server: Server) -> None:
    """Deal 1 runs out the player's short lead and follow clocks (托管 plays it); between the deals the
    player takes the seat back, and in deal 2 pays or returns a tribute on its own screen. Whether this
    seat pays or returns depends on the deal; another table is tried when it does neither."""
    clocks = {"tribute": 30, "return": 30, "lead": 1, "follow": 1}
    bots = [{"kind": "bot", "bot": "heuristic"}] * 3
    done: list[str] = []
    for attempt in range(8):
        table = server.api(
            "POST",
            "/api/tables",
            {"name": f"Tribute {attempt}", "seats": [{"kind": "human"}, *bots], "clocks": clocks},
        )
        seat = server.api("POST", f"/api/tables/{table['id']}/seats/0", {"name": "Eve"})
        context = browser.new_context(viewport=DESKTOP, locale="en-US")
        try:
            page = open_table(context, server, table["id"], seat["token"])
            errors = PageErrors(page)
            page.wait_for_function("() => window.__cardroom.state.phase === 'between'", timeout=30_000)
            if page.get_by_test_id("auto-banner").is_visible():
                page.get_by_test_id("resume-button").click()
            page.wait_for_function("() => !window.__cardroom.state.seats[0].auto")
            while True:
                now = page.wait_for_function(TRIBUTE_OR_PLAY, timeout=30_000).json_value()
                if now == "other":
                    break
                screen = page.get_by_test_id(f"{now}-screen")
                assert screen.is_visible()
                legal = sorted({action["card"] for action in legal_actions(page)})
                shown = page.get_by_test_id(f"{now}-card")
                assert sorted(shown.evaluate_all("els => els.map(e => e.dataset.card)")) == legal
                # The dialog says when the tribute goes to one's partner (the partner 上游, this seat 下游)
                # and when the return does (this seat 上游, the partner 下游): a single tribute within
                # one team (docs/rules/competition.md#tribute-single).
                places = state(page)["last_deal"]["places"]
                paid_by, paid_to = (0, 2) if now == "tribute" else (2, 0)
                partner = places[0] == paid_to and places[3] == paid_by
                assert page.get_by_test_id("tribute-partner").count() == (1 if partner else 0)
                if not done:
                    screenshot(page, f"{now}-desktop")
                number = state(page)["number"]
                shown.first.click()
                page.get_by_test_id(f"{now}-submit").click()
                page.wait_for_function(f"() => window.__cardroom.state.number > {number}")
                assert page.evaluate("() => window.__cardroom.errors") == []
                if now == "tribute":
                    # The card returned to the player is highlighted in the hand for a moment.
                    card = page.wait_for_function(
                        "() => (window.__cardroom.state.returns || [])"
                        ".find((r) => r.to === 0 && r.card)?.card"
                    ).json_value()
                    received = page.locator('[data-testid=hand-card][data-received="1"]')
                    assert received.first.get_attribute("data-card") == card
                done.append(now)
            errors.check()
        finally:
            context.close()
        if done:
            break
    assert done, "in eight deals the player never paid or returned a tribute"


def test_spectator_sees_no_hand(server: Server, context: BrowserContext) -> None:
    quick = server.api("POST", "/api/quick", {"name": "Bo"})
    page = open_table(context, server, quick["id"], None)
    errors = PageErrors(page)
    page.wait_for_function("() => window.__cardroom.state.seats.every(s => s.name)")
    assert page.get_by_test_id("spectator-banner").is_visible()
    assert page.evaluate("() => window.__cardroom.state.hand") is None
    assert page.evaluate("() => window.__cardroom.seat") is None
    assert page.locator("[data-testid=hand-card]").count() == 0
    assert page.get_by_test_id("hand").is_hidden()
    assert page.get_by_test_id("controls").is_hidden()
    # The public table: four seats with names and card counts.
    for seat in range(4):
        assert page.get_by_test_id(f"seat-{seat}").locator("[data-testid=card-count]").inner_text().strip()
    assert "Bo" in page.get_by_test_id("seat-0").inner_text()
    screenshot(page, "spectator-desktop")

    # A dropped connection comes back by itself and asks only for the events it missed.
    joins: list[dict[str, Any]] = []

    def on_socket(socket: WebSocket) -> None:
        def sent(payload: str | bytes) -> None:
            message = json.loads(payload)
            if message.get("type") == "join":
                joins.append(message)

        socket.on("framesent", sent)

    page.on("websocket", on_socket)
    number = page.evaluate("() => window.__cardroom.number")
    assert number > 0
    page.evaluate("() => window.__cardroom.dropConnection()")
    for _ in range(200):
        if joins:
            break
        page.wait_for_timeout(50)
    page.wait_for_function(f"() => window.__cardroom.connected && window.__cardroom.state.number >= {number}")
    assert joins, "the page did not reconnect"
    assert joins[0]["token"] is None
    assert joins[0]["since"] >= number
    errors.check()


CLOCK_FIELDS = ("tribute", "return", "lead", "follow")


def clock_fields(page: Page) -> dict[str, str]:
    return {key: page.get_by_test_id(f"clock-{key}").input_value() for key in CLOCK_FIELDS}


def test_lobby_creates_a_table_and_a_seat_is_taken(server: Server, context: BrowserContext) -> None:
    page = context.new_page()
    errors = PageErrors(page)
    page.goto(server.url + "/")
    # The clock fields start from the server's defaults (the test server's are 60 s each).
    defaults = server.api("GET", "/api/presets")["clocks"]
    page.wait_for_function(
        "(want) => document.querySelector('[data-testid=clock-lead]').value === want",
        arg=str(int(defaults["lead"])),
    )
    assert clock_fields(page) == {key: str(int(defaults[key])) for key in CLOCK_FIELDS}
    page.get_by_test_id("player-name").fill("Chen")
    page.get_by_test_id("table-name").fill("Evening game")
    page.get_by_test_id("match-length").select_option("1")
    page.get_by_test_id("seat-config-2").select_option("human")

    # An out-of-range clock is refused in the form, with a message in either language; nothing is created.
    before = len(server.api("GET", "/api/tables")["tables"])
    message = page.get_by_test_id("clock-error")
    follow = page.get_by_test_id("clock-follow")
    follow.fill("3")
    page.get_by_test_id("create-submit").click()
    message.wait_for()
    assert message.inner_text() == "Follow: enter a whole number of seconds from 5 to 3600."
    assert follow.get_attribute("aria-invalid") is not None
    assert page.evaluate("() => document.activeElement.dataset.testid") == "clock-follow"
    page.get_by_test_id("lang-toggle").click()
    assert message.inner_text() == "跟牌限时须为 5–3600 之间的整数秒。"
    assert page.get_by_test_id("clocks-config").locator("legend").inner_text() == "限时（秒）"
    screenshot(page, "lobby-clock-error-zh-desktop")
    page.set_viewport_size(PHONE)
    message.scroll_into_view_if_needed()
    screenshot(page, "lobby-clock-error-zh-phone")
    page.set_viewport_size(DESKTOP)
    page.get_by_test_id("lang-toggle").click()
    page.get_by_test_id("clock-lead").fill("3601")
    follow.fill("15")
    page.get_by_test_id("create-submit").click()
    assert message.inner_text() == "Lead: enter a whole number of seconds from 5 to 3600."
    assert follow.get_attribute("aria-invalid") is None
    assert page.get_by_test_id("created").is_hidden()
    assert len(server.api("GET", "/api/tables")["tables"]) == before

    # Non-default clocks go with the new table.
    clocks = {"tribute": 25, "return": 45, "lead": 30, "follow": 15}
    for key, value in clocks.items():
        page.get_by_test_id(f"clock-{key}").fill(str(value))
    page.get_by_test_id("create-submit").click()
    link = page.get_by_test_id("share-link")
    link.wait_for()
    assert message.is_hidden()
    assert page.get_by_test_id("create-error").is_hidden()
    url = link.input_value()
    assert re.search(r"/tables/[^/]+$", url)
    table_id = url.rsplit("/", 1)[1]
    stored = server.api("GET", f"/api/tables/{table_id}")["clocks"]
    assert {key: stored[key] for key in clocks} == clocks
    row = page.locator(f"[data-testid=table-row][data-table-id='{table_id}']")
    row.wait_for()
    assert "Evening game" in row.inner_text()
    assert row.get_by_test_id("table-clocks").inner_text() == "Clocks 25/45/30/15 s"
    screenshot(page, "lobby-created-desktop")
    screenshot(page, "lobby-created-desktop-full", full_page=True)
    page.set_viewport_size(PHONE)
    screenshot(page, "lobby-phone")
    screenshot(page, "lobby-phone-full", full_page=True)
    box = page.get_by_test_id("clocks-config").bounding_box()
    assert box is not None
    assert box["x"] >= 0
    assert box["x"] + box["width"] <= PHONE["width"], "the clock fields fit a phone's width"
    page.set_viewport_size(DESKTOP)
    page.get_by_test_id("open-created").click()
    page.wait_for_function("() => window.__cardroom && window.__cardroom.state !== null")
    page.get_by_test_id("waiting-screen").wait_for()
    assert page.get_by_test_id("sit-name").input_value() == "Chen", "the name typed in the lobby is carried"
    page.get_by_test_id("sit-2").click()
    page.wait_for_function("() => window.__cardroom.seat === 2")
    assert page.evaluate(f"() => localStorage.getItem('cardroom:{table_id}')")
    assert page.get_by_test_id("table").get_attribute("data-seat") == "2"
    # Seat 0 is still open: the table waits, the seated player is at the bottom.
    assert page.get_by_test_id("waiting-screen").is_visible()
    assert page.locator("#pos-0").get_attribute("data-seat") == "2"
    screenshot(page, "waiting-desktop")
    errors.check()


def test_clock_runs_out_and_the_player_takes_the_seat_back(server: Server, context: BrowserContext) -> None:
    clocks = {"tribute": 1, "return": 1, "lead": 1, "follow": 1}
    bots = [{"kind": "bot", "bot": "heuristic"}] * 3
    table = server.api(
        "POST", "/api/tables", {"name": "Quick clocks", "seats": [{"kind": "human"}, *bots], "clocks": clocks}
    )
    seat = server.api("POST", f"/api/tables/{table['id']}/seats/0", {"name": "Dai"})
    page = open_table(context, server, table["id"], seat["token"])
    errors = PageErrors(page)
    banner = page.get_by_test_id("auto-banner")
    banner.wait_for(timeout=20_000)
    assert page.locator("[data-testid=seat-0] [data-testid=auto-badge]").is_visible()
    page.get_by_test_id("resume-button").click()
    page.wait_for_function(
        "() => window.__cardroom.events.some(e => e.type === 'auto' && e.seat === 0 && e.on === false)"
    )
    errors.check()


def test_big_and_small_jokers_are_told_apart_at_a_glance(server: Server, context: BrowserContext) -> None:
    """The two jokers differ in label (BIG / SMALL, 大王 / 小王), star (filled / outlined) and face colour,
    full size and small (as in the replay's trick rows), in both languages."""
    page = context.new_page()
    errors = PageErrors(page)
    page.goto(server.url)
    drawn = """async () => {
        const { cardElement } = await import('/static/cards.js');
        const out = {};
        for (const [code, small] of [['HR', false], ['SB', false], ['HR', true], ['SB', true]]) {
            const el = cardElement(code, { small });
            document.body.append(el);
            out[code + (small ? '-small' : '')] = {
                label: el.querySelector('.joker-corner').textContent,
                star: el.querySelector('.pip').textContent,
                face: getComputedStyle(el).backgroundImage,
            };
        }
        return out;
    }"""
    cards = page.evaluate(drawn)
    for size in ("", "-small"):
        big, small = cards["HR" + size], cards["SB" + size]
        assert (big["label"], small["label"]) == ("BIG", "SMALL")
        assert (big["star"], small["star"]) == ("★", "☆")
        assert big["face"] != small["face"]
    page.evaluate("() => localStorage.setItem('cardroom:lang', 'zh')")
    page.reload()
    cards = page.evaluate(drawn)
    assert (cards["HR"]["label"], cards["SB"]["label"]) == ("大王", "小王")
    errors.check()
