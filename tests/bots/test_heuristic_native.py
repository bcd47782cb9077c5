"""The heuristic bot's play-phase decision in the compiled core (native/src/heuristic.cpp) against the pure
one, its reference (:meth:`cardroom.bots.HeuristicBot.pure_play`): on many thousands of decisions the
two choose the same :class:`Play` — kind, key rank, the very cards and the wild cards' readings.

The decisions come from heuristic self-play matches with tribute and return (every seat), deals at every
level 2…A after a tribute, deals played at random (odd hands, bombs, straight flushes, jokers, nearly
empty hands, a partner already out), hand-built rich positions (bombs, straight flushes, jokers and wild
cards in one hand), observations that leave the legal actions out (as search playouts pass them) and
every preset rule set; a few hundred more are decided by the pure engine throughout
(:func:`cardroom.guandan.native.pure_engine`). Each category must compare many decisions and the
branches of the policy (plan-breaking follows, bombs, 接风, going out, fallback leads, …) must come up,
so that the comparison cannot pass vacuously. The core's own view of a deal
(``heuristic::seen_of``, bound as ``Deal.heuristic_seen``) and its count of the unseen cards
(``heuristic_unseen``) are checked against the Python ones.

Without the extension these tests skip, unless ``CARDROOM_REQUIRE_NATIVE=1`` (``make test``) makes that
a failure.
"""

from __future__ import annotations

import functools
import random
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field, replace
from types import ModuleType

import pytest

from cardroom.bots import heuristic
from cardroom.bots.heuristic import HeuristicBot, unseen_counts
from cardroom.bots.planning import Unit
from cardroom.cards import BIG_JOKER, NATURAL_RANKS, SMALL_JOKER, Card, Rank, Suit, full_deck
from cardroom.guandan import native
from cardroom.guandan.deal import Deal, Event, EventKind, Phase, PlayAction
from cardroom.guandan.match import Match, shuffled_hands
from cardroom.guandan.moves import is_legal, legal_play_set
from cardroom.guandan.observation import Observation
from cardroom.guandan.plays import PASS, Play, PlayKind
from cardroom.guandan.rankplays import RankPlay
from cardroom.guandan.readings import classify
from cardroom.guandan.ruleset import COMPETITION, HUOPIN, PRESETS, RuleSet
from tests.bots.test_heuristic import position as seat_zero_position

DECK = full_deck()

# -- tracing the reference's branches --------------------------------------------------------------


@dataclass
class Tally:
    """Decisions compared per category, and the branches of the reference that made them."""

    decisions: Counter[str] = field(default_factory=Counter)
    branches: Counter[str] = field(default_factory=Counter)


_trace: dict[str, object] = {}
"""What the traced reference did in the decision under way (reset before each)."""


class TracingTable(heuristic._Table):
    """The reference's table, noting what its helpers returned."""

    def going_out(self) -> PlayAction | None:
        result = super().going_out()
        _trace["going out"] = result
        return result

    def smallest_bomb(self) -> PlayAction | None:
        result = super().smallest_bomb()
        _trace["smallest bomb"] = result
        return result

    def fallback_lead(self) -> PlayAction:
        result = super().fallback_lead()
        _trace["fallback lead"] = result
        return result

    def find(self, kind: PlayKind, rank: Rank, cards: Sequence[Card]) -> PlayAction | None:
        result = super().find(kind, rank, cards)
        if result is not None and (result.play.kind is not kind or result.play.rank != rank):
            _trace["other reading"] = result  # read_as failed: the cards' first legal reading
        return result

    def play_rank(self, option: RankPlay) -> PlayAction | None:
        result = super().play_rank(option)
        _trace["break weighed"] = True
        return result


class TracingBot(HeuristicBot):
    """The reference, noting which special cases returned a play."""

    def _feed_partner(self, table: heuristic._Table) -> PlayAction | None:
        result = super()._feed_partner(table)
        _trace["feed"] = result
        return result

    def _break_to_beat(self, table: heuristic._Table, previous: Play, threatened: bool) -> PlayAction | None:
        result = super()._break_to_beat(table, previous, threatened)
        _trace["break"] = result
        return result

    @staticmethod
    def _bomb_wins_out(table: heuristic._Table, bomb: Unit) -> bool:
        result = HeuristicBot._bomb_wins_out(table, bomb)
        _trace["bomb wins out"] = result
        return result


