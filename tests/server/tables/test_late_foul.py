"""A side judged a foul for lateness at a tournament table (docs/rules/competition.md#late, #foul): the
table's first deal ends as the late side's 双下, the other side rises 3 levels, the next deal has no
tribute and its leader is named by the offender's 下家; the table shows why. The pure table, live and
replayed."""

from __future__ import annotations

from typing import Any

import pytest

from cardroom.guandan.rulings import foul_places
from cardroom.server.tables.config import HUMAN, TableConfig
from cardroom.server.tables.guandan import Table
from cardroom.tournament.conduct import Clocks as ConductClocks
from cardroom.tournament.conduct import ConductPolicy, Offence, Penalty
from tests.server.conftest import clocks
from tests.server.tables.test_conduct_choices import decide

PLAY_S = 20


def config() -> TableConfig:
    policy = ConductPolicy(
        clocks=ConductClocks(tribute_s=600, return_s=600, first_lead_s=600, play_s=PLAY_S, countdown_s=0)
    )
    return TableConfig(clocks=clocks(), bot_delay=0.0, deal_pause=0.0, conduct=policy, seats=(HUMAN,) * 4)


def types(entries: list[dict[str, Any]]) -> list[str]:
    return [entry["type"] for entry in entries]


def test_rule_late_foul_told_while_waiting_ends_the_first_deal_when_dealt() -> None:
    """late, foul: the event judged side 1 a foul (seat 3 sat down last) before the table filled: the
    first deal, once dealt, ends at once as side 1's 双下; side 0 rises 3 levels to 5."""
    table = Table("t1", config(), seed="seed-late")
    for seat, name in ((0, "Ann"), (2, "Cy"), (1, "Bo")):
        table.sit(seat, name, 1.0)
    entries = table.late_foul(3, 301.0, "迟到5分01秒")
    assert types(entries) == ["penalty"]
    assert entries[0]["offence"] == "late"
    assert entries[0]["effect"] == "end_deal"
    assert entries[0]["records"][0]["penalty"] == "FOUL"
    assert entries[0]["records"][0]["note"] == "迟到5分01秒"
    _token, started = table.take_seat(3, "Di", 301.0)
    assert types(started) == ["sit", "start", "deal", "ruling", "deal_end", "choice"]
    ruling = started[3]
    assert (ruling["kind"], ruling["seat"]) == ("foul", 3)
    assert tuple(ruling["places"]) == foul_places(3)
    (summary,) = table.match.summaries
    assert summary.result.foul_by == 3
    assert table.match.level_values() == (5, 2)
    assert started[-1]["kind"] == "leader"
    assert started[-1]["seat"] == 0, "the offender's 下家 names the next leader"
    view = table.view(0, 302.0)
    assert view["last_deal"]["foul"] == {"seat": 3, "side": 1, "offence": "late"}
    assert view["last_deal"]["levels"] == ["5", "2"]
    assert [(p["penalty"], p["offence"], p["side"]) for p in view["penalties"]] == [("FOUL", "late", 1)]
    table.choose(0, {"type": "choose", "leader": 2}, 303.0)
    (deal,) = table.step(303.0, decide)
    assert (deal["type"], deal["leader"], deal["turned_card"]) == ("deal", 2, None)
    assert table.phase() == "play", "the deal after a foul has no tribute"
    again = Table.replay("t1", table.config, table.log)
    assert again.log == table.log
    assert again.conduct.late_fouls == []
    assert again.view(2, 304.0) == table.view(2, 304.0)


def test_rule_late_foul_told_after_the_start_ends_the_deal_in_play() -> None:
    """late, foul: told once the late side's last player has sat down and the first deal is dealt, the
    foul ends that deal; told twice it is recorded twice but a replay keeps nothing pending."""
    table = Table("t1", config(), seed="seed-late")
    for seat, name in enumerate(("Ann", "Bo", "Cy", "Di")):
        table.sit(seat, name, 1.0)
    assert len(table.match.deals) == 1
    entries = table.late_foul(0, 302.0, "迟到6分00秒")
    assert types(entries) == ["penalty", "ruling", "deal_end", "choice"]
    assert table.match.level_values() == (2, 5)
    assert [record.offence for record in table.penalties] == [Offence.LATE]
    assert [record.penalty for record in table.penalties] == [Penalty.FOUL]
    assert Table.replay("t1", table.config, table.log).conduct.late_fouls == []


def test_a_table_without_conduct_or_over_takes_no_late_foul() -> None:
    plain = Table("t2", TableConfig(clocks=clocks(), seats=(HUMAN,) * 4), seed="s")
    assert plain.late_foul(1, 5.0) == []
    table = Table("t1", config(), seed="seed-late")
    for seat, name in enumerate(("Ann", "Bo", "Cy", "Di")):
        table.sit(seat, name, 1.0)
    table.forfeit(1, 2.0)
    assert table.late_foul(1, 3.0) == []


def test_rule_penalties_a_late_warning_and_a_timeout_warning_make_a_violation() -> None:
    """penalties, late (docs/rules/competition.md#penalties, #late): the event's warning for lateness
    counts with the table's own penalties, per side within the match: the side's first timeout warning
    is its second warning, so it is also a violation (违例, its 下家 asked whether to skip a turn)."""
    table = Table("t1", config(), seed="seed-late")
    for seat, name in enumerate(("Ann", "Bo", "Cy", "Di")):
        table.sit(seat, name, 1.0)
    offender = table.match.current_player
    assert offender is not None
    told = table.late_penalty(offender, Penalty.WARNING, 2.0, "迟到3分00秒")
    assert types(told) == ["penalty"]
    assert (told[0]["offence"], told[0]["effect"], told[0]["records"][0]["penalty"]) == (
        "late",
        "none",
        "WARNING",
    )
    assert table.match.current_player == offender, "a warning changes nothing in play"
    entries = table.step(1.0 + 600, decide)  # the deal's first lead: first_lead_s
    assert types(entries) == ["penalty", "choice"]
    assert [record["penalty"] for record in entries[0]["records"]] == ["WARNING", "VIOLATION"]
    assert entries[0]["effect"] == "skip_turn"
    assert [(r.penalty, r.offence, r.escalated) for r in table.penalties] == [
        (Penalty.WARNING, Offence.LATE, False),
        (Penalty.WARNING, Offence.TIMEOUT, False),
        (Penalty.VIOLATION, Offence.TIMEOUT, True),
    ]
    assert Table.replay("t1", table.config, table.log).penalties == table.penalties


def test_lateness_gives_a_table_a_warning_or_a_foul_only() -> None:
    table = Table("t1", config(), seed="seed-late")
    for seat, name in enumerate(("Ann", "Bo", "Cy", "Di")):
        table.sit(seat, name, 1.0)
    for penalty in (Penalty.VIOLATION, Penalty.FORFEIT):
        with pytest.raises(ValueError, match="a warning or a foul"):
            table.late_penalty(0, penalty, 2.0)
    assert table.penalties == ()
