"""One seat of a ladder table spoken over the Guandan AI competition's protocol (docs/ladder.md, "Over
the competition protocol"; the messages: docs/competition-protocol.md).

:class:`SeatBridge` turns what the table tells the seat (the room's ``event`` frames, its log as the seat
may see it, and ``state`` frames) into the messages ``cardroom compete`` sends a seat, built by the same
functions of :mod:`cardroom.competition.messages`: ``notify`` ``beginning`` (and ``anti-tribute``),
``tribute``, ``back``, ``play``, ``episodeOver``, and ``act`` with the legal actions in the competition
simulator's order when the seat is to act. It reads the table's own state for the ``act`` (the seat's
observation) and the cards left at the end; nothing is played again. A bot's answer (``{"actIndex": i}``)
becomes the table action to play (:meth:`SeatBridge.answer`), or a refusal saying why.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final

from cardroom.cards import Card, Rank
from cardroom.competition.messages import (
    AnswerError,
    Message,
    act,
    anti_tribute_seats,
    beginning,
    episode_over,
    error_message,
    game_over,
    notify_anti_tribute,
    notify_back,
    notify_play,
    notify_tribute,
    parse_answer,
)
from cardroom.competition.order import order_actions
from cardroom.guandan.deal import Action
from cardroom.guandan.plays import Play
from cardroom.guandan.triple import from_triple
from cardroom.server.tables.codec import action_json, read_hand
from cardroom.server.tables.guandan import Table

OPEN_ENDED: Final = 0
"""``settingTimes`` of the ``gameOver`` sent when a ladder table's match ends: the ladder sets no number
of matches."""

Turn = tuple[int, int]
"""A decision of the table: its deal's number and how many events that deal had."""


@dataclass(frozen=True)
class Move:
    """A bot's answer read: the table action to play (the card room protocol's shape)."""

    action: dict[str, Any]


@dataclass(frozen=True)
class Refusal:
    """A bot's answer refused: the ``error`` message to send, and whether it is a fault (a bad answer
    to the seat's own request; a late one is none)."""

    message: Message
    fault: bool
    reason: str


