"""What one seat may know (the only view a bot, a client or an RL agent gets): its own hand, the
public history, card counts, levels and whose turn — never another seat's cards."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import Enum

from cardroom.cards import Card, Rank
from cardroom.guandan.deal import Action, Event, Phase
from cardroom.guandan.plays import Play
from cardroom.guandan.ruleset import COMPETITION, RuleSet


class MatchPhase(Enum):
    """Waiting for cards to be dealt, inside a deal, or over."""

    DEALING = "dealing"
    DEAL = "deal"
    OVER = "over"


ObservedPhase = Phase | MatchPhase
"""The phase an observation reports: the deal's (tribute, return, play, over), or the match's when no
deal is in play (dealing) or the match is over."""


@dataclass(frozen=True)
class Observation:
    """One seat's view of the match at this moment.

    ``history`` is the current deal's log as this seat may see it (a return card only to the two
    seats it passes between); ``previous`` is the play to beat and ``previous_seat`` who made it;
    ``legal_actions`` is filled only when this seat is to act (plays as a
    :class:`~cardroom.guandan.deal.LegalPlays`, which makes each action only when read: a Huopin lead
    may have over ten thousand); ``turned`` is the first deal's turned
    card and the seat it was dealt to, public all through that deal (docs/rules/competition.md#first-lead:
    翻出一張牌 … 抓到翻出牌張者首圈領出牌); ``previous_places`` is the previous deal's finishing order, on
    which this deal's tribute rests (public; ``None`` in a first deal, after a foul, or where not known).
    """

    seat: int
    hand: tuple[Card, ...]
    level: Rank
    levels: tuple[Rank, Rank]
    level_team: int | None
    deal_number: int
    phase: ObservedPhase
    current_player: int | None
    card_counts: tuple[int, int, int, int]
    finished: tuple[int, ...]
    previous: Play | None
    previous_seat: int | None
    history: tuple[Event, ...]
    legal_actions: Sequence[Action]
    rules: RuleSet = COMPETITION
    turned: tuple[int, Card] | None = None
    previous_places: tuple[int, int, int, int] | None = None

    @property
    def announced_counts(self) -> dict[int, int]:
        """报牌: the seats holding 10 or fewer cards (and not out), with their counts."""
        return {seat: count for seat, count in enumerate(self.card_counts) if 0 < count <= 10}
