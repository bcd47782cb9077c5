"""The search's evaluation in the compiled core (native/src/evaluation.cpp) against the pure one, its
reference (cardroom.bots.evaluation.position_value): on positions of random play under every preset, at
trick starts and in the middle of tricks, valued for every seat, both give the same
value to the bit (compared by ``repr``).

Without the extension these tests skip, unless ``CARDROOM_REQUIRE_NATIVE=1`` (``make test``) makes that
a failure.
"""

from __future__ import annotations

import random
from collections import Counter
from types import ModuleType

import pytest

from cardroom.bots.evaluation import WEIGHTS, position_value
from cardroom.bots.planning import Planner
from cardroom.cards import NATURAL_RANKS
from cardroom.guandan import native
from cardroom.guandan.deal import Deal, Phase
from cardroom.guandan.match import shuffled_hands
from cardroom.guandan.ruleset import PRESETS, RuleSet


def native_value(core: ModuleType, deal: Deal, seat: int, weights: tuple[float, ...] = WEIGHTS) -> float:
    last = deal.last_play
    value: float = core.position_value(
        [deal.hand(other) for other in range(4)],
        int(deal.level),
        deal.current_player if deal.current_player is not None else 0,
        list(deal.finished),
        last[0] if last else -1,
        last[1] if last else None,
        deal.passes,
        native.deal_parameters(deal.rules),
        seat,
        weights,
        deal.rules.partner_rises,
    )
    return value


def positions(rules: RuleSet, deals: int, seed: int) -> Counter[str]:
    """Random play under ``rules``; at every position both values for every seat. Returns how many
    positions of each sort were compared."""
    core = native.CORE
    assert core is not None
    rng = random.Random(seed)
    seen: Counter[str] = Counter()
    for _ in range(deals):
        hands, (holder, _card) = shuffled_hands(rng)
        level = rng.choice(NATURAL_RANKS)
        deal = Deal(hands, level, rules, leader=holder)
        planner = Planner(level)
        while True:
            if deal.phase is Phase.PLAY and deal.current_player is not None and deal.last_play is not None:
                sort = "mid-trick"
            elif deal.result is not None:
                break  # a deal's end is valued by its places (the core's search reaches it by playing)
            else:
                sort = "trick start"
            if rng.random() < 0.5:
                for seat in range(4):
                    pure = position_value(deal, seat, planner)
                    made = native_value(core, deal, seat)
                    assert repr(made) == repr(pure), f"{rules.name} {sort} seat {seat}: {made!r} != {pure!r}"
                seen[sort] += 1
            actions = deal.legal_actions()
            deal.apply(actions[rng.randrange(len(actions))])
    return seen


@pytest.mark.parametrize("name", sorted(PRESETS))
def test_the_core_values_positions_as_the_pure_evaluation_does(core: ModuleType, name: str) -> None:
    seen = positions(PRESETS[name], deals=15, seed=7)
    assert seen["trick start"] > 100, seen
    assert seen["mid-trick"] > 100, seen


def test_the_weights_are_the_callers(core: ModuleType) -> None:
    """Other weights (as a refit would give) change both values alike."""
    rng = random.Random(3)
    for _ in range(20):
        hands, (holder, _card) = shuffled_hands(rng)
        deal = Deal(hands, rng.choice(NATURAL_RANKS), PRESETS["platform"], leader=holder)
        for _ in range(rng.randrange(60)):
            actions = deal.legal_actions()
            deal.apply(actions[rng.randrange(len(actions))])
        weights = tuple(rng.uniform(-2, 2) for _ in WEIGHTS)
        for seat in range(4):
            pure = position_value(deal, seat, Planner(deal.level), weights)
            assert repr(native_value(core, deal, seat, weights)) == repr(pure)
            assert pure != position_value(deal, seat, Planner(deal.level))


def test_bad_weights_are_refused_by_name(core: ModuleType) -> None:
    rng = random.Random(1)
    hands, (holder, _card) = shuffled_hands(rng)
    deal = Deal(hands, NATURAL_RANKS[0], PRESETS["competition"], leader=holder)
    with pytest.raises(ValueError, match="12 weights"):
        native_value(core, deal, 0, WEIGHTS[:5])
