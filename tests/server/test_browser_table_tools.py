"""End to end, in Debian's chromium: reading the table and the player's helpers (issue 45) at a Guandan
table of four people. The person at seat 0 plays in the page; seats 1-3 are scripted websocket peers
that pass whenever they may (so whoever plays wins the trick); a second page holds seat 2 as well, in
Chinese. The trick stays on the table until the next lead, the last trick opens again, Hint cycles
through several choices, the 托管 switch turns on and off, the card counter counts, and the quick chat
reaches the other page. Screenshots at desktop and phone size go to tests/artifacts/."""

from __future__ import annotations

import json
import re
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any, Final, Literal

import pytest
from websockets.sync.client import connect

from cardroom.rule_errors import RuleError
from tests.server.browser import (
    PHONE,
    PageErrors,
    Server,
    assert_laid_out,
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
    from playwright.sync_api import Browser, BrowserContext, Page


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory, browser: Browser) -> Iterator[Server]:
    data: Path = tmp_path_factory.mktemp("cardroom-data")
    with run_server(data) as running:
        yield running


class Passer(threading.Thread):
    """A scripted seat: passes whenever it may, leads its first legal play when it must; keeps every
    card it sees played. While ``held`` is set it waits before acting (its turn then holds the deal)."""

    def __init__(self, server: Server, table_id: str, seat: int, token: str) -> None:
        super().__init__(daemon=True)
        self.url = server.url.replace("http", "ws") + f"/ws/tables/{table_id}"
        self.seat, self.token = seat, token
        self.played: list[str] = []
        self.stop = threading.Event()
        self.held = threading.Event()

    def run(self) -> None:
        with connect(self.url, open_timeout=10) as ws:
            ws.send(json.dumps({"type": "join", "token": self.token, "since": 0}))
            acted = -1
            turn: dict[str, Any] | None = None
            while not self.stop.is_set():
                try:
                    frame = json.loads(ws.recv(timeout=0.2))
                except TimeoutError:
                    frame = {"type": "none"}
                if frame["type"] == "event" and frame["event"]["type"] == "action":
                    play = frame["event"]["action"].get("play")
                    if play and play[0] != "PASS":
                        self.played.extend(play[2])
                if frame["type"] == "legal" and frame["actions"]:
                    plays = [a for a in frame["actions"] if a["type"] == "play"]
                    ws.send(json.dumps({"type": "act", "action": min(plays, key=lambda a: len(a["cards"]))}))
                if frame["type"] == "state":
                    mine = frame["turn"] == self.seat and frame["to_act"] and frame["number"] != acted
                    turn = frame if mine else None
                if turn is None or self.held.is_set():
                    continue
                acted = turn["number"]
                if turn["phase"] == "play" and turn["can_pass"]:
                    ws.send(json.dumps({"type": "act", "action": {"type": "pass"}}))
                else:
                    ws.send(json.dumps({"type": "legal"}))
                turn = None


def seat_page(context: BrowserContext, server: Server, table_id: str, token: str) -> Page:
    context.add_init_script(f"localStorage.setItem({f'cardroom:{table_id}'!r}, {token!r})")
    page = context.new_page()
    page.goto(f"{server.url}/tables/{table_id}")
    page.wait_for_function("() => window.__cardroom && window.__cardroom.state !== null")
    return page


def my_lead(page: Page) -> dict[str, Any]:
    """Wait until the person leads (after the scripted seats passed), play on until it does."""
    for _ in range(30):
        assert situation(page) == "play"
        current = state(page)
        if current["to_beat"] is None and current.get("last_trick"):
            return current
        # Follow (or the first lead): the hint's play wins the trick, the others passing.
        page.evaluate("() => { window.__cardroom.hints = 0; }")
        page.get_by_test_id("hint-button").click()
        page.wait_for_function("() => window.__cardroom.hints > 0")
        if current["to_beat"] is not None:
            page.get_by_test_id("to-beat").first.wait_for()
        if not selected(page):
            # The bot would pass: play anyway (the scripted seats pass, so the person wins the trick).
            plays = [a for a in legal_actions(page) if a["type"] == "play"]
            if plays:
                select_cards(page, min(plays, key=lambda a: len(a["cards"]))["cards"])
        if selected(page):
            page.wait_for_function("() => window.__cardroom.check && window.__cardroom.check.ok")
            page.get_by_test_id("play-button").click()
            if page.get_by_test_id("readings").is_visible():
                page.get_by_test_id("reading-option").first.click()
        else:
            page.get_by_test_id("pass-button").click()
        page.wait_for_function(f"() => window.__cardroom.state.number > {current['number']}")
    raise AssertionError("the person never led after a trick")


