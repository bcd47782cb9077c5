"""The search bot: the heuristic corrected by rollouts, and its playouts."""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import replace
from itertools import count, islice

import pytest

from cardroom.bots import Bot, HeuristicBot, RandomBot, SearchBot, search
from cardroom.bots.evaluation import position_value
from cardroom.bots.playout import observe_position, play_out, play_trick
from cardroom.bots.sampling import HandSampler, sample_hands, sample_position
from cardroom.bots.search import MAX_CANDIDATES, PLAN_LEADS, alternatives, top_follow
from cardroom.cards import Card
from cardroom.guandan.deal import Action, Deal, EventKind, Phase, PlayAction, TributeAction
from cardroom.guandan.match import Match
from cardroom.guandan.observation import Observation
from cardroom.guandan.plays import PASS, Play
from cardroom.guandan.ruleset import COMPETITION, PRESETS
from cardroom.guandan.tribute import TributePlan


def play_deal(bots: list[Bot], rng: random.Random) -> tuple[list[Action], int]:
    """One fresh deal with these bots, every action through the validator: (actions, 上游's team)."""
    match = Match(COMPETITION, max_deals=1)
    match.deal_random(rng)
    actions = []
    while match.current_deal is not None:
        seat = match.current_player
        assert seat is not None
        observation = match.observation(seat)
        action = bots[seat].act(observation)
        assert match.can(action)
        match.apply(action)
        actions.append(action)
    return actions, match.summaries[0].result.winning_team


def midgame(seed: int, rules_name: str = "competition", moves: int = 25) -> Match:
    rng = random.Random(seed)
    match = Match(PRESETS[rules_name])
    match.deal_random(rng)
    for _ in range(moves):
        match.apply(rng.choice(match.legal_actions()))
    return match


@pytest.mark.parametrize("name", sorted(PRESETS))
def test_a_playout_from_a_sampled_position_ends_the_deal_with_legal_actions(name: str) -> None:
    match = midgame(2, name)
    seat = match.current_player
    assert seat is not None
    observation = match.observation(seat)
    deal = sample_position(observation, random.Random(1))
    play_out(deal, HeuristicBot(random.Random(0)), observation)  # Deal.apply validates every action
    assert deal.phase is Phase.OVER
    assert deal.result is not None
    assert any(deal.card_count(first) == deal.card_count(first + 2) == 0 for first in (0, 1))


def test_a_position_observation_shows_the_seat_only_its_own_hand() -> None:
    match = midgame(3)
    seat = match.current_player
    assert seat is not None
    observation = match.observation(seat)
    deal = sample_position(observation, random.Random(2))
    other = (seat + 1) % 4
    seen = observe_position(deal, other, observation)
    assert seen.hand == deal.hand(other)
    assert seen.legal_actions == ()
    mine = observe_position(deal, seat, observation)
    assert mine.hand == observation.hand
    assert set(mine.legal_actions) == set(observation.legal_actions)
    assert mine.history == observation.history


def test_play_trick_stops_at_the_next_lead_or_the_end_of_the_deal() -> None:
    policy = HeuristicBot(random.Random(0))
    stopped_at_lead = 0
    for seed in range(8):
        match = midgame(seed, moves=9)
        seat = match.current_player
        assert seat is not None
        observation = match.observation(seat)
        deal = sample_position(observation, random.Random(seed))
        last = observation.legal_actions[-1]
        assert isinstance(last, PlayAction)
        deal.apply(last)
        before = len(deal.events)
        play_trick(deal, policy, observation)
        assert deal.phase is Phase.OVER or deal.last_play is None
        kinds = [event.kind.value for event in deal.events[before:]]
        assert kinds.count("trick") <= 1
        if deal.phase is Phase.PLAY:
            stopped_at_lead += 1
            assert kinds[-1:] == ["trick"]
            after = len(deal.events)
            play_trick(deal, policy, observation)
            assert len(deal.events) == after
    assert stopped_at_lead >= 6


