"""One test per rule of a Shengji deal outside the trick-play core (docs/rules/shengji.md; 打升級 quoted):
dealing, declaring (叫主, 定主, 翻主), the kitty (底牌), the order of tricks, failed throws, observations.

Decks come from :func:`tests.shengji.deal_helpers.deck_for` (chosen cards to chosen seats, in drawing
order); end-of-deal positions from :meth:`Deal.at_position`.
"""

from __future__ import annotations

import random

import pytest

from cardroom.cards import Card, Rank, Suit, sort_cards
from cardroom.shengji.deal import DEALT, Bury, Deal, Declare, Pass, Phase, Play
from cardroom.shengji.deal_errors import (
    EmptyPlayError,
    IllegalBuryError,
    NotADeclarationError,
    OutOfTurnError,
    OwnDeclarationError,
    WeakOverturnError,
    WrongPhaseError,
)
from cardroom.shengji.declare import DeclarationKind
from cardroom.shengji.errors import MustFollowSuitError, NotHeldError, ShengjiRuleError
from cardroom.shengji.match import shuffled_deck
from cardroom.shengji.ruleset import ShengjiRules
from tests.shengji.deal_helpers import card_number, cards, deck_for, finish_declaring, pass_to, snapshot

TWO = Rank.TWO


def declare(deal: Deal, seat: int, text: str) -> None:
    deal.apply(Declare(seat, cards(text)))


def rejected(deal: Deal, action: Declare | Pass | Bury | Play, error: type[ShengjiRuleError]) -> None:
    """The action raises ``error`` and changes nothing; ``can`` says no."""
    before = snapshot(deal)
    assert not deal.can(action)
    with pytest.raises(error):
        deal.apply(action)
    assert snapshot(deal) == before


# -- dealing -----------------------------------------------------------------------------------------


def test_cards_are_dealt_one_at_a_time_in_seat_order_25_each_and_8_to_the_kitty() -> None:
    """docs/rules/shengji.md#cards: of the 108 cards each player gets 25 and 8 go to the kitty (底牌). 打升級:
    發牌后每方得25張，剩餘8張為底牌."""
    deck = shuffled_deck(random.Random(0))
    deal = Deal(deck, TWO, first_drawer=1)
    assert deal.current_player == 1
    assert deal.hand(1) == (deck[0],)
    pass_to(deal, 2)
    assert deal.current_player == 2
    assert deal.hand(2) == (deck[1],)
    pass_to(deal, DEALT)
    for seat in range(4):
        assert deal.hand(seat) == sort_cards(deck[(seat - 1) % 4 : DEALT : 4])
        assert deal.card_count(seat) == 25
    assert deal.kitty == deck[DEALT:]
    draws = [event for event in deal.events if event.kind == "draw"]
    assert len(draws) == DEALT
    assert all(event.private_to == (event.seat,) for event in draws)


# -- declaring ---------------------------------------------------------------------------------------


def test_a_level_card_names_trump_and_in_the_first_deal_its_declarer_deals() -> None:
    """打升級: 在摸牌過程中，任一方均可亮出任一花色級牌叫主 … 第一局的莊家由定主方擔任 (先亮者為莊家)."""
    deal = Deal(deck_for({1: "S2"}), TWO)
    assert deal.dealer is None
    pass_to(deal, card_number(1, 1))
    declare(deal, 1, "S2")
    assert deal.declaration is not None
    assert deal.declaration.kind is DeclarationKind.SINGLE
    assert not deal.declaration.fixed
    finish_declaring(deal)
    assert deal.phase is Phase.KITTY
    assert deal.dealer == 1
    assert deal.trump is Suit.SPADES
    assert deal.current_player == 1


def test_the_declarer_fixes_its_suit_with_the_second_card_then_only_joker_pairs_overturn() -> None:
    """打升級: 若再亮出同一花色級牌即為"定主" …
    如果一方定主后，其他三方只能用一對小王或大王翻主，本局為無主牌. A big-joker pair overturns a small-joker
    pair (``big_jokers_over_small``)."""
    hands = {1: "S2 S2", 2: "H2 H2", 3: "SB SB", 0: "HR HR"}
    deal = Deal(deck_for(hands), TWO)
    pass_to(deal, card_number(1, 1))
    declare(deal, 1, "S2")
    pass_to(deal, card_number(1, 2))
    declare(deal, 1, "S2 S2")
    assert deal.declaration is not None
    assert deal.declaration.fixed
    assert deal.declaration.suit is Suit.SPADES
    pass_to(deal, card_number(2, 2))
    rejected(deal, Declare(2, cards("H2 H2")), WeakOverturnError)
    pass_to(deal, card_number(3, 2))
    declare(deal, 3, "SB SB")
    pass_to(deal, card_number(0, 3))
    declare(deal, 0, "HR HR")
    finish_declaring(deal)
    assert deal.trump is None
    assert deal.dealer == 0
    assert deal.trick_rules is not None
    assert deal.trick_rules.trump is None


