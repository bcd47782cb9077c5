"""One test per scoring rule of Shengji (docs/rules/shengji.md: points and the result; 打升級 quoted): the
result table at its edges, the kitty multiplier (摳底) through finished deals, the failed-throw penalty in the
score, and the rule set's parameters and presets.
"""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest

from cardroom.cards import NATURAL_RANKS, Rank, Suit, sort_cards
from cardroom.shengji.deal import Deal, Play
from cardroom.shengji.ruleset import (
    ALL_RANKS,
    ALL_RANKS_SECOND_TABLE,
    PRESETS,
    SECOND_TABLE,
    SHENGJI,
    ShengjiRules,
    preset,
)
from cardroom.shengji.scoring import TOTAL_POINTS, Outcome, kitty_multiplier, outcome
from tests.shengji.deal_helpers import cards

TWO = Rank.TWO
KITTY = "D5 D5 DT DT C5 C5 CK CK"
"""60 points."""


# -- the result table --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("score", "expected"),
    [
        (-10, Outcome(False, 3)),
        (0, Outcome(False, 3)),
        (5, Outcome(False, 2)),
        (35, Outcome(False, 2)),
        (40, Outcome(False, 1)),
        (75, Outcome(False, 1)),
        (80, Outcome(True, 0)),
        (115, Outcome(True, 0)),
        (120, Outcome(True, 1)),
        (155, Outcome(True, 1)),
        (160, Outcome(True, 2)),
        (195, Outcome(True, 2)),
        (200, Outcome(True, 3)),
        (320, Outcome(True, 3)),
    ],
)
def test_the_result_table_at_its_edges(score: int, expected: Outcome) -> None:
    """The default table, 打升級's 40 points a level as docs/rules/shengji.md#result-table reads it: 0 →
    dealers +3; 5–35 → +2; 40–75 → +1; 80–115 → attackers take over; 120–155 → attackers +1; 160–195 → +2;
    200+ → +3. 打升級: 0分 對方升三級；5—35分 對方升二級；40—75分 對方升一級；80—115分 倒庄; 以 40
    分為一個等級抓分方升相應等級. A score below 0 (after a penalty) reads as 0."""
    assert outcome(score, SHENGJI) == expected


def test_the_default_table_does_not_follow_the_first_paragraphs_jump_to_three() -> None:
    """打升級, first paragraph: 大於等於 120 小於 160 ，抓分方升 12級 (garbled)；大於等於 160 小於 200 ，
    抓分方連升 3級. The same paragraph's 以 40 分為一個等級 gives +2 at 160–195 and +3 only at 200; the
    default keeps that rule (docs/rules/shengji.md#result-table), so the first paragraph's +3 at 160 is not
    modelled."""
    assert outcome(160, SHENGJI) == Outcome(True, 2)
    assert outcome(195, SHENGJI) == Outcome(True, 2)
    assert outcome(200, SHENGJI) == Outcome(True, 3)


@pytest.mark.parametrize(
    ("score", "expected"),
    [
        (75, Outcome(False, 1)),
        (80, Outcome(True, 0)),
        (115, Outcome(True, 0)),
        (120, Outcome(True, 2)),
        (145, Outcome(True, 2)),
        (150, Outcome(True, 3)),
        (200, Outcome(True, 3)),
    ],
)
def test_the_seeds_second_table_is_a_preset(score: int, expected: Outcome) -> None:
    """打升級, 二、升級標準: 4、80—115分 倒庄；5、120—145分 升二級；6、150分以上 升三級 (the
    ``shengji_second_table`` preset)."""
    assert SECOND_TABLE.attacker_table == ((80, 0), (120, 2), (150, 3))
    assert outcome(score, SECOND_TABLE) == expected


def test_one_deal_gives_at_most_three_levels() -> None:
    """打升級: 比賽中每局最高升級為三級 … (最多連升三級): ``max_rise`` caps a longer table."""
    rules = ShengjiRules(attacker_table=((80, 0), (120, 1), (160, 2), (200, 3), (240, 4)))
    assert outcome(280, rules) == Outcome(True, 3)
    assert outcome(280, ShengjiRules(attacker_table=rules.attacker_table, max_rise=4)) == Outcome(True, 4)


def test_the_two_decks_hold_200_points() -> None:
    """打升級: 5、10、K都是分牌，5代表5分，10和K分別代表10分，兩副牌共200分."""
    assert TOTAL_POINTS == 200


# -- the kitty multiplier ----------------------------------------------------------------------------


@pytest.mark.parametrize(("pairs", "multiplier"), [(0, 2), (1, 4), (2, 8), (3, 16), (4, 32)])
def test_the_kitty_multiplier_doubles_with_each_pair(pairs: int, multiplier: int) -> None:
    """打升級: 摳底時底牌的分牌至少要加倍 … 包含一對牌，則 …
    按4倍計算，如果有二連對（拖拉機），則要按8倍計算，依此類推，每多一對（要構成連對）分數再加倍."""
    assert kitty_multiplier(pairs, SHENGJI) == multiplier


