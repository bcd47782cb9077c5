"""Dealing the 108 cards: 27 to each of the four seats, with injected randomness."""

from __future__ import annotations

import random

from cardroom.cards import Card, full_deck, sort_cards

SEATS = 4
HAND_SIZE = 27


def deal_hands(rng: random.Random) -> tuple[tuple[Card, ...], ...]:
    """Shuffle both decks with ``rng`` and deal 27 cards to each seat (hands in print order)."""
    deck = list(full_deck())
    rng.shuffle(deck)
    return tuple(sort_cards(deck[seat::SEATS]) for seat in range(SEATS))
