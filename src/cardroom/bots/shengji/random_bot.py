"""The baseline: uniform among the legal actions, sampled without listing the huge lazy sets.

- **Declaring**: uniform among passing and the declarations the seat may make now (a short list).
- **Burying**: a uniform random 8-card subset of the 33 cards held (of the card instances: a card held
  twice is twice as likely to go), not a uniform choice among the C(33, 8)-many distinct multisets.
- **Leading**: a lead of one suit is legal whatever its size, but most are throws (甩牌) that fail, so
  the leads are drawn in two steps: with probability :data:`THROW_RATE` a throw attempt — a uniform
  random subset of 2 or more cards of a uniformly chosen effective suit (which may fail and cost the
  penalty: that is legal play) — else a uniform choice among the distinct units the hand can lead (each
  single, pair and tractor). Every lead is checked with the core's ``verify_lead``; a random single is
  the fallback.
- **Following**: when the seat holds no more cards of the led suit than the lead has, it must play them
  all and the rest is free: the rest is a uniform random subset of its other cards. Otherwise the legal
  follows are listed (:func:`~cardroom.shengji.legal_follows`) and one is chosen uniformly; if there are
  more than :data:`MAX_LISTED`, random subsets of the led suit are drawn until the core's
  ``can_follow`` accepts one (then the first listed follows, uniformly, as a last resort).
"""

from __future__ import annotations

import itertools
import random

from cardroom.bots.shengji.base import register
from cardroom.bots.shengji.knowledge import by_suit, unit_leads
from cardroom.cards import Card
from cardroom.shengji.deal import KITTY_SIZE, Action, Bury, Phase, Play
from cardroom.shengji.errors import ShengjiRuleError
from cardroom.shengji.observation import Observation
from cardroom.shengji.order import TrickRules
from cardroom.shengji.tricks import Lead, can_follow, legal_follows, verify_lead

THROW_RATE = 0.1
"""How often a random lead is a throw attempt rather than one unit."""
MAX_LISTED = 2000
"""Follows listed at most before falling back to sampling."""
SAMPLING_TRIES = 200
"""Random subsets of the led suit tried when the follows are too many to list."""


def _require_turn(observation: Observation) -> None:
    if not observation.to_act:
        raise ValueError(f"seat {observation.seat} has no legal action: it is not its turn")


def random_lead(hand: tuple[Card, ...], rules: TrickRules, rng: random.Random) -> tuple[Card, ...]:
    """A random lead (see the module's documentation), checked with ``verify_lead``."""
    suits = by_suit(hand, rules)
    groups = list(suits.values())
    long_groups = [cards for cards in groups if len(cards) >= 2]
    if long_groups and rng.random() < THROW_RATE:
        cards = rng.choice(long_groups)
        lead = tuple(rng.sample(cards, rng.randint(2, len(cards))))
    else:
        leads = [unit for cards in groups for unit in unit_leads(cards, rules)]
        lead = rng.choice(leads)
    try:
        verify_lead(hand, lead, rules)
    except ShengjiRuleError:
        lead = (rng.choice(hand),)
    return lead


def random_follow(
    hand: tuple[Card, ...], lead: Lead, rules: TrickRules, rng: random.Random
) -> tuple[Card, ...]:
    """A random legal follow (see the module's documentation)."""
    in_suit = [card for card in hand if rules.suit_of(card) is lead.suit]
    if len(in_suit) <= lead.size:
        rest = [card for card in hand if rules.suit_of(card) is not lead.suit]
        return (*in_suit, *rng.sample(rest, lead.size - len(in_suit)))
    listed = list(itertools.islice(legal_follows(hand, lead, rules), MAX_LISTED + 1))
    if len(listed) <= MAX_LISTED:
        return rng.choice(listed)
    for _ in range(SAMPLING_TRIES):
        cards = tuple(rng.sample(in_suit, lead.size))
        if can_follow(hand, lead, cards, rules):
            return cards
    return rng.choice(listed)


@register("random")
class RandomShengjiBot:
    """Uniform among the legal actions, sampled (see the module's documentation)."""

    name = "random"

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def act(self, observation: Observation) -> Action:
        _require_turn(observation)
        seat, hand = observation.seat, observation.hand
        if observation.phase is Phase.DECLARE:
            return self.rng.choice(list(observation.legal_actions()))
        if observation.phase is Phase.KITTY:
            return Bury(seat, tuple(self.rng.sample(hand, KITTY_SIZE)))
        rules = observation.trick_rules
        if observation.phase is not Phase.TRICKS or rules is None:
            raise ValueError(f"seat {seat} cannot act in the {observation.phase.value} phase")
        if observation.lead is None:
            return Play(seat, random_lead(hand, rules, self.rng))
        return Play(seat, random_follow(hand, observation.lead, rules, self.rng))


__all__ = ["MAX_LISTED", "THROW_RATE", "RandomShengjiBot", "random_follow", "random_lead"]
