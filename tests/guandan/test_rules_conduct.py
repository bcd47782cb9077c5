"""One test per conduct ruling of the competition rules (docs/rules/competition.md#penalties) that changes the
game, applied through the engine's rulings (``cardroom.guandan.rulings``): 违例 (a skipped turn), 犯规 (a
foul ends the deal) and 判负 (a forfeit ends the match). Each test quotes 摜彈's sentence.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from cardroom.cards import Rank
from cardroom.guandan.deal import Deal, DealResult, Event, EventKind, Phase, PlayAction
from cardroom.guandan.errors import RulingError, SkipTurnError, WrongPhaseError
from cardroom.guandan.match import Match, MatchPhase, shuffled_hands
from cardroom.guandan.plays import PASS
from cardroom.guandan.rulings import (
    ForfeitRuling,
    FoulRuling,
    SkipTurnRuling,
    forfeit_levels,
    forfeit_points,
    foul_places,
    skipped_lead_to,
)
from cardroom.guandan.scoring import PASSED_ACE, round_points
from tests.guandan.scenario import act, build_hands, cards, pass_round, phase_of, play_match_deal, snapshot

R = Rank
COMPETITION_PAGE = Path(__file__).resolve().parents[2] / "docs" / "rules" / "competition.md"

VIOLATION = "由違規者的下家決定是否停止違規者一次出牌"
VIOLATION_LEAD = "如違規者應下圈牌領出，則按出牌順序由非違規方領出牌"
FOUL = "判犯規，本副牌結束，違規方雙下，下副牌不進貢，由違規者的下家或裁判長指定首圈領出者"
FORFEIT = (
    "判本輪比賽結束，非違規方勝，按違規方級數升4級記級（違規方級數可降至J），棄權記分17:0。"
    "如場上級差超過4級，則以場上比分為準"
)


def first_deal(leader: int = 0) -> Deal:
    """A first deal at level 2 from hand-built hands, ``leader`` to lead."""
    return Deal(build_hands(), R.TWO, leader=leader)


def match_in_first_deal(seed: int = 1, leader: int = 0) -> Match:
    match = Match()
    hands, _ = shuffled_hands(random.Random(seed))
    match.deal(hands, leader)
    return match


def deal_of(match: Match) -> Deal:
    deal = match.current_deal
    assert deal is not None
    return deal


# -- 违例: a skipped turn ------------------------------------------------------------------------


def test_violation_skips_the_offenders_follow_as_a_pass() -> None:
    """docs/rules/competition.md#violation (摜彈, 第四章 三（二）):
    "由違規者的下家決定是否停止違規者一次出牌". Following a play, the skipped turn is a pass: the log says it
    was a ruling, and the trick goes on as after any pass."""
    deal = first_deal(0)
    act(deal, 0, "S3")
    deal.apply_ruling(SkipTurnRuling(1))
    assert deal.events[-2:] == [Event(EventKind.SKIP_TURN, seat=1), Event(EventKind.PASS, seat=1)]
    assert deal.passes == 1
    assert deal.current_player == 2
    assert deal.actions[-1] == SkipTurnRuling(1)
    pass_round(deal, 2)
    assert deal.events[-1] == Event(EventKind.TRICK, seat=0, to=0)
    assert deal.current_player == 0


def test_violation_a_skipped_lead_goes_to_the_offenders_xiajia() -> None:
    """摜彈 违例: "如違規者應下圈牌領出，則按出牌順序由非違規方領出牌". The offender due to lead loses the
    lead to the next player in play order, who is of the other side (its 下家)."""
    deal = first_deal(2)
    deal.apply_ruling(SkipTurnRuling(2))
    assert deal.events[-1] == Event(EventKind.SKIP_TURN, seat=2, to=3)
    assert deal.current_player == 3
    assert deal.previous is None
    assert all(isinstance(action, PlayAction) and not action.play.is_pass for action in deal.legal_actions())


def test_violation_a_skipped_lead_passes_over_an_opponent_already_out() -> None:
    """摜彈 违例: "按出牌順序由非違規方領出牌": with the 下家 out, the next player in play order is the
    offender's partner (the offending side), so the lead goes on to the other opponent (the 上家)."""
    hands = (cards("S3 S4"), cards(""), cards("S5 S6"), cards("S7 S8"))
    deal = Deal.at_position(hands, R.TWO, current_player=0, finished=[1])
    deal.apply_ruling(SkipTurnRuling(0))
    assert deal.current_player == 3
    assert skipped_lead_to(0, [1]) == 3
    assert skipped_lead_to(2, []) == 3


