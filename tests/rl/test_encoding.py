"""The observation encoding, slice by slice on known positions, and its invariants on random ones;
the candidate-action features."""

from __future__ import annotations

import dataclasses
import random

import pytest

pytest.importorskip("numpy")

import numpy as np
import numpy.typing as npt

from cardroom.cards import ALL_CARDS, Card, Rank, parse_cards
from cardroom.guandan import PASS, PlayKind, native
from cardroom.guandan.deal import PlayAction, ReturnAction, TributeAction
from cardroom.guandan.match import Match
from cardroom.guandan.observation import Observation
from cardroom.rl.encoding import (
    ACTION_FEATURE_SIZE,
    ACTION_TYPES,
    CARD_PLANES,
    FEATURE_SLICES,
    HISTORY_DEPTH,
    OBSERVATION_SIZE,
    PLAY_KINDS,
    SLICES,
    action_features,
    card_planes,
    encode_observation,
    legal_action_features,
    pure_encode_observation,
    pure_legal_action_features,
)
from tests.guandan.scenario import act, build_hands, play_match_deal

Vector = npt.NDArray[np.float32]

ONE_HOT = {
    "hand_wilds": 1,
    "card_counts": 4,
    "places": 4,
    "own_level": 1,
    "other_level": 1,
    "level_rank": 1,
    "level_team": 1,
    "phase": 1,
    "to_act": 1,
    "trick_leader": 1,
    "to_beat_seat": 1,
}
"""Parts with a fixed number of ones (one per one-hot group)."""


def part(vector: Vector, name: str) -> Vector:
    return vector[SLICES[name]]


def cards_of(planes: Vector) -> list[Card]:
    """The card multiset written in two planes."""
    found = []
    for index, card in enumerate(ALL_CARDS):
        found += [card] * (int(planes[index]) + int(planes[54 + index]))
    return found


def one_hot(size: int, at: int) -> Vector:
    vector = np.zeros(size, dtype=np.float32)
    vector[at] = 1
    return vector


def test_layout() -> None:
    """The parts tile the vector in order, and their sizes add up to OBSERVATION_SIZE."""
    start = 0
    for part_slice in SLICES.values():
        assert part_slice.start == start
        start = part_slice.stop
    assert start == OBSERVATION_SIZE == 2011
    assert sum(p.stop - p.start for p in FEATURE_SLICES.values()) == ACTION_FEATURE_SIZE == 152


def test_card_planes_mark_one_and_two_copies() -> None:
    planes = card_planes(parse_cards("SB S3 S3 HR"))
    assert planes.sum() == 4
    assert planes[0] == planes[1] == 1  # SB, HR
    s3 = Card.parse("S3").index
    assert planes[s3] == planes[54 + s3] == 1
    assert sorted(cards_of(planes)) == sorted(parse_cards("SB S3 S3 HR"))


def known_trick() -> Match:
    """Seat 0 leads 33, seat 1 answers 44, seats 2 and 3 pass: seat 0 is to act on 44."""
    match = Match()
    hands = build_hands("H2 H2 S3 S3 C3 SA SK", "S4 S4 D9", "S5 S5", "SB HR")
    deal = match.deal(hands, leader=0)
    act(deal, 0, "S3 S3")
    act(deal, 1, "S4 S4")
    act(deal, 2, "")
    act(deal, 3, "")
    return match


def test_a_known_position_slice_by_slice() -> None:
    match = known_trick()
    observation = match.observation(0)
    vector = encode_observation(observation)
    assert vector.shape == (OBSERVATION_SIZE,)
    assert vector.dtype == np.float32
    assert sorted(cards_of(part(vector, "hand"))) == sorted(observation.hand)
    assert len(observation.hand) == 25
    assert part(vector, "hand_wilds").tolist() == [0, 0, 1]  # both ♥2 at level 2
    played = part(vector, "played").reshape(4, CARD_PLANES)
    assert cards_of(played[0]) == list(parse_cards("S3 S3"))  # itself
    assert cards_of(played[1]) == list(parse_cards("S4 S4"))  # its 下家, seat 1
    assert not played[2].any()
    assert not played[3].any()
    unseen = cards_of(part(vector, "unseen"))
    assert len(unseen) == 108 - 25 - 4
    assert Card.parse("S3") not in unseen
    assert unseen.count(Card.parse("C3")) == 1
    assert not part(vector, "known").any()
    counts = part(vector, "card_counts").reshape(4, 29)
    assert [int(row.argmax()) for row in counts] == [25, 25, 27, 27]
    assert [int(row.argmax()) for row in part(vector, "places").reshape(4, 4)] == [0, 0, 0, 0]
    assert (part(vector, "own_level") == one_hot(13, 0)).all()  # level 2
    assert (part(vector, "other_level") == one_hot(13, 0)).all()
    assert (part(vector, "level_rank") == one_hot(13, 0)).all()
    assert part(vector, "level_team").tolist() == [0, 0, 1]  # the first deal is nobody's level
    assert part(vector, "phase").tolist() == [0, 0, 1, 0]
    assert part(vector, "to_act").tolist() == [1, 0, 0, 0, 0]
    assert part(vector, "trick_leader").tolist() == [1, 0, 0, 0, 0]
    assert part(vector, "to_beat_seat").tolist() == [0, 1, 0, 0, 0]
    assert cards_of(part(vector, "to_beat_cards")) == list(parse_cards("S4 S4"))
    assert (part(vector, "to_beat_kind") == one_hot(10, PLAY_KINDS.index(PlayKind.PAIR))).all()
    assert (part(vector, "to_beat_rank") == one_hot(15, Rank.FOUR - 2)).all()
    recent = part(vector, "recent").reshape(4, HISTORY_DEPTH, CARD_PLANES + 1)
    assert cards_of(recent[0, 0, :CARD_PLANES]) == list(parse_cards("S3 S3"))
    assert cards_of(recent[1, 0, :CARD_PLANES]) == list(parse_cards("S4 S4"))
    assert recent[2, 0, CARD_PLANES] == 1
    assert recent[3, 0, CARD_PLANES] == 1
    assert not recent[:, 1].any()  # nobody has a second action yet


