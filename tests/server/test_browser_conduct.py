"""End to end, in Debian's chromium: the offender's 下家 answers the choice the rules give it, in the
table page's dialog — whether the offender's next turn is skipped after a 违例, who leads the next deal
after a 犯规 (docs/protocol.md, "Choices"). The offence is a lost connection (the offender's page closes)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

from tests.server.browser import (
    DESKTOP,
    PageErrors,
    Server,
    run_server,
    screenshot,
)

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Page

CONDUCT_CLOCKS = {"tribute_s": 600, "return_s": 600, "first_lead_s": 600, "play_s": 600, "countdown_s": 0}


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory, browser: Browser) -> Iterator[Server]:
    data: Path = tmp_path_factory.mktemp("cardroom-conduct")
    with run_server(data) as running:
        yield running


def seated_page(browser: Browser, server: Server, table_id: str, token: str) -> Page:
    """A page of its own browser context (its own localStorage) on the table, seated with ``token``."""
    context = browser.new_context(viewport=DESKTOP, locale="en-US")
    context.set_default_timeout(15_000)
    context.add_init_script(f"localStorage.setItem({f'cardroom:{table_id}'!r}, {token!r})")
    page = context.new_page()
    page.goto(f"{server.url}/tables/{table_id}")
    page.wait_for_function(
        "() => window.__cardroom && window.__cardroom.state && window.__cardroom.connected"
    )
    return page


def offence_table(server: Server, penalty: str) -> tuple[str, list[str]]:
    """Ann (seat 0) and Bo (seat 1, her 下家) against two bots; a lost connection costs ``penalty``."""
    table = server.api(
        "POST",
        "/api/tables",
        {
            "name": f"Conduct {penalty}",
            "seats": [{"kind": "human"}, {"kind": "human"}, {"kind": "bot"}, {"kind": "bot"}],
            "conduct": {"timeout": None, "disconnection": penalty, "clocks": CONDUCT_CLOCKS},
            "disconnect_grace": 0.1,
            "deal_pause": 0,
            "bot_delay": 0,
        },
    )
    tokens = [
        server.api("POST", f"/api/tables/{table['id']}/seats/{seat}", {"name": name})["token"]
        for seat, name in ((0, "Ann"), (1, "Bo"))
    ]
    return table["id"], tokens


def events(page: Page, kind: str) -> list[dict[str, Any]]:
    found = page.evaluate(f"() => window.__cardroom.events.filter((e) => e.type === {kind!r})")
    assert isinstance(found, list)
    return found


def test_the_next_player_answers_not_to_skip_in_the_dialog(browser: Browser, server: Server) -> None:
    table_id, (ann, bo) = offence_table(server, "VIOLATION")
    chooser = seated_page(browser, server, table_id, bo)
    errors = PageErrors(chooser)
    offender = seated_page(browser, server, table_id, ann)
    dialog = chooser.get_by_test_id("choice-dialog")
    assert dialog.is_hidden()
    offender.context.close()  # Ann's connection is lost: 违例 after the grace
    dialog.wait_for(state="visible")
    assert dialog.get_attribute("data-kind") == "skip_turn"
    assert chooser.get_by_test_id("choice-title").inner_text() == "Skip Ann's next turn?"
    chooser.get_by_test_id("penalty-banner").wait_for(state="visible")
    penalty = chooser.get_by_test_id("table-penalty")
    assert penalty.all_inner_texts() == ["deal 1, Ann: Violation (违例) (disconnection)"]
    screenshot(chooser, "conduct-skip-choice")
    chooser.get_by_test_id("choice-skip-no").click()
    dialog.wait_for(state="hidden")
    chooser.wait_for_function("() => window.__cardroom.events.some((e) => e.type === 'chosen')")
    (chosen,) = events(chooser, "chosen")
    assert chosen["skip"] is False
    assert chosen["by"] == "player"
    assert not events(chooser, "ruling")
    errors.check()
    chooser.context.close()


def test_the_next_player_names_the_leader_after_a_foul(browser: Browser, server: Server) -> None:
    table_id, (ann, bo) = offence_table(server, "FOUL")
    chooser = seated_page(browser, server, table_id, bo)
    errors = PageErrors(chooser)
    offender = seated_page(browser, server, table_id, ann)
    chooser.evaluate("() => document.querySelector('[data-testid=lang-toggle]').click()")  # 中文
    offender.context.close()  # 犯规: the deal ends, Bo names the next deal's leader
    dialog = chooser.get_by_test_id("choice-dialog")
    dialog.wait_for(state="visible")
    assert dialog.get_attribute("data-kind") == "leader"
    assert chooser.get_by_test_id("choice-title").inner_text() == "指定下一副牌的首圈领出者"
    assert chooser.get_by_test_id("table-penalty").all_inner_texts() == ["第1副 Ann：犯规（掉线）"]
    assert [chooser.get_by_test_id(f"choice-leader-{seat}").count() for seat in range(4)] == [1, 1, 1, 1]
    screenshot(chooser, "conduct-leader-choice")
    chooser.get_by_test_id("choice-leader-3").click()
    dialog.wait_for(state="hidden")
    chooser.wait_for_function(
        "() => window.__cardroom.events.some((e) => e.type === 'deal' && e.deal_number === 2)"
    )
    deal = next(event for event in events(chooser, "deal") if event["deal_number"] == 2)
    assert deal["leader"] == 3
    errors.check()
    chooser.context.close()
