"""Readings of card sets and the enumerator table of a rule set: which engine lists a rule set's plays
(the competition's, :mod:`cardroom.guandan.combinations`, or the extended one,
:mod:`cardroom.guandan.extended`), :func:`classify` and :func:`read_as`. The compiled core answers
both where it is loaded (:mod:`cardroom.guandan.native`).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Final

from cardroom.cards import Card, Rank, card_index
from cardroom.guandan.combinations import ENUMERATORS, MAX_BOMB_SIZE, SIZED_ENUMERATORS
from cardroom.guandan.extended import EXTENDED_ENUMERATORS
from cardroom.guandan.hands import Enumerator, HandView, card_counts, check_level
from cardroom.guandan.native import kinds_of, plays_of_kind, serves
from cardroom.guandan.plays import Play, PlayKind, play_key
from cardroom.guandan.ruleset import COMPETITION, RuleSet


def enumerators(view: HandView) -> Mapping[PlayKind, Enumerator]:
    """The enumerator of every kind the hand's rule set has, each taking ``(view, above, size)``: the
    competition's, or the extended ones when a play parameter differs (:attr:`RuleSet.extended_plays`)."""
    return EXTENDED_ENUMERATORS if view.extended else SIZED_ENUMERATORS


EXTENDED_ORDER: Final = tuple(EXTENDED_ENUMERATORS)
"""The kinds of a rule set with extended plays, in the order :mod:`cardroom.guandan.extended` lists them."""

_KINDS_BY_SIZE: Final = {
    1: (PlayKind.SINGLE,),
    2: (PlayKind.PAIR,),
    3: (PlayKind.TRIPLE,),
    4: (PlayKind.BOMB, PlayKind.FOUR_JOKERS),
    5: (PlayKind.FULL_HOUSE, PlayKind.STRAIGHT, PlayKind.STRAIGHT_FLUSH, PlayKind.BOMB),
    6: (PlayKind.TUBE, PlayKind.PLATE, PlayKind.BOMB),
}


def classify(cards: Iterable[Card], level: Rank, rules: RuleSet = COMPETITION) -> list[Play]:
    """Every reading of exactly these cards as one play at this level (empty if none).

    A wild card can make several readings (which end of a straight it completes, a straight or a
    straight flush, which rank of a full house it joins); each is a distinct :class:`Play`.
    """
    held = tuple(sorted(cards, key=card_index))
    size = len(held)
    kinds = _KINDS_BY_SIZE.get(size, (PlayKind.BOMB,) if 7 <= size <= MAX_BOMB_SIZE else ())
    if serves(rules):
        check_level(level)
        if rules.extended_plays:
            kinds = tuple(EXTENDED_ORDER)
        elif not kinds:
            card_counts(held)  # no play of this size; an impossible hand is refused, as the pure engine does
            return []
        return [play for kind in kinds for play in plays_of_kind(held, level, rules, kind, 0, size).to_list()]
    view = HandView(held, level, rules)
    if view.extended:
        return [
            play for enumerate_kind in enumerators(view).values() for play in enumerate_kind(view, 0, size)
        ]
    return [play for kind in kinds for play in ENUMERATORS[kind](view) if len(play.cards) == size]


def read_as(
    cards: Iterable[Card], kind: PlayKind, rank: Rank, level: Rank, rules: RuleSet = COMPETITION
) -> Play | None:
    """The reading of exactly these cards as a play of this kind and key rank, or ``None``.

    The same engine as :func:`classify`, asked for one kind and key only (what validators need)."""
    held = tuple(sorted(cards, key=card_index))
    size = len(held)
    if kind is PlayKind.PASS or not size:
        return None
    if serves(rules):
        check_level(level)
        if kind not in kinds_of(rules):
            card_counts(held)  # no play of this kind; an impossible hand is refused, as the pure engine does
            return None
        # a chained bomb's key depends on its shape, which the cards settle (one reading per rank)
        chained = kind is PlayKind.CHAIN_BOMB
        key = 0 if chained else play_key(kind, rank, size, level, rules)
        for play in plays_of_kind(held, level, rules, kind, max(key - 1, 0), size).to_list():
            if play.rank == rank and (chained or play.key == key):
                return play
        return None
    view = HandView(held, level, rules)
    if view.extended:
        table = enumerators(view)
        if kind not in table:
            return None
        # a chained bomb's key depends on its shape, which the cards settle (one reading per rank)
        above = 0 if kind is PlayKind.CHAIN_BOMB else play_key(kind, rank, size, level, rules) - 1
        for play in table[kind](view, above, size):
            if (
                play.rank == rank
                and len(play.cards) == size
                and (kind is PlayKind.CHAIN_BOMB or play.key == above + 1)
            ):
                return play
        return None
    if kind not in ENUMERATORS:
        return None
    key = play_key(kind, rank, size, level)
    for play in ENUMERATORS[kind](view, key - 1):
        if play.key == key and play.rank == rank and len(play.cards) == size:
            return play
    return None
