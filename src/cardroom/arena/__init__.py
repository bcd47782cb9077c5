"""The arena: two bots play duplicate deals and matches (same cards, teams swapped), in parallel, and
the results come with 95% intervals over the duplicate pairs and play statistics beside the figures of human
play that 掼蛋方法规则 gives (docs/rules/platform.md#human-figures; ``docs/arena.md``).

:mod:`~cardroom.arena.play` plays one game, :mod:`~cardroom.arena.games` runs games of any game (by
its name in :mod:`cardroom.games`) in batches, :mod:`~cardroom.arena.duplicate` schedules the pairs over
a process pool (or Ray, :mod:`~cardroom.arena.ray_backend`), :mod:`~cardroom.arena.stats` holds the
intervals and per-deal facts, :mod:`~cardroom.arena.summary` turns outcomes into results,
:mod:`~cardroom.arena.report` prints and writes them; :mod:`~cardroom.arena.command` picks each game's
report by its name. Shengji (``ArenaConfig(..., game="shengji")``): :mod:`~cardroom.arena.shengji_play`
plays a game, :mod:`~cardroom.arena.shengji_summary` summarises and writes the results.
"""

from cardroom.arena.duplicate import ArenaConfig, run_arena, schedule
from cardroom.arena.games import run_game
from cardroom.arena.play import ArenaError, GameKind, GameOutcome, GameSpec, play_game
from cardroom.arena.shengji_summary import ShengjiArenaResults, summarize_shengji
from cardroom.arena.stats import Interval, cluster_mean, mean_interval, t_quantile
from cardroom.arena.summary import ArenaResults, summarize

__all__ = [
    "ArenaConfig",
    "ArenaError",
    "ArenaResults",
    "GameKind",
    "GameOutcome",
    "GameSpec",
    "Interval",
    "ShengjiArenaResults",
    "cluster_mean",
    "mean_interval",
    "play_game",
    "run_arena",
    "run_game",
    "schedule",
    "summarize",
    "summarize_shengji",
    "t_quantile",
]
