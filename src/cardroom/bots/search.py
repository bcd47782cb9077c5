"""The search bot: the heuristic, corrected by determinised Monte-Carlo search.

At each play-phase decision the heuristic bot proposes its action; a few alternatives (passing; when
leading, the heuristic's next plays by its own ranking; the lowest rank-level play of each kind and
size; when following a plain play, the highest that beats it, 顶牌) are weighed against it. For each
of ``samples`` determinisations (:mod:`cardroom.bots.sampling`: the unseen cards dealt to fit what the
seat has seen) every candidate is played, the trick is played to its end with the heuristic at the
opponents' seats and, at the bot's own team's later turns in the trick, the follow a one-level search on
that sample finds best (:func:`searched_follow`: the heuristic's play, passing, the lowest plain play
that beats, the lowest bomb; ``team_search``), and the position reached is valued for the bot's team
by :func:`cardroom.bots.evaluation.position_value` (the expected outcome over finishing orders, from the
four plans). The candidates share the samples, so they are compared pair by pair on
the same cards. An alternative replaces the heuristic's choice only when its mean gain is at least
``min_gain`` and ``confidence_z`` standard errors above zero (by default :data:`MIN_GAIN` and
:data:`CONFIDENCE_Z`; :mod:`cardroom.bots.scoring` compares settings): a noisy estimate that merely
looks better is not followed. Halfway through, alternatives that are not ahead are dropped. (Valuing
the end of the trick rather than the end of the deal is what makes the search worth running: a
played-out deal's value swings so much between samples that 16 of them cannot tell most candidates
apart; docs/bots.md has the figures.) The playouts run in the compiled core when it is loaded
(native/src/search.cpp, the same values to the bit).

The return card (还贡) after a single tribute is searched too (:meth:`SearchBot.choose_return`, valued
where play starts), and the tribute card where asked (``tribute_search``, off by default:
:meth:`SearchBot.choose_tribute`); returns after a double tribute and decisions with a single legal
action are the heuristic's. Deterministic under
its seed: the budget is a number of samples, not a time — unless ``move_time`` is given (anytime: more
samples while the time lasts, up to ``max_samples``; then the choice depends on the machine's speed).
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Sequence
from dataclasses import replace

from cardroom.bots.base import register
from cardroom.bots.evaluation import WEIGHTS, position_value
from cardroom.bots.heuristic import HeuristicBot
from cardroom.bots.planning import Planner
from cardroom.bots.playout import observe_position, play_next, play_trick
from cardroom.bots.sampling import HandSampler, passes_on, position_with
from cardroom.cards import Card
from cardroom.guandan import native
from cardroom.guandan.deal import (
    HAND_SIZE,
    Action,
    Deal,
    Event,
    EventKind,
    Phase,
    PlayAction,
    ReturnAction,
    TributeAction,
)
from cardroom.guandan.observation import Observation
from cardroom.guandan.plays import PASS, Play, PlayKind
from cardroom.guandan.rankplays import RankCounts, iter_rank_follows, iter_rank_leads, rank_play_of
from cardroom.guandan.tribute import TributePlan, partner, return_cards

DEFAULT_SAMPLES = 16
"""Determinisations per decision; each candidate is played to the end of the trick once on each."""
MAX_CANDIDATES = 4
"""The heuristic's choice and at most three alternatives (and 顶牌 when following, :func:`top_follow`)."""
MIN_GAIN = 0.1
"""Least mean gain (in :func:`cardroom.bots.evaluation.places_value` units) for an alternative to replace
the heuristic's choice."""
CONFIDENCE_Z = 1.5
"""… and the gain must stand this many standard errors above zero."""
PLAN_LEADS = 2
"""When leading, how many of the heuristic's next plays by its own ranking are weighed
(:meth:`HeuristicBot.lead_options`)."""

Hands = Sequence[Sequence[Card]]
"""The four hands of a sample, by seat."""

Evaluate = Callable[[Deal, int, Planner], float]
"""Values a position reached at a trick's end for a seat's team (the fitted
:func:`~cardroom.bots.evaluation.position_value` by default)."""


