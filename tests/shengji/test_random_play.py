"""Random Shengji play with invariants, over many seeded deals (through matches, so dealers rotate):
108 cards always accounted for, 200 points conserved (attackers + dealers + kitty), every action legal
through the validator and rejected ones changing nothing, turn order, every seat playing all 25 cards
in tricks of equal plays (failed throws included), and observations that never show another hand."""

from __future__ import annotations

import itertools
import random
from collections import Counter
from collections.abc import Iterator

import pytest

from cardroom.cards import ALL_CARDS, Card
from cardroom.shengji.deal import HAND_SIZE, SEATS, Deal, Pass, Phase, Play, team_of
from cardroom.shengji.deal_errors import OutOfTurnError
from cardroom.shengji.match import Match, next_levels
from cardroom.shengji.ruleset import PRESETS, SHENGJI, ShengjiRules
from cardroom.shengji.scoring import TOTAL_POINTS
from cardroom.shengji.tricks import points
from tests.shengji.deal_helpers import random_action, snapshot

FULL_SET = [2] * len(ALL_CARDS)
"""Two of every card, by :attr:`Card.index`."""


def played_cards(deal: Deal) -> Iterator[Card]:
    for trick in deal.tricks:
        for _, cards in trick.plays:
            yield from cards
    for _, cards in deal.trick_plays:
        yield from cards


def check_cards_and_points(deal: Deal) -> None:
    """108 cards: in hands, not yet dealt, buried or played; 200 points among the same places. Counted
    by card index (a list, not Counter arithmetic: this runs after every action of every soak deal)."""
    total = [0] * len(ALL_CARDS)
    for hand in deal.hands:
        for card, count in hand.items():
            assert count > 0
            total[card.index] += count
    undealt = deal.deck[deal.dealt :] if deal.phase is Phase.DECLARE else ()
    for card in itertools.chain(undealt, deal.buried, played_cards(deal)):
        total[card.index] += 1
    assert total == FULL_SET
    if deal.phase is Phase.TRICKS:
        in_play = sum(points(cards) for _, cards in deal.trick_plays)
        in_hands = points(itertools.chain.from_iterable(hand.elements() for hand in deal.hands))
        total_points = deal.attackers_points + deal.dealers_points + deal.kitty_points + in_play + in_hands
        assert total_points == TOTAL_POINTS
        played = dict(deal.trick_plays)
        sizes = {deal.card_count(seat) + len(played.get(seat, ())) for seat in range(SEATS)}
        assert len(sizes) == 1, "every seat holds as many cards, counting the trick in play"


def check_observations(deal: Deal) -> None:
    for seat in range(SEATS):
        seen = deal.observation(seat)
        assert seen.hand == deal.hand(seat)
        assert all(event.visible_to(seat) for event in seen.history)
        assert not any(
            event.kind in ("draw", "kitty", "bury") and event.seat != seat for event in seen.history
        )
        if deal.phase is not Phase.OVER and seat != deal.dealer:
            assert seen.kitty == ()


def check_rejections(deal: Deal, rng: random.Random) -> None:
    """Out-of-turn and not-held actions raise and change nothing."""
    seat = deal.current_player
    assert seat is not None
    other = (seat + rng.randrange(1, SEATS)) % SEATS
    before = snapshot(deal)
    for action in (Pass(other), Play(other, deal.hand(other)[:1])):
        assert not deal.can(action)
        with pytest.raises(OutOfTurnError, match="turn"):
            deal.apply(action)
    if deal.phase is Phase.TRICKS:
        missing = next(card for card in ALL_CARDS if card not in deal.hands[seat])
        assert not deal.can(Play(seat, (missing,)))
    assert snapshot(deal) == before


