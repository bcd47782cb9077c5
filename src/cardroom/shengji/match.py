"""A Shengji match: both teams' levels from 2, one deal after another, until the dealers pass A (打过A).

Levels and dealers, docs/rules/shengji.md#next-dealer:
莊家升級時，下一副牌由其對家當莊家。閑家上台時，下一副牌由此副牌的莊家的下家當莊家 — the dealer team keeping
the deal rises by the result table and the dealer's partner deals next; attackers who take over rise by the
table and the dealer's 下家 (the next seat) deals. Every rise stops at a must-play level (必打) and at the
top; at J, attackers winning the last trick with a J send the dealers back to 2 (J 摳底); at A the dealers
pass it only by winning the last trick with an A (帶帽子).

Randomness is injected: :meth:`Match.deal` takes the 108 cards in dealing order; :meth:`Match.deal_random`
shuffles them with a ``random.Random``.
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from enum import Enum

from cardroom.cards import Card, Rank, full_deck
from cardroom.shengji.deal import SEATS, Action, Deal, DealResult, Phase, team_of
from cardroom.shengji.deal_errors import WrongPhaseError
from cardroom.shengji.observation import Observation
from cardroom.shengji.ruleset import SHENGJI, ShengjiRules
from cardroom.shengji.scoring import Outcome, rise_level


class MatchPhase(Enum):
    """Waiting for cards to be dealt, inside a deal, or over."""

    DEALING = "dealing"
    DEAL = "deal"
    OVER = "over"


@dataclass(frozen=True)
class DealSummary:
    """One finished deal as the match saw it."""

    level: Rank
    dealer: int
    result: DealResult
    outcome: Outcome
    levels_after: tuple[Rank, Rank]
    next_dealer: int
    reset: bool
    """J 摳底 sent the dealers back to the first level."""
    passed_top: bool
    """The dealers passed the top level (打过A) and won the match."""


class Match:
    """Both teams' levels and the deals of one match (team 0: seats 0 & 2, team 1: seats 1 & 3)."""

    def __init__(self, rules: ShengjiRules = SHENGJI) -> None:
        self.rules = rules
        self.levels: list[Rank] = [rules.first_level, rules.first_level]
        self.dealer: int | None = None
        """The next (or current) deal's dealer; ``None`` before the first deal's declaring ends."""
        self.deals: list[Deal] = []
        self.summaries: list[DealSummary] = []
        self.winner: int | None = None
        self.phase = MatchPhase.DEALING

    # -- dealing ---------------------------------------------------------------------------------

    @property
    def level(self) -> Rank:
        """The level rank of the next deal: the dealer team's level (the first level at first)."""
        return self.rules.first_level if self.dealer is None else self.levels[team_of(self.dealer)]

    def deal(self, deck: Sequence[Card], first_drawer: int | None = None) -> Deal:
        """Start the next deal with the 108 cards in dealing order. The first deal's dealer comes from
        declaring (``first_drawer``, default 0, draws first and deals if nobody declares); later deals
        the dealer draws first."""
        if self.phase is not MatchPhase.DEALING:
            raise WrongPhaseError(f"cannot deal: the match is in its {self.phase.value} phase")
        if self.dealer is not None and first_drawer is not None:
            raise ValueError("only the first deal names its first drawer; later the dealer draws first")
        deal = Deal(deck, self.level, self.rules, dealer=self.dealer, first_drawer=first_drawer)
        self.deals.append(deal)
        self.phase = MatchPhase.DEAL
        return deal

    def deal_random(self, rng: random.Random) -> Deal:
        """Shuffle both decks with ``rng`` and deal; the first deal's first drawer is drawn too."""
        deck = shuffled_deck(rng)
        if self.dealer is None:
            return self.deal(deck, rng.randrange(SEATS))
        return self.deal(deck)

    # -- the game API ----------------------------------------------------------------------------

    @property
    def current_deal(self) -> Deal | None:
        return self.deals[-1] if self.phase is MatchPhase.DEAL else None

    @property
    def current_player(self) -> int | None:
        deal = self.current_deal
        return None if deal is None else deal.current_player

    def legal_actions(self) -> Iterator[Action]:
        deal = self.current_deal
        return iter(()) if deal is None else deal.legal_actions()

    def _deal_in_play(self) -> Deal:
        deal = self.current_deal
        if deal is None:
            raise WrongPhaseError(f"no deal is in play: the match is in its {self.phase.value} phase")
        return deal

    def verify(self, action: Action) -> Action:
        """Raise a ``ValueError`` subclass naming the rule if ``action`` is not legal now."""
        return self._deal_in_play().verify(action)

    def can(self, action: Action) -> bool:
        deal = self.current_deal
        return deal is not None and deal.can(action)

    def apply(self, action: Action) -> None:
        """Validate and apply an action of the current deal; a finished deal updates levels and dealer."""
        self.apply_verified(self.verify(action))

    def apply_verified(self, action: Action) -> None:
        """Apply an action as :meth:`verify` returned it in this very state, without checking it again
        (:meth:`Deal.apply_verified`); a finished deal updates levels and dealer."""
        deal = self._deal_in_play()
        deal.apply_verified(action)
        if deal.phase is Phase.OVER:
            assert deal.result is not None
            self._finish_deal(deal.result)

    def observation(self, seat: int) -> Observation:
        """What ``seat`` may know of the current (or last) deal, with both teams' levels."""
        if not self.deals:
            raise WrongPhaseError("no deal has been dealt yet")
        return self.deals[-1].observation(seat, (self.levels[0], self.levels[1]))

    @property
    def is_over(self) -> bool:
        return self.phase is MatchPhase.OVER

    # -- levels ----------------------------------------------------------------------------------

    def _finish_deal(self, result: DealResult) -> None:
        summary = next_levels(self.levels, result, self.rules)
        self.levels = list(summary.levels_after)
        self.summaries.append(summary)
        self.dealer = summary.next_dealer
        if summary.passed_top:
            self.winner = team_of(result.dealer)
            self.phase = MatchPhase.OVER
        else:
            self.phase = MatchPhase.DEALING


