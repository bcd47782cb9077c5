"""The numeric encoding of one seat's observation, and of candidate actions (docs/rl.md, "The
observation vector").

:func:`encode_observation` turns an :class:`~cardroom.guandan.observation.Observation` into a flat
``float32`` vector of :data:`OBSERVATION_SIZE` entries, every one 0 or 1 (so ``int8`` storage is
lossless). :data:`SLICES` names its parts. Seats are relative to the observer: 0 itself, 1 its 下家
(who plays after it), 2 its partner, 3 its 上家. Card sets are two planes over the 54 card types in
print order (``SB HR S2 H2 C2 D2 S3 …``): the first 54 entries mark a card held at least once, the next
54 held twice.

:func:`action_features` describes one card-level action (a play, a tribute or a return card) for agents
that score each legal action (the DouZero / DanZero style); :func:`legal_action_features` stacks it for
every legal action of an observation.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Final

import numpy as np
import numpy.typing as npt

from cardroom.cards import ALL_CARDS, Card, Rank, Suit
from cardroom.guandan import native
from cardroom.guandan.deal import Action, EventKind, Phase, PlayAction, ReturnAction, TributeAction
from cardroom.guandan.observation import Observation
from cardroom.guandan.plays import Play, PlayKind

Vector = npt.NDArray[np.float32]

CARD_TYPES: Final = len(ALL_CARDS)
CARD_PLANES: Final = 2 * CARD_TYPES
"""Entries of a card set: 54 'at least one copy', then 54 'two copies'."""
MAX_COUNT: Final = 28
"""The most cards a seat holds: 27, and 28 for a receiver between tribute and return."""
HISTORY_DEPTH: Final = 2
"""Recent actions kept per seat in ``recent``."""
PLAY_KINDS: Final = tuple(PlayKind(value) for value in range(PlayKind.SINGLE, PlayKind.FOUR_JOKERS + 1))
"""The ten competition kinds, single … four jokers (the order of their one-hot entries)."""
RANKS: Final = tuple(Rank)
"""2 … A, small joker, big joker: the order of rank one-hot entries."""
PHASES: Final = ("tribute", "return", "play")
"""Phases with their own entry; anything else (over, dealing) sets the fourth."""

_PARTS: Final = (
    ("hand", CARD_PLANES),
    ("hand_wilds", 3),
    ("unseen", CARD_PLANES),
    ("played", 4 * CARD_PLANES),
    ("known", 3 * CARD_TYPES),
    ("card_counts", 4 * (MAX_COUNT + 1)),
    ("places", 4 * 4),
    ("own_level", 13),
    ("other_level", 13),
    ("level_rank", 13),
    ("level_team", 3),
    ("phase", 4),
    ("to_act", 5),
    ("trick_leader", 5),
    ("to_beat_seat", 5),
    ("to_beat_cards", CARD_PLANES),
    ("to_beat_kind", len(PLAY_KINDS)),
    ("to_beat_rank", len(RANKS)),
    ("recent", 4 * HISTORY_DEPTH * (CARD_PLANES + 1)),
)


def _slices() -> dict[str, slice]:
    slices: dict[str, slice] = {}
    start = 0
    for name, size in _PARTS:
        slices[name] = slice(start, start + size)
        start += size
    return slices


SLICES: Final[dict[str, slice]] = _slices()
"""Each named part of the observation vector (docs/rl.md describes them one by one)."""
OBSERVATION_SIZE: Final = sum(size for _, size in _PARTS)


def _set_cards(indices: list[int], start: int, cards: Iterable[Card]) -> None:
    """Append the entries of a card set (two planes) starting at ``start``."""
    seen: set[int] = set()
    for card in cards:
        index = card.index
        if index in seen:
            indices.append(start + CARD_TYPES + index)
        else:
            seen.add(index)
            indices.append(start + index)


def card_planes(cards: Iterable[Card]) -> Vector:
    """A card set as its two planes of 54 (the layout of every card part of the encoding)."""
    indices: list[int] = []
    _set_cards(indices, 0, cards)
    vector = np.zeros(CARD_PLANES, dtype=np.float32)
    vector[indices] = 1.0
    return vector


def _relative(seat: int | None, me: int) -> int:
    """0–3 relative to the observer; 4 for nobody."""
    return 4 if seat is None else (seat - me) % 4


def _rank_slot(rank: Rank) -> int:
    return int(rank) - 2


_AT: Final = {name: part.start for name, part in SLICES.items()}
_PLANE_COLUMNS: Final = np.arange(CARD_TYPES)
_PLAYED: Final = _AT["played"] + CARD_PLANES * np.arange(4)[:, None] + _PLANE_COLUMNS
_KNOWN: Final = _AT["known"] + CARD_TYPES * np.arange(3)[:, None] + _PLANE_COLUMNS


def _planes_on(counts: npt.NDArray[np.int64], at: npt.NDArray[np.int64]) -> npt.NDArray[np.int64]:
    """The entries of card sets held as counts (rows of 54) whose first planes start at ``at``."""
    return np.concatenate((at[counts >= 1], at[counts >= 2] + CARD_TYPES))


_CORE_ENCODES: Final = native.register_encoding(
    [(name, part.start) for name, part in SLICES.items()],
    OBSERVATION_SIZE,
    MAX_COUNT,
    HISTORY_DEPTH,
    (EventKind.PLAY, EventKind.PASS, EventKind.TRICK, EventKind.TRIBUTE, EventKind.RETURN),
    tuple(Phase(phase) for phase in PHASES),
)
"""Whether the compiled core encodes observations (native/src/encoding.cpp)."""


def encode_observation(observation: Observation) -> Vector:
    """The observation as a flat ``float32`` vector of :data:`OBSERVATION_SIZE` zeros and ones: from the
    compiled core where it is loaded, else :func:`pure_encode_observation` (the tests hold them equal)."""
    if _CORE_ENCODES and native.serves(observation.rules):
        return native.encode_observation(observation)
    return pure_encode_observation(observation)


def pure_encode_observation(observation: Observation) -> Vector:
    """:func:`encode_observation` in Python and NumPy: the reference."""
    me = observation.seat
    at = _AT
    on: list[int] = []
    hand = observation.hand
    level = observation.level
    wild = Card(level, Suit.HEARTS)
    _set_cards(on, at["hand"], hand)
    on.append(at["hand_wilds"] + min(2, hand.count(wild)))

    played = [[0] * CARD_TYPES for _ in range(4)]
    recent: list[list[Play | None]] = [[], [], [], []]
    known = [[0] * CARD_TYPES for _ in range(4)]
    trick_leader: int | None = None
    trick_open = False
    play_event, pass_event, trick_event = EventKind.PLAY, EventKind.PASS, EventKind.TRICK
    given_events = (EventKind.TRIBUTE, EventKind.RETURN)
    for event in observation.history:
        kind = event.kind
        seat = event.seat
        if kind is play_event and seat is not None and event.play is not None:
            relative = (seat - me) % 4
            counts, held = played[relative], known[relative]
            for card in event.play.cards:
                index = card.index
                counts[index] += 1
                if held[index]:
                    held[index] -= 1
            recent[relative].append(event.play)
            if not trick_open:
                trick_open, trick_leader = True, seat
        elif kind is pass_event and seat is not None:
            recent[(seat - me) % 4].append(None)
        elif kind is trick_event:
            trick_open, trick_leader = False, None
        elif kind in given_events and event.card is not None and event.to is not None:
            giver = _relative(seat, me)
            index = event.card.index
            if giver < 4 and known[giver][index]:
                known[giver][index] -= 1
            known[(event.to - me) % 4][index] += 1

    played_counts = np.array(played)
    seen = played_counts.sum(axis=0)
    for card in hand:
        seen[card.index] += 1
    unseen = 2 - seen
    vector = np.zeros(OBSERVATION_SIZE, dtype=np.float32)
    vector[_planes_on(played_counts, _PLAYED)] = 1.0
    vector[_KNOWN[np.array(known[1:]) > 0]] = 1.0
    vector[_planes_on(unseen, _PLANE_COLUMNS + at["unseen"])] = 1.0

    for seat, count in enumerate(observation.card_counts):
        on.append(at["card_counts"] + _relative(seat, me) * (MAX_COUNT + 1) + min(count, MAX_COUNT))
    finished = observation.finished
    for seat in range(4):
        place = finished.index(seat) + 1 if seat in finished else 0
        on.append(at["places"] + _relative(seat, me) * 4 + min(place, 3))

    team = me % 2
    on.append(at["own_level"] + _rank_slot(observation.levels[team]))
    on.append(at["other_level"] + _rank_slot(observation.levels[1 - team]))
    on.append(at["level_rank"] + _rank_slot(level))
    level_team = observation.level_team
    on.append(at["level_team"] + (2 if level_team is None else int(level_team != team)))
    phase = observation.phase.value
    on.append(at["phase"] + (PHASES.index(phase) if phase in PHASES else 3))
    on.append(at["to_act"] + _relative(observation.current_player, me))
    on.append(at["trick_leader"] + _relative(trick_leader, me))
    on.append(at["to_beat_seat"] + _relative(observation.previous_seat, me))
    previous = observation.previous
    if previous is not None and previous.rank is not None:
        _set_cards(on, at["to_beat_cards"], previous.cards)
        on.append(at["to_beat_kind"] + PLAY_KINDS.index(previous.kind))
        on.append(at["to_beat_rank"] + _rank_slot(previous.rank))

    step = CARD_PLANES + 1
    for relative in range(4):
        for depth, play in enumerate(reversed(recent[relative][-HISTORY_DEPTH:])):
            base = at["recent"] + (relative * HISTORY_DEPTH + depth) * step
            if play is None:
                on.append(base + CARD_PLANES)
            else:
                _set_cards(on, base, play.cards)

    vector[on] = 1.0
    return vector


# -- candidate actions ---------------------------------------------------------------------------

ACTION_TYPES: Final = ("pass", *(kind.name.lower() for kind in PLAY_KINDS), "tribute", "return")
"""The order of the action-type one-hot in :func:`action_features`."""
MAX_PLAY_SIZE: Final = 10

_FEATURE_PARTS: Final = (
    ("cards", CARD_PLANES),
    ("type", len(ACTION_TYPES)),
    ("rank", len(RANKS)),
    ("wilds", 3),
    ("size", MAX_PLAY_SIZE + 1),
    ("goes_out", 1),
    ("bomb", 1),
)


def _feature_slices() -> dict[str, slice]:
    slices: dict[str, slice] = {}
    start = 0
    for name, size in _FEATURE_PARTS:
        slices[name] = slice(start, start + size)
        start += size
    return slices


FEATURE_SLICES: Final[dict[str, slice]] = _feature_slices()
"""Each named part of an action's feature vector."""
ACTION_FEATURE_SIZE: Final = sum(size for _, size in _FEATURE_PARTS)


