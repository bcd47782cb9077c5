"""Random play with invariants: card conservation, turn order, every action legal, deals ending
exactly when a team is out, and level arithmetic — over many seeded random deals and matches."""

from __future__ import annotations

import json
import random
from collections import Counter

import pytest

from cardroom.cards import ALL_CARDS, Card, Rank
from cardroom.guandan.deal import Deal, EventKind, Phase, PlayAction
from cardroom.guandan.match import Match, MatchPhase
from cardroom.guandan.plays import PlayKind
from cardroom.guandan.ruleset import COMPETITION, PRESETS, AceFailure, RuleSet
from cardroom.guandan.tribute import partner, team_of
from cardroom.records import record_of, replay, result_of


def check_conservation(deal: Deal, played: list[Card]) -> None:
    """108 cards: in hands, paid face down, or played; never more, never fewer: two of each of the 54
    (counted by each card's index, without hashing a card: this runs after every tribute action of
    every soak deal)."""
    counts = [0] * len(ALL_CARDS)
    for seat, hand in enumerate(deal.hands):
        for card, count in hand.items():
            assert count >= 0, f"seat {seat} holds {count} of {card}"
            counts[card.index] += count
        if seat in deal.finished:
            assert deal.card_count(seat) == 0
    for card in deal.pending_tributes.values():
        counts[card.index] += 1
    for card in played:
        counts[card.index] += 1
    assert counts == [2] * len(ALL_CARDS), {
        str(card): counts[card.index] for card in ALL_CARDS if counts[card.index] != 2
    }


def expected_next(deal: Deal, seat: int, rules: RuleSet) -> int | None:
    """Who acts after ``seat``'s play or pass, from the rules alone."""
    if deal.phase is Phase.OVER:
        return None
    last = deal.events[-1]
    if last.kind == EventKind.TRICK:
        winner = last.seat
        assert winner is not None
        if winner not in deal.finished:
            return winner
        if rules.lead_passes_to_partner:
            return partner(winner)
        seat = winner
    for step in (1, 2, 3):
        if (seat + step) % 4 not in deal.finished:
            return (seat + step) % 4
    raise AssertionError(f"nobody is left to act after seat {seat}")


def hand_sizes(deal: Deal) -> list[int]:
    return [deal.card_count(seat) for seat in range(4)]


def check_moved(deal: Deal, action: PlayAction, before: dict[Card, int], sizes: list[int]) -> None:
    """After a play or a pass: exactly the play's cards left the player's hand (``before``: the hand's
    counts of them), and no other hand changed size (``sizes``: the hands' sizes before, brought up to
    date here)."""
    hand = deal.hands[action.seat]
    cards = action.play.cards
    for card, count in before.items():
        assert hand[card] == count - cards.count(card), (
            f"seat {action.seat} played {cards.count(card)} {card}: {count} → {hand[card]}"
        )
    sizes[action.seat] -= len(cards)
    assert hand_sizes(deal) == sizes, "only the player's hand lost cards, its play's"


def play_out(match: Match, rng: random.Random) -> Deal:
    """Play the match's current deal with uniformly random legal actions, checking every step. All 108
    cards are counted (:func:`check_conservation`) at the deal's start, after each tribute and return,
    and at its end; after each play or pass, the cards it moved and every hand's size
    (:func:`check_moved`), a fraction of the cost of counting them all after every action."""
    deal = match.deals[-1]
    rules = match.rules
    played: list[Card] = []
    check_conservation(deal, played)
    sizes = hand_sizes(deal)
    while deal.phase is not Phase.OVER:
        actions = match.legal_actions()
        assert actions, "a player to act always has a legal action"
        action = rng.choice(actions)
        assert action.seat == match.current_player
        if deal.phase is not Phase.PLAY:
            match.apply(action)
            check_conservation(deal, played)
            sizes = hand_sizes(deal)
            continue
        assert isinstance(action, PlayAction)
        hand = deal.hands[action.seat]
        before = {card: hand[card] for card in action.play.cards}
        match.apply(action)
        played += action.play.cards
        check_moved(deal, action, before, sizes)
        assert deal.current_player == expected_next(deal, action.seat, rules)
        teams_out = [team for team in (0, 1) if team in deal.finished and team + 2 in deal.finished]
        assert (deal.result is not None) == bool(teams_out), "the deal ends exactly when a team is out"
    check_conservation(deal, played)
    assert deal.result is not None
    assert sorted(deal.result.places) == [0, 1, 2, 3]
    assert list(deal.result.places[: len(deal.finished)]) == deal.finished
    return deal


class LevelModel:
    """The level arithmetic of docs/rules/competition.md#level-up, kept beside the engine: only the 上游's
    team rises by its partner's place, capped at A; a team playing its own A passes it with 上游 and the
    partner no worse than the rule set allows; failures at A (as the rule set counts them) send a team back to
    2; the classic stage rules (庄家) where the rule set has them."""

    def __init__(self, rules: RuleSet) -> None:
        self.rules = rules
        self.levels = [Rank.TWO, Rank.TWO]
        self.level_team: int | None = None
        self.on_stage_before: set[int] = set()
        self.failures = [0, 0]
        self.passed = False

    def start(self, deal: Deal) -> None:
        if deal.leader is not None and not self.on_stage_before and self.rules.first_deal_on_stage:
            self.level_team = team_of(deal.leader)
            self.on_stage_before.add(self.level_team)

    def finish(self, deal: Deal) -> None:
        assert deal.result is not None
        rules = self.rules
        first = deal.result.places[0]
        winner = team_of(first)
        partner_place = deal.result.places.index(partner(first)) + 1
        playing = self.level_team
        if (
            playing == winner
            and self.levels[winner] == Rank.ACE
            and partner_place <= rules.pass_ace_partner_place
        ):
            self.passed = True
            return
        if not (rules.first_stage_without_rise and winner not in self.on_stage_before):
            rise = rules.partner_rises[partner_place - 2]
            self.levels[winner] = Rank(min(14, self.levels[winner] + rise))
        counts = winner != playing or rules.ace_failure is AceFailure.FAILED_DEAL
        if playing is not None and deal.level == Rank.ACE and counts:
            self.failures[playing] += 1
            if rules.ace_failure_limit is not None and self.failures[playing] >= rules.ace_failure_limit:
                self.levels[playing] = Rank.TWO
                self.failures[playing] = 0
        self.level_team = winner
        self.on_stage_before.add(winner)