def test_alternatives_are_legal_distinct_from_the_proposal_and_pass_first_when_following() -> None:
    for seed in range(6):
        match = midgame(seed, moves=9)
        seat = match.current_player
        assert seat is not None
        observation = match.observation(seat)
        proposal = HeuristicBot(random.Random(0)).act(observation)
        assert isinstance(proposal, PlayAction)
        found = alternatives(observation, proposal.play)
        assert proposal.play not in found
        for play in found:
            assert match.can(PlayAction(seat, play))
        shapes = [(play.kind, len(play.cards)) for play in found if play != PASS]
        assert len(shapes) == len(set(shapes))
        if observation.previous is not None and proposal.play != PASS:
            assert found[0] == PASS


def leading_position(seed: int) -> Match:
    """A position where the seat to act leads a trick, after some random play."""
    match = midgame(seed, moves=9)
    rng = random.Random(seed)
    while match.observation(match.current_player or 0).previous is not None:
        match.apply(rng.choice(match.legal_actions()))
    return match


def test_the_heuristics_lead_options_are_its_plan_as_distinct_legal_leads() -> None:
    bot = HeuristicBot(random.Random(0))
    for seed in range(6):
        match = leading_position(seed)
        seat = match.current_player
        assert seat is not None
        observation = match.observation(seat)
        options = bot.lead_options(observation)
        assert options
        assert len(options) == len(set(options))
        for action in options:
            assert action in observation.legal_actions
        plan = bot.planner(observation.level).plan(observation.hand)
        assert len(options) <= len(plan.units)
        assert sum(len(action.play.cards) for action in options) <= len(observation.hand)


def test_lead_options_are_refused_when_following() -> None:
    match = leading_position(1)
    match.apply(match.legal_actions()[-1])
    seat = match.current_player
    assert seat is not None
    observation = match.observation(seat)
    assert observation.previous is not None
    with pytest.raises(ValueError, match="leads a trick"):
        HeuristicBot(random.Random(0)).lead_options(observation)


def test_a_lead_weighs_the_heuristics_next_plan_plays_first() -> None:
    bot = HeuristicBot(random.Random(0))
    weighed = 0
    for seed in range(6):
        match = leading_position(seed)
        observation = match.observation(match.current_player or 0)
        proposal = bot.act(observation)
        assert isinstance(proposal, PlayAction)
        planned = [action.play for action in bot.lead_options(observation)]
        found = alternatives(observation, proposal.play, planned)
        expected = [play for play in planned if play != proposal.play][:PLAN_LEADS]
        assert found[: len(expected)] == expected
        weighed += len(expected)
        assert proposal.play not in found
        assert len(found) == len(set(found))
    assert weighed >= 6


def test_the_candidates_are_the_proposal_then_alternatives_up_to_max_candidates() -> None:
    for seed in range(4):
        match = leading_position(seed)
        observation = match.observation(match.current_player or 0)
        proposal = HeuristicBot(random.Random(0)).act(observation)
        assert isinstance(proposal, PlayAction)
        wide = SearchBot(random.Random(0), max_candidates=8).candidates(observation, proposal.play)
        assert wide[0] == proposal.play
        assert len(wide) == len(set(wide)) > 2
        for breadth in (1, 2, MAX_CANDIDATES):
            assert (
                SearchBot(random.Random(0), max_candidates=breadth).candidates(observation, proposal.play)
                == wide[:breadth]
            )


def following_positions(count: int) -> list[Match]:
    """Positions where the seat to act follows a plain play that some plain play of its hand beats."""
    found = []
    for seed in range(200):
        match = midgame(seed, moves=9 + seed % 7)
        observation = match.observation(match.current_player or 0)
        previous = observation.previous
        if previous is None or previous.kind.is_bomb:
            continue
        if any(
            isinstance(action, PlayAction) and not action.play.is_pass and not action.play.kind.is_bomb
            for action in observation.legal_actions
        ):
            found.append(match)
        if len(found) == count:
            return found
    raise AssertionError("too few following positions")


