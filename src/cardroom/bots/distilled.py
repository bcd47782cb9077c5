"""The search distilled into a network: what the search would gain by another play than the heuristic's,
predicted from what the seat sees, with no sampling and no playout.

At a play-phase decision the search's candidates are listed (:meth:`SearchBot.candidates`: the
heuristic's choice first, then passing, the heuristic's next leads, the lowest play of each kind and
size, 顶牌). For each alternative the network (:class:`~cardroom.bots.value_net.ValueNet`, a small NumPy
MLP) reads :func:`decision_inputs`: the table as the seat sees it (card counts, who made the play to
beat, the cards still unseen and the seat's own by rank order, its plan), and the alternative and the
heuristic's choice each with the seat's plan after it. It predicts the mean gain the search
(:mod:`cardroom.bots.search`, 16 samples, the team's follows searched) finds for that alternative over
the heuristic's choice. The bot plays the alternative with the highest predicted gain when it reaches
``min_gain``, else the heuristic's choice. Trained by :mod:`cardroom.bots.distilling` on the search's
own decisions in self-play. The tribute is the heuristic's; the return card (还贡) the search's
(:meth:`SearchBot.choose_return`, once a deal), unless ``return_search`` is off.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from functools import cache
from importlib import resources

import numpy as np
import numpy.typing as npt

from cardroom.bots.base import register
from cardroom.bots.heuristic import unseen_counts
from cardroom.bots.planning import Planner
from cardroom.bots.sampling import passes_on
from cardroom.bots.search import SearchBot
from cardroom.bots.value_net import ValueNet
from cardroom.cards import Card, Suit
from cardroom.guandan.deal import HAND_SIZE, Action, Phase, PlayAction
from cardroom.guandan.observation import Observation
from cardroom.guandan.plays import Play, PlayKind, rank_orders
from cardroom.guandan.tribute import partner

Array = npt.NDArray[np.float64]

ORDERS = 16
"""Rank orders 2…17 (the line of ranks at the deal's level, jokers on top) as indices 0…15."""

POSITION_INPUTS = (
    "own cards",
    "next's cards",
    "partner's cards",
    "previous's cards",
    "next is out",
    "partner is out",
    "previous is out",
    "leading",
    "the play to beat is the partner's",
    "the play to beat is next's",
    "the play to beat is previous's",
    "its cards",
    "it is a bomb",
    "its key (plain plays)",
    "passes since",
    "an opponent has 10 cards or fewer",
    "unseen wild cards",
    "own wild cards",
    *(f"unseen at order {order}" for order in range(2, 18)),
    *(f"own at order {order}" for order in range(2, 18)),
)
"""What the table contributes to each row (:func:`position_inputs`), the seat's plan aside."""

PLAN_INPUTS = ("plain plays", "bombs", "plan cost", "cards")
"""The seat's plan of a hand: now, after the alternative and after the heuristic's choice."""

PLAY_INPUTS = (
    "passes",
    "is a bomb",
    "cards",
    "key (plain plays)",
    "wild cards",
    "goes out",
    "beats the partner",
    *(f"kind {kind.name.lower()}" for kind in PlayKind if kind is not PlayKind.PASS),
)
"""What a play contributes (:func:`play_inputs`)."""

INPUTS = (
    *POSITION_INPUTS,
    *(f"plan now: {name}" for name in PLAN_INPUTS),
    *(f"alternative: {name}" for name in PLAY_INPUTS),
    *(f"plan after the alternative: {name}" for name in PLAN_INPUTS),
    *(f"heuristic's: {name}" for name in PLAY_INPUTS),
    *(f"plan after the heuristic's: {name}" for name in PLAN_INPUTS),
)
"""The network's inputs, in order (:func:`decision_inputs`)."""


def position_inputs(observation: Observation) -> list[float]:
    """The table as ``observation``'s seat sees it (:data:`POSITION_INPUTS`)."""
    seat = observation.seat
    counts = observation.card_counts
    around = [(seat + step) % 4 for step in (1, 2, 3)]
    finished = observation.finished
    previous = observation.previous
    owner = observation.previous_seat if previous is not None else None
    level = observation.level
    orders = rank_orders(level, observation.rules)
    wild = Card(level, Suit.HEARTS)
    unseen = unseen_counts(observation.hand, observation.history, level)
    unseen_by_order = [0.0] * ORDERS
    for rank in range(2, 17):
        unseen_by_order[orders[rank] - 2] += unseen[rank] / 8.0
    own_by_order = [0.0] * ORDERS
    own_wilds = 0
    for card in observation.hand:
        if card is wild:
            own_wilds += 1
        else:
            own_by_order[orders[card.rank] - 2] += 1 / 8.0
    bomb = previous is not None and previous.kind.is_bomb
    opponents = [other for other in (around[0], around[2]) if other not in finished]
    return [
        counts[seat] / HAND_SIZE,
        *(counts[other] / HAND_SIZE for other in around),
        *(float(other in finished) for other in around),
        float(previous is None),
        float(owner == partner(seat)),
        float(owner == around[0]),
        float(owner == around[2]),
        len(previous.cards) / 10.0 if previous is not None else 0.0,
        float(bomb),
        previous.key / 17.0 if previous is not None and not bomb else 0.0,
        passes_on(observation) / 3.0,
        float(any(counts[other] <= 10 for other in opponents)),
        unseen[0] / 2.0,
        own_wilds / 2.0,
        *unseen_by_order,
        *own_by_order,
    ]


def plan_inputs(hand: Sequence[Card], planner: Planner) -> list[float]:
    """The seat's plan of ``hand`` (:data:`PLAN_INPUTS`)."""
    if not hand:
        return [0.0, 0.0, 0.0, 0.0]
    plan = planner.plan(hand)
    return [len(plan.plain) / 10.0, len(plan.bombs) / 4.0, plan.cost / 10.0, len(hand) / HAND_SIZE]


def play_inputs(observation: Observation, play: Play) -> list[float]:
    """What ``play`` is, at this position (:data:`PLAY_INPUTS`)."""
    kinds = [float(play.kind is kind) for kind in PlayKind if kind is not PlayKind.PASS]
    bomb = play.kind.is_bomb
    beats_partner = (
        not play.is_pass
        and observation.previous is not None
        and observation.previous_seat == partner(observation.seat)
    )
    return [
        float(play.is_pass),
        float(bomb),
        len(play.cards) / 10.0,
        play.key / 17.0 if not bomb and not play.is_pass else 0.0,
        play.wild_count / 2.0,
        float(len(play.cards) == len(observation.hand)),
        float(beats_partner),
        *kinds,
    ]


def decision_inputs(observation: Observation, candidates: Sequence[Play], planner: Planner) -> Array:
    """One row of :data:`INPUTS` for each alternative ``candidates[1:]`` to the heuristic's
    ``candidates[0]``."""
    hand = list(observation.hand)
    table = position_inputs(observation) + plan_inputs(hand, planner)
    described = [
        play_inputs(observation, play) + plan_inputs(_without(hand, play.cards), planner)
        for play in candidates
    ]
    rows = [table + alternative + described[0] for alternative in described[1:]]
    return np.asarray(rows, dtype=np.float64).reshape(len(rows), len(INPUTS))


def _without(hand: list[Card], cards: Sequence[Card]) -> list[Card]:
    left = list(hand)
    for card in cards:
        left.remove(card)
    return left


DEFAULT_WEIGHTS = "distilled-v1.npz"
"""The network the bot loads by default, in ``cardroom/bots/weights/`` (docs/bots.md says how it was
trained)."""
MIN_GAIN = 0.1
"""Least predicted gain over the heuristic's choice for an alternative to be played (the search's own
least gain, :data:`cardroom.bots.search.MIN_GAIN`)."""


@cache
def default_net() -> ValueNet:
    """The shipped network (read once)."""
    with (resources.files("cardroom.bots") / "weights" / DEFAULT_WEIGHTS).open("rb") as file:
        return ValueNet.load(file, len(INPUTS))


class DistilledBot:
    """The heuristic's play, replaced where the network predicts the search would replace it."""

    name = "distilled"

    def __init__(
        self,
        rng: random.Random,
        net: ValueNet | None = None,
        min_gain: float = MIN_GAIN,
        return_search: bool = True,
    ) -> None:
        if min_gain < 0:
            raise ValueError(f"min_gain must not be negative, got {min_gain}")
        self.net = net if net is not None else default_net()
        if self.net.inputs != len(INPUTS):
            raise ValueError(f"the network reads {self.net.inputs} inputs; the bot gives {len(INPUTS)}")
        self.min_gain = min_gain
        self.lister = SearchBot(rng, return_search=return_search)
        """Lists the candidates; its heuristic proposes the first and decides the tribute; the return
        card is its search's (:meth:`SearchBot.choose_return`) or, without ``return_search``, the
        heuristic's."""

    def act(self, observation: Observation) -> Action:
        if observation.phase is Phase.RETURN:
            return self.lister.act(observation)
        proposal, candidates = self.lister.proposal_and_candidates(observation)
        if not candidates:
            return proposal
        gains = self.gains(observation, candidates)
        best = int(np.argmax(gains))
        if gains[best] < self.min_gain:
            return proposal
        return PlayAction(observation.seat, candidates[best + 1])

    def gains(self, observation: Observation, candidates: Sequence[Play]) -> Array:
        """The predicted gain of each alternative ``candidates[1:]`` over the heuristic's
        ``candidates[0]``."""
        planner = self.lister.policy.planner(observation.level)
        return self.net.predict(decision_inputs(observation, candidates, planner))


register("distilled")(DistilledBot)
