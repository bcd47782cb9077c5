"""One test per rule of a deal in docs/rules/competition.md (table, play, tribute),
with 摜彈's wording (摜彈, 比賽通則 三、貢牌與還牌 and 四、出牌) where it helps.

Deals are built from chosen hands (:func:`tests.guandan.scenario.build_hands`: the cards written for
each seat, the rest of both decks dealt deterministically) and driven by scripted actions.
"""

from __future__ import annotations

import pytest

from cardroom.cards import Card, Rank
from cardroom.guandan import (
    PASS,
    DoesNotBeatError,
    IllegalReturnError,
    IllegalTributeError,
    MustLeadError,
    NotHeldError,
    OutOfTurnError,
    RuleError,
    RuleSet,
    WrongPhaseError,
)
from cardroom.guandan.deal import (
    Action,
    Deal,
    Event,
    EventKind,
    Phase,
    PlayAction,
    ReturnAction,
    TributeAction,
)
from cardroom.guandan.ruleset import ReturnLimit
from cardroom.guandan.tribute import partner, team_of
from tests.guandan.scenario import (
    Hands,
    act,
    build_hands,
    card,
    pass_round,
    phase_of,
    play_to_order,
    reading,
    snapshot,
)

TWO, FIVE = Rank.TWO, Rank.FIVE


def eight(rank: str) -> str:
    """All eight cards of a rank (both decks)."""
    return " ".join(f"{suit}{rank} {suit}{rank}" for suit in "SHCD")


# Seat 0: bombs of A, K, Q and a triple of J; seat 1: bombs of 10, 9, 8 and a triple of J;
# seat 2: bombs of 7, 6, 5 and a triple of 4; seat 3: the four jokers, all 2s and 3s, five 4s, DJ DJ.
# Each of seats 0–2 can empty its hand in four plays; seat 3 can in five.
FAST: Hands = build_hands(
    f"{eight('A')} {eight('K')} {eight('Q')} SJ HJ CJ",
    f"{eight('T')} {eight('9')} {eight('8')} SJ HJ CJ",
    f"{eight('7')} {eight('6')} {eight('5')} S4 H4 C4",
)
JOKERS = "SB SB HR HR"
FIVES = "S5 S5 H5 H5 C5 C5 D5 D5"


def fast_deal(leader: int = 0, rules: RuleSet | None = None) -> Deal:
    if rules is None:
        return Deal(FAST, TWO, leader=leader)
    return Deal(FAST, TWO, rules, leader=leader)


def run_out(deal: Deal, seat: int, plays: list[str]) -> None:
    """``seat`` leads each play in turn and everyone still in passes; the last one empties the hand."""
    for text in plays:
        assert deal.current_player == seat
        assert deal.previous is None
        act(deal, seat, text)
        if deal.phase is Phase.OVER:
            return
        pass_round(deal, sum(1 for other in range(4) if other != seat and other not in deal.finished))


SEAT0_OUT = [eight("A"), eight("K"), eight("Q"), "SJ HJ CJ"]


def assert_rejected(deal: Deal, action: Action, error: type[RuleError]) -> None:
    """The action raises the named error, ``can`` says no, and the deal is exactly unchanged."""
    before = snapshot(deal)
    held = [dict(hand) for hand in deal.hands]
    with pytest.raises(error):
        deal.apply(action)
    with pytest.raises(error):
        deal.verify(action)
    assert not deal.can(action)
    assert snapshot(deal) == before
    assert [dict(hand) for hand in deal.hands] == held


def kinds(events: list[Event]) -> list[str]:
    return [event.kind.value for event in events]


# --- table and play ----------------------------------------------------------------------------


def test_seats_play_in_order_the_next_seat_is_the_right_hand_neighbour_partners_opposite() -> None:
    """docs/rules/competition.md#seats: partners sit opposite (seats 0 and 2 against 1 and 3) and play goes
    counter-clockwise, so a player's right-hand neighbour, the 下家, plays next. 摜彈, 比賽通則 四（一）:
    出牌以逆時針為序。"""
    assert [partner(seat) for seat in range(4)] == [2, 3, 0, 1]
    assert [team_of(seat) for seat in range(4)] == [0, 1, 0, 1]
    for leader in range(4):
        deal = fast_deal(leader)
        order = [leader]
        act(deal, leader, "SB" if leader == 3 else {0: "SJ", 1: "SJ", 2: "S4"}[leader])
        for _ in range(3):
            seat = deal.current_player
            assert seat is not None
            order.append(seat)
            deal.apply(PlayAction(seat, PASS))
        assert order == [(leader + step) % 4 for step in range(4)]


def test_every_hand_holds_27_cards_of_both_decks() -> None:
    """docs/rules/competition.md#cards: two 54-card decks, jokers included, 27 cards to each player. A deal
    refuses anything else."""
    deal = fast_deal()
    assert [deal.card_count(seat) for seat in range(4)] == [27] * 4
    with pytest.raises(ValueError, match="27"):
        Deal([FAST[0][:26], FAST[1], FAST[2], FAST[3] + FAST[0][26:]], TWO, leader=0)
    with pytest.raises(ValueError, match="both decks"):
        Deal([FAST[0], FAST[1], FAST[2], FAST[0]], TWO, leader=0)


