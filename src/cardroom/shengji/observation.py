"""What one seat may know of a Shengji deal (the only view a bot, a client or an RL agent gets): its own
hand, the public history, trump, the dealer, the points won so far, whose turn — never another hand.
The kitty (底牌) is the dealer's alone until the deal ends. :meth:`cardroom.shengji.deal.Deal.observation`
makes one."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass

from cardroom.cards import Card, Rank, Suit
from cardroom.shengji.actions import Action, Event, Phase, legal_actions_of
from cardroom.shengji.declare import Declaration
from cardroom.shengji.order import TrickRules
from cardroom.shengji.ruleset import ShengjiRules
from cardroom.shengji.tricks import Lead


@dataclass(frozen=True)
class Observation:
    """One seat's view of a deal at this moment.

    ``trump`` is meaningful once ``trump_settled`` (declaring over; ``None`` then means no trump, 无主);
    while declaring, ``declaration`` is the one standing. ``kitty`` is what this seat knows of the kitty:
    the dealer sees the 8 cards it took, then the 8 it buried; the others see nothing until the end
    (``kitty_revealed`` in the history). ``levels`` are both teams' levels when the deal is part of a
    match. Call :meth:`legal_actions` for this seat's legal actions (none unless it is to act).
    """

    seat: int
    phase: Phase
    level: Rank
    rules: ShengjiRules
    hand: tuple[Card, ...]
    dealer: int | None
    declaration: Declaration | None
    trump_settled: bool
    trump: Suit | None
    turned_card: Card | None
    trick_rules: TrickRules | None
    current_player: int | None
    card_counts: tuple[int, int, int, int]
    leader: int | None
    lead: Lead | None
    trick_plays: tuple[tuple[int, tuple[Card, ...]], ...]
    tricks_played: int
    attackers_points: int
    dealers_points: int
    penalty: int
    kitty: tuple[Card, ...]
    history: tuple[Event, ...]
    levels: tuple[Rank, Rank] | None = None

    @property
    def to_act(self) -> bool:
        return self.current_player == self.seat

    def legal_actions(self) -> Iterator[Action]:
        """This seat's legal actions, lazily, from its own hand and the public state alone."""
        if not self.to_act:
            return iter(())
        return legal_actions_of(
            self.seat,
            self.phase,
            Counter(self.hand),
            self.level,
            self.declaration,
            self.trick_rules,
            self.lead,
            self.rules,
        )


__all__ = ["Observation"]
