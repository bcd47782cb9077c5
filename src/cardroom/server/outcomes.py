"""How a table's match ends besides by the engine's rules, and what its end is worth: a tournament
format's decision between deals (time or deal limit), a forfeit (判负 / 弃权), and the finished match's
result (the ``match_end`` entry read back for the state and for the tournament).

The functions act on a :class:`~cardroom.server.table.Table` through its log; the table's ``forfeit``,
``result`` and ``outcome`` delegate here.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Final

from cardroom.tournament.formats import MatchOutcome, decide_match, level_name
from cardroom.tournament.scoring import TableResult

if TYPE_CHECKING:
    from cardroom.server.table import Entry, Table

DECIDED: Final = ("time_limit", "deal_limit", "forfeit")
"""Reasons a match ends that the server decides, not the engine (a tournament's format, a forfeit)."""


def decide(table: Table, now: float) -> MatchOutcome | None:
    """Whether a tournament match is over between deals (its format, the server's clock)."""
    fmt = table.config.format
    if fmt is None or table.match.current_deal is not None or table.match.is_over:
        return None
    return decide_match(fmt, table.match, table.elapsed(now))


def finish_decided(table: Table, outcome: MatchOutcome, now: float) -> None:
    """The ``match_end`` entry of a match the format decided."""
    result = TableResult.from_outcome(outcome)
    table._record(
        {
            "type": "match_end",
            "winner": outcome.winner,
            "levels": [
                level_name(value) if value > 14 else rank.letter
                for value, rank in zip(outcome.levels, table.match.levels, strict=True)
            ],
            "score": list(result.score28),
            "reason": outcome.reason.value,
            "level_values": list(outcome.levels),
            "at": now,
        }
    )


def forfeit(table: Table, side: int, now: float, note: str = "") -> list[Entry]:
    """End a running match by a forfeit of ``side`` (the director's 判负 or 弃权)."""
    if table.status != "running":
        return []
    before = table.number
    end_by_forfeit(table, side, now, note)
    return table.log[before:]


def end_by_forfeit(table: Table, side: int, now: float, note: str = "") -> None:
    """判负 / 弃权: the match ends, the other side wins (the engine's forfeit ruling)."""
    levels = table.match.level_values()
    result = TableResult.forfeit(side, levels, len(table.match.summaries))
    table._record(
        {
            "type": "match_end",
            "winner": result.winner,
            "levels": [rank.letter for rank in table.match.levels],
            "score": list(result.score28),
            "reason": "forfeit",
            "forfeited_by": side,
            "table_levels": list(levels),
            "note": note,
            "at": now,
        }
    )


def result(table: Table) -> TableResult | None:
    """The finished match's result for a tournament (``None`` while it runs)."""
    end = table.end
    if end is None:
        return None
    deals = len(table.match.summaries)
    if end.get("reason") == "forfeit":
        first, second = end["table_levels"]
        return TableResult.forfeit(int(end["forfeited_by"]), (int(first), int(second)), deals)
    values = end.get("level_values")
    if values is None:
        return TableResult.played(table.match.level_values(), deals)
    return TableResult.played((int(values[0]), int(values[1])), deals)


def outcome(table: Table) -> dict[str, Any] | None:
    """The state's ``result``: winner, levels, 28-point score and why the match ended."""
    end = table.end
    if end is None:
        return None
    return {
        "winner": end["winner"],
        "levels": end["levels"],
        "score": end["score"],
        "reason": end.get("reason", "passed_ace" if table.match.passed_ace else "deal_limit"),
        "forfeited_by": end.get("forfeited_by"),
    }
