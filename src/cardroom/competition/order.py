"""The competition simulator's order: of the cards inside an action triple, and of the entries of
``actionList`` (docs/competition-protocol.md, "The order of cards and of actionList").

Clients of the competition pick their move by exact equality with an ``actionList`` entry, and some by
its index, so both orders are those of the competition's simulator (``guandan_offline_v1006``; read in
its decompiled generator, ``game.py``):

- inside a triple, the cards go rank group by rank group: a sequence (straight, straight flush, 三连对,
  钢板) from its lowest rank up (the ace first in A2345), a full house its triple before its pair; within
  a rank the cards held of it in suit order ♠♥♣♦, then the wild ♥ level cards that stand for it;
- the entries go kind by kind (passing first when following; singles, pairs, triples, 三连对, 三带二,
  钢板, straights), each by rank; then the bomb-class plays: 4-card bombs, four jokers, 5- to 10-card
  bombs, each by rank, with straight flushes before them when leading or following a straight flush and
  after them otherwise;
- within one kind and rank, in the order the simulator's generator meets them: a straight's cards rank
  by rank in suit order (a wild after the cards held), and a pair, triple or bomb as
  :func:`rank_combinations` enumerates the cards of its rank.

Our lists hold exactly the legal actions: the few legal plays the simulator fails to generate (a
straight flush other than ♥ with a wild card in it; four jokers or a straight flush on a bomb it does
not expect them on; a pair of two wild cards in a 三连对 or as a 三带二's pair) go where its order
would put them, after those of their rank it does generate.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from functools import cache
from itertools import combinations
from typing import Any, Final

from cardroom.cards import BIG_JOKER, Card, Rank, Suit
from cardroom.guandan.deal import Action, ReturnAction, TributeAction
from cardroom.guandan.observation import Observation
from cardroom.guandan.plays import Play, PlayKind, rank_order, sequence_position
from cardroom.guandan.ruleset import COMPETITION, RuleSet

WILD: Final = 4
"""A wild card's place within its rank: after the four suits."""
SEQUENCES: Final = frozenset({PlayKind.STRAIGHT, PlayKind.STRAIGHT_FLUSH, PlayKind.TUBE, PlayKind.PLATE})
KIND_GROUP: Final = {
    PlayKind.SINGLE: 1,
    PlayKind.PAIR: 2,
    PlayKind.TRIPLE: 3,
    PlayKind.TUBE: 4,
    PlayKind.FULL_HOUSE: 5,
    PlayKind.PLATE: 6,
    PlayKind.STRAIGHT: 7,
    PlayKind.AIRPLANE: 8,
}
"""The plain kinds in the simulator's order (airplanes, which it does not know, after straights)."""
FOUR_JOKERS_SLOT: Final = 9
"""Four jokers come right after the 4-card bombs (slot 8), before the 5-card bombs (slot 10)."""
OTHER_BOMBS_SLOT: Final = 100
"""Bomb-class kinds the simulator does not know (three jokers, chained bombs): last, by strength."""


# --- the cards inside a triple ----------------------------------------------------------------------------


def wire_cards(play: Play) -> tuple[Card, ...]:
    """A play's cards in the simulator's order: rank group by rank group (:func:`_group_order`), in each
    the cards held of that rank by suit, then the wild cards that stand for it."""
    kind = play.kind
    if not play.stands_for and kind is not PlayKind.AIRPLANE:
        if kind is PlayKind.FULL_HOUSE:
            return _first(play.cards, play.rank)
        if play.rank == Rank.ACE and (kind in SEQUENCES or kind is PlayKind.CHAIN_BOMB):
            return _first(play.cards, Rank.ACE)
        return play.cards
    groups = _groups(play)
    order = sorted(groups, key=lambda rank: _group_order(play, rank, groups))
    return tuple(card for rank in order for card in _group_cards(groups[rank]))


def _first(cards: tuple[Card, ...], rank: Rank | None) -> tuple[Card, ...]:
    """Cards in print order (jokers, then 2…A, ♠♥♣♦ within a rank) with those of ``rank`` moved first."""
    return (*(card for card in cards if card.rank == rank), *(card for card in cards if card.rank != rank))


