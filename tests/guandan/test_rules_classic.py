"""The `classic` preset (docs/rules/classic.md), rule by rule: the team on stage (庄家), tribute from 大落
to 头科 whatever the teams, the exemptions, and A with 头科 + 二科."""

from __future__ import annotations

import random

import pytest

from cardroom.cards import Rank
from cardroom.guandan.deal import Deal, EventKind, Phase, TributeAction
from cardroom.guandan.errors import WrongPhaseError
from cardroom.guandan.match import Match
from cardroom.guandan.ruleset import CLASSIC, COMPETITION, preset
from cardroom.guandan.tribute import team_of
from tests.guandan.scenario import build_hands, phase_of, play_match_deal


def level_of(match: Match, team: int) -> Rank:
    """A team's level (a call, so that type checkers do not narrow it across deals)."""
    return match.levels[team]


def test_classic_is_a_preset() -> None:
    assert preset("classic") is CLASSIC


def test_the_turned_cards_team_is_on_stage_in_the_first_deal() -> None:
    """docs/rules/classic.md#first-deal-on-stage (打法 §1):
    誰摸到這張牌，誰就先出牌，同時他所在的隊是莊家(也叫在臺上)."""
    match = Match(CLASSIC)
    play_match_deal(match, random.Random(1), 1, 3)
    assert match.summaries[0].level_team == team_of(1)
    competition = Match(COMPETITION)
    play_match_deal(competition, random.Random(1), 1, 3)
    assert competition.summaries[0].level_team is None


def test_the_team_on_stage_rises_by_its_partners_place() -> None:
    """docs/rules/classic.md#on-stage (打法 §2):
    一人頭科，一人落科，則升一級…一人頭科，一人三科，則升兩級…一人頭科，一人二科…則升三級."""
    for partner_place, rise in ((2, 3), (3, 2), (4, 1)):
        match = Match(CLASSIC)
        play_match_deal(match, random.Random(partner_place), 0, partner_place)
        assert match.levels[0] == Rank(2 + rise)
        assert match.level_team == 0


def test_the_off_stage_team_goes_on_stage_without_rising_the_first_time() -> None:
    """docs/rules/classic.md#first-stage (打法 §2):
    如果第一局乙方在臺下，盡管走出了頭科和二科，第二局也得打2."""
    match = Match(CLASSIC)
    rng = random.Random(2)
    play_match_deal(match, rng, 0, 4)  # team 0 on stage rises +1 → 3
    play_match_deal(match, rng, 1, 2)  # team 1, never on stage, takes 头科 + 二科
    assert match.levels == [Rank.THREE, Rank.TWO]
    assert match.level_team == 1
    assert match.level == Rank.TWO
    competition = Match(COMPETITION)
    play_match_deal(competition, random.Random(2), 0, 4)
    play_match_deal(competition, random.Random(3), 1, 2)
    assert competition.levels[1] == Rank.FIVE


def test_after_its_first_stage_an_off_stage_team_rises_when_it_takes_the_stage() -> None:
    """docs/rules/classic.md#first-stage (打法 §2):
    第八局再上臺時勝了，戰況是頭科和大落，因為已經打過一次2級，本局升一級。第九局乙方在臺上，打3."""
    match = Match(CLASSIC)
    rng = random.Random(4)
    play_match_deal(match, rng, 0, 2)  # team 0 on stage: 2 → 5
    play_match_deal(match, rng, 1, 3)  # team 1 takes the stage at 2, no rise
    play_match_deal(match, rng, 0, 3)  # team 0 back on stage: 5 → 7
    play_match_deal(match, rng, 1, 4)  # team 1 has played its 2: 头科 + 大落 → 3
    assert match.levels == [Rank.SEVEN, Rank.THREE]
    assert match.level == Rank.THREE


def test_double_tribute_goes_by_place_not_by_size() -> None:
    """docs/rules/classic.md#double-tribute (打法 §8):
    如果一方是頭科和二科，對方都得進貢，頭科吃大落的，二科吃二落的."""
    hands = build_hands("SB", "SB", "HR", "HR")  # 三游 (seat 1) pays a small joker, 下游 (seat 3) a big one
    deal = Deal(hands, Rank.FIVE, CLASSIC, previous_places=(0, 2, 1, 3))
    for payer in (1, 3):
        deal.apply(TributeAction(payer, deal.legal_actions()[0].card))  # type: ignore[union-attr]
    tributes = {event.seat: event.to for event in deal.events if event.kind == EventKind.TRIBUTE}
    assert tributes == {3: 0, 1: 2}
    competition = Deal(hands, Rank.FIVE, COMPETITION, previous_places=(0, 2, 1, 3))
    for payer in (1, 3):
        competition.apply(TributeAction(payer, competition.legal_actions()[0].card))  # type: ignore[union-attr]
    assert {event.seat: event.to for event in competition.events if event.kind == EventKind.TRIBUTE} == {
        3: 0,
        1: 2,
    }
    swapped = build_hands("SB", "HR", "HR", "SB")
    larger_first = Deal(swapped, Rank.FIVE, COMPETITION, previous_places=(0, 2, 1, 3))
    by_place = Deal(swapped, Rank.FIVE, CLASSIC, previous_places=(0, 2, 1, 3))
    for deal_ in (larger_first, by_place):
        for payer in (1, 3):
            deal_.apply(TributeAction(payer, deal_.legal_actions()[0].card))  # type: ignore[union-attr]
    assert {e.seat: e.to for e in larger_first.events if e.kind == EventKind.TRIBUTE} == {1: 0, 3: 2}
    assert {e.seat: e.to for e in by_place.events if e.kind == EventKind.TRIBUTE} == {3: 0, 1: 2}


