"""The fixed action table for learning agents (docs/rl.md, "The action table").

One entry per rank-level play of the competition play rules — kind × ranks × wild cards used — plus
passing and one entry per card for the tribute (进贡) and the return (还贡). A rank-level play names its
kind, its key rank (the lowest rank of a sequence, the triple of a full house), the pair's rank of a full
house, the suit of a straight flush, its number of cards and how many ♥ level cards (逢人配) it holds.
The table does not depend on the level, so one network head serves every deal.

Public API, kept stable for ``cardroom.rl.dataset`` and other users: :data:`ACTION_TABLE`,
:data:`NUM_ACTIONS`, :func:`legal_action_mask`, :func:`action_index`, :func:`action_of`,
:func:`concrete_play`. Entries are an :class:`ActionSpec`; index 0 is passing.

Concrete cards (:func:`concrete_play`) are chosen deterministically: where the ranks can give their
natural cards in several ways (full houses; sequences using more wild cards than they need), the way
kept leaves the hand the most straight-flush windows, then the most bombs, then the most cards in
bombs; each rank gives copies outside the hand's straight-flush windows first, then ♠ ♥ ♣ ♦.
"""

from __future__ import annotations

import operator
from collections.abc import Callable, Iterable, Sequence
from functools import cache
from itertools import combinations_with_replacement
from typing import Final, NamedTuple, SupportsIndex

import numpy as np
import numpy.typing as npt

from cardroom.cards import ALL_CARDS, NATURAL_RANKS, Card, Rank, Suit, natural_index
from cardroom.guandan import native
from cardroom.guandan.deal import Action, Phase, PlayAction, ReturnAction, TributeAction
from cardroom.guandan.hands import card_counts, check_level
from cardroom.guandan.native import Hand
from cardroom.guandan.observation import Observation
from cardroom.guandan.plays import PASS, Play, PlayKind, play_key, rank_at_position, sequence_position
from cardroom.guandan.readings import read_as
from cardroom.guandan.ruleset import COMPETITION, RuleSet

Mask = npt.NDArray[np.int8]
"""A 0/1 vector over the action table."""

MAX_WILDS: Final = 2
"""Wild cards in one play: the two ♥ level cards."""


class UnsupportedRulesError(ValueError):
    """The rule set's plays are not those of the fixed table (``huopin``'s long sequences, airplanes,
    big-joker wild cards and chained bombs)."""


class IllegalActionError(ValueError):
    """A table index (or card-level action) that is not legal for the seat now."""


class ActionSpec(NamedTuple):
    """One entry of the action table.

    ``move`` is ``"pass"``, ``"play"``, ``"tribute"`` or ``"return"``. For plays: ``kind``; ``rank`` the
    key rank as :attr:`Play.rank` names it; ``size`` the number of cards; ``wilds`` the ♥ level cards
    among them; ``suit`` of a straight flush; ``pair`` the rank of a full house's pair (``None`` when the
    pair is both wild cards). For tribute and return: ``card`` given (``rank`` its rank, ``size`` 1).
    """

    move: str
    kind: PlayKind | None = None
    rank: Rank | None = None
    size: int = 0
    wilds: int = 0
    suit: Suit | None = None
    pair: Rank | None = None
    card: Card | None = None

    @property
    def label(self) -> str:
        """A short readable name: ``pass``, ``full house 5+8 (1 wild)``, ``tribute SA``."""
        if self.move == "pass":
            return "pass"
        if self.card is not None:
            return f"{self.move} {self.card}"
        assert self.kind is not None
        assert self.rank is not None
        name = self.kind.name.lower().replace("_", " ")
        if self.kind is PlayKind.FOUR_JOKERS:
            return name
        text = f"{name} {self.rank.letter}"
        if self.kind is PlayKind.FULL_HOUSE:
            text += f"+{self.pair.letter if self.pair is not None else 'wild pair'}"
        elif self.kind is PlayKind.STRAIGHT_FLUSH and self.suit is not None:
            text += f" {self.suit.letter}"
        elif self.kind is PlayKind.BOMB:
            text += f" x{self.size}"
        if self.wilds:
            text += f" ({self.wilds} wild{'s' if self.wilds > 1 else ''})"
        return text


