"""Conduct: the clocks and the escalation 警告 → 违例 → 犯规 → 判负 (docs/rules/competition.md#penalties), and
the effects on the engine."""

from __future__ import annotations

import random

import pytest

from cardroom.guandan.deal import Phase, PlayAction
from cardroom.guandan.match import Match
from cardroom.guandan.plays import PASS
from cardroom.tournament import (
    Clocks,
    ConductPolicy,
    EndDeal,
    EndMatch,
    MatchConduct,
    NoEffect,
    Offence,
    Penalty,
    SkipTurn,
    TableResult,
    foul_places,
    foul_result,
    skip_turn_action,
)
from cardroom.tournament.conduct import PenaltyRecord
from tests.guandan.scenario import phase_of
from tests.tournament.helpers import forced_match


def timeouts(conduct: MatchConduct, seats: list[int]) -> tuple[MatchConduct, list[Penalty | None]]:
    """One timeout per seat in turn, a minute apart, in deal 3; the gravest penalty of each."""
    found = []
    for index, seat in enumerate(seats):
        conduct, ruling = conduct.penalise(Offence.TIMEOUT, at_s=60.0 * index, deal=3, seat=seat)
        found.append(ruling.penalty)
    return conduct, found


def test_rule_timeout_is_a_warning() -> None:
    """比赛时间: "贡还牌、出牌逾时，予以读秒；仍逾时，给予警告。" """
    conduct, ruling = MatchConduct().penalise(Offence.TIMEOUT, at_s=125.0, deal=2, seat=1)
    assert ruling.penalty is Penalty.WARNING
    assert ruling.effect == NoEffect()
    assert conduct.records == (PenaltyRecord(1, 1, Penalty.WARNING, Offence.TIMEOUT, 125.0, 2),)


def test_rule_two_warnings_make_a_violation() -> None:
    """违例: "一方受到两次警告 … 记违例，由违规者的下家决定是否停止违规者一次出牌。" — counted per side
    (一方): partners' warnings add up; the opponents' do not."""
    conduct, found = timeouts(MatchConduct(), [0, 1, 2])
    assert found == [Penalty.WARNING, Penalty.WARNING, Penalty.VIOLATION]
    last = conduct.records[-1]
    assert (last.side, last.seat, last.penalty, last.escalated, last.at_s, last.deal) == (
        0,
        2,
        Penalty.VIOLATION,
        True,
        120.0,
        3,
    )
    state, _ = MatchConduct().penalise(Offence.TIMEOUT, at_s=0, deal=1, seat=2)
    _, ruling = state.penalise(Offence.TIMEOUT, at_s=1, deal=1, seat=2)
    assert ruling.effect == SkipTurn(side=0, offender=2, chooser=3)
    assert [record.penalty for record in ruling.records] == [Penalty.WARNING, Penalty.VIOLATION]


def test_rule_two_violations_make_a_foul() -> None:
    """犯规: "一方被记两次违例 … 判犯规，本副牌结束，违规方双下，下副牌不进贡，由违规者的下家或裁判长指定首圈
    领出者。" """
    conduct, found = timeouts(MatchConduct(), [3, 3, 1, 1])
    assert found == [Penalty.WARNING, Penalty.VIOLATION, Penalty.WARNING, Penalty.FOUL]
    assert (
        conduct.count(1, Penalty.WARNING),
        conduct.count(1, Penalty.VIOLATION),
        conduct.count(1, Penalty.FOUL),
    ) == (4, 2, 1)
    _, ruling = conduct.penalise(Offence.MISCONDUCT, at_s=0, deal=3, seat=0, penalty=Penalty.WARNING)
    assert ruling.effect == NoEffect()
    state, _ = MatchConduct().penalise(Offence.MISCONDUCT, at_s=0, deal=1, seat=1, penalty=Penalty.VIOLATION)
    _, ruling = state.penalise(Offence.MISCONDUCT, at_s=5, deal=1, seat=1, penalty=Penalty.VIOLATION)
    assert ruling.effect == EndDeal(side=1, offender=1, chooser=2, no_tribute_next=True)


def test_rule_two_fouls_forfeit_the_match() -> None:
    """判负: "一方弃权或被判两次犯规的，判本轮比赛结束，非违规方胜" — eight timeouts of one side: four
    violations, two fouls, a forfeit; then the match is over for penalties."""
    conduct, found = timeouts(MatchConduct(), [0] * 8)
    assert found[-1] is Penalty.FORFEIT
    assert found.count(Penalty.FOUL) == 1
    assert found.count(Penalty.VIOLATION) == 2
    assert conduct.forfeited == 0
    assert [r.penalty for r in conduct.records].count(Penalty.FOUL) == 2
    with pytest.raises(ValueError, match="already over"):
        conduct.penalise(Offence.TIMEOUT, at_s=0, deal=3, seat=1)
    state, _ = MatchConduct().penalise(Offence.MISCONDUCT, at_s=0, deal=4, side=1, penalty=Penalty.FOUL)
    _, ruling = state.penalise(Offence.MISCONDUCT, at_s=9, deal=5, side=1, penalty=Penalty.FOUL)
    assert ruling.effect == EndMatch(side=1)
    assert TableResult.forfeit(ruling.effect.side, table_levels=(6, 7)).winner == 0, "scored as a forfeit"