def next_levels(levels: Sequence[Rank], result: DealResult, rules: ShengjiRules) -> DealSummary:
    """Both teams' levels and the next dealer after a deal (the match's arithmetic, for tests and tools).

    Dealers keep the deal (score under the take-over score): they rise by the table and the dealer's
    partner deals; at the top level they instead pass it (win), with ``top_level_last_trick`` only when
    they also won the last trick with a card of that rank (else they stay, the partner deals).
    Attackers take over: they rise by the table and the dealer's 下家 deals. ``reset_level``: attackers
    winning the last trick with a card of it send the dealers back to the first level.
    """
    dealer = result.dealer
    dealers, attackers = team_of(dealer), 1 - team_of(dealer)
    after = list(levels)
    result_outcome = result.outcome(rules)
    passed = False
    if result_outcome.attackers_take_over:
        after[attackers] = rise_level(after[attackers], result_outcome.rise, rules)
        next_dealer = (dealer + 1) % SEATS
    else:
        if after[dealers] == rules.top_level:
            passed = not rules.top_level_last_trick or (
                not result.attackers_won_last_trick and result.last_trick_won_with(rules.top_level)
            )
        else:
            after[dealers] = rise_level(after[dealers], result_outcome.rise, rules)
        next_dealer = (dealer + 2) % SEATS
    reset = (
        rules.reset_level is not None
        and result.level == rules.reset_level
        and result.attackers_won_last_trick
        and result.last_trick_won_with(rules.reset_level)
    )
    if reset:
        after[dealers] = rules.first_level
    return DealSummary(
        level=result.level,
        dealer=dealer,
        result=result,
        outcome=result_outcome,
        levels_after=(after[0], after[1]),
        next_dealer=next_dealer,
        reset=reset,
        passed_top=passed,
    )


def shuffled_deck(rng: random.Random) -> tuple[Card, ...]:
    """Both decks shuffled with ``rng``: the order of dealing (the last 8 are the kitty)."""
    deck = list(full_deck())
    rng.shuffle(deck)
    return tuple(deck)


__all__ = ["DealSummary", "Match", "MatchPhase", "next_levels", "shuffled_deck"]
