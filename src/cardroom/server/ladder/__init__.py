"""The card room's bot ladder (docs/ladder.md): connected bots and the house bots play rated duplicate
matches at the room's own tables.

- :mod:`~cardroom.server.ladder.service`: :class:`LadderService` keeps who is ready, asks
  :class:`cardroom.ladder.Scheduler` for matches, makes each deal pair's two tables, tells the bots
  where to sit, and rates a match in the ladder's pool once all its tables have ended.
- :mod:`~cardroom.server.ladder.versus`: an entrant's record against each house bot, with 95% intervals.
- :mod:`~cardroom.server.ladder.records_zip`: a bot's finished tables and the zip of their records.
- :mod:`~cardroom.server.ladder.about`: who a ladder bot is, for its page.
- :mod:`~cardroom.server.ladder.seat_players`: the bots that play one seat per connection (over the
  competition protocol or OpenGuanDan's), ready while enough of their connections are idle.
- :mod:`~cardroom.server.ladder.bridge`: :class:`SeatBridge`, one ladder seat spoken over another
  protocol, whose messages are a :class:`~cardroom.server.ladder.bridge.SeatProtocol`: the competition
  protocol's, or OpenGuanDan's (:mod:`~cardroom.server.ladder.openguandan_seat`).
"""

from cardroom.server.ladder.service import LadderService, LadderSettings, ReadyBot

__all__ = ["LadderService", "LadderSettings", "ReadyBot"]
