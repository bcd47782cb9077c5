"""A Guandan match at the terminal: one seat is the person at the keyboard, the three others our bots.

The hand is sorted by the order of ranks at the deal's level, the wild cards (♥ level cards) marked;
cards are chosen with the arrow keys and the space bar, or typed (``S3 H3``) in the line below the
hand. Only legal actions are taken: anything else is refused with the rule it breaks, and the turn
stays. Tribute and return are chosen the same way (one card). ``h`` shows the heuristic's suggestion,
``a`` plays it. The match goes on to A (or ``max_deals``); its record is written at the end.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from pathlib import Path
from typing import ClassVar

from rich.markup import escape
from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.widgets import Footer, Header, Input, Static

from cardroom.bots import HeuristicBot, make_bot
from cardroom.cards import Card, NotationError, Suit, parse_cards
from cardroom.guandan import PASS, RuleError, classify
from cardroom.guandan.deal import Action, EventKind, Phase, PlayAction, ReturnAction, TributeAction
from cardroom.guandan.match import Match
from cardroom.guandan.observation import Observation
from cardroom.guandan.plays import rank_order
from cardroom.guandan.ruleset import COMPETITION, RuleSet
from cardroom.records import record_of, write_record

SEAT_NAMES = ("you", "right", "partner", "left")
"""Seats as the person sees them, from their own seat round the table in play order."""
SUIT_SYMBOLS = {Suit.SPADES: "♠", Suit.HEARTS: "♥", Suit.CLUBS: "♣", Suit.DIAMONDS: "♦"}


def card_label(card: Card) -> str:
    """A card as printed at the table: ``♠3``, ``♥10``, ``小王``, ``大王``."""
    if card.suit is None:
        return "小王" if str(card) == "SB" else "大王"
    rank = "10" if card.rank.letter == "T" else card.rank.letter
    return f"{SUIT_SYMBOLS[card.suit]}{rank}"


def action_text(action: Action | None) -> str:
    if action is None:
        return ""
    if isinstance(action, TributeAction):
        return f"pays {card_label(action.card)} as tribute"
    if isinstance(action, ReturnAction):
        return f"returns {card_label(action.card)}"
    if action.play.is_pass:
        return "passes"
    return " ".join(card_label(card) for card in action.play.cards)


class HandView(Static, can_focus=True):
    """The hand: where the keys go unless the person is typing cards."""


class GuandanTable(App[None]):
    """One person against three bots (``bots``), a match of ``rules`` to A or ``max_deals`` deals."""

    TITLE = "cardroom · 掼蛋"
    CSS = """
    #status { height: 2; padding: 0 1; }
    #table { height: 6; padding: 0 1; border: round $accent; }
    #hand { height: 3; padding: 0 1; }
    #typed { margin: 0 1; }
    #message { height: 3; padding: 0 1; color: $warning; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("left", "cursor(-1)", "left", show=False),
        Binding("right", "cursor(1)", "right", show=False),
        Binding("space", "select_card", "select"),
        Binding("enter", "play", "play"),
        Binding("p", "pass_turn", "pass"),
        Binding("h", "hint", "hint"),
        Binding("a", "play_hint", "play the hint"),
        Binding("t", "type_cards", "type cards"),
        Binding("n", "next_deal", "next deal"),
        Binding("q", "quit", "quit"),
    ]

    def __init__(
        self,
        rules: RuleSet = COMPETITION,
        *,
        seed: int = 1,
        seat: int = 0,
        bots: str = "heuristic",
        max_deals: int | None = None,
        out: Path | None = None,
    ) -> None:
        super().__init__()
        self.seat = seat
        self.seed = seed
        self.out = out
        self.match = Match(rules, max_deals=max_deals)
        self.rng = random.Random(seed)
        self.bots = {other: make_bot(bots, seed * 10 + other) for other in range(4) if other != seat}
        self.adviser = HeuristicBot(random.Random(seed))
        self.bot_name = bots
        self.cursor = 0
        self.selected: set[int] = set()
        self.hand: list[Card] = []
        self.lines: list[str] = []
        self.saved: Path | None = None

    # -- layout --------------------------------------------------------------------------------

    def compose(self) -> ComposeResult:
        yield Header()
        yield Static(id="status")
        yield Static(id="table")
        yield HandView(id="hand")
        yield Input(placeholder="t, then type cards (S3 H3 …) or 'pass', then Enter", id="typed")
        yield Static(id="message")
        yield Footer()

    def on_mount(self) -> None:
        self.query_one("#hand", HandView).focus()
        self.match.deal_random(self.rng)
        self.advance()

    # -- the game ------------------------------------------------------------------------------

    @property
    def observation(self) -> Observation:
        return self.match.observation(self.seat)

    @property
    def my_turn(self) -> bool:
        return self.match.current_deal is not None and self.match.current_player == self.seat

    def advance(self) -> None:
        """Let the bots act until it is the person's turn, the deal ends, or the match does."""
        while self.match.current_deal is not None and self.match.current_player != self.seat:
            player = self.match.current_player
            assert player is not None
            action = self.bots[player].act(self.match.observation(player))
            self.match.apply(action)
            self.note(f"{SEAT_NAMES[(player - self.seat) % 4]} {action_text(action)}")
        if self.match.current_deal is None:
            self.deal_over()
        self.selected.clear()
        self.hand = self.sorted_hand()
        self.cursor = min(self.cursor, max(0, len(self.hand) - 1))
        self.render_all()

    def deal_over(self) -> None:
        summary = self.match.summaries[-1]
        places = " → ".join(SEAT_NAMES[(seat - self.seat) % 4] for seat in summary.result.places)
        levels = " : ".join(rank.letter for rank in summary.levels_after)
        self.note(
            f"Deal {len(self.match.summaries)} over: {places}; levels {levels} (your team first: "
            f"{'yes' if self.seat % 2 == 0 else 'no'})"
        )
        if self.match.is_over:
            self.save_record()
            self.say(
                "The match is over. " + (f"Record saved to {self.saved}. " if self.saved else "") + "q quits."
            )
        else:
            self.say("n deals the next one.")

    def save_record(self) -> None:
        if self.out is None or self.saved is not None:
            return
        names = tuple("you" if seat == self.seat else f"{self.bot_name} (bot)" for seat in range(4))
        write_record(self.out, record_of(self.match, names, seed=self.seed))
        self.saved = self.out

    def take(self, action: Action) -> bool:
        """Apply the person's action if it is legal; else say which rule it breaks."""
        try:
            self.match.apply(action)
        except RuleError as error:
            self.say(f"Not allowed: {error}")
            return False
        self.note(f"you {action_text(action)}")
        self.say("")
        self.advance()
        return True

    def chosen_action(self, cards: Sequence[Card]) -> Action | None:
        """The action the chosen cards make now: a tribute or return card, or a legal reading of a play."""
        observation = self.observation
        if observation.phase is Phase.TRIBUTE or observation.phase is Phase.RETURN:
            if len(cards) != 1:
                self.say(f"Choose one card to {'pay' if observation.phase is Phase.TRIBUTE else 'return'}.")
                return None
            kind = TributeAction if observation.phase is Phase.TRIBUTE else ReturnAction
            return kind(self.seat, cards[0])
        if not cards:
            self.say("Choose cards (space), or p to pass.")
            return None
        try:
            readings = classify(cards, observation.level, observation.rules)
        except (RuleError, ValueError) as error:
            self.say(f"Not a play: {error}")
            return None
        if not readings:
            shown = " ".join(card_label(card) for card in cards)
            self.say(f"Not allowed: {shown} make no combination (NotACombinationError)")
            return None
        legal = [
            PlayAction(self.seat, play) for play in readings if self.match.can(PlayAction(self.seat, play))
        ]
        if legal:
            return max(legal, key=lambda action: action.play.key)
        return PlayAction(self.seat, readings[0])

    # -- keys ----------------------------------------------------------------------------------

    def action_cursor(self, step: int) -> None:
        if self.hand:
            self.cursor = (self.cursor + step) % len(self.hand)
            self.render_hand()

    def action_select_card(self) -> None:
        if self.hand:
            self.selected ^= {self.cursor}
            self.render_hand()

    def action_play(self) -> None:
        if not self.my_turn:
            return
        cards = [self.hand[index] for index in sorted(self.selected)]
        action = self.chosen_action(cards)
        if action is not None:
            self.take(action)

    def action_pass_turn(self) -> None:
        if self.my_turn:
            self.take(PlayAction(self.seat, PASS))

    def action_hint(self) -> None:
        if not self.my_turn:
            return
        action = self.adviser.act(self.observation)
        self.say(f"Hint: {action_text(action)}")
        if isinstance(action, PlayAction) and not action.play.is_pass:
            self.selected = self.indices_of(action.play.cards)
        elif isinstance(action, TributeAction | ReturnAction):
            self.selected = self.indices_of([action.card])
        self.render_hand()

    def action_play_hint(self) -> None:
        if self.my_turn:
            self.take(self.adviser.act(self.observation))

    def action_next_deal(self) -> None:
        if self.match.current_deal is None and not self.match.is_over:
            self.match.deal_random(self.rng)
            self.note(f"Deal {len(self.match.deals)} at level {self.match.deals[-1].level.letter}")
            self.advance()

    def action_type_cards(self) -> None:
        self.query_one("#typed", Input).focus()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        text = event.value.strip()
        event.input.value = ""
        self.query_one("#hand", HandView).focus()
        if not self.my_turn or not text:
            return
        if text.lower() in ("pass", "p", "过"):
            self.take(PlayAction(self.seat, PASS))
            return
        try:
            cards = parse_cards(text)
        except NotationError as error:
            self.say(f"Cannot read {text!r}: {error}")
            return
        action = self.chosen_action(cards)
        if action is not None:
            self.take(action)

    # -- drawing -------------------------------------------------------------------------------

    def sorted_hand(self) -> list[Card]:
        deal = self.match.current_deal
        if deal is None:
            return []
        level, rules = deal.level, deal.rules
        return sorted(
            deal.hand(self.seat), key=lambda card: (rank_order(card.rank, level, rules), card.index)
        )

    def indices_of(self, cards: Sequence[Card]) -> set[int]:
        wanted = list(cards)
        found = set()
        for index, card in enumerate(self.hand):
            if card in wanted:
                wanted.remove(card)
                found.add(index)
        return found

    def note(self, line: str) -> None:
        self.lines = [*self.lines, line][-4:]

    def say(self, text: str) -> None:
        self.query_one("#message", Static).update(escape(text))

    def render_all(self) -> None:
        self.render_status()
        self.render_table()
        self.render_hand()

    def render_status(self) -> None:
        levels = self.match.levels
        mine, theirs = levels[self.seat % 2], levels[1 - self.seat % 2]
        deal = self.match.current_deal
        playing = f"deal {len(self.match.deals)} at level {deal.level.letter}" if deal else "between deals"
        turn = "your turn" if self.my_turn else ""
        if self.my_turn and deal is not None and deal.phase in (Phase.TRIBUTE, Phase.RETURN):
            turn = "your turn: " + ("pay a tribute card" if deal.phase is Phase.TRIBUTE else "return a card")
        levels_text = f"levels: your team {mine.letter}, theirs {theirs.letter}"
        self.query_one("#status", Static).update(
            f"{self.match.rules.name} · {levels_text} · {playing}  {turn}"
        )

    def render_table(self) -> None:
        deal = self.match.current_deal
        lines = []
        if deal is not None:
            trick = self.current_trick()
            for offset in range(4):
                seat = (self.seat + offset) % 4
                shown = escape(trick.get(seat, ""))
                lines.append(f"{SEAT_NAMES[offset]:>7} ({deal.card_count(seat):2} cards): {shown}")
        lines += [escape(line) for line in self.lines[-(6 - len(lines)) :]] if len(lines) < 6 else []
        self.query_one("#table", Static).update(
            "\n".join(lines) or "\n".join(escape(line) for line in self.lines)
        )

    def current_trick(self) -> dict[int, str]:
        """Each seat's last action in the trick in progress."""
        deal = self.match.current_deal
        found: dict[int, str] = {}
        if deal is None:
            return found
        for event in reversed(self.observation.history):
            if event.kind is EventKind.TRICK:
                break
            if event.seat is None or event.seat in found:
                continue
            if event.kind is EventKind.PLAY and event.play is not None:
                found[event.seat] = " ".join(card_label(card) for card in event.play.cards)
            elif event.kind is EventKind.PASS:
                found[event.seat] = "pass"
        return found

    def render_hand(self) -> None:
        deal = self.match.current_deal
        parts = []
        for index, card in enumerate(self.hand):
            label = card_label(card)
            wild = deal is not None and card.suit is Suit.HEARTS and card.rank == deal.level
            style = []
            if card.suit in (Suit.HEARTS, Suit.DIAMONDS) or str(card) == "HR":
                style.append("red")
            if wild:
                label += "*"
                style.append("bold magenta")
            if index in self.selected:
                style.append("reverse")
            if index == self.cursor:
                style.append("underline")
            parts.append(f"[{' '.join(style)}]{escape(label)}[/]" if style else escape(label))
        text = " ".join(parts) if parts else "(no cards)"
        self.query_one("#hand", Static).update(
            text + "\n[dim]* wild (♥ level card) · ←/→ move · space select[/]"
        )


__all__ = ["GuandanTable", "action_text", "card_label"]
