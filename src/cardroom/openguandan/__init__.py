"""OpenGuanDan's platform protocol (GameAI-NJUPT's Java server, the 2026 benchmark), both ways
(docs/openguandan-protocol.md): a server (``cardroom compete --protocol openguandan``) whose rooms our
rules core referees, and a client (``cardroom connect --protocol openguandan``) with which our bots
take a seat on any server that speaks it.

:mod:`~cardroom.openguandan.wire` (cards and triples in the Java server's order),
:mod:`~cardroom.openguandan.frames` (building and reading frames), :mod:`~cardroom.openguandan.room`
(a room: seats, games, the frames each seat is sent) and :mod:`~cardroom.openguandan.view` (a seat's
view rebuilt from the frames) are pure; :mod:`~cardroom.openguandan.server` and
:mod:`~cardroom.openguandan.client` do the websocket I/O (the ``websockets`` package) and are imported
on their own.
"""

from cardroom.openguandan.frames import FrameError, parse_client_frame
from cardroom.openguandan.room import RefusedError, Room, random_dealer
from cardroom.openguandan.view import OpenGuanDanView

__all__ = ["FrameError", "OpenGuanDanView", "RefusedError", "Room", "parse_client_frame", "random_dealer"]
