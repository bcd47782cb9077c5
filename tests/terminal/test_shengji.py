"""``cardroom play --game shengji``: the Shengji table driven headless through Textual's test driver:
a deal played from the keyboard (declaring, the kitty when the person deals, tricks), a play that breaks
the follow duty refused with the rule, and the record written and replayed."""

from __future__ import annotations

from pathlib import Path

from textual.widgets import Static

from cardroom.records import read_record
from cardroom.records.shengji import replay_shengji
from cardroom.shengji.deal import Phase
from cardroom.terminal.shengji import ShengjiTable
from tests.terminal.running import run


def message(app: ShengjiTable) -> str:
    return str(app.query_one("#message", Static).render())


def test_two_deals_played_from_the_keyboard_write_a_record_that_replays(tmp_path: Path) -> None:
    out = tmp_path / "sj.json"

    async def play() -> ShengjiTable:
        app = ShengjiTable(seed=4, bots="random", max_deals=2, out=out)
        async with app.run_test() as pilot:
            phases = set()
            for _ in range(600):
                if app.finished:
                    break
                if app.match.current_deal is None:
                    await pilot.press("n")
                    continue
                assert app.my_turn
                phases.add(app.observation.phase)
                await pilot.press("a")
            assert app.finished
            assert Phase.TRICKS in phases
            assert app.saved == out
            assert "The match is over" in message(app)
        return app

    app = run(play())
    assert len(app.match.summaries) == 2
    report = replay_shengji(read_record(out))
    assert report.violation is None
    assert report.mismatches == ()


def test_a_play_against_the_follow_duty_is_refused_with_the_rule() -> None:
    """Following a lead with a card of another suit while holding the led suit breaks 跟牌 (the follow
    duty): refused, named, and the turn stays."""

    async def play() -> None:
        app = ShengjiTable(seed=8, bots="random", max_deals=1)
        async with app.run_test() as pilot:
            for _ in range(300):
                observation = app.observation
                if app.my_turn and observation.phase is Phase.TRICKS and observation.lead is not None:
                    rules = observation.trick_rules
                    assert rules is not None
                    led = rules.suit_of(observation.trick_plays[0][1][0])
                    same = [c for c in app.hand if rules.suit_of(c) is led]
                    other = [c for c in app.hand if rules.suit_of(c) is not led]
                    count = len(observation.trick_plays[0][1])
                    if same and other and count == 1:
                        app.selected = app.indices_of([other[0]])
                        await pilot.press("enter")
                        assert app.my_turn, "the turn stays with the person"
                        assert "Not allowed" in message(app)
                        assert "Error" in message(app)
                        return
                await pilot.press("a")
            raise AssertionError("no follow with a choice of suit came up")

    run(play())
