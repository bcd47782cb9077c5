"""From game outcomes to the arena's results: per-team rates with their intervals, and the play
statistics set beside the figures of human play that 掼蛋方法规则 gives
(docs/rules/platform.md#human-figures).

Pure: the same outcomes give the same results, to the last digit (sums are taken in schedule order).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field, fields, replace
from itertools import groupby
from typing import Any, Final, Protocol, TypeVar

from cardroom.arena.config import ArenaConfig
from cardroom.arena.play import SEED_PREFIX, GameKind, GameOutcome
from cardroom.arena.stats import CONFIDENCE, Interval, cluster_mean

RESULTS_FORMAT: Final = "cardroom-arena-results"
RESULTS_VERSION: Final = 1

PLAYS_RANGE: Final = (30, 50)
"""docs/rules/platform.md#human-figures: 30–50 plays (手) make 90% of deals
(可见，30-50手的局牌占了整个牌局的90%)."""
WINNER_PLAYS_RANGE: Final = (7, 16)
"""docs/rules/platform.md#human-figures: the 上游 makes at least 7 and at most 16 plays
(最少的头游要打出7手牌，最多的要打16手)."""
HUMAN: Final[dict[str, Any]] = {
    "plays_in_range": 0.90,
    "plays_range": list(PLAYS_RANGE),
    "winner_plays_range": list(WINNER_PLAYS_RANGE),
    "winner_plays_in_range": 1.0,
    "return_completes_bomb": 0.5,
    "source": "docs/rules/platform.md#human-figures: 90% of deals take 30–50 plays; 上游 makes 7–16 plays; "
    "a return card completes a bomb (回贡成火) about half the time",
}
"""The figures of human play of docs/rules/platform.md#human-figures, as the results carry them."""

INTERVAL_METHOD: Final = (
    "95% interval over duplicate pairs: mean = Σ values / Σ units; standard error by the cluster "
    "(linearised ratio) estimator with one cluster per pair; Student's t on pairs − 1 degrees of "
    "freedom; rates clipped to [0, 1]. With the same number of units in every pair (two games, or "
    "two fresh deals) this is the t interval on the pair means."
)
SEEDING: Final = (
    f"cards of deal k of game i of a kind: shuffled_hands(random.Random('{SEED_PREFIX}:SEED:KIND:i:k')); "
    f"bot at a seat: make_bot(name, Random('{SEED_PREFIX}:SEED:KIND:i:WAY:bot:SEAT').getrandbits(63)); "
    "direct: team A at seats 0 & 2; swapped: the same cards, team A at seats 1 & 3"
)

RATE: Final = (0.0, 1.0)

FactsT = TypeVar("FactsT")
TeamT = TypeVar("TeamT")
StatsT = TypeVar("StatsT")
ResultsT = TypeVar("ResultsT")


@dataclass(frozen=True)
class TeamFigures:
    """One team's bot and its figures, each an interval (``None`` where the run measured nothing); a
    game's team results add their figures as fields, written in their order."""

    bot: str

    def to_json(self) -> dict[str, Any]:
        figures = (item for item in fields(self) if item.name != "bot")
        return {"bot": self.bot, **{item.name: interval_json(getattr(self, item.name)) for item in figures}}


@dataclass(frozen=True)
class TeamResult(TeamFigures):
    """One team's results: the deal figures over the fresh deals, the match figures over the matches,
    with the deals played inside them (the tribute and return counted; ``None`` where the run played
    none)."""

    deal_win_rate: Interval | None = None
    level_gain_per_deal: Interval | None = None
    double_down_rate: Interval | None = None
    match_win_rate: Interval | None = None
    points_per_match: Interval | None = None
    deal_win_rate_in_matches: Interval | None = None
    level_gain_per_deal_in_matches: Interval | None = None


