"""Tricks of Shengji: the lead, the follow duties, throws (甩牌) checked against the other hands, the
trick's winner (ruffs 斃 and over-ruffs 盖斃) and the points in cards.

docs/rules/shengji.md#lead (打升級, 出牌規則):
首家可以單獨出單牌、對牌、拖拉機。也可以出同花色中的單牌、對牌和拖拉機的任意組合，但必須保證最大性 …
首家出對牌時，其餘家有對牌必須出對牌（包括拖拉機中的對牌）首家出拖拉機時，其餘家有拖拉機必須出拖拉機，若無拖拉
機，則必須出對牌，無對牌時才能出其它牌。
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from enum import IntEnum
from typing import Final

from cardroom.cards import Card, Rank, format_cards, sort_cards
from cardroom.shengji.errors import (
    MustFollowSuitError,
    MustPlayPairError,
    MustPlayTractorError,
    NotHeldError,
    ShengjiRuleError,
    WrongCountError,
)
from cardroom.shengji.order import EffectiveSuit, TrickRules
from cardroom.shengji.units import (
    Shape,
    Unit,
    UnitKind,
    count_pairs,
    describe,
    principal_key,
    shape_of,
    tractor_matches,
    units_of,
)

POINTS: Final = {Rank.FIVE: 5, Rank.TEN: 10, Rank.KING: 10}
"""分牌: 5、10、K都是分牌，5代表5分，10和K分別代表10分 (200 in the two decks)."""


def points(cards: Iterable[Card]) -> int:
    """The points in these cards: 5 → 5, 10 → 10, K → 10."""
    return sum(POINTS.get(card.rank, 0) for card in cards)


class LeadKind(IntEnum):
    """What a lead is: one unit, or a throw of several units of one suit."""

    SINGLE = 1
    PAIR = 2
    TRACTOR = 3
    THROW = 4
    """甩牌: several units of one effective suit, each of them unbeatable by the other hands."""


_KIND_OF_UNIT: Final = {
    UnitKind.SINGLE: LeadKind.SINGLE,
    UnitKind.PAIR: LeadKind.PAIR,
    UnitKind.TRACTOR: LeadKind.TRACTOR,
}


@dataclass(frozen=True)
class Lead:
    """The first play of a trick, read into units (one unit unless a throw)."""

    cards: tuple[Card, ...]
    suit: EffectiveSuit
    units: tuple[Unit, ...]
    kind: LeadKind

    @property
    def is_throw(self) -> bool:
        return self.kind is LeadKind.THROW

    @property
    def size(self) -> int:
        return len(self.cards)

    @property
    def shape(self) -> Shape:
        return shape_of(self.units)

    @property
    def pairs(self) -> int:
        """Pairs in all units, tractor pairs included."""
        return self.shape.total_pairs

    @property
    def tractors(self) -> tuple[int, ...]:
        """The lengths of its tractors, longest first."""
        return self.shape.tractors

    def __str__(self) -> str:
        return describe(self.units)


def read_lead(cards: Iterable[Card], rules: TrickRules) -> Lead:
    """Read cards as a lead; ``NotOneSuitError`` if they mix effective suits, ``ValueError`` if none."""
    units = units_of(cards, rules)
    kind = _KIND_OF_UNIT[units[0].kind] if len(units) == 1 else LeadKind.THROW
    return Lead(sort_cards(card for unit in units for card in unit.cards), units[0].suit, units, kind)


def _lead_of_unit(unit: Unit) -> Lead:
    return Lead(sort_cards(unit.cards), unit.suit, (unit,), _KIND_OF_UNIT[unit.kind])


def _check_held(hand: Iterable[Card], cards: Sequence[Card]) -> None:
    missing = Counter(cards) - Counter(hand)
    if missing:
        raise NotHeldError(
            f"not in hand: {format_cards(missing.elements())}",
            {"cards": [str(card) for card in sorted(missing.elements())]},
        )


def verify_lead(hand: Iterable[Card], cards: Iterable[Card], rules: TrickRules) -> Lead:
    """Check a lead against the leader's hand (held, one effective suit) and read it. A throw still has
    to be checked against the other hands (:func:`check_throw`)."""
    cards = tuple(cards)
    _check_held(hand, cards)
    return read_lead(cards, rules)


# --- throws (甩牌) ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class ThrowCheck:
    """The outcome of a lead checked against the other hands."""

    legal: bool
    """No other hand beats any unit (always true for a lead of one unit)."""
    played: Lead
    """What is played: the whole lead, or the forced unit when the throw fails."""
    failed: tuple[Unit, ...]
    """The units some other hand beats."""
    beaten_by: tuple[int, ...]
    """Indices into ``others`` of the hands that beat some unit."""
    penalty: int
    """0, or the penalty of a failed throw (docs/rules/shengji.md#failed-throw:
    以出錯牌論處，罰10分給對方)."""


def beats_unit(hand: Iterable[Card], unit: Unit, rules: TrickRules) -> bool:
    """Whether a hand holds a unit of the same suit and shape that beats this one (a higher single, a
    higher pair, a higher tractor of the same length; 包括拖拉機中的對牌)."""
    cards = [card for card in hand if rules.suit_of(card) is unit.suit]
    if unit.kind is UnitKind.SINGLE:
        return any(rules.order_of(card) > unit.top for card in cards)
    orders = sorted({rules.order_of(card) for card, count in Counter(cards).items() if count >= 2})
    if unit.kind is UnitKind.PAIR:
        return bool(orders) and orders[-1] > unit.top
    run = 0
    for index, order in enumerate(orders):
        run = run + 1 if index and orders[index - 1] == order - 1 else 1
        if run >= unit.pairs and order > unit.top:
            return True
    return False


def forced_unit(units: Iterable[Unit]) -> Unit:
    """The smallest of the failing units, which the thrower must play (docs/rules/shengji.md#failed-throw:
    其必須出欲聯出的牌中的最小牌): the lowest bottom card, then the fewest cards, then the lowest top."""
    return min(units, key=lambda unit: (unit.bottom, unit.size, unit.top))


def check_throw(
    lead: Lead, others: Sequence[Iterable[Card]], rules: TrickRules, *, penalty: int
) -> ThrowCheck:
    """Check a lead against the other three hands (partner included): a throw is legal only if no other
    hand beats any of its units; otherwise the thrower plays the smallest failing unit and pays
    ``penalty`` (a rule-set parameter; 10 points, docs/rules/shengji.md#failed-throw)."""
    if not lead.is_throw:
        return ThrowCheck(True, lead, (), (), 0)
    hands = [tuple(hand) for hand in others]
    failed = []
    beaten_by = set()
    for unit in lead.units:
        beaters = [index for index, hand in enumerate(hands) if beats_unit(hand, unit, rules)]
        if beaters:
            failed.append(unit)
            beaten_by.update(beaters)
    if not failed:
        return ThrowCheck(True, lead, (), (), 0)
    played = _lead_of_unit(forced_unit(failed))
    return ThrowCheck(False, played, tuple(failed), tuple(sorted(beaten_by)), penalty)


class BadThrowError(ShengjiRuleError):
    """甩牌: another hand beats a unit of the throw; the thrower plays the smallest failing unit
    (``check`` says which and the penalty)."""

    reason = "bad_throw"

    def __init__(self, message: str, check: ThrowCheck) -> None:
        super().__init__(message)
        self.check = check


def verify_throw(lead: Lead, others: Sequence[Iterable[Card]], rules: TrickRules, *, penalty: int) -> None:
    """Raise ``BadThrowError`` (with the :class:`ThrowCheck`) when another hand beats a unit of the lead."""
    check = check_throw(lead, others, rules, penalty=penalty)
    if not check.legal:
        raise BadThrowError(
            f"甩牌 {lead} fails: another hand beats {describe(check.failed)}; "
            f"the thrower must play {check.played}",
            check,
        )


# --- follows ----------------------------------------------------------------------------------------


def _duty_violation(
    hand: Sequence[Card], lead: Lead, cards: Sequence[Card], rules: TrickRules
) -> MustFollowSuitError | MustPlayTractorError | MustPlayPairError | None:
    """The follow duty a follow of the right size from this hand breaks, if any."""
    in_suit = [card for card in hand if rules.suit_of(card) is lead.suit]
    played = [card for card in cards if rules.suit_of(card) is lead.suit]
    suit = lead.suit.letter
    required = min(lead.size, len(in_suit))
    if len(played) < required:
        return MustFollowSuitError(
            f"must follow {lead.suit.name.lower()}: {len(played)} played of {required} required",
            {"suit": suit, "held": len(in_suit), "required": required, "played": len(played)},
        )
    shape = lead.shape
    if shape.tractors:
        have = tractor_matches(in_suit, shape.tractors, rules)
        if tractor_matches(played, shape.tractors, rules) < have:
            return MustPlayTractorError(
                f"must play {have} tractor(s) of length {', '.join(map(str, shape.tractors[:have]))} "
                f"in {lead.suit.name.lower()} to the lead {lead}",
                {"suit": suit, "tractors": have},
            )
    need = min(shape.total_pairs, count_pairs(in_suit))
    if count_pairs(played) < need:
        return MustPlayPairError(
            f"must play {need} pair(s) in {lead.suit.name.lower()} to the lead {lead}, "
            f"played {count_pairs(played)}",
            {"suit": suit, "pairs": need, "played": count_pairs(played)},
        )
    return None


def verify_follow(hand: Iterable[Card], lead: Lead, cards: Iterable[Card], rules: TrickRules) -> None:
    """Check a follow against the follower's hand and the lead: held, as many cards as the lead, the
    led suit while any is left, a tractor of the led length if the suit has one, pairs as many as the
    lead has or the suit holds; a void player plays anything (a ruff 斃 or a discard 垫牌)."""
    hand = tuple(hand)
    cards = tuple(cards)
    _check_held(hand, cards)
    if len(cards) != lead.size:
        raise WrongCountError(
            f"the lead has {lead.size} card(s); {len(cards)} played",
            {"count": lead.size, "played": len(cards)},
        )
    error = _duty_violation(hand, lead, cards, rules)
    if error is not None:
        raise error


def can_follow(hand: Iterable[Card], lead: Lead, cards: Iterable[Card], rules: TrickRules) -> bool:
    """Whether :func:`verify_follow` accepts this follow."""
    try:
        verify_follow(hand, lead, cards, rules)
    except ValueError:
        return False
    return True


def _sub_multisets(counts: Sequence[tuple[Card, int]], size: int) -> Iterator[list[Card]]:
    """Each distinct sub-multiset of ``size`` cards, once."""
    remaining = [0] * (len(counts) + 1)
    for index in range(len(counts) - 1, -1, -1):
        remaining[index] = remaining[index + 1] + counts[index][1]
    chosen: list[Card] = []

    def walk(index: int, left: int) -> Iterator[list[Card]]:
        if left == 0:
            yield list(chosen)
            return
        if remaining[index] < left:
            return
        card, count = counts[index]
        for take in range(min(count, left), -1, -1):
            chosen.extend([card] * take)
            yield from walk(index + 1, left - take)
            del chosen[len(chosen) - take :]

    return walk(0, size)


def legal_follows(hand: Iterable[Card], lead: Lead, rules: TrickRules) -> Iterator[tuple[Card, ...]]:
    """Every legal follow from this hand (each distinct multiset of cards once, in print order)."""
    hand = tuple(hand)
    in_suit = [card for card in hand if rules.suit_of(card) is lead.suit]
    if len(in_suit) <= lead.size:
        rest = sorted(Counter(card for card in hand if rules.suit_of(card) is not lead.suit).items())
        for extra in _sub_multisets(rest, lead.size - len(in_suit)):
            yield sort_cards([*in_suit, *extra])
        return
    shape = lead.shape
    tractors = tractor_matches(in_suit, shape.tractors, rules)
    pairs = min(shape.total_pairs, count_pairs(in_suit))
    for cards in _sub_multisets(sorted(Counter(in_suit).items()), lead.size):
        if count_pairs(cards) < pairs:
            continue
        if tractors and tractor_matches(cards, shape.tractors, rules) < tractors:
            continue
        yield sort_cards(cards)


# --- the winner -------------------------------------------------------------------------------------


def play_rank(lead: Lead, cards: Iterable[Card], rules: TrickRules) -> tuple[bool, int] | None:
    """How a play ranks in the trick: (trump, key of its principal unit), or ``None`` when it cannot win:
    not all of the led suit nor all trump to a plain lead, or not of the lead's structure (否則被視為墊牌)."""
    cards = tuple(cards)
    suits = {rules.suit_of(card) for card in cards}
    if suits != {lead.suit} and suits != {EffectiveSuit.TRUMP}:
        return None
    key = principal_key(cards, lead.shape, rules)
    return None if key is None else (EffectiveSuit.TRUMP in suits, key)


def trick_winner(lead: Lead, follows: Sequence[Iterable[Card]], rules: TrickRules) -> int:
    """Who wins the trick: 0 for the leader, ``i`` for ``follows[i - 1]`` (in play order).

    Trump beats the plain suit; among plays that count, the higher principal unit wins (盖斃 for a
    higher ruff) and of equal ones the earlier (出牌時同等大小的牌以先出者為大)."""
    best_index = 0
    best = play_rank(lead, lead.cards, rules)
    assert best is not None
    for index, cards in enumerate(follows, start=1):
        rank = play_rank(lead, cards, rules)
        if rank is not None and rank > best:
            best_index, best = index, rank
    return best_index