def test_violation_a_skipped_lead_after_jiefeng_goes_to_the_other_side() -> None:
    """摜彈 违例: "如違規者應下圈牌領出" also covers a lead taken by 接风: the partner of a player gone out
    would lead, and a skipped lead goes to the next player of the other side."""
    hands = (cards("S3"), cards("S5 S6"), cards("S7 S8"), cards("S9 ST"))
    deal = Deal.at_position(hands, R.TWO, current_player=0)
    act(deal, 0, "S3")
    pass_round(deal, 3)
    assert deal.current_player == 2  # 接风
    deal.apply_ruling(SkipTurnRuling(2))
    assert deal.events[-1] == Event(EventKind.SKIP_TURN, seat=2, to=3)
    assert deal.current_player == 3


def test_violation_skips_only_the_offenders_own_turn_to_play() -> None:
    """摜彈 违例: "停止違規者一次出牌": the ruling skips the offender's turn when it is the offender's to
    play; another seat's turn, a tribute or return, or a finished deal are refused, and nothing changes."""
    deal = first_deal(0)
    before = snapshot(deal)
    with pytest.raises(SkipTurnError, match="seat 1 is not to act, seat 0 is"):
        deal.verify_ruling(SkipTurnRuling(1))
    with pytest.raises(RulingError, match="seat 0–3"):
        deal.apply_ruling(SkipTurnRuling(4))
    assert not deal.can_ruling(SkipTurnRuling(3))
    assert deal.can_ruling(SkipTurnRuling(0))
    assert snapshot(deal) == before
    assert deal.actions == []
    match = Match()
    rng = random.Random(2)
    play_match_deal(match, rng, 1, 3)
    tribute = match.deal(shuffled_hands(rng)[0])
    assert tribute.phase is Phase.TRIBUTE
    payer = tribute.current_player
    assert payer is not None
    with pytest.raises(WrongPhaseError, match="tribute phase"):
        match.apply_ruling(SkipTurnRuling(payer))


def test_rulings_are_not_legal_actions_of_a_player() -> None:
    """docs/rules/competition.md#penalties (摜彈, 第四章 二): "警告和違例由裁判員判罰" — a referee rules, no
    player chooses a ruling."""
    deal = first_deal(0)
    assert all(isinstance(action, PlayAction) for action in deal.legal_actions())


# -- 犯规: a foul ends the deal ------------------------------------------------------------------


def test_foul_ends_the_deal_with_the_offenders_side_double_down() -> None:
    """docs/rules/competition.md#foul (摜彈, 第四章 三（三）): "判犯規，本副牌結束，違規方雙下". The deal ends
    at once; the other side takes 上游 and 二游 in play order from the offender, then the offender's partner,
    then the offender."""
    match = match_in_first_deal(leader=0)
    deal = deal_of(match)
    match.apply_ruling(FoulRuling(1))
    assert deal.phase is Phase.OVER
    assert deal.current_player is None
    assert deal.result == DealResult((2, 0, 3, 1), foul_by=1)
    assert deal.result.double_down
    assert deal.events[-2:] == [Event(EventKind.FOUL, seat=1), Event(EventKind.OVER)]
    with pytest.raises(WrongPhaseError):
        deal.apply(PlayAction(0, PASS))


