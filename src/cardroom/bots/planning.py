"""Hand planning for Guandan bots (组牌): split a hand into few, strong plays, as a good player does.

The planner works on per-rank counts (suits only matter for straight flushes). It searches, rank by
rank from the lowest, which sequences (顺子, 三连对, 钢板) to take out — each may use the wild cards
(逢人配, the ♥ level cards) to fill gaps — and settles what is left by rank: four or more cards of a rank
are a bomb, three a triple, two a pair, one a single; triples take the weakest pairs as full houses
(三带二); left-over wild cards go where they save most (a triple into a bomb, a pair into a triple, a
single into a pair) or stay as level cards. Straight flushes (同花顺) are tried first, on top of that
search. Ranks holding a bomb are never broken for a sequence: bombs and straight flushes are kept whole.

Every play of a plan has a *cost*: about one for each play that must win a trick of its own, more for
low (awkward) plays, less for high ones, and below zero for bomb-class plays, which win back the lead.
The plan is the split of least total cost; :attr:`Plan.cost` compares hands (before and after a play).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Final, NamedTuple

from cardroom.cards import Card, Rank, Suit, natural_index
from cardroom.guandan import native
from cardroom.guandan.plays import PlayKind, play_key, rank_at_position, rank_orders

SMALL_JOKER_VALUE: Final = int(Rank.SMALL_JOKER)
BIG_JOKER_VALUE: Final = int(Rank.BIG_JOKER)

SEQUENCE_SHAPES: Final = (
    (PlayKind.STRAIGHT, 1, 5),
    (PlayKind.TUBE, 2, 3),
    (PlayKind.PLATE, 3, 2),
)
"""The sequence kinds the search takes out: (kind, cards per rank, number of ranks)."""

_WINDOWS: Final = tuple(
    tuple(
        tuple(14 if position == 1 else position for position in range(low, low + length))
        if low >= 1 and low + length - 1 <= 14
        else None
        for low in range(15)
    )
    for _, _, length in SEQUENCE_SHAPES
)
"""``_WINDOWS[shape][low]``: the ranks of a sequence starting at position ``low`` (1 is the low ace)."""

LEAF_BUDGET: Final = 2500
"""Most splits the search settles per straight-flush choice; beyond it the best found so far stands."""

MAX_STRAIGHT_FLUSH_CHOICES: Final = 6
"""Most straight-flush candidates tried at each of at most two levels of choice."""

# -- costs ---------------------------------------------------------------------------------------------

BOMB_COSTS: Final = {4: -0.8, 5: -0.95, 6: -1.15, 7: -1.2, 8: -1.25, 9: -1.3, 10: -1.35}
"""Cost of a bomb by its number of cards: below zero, as a bomb wins back the lead."""
STRAIGHT_FLUSH_COST: Final = -1.05
FOUR_JOKERS_COST: Final = -1.5


def _weakness(order: int) -> float:
    """0 for the level rank and above, 1 for the lowest rank (order 2)."""
    return (15 - min(order, 15)) / 13


def single_cost(order: int) -> float:
    if order >= 17:
        return 0.5
    if order == 16:
        return 0.7
    return 1.0 + 0.8 * _weakness(order)


def pair_cost(order: int) -> float:
    if order >= 17:
        return 0.4
    if order == 16:
        return 0.6
    return 1.0 + 0.7 * _weakness(order)


def triple_cost(order: int) -> float:
    return 1.0 + 0.5 * _weakness(order)


def sequence_cost(top: int) -> float:
    """A straight, 三连对 or 钢板 by its top position (5…14): rarely beaten, so cheaper than singles."""
    return 1.0 + 0.4 * (14 - top) / 9


class Unit(NamedTuple):
    """One play of a plan, named by ranks: its kind, key rank (the lowest of a sequence, the triple of a
    full house), number of cards, comparison key (as :attr:`Play.key`), cost, the natural cards' ranks
    (one entry per card; jokers as their ``Rank`` values), the number of wild cards, the suit of a straight
    flush and the pair's rank in a full house."""

    kind: PlayKind
    rank: Rank
    size: int
    key: int
    cost: float
    naturals: tuple[int, ...]
    wilds: int = 0
    suit: Suit | None = None
    pair_rank: Rank | None = None

    @property
    def is_bomb(self) -> bool:
        return self.kind.is_bomb

    def beats(self, kind: PlayKind, size: int, key: int) -> bool:
        """Whether this unit may be played on a play of that kind, size and key."""
        if self.kind.is_bomb:
            return not kind.is_bomb or self.key > key
        return self.kind is kind and self.size == size and self.key > key


