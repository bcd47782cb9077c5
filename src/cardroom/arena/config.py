"""What decides an arena run's numbers (:class:`ArenaConfig`): the game, the bots, how many deal and
match pairs, the seed and the rule set."""

from __future__ import annotations

from dataclasses import dataclass

from cardroom.games import DEFAULT_GAME, game
from cardroom.guandan.ruleset import RuleSet
from cardroom.shengji.ruleset import ShengjiRules


@dataclass(frozen=True)
class ArenaConfig:
    """What decides an arena run's numbers: the game, the bots, how many deal and match pairs, the seed
    and the rule set (the number of workers does not). ``game`` is a game's name in
    :data:`cardroom.games.GAMES` (``"shengji"`` plays Shengji with its bots); ``rules`` not given is the
    game's default preset (:attr:`rule_set`): ``competition`` for Guandan, ``shengji`` for Shengji."""

    bot_a: str
    bot_b: str
    deals: int = 100
    matches: int = 0
    seed: int = 1
    rules: RuleSet | ShengjiRules | None = None
    game: str = DEFAULT_GAME

    def __post_init__(self) -> None:
        played = game(self.game)
        if self.rules is None:
            object.__setattr__(self, "rules", played.rules(played.default_preset))
        if not isinstance(self.rules, played.rules_type):
            raise ValueError(f"the rule set {self.rule_set.name!r} is not a {self.game} rule set")
        for name in (self.bot_a, self.bot_b):
            played.bot(name)
        if self.deals < 0 or self.matches < 0:
            raise ValueError("the numbers of deals and matches cannot be negative")
        if self.deals == 0 and self.matches == 0:
            raise ValueError("nothing to play: ask for at least one deal or one match")

    @property
    def rule_set(self) -> RuleSet | ShengjiRules:
        """The rule set played: ``rules``, or the game's default when it was not given."""
        assert self.rules is not None, "set in __post_init__"
        return self.rules

    @property
    def games(self) -> int:
        """Games in all: two per deal and two per match."""
        return 2 * (self.deals + self.matches)


__all__ = ["ArenaConfig"]