_JOKERS: Final = (Rank.SMALL_JOKER, Rank.BIG_JOKER)
_SEQUENCES: Final = {
    PlayKind.STRAIGHT: (1, 5, 10),
    PlayKind.TUBE: (2, 3, 12),
    PlayKind.PLATE: (3, 2, 13),
}
"""Sequence kinds: cards per rank, ranks, and how many lowest positions (A low = 1)."""


def _build_table() -> tuple[ActionSpec, ...]:
    play = "play"
    specs = [ActionSpec("pass", PlayKind.PASS)]
    for kind, size in ((PlayKind.SINGLE, 1), (PlayKind.PAIR, 2), (PlayKind.TRIPLE, 3)):
        wilds = range(min(size, MAX_WILDS) + 1)
        specs += [ActionSpec(play, kind, rank, size, w) for rank in NATURAL_RANKS for w in wilds]
        if kind is not PlayKind.TRIPLE:
            specs += [ActionSpec(play, kind, joker, size, 0) for joker in _JOKERS]
    for triple in NATURAL_RANKS:
        for pair in (*(rank for rank in NATURAL_RANKS if rank != triple), *_JOKERS):
            specs += [
                ActionSpec(play, PlayKind.FULL_HOUSE, triple, 5, w, pair=pair) for w in range(MAX_WILDS + 1)
            ]
        specs.append(ActionSpec(play, PlayKind.FULL_HOUSE, triple, 5, 2, pair=None))
    for kind, (width, length, lows) in _SEQUENCES.items():
        for low in range(1, lows + 1):
            specs += [
                ActionSpec(play, kind, rank_at_position(low), width * length, w) for w in range(MAX_WILDS + 1)
            ]
    for rank in NATURAL_RANKS:
        for size in range(4, 11):
            specs += [
                ActionSpec(play, PlayKind.BOMB, rank, size, w)
                for w in range(MAX_WILDS + 1)
                if 2 <= size - w <= 8
            ]
    for suit in Suit:
        for low in range(1, 11):
            specs += [
                ActionSpec(play, PlayKind.STRAIGHT_FLUSH, rank_at_position(low), 5, w, suit=suit)
                for w in range(MAX_WILDS + 1)
            ]
    specs.append(ActionSpec(play, PlayKind.FOUR_JOKERS, Rank.SMALL_JOKER, 4, 0))
    specs += [ActionSpec("tribute", None, card.rank, 1, 0, card=card) for card in ALL_CARDS]
    specs += [ActionSpec("return", None, card.rank, 1, 0, card=card) for card in ALL_CARDS]
    return tuple(specs)


ACTION_TABLE: Final[tuple[ActionSpec, ...]] = _build_table()
"""Every action an agent can name, by index (docs/rl.md lists the blocks)."""

NUM_ACTIONS: Final = len(ACTION_TABLE)
PASS_INDEX: Final = 0
TRIBUTE_BASE: Final = NUM_ACTIONS - 2 * len(ALL_CARDS)
"""Index of the tribute of card 0; the tribute of card ``c`` is ``TRIBUTE_BASE + c.index``."""
RETURN_BASE: Final = NUM_ACTIONS - len(ALL_CARDS)
"""Index of the return of card 0; the return of card ``c`` is ``RETURN_BASE + c.index``."""

_INDEX: Final = {spec: index for index, spec in enumerate(ACTION_TABLE)}


# -- card level → table --------------------------------------------------------------------------


