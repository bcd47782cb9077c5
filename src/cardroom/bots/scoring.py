"""Scoring the search's decision rule offline, against what its choices would really have brought.

Heuristic self-play (:func:`cardroom.bots.fitting.selfplay_deals`: matches with tribute, as for the
fitting) is stopped at a sample of its play-phase decisions. At each, the search's candidates
(:meth:`SearchBot.candidates`: the heuristic's play first) are played on the real hands and the deal
finished by the heuristic at every seat; the outcome for the deciding seat's team
(:func:`cardroom.bots.evaluation.places_value`) labels each candidate. A setting of the search, which
sees only the observation, is then scored by the mean gain of its choices: the label of the candidate it
picks less the label of the heuristic's. Every setting is scored on the same decisions, so two are
compared decision by decision, which resolves differences that a few hundred arena deals cannot.

``python -m cardroom.bots.scoring --deals 400 --seed 9000 --decisions 2000 --setting 16:1.5 --setting
32:2.0`` labels the decisions of 400 deals, scores the first 2,000 under each setting (``SAMPLES:Z[:MIN_GAIN
[:CANDIDATES[:TOP]]]``: samples, the bar's standard errors and least gain, the candidates weighed, and
whether 顶牌 is weighed too) and prints each one's mean gain and its difference from the first setting's
(docs/bots.md has the figures).
"""

from __future__ import annotations

import argparse
import math
import random
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from typing import NamedTuple

from cardroom.bots.evaluation import places_value
from cardroom.bots.fitting import selfplay_deals
from cardroom.bots.heuristic import HeuristicBot
from cardroom.bots.playout import play_out
from cardroom.bots.sampling import position_with
from cardroom.bots.search import CONFIDENCE_Z, DEFAULT_SAMPLES, MAX_CANDIDATES, MIN_GAIN, SearchBot
from cardroom.cards import Card
from cardroom.guandan.deal import Phase, PlayAction
from cardroom.guandan.observation import Observation
from cardroom.guandan.plays import Play
from cardroom.guandan.ruleset import COMPETITION, RuleSet

DEFAULT_RATE = 0.3
"""The share of self-play's play-phase decisions that are labelled (neighbouring decisions of one deal
say much the same)."""


class LabelledDecision(NamedTuple):
    """A decision of self-play: the deciding seat's view, the search's candidates (the heuristic's play
    first) and the outcome each would have brought, played on the real hands."""

    observation: Observation
    candidates: tuple[Play, ...]
    outcomes: tuple[int, ...]


class Setting(NamedTuple):
    """The search's budget, bar and breadth (:class:`SearchBot`)."""

    samples: int = DEFAULT_SAMPLES
    confidence_z: float = CONFIDENCE_Z
    min_gain: float = MIN_GAIN
    max_candidates: int = MAX_CANDIDATES
    top_follow: bool = True

    @classmethod
    def parse(cls, text: str) -> Setting:
        """``SAMPLES:Z[:MIN_GAIN[:CANDIDATES[:TOP]]]``, e.g. ``32:2.0``, ``16:1.5:0.1:6`` or
        ``16:1.5:0.1:4:0`` (TOP ``0`` leaves 顶牌 out, ``1`` weighs it)."""
        parts = text.split(":")
        if 2 <= len(parts) <= 5 and (len(parts) < 5 or parts[4] in ("0", "1")):
            try:
                return cls(
                    int(parts[0]),
                    float(parts[1]),
                    float(parts[2]) if len(parts) > 2 else MIN_GAIN,
                    int(parts[3]) if len(parts) > 3 else MAX_CANDIDATES,
                    parts[4] == "1" if len(parts) > 4 else True,
                )
            except ValueError:
                pass
        raise ValueError(
            "a setting is SAMPLES:Z[:MIN_GAIN[:CANDIDATES[:TOP]]] (e.g. 32:2.0 or 16:1.5:0.1:4:0), "
            f"got {text!r}"
        )

    def bot(self, rng: random.Random) -> SearchBot:
        return SearchBot(
            rng, self.samples, self.min_gain, self.confidence_z, self.max_candidates, self.top_follow
        )


def outcome(
    observation: Observation, hands: Sequence[Sequence[Card]], play: Play, policy: HeuristicBot
) -> int:
    """What ``play`` brings the deciding seat's team when the seats hold ``hands`` and ``policy`` plays
    the rest of the deal at every seat."""
    deal = position_with(observation, hands)
    deal.apply(PlayAction(observation.seat, play))
    play_out(deal, policy, observation)
    assert deal.result is not None
    return places_value(deal.result.places, observation.seat, deal.rules)