@pytest.mark.parametrize("leader", [0, 1, 2, 3])
def test_first_deal_leader_leads(leader: int) -> None:
    """docs/rules/competition.md#first-lead: in a first deal the player who receives a card turned face up at
    random leads. 摜彈, 比賽通則 二.2: 抓到翻出牌張者首圈領出牌。 The first deal has no tribute."""
    deal = fast_deal(leader)
    assert phase_of(deal) is Phase.PLAY
    assert deal.current_player == leader
    assert deal.previous is None
    assert deal.events == []
    assert all(isinstance(action, PlayAction) and action.seat == leader for action in deal.legal_actions())


def test_lead_then_each_player_in_turn_plays_higher_or_passes() -> None:
    """docs/rules/competition.md#leading and #following: the leader plays any combination; each following
    player in turn beats the last play or passes. 摜彈, 比賽通則 四（一）:
    各家依次跟出牌點、牌型更大的一手牌進行壓制（壓牌），或放棄不出（過牌）。"""
    deal = fast_deal(0)
    act(deal, 0, "SQ")
    assert deal.current_player == 1
    assert deal.previous == reading(deal, "SQ")
    follows = deal.legal_actions()
    assert PlayAction(1, PASS) in follows
    assert all(isinstance(a, PlayAction) and (a.play.is_pass or a.play.beats(deal.previous)) for a in follows)
    act(deal, 1, "")
    assert deal.current_player == 2
    act(deal, 2, "")
    act(deal, 3, "SB")
    assert deal.current_player == 0
    assert deal.previous == reading(deal, "SB")
    assert kinds(deal.events) == ["play", "pass", "pass", "play"]


def test_leader_cannot_pass() -> None:
    """docs/rules/competition.md#leading: the leader plays any combination, but must play — passing is for
    followers only. 摜彈, 比賽通則 四（一）: 領出者可出任意牌型的一手牌。"""
    deal = fast_deal(0)
    assert PlayAction(0, PASS) not in deal.legal_actions()
    assert_rejected(deal, PlayAction(0, PASS), MustLeadError)
    act(deal, 0, "SQ")
    pass_round(deal, 3)
    assert deal.current_player == 0
    assert_rejected(deal, PlayAction(0, PASS), MustLeadError)


def test_legal_plays_make_actions_on_access() -> None:
    """``legal_actions`` in the play phase is a sequence of the seat's plays: indexing, slicing,
    iterating and comparing give the same actions as a list would."""
    deal = fast_deal(0)
    legal = deal.legal_actions()
    listed = list(legal)
    assert len(legal) == len(listed) > 10
    assert legal[0] == listed[0]
    assert legal[-1] == listed[-1]
    assert legal[2:5] == listed[2:5]
    assert legal == listed
    assert listed == legal
    assert legal != listed[:-1]
    assert all(isinstance(action, PlayAction) and action.seat == 0 for action in legal)
    assert listed[3] in legal


def test_can_answers_for_the_rules_only() -> None:
    """``can`` is false for what the rules refuse and lets anything else through: a bug (here, an
    object that is no action) is not read as an illegal action."""
    deal = fast_deal(0)
    assert not deal.can(PlayAction(0, PASS))
    assert not deal.can(PlayAction(1, PASS))
    with pytest.raises(TypeError, match="not a Guandan action"):
        deal.can("SQ")  # type: ignore[arg-type]


def test_trick_ends_when_all_players_still_in_have_passed_and_its_winner_leads() -> None:
    """docs/rules/competition.md#trick-end: when every other player still in the deal has passed after a play,
    the player of that play leads the next trick. 摜彈, 比賽通則 四（一）:
    如其餘各家均放棄不出，則由最後出牌者下一圈領出牌。"""
    deal = fast_deal(0)
    act(deal, 0, "SQ")
    act(deal, 1, "")
    act(deal, 2, "")
    act(deal, 3, "SB")
    act(deal, 0, "")
    act(deal, 1, "")
    assert deal.previous is not None
    act(deal, 2, "")
    assert deal.events[-1] == Event(EventKind.TRICK, seat=3, to=3)
    assert deal.current_player == 3
    assert deal.previous is None
    assert PlayAction(3, PASS) not in deal.legal_actions()


def test_trick_goes_on_after_a_higher_play_until_all_others_pass() -> None:
    """docs/rules/competition.md#trick-end: a trick ends only when every other player still in the deal has
    passed after the same play: a pass before a higher play does not count towards the next play."""
    deal = fast_deal(0)
    act(deal, 0, "SQ")
    act(deal, 1, "")
    act(deal, 2, "")
    act(deal, 3, "SB")
    act(deal, 0, "")
    act(deal, 1, "")
    act(deal, 2, "")
    act(deal, 3, "S3")  # the new trick
    act(deal, 0, "SA")
    act(deal, 1, "")
    act(deal, 2, "")
    act(deal, 3, "S2")  # a level card beats the ace at level 2; the two passes no longer count
    act(deal, 0, "")
    act(deal, 1, "")
    assert deal.current_player == 2
    assert deal.previous == reading(deal, "S2")
    act(deal, 2, "")
    assert deal.events[-1] == Event(EventKind.TRICK, seat=3, to=3)
    assert deal.current_player == 3
    assert deal.previous is None


