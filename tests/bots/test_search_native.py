"""The search's playouts in the compiled core (native/src/search.cpp: each candidate played, the trick
played to its end by the heuristic, or with the team's own follows searched, the position valued)
against the pure ones, their reference (:func:`cardroom.bots.search.trick_values` on the pure engine):
the same values to the bit on the search's own decisions under every preset, and so the same choices.

Without the extension these tests skip, unless ``CARDROOM_REQUIRE_NATIVE=1`` (``make test``) makes that
a failure.
"""

from __future__ import annotations

import random
from collections import Counter
from types import ModuleType

import pytest

from cardroom.bots import HeuristicBot, SearchBot
from cardroom.bots.evaluation import position_value
from cardroom.bots.planning import Planner
from cardroom.bots.sampling import sample_hands
from cardroom.bots.search import return_leader, return_value, tribute_value, trick_values
from cardroom.guandan import native
from cardroom.guandan.deal import Phase, PlayAction, ReturnAction, TributeAction
from cardroom.guandan.match import Match
from cardroom.guandan.moves import legal_plays
from cardroom.guandan.observation import Observation
from cardroom.guandan.plays import PASS
from cardroom.guandan.ruleset import PRESETS
from cardroom.guandan.tribute import TributePlan
from tests.bots.test_search import return_decisions, single_tribute_choices


def search_decisions(rules_name: str, deals: int, seed: int) -> list[Observation]:
    """The play-phase decisions with a choice of heuristic self-play matches (tribute included)."""
    rng = random.Random(seed)
    bots = [HeuristicBot(rng) for _ in range(4)]
    found = []
    match = Match(PRESETS[rules_name], max_deals=deals)
    match.deal_random(rng)
    while not match.is_over:
        deal = match.current_deal
        if deal is None:
            match.deal_random(rng)
            continue
        seat = match.current_player
        assert seat is not None
        observation = match.observation(seat)
        if observation.phase is Phase.PLAY and len(observation.legal_actions) > 1:
            found.append(observation)
        match.apply(bots[seat].act(observation))
    return found


@pytest.mark.parametrize("team_search", [False, True])
@pytest.mark.parametrize("name", sorted(PRESETS))
def test_the_core_values_the_candidates_as_the_pure_playouts_do(
    core: ModuleType, name: str, team_search: bool
) -> None:
    rng = random.Random(11)
    searcher = SearchBot(random.Random(1))
    seen: Counter[str] = Counter()
    for observation in search_decisions(name, deals=3, seed=5)[::3]:
        proposal = searcher.proposer.act(observation)
        assert isinstance(proposal, PlayAction)
        plays = searcher.candidates(observation, proposal.play)
        planner = searcher.policy.planner(observation.level)
        for _ in range(2):
            hands = sample_hands(observation, rng)
            policy = searcher.policy
            made = trick_values(observation, hands, plays, policy, position_value, planner, team_search)
            with native.pure_engine():
                pure = trick_values(observation, hands, plays, policy, position_value, planner, team_search)
            # a deal's end is valued by its places: an int in Python, the same float in the core
            assert repr(made) == repr([float(value) for value in pure]), f"{name}: {plays}"
            if team_search:
                unsearched = trick_values(observation, hands, plays, policy, position_value, planner)
                seen["values the team's search changed"] += made != unsearched
        seen["lead" if observation.previous is None else "follow"] += 1
        seen["candidates"] += len(plays)
        seen["passes weighed"] += PASS in plays
    assert seen["lead"] >= 10, seen
    assert seen["follow"] >= 20, seen
    assert seen["passes weighed"] >= 20, seen
    assert not team_search or seen["values the team's search changed"] >= 5, seen


def test_the_search_chooses_alike_on_either_engine(core: ModuleType) -> None:
    """Whole decisions of the default search bot, seeded alike, are the same on both engines."""
    changed = 0
    decisions = search_decisions("competition", deals=2, seed=21)[::4]
    for number, observation in enumerate(decisions):
        made = SearchBot(random.Random(number)).act(observation)
        with native.pure_engine():
            pure = SearchBot(random.Random(number)).act(observation)
        assert made == pure
        proposal = HeuristicBot(random.Random(0)).act(observation)
        changed += made != proposal
    assert len(decisions) >= 30
    assert changed >= 1, "no decision differed from the heuristic's: the search was not tested"


def test_a_candidate_that_is_not_legal_is_refused(core: ModuleType) -> None:
    observation = search_decisions("competition", deals=1, seed=3)[0]
    hands = sample_hands(observation, random.Random(0))
    planner = HeuristicBot(random.Random(0)).planner(observation.level)
    others = [card for card in hands[(observation.seat + 1) % 4] if card not in observation.hand]
    foreign = legal_plays([others[0]], None, observation.level, observation.rules)[0]
    with pytest.raises(ValueError, match="not legal"):
        trick_values(observation, hands, [foreign], HeuristicBot(random.Random(0)), position_value, planner)


def test_the_core_values_return_cards_as_the_pure_evaluation_does(core: ModuleType) -> None:
    """还贡 by search (:func:`cardroom.bots.search.return_value`): the position where play starts,
    valued in the core and by the pure evaluation, to the bit."""
    rng = random.Random(4)
    compared = 0
    for name in ("competition", "platform"):
        for observation in return_decisions(name, 30, 9):
            leader = return_leader(observation)
            if leader is None:
                continue
            planner = Planner(observation.level)
            hands = sample_hands(observation, rng)
            for action in observation.legal_actions[:4]:
                assert isinstance(action, ReturnAction)
                made = return_value(observation, hands, action.card, leader, position_value, planner)
                with native.pure_engine():
                    pure = return_value(observation, hands, action.card, leader, position_value, planner)
                assert repr(made) == repr(pure)
                compared += 1
    assert compared >= 40


def test_the_core_values_tribute_cards_as_the_pure_evaluation_does(core: ModuleType) -> None:
    """进贡 by search (:func:`cardroom.bots.search.tribute_value`): the card paid, the heuristic's return,
    the position where play starts valued in the core and by the pure evaluation, to the bit; and the
    same card chosen on either engine."""
    compared = 0
    for name in ("competition", "platform"):
        for number, observation in enumerate(single_tribute_choices(name, 6, 11)):
            assert observation.previous_places is not None
            receiver = TributePlan.from_places(observation.previous_places).receivers[0]
            policy = HeuristicBot(random.Random(0))
            planner = Planner(observation.level)
            hands = sample_hands(observation, random.Random(number))
            for action in observation.legal_actions:
                assert isinstance(action, TributeAction)
                made = tribute_value(
                    observation, hands, action.card, receiver, policy, position_value, planner
                )
                with native.pure_engine():
                    pure = tribute_value(
                        observation, hands, action.card, receiver, policy, position_value, planner
                    )
                assert repr(made) == repr(pure)
                compared += 1
            chosen = SearchBot(random.Random(number), tribute_search=True).act(observation)
            with native.pure_engine():
                assert SearchBot(random.Random(number), tribute_search=True).act(observation) == chosen
    assert compared >= 24