@pytest.fixture
def traced(core: ModuleType) -> Iterator[TracingBot]:
    """A traced reference bot (its table traced too); the core must be loaded."""
    saved = heuristic._Table
    heuristic._Table = TracingTable  # type: ignore[misc]
    try:
        yield TracingBot(random.Random(0))
    finally:
        heuristic._Table = saved  # type: ignore[misc]


def branches_of(observation: Observation, chosen: Play) -> list[str]:
    """The branches of the reference that led to ``chosen`` (read from the trace)."""
    found: list[str] = []
    previous = observation.previous
    seat = observation.seat
    partner = (seat + 2) % 4
    found.append("lead" if previous is None else "follow")
    if chosen.is_pass:
        found.append("pass")
    elif chosen.kind.is_bomb:
        found.append("bomb" if previous is not None else "bomb lead")
    if chosen.wild_count:
        found.append("wild card")
    if any(card.rank.is_joker for card in chosen.cards):
        found.append("joker")
    if chosen.kind is PlayKind.STRAIGHT_FLUSH:
        found.append("straight flush")
    if observation.card_counts[partner] == 0:
        found.append("partner out")
    if previous is not None and observation.previous_seat == partner and not chosen.is_pass:
        found.append("cover or out on the partner")
    for name in ("feed", "break", "going out", "smallest bomb", "fallback lead", "other reading"):
        action = _trace.get(name)
        if isinstance(action, PlayAction) and action.play == chosen:
            found.append(name)
    if _trace.get("break weighed"):
        found.append("break weighed")
    if previous is not None and chosen.kind.is_bomb and not {"going out", "smallest bomb"} & set(found):
        found.append("bomb wins out" if _trace.get("bomb wins out") else "bomb on threat")
    return found


def compare(bot: TracingBot, observation: Observation, tally: Tally, category: str) -> PlayAction:
    """Decide both ways; fail unless the plays are identical. Returns the reference's action."""
    _trace.clear()
    pure = bot.pure_play(observation)
    branches = branches_of(observation, pure.play)
    made = bot.play(observation)
    where = (
        f"{category}: seat {observation.seat}, level {observation.level.letter}, rules "
        f"{observation.rules.name}, hand {' '.join(map(str, observation.hand))}, counts "
        f"{observation.card_counts}, previous {observation.previous!r} by {observation.previous_seat}"
    )
    unseen = unseen_counts(observation.hand, observation.history, observation.level)
    core_unseen = native.CORE.heuristic_unseen(  # type: ignore[union-attr]
        observation.hand, observation.history, observation.level, EventKind.PLAY
    )
    assert core_unseen == unseen, where
    assert type(made) is PlayAction, where
    assert type(made.play) is Play, where
    assert made.seat == pure.seat, where
    assert made.play == pure.play, f"{where}\npure:   {pure.play!r}\nnative: {made.play!r}"
    assert made.play.stands_for == pure.play.stands_for, where
    assert made.play.key == pure.play.key, where
    assert [type(value) for value in made.play] == [type(value) for value in pure.play], where
    tally.decisions[category] += 1
    tally.branches.update(branches)
    return pure


# -- observations ----------------------------------------------------------------------------------


def observe(deal: Deal, seat: int, rules: RuleSet, *, listed: bool = True) -> Observation:
    """``seat``'s observation of ``deal`` outside a match (the legal actions left out unless ``listed``)."""
    last = deal.last_play
    counts = tuple(deal.card_count(other) for other in range(4))
    return Observation(
        seat=seat,
        hand=deal.hand(seat),
        level=deal.level,
        levels=(deal.level, deal.level),
        level_team=seat % 2,
        deal_number=2,
        phase=deal.phase,
        current_player=deal.current_player,
        card_counts=(counts[0], counts[1], counts[2], counts[3]),
        finished=tuple(deal.finished),
        previous=last[1] if last else None,
        previous_seat=last[0] if last else None,
        history=deal.history(seat),
        legal_actions=deal.listed_actions(seat) if listed else (),
        rules=rules,
    )


def unlisted(observation: Observation) -> Observation:
    return replace(observation, legal_actions=())