def test_joker_pairs_of_equal_strength_keep_the_first_when_so_set() -> None:
    """打升級, 亮牌規則: 以先出現者為準; with ``big_jokers_over_small`` off the two joker pairs are equal."""
    rules = ShengjiRules(big_jokers_over_small=False)
    deal = Deal(deck_for({3: "SB SB", 0: "HR HR"}), TWO, rules)
    pass_to(deal, card_number(3, 2))
    declare(deal, 3, "SB SB")
    pass_to(deal, card_number(0, 3))
    rejected(deal, Declare(0, cards("HR HR")), WeakOverturnError)


def test_another_player_overturns_a_single_with_a_pair_and_in_the_first_deal_takes_the_deal() -> None:
    """打升級: 一方叫主后，其他三方均可翻主 … 翻主時必須用一對同花色的本局級牌 … 第一局翻主翻庄."""
    deal = Deal(deck_for({1: "S2", 2: "H2 H2"}), TWO)
    pass_to(deal, card_number(1, 1))
    declare(deal, 1, "S2")
    pass_to(deal, card_number(2, 2))
    declare(deal, 2, "H2 H2")
    finish_declaring(deal)
    assert (deal.dealer, deal.trump) == (2, Suit.HEARTS)
    assert [event.kind for event in deal.events if event.kind in ("declare", "trump")] == [
        "declare",
        "declare",
        "trump",
    ]


def test_the_declarers_partner_may_overturn_too() -> None:
    """打升級: 其他三方均可翻主 — the three others, the partner included."""
    deal = Deal(deck_for({1: "S2", 3: "C2 C2"}), TWO)
    pass_to(deal, card_number(1, 1))
    declare(deal, 1, "S2")
    pass_to(deal, card_number(3, 2))
    declare(deal, 3, "C2 C2")
    finish_declaring(deal)
    assert (deal.dealer, deal.trump) == (3, Suit.CLUBS)


def test_a_single_level_card_does_not_overturn_a_single() -> None:
    """打升級: 第一次亮出的 10 的花色作為主牌花色 … 以先出現者為準: another single leaves the first
    standing."""
    deal = Deal(deck_for({1: "S2", 2: "C2"}), TWO)
    pass_to(deal, card_number(1, 1))
    declare(deal, 1, "S2")
    pass_to(deal, card_number(2, 1))
    rejected(deal, Declare(2, cards("C2")), WeakOverturnError)


def test_the_declarer_may_not_overturn_itself_unless_self_overturn() -> None:
    """打升級: (自已叫主后本人不能再翻主); its 亮牌規則 lists 自反, the ``self_overturn`` parameter."""
    hands = {1: "S2 H2 H2 SB SB"}
    deal = Deal(deck_for(hands), TWO)
    pass_to(deal, card_number(1, 1))
    declare(deal, 1, "S2")
    pass_to(deal, card_number(1, 5))
    rejected(deal, Declare(1, cards("H2 H2")), OwnDeclarationError)
    rejected(deal, Declare(1, cards("SB SB")), OwnDeclarationError)
    assert [action.cards for action in deal.legal_actions() if isinstance(action, Declare)] == []

    allowed = Deal(deck_for(hands), TWO, ShengjiRules(self_overturn=True))
    pass_to(allowed, card_number(1, 1))
    declare(allowed, 1, "S2")
    pass_to(allowed, card_number(1, 5))
    assert allowed.can(Declare(1, cards("H2 H2")))
    declare(allowed, 1, "SB SB")
    assert allowed.declaration is not None
    assert allowed.declaration.suit is None


