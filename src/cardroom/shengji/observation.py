"""What one seat may know of a Shengji deal (the only view a bot, a client or an RL agent gets): its own
hand, the public history, trump, the dealer, the points won so far, whose turn — never another hand.
The kitty (底牌) is the dealer's alone until the deal ends."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING

from cardroom.cards import Card, Rank, Suit
from cardroom.shengji.deal import Action, Event, Phase, legal_actions_of
from cardroom.shengji.declare import Declaration
from cardroom.shengji.order import TrickRules
from cardroom.shengji.ruleset import ShengjiRules
from cardroom.shengji.tricks import Lead

if TYPE_CHECKING:
    from cardroom.shengji.deal import Deal


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


def observe(deal: Deal, seat: int, levels: tuple[Rank, Rank] | None = None) -> Observation:
    """The observation of ``seat`` in ``deal``."""
    if seat not in range(4):
        raise ValueError(f"a seat is 0–3, got {seat}")
    settled = deal.phase is not Phase.DECLARE
    kitty: tuple[Card, ...] = ()
    if seat == deal.dealer and settled:
        kitty = deal.buried if deal.buried else deal.kitty
    elif deal.phase is Phase.OVER:
        kitty = deal.buried
    counts = tuple(deal.card_count(other) for other in range(4))
    return Observation(
        seat=seat,
        phase=deal.phase,
        level=deal.level,
        rules=deal.rules,
        hand=deal.hand(seat),
        dealer=deal.dealer,
        declaration=deal.declaration,
        trump_settled=settled,
        trump=deal.trump if settled else None,
        turned_card=deal.turned_card,
        trick_rules=deal.trick_rules,
        current_player=deal.current_player,
        card_counts=(counts[0], counts[1], counts[2], counts[3]),
        leader=deal.leader,
        lead=deal.lead,
        trick_plays=tuple(deal.trick_plays),
        tricks_played=len(deal.tricks),
        attackers_points=deal.attackers_points,
        dealers_points=deal.dealers_points,
        penalty=deal.penalty,
        kitty=kitty,
        history=tuple(event for event in deal.events if event.visible_to(seat)),
        levels=levels,
    )


__all__ = ["Observation", "observe"]