def test_reading_the_table_and_the_helpers(browser: Browser, server: Server) -> None:
    table = server.api("POST", "/api/tables", {"name": "Four friends", "seats": [{"kind": "human"}] * 4})
    table_id = table["id"]
    tokens = [
        server.api("POST", f"/api/tables/{table_id}/seats/{seat}", {"name": name})["token"]
        for seat, name in enumerate(("Ann", "Bo", "Cy", "Di"))
    ]
    passers = [Passer(server, table_id, seat, tokens[seat]) for seat in (1, 2, 3)]
    for passer in passers:
        passer.start()
    ann_context = browser.new_context(viewport={"width": 1280, "height": 800}, locale="en-US")
    cy_context = browser.new_context(viewport={"width": 1280, "height": 800}, locale="zh-CN")
    try:
        ann_context.set_default_timeout(20_000)
        cy_context.set_default_timeout(20_000)
        page = seat_page(ann_context, server, table_id, tokens[0])
        errors = PageErrors(page)
        cy = seat_page(cy_context, server, table_id, tokens[2])

        # The trick stays on the table until the next lead: Ann's play, the three passes, Ann marked
        # as its winner; the last trick opens again from its button.
        now = my_lead(page)
        trick = now["last_trick"]
        assert trick["winner"] == 0
        seat0 = page.get_by_test_id("seat-0")
        assert seat0.get_by_test_id("trick-winner").inner_text() == "won the trick"
        assert "previous" in (seat0.get_by_test_id("last-play").get_attribute("class") or "")
        for seat in (1, 2, 3):
            assert page.get_by_test_id(f"seat-{seat}").get_by_test_id("last-play").inner_text() == "Pass"
        screenshot(page, "trick-kept-desktop")
        page.get_by_test_id("last-trick-button").click()
        view = page.get_by_test_id("last-trick-view")
        assert len(trick["order"]) >= 4, "the lead and at least the three passes that end the trick"
        assert view.get_by_test_id("last-trick-row").count() == len(trick["order"]), "every action, in order"
        assert (
            view.locator(".trick-row")
            .first.inner_text()
            .startswith(("Ann", "Bo", "Cy", "Di")[trick["order"][0]["seat"]])
        )
        assert "Ann" in view.locator(".trick-row.won").inner_text()
        page.get_by_test_id("last-trick-close").click()
        assert not view.is_visible()
        assert cy.get_by_test_id("last-trick-button").inner_text() == "上一轮"

        # Hint cycles: each press selects another good choice.
        choices = []
        for press in range(3):
            page.get_by_test_id("hint-button").click()
            page.wait_for_function(f"() => window.__cardroom.hints > {press}")
            page.wait_for_function("() => window.__cardroom.hintCycle && window.__cardroom.hintCycle.list")
            choices.append(tuple(selected(page)))
        assert len(set(choices)) == 3, choices
        assert page.evaluate("() => window.__cardroom.hintCycle.list.length") > 3

        # The card counter: off at first, on at a click, remembered; every card not in Ann's hand and
        # not played is counted once.
        counter = page.get_by_test_id("counter")
        assert not counter.is_visible()
        page.get_by_test_id("counter-toggle").click()
        assert counter.is_visible()
        cells = page.get_by_test_id("counter-cell")
        assert cells.count() == 16  # big, small, ♥ level, other level cards, twelve ranks
        out = sum(int(cells.nth(i).get_attribute("data-out") or "0") for i in range(cells.count()))
        played = page.evaluate("() => window.__cardroom.played.cards.length")
        assert out == 108 - len(hand(page)) - played
        assert played == len(passers[0].played)
        jokers = counter.locator("[data-rank=R]").get_attribute("data-out")
        assert jokers == str(2 - hand(page).count("HR") - passers[0].played.count("HR"))
        page.set_viewport_size(PHONE)
        page.wait_for_timeout(300)  # the hand is laid out again 80 ms after a resize
        screenshot(page, "trick-counter-phone")
        page.set_viewport_size({"width": 1280, "height": 800})
        page.wait_for_timeout(300)  # laid out again before the next click lands (a run missed the chat)

        # Quick chat reaches the other seat's page, in its language, beside Ann's seat.
        from playwright.sync_api import expect

        page.get_by_test_id("chat-button").click()
        expect(page.get_by_test_id("popover")).to_have_attribute("data-shows", "chat")
        page.locator("[data-testid=chat-phrase][data-phrase=nice]").click()
        bubble = cy.get_by_test_id("seat-0").get_by_test_id("chat-bubble")
        bubble.wait_for()
        assert bubble.inner_text() == "打得好！"
        screenshot(cy, "quick-chat-zh-desktop")

        # The 托管 switch: on, the bot plays Ann's lead; off again at will. Bo waits meanwhile, so that
        # the bot plays one lead, not Ann's whole hand (the others passing at once) to the deal's end.
        passers[0].held.set()
        before = len(hand(page))
        page.get_by_test_id("auto-toggle").click()
        page.get_by_test_id("auto-banner").wait_for()
        page.wait_for_function(f"() => window.__cardroom.state.hand.length < {before}")
        assert page.get_by_test_id("auto-toggle").get_attribute("aria-pressed") == "true"
        page.get_by_test_id("auto-toggle").click()
        page.wait_for_function("() => !window.__cardroom.state.seats[0].auto")
        assert not page.get_by_test_id("auto-banner").is_visible()
        passers[0].held.clear()

        page.reload()
        page.wait_for_function("() => window.__cardroom && window.__cardroom.state !== null")
        if state(page)["phase"] == "play":
            assert page.get_by_test_id("counter").is_visible(), "the counter stays on in this browser"
        errors.check()
    finally:
        for passer in passers:
            passer.stop.set()
        ann_context.close()
        cy_context.close()


