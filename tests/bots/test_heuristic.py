"""The heuristic bot: always legal and deterministic over many deals, the sources' advice on hand-built
positions (掼蛋方法规则's advice on tribute and return, 摜彈's 遊戲技巧 and 遊戲精神 on play:
docs/sources.md), and its strength against random play; and the hand planner it plays from."""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import replace

import pytest

from cardroom.bots import Bot, HeuristicBot, make_bot
from cardroom.bots.planning import Planner, plan_cards
from cardroom.cards import Card, Rank, parse_cards
from cardroom.guandan import PASS, Play, PlayKind, classify, legal_plays
from cardroom.guandan.deal import Action, Event, EventKind, Phase, PlayAction, ReturnAction, TributeAction
from cardroom.guandan.match import Match, shuffled_hands
from cardroom.guandan.observation import Observation
from cardroom.guandan.plays import rank_order
from cardroom.guandan.ruleset import COMPETITION, PRESETS
from cardroom.guandan.tribute import return_cards, tribute_cards

# -- driving matches -----------------------------------------------------------------------------


def play_deals(names: list[str], deals: int, seed: int, max_deals: int = 8) -> tuple[list[Action], list[int]]:
    """Play ``deals`` deals (in matches of up to ``max_deals``, so tribute and return come up) with one
    bot per seat; every action must be one of the observation's legal actions. Returns every action and
    the 上游's team of each deal."""
    rng = random.Random(seed)
    bots: list[Bot] = [make_bot(name, seed * 4 + seat) for seat, name in enumerate(names)]
    actions: list[Action] = []
    first_teams: list[int] = []
    while len(first_teams) < deals:
        match = Match(COMPETITION, max_deals=max_deals)
        while not match.is_over and len(first_teams) < deals:
            match.deal_random(rng)
            while match.current_deal is not None:
                seat = match.current_player
                assert seat is not None
                observation = match.observation(seat)
                action = bots[seat].act(observation)
                assert action in observation.legal_actions, f"{names[seat]} chose an illegal {action}"
                match.apply(action)
                actions.append(action)
            first_teams.append(match.summaries[-1].result.winning_team)
    return actions, first_teams


MIXED = ["heuristic", "random", "heuristic", "random"]
SWAPPED = ["random", "heuristic", "random", "heuristic"]
SELF = ["heuristic"] * 4


@pytest.mark.parametrize("names", [MIXED, SWAPPED, SELF], ids=["vs-random", "swapped", "self-play"])
def test_every_action_is_legal(names: list[str]) -> None:
    actions, first_teams = play_deals(names, 100, seed=11)
    assert len(first_teams) == 100
    kinds = Counter(type(action).__name__ for action in actions)
    assert kinds["TributeAction"], "tribute came up"
    assert kinds["ReturnAction"], "return came up"


@pytest.mark.parametrize("preset", sorted(set(PRESETS) - {"competition"}))
def test_every_action_is_legal_under_the_other_presets(preset: str) -> None:
    """The bot reads the competition's plays, but answers only with the legal actions it is given."""
    rng = random.Random(13)
    bots = [make_bot("heuristic", seat) for seat in range(4)]
    deals = 0
    while deals < 12:
        match = Match(PRESETS[preset], max_deals=4)
        while not match.is_over and deals < 12:
            match.deal_random(rng)
            while match.current_deal is not None:
                seat = match.current_player
                assert seat is not None
                observation = match.observation(seat)
                action = bots[seat].act(observation)
                assert action in observation.legal_actions
                match.apply(action)
            deals += 1


@pytest.mark.slow
@pytest.mark.parametrize("names", [MIXED, SELF], ids=["vs-random", "self-play"])
def test_every_action_is_legal_over_a_thousand_deals(names: list[str]) -> None:
    _, first_teams = play_deals(names, 1000, seed=12, max_deals=20)
    assert len(first_teams) == 1000


