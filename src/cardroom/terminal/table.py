"""What the terminal tables of both games share (:class:`CardTable`): one seat is the person at the
keyboard and the three others our bots; the hand, chosen with the arrow keys and the space bar or typed
(``S3 H3``) in the line below it; only legal actions are taken (anything else is refused with the rule
it breaks, and the turn stays); ``h`` shows the heuristic's suggestion and ``a`` plays it; the match
record is written at the end. A game's table says how cards make its actions and what the table shows.
"""

from __future__ import annotations

import random
import secrets
from abc import abstractmethod
from collections.abc import Sequence
from pathlib import Path
from typing import Any, ClassVar

from rich.markup import escape
from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.widgets import Footer, Header, Input, Static

from cardroom.cards import Card, NotationError, Suit, parse_cards
from cardroom.rule_errors import RuleError

SEAT_NAMES = ("you", "right", "partner", "left")
"""Seats as the person sees them, from their own seat round the table in play order."""
SUIT_SYMBOLS = {Suit.SPADES: "♠", Suit.HEARTS: "♥", Suit.CLUBS: "♣", Suit.DIAMONDS: "♦"}


def card_label(card: Card) -> str:
    """A card as printed at the table: ``♠3``, ``♥10``, ``小王``, ``大王``."""
    if card.suit is None:
        return "小王" if str(card) == "SB" else "大王"
    rank = "10" if card.rank.letter == "T" else card.rank.letter
    return f"{SUIT_SYMBOLS[card.suit]}{rank}"


def cards_label(cards: Sequence[Card]) -> str:
    return " ".join(card_label(card) for card in cards)


def draw_seed() -> int:
    """A fresh seed for a match nobody asked to repeat: every match deals other cards."""
    return secrets.randbits(32)


class HandView(Static, can_focus=True):
    """The hand: where the keys go unless the person is typing cards."""