def test_seats_are_relative_to_the_observer() -> None:
    """Seat 2 sees seat 0 as its partner (2) and seat 1 as its 上家 (3)."""
    vector = encode_observation(known_trick().observation(2))
    played = part(vector, "played").reshape(4, CARD_PLANES)
    assert cards_of(played[2]) == list(parse_cards("S3 S3"))
    assert cards_of(played[3]) == list(parse_cards("S4 S4"))
    assert part(vector, "to_act").tolist() == [0, 0, 1, 0, 0]
    assert part(vector, "to_beat_seat").tolist() == [0, 0, 0, 1, 0]
    assert part(vector, "trick_leader").tolist() == [0, 0, 1, 0, 0]
    assert [int(row.argmax()) for row in part(vector, "card_counts").reshape(4, 29)] == [27, 27, 25, 25]


def test_tribute_and_return_cards_are_known_where_seen() -> None:
    """Seat 0 took 上游 with its partner 下游: seat 2 pays seat 0 (public), seat 0 returns a card to seat 2
    (seen by the two of them only). Levels: team 0 rose one, and deal 2 is its level."""
    match = Match()
    play_match_deal(match, random.Random(2), 0, 4)
    match.deal_random(random.Random(3))
    deal = match.deals[-1]
    tribute = deal.legal_actions()[0]
    assert isinstance(tribute, TributeAction)
    assert tribute.seat == 2
    match.apply(tribute)
    give = deal.legal_actions()[0]
    assert isinstance(give, ReturnAction)
    assert give.seat == 0
    match.apply(give)

    def known(seat: int) -> list[list[int]]:
        rows = part(encode_observation(match.observation(seat)), "known").reshape(3, 54)
        return [np.flatnonzero(row).tolist() for row in rows]

    assert known(1) == [[], [], [tribute.card.index]]  # seat 0 is seat 1's 上家
    assert known(2) == [[], [tribute.card.index], []]  # seat 0 is seat 2's partner
    assert known(0) == [[], [give.card.index], []]  # seat 2 holds the returned card
    assert known(3) == [[tribute.card.index], [], []]  # seat 0 is seat 3's 下家
    vector = encode_observation(match.observation(0))
    assert (part(vector, "own_level") == one_hot(13, Rank.THREE - 2)).all()
    assert (part(vector, "other_level") == one_hot(13, 0)).all()
    assert (part(vector, "level_rank") == one_hot(13, Rank.THREE - 2)).all()
    assert part(vector, "level_team").tolist() == [1, 0, 0]
    assert part(encode_observation(match.observation(1)), "level_team").tolist() == [0, 1, 0]


def check_invariants(observation: Observation) -> None:
    vector = encode_observation(observation)
    assert set(np.unique(vector).tolist()) <= {0.0, 1.0}
    for name, ones in ONE_HOT.items():
        assert part(vector, name).sum() == ones, name
    for name in ("hand", "unseen", "to_beat_cards"):
        planes = part(vector, name)
        assert (planes[54:] <= planes[:54]).all(), name  # a second copy only with a first
    total = len(cards_of(part(vector, "hand"))) + len(cards_of(part(vector, "unseen")))
    played = part(vector, "played").reshape(4, CARD_PLANES)
    total += sum(len(cards_of(row)) for row in played)
    assert total == 108


