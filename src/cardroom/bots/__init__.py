"""Bots: a bot sees only ``match.observation(seat)`` and answers one of its legal actions.

Every bot is built from a seed (``make_bot(name, seed)``) and is deterministic under it; tribute and
return decisions come through the same :meth:`Bot.act`, since the observation's legal actions are the
tribute or return cards when those are due.
"""

from cardroom.bots.base import BOTS, Bot, make_bot
from cardroom.bots.distilled import DistilledBot
from cardroom.bots.heuristic import HeuristicBot
from cardroom.bots.random_bot import RandomBot
from cardroom.bots.search import SearchBot
from cardroom.bots.value import ValueBot

__all__ = ["BOTS", "Bot", "DistilledBot", "HeuristicBot", "RandomBot", "SearchBot", "ValueBot", "make_bot"]