def play_match(rng: random.Random, rules: RuleSet = COMPETITION, max_deals: int | None = None) -> Match:
    match = Match(rules, max_deals=max_deals)
    model = LevelModel(rules)
    while not match.is_over:
        deal = match.deal_random(rng)
        model.start(deal)
        assert deal.level == (Rank.TWO if model.level_team is None else model.levels[model.level_team])
        if len(match.deals) == 1:
            assert deal.phase is Phase.PLAY
        else:
            assert deal.phase in (Phase.TRIBUTE, Phase.PLAY)
        play_out(match, rng)
        model.finish(deal)
        assert match.levels == model.levels
        assert match.passed_ace == model.passed
        assert len(match.deals) < 500, "a match always ends"
    assert match.phase is MatchPhase.OVER
    return match


def run_deals(count: int, seed: int, rules: RuleSet = COMPETITION) -> int:
    """Play ``count`` random deals (in matches of up to 10 deals); return the plays made."""
    rng = random.Random(seed)
    deals = plays = 0
    while deals < count:
        match = Match(rules, max_deals=10)
        while not match.is_over and deals < count:
            deal = match.deal_random(rng)
            play_out(match, rng)
            plays += sum(1 for event in deal.events if event.kind == EventKind.PLAY)
            deals += 1
    return plays


def test_random_deals_keep_the_invariants() -> None:
    assert run_deals(150, seed=1) > 150 * 10


def check_record_replays(match: Match) -> None:
    """Every record written replays through the engine to the same result."""
    record = record_of(match)
    report = replay(json.loads(json.dumps(record)))
    assert report.ok
    assert report.result == result_of(match)
    assert report.winner == match.winner


def test_random_matches_keep_the_invariants() -> None:
    rng = random.Random(2)
    for _ in range(3):
        match = play_match(rng)
        assert match.winner is not None
        assert match.levels[match.winner] == Rank.ACE
        assert sum(match.points()) == 28
        check_record_replays(match)


def test_random_matches_with_variant_parameters() -> None:
    rng = random.Random(3)
    variant = RuleSet(
        name="variant", lead_passes_to_partner=False, ace_failure_limit=3, pass_ace_partner_place=2
    )
    for _ in range(2):
        play_match(rng, variant)
    limited = play_match(rng, max_deals=3)
    assert len(limited.deals) >= 3


def test_first_deal_leader_holds_the_turned_card() -> None:
    rng = random.Random(4)
    for _ in range(20):
        match = Match()
        deal = match.deal_random(rng)
        assert deal.phase is Phase.PLAY
        assert deal.current_player == deal.leader
        first = match.legal_actions()
        assert all(
            action.play.kind is not PlayKind.PASS for action in first if isinstance(action, PlayAction)
        )


CHUNKS = range(4)
"""The soak runs below are cut in four chunks of a quarter each (seeded apart), so that pytest-xdist's
workers share them; the totals are in the tests' names."""


@pytest.mark.slow
@pytest.mark.parametrize("chunk", CHUNKS)
def test_ten_thousand_random_deals_keep_the_invariants(chunk: int) -> None:
    run_deals(10_000 // len(CHUNKS), seed=10_000 + chunk)


@pytest.mark.slow
@pytest.mark.parametrize("chunk", CHUNKS)
def test_two_hundred_random_matches_keep_the_invariants(chunk: int) -> None:
    rng = random.Random(11_000 + chunk)
    winners: Counter[int | None] = Counter()
    for _ in range(200 // len(CHUNKS)):
        match = play_match(rng)
        check_record_replays(match)
        winners[match.winner] += 1
    assert sum(winners.values()) == 200 // len(CHUNKS)
    assert winners[None] == 0


@pytest.mark.parametrize("name", [name for name in PRESETS if name != COMPETITION.name])
def test_every_preset_keeps_the_invariants(name: str) -> None:
    rules = PRESETS[name]
    assert run_deals(30, seed=20, rules=rules) > 30 * 10
    match = play_match(random.Random(21), rules)
    check_record_replays(match)


@pytest.mark.slow
@pytest.mark.parametrize("chunk", CHUNKS)
@pytest.mark.parametrize("name", [name for name in PRESETS if name != COMPETITION.name])
def test_every_preset_over_a_thousand_deals_and_a_hundred_matches(name: str, chunk: int) -> None:
    rules = PRESETS[name]
    run_deals(1_000 // len(CHUNKS), seed=30_000 + chunk, rules=rules)
    rng = random.Random(31_000 + chunk)
    for _ in range(100 // len(CHUNKS)):
        check_record_replays(play_match(rng, rules))
