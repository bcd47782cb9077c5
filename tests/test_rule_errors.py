"""One base for both games' rule errors (:class:`cardroom.rule_errors.RuleError`): every error class of
either rules core derives from it, and every action either game refuses — Guandan's pure and compiled
engines alike, and Shengji's — raises an instance of it."""

from __future__ import annotations

import importlib
import pkgutil
import random
import re
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, nullcontext
from types import ModuleType
from typing import TypeVar

import pytest

import cardroom.guandan
import cardroom.shengji
from cardroom.cards import Rank
from cardroom.guandan import native
from cardroom.guandan.deal import Action, Phase, PlayAction, ReturnAction, TributeAction
from cardroom.guandan.match import Match
from cardroom.guandan.moves import legal_plays
from cardroom.guandan.plays import PASS
from cardroom.rule_errors import RuleError
from cardroom.shengji.deal import Action as ShengjiAction
from cardroom.shengji.deal import Bury, Deal, Declare, Pass, Play
from cardroom.shengji.deal import Phase as ShengjiPhase
from cardroom.shengji.match import shuffled_deck
from tests.shengji.deal_helpers import random_action

ActionT = TypeVar("ActionT")

NOT_RULE_ERRORS = {"cardroom.guandan.triple.TripleError"}
"""Errors of the rules cores that name no rule: a competition triple that is malformed (not a list of
three, an unknown type name); one well formed but unreadable is a rule error (``UnreadableTripleError``)."""


def error_classes(package: ModuleType) -> Iterator[type[Exception]]:
    """Every exception class defined in a module of ``package``."""
    for info in pkgutil.walk_packages(package.__path__, f"{package.__name__}."):
        module = importlib.import_module(info.name)
        for value in vars(module).values():
            if (
                isinstance(value, type)
                and issubclass(value, Exception)
                and value.__module__ == module.__name__
            ):
                yield value


@pytest.mark.parametrize("package", [cardroom.guandan, cardroom.shengji], ids=["guandan", "shengji"])
def test_every_rule_error_class_names_its_rule_by_a_reason_code(package: ModuleType) -> None:
    """Issue 45: each rule error class sets its own ``reason`` (docs/protocol.md, "Refusals"), a code in
    snake case, so a client can say the refusal in the player's words; no two rules of a game share one
    unless one class is the other's (the games' shared ``out_of_turn`` and ``wrong_phase``)."""
    classes = [cls for cls in error_classes(package) if issubclass(cls, RuleError)]
    by_reason: dict[str, type[RuleError]] = {}
    for cls in classes:
        assert "reason" in vars(cls), f"{cls.__qualname__} names no reason of its own"
        assert re.fullmatch(r"[a-z]+(_[a-z]+)*", cls.reason), cls.reason
        other = by_reason.setdefault(cls.reason, cls)
        assert issubclass(cls, other) or issubclass(other, cls), f"{cls} and {other} share {cls.reason}"


@pytest.mark.parametrize("package", [cardroom.guandan, cardroom.shengji], ids=["guandan", "shengji"])
def test_every_error_of_a_rules_core_is_a_rule_error(package: ModuleType) -> None:
    """Each error class of the two rules cores derives from the one base (the malformed wire triple
    aside: it names no rule)."""
    classes = {f"{cls.__module__}.{cls.__qualname__}": cls for cls in error_classes(package)}
    assert len(classes) >= 10
    for name, cls in classes.items():
        assert issubclass(cls, RuleError) or name in NOT_RULE_ERRORS, f"{name} is not a RuleError"


def test_both_games_name_the_one_base() -> None:
    """Guandan's ``RuleError`` is the base itself; Shengji's base is a subclass of it."""
    assert cardroom.guandan.RuleError is RuleError
    assert cardroom.guandan.errors.RuleError is RuleError
    assert issubclass(cardroom.shengji.ShengjiRuleError, RuleError)
    assert issubclass(RuleError, ValueError)


def refused(verify: Callable[[ActionT], object], actions: list[ActionT], seen: set[str]) -> None:
    """Verify each action; every refusal must be a :class:`RuleError`, whose class is noted in ``seen``."""
    for action in actions:
        try:
            verify(action)
        except RuleError as error:
            seen.add(type(error).__name__)
        except Exception as error:
            pytest.fail(f"{action!r} raised {type(error).__name__}, not a RuleError: {error}")


