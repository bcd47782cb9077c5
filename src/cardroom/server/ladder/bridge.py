"""One seat of a ladder table spoken over another protocol than the card room's: the Guandan AI
competition's (docs/ladder.md, "Over the competition protocol"; the messages:
docs/competition-protocol.md) or OpenGuanDan's ("Over OpenGuanDan's protocol", through
:mod:`cardroom.server.ladder.openguandan_seat`).

:class:`SeatBridge` turns what the table tells the seat (the room's ``event`` frames, its log as the seat
may see it, and ``state`` frames) into the messages ``cardroom compete`` sends a seat, built by the same
functions of :mod:`cardroom.competition.messages`: ``notify`` ``beginning`` (and ``anti-tribute``),
``tribute``, ``back``, ``play``, ``episodeOver``, and ``act`` with the legal actions in the competition
simulator's order when the seat is to act. It reads the table's own state for the ``act`` (the seat's
observation) and the cards left at the end; nothing is played again. A bot's answer (``{"actIndex": i}``)
becomes the table action to play (:meth:`SeatBridge.answer`), or a refusal saying why.

What differs between protocols is a :class:`SeatProtocol`: the few messages built, and how an answer is
read; :class:`CompetitionProtocol` is the competition's, the bridge's default.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final, Protocol

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
from cardroom.guandan.deal import Action, Deal, EventKind
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


Transfer = tuple[int, int, Card]
"""A tribute or a return the seat may see: giver, receiver, card."""


class SeatProtocol(Protocol):
    """The messages one protocol sends a ladder seat, and how it reads the bot's answers (the state
    they are built from is the :class:`SeatBridge`'s)."""

    def seated(self, bridge: SeatBridge) -> list[Message]:
        """What the connection is told when it takes the seat, before the table's frames."""

    def beginning(self, bridge: SeatBridge, deal: Deal, hand: Sequence[Card]) -> list[Message]:
        """A deal began (the bridge's level is its level): the seat's hand, and who is excused tribute."""

    def played(self, bridge: SeatBridge, seat: int, play: Play, before: tuple[int, Play] | None) -> Message:
        """``seat`` played or passed; ``before`` is the deal's last play before it."""

    def tributes(self, bridge: SeatBridge, handed: list[Transfer]) -> Message:
        """Every tribute paid, once all are."""

    def returns(self, bridge: SeatBridge, made: list[Transfer]) -> Message:
        """The returns the seat may see, once all are made."""

    def episode_over(self, bridge: SeatBridge, deal: Deal, places: list[int]) -> Message:
        """The deal is over: its finishing order, and the seat's cards left."""

    def game_over(self, bridge: SeatBridge, matches: int) -> Message:
        """The table's match is over (``matches``: the tables this connection has finished)."""

    def request(self, bridge: SeatBridge) -> tuple[Message, list[Action]]:
        """The seat is to act: the request, and the legal actions in the order it lists them."""

    def read(self, bridge: SeatBridge, raw: str | bytes) -> int:
        """The index in the listed actions that the bot's answer chose; :class:`AnswerError` when none."""

    def error(self, code: str, text: str, stage: str | None, received: str | None) -> Message:
        """An error told to the bot (``code`` names it; ``stage``: the request's it concerns)."""


class CompetitionProtocol:
    """The competition protocol's messages (docs/competition-protocol.md), by the builders that
    ``cardroom compete`` uses."""

    def seated(self, bridge: SeatBridge) -> list[Message]:
        return []

    def beginning(self, bridge: SeatBridge, deal: Deal, hand: Sequence[Card]) -> list[Message]:
        messages = [beginning(bridge.seat, hand, bridge.level, bridge.levels, bridge.rules)]
        excused = anti_tribute_seats(deal)
        if excused:
            messages.append(notify_anti_tribute(excused))
        return messages

    def played(self, bridge: SeatBridge, seat: int, play: Play, before: tuple[int, Play] | None) -> Message:
        return notify_play(seat, play, before if play.is_pass else (seat, play))

    def tributes(self, bridge: SeatBridge, handed: list[Transfer]) -> Message:
        return notify_tribute(handed)

    def returns(self, bridge: SeatBridge, made: list[Transfer]) -> Message:
        return notify_back(made)

    def episode_over(self, bridge: SeatBridge, deal: Deal, places: list[int]) -> Message:
        rest = [(bridge.seat, deal.hand(bridge.seat))] if deal.card_count(bridge.seat) else []
        return episode_over(places, deal.level, rest, bridge.rules)

    def game_over(self, bridge: SeatBridge, matches: int) -> Message:
        return game_over(matches, OPEN_ENDED)

    def request(self, bridge: SeatBridge) -> tuple[Message, list[Action]]:
        observation = bridge.table.observation(bridge.seat)
        listed = order_actions(observation)
        return act(observation, listed), listed

    def read(self, bridge: SeatBridge, raw: str | bytes) -> int:
        return parse_answer(raw, len(bridge.listed) - 1)

    def error(self, code: str, text: str, stage: str | None, received: str | None) -> Message:
        return error_message(code, text, stage=stage, received=received)


