"""The value bot: a one-step choice by the learned value network, no search.

At a play-phase decision the search's candidate plays are listed (:meth:`SearchBot.candidates`: the
heuristic's choice first, a few alternatives, 顶牌). On each of ``samples`` determinisations
(:mod:`cardroom.bots.sampling`: the unseen cards dealt to fit what the seat has seen) every candidate is
played once, and the position right after it is valued for the bot's team by the network
(:mod:`cardroom.bots.value_net`; exactly, when the play ends the deal). Nothing is played further: the
candidate with the best mean value is played, unless it beats the heuristic's choice by less than
``min_gain`` (:data:`MIN_GAIN`).

Tribute and return, and decisions with a single legal action, are the heuristic's. The network is the
one shipped with the package (:data:`DEFAULT_WEIGHTS`), read from the installed files without network
access. Deterministic under its seed.
"""

from __future__ import annotations

import random
from functools import cache
from importlib import resources
from typing import TYPE_CHECKING

from cardroom.bots.base import register
from cardroom.bots.evaluation import places_value
from cardroom.bots.planning import Planner
from cardroom.bots.sampling import HandSampler, position_with
from cardroom.bots.search import SearchBot
from cardroom.guandan.deal import Action, Deal, PlayAction
from cardroom.guandan.observation import Observation

if TYPE_CHECKING:
    from cardroom.bots.value_net import ValueNet

DEFAULT_WEIGHTS = "value-v1.npz"
"""The network the bot loads by default, in ``cardroom/bots/weights/`` (docs/bots.md says how it was
trained)."""
DEFAULT_SAMPLES = 4
"""Determinisations per decision."""
MIN_GAIN = 0.0
"""Least mean gain over the heuristic's choice (in :func:`places_value` units) for another candidate to
be played."""


@cache
def default_net() -> ValueNet:
    """The shipped network (read once)."""
    from cardroom.bots.value_net import ValueNet

    with (resources.files("cardroom.bots") / "weights" / DEFAULT_WEIGHTS).open("rb") as file:
        return ValueNet.load(file)


class ValueBot:
    """The search's candidates, chosen between by the network's value one play ahead."""

    name = "value"

    def __init__(
        self,
        rng: random.Random,
        net: ValueNet | None = None,
        samples: int = DEFAULT_SAMPLES,
        min_gain: float = MIN_GAIN,
    ) -> None:
        if samples < 1:
            raise ValueError(f"samples must be at least 1, got {samples}")
        if min_gain < 0:
            raise ValueError(f"min_gain must not be negative, got {min_gain}")
        self.min_gain = min_gain
        self.rng = rng
        self.net = net if net is not None else default_net()
        self.samples = samples
        self.lister = SearchBot(rng)
        """Lists the candidates; its heuristic proposes the first and decides tribute and return."""

    def act(self, observation: Observation) -> Action:
        proposal, candidates = self.lister.proposal_and_candidates(observation)
        if not candidates:
            return proposal
        values = self.values(observation, [PlayAction(observation.seat, play) for play in candidates])
        best = max(range(len(candidates)), key=lambda index: (values[index], -index))
        if best == 0 or values[best] - values[0] < self.min_gain:
            return proposal
        return PlayAction(observation.seat, candidates[best])

    def values(self, observation: Observation, actions: list[PlayAction]) -> list[float]:
        """Each action's mean value for the bot's team over the samples, one play ahead."""
        import numpy as np

        from cardroom.bots.value_net import encode

        seat = observation.seat
        planner = self.lister.policy.planner(observation.level)
        totals = [0.0] * len(actions)
        rows, owners = [], []
        sampler = HandSampler.for_observation(observation)
        for _ in range(self.samples):
            hands = sampler.sample(self.rng)
            for index, action in enumerate(actions):
                deal = position_with(observation, hands)
                deal.apply(action)
                if deal.result is not None:
                    totals[index] += places_value(deal.result.places, seat, deal.rules)
                else:
                    rows.append(encode(deal, seat, planner))
                    owners.append(index)
        if rows:
            for index, value in zip(owners, self.net.predict(np.stack(rows)), strict=True):
                totals[index] += float(value)
        return [total / self.samples for total in totals]


register("value")(ValueBot)


def network_value(deal: Deal, seat: int, planner: Planner) -> float:
    """The shipped network's value of a position for ``seat``'s team (exact once the deal is over)."""
    from cardroom.bots.value_net import encode

    if deal.result is not None:
        return places_value(deal.result.places, seat, deal.rules)
    return float(default_net().predict(encode(deal, seat, planner)[None, :])[0])


@register("search-value")
def search_value(rng: random.Random) -> SearchBot:
    """The search bot with the network in place of the fitted evaluation at each trick's end."""
    return SearchBot(rng, evaluate=network_value)
