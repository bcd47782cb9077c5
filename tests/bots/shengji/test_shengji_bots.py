"""The Shengji bots: every action legal through the core's validator over many random deals (matches,
so levels and dealers vary), determinism under a seed, and the heuristic's choices in set positions."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from cardroom.bots.shengji import SHENGJI_BOTS, HeuristicShengjiBot, ShengjiBot, make_shengji_bot
from cardroom.bots.shengji.heuristic import CHOICES
from cardroom.bots.shengji.knowledge import unit_leads
from cardroom.bots.shengji.random_bot import random_follow, random_lead
from cardroom.cards import Card, Rank, Suit, parse_cards
from cardroom.shengji import (
    PRESETS,
    SHENGJI,
    Action,
    Bury,
    Deal,
    Declare,
    Match,
    Pass,
    Phase,
    Play,
    ShengjiRules,
    TrickRules,
    can_follow,
    legal_follows,
    points,
    read_lead,
    verify_lead,
)
from tests.shengji.deal_helpers import card_number, deck_for, pass_to


def play_deals(names: tuple[str, str], deals: int, seed: int, rules: ShengjiRules = SHENGJI) -> list[Action]:
    """Play ``deals`` deals (matches restarted when over) with bot ``names[seat % 2]`` at each seat;
    every action is checked by the core's validator before it is applied. Returns all actions."""
    rng = random.Random(seed)
    actions: list[Action] = []
    match = Match(rules)
    bots: list[ShengjiBot] = [make_shengji_bot(names[seat % 2], seed * 10 + seat) for seat in range(4)]
    played = 0
    while played < deals:
        if match.is_over:
            match = Match(rules)
        deal = match.deal_random(rng)
        while deal.phase is not Phase.OVER:
            seat = deal.current_player
            assert seat is not None
            observation = match.observation(seat)
            action = bots[seat].act(observation)
            assert action.seat == seat
            deal.verify(action)
            match.apply(action)
            actions.append(action)
        played += 1
    return actions


@pytest.mark.parametrize(
    "names",
    [("random", "random"), ("heuristic", "heuristic"), ("heuristic", "random"), ("random", "heuristic")],
)
def test_the_bots_only_make_legal_actions(names: tuple[str, str]) -> None:
    actions = play_deals(names, 12, seed=len(names[0]) * 7 + len(names[1]))
    assert any(isinstance(action, Bury) for action in actions)


@pytest.mark.parametrize("rules", list(PRESETS.values()), ids=list(PRESETS))
def test_the_bots_stay_legal_under_every_preset(rules: ShengjiRules) -> None:
    play_deals(("heuristic", "random"), 6, seed=3, rules=rules)


@pytest.mark.slow
@pytest.mark.parametrize("names", [("random", "random"), ("heuristic", "random"), ("heuristic", "heuristic")])
def test_the_bots_stay_legal_over_many_deals(names: tuple[str, str]) -> None:
    play_deals(names, 150, seed=2026)


@pytest.mark.parametrize("name", sorted(SHENGJI_BOTS))
def test_a_bot_is_deterministic_under_its_seed(name: str) -> None:
    first = play_deals((name, name), 2, seed=11)
    again = play_deals((name, name), 2, seed=11)
    assert first == again


def test_the_random_bot_depends_on_its_seed() -> None:
    rules = TrickRules(Rank.TWO, Suit.SPADES)
    hand = parse_cards("SA SA SK SQ SJ S9 S8 H5 H5 H4 H3 C7 C7 C6 D9 D8 SB HR S2 H2")
    leads = {random_lead(hand, rules, random.Random(seed)) for seed in range(40)}
    assert len(leads) > 10
    for lead in leads:
        verify_lead(hand, lead, rules)


def test_unknown_bots_are_named() -> None:
    with pytest.raises(KeyError, match="known: heuristic, random"):
        make_shengji_bot("nobody")


def test_unit_leads_list_singles_pairs_and_tractors() -> None:
    rules = TrickRules(Rank.TEN, Suit.SPADES)
    leads = unit_leads(parse_cards("SA SA SK SK SQ SQ S3"), rules)
    texts = {" ".join(sorted(map(str, lead))) for lead in leads}
    expected = ["SA", "SK", "SQ", "S3", "SA SA", "SK SK SQ SQ", "SA SA SK SK SQ SQ", "SA SA SK SK"]
    assert {" ".join(sorted(text.split())) for text in expected} <= texts
    assert len(leads) == len(set(leads))
    off_level = unit_leads(parse_cards("CT CT HT HT SA SA"), rules)
    assert len([lead for lead in off_level if len(lead) == 4]) == 2  # SA SA with either level pair
    assert not any({Card.parse("CT"), Card.parse("HT")} <= set(lead) for lead in off_level)  # one rung


def test_random_follows_are_legal_even_when_too_many_to_list() -> None:
    rules = TrickRules(Rank.TWO, Suit.HEARTS)
    lead = read_lead(parse_cards("SA SA SK SK"), rules)
    hand = parse_cards("S3 S3 S6 S6 S9 S9 SQ SQ S4 S7 S8 SJ C3 C4 C5 C6 D7 D8 D9 DJ")
    assert sum(1 for _ in legal_follows(hand, lead, rules)) > 5
    for seed in range(30):
        cards = random_follow(hand, lead, rules, random.Random(seed))
        assert can_follow(hand, lead, cards, rules)
    void = parse_cards("C3 C4 C5 C6 C7 C8 C9 CJ CQ D3 D4 D5 D6 D7 D8 D9 DJ DQ DK H3")
    for seed in range(30):
        assert can_follow(void, lead, random_follow(void, lead, rules, random.Random(seed)), rules)


# -- the heuristic in set positions ----------------------------------------------------------------