class SearchBot:
    """The heuristic's play, replaced where the search shows a clearly better one."""

    name = "search"

    def __init__(
        self,
        rng: random.Random,
        samples: int = DEFAULT_SAMPLES,
        min_gain: float = MIN_GAIN,
        confidence_z: float = CONFIDENCE_Z,
        max_candidates: int = MAX_CANDIDATES,
        top_follow: bool = True,
        team_search: bool = True,
        return_search: bool = True,
        tribute_search: bool = False,
        evaluate: Evaluate = position_value,
        move_time: float | None = None,
        max_samples: int | None = None,
        clock: Callable[[], float] = time.perf_counter,
    ) -> None:
        if samples < 2:
            raise ValueError(f"samples must be at least 2 (a gain needs a spread), got {samples}")
        if max_candidates < 1:
            raise ValueError(
                f"max_candidates must be at least 1 (the heuristic's play), got {max_candidates}"
            )
        if min_gain < 0 or confidence_z < 0:
            raise ValueError(
                f"the bar must not be negative, got min_gain={min_gain}, confidence_z={confidence_z}"
            )
        if move_time is not None and not move_time > 0:
            raise ValueError(f"move_time: seconds, more than 0, or None, got {move_time!r}")
        if max_samples is not None and max_samples < samples:
            raise ValueError(f"max_samples ({max_samples}) must not be below samples ({samples})")
        self.rng = rng
        self.samples = samples
        self.min_gain = min_gain
        self.confidence_z = confidence_z
        self.max_candidates = max_candidates
        self.top_follow = top_follow
        """Whether, when following a plain play, the highest play that beats it is weighed too."""
        self.team_search = team_search
        """Whether, in each sample, the team's own follows later in the trick are searched
        (:func:`searched_follow`) rather than played by the heuristic."""
        self.return_search = return_search
        """Whether the return card (还贡) is chosen by search (:meth:`choose_return`) rather than the
        heuristic."""
        self.tribute_search = tribute_search
        """Whether the tribute card (进贡) is chosen by search (:meth:`choose_tribute`) rather than the
        heuristic (off by default: scored against real outcomes, it gained nothing measurable)."""
        self.evaluate = evaluate
        self.move_time = move_time
        """Seconds a decision may take: past ``samples``, samples are drawn while time is left (the
        time a sample took is expected again), up to ``max_samples``. ``None``: exactly ``samples``."""
        self.max_samples = max_samples if max_samples is not None else samples * 8
        self.clock = clock
        self.proposer = HeuristicBot(rng)
        """Proposes the action to beat, the tribute and the return cards."""
        self.policy = HeuristicBot(rng)
        """Plays the trick on in the playouts (the opponents' seats, and the team's where not searched);
        its planner plans the hands for the evaluation."""

    def act(self, observation: Observation) -> Action:
        choice = len(observation.legal_actions) > 1
        if observation.phase is Phase.RETURN and self.return_search and choice:
            return self.choose_return(observation)
        if observation.phase is Phase.TRIBUTE and self.tribute_search and choice:
            return self.choose_tribute(observation)
        proposal, candidates = self.proposal_and_candidates(observation)
        if not candidates:
            return proposal
        best = self.weigh(observation, candidates)
        return proposal if best == 0 else PlayAction(observation.seat, candidates[best])

    def proposal_and_candidates(self, observation: Observation) -> tuple[Action, list[Play]]:
        """The heuristic's action and, at a play-phase decision with a choice, the plays to weigh
        (:meth:`candidates`, the proposal's play first); no candidates where there is nothing to weigh."""
        proposal = self.proposer.act(observation)
        if observation.phase is not Phase.PLAY or len(observation.legal_actions) == 1:
            return proposal, []
        assert isinstance(proposal, PlayAction)
        candidates = self.candidates(observation, proposal.play)
        return proposal, candidates if len(candidates) > 1 else []

    def candidates(self, observation: Observation, proposal: Play) -> list[Play]:
        """The plays weighed at a play-phase decision: the heuristic's ``proposal`` first, then
        :func:`alternatives` up to ``max_candidates`` in all; then, with ``top_follow`` and room for an
        alternative, the :func:`top_follow` when it is not among them already."""
        planned: list[Play] = []
        if observation.previous is None:
            planned = [action.play for action in self.proposer.lead_options(observation)[: PLAN_LEADS + 1]]
        found = [proposal, *alternatives(observation, proposal, planned)][: self.max_candidates]
        if self.top_follow and self.max_candidates > 1:
            top = top_follow(observation)
            if top is not None and top not in found:
                found.append(top)
        return found

    def weigh(self, observation: Observation, candidates: list[Play]) -> int:
        """The index of the candidate to play: 0 (the heuristic's) unless another is clearly better."""
        planner = self.policy.planner(observation.level)
        values: list[list[float]] = [[] for _ in candidates]
        alive = list(range(len(candidates)))
        started = self.clock()
        sampler = HandSampler.for_observation(observation)
        round_ = 0
        while self._another(round_, started):
            if round_ == self.samples // 2:
                alive = [0, *(index for index in alive[1:] if _mean_gain(values, index) > 0)]
                if len(alive) == 1:
                    return 0
            round_ += 1
            hands = sampler.sample(self.rng)
            plays = [candidates[index] for index in alive]
            found = trick_values(
                observation, hands, plays, self.policy, self.evaluate, planner, self.team_search
            )
            for index, value in zip(alive, found, strict=True):
                values[index].append(value)
        return self._clear_best(values, alive)

    def _clear_best(self, values: list[list[float]], alive: Sequence[int]) -> int:
        """The alternative (of ``alive``, 0 the proposal) with the highest mean gain over the shared
        samples that clears the bar; 0 when none does."""
        best, best_gain = 0, 0.0
        for index in alive[1:]:
            gain = _mean_gain(values, index)
            if (
                gain >= self.min_gain
                and gain > self.confidence_z * _gain_error(values, index)
                and gain > best_gain
            ):
                best, best_gain = index, gain
        return best

    def choose_return(self, observation: Observation) -> ReturnAction:
        """还贡 by search after a single tribute: the heuristic's return cards, best first
        (:meth:`HeuristicBot.return_options`, up to ``max_candidates``), each given on the same
        ``samples`` samples of the unseen cards and the position where play starts valued for the team
        (:func:`return_value`); another than the heuristic's only past the same bar as in play. After a
        double tribute (where the search gained nothing measurable: docs/bots.md) or where the
        observation does not tell who will lead (:func:`return_leader`), the heuristic's card."""
        options = self.proposer.return_options(observation)[: self.max_candidates]
        leader = return_leader(observation)
        tributes = sum(1 for event in observation.history if event.kind == EventKind.TRIBUTE)
        if len(options) == 1 or leader is None or tributes != 1:
            return options[0]
        planner = self.policy.planner(observation.level)

        def value(hands: Hands, card: Card) -> float:
            return return_value(observation, hands, card, leader, self.evaluate, planner)

        return options[self._best_card(observation, [option.card for option in options], value)]

    def choose_tribute(self, observation: Observation) -> TributeAction:
        """进贡 by search in a single tribute: the heuristic's tribute cards (all of the highest rank,
        so a choice of suit), best first (:meth:`HeuristicBot.tribute_options`, up to
        ``max_candidates``), each paid on the same ``samples`` samples of the unseen cards, the
        receiver's return made by the heuristic on its sampled hand, and the position where play starts
        valued for the team (:func:`tribute_value`); another than the heuristic's only past the bar.
        In a double tribute (the other payer's card unseen until both have paid) or without the
        previous deal's places, the heuristic's card."""
        options = self.proposer.tribute_options(observation)[: self.max_candidates]
        places = observation.previous_places
        if len(options) == 1 or places is None or len(TributePlan.from_places(places).payers) != 1:
            return options[0]
        receiver = TributePlan.from_places(places).receivers[0]
        planner = self.policy.planner(observation.level)

        def value(hands: Hands, card: Card) -> float:
            return tribute_value(observation, hands, card, receiver, self.policy, self.evaluate, planner)

        return options[self._best_card(observation, [option.card for option in options], value)]

    def _best_card(
        self, observation: Observation, cards: Sequence[Card], value: Callable[[Hands, Card], float]
    ) -> int:
        """The index of the card to give: 0 (the heuristic's) unless another, each ``value``d on the
        same ``samples`` samples, clears the bar."""
        values: list[list[float]] = [[] for _ in cards]
        sampler = HandSampler.for_observation(observation)
        for _ in range(self.samples):
            hands = sampler.sample(self.rng)
            for index, card in enumerate(cards):
                values[index].append(value(hands, card))
        return self._clear_best(values, range(len(cards)))

    def _another(self, done: int, started: float) -> bool:
        """Whether to draw one more sample after ``done``: up to ``samples``; with a ``move_time``, more
        while another sample (at the mean time of those drawn) still fits, up to ``max_samples``."""
        if done < self.samples:
            return True
        if self.move_time is None or done >= self.max_samples:
            return False
        spent = self.clock() - started
        return spent + spent / done <= self.move_time


