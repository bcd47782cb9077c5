"""A Shengji (升级) match at the terminal (:class:`ShengjiTable`): while the cards are dealt, the person
may declare (a level card, a pair, two jokers: choose them and Enter) or let the dealing go on (``p``;
turns with nothing to declare pass by themselves); the dealer buries eight cards (choose them and
Enter); then tricks, every play checked against the follow duties. The hand is sorted by effective
suit with the trumps last and marked; points and the trick are on the table."""

from __future__ import annotations

import random
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from cardroom.bots.shengji import make_shengji_bot
from cardroom.cards import Card
from cardroom.records.shengji import shengji_record_of, write_shengji_record
from cardroom.shengji import SHENGJI, Match, ShengjiRules
from cardroom.shengji.deal import Bury, Declare, Pass, Phase, Play
from cardroom.shengji.observation import Observation
from cardroom.shengji.order import TrickRules
from cardroom.terminal.table import SEAT_NAMES, SUIT_SYMBOLS, CardTable, cards_label


class ShengjiTable(CardTable):
    """One person against three Shengji bots (``bots``), a match of ``rules`` until a team passes the
    top level, or ``max_deals`` deals (then unfinished)."""

    TITLE = "cardroom · 升级"
    match: Match
    MARK_HELP = "* trump"

    def __init__(
        self,
        rules: ShengjiRules = SHENGJI,
        *,
        seed: int | None = None,
        seat: int = 0,
        bots: str = "heuristic",
        max_deals: int | None = None,
        out: Path | None = None,
    ) -> None:
        super().__init__(seed=seed, seat=seat, bots=bots, out=out)
        self.match = Match(rules)
        self.max_deals = max_deals
        self.bots = {
            other: make_shengji_bot(bots, self.seed * 10 + other) for other in range(4) if other != seat
        }
        self.adviser = make_shengji_bot("heuristic", self.seed)
        self.adviser_rng = random.Random(self.seed)

    @property
    def observation(self) -> Observation:
        return self.match.observation(self.seat)

    @property
    def finished(self) -> bool:
        return self.match.is_over or (
            self.max_deals is not None and len(self.match.summaries) >= self.max_deals
        )

    def automatic_action(self) -> Any | None:
        """A declaring turn with nothing to declare passes by itself."""
        observation = self.observation
        if observation.phase is not Phase.DECLARE:
            return None
        if any(isinstance(action, Declare) for action in observation.legal_actions()):
            return None
        return Pass(self.seat)

    def worth_noting(self, action: Any) -> bool:
        return not isinstance(action, Pass)

    def bot_action(self, seat: int) -> Any:
        return self.bots[seat].act(self.match.observation(seat))

    def hint_action(self) -> Any:
        return self.adviser.act(self.observation)

    def action_for(self, cards: Sequence[Card]) -> Any | None:
        phase = self.observation.phase
        if phase is Phase.DECLARE:
            if not cards:
                self.say(
                    "Choose a level card, a pair of one or two jokers to declare; p lets the dealing go on."
                )
                return None
            return Declare(self.seat, tuple(cards))
        if phase is Phase.KITTY:
            if len(cards) != 8:
                self.say(f"Choose the eight cards to bury (扣底); {len(cards)} chosen.")
                return None
            return Bury(self.seat, tuple(cards))
        if not cards:
            self.say("Choose the cards to play.")
            return None
        return Play(self.seat, tuple(cards))

    def pass_action(self) -> Any | None:
        if self.observation.phase is Phase.DECLARE:
            return Pass(self.seat)
        self.say("Only while the cards are dealt can you pass; in a trick every seat plays.")
        return None

    def action_text(self, action: Any) -> str:
        if isinstance(action, Declare):
            return f"declares {cards_label(action.cards)}"
        if isinstance(action, Pass):
            return "lets the dealing go on"
        if isinstance(action, Bury):
            return "buries eight cards"
        return cards_label(action.cards)

    def cards_of(self, action: Any) -> Sequence[Card]:
        return () if isinstance(action, Pass) else action.cards

    def trick_rules(self) -> TrickRules:
        observation = self.observation
        return observation.trick_rules or TrickRules(observation.level, None)

    def sorted_hand(self) -> list[Card]:
        if self.match.current_deal is None:
            return []
        return sorted(self.observation.hand, key=self.trick_rules().sort_key)

    def is_marked(self, card: Card) -> bool:
        observation = self.observation
        if observation.trick_rules is None:
            return card.rank.is_joker or card.rank == observation.level
        return observation.trick_rules.is_trump(card)

    def deal_over_text(self) -> str:
        summary = self.match.summaries[-1]
        result = summary.result
        mine, theirs = (summary.levels_after[(self.seat + team) % 2].letter for team in (0, 1))
        return (
            f"Deal {len(self.match.summaries)} over: the attackers scored {result.score}; "
            f"levels: yours {mine}, theirs {theirs}"
        )

    def status_text(self) -> str:
        if self.match.current_deal is None:
            return f"{self.levels_text()} · between deals"
        observation = self.observation
        if observation.trump is not None:
            trump = f"trump {SUIT_SYMBOLS[observation.trump]}"
        else:
            trump = "no trump (无主)" if observation.trump_settled else "trump not declared yet"
        dealer = (
            ""
            if observation.dealer is None
            else f", dealer {SEAT_NAMES[(observation.dealer - self.seat) % 4]}"
        )
        turn = {Phase.DECLARE: "your turn: declare or p", Phase.KITTY: "your turn: bury eight cards"}.get(
            observation.phase, "your turn"
        )
        return (
            f"{self.levels_text()} · level "
            f"{observation.level.letter}{dealer}, {trump} · points: attackers {observation.attackers_points}"
            + (f"  {turn}" if self.my_turn else "")
        )

    def table_lines(self) -> list[str]:
        if self.match.current_deal is None:
            return []
        observation = self.observation
        played = dict(observation.trick_plays)
        lines = []
        for offset in range(4):
            seat = (self.seat + offset) % 4
            shown = cards_label(played[seat]) if seat in played else ""
            lines.append(f"{SEAT_NAMES[offset]:>7} ({observation.card_counts[seat]:2} cards): {shown}")
        return lines

    def write_record(self, path: Path) -> None:
        write_shengji_record(path, shengji_record_of(self.match, self.seat_names(), seed=self.seed))


__all__ = ["ShengjiTable"]