def spec_of_play(play: Play, level: Rank) -> ActionSpec:
    """The table entry naming a card-level play at this level (``ValueError`` for a play outside
    the table, such as ``huopin``'s airplanes)."""
    kind = play.kind
    if kind is PlayKind.PASS:
        return ACTION_TABLE[PASS_INDEX]
    wild = Card(level, Suit.HEARTS)
    wilds = play.cards.count(wild)
    pair: Rank | None = None
    if kind is PlayKind.FULL_HOUSE:
        others = [card.rank for card in play.cards if card is not wild and card.rank != play.rank]
        pair = others[0] if others else None
    suit = play.suit if kind is PlayKind.STRAIGHT_FLUSH else None
    spec = ActionSpec("play", kind, play.rank, len(play.cards), wilds, suit, pair)
    if spec not in _INDEX:
        raise ValueError(f"{play.describe()} has no entry in the action table")
    return spec


def action_index(action: Action | Play, observation: Observation) -> int:
    """The table index of a card-level action (or play) in this observation's deal."""
    if isinstance(action, TributeAction):
        return TRIBUTE_BASE + action.card.index
    if isinstance(action, ReturnAction):
        return RETURN_BASE + action.card.index
    play = action.play if isinstance(action, PlayAction) else action
    return _INDEX[spec_of_play(play, observation.level)]


def action_indices(observation: Observation) -> npt.NDArray[np.int64]:
    """The table index of each of ``observation.legal_actions``, in their order (several card-level
    actions may share one index)."""
    return np.fromiter(
        (action_index(action, observation) for action in observation.legal_actions),
        dtype=np.int64,
        count=len(observation.legal_actions),
    )


# -- the legal mask ------------------------------------------------------------------------------


def check_rules(rules: RuleSet) -> None:
    """Raise :class:`UnsupportedRulesError` for a rule set whose plays the table does not cover."""
    if rules.extended_plays:
        raise UnsupportedRulesError(
            f"the action table covers the competition play rules; rule set {rules.name!r} has other plays"
        )


_KINDS: Final = np.array([int(spec.kind) if spec.kind is not None else -1 for spec in ACTION_TABLE])
_SIZES: Final = np.array([spec.size for spec in ACTION_TABLE])
_IS_BOMB: Final = np.array([spec.kind is not None and spec.kind.is_bomb for spec in ACTION_TABLE])


@cache
def _keys(level: Rank) -> npt.NDArray[np.int64]:
    """Comparison keys (:attr:`Play.key`) of the play entries at this level; -1 elsewhere."""
    keys = np.full(NUM_ACTIONS, -1, dtype=np.int64)
    for index, spec in enumerate(ACTION_TABLE):
        if spec.move == "play" and spec.kind is not PlayKind.PASS:
            assert spec.kind is not None
            assert spec.rank is not None
            keys[index] = play_key(spec.kind, spec.rank, spec.size, level)
    return keys


def _indices(predicate: Callable[[ActionSpec], bool]) -> npt.NDArray[np.intp]:
    return np.array([i for i, spec in enumerate(ACTION_TABLE) if predicate(spec)], dtype=np.intp)


class _OfARank:
    """Singles, pairs, triples and bombs: enough natural cards of the rank and wild cards; plays made
    of wild cards only (a wild single or pair) are level cards."""

    def __init__(self) -> None:
        kinds = (PlayKind.SINGLE, PlayKind.PAIR, PlayKind.TRIPLE, PlayKind.BOMB)
        self.index = _indices(lambda spec: spec.kind in kinds)
        specs = [ACTION_TABLE[i] for i in self.index]
        self.rank = np.array([int(spec.rank) for spec in specs])
        self.wilds = np.array([spec.wilds for spec in specs])
        self.naturals = np.array([spec.size - spec.wilds for spec in specs])
        self.all_wild = self.naturals == 0