def test_the_last_pays_the_first_even_as_partners() -> None:
    """docs/rules/classic.md#tribute (打法 §8): 落科必須向頭科進貢，不論是否同伙."""
    deal = Deal(build_hands(), Rank.TWO, CLASSIC, previous_places=(0, 1, 3, 2))
    assert deal.phase is Phase.TRIBUTE
    assert deal.current_player == 2
    assert deal.tribute_plan is not None
    assert deal.tribute_plan.receivers == (0,)


def test_first_and_third_only_the_last_pays() -> None:
    """docs/rules/classic.md#tribute (打法 §8):
    如果一方是頭科和三科(二落)，對方落科進貢，二落不必向二科進貢."""
    deal = Deal(build_hands(), Rank.TWO, CLASSIC, previous_places=(0, 1, 2, 3))
    assert deal.tribute_plan is not None
    assert deal.tribute_plan.payers == (3,)


def test_both_big_jokers_on_the_paying_side_excuse_both() -> None:
    """docs/rules/classic.md#exemptions (打法 §8):
    如果進貢一方摸到兩張大畫，無論在一人手中還是二人手中，二人都免貢…免貢後頭科先出牌."""
    for hands in (build_hands("", "HR", "", "HR"), build_hands("", "", "", "HR HR")):
        deal = Deal(hands, Rank.TWO, CLASSIC, previous_places=(0, 2, 1, 3))
        assert deal.phase is Phase.PLAY
        assert deal.current_player == 0


def test_a_payer_with_both_small_jokers_is_excused_the_other_still_pays() -> None:
    """docs/rules/classic.md#exemptions (打法 §8):
    如果進貢一方，有一人摸到兩張副畫，則此人不用進貢，另一人仍然進貢."""
    deal = Deal(build_hands("", "SB SB"), Rank.TWO, CLASSIC, previous_places=(0, 2, 1, 3))
    assert [event.seat for event in deal.events if event.kind == EventKind.ANTI_TRIBUTE] == [1]
    assert deal.phase is Phase.TRIBUTE
    assert deal.current_player == 3
    deal.apply(TributeAction(3, deal.legal_actions()[0].card))  # type: ignore[union-attr]
    assert [(event.seat, event.to) for event in deal.events if event.kind == EventKind.TRIBUTE] == [(3, 0)]
    assert deal.current_player == 0
    deal.apply(deal.legal_actions()[0])
    assert phase_of(deal) is Phase.PLAY
    assert deal.current_player == 3, "进贡后落科先出牌"
    excused = Deal(build_hands("", "SB SB"), Rank.TWO, CLASSIC, previous_places=(0, 2, 1, 3))
    with pytest.raises(WrongPhaseError, match="seat 1 pays no tribute: 抗贡: it holds both small jokers"):
        excused.verify(TributeAction(1, excused.legal_actions()[0].card))  # type: ignore[union-attr]
    competition = Deal(build_hands("", "SB SB"), Rank.TWO, COMPETITION, previous_places=(0, 2, 1, 3))
    assert competition.tribute_plan is not None
    assert competition.tribute_plan.payers == (1, 3)


def test_the_excused_last_means_the_first_leads() -> None:
    """docs/rules/classic.md#lead-after-tribute (打法 §8): 免貢後頭科先出牌 — the 大落 excused by two small
    jokers, the 二落 pays 二科, and the 头科 leads."""
    deal = Deal(build_hands("", "", "", "SB SB"), Rank.TWO, CLASSIC, previous_places=(0, 2, 1, 3))
    assert deal.current_player == 1
    deal.apply(TributeAction(1, deal.legal_actions()[0].card))  # type: ignore[union-attr]
    assert [(event.seat, event.to) for event in deal.events if event.kind == EventKind.TRIBUTE] == [(1, 2)]
    assert deal.current_player == 2
    deal.apply(deal.legal_actions()[0])
    assert deal.current_player == 0


def test_at_a_the_team_must_take_first_and_second() -> None:
    """docs/rules/classic.md#passing-ace (打法 §9):
    若某一方從2級升到A級，必須走出頭科二科才能結束第一場比賽，宣告獲勝."""
    match = Match(CLASSIC)
    rng = random.Random(5)
    while level_of(match, 0) != Rank.ACE:
        play_match_deal(match, rng, 0, 2)
    play_match_deal(match, rng, 0, 3)
    assert not match.is_over
    assert match.levels[0] == Rank.ACE
    assert match.ace_failures[0] == 0, "头科 + 三科 keeps the stage: not thrown off"
    play_match_deal(match, rng, 0, 2)
    assert match.is_over
    assert match.winner == 0


def test_thrown_off_stage_at_a_three_times_goes_back_to_two() -> None:
    """docs/rules/classic.md#ace-failures (打法 §9):
    如果升到A時，被推翻，再上臺，又被推翻，第三次上臺又被推翻，則這一方…倒退回第2級."""
    match = Match(CLASSIC)
    rng = random.Random(6)
    while level_of(match, 0) != Rank.ACE:
        play_match_deal(match, rng, 0, 2)
    for time in range(3):
        play_match_deal(match, rng, 1, 4)  # thrown off stage
        if time < 2:
            assert match.levels[0] == Rank.ACE
            play_match_deal(match, rng, 0, 4)  # back on stage at A (capped)
    assert match.levels[0] == Rank.TWO
    assert match.ace_failures[0] == 0