def test_player_who_empties_the_hand_takes_the_next_place() -> None:
    """docs/rules/competition.md#going-out: players are placed 上游, 二游, 三游, 下游 in the order they empty
    their hands. 摜彈, 遊戲規則 二: 按牌手出完各自全手牌的先後，稱為上游、二游、三游、下游。"""
    deal = fast_deal(0)
    run_out(deal, 0, SEAT0_OUT)
    assert deal.finished == [0]
    assert Event(EventKind.OUT, seat=0, place=1) in deal.events
    assert deal.card_count(0) == 0
    # seat 2 (leading by 接风) leads a single 4, seat 1 bombs it and runs out second.
    act(deal, 2, "S4")
    act(deal, 3, "")
    act(deal, 1, eight("T"))
    pass_round(deal, 2)
    run_out(deal, 1, [eight("9"), eight("8"), "SJ HJ CJ"])
    assert deal.finished == [0, 1]
    assert Event(EventKind.OUT, seat=1, place=2) in deal.events
    assert phase_of(deal) is Phase.PLAY


def test_jiefeng_partner_leads_when_the_last_card_is_not_beaten() -> None:
    """docs/rules/competition.md#jiefeng: if the player of the unbeaten play has gone out, that player's
    partner leads (接风). 摜彈, 比賽通則 四（一）:
    若此時最後出牌者已出完全手牌，則由己方同伴承接下一圈領出牌（對家接風）。"""
    deal = fast_deal(0)
    run_out(deal, 0, SEAT0_OUT[:3])
    act(deal, 0, "SJ HJ CJ")
    assert deal.finished == [0]
    assert deal.current_player == 1
    act(deal, 1, "")
    act(deal, 2, "")
    assert deal.current_player == 3
    act(deal, 3, "")
    assert deal.events[-1] == Event(EventKind.TRICK, seat=0, to=2)
    assert deal.current_player == 2
    assert deal.previous is None


def test_jiefeng_off_the_next_player_still_in_leads() -> None:
    """docs/rules/platform.md#jiefeng: the older rule gave the lead to the 下家, not the partner. With
    ``lead_passes_to_partner=False``, when a player goes out and nobody beats the last play, the next player
    still in leads."""
    deal = fast_deal(0, RuleSet(name="old", lead_passes_to_partner=False))
    run_out(deal, 0, SEAT0_OUT[:3])
    act(deal, 0, "SJ HJ CJ")
    pass_round(deal, 3)
    assert deal.events[-1] == Event(EventKind.TRICK, seat=0, to=1)
    assert deal.current_player == 1
    assert deal.previous is None


def test_jiefeng_does_not_apply_when_the_last_play_is_beaten() -> None:
    """docs/rules/competition.md#jiefeng: the trick is led by "its player", the one whose play nobody beat;
    接风 only when that player has gone out. A higher play on the last card wins the trick as usual."""
    deal = fast_deal(0)
    run_out(deal, 0, SEAT0_OUT[:3])
    act(deal, 0, "SJ HJ CJ")
    act(deal, 1, "")
    act(deal, 2, "")
    act(deal, 3, "SB SB HR HR")
    act(deal, 1, "")
    act(deal, 2, "")
    assert deal.events[-1] == Event(EventKind.TRICK, seat=3, to=3)
    assert deal.current_player == 3


def test_deal_ends_at_once_on_double_down() -> None:
    """docs/rules/competition.md#deal-end: the deal ends as soon as both players of one team are out, and the
    other team takes the remaining places; a team holding 上游 and 二游 leaves the other team 双下. 摜彈,
    遊戲規則 二: 如一方兩位牌手獲得上游、二游，則對方稱為雙下。"""
    deal = fast_deal(0)
    run_out(deal, 0, SEAT0_OUT)
    run_out(deal, 2, [eight("7"), eight("6"), eight("5"), "S4 H4 C4"])
    assert phase_of(deal) is Phase.OVER
    assert deal.current_player is None
    assert deal.legal_actions() == []
    assert deal.result is not None
    assert deal.result.places[:2] == (0, 2)
    assert sorted(deal.result.places[2:]) == [1, 3]
    assert deal.result.double_down
    assert deal.result.partner_place == 2
    assert deal.events[-1] == Event(EventKind.OVER)
    assert deal.card_count(1) == 27
    assert deal.card_count(3) == 27


