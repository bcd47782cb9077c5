"""What one seat may know (``match.observation(seat)``): its own hand, never another seat's cards, the
public history (a return card only to the two seats it passes between), card counts, levels, whose turn
and 报牌 (docs/rules/competition.md#hidden-information and #card-count).
"""

from __future__ import annotations

import pickle
import random
from collections import Counter
from collections.abc import Iterator

import pytest

from cardroom.cards import Card
from cardroom.guandan import PASS, Play
from cardroom.guandan.deal import (
    Deal,
    Event,
    EventKind,
    LegalPlays,
    Phase,
    PlayAction,
    ReturnAction,
    TributeAction,
)
from cardroom.guandan.match import Match, shuffled_hands
from cardroom.guandan.observation import Observation
from cardroom.guandan.ruleset import COMPETITION, HUOPIN, RuleSet
from tests.guandan.scenario import Hands, build_hands, play_match_deal, reading


def eight(rank: str) -> str:
    return " ".join(f"{suit}{rank} {suit}{rank}" for suit in "SHCD")


FAST: Hands = build_hands(
    f"{eight('A')} {eight('K')} {eight('Q')} SJ HJ CJ",
    f"{eight('T')} {eight('9')} {eight('8')} SJ HJ CJ",
    f"{eight('7')} {eight('6')} {eight('5')} S4 H4 C4",
)


def play_cards(match: Match, seat: int, text: str) -> None:
    deal = match.current_deal
    assert deal is not None
    match.apply(PlayAction(seat, reading(deal, text)))


def pass_turn(match: Match) -> None:
    seat = match.current_player
    assert seat is not None
    match.apply(PlayAction(seat, PASS))


def shown_cards(observation: Observation) -> Iterator[Card]:
    """Every card an observation shows outside the seat's own hand: cards of plays (not the cards wild cards
    stand for, which are readings, not cards held), of tributes and returns, of legal actions."""
    plays: list[Play] = []
    if observation.turned is not None:
        yield observation.turned[1]
    if observation.previous is not None:
        plays.append(observation.previous)
    for event in observation.history:
        if event.card is not None:
            yield event.card
        if event.play is not None:
            plays.append(event.play)
    for action in observation.legal_actions:
        if isinstance(action, PlayAction):
            plays.append(action.play)
        else:
            yield action.card
    for play in plays:
        yield from play.cards


def public_cards(deal: Deal, seat: int) -> Counter[Card]:
    """The cards ``seat`` may have seen: the turned card, played cards, tributes, and returns to or from
    ``seat``."""
    seen: Counter[Card] = Counter()
    if deal.turned_card is not None:
        seen[deal.turned_card] += 1
    for event in deal.events:
        if event.play is not None:
            seen.update(event.play.cards)
        if event.kind == EventKind.TRIBUTE and event.card is not None:
            seen[event.card] += 1
        if event.kind == EventKind.TRIBUTE_PAID and event.card is not None and seat == event.seat:
            seen[event.card] += 1
        if event.kind == EventKind.RETURN and event.card is not None and seat in (event.seat, event.to):
            seen[event.card] += 1
    return seen


def check_observation(match: Match, seat: int) -> None:
    """The observation of ``seat`` shows its hand and nothing of the other hands beyond what was played or
    publicly paid."""
    deal = match.deals[-1]
    observation = match.observation(seat)
    assert observation.seat == seat
    assert observation.hand == deal.hand(seat)
    expected_history = tuple(
        event
        for event in deal.events
        if (event.kind != EventKind.RETURN or seat in (event.seat, event.to))
        and (event.kind != EventKind.TRIBUTE_PAID or seat == event.seat)
    )
    assert observation.history == expected_history
    for event in observation.history:
        assert event.visible_to(seat)
    if observation.legal_actions:
        assert deal.current_player == seat
        assert observation.legal_actions == tuple(deal.legal_actions())
        for action in observation.legal_actions:
            assert action.seat == seat
            used = Counter(action.play.cards) if isinstance(action, PlayAction) else Counter([action.card])
            assert not used - Counter(deal.hand(seat))
    else:
        assert deal.current_player != seat or deal.phase is Phase.OVER or match.is_over
    allowed = set(deal.hand(seat)) | set(public_cards(deal, seat))
    leaked = {card for card in shown_cards(observation) if card not in allowed}
    assert not leaked, f"seat {seat} sees {leaked}"
    assert observation.card_counts == tuple(deal.card_count(other) for other in range(4))
    assert observation.levels == (match.levels[0], match.levels[1])
    assert observation.level == deal.level
    assert observation.current_player == deal.current_player
    assert observation.deal_number == len(match.deals)
    assert observation.finished == tuple(deal.finished)


