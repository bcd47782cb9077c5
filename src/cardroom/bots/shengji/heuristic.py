"""The heuristic Shengji bot: declares with trump length, buries to void short suits, cashes sure
winners, feeds points to a partner who wins, wins cheaply against an opponent, and counts the cards.

Everything is read from the observation (:mod:`.knowledge`): the cards played, the cards this seat
cannot see (``unseen``: the other hands and a kitty it did not bury) and the suits each seat has shown
void in. A unit is *sure* when no unseen cards could beat it (:func:`~cardroom.shengji.tricks.beats_unit`
on all the unseen cards pooled, so partner's cards count against it too: a throw of sure units cannot
fail).

- **Declaring** (亮牌): with a level card of a suit, declare it when the cards that suit would make trump
  (jokers, level cards, that suit) are at least :data:`DECLARE_SHARE` of the cards drawn plus
  :data:`DECLARE_MARGIN` (or :data:`DECLARE_LATE` of 25 once all are dealt); fix the own declaration with
  the pair (定主) at once; never overturn the partner; overturn an opponent with a pair on the same test,
  with a joker pair (no trump) when jokers and level cards are :data:`NO_TRUMP_SHARE` of the hand.
- **Burying** (扣底): void the shortest plain suits that hold no points and no ace, then the lowest plain
  cards without points (singles of short suits first, aces and pairs last), then low trump without
  points; points only when nothing else is left (5s before 10s and Ks).
- **Leading**: the sure units of a plain suit no opponent has shown void in, all at once (a throw that
  cannot fail; the largest, then the most points); then sure trump pairs and tractors while unseen trump
  remains, and sure trump singles for the dealers holding trump length; then a low card of a suit the
  partner is void in (for the partner to ruff); else a low pair of a plain suit, else the lowest
  point-less card of the shortest plain suit, else the lowest trump. The highest trump is kept for the
  last tricks (for the dealers it guards the kitty, 摳底; for the attackers it takes it).
- **Following**: when the partner wins the trick and nobody after can beat it (the cards counted),
  feed points (5/10/K of the led suit, or discard points when void); when an opponent wins, win with the
  cheapest play that nobody after can beat — a ruff (斃) with low trump only when points are at stake
  (:data:`RUFF_STAKE`); else play the cheapest cards, points last. On the last trick the kitty's points
  (its multiplier counted) are at stake too.

Deterministic: no randomness is used (the ``random.Random`` is kept for the interface); ties go to the
first candidate in the core's order.
"""

from __future__ import annotations

import itertools
import random
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from cardroom.bots.shengji.base import register
from cardroom.bots.shengji.knowledge import Seen, by_suit, pair_cards, read_history, unseen_cards
from cardroom.cards import Card, Rank, Suit
from cardroom.shengji.deal import KITTY_SIZE, Action, Bury, Declare, Pass, Phase, Play, sub_multisets
from cardroom.shengji.observation import Observation
from cardroom.shengji.order import EffectiveSuit, TrickRules
from cardroom.shengji.tricks import Lead, beats_unit, legal_follows, play_rank, points, trick_winner
from cardroom.shengji.units import UnitKind, units_of

TRUMP = EffectiveSuit.TRUMP

DECLARE_SHARE = 0.36
"""Declare a suit when the cards it would make trump are this share of the cards drawn …"""
DECLARE_MARGIN = 2.0
"""… plus this many."""
DECLARE_LATE = 8
"""After the last card, declare a suit that would give this many trumps of 25."""
NO_TRUMP_SHARE = 0.25
"""Overturn with a joker pair (无主) when jokers and level cards are this share of the cards drawn."""
RUFF_STAKE = 5
"""Ruff (or over-ruff) an opponent's winning play only with this many points at stake."""
GAMBLE_STAKE = 15
"""Win with a play a later opponent might still beat when this many points are at stake."""
FEED_WEIGHT = 4
"""Feeding the partner: each point played is worth this much card value."""
DUMP_WEIGHT = 3
"""Discarding to an opponent: each point played costs this much card value."""
FOLLOW_LIST_LIMIT = 3000
"""Legal follows listed at most."""
RUFF_LIST_LIMIT = 500
"""Trump plays of the lead's size weighed at most when void."""
LATE_KITTY_GUESS = 10
"""The kitty points the attackers assume are at stake on the last trick."""
CHOICES = 8
"""Choices a hint offers at most (the bot's own first): a person pressing Hint again sees the next."""


