"""A Guandan match (一局): team levels from 2, one deal after another, until a team passes A (打过A)
or a fixed number of deals is played.

Randomness is injected: :meth:`Match.deal` takes the four hands (and, for the first deal, the leader
drawn from a turned card); :meth:`Match.deal_random` draws both with a ``random.Random``. The referee's
rulings (:mod:`cardroom.guandan.rulings`) go through :meth:`Match.apply_ruling`: a foul ends the deal
as a 双下 of the offender's side, and a forfeit ends the match.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from cardroom.cards import Card, Rank, full_deck, sort_cards
from cardroom.guandan.deal import Action, Deal, DealResult, Phase
from cardroom.guandan.errors import RuleError, RulingError, WrongPhaseError
from cardroom.guandan.observation import MatchPhase, Observation
from cardroom.guandan.ruleset import COMPETITION, AceFailure, RuleSet
from cardroom.guandan.rulings import ForfeitRuling, MatchRuling, forfeit_points
from cardroom.guandan.scoring import PASSED_ACE, round_points
from cardroom.guandan.tribute import team_of


@dataclass(frozen=True)
class DealSummary:
    """One finished deal as the match saw it: the level played, whose level it was, the result, and
    both teams' levels afterwards."""

    level: Rank
    level_team: int | None
    result: DealResult
    levels_after: tuple[Rank, Rank]
    passed_ace: bool
    failed_at_ace: tuple[int, ...]