def quick_table(context: BrowserContext, server: Server) -> Page:
    """A new table against three bots from the lobby's "Play now"."""
    page = context.new_page()
    page.goto(server.url + "/")
    page.get_by_test_id("player-name").fill("Ann")
    page.get_by_test_id("quick-play").click()
    page.wait_for_function("() => window.__cardroom && window.__cardroom.state !== null")
    return page


def test_with_auto_on_the_tools_stay_on_screen_and_a_toast_covers_none(
    browser: Browser, server: Server
) -> None:
    """托管 at 1280×800 and 390×844: the banner takes the play buttons' room, so the tools stay above the
    fold and nothing overlaps; a toast (the hint's) shows over the felt, never over the hand or tools."""
    table = server.api(
        "POST",
        "/api/tables",
        {
            "name": "Slow bots",
            "bot_delay": 10,
            "seats": [{"kind": "human"}] + [{"kind": "bot", "bot": "heuristic"}] * 3,
        },
    )
    token = server.api("POST", f"/api/tables/{table['id']}/seats/0", {"name": "Ann"})["token"]
    context = browser.new_context(viewport={"width": 1280, "height": 800}, locale="en-US")
    try:
        page = seat_page(context, server, table["id"], token)
        page.wait_for_function("() => window.__cardroom.state.phase === 'play'")
        parts = [".topbar", "#table", "#controls", "#hand", "#tools"]
        assert_laid_out(page, parts)
        page.get_by_test_id("auto-toggle").click()
        page.get_by_test_id("auto-banner").wait_for()
        assert not page.get_by_test_id("controls").is_visible(), "the bot plays: no play buttons"
        parts = [".topbar", "#auto-banner", "#table", "#hand", "#tools"]
        assert_laid_out(page, parts)
        page.evaluate(
            "() => import('/static/tablepage.js').then((table) => table.toast('The bot would pass'))"
        )
        page.get_by_test_id("toast").wait_for()
        boxes = assert_laid_out(page, ["#toast", "#hand", "#tools"])
        felt = page.locator("#table").bounding_box()
        assert felt is not None
        toast = boxes["#toast"]
        assert felt["y"] <= toast["y"], "over the felt"
        assert toast["y"] + toast["height"] <= felt["y"] + felt["height"], "over the felt"
        screenshot(page, "auto-on-desktop")
        page.set_viewport_size(PHONE)
        page.wait_for_timeout(300)  # the hand is laid out again 80 ms after a resize
        assert_laid_out(page, parts)
        assert_laid_out(page, ["#toast", "#hand", "#tools"])
        screenshot(page, "auto-on-phone")
        page.get_by_test_id("auto-toggle").click()
        page.get_by_test_id("controls").wait_for()
        assert not page.get_by_test_id("auto-banner").is_visible()
        hidden = page.evaluate(
            """() => import('/static/tablepage.js').then((table) => {
                const box = document.getElementById('toast');
                table.toast('The bot would pass');
                const before = box.hidden;
                const panel = document.createElement('div');
                panel.dataset.screen = 'deal';
                table.showOverlay(panel);
                return [before, box.hidden];
            })"""
        )
        assert hidden == [False, True], "a panel that opens takes the table's toast away"
    finally:
        context.close()