@dataclass(frozen=True)
class PlayStats:
    """Play statistics over every finished deal of the run (fresh deals and deals inside matches)."""

    deals: int
    plays_per_deal: Interval
    plays_in_range: Interval
    winner_plays: Interval
    winner_plays_in_range: Interval
    bombs_per_deal: Interval
    bombs_per_deal_by_team: tuple[Interval, Interval]
    returns: int
    return_completes_bomb: Interval
    return_completes_bomb_with_wilds: Interval
    plays_histogram: dict[int, int] = field(default_factory=dict)
    winner_plays_histogram: dict[int, int] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        return {
            "deals": self.deals,
            "plays_per_deal": self.plays_per_deal.to_json(),
            "plays_in_range": self.plays_in_range.to_json(),
            "plays_range": list(PLAYS_RANGE),
            "winner_plays": self.winner_plays.to_json(),
            "winner_plays_in_range": self.winner_plays_in_range.to_json(),
            "winner_plays_range": list(WINNER_PLAYS_RANGE),
            "bombs_per_deal": self.bombs_per_deal.to_json(),
            "bombs_per_deal_by_team": {
                "A": self.bombs_per_deal_by_team[0].to_json(),
                "B": self.bombs_per_deal_by_team[1].to_json(),
            },
            "returns": self.returns,
            "return_completes_bomb": self.return_completes_bomb.to_json(),
            "return_completes_bomb_with_wilds": self.return_completes_bomb_with_wilds.to_json(),
            "plays_histogram": {str(key): value for key, value in sorted(self.plays_histogram.items())},
            "winner_plays_histogram": {
                str(key): value for key, value in sorted(self.winner_plays_histogram.items())
            },
            "human": HUMAN,
        }


@dataclass(frozen=True)
class ArenaResults:
    """The results of an arena run."""

    config: ArenaConfig
    deal_pairs: int
    match_pairs: int
    teams: tuple[TeamResult, TeamResult]
    deals_per_match: Interval | None
    unfinished_matches: int
    play: PlayStats

    def to_json(self) -> dict[str, Any]:
        """The ``results.json`` object (docs/arena.md); no clock or worker count, so the same seed
        writes the same file."""
        head = run_json(
            self.config,
            self.deal_pairs,
            self.match_pairs,
            self.teams,
            self.deals_per_match,
            self.unfinished_matches,
        )
        return head | {"play": self.play.to_json()}


class TeamJson(Protocol):
    """A team's results, as ``results.json`` holds them."""

    def to_json(self) -> dict[str, Any]: ...


def run_json(
    config: ArenaConfig,
    deal_pairs: int,
    match_pairs: int,
    teams: tuple[TeamJson, TeamJson],
    deals_per_match: Interval | None,
    unfinished_matches: int,
    *,
    game: str | None = None,
    seeding: str = SEEDING,
) -> dict[str, Any]:
    """What ``results.json`` holds in either game, before the game's own statistics: the format, the
    run's config (``game``: the game's name where the file says it), the interval method and the
    teams' results."""
    said = {} if game is None else {"game": game}
    return {
        "format": RESULTS_FORMAT,
        "version": RESULTS_VERSION,
        **said,
        "config": {
            **said,
            "a": config.bot_a,
            "b": config.bot_b,
            "deals": config.deals,
            "matches": config.matches,
            "seed": config.seed,
            "rules": config.rule_set.to_dict(),
            "seeding": seeding,
        },
        "interval": {"confidence": CONFIDENCE, "method": INTERVAL_METHOD},
        "games": 2 * (deal_pairs + match_pairs),
        "deal_pairs": deal_pairs,
        "match_pairs": match_pairs,
        "teams": {"A": teams[0].to_json(), "B": teams[1].to_json()},
        "deals_per_match": interval_json(deals_per_match),
        "unfinished_matches": unfinished_matches,
    }


def interval_json(interval: Interval | None) -> dict[str, float | int | None] | None:
    """An interval as ``results.json`` holds it; ``null`` where the run measured nothing."""
    return None if interval is None else interval.to_json()


