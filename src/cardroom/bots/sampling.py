"""Determinisation: the other seats' hands, sampled to fit everything one seat has seen.

What a seat knows: its own hand; every card played; each seat's card count; the first deal's turned card
(its holder keeps it until it plays it); the tributes handed over in public (a receiver holds that card
until it plays or returns it); a return card it gave or received.
The cards it has not seen are dealt at random to the other seats, the known cards first, to fill each
seat's count exactly.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence

from cardroom.cards import ALL_CARDS, Card
from cardroom.guandan.deal import Deal, EventKind, Phase
from cardroom.guandan.observation import Observation

FULL_SET = Counter(dict.fromkeys(ALL_CARDS, 2))


def unseen_cards(observation: Observation) -> Counter[Card]:
    """The cards ``observation.seat`` has not seen: not in its hand and not played yet."""
    unseen = FULL_SET - Counter(observation.hand)
    for event in observation.history:
        if event.kind == EventKind.PLAY and event.play is not None:
            unseen -= Counter(event.play.cards)
    return unseen


def known_holdings(observation: Observation) -> list[Counter[Card]]:
    """Cards the seat knows another seat still holds (the first deal's turned card, tributes received in
    public, returns it gave or received), less what that seat has played since."""
    known: list[Counter[Card]] = [Counter() for _ in range(4)]
    if observation.turned is not None:
        holder, card = observation.turned
        known[holder][card] += 1
    for event in observation.history:
        if (
            event.kind in (EventKind.TRIBUTE, EventKind.RETURN)
            and event.card is not None
            and event.to is not None
        ):
            if event.to != observation.seat:
                known[event.to][event.card] += 1
            if event.seat is not None:
                known[event.seat][event.card] -= 1
                known[event.seat] = +known[event.seat]
        elif event.kind == EventKind.PLAY and event.play is not None and event.seat is not None:
            known[event.seat] = known[event.seat] - Counter(event.play.cards)
    known[observation.seat] = Counter()
    return known


def sample_hands(observation: Observation, rng: random.Random) -> list[tuple[Card, ...]]:
    """The four hands now: the seat's own, and the others sampled from the unseen cards to fit each
    seat's card count and the cards known to be held."""
    counts = observation.card_counts
    unseen = unseen_cards(observation)
    hands: list[list[Card]] = [[] for _ in range(4)]
    hands[observation.seat] = list(observation.hand)
    for seat, held in enumerate(known_holdings(observation)):
        for card in held.elements():
            if unseen[card] and len(hands[seat]) < counts[seat]:
                hands[seat].append(card)
                unseen[card] -= 1
    rest = list(unseen.elements())
    rng.shuffle(rest)
    for seat in range(4):
        if seat == observation.seat:
            continue
        need = counts[seat] - len(hands[seat])
        hands[seat] += rest[:need]
        rest = rest[need:]
    if rest:
        raise ValueError(f"{len(rest)} unseen cards are left over: the observation is inconsistent")
    return [tuple(hand) for hand in hands]


def position_with(observation: Observation, hands: Sequence[Sequence[Card]]) -> Deal:
    """A play-phase deal at the observed position, the four seats holding ``hands``."""
    if observation.phase is not Phase.PLAY or observation.current_player is None:
        raise ValueError("positions are taken in the play phase, at a seat's turn")
    last = None
    if observation.previous is not None and observation.previous_seat is not None:
        last = (observation.previous_seat, observation.previous)
    return Deal.at_position(
        hands,
        observation.level,
        observation.rules,
        current_player=observation.current_player,
        finished=observation.finished,
        last_play=last,
        passes=passes_on(observation),
    )


def passes_on(observation: Observation) -> int:
    """How many seats have passed on the play to beat (0 when the seat leads)."""
    passes = 0
    if observation.previous is not None:
        for event in reversed(observation.history):
            if event.kind != EventKind.PASS:
                break
            passes += 1
    return passes


def sample_position(observation: Observation, rng: random.Random) -> Deal:
    """A play-phase deal at the observed position with sampled hands for the other seats."""
    return position_with(observation, sample_hands(observation, rng))
