"""The compiled rules core (``cardroom._core``: C++20 in ``native/``, bound with nanobind) under the pure
engine's API, and the packed play sets bulk users take.

The core lists card- and rank-level leads and follows and reads card sets for every rule set, its play
parameters passed as data (``huopin``'s long sequences, airplanes, star-ordered and chained bombs and
wild big jokers included), in the pure engine's order and values; runs the deal machine (tribute,
return, play, places) and random deals inside itself; serves the RL interfaces the action table's mask
and cards, the observation vector and the action features, their layouts registered by
:mod:`cardroom.rl`; and makes the bots' hand plans (:mod:`cardroom.bots.planning`). Everything stays
with the pure engine when the extension was not built (no compiler) or ``CARDROOM_PURE=1`` is set.
:func:`serves` says which engine answers; callers of :mod:`cardroom.guandan.moves` and
:mod:`cardroom.guandan.rankplays` never need to ask. The pure engine is the reference: the tests compare
the two on seeded positions of every preset (docs/performance.md).
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from functools import wraps
from types import ModuleType
from typing import TYPE_CHECKING, Any, Final, Protocol, TypeVar, overload

from cardroom.cards import ALL_CARDS, Card, Rank, Suit
from cardroom.guandan.plays import PASS, Play, PlayKind
from cardroom.guandan.ruleset import AceFailure, DoubleTributeLead, ReturnLimit, RuleSet

if TYPE_CHECKING:  # NumPy is imported where a column is asked for, not with the rules core
    import numpy as np
    import numpy.typing as npt

    from cardroom import _core as compiled

PURE_VARIABLE: Final = "CARDROOM_PURE"
"""Set to anything but ``""`` or ``0`` to force the pure-Python engine."""

ActionT = TypeVar("ActionT")
"""An action type made of a seat and a play (``cardroom.guandan.deal.PlayAction``)."""

Hand = Iterable[Card] | Mapping[Card, int]
"""Cards as an iterable, or a mapping of card to count (a deal's ``Counter``)."""


def _load() -> ModuleType | None:
    if os.environ.get(PURE_VARIABLE, "") not in ("", "0"):
        return None
    try:
        from cardroom import _core
    except ImportError:
        return None
    ranks = [None, None, *(Rank(value) for value in range(2, 17))]
    _core.register(ALL_CARDS, ranks, list(PlayKind), list(Suit), Play, PASS)
    return _core


CORE: Final = _load()
"""The compiled core, or ``None`` where the pure engine serves everything."""

NATIVE_KINDS: Final = frozenset(PlayKind(value) for value in range(1, 11))
"""The competition's kinds."""
EXTENDED_KINDS: Final = frozenset(PlayKind(value) for value in range(1, 14))
"""Every kind of a rule set with extended plays (a kind it lacks has no plays)."""


def serves(rules: RuleSet) -> bool:
    """Whether the compiled core answers for this rule set (every rule set, once the core is loaded:
    the play parameters are passed as data)."""
    return CORE is not None


def kinds_of(rules: RuleSet) -> frozenset[PlayKind]:
    """The kinds of play these rules have, which the core enumerates."""
    return EXTENDED_KINDS if rules.extended_plays else NATIVE_KINDS


def _per_rule_set(compute: Callable[[RuleSet], tuple[int, ...]]) -> Callable[[RuleSet], tuple[int, ...]]:
    """``compute`` remembered per rule-set object: a frozen dataclass hashes every field at each lookup
    of a ``functools.cache``, which costs more than the calls into the core it feeds."""
    known: dict[int, tuple[RuleSet, tuple[int, ...]]] = {}

    @wraps(compute)
    def remembered(rules: RuleSet) -> tuple[int, ...]:
        entry = known.get(id(rules))
        if entry is None or entry[0] is not rules:
            if len(known) >= 256:
                known.clear()
            entry = known[id(rules)] = (rules, compute(rules))
        return entry[1]

    return remembered


@_per_rule_set
def play_parameters(rules: RuleSet) -> tuple[int, ...]:
    """The rule set's play parameters as the core reads them (native/src/module.cpp, ``play_rules``)."""
    return (
        rules.natural_straight_flush_is_straight,
        rules.level_rank_high,
        rules.two_high,
        *rules.straight_lengths,
        *rules.tube_lengths,
        *rules.plate_lengths,
        rules.airplanes,
        rules.max_bomb_size,
        rules.three_jokers_bomb,
        *rules.chain_bomb_lengths,
        rules.big_joker_wild | rules.bombs_by_stars << 1,
    )


@_per_rule_set
def deal_parameters(rules: RuleSet) -> tuple[int, ...]:
    """The rule set's play and deal parameters (接风, tribute, return) as the core's deal machine reads
    them (native/src/module.cpp, ``deal_rules``)."""
    return (
        *play_parameters(rules),
        rules.lead_passes_to_partner,
        rules.anti_tribute_big_jokers,
        rules.small_jokers_exempt_payer,
        rules.double_tribute_by_place,
        rules.double_tribute_lead is DoubleTributeLead.LAST_PLACE,
        _RETURN_LIMITS.index(rules.return_limit),
        int(rules.return_limit_rank),
        rules.return_limit_by_face_value,
    )


_RETURN_LIMITS: Final = (ReturnLimit.ALWAYS, ReturnLimit.TO_PARTNER, ReturnLimit.NEVER)


@_per_rule_set
def match_parameters(rules: RuleSet) -> tuple[int, ...]:
    """The rule set's match parameters (levels, passing A, failures at A, the first deal) as the core's
    batched tables read them (native/src/vector_binding.cpp, ``match_rules``)."""
    return (
        *rules.partner_rises,
        rules.pass_ace_partner_place,
        rules.ace_failure_limit or 0,
        rules.ace_failure is AceFailure.OVERTHROWN,
        rules.tie_extra_deal,
        rules.first_deal_on_stage,
        rules.first_stage_without_rise,
    )


@contextmanager
def pure_engine() -> Iterator[None]:
    """Within the block every call takes the pure path, as ``CARDROOM_PURE=1`` does for a whole
    process: for timing the two engines side by side and checking one against the other in one run.
    It switches the module for every thread, so use it where nothing else runs meanwhile."""
    global CORE
    saved = CORE
    CORE = None  # type: ignore[misc]
    try:
        yield
    finally:
        CORE = saved  # type: ignore[misc]


def register_rank_play(rank_play_type: type) -> None:
    """Let the core make :class:`~cardroom.guandan.rankplays.RankPlay` values (called by that module)."""
    if CORE is not None:
        CORE.register_rank_play(rank_play_type)


def register_planner(unit_type: type, plan_type: type) -> None:
    """Let the core make the bots' plans (:class:`~cardroom.bots.planning.Unit` and
    :class:`~cardroom.bots.planning.Plan` values; called by that module)."""
    if CORE is not None:
        CORE.register_planner(unit_type, plan_type)


class PlaySet(Protocol):
    """A list of card-level plays that bulk users count, index, filter and sample without making one
    Python object per play: :class:`cardroom._core.PlaySet` (8 bytes a play, 24 where it must), or
    :class:`ListPlaySet` where the pure engine serves. ``to_list`` and indexing make :class:`Play`
    values; the columns are NumPy arrays in the order of the plays."""

    def __len__(self) -> int: ...
    def __getitem__(self, index: int) -> Play: ...
    def to_list(self) -> list[Play]: ...
    def actions(self, seat: int, action_type: Callable[[int, Play], ActionT]) -> tuple[ActionT, ...]:
        """Every play as ``action_type(seat, play)`` (a frozen dataclass of those two fields: the core
        makes them as its ``__init__`` would)."""
        ...

    def of_kind(self, kind: int) -> PlaySet: ...
    def match_entries(
        self, entries: list[Any], heads: dict[str, dict[str, int]], card_indices: dict[str, int]
    ) -> list[int]:
        """For each ``[type, rank, cards]`` entry (a protocol's action list), the index of the play with
        the same kind, key rank and cards, or -1. ``heads`` maps a type name to ``{rank letter: kind << 5
        | rank}``, ``card_indices`` a card name to its index; a cards field that is not a list reads as
        no cards (a pass)."""
        ...

    def index(self, play: Play) -> int: ...
    def kinds(self) -> npt.NDArray[np.uint8]: ...
    def ranks(self) -> npt.NDArray[np.uint8]:
        """Each play's key rank (:attr:`Play.rank`; 0 for a pass)."""
        ...

    def keys(self) -> npt.NDArray[np.int32]: ...
    def sizes(self) -> npt.NDArray[np.uint8]: ...
    def wild_counts(self) -> npt.NDArray[np.uint8]: ...
    def card_counts(self) -> npt.NDArray[np.uint8]: ...


class ListPlaySet:
    """The :class:`PlaySet` of plays the pure engine listed."""

    __slots__ = ("_plays",)

    def __init__(self, plays: Sequence[Play]) -> None:
        self._plays = list(plays)

    def __len__(self) -> int:
        return len(self._plays)

    @overload
    def __getitem__(self, index: int) -> Play: ...
    @overload
    def __getitem__(self, index: slice) -> list[Play]: ...
    def __getitem__(self, index: int | slice) -> Play | list[Play]:
        if isinstance(index, slice):
            return self._plays[index]
        try:
            return self._plays[index]
        except IndexError:
            raise IndexError("play index out of range") from None

    def __iter__(self) -> Iterator[Play]:
        return iter(self._plays)

    def to_list(self) -> list[Play]:
        return list(self._plays)

    def actions(self, seat: int, action_type: Callable[[int, Play], ActionT]) -> tuple[ActionT, ...]:
        return tuple(action_type(seat, play) for play in self._plays)

    def of_kind(self, kind: int) -> ListPlaySet:
        return ListPlaySet([play for play in self._plays if play.kind == kind])

    def match_entries(
        self, entries: list[Any], heads: dict[str, dict[str, int]], card_indices: dict[str, int]
    ) -> list[int]:
        found: dict[tuple[int, tuple[int, ...]] | None, int] = {}
        for index, play in enumerate(self._plays):
            key = (
                int(play.kind) << 5 | int(play.rank or 0),
                tuple(sorted(card.index for card in play.cards)),
            )
            found.setdefault(key, index)
        return [found.get(_entry_key(entry, heads, card_indices), -1) for entry in entries]

    def index(self, play: Play) -> int:
        try:
            return self._plays.index(play)
        except ValueError:
            raise ValueError("the play is not in this set") from None

    def kinds(self) -> npt.NDArray[np.uint8]:
        import numpy as np

        return np.array([play.kind for play in self._plays], dtype=np.uint8)

    def ranks(self) -> npt.NDArray[np.uint8]:
        import numpy as np

        return np.array([play.rank or 0 for play in self._plays], dtype=np.uint8)

    def keys(self) -> npt.NDArray[np.int32]:
        import numpy as np

        return np.array([play.key for play in self._plays], dtype=np.int32)

    def sizes(self) -> npt.NDArray[np.uint8]:
        import numpy as np

        return np.array([len(play.cards) for play in self._plays], dtype=np.uint8)

    def wild_counts(self) -> npt.NDArray[np.uint8]:
        import numpy as np

        return np.array([play.wild_count for play in self._plays], dtype=np.uint8)

    def card_counts(self) -> npt.NDArray[np.uint8]:
        import numpy as np

        counts = np.zeros((len(self._plays), len(ALL_CARDS)), dtype=np.uint8)
        for row, play in enumerate(self._plays):
            for card in play.cards:
                counts[row, card.index] += 1
        return counts


def _entry_key(
    entry: Any, heads: dict[str, dict[str, int]], card_indices: dict[str, int]
) -> tuple[int, tuple[int, ...]] | None:
    """:meth:`ListPlaySet.match_entries`'s reading of one entry (``None``: malformed)."""
    if not isinstance(entry, list) or len(entry) != 3:
        return None
    kind, rank, cards = entry
    if not isinstance(kind, str) or not isinstance(rank, str):
        return None
    head = heads.get(kind, {}).get(rank) if isinstance(heads.get(kind), dict) else None
    if not isinstance(head, int) or not 0 <= head < 1 << 10:
        return None
    indices: list[int] = []
    for name in cards if isinstance(cards, list) else ():
        index = card_indices.get(name) if isinstance(name, str) else None
        if not isinstance(index, int) or indices.count(index) == 2:
            return None
        indices.append(index)
    return head, tuple(sorted(indices))


def _core() -> ModuleType:
    if CORE is None:
        raise RuntimeError("the compiled core is not loaded (not built, or CARDROOM_PURE is set)")
    return CORE


def leads(hand: Hand, level: Rank, rules: RuleSet) -> PlaySet:
    """Every lead, from the core (:func:`serves` must hold)."""
    result: PlaySet = _core().card_leads(hand, level, play_parameters(rules))
    return result


def follows(hand: Hand, previous: Play, level: Rank, rules: RuleSet, *, with_pass: bool = False) -> PlaySet:
    """Every play that beats ``previous`` (a play of the competition's kinds), PASS first ``with_pass``,
    from the core."""
    result: PlaySet = _core().card_follows(
        hand,
        level,
        play_parameters(rules),
        previous.kind,
        len(previous.cards),
        previous.key,
        with_pass,
    )
    return result


def plays_of_kind(hand: Hand, level: Rank, rules: RuleSet, kind: PlayKind, above: int, size: int) -> PlaySet:
    """The plays of one kind with a key above ``above`` (and ``size`` cards when given), from the core."""
    result: PlaySet = _core().plays_of_kind(hand, level, play_parameters(rules), kind, above, size)
    return result


class _RankPlay(Protocol):
    @property
    def kind(self) -> PlayKind: ...
    @property
    def size(self) -> int: ...
    @property
    def key(self) -> int: ...


def rank_leads(hand: Hand, level: Rank, rules: RuleSet) -> list[Any]:
    """Every rank-level lead (:class:`~cardroom.guandan.rankplays.RankPlay` values), from the core."""
    result: list[Any] = _core().rank_leads(hand, level, play_parameters(rules))
    return result


def rank_follows(hand: Hand, previous: _RankPlay, level: Rank, rules: RuleSet) -> list[Any]:
    """Every rank-level play that beats ``previous``, from the core."""
    result: list[Any] = _core().rank_follows(
        hand, level, play_parameters(rules), previous.kind, previous.size, previous.key
    )
    return result


def random_playout(
    hands: Sequence[Hand],
    level: Rank,
    rules: RuleSet,
    *,
    current: int,
    finished: Sequence[int],
    last_play: tuple[int, Play] | None,
    passes: int,
    seed: int,
    trick_only: bool = False,
) -> tuple[list[tuple[int, Play]], list[int]]:
    """A play-phase position played on uniformly at random inside the core (to the end of the deal, or
    of the trick): the actions as (seat, play), and the places once the deal is over."""
    seat, play = last_play if last_play is not None else (-1, None)
    result: tuple[list[tuple[int, Play]], list[int]] = _core().random_playout(
        hands,
        level,
        current,
        finished,
        seat,
        play,
        passes,
        seed,
        deal_parameters(rules),
        trick_only,
    )
    return result


def deal_machine(
    hands: Sequence[Hand],
    level: Rank,
    rules: RuleSet,
    *,
    leader: int | None = None,
    previous_places: Sequence[int] | None = None,
) -> compiled.Deal:
    """A deal inside the core from the dealt hands (``cardroom._core.Deal``): a first deal names its
    ``leader``, a later one the ``previous_places`` that decide tribute, 抗贡 and return."""
    first = -1 if leader is None else leader
    deal: compiled.Deal = _core().Deal(hands, level, deal_parameters(rules), first, previous_places)
    return deal


def random_deals(count: int, seed: int, level: Rank, rules: RuleSet, *, tribute: bool = False) -> int:
    """Play ``count`` fresh deals uniformly at random inside the core (after random places, with
    ``tribute``), in one call without the interpreter lock; returns the actions played."""
    _, actions = _core().random_deals(count, seed, level, deal_parameters(rules), tribute)
    return int(actions)


def register_action_table(size: int, pass_index: int, plays: Iterable[tuple[int, ...]]) -> bool:
    """Give the core a fixed action table (``cardroom.rl.actions``): each play entry as (index, kind,
    key rank, cards, wild cards, suit or -1, pair's rank or -1). Returns whether the core took it."""
    if CORE is None:
        return False
    CORE.register_action_table(size, pass_index, list(plays))
    return True


def action_mask(hand: Hand, level: Rank, rules: RuleSet, previous: Play | None) -> npt.NDArray[np.int8]:
    """The legal entries of the registered action table, read from the hand's counts in the core: the
    leads, or passing and what beats ``previous``."""
    core, parameters = _core(), play_parameters(rules)
    if previous is None:
        result: npt.NDArray[np.int8] = core.action_mask(hand, level, parameters)
    else:
        result = core.action_mask(hand, level, parameters, previous.kind, len(previous.cards), previous.key)
    return result


def table_play(index: int, hand: Hand, level: Rank, rules: RuleSet) -> Play | None:
    """The cards the registered action table plays for a play entry from ``hand``, read as the entry
    names it (``cardroom.rl.actions.concrete_play``); ``None`` when the hand cannot make it."""
    result: Play | None = _core().table_play(index, hand, level, play_parameters(rules))
    return result


def register_encoding(
    starts: Sequence[tuple[str, int]],
    size: int,
    max_count: int,
    history_depth: int,
    event_kinds: Sequence[object],
    phases: Sequence[object],
) -> bool:
    """Give the core an observation vector's layout (``cardroom.rl.encoding``): each part's name and start,
    and the event kinds (play, pass, trick, tribute, return) and phases (tribute, return, play) it reads
    observations by. Returns whether the core took it."""
    if CORE is None:
        return False
    CORE.register_encoding(list(starts), size, max_count, history_depth, list(event_kinds), list(phases))
    return True


def encode_observation(observation: object) -> npt.NDArray[np.float32]:
    """The registered observation vector of an :class:`~cardroom.guandan.observation.Observation`."""
    result: npt.NDArray[np.float32] = _core().encode_observation(observation)
    return result


def register_features(
    parts: Sequence[tuple[str, int]],
    size: int,
    max_play_size: int,
    type_indices: tuple[int, int],
    action_types: Sequence[type],
) -> bool:
    """Give the core a candidate action's feature layout (``cardroom.rl.encoding``): each part's name
    and start, the type one-hot's entries for a tribute and a return, and the action classes
    (tribute, return, play). Returns whether the core took it."""
    if CORE is None:
        return False
    CORE.register_features(list(parts), size, max_play_size, *type_indices, list(action_types))
    return True


def action_features(observation: object) -> npt.NDArray[np.float32]:
    """The registered feature rows of an observation's legal actions, in their order."""
    result: npt.NDArray[np.float32] = _core().action_features(observation)
    return result


def vector_core(
    count: int,
    rules: RuleSet,
    *,
    reward_by_match: bool,
    max_deals: int | None,
    tribute_base: int,
    return_base: int,
    float_observations: bool,
) -> compiled.VectorCore:
    """``count`` tables stepped inside the core (``cardroom.rl.vector``), over the registered action
    table and observation layout."""
    made: compiled.VectorCore = _core().VectorCore(
        count,
        deal_parameters(rules),
        match_parameters(rules),
        int(reward_by_match),
        max_deals or 0,
        tribute_base,
        return_base,
        float_observations,
    )
    return made
