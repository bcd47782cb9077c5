"""Match formats and their end conditions (docs/rules/competition.md#match-formats)."""

from __future__ import annotations

import random

import pytest

from cardroom.guandan.match import Match
from cardroom.tournament import EndReason, MatchFormat, MatchProgress, decide, decide_match, level_name
from cardroom.tournament.formats import limit_reached, progress_of
from tests.tournament.helpers import bot_match, forced_match

MINUTE = 60.0


def test_rule_to_ace_ends_only_when_a_team_passes_a() -> None:
    """局: "比赛中，双方从打2开始按序升级至一方打过A，为一局。" """
    fmt = MatchFormat.to_ace()
    assert decide(fmt, MatchProgress((14, 13), 40, 3 * 3600)) is None
    outcome = decide(fmt, MatchProgress((12, 15), 21, 5000))
    assert outcome is not None
    assert (outcome.winner, outcome.reason, outcome.deals) == (1, EndReason.PASSED_ACE, 21)


def test_rule_fixed_deals_higher_level_wins() -> None:
    """胜负: "打完规定的副数后，升级数高的一方获胜。" """
    fmt = MatchFormat.fixed_deals(8)
    assert decide(fmt, MatchProgress((9, 5), 7)) is None
    outcome = decide(fmt, MatchProgress((9, 5), 8))
    assert outcome is not None
    assert (outcome.winner, outcome.levels, outcome.reason) == (0, (9, 5), EndReason.DEAL_LIMIT)


def test_rule_equal_levels_play_one_more_deal() -> None:
    """胜负: "如升级数相同，可加打一副牌，决出胜负。" — equal after the limit: deal again, then decide."""
    fmt = MatchFormat.fixed_deals(8)
    assert decide(fmt, MatchProgress((7, 7), 8)) is None
    extra = decide(fmt, MatchProgress((7, 9), 9))
    assert extra is not None
    assert (extra.winner, extra.deals) == (1, 9)


def test_equal_levels_draw_without_the_extra_deal() -> None:
    """The extra deal is a parameter ("可加打"): off, equal levels after the limit are a draw."""
    fmt = MatchFormat.fixed_deals(8, tie_extra_deal=False)
    outcome = decide(fmt, MatchProgress((7, 7), 8))
    assert outcome is not None
    assert outcome.winner is None


def test_rule_time_limit_with_equal_levels() -> None:
    """胜负: "在规定时间内 … 升级数高的一方获胜。如升级数相同，可加打一副牌" — a 50-minute round: a deal that
    ends after 50 minutes ends the match; at equal levels one more deal decides it."""
    fmt = MatchFormat.timed(50)
    assert decide(fmt, MatchProgress((6, 4), 9, 49.9 * MINUTE)) is None
    ended = decide(fmt, MatchProgress((6, 4), 10, 50.5 * MINUTE))
    assert ended is not None
    assert (ended.winner, ended.reason) == (0, EndReason.TIME_LIMIT)
    assert decide(fmt, MatchProgress((6, 6), 10, 50.5 * MINUTE)) is None
    decided = decide(fmt, MatchProgress((6, 8), 11, 56 * MINUTE))
    assert decided is not None
    assert (decided.winner, decided.reason, decided.deals) == (1, EndReason.TIME_LIMIT, 11)


def test_time_or_deals_whichever_first() -> None:
    """``timed(50, deals=8)``: 50 minutes or 8 deals, whichever comes first."""
    fmt = MatchFormat.timed(50, deals=8)
    assert limit_reached(fmt, MatchProgress((3, 2), 8, 40 * MINUTE)) is EndReason.DEAL_LIMIT
    assert limit_reached(fmt, MatchProgress((3, 2), 6, 51 * MINUTE)) is EndReason.TIME_LIMIT
    assert limit_reached(fmt, MatchProgress((3, 2), 7, 49 * MINUTE)) is None


def test_passing_a_ends_a_limited_match_early() -> None:
    """Passing A ends a timed or fixed-deal match before its limit."""
    for fmt in (MatchFormat.timed(50), MatchFormat.fixed_deals(30)):
        outcome = decide(fmt, MatchProgress((15, 11), 12, 20 * MINUTE))
        assert outcome is not None
        assert (outcome.winner, outcome.reason) == (0, EndReason.PASSED_ACE)


def test_progress_is_validated() -> None:
    with pytest.raises(ValueError, match="2…15"):
        MatchProgress((1, 2), 0)
    with pytest.raises(ValueError, match="only one team"):
        MatchProgress((15, 15), 3)
    with pytest.raises(ValueError, match="at least 1"):
        MatchFormat.fixed_deals(0)
    with pytest.raises(ValueError, match="positive"):
        MatchFormat.timed(0)


def test_describe_and_round_trip() -> None:
    assert MatchFormat.to_ace().describe() == "打过A (一局)"
    assert MatchFormat.timed(50, deals=8).describe() == "50分钟或8副，平级加打一副"
    assert MatchFormat.fixed_deals(6, tie_extra_deal=False).describe() == "6副，平级为平局"
    fmt = MatchFormat.timed(45.5, deals=7, tie_extra_deal=False)
    assert MatchFormat.from_dict(fmt.to_dict()) == fmt
    assert [level_name(value) for value in (2, 10, 11, 14, 15)] == ["2", "10", "J", "A", "过A"]


def test_decide_on_an_engine_match_agrees_with_its_deal_limit() -> None:
    """A fixed-deal format decided deal by deal ends where the engine's own ``max_deals`` would."""
    fmt = MatchFormat.fixed_deals(2)
    for seed in range(4):
        match, outcome = bot_match(fmt, seed)
        assert outcome.deals == len(match.summaries) >= 2
        assert outcome.levels == match.level_values()
        assert outcome.winner is not None
        assert outcome.levels[outcome.winner] > outcome.levels[1 - outcome.winner]


def test_decide_on_an_engine_match_that_passes_a() -> None:
    """Seat 0 takes 上游 with its partner 二游 four times (2 → 5 → 8 → J → A), then passes A."""
    match = forced_match([(0, 2)] * 5)
    assert match.is_over
    outcome = decide_match(MatchFormat.timed(50), match, elapsed_s=10 * MINUTE)
    assert outcome is not None
    assert (outcome.winner, outcome.levels, outcome.reason) == (0, (15, 2), EndReason.PASSED_ACE)
    assert progress_of(match).deals_played == 5


def test_decide_refuses_a_deal_in_play() -> None:
    match = Match()
    match.deal_random(random.Random(1))
    with pytest.raises(ValueError, match="between deals"):
        decide_match(MatchFormat.to_ace(), match)