class _FullHouses:
    """Full houses: some split of the wild cards between triple and pair (``wp`` in the pair) fits."""

    def __init__(self) -> None:
        self.index = _indices(lambda spec: spec.kind is PlayKind.FULL_HOUSE)
        specs = [ACTION_TABLE[i] for i in self.index]
        self.triple = np.array([int(spec.rank) for spec in specs])
        self.pair = np.array([int(spec.pair) if spec.pair is not None else 0 for spec in specs])
        self.wilds = np.array([spec.wilds for spec in specs])
        valid = np.zeros((3, len(specs)), dtype=bool)
        need_triple = np.zeros((3, len(specs)), dtype=np.int64)
        need_pair = np.zeros((3, len(specs)), dtype=np.int64)
        for column, spec in enumerate(specs):
            for wp in range(3):
                wt = spec.wilds - wp
                if spec.pair is None:
                    ok = wp == 2
                elif spec.pair.is_joker:
                    ok = wp == 0
                else:
                    ok = wp <= 1
                valid[wp, column] = ok and 0 <= wt <= MAX_WILDS
                need_triple[wp, column] = 3 - wt
                need_pair[wp, column] = 0 if spec.pair is None else 2 - wp
        self.valid, self.need_triple, self.need_pair = valid, need_triple, need_pair


def _sequence_index(kind: PlayKind) -> npt.NDArray[np.intp]:
    return _indices(lambda spec: spec.kind is kind).reshape(-1, MAX_WILDS + 1)


def _windows(length: int, lows: int) -> npt.NDArray[np.intp]:
    """Rank values of each window of ``length`` positions, one row per lowest position."""
    return np.array(
        [[int(rank_at_position(low + i)) for i in range(length)] for low in range(1, lows + 1)], dtype=np.intp
    )


_OF_A_RANK: Final = _OfARank()
_FULL_HOUSES: Final = _FullHouses()
_STRAIGHTS: Final = _sequence_index(PlayKind.STRAIGHT)
_TUBES: Final = _sequence_index(PlayKind.TUBE)
_PLATES: Final = _sequence_index(PlayKind.PLATE)
_FLUSHES: Final = _indices(lambda spec: spec.kind is PlayKind.STRAIGHT_FLUSH).reshape(4, 10, MAX_WILDS + 1)
_FOUR_JOKERS: Final = _INDEX[ActionSpec("play", PlayKind.FOUR_JOKERS, Rank.SMALL_JOKER, 4, 0)]
_WINDOWS5: Final = _windows(5, 10)
_WINDOWS3: Final = _windows(3, 12)
_WINDOWS2: Final = _windows(2, 13)
_WILD_COUNTS: Final = np.arange(MAX_WILDS + 1)
_SUIT_BITS: Final = np.array([1, 2, 4, 8])
_ONE_SUIT: Final = np.array([bin(bits).count("1") == 1 for bits in range(16)])


def _counts(hand: Hand, level: Rank) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64], int]:
    """(natural cards per suit and rank value (4 × 17), per rank value with the jokers at 15 and 16,
    wild cards held); a card held more than twice raises ``ValueError`` naming it, as in the core."""
    counts = np.array(card_counts(hand), dtype=np.int64)
    wild = natural_index(level, Suit.HEARTS)
    wilds = int(counts[wild])
    counts[wild] = 0
    by_suit = np.zeros((4, 17), dtype=np.int64)
    by_suit[:, 2:15] = counts[2:].reshape(13, 4).T
    natural = by_suit.sum(axis=0)
    natural[15], natural[16] = counts[0], counts[1]
    return by_suit, natural, wilds


