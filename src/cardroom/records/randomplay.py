"""Random matches: every action drawn uniformly from the legal ones, for tests, examples and load.

Deals are drawn with :meth:`Match.deal_random`, so a seed gives the same match every time.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from cardroom.guandan.match import Match
from cardroom.guandan.ruleset import COMPETITION, RuleSet
from cardroom.records.writer import DEFAULT_SEATS, record_of


def random_match(rng: random.Random, rules: RuleSet = COMPETITION, *, max_deals: int | None = None) -> Match:
    """Play a whole match with uniformly random legal actions."""
    match = Match(rules, max_deals=max_deals)
    while not match.is_over:
        match.deal_random(rng)
        while match.current_deal is not None:
            match.apply(rng.choice(match.legal_actions()))
    return match


def play_random(
    seed: int,
    *,
    max_deals: int | None = None,
    rules: RuleSet = COMPETITION,
    seats: Sequence[str] = DEFAULT_SEATS,
) -> dict[str, Any]:
    """The record of a random match played with ``random.Random(seed)``; ``max_deals`` makes it a
    fixed-deal match (one more deal when level, if the rule set says so)."""
    return record_of(random_match(random.Random(seed), rules, max_deals=max_deals), seats, seed=seed)
