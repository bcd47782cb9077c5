"""Tournaments (赛事) and ratings: the pure core a card room's tournament director stands on.

No I/O, no clock, no global state: time is passed in, randomness comes from an injected
``random.Random`` and what it drew is written into the event. Imports only ``cards``, ``guandan``
and openskill. ``docs/tournaments.md`` is the guide.

- :mod:`~cardroom.tournament.formats`: match formats (to A, fixed deals, timed) and :func:`decide`.
- :mod:`~cardroom.tournament.scoring`: round points 2/1/0, the 28- and 26-point tables, forfeits, byes.
- :mod:`~cardroom.tournament.pairing`: round robin and Swiss pairing (:mod:`.matching` underneath).
- :mod:`~cardroom.tournament.standings`: the ranking and its tie-breaks.
- :mod:`~cardroom.tournament.event`: the event as a value (teams, lots, rounds, results).
- :mod:`~cardroom.tournament.sheets`: score sheets with sign-off.
- :mod:`~cardroom.tournament.conduct`: clocks and the penalty escalation.
- :mod:`~cardroom.tournament.lateness`: lateness (迟到) judged from the round's start and the arrivals.
- :mod:`~cardroom.tournament.rounds`, :mod:`~cardroom.tournament.director`: a round and what the
  director records in it (arrivals, penalties, result entries and corrections, withdrawals, appeals).
- :mod:`~cardroom.tournament.ratings`: openskill ratings, rating points and titles, leaderboards.
- :mod:`~cardroom.tournament.export`: results and standings as CSV.
- :mod:`~cardroom.tournament.refusals`: what the core refuses, as a reason code and its arguments.
"""

from cardroom.tournament.conduct import (
    Clocks,
    ConductPolicy,
    Effect,
    EndDeal,
    EndMatch,
    MatchConduct,
    NoEffect,
    Offence,
    Penalty,
    PenaltyRecord,
    Ruling,
    SkipTurn,
    foul_places,
    foul_result,
    late_penalty,
    skip_turn_action,
)
from cardroom.tournament.director import Appeal, Arrival, PenaltyEntry, ResultChange, Withdrawal
from cardroom.tournament.event import (
    CorrectionWindowError,
    Event,
    EventConfig,
    EventPhase,
    PairingSystem,
    Player,
    Round,
    Team,
    new_event,
)
from cardroom.tournament.export import penalty_text, results_csv, standings_csv
from cardroom.tournament.formats import (
    EndReason,
    MatchFormat,
    MatchOutcome,
    MatchProgress,
    decide,
    decide_match,
    level_name,
    progress_of,
)
from cardroom.tournament.lateness import SideLateness, judge_lateness
from cardroom.tournament.pairing import Entrant, Pairing, RoundDraw, round_robin, swiss_round
from cardroom.tournament.ratings import LeaderRow, PlayerRating, Ranking, RatingBook, RatingModel, leaderboard
from cardroom.tournament.refusals import EVENT_REASONS, EventError, EventLookupError
from cardroom.tournament.scoring import ResultKind, ScoringRules, TableResult, table26, table28
from cardroom.tournament.sheets import DealLine, ScoreSheet, deal_lines, sheet_from_match
from cardroom.tournament.standings import Criterion, StandingRow, Tally, progressive_score, standings

__all__ = [
    "EVENT_REASONS",
    "Appeal",
    "Arrival",
    "Clocks",
    "ConductPolicy",
    "CorrectionWindowError",
    "Criterion",
    "DealLine",
    "Effect",
    "EndDeal",
    "EndMatch",
    "EndReason",
    "Entrant",
    "Event",
    "EventConfig",
    "EventError",
    "EventLookupError",
    "EventPhase",
    "LeaderRow",
    "MatchConduct",
    "MatchFormat",
    "MatchOutcome",
    "MatchProgress",
    "NoEffect",
    "Offence",
    "Pairing",
    "PairingSystem",
    "Penalty",
    "PenaltyEntry",
    "PenaltyRecord",
    "Player",
    "PlayerRating",
    "Ranking",
    "RatingBook",
    "RatingModel",
    "ResultChange",
    "ResultKind",
    "Round",
    "RoundDraw",
    "Ruling",
    "ScoreSheet",
    "ScoringRules",
    "SideLateness",
    "SkipTurn",
    "StandingRow",
    "TableResult",
    "Tally",
    "Team",
    "Withdrawal",
    "deal_lines",
    "decide",
    "decide_match",
    "foul_places",
    "foul_result",
    "judge_lateness",
    "late_penalty",
    "leaderboard",
    "level_name",
    "new_event",
    "penalty_text",
    "progress_of",
    "progressive_score",
    "results_csv",
    "round_robin",
    "sheet_from_match",
    "skip_turn_action",
    "standings",
    "standings_csv",
    "swiss_round",
    "table26",
    "table28",
]