def available_plays(hand: Hand, level: Rank, rules: RuleSet = COMPETITION) -> npt.NDArray[np.bool_]:
    """Which play entries the hand can make at this level, whatever there is to beat."""
    check_rules(rules)
    by_suit, natural, wilds = _counts(hand, level)
    available = np.zeros(NUM_ACTIONS, dtype=bool)
    group = _OF_A_RANK
    available[group.index] = (
        (natural[group.rank] >= group.naturals)
        & (group.wilds <= wilds)
        & (~group.all_wild | (group.rank == int(level)))
    )
    houses = _FULL_HOUSES
    fits = np.zeros(len(houses.index), dtype=bool)
    for wp in range(3):
        fits |= (
            houses.valid[wp]
            & (natural[houses.triple] >= houses.need_triple[wp])
            & (natural[houses.pair] >= houses.need_pair[wp])
        )
    available[houses.index] = fits & (houses.wilds <= wilds)
    within = wilds >= _WILD_COUNTS
    need = 5 - (natural[_WINDOWS5] >= 1).sum(axis=1)
    straights = (need[:, None] <= _WILD_COUNTS) & within
    if not rules.natural_straight_flush_is_straight:
        suits = ((by_suit > 0) * _SUIT_BITS[:, None]).sum(axis=0)[_WINDOWS5]
        one_suit = (suits == suits[:, :1]).all(axis=1) & _ONE_SUIT[suits[:, 0]]
        straights[:, 0] &= ~one_suit
    available[_STRAIGHTS] = straights
    need = np.maximum(0, 2 - natural[_WINDOWS3]).sum(axis=1)
    available[_TUBES] = (need[:, None] <= _WILD_COUNTS) & within
    held = natural[_WINDOWS2]
    need = np.maximum(0, 3 - held).sum(axis=1)
    every_rank = np.all(held >= 1, axis=1)
    available[_PLATES] = every_rank[:, None] & (need[:, None] <= _WILD_COUNTS) & within
    need = 5 - (by_suit[:, _WINDOWS5] >= 1).sum(axis=2)
    available[_FLUSHES] = (need[..., None] <= _WILD_COUNTS) & within
    available[_FOUR_JOKERS] = bool(natural[15] == 2 and natural[16] == 2)
    return available


def _registered() -> bool:
    plays = (
        (
            index,
            int(spec.kind),
            int(spec.rank),
            spec.size,
            spec.wilds,
            -1 if spec.suit is None else int(spec.suit),
            -1 if spec.pair is None else int(spec.pair),
        )
        for index, spec in enumerate(ACTION_TABLE)
        if spec.move == "play" and spec.kind is not None and spec.rank is not None
    )
    return native.register_action_table(NUM_ACTIONS, PASS_INDEX, plays)


_CORE_MASKS: Final = _registered()
"""Whether the compiled core computes the mask and the concrete cards (native/src/action_table.cpp)."""


def play_mask(
    hand: Iterable[Card], level: Rank, previous: Play | None, rules: RuleSet = COMPETITION
) -> npt.NDArray[np.bool_]:
    """The legal entries in the play phase: every available play when leading (``previous`` is
    ``None``), else passing and the available plays that beat ``previous``. From the compiled core
    where it serves, else :func:`pure_play_mask`; the tests hold the two equal."""
    check_rules(rules)
    return _play_entries(hand, level, previous, rules).astype(bool)


def _play_entries(hand: Iterable[Card], level: Rank, previous: Play | None, rules: RuleSet) -> Mask:
    """The play phase's mask as ``int8``, the rules already checked."""
    if _CORE_MASKS and native.serves(rules):
        return native.action_mask(hand, level, rules, previous)
    return pure_play_mask(hand, level, previous, rules).astype(np.int8)


def pure_play_mask(
    hand: Iterable[Card], level: Rank, previous: Play | None, rules: RuleSet = COMPETITION
) -> npt.NDArray[np.bool_]:
    """:func:`play_mask` in NumPy: the plays the hand's counts make available, then those that beat
    ``previous``."""
    available = available_plays(hand, level, rules)
    if previous is None:
        return available
    keys = _keys(level)
    if previous.kind.is_bomb:
        beats = _IS_BOMB & (keys > previous.key)
    else:
        same = (int(previous.kind) == _KINDS) & (len(previous.cards) == _SIZES) & (keys > previous.key)
        beats = _IS_BOMB | same
    legal = available & beats
    legal[PASS_INDEX] = True
    return legal