def card_value(card: Card, rules: TrickRules) -> int:
    """How much a card is worth keeping: its order, trump much more, a plain ace a little more."""
    value = rules.order_of(card)
    if rules.is_trump(card):
        value += 12
    elif card.rank == Rank.ACE:
        value += 4
    return value


def play_cost(cards: Sequence[Card], hand: Counter[Card], rules: TrickRules) -> int:
    """The value given up by a play: its cards' values, and 3 for each pair it breaks."""
    used = Counter(cards)
    broken = sum(1 for card, count in used.items() if count == 1 and hand[card] >= 2)
    return sum(card_value(card, rules) for card in cards) + 3 * broken


def trump_if(hand: Sequence[Card], level: Rank, suit: Suit | None) -> int:
    """How many of the cards would be trump with ``suit`` as trump (``None``: no trump)."""
    return sum(
        1 for card in hand if card.is_joker or card.rank == level or (suit is not None and card.suit == suit)
    )


@dataclass(frozen=True)
class Table:
    """One decision's view of the trick phase: the rules, the seat, the cards counted."""

    rules: TrickRules
    seat: int
    dealer: int
    hand: Counter[Card]
    seen: Seen
    unseen: Counter[Card]

    @property
    def partner(self) -> int:
        return (self.seat + 2) % 4

    @property
    def opponents(self) -> tuple[int, int]:
        return ((self.seat + 1) % 4, (self.seat + 3) % 4)

    @property
    def dealers(self) -> bool:
        return self.seat % 2 == self.dealer % 2

    def unseen_in(self, suit: EffectiveSuit) -> list[Card]:
        return [card for card in self.unseen.elements() if self.rules.suit_of(card) is suit]

    def unseen_trump(self) -> int:
        return sum(count for card, count in self.unseen.items() if self.rules.is_trump(card))

    def could_be_beaten(self, lead: Lead, cards: Sequence[Card], later: Sequence[int]) -> bool:
        """Whether a play might still lose the trick to a seat after this one: it cannot win at all,
        or the unseen cards hold a higher principal unit of its suit, or a later opponent has shown
        void in the led plain suit while trump is unseen."""
        rank = play_rank(lead, cards, self.rules)
        if rank is None:
            return True
        if not later:
            return False
        trumped, key = rank
        suit = TRUMP if trumped else lead.suit
        pool = self.unseen_in(suit)
        if lead.shape.principal is UnitKind.SINGLE:
            higher = any(self.rules.order_of(card) > key for card in pool)
        else:
            higher = any(self.rules.order_of(card) > key for card in pair_cards(pool))
        if higher:
            return True
        if trumped or lead.suit is TRUMP:
            return False
        voids = any(lead.suit in self.seen.voids[seat] for seat in later if seat % 2 != self.seat % 2)
        return voids and self.unseen_trump() > 0