def _feature_indices(action: Action | Play, observation: Observation) -> list[int]:
    at = {name: part.start for name, part in FEATURE_SLICES.items()}
    on: list[int] = []
    if isinstance(action, TributeAction | ReturnAction):
        card = action.card
        on.append(at["cards"] + card.index)
        on.append(
            at["type"] + ACTION_TYPES.index("tribute" if isinstance(action, TributeAction) else "return")
        )
        on.append(at["rank"] + _rank_slot(card.rank))
        on.append(at["wilds"])
        on.append(at["size"] + 1)
        return on
    play = action.play if isinstance(action, PlayAction) else action
    if play.kind is PlayKind.PASS or play.rank is None:
        on += [at["type"], at["wilds"], at["size"]]
        return on
    _set_cards(on, at["cards"], play.cards)
    on.append(at["type"] + ACTION_TYPES.index(play.kind.name.lower()))
    on.append(at["rank"] + _rank_slot(play.rank))
    wild = Card(observation.level, Suit.HEARTS)
    on.append(at["wilds"] + min(2, play.cards.count(wild)))
    on.append(at["size"] + min(MAX_PLAY_SIZE, len(play.cards)))
    if len(play.cards) == len(observation.hand):
        on.append(at["goes_out"])
    if play.kind.is_bomb:
        on.append(at["bomb"])
    return on