class SeatBridge:
    """One protocol's side of one seat of one ladder table: fed the room's frames for the seat, it says
    what to send the bot; fed the bot's answers, what to play."""

    def __init__(self, table: Table, seat: int, protocol: SeatProtocol | None = None) -> None:
        self.table = table
        self.seat = seat
        self.protocol: SeatProtocol = CompetitionProtocol() if protocol is None else protocol
        self.rules = table.rules
        self.level = Rank.TWO
        self.levels: tuple[Rank, Rank] = (Rank.TWO, Rank.TWO)
        self.greater: tuple[int, Play] | None = None
        """The last play of the trick (the one a pass leaves to beat)."""
        self.deal_index = 0
        self.moves = 0
        """Plays and passes told in the deal."""
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
            return [self.protocol.episode_over(self, deal, list(entry["places"]))]
        if kind == "fault" and entry["seat"] == self.seat and entry["kind"] == "clock":
            self.asked = None
            clock = self.table.config.clocks.bot
            text = f"no answer within {clock:g} s (fault {entry['count']}); the fallback bot played"
            return [self.protocol.error("timeout", text, self.stage, None)]
        if kind == "match_end":
            self.over = True
            self.asked = None
            return [self.protocol.game_over(self, matches)]
        return []

    def _deal(self, entry: Mapping[str, Any]) -> list[Message]:
        self.level = Rank.from_letter(entry["level"])
        self.greater = None
        self.deal_index, self.moves = entry["deal_number"] - 1, 0
        self.tributes = 0
        self.returns = []
        self.dealt = True
        deal = self.table.match.deals[entry["deal_number"] - 1]
        return self.protocol.beginning(self, deal, read_hand(" ".join(entry["hand"])))

    def _action(self, entry: Mapping[str, Any]) -> list[Message]:
        action = entry["action"]
        seat = action["seat"]
        if seat == self.seat:
            self.asked = None
        if "play" in action:
            play = from_triple(action["play"], self.level, self.rules)
            self.moves += 1
            if self._leads():
                self.greater = None
            before = self.greater
            if not play.is_pass:
                self.greater = (seat, play)
            return [self.protocol.played(self, seat, play, before)]
        if "tribute" in action:
            handed = entry.get("tributes") or ()
            if not handed:
                return []
            self.tributes = len(handed)
            paid = [(item["from"], item["to"], Card.parse(item["card"])) for item in handed]
            return [self.protocol.tributes(self, paid)]
        card = action["return"]
        self.returns.append((seat, _receiver(entry, seat), None if card is None else Card.parse(card)))
        if len(self.returns) < max(self.tributes, 1):
            return []
        made = [(giver, to, card) for giver, to, card in self.returns if card is not None]
        return [self.protocol.returns(self, made)]

    def _leads(self) -> bool:
        """Whether the play just told opens a trick (the deal's first, or the first after a trick)."""
        lead, seen = True, 0
        for event in self.table.match.deals[self.deal_index].events:
            if event.kind in (EventKind.PLAY, EventKind.PASS):
                seen += 1
                if seen == self.moves:
                    return lead
                lead = False
            elif event.kind is EventKind.TRICK:
                lead = True
        return lead

    def _state(self, frame: Mapping[str, Any]) -> list[Message]:
        """``act`` when the seat is to act in the table as it stands (a state behind the table is
        followed by a newer one), once per decision."""
        table = self.table
        if not frame.get("to_act") or frame.get("number") != table.number or self.over:
            return []
        turn = self.turn()
        if turn is None or turn == self.asked or table.faults.waiting(table.match) is not None:
            return []
        message, self.listed = self.protocol.request(self)
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
            return Refusal(self.protocol.error("unexpected", text, None, received), False, text)
        try:
            index = self.protocol.read(self, raw)
        except AnswerError as error:
            self.asked = None
            text = f"{error.message}; the fallback bot plays this move"
            message = self.protocol.error(error.code, text, self.stage, received)
            return Refusal(message, True, error.message)
        return Move(action_json(self.listed[index]))


def _receiver(entry: Mapping[str, Any], giver: int) -> int:
    """Whom a return went to: the seat its card may be shown to besides the giver."""
    shown: Sequence[int] = entry.get("private_to") or ()
    return next((seat for seat in shown if seat != giver), giver)


__all__ = [
    "OPEN_ENDED",
    "CompetitionProtocol",
    "Move",
    "Refusal",
    "SeatBridge",
    "SeatProtocol",
    "Transfer",
    "Turn",
]
