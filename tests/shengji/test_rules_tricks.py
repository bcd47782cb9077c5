"""Tricks in Shengji, rule by rule: the lead, the follow duties, throws (甩牌), ruffs (斃) and
over-ruffs (盖斃), and the points. docs/rules/shengji.md#follow-structure, #ruff and #throw: followers follow
suit, a pair led calls for a pair, a tractor for a tractor, else pairs; a player void in the suit led may
trump (斃) or discard, a ruff wins only with the lead's structure, and a higher ruff beats it (盖斃); a throw
(甩牌) of several top units of one suit stands only if no other hand can beat any unit, otherwise the thrower
plays the smallest unit and pays 10 points. Each test quotes 打升級 where it is more precise. Most deals play
10 with ♠ trump, the source's example.
"""

from __future__ import annotations

import pytest

from cardroom.cards import Rank, Suit, format_cards, parse_cards
from cardroom.shengji import (
    BadThrowError,
    Lead,
    LeadKind,
    MustFollowSuitError,
    MustPlayPairError,
    MustPlayTractorError,
    NotHeldError,
    NotOneSuitError,
    ShengjiRuleError,
    TrickRules,
    WrongCountError,
    can_follow,
    check_throw,
    legal_follows,
    points,
    read_lead,
    trick_winner,
    verify_follow,
    verify_lead,
    verify_throw,
)

DEAL = TrickRules(Rank.TEN, Suit.SPADES)
"""Playing 10, ♠ trump."""

P = parse_cards


def lead(text: str, deal: TrickRules = DEAL) -> Lead:
    return read_lead(P(text), deal)


def follows(hand: str, led: str, deal: TrickRules = DEAL) -> set[str]:
    return {format_cards(cards) for cards in legal_follows(P(hand), lead(led, deal), deal)}


def winner(led: str, *plays: str, deal: TrickRules = DEAL) -> int:
    return trick_winner(lead(led, deal), [P(play) for play in plays], deal)


# --- the lead ---------------------------------------------------------------------------------------


def test_lead_kinds() -> None:
    """首家可以單獨出單牌、對牌、拖拉機。也可以出同花色中的單牌、對牌和拖拉機的任意組合."""
    assert lead("HA").kind is LeadKind.SINGLE
    assert lead("HA HA").kind is LeadKind.PAIR
    assert lead("HA HA HK HK").kind is LeadKind.TRACTOR
    throw = lead("HA HA HK")
    assert throw.kind is LeadKind.THROW
    assert throw.is_throw
    assert str(throw) == "HA HA | HK"
    assert lead("SB SB ST ST HT HT").tractors == (3,)
    assert lead("HQ HQ HJ HJ H9 H9 H3").pairs == 3


def test_lead_is_one_suit() -> None:
    """同門花色的大牌可以聯出: ♥A and ♥10 are not one suit when 10 is the level rank (♥10 is trump)."""
    with pytest.raises(NotOneSuitError):
        lead("HA HT")
    with pytest.raises(NotOneSuitError):
        lead("HA CA")
    assert lead("HT SA HR").suit.name == "TRUMP"


def test_lead_must_be_held() -> None:
    with pytest.raises(NotHeldError):
        verify_lead(P("HA HK"), P("HA HA"), DEAL)
    assert verify_lead(P("HA HA HK"), P("HA HA"), DEAL).kind is LeadKind.PAIR


# --- following suit ---------------------------------------------------------------------------------


def test_must_follow_suit() -> None:
    """不是首家出牌方，在出牌時必須跟出首家出的花色牌."""
    with pytest.raises(MustFollowSuitError):
        verify_follow(P("H3 C3"), lead("HA"), P("C3"), DEAL)
    verify_follow(P("H3 C3"), lead("HA"), P("H3"), DEAL)


def test_void_may_ruff_or_discard() -> None:
    """在沒有首家出牌花色時，可以用主牌殺掉或墊其他花色牌: a void player plays anything."""
    hand = P("S3 C3 D9")
    assert follows("S3 C3 D9", "HA") == {"S3", "C3", "D9"}
    verify_follow(hand, lead("HA"), P("C3"), DEAL)


def test_level_card_of_the_led_suit_is_trump_not_the_suit() -> None:
    """♥10 is trump when 10 is the level rank: holding only ♥10 of hearts is being void in hearts."""
    verify_follow(P("HT C3"), lead("HA"), P("C3"), DEAL)


