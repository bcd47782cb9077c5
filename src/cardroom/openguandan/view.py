"""One seat's view rebuilt from OpenGuanDan's frames, for our bots on its platform. Pure: feed it each
frame, ask it for the seat's observation at an ``act`` request.

It is the competition protocol's :class:`~cardroom.competition.view.SeatView`, which reads the same
``notify`` stages, with what the Java server does differently (docs/openguandan-protocol.md):

- ``beginning`` names the deal's level ``levelCard`` (not ``curRank``), and no team ranks;
- the trick comes from the ``notify``/``play`` frames: an ``act`` request's ``curPos`` is -1 and its
  ``curAction`` null unless the action just before was a play, and its ``greaterPos`` /
  ``greaterAction`` are the trick's best play (null when the seat leads);
- a ``back`` request's ``handCards`` leave out the tribute the seat was just given (the server moves
  it only when the return is made), so the view adds it back;
- the server's internal ``tribute`` frame (its own form of the tribute choice) and ``JOIN`` are
  ignored, as are other frames without a ``stage``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from cardroom.cards import Card
from cardroom.competition.messages import read_transfers
from cardroom.competition.view import SeatView


@dataclass
class OpenGuanDanView(SeatView):
    """:class:`SeatView` reading OpenGuanDan's frames."""

    received: list[Card] = field(default_factory=list)
    """Tribute cards given to this seat in the deal, to add to a ``back`` request's hand."""

    def update(self, message: Mapping[str, Any]) -> None:
        """Take in one server frame (frames of other kinds change nothing)."""
        kind, stage = message.get("type"), message.get("stage")
        if kind not in ("notify", "act"):
            return
        if kind == "notify" and stage == "beginning":
            message = {**message, "curRank": message.get("levelCard")}
            self.received = []
        elif kind == "notify" and stage == "tribute" and self.seat is not None:
            self.received = [
                transfer.card
                for transfer in read_transfers(message.get("result"))
                if transfer.receiver == self.seat and transfer.card is not None
            ]
        super().update(message)
        short = self.seat is not None and len(self.hand) + len(self.received) == self.counts[self.seat]
        if kind == "act" and stage == "back" and self.received and short:
            self.hand = (*self.hand, *self.received)