def position(hands: list[str], leader: int, *, dealer: int = 0, trump: Suit | None = Suit.HEARTS) -> Deal:
    """A deal at a trick at level 2 with these hands (equal sizes); the kitty is eight low clubs."""
    return Deal.at_position(
        [parse_cards(hand) for hand in hands],
        Rank.TWO,
        trump=trump,
        dealer=dealer,
        leader=leader,
        buried=parse_cards("C3 C3 C4 C4 C6 C6 C7 C7"),
    )


def heuristic_play(deal: Deal) -> tuple[Card, ...]:
    seat = deal.current_player
    assert seat is not None
    action = HeuristicShengjiBot(random.Random(0)).act(deal.observation(seat))
    assert isinstance(action, Play)
    deal.verify(action)
    return action.cards


def test_the_heuristic_feeds_points_to_a_partner_who_wins() -> None:
    deal = position(["SA D3 D4", "S3 D5 D6", "SK S4 D8", "S6 D9 DJ"], leader=0)
    deal.apply(Play(0, parse_cards("SA")))
    deal.apply(Play(1, parse_cards("S3")))
    assert heuristic_play(deal) == parse_cards("SK")


def test_the_heuristic_wins_cheaply_and_dumps_low() -> None:
    deal = position(["S9 D3 D4", "S5 D5 D6", "S4 D8 D9", "SQ SA S3"], leader=0)
    for seat, card in ((0, "S9"), (1, "S5"), (2, "S4")):
        deal.apply(Play(seat, parse_cards(card)))
    assert heuristic_play(deal) == parse_cards("SQ")
    deal = position(["SA D3 D4", "S5 D5 D6", "S4 D8 D9", "SK S3 DQ"], leader=0)
    for seat, card in ((0, "SA"), (1, "S5"), (2, "S4")):
        deal.apply(Play(seat, parse_cards(card)))
    assert heuristic_play(deal) == parse_cards("S3")


def test_the_heuristic_ruffs_points_with_low_trump() -> None:
    deal = position(["SA D3 D4", "SK D5 D6", "S4 D8 D9", "H3 HA C5"], leader=0)
    for seat, card in ((0, "SA"), (1, "SK"), (2, "S4")):
        deal.apply(Play(seat, parse_cards(card)))
    assert heuristic_play(deal) == parse_cards("H3")


def test_the_heuristic_throws_sure_winners_and_the_throw_holds() -> None:
    deal = position(
        ["SA SA SK D3 D4", "SQ SJ S9 D5 D6", "S8 S7 S6 D8 D9", "S4 S3 D7 DQ DK"], leader=0, dealer=1
    )
    cards = heuristic_play(deal)
    assert Counter(cards) == Counter(parse_cards("SA SA SK"))
    deal.apply(Play(0, cards))
    assert not deal.failed_throws


def test_the_heuristic_buries_no_points_and_voids_a_short_suit() -> None:
    rules = TrickRules(Rank.TWO, Suit.HEARTS)
    hand = parse_cards(
        "HA HK HQ HJ H9 H8 H7 H6 H5 SB HR S2 C2 SA SK SQ S9 S8 S7 S5 CA CK CT C9 C8 D9 D8 D6 D4 D3 DA HT H4"
    )
    assert len(hand) == 33
    buried = HeuristicShengjiBot(random.Random(0)).bury(hand, rules)
    assert len(buried) == 8
    assert not Counter(buried) - Counter(hand)
    assert points(buried) == 0
    assert not any(rules.is_trump(card) for card in buried)
    left = Counter(hand) - Counter(buried)
    assert not any(card.suit is Suit.DIAMONDS and card.rank != Rank.ACE for card in left)


def test_the_heuristic_declares_a_long_suit_with_the_pair() -> None:
    deal = Deal(deck_for({0: "S2 S2 SA SK SQ SJ S9 S8 S7 S6 S5 S4"}), Rank.TWO)
    pass_to(deal, card_number(0, 12))
    action = HeuristicShengjiBot(random.Random(0)).act(deal.observation(0))
    assert action == Declare(0, parse_cards("S2 S2"))


def test_the_heuristic_passes_with_a_short_suit_and_on_its_partner() -> None:
    deal = Deal(deck_for({0: "S2 H3 C4 D5 H6 C7", 2: "H2 H2"}), Rank.TWO)
    pass_to(deal, card_number(0, 6))
    assert HeuristicShengjiBot(random.Random(0)).act(deal.observation(0)) == Pass(0)


def test_the_heuristic_offers_several_legal_choices_its_own_first() -> None:
    """A hint cycles through these (docs/protocol.md, ``hint``): in trick play the bot's own choice
    first, then other legal leads or follows, each different; one choice only outside trick play."""
    rng = random.Random(7)
    match = Match(SHENGJI)
    bot = HeuristicShengjiBot(random.Random(0))
    several = 0
    for _ in range(2):
        deal = match.deal_random(rng)
        while deal.phase is not Phase.OVER:
            seat = deal.current_player
            assert seat is not None
            observation = match.observation(seat)
            choices = bot.choices(observation)
            assert choices[0] == bot.act(observation)
            assert 1 <= len(choices) <= CHOICES
            if deal.phase is not Phase.TRICKS:
                assert len(choices) == 1
            plays = [
                sorted(card.index for card in action.cards) for action in choices if isinstance(action, Play)
            ]
            assert len(plays) == len({tuple(play) for play in plays}), "each choice different"
            for action in choices:
                deal.verify(action)
            several += len(choices) > 1
            match.apply(choices[0])
    assert several > 40, "most turns in trick play offer more than one choice"
    with pytest.raises(ValueError, match="at least one choice"):
        bot.choices(match.observation(0), 0)