def test_short_suit_plays_all_of_it() -> None:
    """Fewer cards of the suit than the lead: all of them, then anything."""
    assert follows("H3 C3 C4 S5", "HA HA") == {"H3 C3", "H3 C4", "H3 S5"}
    with pytest.raises(MustFollowSuitError):
        verify_follow(P("H3 C3 C4"), lead("HA HA"), P("C3 C4"), DEAL)


def test_trump_lead_is_followed_with_trump() -> None:
    """A trump lead is followed by any trump: jokers, level cards of every suit, the trump suit."""
    assert follows("HT C5 SB H3", "S4") == {"SB", "HT"}
    with pytest.raises(MustFollowSuitError):
        verify_follow(P("HT C5"), lead("S4"), P("C5"), DEAL)


def test_follow_has_the_lead_size() -> None:
    with pytest.raises(WrongCountError):
        verify_follow(P("H3 H4 H5"), lead("HA HA"), P("H3"), DEAL)
    with pytest.raises(NotHeldError):
        verify_follow(P("H3 H4"), lead("HA HA"), P("H3 H3"), DEAL)


# --- pairs and tractors -------------------------------------------------------------------------------


def test_pair_lead_forces_a_pair() -> None:
    """首家出對牌時，其餘家有對牌必須出對牌（包括拖拉機中的對牌）."""
    assert follows("H3 H3 H4 H4 H9 C2", "HA HA") == {"H3 H3", "H4 H4"}
    with pytest.raises(MustPlayPairError):
        verify_follow(P("H3 H3 H4 H4 H9"), lead("HA HA"), P("H3 H9"), DEAL)


def test_pair_lead_without_a_pair() -> None:
    """無對牌時才能出其它牌: any two cards of the suit."""
    assert follows("H3 H4 H9 C2", "HA HA") == {"H3 H4", "H3 H9", "H4 H9"}


def test_tractor_lead_forces_a_tractor() -> None:
    """首家出拖拉機時，其餘家有拖拉機必須出拖拉機."""
    hand = "H3 H3 H4 H4 H7 H7 H9"
    assert follows(hand, "HK HK HQ HQ") == {"H3 H3 H4 H4"}
    with pytest.raises(MustPlayTractorError):
        verify_follow(P(hand), lead("HK HK HQ HQ"), P("H3 H3 H7 H7"), DEAL)


def test_a_longer_tractor_serves() -> None:
    """A follower's three-pair tractor holds two-pair ones: either end may be played."""
    assert follows("H3 H3 H4 H4 H5 H5", "HK HK HQ HQ") == {"H3 H3 H4 H4", "H4 H4 H5 H5"}


def test_tractor_lead_without_a_tractor_forces_pairs() -> None:
    """若無拖拉機，則必須出對牌，無對牌時才能出其它牌: as many pairs as the hand has, up to the lead's."""
    with pytest.raises(MustPlayPairError):
        verify_follow(P("H3 H3 H7 H7 H9 HJ"), lead("HK HK HQ HQ"), P("H3 H3 H9 HJ"), DEAL)
    assert follows("H3 H3 H7 H7 H9 HJ", "HK HK HQ HQ") == {"H3 H3 H7 H7"}
    assert follows("H3 H3 H8 H9 HJ", "HK HK HQ HQ") == {"H3 H3 H8 H9", "H3 H3 H8 HJ", "H3 H3 H9 HJ"}


def test_longer_tractor_lead_takes_shorter_tractors_as_pairs() -> None:
    """A three-pair tractor led, none held: a two-pair tractor and a pair count as three pairs, which must
    all be played."""
    assert follows("H3 H3 H4 H4 H7 H7 H9 H8", "HK HK HQ HQ HJ HJ") == {"H3 H3 H4 H4 H7 H7"}


def test_tractor_in_trump() -> None:
    """Trump tractors follow the trump chain: small-joker pair – trump 10 pair is a tractor the follower
    must play to a trump tractor lead."""
    assert follows("SB SB ST ST S3 S3 S6", "S8 S8 S7 S7") == {"SB SB ST ST"}


def test_throw_follow_duties() -> None:
    """如首家出牌時有對牌或拖拉機，則其他任一方有同花色的對牌、拖拉機均必須跟出牌: a throw of a pair and a
    single takes a pair and a card of the suit."""
    assert follows("H3 H3 H5 H9 C2", "HA HA HK") == {"H3 H3 H5", "H3 H3 H9"}
    assert follows("H3 H3 H4 H4 H6 H6 H9", "HA HA HQ HQ H8 H8") == {"H3 H3 H4 H4 H6 H6"}


