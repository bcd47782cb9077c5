"""A position's value without playing it to the end: how likely each finishing order is, from the plans
of the four hands.

Each seat still in play gets a strength from its plan (:mod:`cardroom.bots.planning`) and the table:
plays left, bombs, cards, plan cost, who has the lead, the opponents' bombs. The finishing order is
drawn as in a Plackett-Luce model: the next seat out is seat *i* with probability ``exp(s_i) / Σ exp(s_j)``
over the seats still in. :data:`WEIGHTS` were fitted to the real finishing orders of heuristic self-play
(:mod:`cardroom.bots.fitting`). The value of a position is the expected :func:`places_value` over the
orders, a smooth number where a played-out deal gives one of six outcomes, so search can tell close
choices apart with few samples (:mod:`cardroom.bots.search`).

Features are read at the start of a trick (the leader about to lead), where the model was fitted.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from itertools import permutations

from cardroom.bots.planning import Plan, Planner
from cardroom.guandan.deal import Deal, DealResult
from cardroom.guandan.ruleset import RuleSet
from cardroom.guandan.tribute import partner, team_of

FEATURES = (
    "plain plays",
    "bombs",
    "cards",
    "plan cost",
    "has the lead",
    "partner has the lead",
    "opponents' bombs",
    "at most one plain play",
    "at most two plain plays",
    "plain plays × has the lead",
    "bombs × has the lead",
    "has the lead and at most one play",
)
"""What a seat's strength is made of (:func:`seat_features`), in the order of :data:`WEIGHTS`."""

WEIGHTS = (1.0349, -0.5037, 0.0263, -1.0430, 1.7162, 0.0748, -0.4058, 0.3825, 0.3395, -0.2312, 0.0463, 5.5867)
"""A seat's strength is ``Σ weight × feature``: ``python -m cardroom.bots.fitting --deals 8000 --seed 1``
(100,660 positions; docs/bots.md)."""


def seat_features(
    plan: Plan, cards: int, has_lead: bool, partner_has_lead: bool, opponents_bombs: int
) -> tuple[float, ...]:
    """One seat's features (:data:`FEATURES`)."""
    plain = len(plan.plain)
    bombs = len(plan.bombs)
    lead = float(has_lead)
    return (
        plain,
        bombs,
        cards,
        plan.cost,
        lead,
        float(partner_has_lead),
        opponents_bombs,
        float(plain <= 1),
        float(plain <= 2),
        plain * lead,
        bombs * lead,
        lead * (plain + bombs <= 1),
    )


def position_features(deal: Deal, planner: Planner) -> dict[int, tuple[float, ...]]:
    """The features of every seat still in play, from its hand now (all four hands are read: for a
    position whose hidden hands were sampled)."""
    active = [seat for seat in range(4) if seat not in deal.finished]
    plans = {seat: planner.plan(deal.hand(seat)) for seat in active}
    bombs = {seat: len(plan.bombs) for seat, plan in plans.items()}
    to_act = deal.current_player
    return {
        seat: seat_features(
            plan,
            deal.card_count(seat),
            seat == to_act,
            partner(seat) == to_act,
            sum(bombs[other] for other in active if team_of(other) != team_of(seat)),
        )
        for seat, plan in plans.items()
    }


def strength(features: Sequence[float], weights: Sequence[float] = WEIGHTS) -> float:
    """A seat's strength: the higher, the likelier it goes out before the others."""
    return sum(weight * feature for weight, feature in zip(weights, features, strict=True))


def places_value(places: Sequence[int], seat: int, rules: RuleSet) -> int:
    """The value of a finishing order for ``seat``'s team: 1 plus the level rise (:meth:`DealResult.rise`:
    +3/+2/+1 under the competition rules) when the team took 上游, minus that when the other team did."""
    result = DealResult((places[0], places[1], places[2], places[3]))
    value = 1 + result.rise(rules)
    return value if result.winning_team == team_of(seat) else -value


def order_odds(strengths: dict[int, float]) -> list[tuple[tuple[int, ...], float]]:
    """Every finishing order of the seats still in play, with its Plackett-Luce probability."""
    top = max(strengths.values())
    weight = {seat: math.exp(value - top) for seat, value in strengths.items()}
    odds = []
    for order in permutations(strengths):
        probability, rest = 1.0, sum(weight.values())
        for seat in order[:-1]:
            probability *= weight[seat] / rest
            rest -= weight[seat]
        odds.append((order, probability))
    return odds


def position_value(deal: Deal, seat: int, planner: Planner, weights: Sequence[float] = WEIGHTS) -> float:
    """The expected :func:`places_value` of the deal for ``seat``'s team: exact once the deal is over,
    else over the finishing orders the model (with ``weights``) gives the seats still in play."""
    if deal.result is not None:
        return places_value(deal.result.places, seat, deal.rules)
    strengths = {
        other: strength(features, weights) for other, features in position_features(deal, planner).items()
    }
    return sum(
        probability * places_value((*deal.finished, *order), seat, deal.rules)
        for order, probability in order_odds(strengths)
    )