def test_observation_shows_the_own_hand() -> None:
    """docs/rules/competition.md#hidden-information (摜彈, 比賽通則 四（三）1): 牌手未出的牌張應完全面向自己 —
    each seat sees its own hand, all 27 cards."""
    match = Match()
    match.deal(FAST, 0)
    for seat in range(4):
        observation = match.observation(seat)
        assert observation.hand == FAST[seat]
        assert len(observation.hand) == 27


def test_observation_before_the_first_deal_shows_no_cards() -> None:
    """Before anything is dealt, no seat holds or sees a card."""
    observation = Match().observation(2)
    assert observation.hand == ()
    assert observation.history == ()
    assert observation.deal_number == 0
    assert observation.current_player is None
    with pytest.raises(ValueError, match="seat"):
        Match().observation(4)


def test_observation_never_reveals_another_seats_cards_over_a_whole_random_match() -> None:
    """docs/rules/competition.md#hidden-information (摜彈, 比賽通則 四（三）1): 不得有意或無意暴露牌張 — no
    field of any seat's observation (history events, the play to beat, legal actions) shows a card of another
    hand beyond what was played or publicly paid; a return card is seen only by the two seats it passes
    between. Checked for every seat after every action of a random match (random legal actions), until a team
    passes A."""
    rng = random.Random(2024)
    match = Match()
    actions = 0
    returns = 0
    while not match.is_over:
        match.deal_random(rng)
        while match.current_deal is not None:
            for seat in range(4):
                check_observation(match, seat)
            action = rng.choice(match.legal_actions())
            returns += isinstance(action, ReturnAction)
            match.apply(action)
            actions += 1
        for seat in range(4):
            check_observation(match, seat)
    assert match.passed_ace
    assert actions > 300
    assert returns > 0


def test_a_seats_history_is_the_log_it_may_see_at_every_step() -> None:
    """``deal.history(seat)``, kept up as the log grows, is the log filtered by what the seat may see,
    for every seat after every action of random deals with tribute and return."""
    rng = random.Random(7)
    match = Match(max_deals=4)
    returns = 0
    while not match.is_over:
        match.deal_random(rng)
        while (deal := match.current_deal) is not None:
            for seat in range(4):
                assert deal.history(seat) == tuple(event for event in deal.events if event.visible_to(seat))
            action = rng.choice(match.legal_actions())
            returns += isinstance(action, ReturnAction)
            match.apply(action)
    assert returns > 0


def test_observation_does_not_depend_on_the_other_hands() -> None:
    """An observation is a function of what the seat may know: exchanging cards between two other hands (equal
    counts) leaves seat 0's observation unchanged, before and after public plays."""
    other = list(FAST)
    other[1], other[3] = FAST[3], FAST[1]
    first, second = Match(), Match()
    first.deal(FAST, 0)
    second.deal((other[0], other[1], other[2], other[3]), 0)
    assert first.observation(0) == second.observation(0)
    for match in (first, second):
        play_cards(match, 0, eight("A"))
        pass_turn(match)
        pass_turn(match)
    assert first.observation(0) == second.observation(0)
    assert first.observation(2) == second.observation(2)
    assert first.observation(1) != second.observation(1)