def test_throw_with_a_tractor_forces_the_tractor() -> None:
    """A throw holding a tractor: a follower with a tractor of that length must play it, then pairs."""
    led = "HA HQ HQ HJ HJ"  # a tractor QQJJ and a single A
    assert follows("H3 H3 H4 H4 H7 H7 H9", led) == {
        "H3 H3 H4 H4 H7",
        "H3 H3 H4 H4 H9",
    }
    with pytest.raises(MustPlayTractorError):
        verify_follow(P("H3 H3 H4 H4 H7 H7 H9"), lead(led), P("H3 H3 H7 H7 H9"), DEAL)


def test_can_follow_is_the_boolean_twin() -> None:
    assert can_follow(P("H3 H3 H9"), lead("HA HA"), P("H3 H3"), DEAL)
    assert not can_follow(P("H3 H3 H9"), lead("HA HA"), P("H3 H9"), DEAL)
    assert issubclass(MustPlayPairError, ShengjiRuleError)
    assert issubclass(ShengjiRuleError, ValueError)


# --- throws -------------------------------------------------------------------------------------------


def throw(led: str, *others: str, deal: TrickRules = DEAL) -> tuple[bool, str, str, tuple[int, ...], int]:
    check = check_throw(lead(led, deal), [P(hand) for hand in others], deal, penalty=10)
    failed = " | ".join(format_cards(unit.cards) for unit in check.failed)
    return check.legal, format_cards(check.played.cards), failed, check.beaten_by, check.penalty


def test_throw_legal_when_nobody_beats_a_unit() -> None:
    """98844 （若其他家中無人有能大過一張9，和一對8，和一對4的牌）."""
    assert throw("H9 H8 H8 H4 H4", "H7 H6 H5", "C3 CA", "HK") == (False, "H9", "H9", (2,), 10)
    assert throw("H9 H8 H8 H4 H4", "H7 H6 H5", "C3 CA", "S3") == (True, "H4 H4 H8 H8 H9", "", (), 0)


def test_seed_failed_throw_examples() -> None:
    """首家試圖聯出98844時，若其餘某家有此花色的J，則首家必須出9，若其餘某家有此花色的QQ或55，則首家必須出44."""
    led = "H9 H8 H8 H4 H4"
    assert throw(led, "HJ", "", "")[:2] == (False, "H9")
    assert throw(led, "", "HQ HQ", "")[:3] == (False, "H4 H4", "H8 H8 | H4 H4 | H9")  # QQ beats the 9 too
    assert throw(led, "", "", "H5 H5")[:3] == (False, "H4 H4", "H4 H4")


def test_failed_throw_plays_the_smallest_failing_unit() -> None:
    """若首家試圖聯出的牌並非都是大牌時，則其必須出欲聯出的牌中的最小牌: the 9 and the 44 beaten → the 44."""
    assert throw("H9 H8 H8 H4 H4", "HJ", "H5 H5", "") == (False, "H4 H4", "H4 H4 | H9", (0, 1), 10)


def test_partner_counts_too() -> None:
    """若其他家中無人有能大過…: every other hand, the partner's included."""
    assert throw("HK HQ HQ", "", "HA", "")[3] == (1,)


def test_seed_unbeatable_throws() -> None:
    """AAK, AKK, AQQJJ: with both ♥A in the throw, nobody beats the K."""
    assert throw("HA HA HK", "HQ HQ HJ", "H3", "H2")[0]
    assert throw("HA HQ HQ HJ HJ", "H9 H9 H8 H8", "HK", "H2")[0]
    assert throw("HA HQ HQ HJ HJ", "HK HK HA", "", "")[0]  # a pair does not beat a tractor
    assert not throw("HK HQ HQ HJ HJ", "HA", "", "")[0]


def test_tractor_of_a_throw_is_beaten_only_by_a_tractor() -> None:
    """A pair does not beat a tractor; a higher tractor (part of a longer one will do) does."""
    led = "HA H3 H3 H4 H4"
    assert throw(led, "H7 H7 H9 H9", "", "")[0]
    assert throw(led, "H6 H6 H7 H7", "", "")[:2] == (False, "H3 H3 H4 H4")
    assert not throw(led, "H5 H5 H6 H6 H7 H7", "", "")[0]


def test_equal_cards_do_not_beat() -> None:
    """出牌時同等大小的牌以先出者為大: another off-suit level card does not beat ♥10 in a trump throw."""
    assert throw("HR HT", "CT", "DT", "SA")[0]
    assert throw("HR HT", "ST", "", "")[:2] == (False, "HT")


def test_throw_check_of_one_unit_is_legal() -> None:
    assert throw("H3 H3", "HA HA", "", "") == (True, "H3 H3", "", (), 0)