def _first_and_second(deal: Deal) -> None:
    """Seat 0 goes out first; seat 2 leads a single 4 by 接风, seat 1 bombs it and goes out second; 接风
    passes the lead to seat 3."""
    run_out(deal, 0, SEAT0_OUT)
    act(deal, 2, "S4")
    act(deal, 3, "")
    act(deal, 1, eight("T"))
    pass_round(deal, 2)
    run_out(deal, 1, [eight("9"), eight("8")])
    act(deal, 1, "SJ HJ CJ")
    pass_round(deal, 2)
    assert deal.finished == [0, 1]
    assert deal.current_player == 3


def test_deal_ends_at_once_on_a_first_and_third_finish() -> None:
    """docs/rules/competition.md#deal-end: the deal ends as soon as both players of one team are out: 上游
    and 三游 end it, the last seat is 下游."""
    deal = fast_deal(0)
    _first_and_second(deal)
    act(deal, 3, "D4")
    act(deal, 2, eight("7"))
    act(deal, 3, "")
    run_out(deal, 2, [eight("6"), eight("5"), "H4 C4"])
    assert phase_of(deal) is Phase.OVER
    assert deal.result is not None
    assert deal.result.places == (0, 1, 2, 3)
    assert deal.result.partner_place == 3
    assert deal.card_count(3) > 0


def test_deal_ends_at_once_on_a_first_and_fourth_finish() -> None:
    """docs/rules/competition.md#deal-end: the deal ends as soon as both players of one team are out: when
    二游 and 三游 are partners, the 上游's partner is 下游 without finishing."""
    deal = fast_deal(0)
    _first_and_second(deal)
    run_out(deal, 3, ["SB SB HR HR", eight("3"), "S4 H4 C4 D4 D4"])
    act(deal, 3, "DJ DJ")
    assert phase_of(deal) is Phase.PLAY  # 2s remain
    act(deal, 2, "")
    run_out(deal, 3, [eight("2")])
    assert phase_of(deal) is Phase.OVER
    assert deal.result is not None
    assert deal.result.places == (0, 1, 3, 2)
    assert deal.result.partner_place == 4
    assert deal.card_count(2) == 26


def test_scripted_deals_reach_every_finishing_pattern() -> None:
    """docs/rules/competition.md#going-out: the places are "上游, 二游, 三游, 下游" in the order the hands
    empty, whatever the hands; a deal driven from its legal actions ends in each of the three patterns."""
    for order, partner_place in (([1, 3, 0, 2], 2), ([1, 2, 3, 0], 3), ([1, 2, 0, 3], 4)):
        deal = fast_deal(0)
        play_to_order(deal, order)
        assert deal.result is not None
        assert deal.result.places[: len(deal.finished)] == tuple(order[: len(deal.finished)])
        assert deal.result.partner_place == partner_place
        assert sorted(deal.result.places) == [0, 1, 2, 3]


# --- rejected actions change nothing -------------------------------------------------------------


def test_out_of_turn_action_raises_and_changes_nothing() -> None:
    """docs/rules/competition.md#not-modelled (摜彈, 比賽通則 四（三）罰則: 越序出牌，予以收回，恢復出牌順序 —
    an action out of turn is refused (OutOfTurnError) and the deal is unchanged."""
    deal = fast_deal(0)
    assert_rejected(deal, PlayAction(1, reading(deal, "ST")), OutOfTurnError)
    act(deal, 0, "SQ")
    assert_rejected(deal, PlayAction(2, PASS), OutOfTurnError)
    assert_rejected(deal, PlayAction(0, reading(deal, "SK")), OutOfTurnError)

    tribute = single_tribute_deal()
    assert_rejected(tribute, TributeAction(1, card("SA")), OutOfTurnError)
    assert_rejected(tribute, ReturnAction(0, card("ST")), OutOfTurnError)
    tribute.apply(TributeAction(3, card("S5")))
    assert_rejected(tribute, ReturnAction(3, card("S5")), OutOfTurnError)
    tribute.apply(ReturnAction(0, card("ST")))
    assert_rejected(tribute, PlayAction(0, reading(tribute, "SA")), OutOfTurnError)


def test_wrong_phase_actions_raise_and_change_nothing() -> None:
    """docs/rules/competition.md#tribute: tribute and return come "before the first lead"; an action of
    another phase, or any action once the deal is over, raises WrongPhaseError and changes nothing."""
    deal = single_tribute_deal()
    payer = deal.current_player
    assert payer == 3
    assert_rejected(deal, PlayAction(3, reading(deal, "SA")), WrongPhaseError)
    assert_rejected(deal, ReturnAction(3, card("S3")), WrongPhaseError)
    deal.apply(TributeAction(3, card("S5")))
    assert_rejected(deal, TributeAction(0, card("S5")), WrongPhaseError)
    assert_rejected(deal, PlayAction(0, reading(deal, "SA")), WrongPhaseError)
    deal.apply(ReturnAction(0, card("ST")))
    assert_rejected(deal, TributeAction(3, card("S5")), WrongPhaseError)
    assert_rejected(deal, ReturnAction(3, card("ST")), WrongPhaseError)

    over = fast_deal(0)
    run_out(over, 0, SEAT0_OUT)
    run_out(over, 2, [eight("7"), eight("6"), eight("5"), "S4 H4 C4"])
    assert phase_of(over) is Phase.OVER
    assert_rejected(over, PlayAction(1, reading(over, "ST")), WrongPhaseError)
    assert_rejected(over, PlayAction(3, PASS), WrongPhaseError)


