"""How a Guandan table's match ends and what its end is worth: the one place a ``match_end`` entry is
built (:func:`match_end`: by the engine's rules, a tournament format's decision between deals, or a
forfeit, 判负 / 弃权), the format's decision itself (:func:`decide`), and the finished match's result
read back from that entry (:func:`result` for the tournament, :func:`outcome` for the state).

Nothing here writes the log: the table (:class:`~cardroom.server.tables.guandan.Table`) records the entry
:func:`match_end` gives it.
"""

from __future__ import annotations

from typing import Any, Final

from cardroom.guandan.match import Match
from cardroom.server.tables.entries import MatchEndEntry
from cardroom.tournament.formats import EndReason, MatchFormat, MatchOutcome, decide_match, level_name
from cardroom.tournament.scoring import TableResult

DECIDED: Final = ("time_limit", "deal_limit", "forfeit")
"""Reasons a match ends that the server decides, not the engine (a tournament's format, a forfeit)."""


def decide(fmt: MatchFormat | None, match: Match, elapsed_s: float) -> MatchOutcome | None:
    """Whether a tournament match (its format ``fmt``) is over between deals, ``elapsed_s`` after it
    began; ``None`` at a table without a format."""
    if fmt is None or match.current_deal is not None or match.is_over:
        return None
    return decide_match(fmt, match, elapsed_s)


def match_end(
    match: Match,
    now: float,
    *,
    decided: MatchOutcome | None = None,
    forfeited_by: int | None = None,
    note: str = "",
) -> MatchEndEntry:
    """The ``match_end`` entry: of a forfeit of side ``forfeited_by`` (the other side wins), of a match
    its format ``decided``, or else of a match the engine ended (passed A, or its deal limit)."""
    if forfeited_by is not None:
        levels = match.level_values()
        forfeit = TableResult.forfeit(forfeited_by, levels, len(match.summaries))
        return MatchEndEntry(
            forfeit.winner,
            tuple(rank.letter for rank in match.levels),
            "forfeit",
            now,
            score=forfeit.score28,
            forfeited_by=forfeited_by,
            table_levels=levels,
            note=note,
        )
    if decided is not None:
        return MatchEndEntry(
            decided.winner,
            tuple(
                level_name(value) if value > 14 else rank.letter
                for value, rank in zip(decided.levels, match.levels, strict=True)
            ),
            decided.reason.value,
            now,
            score=TableResult.from_outcome(decided).score28,
            level_values=decided.levels,
        )
    reason = EndReason.PASSED_ACE if match.passed_ace else EndReason.DEAL_LIMIT
    return MatchEndEntry(
        match.winner,
        tuple(rank.letter for rank in match.levels),
        reason.value,
        now,
        score=match.points(),
        level_values=match.level_values(),
    )


def result(end: MatchEndEntry | None, match: Match) -> TableResult | None:
    """The finished match's result for a tournament (``None`` while it runs)."""
    if end is None:
        return None
    deals = len(match.summaries)
    if end.reason == "forfeit":
        assert end.forfeited_by is not None
        assert end.table_levels is not None
        return TableResult.forfeit(end.forfeited_by, end.table_levels, deals)
    if end.level_values is None:
        return TableResult.played(match.level_values(), deals)
    return TableResult.played(end.level_values, deals)


def outcome(end: MatchEndEntry | None, match: Match) -> dict[str, Any] | None:
    """The state's ``result``: winner, levels, 28-point score and why the match ended."""
    if end is None:
        return None
    return {
        "winner": end.winner,
        "levels": list(end.levels),
        "score": None if end.score is None else list(end.score),
        "reason": end.reason or ("passed_ace" if match.passed_ace else "deal_limit"),
        "forfeited_by": end.forfeited_by,
    }
