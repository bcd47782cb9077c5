"""A fast greedy policy on a deal's full state, for search playouts: each simulated player plays from
its own (sampled) hand at the rank level, with no card-level enumeration.

Leading: the lowest non-bomb play, the longer of equal keys (bombs only when nothing else is left).
Following: pass on the partner; else the lowest play of the same kind that beats the play to beat;
else the lowest bomb-class play when the opponent who made it holds few cards; else pass.
"""

from __future__ import annotations

from cardroom.guandan.deal import Deal, Phase, PlayAction
from cardroom.guandan.plays import PASS, Play
from cardroom.guandan.rankplays import RankCounts, RankPlay, iter_rank_follows, iter_rank_leads, rank_play_of
from cardroom.guandan.tribute import partner

BOMB_WHEN_OPPONENT_HOLDS = 6
"""Bomb an opponent's play when that opponent has this many cards or fewer left."""


def _lead_order(play: RankPlay) -> tuple[bool, int, int, int]:
    return play.kind.is_bomb, play.key, -play.size, play.wilds


def greedy_play(deal: Deal) -> Play:
    """The greedy policy's play for the player to act (a play phase deal)."""
    seat = deal.current_player
    if seat is None or deal.phase is not Phase.PLAY:
        raise ValueError("the greedy policy plays in the play phase, at a seat's turn")
    hand = deal.hands[seat]
    view = RankCounts(hand.elements(), deal.level, deal.rules)
    previous = deal.last_play
    if previous is None:
        choice = min(iter_rank_leads(view), key=_lead_order)
        return choice.to_play(hand.elements(), deal.level, deal.rules)
    by, play = previous
    if by == partner(seat):
        return PASS
    options = list(iter_rank_follows(view, rank_play_of(play)))
    plain = [option for option in options if not option.kind.is_bomb]
    if plain:
        return min(plain, key=_lead_order).to_play(hand.elements(), deal.level, deal.rules)
    if options and deal.card_count(by) <= BOMB_WHEN_OPPONENT_HOLDS:
        return min(options, key=_lead_order).to_play(hand.elements(), deal.level, deal.rules)
    return PASS


def play_out(deal: Deal) -> None:
    """Play the deal to its end with the greedy policy for every seat."""
    while deal.phase is Phase.PLAY:
        seat = deal.current_player
        assert seat is not None
        deal.apply(PlayAction(seat, greedy_play(deal)))
