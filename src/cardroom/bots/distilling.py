"""The examples the distilled network learns from (:mod:`cardroom.bots.distilled`): the search's own
decisions in self-play, each alternative with the gain the search measured for it.

Four search bots (:class:`GainRecorder`: the default search, every candidate valued on every sample, no
alternative dropped half-way) play matches with tribute (:data:`cardroom.bots.fitting.MAX_MATCH_DEALS`
deals at most). At each play-phase decision with more than one candidate, every alternative gives one
example: :func:`~cardroom.bots.distilled.decision_inputs` and its mean gain over the heuristic's choice on
the search's samples. ``cardroom train --target distilled`` trains on them
(:mod:`cardroom.bots.training`).
"""

from __future__ import annotations

import random
from collections.abc import Iterator

import numpy as np
import numpy.typing as npt

from cardroom.bots.distilled import INPUTS, decision_inputs
from cardroom.bots.fitting import MAX_MATCH_DEALS
from cardroom.bots.sampling import HandSampler
from cardroom.bots.search import SearchBot, trick_values
from cardroom.guandan.match import Match
from cardroom.guandan.observation import Observation
from cardroom.guandan.plays import Play
from cardroom.guandan.ruleset import COMPETITION, RuleSet

Array = npt.NDArray[np.float64]


class GainRecorder(SearchBot):
    """The search bot, keeping at each weighed decision the inputs of its alternatives and the gains it
    measured for them (``records``: one ``(inputs, gains)`` pair a decision). Every candidate is valued on
    all the samples; the choice is then the search's own rule (:meth:`SearchBot._clear_best`)."""

    def __init__(self, rng: random.Random) -> None:
        super().__init__(rng)
        self.records: list[tuple[Array, Array]] = []

    def weigh(self, observation: Observation, candidates: list[Play]) -> int:
        planner = self.policy.planner(observation.level)
        values: list[list[float]] = [[] for _ in candidates]
        sampler = HandSampler.for_observation(observation)
        for _ in range(self.samples):
            hands = sampler.sample(self.rng)
            found = trick_values(
                observation, hands, candidates, self.policy, self.evaluate, planner, self.team_search
            )
            for index, value in enumerate(found):
                values[index].append(value)
        proposal = np.asarray(values[0])
        gains = np.array([np.mean(np.asarray(values[index]) - proposal) for index in range(1, len(values))])
        self.records.append((decision_inputs(observation, candidates, planner), gains))
        return self._clear_best(values, range(len(candidates)))


def search_selfplay(
    deals: int, rng: random.Random, rules: RuleSet = COMPETITION
) -> Iterator[tuple[Array, Array]]:
    """The recorded decisions of ``deals`` deals of search self-play (matches of up to
    :data:`MAX_MATCH_DEALS` deals, with tribute): one ``(inputs, gains)`` pair a weighed decision."""
    played = 0
    while played < deals:
        match = Match(rules, max_deals=MAX_MATCH_DEALS)
        bots = [GainRecorder(random.Random(rng.getrandbits(32))) for _ in range(4)]
        while not match.is_over and played < deals:
            match.deal_random(rng)
            while (seat := match.current_player) is not None:
                bot = bots[seat]
                before = len(bot.records)
                match.apply(bot.act(match.observation(seat)))
                yield from bot.records[before:]
                del bot.records[before:]
            played += 1


def gain_examples(deals: int, seed: int) -> tuple[npt.NDArray[np.float32], Array]:
    """Every alternative of ``deals`` deals of search self-play, seeded: the inputs (float32) and the
    search's gains."""
    inputs: list[Array] = []
    gains: list[Array] = []
    for rows, found in search_selfplay(deals, random.Random(seed)):
        inputs.append(rows)
        gains.append(found)
    if not inputs:
        return np.zeros((0, len(INPUTS)), np.float32), np.zeros(0)
    return np.concatenate(inputs).astype(np.float32), np.concatenate(gains)


__all__ = ["GainRecorder", "gain_examples", "search_selfplay"]
