"""One arena game of Shengji (升级): two bots, the deck a seed gives, and which way round the teams sit.

A game is a :class:`~cardroom.shengji.Match` played by four Shengji bots
(:func:`~cardroom.bots.shengji.make_shengji_bot`, one per seat, made fresh for the game) that each see
only ``match.observation(seat)``; every action goes through ``match.apply``, so the core judges it. A
*fresh deal* is the match's first deal: level 2, the dealer decided by declaring as the core does (the
first to draw deals when nobody declares); a *match* runs until a team passes A (or stops unfinished
after :data:`~cardroom.arena.play.MAX_MATCH_DEALS` deals). Levels are counted in rungs of the rule set's
ladder (:func:`rungs_after`), so a level gained is one step of ``rules.levels`` whatever ranks it skips.

**Seeding** is the Guandan arena's (:mod:`cardroom.arena.play`): deal ``k`` of game ``index`` of a kind
is ``Match.deal_random(Random("cardroom-arena:{seed}:{kind}:{index}:{k}"))`` — the shuffle of both decks
and, for the first deal, the first drawer — so both games of a duplicate pair deal the same deck to the
same seats; the bot at a seat is ``make_shengji_bot(name, bot_seed(spec, seat))``. In the swapped game
team A sits at 1 & 3 and holds what team B held.

Records: each game is written with :func:`cardroom.records.shengji.shengji_record_of` (the Shengji match
record, ``docs/records.md``), the arena's facts in ``meta.arena``.
"""

from __future__ import annotations

import random

from cardroom.arena.play import GameOutcome, GameSpec, bot_seed, card_seed, play_out
from cardroom.arena.stats import ShengjiDealFacts
from cardroom.bots.shengji import make_shengji_bot
from cardroom.shengji import DealSummary, Match, ShengjiRules


def shengji_rules(spec: GameSpec) -> ShengjiRules:
    if not isinstance(spec.rules, ShengjiRules):
        raise TypeError(f"{spec.label()}: not a Shengji game")
    return spec.rules


def play_shengji_game(spec: GameSpec) -> Match:
    """Play one Shengji game and return its match (:func:`~cardroom.arena.play.play_out`): a fresh deal
    stops after its first deal, a match runs to passing A. Raises
    :class:`~cardroom.arena.play.ArenaError` when a bot fails or the rules refuse its action."""
    match = Match(shengji_rules(spec))
    bots = [make_shengji_bot(spec.bot_at(seat), bot_seed(spec, seat)) for seat in range(4)]
    play_out(
        spec,
        match,
        bots,
        lambda number: match.deal_random(random.Random(card_seed(spec.seed, spec.kind, spec.index, number))),
    )
    return match


def rungs_after(summary: DealSummary, rules: ShengjiRules) -> tuple[int, int]:
    """Both teams' rungs of ``rules.levels`` after a deal: a level's index on the ladder, the ladder's
    length for the dealers when they passed the top level. Levels gained are differences of rungs, so
    they count steps of the ladder, not rank values (2 → 5 is one level on the seven-level ladder)."""
    after = [rules.levels.index(level) for level in summary.levels_after]
    if summary.passed_top:
        after[summary.dealer % 2] = len(rules.levels)
    return after[0], after[1]


def shengji_facts(match: Match) -> tuple[ShengjiDealFacts, ...]:
    """The facts of every finished deal of a Shengji match (pure: reads its deals and summaries)."""
    facts: list[ShengjiDealFacts] = []
    before = (0, 0)
    for deal, summary in zip(match.deals, match.summaries, strict=False):
        after = rungs_after(summary, match.rules)
        result = summary.result
        facts.append(
            ShengjiDealFacts(
                dealer=summary.dealer,
                trump=None if result.trump is None else result.trump.letter,
                declared=deal.declaration is not None,
                score=result.score,
                attackers_card_points=result.attackers_card_points,
                kitty_bonus=result.kitty_bonus,
                penalty=result.penalty,
                take_over=summary.outcome.attackers_take_over,
                rise=summary.outcome.rise,
                rungs_before=before,
                rungs_after=after,
                tricks=len(deal.tricks),
                failed_throws=len(deal.failed_throws),
            )
        )
        before = after
    return tuple(facts)


def shengji_outcome_of(spec: GameSpec, match: Match) -> GameOutcome:
    """The arena outcome of a played Shengji game (``deals`` empty, the facts in ``shengji``)."""
    return GameOutcome(
        kind=spec.kind,
        index=spec.index,
        swapped=spec.swapped,
        team_a=spec.team_a,
        deals=(),
        finished=match.is_over,
        winner=match.winner,
        points=None,
        shengji=shengji_facts(match),
    )


__all__ = [
    "play_shengji_game",
    "rungs_after",
    "shengji_facts",
    "shengji_outcome_of",
]