@pytest.mark.parametrize(("partner_place", "payers"), [(3, 1), (2, 2)])
def test_return_card_visible_only_to_the_two_seats_involved(partner_place: int, payers: int) -> None:
    """docs/rules/competition.md#hidden-information: the 上游 returns one card to the payer; 摜彈, 比賽通則
    三.2: 還牌時，應將牌面向下 — a return is passed face down: only the giver and the receiver see the card;
    the tribute itself is public (兩位進貢者同時亮牌)."""
    rng = random.Random(11)
    match = Match()
    play_match_deal(match, rng, 0, partner_place)
    hands = build_hands("HR", "HR", "", "")
    deal = match.deal(hands)
    while deal.phase is Phase.TRIBUTE:
        seat = deal.current_player
        assert seat is not None
        for watcher in range(4):
            assert not [
                event for event in match.observation(watcher).history if event.kind == EventKind.TRIBUTE
            ]
        action = deal.legal_actions()[0]
        assert isinstance(action, TributeAction)
        match.apply(action)
    tributes = [event for event in deal.events if event.kind == EventKind.TRIBUTE]
    assert len(tributes) == payers
    for watcher in range(4):
        assert [e for e in match.observation(watcher).history if e.kind == EventKind.TRIBUTE] == tributes
    while deal.phase is Phase.RETURN:
        seat = deal.current_player
        assert seat is not None
        action = deal.legal_actions()[0]
        assert isinstance(action, ReturnAction)
        match.apply(action)
    returns = [event for event in deal.events if event.kind == EventKind.RETURN]
    assert len(returns) == payers
    for event in returns:
        assert event.seat is not None
        assert event.to is not None
        involved = {event.seat, event.to}
        for watcher in range(4):
            history = match.observation(watcher).history
            assert (event in history) is (watcher in involved)
    for watcher in range(4):
        check_observation(match, watcher)


def test_pending_double_tribute_is_not_shown_before_both_have_paid() -> None:
    """docs/rules/competition.md#hidden-information (摜彈, 比賽通則 三.2): in a double tribute
    兩位進貢者同時亮牌 — the first payer's card is not shown (to anyone but the payer's own hand count) until
    both have paid."""
    rng = random.Random(12)
    match = Match()
    play_match_deal(match, rng, 0, 2)
    deal = match.deal(build_hands("HR", "", "HR", ""))
    assert deal.phase is Phase.TRIBUTE
    first = deal.current_player
    assert first is not None
    action = deal.legal_actions()[0]
    assert isinstance(action, TributeAction)
    match.apply(action)
    assert deal.phase is Phase.TRIBUTE
    for watcher in range(4):
        observation = match.observation(watcher)
        shown = [event.card for event in observation.history]
        assert shown == ([action.card] if watcher == first else [])
        assert observation.card_counts[first] == 26
        check_observation(match, watcher)


def test_card_counts_levels_and_whose_turn() -> None:
    """docs/rules/competition.md#hidden-information: the public state is each hand's count, both teams'
    levels, the level rank and the player to act; ``legal_actions`` only for the seat to act."""
    rng = random.Random(13)
    match = Match()
    play_match_deal(match, rng, 1, 3)
    match.deal(shuffled(rng))
    for seat in range(4):
        observation = match.observation(seat)
        assert observation.levels == (match.levels[0], match.levels[1])
        assert observation.levels[1] > observation.levels[0]
        assert observation.level == match.levels[1]
        assert observation.level_team == 1
        assert observation.deal_number == 2
        assert observation.current_player == match.current_player
        assert observation.card_counts == (27, 27, 27, 27)
        assert bool(observation.legal_actions) is (seat == match.current_player)


def test_the_first_deals_turned_card_and_its_holder_are_public_through_that_deal() -> None:
    """docs/rules/competition.md#first-lead: in a first deal the player who receives a card turned face up at
    random leads. 摜彈, 比賽通則 二.2: 南家切牌並翻出一張牌 … 抓到翻出牌張者首圈領出牌 — the card is turned
    face up, so every seat knows who holds it; later deals turn none."""
    rng = random.Random(21)
    match = Match()
    hands, (holder, card) = shuffled_hands(rng)
    match.deal(hands, holder, card)
    for seat in range(4):
        assert match.observation(seat).turned == (holder, card)
    match.apply(match.legal_actions()[0])
    assert all(match.observation(seat).turned == (holder, card) for seat in range(4))
    while match.current_deal is not None and match.current_deal.phase is Phase.PLAY:
        match.apply(rng.choice(match.legal_actions()))
    match.deal(shuffled(rng))
    assert all(match.observation(seat).turned is None for seat in range(4))


def test_a_first_deal_without_a_turned_card_shows_none() -> None:
    """A first deal whose leader was named without a turned card (a set-up position) has nothing to show."""
    match = Match()
    match.deal(FAST, 0)
    assert match.observation(1).turned is None