class CardTable(App[None]):
    """A match of one person against three bots; subclasses bring the game."""

    CSS = """
    #status { height: 2; padding: 0 1; }
    #table { height: 7; padding: 0 1; border: round $accent; }
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

    def __init__(self, *, seed: int | None, seat: int, bots: str, out: Path | None) -> None:
        super().__init__()
        self.seat = seat
        self.seed = draw_seed() if seed is None else seed
        """The seed of the cards and the bots (drawn when none is given; the record keeps it)."""
        self.out = out
        self.bot_name = bots
        self.rng = random.Random(self.seed)
        self.cursor = 0
        self.selected: set[int] = set()
        self.hand: list[Card] = []
        self.lines: list[str] = []
        self.saved: Path | None = None

    # -- what a game brings ----------------------------------------------------------------------

    match: Any
    """The game's match: ``current_deal``, ``current_player``, ``observation(seat)``, ``apply``,
    ``is_over``, ``deal_random(rng)``."""

    @abstractmethod
    def bot_action(self, seat: int) -> Any:
        """The action of the bot at ``seat`` now."""

    @abstractmethod
    def hint_action(self) -> Any:
        """The heuristic's action for the person now."""

    @abstractmethod
    def action_for(self, cards: Sequence[Card]) -> Any | None:
        """The action the chosen cards make now (``None``, having said why, when they make none)."""

    @abstractmethod
    def pass_action(self) -> Any | None:
        """Passing now, or ``None`` (having said why) when the person may not pass."""

    @abstractmethod
    def action_text(self, action: Any) -> str:
        """An action as the table's log writes it after the seat's name."""

    @abstractmethod
    def cards_of(self, action: Any) -> Sequence[Card]:
        """The cards an action shows (to select them for a hint)."""

    @abstractmethod
    def sorted_hand(self) -> list[Card]:
        """The person's cards in the order the game sorts a hand."""

    @abstractmethod
    def is_marked(self, card: Card) -> bool:
        """Whether the card is marked in the hand (a wild card, a trump)."""

    @abstractmethod
    def deal_over_text(self) -> str:
        """What the last finished deal came to."""

    @abstractmethod
    def status_text(self) -> str:
        """The line above the table: the game, the levels, the deal, whose turn."""

    @abstractmethod
    def table_lines(self) -> list[str]:
        """What lies on the table: each seat's cards left and its part in the trick in progress."""

    @abstractmethod
    def write_record(self, path: Path) -> None:
        """Write the match's record."""

    MARK_HELP = "* marked"

    def automatic_action(self) -> Any | None:
        """The person's action taken for them, when there is nothing to choose (none by default)."""
        return None

    def worth_noting(self, action: Any) -> bool:
        """Whether a bot's action goes into the table's log (every one by default)."""
        return True

    # -- layout and flow -------------------------------------------------------------------------

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

    @property
    def finished(self) -> bool:
        """Whether the match has ended (its record is then written)."""
        return bool(self.match.is_over)

    @property
    def my_turn(self) -> bool:
        return self.match.current_deal is not None and self.match.current_player == self.seat

    def advance(self) -> None:
        """Let the bots act until it is the person's turn, the deal ends, or the match does."""
        while self.match.current_deal is not None:
            player = self.match.current_player
            assert player is not None
            action = self.bot_action(player) if player != self.seat else self.automatic_action()
            if action is None:
                break
            self.match.apply(action)
            if self.worth_noting(action):
                self.note(f"{SEAT_NAMES[(player - self.seat) % 4]} {self.action_text(action)}")
        if self.match.current_deal is None:
            self.note(self.deal_over_text())
            if self.finished:
                self.save_record()
                saved = f"Record saved to {self.saved}. " if self.saved else ""
                self.say(f"The match is over. {saved}q quits.")
            else:
                self.say("n deals the next one.")
        self.selected.clear()
        self.hand = self.sorted_hand()
        self.cursor = min(self.cursor, max(0, len(self.hand) - 1))
        self.render_all()

    def save_record(self) -> None:
        if self.out is not None and self.saved is None:
            self.write_record(self.out)
            self.saved = self.out

    def take(self, action: Any) -> bool:
        """Apply the person's action if it is legal; else say which rule it breaks."""
        try:
            self.match.apply(action)
        except RuleError as error:
            self.say(f"Not allowed: {error} ({type(error).__name__})")
            return False
        self.note(f"you {self.action_text(action)}")
        self.say("")
        self.advance()
        return True

    def levels_text(self) -> str:
        """The rule set and both teams' levels, the person's first."""
        levels = self.match.levels
        mine, theirs = levels[self.seat % 2], levels[1 - self.seat % 2]
        return f"{self.match.rules.name} · levels: yours {mine.letter}, theirs {theirs.letter}"

    def seat_names(self) -> tuple[str, str, str, str]:
        names = tuple("you" if seat == self.seat else f"{self.bot_name} (bot)" for seat in range(4))
        return (names[0], names[1], names[2], names[3])

    # -- keys ------------------------------------------------------------------------------------

    def action_cursor(self, step: int) -> None:
        if self.hand:
            self.cursor = (self.cursor + step) % len(self.hand)
            self.render_hand()

    def action_select_card(self) -> None:
        if self.hand:
            self.selected ^= {self.cursor}
            self.render_hand()

    def action_play(self) -> None:
        if self.my_turn:
            action = self.action_for([self.hand[index] for index in sorted(self.selected)])
            if action is not None:
                self.take(action)

    def action_pass_turn(self) -> None:
        if self.my_turn:
            action = self.pass_action()
            if action is not None:
                self.take(action)

    def action_hint(self) -> None:
        if self.my_turn:
            action = self.hint_action()
            self.say(f"Hint: {self.action_text(action)}")
            self.selected = self.indices_of(self.cards_of(action))
            self.render_hand()

    def action_play_hint(self) -> None:
        if self.my_turn:
            self.take(self.hint_action())

    def action_next_deal(self) -> None:
        if self.match.current_deal is None and not self.finished:
            self.match.deal_random(self.rng)
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
            self.action_pass_turn()
            return
        try:
            cards = parse_cards(text)
        except NotationError as error:
            self.say(f"Cannot read {text!r}: {error}")
            return
        action = self.action_for(cards)
        if action is not None:
            self.take(action)

    # -- drawing ---------------------------------------------------------------------------------

    def indices_of(self, cards: Sequence[Card]) -> set[int]:
        wanted = list(cards)
        found = set()
        for index, card in enumerate(self.hand):
            if card in wanted:
                wanted.remove(card)
                found.add(index)
        return found

    def note(self, line: str) -> None:
        self.lines = [*self.lines, line][-6:]

    def say(self, text: str) -> None:
        self.query_one("#message", Static).update(escape(text))

    def render_all(self) -> None:
        self.query_one("#status", Static).update(escape(self.status_text()))
        shown = self.table_lines()
        shown += self.lines[-(6 - len(shown)) :] if len(shown) < 6 else []
        self.query_one("#table", Static).update(escape("\n".join(shown)))
        self.render_hand()

    def render_hand(self) -> None:
        parts = []
        for index, card in enumerate(self.hand):
            label = card_label(card)
            style = []
            if card.suit in (Suit.HEARTS, Suit.DIAMONDS) or str(card) == "HR":
                style.append("red")
            if self.is_marked(card):
                label += "*"
                style.append("bold magenta")
            if index in self.selected:
                style.append("reverse")
            if index == self.cursor:
                style.append("underline")
            parts.append(f"[{' '.join(style)}]{escape(label)}[/]" if style else escape(label))
        text = " ".join(parts) if parts else "(no cards)"
        self.query_one("#hand", HandView).update(
            text + f"\n[dim]{self.MARK_HELP} · ←/→ move · space select[/]"
        )


__all__ = ["SEAT_NAMES", "CardTable", "HandView", "card_label", "cards_label"]