@pytest.mark.parametrize(
    "preset",
    [pytest.param(name, marks=[pytest.mark.slow] if name == "huopin" else []) for name in sorted(PRESETS)],
)
def test_a_play_decided_without_the_legal_list_is_the_same_play(preset: str) -> None:
    """Playouts leave the legal actions out of the observation (:meth:`HeuristicBot.play`): the bot
    then checks its plays against the rules and must choose exactly what it chooses from the list."""
    rng = random.Random(17)
    bot = HeuristicBot(random.Random(0))
    compared = 0
    for _ in range(6):
        match = Match(PRESETS[preset], max_deals=3)
        while not match.is_over:
            match.deal_random(rng)
            while match.current_deal is not None:
                seat = match.current_player
                assert seat is not None
                observation = match.observation(seat)
                action = bot.act(observation)
                if observation.phase is Phase.PLAY:
                    unlisted = replace(observation, legal_actions=())
                    assert bot.play(unlisted) == action
                    compared += 1
                match.apply(rng.choice([action, *match.legal_actions()[:3]]))
    assert compared > 300


def test_play_refuses_a_seat_that_is_not_to_play() -> None:
    match = Match(COMPETITION)
    match.deal_random(random.Random(3))
    seat = match.current_player
    assert seat is not None
    observation = match.observation((seat + 1) % 4)
    with pytest.raises(ValueError, match="not to play"):
        HeuristicBot(random.Random(0)).play(observation)


def test_same_seed_same_actions() -> None:
    first, _ = play_deals(SELF, 8, seed=21)
    again, _ = play_deals(SELF, 8, seed=21)
    assert first == again


def test_it_takes_first_place_against_random_bots() -> None:
    """Over 200 deals from each side of the table the heuristic team takes 上游 in at least 90%."""
    _, as_even = play_deals(MIXED, 200, seed=31, max_deals=10)
    _, as_odd = play_deals(SWAPPED, 200, seed=32, max_deals=10)
    even_rate = as_even.count(0) / len(as_even)
    odd_rate = as_odd.count(1) / len(as_odd)
    assert even_rate >= 0.9, even_rate
    assert odd_rate >= 0.9, odd_rate


# -- hand-built positions ------------------------------------------------------------------------


def read(text: str, level: Rank = Rank.TWO, kind: PlayKind | None = None) -> Play:
    plays = [play for play in classify(parse_cards(text), level) if kind is None or play.kind is kind]
    assert len(plays) == 1, plays
    return plays[0]


def position(
    hand: str,
    *,
    previous: str | None = None,
    previous_seat: int | None = None,
    counts: tuple[int, int, int, int] = (0, 20, 20, 20),
    level: Rank = Rank.TWO,
    history: tuple[Event, ...] = (),
) -> Observation:
    """Seat 0 to play ``hand`` (partner seat 2; opponents 1, its 下家, and 3); ``previous`` was played
    by ``previous_seat``; ``counts`` are the other seats' cards (seat 0's is its hand's)."""
    cards = parse_cards(hand)
    to_beat = read(previous, level) if previous else None
    actions = tuple(PlayAction(0, play) for play in legal_plays(cards, to_beat, level))
    return Observation(
        seat=0,
        hand=cards,
        level=level,
        levels=(level, level),
        level_team=0,
        deal_number=1,
        phase=Phase.PLAY,
        current_player=0,
        card_counts=(len(cards), counts[1], counts[2], counts[3]),
        finished=(),
        previous=to_beat,
        previous_seat=previous_seat,
        history=history,
        legal_actions=actions,
    )


def choose(observation: Observation) -> Play:
    action = HeuristicBot(random.Random(0)).act(observation)
    assert action in observation.legal_actions
    assert isinstance(action, PlayAction)
    return action.play


def ranks(play: Play) -> list[str]:
    return [card.rank.letter for card in play.cards]


HAND = "S3 H6 C7 D8 S9 HT CQ DQ SK HK CK C5 D5 SA"
"""Planned: the straight 6-T, the full house KKK55, the pair of queens, and the singles 3 and A."""