def test_a_declaration_shows_a_level_card_a_pair_of_one_or_a_joker_pair_held() -> None:
    """打升級: 亮出任一花色級牌叫主 … 一對同花色的本局級牌或用一對小王或大王; anything else is not a
    declaration."""
    deal = Deal(deck_for({1: "S2 SA HR SB"}), TWO)
    pass_to(deal, card_number(1, 4))
    rejected(deal, Declare(1, cards("SA")), NotADeclarationError)
    rejected(deal, Declare(1, cards("SB HR")), NotADeclarationError)
    rejected(deal, Declare(1, cards("S2 SA")), NotADeclarationError)
    rejected(deal, Declare(1, ()), NotADeclarationError)
    rejected(deal, Declare(1, cards("H2")), NotHeldError)
    rejected(deal, Declare(1, cards("S2 S2")), NotHeldError)
    rejected(deal, Declare(2, cards("S2")), OutOfTurnError)
    rejected(deal, Bury(1, cards("S2")), WrongPhaseError)
    rejected(deal, Play(1, cards("S2")), WrongPhaseError)
    assert list(deal.legal_actions()) == [Pass(1), Declare(1, cards("S2"))]


def test_in_later_deals_declaring_names_trump_but_not_the_dealer() -> None:
    """打升級: 第一局翻主翻庄，第二局以後翻主不翻庄. The dealer draws first."""
    deal = Deal(deck_for({1: "S2"}, first_drawer=3), TWO, dealer=3)
    assert deal.current_player == 3
    pass_to(deal, card_number(1, 1, first_drawer=3))
    declare(deal, 1, "S2")
    finish_declaring(deal)
    assert (deal.dealer, deal.trump) == (3, Suit.SPADES)
    assert deal.current_player == 3
    assert deal.card_count(3) == 33


@pytest.mark.parametrize(("turned", "trump"), [("D7", Suit.DIAMONDS), ("C2", Suit.CLUBS), ("HR", None)])
def test_nobody_declares_the_dealer_turns_the_kittys_first_card(turned: str, trump: Suit | None) -> None:
    """打升級: 在每一局分牌結束后，仍無人叫主時，則由莊家翻底牌第一張牌花色為主。若是小王或大王，
    本局為無主牌."""
    deal = Deal(deck_for({}, first_drawer=2, kitty=turned), TWO, dealer=2)
    finish_declaring(deal)
    assert deal.turned_card == Card.parse(turned)
    assert deal.trump == trump
    assert deal.dealer == 2
    turned_events = [event for event in deal.events if event.kind == "kitty_turned"]
    assert len(turned_events) == 1
    assert turned_events[0].private_to is None


def test_a_first_deal_nobody_declares_in_is_dealt_by_the_first_to_draw() -> None:
    """打升級 is silent on a first deal without a declaration; we read 由莊家翻底牌 with the first to draw
    (cut for by the match) as the dealer."""
    deal = Deal(deck_for({}, first_drawer=1, kitty="SA"), TWO, first_drawer=1)
    finish_declaring(deal)
    assert (deal.dealer, deal.trump) == (1, Suit.SPADES)


def test_declaring_goes_round_after_the_last_card_until_four_seats_pass_in_a_row() -> None:
    """Declaring happens while the cards are dealt (在摸牌過程中); after the last card every seat has one more
    chance, the table going round until four passes follow the last declaration."""
    deal = Deal(deck_for({1: "S2"}), TWO)
    pass_to(deal, DEALT)
    assert deal.current_player == 3
    deal.apply(Pass(3))
    deal.apply(Pass(0))
    declare(deal, 1, "S2")
    for seat in (2, 3, 0):
        deal.apply(Pass(seat))
        assert deal.phase is Phase.DECLARE
    deal.apply(Pass(1))
    assert deal.phase is Phase.KITTY
    assert deal.dealer == 1


# -- the kitty ---------------------------------------------------------------------------------------


def kitty_deal() -> Deal:
    deal = Deal(deck_for({1: "S2"}, kitty="S5 S5 ST ST SK SK D3 D4"), TWO)
    pass_to(deal, card_number(1, 1))
    declare(deal, 1, "S2")
    finish_declaring(deal)
    return deal