def trick_values(
    observation: Observation,
    hands: Sequence[Sequence[Card]],
    plays: Sequence[Play],
    policy: HeuristicBot,
    evaluate: Evaluate,
    planner: Planner,
    team_search: bool = False,
) -> list[float]:
    """For each of ``plays`` by the seat to act: the play made at the observed position with these
    ``hands``, the trick played to its end by ``policy`` at every seat (with ``team_search``, the
    seat's team's follows by :func:`searched_follow`), the position reached valued for the seat's
    team. In the compiled core (native/src/search.cpp, the same values to the bit) when
    it is loaded and the policy (a plain :class:`HeuristicBot` at its default thresholds) and the
    evaluation are the default ones."""
    core = native.CORE
    default_policy = type(policy) is HeuristicBot and policy.thresholds() is None
    if core is not None and evaluate is position_value and default_policy:
        last = observation.previous
        found: list[float] = core.trick_values(
            hands,
            int(observation.level),
            observation.seat,
            list(observation.finished),
            observation.previous_seat if last is not None else -1,
            last,
            passes_on(observation),
            native.deal_parameters(observation.rules),
            plays,
            WEIGHTS,
            observation.rules.partner_rises,
            team_search,
        )
        return found
    values = []
    for play in plays:
        deal = position_with(observation, hands)
        deal.apply(PlayAction(observation.seat, play))
        if team_search:
            play_trick_searched(deal, policy, observation, evaluate, planner, observation.seat)
        else:
            play_trick(deal, policy, observation)
        values.append(evaluate(deal, observation.seat, planner))
    return values