def action_features(action: Action | Play, observation: Observation) -> Vector:
    """One card-level action as a ``float32`` vector of :data:`ACTION_FEATURE_SIZE` zeros and ones:
    the cards it moves, its type, key rank, wild cards used, size, whether it empties the hand and
    whether it is a bomb-class play."""
    vector = np.zeros(ACTION_FEATURE_SIZE, dtype=np.float32)
    vector[_feature_indices(action, observation)] = 1.0
    return vector


_CORE_FEATURES: Final = native.register_features(
    [(name, part.start) for name, part in FEATURE_SLICES.items()],
    ACTION_FEATURE_SIZE,
    MAX_PLAY_SIZE,
    (ACTION_TYPES.index("tribute"), ACTION_TYPES.index("return")),
    (TributeAction, ReturnAction, PlayAction),
)
"""Whether the compiled core makes the feature rows (native/src/encoding.cpp)."""


def legal_action_features(observation: Observation) -> Vector:
    """:func:`action_features` of every one of ``observation.legal_actions``, one row each: from the
    compiled core where it is loaded, else :func:`pure_legal_action_features`."""
    if _CORE_FEATURES and native.serves(observation.rules):
        return native.action_features(observation)
    return pure_legal_action_features(observation)


def pure_legal_action_features(observation: Observation) -> Vector:
    """:func:`legal_action_features` in Python and NumPy: the reference."""
    actions = observation.legal_actions
    matrix = np.zeros((len(actions), ACTION_FEATURE_SIZE), dtype=np.float32)
    for row, action in enumerate(actions):
        matrix[row, _feature_indices(action, observation)] = 1.0
    return matrix


__all__ = [
    "ACTION_FEATURE_SIZE",
    "ACTION_TYPES",
    "CARD_PLANES",
    "FEATURE_SLICES",
    "HISTORY_DEPTH",
    "OBSERVATION_SIZE",
    "SLICES",
    "Vector",
    "action_features",
    "card_planes",
    "encode_observation",
    "legal_action_features",
    "pure_encode_observation",
    "pure_legal_action_features",
]