class Match:
    """Both teams' levels and the deals of one match.

    ``max_deals`` limits the match to that many deals (the higher level wins; level after them →
    one more deal when the rule set says so, else a draw); ``None`` plays until a team passes A.
    """

    def __init__(self, rules: RuleSet = COMPETITION, *, max_deals: int | None = None) -> None:
        if max_deals is not None and max_deals < 1:
            raise ValueError(f"max_deals must be at least 1, got {max_deals}")
        self.rules = rules
        self.max_deals = max_deals
        self.levels: list[Rank] = [Rank.TWO, Rank.TWO]
        self.ace_failures = [0, 0]
        self.deals: list[Deal] = []
        self.summaries: list[DealSummary] = []
        self.level_team: int | None = None
        self.been_on_stage: set[int] = set()
        """Teams whose level has been played (庄家, on stage) at least once."""
        self.winner: int | None = None
        self.passed_ace = False
        self.forfeited: ForfeitRuling | None = None
        """The 判负 that ended the match, if one did."""
        self.phase = MatchPhase.DEALING

    # -- dealing ---------------------------------------------------------------------------------

    @property
    def level(self) -> Rank:
        """The level rank of the current (or next) deal: that of the last 上游's team; 2 at first."""
        return Rank.TWO if self.level_team is None else self.levels[self.level_team]

    @property
    def needs_leader(self) -> bool:
        """The first deal's leader comes from a turned card; later deals start with tribute."""
        return not self.deals

    @property
    def foul_by(self) -> int | None:
        """The offender whose foul (犯规) ended the last deal, while the next deal is to be dealt."""
        if self.phase is not MatchPhase.DEALING or not self.summaries:
            return None
        return self.summaries[-1].result.foul_by

    @property
    def needs_named_leader(self) -> bool:
        """The next deal follows a foul: "下副牌不进贡，由违规者的下家或裁判长指定首圈领出者"."""
        return self.foul_by is not None

    @property
    def leader_chooser(self) -> int | None:
        """Who names the next deal's leader after a foul: the offender's 下家 (or the chief referee)."""
        offender = self.foul_by
        return None if offender is None else (offender + 1) % 4

    def deal(
        self, hands: Sequence[Iterable[Card]], leader: int | None = None, turned_card: Card | None = None
    ) -> Deal:
        """Start the next deal with these hands; ``leader`` (and the turned card it holds) for the
        first deal, ``leader`` alone (named, no tribute) for the deal after a foul."""
        if self.phase is not MatchPhase.DEALING:
            raise WrongPhaseError(f"cannot deal: the match is in its {self.phase.value} phase")
        after_foul = self.needs_named_leader
        if self.needs_leader and leader is None:
            raise ValueError("the first deal needs its leader (the holder of the turned card)")
        if after_foul and leader is None:
            raise ValueError(
                f"the deal after a foul has no tribute and needs its named leader (named by seat "
                f"{self.leader_chooser}, the offender's 下家, or the chief referee)"
            )
        if after_foul and turned_card is not None:
            raise ValueError("the deal after a foul turns no card: its leader is named")
        if not self.needs_leader and not after_foul and leader is not None:
            raise ValueError("only the first deal names a leader; later deals start with tribute")
        previous = None
        if self.deals and not after_foul:
            result = self.deals[-1].result
            previous = result.places if result is not None else None
        deal = Deal(
            hands,
            self.level,
            self.rules,
            leader=leader,
            previous_places=previous,
            turned_card=turned_card,
            after_foul=after_foul,
        )
        self.deals.append(deal)
        self.phase = MatchPhase.DEAL
        if leader is not None and self.rules.first_deal_on_stage:
            self.level_team = team_of(leader)
            self.been_on_stage.add(self.level_team)
        return deal

    def deal_random(self, rng: random.Random, leader: int | None = None) -> Deal:
        """Shuffle with ``rng``, deal 27 cards each, and for the first deal turn a random card: its
        holder leads. After a foul, pass the named ``leader``."""
        hands, (holder, card) = shuffled_hands(rng)
        if self.needs_leader:
            return self.deal(hands, holder, card)
        return self.deal(hands, leader)

    # -- the game API ----------------------------------------------------------------------------

    @property
    def current_deal(self) -> Deal | None:
        return self.deals[-1] if self.phase is MatchPhase.DEAL else None

    @property
    def current_player(self) -> int | None:
        deal = self.current_deal
        return deal.current_player if deal is not None else None

    def legal_actions(self) -> Sequence[Action]:
        deal = self.current_deal
        return deal.legal_actions() if deal is not None else []

    def _deal_in_play(self) -> Deal:
        deal = self.current_deal
        if deal is None:
            raise WrongPhaseError(f"no deal is in play: the match is in its {self.phase.value} phase")
        return deal

    def verify(self, action: Action) -> Action:
        """Raise a ``RuleError`` subclass naming the rule if ``action`` is not legal now; else return
        it as the engine reads it."""
        return self._deal_in_play().verify(action)

    def can(self, action: Action) -> bool:
        """Whether ``action`` is legal now."""
        deal = self.current_deal
        return deal is not None and deal.can(action)

    def apply(self, action: Action) -> None:
        """Validate and apply an action of the current deal; a finished deal updates the levels."""
        self.apply_verified(self.verify(action))

    def apply_verified(self, action: Action) -> None:
        """Apply an action as :meth:`verify` returned it in this very state, without checking it again
        (:meth:`Deal.apply_verified`); a finished deal updates the levels."""
        deal = self._deal_in_play()
        deal.apply_verified(action)
        if deal.phase is Phase.OVER:
            assert deal.result is not None
            self._finish_deal(deal, deal.result)

    # -- rulings ----------------------------------------------------------------------------------

    def verify_ruling(self, ruling: MatchRuling) -> None:
        """Raise a ``RuleError`` subclass naming the rule if the referee's ``ruling`` cannot apply now:
        a skipped turn or a foul needs a deal in play (:meth:`Deal.verify_ruling`); a forfeit, a match
        not over and a side 0 or 1."""
        if isinstance(ruling, ForfeitRuling):
            if self.phase is MatchPhase.OVER:
                raise WrongPhaseError("the match is over")
            if ruling.side not in (0, 1):
                raise RulingError(f"the forfeiting side is 0 or 1, got {ruling.side}")
            return
        self._deal_in_play().verify_ruling(ruling)

    def can_ruling(self, ruling: MatchRuling) -> bool:
        """Whether ``ruling`` can apply now."""
        try:
            self.verify_ruling(ruling)
        except RuleError:
            return False
        return True

    def apply_ruling(self, ruling: MatchRuling) -> None:
        """Validate and apply a ruling: a foul's deal ends and updates the levels as a 双下 of the other
        side; a forfeit stops any deal in play and ends the match, the other side winning."""
        self.verify_ruling(ruling)
        if isinstance(ruling, ForfeitRuling):
            deal = self.current_deal
            if deal is not None:
                deal.stop_by_forfeit(ruling.side)
            self.forfeited = ruling
            self.winner = 1 - ruling.side
            self.phase = MatchPhase.OVER
            return
        deal = self._deal_in_play()
        deal.apply_ruling(ruling)
        if deal.phase is Phase.OVER:
            assert deal.result is not None
            self._finish_deal(deal, deal.result)

    def forfeit(self, side: int, reason: str = "") -> None:
        """判负 (or 弃权) of ``side``: ``apply_ruling(ForfeitRuling(side, reason))``."""
        self.apply_ruling(ForfeitRuling(side, reason))

    @property
    def forfeited_by(self) -> int | None:
        """The side that lost the match by 判负, if any."""
        return None if self.forfeited is None else self.forfeited.side

    def observation(self, seat: int) -> Observation:
        """What ``seat`` may know: its hand, the public history and counts, levels, whose turn."""
        return observe(self, seat)

    # -- levels ----------------------------------------------------------------------------------

    def _finish_deal(self, deal: Deal, result: DealResult) -> None:
        rules = self.rules
        winner = result.winning_team
        played_team = self.level_team
        passed = (
            played_team == winner
            and self.levels[winner] == Rank.ACE
            and result.partner_place <= rules.pass_ace_partner_place
        )
        failed: list[int] = []
        if passed:
            self.winner = winner
            self.passed_ace = True
        else:
            if not (rules.first_stage_without_rise and winner not in self.been_on_stage):
                self.levels[winner] = Rank(min(int(Rank.ACE), self.levels[winner] + result.rise(rules)))
            overthrown = winner != played_team
            if (
                played_team is not None
                and deal.level == Rank.ACE
                and (overthrown or rules.ace_failure is AceFailure.FAILED_DEAL)
            ):
                failed.append(played_team)
                self.ace_failures[played_team] += 1
                limit = rules.ace_failure_limit
                if limit is not None and self.ace_failures[played_team] >= limit:
                    self.levels[played_team] = Rank.TWO
                    self.ace_failures[played_team] = 0
        self.level_team = winner
        self.been_on_stage.add(winner)
        self.summaries.append(
            DealSummary(
                deal.level, played_team, result, (self.levels[0], self.levels[1]), passed, tuple(failed)
            )
        )
        if passed:
            self.phase = MatchPhase.OVER
        elif self.max_deals is not None and len(self.deals) >= self.max_deals:
            self._end_by_deals()
        else:
            self.phase = MatchPhase.DEALING

    def _end_by_deals(self) -> None:
        if self.levels[0] != self.levels[1]:
            self.winner = 0 if self.levels[0] > self.levels[1] else 1
            self.phase = MatchPhase.OVER
        elif self.rules.tie_extra_deal:
            self.phase = MatchPhase.DEALING
        else:
            self.phase = MatchPhase.OVER

    @property
    def is_over(self) -> bool:
        return self.phase is MatchPhase.OVER

    def level_values(self) -> tuple[int, int]:
        """Each team's level for scoring: 2…14 (A), and 15 for the team that passed A."""
        values = [int(level) for level in self.levels]
        if self.passed_ace and self.winner is not None:
            values[self.winner] = PASSED_ACE
        return values[0], values[1]

    def points(self) -> tuple[int, int]:
        """The 28-point round score of a finished match (teams 0 and 1); after a forfeit, 17 : 0 (or the
        table's score when the winner led by more than 4 levels)."""
        if not self.is_over:
            raise WrongPhaseError("the match is not over")
        if self.forfeited is not None:
            return forfeit_points(self.level_values(), self.forfeited.side)
        first, second = self.level_values()
        if self.winner is None:
            return 14, 14
        winner_points, loser_points = round_points(abs(first - second))
        return (winner_points, loser_points) if self.winner == 0 else (loser_points, winner_points)