def return_leader(observation: Observation) -> int | None:
    """Who leads the first trick once the returns are made, as the returning seat can tell it
    (:meth:`TributePlan.leader`: the one who paid 上游, or 下游 after a double tribute where the rules
    say so), when its return is the last one due; ``None`` while another receiver's return is still
    to come (a receiver holds 28 cards until it returns one). Without the previous deal's places (an
    observation built from the competition protocol) only after a single tribute, by its payer, under
    rule sets that excuse no payer."""
    tributes = {
        event.seat: event.to
        for event in observation.history
        if event.kind == EventKind.TRIBUTE and event.seat is not None and event.to is not None
    }
    places = observation.previous_places
    if places is None:
        if observation.rules.small_jokers_exempt_payer or len(tributes) != 1:
            return None
        return next(iter(tributes))
    counts = observation.card_counts
    if any(to != observation.seat and counts[to] > HAND_SIZE for to in tributes.values()):
        return None
    return TributePlan.from_places(places).leader(tributes, observation.rules)


def return_value(
    observation: Observation,
    hands: Sequence[Sequence[Card]],
    card: Card,
    payer: int,
    evaluate: Evaluate,
    planner: Planner,
) -> float:
    """The value for the returning seat's team of the position where play starts, ``card`` returned to
    ``payer`` (who then leads) from these ``hands``; in the compiled core with the default
    evaluation."""
    seat = observation.seat
    after = [list(hand) for hand in hands]
    after[seat].remove(card)
    after[payer].append(card)
    return start_value(observation, after, payer, seat, evaluate, planner)


