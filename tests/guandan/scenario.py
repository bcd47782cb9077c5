"""Helpers for scenario tests of deals and matches: hand-built deals, named plays, a snapshot of a
deal's state, and a driver that plays a deal to a chosen finishing order through the public API.

Cards are written in the notation of docs/notation.md (``SA``, ``H2``, ``SB`` small joker, ``HR`` big joker).
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from cardroom.cards import Card, full_deck, parse_cards, sort_cards
from cardroom.guandan import PASS, Play, PlayKind, classify
from cardroom.guandan.deal import Action, Deal, DealResult, Event, Phase, PlayAction
from cardroom.guandan.match import Match, shuffled_hands
from cardroom.guandan.plays import rank_order

Hands = tuple[tuple[Card, ...], tuple[Card, ...], tuple[Card, ...], tuple[Card, ...]]


def build_hands(seat0: str = "", seat1: str = "", seat2: str = "", seat3: str = "") -> Hands:
    """Four 27-card hands holding both decks exactly: each seat gets the cards written for it, and the
    rest of the deck is dealt in print order (jokers, then 2…A, ♠♥♣♦), one card at a time round the
    seats that still have room. Write every card that matters to a scenario (jokers, level cards,
    the highest cards of a payer); the filling is deterministic but not chosen."""
    chosen = [list(parse_cards(text)) for text in (seat0, seat1, seat2, seat3)]
    rest = Counter(full_deck())
    for seat, cards in enumerate(chosen):
        if len(cards) > 27:
            raise ValueError(f"seat {seat} is given {len(cards)} cards, more than 27")
        for card in cards:
            if rest[card] == 0:
                raise ValueError(f"{card} is given more than twice")
            rest[card] -= 1
    seat = 0
    for card in sort_cards(rest.elements()):
        while len(chosen[seat]) == 27:
            seat = (seat + 1) % 4
        chosen[seat].append(card)
        seat = (seat + 1) % 4
    hands = tuple(sort_cards(cards) for cards in chosen)
    return hands[0], hands[1], hands[2], hands[3]


def phase_of(deal: Deal) -> Phase:
    """The deal's phase (a call, so that type checkers do not narrow it across actions)."""
    return deal.phase


def cards(text: str) -> tuple[Card, ...]:
    return parse_cards(text)


def card(text: str) -> Card:
    return Card.parse(text)


def reading(deal: Deal, text: str, kind: PlayKind | None = None) -> Play:
    """The play of exactly these cards at the deal's level (of ``kind`` when several readings)."""
    found = [
        play
        for play in classify(parse_cards(text), deal.level, deal.rules)
        if kind is None or play.kind is kind
    ]
    assert len(found) == 1, f"{text}: {[play.describe() for play in found]}"
    return found[0]


def act(deal: Deal, seat: int, text: str, kind: PlayKind | None = None) -> Play:
    """``seat`` plays these cards (``""`` passes); returns the play."""
    play = PASS if not text else reading(deal, text, kind)
    deal.apply(PlayAction(seat, play))
    return play


def pass_round(deal: Deal, count: int) -> None:
    """The next ``count`` players to act pass."""
    for _ in range(count):
        seat = deal.current_player
        assert seat is not None
        deal.apply(PlayAction(seat, PASS))


@dataclass(frozen=True)
class Snapshot:
    """Everything observable about a deal's state, to show a rejected action changed nothing."""

    hands: tuple[tuple[Card, ...], ...]
    events: tuple[Event, ...]
    current_player: int | None
    phase: Phase
    finished: tuple[int, ...]
    last_play: tuple[int, Play] | None
    passes: int
    pending: tuple[tuple[int, Card], ...]
    result: DealResult | None


def snapshot(deal: Deal) -> Snapshot:
    return Snapshot(
        hands=tuple(deal.hand(seat) for seat in range(4)),
        events=tuple(deal.events),
        current_player=deal.current_player,
        phase=deal.phase,
        finished=tuple(deal.finished),
        last_play=deal.last_play,
        passes=deal.passes,
        pending=tuple(sorted(deal.pending_tributes.items())),
        result=deal.result,
    )


# -- driving a deal to a chosen finishing order -------------------------------------------------


def _shed(action: PlayAction) -> tuple[int, int]:
    """Most cards first, then the lowest play."""
    return len(action.play.cards), -action.play.key


def _choose(deal: Deal, target: int) -> Action:
    """The scripted choice: the target sheds cards as fast as it can and takes every trick it can;
    everyone else leads a low single the target can beat, and passes when following."""
    actions = deal.legal_actions()
    seat = deal.current_player
    assert seat is not None
    if deal.phase is not Phase.PLAY:
        return actions[0]
    plays = [action for action in actions if isinstance(action, PlayAction) and not action.play.is_pass]
    if deal.previous is None:
        if seat == target:
            return max(plays, key=_shed)
        singles = sorted(
            (action for action in plays if action.play.kind is PlayKind.SINGLE),
            key=lambda action: action.play.key,
        )
        top = max(rank_order(held.rank, deal.level) for held in deal.hand(target))
        beatable = [action for action in singles if action.play.key < top]
        return beatable[0] if beatable else singles[0]
    if seat != target or not plays:
        return PlayAction(seat, PASS)
    plain = [action for action in plays if not action.play.kind.is_bomb]
    if plain:
        return min(plain, key=lambda action: action.play.key)
    return max(plays, key=_shed)


def play_to_order(deal: Deal, order: Sequence[int], apply: Callable[[Action], None] | None = None) -> None:
    """Play ``deal`` (tribute and return included, first legal choice) so that the seats go out in
    ``order`` (as far as the deal lasts). ``apply`` defaults to ``deal.apply`` (a match passes its
    own). Asserts that the order was reached."""
    step = apply if apply is not None else deal.apply
    for _ in range(5000):
        if deal.phase is Phase.OVER:
            break
        target = next(seat for seat in order if seat not in deal.finished)
        step(_choose(deal, target))
    assert deal.result is not None, "the scripted deal did not end"
    out = len(deal.finished)
    assert deal.finished == list(order[:out]), f"finished {deal.finished}, wanted {list(order)}"


def order_for(first: int, partner_place: int) -> list[int]:
    """A finishing order where ``first`` is 上游 and the partner takes ``partner_place`` (2, 3 or 4)."""
    partner, right, left = (first + 2) % 4, (first + 1) % 4, (first + 3) % 4
    if partner_place == 2:
        return [first, partner, right, left]
    if partner_place == 3:
        return [first, right, partner, left]
    return [first, right, left, partner]


def play_match_deal(match: Match, rng: random.Random, first: int, partner_place: int) -> Deal:
    """Deal shuffled hands (the first deal led by ``first``) and play the deal so that ``first`` is
    上游 and the partner finishes ``partner_place``."""
    hands, _ = shuffled_hands(rng)
    deal = match.deal(hands, first if match.needs_leader else None)
    play_to_order(deal, order_for(first, partner_place), match.apply)
    assert deal.result is not None
    assert deal.result.places[0] == first
    assert deal.result.partner_place == partner_place
    return deal
