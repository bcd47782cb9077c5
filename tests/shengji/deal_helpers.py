"""Helpers for the Shengji deal and match tests: decks that deal chosen cards to chosen seats, scripted
declaring, snapshots for "a rejected action changes nothing", and a random player."""

from __future__ import annotations

import itertools
import random
from collections import Counter
from collections.abc import Mapping
from typing import Any

from cardroom.cards import Card, full_deck
from cardroom.shengji.deal import (
    DEALT,
    KITTY_SIZE,
    SEATS,
    Action,
    Bury,
    Deal,
    Pass,
    Phase,
    Play,
    legal_leads,
)


def cards(text: str) -> tuple[Card, ...]:
    """Cards in notation, in the order written (``parse_cards`` sorts)."""
    return tuple(Card.parse(token) for token in text.split())


def deck_for(hands: Mapping[int, str], first_drawer: int = 0, kitty: str = "") -> tuple[Card, ...]:
    """A dealing order in which each seat draws the cards written for it first, in that order, and the
    kitty starts with the cards written for it; the rest of both decks fill the other places in print
    order."""
    deck: list[Card | None] = [None] * (DEALT + KITTY_SIZE)
    for seat, text in hands.items():
        for index, card in enumerate(cards(text)):
            deck[index * SEATS + (seat - first_drawer) % SEATS] = card
    for index, card in enumerate(cards(kitty)):
        deck[DEALT + index] = card
    chosen = Counter(card for card in deck if card is not None)
    rest = iter((Counter(full_deck()) - chosen).elements())
    if chosen - Counter(full_deck()):
        raise ValueError("more than two of a card")
    return tuple(card if card is not None else next(rest) for card in deck)


def card_number(seat: int, draw: int, first_drawer: int = 0) -> int:
    """The number (1–100) of the card that gives ``seat`` its ``draw``-th card (1-based)."""
    return (draw - 1) * SEATS + (seat - first_drawer) % SEATS + 1


def pass_to(deal: Deal, number: int) -> None:
    """Everyone passes until card ``number`` has been dealt; its receiver is then to act."""
    while deal.dealt < number:
        assert deal.current_player is not None
        deal.apply(Pass(deal.current_player))


def finish_declaring(deal: Deal) -> None:
    """Everyone passes until declaring is over."""
    while deal.phase is Phase.DECLARE:
        assert deal.current_player is not None
        deal.apply(Pass(deal.current_player))


def snapshot(deal: Deal) -> tuple[Any, ...]:
    """Everything a rejected action must leave unchanged."""
    return (
        deal.phase,
        deal.current_player,
        [Counter(hand) for hand in deal.hands],
        deal.dealt,
        deal.declaration,
        deal.dealer,
        deal.trump,
        deal.buried,
        deal.lead,
        list(deal.trick_plays),
        len(deal.tricks),
        len(deal.events),
        len(deal.actions),
        deal.attackers_points,
        deal.dealers_points,
        deal.penalty,
    )


def random_action(deal: Deal, rng: random.Random, throw_rate: float = 0.15) -> Action:
    """A random legal action, drawn without listing every bury or lead: eight random cards to bury; a
    lead is a random single, pair or tractor from the first legal leads, or now and then a random set of
    one suit (a throw attempt, which may fail)."""
    seat = deal.current_player
    assert seat is not None
    hand = deal.hand(seat)
    if deal.phase is Phase.KITTY:
        return Bury(seat, tuple(rng.sample(hand, KITTY_SIZE)))
    if deal.phase is Phase.TRICKS and deal.lead is None:
        rules = deal.trick_rules
        assert rules is not None
        if rng.random() < throw_rate:
            suits = sorted({rules.suit_of(card) for card in hand})
            suit = rng.choice(suits)
            in_suit = [card for card in hand if rules.suit_of(card) is suit]
            return Play(seat, tuple(rng.sample(in_suit, rng.randint(1, len(in_suit)))))
        leads = list(itertools.islice(legal_leads(Counter(hand), rules), 60))
        return Play(seat, rng.choice(leads))
    return rng.choice(list(itertools.islice(deal.legal_actions(), 400)))


__all__ = [
    "card_number",
    "cards",
    "deck_for",
    "finish_declaring",
    "pass_to",
    "random_action",
    "snapshot",
]
