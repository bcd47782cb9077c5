"""``cardroom play``: the terminal table driven headless through Textual's test driver (``run_test``):
a whole match played from the keyboard, cards chosen by keys and by typing, illegal plays refused with
the rule, tribute and return, and the record written at the end."""

from __future__ import annotations

from pathlib import Path

from textual.widgets import Static

from cardroom.guandan import PlayKind
from cardroom.guandan.plays import rank_order
from cardroom.records import read_record, replay
from cardroom.terminal.guandan import GuandanTable
from cardroom.terminal.table import card_label
from tests.terminal.running import run


def message(app: GuandanTable) -> str:
    return str(app.query_one("#message", Static).render())


def test_a_match_played_from_the_keyboard_writes_a_record_that_replays(tmp_path: Path) -> None:
    """Two deals (the second with tribute and return) played by pressing a (play the hint) at every
    turn of the person, and n between deals; the record replays as legal."""
    out = tmp_path / "match.json"

    async def play() -> GuandanTable:
        app = GuandanTable(seed=5, bots="random", max_deals=2, out=out)
        async with app.run_test() as pilot:
            phases = set()
            for _ in range(400):
                if app.match.is_over:
                    break
                if app.match.current_deal is None:
                    await pilot.press("n")
                    continue
                assert app.my_turn
                phases.add(app.match.current_deal.phase)
                await pilot.press("a")
            assert app.match.is_over
            assert app.saved == out
            assert "The match is over" in message(app)
        return app

    app = run(play())
    assert len(app.match.deals) == 2
    assert replay(read_record(out)).ok


def test_cards_chosen_by_keys_and_by_typing_and_illegal_plays_refused() -> None:
    """At the person's first lead: two cards of different ranks chosen with the keys are refused with
    the rule and the turn stays; the lowest card typed by its notation is played as a single."""

    async def play() -> None:
        app = GuandanTable(seed=3, bots="random", max_deals=1)
        async with app.run_test() as pilot:
            for _ in range(60):
                if app.my_turn and app.observation.previous is None:
                    break
                await pilot.press("a")
            assert app.my_turn
            assert app.observation.previous is None
            hand = list(app.hand)
            second = next(i for i, card in enumerate(hand) if card.rank != hand[0].rank)
            app.cursor = 0
            await pilot.press("space")
            for _ in range(second):
                await pilot.press("right")
            await pilot.press("space")
            assert app.selected == {0, second}
            await pilot.press("enter")
            assert app.my_turn, "an illegal play leaves the turn with the person"
            assert "Not allowed" in message(app)
            before = len(app.match.current_deal.history(app.seat)) if app.match.current_deal else 0
            await pilot.press("t")
            await pilot.press(*str(hand[0]))
            await pilot.press("enter")
            deal = app.match.current_deal
            assert deal is not None
            mine = [
                e.play for e in deal.history(app.seat)[before:] if e.seat == app.seat and e.play is not None
            ]
            assert mine, "the typed card was played"
            assert mine[0] is not None
            assert mine[0].kind is PlayKind.SINGLE, "the typed card was led as a single"
            assert mine[0].cards == (hand[0],)

    run(play())


def test_the_hand_is_sorted_by_the_level_and_wild_cards_are_marked() -> None:
    async def play() -> None:
        app = GuandanTable(seed=11, bots="random", max_deals=1)
        async with app.run_test():
            deal = app.match.current_deal
            assert deal is not None
            order = [rank_order(card.rank, deal.level) for card in app.hand]
            assert order == sorted(order)
            shown = str(app.query_one("#hand", Static).render())
            wild = [card for card in app.hand if str(card) == f"H{deal.level.letter}"]
            assert wild, "seed 11 deals the person a wild card"
            for card in wild:
                assert card_label(card) + "*" in shown

    run(play())