def test_top_follow_is_the_highest_legal_plain_play_that_beats_the_play_to_follow() -> None:
    """顶牌, checked against the full list of legal actions."""
    for match in following_positions(8):
        observation = match.observation(match.current_player or 0)
        top = top_follow(observation)
        assert top is not None
        assert match.can(PlayAction(observation.seat, top))
        assert observation.previous is not None
        assert top.kind is observation.previous.kind
        assert len(top.cards) == len(observation.previous.cards)
        plain = [
            action.play
            for action in observation.legal_actions
            if isinstance(action, PlayAction) and not action.play.is_pass and not action.play.kind.is_bomb
        ]
        assert top.key == max(play.key for play in plain)


def test_top_follow_is_none_when_leading() -> None:
    match = leading_position(0)
    assert top_follow(match.observation(match.current_player or 0)) is None


def test_following_weighs_top_follow_once_and_only_when_asked() -> None:
    for match in following_positions(6):
        observation = match.observation(match.current_player or 0)
        proposal = HeuristicBot(random.Random(0)).act(observation)
        assert isinstance(proposal, PlayAction)
        top = top_follow(observation)
        assert top is not None
        weighed = SearchBot(random.Random(0)).candidates(observation, proposal.play)
        without = SearchBot(random.Random(0), top_follow=False).candidates(observation, proposal.play)
        assert weighed.count(top) == 1
        assert weighed[: len(without)] == without
        assert weighed == without if top in without else weighed == [*without, top]
        assert SearchBot(random.Random(0), max_candidates=1).candidates(observation, proposal.play) == [
            proposal.play
        ]


def test_a_search_with_one_candidate_plays_the_heuristics_choice() -> None:
    match = leading_position(0)
    observation = match.observation(match.current_player or 0)
    assert SearchBot(random.Random(0), max_candidates=1).act(observation) == HeuristicBot(
        random.Random(0)
    ).act(observation)


def test_a_bad_bar_or_breadth_is_refused() -> None:
    with pytest.raises(ValueError, match=r"bar must not be negative, got min_gain=-0\.1"):
        SearchBot(random.Random(0), min_gain=-0.1)
    with pytest.raises(ValueError, match="confidence_z=-1"):
        SearchBot(random.Random(0), confidence_z=-1)
    with pytest.raises(ValueError, match="max_candidates must be at least 1"):
        SearchBot(random.Random(0), max_candidates=0)


def test_search_makes_only_legal_actions_and_is_deterministic_under_a_seed() -> None:
    def bots() -> list[Bot]:
        return [SearchBot(random.Random(seat), samples=2) for seat in range(4)]

    first = play_deal(bots(), random.Random(3))
    assert first == play_deal(bots(), random.Random(3))


def test_search_beats_random_players() -> None:
    """A sanity check of strength, not the benchmark: four deals against random bots."""
    rng = random.Random(4)
    won = 0
    for deal in range(4):
        bots: list[Bot] = [
            SearchBot(random.Random(deal * 4 + seat), samples=2)
            if seat % 2 == 0
            else RandomBot(random.Random(seat))
            for seat in range(4)
        ]
        _, winner = play_deal(bots, rng)
        won += winner == 0
    assert won >= 3


def test_search_needs_at_least_two_samples() -> None:
    with pytest.raises(ValueError, match="samples must be at least 2"):
        SearchBot(random.Random(0), samples=1)


class Stopwatch:
    """A clock that moves only when a sample is drawn (each costs ``step`` seconds)."""

    def __init__(self, step: float) -> None:
        self.now = 0.0
        self.step = step
        self.samples = 0

    def __call__(self) -> float:
        return self.now

    def drawn(self) -> None:
        self.now += self.step
        self.samples += 1