def tribute_value(
    observation: Observation,
    hands: Sequence[Sequence[Card]],
    card: Card,
    receiver: int,
    policy: HeuristicBot,
    evaluate: Evaluate,
    planner: Planner,
) -> float:
    """The value for the paying seat's team of the position where play starts after a single
    tribute: ``card`` paid to ``receiver``, who returns the card ``policy`` returns from its hand in
    these ``hands`` (:meth:`HeuristicBot.return_options`' first), the payer to lead."""
    payer = observation.seat
    after = [list(hand) for hand in hands]
    after[payer].remove(card)
    after[receiver].append(card)
    returned = policy.return_options(receiving(observation, after[receiver], card, receiver))[0].card
    after[receiver].remove(returned)
    after[payer].append(returned)
    return start_value(observation, after, payer, payer, evaluate, planner)


def receiving(observation: Observation, hand: Sequence[Card], card: Card, receiver: int) -> Observation:
    """What ``receiver`` sees once the paying seat's ``card`` has reached its ``hand``, its return due."""
    payer = observation.seat
    rules, level = observation.rules, observation.level
    counts = list(observation.card_counts)
    counts[payer] -= 1
    counts[receiver] += 1
    returnable = return_cards(hand, level, rules, to_partner=receiver == partner(payer))
    return replace(
        observation,
        seat=receiver,
        hand=tuple(hand),
        phase=Phase.RETURN,
        current_player=receiver,
        card_counts=(counts[0], counts[1], counts[2], counts[3]),
        history=(*observation.history, Event(EventKind.TRIBUTE, seat=payer, card=card, to=receiver)),
        legal_actions=tuple(ReturnAction(receiver, returned) for returned in returnable),
    )


def start_value(
    observation: Observation,
    hands: Sequence[Sequence[Card]],
    leader: int,
    seat: int,
    evaluate: Evaluate,
    planner: Planner,
) -> float:
    """The value for ``seat``'s team of the position where play starts, ``leader`` to lead, with these
    ``hands`` (at the observation's level and rules); in the compiled core with the default
    evaluation."""
    core = native.CORE
    if core is not None and evaluate is position_value:
        value: float = core.position_value(
            hands,
            int(observation.level),
            leader,
            [],
            -1,
            None,
            0,
            native.deal_parameters(observation.rules),
            seat,
            WEIGHTS,
            observation.rules.partner_rises,
        )
        return value
    deal = Deal.at_position(hands, observation.level, observation.rules, current_player=leader)
    return evaluate(deal, seat, planner)


def play_trick_searched(
    deal: Deal,
    policy: HeuristicBot,
    template: Observation,
    evaluate: Evaluate,
    planner: Planner,
    seat: int,
) -> None:
    """Play the trick in play to its end (or the deal's): ``policy`` at the other team's seats, and at
    ``seat``'s team's the follow a one-level search on these hands finds best (:func:`searched_follow`);
    with no play to beat, nothing is played."""
    while deal.phase is Phase.PLAY and deal.last_play is not None:
        to_act = deal.current_player
        assert to_act is not None
        if to_act % 2 == seat % 2:
            deal.apply(PlayAction(to_act, searched_follow(deal, policy, template, evaluate, planner)))
        else:
            play_next(deal, policy, template)