def guandan_probes(match: Match, rng: random.Random) -> list[Action]:
    """Actions to try now: the legal one from the wrong seat, tributes, returns and a pass from the seat
    to act, and plays read from its own hand and from another seat's."""
    deal = match.deals[-1]
    seat = deal.current_player
    assert seat is not None
    other = next((seat + step) % 4 for step in range(1, 4) if deal.card_count((seat + step) % 4))
    legal = rng.choice(list(match.legal_actions()))
    wrong_seat: Action = (
        PlayAction(other, legal.play) if isinstance(legal, PlayAction) else type(legal)(other, legal.card)
    )
    hand = deal.hand(seat)
    probes: list[Action] = [wrong_seat, PlayAction(seat, PASS)]
    cards = rng.sample(hand, min(2, len(hand)))
    probes += [kind(seat, card) for kind in (TributeAction, ReturnAction) for card in cards]
    for source in (hand, deal.hand(other)):
        plays = legal_plays(source, None, deal.level, match.rules)
        probes += [PlayAction(seat, play) for play in rng.sample(plays, min(3, len(plays)))]
    return probes


@pytest.mark.parametrize("engine", ["pure", "compiled"])
def test_every_action_guandan_refuses_raises_a_rule_error(
    engine: str, request: pytest.FixtureRequest
) -> None:
    """Two seeded deals of a Guandan match (the second with tribute and return): at each turn, actions
    out of turn, out of phase, not held, not beating, a leader's pass, a tribute not the highest card —
    each refused with a ``RuleError``, whichever engine reads the plays."""
    if engine == "compiled":
        request.getfixturevalue("core")  # skips without the compiled core
    rng = random.Random(41)
    match = Match()
    seen: set[str] = set()
    context: AbstractContextManager[None] = native.pure_engine() if engine == "pure" else nullcontext()
    with context:
        for _ in range(2):
            deal = match.deal_random(rng)
            while deal.phase is not Phase.OVER:
                refused(match.verify, guandan_probes(match, rng), seen)
                match.apply(rng.choice(list(match.legal_actions())))
    assert {"OutOfTurnError", "MustLeadError", "NotHeldError", "DoesNotBeatError", "WrongPhaseError"} <= seen
    assert {"IllegalTributeError", "IllegalReturnError"} <= seen


def shengji_probes(deal: Deal, rng: random.Random) -> list[ShengjiAction]:
    """Actions to try now: a pass and a play from the wrong seat, a declaration of cards that declare
    nothing, a bury, an empty play, and plays of cards from its own hand and from another seat's."""
    seat = deal.current_player
    assert seat is not None
    other = (seat + 1) % 4
    hand = deal.hand(seat)
    probes: list[ShengjiAction] = [Pass(other), Play(other, hand[:1]), Play(seat, ())]
    probes += [Declare(seat, tuple(card for card in hand if card.rank is Rank.THREE)[:1])]
    if len(hand) >= 8:
        probes.append(Bury(seat, tuple(rng.sample(hand, 8))))
    for source in (hand, deal.hand(other)):
        for size in (1, 2, 3):
            if len(source) >= size:
                probes.append(Play(seat, tuple(rng.sample(source, size))))
    return probes


def test_every_action_shengji_refuses_raises_a_rule_error() -> None:
    """A seeded Shengji deal: at each turn, actions out of turn, out of phase, declarations that declare
    nothing, cards not held, mixed suits, wrong counts, suits not followed — each refused with a
    ``RuleError``."""
    rng = random.Random(41)
    deal = Deal(shuffled_deck(rng), Rank.TWO)
    seen: set[str] = set()
    while deal.phase is not ShengjiPhase.OVER:
        refused(deal.verify, shengji_probes(deal, rng), seen)
        deal.apply(random_action(deal, rng))
    assert {"OutOfTurnError", "WrongPhaseError", "NotHeldError", "EmptyPlayError"} <= seen
    assert {"NotADeclarationError", "NotOneSuitError", "WrongCountError", "MustFollowSuitError"} <= seen