def test_foul_levels_apply_as_for_a_double_down() -> None:
    """摜彈 犯规 "違規方雙下" with 六、升級 "同伴二游升3級": the other side rises 3 and plays its level
    next."""
    match = match_in_first_deal(leader=0)
    match.apply_ruling(FoulRuling(3))
    assert match.levels == [R.FIVE, R.TWO]
    assert match.level_team == 0
    assert match.level == R.FIVE
    summary = match.summaries[-1]
    assert summary.result.foul_by == 3
    assert summary.result.rise(match.rules) == 3
    assert match.phase is MatchPhase.DEALING


def test_foul_a_player_of_the_other_side_already_out_keeps_upstream() -> None:
    """摜彈 犯规 "違規方雙下": a player of the other side already out keeps 上游; one of the offending side
    already out (even 上游) still ends the deal in 三游 or 下游."""
    hands = (cards("S3 S4"), cards(""), cards("S5 S6"), cards("S7 S8"))
    deal = Deal.at_position(hands, R.TWO, current_player=2, finished=[1])
    deal.apply_ruling(FoulRuling(2))
    assert deal.result is not None
    assert deal.result.places == (1, 3, 0, 2)
    hands = (cards(""), cards("S3 S4"), cards("S5 S6"), cards("S7 S8"))
    deal = Deal.at_position(hands, R.TWO, current_player=1, finished=[0])
    deal.apply_ruling(FoulRuling(2))  # the offender's partner was 上游
    assert deal.result is not None
    assert deal.result.places == (3, 1, 0, 2)
    assert foul_places(0) == (1, 3, 2, 0)


def test_foul_by_a_player_already_out() -> None:
    """摜彈 犯规 "傳遞非法信息的，判犯規": a player who has gone out can still pass illegal information; the
    ruling applies to it as to any offender."""
    hands = (cards(""), cards("S3 S4"), cards("S5 S6"), cards("S7 S8"))
    deal = Deal.at_position(hands, R.TWO, current_player=1, finished=[0])
    deal.apply_ruling(FoulRuling(0))
    assert deal.result is not None
    assert deal.result.places == (1, 3, 2, 0)


def test_foul_during_tribute_ends_the_deal() -> None:
    """摜彈 犯规 "本副牌結束" holds in every phase: a foul while the tribute is due ends the deal too."""
    match = Match()
    rng = random.Random(4)
    play_match_deal(match, rng, 0, 4)
    deal = match.deal(shuffled_hands(rng)[0])
    assert phase_of(deal) is Phase.TRIBUTE
    match.apply_ruling(FoulRuling(0))
    assert phase_of(deal) is Phase.OVER
    assert deal.result is not None
    assert deal.result.places == (1, 3, 2, 0)
    assert match.levels == [R.THREE, R.FIVE]


def test_the_deal_after_a_foul_has_no_tribute_and_a_named_leader() -> None:
    """摜彈 犯规: "下副牌不進貢，由違規者的下家或裁判長指定首圈領出者". The next deal needs its leader, named
    by the offender's 下家 (``leader_chooser``) or the chief referee; it starts in play, with no tribute."""
    match = match_in_first_deal(leader=0)
    match.apply_ruling(FoulRuling(1))
    assert match.needs_named_leader
    assert match.leader_chooser == 2
    assert not match.needs_leader
    hands, (holder, turned) = shuffled_hands(random.Random(9))
    with pytest.raises(ValueError, match="named leader"):
        match.deal(hands)
    with pytest.raises(ValueError, match="turns no card"):
        match.deal(hands, holder, turned)
    deal = match.deal(hands, 3)
    assert deal.after_foul
    assert deal.phase is Phase.PLAY
    assert deal.current_player == 3
    assert deal.tribute_plan is None
    assert deal.events == [Event(EventKind.NO_TRIBUTE, seat=3)]
    assert deal.level == R.FIVE
    assert not match.needs_named_leader
    assert match.leader_chooser is None