def random_places(rng: random.Random) -> list[int]:
    places = [0, 1, 2, 3]
    rng.shuffle(places)
    return places


def play_deal(
    bot: TracingBot,
    deal: Deal,
    rules: RuleSet,
    rng: random.Random,
    tally: Tally,
    category: str,
    *,
    follow_heuristic: float,
    unlisted_share: float = 0.25,
) -> None:
    """Play ``deal`` to its end, comparing every play-phase decision (tribute and return by the bot);
    each turn applies the reference's play with probability ``follow_heuristic``, else a random legal
    action. A share of the decisions is compared without the legal actions listed as well."""
    while deal.phase is not Phase.OVER:
        seat = deal.current_player
        assert seat is not None
        observation = observe(deal, seat, rules)
        if deal.phase is not Phase.PLAY:
            deal.apply(bot.act(observation))
            continue
        action = compare(bot, observation, tally, category)
        assert is_legal(observation.hand, action.play, observation.previous, observation.level, rules)
        if rng.random() < unlisted_share:
            again = compare(bot, unlisted(observation), tally, "unlisted")
            assert again == action, "the unlisted observation chose another play"
        if rng.random() >= follow_heuristic:
            action = rng.choice(deal.legal_actions())  # type: ignore[assignment]
        deal.apply(action)


# -- categories ------------------------------------------------------------------------------------


def self_play(bot: TracingBot, tally: Tally, seed: int, deals: int, rules: RuleSet = COMPETITION) -> None:
    """Heuristic self-play matches (every seat) with tribute and return, as Match drives them."""
    rng = random.Random(seed)
    played = 0
    while played < deals:
        match = Match(rules, max_deals=12)
        while not match.is_over and played < deals:
            match.deal_random(rng)
            while match.current_deal is not None:
                seat = match.current_player
                assert seat is not None
                observation = match.observation(seat)
                if observation.phase is Phase.PLAY:
                    action = compare(bot, observation, tally, f"self-play {rules.name}")
                    assert action in observation.legal_actions
                    match.apply(action)
                else:
                    match.apply(bot.act(observation))
            played += 1


def every_level(bot: TracingBot, tally: Tally, seed: int, per_level: int) -> None:
    """Deals at each level 2…A after a tribute from random places: mostly the heuristic's plays."""
    rng = random.Random(seed)
    for level in NATURAL_RANKS:
        for _ in range(per_level):
            hands, _ = shuffled_hands(rng)
            deal = Deal(hands, level, COMPETITION, previous_places=random_places(rng))
            play_deal(bot, deal, COMPETITION, rng, tally, "every level", follow_heuristic=0.8)


def random_play(bot: TracingBot, tally: Tally, seed: int, deals: int, rules: RuleSet = COMPETITION) -> None:
    """Deals played mostly at random at random levels: odd hands, broken bombs, nearly empty hands."""
    rng = random.Random(seed)
    for _ in range(deals):
        hands, (holder, _) = shuffled_hands(rng)
        level = rng.choice(NATURAL_RANKS)
        deal = Deal(hands, level, rules, leader=holder)
        play_deal(bot, deal, rules, rng, tally, f"random play {rules.name}", follow_heuristic=0.2)


def rich_hand(rng: random.Random, level: Rank, size: int) -> list[Card]:
    """A hand of ``size`` cards heavy in bombs, straight flushes, jokers and wild cards; or (one time in
    ten) a long run of one suit with a few more cards, whose plan may hold a plain straight of one suit
    that the hand cannot play as a straight (the reference's fallbacks)."""
    wild = Card(level, Suit.HEARTS)
    pool = list(DECK)
    chosen: list[Card] = []

    def take(card: Card) -> None:
        if card in pool and len(chosen) < size:
            pool.remove(card)
            chosen.append(card)

    if rng.random() < 0.1:
        suit = rng.choice(list(Suit))
        low = rng.randint(2, 7)
        size = 27
        for value in range(low, rng.randint(low + 5, 14) + 1):
            if Card(Rank(value), suit) is not wild:
                take(Card(Rank(value), suit))
        for _ in range(rng.randint(0, 3)):
            take(Card(Rank(rng.randint(2, 14)), rng.choice((suit, suit, rng.choice(list(Suit))))))
        return chosen

    for _ in range(rng.randint(0, 2)):
        take(wild)
    for joker in (SMALL_JOKER, BIG_JOKER):
        for _ in range(rng.choice((0, 0, 1, 2))):
            take(joker)
    for _ in range(rng.randint(0, 2)):  # bombs
        rank = rng.choice(NATURAL_RANKS)
        for card in [card for card in pool if card.rank is rank and card is not wild][: rng.randint(3, 8)]:
            take(card)
    for _ in range(rng.randint(0, 2)):  # runs of one suit
        low = rng.randint(1, 10)
        suit = rng.choice(list(Suit))
        for position in range(low, low + 5):
            if rng.random() < 0.85:
                take(Card(Rank(14 if position == 1 else position), suit))
    rng.shuffle(pool)
    while len(chosen) < size:
        take(pool[0])
    return chosen