def pairs(outcomes: Iterable[GameOutcome]) -> list[tuple[GameOutcome, ...]]:
    """The outcomes grouped into duplicate pairs (same kind and index), in schedule order."""
    ordered = sorted(outcomes, key=lambda outcome: outcome.order)
    return [tuple(group) for _, group in groupby(ordered, key=lambda outcome: outcome.order[:2])]


def _team_seat(outcome: GameOutcome, seat: int, team: int) -> bool:
    """Whether ``seat`` belongs to team ``team`` (0: A, 1: B) in this game."""
    return (seat % 2 == outcome.team_a) == (team == 0)


def match_team(outcome: GameOutcome, team: int) -> int:
    """The match's team index of team ``team`` (0: A, 1: B)."""
    return outcome.team_a if team == 0 else 1 - outcome.team_a


def _match_score(outcome: GameOutcome, team: int) -> float:
    """1 for a win, 0 for a loss, ½ for a draw or a match stopped unfinished."""
    if outcome.winner is None:
        return 0.5
    return 1.0 if outcome.winner == match_team(outcome, team) else 0.0


def first_deal(outcome: GameOutcome, deals: Sequence[FactsT]) -> FactsT:
    """The facts of a fresh deal's game (``deals``: the outcome's deal facts, of its game)."""
    if not deals:
        raise ValueError(f"{outcome.kind.value} {outcome.index}: the fresh deal did not finish")
    return deals[0]


def team_result(config: ArenaConfig, team: int, pairs_: Sequence[tuple[GameOutcome, ...]]) -> TeamResult:
    """Team ``team``'s (0: A, 1: B) rates over the pairs."""
    deal_pairs = [pair for pair in pairs_ if pair[0].kind is GameKind.DEAL]
    match_pairs = [pair for pair in pairs_ if pair[0].kind is GameKind.MATCH]
    bot = config.bot_a if team == 0 else config.bot_b
    result = TeamResult(bot)
    if deal_pairs:
        wins, gains, double_downs = [], [], []
        for pair in deal_pairs:
            facts = [(game, first_deal(game, game.deals)) for game in pair]
            wins.append([float(deal.winning_team == match_team(game, team)) for game, deal in facts])
            gains.append([float(deal.level_gain(match_team(game, team))) for game, deal in facts])
            double_downs.append(
                [
                    float(
                        deal.winning_team == match_team(game, team)
                        and deal.places[1] % 2 == deal.places[0] % 2
                    )
                    for game, deal in facts
                ]
            )
        result = TeamResult(
            bot,
            deal_win_rate=cluster_mean(wins, bounds=RATE),
            level_gain_per_deal=cluster_mean(gains),
            double_down_rate=cluster_mean(double_downs, bounds=RATE),
        )
    if match_pairs:
        scores = [[_match_score(game, team) for game in pair] for pair in match_pairs]
        points = [
            [float(game.points[match_team(game, team)]) for game in pair if game.points is not None]
            for pair in match_pairs
        ]
        inside = [[(game, deal) for game in pair for deal in game.deals] for pair in match_pairs]
        result = replace(
            result,
            match_win_rate=cluster_mean(scores, bounds=RATE),
            points_per_match=cluster_mean(points),
            deal_win_rate_in_matches=cluster_mean(
                (
                    [float(deal.winning_team == match_team(game, team)) for game, deal in deals]
                    for deals in inside
                ),
                bounds=RATE,
            ),
            level_gain_per_deal_in_matches=cluster_mean(
                [float(deal.level_gain(match_team(game, team))) for game, deal in deals] for deals in inside
            ),
        )
    return result


