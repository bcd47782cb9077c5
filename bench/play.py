"""Random-play throughput: fresh level-2 deals and whole matches per second, under two policies —
uniform among card-level legal actions (what the anchors measure) and uniform among rank-level plays
(what search playouts use). Prints a Markdown table.

Run with ``make bench`` (or ``python -m bench.play --deals 300 --matches 10``).
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Callable
from contextlib import nullcontext

from bench.engines import ratio
from cardroom.cards import Rank
from cardroom.guandan import native
from cardroom.guandan.deal import Action, Deal, Phase, PlayAction
from cardroom.guandan.match import Match
from cardroom.guandan.plays import PASS
from cardroom.guandan.rankplays import RankPlay, rank_follows, rank_leads, rank_play_of
from cardroom.guandan.ruleset import COMPETITION, HUOPIN, RuleSet

Policy = Callable[[Match, random.Random], Action]


def card_level(match: Match, rng: random.Random) -> Action:
    """Uniform among every card-level legal action."""
    return rng.choice(match.legal_actions())


def rank_level(match: Match, rng: random.Random) -> Action:
    """Uniform among rank-level plays (and passing), then one concrete card choice; tribute and
    return uniform among their few legal cards."""
    deal = match.deals[-1]
    seat = deal.current_player
    if deal.phase is not Phase.PLAY or seat is None:
        return rng.choice(match.legal_actions())
    hand = deal.hands[seat].elements()
    previous = deal.previous
    options: list[RankPlay | None]
    if previous is None:
        options = list(rank_leads(hand, deal.level, deal.rules))
    else:
        options = [None, *rank_follows(hand, rank_play_of(previous), deal.level, deal.rules)]
    choice = rng.choice(options)
    if choice is None:
        return PlayAction(seat, PASS)
    return PlayAction(seat, choice.to_play(deal.hands[seat].elements(), deal.level, deal.rules))


def play_deal(match: Match, policy: Policy, rng: random.Random) -> Deal:
    deal = match.deal_random(rng)
    while deal.phase is not Phase.OVER:
        match.apply(policy(match, rng))
    return deal


def fresh_deals_per_second(policy: Policy, count: int, seed: int) -> float:
    rng = random.Random(seed)
    start = time.perf_counter()
    for _ in range(count):
        play_deal(Match(), policy, rng)
    return count / (time.perf_counter() - start)


def matches_per_second(policy: Policy, count: int, seed: int) -> tuple[float, float]:
    """(matches per second, deals per second) over whole matches played to passing A."""
    rng = random.Random(seed)
    deals = 0
    start = time.perf_counter()
    for _ in range(count):
        match = Match()
        while not match.is_over:
            play_deal(match, policy, rng)
            deals += 1
    elapsed = time.perf_counter() - start
    return count / elapsed, deals / elapsed


def core_deals_per_second(
    count: int, seed: int, rules: RuleSet, *, tribute: bool = False
) -> tuple[float, float]:
    """(deals per second, actions per deal) of fresh level-2 deals shuffled and played uniformly among
    the legal actions inside the compiled core (one batch call, one thread); with ``tribute`` each
    follows random places of a previous deal."""
    start = time.perf_counter()
    actions = native.random_deals(count, seed, Rank.TWO, rules, tribute=tribute)
    return count / (time.perf_counter() - start), actions / count


def observation_microseconds(rules: RuleSet, deals: int, seed: int) -> tuple[int, float]:
    """(observations, mean µs) of ``match.observation`` for the seat to act over ``deals`` one-deal
    matches of uniform card-level play: what every bot, arena seat and RL step asks for."""
    rng = random.Random(seed)
    count, total = 0, 0.0
    for _ in range(deals):
        match = Match(rules, max_deals=1)
        match.deal_random(rng)
        while match.current_deal is not None:
            seat = match.current_player
            assert seat is not None
            start = time.perf_counter()
            observation = match.observation(seat)
            total += time.perf_counter() - start
            count += 1
            match.apply(rng.choice(observation.legal_actions))
    return count, total / count * 1e6


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--deals", type=int, default=300, help="fresh deals per policy")
    parser.add_argument("--matches", type=int, default=10, help="whole matches per policy")
    parser.add_argument("--core-deals", type=int, default=20000, help="deals played inside the core")
    parser.add_argument(
        "--observation-deals", type=int, default=30, help="deals whose observations are timed"
    )
    parser.add_argument("--seed", type=int, default=2026)
    arguments = parser.parse_args()
    print(
        f"{arguments.deals} fresh level-2 deals and {arguments.matches} matches per policy and engine "
        f"through Match.apply, seed {arguments.seed}\n"
    )
    print("| policy | engine | fresh deals/s | matches/s | deals/s within matches |")
    print("|---|---|---|---|---|")
    engines = ("pure", "compiled") if native.CORE is not None else ("pure",)
    for name, policy in (("uniform card-level", card_level), ("uniform rank-level", rank_level)):
        rates = {}
        for engine in engines:
            with native.pure_engine() if engine == "pure" else nullcontext():
                fresh = fresh_deals_per_second(policy, arguments.deals, arguments.seed)
                per_match, per_deal = matches_per_second(policy, arguments.matches, arguments.seed)
            rates[engine] = fresh
            print(f"| {name} | {engine} | {fresh:.0f} | {per_match:.2f} | {per_deal:.0f} |")
        if len(rates) == 2:
            print(f"| {name} | compiled ÷ pure | {ratio(rates['compiled'], rates['pure'])} | | |")
    print()
    print("| observation of the seat to act | engine | observations | mean µs |")
    print("|---|---|---|---|")
    for rules in (COMPETITION, HUOPIN):
        for engine in engines:
            with native.pure_engine() if engine == "pure" else nullcontext():
                count, micros = observation_microseconds(rules, arguments.observation_deals, arguments.seed)
            print(f"| {rules.name} | {engine} | {count} | {micros:.0f} |")
    if native.CORE is not None:
        print()
        for rules, count in ((COMPETITION, arguments.core_deals), (HUOPIN, arguments.core_deals // 10)):
            for tribute in (False, True):
                per_second, actions = core_deals_per_second(count, arguments.seed, rules, tribute=tribute)
                kind = "after random places, tribute and return included" if tribute else "first deals"
                print(
                    f"Inside the core (`random_deals`, {rules.name}, {kind}, uniform card-level, {count} "
                    f"fresh deals): {per_second:,.0f} deals/s on one thread, {actions:.0f} actions a deal."
                )


if __name__ == "__main__":
    main()