def rich_positions(bot: TracingBot, tally: Tally, seed: int, count: int, rules: RuleSet) -> None:
    """Hand-built positions: the seat to act holds a rich hand of 1–27 cards, the others random hands
    (the partner sometimes out), the rest of the cards played as singles, and a play to beat from a
    random hand (or none)."""
    rng = random.Random(seed)
    category = f"rich positions {rules.name}"

    @functools.cache
    def single(card: Card, level: Rank) -> Play:
        """The card's reading as a single, made once a level: the histories hold most of a deck each."""
        return classify([card], level, rules)[0]

    for _ in range(count):
        level = rng.choice(NATURAL_RANKS)
        seat = rng.randrange(4)
        partner = (seat + 2) % 4
        hand = rich_hand(rng, level, rng.choice((rng.randint(1, 27), rng.randint(1, 8))))
        rest = Counter(DECK)
        rest.subtract(hand)
        pool = sorted(rest.elements(), key=lambda card: card.index)
        rng.shuffle(pool)
        counts = [0, 0, 0, 0]
        counts[seat] = len(hand)
        for other in range(4):
            if other != seat:
                counts[other] = rng.choice((rng.randint(1, 27), rng.randint(1, 5)))
        if rng.random() < 0.2:
            counts[partner] = 0
        others: dict[int, list[Card]] = {}
        for other in range(4):
            if other != seat:
                others[other], pool = pool[: counts[other]], pool[counts[other] :]
        history = tuple(
            Event(EventKind.PLAY, seat=rng.randrange(4), play=single(card, level)) for card in pool
        )
        previous: Play | None = None
        previous_seat: int | None = None
        if rng.random() < 0.7:
            previous_seat = rng.choice([other for other in range(4) if other != seat])
            source = others[previous_seat] or pool[: rng.randint(1, 10)]
            if source:
                previous = rng.choice(legal_play_set(source, None, level, rules))  # one Play made, not all
            else:
                previous_seat = None
        observation = Observation(
            seat=seat,
            hand=tuple(sorted(hand, key=lambda card: card.index)),
            level=level,
            levels=(level, level),
            level_team=0,
            deal_number=1,
            phase=Phase.PLAY,
            current_player=seat,
            card_counts=(counts[0], counts[1], counts[2], counts[3]),
            finished=(partner,) if counts[partner] == 0 else (),
            previous=previous,
            previous_seat=previous_seat,
            history=history,
            legal_actions=(),
            rules=rules,
        )
        action = compare(bot, observation, tally, category)
        assert is_legal(observation.hand, action.play, previous, level, rules), action


# -- the tests -------------------------------------------------------------------------------------

BRANCHES = {
    "lead": 2000,
    "follow": 2000,
    "pass": 1000,
    "bomb": 100,
    "bomb lead": 20,
    "wild card": 200,
    "joker": 200,
    "straight flush": 10,
    "partner out": 200,
    "cover or out on the partner": 30,
    "feed": 10,
    "break": 100,
    "break weighed": 300,
    "going out": 50,
    "smallest bomb": 5,
    "bomb wins out": 10,
    "bomb on threat": 50,
    "other reading": 1,
}
"""The least number of decisions each branch of the reference must make across the comparison."""