def samples_drawn(
    monkeypatch: pytest.MonkeyPatch, move_time: float | None = None, max_samples: int | None = None
) -> int:
    """How many samples one decision of a search with these options draws, each sample costing 10 ms
    on its clock; the evaluation keeps the first alternative ahead, so nothing is cut at halfway."""
    watch = Stopwatch(0.01)

    draw = HandSampler.sample

    def counted(sampler: HandSampler, rng: random.Random) -> list[tuple[Card, ...]]:
        watch.drawn()
        return draw(sampler, rng)

    monkeypatch.setattr(HandSampler, "sample", counted)
    calls = count()
    bot = SearchBot(
        random.Random(0),
        samples=4,
        evaluate=lambda *_: float(next(calls)),
        move_time=move_time,
        max_samples=max_samples,
        clock=watch,
    )
    match = leading_position(0)
    observation = match.observation(match.current_player or 0)
    proposal = bot.proposer.act(observation)
    assert isinstance(proposal, PlayAction)
    candidates = bot.candidates(observation, proposal.play)
    assert len(candidates) > 1
    bot.weigh(observation, candidates)
    return watch.samples


def test_without_a_move_time_the_search_draws_exactly_its_samples(monkeypatch: pytest.MonkeyPatch) -> None:
    assert samples_drawn(monkeypatch) == 4


def test_with_a_move_time_the_search_draws_samples_while_the_next_one_fits(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Anytime: after its ``samples``, another while the time spent and one more sample's (at the mean
    time a sample took) stay within ``move_time``."""
    assert samples_drawn(monkeypatch, move_time=0.095) == 9
    assert samples_drawn(monkeypatch, move_time=0.095, max_samples=6) == 6
    assert samples_drawn(monkeypatch, move_time=0.02) == 4, "the samples are drawn however short the time"


def test_a_bad_move_time_or_sample_cap_is_refused() -> None:
    with pytest.raises(ValueError, match="move_time: seconds, more than 0"):
        SearchBot(random.Random(0), move_time=0)
    with pytest.raises(ValueError, match=r"max_samples \(8\) must not be below samples \(16\)"):
        SearchBot(random.Random(0), max_samples=8)


def trick_end_value(observation: Observation, sample: int, play: Play, policy: HeuristicBot) -> float:
    """The value of ``play`` on the sample drawn with seed ``sample``, the heuristic playing on."""
    after = sample_position(observation, random.Random(sample))
    after.apply(PlayAction(observation.seat, play))
    play_trick(after, policy, observation)
    return position_value(after, observation.seat, policy.planner(observation.level))


def test_a_searched_follow_is_legal_and_worth_at_least_the_heuristics_on_the_sample() -> None:
    """The team's own follows in the playouts (searched_follow): a legal play of the seat to act, the
    heuristic's unless another is worth strictly more on the sample; over many positions, sometimes
    another."""
    policy = HeuristicBot(random.Random(0))
    others = 0
    for match in following_positions(12):
        seat = match.current_player
        assert seat is not None
        observation = match.observation(seat)
        planner = policy.planner(observation.level)
        for sample in range(4):
            deal = sample_position(observation, random.Random(sample))
            chosen = search.searched_follow(deal, policy, observation, position_value, planner)
            assert PlayAction(seat, chosen) in deal.legal_actions()
            proposal = policy.play(observe_position(deal, seat, observation, listed=False)).play
            if chosen != proposal:
                others += 1
                worth = [trick_end_value(observation, sample, play, policy) for play in (chosen, proposal)]
                assert worth[0] > worth[1]
    assert others >= 3


def selfplay_observations(rules_name: str, rng: random.Random) -> Iterator[Observation]:
    """The observation of each seat to act in heuristic self-play matches (up to 12 deals each), without
    end; the heuristic plays it when the caller asks for the next."""
    bots = [HeuristicBot(rng) for _ in range(4)]
    while True:
        match = Match(PRESETS[rules_name], max_deals=12)
        match.deal_random(rng)
        while not match.is_over:
            if match.current_deal is None:
                match.deal_random(rng)
                continue
            seat = match.current_player
            assert seat is not None
            observation = match.observation(seat)
            yield observation
            match.apply(bots[seat].act(observation))


def return_decisions(rules_name: str, count: int, seed: int) -> list[Observation]:
    """Observations of seats about to return a card (还贡), from heuristic self-play matches."""
    returns = (o for o in selfplay_observations(rules_name, random.Random(seed)) if o.phase is Phase.RETURN)
    return list(islice(returns, count))


@pytest.mark.parametrize("name", sorted(PRESETS))
def test_the_leader_the_returning_seat_foresees_is_the_one_who_leads(name: str) -> None:
    """TributePlan.leader, read from the observation at the last return due: once the returns are
    made, exactly that seat leads; while another receiver's return is to come, no leader is named."""
    foreseen = unknown = 0
    expected: int | None = None
    for observation in selfplay_observations(name, random.Random(13)):
        if observation.phase is Phase.RETURN:
            leader = search.return_leader(observation)
            if leader is None:
                unknown += 1
            else:
                expected = leader
        elif expected is not None:
            assert observation.phase is Phase.PLAY
            assert observation.seat == expected
            foreseen += 1
            expected = None
            if foreseen == 12:
                break
    assert unknown >= 1


