"""Shengji (升级) as the registry knows it: the presets of :mod:`cardroom.shengji.ruleset`, the bots of
:mod:`cardroom.bots.shengji`, the match record of :mod:`cardroom.records.shengji`."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final

from cardroom.bots.shengji import SHENGJI_BOTS, ShengjiBot
from cardroom.games.game import Game
from cardroom.records.render import plural, print_shengji_replay_report
from cardroom.records.shengji import (
    SHENGJI_FORMAT,
    ShengjiReplayReport,
    play_random_shengji,
    replay_shengji,
    write_shengji_record,
)
from cardroom.shengji.ruleset import PRESETS, SHENGJI, ShengjiRules


def describe_shengji_record(record: Mapping[str, Any]) -> str:
    """``Shengji, 3 deals, 480 actions; unfinished, levels 5 : 2``."""
    result = record["result"]
    actions = sum(len(deal["actions"]) for deal in record["deals"])
    levels = " : ".join(result["levels"])
    state = f"team {result['winner']} wins" if result["finished"] else "unfinished"
    return (
        f"Shengji, {plural(len(record['deals']), 'deal')}, {plural(actions, 'action')}; "
        f"{state}, levels {levels}"
    )


SHENGJI_GAME: Final[Game[ShengjiRules, ShengjiBot, ShengjiReplayReport]] = Game(
    name="shengji",
    title="Shengji (升级)",
    label="Shengji",
    rules_type=ShengjiRules,
    presets=PRESETS,
    default_preset=SHENGJI.name,
    bots=SHENGJI_BOTS,
    record_format=SHENGJI_FORMAT,
    replay=replay_shengji,
    print_report=print_shengji_replay_report,
    play_random=lambda seed, deals, rules: play_random_shengji(seed, max_deals=deals, rules=rules),
    write_record=write_shengji_record,
    describe_record=describe_shengji_record,
)
"""Shengji in the registry."""

__all__ = ["SHENGJI_GAME", "describe_shengji_record"]
