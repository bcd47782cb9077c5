"""The Guandan AI competition's action triple ``[type, rank, cards]`` (docs/notation.md#triple), both ways.

``type`` is one of ``Single``, ``Pair``, ``Trips``, ``ThreeWithTwo``, ``Straight``, ``ThreePair``,
``TwoTrips``, ``Bomb``, ``StraightFlush``, ``FourKings`` or ``PASS``; ``rank`` is the key card's rank
letter (the lowest rank of a sequence, ``B``/``R`` for joker singles and pairs, ``B`` for four jokers);
``cards`` are as played, wild cards included. A pass is ``["PASS", "PASS", "PASS"]``.

The protocol knows only the competition's kinds. Rule sets with more (``huopin``) extend it
(docs/plays.md, "huopin"): a longer straight, 连对 or 连三张 keeps ``Straight``, ``ThreePair`` or
``TwoTrips`` with its lowest rank; ``Airplane`` (飞机带翅膀, the lowest triple's rank), ``ChainBomb``
(X相Y连环炸弹, the lowest rank) and ``ThreeKings`` (三王炸, ``B``) are new; the cards settle the rest.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from cardroom.cards import NotationError, Rank, parse_cards
from cardroom.guandan.errors import NotACombinationError
from cardroom.guandan.plays import PASS, Play, PlayKind
from cardroom.guandan.readings import read_as
from cardroom.guandan.ruleset import COMPETITION, RuleSet

TYPE_NAMES: Final = {
    PlayKind.PASS: "PASS",
    PlayKind.SINGLE: "Single",
    PlayKind.PAIR: "Pair",
    PlayKind.TRIPLE: "Trips",
    PlayKind.FULL_HOUSE: "ThreeWithTwo",
    PlayKind.STRAIGHT: "Straight",
    PlayKind.TUBE: "ThreePair",
    PlayKind.PLATE: "TwoTrips",
    PlayKind.BOMB: "Bomb",
    PlayKind.STRAIGHT_FLUSH: "StraightFlush",
    PlayKind.FOUR_JOKERS: "FourKings",
    PlayKind.AIRPLANE: "Airplane",
    PlayKind.THREE_JOKERS: "ThreeKings",
    PlayKind.CHAIN_BOMB: "ChainBomb",
}
KINDS_BY_TYPE: Final = {name: kind for kind, name in TYPE_NAMES.items()}

Triple = list[str | list[str]]
"""``[type, rank, cards]`` as the competition's JSON carries it."""


class TripleError(ValueError):
    """An action triple that is malformed or names no reading of its cards."""


class UnreadableTripleError(TripleError, NotACombinationError):
    """A well-formed triple whose cards cannot be read as the type and rank it names: the rule
    broken is the combination's."""

    reason = "not_a_combination"


def to_triple(play: Play) -> Triple:
    """The competition triple of a play."""
    if play.kind is PlayKind.PASS or play.rank is None:
        return ["PASS", "PASS", "PASS"]
    return [TYPE_NAMES[play.kind], play.rank.letter, [str(card) for card in play.cards]]


def from_triple(triple: object, level: Rank, rules: RuleSet = COMPETITION) -> Play:
    """The play a competition triple names at this level; :class:`TripleError` says what is wrong."""
    if not isinstance(triple, Sequence) or isinstance(triple, str) or len(triple) != 3:
        raise TripleError(f"an action triple is [type, rank, cards], got {triple!r}")
    type_name, rank_text, cards_field = triple
    if type_name == "PASS":
        return PASS
    kind = KINDS_BY_TYPE.get(type_name) if isinstance(type_name, str) else None
    if kind is None:
        known = ", ".join(KINDS_BY_TYPE)
        raise TripleError(f"unknown action type {type_name!r}; known: {known}")
    if not isinstance(rank_text, str):
        raise TripleError(f"the rank must be a rank letter, got {rank_text!r}")
    try:
        rank = Rank.from_letter(rank_text)
    except NotationError as error:
        raise TripleError(f"bad rank in {triple!r}: {error}") from None
    if not isinstance(cards_field, Sequence) or isinstance(cards_field, str):
        raise TripleError(f"the cards must be a list of card names, got {cards_field!r}")
    if not all(isinstance(name, str) for name in cards_field):
        raise TripleError(f"the cards must be a list of card names, got {cards_field!r}")
    try:
        cards = parse_cards(" ".join(cards_field))
    except NotationError as error:
        raise TripleError(f"bad cards in {triple!r}: {error}") from None
    play = read_as(cards, kind, rank, level, rules)
    if play is not None:
        return play
    raise UnreadableTripleError(
        f"{' '.join(cards_field)} cannot be read as {type_name} {rank_text} at level {level.letter}"
    )
