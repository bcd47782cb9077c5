"""The recorded client side of a room, seat by seat: what each client was sent (to compare with ours)
and what it answered (to send to ours).

A :class:`SeatScript` walks one seat's recording. :meth:`SeatScript.check` compares the next frame
our server sent with the recorded one (:func:`~tests.openguandan.recordings.differences`), and
:meth:`SeatScript.next_answer` gives the client frame the recording sends next, once every frame
before it has been checked. The Java server's internal ``tribute`` frame, which ours does not send, is
passed over. Room ids are mapped: the recorded room's id is replaced by ours.
"""

from __future__ import annotations

import copy
from collections import deque
from typing import Any

from tests.openguandan.recordings import Line, differences, seat_script


class SeatScript:
    def __init__(self, name: str, seat: int) -> None:
        self.seat = seat
        self.lines: deque[Line] = deque(seat_script(name, seat))
        self.checked = 0
        self.recorded_room: int | None = None
        self.room: int | None = None

    def map_room(self, recorded: int, ours: int) -> None:
        """Read the recorded room's id as ``ours`` from now on."""
        self.recorded_room, self.room = recorded, ours

    def _skip_internal(self) -> None:
        while self.lines and self.lines[0].direction == "in" and self.lines[0].frame.get("type") == "tribute":
            self.lines.popleft()

    @property
    def done(self) -> bool:
        self._skip_internal()
        return not self.lines

    @property
    def expects_frame(self) -> bool:
        """The recording has the server send this seat a frame next."""
        self._skip_internal()
        return bool(self.lines) and self.lines[0].direction == "in"

    def check(self, ours: dict[str, Any]) -> list[str]:
        """Compare ``ours`` with the next recorded frame; the differences beyond those allowed."""
        assert self.expects_frame, f"seat {self.seat}: the recording ends, but we sent {ours}"
        recorded = self.lines.popleft().frame
        self.checked += 1
        if recorded.get("type") in ("CREATE_ROOM", "JOIN_ROOM") and recorded.get("code") == 200:
            self.map_room(recorded["data"]["roomId"], ours["data"]["roomId"])
        return differences(ours, self._mapped(recorded))

    def next_answer(self) -> dict[str, Any] | None:
        """The client frame the recording sends next, if every frame before it has been checked."""
        self._skip_internal()
        if not self.lines or self.lines[0].direction != "out":
            return None
        return self._mapped(self.lines.popleft().frame)

    def _mapped(self, frame: dict[str, Any]) -> dict[str, Any]:
        data = frame.get("data")
        if self.room is None or not isinstance(data, dict) or data.get("roomId") != self.recorded_room:
            return frame
        mapped = copy.deepcopy(frame)
        mapped["data"]["roomId"] = self.room
        return mapped
