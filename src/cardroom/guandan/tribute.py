"""Tribute (进贡) and return (还贡): who pays whom, which cards may be paid and returned, and 抗贡.

Seats are numbered in play order: a seat's 下家 (who plays after it) is ``seat + 1``, its partner
``seat + 2`` (mod 4); seats 0 & 2 and 1 & 3 are partners.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from cardroom.cards import Card, Rank, Suit
from cardroom.guandan.plays import rank_order
from cardroom.guandan.ruleset import COMPETITION, DoubleTributeLead, ReturnLimit, RuleSet


def partner(seat: int) -> int:
    return (seat + 2) % 4


def team_of(seat: int) -> int:
    """Team 0 is seats 0 & 2, team 1 seats 1 & 3."""
    return seat % 2


@dataclass(frozen=True)
class TributePlan:
    """Who pays and who receives, from the previous deal's finishing order.

    ``payers`` act in this order (play order from 上游's 下家); ``receivers`` are 上游, then 二游 in a
    double tribute (双下); ``places`` is the previous deal's finishing order.
    """

    payers: tuple[int, ...]
    receivers: tuple[int, ...]
    places: tuple[int, int, int, int]

    @classmethod
    def from_places(cls, places: Sequence[int]) -> TributePlan:
        """The plan after a deal that finished in ``places`` (上游, 二游, 三游, 下游)."""
        if sorted(places) != [0, 1, 2, 3]:
            raise ValueError(f"places must be the four seats in finishing order, got {list(places)}")
        order = (places[0], places[1], places[2], places[3])
        first, second = places[0], places[1]
        if second == partner(first):
            payers = tuple(seat for seat in _play_order_after(first) if seat in places[2:])
            return cls(payers, (first, second), order)
        return cls((places[3],), (first,), order)

    def is_anti_tribute(self, hands: Sequence[Iterable[Card]], rules: RuleSet) -> bool:
        """抗贡: the paying side together holds the big jokers that exempt it."""
        big_jokers = sum(1 for payer in self.payers for card in hands[payer] if card.rank == Rank.BIG_JOKER)
        return big_jokers >= rules.anti_tribute_big_jokers

    def exempt_payers(self, hands: Sequence[Iterable[Card]], rules: RuleSet) -> tuple[int, ...]:
        """Payers excused on their own: holding both small jokers, where the rule set says so."""
        if not rules.small_jokers_exempt_payer:
            return ()
        return tuple(
            payer
            for payer in self.payers
            if sum(1 for card in hands[payer] if card.rank == Rank.SMALL_JOKER) >= 2
        )

    def without(self, exempt: Sequence[int]) -> TributePlan:
        """The plan with exempt payers removed (their receivers then get nothing)."""
        return TributePlan(tuple(p for p in self.payers if p not in exempt), self.receivers, self.places)

    def assign(self, paid: dict[int, Card], level: Rank, rules: RuleSet) -> dict[int, int]:
        """Receiver of each payer's tribute: by place (下游 → 上游, 三游 → 二游) where the rule set says
        so; else the larger to 上游, equal cards by seat order (上游's 下家 gives to 上游)."""
        if len(self.receivers) == 1:
            return dict.fromkeys(paid, self.receivers[0])
        if rules.double_tribute_by_place or len(paid) == 1:
            by_place = {self.places[3]: self.receivers[0], self.places[2]: self.receivers[1]}
            return {payer: by_place[payer] for payer in paid}
        first, second = self.payers
        if rank_order(paid[second].rank, level, rules) > rank_order(paid[first].rank, level, rules):
            first, second = second, first
        return {first: self.receivers[0], second: self.receivers[1]}

    def leader(self, receiver_of: dict[int, int], rules: RuleSet) -> int:
        """Who leads after the tribute: the one who paid 上游 (or, after a double tribute, the 下游
        where the rule set says so); 上游 when nobody paid 上游."""
        if len(self.receivers) == 2 and rules.double_tribute_lead is DoubleTributeLead.LAST_PLACE:
            return self.places[3]
        return next(
            (payer for payer, to in receiver_of.items() if to == self.receivers[0]), self.receivers[0]
        )


def _play_order_after(seat: int) -> list[int]:
    return [(seat + step) % 4 for step in range(1, 4)]


def tribute_cards(hand: Iterable[Card], level: Rank, rules: RuleSet = COMPETITION) -> list[Card]:
    """The cards a payer may give: any of the highest by the rule set's order of ranks, ♥ level cards
    excepted."""
    wild = Card(level, Suit.HEARTS)
    candidates = {card for card in hand if card is not wild}
    if not candidates:
        return []
    best = max(rank_order(card.rank, level, rules) for card in candidates)
    return sorted(card for card in candidates if rank_order(card.rank, level, rules) == best)


def return_cards(hand: Iterable[Card], level: Rank, rules: RuleSet, *, to_partner: bool) -> list[Card]:
    """The cards a receiver may return: at most the limit rank (level cards rank above A unless the
    rule set counts face value), or the lowest cards when none is that low; any card when the limit
    does not bind (a return to an opponent under ``ReturnLimit.TO_PARTNER``)."""
    held = sorted(set(hand))
    if not return_limit_binds(rules, to_partner=to_partner):
        return held
    within = [card for card in held if within_return_limit(card, level, rules)]
    if within or not held:
        return within
    lowest = min(_return_value(card, level, rules) for card in held)
    return [card for card in held if _return_value(card, level, rules) == lowest]


def return_limit_binds(rules: RuleSet, *, to_partner: bool) -> bool:
    """Whether the return card's rank limit applies to a return to a partner (or to an opponent)."""
    return rules.return_limit is ReturnLimit.ALWAYS or (
        rules.return_limit is ReturnLimit.TO_PARTNER and to_partner
    )


def within_return_limit(card: Card, level: Rank, rules: RuleSet) -> bool:
    """Whether ``card`` is low enough to be returned where the limit binds."""
    return _return_value(card, level, rules) <= int(rules.return_limit_rank)


def _return_value(card: Card, level: Rank, rules: RuleSet) -> int:
    if rules.return_limit_by_face_value and not card.rank.is_joker:
        return int(card.rank)
    return rank_order(card.rank, level, rules)