def shuffled(rng: random.Random) -> Hands:
    hands, _ = shuffled_hands(rng)
    return hands[0], hands[1], hands[2], hands[3]


def test_announced_counts_are_the_seats_with_ten_or_fewer_cards() -> None:
    """docs/rules/competition.md#card-count: a player left with 10 cards or fewer after a play announces how
    many (报牌). 摜彈, 比賽通則 五: 牌手在出完一手牌後，如手中剩餘牌不超過10張，應立即 ... 報出剩餘張數。"""
    match = Match()
    match.deal(FAST, 0)
    assert match.observation(1).announced_counts == {}
    play_cards(match, 0, eight("A"))
    pass_turn(match)
    pass_turn(match)
    pass_turn(match)
    play_cards(match, 0, eight("K"))
    pass_turn(match)
    pass_turn(match)
    pass_turn(match)
    assert match.observation(1).card_counts[0] == 11
    assert match.observation(1).announced_counts == {}
    play_cards(match, 0, "SJ")
    for seat in range(4):
        assert match.observation(seat).announced_counts == {0: 10}
    pass_turn(match)
    pass_turn(match)
    pass_turn(match)
    play_cards(match, 0, eight("Q"))
    assert match.observation(3).announced_counts == {0: 2}
    pass_turn(match)
    pass_turn(match)
    pass_turn(match)
    play_cards(match, 0, "HJ CJ")
    observation = match.observation(2)
    assert observation.finished == (0,)
    assert observation.card_counts[0] == 0
    assert observation.announced_counts == {}


def test_history_is_the_current_deals_log() -> None:
    """The history an observation carries is the deal's log as the seat may see it, in order."""
    match = Match()
    match.deal(FAST, 0)
    play_cards(match, 0, "SQ")
    pass_turn(match)
    observation = match.observation(3)
    assert [event.kind.value for event in observation.history] == ["play", "pass"]
    assert observation.history[0] == Event(EventKind.PLAY, seat=0, play=reading(match.deals[-1], "SQ"))
    assert observation.previous == reading(match.deals[-1], "SQ")
    assert observation.previous_seat == 0


def test_the_previous_deals_places_are_public_in_a_deal_with_tribute() -> None:
    """docs/rules/competition.md#hidden-information: who pays whom and who leads after the tribute follow from
    the previous deal's finishing order, which every seat saw; each seat's observation carries it (``None`` in
    the first deal)."""
    rng = random.Random(7)
    match = Match(max_deals=4)
    while not match.is_over:
        match.deal_random(rng)
        expected = match.summaries[-1].result.places if match.summaries else None
        while match.current_deal is not None:
            for seat in range(4):
                assert match.observation(seat).previous_places == expected
            match.apply(rng.choice(match.legal_actions()))
    assert len(match.summaries) == 4


@pytest.mark.parametrize("rules", [COMPETITION, HUOPIN], ids=lambda rules: rules.name)
def test_the_listed_plays_are_the_legal_actions_made_when_read(rules: RuleSet) -> None:
    """A lead lists every legal play (over ten thousand in Huopin) without making them all: the list
    holds what ``legal_actions`` holds, finds an action as iterating would, gives its plays without
    actions (``plays``), and pickles as the tuple."""
    match = Match(rules)
    match.deal_random(random.Random(3))
    seat = match.current_player
    assert seat is not None
    listed = match.observation(seat).legal_actions
    every = tuple(match.legal_actions())
    assert listed == every
    assert len(listed) == len(every) > 100
    assert isinstance(listed, LegalPlays)
    assert listed.plays.to_list() == [action.play for action in every]
    rng = random.Random(4)
    for action in rng.sample(every, 50):
        assert isinstance(action, PlayAction)
        assert action in listed
        assert PlayAction((seat + 1) % 4, action.play) not in listed
        assert PlayAction(seat, action.play._replace(level=None)) not in listed
    assert "S3" not in listed
    assert PlayAction(seat, PASS) not in listed
    assert pickle.loads(pickle.dumps(match.observation(seat))) == match.observation(seat)
    assert match.observation((seat + 1) % 4).legal_actions == ()
    match.apply(every[0])
    following = match.current_player
    assert following is not None
    answers = match.observation(following).legal_actions
    assert PlayAction(following, PASS) in answers
    assert list(answers) == list(match.legal_actions())
