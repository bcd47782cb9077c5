"""One arena game: two bots, the cards a seed gives, and which way round the teams sit.

A game is a :class:`~cardroom.guandan.match.Match` played by four bots (one per seat, made fresh for
the game) that each see only ``match.observation(seat)``. A *fresh deal* is the first deal of a match
at level 2 (no tribute; the holder of the turned card leads); a *match* runs until a team passes A.

**Seeding** (the duplicate scheme, ``docs/arena.md``). Every random draw comes from a
``random.Random`` seeded with a string, which Python hashes with SHA-512, so the numbers are the same on
every machine and in every process:

- the cards of deal ``k`` (0 for a fresh deal) of game ``index`` of ``kind`` (``deal`` or ``match``):
  ``shuffled_hands(Random("cardroom-arena:{seed}:{kind}:{index}:{k}"))``, the shuffle and turned card
  of ``Match.deal_random``. Both games of a duplicate pair deal exactly these cards to the same seats;
- the bot at ``seat``: ``make_bot(name, s)`` with ``s`` the first 63 bits drawn from
  ``Random("cardroom-arena:{seed}:{kind}:{index}:{way}:bot:{seat}")``, ``way`` being ``direct`` or
  ``swapped``.

In the *direct* game team A (bot A) sits 0 & 2 and team B 1 & 3; in the *swapped* game the teams
exchange seats, so team A holds the cards team B held.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from enum import Enum
from typing import Any, Protocol

from cardroom.arena.stats import DealFacts, ShengjiDealFacts, play_counts, return_facts
from cardroom.bots import make_bot
from cardroom.cards import Card
from cardroom.games import game_of_rules
from cardroom.guandan.match import Match, shuffled_hands
from cardroom.guandan.ruleset import RuleSet
from cardroom.guandan.scoring import PASSED_ACE
from cardroom.shengji.ruleset import ShengjiRules

SEED_PREFIX = "cardroom-arena"

MAX_MATCH_DEALS = 1000
"""A match still going after this many deals is stopped and counts as unfinished (a draw): bots that
never pass A (two that always pass when following keep giving the lead to the losers) would
otherwise play for ever."""


class GameKind(Enum):
    """A fresh deal (the first deal of a match, at level 2) or a whole match to passing A."""

    DEAL = "deal"
    MATCH = "match"


class ArenaError(RuntimeError):
    """A bot answered an action the rules refuse (or failed otherwise) in an arena game."""


@dataclass(frozen=True)
class GameSpec:
    """Everything that decides one game: the bots, the seed, which cards and which way round."""

    kind: GameKind
    index: int
    swapped: bool
    seed: int
    bot_a: str
    bot_b: str
    rules: RuleSet | ShengjiRules

    @property
    def game(self) -> str:
        """The name of the game its rule set belongs to (``guandan``, ``shengji``)."""
        return game_of_rules(self.rules).name

    @property
    def team_a(self) -> int:
        """The match's team index (0: seats 0 & 2, 1: seats 1 & 3) that team A plays."""
        return 1 if self.swapped else 0

    @property
    def way(self) -> str:
        return "swapped" if self.swapped else "direct"

    def bot_at(self, seat: int) -> str:
        """The name of the bot playing ``seat``."""
        return self.bot_a if seat % 2 == self.team_a else self.bot_b

    def seat_names(self) -> tuple[str, str, str, str]:
        """Seat names for the record: team letter and bot (``A random``)."""
        names = [f"{'A' if seat % 2 == self.team_a else 'B'} {self.bot_at(seat)}" for seat in range(4)]
        return (names[0], names[1], names[2], names[3])

    def label(self) -> str:
        """``deal 3 (swapped)``: how messages name the game."""
        return f"{self.kind.value} {self.index} ({self.way})"

    def record_name(self) -> str:
        """The record's file name: ``deal-00003-swapped.json``."""
        return f"{self.kind.value}-{self.index:05d}-{self.way}.json"


@dataclass(frozen=True)
class GameOutcome:
    """What the arena keeps of a game: every finished deal's facts and the match result (match team
    indices; ``team_a`` says which is team A)."""

    kind: GameKind
    index: int
    swapped: bool
    team_a: int
    deals: tuple[DealFacts, ...]
    finished: bool
    winner: int | None
    points: tuple[int, int] | None
    shengji: tuple[ShengjiDealFacts, ...] = ()
    """A Shengji game's finished deals (``deals`` is then empty): :mod:`cardroom.arena.shengji_play`."""

    @property
    def finished_deals(self) -> int:
        """How many deals of the game finished, in either game."""
        return len(self.deals) + len(self.shengji)

    @property
    def order(self) -> tuple[int, int, bool]:
        """Sort key: fresh deals first, then matches, by index, direct before swapped."""
        return (0 if self.kind is GameKind.DEAL else 1, self.index, self.swapped)


def card_seed(seed: int, kind: GameKind, index: int, deal: int) -> str:
    """The string seed of the shuffle of deal ``deal`` in game ``index`` of ``kind``."""
    return f"{SEED_PREFIX}:{seed}:{kind.value}:{index}:{deal}"


def deal_cards(
    seed: int, kind: GameKind, index: int, deal: int
) -> tuple[tuple[tuple[Card, ...], ...], tuple[int, Card]]:
    """The four hands (seat order) and (turned card's holder, turned card) of one deal."""
    return shuffled_hands(random.Random(card_seed(seed, kind, index, deal)))