def labelled_decisions(
    deals: int,
    seed: int,
    rate: float = DEFAULT_RATE,
    candidates: int = MAX_CANDIDATES,
    rules: RuleSet = COMPETITION,
) -> list[LabelledDecision]:
    """The labelled decisions of ``deals`` deals of heuristic self-play, each decision with more than one
    candidate kept with probability ``rate``, with up to ``candidates`` candidates labelled (and 顶牌,
    :func:`cardroom.bots.search.top_follow`, when it is not among them); seeded."""
    if deals < 0:
        raise ValueError(f"deals must not be negative, got {deals}")
    if not 0 < rate <= 1:
        raise ValueError(f"the rate must be in (0, 1], got {rate}")
    rng = random.Random(seed)
    policy = HeuristicBot(random.Random(seed))
    searcher = SearchBot(random.Random(seed), max_candidates=candidates)
    decisions: list[LabelledDecision] = []
    for match, deal, bots in selfplay_deals(deals, rng, rules):
        while (seat := match.current_player) is not None:
            observation = match.observation(seat)
            action = bots[seat].act(observation)
            eligible = observation.phase is Phase.PLAY and len(observation.legal_actions) > 1
            if eligible and rng.random() < rate:
                assert isinstance(action, PlayAction)
                plays = tuple(searcher.candidates(observation, action.play))
                if len(plays) > 1:
                    hands = [deal.hand(other) for other in range(4)]
                    outcomes = tuple(outcome(observation, hands, play, policy) for play in plays)
                    decisions.append(LabelledDecision(observation, plays, outcomes))
            match.apply(action)
    return decisions


def gains(decisions: Sequence[LabelledDecision], chosen: Sequence[int]) -> list[int]:
    """Decision by decision, the outcome of the chosen candidate less that of the heuristic's."""
    if len(chosen) != len(decisions):
        raise ValueError(f"{len(chosen)} choices for {len(decisions)} decisions")
    return [
        decision.outcomes[index] - decision.outcomes[0]
        for decision, index in zip(decisions, chosen, strict=True)
    ]


def mean_and_error(values: Sequence[float]) -> tuple[float, float]:
    """The mean and its standard error."""
    if len(values) < 2:
        raise ValueError("a standard error needs at least two values")
    mean = sum(values) / len(values)
    variance = sum((value - mean) ** 2 for value in values) / (len(values) - 1)
    return mean, math.sqrt(variance / len(values))


def _choices_of(job: tuple[Sequence[LabelledDecision], Setting, int, int]) -> list[int]:
    decisions, setting, seed, start = job
    chosen = []
    for index, decision in enumerate(decisions):
        bot = setting.bot(random.Random(seed * 1_000_003 + start + index))
        candidates = bot.candidates(decision.observation, decision.candidates[0])
        missing = [play for play in candidates if play not in decision.candidates]
        if missing:
            raise ValueError(
                f"decision {start + index} was labelled with fewer candidates than the setting weighs "
                f"(not labelled: {missing[0]}): label with at least {setting.max_candidates}"
            )
        best = bot.weigh(decision.observation, candidates) if len(candidates) > 1 else 0
        chosen.append(decision.candidates.index(candidates[best]))
    return chosen


def choices(
    decisions: Sequence[LabelledDecision], setting: Setting, seed: int = 0, workers: int = 1, chunk: int = 50
) -> list[int]:
    """The index (in the labelled candidates) of the candidate the search picks at each decision under
    ``setting``, among those its bot weighs (:meth:`SearchBot.candidates`): a fresh bot per decision,
    seeded by ``seed`` and the decision's index (the same answer over any number of ``workers``)."""
    if workers <= 1:
        return _choices_of((decisions, setting, seed, 0))
    jobs = [
        (decisions[start : start + chunk], setting, seed, start) for start in range(0, len(decisions), chunk)
    ]
    with ProcessPoolExecutor(workers) as pool:
        return [index for part in pool.map(_choices_of, jobs) for index in part]


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--deals", type=int, default=400)
    parser.add_argument("--seed", type=int, default=9000)
    parser.add_argument(
        "--decisions", type=int, default=2000, help="how many of the labelled decisions to score"
    )
    parser.add_argument(
        "--setting",
        type=Setting.parse,
        action="append",
        help="SAMPLES:Z[:MIN_GAIN[:CANDIDATES[:TOP]]]; the first is the reference",
    )
    parser.add_argument("--workers", type=int, default=2)
    arguments = parser.parse_args(argv)
    settings: list[Setting] = arguments.setting or [Setting(16, 1.5), Setting()]
    breadth = max(setting.max_candidates for setting in settings)
    decisions = labelled_decisions(arguments.deals, arguments.seed, candidates=breadth)[: arguments.decisions]
    print(f"{len(decisions)} labelled decisions from {arguments.deals} deals (seed {arguments.seed})")
    if len(decisions) < 2:
        raise SystemExit("too few decisions to score: play more deals")
    reference: list[int] = []
    for setting in settings:
        chosen = choices(decisions, setting, arguments.seed, arguments.workers)
        scored = gains(decisions, chosen)
        mean, error = mean_and_error(scored)
        switched = sum(index != 0 for index in chosen) / len(chosen)
        line = (
            f"{setting.samples} samples, bar {setting.min_gain} at {setting.confidence_z} standard errors, "
            f"{setting.max_candidates} candidates{'' if setting.top_follow else ' without 顶牌'}: "
            f"switched {100 * switched:.1f}%, mean gain {mean:+.4f} ± {error:.4f}"
        )
        if reference:
            difference, difference_error = mean_and_error(
                [a - b for a, b in zip(scored, reference, strict=True)]
            )
            line += f"; against the first {difference:+.4f} ± {difference_error:.4f}"
        else:
            reference = scored
        print(line)


if __name__ == "__main__":
    main()