def test_tribute_returns_in_the_deal_after_next() -> None:
    """摜彈 犯规 "下副牌不進貢" skips the tribute of the next deal only; the deal after it starts with
    tribute again (三、貢牌與還牌)."""
    match = match_in_first_deal(leader=0)
    match.apply_ruling(FoulRuling(1))
    rng = random.Random(5)
    match.deal_random(rng, leader=2)
    match.apply_ruling(FoulRuling(2))  # a second foul, by the other side
    match.deal_random(rng, leader=0)
    play_to_end(match, rng)
    with pytest.raises(ValueError, match="tribute"):
        match.deal(shuffled_hands(rng)[0], 0)
    deal = match.deal(shuffled_hands(rng)[0])
    assert deal.tribute_plan is not None
    assert not deal.after_foul


def play_to_end(match: Match, rng: random.Random) -> None:
    while match.current_deal is not None:
        match.apply(rng.choice(match.legal_actions()))


def test_foul_against_the_team_playing_its_ace_passes_ace() -> None:
    """摜彈 犯规 "違規方雙下" with 六 "A級必打，且必須同伴獲得二游或三游，才能打過A級": a foul by the other
    side gives the team whose A is played 上游 and 二游, so it passes A and wins the match."""
    match = Match()
    rng = random.Random(1)
    for _ in range(4):
        play_match_deal(match, rng, 0, 2)
    assert match.levels[0] == R.ACE
    assert match.level == R.ACE
    match.deal(shuffled_hands(rng)[0])
    match.apply_ruling(FoulRuling(1))
    assert match.is_over
    assert match.winner == 0
    assert match.passed_ace
    assert match.level_values()[0] == PASSED_ACE


def test_foul_by_the_team_playing_its_ace_is_a_failure_at_ace() -> None:
    """摜彈 犯规 "違規方雙下": the team whose A is played fouls, so it fails at A and the other side
    rises 3."""
    match = Match()
    rng = random.Random(1)
    for _ in range(4):
        play_match_deal(match, rng, 0, 2)
    match.deal(shuffled_hands(rng)[0])
    match.apply_ruling(FoulRuling(2))
    assert not match.is_over
    assert match.summaries[-1].failed_at_ace == (0,)
    assert match.levels == [R.ACE, R.FIVE]


def test_a_foul_needs_a_deal_in_play_and_a_seat() -> None:
    """摜彈 犯规 "本副牌結束": there must be a deal to end; a refused ruling changes nothing."""
    match = Match()
    with pytest.raises(WrongPhaseError, match="no deal is in play"):
        match.verify_ruling(FoulRuling(0))
    match = match_in_first_deal()
    deal = deal_of(match)
    before = snapshot(deal)
    with pytest.raises(RulingError, match="seat 0–3"):
        match.apply_ruling(FoulRuling(-1))
    assert not match.can_ruling(FoulRuling(7))
    assert snapshot(deal) == before
    assert match.summaries == []


# -- 判负: a forfeit ends the match --------------------------------------------------------------


def test_forfeit_ends_the_match_and_the_other_side_wins() -> None:
    """docs/rules/competition.md#forfeit (摜彈, 第四章 三（四）): "判本輪比賽結束，非違規方勝". A deal in play
    stops (no result), the match is over, and nothing more can be played or ruled."""
    match = match_in_first_deal()
    deal = deal_of(match)
    match.forfeit(1, "兩次犯規")
    assert match.is_over
    assert match.winner == 0
    assert match.forfeited == ForfeitRuling(1, "兩次犯規")
    assert match.forfeited_by == 1
    assert not match.passed_ace
    assert deal.phase is Phase.OVER
    assert deal.result is None
    assert deal.events[-1] == Event(EventKind.FORFEIT, side=1)
    assert match.current_player is None
    assert match.legal_actions() == []
    with pytest.raises(WrongPhaseError):
        match.apply(PlayAction(0, PASS))
    with pytest.raises(WrongPhaseError, match="the match is over"):
        match.forfeit(0)
    assert match.summaries == []