def _readings(play: Play) -> list[tuple[Card, Rank, bool]]:
    """Each card as held, the rank it is read as, and whether it is wild there (a wild card read as the
    level rank counts as held: the simulator sorts it among that rank's cards by its suit)."""
    if not play.stands_for:
        return [(card, card.rank, False) for card in play.cards]
    wild = _WILD_CARDS.get(play.level)
    bigs = len(play.stands_for) - sum(1 for card in play.cards if card is wild)
    readings = iter(play.stands_for[bigs:])
    big_readings = iter(play.stands_for[:bigs])
    found: list[tuple[Card, Rank, bool]] = []
    for card in play.cards:
        if card is wild:
            rank = next(readings).rank
        elif card is BIG_JOKER and bigs > 0:
            bigs -= 1
            rank = next(big_readings).rank
        else:
            found.append((card, card.rank, False))
            continue
        found.append((card, rank, rank != play.level))
    return found


_WILD_CARDS: Final[dict[Rank | None, Card]] = {
    rank: Card(rank, Suit.HEARTS) for rank in Rank if not rank.is_joker
}


def _groups(play: Play) -> dict[Rank, list[tuple[Card, bool]]]:
    groups: dict[Rank, list[tuple[Card, bool]]] = {}
    if not play.stands_for:
        for card in play.cards:
            groups.setdefault(card.rank, []).append((card, False))
        return groups
    for card, rank, wild in _readings(play):
        groups.setdefault(rank, []).append((card, wild))
    return groups


def _group_cards(group: list[tuple[Card, bool]]) -> list[Card]:
    held = sorted((card for card, wild in group if not wild), key=_suit_place)
    return held + [card for card, wild in group if wild]


def _group_order(play: Play, rank: Rank, groups: dict[Rank, list[tuple[Card, bool]]]) -> tuple[int, int]:
    """Where a rank group stands in a play: a sequence's and a chained bomb's from the lowest up (the ace
    first when the sequence starts with it), a full house's and an airplane's triples before the cards
    they carry; other plays by rank."""
    kind = play.kind
    if kind in SEQUENCES or kind is PlayKind.CHAIN_BOMB:
        return 0, _position(rank, play)
    if kind is PlayKind.FULL_HOUSE:
        return (0 if rank == play.rank else 1), int(rank)
    if kind is PlayKind.AIRPLANE:
        return (0 if len(groups[rank]) >= 3 else 1), _position(rank, play)
    return 0, int(rank)


def _position(rank: Rank, play: Play) -> int:
    return 1 if rank == Rank.ACE and play.rank == Rank.ACE else int(rank)


def _suit_place(card: Card) -> int:
    return int(card.suit) if card.suit is not None else 0


# --- the order of actionList ------------------------------------------------------------------------------


class HandIndex:
    """The seat's hand as the simulator's generator sees it: per rank the suits held (♠♥♣♦, twice where
    both copies are held), and how many wild ♥ level cards may join a rank's cards."""

    def __init__(self, hand: Iterable[Card], level: Rank) -> None:
        self.level = level
        by_rank: dict[Rank, list[int]] = {}
        for card in hand:
            by_rank.setdefault(card.rank, []).append(_suit_place(card))
        self.suits = {rank: tuple(sorted(places)) for rank, places in by_rank.items()}
        self.wilds = self.suits.get(level, ()).count(int(Suit.HEARTS))

    def combination_place(self, rank: Rank, places: Sequence[int]) -> tuple[int, ...]:
        """Where the simulator meets this choice of ``rank``'s cards (suit places, :data:`WILD` for a
        wild card) among that rank's same-size choices; after them when it does not meet it."""
        size = len(places)
        joinable = 0 if rank == self.level or rank.is_joker else min(self.wilds, 1 if size == 2 else 2)
        pool = self.suits.get(rank, ()) + (WILD,) * joinable
        found = rank_combinations(pool, size).get(tuple(sorted(places)))
        return (0, found) if found is not None else (1, *sorted(places))


