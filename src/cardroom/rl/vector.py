"""Many Guandan tables stepped in one call (docs/rl.md, "The batched environment"): the learners'
environment.

``VectorEnv(num_envs, rules, reward, max_deals)`` keeps ``num_envs`` independent tables inside the
compiled core (native/src/vector_env.cpp). ``reset(seed)`` seeds them and ``step(actions)`` takes one
table index per table for its seat to act; both return a :class:`~cardroom.rl.batch.Batch` of NumPy
arrays the core rewrites in place: the seat to act, its observation (the encoding of
:mod:`cardroom.rl.encoding`), its legal mask over the action table (:mod:`cardroom.rl.actions`), every
seat's reward and the flags. A table whose deal ends deals the match's next deal in the same step, and
one whose match ends begins a new match, as Pgx's auto-reset does. Each table has its own seed
(``seeds``), so any table can be replayed alone. Where the core is not built the pure reference
(:class:`~cardroom.rl.vector_reference.ReferenceVectorEnv`) serves the same API.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Final

import numpy as np
import numpy.typing as npt

from cardroom.guandan import native
from cardroom.guandan.ruleset import RuleSet
from cardroom.rl.actions import NUM_ACTIONS, RETURN_BASE, TRIBUTE_BASE
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
from cardroom.rl.encoding import OBSERVATION_SIZE
from cardroom.rl.vector_reference import ReferenceVectorEnv

if TYPE_CHECKING:
    from cardroom import _core as compiled

STATE_FORMAT: Final = "cardroom-vector-state"
STATE_VERSION: Final = 1


class VectorEnv:
    """``num_envs`` Guandan tables stepped inside the compiled core.

    ``rules``: a rule set or preset name with the competition's plays (``competition``, ``classic``,
    ``platform``; ``huopin`` raises :class:`~cardroom.rl.actions.UnsupportedRulesError`); ``reward``:
    ``"deal"`` (each deal's rise, at its end) or ``"match"`` (±1 when a match ends); ``max_deals``: a match
    ends after that many deals (the match's own rule decides it); ``dtype``: the observations' ``int8``
    (the default: every entry is 0 or 1, in a quarter of float32's memory) or ``float32``.
    """

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
        self._reference: ReferenceVectorEnv | None = None
        self._core: compiled.VectorCore | None = None
        if native.CORE is None:
            self._reference = ReferenceVectorEnv(num_envs, self.options.rules, reward, max_deals, dtype=dtype)
            self.batch = self._reference.batch
            return
        core = native.vector_core(
            num_envs,
            self.options.rules,
            reward_by_match=reward == "match",
            max_deals=max_deals,
            tribute_base=TRIBUTE_BASE,
            return_base=RETURN_BASE,
            float_observations=self.options.dtype == np.float32,
        )
        self._core = core
        self.batch = Batch(
            core.current_player,
            core.observation,
            core.legal_action_mask,
            core.rewards,
            core.terminated,
            core.deal_over,
        )
        self._started = False

    @property
    def engine(self) -> str:
        """``"compiled"``, or ``"pure"`` where the core is not built (the reference serves)."""
        return "pure" if self._core is None else "compiled"

    @property
    def num_envs(self) -> int:
        return self.options.num_envs

    @property
    def observation_size(self) -> int:
        return OBSERVATION_SIZE

    @property
    def num_actions(self) -> int:
        return NUM_ACTIONS

    @property
    def seeds(self) -> npt.NDArray[np.uint64]:
        """Each table's seed: ``VectorEnv(1, …).reset(seed=[env.seeds[i]])`` fed table ``i``'s actions
        replays it."""
        if self._core is None:
            assert self._reference is not None
            return self._reference.seeds
        return self._core.seeds

    @property
    def bytes_per_table(self) -> int:
        """Memory one table takes in the core: its state and its rows of the batch's arrays."""
        if self._core is None:
            raise RuntimeError("the pure reference keeps its tables as Python objects: no fixed size")
        assert native.CORE is not None
        row = OBSERVATION_SIZE * self.options.dtype.itemsize + NUM_ACTIONS + 4 * PLAYERS + 1 + 2 + 8
        return int(native.CORE.TABLE_BYTES) + row

    def reset(self, seed: Seeds = None) -> Batch:
        """Seed every table and deal its first match: ``seed`` is one integer the tables' seeds are
        drawn from (NumPy's ``SeedSequence``; ``None``: fresh entropy), or one seed per table."""
        if self._core is None:
            assert self._reference is not None
            return self._reference.reset(seed)
        self._core.reset(table_seeds(seed, self.num_envs))
        self._started = True
        return self.batch

    def step(self, actions: object) -> Batch:
        """Apply one table index per table for its seat to act. Every action is checked before any table
        moves: an illegal one raises :class:`~cardroom.rl.actions.IllegalActionError` naming the table
        and the entry, and nothing changes."""
        if self._core is None:
            assert self._reference is not None
            return self._reference.step(actions)
        if not self._started:
            raise RuntimeError("reset() the environment before stepping it")
        chosen = checked_actions(actions, self.num_envs)
        wrong = self._core.first_illegal(chosen)
        if wrong >= 0:
            raise illegal_action(wrong, int(chosen[wrong]), int(self.batch.current_player[wrong]))
        self._core.step(chosen)
        return self.batch

    def random_actions(self, rng: np.random.Generator) -> npt.NDArray[np.int64]:
        """One legal entry per table, uniform over its mask (the random agent of the benchmarks)."""
        uniforms = rng.random(self.num_envs)
        if self._core is None:
            return sample_legal(self.batch.legal_action_mask, uniforms)
        return self._core.sample_legal(uniforms)

    # -- saving and restoring ---------------------------------------------------------------------

    def state(self) -> bytes:
        """Every table's state (cards, match, random stream) as bytes for :meth:`set_state`: a checkpoint
        of the environment, for the same options and this build of cardroom."""
        core = self._require_core("state()")
        header = json.dumps({"format": STATE_FORMAT, "version": STATE_VERSION, **self.options.describe()})
        return header.encode() + b"\n" + core.state()

    def set_state(self, state: bytes) -> Batch:
        """Restore what :meth:`state` gave; the arrays then hold each table's position (rewards and flags
        zero). A state of other options is refused, naming the difference."""
        core = self._require_core("set_state()")
        header, _, tables = state.partition(b"\n")
        try:
            saved = json.loads(header)
        except ValueError:
            raise ValueError("not a saved VectorEnv state") from None
        if not isinstance(saved, dict) or saved.get("format") != STATE_FORMAT:
            raise ValueError("not a saved VectorEnv state")
        if saved.get("version") != STATE_VERSION:
            raise ValueError(f"a VectorEnv state of version {saved.get('version')}, this is {STATE_VERSION}")
        for name, value in self.options.describe().items():
            if saved.get(name) != value:
                raise ValueError(
                    f"the state was saved with another {name}: {saved.get(name)!r}, not {value!r}"
                )
        core.set_state(tables)
        self._started = True
        return self.batch

    def _require_core(self, what: str) -> compiled.VectorCore:
        if self._core is None:
            raise RuntimeError(f"{what} needs the compiled core (the pure reference keeps no byte state)")
        return self._core

    # -- a god's view, for tests and debugging ----------------------------------------------------

    @property
    def _tables(self) -> ReferenceVectorEnv | compiled.VectorCore:
        if self._core is None:
            assert self._reference is not None
            return self._reference
        return self._core

    def hands(self) -> npt.NDArray[np.uint8]:
        """Every table's four hands as counts per card (``(num_envs, 4, 54)``): every hand, so never an
        agent's input."""
        return self._tables.hands()

    def played(self) -> npt.NDArray[np.uint8]:
        """The cards each seat has played in the deal in play (``(num_envs, 4, 54)``)."""
        return self._tables.played()

    def pending(self) -> npt.NDArray[np.uint8]:
        """Tributes laid face down while the other payer has yet to pay (``(num_envs, 54)``)."""
        return self._tables.pending()

    def progress(self) -> npt.NDArray[np.int64]:
        """Per table: both teams' levels, whose level is played (-1: nobody's), the deal's level, the
        deal's number in its match, matches begun since the seed, the phase (0 tribute, 1 return, 2
        play)."""
        return self._tables.progress()


__all__ = ["STATE_FORMAT", "STATE_VERSION", "VectorEnv"]