def test_not_held_play_raises_and_changes_nothing() -> None:
    """docs/rules/competition.md#following: a player plays from the hand; a play of cards not held raises
    NotHeldError."""
    deal = fast_deal(0)
    assert_rejected(deal, PlayAction(0, reading(deal, "ST")), NotHeldError)
    assert_rejected(deal, PlayAction(0, reading(deal, "SJ SJ")), NotHeldError)


def test_play_that_does_not_beat_raises_and_changes_nothing() -> None:
    """docs/rules/competition.md#beating: a play beats the last one if it is of the same kind and size with a
    higher key, or a bomb-class play ranked above it; anything else raises DoesNotBeatError."""
    deal = fast_deal(0)
    act(deal, 0, "SQ")
    assert_rejected(deal, PlayAction(1, reading(deal, "ST")), DoesNotBeatError)
    assert_rejected(deal, PlayAction(1, reading(deal, "SJ HJ")), DoesNotBeatError)
    act(deal, 1, "")
    act(deal, 2, eight("7"))
    assert_rejected(deal, PlayAction(3, reading(deal, "S3 S3 H3 H3 C3 C3 D3")), DoesNotBeatError)


def test_leader_pass_raises_must_lead_and_changes_nothing() -> None:
    """docs/rules/competition.md#leading: the leader must play; a leader's pass raises MustLeadError."""
    deal = fast_deal(2)
    assert_rejected(deal, PlayAction(2, PASS), MustLeadError)


# --- tribute -------------------------------------------------------------------------------------


def single_tribute_deal(rules: RuleSet | None = None) -> Deal:
    """Level 5 after places 0, 1, 2, 3: 下游 3 pays 上游 0. Seat 3 holds the wild ♥5, a level card ♠5 and
    an ace; seat 0 holds the jokers, the other level cards, a ten and a jack."""
    hands = build_hands(f"{JOKERS} S5 H5 C5 C5 D5 D5 ST SJ", "", "", "H5 S5 SA")
    if rules is None:
        return Deal(hands, FIVE, previous_places=(0, 1, 2, 3))
    return Deal(hands, FIVE, rules, previous_places=(0, 1, 2, 3))


def tribute_options(deal: Deal) -> list[Card]:
    return [action.card for action in deal.legal_actions() if isinstance(action, TributeAction)]


def return_options(deal: Deal) -> list[Card]:
    return [action.card for action in deal.legal_actions() if isinstance(action, ReturnAction)]


def test_no_tribute_in_the_first_deal_tribute_from_the_second() -> None:
    """docs/rules/competition.md#tribute: from the second deal on, tribute (进贡) and return (还贡) come
    before the first lead. 摜彈, 比賽通則三.1: 從第二副牌開始，在出牌前，由上副牌的下游向上游進貢。"""
    assert fast_deal(0).phase is Phase.PLAY
    deal = single_tribute_deal()
    assert phase_of(deal) is Phase.TRIBUTE
    assert deal.current_player == 3
    assert all(isinstance(action, TributeAction) for action in deal.legal_actions())


def test_single_tribute_is_the_highest_card_the_heart_level_card_excepted() -> None:
    """docs/rules/competition.md#tribute-card: the payer gives its highest card by the order of ranks, the ♥
    level cards excepted. 摜彈, 比賽通則 三.1: 進貢全手牌中牌點最大的一張牌（紅心級牌除外）。 At level 5 the
    ♠5 (a level card) is above the ace; the ♥5 may not be paid."""
    deal = single_tribute_deal()
    assert tribute_options(deal) == [card("S5")]
    assert_rejected(deal, TributeAction(3, card("H5")), IllegalTributeError)
    assert_rejected(deal, TributeAction(3, card("SA")), IllegalTributeError)
    deal.apply(TributeAction(3, card("S5")))
    assert deal.events == [Event(EventKind.TRIBUTE, seat=3, card=card("S5"), to=0)]
    assert deal.hand(0).count(card("S5")) == 2
    assert card("S5") not in deal.hand(3)
    assert deal.card_count(0) == 28
    assert deal.card_count(3) == 26


def test_single_tribute_heart_level_card_excepted_even_when_it_is_the_only_level_card() -> None:
    """docs/rules/competition.md#tribute-card: the ♥ level card is excluded from the tribute: a payer whose
    highest card is the wild pays the next highest (here an ace at level 5)."""
    hands = build_hands(f"{JOKERS} S5 S5 C5 C5 D5 D5", "", "", "H5 H5 SA")
    deal = Deal(hands, FIVE, previous_places=(0, 1, 2, 3))
    options = tribute_options(deal)
    assert card("SA") in options
    assert {option.rank for option in options} == {Rank.ACE}
    assert_rejected(deal, TributeAction(3, card("H5")), IllegalTributeError)


