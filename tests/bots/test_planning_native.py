"""The hand planner in the compiled core (native/src/planner.cpp) against the pure one, its reference
(cardroom.bots.planning): on seeded hands of 1 to 27 cards from the two decks at every level, plus hands
forced to hold 0, 1 and 2 wild cards, jokers (four jokers too), bombs of 4 to 8 cards, straight-flush
material and sequence material dense enough that the leaf budget cuts the search, both give the same
plan: the same units in the same order, every field of the same type and value, and costs equal to the
bit (compared by ``repr``, which tells every double apart).

Without the extension these tests skip, unless ``CARDROOM_REQUIRE_NATIVE=1`` (``make test``) makes that
a failure.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from types import ModuleType

import pytest

from cardroom.bots import planning
from cardroom.bots.planning import LEAF_BUDGET, Plan, Planner, Unit
from cardroom.cards import BIG_JOKER, NATURAL_RANKS, SMALL_JOKER, Card, Rank, Suit, format_cards, full_deck

DECK = full_deck()
Hand = tuple[Card, ...]


def key_of(hand: Hand) -> tuple[int, ...]:
    return tuple(sorted(card.index for card in hand))


def assert_same_plan(level: Rank, hand: Hand) -> Plan:
    """Plan ``hand`` both ways and fail unless the plans are identical (types, values, order, bits)."""
    planner = Planner(level)
    key = key_of(hand)
    pure = planner._pure_plan(key)
    made = planner._plan(key)
    where = f"level {level.letter}, hand {format_cards(hand)}"
    assert type(made) is Plan, where
    assert all(type(unit) is Unit for unit in made.units), where
    assert repr(made) == repr(pure), f"{where}\npure:   {pure}\nnative: {made}"
    assert made == pure, where
    for mine, theirs in zip(made.units, pure.units, strict=True):
        assert [type(field) for field in mine] == [type(field) for field in theirs], where
    return made


def without(cards: list[Card], taken: list[Card]) -> list[Card]:
    rest = list(cards)
    for card in taken:
        rest.remove(card)
    return rest


def filled(rng: random.Random, level: Rank, chosen: list[Card], size: int, wilds: int) -> Hand:
    """``chosen`` (no wild card among them), exactly ``wilds`` ♥ level cards, and random other cards up
    to ``size`` cards in all."""
    wild = Card(level, Suit.HEARTS)
    others = without([card for card in DECK if card is not wild], chosen)
    extra = max(0, size - len(chosen) - wilds)
    return (*chosen, *[wild] * wilds, *rng.sample(others, extra))


def random_hands(seed: int, count: int) -> Iterator[tuple[Rank, Hand]]:
    """Hands of every size 1…27 in turn at every level in turn, holding 0, 1 and 2 wild cards in turn."""
    rng = random.Random(seed)
    for number in range(count):
        level = NATURAL_RANKS[number % len(NATURAL_RANKS)]
        size = 1 + number % 27
        yield level, filled(rng, level, [], size, min(size, number % 3))


def joker_hands(seed: int, count: int) -> Iterator[tuple[Rank, Hand]]:
    """Hands holding 0–2 small and 0–2 big jokers in turn (four jokers every ninth hand)."""
    rng = random.Random(seed)
    for number in range(count):
        level = NATURAL_RANKS[number % len(NATURAL_RANKS)]
        jokers = [SMALL_JOKER] * (number % 3) + [BIG_JOKER] * (number // 3 % 3)
        size = max(len(jokers), rng.randint(1, 27))
        yield level, filled(rng, level, jokers, size, rng.randint(0, 2))


def bomb_hands(seed: int, count: int) -> Iterator[tuple[Rank, Hand]]:
    """Hands holding one or two bombs of 4 to 8 natural cards (the level rank's at most 6: its two ♥ are
    the wild cards), with 0–2 wild cards."""
    rng = random.Random(seed)
    for number in range(count):
        level = NATURAL_RANKS[number % len(NATURAL_RANKS)]
        wild = Card(level, Suit.HEARTS)
        chosen: list[Card] = []
        for rank in rng.sample(NATURAL_RANKS, 1 + number % 2):
            pool = [card for card in DECK if card.rank is rank and card is not wild]
            chosen += rng.sample(pool, min(len(pool), 4 + number // 2 % 5))
        size = rng.randint(len(chosen), 27) if len(chosen) < 27 else 27
        yield level, filled(rng, level, chosen, size, min(2, rng.randint(0, 2), 27 - len(chosen)))


def flush_hands(seed: int, count: int) -> Iterator[tuple[Rank, Hand]]:
    """Hands holding one or two runs of five ranks of one suit (A2345 to TJQKA; some doubled, some with a
    card left out for a wild card to fill), with 0–2 wild cards."""
    rng = random.Random(seed)
    for number in range(count):
        level = NATURAL_RANKS[number % len(NATURAL_RANKS)]
        wild = Card(level, Suit.HEARTS)
        chosen: list[Card] = []
        for _ in range(1 + number % 2):
            low = rng.randint(1, 10)
            suit = Suit(rng.randrange(4))
            run = [Card(Rank(14 if position == 1 else position), suit) for position in range(low, low + 5)]
            if rng.random() < 0.3:
                run.pop(rng.randrange(5))
            for card in run:
                if card is not wild and chosen.count(card) < 2:
                    chosen.append(card)
                    if rng.random() < 0.2 and chosen.count(card) < 2:
                        chosen.append(card)
        size = rng.randint(len(chosen), 27)
        yield level, filled(rng, level, chosen, size, number % 3)


def dense_hands(seed: int, count: int) -> Iterator[tuple[Rank, Hand]]:
    """Hands of 1–3 cards of every rank and one or two wild cards: 15 to 41 cards, more than a player
    holds, and so many sequences to choose from that the search often spends its leaf budget (hands of
    at most 27 cards seldom or never do)."""
    rng = random.Random(seed)
    for number in range(count):
        level = NATURAL_RANKS[number % len(NATURAL_RANKS)]
        wild = Card(level, Suit.HEARTS)
        chosen: list[Card] = []
        for rank in NATURAL_RANKS:
            pool = [card for card in DECK if card.rank is rank and card is not wild]
            chosen += rng.sample(pool, rng.choice((1, 2, 2, 3)))
        yield level, filled(rng, level, chosen, 0, 2 - number % 4 // 3)


def test_random_hands_plan_the_same(core: ModuleType) -> None:
    """3,510 seeded hands, 135 of each size 1…27, 270 at each level, a third each with 0, 1 and 2 wild
    cards: the same plan both ways."""
    sizes: set[int] = set()
    for level, hand in random_hands(2026, 3510):
        assert_same_plan(level, hand)
        sizes.add(len(hand))
    assert sizes == set(range(1, 28))


@pytest.mark.parametrize(
    ("name", "hands", "count"),
    [("jokers", joker_hands, 540), ("bombs", bomb_hands, 520), ("straight flushes", flush_hands, 780)],
)
def test_forced_material_plans_the_same(
    core: ModuleType, name: str, hands: Callable[[int, int], Iterator[tuple[Rank, Hand]]], count: int
) -> None:
    """Hands forced to hold jokers, bombs or straight-flush material: the same plan both ways, and the
    material shows in the plans (four jokers, bombs, straight flushes of natural cards and with wild
    cards, two straight flushes)."""
    kinds: set[tuple[str, int]] = set()
    for level, hand in hands(7 + len(name), count):
        plan = assert_same_plan(level, hand)
        kinds |= {(unit.kind.name, min(unit.wilds, 1)) for unit in plan.units if unit.kind.is_bomb}
        if sum(unit.kind.name == "STRAIGHT_FLUSH" for unit in plan.units) == 2:
            kinds.add(("TWO_STRAIGHT_FLUSHES", 0))
    expected = {
        "jokers": {("FOUR_JOKERS", 0)},
        "bombs": {("BOMB", 0), ("BOMB", 1)},
        "straight flushes": {("STRAIGHT_FLUSH", 0), ("STRAIGHT_FLUSH", 1), ("TWO_STRAIGHT_FLUSHES", 0)},
    }[name]
    assert expected <= kinds


def counted_pure_plan(
    planner: Planner, hand: Hand, monkeypatch: pytest.MonkeyPatch
) -> tuple[Plan, list[int]]:
    """The pure plan of ``hand`` and the number of splits each of its searches settled."""
    settles: list[int] = []
    search, settle = planner._search, planner._settle

    def counted_search(counts: list[int], wilds: int) -> object:
        settles.append(0)
        return search(counts, wilds)

    def counted_settle(cnt: list[int], wilds: int) -> tuple[float, tuple[tuple[str, int], ...]]:
        settles[-1] += 1
        return settle(cnt, wilds)

    with monkeypatch.context() as patch:
        patch.setattr(planner, "_search", counted_search)
        patch.setattr(planner, "_settle", counted_settle)
        return planner._pure_plan(key_of(hand)), settles


@pytest.mark.slow
def test_budget_cut_searches_plan_the_same(core: ModuleType, monkeypatch: pytest.MonkeyPatch) -> None:
    """240 hands dense in sequences (15 to 41 cards): the same plan both ways; at least 30 of them have a
    search that settles more than ``LEAF_BUDGET`` splits, and for at least 3 of those the cut decides the
    plan (the pure planner with no budget plans otherwise), so the budget's semantics are compared too."""
    cut = decided = 0
    for level, hand in dense_hands(1, 240):
        planner = Planner(level)
        pure, settles = counted_pure_plan(planner, hand, monkeypatch)
        assert repr(assert_same_plan(level, hand)) == repr(pure)
        if max(settles) > LEAF_BUDGET:
            cut += 1
            with monkeypatch.context() as patch:
                patch.setattr(planning, "LEAF_BUDGET", 10**9)
                decided += repr(planner._pure_plan(key_of(hand))) != repr(pure)
    assert cut >= 30, cut
    assert decided >= 3, decided


def test_planner_plan_serves_the_core_plan(core: ModuleType) -> None:
    """``Planner.plan`` (cached) answers the core's plan, the pure one's equal, and again from its cache."""
    rng = random.Random(3)
    planner = Planner(Rank.SEVEN)
    hand = tuple(rng.sample(DECK, 27))
    first = planner.plan(hand)
    assert repr(first) == repr(planner._pure_plan(key_of(hand)))
    assert planner.plan(reversed(hand)) is first


def test_bad_hands_are_refused(core: ModuleType) -> None:
    """The core refuses a card held three times, an index outside the deck and a level outside 2…A."""
    with pytest.raises(ValueError, match="3 times"):
        core.plan_hand((5, 5, 5), 2)
    with pytest.raises(ValueError, match="index"):
        core.plan_hand((54,), 2)
    with pytest.raises(ValueError, match="level"):
        core.plan_hand((5,), 15)