def legal_action_mask(observation: Observation) -> Mask:
    """The 0/1 mask of the table entries the seat may choose now (all zeros when it is not to act).
    In the play phase it is computed at the rank level; it equals the entries of
    ``observation.legal_actions`` exactly (tests cross-check it)."""
    check_rules(observation.rules)
    mask = np.zeros(NUM_ACTIONS, dtype=np.int8)
    if observation.current_player != observation.seat:
        return mask
    if observation.phase is Phase.PLAY:
        return _play_entries(observation.hand, observation.level, observation.previous, observation.rules)
    if observation.phase in (Phase.TRIBUTE, Phase.RETURN):
        for action in observation.legal_actions:
            mask[action_index(action, observation)] = 1
    return mask


# -- table → card level --------------------------------------------------------------------------


def action_of(index: SupportsIndex, observation: Observation, *, check: bool = True) -> Action:
    """The card-level action for a table index: the concrete cards of :func:`concrete_play` for a
    play. Raises :class:`IllegalActionError` if the entry is not legal now (``check=False`` skips the
    mask when the caller has just computed it)."""
    index = operator.index(index)
    if not 0 <= index < NUM_ACTIONS:
        raise IllegalActionError(f"action index {index} is outside the table (0–{NUM_ACTIONS - 1})")
    spec = ACTION_TABLE[index]
    if check and not legal_action_mask(observation)[index]:
        raise IllegalActionError(f"{spec.label} is not legal for seat {observation.seat} now")
    seat = observation.seat
    if spec.move == "pass":
        return PlayAction(seat, PASS)
    if spec.move == "tribute":
        assert spec.card is not None
        return TributeAction(seat, spec.card)
    if spec.move == "return":
        assert spec.card is not None
        return ReturnAction(seat, spec.card)
    return PlayAction(seat, concrete_play(spec, observation.hand, observation.level, observation.rules))


def concrete_play(
    spec: ActionSpec | SupportsIndex, hand: Iterable[Card], level: Rank, rules: RuleSet = COMPETITION
) -> Play:
    """The cards the table plays for a rank-level entry from ``hand`` (the module's rule: straight
    flushes, then bombs kept where the ranks allow, then copies outside straight-flush windows, then
    ♠ ♥ ♣ ♦). Raises :class:`IllegalActionError` if the hand cannot make it (beating is not checked)."""
    index = _INDEX[spec] if isinstance(spec, ActionSpec) else operator.index(spec)
    if not 0 <= index < NUM_ACTIONS:
        raise IllegalActionError(f"action index {index} is outside the table (0–{NUM_ACTIONS - 1})")
    spec = ACTION_TABLE[index]
    if spec.move != "play" or spec.kind is None or spec.kind is PlayKind.PASS or spec.rank is None:
        raise ValueError(f"{spec.label} is not a play")
    check_rules(rules)
    if _CORE_MASKS and native.serves(rules):
        play = native.table_play(index, hand, level, rules)
    else:
        play = pure_concrete_play(spec, hand, level, rules)
    if play is None:
        raise IllegalActionError(f"the hand cannot make {spec.label}")
    return play


def pure_concrete_play(spec: ActionSpec, hand: Iterable[Card], level: Rank, rules: RuleSet) -> Play | None:
    """:func:`concrete_play` in Python (``None`` where the hand cannot make the entry): the reference
    the compiled core's choice is tested against."""
    assert spec.kind is not None
    assert spec.rank is not None
    held = card_counts(hand)
    check_level(level)
    cards = _choose(spec, held, level, rules)
    return read_as(cards, spec.kind, spec.rank, level, rules) if cards is not None else None