def test_the_dealer_takes_the_kitty_which_only_the_dealer_sees() -> None:
    """打升級: 在翻主結束后，底牌歸莊家所有. docs/rules/shengji.md#kitty: the dealer takes the kitty."""
    deal = kitty_deal()
    assert deal.phase is Phase.KITTY
    assert deal.card_count(1) == 33
    taken = [event for event in deal.events if event.kind == "kitty"]
    assert len(taken) == 1
    assert taken[0].private_to == (1,)
    assert deal.observation(1).kitty == deal.kitty
    for seat in (0, 2, 3):
        seen = deal.observation(seat)
        assert seen.kitty == ()
        assert all(event.kind != "kitty" for event in seen.history)
        assert seen.card_counts == (25, 33, 25, 25)


def test_the_dealer_buries_exactly_eight_cards_of_its_hand() -> None:
    """打升級: 莊家再根據牌情任意抽取8張作為底牌 — any eight, points included."""
    deal = kitty_deal()
    hand = deal.hand(1)
    rejected(deal, Bury(1, hand[:7]), IllegalBuryError)
    rejected(deal, Bury(1, hand[:9]), IllegalBuryError)
    rejected(deal, Bury(0, hand[:8]), OutOfTurnError)
    rejected(deal, Declare(1, cards("S2")), WrongPhaseError)
    rejected(deal, Play(1, hand[:1]), WrongPhaseError)
    missing = next(card for card in deal.hand(0) if card not in hand)
    rejected(deal, Bury(1, (*hand[:7], missing)), NotHeldError)
    kitty = cards("S5 S5 ST ST SK SK D3 D4")
    deal.apply(Bury(1, kitty))
    assert deal.buried == sort_cards(kitty)
    assert deal.kitty_points == 50
    assert deal.card_count(1) == 25
    assert deal.observation(1).kitty == sort_cards(kitty)
    assert deal.observation(0).kitty == ()
    assert [event.private_to for event in deal.events if event.kind == "bury"] == [(1,)]


def test_the_dealer_leads_the_first_trick() -> None:
    """打升級: 每局的第一輪由莊家首先出牌 (莊家具有摳底牌和第一輪的首先出牌權)."""
    deal = kitty_deal()
    deal.apply(Bury(1, deal.hand(1)[:8]))
    assert deal.phase is Phase.TRICKS
    assert deal.current_player == 1
    assert deal.leader == 1
    rejected(deal, Play(2, deal.hand(2)[:1]), OutOfTurnError)


# -- tricks ------------------------------------------------------------------------------------------

KITTY = "C3 C4 C6 C7 C8 C9 CJ CQ"


def test_the_winner_of_a_trick_leads_the_next_and_the_attackers_keep_their_points() -> None:
    """打升級: 以後每輪牌都由前輪獲勝方首先出牌. The attackers (闲家, 抓分方) collect the points they win."""
    hands = [cards("S3 S4"), cards("SA D3"), cards("S5 D4"), cards("S6 D5")]
    deal = Deal.at_position(hands, TWO, trump=Suit.HEARTS, dealer=0, leader=0, buried=cards(KITTY))
    rejected(deal, Play(1, cards("SA")), OutOfTurnError)
    rejected(deal, Play(0, ()), EmptyPlayError)
    rejected(deal, Play(0, cards("S3 D3")), NotHeldError)
    for seat, card in ((0, "S3"), (1, "SA"), (2, "S5"), (3, "S6")):
        deal.apply(Play(seat, cards(card)))
    assert deal.tricks[-1].winner == 1
    assert deal.current_player == 1
    assert (deal.attackers_points, deal.dealers_points) == (5, 0)
    rejected(deal, Play(2, cards("D4")), OutOfTurnError)
    deal.apply(Play(1, cards("D3")))
    rejected(deal, Play(2, cards("D3")), NotHeldError)
    deal.apply(Play(2, cards("D4")))
    deal.apply(Play(3, cards("D5")))
    deal.apply(Play(0, cards("S4")))
    assert deal.phase is Phase.OVER
    assert deal.result is not None
    assert deal.result.last_trick_winner == 3
    assert deal.result.attackers_card_points == 10