def test_without_the_previous_places_only_a_single_tributes_payer_is_named() -> None:
    """An observation from the competition protocol carries no previous places: after a single tribute
    its payer leads (rule sets that excuse no payer); otherwise no leader is named."""
    single = 0
    for observation in return_decisions("competition", 60, 3):
        blind = replace(observation, previous_places=None)
        tributes = [event for event in observation.history if event.kind.value == "tribute"]
        if len(tributes) == 1:
            single += 1
            assert search.return_leader(blind) == tributes[0].seat
        else:
            assert search.return_leader(blind) is None
    assert single >= 10
    for observation in return_decisions("classic", 5, 3):
        assert search.return_leader(replace(observation, previous_places=None)) is None


def test_the_search_returns_a_legal_card_deterministically_and_sometimes_another_than_the_heuristic() -> None:
    differs = 0
    decisions = [o for o in return_decisions("competition", 100, 7) if search.return_leader(o) is not None]
    for number, observation in enumerate(decisions):
        chosen = SearchBot(random.Random(number)).act(observation)
        assert chosen in observation.legal_actions
        assert SearchBot(random.Random(number)).act(observation) == chosen
        heuristic = HeuristicBot(random.Random(0)).act(observation)
        assert SearchBot(random.Random(number), return_search=False).act(observation) == heuristic
        assert HeuristicBot(random.Random(0)).return_options(observation)[0] == heuristic
        differs += chosen != heuristic
    assert len(decisions) >= 30
    assert differs >= 1


def single_tribute_choices(rules_name: str, count: int, seed: int) -> list[Observation]:
    """Observations of a lone payer (a single tribute) with more than one card it may pay, from heuristic
    self-play matches."""
    choices = (
        o
        for o in selfplay_observations(rules_name, random.Random(seed))
        if o.phase is Phase.TRIBUTE
        and o.previous_places is not None
        and len(TributePlan.from_places(o.previous_places).payers) == 1
        and len({action.card for action in o.legal_actions if isinstance(action, TributeAction)}) > 1
    )
    return list(islice(choices, count))


def test_the_heuristics_tribute_options_are_each_legal_card_once_its_choice_first() -> None:
    for observation in single_tribute_choices("competition", 20, 5):
        options = HeuristicBot(random.Random(0)).tribute_options(observation)
        cards = [option.card for option in options]
        assert len(cards) == len(set(cards))
        assert set(options) == {
            action for action in observation.legal_actions if isinstance(action, TributeAction)
        }
        assert options[0] == HeuristicBot(random.Random(0)).act(observation)


