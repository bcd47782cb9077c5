"""The heuristic bot: plays Guandan the way the sources advise (docs/sources.md), from a plan of its hand.

Its hand is split into few, strong plays (:mod:`cardroom.bots.planning`); every decision reads that plan
and the public state (card counts, 报牌, the cards already played, who made the play to beat):

- **Leading** (摜彈, 遊戲技巧 1: docs/sources.md#huaian): the small, awkward plays first — the plan's weakest
  play, longer plays a little earlier — and bombs last. When every play but one would win its trick (no unseen
  cards can beat it, bombs apart), those go first and the last play takes the bot out. A play of exactly as
  many cards as an opponent holds (a single against one card, …) is avoided; when nothing else is left, the
  strongest such play goes. 接风: with the partner down to one card, the bot leads its lowest single (two
  cards: its lowest pair), breaking a sequence if need be (遊戲精神: 單張援助).
- **Following an opponent**: the smallest play of the plan that beats; else a play that breaks the plan,
  when that costs little (or the opponents are close to going out); else a bomb, when an opponent holds
  :data:`BOMB_THREAT` cards or fewer, or when the bomb leaves at most one play that can lose a trick.
- **Following the partner** (遊戲技巧 3): pass, unless the bot can go out at once, or the partner's play
  can still be beaten and the next player, an opponent, holds :data:`BLOCK_THREAT` cards or fewer: then
  the bot covers it with its strongest play of that kind (never a bomb).
- **Tribute** (掼蛋方法规则's advice, docs/sources.md#fangfa): among equal highest cards, the one whose loss
  hurts the plan least; to an opponent, of those, the one whose suit neighbours the bot holds most (they
  cannot make a straight flush with it). **Return**: to the partner a useful card (the wild card if the rules
  allow it, else high and spare); to an opponent a low card the plan does not need — a lone card completes
  nothing of the bot's.

Deterministic: no randomness is used (the ``random.Random`` is kept for the interface).

The compiled core makes the play-phase decision when it is loaded (native/src/heuristic.cpp, every rule
set): the same play, bit for bit, as the pure code here (:meth:`HeuristicBot.pure_play`), which is its
reference and serves where the core is not built or ``CARDROOM_PURE=1`` is set; tests compare the two
(tests/bots/test_heuristic_native.py). Tribute and return stay in Python.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from cardroom.bots.base import register
from cardroom.bots.planning import (
    SMALL_JOKER_VALUE,
    Plan,
    Planner,
    Unit,
    flush_cards,
    rank_counts,
    removal_estimate,
    single_cost,
    units_cards,
)
from cardroom.cards import Card, Rank, Suit, natural_index
from cardroom.guandan import native
from cardroom.guandan.deal import Action, Event, EventKind, Phase, PlayAction, ReturnAction, TributeAction
from cardroom.guandan.moves import can_play_cards, legal_plays
from cardroom.guandan.observation import Observation
from cardroom.guandan.plays import PASS, Play, PlayKind, play_key, rank_orders
from cardroom.guandan.rankplays import RankPlay, rank_follows, rank_play_of
from cardroom.guandan.readings import read_as

BOMB_THREAT = 10
"""Bomb an opponent's play when an opponent holds this many cards or fewer: once it has announced its
count (报牌, docs/rules/competition.md#card-count). docs/bots.md says how the value was chosen."""
BLOCK_THREAT = 3
"""Cover the partner's beatable play when the next opponent holds this many cards or fewer."""
BREAK_GAIN = 0.5
"""Break the plan to beat an opponent when the plan's cost falls by at least this much."""
BREAK_GAIN_THREATENED = -1.5
"""… or by at least this much (it may rise) when an opponent holds :data:`BOMB_THREAT` cards or fewer."""
BREAK_CANDIDATES = 4
"""How many of the cheapest plan-breaking plays are weighed (each needs a new plan)."""
RETURN_CANDIDATES = 3
"""How many return ranks are weighed exactly (each needs a new plan), the best by a quick estimate."""
LEAD_SIZE_BONUS = 0.04
"""Leading prefers the plan's most awkward play, and by this much per card the longer plays."""
FEED_PARTNER_AT = 2
"""Lead what the partner needs (接风) when the partner holds this many cards or fewer."""


@register("heuristic")
class HeuristicBot:
    """Plan-based play following the sources' advice (see the module's documentation)."""

    name = "heuristic"
    bomb_threat = BOMB_THREAT
    block_threat = BLOCK_THREAT
    break_gain = BREAK_GAIN
    break_gain_threatened = BREAK_GAIN_THREATENED
    break_candidates = BREAK_CANDIDATES
    feed_partner_at = FEED_PARTNER_AT

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng
        self._planner: Planner | None = None

    def planner(self, level: Rank) -> Planner:
        """The planner for this level (plans are remembered while the level stays)."""
        if self._planner is None or self._planner.level != level:
            self._planner = Planner(level)
        return self._planner

    def act(self, observation: Observation) -> Action:
        actions = observation.legal_actions
        if not actions:
            raise ValueError(f"seat {observation.seat} has no legal action: it is not its turn")
        first = actions[0]
        if isinstance(first, TributeAction):
            return self._tribute(observation)
        if isinstance(first, ReturnAction):
            return self._return(observation)
        if len(actions) == 1:
            return first
        return self.play(observation)

    def play(self, observation: Observation) -> PlayAction:
        """The play-phase decision. The observation need not list the legal actions (search playouts
        leave them out: listing them costs more than deciding): each play chosen is checked against
        the rules, and the list is built only in the rare cases that need it. The compiled core decides
        where it is loaded; :meth:`pure_play` is the reference it matches."""
        if observation.phase is not Phase.PLAY or observation.current_player != observation.seat:
            raise ValueError(f"seat {observation.seat} is not to play")
        core = native.CORE
        if core is None:
            return self._decide(observation)
        previous = observation.previous
        hand, level = observation.hand, observation.level
        play: Play = core.heuristic_play(
            hand,
            observation.card_counts,
            core.heuristic_unseen(hand, observation.history, level, EventKind.PLAY),
            observation.seat,
            previous,
            -1 if previous is None or observation.previous_seat is None else observation.previous_seat,
            level,
            native.play_parameters(observation.rules),
            self.thresholds(),
        )
        return PlayAction(observation.seat, play)

    def pure_play(self, observation: Observation) -> PlayAction:
        """:meth:`play` computed in Python, whether the core is loaded or not: the reference of the
        compiled decision (the rules engine and planner it calls still take the core where loaded)."""
        if observation.phase is not Phase.PLAY or observation.current_player != observation.seat:
            raise ValueError(f"seat {observation.seat} is not to play")
        return self._decide(observation)

    def thresholds(self) -> tuple[int, int, float, float, int, int] | None:
        """The tunable thresholds for the core, ``None`` at the defaults."""
        values = (
            self.bomb_threat,
            self.block_threat,
            self.break_gain,
            self.break_gain_threatened,
            self.break_candidates,
            self.feed_partner_at,
        )
        return None if values == _DEFAULT_THRESHOLDS else values

    def _decide(self, observation: Observation) -> PlayAction:
        table = _Table(observation, self.planner(observation.level))
        if observation.previous is None:
            return self._lead(table)
        return self._follow(table)

    # -- leading ---------------------------------------------------------------------------------

    def lead_options(self, observation: Observation) -> list[PlayAction]:
        """The plays of the plan as leads, in the order this bot ranks them (the most awkward first,
        :meth:`_Table.lead_priority`); what :meth:`play` leads may come from its special cases
        (sure winners first, 接风) instead. Search weighs the first few against its choice."""
        if observation.previous is not None:
            raise ValueError("lead options are asked when the seat leads a trick")
        table = _Table(observation, self.planner(observation.level))
        options: list[PlayAction] = []
        for unit in sorted(table.plan.units, key=table.lead_priority, reverse=True):
            action = table.play_unit(unit)
            if action is not None and action not in options:
                options.append(action)
        return options

    def _lead(self, table: _Table) -> PlayAction:
        plan = table.plan
        plain = plan.plain
        choice: Unit | None = None
        if len(plan.units) == 1:
            choice = plan.units[0]
        elif not plain:
            choice = min(plan.bombs, key=_by_key)
        else:
            sure = [unit for unit in plain if not table.can_be_beaten(unit.kind, unit.size, unit.key)]
            if sure and len(plain) - len(sure) <= 1 and len(plain) > 1:
                # every play but the last wins its trick: lead those, the last one takes us out
                choice = max(sure, key=lambda unit: (unit.size, -unit.key))
            elif len(plain) > 2:
                action = self._feed_partner(table)
                if action is not None:
                    return action
        if choice is None:
            choice = max(plain, key=table.lead_priority)
        return table.play_unit(choice) or table.fallback_lead()

    def _feed_partner(self, table: _Table) -> PlayAction | None:
        """接风: the partner is nearly out; lead the lowest single (or pair) it may beat."""
        partner_count = table.counts[table.partner]
        if not 0 < partner_count <= self.feed_partner_at:
            return None
        size = partner_count
        if 0 < table.counts[table.right] <= size:
            return None  # the next opponent would go out on it first
        orders = table.orders
        ranks = [
            value
            for value in range(2, 15)
            if size <= table.natural[value] < 4 and not table.reserved_rank(value, size)
        ]
        if not ranks:
            return None
        value = min(ranks, key=orders.__getitem__)
        kind = PlayKind.SINGLE if size == 1 else PlayKind.PAIR
        rank = Rank(value)
        unit = Unit(kind, rank, size, play_key(kind, rank, size, table.level), 0.0, (value,) * size)
        return table.play_unit(unit)

    # -- following -------------------------------------------------------------------------------

    def _follow(self, table: _Table) -> PlayAction:
        out = table.going_out()
        if out is not None:
            return out
        previous, by = table.previous, table.previous_seat
        assert previous is not None
        if by == table.partner:
            return self._follow_partner(table, previous)
        return self._follow_opponent(table, previous)

    def _follow_partner(self, table: _Table, previous: Play) -> PlayAction:
        pass_action = table.pass_action()
        right = table.counts[table.right]
        if previous.kind.is_bomb or table.counts[table.partner] == 0 or not 0 < right <= self.block_threat:
            return pass_action
        size = len(previous.cards)
        if not table.can_be_beaten(previous.kind, size, previous.key):
            return pass_action
        covers = [unit for unit in table.plan.plain if unit.beats(previous.kind, size, previous.key)]
        if not covers:
            return pass_action
        return table.play_unit(max(covers, key=_by_key)) or pass_action

    def _follow_opponent(self, table: _Table, previous: Play) -> PlayAction:
        plan = table.plan
        kind, size, key = previous.kind, len(previous.cards), previous.key
        threatened = table.threat() <= self.bomb_threat
        if not kind.is_bomb:
            beating = [unit for unit in plan.plain if unit.beats(kind, size, key)]
            if beating:
                action = table.play_unit(min(beating, key=_by_key))
                if action is not None:
                    return action
            action = self._break_to_beat(table, previous, threatened)
            if action is not None:
                return action
        bombs = [unit for unit in plan.bombs if unit.beats(kind, size, key)]
        if bombs:
            bomb = min(bombs, key=_by_key)
            if threatened or self._bomb_wins_out(table, bomb):
                action = table.play_unit(bomb)
                if action is not None:
                    return action
        elif threatened and table.threat() <= 2:
            action = table.smallest_bomb()
            if action is not None:
                return action
        return table.pass_action()

    def _break_to_beat(self, table: _Table, previous: Play, threatened: bool) -> PlayAction | None:
        """Beat with a play outside the plan when the plan suffers little (or the opponents are close
        to going out)."""
        options = [
            option
            for option in table.rank_follows(previous)
            if not option.kind.is_bomb and option.kind is previous.kind
        ]
        if not options:
            return None
        options.sort(key=lambda option: (option.key, option.wilds))
        best: tuple[float, PlayAction] | None = None
        for option in options[: self.break_candidates]:
            action = table.play_rank(option)
            if action is None:
                continue
            rest = table.hand_without(action.play.cards)
            cost = table.planner.plan(rest).cost
            if best is None or cost < best[0] - 1e-9:
                best = (cost, action)
        if best is None:
            return None
        gain = table.plan.cost - best[0]
        if gain >= (self.break_gain_threatened if threatened else self.break_gain):
            return best[1]
        return None

    @staticmethod
    def _bomb_wins_out(table: _Table, bomb: Unit) -> bool:
        """After the bomb the bot leads, and at most one of its other plays can lose a trick."""
        plain = table.plan.plain
        losing = [unit for unit in plain if table.can_be_beaten(unit.kind, unit.size, unit.key)]
        return len(losing) <= 1

    # -- tribute and return ----------------------------------------------------------------------

    def _tribute(self, observation: Observation) -> Action:
        """:meth:`tribute_options`' first."""
        return self.tribute_options(observation)[0]

    def tribute_options(self, observation: Observation) -> list[TributeAction]:
        """The tribute cards (进贡), one action per distinct card, best first: the highest card whose
        loss hurts the plan least; to an opponent, of equal ones, the card whose suit neighbours we
        hold most (掼蛋方法规则's advice, docs/sources.md#fangfa: they cannot make a straight flush with
        it)."""
        distinct = {
            action.card: action for action in observation.legal_actions if isinstance(action, TributeAction)
        }
        if not distinct:
            raise ValueError(f"seat {observation.seat} has no tribute to pay now")
        if len(distinct) == 1:
            return list(distinct.values())
        planner = self.planner(observation.level)
        hand = observation.hand
        to_partner = observation.level_team == observation.seat % 2
        plan = planner.plan(hand)
        reserved = flush_cards(plan, observation.level)

        def score(card: Card) -> tuple[float, int, int, int]:
            cost = planner.plan(_without(hand, card)).cost
            neighbours = _suit_neighbours(hand, card)
            return (
                round(cost, 6),
                reserved[card.index],
                neighbours if to_partner else -neighbours,
                card.index,
            )

        return [distinct[card] for card in sorted(distinct, key=score)]

    def _return(self, observation: Observation) -> Action:
        """To the partner: the wild card if allowed, else a high card the plan can spare. To an
        opponent: a low card the plan does not need, of a suit whose neighbours we hold
        (:meth:`return_options`' first)."""
        return self.return_options(observation)[0]

    def return_options(self, observation: Observation) -> list[ReturnAction]:
        """The return cards (还贡), one action per distinct card, best first by this bot's ranking.

        Each returnable rank is valued by how our plan's cost changes without the card: to an opponent
        less the card's cost as a single (low cards are awkward in any hand); to the partner only a
        loss counts, against the card's rank. The best few by a quick estimate are planned exactly.
        To the partner the wild card, where the rules let it go, comes first."""
        actions = observation.legal_actions
        distinct = {action.card: action for action in actions if isinstance(action, ReturnAction)}
        if not distinct:
            raise ValueError(f"seat {observation.seat} has no card to return now")
        level = observation.level
        wild = Card(level, Suit.HEARTS)
        payer = next(
            (
                event.seat
                for event in reversed(observation.history)
                if event.kind == EventKind.TRIBUTE and event.to == observation.seat
            ),
            None,
        )
        to_partner = payer is not None and payer == (observation.seat + 2) % 4
        if len(distinct) == 1:
            return list(distinct.values())
        planner = self.planner(level)
        hand = observation.hand
        plan = planner.plan(hand)
        reserved = flush_cards(plan, level)
        orders = rank_orders(level)

        def value(rank: Rank, change: float) -> float:
            if to_partner:  # generous: a high card the plan can spare (what we shed is not counted)
                return max(0.0, change) - 0.15 * orders[rank]
            # to an opponent: a card that leaves our plan best and is awkward in any hand
            return change - single_cost(orders[rank])

        ranks = sorted(
            {card.rank for card in distinct},
            key=lambda rank: value(rank, removal_estimate(plan, rank, level)),
        )
        value_of = {rank: value(rank, removal_estimate(plan, rank, level)) + 1.0 for rank in ranks}
        for rank in ranks[:RETURN_CANDIDATES]:
            card = next(card for card in distinct if card.rank == rank)
            value_of[rank] = value(rank, planner.plan(_without(hand, card)).cost - plan.cost)

        def score(card: Card) -> tuple[bool, float, int, int, int]:
            if to_partner and card is wild:
                return (False, 0.0, 0, 0, 0)
            worth = value_of[card.rank] + (5.0 if card is wild else 0.0)  # never our wild card to an opponent
            neighbours = _suit_neighbours(hand, card)
            return (True, round(worth, 6), reserved[card.index], -neighbours, card.index)

        return [distinct[card] for card in sorted(distinct, key=score)]


_DEFAULT_THRESHOLDS: tuple[int, int, float, float, int, int] = (
    BOMB_THREAT,
    BLOCK_THREAT,
    BREAK_GAIN,
    BREAK_GAIN_THREATENED,
    BREAK_CANDIDATES,
    FEED_PARTNER_AT,
)


def unseen_counts(hand: Sequence[Card], history: Sequence[Event], level: Rank) -> list[int]:
    """Cards neither in ``hand`` nor played in ``history``, by rank value (2…14 natural; 15, 16
    jokers); index 0 holds the unseen wild cards (the ♥ level cards), index 1 is unused. (The core's
    ``heuristic_unseen`` counts the same for the compiled decision.)"""
    unseen = [0, 0] + [8] * 13 + [2, 2]
    unseen[level] = 6
    unseen[0] = 2
    wild = Card(level, Suit.HEARTS)
    for card in hand:
        unseen[0 if card is wild else card.rank] -= 1
    for event in history:
        if event.kind == EventKind.PLAY and event.play is not None:
            for card in event.play.cards:
                unseen[0 if card is wild else card.rank] -= 1
    return unseen


def _by_key(unit: Unit) -> tuple[int, int]:
    return unit.key, unit.wilds


def _without(hand: Sequence[Card], card: Card) -> list[Card]:
    rest = list(hand)
    rest.remove(card)
    return rest


def _suit_neighbours(hand: Sequence[Card], card: Card) -> int:
    """Cards of the same suit one or two ranks away (nearer counts double)."""
    if card.suit is None:
        return 0
    total = 0
    for other in hand:
        if other.suit is card.suit and other is not card:
            gap = abs(int(other.rank) - int(card.rank))
            if gap == 1:
                total += 2
            elif gap == 2:
                total += 1
    return total


_SEQUENCE_SHAPES = {PlayKind.STRAIGHT: (1, 5), PlayKind.TUBE: (2, 3), PlayKind.PLATE: (3, 2)}


class _Table:
    """One decision's view: the hand and its plan, the counts, the unseen cards, the legal actions."""

    def __init__(self, observation: Observation, planner: Planner) -> None:
        self.observation = observation
        self.planner = planner
        self.seat = seat = observation.seat
        self.partner = (seat + 2) % 4
        self.right = (seat + 1) % 4
        """下家: the opponent who plays after us."""
        self.left = (seat + 3) % 4
        self.level = observation.level
        self.orders = rank_orders(observation.level)
        self.hand = observation.hand
        self.counts = observation.card_counts
        self.previous = observation.previous
        self.previous_seat = observation.previous_seat
        self._actions: tuple[Action, ...] | None = None
        self.plan: Plan = planner.plan(self.hand)
        held = [0] * 54
        for card in self.hand:
            held[card.index] += 1
        self.held = held
        self.wild = Card(self.level, Suit.HEARTS)
        self.natural = rank_counts(held)
        self.natural[self.level] -= held[self.wild.index]
        self.reserved = flush_cards(self.plan, self.level)
        self._unseen: list[int] | None = None

    # -- what others may hold --------------------------------------------------------------------

    def unseen(self) -> list[int]:
        """Cards neither in our hand nor played, by rank value (2…14 natural; 15, 16 jokers); index 0
        holds the unseen wild cards."""
        if self._unseen is None:
            self._unseen = unseen_counts(self.hand, self.observation.history, self.level)
        return self._unseen

    def can_be_beaten(self, kind: PlayKind, size: int, key: int) -> bool:
        """Whether the unseen cards could make a play of this kind and size above ``key`` (bombs
        apart: a bomb-class play is never called beatable here)."""
        if kind.is_bomb:
            return False
        unseen = self.unseen()
        wilds = unseen[0]
        orders = self.orders
        if kind in (PlayKind.SINGLE, PlayKind.PAIR, PlayKind.TRIPLE, PlayKind.FULL_HOUSE):
            width = 3 if kind is PlayKind.FULL_HOUSE else size
            for value in range(2, 17):
                if orders[value] <= key:
                    continue
                held = unseen[value]
                if value >= SMALL_JOKER_VALUE:
                    if held >= width and width <= 2:
                        return True
                elif held and held + wilds >= width:
                    return True
            return width <= 2 and wilds >= width and orders[self.level] > key
        shape = _SEQUENCE_SHAPES.get(kind)
        if shape is None:
            return True
        width, length = shape
        for low in range(max(1, key - length + 2), 16 - length):
            need = 0
            for position in range(low, low + length):
                held = unseen[14 if position == 1 else position]
                if held < width:
                    need += width - held if held or width < 3 else 9
            if need <= wilds:
                return True
        return False

    def threat(self) -> int:
        """The fewest cards an opponent still in the deal holds (99 when none is)."""
        counts = [self.counts[seat] for seat in (self.left, self.right) if self.counts[seat] > 0]
        return min(counts, default=99)

    def lead_priority(self, unit: Unit) -> tuple[int, float]:
        """Higher leads first: awkward (costly) plays, longer ones a little earlier; plays of exactly
        as many cards as an opponent holds last, and of those the strongest first."""
        danger = any(
            0 < self.counts[seat] == unit.size for seat in (self.left, self.right)
        ) and self.can_be_beaten(unit.kind, unit.size, unit.key)
        if danger:
            return 0, -unit.cost
        return 1, unit.cost + LEAD_SIZE_BONUS * unit.size

    def reserved_rank(self, value: int, size: int) -> bool:
        """Whether taking ``size`` cards of this rank must touch a planned straight flush."""
        spare = self.natural[value] - sum(self.reserved[natural_index(Rank(value), suit)] for suit in Suit)
        return spare < size

    # -- actions ---------------------------------------------------------------------------------

    @property
    def actions(self) -> tuple[Action, ...]:
        """The legal actions: the observation's, else listed from the rules (made once, only when needed)."""
        if self._actions is None:
            observation = self.observation
            if observation.legal_actions:
                self._actions = tuple(observation.legal_actions)
            else:
                plays = legal_plays(
                    observation.hand, observation.previous, observation.level, observation.rules
                )
                self._actions = tuple(PlayAction(self.seat, play) for play in plays)
        return self._actions

    def pass_action(self) -> PlayAction:
        if self.previous is None:
            raise ValueError("passing is not a legal action here: the bot leads")
        return PlayAction(self.seat, PASS)

    def find(self, kind: PlayKind, rank: Rank, cards: Sequence[Card]) -> PlayAction | None:
        """The legal action playing exactly these cards as this kind and key rank (else these cards
        any legal way, the first in the legal list)."""
        observation = self.observation
        reading = read_as(cards, kind, rank, self.level, observation.rules)
        if reading is not None and (self.previous is None or reading.beats(self.previous)):
            return PlayAction(self.seat, reading)
        target = tuple(sorted(cards, key=_index))
        if not can_play_cards(target, self.previous, self.level, observation.rules):
            return None
        return next(
            (
                action
                for action in self.actions
                if isinstance(action, PlayAction) and action.play.cards == target
            ),
            None,
        )

    def play_unit(self, unit: Unit) -> PlayAction | None:
        """The legal action for a unit of the plan (or a unit built like one)."""
        reserved = () if unit.kind is PlayKind.STRAIGHT_FLUSH else self.reserved
        cards = units_cards(unit, self.held, self.level, reserved)
        if cards is None:
            return None
        return self.find(unit.kind, unit.rank, cards)

    def play_rank(self, option: RankPlay) -> PlayAction | None:
        """The legal action for a rank-level play, keeping planned straight flushes where possible."""
        spare: list[Card] = []
        taken = [0] * 54
        for card in self.hand:
            if taken[card.index] < self.held[card.index] - self.reserved[card.index]:
                spare.append(card)
                taken[card.index] += 1
        for hand in (spare, list(self.hand)):
            try:
                play = option.to_play(hand, self.level)
            except ValueError:
                continue
            action = self.find(play.kind, play.rank or Rank.TWO, play.cards)
            if action is not None:
                return action
        return None

    def rank_follows(self, previous: Play) -> list[RankPlay]:
        return rank_follows(self.hand, rank_play_of(previous), self.level)

    def hand_without(self, cards: Sequence[Card]) -> list[Card]:
        rest = list(self.hand)
        for card in cards:
            rest.remove(card)
        return rest

    def going_out(self) -> PlayAction | None:
        """A legal play of the whole hand, if there is one."""
        if not can_play_cards(self.hand, self.previous, self.level, self.observation.rules):
            return None
        size = len(self.hand)
        for action in self.actions:
            if isinstance(action, PlayAction) and len(action.play.cards) == size:
                return action
        return None

    def smallest_bomb(self) -> PlayAction | None:
        """The lowest bomb-class legal play (breaking the plan if need be)."""
        bombs = [
            action for action in self.actions if isinstance(action, PlayAction) and action.play.kind.is_bomb
        ]
        if not bombs:
            return None
        return min(
            bombs, key=lambda action: (action.play.key, action.play.wild_count, len(action.play.cards))
        )

    def fallback_lead(self) -> PlayAction:
        """Should the plan not map to a legal play: the lowest non-bomb lead, longest first."""
        plays = [action for action in self.actions if isinstance(action, PlayAction)]
        return min(
            plays,
            key=lambda action: (action.play.kind.is_bomb, action.play.key, -len(action.play.cards)),
        )


def _index(card: Card) -> int:
    return card.index


__all__ = ["BLOCK_THREAT", "BOMB_THREAT", "HeuristicBot"]
