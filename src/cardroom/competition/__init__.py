"""The Guandan AI competition's JSON-over-websocket protocol (docs/competition-protocol.md): a server
(``cardroom compete``) where our bots and external clients meet, and a client (``cardroom connect``)
that lets our bots play on any server that speaks it.

:mod:`~cardroom.competition.messages`, :mod:`~cardroom.competition.order` and
:mod:`~cardroom.competition.view` are pure (building and reading messages, the simulator's order of
cards and actions, rebuilding a seat's view); :mod:`~cardroom.competition.server` and
:mod:`~cardroom.competition.client` do the websocket I/O (the ``websockets`` package), and are imported
on their own so the pure parts need it not.
"""

from cardroom.competition.messages import AnswerError, parse_answer
from cardroom.competition.order import order_actions
from cardroom.competition.view import SeatView

__all__ = ["AnswerError", "SeatView", "order_actions", "parse_answer"]