def play_stats(pairs_: Sequence[tuple[GameOutcome, ...]]) -> PlayStats:
    """The play statistics over every finished deal, one cluster per pair."""
    plays, plays_in, winner, winner_in, bombs = [], [], [], [], []
    bombs_by_team: tuple[list[list[float]], list[list[float]]] = ([], [])
    completes, completes_wild = [], []
    plays_histogram: Counter[int] = Counter()
    winner_histogram: Counter[int] = Counter()
    low, high = PLAYS_RANGE
    winner_low, winner_high = WINNER_PLAYS_RANGE
    for pair in pairs_:
        deals = [(game, deal) for game in pair for deal in game.deals]
        plays.append([float(deal.total_plays) for _, deal in deals])
        plays_in.append([float(low <= deal.total_plays <= high) for _, deal in deals])
        winner.append([float(deal.winner_plays) for _, deal in deals])
        winner_in.append([float(winner_low <= deal.winner_plays <= winner_high) for _, deal in deals])
        bombs.append([float(sum(deal.bombs)) for _, deal in deals])
        for team in (0, 1):
            bombs_by_team[team].append(
                [
                    float(sum(count for seat, count in enumerate(deal.bombs) if _team_seat(game, seat, team)))
                    for game, deal in deals
                ]
            )
        returns = [fact for _, deal in deals for fact in deal.returns]
        completes.append([float(fact.completes_bomb) for fact in returns])
        completes_wild.append([float(fact.completes_bomb_with_wilds) for fact in returns])
        plays_histogram.update(deal.total_plays for _, deal in deals)
        winner_histogram.update(deal.winner_plays for _, deal in deals)
    return PlayStats(
        deals=sum(len(cluster) for cluster in plays),
        plays_per_deal=cluster_mean(plays),
        plays_in_range=cluster_mean(plays_in, bounds=RATE),
        winner_plays=cluster_mean(winner),
        winner_plays_in_range=cluster_mean(winner_in, bounds=RATE),
        bombs_per_deal=cluster_mean(bombs),
        bombs_per_deal_by_team=(cluster_mean(bombs_by_team[0]), cluster_mean(bombs_by_team[1])),
        returns=sum(len(cluster) for cluster in completes),
        return_completes_bomb=cluster_mean(completes, bounds=RATE),
        return_completes_bomb_with_wilds=cluster_mean(completes_wild, bounds=RATE),
        plays_histogram=dict(plays_histogram),
        winner_plays_histogram=dict(winner_histogram),
    )


def summarize_pairs(
    config: ArenaConfig,
    outcomes: Iterable[GameOutcome],
    team_result: Callable[[ArenaConfig, int, Sequence[tuple[GameOutcome, ...]]], TeamT],
    stats: Callable[[Sequence[tuple[GameOutcome, ...]]], StatsT],
    results: Callable[[ArenaConfig, int, int, tuple[TeamT, TeamT], Interval | None, int, StatsT], ResultsT],
) -> ResultsT:
    """A run's results in either game: the outcomes in duplicate pairs, each team's ``team_result``,
    the deals per match, the unfinished matches and the game's own ``stats``."""
    grouped = pairs(outcomes)
    match_pairs = [pair for pair in grouped if pair[0].kind is GameKind.MATCH]
    deals_per_match = (
        cluster_mean([[float(game.finished_deals) for game in pair] for pair in match_pairs])
        if match_pairs
        else None
    )
    return results(
        config,
        len(grouped) - len(match_pairs),
        len(match_pairs),
        (team_result(config, 0, grouped), team_result(config, 1, grouped)),
        deals_per_match,
        sum(not game.finished for pair in match_pairs for game in pair),
        stats(grouped),
    )


def summarize(config: ArenaConfig, outcomes: Iterable[GameOutcome]) -> ArenaResults:
    """The results of a run from its game outcomes."""
    return summarize_pairs(config, outcomes, team_result, play_stats, ArenaResults)


__all__ = [
    "HUMAN",
    "INTERVAL_METHOD",
    "PLAYS_RANGE",
    "RESULTS_FORMAT",
    "RESULTS_VERSION",
    "SEEDING",
    "WINNER_PLAYS_RANGE",
    "ArenaResults",
    "PlayStats",
    "TeamFigures",
    "TeamJson",
    "TeamResult",
    "first_deal",
    "interval_json",
    "match_team",
    "pairs",
    "play_stats",
    "run_json",
    "summarize",
    "summarize_pairs",
    "team_result",
]