def test_penalty_is_an_argument() -> None:
    """The penalty is a rule-set parameter (docs/rules/shengji.md#failed-throw: 10 points, 罰10分給對方)."""
    check = check_throw(lead("HA HK"), [P("HA")], DEAL, penalty=20)
    assert (check.legal, check.penalty) == (False, 20)


def test_verify_throw_raises() -> None:
    with pytest.raises(BadThrowError) as raised:
        verify_throw(lead("H9 H8 H8"), [P("HJ"), P(""), P("")], DEAL, penalty=10)
    assert format_cards(raised.value.check.played.cards) == "H9"
    verify_throw(lead("H9 H8 H8"), [P("H3"), P(""), P("")], DEAL, penalty=10)


# --- the winner -----------------------------------------------------------------------------------------


def test_highest_of_the_suit_wins() -> None:
    assert winner("H9", "HK", "HA", "H3") == 2


def test_discard_never_wins() -> None:
    """A card of another plain suit is a discard (墊牌), however high."""
    assert winner("H9", "CA", "DA", "H3") == 0


def test_ruff_wins_and_over_ruff() -> None:
    """可出主牌，稱為 "斃" … 出現多家斃牌時 … 大的稱為 "蓋斃"."""
    assert winner("HA", "S2", "HK", "C3") == 1
    assert winner("HA", "S2", "S3", "HK") == 2
    assert winner("HA", "S2", "SB", "HT") == 2


def test_equal_plays_first_wins() -> None:
    """出牌時同等大小的牌以先出者為大: two ruffs with off-suit level cards, the first wins."""
    assert winner("HA", "CT", "DT", "S9") == 1
    assert winner("HA HA", "CK CK", "H3 H3", "C2 C2") == 0


def test_pair_ruff_must_be_a_pair() -> None:
    """若首家出的牌中有拖拉機或對牌，斃牌時所出的牌必須是主牌，且 … 對牌的數目也不得少於首家出的牌中的
    對牌的數目，否則被視為墊牌."""
    assert winner("HA HA", "S3 S5", "H3 H4") == 0
    assert winner("HA HA", "S3 S3", "H3 H4") == 1
    assert winner("HA HA", "S3 S3", "S5 S5", "SB HR") == 2


def test_tractor_ruff_must_be_a_tractor() -> None:
    """拖拉機的數目不得少於首家出的牌中的拖拉機的數目: two trump pairs do not ruff a tractor."""
    assert winner("HK HK HQ HQ", "S3 S3 S6 S6", "H2 H2 H3 H3") == 0
    assert winner("HK HK HQ HQ", "S3 S3 S4 S4", "S6 S6 S7 S7") == 2


def test_higher_pairs_of_the_suit_without_a_tractor_do_not_win() -> None:
    assert winner("H4 H4 H3 H3", "HA HA H9 H9") == 0
    assert winner("H4 H4 H3 H3", "H6 H6 H5 H5") == 1


def test_throw_ruffs_compare_by_their_pairs() -> None:
    """斃牌的大小以斃牌中的拖拉機和對牌大小為準: the ruff with the higher pair wins whatever its single."""
    assert winner("HA HA HK", "S3 S3 SB", "S5 S5 S4") == 2
    assert winner("HA HA HK", "S3 S3 S9", "S4 S9 SJ") == 1
    assert winner("HA HA HK", "S4 S9 SJ", "C3 C3 C4") == 0


def test_throw_ruff_needs_the_tractor() -> None:
    """A throw with a tractor is ruffed only by trump with a tractor of that length."""
    led = "HA HQ HQ HJ HJ"
    assert winner(led, "S3 S3 S4 S4 S2") == 1
    assert winner(led, "S3 S3 S6 S6 S2") == 0


def test_trump_lead_plain_cards_cannot_win() -> None:
    assert winner("S4", "HA", "S5", "CA") == 2
    assert winner("ST", "HT", "S5", "SB") == 3


def test_no_trump_ruffs_with_jokers_and_level_cards() -> None:
    """No trump: only jokers and level cards are trump, and ruff a plain lead."""
    deal = TrickRules(Rank.TEN, None)
    assert winner("SA", "ST", "SK", "SB", deal=deal) == 3
    assert winner("SA", "HT", "CT", "S3", deal=deal) == 1


# --- points ---------------------------------------------------------------------------------------------


def test_points_of_a_trick() -> None:
    """5代表5分，10和K分別代表10分."""
    plays = ["HK HK", "H5 H5", "HT C2", "DT DK"]
    assert sum(points(P(play)) for play in plays) == 20 + 10 + 10 + 20