Grid = list[list[int]]
"""Natural cards held per rank value (0–14) and suit (the ♥ level cards not counted)."""
Taken = list[tuple[int, int]]
"""Natural cards chosen, as (rank value, suit)."""
Allocation = list[tuple[int, int, int | None]]
"""Natural cards wanted: (rank value, how many, the suit they must have or ``None``)."""

_SEQUENCE_SHAPES: Final = {
    PlayKind.STRAIGHT: (1, 5),
    PlayKind.STRAIGHT_FLUSH: (1, 5),
    PlayKind.TUBE: (2, 3),
    PlayKind.PLATE: (3, 2),
}
_WINDOW_MASKS: Final = tuple(0b11111 << low for low in range(1, 11))


def _choose(spec: ActionSpec, counts: Sequence[int], level: Rank, rules: RuleSet) -> list[Card] | None:
    held = list(counts)
    wild_index = natural_index(level, Suit.HEARTS)
    wilds = held[wild_index]
    held[wild_index] = 0
    kind, rank = spec.kind, spec.rank
    assert kind is not None
    assert rank is not None
    if spec.wilds > wilds:
        return None
    extra = [ALL_CARDS[wild_index]] * spec.wilds
    if kind is PlayKind.FOUR_JOKERS or rank.is_joker:
        jokers = [Card(Rank.SMALL_JOKER)] * 2 + [Card(Rank.BIG_JOKER)] * 2
        wanted = jokers if kind is PlayKind.FOUR_JOKERS else [Card(rank)] * spec.size
        ok = all(held[card.index] >= wanted.count(card) for card in wanted)
        return wanted if ok else None
    if spec.pair is not None and spec.pair.is_joker:
        if held[Card(spec.pair).index] < 2:
            return None
        extra += [Card(spec.pair)] * 2
    grid = [[0] * 4 for _ in range(2)] + [
        [held[natural_index(Rank(value), suit)] for suit in Suit] for value in range(2, 15)
    ]
    left = wilds - spec.wilds
    reserved = _reserved(grid, left)
    unflush = kind is PlayKind.STRAIGHT and not spec.wilds and not rules.natural_straight_flush_is_straight
    best: tuple[tuple[int, int, int], Taken] | None = None
    for allocation in _allocations(spec, grid):
        taken = _take(allocation, grid, reserved, unflush)
        if taken is None:
            continue
        score = _score(grid, taken, left)
        if best is None or score > best[0]:
            best = (score, taken)
    if best is None:
        return None
    naturals = [ALL_CARDS[natural_index(Rank(value), Suit(suit))] for value, suit in best[1]]
    return naturals + extra


def _allocations(spec: ActionSpec, grid: Grid) -> list[Allocation]:
    """The ways the ranks may give natural cards, in the tie-breaking order: a full house's wild
    cards in the triple first; a sequence's extra wild cards at its highest positions first."""
    kind, rank, wilds = spec.kind, spec.rank, spec.wilds
    assert kind is not None
    assert rank is not None
    if kind is PlayKind.FULL_HOUSE:
        options: list[Allocation] = []
        for wp in range(3):
            wt = wilds - wp
            pair = spec.pair
            fits = wp == 2 if pair is None else (wp == 0 if pair.is_joker else wp <= 1)
            if not fits or not 0 <= wt <= MAX_WILDS:
                continue
            allocation: Allocation = [(int(rank), 3 - wt, None)]
            if pair is not None and not pair.is_joker:
                allocation.append((int(pair), 2 - wp, None))
            options.append(allocation)
        return options
    shape = _SEQUENCE_SHAPES.get(kind)
    if shape is None:
        naturals = spec.size - wilds
        return [[(int(rank), naturals, None)] if naturals else []]
    width, length = shape
    low = sequence_position(rank)
    values = [int(rank_at_position(low + i)) for i in range(length)]
    suit = int(spec.suit) if spec.suit is not None else None
    most = [min(width, grid[v][suit] if suit is not None else sum(grid[v])) for v in values]
    excess = sum(most) - (spec.size - wilds)
    if excess < 0:
        return []
    options = []
    for removal in combinations_with_replacement(reversed(range(length)), excess):
        counts = list(most)
        for position in removal:
            counts[position] -= 1
        if min(counts) < (1 if kind is PlayKind.PLATE else 0):
            continue
        options.append([(v, count, suit) for v, count in zip(values, counts, strict=True) if count])
    return options


