"""The bot ladder's core (docs/ladder-core.md): who plays, who meets whom, the ratings, and playing a
match. Pure and typed: no I/O, the day and the random draws passed in.

- :mod:`~cardroom.ladder.entrants`: an :class:`Entrant` is one version of a bot; the house bots; the
  :class:`Roster`.
- :mod:`~cardroom.ladder.schedule`: the :class:`Limits` and the :class:`Scheduler` choosing the next
  :class:`LadderMatch` (partners rotate, near ratings meet).
- :mod:`~cardroom.ladder.results`: a match's duplicate games and the one rated result they make.
- :mod:`~cardroom.ladder.ratings`: the ladder's own openskill pool and its standings.
- :mod:`~cardroom.ladder.runner`: playing a match with the arena's duplicate machinery, between bots of
  this process (:class:`InProcessRunner`) or, behind :class:`LadderRunner`, connected ones.

The card room's bot accounts and connections are the server's (docs/ladder.md).
"""

from cardroom.ladder.entrants import HOUSE, HOUSE_BOTS, Entrant, Roster, house_entrants
from cardroom.ladder.errors import (
    BadEntrantError,
    BadLimitsError,
    BadResultError,
    LadderError,
    NotEnoughEntrantsError,
    UnknownEntrantError,
)
from cardroom.ladder.ratings import RANGE_SIGMAS, LadderPool, Standing
from cardroom.ladder.results import LadderResult, duplicate_margin, game_margin, winner_of
from cardroom.ladder.runner import (
    BotMaker,
    InProcessRunner,
    LadderFormat,
    LadderGameSpec,
    LadderRunner,
    game_specs,
    house_makers,
)
from cardroom.ladder.schedule import LadderMatch, Limits, Played, Scheduler

__all__ = [
    "HOUSE",
    "HOUSE_BOTS",
    "RANGE_SIGMAS",
    "BadEntrantError",
    "BadLimitsError",
    "BadResultError",
    "BotMaker",
    "Entrant",
    "InProcessRunner",
    "LadderError",
    "LadderFormat",
    "LadderGameSpec",
    "LadderMatch",
    "LadderPool",
    "LadderResult",
    "LadderRunner",
    "Limits",
    "NotEnoughEntrantsError",
    "Played",
    "Roster",
    "Scheduler",
    "Standing",
    "UnknownEntrantError",
    "duplicate_margin",
    "game_margin",
    "game_specs",
    "house_entrants",
    "house_makers",
    "winner_of",
]