@pytest.mark.slow
def test_the_core_chooses_the_references_play(traced: TracingBot) -> None:
    tally = Tally()
    self_play(traced, tally, seed=101, deals=50)
    every_level(traced, tally, seed=102, per_level=2)
    random_play(traced, tally, seed=103, deals=40)
    for name in sorted(set(PRESETS) - {"competition"}):
        self_play(traced, tally, seed=104, deals=8, rules=PRESETS[name])
        random_play(traced, tally, seed=105, deals=6, rules=PRESETS[name])
    for rules in (COMPETITION, HUOPIN):
        rich_positions(traced, tally, seed=106, count=2000, rules=rules)
    print(dict(tally.decisions), dict(tally.branches))
    least = {
        "self-play competition": 3000,
        "every level": 2000,
        "random play competition": 3000,
        "unlisted": 2000,
        "rich positions competition": 2000,
        "rich positions huopin": 2000,
        **{
            f"{kind} {name}": 300
            for name in set(PRESETS) - {"competition"}
            for kind in ("self-play", "random play")
        },
    }
    for category, number in least.items():
        assert tally.decisions[category] >= number, (category, tally.decisions[category])
    for branch, number in BRANCHES.items():
        assert tally.branches[branch] >= number, (branch, tally.branches[branch])


def edge_observation(
    hand: str, level: Rank, previous: str | None, counts: tuple[int, int, int, int]
) -> Observation:
    """Seat 0 to play ``hand``; ``previous`` played by seat 1, an opponent; no legal actions listed."""
    previous_seat = None if previous is None else 1
    observation = seat_zero_position(
        hand, previous=previous, previous_seat=previous_seat, counts=counts, level=level
    )
    return replace(observation, legal_actions=())


RUN = "C2 C3 C4 C5 C6 C7 C8 C9 CT CJ CQ CK CA C9 C5"
"""At level 4 planned as the straight flushes A-5 and 5-9 and a plain straight 9-K of clubs alone: the
straight cannot be played as one (five clubs are a straight flush), so the reference falls back."""


def test_edge_positions(traced: TracingBot) -> None:
    """Hand-built positions for the rarest branches: a planned straight that the hand cannot play as a
    straight (the fallback lead; a follow that must break or bomb instead)."""
    tally = Tally()
    for counts in ((0, 20, 20, 20), (0, 1, 20, 2), (0, 5, 1, 9)):
        compare(traced, edge_observation(RUN, Rank.FOUR, None, counts), tally, "edge")
        for previous in ("S8 H9 DT SJ HQ", "S7 H8 D9 ST HJ", "D8", "D7 D7"):
            compare(traced, edge_observation(RUN, Rank.FOUR, previous, counts), tally, "edge")
    assert tally.branches["fallback lead"] == 3
    assert tally.decisions["edge"] == 15


def test_the_pure_engine_throughout_agrees(core: ModuleType) -> None:
    """A few hundred decisions whose reference runs on the pure engine and planner throughout."""
    rng = random.Random(107)
    bot = HeuristicBot(random.Random(0))
    compared = 0
    for rules in (COMPETITION, HUOPIN):
        for _ in range(2):
            hands, (holder, _) = shuffled_hands(rng)
            deal = Deal(hands, rng.choice(NATURAL_RANKS), rules, leader=holder)
            while deal.phase is Phase.PLAY:
                seat = deal.current_player
                assert seat is not None
                observation = observe(deal, seat, rules, listed=False)
                made = bot.play(observation)
                with native.pure_engine():
                    pure = HeuristicBot(random.Random(0)).pure_play(observation)
                assert made == pure, observation
                compared += 1
                deal.apply(pure if rng.random() < 0.5 else rng.choice(list(deal.legal_actions())))
    assert compared >= 200