class Plan(NamedTuple):
    """A split of a hand into units, with its total cost (lower is better)."""

    units: tuple[Unit, ...]
    cost: float

    @property
    def bombs(self) -> tuple[Unit, ...]:
        return tuple(unit for unit in self.units if unit.kind.is_bomb)

    @property
    def plain(self) -> tuple[Unit, ...]:
        """The units that are not bomb-class plays."""
        return tuple(unit for unit in self.units if not unit.kind.is_bomb)


class _Leaf(NamedTuple):
    cost: float
    counts: tuple[int, ...]
    wilds: int
    sequences: tuple[tuple[int, int, tuple[int, ...]], ...]
    """(shape, low position, wild cards per rank of the window)"""
    operations: tuple[tuple[str, int], ...]


def rank_counts(by_card: Sequence[int]) -> list[int]:
    """Natural cards held per rank value (2…14; 0 and 1 unused), from counts per card index."""
    return [0, 0, *(sum(by_card[start : start + 4]) for start in range(2, 54, 4))]


native.register_planner(Unit, Plan)


class Planner:
    """Plans hands at one level; remembers the plans of the hands it has seen (a bot's hand shrinks one
    play at a time, so most decisions ask again for a plan already made). The compiled core makes the
    plans when it is loaded (native/src/planner.cpp, identical to the pure search here, its reference)."""

    def __init__(self, level: Rank, cache_size: int = 4096) -> None:
        self.level = level
        self.orders = rank_orders(level)
        self.wild = Card(level, Suit.HEARTS)
        orders = self.orders
        self.single = [single_cost(orders[value]) if value >= 2 else 0.0 for value in range(17)]
        self.pair = [pair_cost(orders[value]) if value >= 2 else 0.0 for value in range(17)]
        self.triple = [triple_cost(orders[value]) if value >= 2 else 0.0 for value in range(17)]
        self.cache: dict[tuple[int, ...], Plan] = {}
        self.cache_size = cache_size

    # -- public ----------------------------------------------------------------------------------

    def plan(self, hand: Iterable[Card]) -> Plan:
        """The least-cost split of ``hand``."""
        key = tuple(sorted(card.index for card in hand))
        found = self.cache.get(key)
        if found is None:
            found = self._plan(key)
            if len(self.cache) >= self.cache_size:
                self.cache.clear()
            self.cache[key] = found
        return found

    # -- the search ------------------------------------------------------------------------------

    def _plan(self, indices: tuple[int, ...]) -> Plan:
        """The plan of a hand given as sorted card indices: the compiled core's, else the pure one."""
        core = native.CORE
        if core is None:
            return self._pure_plan(indices)
        plan: Plan = core.plan_hand(indices, int(self.level))
        return plan

    def _pure_plan(self, indices: tuple[int, ...]) -> Plan:
        """The plan computed in Python (the reference of the compiled core's)."""
        by_card = [0] * 54
        for index in indices:
            by_card[index] += 1
        wild_index = self.wild.index
        wilds = by_card[wild_index]
        by_card[wild_index] = 0
        counts = rank_counts(by_card)
        small, big = by_card[0], by_card[1]
        joker_units = self._joker_units(small, big)
        joker_cost = sum(unit.cost for unit in joker_units)
        best: tuple[float, _Leaf, tuple[Unit, ...]] | None = None
        for flushes, flush_counts, flush_wilds in self._flush_choices(by_card, counts, wilds):
            leaf = self._search(flush_counts, flush_wilds)
            cost = leaf.cost + sum(unit.cost for unit in flushes)
            if best is None or cost < best[0] - 1e-9:
                best = (cost, leaf, flushes)
        assert best is not None
        cost, leaf, flushes = best
        units = (*self._units_of(leaf), *flushes, *joker_units)
        return Plan(units, cost + joker_cost)

    def _joker_units(self, small: int, big: int) -> list[Unit]:
        level = self.level
        if small == 2 and big == 2:
            key = play_key(PlayKind.FOUR_JOKERS, Rank.SMALL_JOKER, 4, level)
            return [
                Unit(
                    PlayKind.FOUR_JOKERS,
                    Rank.SMALL_JOKER,
                    4,
                    key,
                    FOUR_JOKERS_COST,
                    (SMALL_JOKER_VALUE,) * 2 + (BIG_JOKER_VALUE,) * 2,
                )
            ]
        units = []
        for rank, held in ((Rank.SMALL_JOKER, small), (Rank.BIG_JOKER, big)):
            order = self.orders[rank]
            if held == 2:
                key = play_key(PlayKind.PAIR, rank, 2, level)
                units.append(Unit(PlayKind.PAIR, rank, 2, key, pair_cost(order), (int(rank),) * 2))
            elif held == 1:
                key = play_key(PlayKind.SINGLE, rank, 1, level)
                units.append(Unit(PlayKind.SINGLE, rank, 1, key, single_cost(order), (int(rank),)))
        return units

    def _flush_choices(
        self, by_card: list[int], counts: list[int], wilds: int
    ) -> list[tuple[tuple[Unit, ...], list[int], int]]:
        """No straight flush, one, or two (a second only beside a first of natural cards), each with
        the counts and wild cards they leave."""
        choices: list[tuple[tuple[Unit, ...], list[int], int]] = [((), counts, wilds)]
        for unit, used in self._flush_candidates(by_card, wilds):
            rest = list(counts)
            for value in unit.naturals:
                rest[value] -= 1
            rest_wilds = wilds - unit.wilds
            choices.append(((unit,), rest, rest_wilds))
            if unit.wilds:
                continue
            left = list(by_card)
            for index in used:
                left[index] -= 1
            for second, _ in self._flush_candidates(left, rest_wilds):
                if (second.wilds, -second.key, second.suit) < (0, -unit.key, unit.suit):
                    continue  # the same pair of straight flushes is tried the other way round
                more = list(rest)
                for value in second.naturals:
                    more[value] -= 1
                choices.append(((unit, second), more, rest_wilds - second.wilds))
        return choices

    def _flush_candidates(self, by_card: list[int], wilds: int) -> list[tuple[Unit, list[int]]]:
        level = self.level
        found: list[tuple[int, int, Unit, list[int]]] = []
        for suit in Suit:
            held = [0, 0, *by_card[natural_index(Rank.TWO, suit) :: 4]]
            if sum(1 for value in range(2, 15) if held[value]) + wilds < 5:
                continue
            for low in range(1, 11):
                window = _WINDOWS[0][low]
                assert window is not None
                present = [value for value in window if held[value]]
                need = 5 - len(present)
                if need > wilds:
                    continue
                rank = rank_at_position(low)
                key = play_key(PlayKind.STRAIGHT_FLUSH, rank, 5, level)
                unit = Unit(
                    PlayKind.STRAIGHT_FLUSH,
                    rank,
                    5,
                    key,
                    STRAIGHT_FLUSH_COST - 0.005 * (low + 4),
                    tuple(present),
                    need,
                    suit,
                )
                used = [natural_index(Rank(value), suit) for value in present]
                found.append((need, -key, unit, used))
        found.sort(key=lambda item: (item[0], item[1], item[2].suit))
        return [(unit, used) for _, _, unit, used in found[:MAX_STRAIGHT_FLUSH_CHOICES]]

    def _search(self, counts: list[int], wilds: int) -> _Leaf:
        """The least-cost choice of sequences (and settling of the rest) from these counts."""
        cnt = list(counts)
        settle = self._settle
        best: list[_Leaf] = []
        chosen: list[tuple[int, int, tuple[int, ...]]] = []
        budget = [LEAF_BUDGET]
        best_cost = [float("inf")]

        def visit(position: int, shape_from: int, wild: int, cost: float) -> None:
            while position <= 14:
                value = 14 if position == 1 else position
                held = cnt[value]
                if 0 < held < 4 or (wild and position >= 10):
                    break
                position += 1
                shape_from = 0
            if position > 14 or budget[0] <= 0:
                budget[0] -= 1
                total, operations = settle(cnt, wild)
                total += cost
                if total < best_cost[0] - 1e-9:
                    best_cost[0] = total
                    best[:] = [_Leaf(total, tuple(cnt), wild, tuple(chosen), operations)]
                return
            for shape in range(shape_from, 3):
                window = _WINDOWS[shape][position]
                if window is None:
                    continue
                width = SEQUENCE_SHAPES[shape][1]
                need = 0
                fills = []
                for value in window:
                    held = cnt[value]
                    if held >= 4:
                        need = 9
                        break
                    short = width - held if held < width else 0
                    need += short
                    fills.append(short)
                if need > wild:
                    continue
                for value, short in zip(window, fills, strict=True):
                    cnt[value] -= width - short
                chosen.append((shape, position, tuple(fills)))
                visit(position, shape, wild - need, cost + sequence_cost(position + len(window) - 1))
                chosen.pop()
                for value, short in zip(window, fills, strict=True):
                    cnt[value] += width - short
            visit(position + 1, 0, wild, cost)

        visit(1, 0, wilds, 0.0)
        return best[0]

    def _settle(self, cnt: list[int], wilds: int) -> tuple[float, tuple[tuple[str, int], ...]]:
        """The cost of settling the counts by rank, with the left-over wild cards placed where they save
        most; and those placements (``("s", rank)``: a single made a pair, ``"p"``: a pair made a
        triple, ``"t"``: a triple made a bomb)."""
        single, pair, triple = self.single, self.pair, self.triple
        cost = 0.0
        pairs: list[int] = []
        triples = 0
        for value in range(2, 15):
            held = cnt[value]
            if not held:
                continue
            if held == 1:
                cost += single[value]
            elif held == 2:
                pairs.append(value)
            elif held == 3:
                cost += triple[value]
                triples += 1
            else:
                cost += BOMB_COSTS[held]
        if pairs:
            pair_costs = [pair[value] for value in pairs]
            cost += sum(pair_costs)
            if triples:
                cost -= _absorbed(pair_costs, triples)
        if not wilds:
            return cost, ()
        singles = [value for value in range(2, 15) if cnt[value] == 1]
        triple_list = [value for value in range(2, 15) if cnt[value] == 3]
        best = cost + self._loose(wilds)
        operations: tuple[tuple[str, int], ...] = ()
        for s1, p1, t1, move1 in self._wild_moves(singles, pairs, triple_list):
            for s2, p2, t2, moves in (
                ((s1, p1, t1, (move1,)),)
                if wilds == 1
                else [
                    ((s1, p1, t1, (move1,))),
                    *((s, p, t, (move1, m)) for s, p, t, m in self._wild_moves(s1, p1, t1)),
                ]
            ):
                total = self._groups(cnt, s2, p2, t2) + self._loose(wilds - len(moves))
                if total < best - 1e-9:
                    best, operations = total, moves
        return best, operations

    def _loose(self, wilds: int) -> float:
        """Wild cards played as level cards: a single, or a pair of them."""
        if wilds == 1:
            return self.single[self.level]
        if wilds == 2:
            return self.pair[self.level]
        return 0.0

    def _wild_moves(
        self, singles: list[int], pairs: list[int], triples: list[int]
    ) -> list[tuple[list[int], list[int], list[int], tuple[str, int]]]:
        """One wild card joins the weakest single, pair or triple (a triple so joined is a bomb,
        listed in ``triples`` as its negated rank)."""
        moves: list[tuple[list[int], list[int], list[int], tuple[str, int]]] = []
        if singles:
            value = max(singles, key=self.single.__getitem__)
            rest = [other for other in singles if other != value]
            moves.append((rest, [*pairs, value], triples, ("s", value)))
        if pairs:
            value = max(pairs, key=self.pair.__getitem__)
            rest = [other for other in pairs if other != value]
            moves.append((singles, rest, [*triples, value], ("p", value)))
        plain = [value for value in triples if value > 0]
        if plain:
            value = max(plain, key=self.triple.__getitem__)
            rest = [other for other in triples if other != value]
            moves.append((singles, pairs, [*rest, -value], ("t", value)))
        return moves

    def _groups(self, cnt: list[int], singles: list[int], pairs: list[int], triples: list[int]) -> float:
        """The cost of the settled groups: natural bombs from the counts, then these singles, pairs,
        triples (negated: made bombs by a wild card) and full houses."""
        single, pair, triple = self.single, self.pair, self.triple
        cost = sum(BOMB_COSTS[held] for held in cnt[2:] if held >= 4)
        cost += sum(single[value] for value in singles)
        plain = 0
        for value in triples:
            if value > 0:
                cost += triple[value]
                plain += 1
            else:
                cost += BOMB_COSTS[4]
        if pairs:
            pair_costs = [pair[value] for value in pairs]
            cost += sum(pair_costs)
            if plain:
                cost -= _absorbed(pair_costs, plain)
        return cost

    # -- the plan's units ------------------------------------------------------------------------

    def _units_of(self, leaf: _Leaf) -> list[Unit]:
        level = self.level
        units: list[Unit] = []
        for shape, low, fills in leaf.sequences:
            kind, width, length = SEQUENCE_SHAPES[shape]
            window = _WINDOWS[shape][low]
            assert window is not None
            naturals: list[int] = []
            for value, short in zip(window, fills, strict=True):
                naturals += [value] * (width - short)
            rank = rank_at_position(low)
            size = width * length
            key = play_key(kind, rank, size, level)
            units.append(
                Unit(kind, rank, size, key, sequence_cost(low + length - 1), tuple(naturals), sum(fills))
            )
        extra = [0] * 15
        for _, value in leaf.operations:
            extra[value] += 1
        # groups of one rank: (rank value, natural cards, wild cards)
        singles: list[tuple[int, int, int]] = []
        pairs: list[tuple[int, int, int]] = []
        triples: list[tuple[int, int, int]] = []
        for value in range(2, 15):
            natural, wild = leaf.counts[value], extra[value]
            total = natural + wild
            if total >= 4:
                rank = Rank(value)
                key = play_key(PlayKind.BOMB, rank, total, level)
                units.append(
                    Unit(PlayKind.BOMB, rank, total, key, BOMB_COSTS[total], (value,) * natural, wild)
                )
            elif total:
                (singles, pairs, triples)[total - 1].append((value, natural, wild))
        loose = leaf.wilds - len(leaf.operations)
        if loose:
            units.append(self._of_a_rank((PlayKind.SINGLE, PlayKind.PAIR)[loose - 1], (int(level), 0, loose)))
        units += [self._of_a_rank(PlayKind.SINGLE, group) for group in singles]
        pairs.sort(key=lambda group: -self.pair[group[0]])
        absorbed = pairs[: len(triples)]
        units += [self._of_a_rank(PlayKind.PAIR, group) for group in pairs[len(triples) :]]
        for index, (value, natural, wild) in enumerate(triples):
            if index >= len(absorbed):
                units.append(self._of_a_rank(PlayKind.TRIPLE, (value, natural, wild)))
                continue
            pair_value, pair_natural, pair_wild = absorbed[index]
            rank = Rank(value)
            units.append(
                Unit(
                    PlayKind.FULL_HOUSE,
                    rank,
                    5,
                    play_key(PlayKind.FULL_HOUSE, rank, 5, level),
                    self.triple[value],
                    (value,) * natural + (pair_value,) * pair_natural,
                    wild + pair_wild,
                    None,
                    Rank(pair_value),
                )
            )
        return units

    def _of_a_rank(self, kind: PlayKind, group: tuple[int, int, int]) -> Unit:
        """A single, pair or triple of one rank from its group (rank value, natural cards, wild cards)."""
        value, natural, wild = group
        rank = Rank(value)
        costs = {PlayKind.SINGLE: self.single, PlayKind.PAIR: self.pair, PlayKind.TRIPLE: self.triple}[kind]
        return Unit(
            kind,
            rank,
            int(kind),
            play_key(kind, rank, int(kind), self.level),
            costs[value],
            (value,) * natural,
            wild,
        )