def searched_follow(
    deal: Deal, policy: HeuristicBot, template: Observation, evaluate: Evaluate, planner: Planner
) -> Play:
    """The follow of the seat to act that a one-level search on the deal's (sampled) hands finds best:
    ``policy``'s play, passing, the lowest plain play that beats and the lowest bomb, each played and
    the trick played to its end by ``policy``, valued for the seat's team; the first best (``policy``'s
    among equals). Plays are told apart by kind, key rank, cards and key, as the core does."""
    seat = deal.current_player
    assert seat is not None
    proposal = policy.play(observe_position(deal, seat, template, listed=False)).play
    passing: Play | None = None
    plain: Play | None = None
    bomb: Play | None = None
    for action in deal.legal_actions():
        assert isinstance(action, PlayAction)
        play = action.play
        if play.kind is PlayKind.PASS:
            passing = play
        elif play.kind.is_bomb:
            bomb = play if bomb is None or play.key < bomb.key else bomb
        elif plain is None or play.key < plain.key:
            plain = play
    candidates = [proposal]
    for other in (passing, plain, bomb):
        if other is not None and all(_identity(other) != _identity(known) for known in candidates):
            candidates.append(other)
    best, best_value = proposal, 0.0
    for index, play in enumerate(candidates):
        after = _copy(deal)
        after.apply(PlayAction(seat, play))
        play_trick(after, policy, template)
        value = evaluate(after, seat, planner)
        if index == 0 or value > best_value:
            best, best_value = play, value
    return best


def _identity(play: Play) -> tuple[object, ...]:
    return play.kind, play.rank, play.cards, play.key


def _copy(deal: Deal) -> Deal:
    """The same position in a new deal (what is played on it leaves ``deal`` as it was)."""
    return Deal.at_position(
        [deal.hand(seat) for seat in range(4)],
        deal.level,
        deal.rules,
        current_player=deal.current_player if deal.current_player is not None else 0,
        finished=deal.finished,
        last_play=deal.last_play,
        passes=deal.passes,
    )


def alternatives(observation: Observation, proposal: Play, planned: Sequence[Play] = ()) -> list[Play]:
    """Other plays worth weighing, best first: passing (when following); the heuristic's next leads
    from its plan (``planned``, at most :data:`PLAN_LEADS` of them, when leading); then the lowest
    rank-level play of each other kind and size, lowest first, bombs last — each as one concrete card
    choice."""
    view = RankCounts(observation.hand, observation.level, observation.rules)
    previous = observation.previous
    ranked = iter_rank_leads(view) if previous is None else iter_rank_follows(view, rank_play_of(previous))
    found: list[Play] = [PASS] if previous is not None else []
    found += [play for play in planned if play != proposal][:PLAN_LEADS]
    shapes = set()
    for play in sorted(ranked, key=lambda play: (play.kind.is_bomb, play.key, -play.size)):
        if (play.kind, play.size) not in shapes:
            shapes.add((play.kind, play.size))
            concrete = play.to_play(observation.hand, observation.level, observation.rules)
            if concrete not in found:
                found.append(concrete)
    return [play for play in found if play != proposal]


def top_follow(observation: Observation) -> Play | None:
    """顶牌: the highest plain play that beats the play to follow (among equals, the one needing fewest
    wild cards), as one concrete card choice; ``None`` when leading, following a bomb, or when no plain
    play beats it (docs/bots.md, "顶牌: the highest play that beats", has why it is weighed)."""
    previous = observation.previous
    if previous is None or previous.kind.is_bomb:
        return None
    view = RankCounts(observation.hand, observation.level, observation.rules)
    plain = [play for play in iter_rank_follows(view, rank_play_of(previous)) if not play.kind.is_bomb]
    if not plain:
        return None
    highest = max(plain, key=lambda play: (play.key, -play.wilds))
    return highest.to_play(observation.hand, observation.level, observation.rules)


def _mean_gain(values: list[list[float]], index: int) -> float:
    gains = [value - base for value, base in zip(values[index], values[0], strict=True)]
    return sum(gains) / len(gains) if gains else 0.0


def _gain_error(values: list[list[float]], index: int) -> float:
    """The standard error of the mean gain over the shared samples."""
    gains = [value - base for value, base in zip(values[index], values[0], strict=True)]
    mean = sum(gains) / len(gains)
    variance = sum((gain - mean) ** 2 for gain in gains) / (len(gains) - 1)
    return math.sqrt(variance / len(gains))


register("search")(SearchBot)