def test_single_tribute_any_of_equal_highest_cards() -> None:
    """docs/rules/competition.md#tribute-card: the highest card is the highest by the order of ranks: ranks
    decide, not suits, so any of equal highest cards may be paid."""
    hands = build_hands(f"{JOKERS} {FIVES}", "", "", "SA DA")
    deal = Deal(hands, FIVE, previous_places=(0, 1, 2, 3))
    options = tribute_options(deal)
    assert {card("SA"), card("DA")} <= set(options)
    assert {option.rank for option in options} == {Rank.ACE}
    deal.apply(TributeAction(3, card("DA")))
    assert deal.events[-1] == Event(EventKind.TRIBUTE, seat=3, card=card("DA"), to=0)


def test_single_tribute_a_big_joker_is_highest() -> None:
    """docs/rules/competition.md#rank-order: "big joker > small joker > level rank > A": a payer with one big
    joker pays it."""
    hands = build_hands("HR SB S5 H5 H5 C5 C5 D5 D5", "", "", "HR SB S5 SA")
    deal = Deal(hands, FIVE, previous_places=(0, 1, 2, 3))
    assert tribute_options(deal) == [card("HR")]
    assert_rejected(deal, TributeAction(3, card("SB")), IllegalTributeError)


def test_single_tribute_even_when_upstream_and_downstream_are_partners() -> None:
    """docs/rules/competition.md#tribute-single: the 下游 pays the 上游 even when the two are partners. Places
    0, 1, 3, 2: seat 2 is 下游."""
    hands = build_hands(f"HR SB SB {FIVES}", "HR", "SA", "")
    deal = Deal(hands, FIVE, previous_places=(0, 1, 3, 2))
    assert phase_of(deal) is Phase.TRIBUTE
    assert deal.current_player == 2
    assert {option.rank for option in tribute_options(deal)} == {Rank.ACE}
    deal.apply(TributeAction(2, card("SA")))
    assert deal.events == [Event(EventKind.TRIBUTE, seat=2, card=card("SA"), to=0)]
    assert phase_of(deal) is Phase.RETURN
    assert deal.current_player == 0
    returned = return_options(deal)[0]
    deal.apply(ReturnAction(0, returned))
    assert deal.events[-1] == Event(EventKind.RETURN, seat=0, card=returned, to=2, private_to=(0, 2))
    assert deal.current_player == 2


def test_return_card_is_at_most_ten() -> None:
    """docs/rules/competition.md#return-card: the return card is of rank 10 or below. 摜彈, 比賽通則 三.1:
    上游選擇全手牌中任意一張牌點不得超過10的牌還給下游。"""
    deal = single_tribute_deal()
    deal.apply(TributeAction(3, card("S5")))
    assert phase_of(deal) is Phase.RETURN
    assert deal.current_player == 0
    options = return_options(deal)
    expected = sorted({c for c in deal.hand(0) if not c.is_joker and c.rank <= Rank.TEN and c.rank != FIVE})
    assert options == expected
    assert card("ST") in options
    assert_rejected(deal, ReturnAction(0, card("SJ")), IllegalReturnError)
    assert_rejected(deal, ReturnAction(0, card("HR")), IllegalReturnError)
    deal.apply(ReturnAction(0, card("ST")))
    assert deal.events[-1] == Event(EventKind.RETURN, seat=0, card=card("ST"), to=3, private_to=(0, 3))
    assert card("ST") in deal.hand(3)
    assert [deal.card_count(seat) for seat in range(4)] == [27] * 4


def test_return_level_cards_rank_above_ace_so_are_never_within_the_limit() -> None:
    """docs/rules/competition.md#return-card: level cards count above A, so they are never within the limit (a
    parameter counts face value instead). At level 5 a ♣5 is not ≤ 10; with
    ``return_limit_by_face_value`` it is."""
    deal = single_tribute_deal()
    deal.apply(TributeAction(3, card("S5")))
    assert not {c for c in return_options(deal) if c.rank == FIVE}
    assert_rejected(deal, ReturnAction(0, card("C5")), IllegalReturnError)
    assert_rejected(deal, ReturnAction(0, card("S5")), IllegalReturnError)

    face = single_tribute_deal(RuleSet(name="face", return_limit_by_face_value=True))
    face.apply(TributeAction(3, card("S5")))
    assert {card("S5"), card("H5"), card("C5"), card("D5")} <= set(return_options(face))
    assert card("SJ") not in return_options(face)
    face.apply(ReturnAction(0, card("C5")))
    assert face.events[-1].card == card("C5")


def test_return_the_lowest_card_when_none_is_ten_or_lower() -> None:
    """docs/rules/competition.md#return-card: a receiver with no card of 10 or below returns one of its lowest
    cards."""
    hands = build_hands(f"SJ HJ CJ {eight('Q')} {eight('K')} {eight('A')}", "HR SB", "SB", "HR")
    deal = Deal(hands, FIVE, previous_places=(0, 1, 2, 3))
    deal.apply(TributeAction(3, card("HR")))
    assert return_options(deal) == [card("SJ"), card("HJ"), card("CJ")]
    assert_rejected(deal, ReturnAction(0, card("SQ")), IllegalReturnError)
    assert_rejected(deal, ReturnAction(0, card("HR")), IllegalReturnError)
    deal.apply(ReturnAction(0, card("HJ")))
    assert phase_of(deal) is Phase.PLAY


