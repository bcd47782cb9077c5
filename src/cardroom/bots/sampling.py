"""Determinisation: the other seats' hands, sampled to fit everything one seat has seen.

What a seat knows: its own hand; every card played; each seat's card count; the first deal's turned card
(its holder keeps it until it plays it); the tributes handed over in public (a receiver holds that card
until it plays or returns it); a return card it gave or received; and what the rules of tribute tell of
the payers' hands (:func:`excluded_cards`). The cards it has not seen are dealt at random to the other
seats, the known cards first, to fill each seat's count exactly, every way of dealing them that fits
what is known equally likely.
"""

from __future__ import annotations

import bisect
import itertools
import math
import random
from collections import Counter
from collections.abc import Iterable, Sequence

from cardroom.cards import ALL_CARDS, BIG_JOKER, SMALL_JOKER, Card, Suit
from cardroom.guandan.deal import Deal, EventKind, Phase
from cardroom.guandan.observation import Observation
from cardroom.guandan.plays import rank_order
from cardroom.guandan.tribute import TributePlan, partner, return_limit_binds, within_return_limit

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


def excluded_cards(observation: Observation) -> list[frozenset[Card]]:
    """Cards each seat surely does not hold now, beyond what it is known to hold, from the public tribute
    (one set per seat; empty in a first deal and for the seat itself). The payers' ceilings need only
    the tributes; the facts of 抗贡 need the previous deal's places (the payers).

    - A payer gave its highest card (the ♥ level card excepted), so it held nothing ranked above its
      tribute, and cannot hold such a card now unless its return brought it. Only the giver sees a
      return (the seat knows the card it gave); for the others a payer's return may be any card within
      the return limit, or any card at all where the limit does not bind (that payer is then left free).
    - 抗贡 by the whole paying side (the rule set's count being both big jokers): the big jokers not
      played are with the payers. A payer excused for both small jokers holds those not played.
    - A tribute paid means the paying side held fewer big jokers than 抗贡 needs: when the big jokers
      seen on that side (paid in tribute, or in the seat's own hand as a payer) leave no room for
      another, the other payers hold none.

    A return the seat did not see and that broke the limit (returning the lowest card when nothing is
    within it, all but impossible with 27 cards) is not allowed for.
    """
    excluded: list[set[Card]] = [set() for _ in range(4)]
    me, level, rules = observation.seat, observation.level, observation.rules
    tributes: dict[int, tuple[Card, int]] = {}
    received: Card | None = None
    excused: list[int] = []
    for event in observation.history:
        if event.kind is EventKind.TRIBUTE:
            if event.seat is not None and event.card is not None and event.to is not None:
                tributes[event.seat] = (event.card, event.to)
        elif event.kind is EventKind.RETURN and event.to == me:
            received = event.card
        elif event.kind is EventKind.ANTI_TRIBUTE and event.seat is not None:
            excused.append(event.seat)

    def exclude(payer: int, cards: Iterable[Card]) -> None:
        if payer == me:
            return
        if payer in tributes and tributes[payer][1] != me:
            receiver = tributes[payer][1]
            if not return_limit_binds(rules, to_partner=receiver == partner(payer)):
                return
            cards = [card for card in cards if not within_return_limit(card, level, rules)]
        excluded[payer].update(cards)

    wild = Card(level, Suit.HEARTS)
    for payer, (paid, _) in tributes.items():
        ceiling = rank_order(paid.rank, level, rules)
        exclude(
            payer,
            (
                card
                for card in ALL_CARDS
                if card is not wild and rank_order(card.rank, level, rules) > ceiling
            ),
        )
    if observation.previous_places is None:
        return [frozenset(cards) for cards in excluded]
    payers = TributePlan.from_places(observation.previous_places).payers
    others = [seat for seat in range(4) if seat != me]
    if any(seat not in payers for seat in excused):
        if rules.anti_tribute_big_jokers == 2:
            for seat in others:
                if seat not in payers:
                    excluded[seat].add(BIG_JOKER)
        return [frozenset(cards) for cards in excluded]
    for payer in excused:
        for seat in others:
            if seat != payer:
                excluded[seat].add(SMALL_JOKER)
    seen = sum(paid is BIG_JOKER for paid, _ in tributes.values())
    if me in payers:
        dealt = [*observation.hand, *_played(observation, me)]
        seen += dealt.count(BIG_JOKER) - (received is BIG_JOKER)
    if seen >= rules.anti_tribute_big_jokers - 1:
        for payer in payers:
            exclude(payer, [BIG_JOKER])
    return [frozenset(cards) for cards in excluded]


def _played(observation: Observation, seat: int) -> list[Card]:
    return [
        card
        for event in observation.history
        if event.kind is EventKind.PLAY and event.seat == seat and event.play is not None
        for card in event.play.cards
    ]


