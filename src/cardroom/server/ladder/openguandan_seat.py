"""OpenGuanDan's protocol for one seat of a ladder table (docs/ladder.md, "Over OpenGuanDan's protocol";
the frames: docs/openguandan-protocol.md): the :class:`~cardroom.server.ladder.bridge.SeatProtocol` a
:class:`~cardroom.server.ladder.bridge.SeatBridge` speaks to a bot on ``/ws/ladder/openguandan``.

The frames are those our OpenGuanDan server (``cardroom compete --protocol openguandan``) sends a seat,
by the same builders: a ``JOIN_ROOM`` reply when the seat is taken (``roomId``: the tables this
connection has taken, this one included), ``notify`` ``beginning``, ``anti-tribute``, ``play``,
``tribute``, ``back``, ``episodeOver``, and ``act`` requests built as the room builds them
(:func:`~cardroom.openguandan.room.request_for`); ``gameOver`` with ``settingTimes`` 0 when the table's
match ends. As at any card room seat, the returns and the cards left at a deal's end are only those the
seat may see. An answer is a ``PLAY``, ``TRIBUTE`` or ``PAYTRIBUTE`` frame naming the room and the
seat, whose ``act`` is an entry of the request's ``actionList``; anything else is refused with the
protocol's ``code: -1`` frame.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from cardroom.cards import Card
from cardroom.competition.messages import AnswerError, Message
from cardroom.guandan.deal import Action, Deal
from cardroom.guandan.plays import Play
from cardroom.openguandan import frames
from cardroom.openguandan.frames import ANSWER_OF_STAGE, Answer, FrameError, NotJsonError, Stage
from cardroom.openguandan.room import RefusedError, Request, anti_tribute_seats, request_for
from cardroom.openguandan.wire import play_triple
from cardroom.server.ladder.bridge import OPEN_ENDED, SeatBridge, Transfer


class OpenGuanDanProtocol:
    """OpenGuanDan's frames for one seat; ``room`` is the ``roomId`` the connection is told and must
    answer with."""

    def __init__(self, room: int) -> None:
        self.room = room
        self.last: tuple[int, list[Any]] | None = None
        """The play just made, when the action before was a play (an ``act``'s ``curAction``)."""
        self.asked: Request | None = None

    def seated(self, bridge: SeatBridge) -> list[Message]:
        return [frames.joined(self.room, bridge.seat)]

    def beginning(self, bridge: SeatBridge, deal: Deal, hand: Sequence[Card]) -> list[Message]:
        self.last = None
        messages = [frames.beginning(bridge.seat, hand, deal.level)]
        excused = anti_tribute_seats(deal, _order_before(bridge, deal))
        if excused:
            messages.append(frames.notify_anti_tribute(excused))
        return messages

    def played(self, bridge: SeatBridge, seat: int, play: Play, before: tuple[int, Play] | None) -> Message:
        triple = play_triple(play)
        self.last = None if play.is_pass else (seat, triple)
        greater = None if before is None else (before[0], play_triple(before[1]))
        return frames.notify_play(seat, triple, greater)

    def tributes(self, bridge: SeatBridge, handed: list[Transfer]) -> Message:
        return frames.notify_tribute(handed)

    def returns(self, bridge: SeatBridge, made: list[Transfer]) -> Message:
        deal = bridge.table.match.deals[-1]
        return frames.notify_back(made, deal.card_count(bridge.seat))

    def episode_over(self, bridge: SeatBridge, deal: Deal, places: list[int]) -> Message:
        rest = [(bridge.seat, deal.hand(bridge.seat))] if deal.card_count(bridge.seat) else []
        return frames.episode_over(finishing_order(deal), deal.level, rest)

    def game_over(self, bridge: SeatBridge, matches: int) -> Message:
        return frames.game_over(matches, OPEN_ENDED)

    def request(self, bridge: SeatBridge) -> tuple[Message, list[Action]]:
        _, self.asked = request_for(bridge.table.match, self.last)
        return self.asked.frame, list(self.asked.actions)

    def read(self, bridge: SeatBridge, raw: str | bytes) -> int:
        request = self.asked
        if request is None:
            raise AnswerError("unexpected", "no action is asked for now")
        try:
            answer = frames.parse_client_frame(raw)
        except NotJsonError as error:
            raise AnswerError("malformed-json", str(error)) from None
        except FrameError as error:
            raise AnswerError("bad-frame", error.message) from None
        if not isinstance(answer, Answer):
            text = "a ladder seat is given by the ladder: no CREATE_ROOM or JOIN_ROOM is taken"
            raise AnswerError("bad-frame", text)
        if (answer.room_id, answer.player) != (self.room, bridge.seat):
            raise AnswerError(
                "wrong-seat",
                f"this connection plays seat {bridge.seat} of room {self.room}, "
                f"not seat {answer.player} of room {answer.room_id}",
            )
        try:
            action = request.action_of(bridge.seat, answer)
        except RefusedError as error:
            raise AnswerError("not-listed", error.message) from None
        return request.actions.index(action)

    def error(self, code: str, text: str, stage: str | None, received: str | None) -> Message:
        kind = ANSWER_OF_STAGE.get(Stage(stage)) if stage in set(Stage) else None
        return frames.refusal(kind.value if kind is not None else _type_of(received), text)


def finishing_order(deal: Deal) -> list[int]:
    """A deal's finishing order as ``episodeOver`` gives it: the seats out, then the others."""
    finished = list(deal.finished)
    return [*finished, *(seat for seat in range(4) if seat not in finished)]


def _order_before(bridge: SeatBridge, deal: Deal) -> list[int]:
    deals = bridge.table.match.deals
    number = next((index for index, each in enumerate(deals) if each is deal), 0)
    return finishing_order(deals[number - 1]) if number > 0 else []


def _type_of(received: str | None) -> str | None:
    """The ``type`` of a frame received, for its refusal (``None`` when it has none)."""
    try:
        value = json.loads(received or "")
    except json.JSONDecodeError:
        return None
    kind = value.get("type") if isinstance(value, dict) else None
    return kind if isinstance(kind, str) else None


__all__ = ["OpenGuanDanProtocol", "finishing_order"]