class SeatBridge:
    """The competition protocol's side of one seat of one ladder table: fed the room's frames for the
    seat, it says what to send the bot; fed the bot's answers, what to play."""

    def __init__(self, table: Table, seat: int) -> None:
        self.table = table
        self.seat = seat
        self.rules = table.rules
        self.level = Rank.TWO
        self.levels: tuple[Rank, Rank] = (Rank.TWO, Rank.TWO)
        self.greater: tuple[int, Play] | None = None
        """The last play of the deal (the one a pass leaves to beat)."""
        self.tributes = 0
        self.returns: list[tuple[int, int, Card | None]] = []
        self.asked: Turn | None = None
        """The decision the bot was asked for and has not answered."""
        self.listed: list[Action] = []
        self.stage: str | None = None
        self.over = False
        """The table's match has ended (its ``gameOver`` sent)."""
        self.dealt = False
        """A deal began and its ``episodeOver`` is not yet sent."""

    # -- what the table tells the seat -----------------------------------------------------------

    def frame(self, frame: Mapping[str, Any], matches: int = 1) -> list[Message]:
        """The messages to send for one frame of the room (``matches``: how many ladder tables this
        connection has finished, this one included, for ``gameOver``)."""
        kind = frame.get("type")
        if kind == "event":
            return self._event(frame["event"], matches)
        if kind == "state":
            return self._state(frame)
        return []

    def _event(self, entry: Mapping[str, Any], matches: int) -> list[Message]:
        kind = entry["type"]
        if kind == "deal":
            return self._deal(entry)
        if kind == "action":
            return self._action(entry)
        if kind == "deal_end":
            self.dealt = False
            self.levels = (Rank.from_letter(entry["levels"][0]), Rank.from_letter(entry["levels"][1]))
            deal = self.table.match.deals[entry["deal_number"] - 1]
            rest = [(self.seat, deal.hand(self.seat))] if deal.card_count(self.seat) else []
            return [episode_over(entry["places"], deal.level, rest, self.rules)]
        if kind == "fault" and entry["seat"] == self.seat and entry["kind"] == "clock":
            self.asked = None
            clock = self.table.config.clocks.bot
            text = f"no answer within {clock:g} s (fault {entry['count']}); the fallback bot played"
            return [error_message("timeout", text, stage=self.stage)]
        if kind == "match_end":
            self.over = True
            self.asked = None
            return [game_over(matches, OPEN_ENDED)]
        return []

    def _deal(self, entry: Mapping[str, Any]) -> list[Message]:
        self.level = Rank.from_letter(entry["level"])
        self.greater = None
        self.tributes = 0
        self.returns = []
        self.dealt = True
        messages = [
            beginning(self.seat, read_hand(" ".join(entry["hand"])), self.level, self.levels, self.rules)
        ]
        if entry.get("anti_tribute"):
            excused = anti_tribute_seats(self.table.match.deals[entry["deal_number"] - 1])
            messages.append(notify_anti_tribute(excused))
        return messages

    def _action(self, entry: Mapping[str, Any]) -> list[Message]:
        action = entry["action"]
        seat = action["seat"]
        if seat == self.seat:
            self.asked = None
        if "play" in action:
            play = from_triple(action["play"], self.level, self.rules)
            if not play.is_pass:
                self.greater = (seat, play)
            return [notify_play(seat, play, self.greater)]
        if "tribute" in action:
            handed = entry.get("tributes") or ()
            if not handed:
                return []
            self.tributes = len(handed)
            return [notify_tribute((item["from"], item["to"], Card.parse(item["card"])) for item in handed)]
        card = action["return"]
        self.returns.append((seat, _receiver(entry, seat), None if card is None else Card.parse(card)))
        if len(self.returns) < max(self.tributes, 1):
            return []
        return [notify_back((giver, to, card) for giver, to, card in self.returns if card is not None)]

    def _state(self, frame: Mapping[str, Any]) -> list[Message]:
        """``act`` when the seat is to act in the table as it stands (a state behind the table is
        followed by a newer one), once per decision."""
        table = self.table
        if not frame.get("to_act") or frame.get("number") != table.number or self.over:
            return []
        turn = self.turn()
        if turn is None or turn == self.asked or table.faults.waiting(table.match) is not None:
            return []
        observation = table.observation(self.seat)
        self.listed = order_actions(observation)
        message = act(observation, self.listed)
        self.asked, self.stage = turn, message["stage"]
        return [message]

    def turn(self) -> Turn | None:
        """The table's decision now when it is this seat's, else ``None``."""
        table = self.table
        deal = table.match.current_deal
        if table.status != "running" or deal is None or table.current_player != self.seat:
            return None
        if table.waits_for_choice():
            return None
        return len(table.match.deals), len(deal.events)

    # -- what the bot answers --------------------------------------------------------------------

    def answer(self, raw: str | bytes) -> Move | Refusal:
        """The bot's answer to the request it was sent: the action to play, or why not (a bad index or
        junk is a fault; an answer when none is asked, or after the table moved on, is none)."""
        received = raw if isinstance(raw, str) else raw.decode("utf-8", "replace")
        if self.asked is None or self.turn() != self.asked:
            self.asked = None
            text = "no action is asked for now (a late answer?); ignored"
            return Refusal(error_message("unexpected", text, received=received), False, text)
        try:
            index = parse_answer(raw, len(self.listed) - 1)
        except AnswerError as error:
            self.asked = None
            text = f"{error.message}; the fallback bot plays this move"
            message = error_message(error.code, text, stage=self.stage, received=received)
            return Refusal(message, True, error.message)
        return Move(action_json(self.listed[index]))


def _receiver(entry: Mapping[str, Any], giver: int) -> int:
    """Whom a return went to: the seat its card may be shown to besides the giver."""
    shown: Sequence[int] = entry.get("private_to") or ()
    return next((seat for seat in shown if seat != giver), giver)


__all__ = ["OPEN_ENDED", "Move", "Refusal", "SeatBridge", "Turn"]
