"""Guandan (掼蛋) as the registry knows it: the presets of :mod:`cardroom.guandan.ruleset`, the bots of
:mod:`cardroom.bots`, the match record of :mod:`cardroom.records`."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final

from cardroom.bots import BOTS, Bot
from cardroom.games.game import Game
from cardroom.guandan.ruleset import COMPETITION, PRESETS, RuleSet
from cardroom.records import FORMAT, ReplayReport, play_random, replay, write_record
from cardroom.records.render import plural, print_replay_report


def describe_guandan_record(record: Mapping[str, Any]) -> str:
    """``2 deals, 113 actions; team 0 wins, levels 3 : 2, 28-point score 3 : 0``."""
    result = record["result"]
    actions = sum(len(deal["actions"]) for deal in record["deals"])
    levels = " : ".join(result["levels"])
    points = " : ".join(str(value) for value in result["points"])
    winner = "a draw" if result["winner"] is None else f"team {result['winner']} wins"
    return (
        f"{plural(len(record['deals']), 'deal')}, {plural(actions, 'action')}; "
        f"{winner}, levels {levels}, 28-point score {points}"
    )


GUANDAN_GAME: Final[Game[RuleSet, Bot, ReplayReport]] = Game(
    name="guandan",
    title="Guandan (掼蛋)",
    label="",
    rules_type=RuleSet,
    presets=PRESETS,
    default_preset=COMPETITION.name,
    bots=BOTS,
    record_format=FORMAT,
    replay=replay,
    print_report=print_replay_report,
    play_random=lambda seed, deals, rules: play_random(seed, max_deals=deals, rules=rules),
    write_record=write_record,
    describe_record=describe_guandan_record,
)
"""Guandan in the registry."""

__all__ = ["GUANDAN_GAME", "describe_guandan_record"]