def test_sound_on_ones_turn_and_a_remembered_mute(server: Server, context: BrowserContext) -> None:
    page = quick_table(context, server)
    errors = PageErrors(page)
    assert situation(page) == "play"
    page.wait_for_function("() => window.__cardroom.tones.includes('turn')")
    button = page.get_by_test_id("sound-toggle")
    assert button.get_attribute("aria-pressed") == "false"
    button.click()
    assert button.get_attribute("aria-pressed") == "true"
    page.reload()
    page.wait_for_function("() => window.__cardroom && window.__cardroom.state !== null")
    assert situation(page) == "play"
    assert page.get_by_test_id("sound-toggle").get_attribute("aria-pressed") == "true", "remembered"
    assert page.evaluate("() => window.__cardroom.tones") == [], "muted: no tone on the turn"
    errors.check()


@pytest.mark.parametrize("motion", ["reduce", "no-preference"])
def test_animations_respect_reduced_motion(
    browser: Browser, server: Server, motion: Literal["reduce", "no-preference"]
) -> None:
    context = browser.new_context(
        viewport={"width": 1280, "height": 800}, locale="en-US", reduced_motion=motion
    )
    try:
        page = quick_table(context, server)
        names = page.evaluate(
            """() => ["play-in", "bomb-shake", "deal-glow"].map((cls) => {
                 const el = document.createElement("div");
                 el.className = cls;
                 document.body.append(el);
                 const name = getComputedStyle(el).animationName;
                 el.remove();
                 return name;
               })"""
        )
        assert names == (["none"] * 3 if motion == "reduce" else ["play-in", "bomb-shake", "deal-glow"])
    finally:
        context.close()


def test_the_lobby_shows_waiting_tables_first_with_a_seat_to_take(
    server: Server, context: BrowserContext
) -> None:
    server.api("POST", "/api/tables", {"name": "Bots only", "seats": [{"kind": "bot", "bot": "random"}] * 4})
    waiting = server.api(
        "POST",
        "/api/tables",
        {"name": "Two free", "seats": [{"kind": "human"}, {"kind": "bot", "bot": "heuristic"}] * 2},
    )
    server.api("POST", f"/api/tables/{waiting['id']}/seats/0", {"name": "Bo"})
    page = context.new_page()
    errors = PageErrors(page)
    page.goto(server.url + "/")
    page.get_by_test_id("player-name").fill("Ann")
    rows = page.get_by_test_id("table-row")
    rows.first.wait_for()
    statuses = rows.evaluate_all("els => els.map(e => e.dataset.status)")
    assert "running" in statuses
    assert statuses == sorted(statuses, key=lambda status: status != "waiting"), "waiting tables first"
    row = page.locator(f'[data-testid=table-row][data-table-id="{waiting["id"]}"]')
    assert row.get_by_test_id("free-seats").inner_text() == "1 free seat(s)"
    screenshot(page, "lobby-waiting-first-desktop")
    row.get_by_test_id("take-free-seat").click()
    page.wait_for_function("() => window.__cardroom && window.__cardroom.seat === 2")
    assert server.api("GET", f"/api/tables/{waiting['id']}")["seats"][2]["name"] == "Ann"
    errors.check()