def test_the_core_reads_a_deal_as_the_seat_to_act_sees_it(core: ModuleType) -> None:
    """``heuristic::seen_of`` against the Python view (hand, counts, unseen cards from the history, the
    play to beat and its seat, level), and the core's own decision on it against the reference, over
    deals played in the core and in Python side by side."""
    rng = random.Random(108)
    bot = HeuristicBot(random.Random(0))
    compared = 0
    for number, name in enumerate(sorted(PRESETS) * 2):
        rules = PRESETS[name]
        hands, (holder, _) = shuffled_hands(rng)
        level = NATURAL_RANKS[(5 * number) % len(NATURAL_RANKS)]
        deal = Deal(hands, level, rules, leader=holder)
        inside = native.deal_machine(hands, level, rules, leader=holder)
        while deal.phase is Phase.PLAY:
            seat = deal.current_player
            assert seat is not None
            observation = observe(deal, seat, rules, listed=False)
            cards, counts, unseen, at, previous, previous_seat, seen_level = inside.heuristic_seen()
            assert tuple(cards) == observation.hand
            assert tuple(counts) == observation.card_counts
            assert unseen == unseen_counts(observation.hand, observation.history, level)
            assert at == seat
            assert seen_level == level
            assert previous == observation.previous
            assert previous_seat == (-1 if observation.previous is None else observation.previous_seat)
            reference = bot.pure_play(observation)
            assert inside.heuristic_play() == reference.play
            compared += 1
            action = reference
            if rng.random() >= 0.6:
                chosen = rng.choice(list(deal.legal_actions()))
                assert isinstance(chosen, PlayAction)
                action = chosen
            deal.apply(action)
            inside.play(action.play)
    assert compared >= 500


def test_the_core_decision_keeps_the_reference_checks(core: ModuleType) -> None:
    """A seat not to play is refused before the core is asked; a bot whose thresholds differ from the
    defaults gives them to the core."""
    match = Match(COMPETITION)
    match.deal_random(random.Random(3))
    seat = match.current_player
    assert seat is not None
    with pytest.raises(ValueError, match="not to play"):
        HeuristicBot(random.Random(0)).play(match.observation((seat + 1) % 4))
    tuned = HeuristicBot(random.Random(0))
    tuned.bomb_threat, tuned.break_gain, tuned.break_candidates, tuned.feed_partner_at = 27, -9.0, 1, 1
    tuned.block_threat, tuned.break_gain_threatened = 27, -9.0
    rng = random.Random(109)
    differ = compared = 0
    default = HeuristicBot(random.Random(0))
    for _ in range(4):
        hands, (holder, _) = shuffled_hands(rng)
        deal = Deal(hands, rng.choice(NATURAL_RANKS), COMPETITION, leader=holder)
        while deal.phase is Phase.PLAY:
            seat = deal.current_player
            assert seat is not None
            observation = observe(deal, seat, COMPETITION, listed=False)
            made = tuned.play(observation)
            assert made == tuned.pure_play(observation)
            differ += made != default.pure_play(observation)
            compared += 1
            deal.apply(made if rng.random() < 0.5 else rng.choice(list(deal.legal_actions())))
    assert compared >= 200
    assert differ >= 20


AT_LENGTH: dict[str, tuple[Callable[[TracingBot, Tally, RuleSet], None], int]] = {
    "self-play": (lambda bot, tally, rules: self_play(bot, tally, seed=201, deals=150, rules=rules), 10_000),
    "random play": (
        lambda bot, tally, rules: random_play(bot, tally, seed=202, deals=150, rules=rules),
        20_000,
    ),
    "rich positions": (lambda bot, tally, rules: rich_positions(bot, tally, 203, 10_000, rules), 10_000),
    "every level": (lambda bot, tally, _: every_level(bot, tally, seed=204, per_level=10), 12_000),
}
"""The long comparison, one test per rule set and part (so that xdist's workers share them): how each
part plays, and the least number of decisions it must compare (each part makes a few more)."""


@pytest.mark.slow
@pytest.mark.parametrize(
    ("name", "part"),
    [
        (name, part)
        for name in sorted(PRESETS)
        for part in AT_LENGTH
        if part != "every level" or name == "competition"
    ],
)
def test_the_core_chooses_the_references_play_at_length(traced: TracingBot, name: str, part: str) -> None:
    tally = Tally()
    play, least = AT_LENGTH[part]
    play(traced, tally, PRESETS[name])
    assert sum(tally.decisions.values()) >= least, dict(tally.decisions)


def test_pass_is_the_python_pass(core: ModuleType) -> None:
    """A pass from the core is the PASS value itself."""
    hand = [Card(Rank.THREE, Suit.SPADES)]
    previous = classify([Card(Rank.ACE, Suit.SPADES)], Rank.TWO)[0]
    unseen = unseen_counts(hand, (), Rank.TWO)
    play = core.heuristic_play(
        hand, (1, 5, 5, 5), unseen, 0, previous, 1, Rank.TWO, native.play_parameters(COMPETITION)
    )
    assert play is PASS
