"""What one seat may know (the only view a bot, a client or an RL agent gets): its own hand, the
public history, card counts, levels and whose turn — never another seat's cards."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from cardroom.cards import Card, Rank
from cardroom.guandan.deal import Action, Event
from cardroom.guandan.plays import Play
from cardroom.guandan.ruleset import COMPETITION, RuleSet

if TYPE_CHECKING:
    from cardroom.guandan.match import Match


@dataclass(frozen=True)
class Observation:
    """One seat's view of the match at this moment.

    ``history`` is the current deal's log as this seat may see it (a return card only to the two
    seats it passes between); ``previous`` is the play to beat and ``previous_seat`` who made it;
    ``legal_actions`` is filled only when this seat is to act; ``turned`` is the first deal's turned
    card and the seat it was dealt to, public all through that deal (seed 002 通則 二.2: 翻出一張牌 …
    抓到翻出牌張者首圈領出牌).
    """

    seat: int
    hand: tuple[Card, ...]
    level: Rank
    levels: tuple[Rank, Rank]
    level_team: int | None
    deal_number: int
    phase: str
    current_player: int | None
    card_counts: tuple[int, int, int, int]
    finished: tuple[int, ...]
    previous: Play | None
    previous_seat: int | None
    history: tuple[Event, ...]
    legal_actions: tuple[Action, ...]
    rules: RuleSet = COMPETITION
    turned: tuple[int, Card] | None = None

    @property
    def announced_counts(self) -> dict[int, int]:
        """报牌: the seats holding 10 or fewer cards (and not out), with their counts."""
        return {seat: count for seat, count in enumerate(self.card_counts) if 0 < count <= 10}


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
            match.phase.value,
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
    to_act = deal.current_player == seat
    return Observation(
        seat=seat,
        hand=deal.hand(seat),
        level=deal.level,
        levels=levels,
        level_team=match.summaries[-1].level_team if deal.result and match.summaries else match.level_team,
        deal_number=len(match.deals),
        phase=deal.phase.value if not match.is_over else match.phase.value,
        current_player=deal.current_player,
        card_counts=(counts[0], counts[1], counts[2], counts[3]),
        finished=tuple(deal.finished),
        previous=last[1] if last else None,
        previous_seat=last[0] if last else None,
        history=tuple(event for event in deal.events if event.visible_to(seat)),
        legal_actions=tuple(deal.legal_actions()) if to_act else (),
        rules=match.rules,
        turned=None if deal.turned_card is None or deal.leader is None else (deal.leader, deal.turned_card),
    )
