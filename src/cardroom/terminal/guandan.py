"""A Guandan match at the terminal (:class:`GuandanTable`): the hand sorted by the order of ranks at the
deal's level with the wild cards (♥ level cards) marked; plays, passes, tribute and return (one card
chosen); the match goes on to A (or ``max_deals``)."""

from __future__ import annotations

import random
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from cardroom.bots import HeuristicBot, make_bot
from cardroom.cards import Card, Suit
from cardroom.guandan import PASS, classify
from cardroom.guandan.deal import Action, EventKind, Phase, PlayAction, ReturnAction, TributeAction
from cardroom.guandan.match import Match
from cardroom.guandan.observation import Observation
from cardroom.guandan.plays import rank_order
from cardroom.guandan.ruleset import COMPETITION, RuleSet
from cardroom.records import record_of, write_record
from cardroom.terminal.table import SEAT_NAMES, CardTable, cards_label


class GuandanTable(CardTable):
    """One person against three bots (``bots``), a match of ``rules`` to A or ``max_deals`` deals."""

    TITLE = "cardroom · 掼蛋"
    match: Match
    MARK_HELP = "* wild (♥ level card)"

    def __init__(
        self,
        rules: RuleSet = COMPETITION,
        *,
        seed: int | None = None,
        seat: int = 0,
        bots: str = "heuristic",
        max_deals: int | None = None,
        out: Path | None = None,
    ) -> None:
        super().__init__(seed=seed, seat=seat, bots=bots, out=out)
        self.match = Match(rules, max_deals=max_deals)
        self.bots = {other: make_bot(bots, self.seed * 10 + other) for other in range(4) if other != seat}
        self.adviser = HeuristicBot(random.Random(self.seed))

    @property
    def observation(self) -> Observation:
        return self.match.observation(self.seat)

    def bot_action(self, seat: int) -> Action:
        return self.bots[seat].act(self.match.observation(seat))

    def hint_action(self) -> Action:
        return self.adviser.act(self.observation)

    def action_for(self, cards: Sequence[Card]) -> Action | None:
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
        except ValueError as error:
            self.say(f"Not a play: {error}")
            return None
        if not readings:
            self.say(f"Not allowed: {cards_label(cards)} make no combination (NotACombinationError)")
            return None
        legal = [
            PlayAction(self.seat, play) for play in readings if self.match.can(PlayAction(self.seat, play))
        ]
        return max(legal, key=lambda action: action.play.key) if legal else PlayAction(self.seat, readings[0])

    def pass_action(self) -> Action | None:
        return PlayAction(self.seat, PASS)

    def action_text(self, action: Any) -> str:
        if isinstance(action, TributeAction):
            return f"pays {cards_label([action.card])} as tribute"
        if isinstance(action, ReturnAction):
            return f"returns {cards_label([action.card])}"
        return "passes" if action.play.is_pass else cards_label(action.play.cards)

    def cards_of(self, action: Any) -> Sequence[Card]:
        if isinstance(action, TributeAction | ReturnAction):
            return [action.card]
        return action.play.cards  # type: ignore[no-any-return]

    def sorted_hand(self) -> list[Card]:
        deal = self.match.current_deal
        if deal is None:
            return []
        level, rules = deal.level, deal.rules
        return sorted(
            deal.hand(self.seat), key=lambda card: (rank_order(card.rank, level, rules), card.index)
        )

    def is_marked(self, card: Card) -> bool:
        deal = self.match.current_deal
        return deal is not None and card.suit is Suit.HEARTS and card.rank == deal.level

    def deal_over_text(self) -> str:
        summary = self.match.summaries[-1]
        places = " → ".join(SEAT_NAMES[(seat - self.seat) % 4] for seat in summary.result.places)
        mine, theirs = (summary.levels_after[(self.seat + team) % 2].letter for team in (0, 1))
        return f"Deal {len(self.match.summaries)} over: {places}; levels: yours {mine}, theirs {theirs}"

    def status_text(self) -> str:
        deal = self.match.current_deal
        playing = f"deal {len(self.match.deals)} at level {deal.level.letter}" if deal else "between deals"
        turn = ""
        if self.my_turn and deal is not None:
            turn = {
                Phase.TRIBUTE: "your turn: pay a tribute card",
                Phase.RETURN: "your turn: return a card",
            }.get(deal.phase, "your turn")
        return f"{self.levels_text()} · {playing}  {turn}"

    def table_lines(self) -> list[str]:
        deal = self.match.current_deal
        if deal is None:
            return []
        trick: dict[int, str] = {}
        for event in reversed(self.observation.history):
            if event.kind is EventKind.TRICK:
                break
            if event.seat is None or event.seat in trick:
                continue
            if event.kind is EventKind.PLAY and event.play is not None:
                trick[event.seat] = cards_label(event.play.cards)
            elif event.kind is EventKind.PASS:
                trick[event.seat] = "pass"
        lines = []
        for offset in range(4):
            seat = (self.seat + offset) % 4
            lines.append(f"{SEAT_NAMES[offset]:>7} ({deal.card_count(seat):2} cards): {trick.get(seat, '')}")
        return lines

    def write_record(self, path: Path) -> None:
        write_record(path, record_of(self.match, self.seat_names(), seed=self.seed))


__all__ = ["GuandanTable"]