def _take(allocation: Allocation, grid: Grid, reserved: Grid, unflush: bool) -> Taken | None:
    """Copies for an allocation: those outside straight-flush windows first, then ♠ ♥ ♣ ♦; a plain
    straight of five natural cards trades one card for another suit."""
    taken: Taken = []
    for value, count, suit in allocation:
        copies: list[tuple[int, int]] = []
        for each in (suit,) if suit is not None else range(4):
            have = grid[value][each]
            kept = min(reserved[value][each], have)
            copies += [(0, each)] * (have - kept) + [(1, each)] * kept
        if len(copies) < count:
            return None
        copies.sort()
        taken += [(value, each) for _, each in copies[:count]]
    if unflush and len({each for _, each in taken}) == 1:
        only = taken[0][1]
        swaps = [
            (int(reserved[value][other] >= grid[value][other]), position, other)
            for position, (value, _) in enumerate(taken)
            for other in range(4)
            if other != only and grid[value][other]
        ]
        if not swaps:
            return None
        _, position, other = min(swaps)
        taken[position] = (taken[position][0], other)
    return taken


def _suit_masks(grid: Grid, suit: int, layer: int) -> int:
    """Sequence positions 1…14 (ace at both ends) where the hand holds ``layer`` copies of the suit."""
    bits = 0
    for value in range(2, 15):
        if grid[value][suit] >= layer:
            bits |= 1 << value
    if bits & (1 << 14):
        bits |= 2
    return bits


def _reserved(grid: Grid, wilds: int) -> Grid:
    """Copies in straight-flush windows: five positions of one suit the hand holds, or completes with
    its remaining wild cards (a second copy counts for a second window)."""
    reserved = [[0] * 4 for _ in range(15)]
    for suit in range(4):
        for layer in (1, 2):
            bits = _suit_masks(grid, suit, layer)
            marked = 0
            for window in _WINDOW_MASKS:
                inside = bits & window
                if inside and 5 - inside.bit_count() <= wilds:
                    marked |= inside
            if marked & 2:
                marked |= 1 << 14
            for value in range(2, 15):
                if marked >> value & 1:
                    reserved[value][suit] += 1
    return reserved


def _score(grid: Grid, taken: Taken, wilds: int) -> tuple[int, int, int]:
    """What the rest of the hand keeps: straight-flush windows it can still make, bombs, bomb cards."""
    rest = [list(row) for row in grid]
    for value, suit in taken:
        rest[value][suit] -= 1
    windows = 0
    for suit in range(4):
        for layer in (1, 2):
            bits = _suit_masks(rest, suit, layer)
            windows += sum(1 for window in _WINDOW_MASKS if 5 - (bits & window).bit_count() <= wilds)
    naturals = [sum(row) for row in rest[2:]]
    bombs = [count for count in naturals if count >= 4]
    return windows, len(bombs), sum(bombs)


__all__ = [
    "ACTION_TABLE",
    "MAX_WILDS",
    "NUM_ACTIONS",
    "PASS_INDEX",
    "RETURN_BASE",
    "TRIBUTE_BASE",
    "ActionSpec",
    "IllegalActionError",
    "Mask",
    "UnsupportedRulesError",
    "action_index",
    "action_indices",
    "action_of",
    "available_plays",
    "check_rules",
    "concrete_play",
    "legal_action_mask",
    "play_mask",
    "pure_concrete_play",
    "pure_play_mask",
    "spec_of_play",
]