def bot_seed(spec: GameSpec, seat: int) -> int:
    """The seed of the bot at ``seat`` in this game."""
    key = f"{SEED_PREFIX}:{spec.seed}:{spec.kind.value}:{spec.index}:{spec.way}:bot:{seat}"
    return random.Random(key).getrandbits(63)


class ArenaMatch(Protocol):
    """What the arena's loop needs of a match, of either game."""

    @property
    def is_over(self) -> bool: ...

    @property
    def current_player(self) -> int | None: ...

    @property
    def deals(self) -> Sequence[object]: ...

    @property
    def summaries(self) -> Sequence[object]: ...

    def observation(self, seat: int) -> Any: ...

    def apply(self, action: Any) -> Any: ...


class ArenaBot(Protocol):
    """A bot of either game: an action for what its seat sees."""

    def act(self, observation: Any) -> Any: ...


def play_out(
    spec: GameSpec, match: ArenaMatch, bots: Sequence[ArenaBot], deal: Callable[[int], object]
) -> None:
    """Play ``match`` with ``bots`` (one per seat): ``deal(k)`` deals deal ``k`` (from its card seed),
    then the bots act until it ends; a fresh deal stops after its first deal, a match runs to its end
    (or stops unfinished after :data:`MAX_MATCH_DEALS` deals). Raises :class:`ArenaError` when a bot
    fails or the rules refuse its action."""
    limit = 1 if spec.kind is GameKind.DEAL else MAX_MATCH_DEALS
    while not match.is_over and len(match.summaries) < limit:
        deal(len(match.deals))
        while (seat := match.current_player) is not None:
            where = f"{spec.label()}, deal {len(match.deals)}: bot {spec.bot_at(seat)!r} at seat {seat}"
            try:
                action = bots[seat].act(match.observation(seat))
            except Exception as error:
                raise ArenaError(f"{where} failed: {type(error).__name__}: {error}") from error
            try:
                match.apply(action)
            except ValueError as error:
                raise ArenaError(
                    f"{where} answered {action!r}, refused: {type(error).__name__}: {error}"
                ) from error


def play_game(spec: GameSpec, bots: Sequence[ArenaBot] | None = None) -> Match:
    """Play one Guandan game and return its match (:func:`play_out`). Raises :class:`ArenaError` when a
    bot's action is refused. Guandan only (Shengji: :mod:`cardroom.arena.shengji_play`).

    ``bots`` (one per seat, made fresh for this game) replace the registered bots the spec names: the
    ladder (:mod:`cardroom.ladder.runner`) seats four different bots this way."""
    if not isinstance(spec.rules, RuleSet):
        raise TypeError(f"{spec.label()}: a Shengji game is played by cardroom.arena.shengji_play")
    if bots is not None and len(bots) != 4:
        raise ValueError(f"{spec.label()}: four bots, one per seat, got {len(bots)}")
    match = Match(spec.rules, max_deals=1 if spec.kind is GameKind.DEAL else None)
    if bots is None:
        bots = [make_bot(spec.bot_at(seat), bot_seed(spec, seat)) for seat in range(4)]

    def deal(number: int) -> None:
        hands, (holder, card) = deal_cards(spec.seed, spec.kind, spec.index, number)
        if match.needs_leader:
            match.deal(hands, holder, card)
        else:
            match.deal(hands)

    play_out(spec, match, bots, deal)
    return match


def outcome_of(spec: GameSpec, match: Match) -> GameOutcome:
    """The facts of a played game (pure: reads the match's deals and their event logs)."""
    facts: list[DealFacts] = []
    before = (2, 2)
    for deal, summary in zip(match.deals, match.summaries, strict=False):
        after = tuple(int(level) for level in summary.levels_after)
        if summary.passed_ace:
            after = tuple(
                PASSED_ACE if team == summary.result.winning_team else after[team] for team in (0, 1)
            )
        plays, bombs = play_counts(deal.events)
        facts.append(
            DealFacts(
                places=summary.result.places,
                plays=plays,
                bombs=bombs,
                levels_before=before,
                levels_after=(after[0], after[1]),
                returns=return_facts(deal.dealt_hands, deal.events, deal.level),
            )
        )
        before = (after[0], after[1])
    return GameOutcome(
        kind=spec.kind,
        index=spec.index,
        swapped=spec.swapped,
        team_a=spec.team_a,
        deals=tuple(facts),
        finished=match.is_over,
        winner=match.winner,
        points=match.points() if match.is_over else None,
    )


def arena_meta(spec: GameSpec, deals: int, game: str | None = None) -> dict[str, Any]:
    """What a game's record keeps of the arena (``meta.arena``): which game of the run it is (``game``:
    the game's name, where its records say it), the bots and every seed, so the game can be played
    again."""
    meta: dict[str, Any] = {} if game is None else {"game": game}
    return meta | {
        "kind": spec.kind.value,
        "index": spec.index,
        "way": spec.way,
        "seed": spec.seed,
        "team_a_seats": [spec.team_a, spec.team_a + 2],
        "bots": {"A": spec.bot_a, "B": spec.bot_b},
        "card_seeds": [card_seed(spec.seed, spec.kind, spec.index, k) for k in range(deals)],
        "bot_seeds": [bot_seed(spec, seat) for seat in range(4)],
    }


__all__ = [
    "ArenaBot",
    "ArenaError",
    "ArenaMatch",
    "GameKind",
    "GameOutcome",
    "GameSpec",
    "arena_meta",
    "bot_seed",
    "card_seed",
    "deal_cards",
    "outcome_of",
    "play_game",
    "play_out",
]