@cache
def rank_combinations(pool: tuple[int, ...], size: int) -> dict[tuple[int, ...], int]:
    """The choices of ``size`` cards from one rank's ``pool`` (suit places in order, wild cards last)
    numbered in the order the simulator's generator meets them: the positions taken, compared from the
    first, except the last one, which runs from the end of the pool down (from ♠ ♥ ♣: ♠♣, ♠♥, ♥♣); a
    choice met again with other copies of the same cards keeps its first place."""
    positions = sorted(combinations(range(len(pool)), size), key=lambda taken: (*taken[:-1], -taken[-1]))
    found: dict[tuple[int, ...], int] = {}
    for taken in positions:
        found.setdefault(tuple(pool[index] for index in taken), len(found))
    return found


def action_sort_key(
    action: Action, hand: HandIndex, previous: Play | None, rules: RuleSet = COMPETITION
) -> tuple[Any, ...]:
    """Where an action stands in ``actionList`` (see the module's docstring)."""
    if isinstance(action, TributeAction | ReturnAction):
        return (1, rank_order(action.card.rank, hand.level, rules), _suit_place(action.card))
    play = action.play
    if play.kind is PlayKind.PASS:
        return (0,)
    if not play.kind.is_bomb:
        return (1, KIND_GROUP.get(play.kind, len(KIND_GROUP) + 1), *_within_kind(play, hand, rules))
    flushes_first = previous is None or previous.kind is PlayKind.STRAIGHT_FLUSH
    if play.kind is PlayKind.STRAIGHT_FLUSH:
        return (2, 0 if flushes_first else 2, *_within_kind(play, hand, rules))
    if play.kind is PlayKind.BOMB:
        slot = 2 * len(play.cards)
    elif play.kind is PlayKind.FOUR_JOKERS:
        slot = FOUR_JOKERS_SLOT
    else:
        slot = OTHER_BOMBS_SLOT
    return (2, 1, slot, *_within_kind(play, hand, rules))


def _within_kind(play: Play, hand: HandIndex, rules: RuleSet) -> tuple[Any, ...]:
    assert play.rank is not None
    kind, level = play.kind, hand.level
    groups = _groups(play)
    if kind is PlayKind.SINGLE:
        return rank_order(play.rank, level, rules), _suit_place(play.cards[0])
    if kind in (PlayKind.PAIR, PlayKind.TRIPLE, PlayKind.BOMB):
        return (
            rank_order(play.rank, level, rules),
            hand.combination_place(play.rank, _places(groups[play.rank])),
        )
    if kind is PlayKind.FULL_HOUSE:
        pair = next(rank for rank in groups if rank != play.rank)
        return (
            rank_order(play.rank, level, rules),
            hand.combination_place(play.rank, _places(groups[play.rank])),
            rank_order(pair, level, rules),
            hand.combination_place(pair, _places(groups[pair])),
        )
    ranks = sorted(groups, key=lambda rank: _position(rank, play))
    if kind in (PlayKind.STRAIGHT, PlayKind.STRAIGHT_FLUSH):
        return sequence_position(play.rank), len(play.cards), *(_places(groups[rank])[0] for rank in ranks)
    if kind in (PlayKind.TUBE, PlayKind.PLATE):
        places = (hand.combination_place(rank, _places(groups[rank])) for rank in ranks)
        return sequence_position(play.rank), len(play.cards), *places
    return play.key, len(play.cards), *(place for rank in ranks for place in _places(groups[rank]))


def _places(group: list[tuple[Card, bool]]) -> tuple[int, ...]:
    return tuple(WILD if wild else _suit_place(card) for card, wild in group)


def order_actions(observation: Observation) -> list[Action]:
    """A seat's legal actions in the simulator's ``actionList`` order."""
    index = HandIndex(observation.hand, observation.level)
    previous, rules = observation.previous, observation.rules
    return sorted(
        observation.legal_actions, key=lambda action: action_sort_key(action, index, previous, rules)
    )