def test_it_passes_on_the_partners_play_when_no_opponent_threatens() -> None:
    observation = position(HAND, previous="D4", previous_seat=2)
    assert choose(observation) == PASS


def test_it_covers_a_weak_partner_play_when_the_next_opponent_is_nearly_out() -> None:
    observation = position(HAND, previous="D4", previous_seat=2, counts=(0, 2, 20, 20))
    play = choose(observation)
    assert play.kind is PlayKind.SINGLE
    assert rank_order(play.cards[0].rank, Rank.TWO) > rank_order(Rank.FOUR, Rank.TWO)


def test_it_beats_an_opponent_with_the_smallest_play_of_its_plan() -> None:
    # the pairs of fives and queens are in the plan; the straight 6-T is not broken for a single
    hand = "S3 H6 C7 D8 S9 HT CQ DQ C5 D5 SA"
    assert ranks(choose(position(hand, previous="S4 D4", previous_seat=3))) == ["5", "5"]
    assert ranks(choose(position(hand, previous="D4", previous_seat=1))) == ["A"]


def test_it_bombs_an_opponent_who_is_nearly_out() -> None:
    hand = "S3 H6 C7 D8 SJ S5 H5 C5 D5 DQ"
    calm = position(hand, previous="SA", previous_seat=3, counts=(0, 20, 20, 20))
    assert choose(calm) == PASS
    for left in (1, 2):
        urgent = position(hand, previous="SA", previous_seat=3, counts=(0, 20, 20, left))
        assert choose(urgent).kind is PlayKind.BOMB


def test_it_leads_the_lowest_awkward_single_rather_than_breaking_a_straight() -> None:
    observation = position("S3 H6 C7 D8 S9 HT CQ DQ")
    assert ranks(choose(observation)) == ["3"]


def test_it_leads_a_sure_winner_before_its_last_play() -> None:
    observation = position("HR S3 D3")
    assert ranks(choose(observation)) == ["R"]


def test_with_few_plays_left_the_last_is_the_strongest() -> None:
    observation = position("S4 D4 S9 CK")
    assert ranks(choose(observation)) == ["4", "4"]


def test_it_does_not_lead_a_single_to_an_opponent_with_one_card() -> None:
    observation = position("S3 S9 D9", counts=(0, 1, 20, 20))
    assert choose(observation).kind is PlayKind.PAIR


def test_it_feeds_a_partner_with_one_card() -> None:
    # 接风 / 單張援助: the lowest single, even out of a straight
    observation = position("S3 H4 C5 D6 S7 H9 C9 DK DK SA SA", counts=(0, 20, 1, 20))
    assert ranks(choose(observation)) == ["3"]


def test_it_goes_out_on_the_partners_play_when_it_can() -> None:
    observation = position("SK", previous="D4", previous_seat=2)
    assert ranks(choose(observation)) == ["K"]


# -- tribute and return --------------------------------------------------------------------------


def tribute_position(hand: str, level_team: int, level: Rank = Rank.TWO) -> Observation:
    cards = parse_cards(hand)
    actions = tuple(TributeAction(0, card) for card in tribute_cards(cards, level))
    return Observation(
        seat=0,
        hand=cards,
        level=level,
        levels=(level, level),
        level_team=level_team,
        deal_number=2,
        phase=Phase.TRIBUTE,
        current_player=0,
        card_counts=(27, 27, 27, 27),
        finished=(),
        previous=None,
        previous_seat=None,
        history=(),
        legal_actions=actions,
    )


def return_position(hand: str, payer: int, paid: str, level: Rank = Rank.TWO) -> Observation:
    cards = parse_cards(hand)
    actions = tuple(
        ReturnAction(0, card) for card in return_cards(cards, level, COMPETITION, to_partner=payer == 2)
    )
    event = Event(EventKind.TRIBUTE, seat=payer, card=Card.parse(paid), to=0)
    return Observation(
        seat=0,
        hand=cards,
        level=level,
        levels=(level, level),
        level_team=0,
        deal_number=2,
        phase=Phase.RETURN,
        current_player=0,
        card_counts=(28, 27, 27, 26),
        finished=(),
        previous=None,
        previous_seat=None,
        history=(event,),
        legal_actions=actions,
    )


