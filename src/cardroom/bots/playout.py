"""Playouts for search: a deal at a sampled position, played on by one policy at every seat, each seat
acting on what it would see there (its own sampled hand and the public history): to the end of the
deal, or to the end of the trick."""

from __future__ import annotations

from dataclasses import replace
from typing import Protocol

from cardroom.guandan.deal import Deal, Phase, PlayAction
from cardroom.guandan.observation import Observation


class PlayoutPolicy(Protocol):
    """A policy that decides a play from an observation that does not list the legal actions (listing
    them costs more than deciding; :meth:`cardroom.bots.HeuristicBot.play`)."""

    def play(self, observation: Observation) -> PlayAction:
        """A legal play for the seat to act."""
        ...


def observe_position(deal: Deal, seat: int, template: Observation, *, listed: bool = True) -> Observation:
    """``seat``'s observation of a position ``deal`` (:meth:`Deal.at_position`): the match facts and the
    history before the position come from ``template`` (the searching seat's observation), the rest
    from the deal. ``listed=False`` leaves the legal actions out."""
    last = deal.last_play
    return replace(
        template,
        seat=seat,
        hand=deal.hand(seat),
        phase=deal.phase,
        current_player=deal.current_player,
        card_counts=(deal.card_count(0), deal.card_count(1), deal.card_count(2), deal.card_count(3)),
        finished=tuple(deal.finished),
        previous=last[1] if last else None,
        previous_seat=last[0] if last else None,
        history=template.history + tuple(deal.events),
        legal_actions=deal.listed_actions(seat) if listed else (),
    )


def play_out(deal: Deal, policy: PlayoutPolicy, template: Observation) -> None:
    """Play the position to the end of the deal with ``policy`` at every seat (each play is still
    checked by the deal)."""
    while deal.phase is Phase.PLAY:
        play_next(deal, policy, template)


def play_trick(deal: Deal, policy: PlayoutPolicy, template: Observation) -> None:
    """Play the position to the end of the trick in play (the next lead), or of the deal if it ends
    first; with no play to beat, nothing is played."""
    while deal.phase is Phase.PLAY and deal.last_play is not None:
        play_next(deal, policy, template)


def play_next(deal: Deal, policy: PlayoutPolicy, template: Observation) -> None:
    """The player to act plays what ``policy`` chooses for it."""
    seat = deal.current_player
    assert seat is not None
    deal.apply(policy.play(observe_position(deal, seat, template, listed=False)))