def last_trick(lead: str, rules: ShengjiRules = SHENGJI, leader: int = 1) -> Deal:
    """A deal at its last trick: ``leader`` (an attacker; seat 0 deals, ♥ trump, level 2) leads ``lead``
    (spades); the others hold no spades and no trump, so the lead wins; 60 points are buried."""
    size = len(lead.split())
    fillers = {
        0: "C3 C4 C6 C7 C8 C9",
        1: "D3 D4 D6 D7 D8 D9",
        2: "C3 C4 C6 C7 C8 C9",
        3: "D3 D4 D6 D7 D8 D9",
    }
    hands = [
        cards(lead) if seat == leader else cards(" ".join(fillers[seat].split()[:size])) for seat in range(4)
    ]
    deal = Deal.at_position(
        hands, TWO, rules, trump=Suit.HEARTS, dealer=0, leader=leader, buried=cards(KITTY)
    )
    deal.apply(Play(leader, cards(lead)))
    for step in range(1, 4):
        seat = (leader + step) % 4
        deal.apply(Play(seat, deal.hand(seat)))
    return deal


@pytest.mark.parametrize(
    ("lead", "multiplier"),
    [("SA", 2), ("SA SA", 4), ("SA SA SK SK", 8), ("SA SA SK SK SQ SQ", 16)],
)
def test_attackers_winning_the_last_trick_multiply_the_kittys_points(lead: str, multiplier: int) -> None:
    """docs/rules/shengji.md#kitty-bonus: when the attackers win the last trick the kitty's points count ×2
    after a single, ×4 after a pair, ×8 after a two-pair tractor, doubling with each further pair. The kitty
    is revealed to all at the end."""
    deal = last_trick(lead)
    result = deal.result
    assert result is not None
    assert result.attackers_won_last_trick
    assert result.kitty_points == 60
    assert result.kitty_multiplier == multiplier
    card_points = sum(10 if card.rank in (Rank.TEN, Rank.KING) else 0 for card in cards(lead))
    assert result.attackers_card_points == card_points
    assert result.score == card_points + 60 * multiplier
    revealed = [event for event in deal.events if event.kind == "kitty_revealed"]
    assert len(revealed) == 1
    assert revealed[0].private_to is None
    assert revealed[0].points == 60 * multiplier
    assert deal.observation(2).kitty == sort_cards(cards(KITTY))


def test_a_throw_on_the_last_trick_counts_as_a_single() -> None:
    """打升級: 甩牌摳底按單摳計。如用兩張紅桃10和1張紅桃9甩牌摳底均為單摳 (``kitty_throw_as_single``); off,
    the throw's unit with the most pairs decides (包含一對牌 … 按4倍)."""
    deal = last_trick("SA SA SK")
    assert deal.result is not None
    assert deal.lead is None
    assert deal.tricks[-1].lead.is_throw
    assert deal.result.kitty_multiplier == 2
    by_unit = last_trick("SA SA SK", ShengjiRules(kitty_throw_as_single=False))
    assert by_unit.result is not None
    assert by_unit.result.kitty_multiplier == 4


def test_the_kitty_counts_for_nobody_when_the_dealers_win_the_last_trick() -> None:
    """Only 摳底 by the attackers (一局結束時，如果最後一輪牌由抓分方獲勝，稱為摳底) adds the kitty."""
    deal = last_trick("SA SA", leader=2)
    result = deal.result
    assert result is not None
    assert not result.attackers_won_last_trick
    assert result.kitty_multiplier == 0
    assert result.score == 0
    assert result.outcome(SHENGJI) == Outcome(False, 3)


def test_the_attackers_take_last_tricks_won_by_a_ruff() -> None:
    """The last trick's winner need not lead it: an attacker ruffing (斃) a single takes the kitty ×2."""
    hands = [cards("S3"), cards("H3"), cards("S4"), cards("S6")]
    deal = Deal.at_position(hands, TWO, trump=Suit.HEARTS, dealer=0, leader=0, buried=cards(KITTY))
    for seat in range(4):
        deal.apply(Play(seat, deal.hand(seat)))
    assert deal.result is not None
    assert deal.result.last_trick_winner == 1
    assert deal.result.kitty_multiplier == 2
    assert deal.result.score == 120


def test_penalties_enter_the_score() -> None:
    """打升級: 罰10分給對方 — a dealer's failed throw adds 10 to the attackers' score."""
    hands = [cards("SA SK"), cards("SA C3"), cards("D3 D4"), cards("D6 D7")]
    deal = Deal.at_position(hands, TWO, trump=Suit.HEARTS, dealer=0, leader=0, buried=cards(KITTY))
    deal.apply(Play(0, cards("SA SK")))
    while deal.result is None:
        deal.apply(next(deal.legal_actions()))
    result = deal.result
    assert result.penalty == 10
    assert result.score == result.attackers_card_points + result.kitty_bonus + 10