def play_out(match: Match, rng: random.Random, stats: Counter[str]) -> Deal:
    """Play the match's current deal with random legal actions, checking every step."""
    deal = match.current_deal
    assert deal is not None
    step = 0
    while deal.phase is not Phase.OVER:
        action = random_action(deal, rng)
        assert deal.can(action), f"the random player chose an illegal action {action}"
        if step % 17 == 0:
            check_rejections(deal, rng)
            for legal in itertools.islice(deal.legal_actions(), 20):
                assert deal.can(legal)
        if step % 41 == 0:
            check_observations(deal)
        tricks_before = len(deal.tricks)
        leading = deal.phase is Phase.TRICKS and deal.lead is None
        throws_before = len(deal.failed_throws)
        match.apply(action)
        step += 1
        check_cards_and_points(deal)
        if isinstance(action, Play) and deal.phase is Phase.TRICKS:
            if len(deal.tricks) > tricks_before:
                assert deal.current_player == deal.tricks[-1].winner
            else:
                assert deal.current_player == (action.seat + 1) % SEATS
        if leading and isinstance(action, Play) and len(deal.failed_throws) > throws_before:
            assert deal.failed_throws[-1].attempted == action.cards
            assert deal.trick_plays[0] == (action.seat, deal.failed_throws[-1].played)
    check_finished(deal)
    check_observations(deal)
    stats["deals"] += 1
    stats["tricks"] += len(deal.tricks)
    return deal


def check_finished(deal: Deal) -> None:
    """The deal ends when every hand is empty: each seat played its 25 cards, every trick had four plays
    of as many cards, 200 points are in the attackers', the dealers' and the kitty's piles."""
    result = deal.result
    assert result is not None
    assert all(deal.card_count(seat) == 0 for seat in range(SEATS))
    assert deal.current_player is None
    for trick in deal.tricks:
        assert [seat for seat, _ in trick.plays] == [(trick.leader + step) % SEATS for step in range(SEATS)]
        assert len({len(cards) for _, cards in trick.plays}) == 1
    per_seat: Counter[int] = Counter()
    for trick in deal.tricks:
        for seat, cards in trick.plays:
            per_seat[seat] += len(cards)
    assert per_seat == Counter(dict.fromkeys(range(SEATS), HAND_SIZE))
    assert sum(len(trick.lead.cards) for trick in deal.tricks) == HAND_SIZE
    assert 1 <= len(deal.tricks) <= HAND_SIZE
    assert result.attackers_card_points + result.dealers_card_points + result.kitty_points == TOTAL_POINTS
    dealers = team_of(result.dealer)
    attackers_won = sum(trick.points for trick in deal.tricks if team_of(trick.winner) != dealers)
    assert attackers_won == result.attackers_card_points
    assert result.last_trick_winner == deal.tricks[-1].winner
    assert (result.kitty_multiplier > 0) == result.attackers_won_last_trick
    penalties = sum(
        throw.penalty * (1 if team_of(throw.seat) == dealers else -1) for throw in deal.failed_throws
    )
    assert result.penalty == penalties
    assert result.score == result.attackers_card_points + result.kitty_bonus + penalties
    assert [event.kind for event in deal.events[-2:]] == ["kitty_revealed", "over"]


def run_deals(count: int, seed: int, rules: ShengjiRules = SHENGJI) -> Counter[str]:
    rng = random.Random(seed)
    stats: Counter[str] = Counter()
    match = Match(rules)
    while stats["deals"] < count:
        if match.is_over:
            stats["matches"] += 1
            match = Match(rules)
        levels = list(match.levels)
        deal = match.deal_random(rng)
        assert deal.level == match.level
        play_out(match, rng, stats)
        summary = match.summaries[-1]
        assert summary == next_levels(levels, summary.result, rules)
        assert match.dealer == summary.next_dealer
        stats["failed-throw deals"] += bool(deal.failed_throws)
        stats["no trump"] += deal.trump is None
        stats["turned"] += deal.turned_card is not None
    return stats


def test_fifty_random_deals_keep_the_invariants() -> None:
    stats = run_deals(50, seed=1)
    assert stats["deals"] == 50
    assert stats["failed-throw deals"] > 0, "failed throws are exercised"


@pytest.mark.parametrize("name", [name for name in PRESETS if name != SHENGJI.name])
def test_every_preset_keeps_the_invariants(name: str) -> None:
    run_deals(10, seed=2, rules=PRESETS[name])


def test_variant_parameters_keep_the_invariants() -> None:
    rules = ShengjiRules(
        name="variant",
        self_overturn=True,
        big_jokers_over_small=False,
        skip_level_in_tractor=False,
        kitty_throw_as_single=False,
        failed_throw_penalty=30,
    )
    run_deals(10, seed=3, rules=rules)


@pytest.mark.slow
def test_a_thousand_random_deals_keep_the_invariants() -> None:
    stats = run_deals(1_000, seed=10)
    assert stats["deals"] == 1_000
    assert stats["failed-throw deals"] > 10
    assert stats["no trump"] > 0
