"""Helpers for the tournament tests: bot matches, forced match outcomes, and teams."""

from __future__ import annotations

import random

from cardroom.bots import make_bot
from cardroom.guandan.match import Match
from cardroom.tournament import (
    Event,
    EventConfig,
    MatchFormat,
    MatchOutcome,
    Player,
    Team,
    decide_match,
)
from tests.guandan.scenario import play_match_deal


def team(index: int) -> Team:
    """Team ``T<index>`` of players ``p<index>a`` and ``p<index>b``."""
    return Team(f"T{index}", (Player(f"p{index}a"), Player(f"p{index}b")), f"队{index}")


def event_of(count: int, config: EventConfig, seed: int = 7) -> Event:
    """An event with teams T1…T<count>, started with ``random.Random(seed)``."""
    event = Event(config)
    for index in range(1, count + 1):
        event = event.register(team(index))
    return event.start(random.Random(seed))


def bot_match(fmt: MatchFormat, seed: int, bot: str = "random") -> tuple[Match, MatchOutcome]:
    """A match of four bots played deal by deal until ``fmt`` says it is over (one simulated minute
    per deal)."""
    match = Match()
    bots = [make_bot(bot, seed * 4 + seat) for seat in range(4)]
    rng = random.Random(seed)
    while True:
        outcome = decide_match(fmt, match, elapsed_s=60.0 * len(match.summaries))
        if outcome is not None:
            return match, outcome
        match.deal_random(rng)
        while match.current_deal is not None:
            seat = match.current_player
            assert seat is not None
            match.apply(bots[seat].act(match.observation(seat)))


def forced_match(outcomes: list[tuple[int, int]], seed: int = 1) -> Match:
    """A match with one deal per (seat taking 上游, its partner's place)."""
    match = Match()
    rng = random.Random(seed)
    for first, partner_place in outcomes:
        play_match_deal(match, rng, first, partner_place)
    return match
