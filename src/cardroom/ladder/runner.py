"""Playing a scheduled ladder match with the arena's duplicate machinery.

:class:`LadderRunner` is what plays a :class:`~cardroom.ladder.schedule.LadderMatch` and gives its
:class:`~cardroom.ladder.results.LadderResult`. :class:`InProcessRunner` plays four bots of this process
(the house bots: :func:`house_makers`); a server plays connected bots behind the same interface.

Each game is the arena's (:func:`cardroom.arena.play.play_game`, seeded as ``docs/arena.md`` says, with
the match's seed): deal ``i``'s cards come from ``card_seed(seed, deal, i, 0)``; in the direct game
team A's first entrant sits at seat 0 and its second at 2, team B's at 1 and 3; in the swapped game
team A sits at 1 and 3 and holds the cards team B held. Each seat's bot is made fresh for the game from
the arena's ``bot_seed`` of that seat.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any, Protocol

from cardroom.arena.play import ArenaBot, GameKind, GameSpec, arena_meta, bot_seed, outcome_of, play_game
from cardroom.bots import BOTS, make_bot
from cardroom.guandan.ruleset import COMPETITION, RuleSet
from cardroom.ladder.entrants import Entrant
from cardroom.ladder.errors import LadderError, UnknownEntrantError
from cardroom.ladder.results import LadderResult
from cardroom.ladder.schedule import LadderMatch
from cardroom.records import record_of

BotMaker = Callable[[int], ArenaBot]
"""Makes a fresh bot for one game from its seed."""


@dataclass(frozen=True)
class LadderFormat:
    """What a ladder match plays: ``deal_pairs`` fresh deals, each twice (direct and swapped), under
    ``rules``."""

    deal_pairs: int = 2
    rules: RuleSet = COMPETITION

    def __post_init__(self) -> None:
        if isinstance(self.deal_pairs, bool) or not isinstance(self.deal_pairs, int) or self.deal_pairs < 1:
            raise LadderError(f"a ladder match plays at least one pair of deals, got {self.deal_pairs!r}")


@dataclass(frozen=True)
class LadderGameSpec(GameSpec):
    """An arena game whose seats hold four different entrants: ``bot_a`` and ``bot_b`` name the teams,
    :meth:`bot_at` the entrant at a seat."""

    team_a_entrants: tuple[str, str]
    team_b_entrants: tuple[str, str]

    def bot_at(self, seat: int) -> str:
        team = self.team_a_entrants if seat % 2 == self.team_a else self.team_b_entrants
        return team[seat // 2]


def game_specs(match: LadderMatch, format: LadderFormat) -> list[LadderGameSpec]:
    """The match's games in schedule order: deal 0 direct, deal 0 swapped, deal 1 …"""
    return [
        LadderGameSpec(
            GameKind.DEAL,
            index,
            swapped,
            match.seed,
            " + ".join(match.team_a),
            " + ".join(match.team_b),
            format.rules,
            match.team_a,
            match.team_b,
        )
        for index in range(format.deal_pairs)
        for swapped in (False, True)
    ]


class LadderRunner(Protocol):
    """Plays one scheduled ladder match to its result."""

    def play(self, match: LadderMatch) -> LadderResult: ...


class InProcessRunner:
    """Plays ladder matches between bots made in this process: ``makers`` by entrant key."""

    def __init__(
        self, makers: Mapping[str, BotMaker], format: LadderFormat | None = None, *, keep_records: bool = True
    ) -> None:
        self.makers = dict(makers)
        self.format = format if format is not None else LadderFormat()
        self.keep_records = keep_records

    def play(self, match: LadderMatch) -> LadderResult:
        """Play every game of ``match`` here and return its result (with the records when kept); an
        :class:`UnknownEntrantError` when an entrant has no bot here, an
        :class:`~cardroom.arena.ArenaError` when a bot's action is refused."""
        missing = [key for key in match.entrants if key not in self.makers]
        if missing:
            raise UnknownEntrantError(f"no bot in this process for {', '.join(missing)}")
        outcomes = []
        records: list[dict[str, Any]] = []
        for spec in game_specs(match, self.format):
            bots = [self.makers[spec.bot_at(seat)](bot_seed(spec, seat)) for seat in range(4)]
            played = play_game(spec, bots)
            outcomes.append(outcome_of(spec, played))
            if self.keep_records:
                meta = {
                    "arena": arena_meta(spec, len(played.deals)),
                    "ladder": {
                        "team_a": list(match.team_a),
                        "team_b": list(match.team_b),
                        "seed": match.seed,
                    },
                }
                records.append(record_of(played, spec.seat_names(), seed=match.seed, meta=meta))
        return LadderResult(match, tuple(outcomes), tuple(records))


def house_makers(entrants: Iterable[Entrant]) -> dict[str, BotMaker]:
    """Bot makers by entrant key for entrants that are registered bots (the house's: the id is the
    bot's name in :data:`cardroom.bots.BOTS`); an :class:`UnknownEntrantError` for any other."""
    makers: dict[str, BotMaker] = {}
    for entrant in entrants:
        if entrant.id not in BOTS:
            raise UnknownEntrantError(
                f"{entrant.key}: no registered bot {entrant.id!r}; known: {', '.join(sorted(BOTS))}"
            )

        def maker(seed: int, name: str = entrant.id) -> ArenaBot:
            return make_bot(name, seed)

        makers[entrant.key] = maker
    return makers


__all__ = [
    "BotMaker",
    "InProcessRunner",
    "LadderFormat",
    "LadderGameSpec",
    "LadderRunner",
    "game_specs",
    "house_makers",
]