TRIBUTE_HAND = "S3 S3 H4 C5 D6 S7 S8 S9 HT HT CJ DJ SQ SK SA DA S4 H5 C6 D7 C8 D9 CT DQ CK H9 H8"


def test_its_tribute_is_a_legal_highest_card() -> None:
    observation = tribute_position(TRIBUTE_HAND, level_team=1)
    action = HeuristicBot(random.Random(0)).act(observation)
    assert action in observation.legal_actions
    assert isinstance(action, TributeAction)
    assert action.card.rank == Rank.ACE


def test_its_tribute_to_an_opponent_is_the_ace_whose_neighbours_it_holds() -> None:
    # 掼蛋方法规则's advice (docs/sources.md#fangfa): of equal highest cards, pay the one whose suit
    # neighbours you hold (♠K ♠Q beside ♠A),
    # so the receiver is less likely to make a straight flush with it
    observation = tribute_position(TRIBUTE_HAND, level_team=1)
    action = HeuristicBot(random.Random(0)).act(observation)
    assert isinstance(action, TributeAction)
    assert str(action.card) == "SA"


RETURN_HAND = "S3 H5 C5 S6 H6 C7 D7 S8 H8 C9 D9 ST HT CJ DJ HQ CQ SK HK SA CA DA HR SB S4 C4 D4 CT"


def test_its_return_to_an_opponent_is_a_low_lone_card() -> None:
    observation = return_position(RETURN_HAND, payer=1, paid="HR")
    action = HeuristicBot(random.Random(0)).act(observation)
    assert action in observation.legal_actions
    assert isinstance(action, ReturnAction)
    assert str(action.card) == "S3"


def test_its_return_to_the_partner_is_a_higher_card() -> None:
    bot = HeuristicBot(random.Random(0))
    to_opponent = bot.act(return_position(RETURN_HAND, payer=1, paid="HR"))
    to_partner = bot.act(return_position(RETURN_HAND, payer=2, paid="HR"))
    assert isinstance(to_opponent, ReturnAction)
    assert isinstance(to_partner, ReturnAction)
    assert to_partner.card.rank > to_opponent.card.rank


# -- the planner ---------------------------------------------------------------------------------


def test_plans_split_the_hand_into_legal_plays() -> None:
    rng = random.Random(41)
    for _ in range(60):
        hands, _ = shuffled_hands(rng)
        level = Rank(rng.randrange(2, 15))
        for hand in hands:
            held = hand[: rng.randrange(1, 28)]
            plan = Planner(level).plan(held)
            chosen = plan_cards(plan, held, level)
            assert chosen is not None
            assert Counter(card for cards in chosen for card in cards) == Counter(held)
            for unit, cards in zip(plan.units, chosen, strict=True):
                readings = classify(cards, level)
                assert any(play.kind is unit.kind and play.rank == unit.rank for play in readings), unit


def test_a_plan_keeps_bombs_and_straight_flushes_whole() -> None:
    hand = parse_cards("S3 S4 S5 S6 S7 H9 C9 D9 S9 DK")
    kinds = sorted(unit.kind.name for unit in Planner(Rank.TWO).plan(hand).units)
    assert kinds == ["BOMB", "SINGLE", "STRAIGHT_FLUSH"]


def test_a_plan_uses_the_wild_card_where_it_saves_a_play() -> None:
    # ♥2 fills the straight 3-7, leaving the pair of nines
    hand = parse_cards("H2 S3 C4 D6 S7 H9 C9")
    units = Planner(Rank.TWO).plan(hand).units
    assert sorted((unit.kind.name, unit.wilds) for unit in units) == [("PAIR", 0), ("STRAIGHT", 1)]