# -- the rule set ------------------------------------------------------------------------------------


@pytest.mark.parametrize("rules", list(PRESETS.values()), ids=list(PRESETS))
def test_rules_round_trip_through_a_dict(rules: ShengjiRules) -> None:
    assert ShengjiRules.from_dict(rules.to_dict()) == rules
    assert preset(rules.name) is rules


def test_preset_finds_the_default_the_every_rank_ladder_and_the_second_table() -> None:
    assert sorted(PRESETS) == [
        "shengji",
        "shengji_all_ranks",
        "shengji_all_ranks_second_table",
        "shengji_second_table",
    ]
    assert (preset("shengji"), preset("shengji_all_ranks"), preset("shengji_second_table")) == (
        SHENGJI,
        ALL_RANKS,
        SECOND_TABLE,
    )
    assert ShengjiRules() == SHENGJI


@pytest.mark.parametrize(
    ("rules", "changed"),
    [
        (ALL_RANKS, {"name", "levels"}),
        (SECOND_TABLE, {"name", "attacker_table"}),
        (ALL_RANKS_SECOND_TABLE, {"name", "levels", "attacker_table"}),
    ],
    ids=["all_ranks", "second_table", "all_ranks_second_table"],
)
def test_each_preset_changes_the_ladder_or_the_table_of_the_default(
    rules: ShengjiRules, changed: set[str]
) -> None:
    """The ladder and the result table are separate choices: a preset differs from ``shengji`` in
    them alone."""
    differing = {
        item.name
        for item in dataclasses.fields(rules)
        if getattr(rules, item.name) != getattr(SHENGJI, item.name)
    }
    assert differing == changed


def test_to_dict_is_json_ready() -> None:
    values = SHENGJI.to_dict()
    assert values["levels"] == ["2", "5", "T", "J", "Q", "K", "A"]
    assert values["must_play"] == ["2", "J", "A"]
    assert values["reset_level"] == "J"
    assert values["attacker_table"][0] == [80, 0]


def test_rules_written_under_the_old_default_ladder_read_back_as_written() -> None:
    """A record's rules hold every parameter (``to_dict``): one written when the default ladder was every
    rank 2…A with stops 2, 5, 10, J, Q, K, A reads back with that ladder, not today's."""
    old = {
        **SHENGJI.to_dict(),
        "levels": [rank.letter for rank in NATURAL_RANKS],
        "must_play": ["2", "5", "T", "J", "Q", "K", "A"],
    }
    rules = ShengjiRules.from_dict(old)
    assert rules.levels == NATURAL_RANKS
    assert rules.must_play == (Rank.TWO, Rank.FIVE, Rank.TEN, Rank.JACK, Rank.QUEEN, Rank.KING, Rank.ACE)
    assert rules.to_dict() == old
    assert ShengjiRules.from_dict({"name": "shengji"}) == SHENGJI


@pytest.mark.parametrize(
    ("values", "name"),
    [
        ({"max_rise": "3"}, "max_rise"),
        ({"max_rise": True}, "max_rise"),
        ({"self_overturn": 1}, "self_overturn"),
        ({"levels": ["2", "B"]}, "levels"),
        ({"reset_level": "X"}, "reset_level"),
        ({"dealer_table": [[0, 3, 1]]}, "dealer_table"),
        ({"attacker_table": "80"}, "attacker_table"),
        ({"name": 3}, "name"),
    ],
)
def test_from_dict_names_the_parameter_of_a_wrong_type(values: dict[str, Any], name: str) -> None:
    with pytest.raises(ValueError, match=name):
        ShengjiRules.from_dict(values)


def test_from_dict_rejects_unknown_parameters_and_preset_lists_the_known() -> None:
    with pytest.raises(ValueError, match="unknown rule-set parameters: colour"):
        ShengjiRules.from_dict({"colour": "red"})
    with pytest.raises(KeyError, match="known: shengji, shengji_all_ranks, shengji_all_ranks_second"):
        preset("shengji_seven_levels")


@pytest.mark.parametrize(
    "changes",
    [
        {"dealer_table": ((0, 3), (0, 2))},
        {"dealer_table": ((0, 3), (80, 1))},
        {"attacker_table": ()},
        {"attacker_table": ((80, -1),)},
        {"max_rise": 0},
        {"kitty_single_multiplier": 0},
        {"failed_throw_penalty": -10},
        {"levels": (Rank.TWO,)},
        {"levels": (Rank.THREE, Rank.TWO)},
        {"levels": (Rank.TWO, Rank.BIG_JOKER)},
        {"must_play": (Rank.FOUR,), "levels": (Rank.TWO, Rank.ACE)},
        {"reset_level": Rank.JACK, "levels": (Rank.TWO, Rank.ACE), "must_play": ()},
        {"name": ""},
    ],
)
def test_a_rule_set_is_validated_on_construction(changes: dict[str, Any]) -> None:
    with pytest.raises(ValueError, match=r"must|needs"):
        ShengjiRules(**changes)
