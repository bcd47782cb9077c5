"""Shengji (升级) bots: a bot sees only ``observation(seat)`` and answers one of its legal actions
(declare or pass, bury, play). ``make_shengji_bot(name, seed)`` builds one by name
(:data:`SHENGJI_BOTS`), deterministic under the seed.

- ``random`` (:mod:`.random_bot`): uniform among the legal actions, sampled without listing the huge
  lazy sets (burying, leading, following with a void);
- ``heuristic`` (:mod:`.heuristic`): declares with trump length, buries to void short suits, cashes
  sure winners, feeds points to a partner who wins, wins cheaply against an opponent, counts the cards.
"""

from cardroom.bots.shengji.base import SHENGJI_BOTS, ShengjiBot, make_shengji_bot, register
from cardroom.bots.shengji.heuristic import HeuristicShengjiBot
from cardroom.bots.shengji.random_bot import RandomShengjiBot

__all__ = [
    "SHENGJI_BOTS",
    "HeuristicShengjiBot",
    "RandomShengjiBot",
    "ShengjiBot",
    "make_shengji_bot",
    "register",
]
