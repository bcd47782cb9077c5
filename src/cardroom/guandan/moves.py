"""Legal moves at the card level: leads, follows, and checking one play without enumerating.

``previous`` is always the play to beat — the last play of the trick that was not a pass — or ``None``
when the player leads. Passing is allowed exactly when there is something to beat.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Iterator
from itertools import chain

from cardroom.cards import Card, Rank, format_cards
from cardroom.guandan.errors import (
    DoesNotBeatError,
    IllegalPlayError,
    MustLeadError,
    NotACombinationError,
    NotHeldError,
    WrongLevelError,
)
from cardroom.guandan.hands import HandView
from cardroom.guandan.native import ListPlaySet, PlaySet, follows, kinds_of, leads, serves
from cardroom.guandan.plays import PASS, Play, PlayKind
from cardroom.guandan.readings import classify, enumerators, read_as
from cardroom.guandan.ruleset import COMPETITION, RuleSet
from cardroom.guandan.triple import to_triple


def iter_leads(view: HandView) -> Iterator[Play]:
    """Every play that may lead a trick from this hand, kind by kind in the rule set's order."""
    return chain.from_iterable(enumerate_kind(view) for enumerate_kind in enumerators(view).values())


def iter_follows(view: HandView, previous: Play) -> Iterator[Play]:
    """Every play that beats ``previous`` from this hand (passing not included): the same kind and size
    above it, then every bomb-class play (above it when it is one)."""
    if previous.kind is PlayKind.PASS:
        raise ValueError("previous must be the play to beat, not a pass")
    table = enumerators(view)
    if previous.kind not in table:
        raise ValueError(f"previous is a {previous.kind.name.lower()} play, which these rules do not have")
    bomb_kinds = [kind for kind in table if kind.is_bomb]
    if previous.kind.is_bomb:
        return chain.from_iterable(table[kind](view, previous.key) for kind in bomb_kinds)
    same = table[previous.kind](view, previous.key, len(previous.cards))
    return chain(same, *(table[kind](view) for kind in bomb_kinds))


def legal_leads(hand: Iterable[Card], level: Rank, rules: RuleSet = COMPETITION) -> list[Play]:
    """Every distinct lead: each multiset of cards once per distinct reading."""
    return legal_play_set(hand, None, level, rules).to_list()


def legal_follows(
    hand: Iterable[Card], previous: Play, level: Rank, rules: RuleSet = COMPETITION
) -> list[Play]:
    """Every play that beats ``previous`` (passing not included)."""
    if serves(rules) and previous.kind in kinds_of(rules):
        return follows(hand, previous, level, rules).to_list()
    return list(iter_follows(HandView(hand, level, rules), previous))


def legal_plays(
    hand: Iterable[Card], previous: Play | None, level: Rank, rules: RuleSet = COMPETITION
) -> list[Play]:
    """The legal actions: every lead when ``previous`` is ``None``, else PASS and every play that
    beats ``previous``."""
    return legal_play_set(hand, previous, level, rules).to_list()


def legal_play_set(
    hand: Iterable[Card], previous: Play | None, level: Rank, rules: RuleSet = COMPETITION
) -> PlaySet:
    """:func:`legal_plays` as a packed set (:class:`~cardroom.guandan.native.PlaySet`), for bulk users
    that count, index, sample or encode the plays without making every one: the compiled core's where
    it serves the rule set, else the pure engine's list. A ``Counter`` hand counts its cards."""
    if serves(rules):
        if previous is None:
            return leads(hand, level, rules)
        if previous.kind in kinds_of(rules):
            return follows(hand, previous, level, rules, with_pass=True)
    view = HandView(hand, level, rules)
    if previous is None:
        return ListPlaySet(list(iter_leads(view)))
    return ListPlaySet([PASS, *iter_follows(view, previous)])


def verify_play(
    hand: Iterable[Card],
    play: Play,
    previous: Play | None,
    level: Rank,
    rules: RuleSet = COMPETITION,
) -> Play:
    """Raise an :class:`IllegalPlayError` subclass naming the rule if ``play`` is not legal here;
    else return the play as the engine reads it (its kind, key rank and cards decide: a wild card's
    reading given differently, e.g. another suit in a plain straight, is the same play)."""
    if play.kind is PlayKind.PASS:
        if previous is None:
            raise MustLeadError("the leader of a trick must play, not pass")
        return PASS
    if play.level != level:
        raise WrongLevelError(
            f"{play} was read at level {play.level.letter if play.level else '?'}, "
            f"the deal is at level {level.letter}"
        )
    held = hand if isinstance(hand, Counter) else Counter(hand)
    missing = [card for card, count in Counter(play.cards).items() if held[card] < count]
    if missing:
        raise NotHeldError(
            f"cards not in hand: {format_cards(missing)}", {"cards": [str(card) for card in missing]}
        )
    reading = read_as(play.cards, play.kind, play.rank, level, rules) if play.rank is not None else None
    if reading is None or reading.key != play.key:
        kind, rank, cards = to_triple(play)
        raise NotACombinationError(
            f"{play.describe()} is not a legal combination at level {level.letter}",
            {"kind": kind, "rank": rank, "cards": cards},
        )
    if previous is not None and not reading.beats(previous):
        kind, rank, cards = to_triple(previous)
        raise DoesNotBeatError(
            f"{play.describe()} does not beat {previous.describe()}",
            {"beat": {"kind": kind, "rank": rank, "cards": cards}},
        )
    return reading


def can_play_cards(
    cards: Iterable[Card], previous: Play | None, level: Rank, rules: RuleSet = COMPETITION
) -> bool:
    """Whether some reading of exactly these cards (held) may be played now: any combination leads,
    a follow must beat ``previous``."""
    return any(previous is None or play.beats(previous) for play in classify(cards, level, rules))


def is_legal(
    hand: Iterable[Card],
    play: Play,
    previous: Play | None,
    level: Rank,
    rules: RuleSet = COMPETITION,
) -> bool:
    """Whether ``play`` is legal from ``hand`` against ``previous``, without enumerating the hand."""
    try:
        verify_play(hand, play, previous, level, rules)
    except IllegalPlayError:
        return False
    return True