def test_the_receiver_seen_from_the_payer_sees_what_the_deal_shows_it() -> None:
    """:func:`search.receiving`, given the receiver's real hand, is the receiver's real observation once
    a single tribute is paid (its hand, counts, history and the return cards the rules allow)."""
    compared = 0
    payer_view: Observation | None = None
    for observation in selfplay_observations("competition", random.Random(6)):
        if payer_view is not None:
            paid = next(event for event in observation.history if event.kind is EventKind.TRIBUTE)
            assert paid.card is not None
            assert paid.to == observation.seat
            seen = search.receiving(payer_view, observation.hand, paid.card, observation.seat)
            assert seen.hand == observation.hand
            assert seen.card_counts == observation.card_counts
            assert seen.history == observation.history
            assert set(seen.legal_actions) == set(observation.legal_actions)
            assert seen.phase is observation.phase
            assert seen.current_player == observation.current_player
            compared += 1
            if compared == 15:
                break
        single = observation.previous_places is not None and (
            len(TributePlan.from_places(observation.previous_places).payers) == 1
        )
        payer_view = observation if observation.phase is Phase.TRIBUTE and single else None
    assert compared == 15


def test_the_search_pays_a_legal_card_deterministically_and_the_heuristics_where_it_cannot_tell() -> None:
    """进贡 by search (``tribute_search=True``): a card of the highest rank, the same under the same seed;
    the heuristic's by default, in a double tribute and without the previous deal's places."""
    decisions = single_tribute_choices("competition", 30, 8)
    for number, observation in enumerate(decisions):
        chosen = SearchBot(random.Random(number), tribute_search=True).act(observation)
        assert chosen in observation.legal_actions
        assert SearchBot(random.Random(number), tribute_search=True).act(observation) == chosen
        heuristic = HeuristicBot(random.Random(0)).act(observation)
        assert SearchBot(random.Random(number)).act(observation) == heuristic
        blind = replace(observation, previous_places=None)
        assert SearchBot(random.Random(number), tribute_search=True).act(blind) == heuristic
    assert len(decisions) == 30
    doubles = (
        o
        for o in selfplay_observations("competition", random.Random(9))
        if o.phase is Phase.TRIBUTE
        and o.previous_places is not None
        and len(TributePlan.from_places(o.previous_places).payers) == 2
        and len(o.legal_actions) > 1
    )
    for observation in islice(doubles, 5):
        heuristic = HeuristicBot(random.Random(0)).act(observation)
        assert SearchBot(random.Random(0), tribute_search=True).act(observation) == heuristic


def test_the_tribute_value_counts_the_heuristics_return() -> None:
    """:func:`search.tribute_value`: the card paid, the receiver's return as the heuristic makes it on
    its hand, the payer to lead, valued for the payer's team."""
    observation = single_tribute_choices("competition", 1, 10)[0]
    assert observation.previous_places is not None
    receiver = TributePlan.from_places(observation.previous_places).receivers[0]
    hands = sample_hands(observation, random.Random(1))
    policy = HeuristicBot(random.Random(0))
    planner = policy.planner(observation.level)
    for option in policy.tribute_options(observation):
        after = [list(hand) for hand in hands]
        after[observation.seat].remove(option.card)
        after[receiver].append(option.card)
        returned = policy.return_options(
            search.receiving(observation, after[receiver], option.card, receiver)
        )[0]
        after[receiver].remove(returned.card)
        after[observation.seat].append(returned.card)
        deal = Deal.at_position(after, observation.level, observation.rules, current_player=observation.seat)
        expected = position_value(deal, observation.seat, planner)
        found = search.tribute_value(
            observation, hands, option.card, receiver, policy, position_value, planner
        )
        assert found == pytest.approx(expected, abs=1e-12)