def observe(match: Match, seat: int) -> Observation:
    """The observation of ``seat`` in ``match``."""
    if seat not in range(4):
        raise ValueError(f"a seat is 0–3, got {seat}")
    deal = match.deals[-1] if match.deals else None
    levels = (match.levels[0], match.levels[1])
    if deal is None:
        return Observation(
            seat,
            (),
            match.level,
            levels,
            match.level_team,
            0,
            match.phase,
            None,
            (0, 0, 0, 0),
            (),
            None,
            None,
            (),
            (),
            match.rules,
        )
    counts = tuple(deal.card_count(other) for other in range(4))
    last = deal.last_play
    return Observation(
        seat=seat,
        hand=deal.hand(seat),
        level=deal.level,
        levels=levels,
        level_team=match.summaries[-1].level_team if deal.result and match.summaries else match.level_team,
        deal_number=len(match.deals),
        phase=deal.phase if not match.is_over else match.phase,
        current_player=deal.current_player,
        card_counts=(counts[0], counts[1], counts[2], counts[3]),
        finished=tuple(deal.finished),
        previous=last[1] if last else None,
        previous_seat=last[0] if last else None,
        history=deal.history(seat),
        legal_actions=deal.listed_actions(seat),
        rules=match.rules,
        turned=None if deal.turned_card is None or deal.leader is None else (deal.leader, deal.turned_card),
        previous_places=deal.tribute_plan.places if deal.tribute_plan is not None else None,
    )


def shuffled_hands(rng: random.Random) -> tuple[tuple[tuple[Card, ...], ...], tuple[int, Card]]:
    """Shuffle both decks with ``rng``, deal them round the table (27 each, seat 0 first) and turn a
    random card of the deck: (hands in print order, (the turned card's holder, the card))."""
    deck = list(full_deck())
    rng.shuffle(deck)
    position = rng.randrange(len(deck))
    hands = tuple(sort_cards(deck[seat::4]) for seat in range(4))
    return hands, (position % 4, deck[position])


__all__ = ["DealSummary", "Match", "MatchPhase", "shuffled_hands", "team_of"]