def test_return_limit_to_partner_only_lets_a_return_to_an_opponent_be_any_card() -> None:
    """docs/rules/competition.md#return-limit: the limit binds every return by default; the parameter
    ``return_limit`` can confine it to returns to a partner. ``ReturnLimit.TO_PARTNER``: a return to an
    opponent may be any card, one to a partner is still at most 10."""
    rules = RuleSet(name="to-partner", return_limit=ReturnLimit.TO_PARTNER)
    deal = single_tribute_deal(rules)
    deal.apply(TributeAction(3, card("S5")))
    assert return_options(deal) == sorted(set(deal.hand(0)))
    deal.apply(ReturnAction(0, card("HR")))
    assert card("HR") in deal.hand(3)

    hands = build_hands(f"HR SB SB {FIVES} SJ", "HR", "SA", "")
    to_partner = Deal(hands, FIVE, rules, previous_places=(0, 1, 3, 2))
    to_partner.apply(TributeAction(2, tribute_options(to_partner)[0]))
    options = return_options(to_partner)
    assert options
    assert all(not c.is_joker and c.rank <= Rank.TEN and c.rank != FIVE for c in options)
    assert_rejected(to_partner, ReturnAction(0, card("SJ")), IllegalReturnError)


def test_the_payer_leads_the_first_trick_after_a_single_tribute() -> None:
    """docs/rules/competition.md#lead-after-tribute: after tribute the player who paid the 上游 leads. 摜彈,
    比賽通則三.1: 首圈由下游領出牌。"""
    deal = single_tribute_deal()
    deal.apply(TributeAction(3, card("S5")))
    deal.apply(ReturnAction(0, card("ST")))
    assert phase_of(deal) is Phase.PLAY
    assert deal.current_player == 3
    assert deal.previous is None
    assert kinds(deal.events) == ["tribute", "return"]
    assert all(isinstance(action, PlayAction) and action.seat == 3 for action in deal.legal_actions())


def double_down_deal(seat1: str, seat3: str, extra0: str = "", extra2: str = "") -> Deal:
    """Level 5 after 双下 by seats 0 and 2 (places 0, 2, 1, 3): seats 1 and 3 both pay."""
    hands = build_hands(extra0, seat1, extra2, seat3)
    return Deal(hands, FIVE, previous_places=(0, 2, 1, 3))


def test_double_tribute_the_larger_to_upstream_the_smaller_to_second() -> None:
    """docs/rules/competition.md#tribute-double: after a 双下 both losers pay; the 上游 takes the larger card,
    the 二游 the smaller. 摜彈, 比賽通則 三.2: 上游選擇牌點較大的進貢者，同伴選擇牌點較小的進貢者。 Seat 1
    pays an ace, seat 3 a level card ♠5 (higher)."""
    deal = double_down_deal("SA", "S5", f"{JOKERS} H5 H5 C5", "C5 D5 D5 S5")
    assert phase_of(deal) is Phase.TRIBUTE
    payers = []
    while deal.phase is Phase.TRIBUTE:
        seat = deal.current_player
        assert seat is not None
        payers.append(seat)
        deal.apply(TributeAction(seat, card("SA") if seat == 1 else card("S5")))
    assert sorted(payers) == [1, 3]
    tributes = [event for event in deal.events if event.kind == EventKind.TRIBUTE]
    assert set(tributes) == {
        Event(EventKind.TRIBUTE, seat=3, card=card("S5"), to=0),
        Event(EventKind.TRIBUTE, seat=1, card=card("SA"), to=2),
    }


def test_double_tribute_each_winner_returns_to_its_payer_and_the_giver_to_upstream_leads() -> None:
    """docs/rules/competition.md#return-card: each receiver returns a card to the player who paid it;
    #lead-after-tribute: the player who paid the 上游 leads. 摜彈, 比賽通則 三.2: 並對應還牌 ...
    還牌後，均由進貢給上游者首圈領出牌。"""
    deal = double_down_deal("SA", "S5", f"{JOKERS} H5 H5 C5", "C5 D5 D5 S5")
    deal.apply(TributeAction(1, card("SA")))
    deal.apply(TributeAction(3, card("S5")))
    assert phase_of(deal) is Phase.RETURN
    returned: dict[int, tuple[int, Card]] = {}
    while deal.phase is Phase.RETURN:
        seat = deal.current_player
        assert seat is not None
        choice = return_options(deal)[0]
        deal.apply(ReturnAction(seat, choice))
        event = deal.events[-1]
        assert event.kind == EventKind.RETURN
        assert event.to is not None
        returned[seat] = (event.to, choice)
    assert {seat: to for seat, (to, _) in returned.items()} == {0: 3, 2: 1}
    assert phase_of(deal) is Phase.PLAY
    assert deal.current_player == 3
    assert [deal.card_count(seat) for seat in range(4)] == [27] * 4


