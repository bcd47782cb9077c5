"""Cards and action triples as OpenGuanDan's Java server writes them (docs/openguandan-protocol.md).
Pure: no I/O.

The server keeps a hand as bits per rank and prints it rank by rank from 2 up to A, then ``SB`` and
``HR``; within a rank it prints the suits held once in the order ♥♠♣♦, then the suits held twice in the
same order (``H5 C5 H5``). Every ``handCards``, ``restCards`` and the cards of every triple it sends
about a play (``curAction``, ``greaterAction``) follow that order, so ours do too. Triples are the
competition's (:mod:`cardroom.guandan.triple`); four jokers are ``["FourKings", "B", …]``.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from typing import Any, Final

from cardroom.cards import Card, Suit
from cardroom.guandan.deal import Action, ReturnAction, TributeAction
from cardroom.guandan.plays import Play, PlayKind
from cardroom.guandan.triple import to_triple

SUIT_ORDER: Final = {Suit.HEARTS: 0, Suit.SPADES: 1, Suit.CLUBS: 2, Suit.DIAMONDS: 3}
"""The Java server's suit bits: ♥ 1, ♠ 2, ♣ 4, ♦ 8."""
PASS_TRIPLE: Final = ("PASS", "PASS", "PASS")


def java_order(cards: Iterable[Card]) -> list[Card]:
    """``cards`` in the Java server's print order: by rank (2 … A, small joker, big joker), the first
    copy of each suit held before the second, suits ♥♠♣♦."""
    counts = Counter(cards)
    keyed = [
        (card.rank, copy, SUIT_ORDER[card.suit] if card.suit is not None else 0, card)
        for card, count in counts.items()
        for copy in range(count)
    ]
    return [card for *_, card in sorted(keyed, key=lambda item: item[:3])]


def card_names(cards: Iterable[Card]) -> list[str]:
    """Cards as the server lists them (``handCards``, ``restCards``): in :func:`java_order`."""
    return [str(card) for card in java_order(cards)]


def play_triple(play: Play) -> list[Any]:
    """A play's ``[type, rank, cards]`` with the cards in the server's order; a pass is
    ``["PASS", "PASS", "PASS"]``."""
    if play.kind is PlayKind.PASS:
        return list(PASS_TRIPLE)
    kind, rank, _ = to_triple(play)
    return [kind, rank, card_names(play.cards)]


def action_entry(action: Action) -> list[Any]:
    """An ``actionList`` entry: a play's triple, ``["tribute", "tribute", [card]]`` or
    ``["back", "back", [card]]``."""
    if isinstance(action, TributeAction):
        return ["tribute", "tribute", [str(action.card)]]
    if isinstance(action, ReturnAction):
        return ["back", "back", [str(action.card)]]
    return play_triple(action.play)