class HandSampler:
    """Draws the four hands now: the seat's own and the cards known to be held (``fixed``), and the
    ``unseen`` cards dealt to fill each other seat's ``counts``, every dealing that keeps each seat
    clear of its ``excluded`` cards equally likely (uniform as before where nothing is excluded, or
    where nothing fits the exclusions). Built once for a decision, drawn once for each sample."""

    def __init__(
        self,
        seat: int,
        fixed: Sequence[Sequence[Card]],
        counts: Sequence[int],
        unseen: Sequence[Card],
        excluded: Sequence[frozenset[Card]],
    ) -> None:
        self.seat = seat
        self.fixed = [tuple(hand) for hand in fixed]
        self.need = [0 if other == seat else counts[other] - len(fixed[other]) for other in range(4)]
        if len(unseen) != sum(self.need) or min(self.need) < 0:
            raise ValueError(
                f"{len(unseen)} unseen cards for {sum(self.need)} places: the observation is inconsistent"
            )
        self.free, self.groups = _grouped(list(unseen), seat, excluded)
        self.splits: list[tuple[dict[int, int], ...]] = []
        self.weights: list[int] = []
        if self.groups:
            self._weigh_splits()
            if not self.weights:
                self.free, self.groups = list(unseen), []

    @classmethod
    def for_observation(cls, observation: Observation) -> HandSampler:
        """The sampler of everything ``observation.seat`` knows (:func:`known_holdings`,
        :func:`excluded_cards`)."""
        counts = observation.card_counts
        unseen = unseen_cards(observation)
        fixed: list[list[Card]] = [[] for _ in range(4)]
        fixed[observation.seat] = list(observation.hand)
        for seat, held in enumerate(known_holdings(observation)):
            for card in held.elements():
                if unseen[card] and len(fixed[seat]) < counts[seat]:
                    fixed[seat].append(card)
                    unseen[card] -= 1
        return cls(observation.seat, fixed, counts, list(unseen.elements()), excluded_cards(observation))

    def _weigh_splits(self) -> None:
        """Every way of sharing out the restricted cards among the seats allowed them, each weighed by
        how many dealings it leaves (the restricted cards' and the free cards' multinomials)."""
        options = [list(_shares(len(cards), allowed, self.need)) for allowed, cards in self.groups]
        total = 0
        for combination in itertools.product(*options):
            left = list(self.need)
            weight = 1
            for (_, cards), share in zip(self.groups, combination, strict=True):
                weight *= _multinomial(len(cards), share.values())
                for seat, taken in share.items():
                    left[seat] -= taken
            if min(left) < 0:
                continue
            total += weight * _multinomial(len(self.free), left)
            self.splits.append(combination)
            self.weights.append(total)

    def sample(self, rng: random.Random) -> list[tuple[Card, ...]]:
        """The four hands, drawn with ``rng``."""
        hands = [list(hand) for hand in self.fixed]
        if self.groups:
            drawn = rng.randrange(self.weights[-1])
            split = self.splits[bisect.bisect_right(self.weights, drawn)]
            for (allowed, cards), share in zip(self.groups, split, strict=True):
                shuffled = list(cards)
                rng.shuffle(shuffled)
                for seat in allowed:
                    hands[seat] += shuffled[: share[seat]]
                    shuffled = shuffled[share[seat] :]
        rest = list(self.free)
        rng.shuffle(rest)
        for seat in range(4):
            if seat == self.seat:
                continue
            need = self.need[seat] + len(self.fixed[seat]) - len(hands[seat])
            hands[seat] += rest[:need]
            rest = rest[need:]
        return [tuple(hand) for hand in hands]


def _grouped(
    cards: list[Card], seat: int, excluded: Sequence[frozenset[Card]]
) -> tuple[list[Card], list[tuple[tuple[int, ...], list[Card]]]]:
    """The cards any other seat may hold, and the others grouped by the seats that may hold them."""
    others = tuple(other for other in range(4) if other != seat)
    groups: dict[tuple[int, ...], list[Card]] = {}
    for card in cards:
        allowed = tuple(other for other in others if card not in excluded[other])
        groups.setdefault(allowed, []).append(card)
    free = groups.pop(others, [])
    return free, sorted(groups.items())


def _shares(cards: int, allowed: tuple[int, ...], room: Sequence[int]) -> Iterable[dict[int, int]]:
    """Every way of giving ``cards`` cards to the ``allowed`` seats, none past its ``room``."""
    if not allowed:
        if cards == 0:
            yield {}
        return
    first, rest = allowed[0], allowed[1:]
    for taken in range(min(cards, room[first]) + 1):
        for share in _shares(cards - taken, rest, room):
            yield {first: taken, **share}


def _multinomial(total: int, parts: Iterable[int]) -> int:
    ways = 1
    for part in parts:
        ways *= math.comb(total, part)
        total -= part
    return ways


def sample_hands(observation: Observation, rng: random.Random) -> list[tuple[Card, ...]]:
    """The four hands now: the seat's own, and the others sampled from the unseen cards to fit each
    seat's card count and what is known of the other hands (:class:`HandSampler`; build one to draw
    many samples for the same observation)."""
    return HandSampler.for_observation(observation).sample(rng)


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
