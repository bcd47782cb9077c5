"""The search bot: determinised Monte-Carlo search (perfect-information Monte Carlo).

For each decision in the play phase it samples the unseen cards consistent with what the seat has seen
(:mod:`cardroom.bots.sampling`), tries each candidate play on every sample, plays the deal out with the
greedy policy (:mod:`cardroom.bots.playout`) and picks the candidate with the best average outcome for
its team. Candidates are the rank-level plays (and passing), each as one concrete card choice. Tribute
and return, and decisions with a single legal action, go to the fallback bot. Deterministic under its
seed: the budget is a number of playouts, not a time.
"""

from __future__ import annotations

import random

from cardroom.bots.base import Bot, register
from cardroom.bots.playout import play_out
from cardroom.bots.random_bot import RandomBot
from cardroom.bots.sampling import position_with, sample_hands
from cardroom.guandan.deal import Action, Deal, PlayAction
from cardroom.guandan.observation import Observation
from cardroom.guandan.plays import PASS, Play
from cardroom.guandan.rankplays import RankCounts, iter_rank_follows, iter_rank_leads, rank_play_of
from cardroom.guandan.tribute import team_of

DEFAULT_PLAYOUTS = 240
"""Playouts per decision, shared among the candidates."""
MAX_CANDIDATES = 12


def outcome(deal: Deal, seat: int) -> float:
    """A finished deal's value for ``seat``'s team: the level rise when the team took 上游 (+3/+2/+1),
    minus the rise the other team made."""
    assert deal.result is not None
    rise = deal.result.rise(deal.rules)
    return rise if team_of(deal.result.places[0]) == team_of(seat) else -rise


class SearchBot:
    """Determinised Monte-Carlo search with greedy playouts."""

    name = "search"

    def __init__(
        self, rng: random.Random, playouts: int = DEFAULT_PLAYOUTS, fallback: Bot | None = None
    ) -> None:
        if playouts < 1:
            raise ValueError(f"playouts must be at least 1, got {playouts}")
        self.rng = rng
        self.playouts = playouts
        self.fallback = fallback if fallback is not None else _default_fallback(rng)

    def act(self, observation: Observation) -> Action:
        actions = observation.legal_actions
        if not actions:
            raise ValueError(f"seat {observation.seat} has no legal action: it is not its turn")
        if observation.phase != "play" or len(actions) == 1:
            return self.fallback.act(observation)
        candidates = self.candidates(observation)
        if len(candidates) == 1:
            return PlayAction(observation.seat, candidates[0])
        totals = [0.0] * len(candidates)
        rounds = max(1, self.playouts // len(candidates))
        for _ in range(rounds):
            hands = sample_hands(observation, self.rng)
            for index, play in enumerate(candidates):
                deal = position_with(observation, hands)
                deal.apply(PlayAction(observation.seat, play))
                play_out(deal)
                totals[index] += outcome(deal, observation.seat)
        best = max(range(len(candidates)), key=lambda index: (totals[index], -index))
        return PlayAction(observation.seat, candidates[best])

    def candidates(self, observation: Observation) -> list[Play]:
        """The plays worth searching: every rank-level play (lowest keys first, at most
        ``MAX_CANDIDATES`` of the non-bombs, every bomb-class play) and passing when following."""
        view = RankCounts(observation.hand, observation.level, observation.rules)
        previous = observation.previous
        ranked = (
            iter_rank_leads(view) if previous is None else iter_rank_follows(view, rank_play_of(previous))
        )
        plays = sorted(ranked, key=lambda play: (play.kind.is_bomb, play.key, -play.size))
        plain = [play for play in plays if not play.kind.is_bomb][:MAX_CANDIDATES]
        bombs = [play for play in plays if play.kind.is_bomb]
        chosen = [
            play.to_play(observation.hand, observation.level, observation.rules) for play in plain + bombs
        ]
        return chosen if previous is None else [PASS, *chosen]


def _default_fallback(rng: random.Random) -> Bot:
    from cardroom.bots.base import BOTS

    factory = BOTS.get("heuristic")
    return factory(rng) if factory is not None else RandomBot(rng)


register("search")(SearchBot)
