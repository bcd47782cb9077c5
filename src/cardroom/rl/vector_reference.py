"""The batched environment in Python (docs/rl.md, "The batched environment"): the reference the compiled
batch (:mod:`cardroom.rl.vector`) is held to, and what serves where the core is not built.

Each table is a :class:`~cardroom.guandan.match.Match` stepped by :meth:`Match.apply`; its observation
is :func:`~cardroom.rl.encoding.encode_observation` of ``match.observation(seat)``, its mask
:func:`~cardroom.rl.actions.legal_action_mask`, its cards :func:`~cardroom.rl.actions.action_of`, its
rewards :func:`~cardroom.rl.session.team_rewards`. The deals come from :class:`CoreRandom`, the core's
generator written again in Python, so a table dealt from the same seed holds the same cards in both.
Run it under :func:`cardroom.guandan.native.pure_engine` (or with ``CARDROOM_PURE=1``) and every answer
is the pure engine's: that is how the tests cross-check the core.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Final

import numpy as np
import numpy.typing as npt

from cardroom.cards import ALL_CARDS, Card, sort_cards
from cardroom.guandan.deal import Phase
from cardroom.guandan.match import Match, MatchPhase
from cardroom.guandan.observation import Observation
from cardroom.guandan.ruleset import RuleSet
from cardroom.rl.actions import NUM_ACTIONS, action_of, legal_action_mask
from cardroom.rl.batch import (
    PLAYERS,
    Batch,
    Seeds,
    VectorOptions,
    checked_actions,
    illegal_action,
    sample_legal,
    table_seeds,
)
from cardroom.rl.encoding import OBSERVATION_SIZE, encode_observation
from cardroom.rl.session import team_rewards

_MASK64: Final = (1 << 64) - 1
_CARD_KINDS: Final = len(ALL_CARDS)
"""The 54 distinct cards: the last axis of the god's-view counts."""
_DECK: Final = tuple(ALL_CARDS[index // 2] for index in range(2 * _CARD_KINDS))
"""Both decks in the order the core's shuffle starts from: each card index twice."""


class CoreRandom:
    """xoshiro256** seeded through splitmix64, with Lemire's unbiased bounded draw: the generator of
    native/src/deal.cpp (``Random``), so both batches deal the same cards from the same seed."""

    __slots__ = ("state",)

    def __init__(self, seed: int) -> None:
        words = []
        x = seed & _MASK64
        for _ in range(4):
            x = (x + 0x9E3779B97F4A7C15) & _MASK64
            z = x
            z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK64
            z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK64
            words.append(z ^ (z >> 31))
        self.state = words

    def next(self) -> int:
        """The next 64-bit output."""
        s = self.state
        result = (_rotl((s[1] * 5) & _MASK64, 7) * 9) & _MASK64
        t = (s[1] << 17) & _MASK64
        s[2] ^= s[0]
        s[3] ^= s[1]
        s[1] ^= s[2]
        s[0] ^= s[3]
        s[2] ^= t
        s[3] = _rotl(s[3], 45)
        return result

    def below(self, bound: int) -> int:
        """Uniform in ``[0, bound)``."""
        product = self.next() * bound
        low = product & _MASK64
        if low < bound:
            threshold = ((1 << 64) - bound) % bound
            while low < threshold:
                product = self.next() * bound
                low = product & _MASK64
        return product >> 64


def _rotl(x: int, k: int) -> int:
    return ((x << k) | (x >> (64 - k))) & _MASK64


def core_shuffled_hands(random: CoreRandom) -> tuple[tuple[tuple[Card, ...], ...], int]:
    """The core's deal (``shuffled_hands``): both decks shuffled by Fisher-Yates from the top, dealt
    round the table from seat 0, and a turned card drawn whose holder leads the first deal: (hands in
    print order, leader)."""
    deck = list(_DECK)
    for i in range(len(deck) - 1, 0, -1):
        j = random.below(i + 1)
        deck[i], deck[j] = deck[j], deck[i]
    hands = tuple(sort_cards(deck[seat::PLAYERS]) for seat in range(PLAYERS))
    return hands, random.below(len(deck)) % PLAYERS


@dataclass
class _Table:
    random: CoreRandom
    match: Match
    matches: int = 1
    observation: Observation | None = None
    """The seat to act's observation, as the batch last encoded it (the next step reads its action there)."""


class ReferenceVectorEnv:
    """:class:`cardroom.rl.vector.VectorEnv`'s API in Python: ``num_envs`` matches stepped one by one."""

    engine: Final = "pure"

    def __init__(
        self,
        num_envs: int,
        rules: RuleSet | str = "competition",
        reward: str = "deal",
        max_deals: int | None = None,
        *,
        dtype: object = np.int8,
    ) -> None:
        self.options = VectorOptions.of(num_envs, rules, reward, max_deals, dtype)
        count = num_envs
        self._tables: list[_Table] = []
        self._seeds = np.zeros(count, dtype=np.uint64)
        self._observation = np.zeros((count, OBSERVATION_SIZE), dtype=self.options.dtype)
        self._mask = np.zeros((count, NUM_ACTIONS), dtype=np.int8)
        self._rewards = np.zeros((count, PLAYERS), dtype=np.float32)
        self._current = np.full(count, -1, dtype=np.int8)
        self._terminated = np.zeros(count, dtype=bool)
        self._deal_over = np.zeros(count, dtype=bool)
        self.batch = Batch(
            *(
                _read_only(array)
                for array in (
                    self._current,
                    self._observation,
                    self._mask,
                    self._rewards,
                    self._terminated,
                    self._deal_over,
                )
            )
        )

    @property
    def num_envs(self) -> int:
        return self.options.num_envs

    @property
    def seeds(self) -> npt.NDArray[np.uint64]:
        """Each table's seed, as :meth:`reset` set it."""
        return _read_only(self._seeds)

    def reset(self, seed: Seeds = None) -> Batch:
        """Seed every table (``seed``: one integer the tables' seeds are drawn from, or one per table) and
        deal its first match."""
        self._seeds[:] = table_seeds(seed, self.num_envs)
        self._tables = []
        for index, table_seed in enumerate(self._seeds):
            random = CoreRandom(int(table_seed))
            self._tables.append(_Table(random, self._new_match(random)))
            self._rewards[index] = 0.0
            self._write(index)
        self._terminated[:] = False
        self._deal_over[:] = False
        return self.batch

    def step(self, actions: object) -> Batch:
        """Apply one table index per table for its seat to act; every action is checked before any
        table moves (:class:`~cardroom.rl.actions.IllegalActionError` names the first wrong one)."""
        if not self._tables:
            raise RuntimeError("reset() the environment before stepping it")
        chosen = checked_actions(actions, self.num_envs)
        for index, action in enumerate(chosen):
            if not 0 <= action < NUM_ACTIONS or not self._mask[index, action]:
                raise illegal_action(index, int(action), int(self._current[index]))
        for index, action in enumerate(chosen):
            self._step_table(index, int(action))
        return self.batch

    def random_actions(self, rng: np.random.Generator) -> npt.NDArray[np.int64]:
        """One legal entry per table, uniform over its mask (the same draw as the compiled batch's)."""
        return sample_legal(self._mask, rng.random(self.num_envs))

    def _new_match(self, random: CoreRandom) -> Match:
        match = Match(self.options.rules, max_deals=self.options.max_deals)
        hands, leader = core_shuffled_hands(random)
        match.deal(hands, leader)
        return match

    def _step_table(self, index: int, action: int) -> None:
        table = self._tables[index]
        match = table.match
        deals = len(match.summaries)
        assert table.observation is not None
        match.apply(action_of(action, table.observation, check=False))
        self._rewards[index] = np.repeat(team_rewards(match, deals, self.options.reward), 2)[[0, 2, 1, 3]]
        self._deal_over[index] = len(match.summaries) > deals
        self._terminated[index] = match.is_over
        if match.is_over:
            table.match = self._new_match(table.random)
            table.matches += 1
        elif match.phase is MatchPhase.DEALING:
            hands, _ = core_shuffled_hands(table.random)
            match.deal(hands)
        self._write(index)

    def _write(self, index: int) -> None:
        table = self._tables[index]
        seat = table.match.current_player
        assert seat is not None
        table.observation = table.match.observation(seat)
        self._observation[index] = encode_observation(table.observation)
        self._mask[index] = legal_action_mask(table.observation)
        self._current[index] = seat

    # -- a god's view, for tests and debugging ----------------------------------------------------

    def hands(self) -> npt.NDArray[np.uint8]:
        """Every table's four hands as counts per card (``(num_envs, 4, 54)``)."""
        counts = [0] * (self.num_envs * PLAYERS * _CARD_KINDS)
        for index, table in enumerate(self._tables):
            deal = table.match.deals[-1]
            for seat in range(PLAYERS):
                start = (index * PLAYERS + seat) * _CARD_KINDS
                for card, count in deal.hands[seat].items():
                    counts[start + card.index] += count
        return _counts_array(counts, (self.num_envs, PLAYERS, _CARD_KINDS))

    def played(self) -> npt.NDArray[np.uint8]:
        """The cards each seat has played in the deal in play (``(num_envs, 4, 54)``)."""
        counts = [0] * (self.num_envs * PLAYERS * _CARD_KINDS)
        for index, table in enumerate(self._tables):
            for event in table.match.deals[-1].events:
                if event.play is not None and event.seat is not None:
                    start = (index * PLAYERS + event.seat) * _CARD_KINDS
                    for card in event.play.cards:
                        counts[start + card.index] += 1
        return _counts_array(counts, (self.num_envs, PLAYERS, _CARD_KINDS))

    def pending(self) -> npt.NDArray[np.uint8]:
        """Tributes laid face down while the other payer has yet to pay (``(num_envs, 54)``)."""
        counts = [0] * (self.num_envs * _CARD_KINDS)
        for index, table in enumerate(self._tables):
            for card in table.match.deals[-1].pending_tributes.values():
                counts[index * _CARD_KINDS + card.index] += 1
        return _counts_array(counts, (self.num_envs, _CARD_KINDS))

    def progress(self) -> npt.NDArray[np.int64]:
        """Per table: both teams' levels, whose level is played (-1: nobody's), the deal's level, the
        deal's number in its match, matches begun since the seed, the phase (0 tribute, 1 return, 2
        play)."""
        rows = np.zeros((self.num_envs, 7), dtype=np.int64)
        phases = {Phase.TRIBUTE: 0, Phase.RETURN: 1, Phase.PLAY: 2}
        for index, table in enumerate(self._tables):
            match = table.match
            deal = match.deals[-1]
            team = -1 if match.level_team is None else match.level_team
            rows[index] = (
                *match.levels,
                team,
                deal.level,
                len(match.deals),
                table.matches,
                phases[deal.phase],
            )
        return rows


def _counts_array(counts: list[int], shape: tuple[int, ...]) -> npt.NDArray[np.uint8]:
    """Counts gathered in a flat list (a Python int adds faster than a numpy element), as an array."""
    return np.array(counts, dtype=np.uint8).reshape(shape)


def _read_only(array: npt.NDArray[Any]) -> npt.NDArray[Any]:
    view = array.view()
    view.flags.writeable = False
    return view


__all__ = ["CoreRandom", "ReferenceVectorEnv", "core_shuffled_hands"]