def _absorbed(pair_costs: list[int] | list[float], triples: int) -> float:
    """The cost of the pairs the triples take as full houses (the weakest pairs)."""
    if triples >= len(pair_costs):
        return float(sum(pair_costs))
    return float(sum(sorted(pair_costs, reverse=True)[:triples]))


def units_cards(
    unit: Unit,
    held: Sequence[int],
    level: Rank,
    reserved: Sequence[int] = (),
) -> list[Card] | None:
    """Concrete cards for a unit from a hand given as counts per card index (``held``), keeping the
    cards in ``reserved`` (counts per card index: a planned straight flush's) where another copy or
    suit will do; a plain straight never five natural cards of one suit. ``None`` if the hand cannot."""
    wild = Card(level, Suit.HEARTS)
    available = list(held)
    if available[wild.index] < unit.wilds:
        return None
    available[wild.index] -= unit.wilds
    free = list(available)
    if reserved:
        for index, count in enumerate(reserved):
            free[index] = max(0, free[index] - count)
    free[wild.index] = 0
    cards: list[Card] = []
    wanted: dict[int, int] = {}
    for value in unit.naturals:
        wanted[value] = wanted.get(value, 0) + 1
    for value, number in wanted.items():
        if value >= SMALL_JOKER_VALUE:
            joker = Card(Rank(value))
            if available[joker.index] < number:
                return None
            available[joker.index] -= number
            cards += [joker] * number
            continue
        rank = Rank(value)
        suits = (unit.suit,) if unit.suit is not None else tuple(Suit)
        for pool in (free, available):
            for suit in suits:
                index = natural_index(rank, suit)
                if index == wild.index:
                    continue
                take = min(pool[index], available[index], number)
                if take:
                    cards += [Card(rank, suit)] * take
                    available[index] -= take
                    free[index] = max(0, free[index] - take)
                    number -= take
            if not number:
                break
        if number:
            return None
    if unit.kind is PlayKind.STRAIGHT and not unit.wilds and len({card.suit for card in cards}) == 1:
        cards = _unflush(cards, available)
        if not cards:
            return None
    return cards + [wild] * unit.wilds


