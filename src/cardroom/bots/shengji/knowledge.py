"""What a Shengji bot reads from its observation: its hand by effective suit, the units it can lead,
the cards played so far, the cards it cannot see (held by the other three seats, or in a kitty it did
not bury) and the suits each seat has shown void in."""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass

from cardroom.cards import Card, full_deck
from cardroom.shengji.deal import Event, Phase
from cardroom.shengji.observation import Observation
from cardroom.shengji.order import EffectiveSuit, TrickRules
from cardroom.shengji.units import is_tractor

FULL_SET = Counter(full_deck())
"""Both decks: each of the 54 cards twice."""

MAX_TRACTOR_CHOICES = 64
"""At most this many tractors per run of pairs (off-suit level pairs share a rung, so a run may be built
several ways)."""


def by_suit(cards: Iterable[Card], rules: TrickRules) -> dict[EffectiveSuit, list[Card]]:
    """The cards grouped by effective suit, each group lowest first (suits in ♠♥♣♦, trump order)."""
    groups: dict[EffectiveSuit, list[Card]] = {}
    for card in sorted(cards, key=rules.sort_key):
        groups.setdefault(rules.suit_of(card), []).append(card)
    return groups


def pair_cards(cards: Iterable[Card]) -> list[Card]:
    """The distinct cards held at least twice."""
    return sorted(card for card, count in Counter(cards).items() if count >= 2)


def unit_leads(cards: Iterable[Card], rules: TrickRules) -> list[tuple[Card, ...]]:
    """Every distinct single, pair and tractor these cards (of one effective suit) can lead, in a fixed
    order: singles, pairs, then tractors (each run of consecutive pairs and each part of it)."""
    held = sorted(set(cards), key=rules.sort_key)
    leads: list[tuple[Card, ...]] = [(card,) for card in held]
    pairs = sorted(pair_cards(cards), key=rules.sort_key)
    leads += [(card, card) for card in pairs]
    by_order: dict[int, list[Card]] = {}
    for card in pairs:
        by_order.setdefault(rules.order_of(card), []).append(card)
    orders = sorted(by_order)
    for start in range(len(orders)):
        end = start
        while end + 1 < len(orders) and orders[end + 1] == orders[end] + 1:
            end += 1
            run = [by_order[order] for order in orders[start : end + 1]]
            for choice in itertools.islice(itertools.product(*run), MAX_TRACTOR_CHOICES):
                tractor = tuple(card for card in choice for _ in range(2))
                if is_tractor(tractor, rules):
                    leads.append(tractor)
    return leads


@dataclass(frozen=True)
class Seen:
    """What the public history shows: every card played (the trick in play included), and per seat
    the effective suits it has shown void in (it did not follow a lead of that suit in full)."""

    played: Counter[Card]
    voids: tuple[frozenset[EffectiveSuit], ...]


def read_history(history: Iterable[Event], rules: TrickRules) -> Seen:
    """Read the ``play`` events: four to a trick, the first one the lead (a failed throw's forced unit)."""
    played: Counter[Card] = Counter()
    voids: list[set[EffectiveSuit]] = [set(), set(), set(), set()]
    lead_suit: EffectiveSuit | None = None
    in_trick = 0
    for event in history:
        if event.kind != "play" or event.seat is None:
            continue
        played.update(event.cards)
        if in_trick == 0:
            lead_suit = rules.suit_of(event.cards[0])
        elif lead_suit is not None and any(rules.suit_of(card) is not lead_suit for card in event.cards):
            voids[event.seat].add(lead_suit)
        in_trick = (in_trick + 1) % 4
    return Seen(played, tuple(frozenset(suits) for suits in voids))


def unseen_cards(observation: Observation, seen: Seen) -> Counter[Card]:
    """The cards this seat cannot place: both decks less its hand, the cards played and (for the dealer)
    the kitty it buried. They are in the other three hands, or in the kitty when this seat did not bury
    it."""
    known = Counter(observation.hand) + seen.played
    if observation.dealer == observation.seat and observation.phase in (Phase.TRICKS, Phase.OVER):
        known += Counter(observation.kitty)
    return FULL_SET - known


__all__ = [
    "FULL_SET",
    "Seen",
    "by_suit",
    "pair_cards",
    "read_history",
    "unit_leads",
    "unseen_cards",
]