def test_forfeit_before_any_deal() -> None:
    """docs/rules/competition.md#late (摜彈, 比賽通則 九.1) "遲到超過10分鐘，按棄權處理" with 判负
    "一方棄權…非違規方勝": a side can forfeit before a card is dealt; 17 : 0 to the other side."""
    match = Match()
    match.apply_ruling(ForfeitRuling(0, "弃权"))
    assert match.winner == 1
    assert match.points() == (0, 17)
    with pytest.raises(WrongPhaseError):
        match.deal_random(random.Random(0))


def test_forfeit_scores_seventeen_to_nothing() -> None:
    """摜彈 判负: "按違規方級數升4級記級（違規方級數可降至J），棄權記分17:0". The offender's level is
    recorded at J at most and the winner 4 above it; the score is 17 : 0."""
    match = match_in_first_deal()
    match.apply_ruling(FoulRuling(1))  # team 0 at 5
    match.forfeit(0)
    assert match.points() == (0, 17)
    assert forfeit_levels((5, 2), 0) == (5, 9)
    assert forfeit_levels((14, 9), 0) == (11, 15)
    assert forfeit_points((14, 9), 0) == (0, 17)


def test_forfeit_keeps_the_table_score_when_the_lead_is_larger() -> None:
    """摜彈 判负: "如場上級差超過4級，則以場上比分為準": the winner leading by more than 4 keeps the levels
    and the 28-point score of the table."""
    assert forfeit_levels((9, 2), 1) == (9, 2)
    assert forfeit_points((9, 2), 1) == round_points(7)
    assert forfeit_points((2, 7), 0) == (9, 19)  # the winner, team 1, leads by 5
    assert forfeit_points((2, 7), 1) == (17, 0)  # the forfeiting side led: 17 : 0 all the same
    assert forfeit_levels((2, 7), 1) == (11, 7)


def test_forfeit_needs_a_side() -> None:
    """摜彈 判负 names a side ("一方"): 0 or 1; a refused forfeit changes nothing."""
    match = match_in_first_deal()
    with pytest.raises(RulingError, match="0 or 1"):
        match.apply_ruling(ForfeitRuling(2))
    assert match.phase is MatchPhase.DEAL
    assert match.forfeited is None


def test_rulings_are_public_in_every_seats_observation() -> None:
    """docs/rules/competition.md#penalties (摜彈, 第四章 二): rulings are announced at the table; every seat's
    log shows them."""
    match = match_in_first_deal(leader=0)
    match.apply_ruling(SkipTurnRuling(0))
    match.apply_ruling(FoulRuling(1))
    for seat in range(4):
        kinds = [event.kind.value for event in match.observation(seat).history]
        assert kinds == ["skip_turn", "foul", "over"]


@pytest.mark.parametrize(
    ("anchor", "quote"),
    [("violation", VIOLATION), ("violation", VIOLATION_LEAD), ("foul", FOUL), ("forfeit", FORFEIT)],
)
def test_the_quoted_sentences_are_the_rules_pages(anchor: str, quote: str) -> None:
    """The sentences quoted above are quoted, as 摜彈 writes them, by the rule of docs/rules/competition.md
    they belong to (#violation, #foul, #forfeit); line breaks aside."""
    page = COMPETITION_PAGE.read_text(encoding="utf-8")
    marker = f'<a id="{anchor}"></a>'
    assert marker in page, f"docs/rules/competition.md has no anchor #{anchor}"
    rule = page.split(marker, 1)[1].split("<a id=", 1)[0]
    assert "".join(quote.split()) in "".join(rule.split())