def _unflush(cards: list[Card], available: list[int]) -> list[Card]:
    suit = cards[0].suit
    for position, card in enumerate(cards):
        for other in Suit:
            index = natural_index(card.rank, other)
            if other is not suit and available[index]:
                return [*cards[:position], Card(card.rank, other), *cards[position + 1 :]]
    return []


def flush_cards(plan: Plan, level: Rank) -> list[int]:
    """Counts per card index of the natural cards the plan's straight flushes use (to keep them whole
    when other plays choose their suits)."""
    reserved = [0] * 54
    for unit in plan.units:
        if unit.kind is PlayKind.STRAIGHT_FLUSH and unit.suit is not None:
            for value in unit.naturals:
                reserved[natural_index(Rank(value), unit.suit)] += 1
    return reserved


def plan_cards(plan: Plan, hand: Iterable[Card], level: Rank) -> list[list[Card]] | None:
    """Concrete cards for every unit of a plan of ``hand`` (in the plan's order), straight flushes
    first; ``None`` if the plan does not fit the hand."""
    held = [0] * 54
    for card in hand:
        held[card.index] += 1
    reserved = flush_cards(plan, level)
    chosen: dict[int, list[Card]] = {}
    order = sorted(range(len(plan.units)), key=lambda i: plan.units[i].kind is not PlayKind.STRAIGHT_FLUSH)
    for index in order:
        unit = plan.units[index]
        if unit.kind is PlayKind.STRAIGHT_FLUSH:
            cards = units_cards(unit, held, level)
            if cards is not None:
                for value in unit.naturals:
                    reserved[natural_index(Rank(value), unit.suit or Suit.SPADES)] -= 1
        else:
            cards = units_cards(unit, held, level, reserved)
        if cards is None:
            return None
        for card in cards:
            held[card.index] -= 1
        chosen[index] = cards
    return [chosen[index] for index in range(len(plan.units))]


def removal_estimate(plan: Plan, value: int, level: Rank) -> float:
    """A quick estimate of how the plan's cost changes when one natural card of this rank leaves the
    hand (negative: the hand gets better), from the unit the card is in; re-plan to know exactly."""
    orders = rank_orders(level)
    best = 9.0
    for unit in plan.units:
        if value not in unit.naturals:
            continue
        order = orders[value]
        kind = unit.kind
        if kind is PlayKind.SINGLE:
            change = -unit.cost
        elif kind is PlayKind.PAIR:
            change = single_cost(order) - unit.cost
        elif kind is PlayKind.TRIPLE:
            change = pair_cost(order) - unit.cost
        elif kind is PlayKind.FULL_HOUSE:
            if unit.rank == value:
                change = pair_cost(order) + pair_cost(orders[unit.pair_rank or value]) - unit.cost
            else:
                change = single_cost(order)
        elif kind is PlayKind.BOMB:
            change = BOMB_COSTS.get(unit.size - 1, triple_cost(order)) - unit.cost
        else:
            change = 1.5
        best = min(best, change)
    return best