@register("heuristic")
class HeuristicShengjiBot:
    """Rule-based Shengji play (see the module's documentation)."""

    name = "heuristic"

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def act(self, observation: Observation) -> Action:
        return self.choices(observation, 1)[0]

    def choices(self, observation: Observation, limit: int = CHOICES) -> list[Action]:
        """Up to ``limit`` different actions for this turn, best first: the bot's own choice, then (in
        trick play) the others it weighs — leads: each unit of the hand, sure ones first, then low
        cards before high, trump last; follows: the cheapest cards first, points last."""
        if limit < 1:
            raise ValueError(f"limit: at least one choice, got {limit}")
        if not observation.to_act:
            raise ValueError(f"seat {observation.seat} has no legal action: it is not its turn")
        seat = observation.seat
        if observation.phase is Phase.DECLARE:
            return [self.declare(observation)]
        if observation.phase is Phase.KITTY:
            assert observation.trick_rules is not None
            return [Bury(seat, self.bury(observation.hand, observation.trick_rules))]
        rules = observation.trick_rules
        if observation.phase is not Phase.TRICKS or rules is None or observation.dealer is None:
            raise ValueError(f"seat {seat} cannot act in the {observation.phase.value} phase")
        seen = read_history(observation.history, rules)
        table = Table(
            rules, seat, observation.dealer, Counter(observation.hand), seen, unseen_cards(observation, seen)
        )
        if observation.lead is None:
            plays = [self.lead(table)]
            if limit > 1:
                plays += other_leads(table)
        else:
            kitty = (
                sum(points((card,)) for card in observation.kitty)
                if table.seat == observation.dealer
                else None
            )
            plays = [self.follow(table, observation, kitty)]
            if limit > 1:
                plays += sorted(
                    follow_candidates(table, observation.lead),
                    key=lambda cards: play_cost(cards, table.hand, rules) + DUMP_WEIGHT * points(cards),
                )
        chosen: list[Action] = []
        given: set[tuple[Card, ...]] = set()
        for cards in plays:
            key = tuple(sorted(cards, key=lambda card: card.index))
            if key not in given:
                given.add(key)
                chosen.append(Play(seat, cards))
            if len(chosen) == limit:
                break
        return chosen

    # -- declaring -------------------------------------------------------------------------------

    def declare(self, observation: Observation) -> Action:
        seat, hand, level = observation.seat, observation.hand, observation.level
        options = [action for action in observation.legal_actions() if isinstance(action, Declare)]
        standing = observation.declaration
        if not options or (standing is not None and standing.seat == (seat + 2) % 4):
            return Pass(seat)
        if standing is not None and standing.seat == seat:
            fixing = [
                option for option in options if len(option.cards) == 2 and option.cards[0].rank == level
            ]
            return fixing[0] if fixing else Pass(seat)
        drawn = len(hand)
        all_dealt = sum(observation.card_counts) >= 100
        best: tuple[float, Declare] | None = None
        for option in options:
            suit = option.cards[0].suit
            if suit is None:
                strength = float(trump_if(hand, level, None))
                enough = strength >= NO_TRUMP_SHARE * drawn + DECLARE_MARGIN
            else:
                strength = float(trump_if(hand, level, suit))
                enough = strength >= DECLARE_SHARE * drawn + DECLARE_MARGIN or (
                    all_dealt and strength >= DECLARE_LATE
                )
            if enough and (best is None or strength > best[0]):
                best = (strength, option)
        if best is None:
            return Pass(seat)
        option = best[1]
        if standing is None and option.cards[0].suit is not None:
            pairs = [
                other for other in options if len(other.cards) == 2 and other.cards[0] == option.cards[0]
            ]
            if pairs and standing is None:
                return pairs[0]
        return option

    # -- burying ---------------------------------------------------------------------------------

    def bury(self, hand: Sequence[Card], rules: TrickRules) -> tuple[Card, ...]:
        left = Counter(hand)
        chosen: list[Card] = []
        plain = {suit: cards for suit, cards in by_suit(hand, rules).items() if suit is not TRUMP}
        for _suit, cards in sorted(plain.items(), key=lambda item: (len(item[1]), item[0])):
            clean = not any(points((card,)) or card.rank == Rank.ACE for card in cards)
            if clean and len(cards) <= KITTY_SIZE - len(chosen):
                chosen += cards
                left.subtract(cards)
        lengths = {suit: len(cards) for suit, cards in plain.items()}

        def key(card: Card) -> tuple[int, int, int, int, int, int]:
            trump = rules.is_trump(card)
            return (
                points((card,)) > 0,
                points((card,)),
                trump,
                card.rank == Rank.ACE and not trump,
                left[card] >= 2,
                (0 if trump else lengths.get(rules.suit_of(card), 0)) * 32 + rules.order_of(card),
            )

        for card in sorted(+left, key=lambda card: (key(card), card.index)):
            while left[card] > 0 and len(chosen) < KITTY_SIZE:
                chosen.append(card)
                left[card] -= 1
        return tuple(chosen[:KITTY_SIZE])

    # -- leading ---------------------------------------------------------------------------------

    def lead(self, table: Table) -> tuple[Card, ...]:
        rules = table.rules
        hand = list(table.hand.elements())
        groups = by_suit(hand, rules)
        unseen_trump = table.unseen_trump()
        best: tuple[tuple[int, int], tuple[Card, ...]] | None = None
        for suit, cards in groups.items():
            if suit is TRUMP:
                continue
            if unseen_trump and any(suit in table.seen.voids[seat] for seat in table.opponents):
                continue
            pool = table.unseen_in(suit)
            sure = [unit for unit in units_of(cards, rules) if not beats_unit(pool, unit, rules)]
            if sure:
                throw = tuple(card for unit in sure for card in unit.cards)
                score = (len(throw), points(throw))
                if best is None or score > best[0]:
                    best = (score, throw)
        if best is not None:
            return best[1]
        trumps = groups.get(TRUMP, [])
        if trumps and unseen_trump:
            pool = table.unseen_in(TRUMP)
            units = [unit for unit in units_of(trumps, rules) if not beats_unit(pool, unit, rules)]
            multi = [unit for unit in units if unit.kind is not UnitKind.SINGLE]
            if multi:
                return max(multi, key=lambda unit: (unit.size, unit.top)).cards
            singles = [unit for unit in units if unit.kind is UnitKind.SINGLE]
            if singles and table.dealers and len(trumps) >= max(3, unseen_trump // 2) and len(hand) > 4:
                return min(singles, key=lambda unit: unit.top).cards
        partner_voids = table.seen.voids[table.partner]
        for suit, cards in groups.items():
            if suit is TRUMP or suit not in partner_voids:
                continue
            if any(suit in table.seen.voids[seat] for seat in table.opponents):
                continue
            return (min(cards, key=lambda card: (points((card,)), rules.order_of(card))),)
        return self.low_lead(table, groups)

    def low_lead(self, table: Table, groups: dict[EffectiveSuit, list[Card]]) -> tuple[Card, ...]:
        rules = table.rules
        plain = [(suit, cards) for suit, cards in groups.items() if suit is not TRUMP]
        pairs = [
            card
            for _, cards in plain
            for card in pair_cards(cards)
            if not points((card,)) and card.rank != Rank.ACE and rules.order_of(card) <= 6
        ]
        if pairs:
            low = min(pairs, key=lambda card: (rules.order_of(card), card.index))
            return (low, low)
        singles = [
            (len(cards), rules.order_of(card), card.index, card)
            for _, cards in plain
            for card in cards
            if not points((card,)) and card.rank != Rank.ACE and table.hand[card] == 1
        ]
        if singles:
            return (min(singles)[3],)
        every = sorted(
            table.hand,
            key=lambda card: (points((card,)) > 0, rules.is_trump(card), rules.order_of(card), card.index),
        )
        return (every[0],)

    # -- following -------------------------------------------------------------------------------

    def follow(self, table: Table, observation: Observation, kitty_points: int | None) -> tuple[Card, ...]:
        rules, lead = table.rules, observation.lead
        assert lead is not None
        plays = observation.trick_plays
        index = trick_winner(lead, [cards for _, cards in plays[1:]], rules)
        winner, winning = plays[index]
        best = play_rank(lead, winning, rules)
        stake = sum(points(cards) for _, cards in plays)
        if sum(table.hand.values()) == lead.size:
            stake += 2 * (kitty_points if kitty_points is not None else LATE_KITTY_GUESS)
        later = [(table.seat + step) % 4 for step in range(1, 4 - len(plays))]
        candidates = follow_candidates(table, lead)

        def cost(cards: tuple[Card, ...]) -> int:
            return play_cost(cards, table.hand, rules)

        if winner == table.partner and not table.could_be_beaten(lead, winning, later):
            return max(candidates, key=lambda cards: FEED_WEIGHT * points(cards) - cost(cards))
        winning_plays = [
            cards
            for cards in candidates
            if (rank := play_rank(lead, cards, rules)) is not None and best is not None and rank > best
        ]
        safe = [cards for cards in winning_plays if not table.could_be_beaten(lead, cards, later)]
        if safe:
            cheapest = min(safe, key=cost)
            ruff = lead.suit is not TRUMP and rules.is_trump(cheapest[0])
            at_stake = stake + points(cheapest) >= RUFF_STAKE
            if at_stake or (winner != table.partner and not ruff):
                return cheapest
        if winning_plays and winner != table.partner and stake >= GAMBLE_STAKE:
            return min(winning_plays, key=cost)
        return min(candidates, key=lambda cards: cost(cards) + DUMP_WEIGHT * points(cards))


def other_leads(table: Table) -> list[tuple[Card, ...]]:
    """Leads besides the bot's, best first: each unit of the hand (single, pair, tractor), the sure ones
    (no unseen card beats them) first and the longest of those first, then plain suits before trump,
    cards without points before those with, low before high."""
    rules = table.rules
    ranked: list[tuple[tuple[int, int, int, int, int], tuple[Card, ...]]] = []
    for suit, cards in by_suit(list(table.hand.elements()), rules).items():
        pool = table.unseen_in(suit)
        for unit in units_of(cards, rules):
            sure = not beats_unit(pool, unit, rules)
            key = (
                0 if sure else 1,
                -unit.size if sure else 0,
                suit is TRUMP,
                points(unit.cards) > 0,
                unit.top,
            )
            ranked.append((key, unit.cards))
    return [cards for _, cards in sorted(ranked, key=lambda item: item[0])]


def follow_candidates(table: Table, lead: Lead) -> list[tuple[Card, ...]]:
    """The follows weighed: every legal follow when they are few enough to list (up to
    :data:`FOLLOW_LIST_LIMIT`); when the seat is (nearly) void in the led suit and has many free cards,
    the led-suit cards with the cheapest other cards, with the most points, and when void every trump
    play of the lead's size that could win (up to :data:`RUFF_LIST_LIMIT`)."""
    rules = table.rules
    hand = list(table.hand.elements())
    in_suit = [card for card in hand if rules.suit_of(card) is lead.suit]
    free = lead.size - len(in_suit)
    if free <= 2:
        return list(itertools.islice(legal_follows(hand, lead, rules), FOLLOW_LIST_LIMIT))
    rest = [card for card in hand if rules.suit_of(card) is not lead.suit]
    cheap = sorted(
        rest, key=lambda card: (card_value(card, rules) + DUMP_WEIGHT * points((card,)), card.index)
    )
    rich = sorted(rest, key=lambda card: (-points((card,)), card_value(card, rules), card.index))
    candidates = [tuple(in_suit + cheap[:free]), tuple(in_suit + rich[:free])]
    if not in_suit:
        trumps = sorted(Counter(card for card in hand if rules.is_trump(card)).items())
        for cards in itertools.islice(sub_multisets(trumps, lead.size), RUFF_LIST_LIMIT):
            if play_rank(lead, cards, rules) is not None:
                candidates.append(cards)
    return candidates


__all__ = [
    "CHOICES",
    "DECLARE_SHARE",
    "RUFF_STAKE",
    "HeuristicShengjiBot",
    "card_value",
    "follow_candidates",
    "other_leads",
    "play_cost",
]