@pytest.mark.parametrize("places", [(0, 2, 1, 3), (2, 0, 3, 1), (1, 3, 0, 2), (3, 1, 2, 0)])
def test_double_tribute_equal_cards_go_by_seat_order(places: tuple[int, int, int, int]) -> None:
    """docs/rules/competition.md#tribute-double: with equal cards the 上游's 下家 pays the 上游.
    摜彈, 比賽通則 三.2: 若牌點相同，則按順時針方向進貢。 Both payers pay an ace; the 上游's 下家 gives to
    上游 and leads the first trick."""
    upstream, second = places[0], places[1]
    right, left = (upstream + 1) % 4, (upstream + 3) % 4
    chosen = ["", "", "", ""]
    chosen[upstream] = JOKERS
    chosen[second] = FIVES
    chosen[right] = "SA"
    chosen[left] = "DA"
    hands = build_hands(*chosen)
    deal = Deal(hands, FIVE, previous_places=places)
    while deal.phase is Phase.TRIBUTE:
        seat = deal.current_player
        assert seat is not None
        deal.apply(TributeAction(seat, card("SA") if seat == right else card("DA")))
    tributes = {event.seat: event.to for event in deal.events if event.kind == EventKind.TRIBUTE}
    assert tributes == {right: upstream, left: second}
    while deal.phase is Phase.RETURN:
        seat = deal.current_player
        assert seat is not None
        deal.apply(ReturnAction(seat, return_options(deal)[0]))
    assert deal.current_player == right


def test_anti_tribute_one_payer_with_both_big_jokers() -> None:
    """docs/rules/competition.md#anti-tribute: if the paying side (here the 下游) holds both big jokers nobody
    pays (抗贡), and the 上游 leads. 摜彈, 比賽通則 三.3:
    如應進貢者（下游或雙下方）抓到兩個大王，則不須進貢（抗貢）。首圈由上游領出牌。"""
    hands = build_hands("SB SB", "", "", "HR HR")
    deal = Deal(hands, FIVE, previous_places=(0, 1, 2, 3))
    assert phase_of(deal) is Phase.PLAY
    assert deal.current_player == 0
    assert deal.events == [Event(EventKind.ANTI_TRIBUTE, seat=0)]
    assert [deal.card_count(seat) for seat in range(4)] == [27] * 4


def test_a_tribute_under_anti_tribute_is_refused_naming_the_rule() -> None:
    """抗贡: when the paying side holds both big jokers nobody pays; a tribute paid anyway is refused with
    the rule and its reason, not as a turn out of order."""
    hands = build_hands("SB SB", "", "", "HR HR")
    deal = Deal(hands, FIVE, previous_places=(0, 1, 2, 3))
    assert_rejected(deal, TributeAction(3, card("HR")), WrongPhaseError)
    with pytest.raises(
        WrongPhaseError,
        match=r"seat 3 pays no tribute: 抗贡: the paying side holds both big "
        r"jokers, so nobody pays; seat 0 \(上游\) leads",
    ):
        deal.verify(TributeAction(3, card("HR")))
    with pytest.raises(OutOfTurnError):
        deal.verify(TributeAction(1, card("SB")))


def test_anti_tribute_double_down_payers_with_one_big_joker_each() -> None:
    """docs/rules/competition.md#anti-tribute: after a 双下 the two losers holding both big jokers between
    them pay nothing (抗贡). 摜彈 特殊名詞: 兩人抗貢則兩人合抓兩支大王。"""
    deal = double_down_deal("HR", "HR", "SB SB")
    assert phase_of(deal) is Phase.PLAY
    assert deal.current_player == 0
    assert deal.events == [Event(EventKind.ANTI_TRIBUTE, seat=0)]


def test_anti_tribute_double_down_one_payer_with_both_big_jokers() -> None:
    """docs/rules/competition.md#anti-tribute: the paying side, the 下游 or the two 双下 losers together, pays
    nothing when it holds both big jokers — also when one of the two 双下 payers holds both."""
    deal = double_down_deal("", "HR HR", "SB SB")
    assert phase_of(deal) is Phase.PLAY
    assert deal.current_player == 0
    assert deal.events == [Event(EventKind.ANTI_TRIBUTE, seat=0)]


def test_no_anti_tribute_when_the_other_big_joker_is_with_the_payers_partner() -> None:
    """docs/rules/competition.md#anti-tribute: the paying side of a single tribute is the 下游 alone: one big
    joker with 下游 and one with the 下游's partner exempts nobody. 摜彈 特殊名詞: 單人抗貢需手抓兩支大王。"""
    hands = build_hands("SB SB", "HR", "", "HR")
    deal = Deal(hands, FIVE, previous_places=(0, 1, 2, 3))
    assert phase_of(deal) is Phase.TRIBUTE
    assert tribute_options(deal) == [card("HR")]
    one = double_down_deal("HR", "SB", "HR SB")
    assert phase_of(one) is Phase.TRIBUTE
