"""Confidence intervals for duplicate play, and the play statistics of a deal read from its event log.

Pure functions on numbers and on the rules core's values; nothing here does I/O or draws chance.

**Intervals.** In duplicate play the two games of a pair share their cards, so they are not independent;
the pairs are. Every statistic is a mean over some units (deals, games, return cards) grouped into
clusters, one cluster per duplicate pair. :func:`cluster_mean` estimates the mean as the ratio
``Σ values / Σ units`` and its standard error by the cluster (linearised ratio) estimator, with Student's
*t* on ``clusters − 1`` degrees of freedom. When every cluster holds the same number of units (a deal
pair: two games) this is exactly the *t* interval on the pair means.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from statistics import NormalDist

from cardroom.cards import Card, Rank, Suit
from cardroom.guandan.deal import Event, EventKind

CONFIDENCE = 0.95


# -- Student's t ------------------------------------------------------------------------------------


def t_two_sided_coverage(t: float, df: int) -> float:
    """P(|T| < t) for Student's t with ``df`` (a positive integer) degrees of freedom.

    The closed forms of Abramowitz & Stegun 26.7.3–4 (a finite series in cos θ, θ = atan(t/√df)).
    """
    if df < 1:
        raise ValueError(f"degrees of freedom must be at least 1, got {df}")
    if t <= 0:
        return 0.0
    theta = math.atan(t / math.sqrt(df))
    sin, cos2 = math.sin(theta), math.cos(theta) ** 2
    if df % 2 == 1:
        total, term = 1.0, 1.0
        for k in range(1, (df - 1) // 2):
            term *= cos2 * (2 * k) / (2 * k + 1)
            total += term
        series = sin * math.cos(theta) * total if df > 1 else 0.0
        return 2 / math.pi * (theta + series)
    total, term = 1.0, 1.0
    for k in range(1, df // 2):
        term *= cos2 * (2 * k - 1) / (2 * k)
        total += term
    return sin * total


def t_quantile(probability: float, df: int) -> float:
    """The ``probability`` quantile (above 0.5) of Student's t with ``df`` degrees of freedom.

    Exact (bisection on :func:`t_two_sided_coverage`) up to 1000 degrees of freedom; beyond, the
    Cornish–Fisher expansion around the normal quantile, good to 1e-9 there.
    """
    if not 0.5 <= probability < 1:
        raise ValueError(f"the probability must be in [0.5, 1), got {probability}")
    if df < 1:
        raise ValueError(f"degrees of freedom must be at least 1, got {df}")
    z = NormalDist().inv_cdf(probability)
    if df > 1000:
        return (
            z
            + (z**3 + z) / (4 * df)
            + (5 * z**5 + 16 * z**3 + 3 * z) / (96 * df**2)
            + (3 * z**7 + 19 * z**5 + 17 * z**3 - 15 * z) / (384 * df**3)
        )
    coverage = 2 * probability - 1
    low, high = 0.0, max(1.0, z)
    while t_two_sided_coverage(high, df) < coverage:
        high *= 2
    for _ in range(200):
        middle = (low + high) / 2
        if t_two_sided_coverage(middle, df) < coverage:
            low = middle
        else:
            high = middle
        if high - low < 1e-12 * high:
            break
    return (low + high) / 2


# -- intervals --------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Interval:
    """A mean with its 95% confidence interval; ``low``/``high`` are ``None`` with fewer than two
    clusters, and ``estimate`` is ``None`` when there is nothing to average."""

    estimate: float | None
    low: float | None
    high: float | None
    clusters: int
    units: int

    def to_json(self) -> dict[str, float | int | None]:
        return {
            "estimate": self.estimate,
            "low": self.low,
            "high": self.high,
            "clusters": self.clusters,
            "units": self.units,
        }

    def contains(self, value: float) -> bool:
        return self.low is not None and self.high is not None and self.low <= value <= self.high


def cluster_mean(
    clusters: Iterable[Sequence[float]],
    *,
    confidence: float = CONFIDENCE,
    bounds: tuple[float, float] | None = None,
) -> Interval:
    """The mean of all values, with a confidence interval that treats each cluster as one independent
    unit: ``r = Σy / Σn``, ``Var r ≈ k / ((k − 1) (Σn)²) · Σ (y_j − r n_j)²`` over the ``k`` clusters
    (``y_j`` a cluster's sum, ``n_j`` its size; empty clusters count), and ``r ± t(k − 1) · √Var``.

    ``bounds`` clips the interval (a rate lies in [0, 1]).
    """
    sums: list[float] = []
    sizes: list[int] = []
    for cluster in clusters:
        sums.append(math.fsum(cluster))
        sizes.append(len(cluster))
    k, units = len(sums), sum(sizes)
    if units == 0:
        return Interval(None, None, None, k, 0)
    ratio = math.fsum(sums) / units
    if k < 2:
        return Interval(ratio, None, None, k, units)
    residuals = math.fsum((total - ratio * size) ** 2 for total, size in zip(sums, sizes, strict=True))
    error = math.sqrt(k * residuals / ((k - 1) * units**2))
    half = t_quantile((1 + confidence) / 2, k - 1) * error
    low, high = ratio - half, ratio + half
    if bounds is not None:
        low, high = max(bounds[0], low), min(bounds[1], high)
    return Interval(ratio, low, high, k, units)


def mean_interval(
    values: Sequence[float],
    *,
    confidence: float = CONFIDENCE,
    bounds: tuple[float, float] | None = None,
) -> Interval:
    """The t interval of independent values: ``mean ± t(n − 1) · s / √n``, clipped to ``bounds`` if
    given (a score lies in [0, 1])."""
    return cluster_mean(([value] for value in values), confidence=confidence, bounds=bounds)


# -- play statistics of one deal ---------------------------------------------------------------------


@dataclass(frozen=True)
class ReturnFact:
    """One return card (还贡) and what it made in the receiver's hand: ``natural`` the cards of its
    rank the receiver then holds, ``wild`` the receiver's ♥ level cards that could join them."""

    card: Card
    natural: int
    wild: int

    @property
    def completes_bomb(self) -> bool:
        """The receiver now holds four or more cards of the returned rank (成火,
        docs/rules/platform.md#human-figures: the return makes a bomb or strengthens one), the ♥ level cards
        not counted."""
        return self.natural >= 4

    @property
    def completes_bomb_with_wilds(self) -> bool:
        """As :attr:`completes_bomb`, the receiver's ♥ level cards counted as that rank."""
        return self.natural + self.wild >= 4


@dataclass(frozen=True)
class DealFacts:
    """What the arena keeps of one finished deal: the places, each seat's non-pass plays and bomb-class
    plays, both teams' level values before and after (a passed A counts 15), and the return cards."""

    places: tuple[int, int, int, int]
    plays: tuple[int, int, int, int]
    bombs: tuple[int, int, int, int]
    levels_before: tuple[int, int]
    levels_after: tuple[int, int]
    returns: tuple[ReturnFact, ...]

    @property
    def winner_seat(self) -> int:
        """The 上游."""
        return self.places[0]

    @property
    def winning_team(self) -> int:
        return self.places[0] % 2

    @property
    def total_plays(self) -> int:
        """Non-pass plays of all four seats."""
        return sum(self.plays)

    @property
    def winner_plays(self) -> int:
        """Non-pass plays of the 上游."""
        return self.plays[self.places[0]]

    def level_gain(self, team: int) -> int:
        return self.levels_after[team] - self.levels_before[team]


@dataclass(frozen=True)
class ShengjiDealFacts:
    """What the arena keeps of one finished Shengji deal: the dealer, the trump (a suit letter, ``None``
    for no trump), whether anybody declared, the attackers' score (card points + kitty bonus +
    penalties) and its parts, how the deal ended (attackers took over, levels risen), both teams' rungs
    of the rule set's level ladder before and after, the tricks and failed throws.

    A rung is the level's place on ``rules.levels`` (0 the first level; one past the top level, the
    ladder's length, once a team passed it), so a level gained is one step of the ladder: on the seven
    levels 2, 5, 10, J, Q, K, A a rise 2 → 5 and a rise 10 → J are one each, and the J reset back to 2
    is −3. On the every-rank ladder a rung is the rank value less 2, as Guandan's level values."""

    dealer: int
    trump: str | None
    declared: bool
    score: int
    attackers_card_points: int
    kitty_bonus: int
    penalty: int
    take_over: bool
    rise: int
    rungs_before: tuple[int, int]
    rungs_after: tuple[int, int]
    tricks: int
    failed_throws: int

    @property
    def dealer_team(self) -> int:
        return self.dealer % 2

    @property
    def winning_team(self) -> int:
        """The team that keeps the deal (the dealers) or takes it over (the attackers)."""
        return 1 - self.dealer_team if self.take_over else self.dealer_team

    def level_gain(self, team: int) -> int:
        """The rungs of the ladder ``team`` climbed in the deal (negative after a reset)."""
        return self.rungs_after[team] - self.rungs_before[team]


def play_counts(events: Iterable[Event]) -> tuple[tuple[int, int, int, int], tuple[int, int, int, int]]:
    """Per seat: the non-pass plays and, of them, the bomb-class plays (bombs, straight flushes,
    jokers) in a deal's log."""
    plays, bombs = [0, 0, 0, 0], [0, 0, 0, 0]
    for event in events:
        if event.kind == EventKind.PLAY and event.seat is not None and event.play is not None:
            plays[event.seat] += 1
            bombs[event.seat] += event.play.kind.is_bomb
    return (plays[0], plays[1], plays[2], plays[3]), (bombs[0], bombs[1], bombs[2], bombs[3])


def return_facts(
    dealt_hands: Sequence[Iterable[Card]], events: Iterable[Event], level: Rank
) -> tuple[ReturnFact, ...]:
    """Each return card of a deal and the receiver's holding of its rank once it arrives.

    The hands are followed from the deal through the public ``tribute`` events (a face-down
    ``tribute_paid`` is repeated as a ``tribute`` once every payer has paid) to each ``return``.
    Jokers are never counted as completing a bomb of a rank.
    """
    hands = [Counter(hand) for hand in dealt_hands]
    wild = Card(level, Suit.HEARTS)
    facts: list[ReturnFact] = []
    for event in events:
        if event.kind not in (EventKind.TRIBUTE, EventKind.RETURN):
            continue
        assert event.seat is not None
        assert event.to is not None
        assert event.card is not None
        card = event.card
        hands[event.seat][card] -= 1
        hands[event.to][card] += 1
        if event.kind == EventKind.RETURN:
            hand = hands[event.to]
            if card.is_joker:
                natural, wilds = hand[card], 0
            else:
                natural = sum(count for held, count in hand.items() if held.rank is card.rank)
                wilds = 0 if card.rank is level else hand[wild]
            facts.append(ReturnFact(card, natural, wilds))
    return tuple(facts)


__all__ = [
    "CONFIDENCE",
    "DealFacts",
    "Interval",
    "ReturnFact",
    "ShengjiDealFacts",
    "cluster_mean",
    "mean_interval",
    "play_counts",
    "return_facts",
    "t_quantile",
    "t_two_sided_coverage",
]