def test_the_left_joker_is_not_cut_on_a_phone(browser: Browser, server: Server) -> None:
    context = browser.new_context(viewport=PHONE, locale="zh-CN")
    try:
        page = quick_table(context, server)
        first = page.locator("[data-testid=hand-card]").first.bounding_box()
        hand_box = page.get_by_test_id("hand").bounding_box()
        assert first is not None
        assert hand_box is not None
        assert first["x"] >= hand_box["x"] + 3, ("a selected card's 3 px ring fits", first, hand_box)
        screenshot(page, "table-hand-phone-zh")
    finally:
        context.close()


def rule_error_classes(base: type[RuleError] = RuleError) -> Iterator[type[RuleError]]:
    yield base
    for sub in base.__subclasses__():
        yield from rule_error_classes(sub)


SAMPLE_ARGS: Final = {
    "cards": ["H5", "S5"],
    "beat": {"kind": "Pair", "rank": "Q", "cards": ["SQ", "HQ"]},
    "suit": "D",
    "suits": ["H", "T"],
    "count": 2,
    "held": 3,
    "required": 2,
    "played": 1,
    "pairs": 1,
    "tractors": 1,
}
"""Arguments of every shape docs/protocol.md ("Refusals") names, for the words to fill."""

REFUSAL_WORDS = """async ([reasons, args]) => {
  const i18n = await import("/static/i18n.js");
  const cards = await import("/static/cards.js");
  const words = {};
  for (const lang of ["en", "zh"]) {
    i18n.setLang(lang);
    words[lang] = {};
    for (const reason of reasons) words[lang][reason] = cards.refusalText({ reason, args });
    for (const kind of ["Bomb", "Pair"]) {
      const refusal = { reason: "not_a_combination", args: { cards: ["H5"], kind } };
      words[lang][`kind:${kind}`] = cards.refusalText(refusal);
    }
  }
  i18n.setLang("en");
  return words;
}"""


def test_every_refusal_the_rules_can_give_has_words_in_both_languages(
    server: Server, context: BrowserContext
) -> None:
    """Every ``reason`` code of a rule error either game raises (docs/protocol.md, "Refusals") is said
    in English and in Chinese, its arguments filled in; a malformed bomb says what a bomb needs."""
    reasons = sorted({error.reason for error in rule_error_classes()})
    assert {"wrong_level", "illegal_play", "bad_ruling", "no_turn_to_skip", "bad_throw"} <= set(reasons)
    page = context.new_page()
    page.goto(server.url + "/")
    words = page.evaluate(REFUSAL_WORDS, [reasons, SAMPLE_ARGS])
    for lang in ("en", "zh"):
        for reason, text in words[lang].items():
            assert text, f"no {lang} words for the refusal {reason!r}"
            assert "{" not in text, (lang, reason, text)
    for reason in words["en"]:
        assert words["en"][reason] != words["zh"][reason], reason
        assert re.search(r"[\u4e00-\u9fff]", words["zh"][reason]), ("Chinese words", reason)
    assert words["en"]["does_not_beat"] == "Does not beat Pair Q"
    assert words["zh"]["does_not_beat"] == "管不上对子 Q", (
        "a valid play too low is 管不上, not 不是合法的牌型"
    )
    assert words["en"]["must_follow_suit"] == "Must follow ♦ (you hold 3)"
    assert words["en"]["kind:Bomb"] == "A bomb needs four cards or more, all of one rank"
    assert words["zh"]["kind:Bomb"] == "炸弹要四张或以上同点数的牌"
    assert words["en"]["kind:Pair"] == "These cards are not a Pair"