def test_a_failed_throw_plays_the_smallest_unit_and_gives_the_penalty_to_the_other_side() -> None:
    """打升級: 若首家試圖聯出的牌並非都是大牌時，則其必須出欲聯出的牌中的最小牌 … 罰10分給對方. A dealer's
    failed throw adds 10 to the attackers' score; an attacker's takes 10 from it."""
    hands = [cards("SA SK C5"), cards("SA C3 C4"), cards("D3 D4 D6"), cards("D7 D8 D9")]
    deal = Deal.at_position(hands, TWO, trump=Suit.HEARTS, dealer=0, leader=0, buried=cards(KITTY))
    deal.apply(Play(0, cards("SA SK")))
    assert deal.failed_throws[0].played == cards("SK")
    assert deal.penalty == 10
    assert deal.hand(0) == sort_cards(cards("SA C5"))
    kinds = [(event.kind, event.cards, event.points) for event in deal.events]
    assert kinds[-2:] == [("throw_failed", sort_cards(cards("SA SK")), 10), ("play", cards("SK"), None)]
    rejected(deal, Play(1, cards("C3")), MustFollowSuitError)
    deal.apply(Play(1, cards("SA")))
    deal.apply(Play(2, cards("D3")))
    deal.apply(Play(3, cards("D7")))
    assert deal.current_player == 1
    assert deal.attackers_points == 10

    attackers = Deal.at_position(
        [hands[1], hands[0], hands[2], hands[3]],
        TWO,
        trump=Suit.HEARTS,
        dealer=0,
        leader=1,
        buried=cards(KITTY),
    )
    attackers.apply(Play(1, cards("SA SK")))
    assert attackers.penalty == -10


def test_a_failed_throw_keeps_every_hand_the_same_size_and_the_deal_runs_to_the_last_card() -> None:
    """A failed throw is still one trick of one unit: every seat plays all its cards (25 in a full deal)."""
    hands = [cards("SA SK C5"), cards("SA C3 C4"), cards("D3 D4 D6"), cards("D7 D8 D9")]
    deal = Deal.at_position(hands, TWO, trump=Suit.HEARTS, dealer=0, leader=0, buried=cards(KITTY))
    rng = random.Random(5)
    deal.apply(Play(0, cards("SA SK")))
    while deal.phase is not Phase.OVER:
        deal.apply(rng.choice(list(deal.legal_actions())))
        assert len({deal.card_count(seat) for seat in range(4) if seat not in dict(deal.trick_plays)}) <= 1
    assert sum(len(trick.plays[0][1]) for trick in deal.tricks) == 3
    assert all(deal.card_count(seat) == 0 for seat in range(4))


def test_the_failed_throw_penalty_is_a_parameter() -> None:
    hands = [cards("SA SK C5"), cards("SA C3 C4"), cards("D3 D4 D6"), cards("D7 D8 D9")]
    rules = ShengjiRules(failed_throw_penalty=20)
    deal = Deal.at_position(hands, TWO, rules, trump=Suit.HEARTS, dealer=0, leader=0, buried=cards(KITTY))
    deal.apply(Play(0, cards("SA SK")))
    assert deal.penalty == 20


def test_an_unbeatable_throw_stands() -> None:
    """打升級: 同門花色的大牌可以聯出，稱作 "甩牌" … (若其他家中無人有能大過 … 的牌)."""
    hands = [cards("SA SA SK"), cards("C3 C4 C6"), cards("D3 D4 D6"), cards("D7 D8 D9")]
    deal = Deal.at_position(hands, TWO, trump=Suit.HEARTS, dealer=0, leader=0, buried=cards(KITTY))
    deal.apply(Play(0, cards("SA SA SK")))
    assert deal.failed_throws == []
    assert deal.penalty == 0
    assert deal.lead is not None
    assert deal.lead.is_throw


# -- observations ------------------------------------------------------------------------------------


def test_an_observation_shows_the_own_hand_and_public_history_never_another_hand() -> None:
    """docs/architecture.md#principles: state.observation(seat) is the only view; nothing outside the core
    reads another seat's hand."""
    deal = Deal(deck_for({1: "S2"}), TWO)
    pass_to(deal, card_number(1, 1))
    declare(deal, 1, "S2")
    pass_to(deal, 40)
    for seat in range(4):
        seen = deal.observation(seat)
        assert seen.hand == deal.hand(seat)
        assert all(event.kind != "draw" or event.seat == seat for event in seen.history)
        assert seen.declaration == deal.declaration
        assert not seen.trump_settled
        mine = {card for event in seen.history if event.kind == "draw" for card in event.cards}
        assert mine <= set(deal.hand(seat))
    to_act = deal.current_player
    assert to_act is not None
    assert list(deal.observation(to_act).legal_actions()) == list(deal.legal_actions())
    assert list(deal.observation((to_act + 1) % 4).legal_actions()) == []
    with pytest.raises(ValueError, match="seat"):
        deal.observation(4)