def test_disconnections_as_the_event_configures() -> None:
    """掉线 is the event's call: no penalty, a warning (default), or straight to a foul."""
    conduct, ruling = MatchConduct(ConductPolicy(disconnection=None)).penalise(
        Offence.DISCONNECTION, at_s=3, deal=1, seat=0
    )
    assert ruling.records == ()
    assert conduct.records == ()
    _, ruling = MatchConduct().penalise(Offence.DISCONNECTION, at_s=3, deal=1, seat=0)
    assert ruling.penalty is Penalty.WARNING
    _, ruling = MatchConduct(ConductPolicy(disconnection=Penalty.FOUL)).penalise(
        Offence.DISCONNECTION, at_s=3, deal=1, seat=3
    )
    assert ruling.effect == EndDeal(side=1, offender=3, chooser=0)
    lenient = MatchConduct(ConductPolicy(escalate_after=(3, 2, 2)))
    _, found = timeouts(lenient, [0, 0, 0])
    assert found == [Penalty.WARNING, Penalty.WARNING, Penalty.VIOLATION]


def test_rule_late_arrival() -> None:
    """迟到: "迟到5分钟以内，给予警告。迟到10分钟以内，判犯规。迟到超过10分钟，按弃权处理。如双方均迟到，
    较早到的一方给予警告，较晚到的一方按迟到时间给予判罚。" """
    assert MatchConduct().late(0, 4)[1].penalty is Penalty.WARNING
    assert MatchConduct().late(0, 8)[1].penalty is Penalty.FOUL
    conduct, ruling = MatchConduct().late(1, 12)
    assert ruling.effect == EndMatch(side=1)
    assert conduct.records[0].note == "迟到12分钟"
    assert MatchConduct().late(0, 8, other_side_minutes=12)[1].penalty is Penalty.WARNING
    assert MatchConduct().late(0, 0)[1].records == ()


def test_penalties_need_an_offender() -> None:
    with pytest.raises(ValueError, match="seat or side"):
        MatchConduct().penalise(Offence.TIMEOUT, at_s=0, deal=1)
    with pytest.raises(ValueError, match="not on side"):
        MatchConduct().penalise(Offence.TIMEOUT, at_s=0, deal=1, seat=1, side=0)
    with pytest.raises(ValueError, match="referee"):
        MatchConduct().penalise(Offence.MISCONDUCT, at_s=0, deal=1, seat=1)


def test_round_trip() -> None:
    conduct, _ = timeouts(MatchConduct(ConductPolicy(disconnection=Penalty.VIOLATION)), [0, 2, 1])
    assert MatchConduct.from_dict(conduct.to_dict()) == conduct
    assert conduct.records[1].describe() == "第3副 60s seat 2: 警告 (逾时)"
    assert conduct.records[2].describe() == "第3副 60s seat 2: 违例 (累计)"


# -- the effects on the engine ---------------------------------------------------------------------------


def test_rule_violation_skips_a_follow_with_a_pass() -> None:
    """违例's effect when the offender follows: the server passes for it — a plain engine action."""
    match = Match()
    deal = match.deal_random(random.Random(3))
    leader = deal.current_player
    assert leader is not None
    assert skip_turn_action(deal, leader) is None, "a lead cannot be skipped by a pass (engine hook)"
    match.apply(match.legal_actions()[0])
    offender = (leader + 1) % 4
    action = skip_turn_action(deal, offender)
    assert action == PlayAction(offender, PASS)
    match.apply(action)
    assert deal.current_player == (leader + 2) % 4
    assert skip_turn_action(deal, offender) is None, "not the offender's turn"


def test_rule_foul_counts_the_offending_side_double_down() -> None:
    """犯规: "本副牌结束，违规方双下": the other side takes places 1 and 2 (one already out keeps its place),
    and rises as for 双下."""
    assert foul_places(1) == (2, 0, 3, 1)
    assert foul_places(2, finished=[3]) == (3, 1, 0, 2)
    assert foul_places(1, finished=[3]) == (2, 0, 3, 1)
    result = foul_result(0, finished=[2, 1])
    assert (result.places, result.winning_team, result.double_down) == ((1, 3, 2, 0), 1, True)
    assert result.rise(Match().rules) == 3
    with pytest.raises(ValueError, match="0–3"):
        foul_places(4)


def test_clocks() -> None:
    """比赛时间: "进贡者应在抓完牌后20秒内贡牌，还牌者须在贡牌后40秒内还牌"; "首圈领出者应在还牌后40秒内
    领出牌，下家应在上家出牌后20秒内出牌"."""
    clocks = Clocks()
    match = Match()
    deal = match.deal_random(random.Random(5))
    assert clocks.time_allowed(deal) == 40
    match.apply(match.legal_actions()[0])
    assert clocks.time_allowed(deal) == 20
    second = forced_match([(0, 3)])
    tribute = second.deal_random(random.Random(8))
    assert phase_of(tribute) is Phase.TRIBUTE
    assert clocks.time_allowed(tribute) == 20
    second.apply(second.legal_actions()[0])
    assert phase_of(tribute) is Phase.RETURN
    assert clocks.time_allowed(tribute) == 40
    second.apply(second.legal_actions()[0])
    assert phase_of(tribute) is Phase.PLAY
    assert clocks.time_allowed(tribute) == 40, "the first lead after the return"