def test_random_observations_keep_the_invariants() -> None:
    """Every seat's view over random matches: values 0/1, one-hot groups with one 1 each, and hand +
    unseen + played = 108 cards."""
    rng = random.Random(17)
    match = Match(max_deals=3)
    while not match.is_over:
        if match.phase.value == "dealing":
            match.deal_random(rng)
        seat = match.current_player
        assert seat is not None
        for other in range(4):
            check_invariants(match.observation(other))
        match.apply(rng.choice(match.legal_actions()))


@pytest.mark.parametrize("seed", [17, 18, 19])
def test_the_cores_encoding_is_the_pure_one(seed: int) -> None:
    """Where the compiled core encodes, its vector equals the Python one for every seat's view over
    random matches: tribute, return (seen by two seats only), plays, passes, 接风 and finished seats;
    and so do the feature rows of the legal actions of the seat to act."""
    if native.CORE is None:
        pytest.skip("the compiled core is not built")
    rng = random.Random(seed)
    match = Match(max_deals=4)
    phases = set()
    while True:
        if match.phase.value == "dealing":
            match.deal_random(rng)
        for other in range(4):
            view = match.observation(other)
            phases.add(view.phase.value)
            assert np.array_equal(encode_observation(view), pure_encode_observation(view))
            if view.legal_actions:
                rows = legal_action_features(view)
                assert rows.shape == (len(view.legal_actions), ACTION_FEATURE_SIZE)
                assert np.array_equal(rows, pure_legal_action_features(view))
        if match.is_over:
            break
        match.apply(rng.choice(match.legal_actions()))
    assert {"tribute", "return", "play", "over"} <= phases


def test_the_cores_encoding_refuses_what_is_no_observation() -> None:
    """Bad input through the binding raises, naming what is wrong."""
    if native.CORE is None:
        pytest.skip("the compiled core is not built")
    view = Match().observation(0)
    with pytest.raises(AttributeError, match="seat"):
        native.encode_observation(object())
    with pytest.raises(ValueError, match="seat is 0-3"):
        native.encode_observation(dataclasses.replace(view, seat=7))
    with pytest.raises(ValueError, match="SA is held more than twice"):
        native.encode_observation(dataclasses.replace(view, hand=parse_cards("SA SA SA")))
    with pytest.raises(ValueError, match="part 0 must be hand"):
        native.register_encoding([("played", 0)] * 19, OBSERVATION_SIZE, 28, 2, [None] * 5, [None] * 3)
    with pytest.raises(TypeError, match="not a Guandan action"):
        native.action_features(dataclasses.replace(view, legal_actions=("SA",)))  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="part 0 must be cards"):
        native.register_features([("type", 0)] * 7, ACTION_FEATURE_SIZE, 10, (11, 12), [object] * 3)


def test_action_features() -> None:
    match = known_trick()
    observation = match.observation(0)
    bomb = next(
        action
        for action in observation.legal_actions
        if isinstance(action, PlayAction) and action.play.kind is PlayKind.BOMB
    )
    features = action_features(bomb, observation)
    assert features.shape == (ACTION_FEATURE_SIZE,)

    def hot(name: str) -> list[int]:
        return np.flatnonzero(features[FEATURE_SLICES[name]]).tolist()

    assert hot("type") == [ACTION_TYPES.index("bomb")]
    assert hot("bomb") == [0]
    assert hot("size") == [len(bomb.play.cards)]
    assert hot("wilds") == [bomb.play.cards.count(Card.parse("H2"))]
    assert sorted(cards_of(features[FEATURE_SLICES["cards"]])) == sorted(bomb.play.cards)
    passing = action_features(PlayAction(0, PASS), observation)
    assert np.flatnonzero(passing).tolist() == [
        FEATURE_SLICES["type"].start,
        FEATURE_SLICES["wilds"].start,
        FEATURE_SLICES["size"].start,
    ]
    tribute = action_features(TributeAction(0, Card.parse("SA")), observation)
    assert tribute[FEATURE_SLICES["type"]][ACTION_TYPES.index("tribute")] == 1
    assert tribute[FEATURE_SLICES["rank"]][Rank.ACE - 2] == 1
    matrix = legal_action_features(observation)
    assert matrix.shape == (len(observation.legal_actions), ACTION_FEATURE_SIZE)
    assert (matrix[observation.legal_actions.index(bomb)] == features).all()


def test_a_play_emptying_the_hand_is_marked() -> None:
    observation = known_trick().observation(0)
    play = next(a for a in observation.legal_actions if isinstance(a, PlayAction) and not a.play.is_pass)
    assert action_features(play, observation)[FEATURE_SLICES["goes_out"]][0] == 0
    last = dataclasses.replace(observation, hand=play.play.cards)
    assert action_features(play, last)[FEATURE_SLICES["goes_out"]][0] == 1
