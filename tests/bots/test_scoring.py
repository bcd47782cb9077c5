"""Scoring the search's decision rule against the outcomes of the real hands."""

from __future__ import annotations

import random
from functools import cache

import pytest

from cardroom.bots import HeuristicBot
from cardroom.bots.evaluation import places_value
from cardroom.bots.scoring import (
    LabelledDecision,
    Setting,
    choices,
    gains,
    labelled_decisions,
    main,
    mean_and_error,
    outcome,
)
from cardroom.guandan.deal import Phase, PlayAction
from cardroom.guandan.match import Match
from cardroom.guandan.ruleset import COMPETITION

OUTCOMES = {-4, -3, -2, 2, 3, 4}
"""1 + the level rise (+3/+2/+1) under the competition rules, for the team that takes 上游 or the other."""


@cache
def decisions() -> tuple[LabelledDecision, ...]:
    return tuple(labelled_decisions(deals=2, seed=5, rate=1.0))


def test_each_decision_weighs_the_heuristics_play_first_among_distinct_legal_candidates() -> None:
    assert decisions()
    for decision in decisions():
        observation = decision.observation
        assert len(decision.candidates) > 1
        assert len(set(decision.candidates)) == len(decision.candidates)
        legal = {action.play for action in observation.legal_actions}  # type: ignore[union-attr]
        assert set(decision.candidates) <= legal
        assert HeuristicBot(random.Random(0)).act(observation).play == decision.candidates[0]  # type: ignore[union-attr]
        assert len(decision.outcomes) == len(decision.candidates)
        assert set(decision.outcomes) <= OUTCOMES


def test_the_heuristics_own_play_is_labelled_with_what_really_happened() -> None:
    """The heuristic is deterministic, so its own candidate, finished by the heuristic, is the real deal."""
    match = Match(COMPETITION, max_deals=1)
    deal = match.deal_random(random.Random(5))
    bots = [HeuristicBot(random.Random(seat)) for seat in range(4)]
    positions = []
    while (seat := match.current_player) is not None:
        observation = match.observation(seat)
        action = bots[seat].act(observation)
        if observation.phase is Phase.PLAY:
            assert isinstance(action, PlayAction)
            positions.append((observation, [deal.hand(other) for other in range(4)], action.play))
        match.apply(action)
    assert deal.result is not None
    assert len(positions) > 20
    for observation, hands, play in positions[::5]:
        expected = places_value(deal.result.places, observation.seat, COMPETITION)
        assert outcome(observation, hands, play, HeuristicBot(random.Random(0))) == expected


def test_keeping_the_heuristics_play_gains_nothing_and_the_best_label_bounds_every_rule() -> None:
    chosen = choices(decisions(), Setting(4, 1.0))
    assert all(
        0 <= index < len(decision.candidates) for index, decision in zip(chosen, decisions(), strict=True)
    )
    assert gains(decisions(), [0] * len(decisions())) == [0] * len(decisions())
    best = [max(range(len(d.candidates)), key=d.outcomes.__getitem__) for d in decisions()]
    assert all(a >= b for a, b in zip(gains(decisions(), best), gains(decisions(), chosen), strict=True))


def test_a_setting_picks_among_the_candidates_its_bot_weighs() -> None:
    """Labelled with 顶牌, a setting without it never picks it, and one that weighs more candidates than
    were labelled is refused by name."""
    narrow = labelled_decisions(deals=1, seed=5, rate=1.0, candidates=2)
    assert any(len(decision.candidates) == 3 for decision in narrow), "some decisions carry 顶牌"
    with_top = choices(narrow, Setting(4, 0.0, 0.0, 2))
    assert all(0 <= index < len(d.candidates) for index, d in zip(with_top, narrow, strict=True))
    assert all(index < 2 for index in choices(narrow, Setting(4, 0.0, 0.0, 2, top_follow=False)))
    with pytest.raises(ValueError, match="labelled with fewer candidates than the setting weighs"):
        choices(narrow, Setting(4, 1.0, 0.1, 8))


def test_scoring_is_deterministic_and_the_same_over_workers() -> None:
    assert labelled_decisions(deals=1, seed=3, rate=0.5) == labelled_decisions(deals=1, seed=3, rate=0.5)
    few = list(decisions())[:8]
    assert choices(few, Setting(4, 1.0), seed=2) == choices(few, Setting(4, 1.0), seed=2, workers=2, chunk=3)


def test_settings_parse_and_bad_ones_are_named() -> None:
    assert Setting.parse("32:2.0") == Setting(32, 2.0)
    assert Setting.parse("8:1:0.2") == Setting(8, 1.0, 0.2)
    assert Setting.parse("16:1.5:0.1:6") == Setting(16, 1.5, 0.1, 6)
    assert Setting.parse("16:1.5:0.1:4:0") == Setting(16, 1.5, 0.1, 4, top_follow=False)
    assert Setting.parse("16:1.5:0.1:4:1") == Setting(16, 1.5)
    for text in ("32", "a:2", "32:2:1:x", "32:2:1:4:2", "32:2:1:4:1:0"):
        with pytest.raises(ValueError, match=f"got '{text}'"):
            Setting.parse(text)
    with pytest.raises(ValueError, match="samples must be at least 2"):
        Setting(1, 2.0).bot(random.Random(0))
    with pytest.raises(ValueError, match="must not be negative"):
        Setting(4, -1.0).bot(random.Random(0))
    with pytest.raises(ValueError, match="max_candidates must be at least 1"):
        Setting(4, 1.0, 0.1, 0).bot(random.Random(0))


def test_bad_arguments_are_refused() -> None:
    with pytest.raises(ValueError, match="rate"):
        labelled_decisions(deals=1, seed=0, rate=0.0)
    with pytest.raises(ValueError, match="deals"):
        labelled_decisions(deals=-1, seed=0)
    with pytest.raises(ValueError, match="2 choices for 1 decisions"):
        gains(list(decisions())[:1], [0, 0])
    with pytest.raises(ValueError, match="two values"):
        mean_and_error([1.0])


def test_mean_and_error() -> None:
    mean, error = mean_and_error([1.0, 2.0, 3.0, 4.0])
    assert mean == 2.5
    assert error == pytest.approx((5 / 3 / 4) ** 0.5)


def test_the_command_prints_each_setting_against_the_first(capsys: pytest.CaptureFixture[str]) -> None:
    main(
        [
            "--deals",
            "1",
            "--seed",
            "4",
            "--decisions",
            "6",
            "--setting",
            "2:1.0",
            "--setting",
            "3:0:0.1:2",
            "--workers",
            "1",
        ]
    )
    out = capsys.readouterr().out
    assert "labelled decisions from 1 deals (seed 4)" in out
    assert "2 samples, bar 0.1 at 1.0 standard errors, 4 candidates" in out
    assert "3 samples, bar 0.1 at 0.0 standard errors, 2 candidates" in out
    assert "against the first" in out
