"""Training the value network (:mod:`cardroom.bots.value_net`) on heuristic self-play, or the distilled
network (:mod:`cardroom.bots.distilled`) on the search's own decisions: ``cardroom train``.

Each round plays fresh deals of heuristic self-play (:func:`cardroom.bots.fitting.selfplay_deals`:
matches with tribute, the compiled core where it is built), keeps every play-phase decision point, read
for each of the four seats (:func:`~cardroom.bots.value_net.encode_all`) and labelled with the deal's real
outcome for that seat's team (:func:`~cardroom.bots.evaluation.places_value`), then trains the network on
them with Adam for a few epochs. A held-out set of other deals, the same every round, measures it, and
beside it the fitted evaluation (:func:`~cardroom.bots.evaluation.position_value`) on the held-out trick
starts, where that evaluation is meant to be read.

With the ``distilled`` target (:data:`TARGETS`) the deals are search self-play instead
(:func:`cardroom.bots.distilling.gain_examples`): each alternative to the heuristic's play the search
weighed is an example, labelled with the gain the search measured for it, and the network (the same
MLP, :data:`cardroom.bots.distilled.INPUTS`) learns to predict that gain; the file it writes is
``OUT/distilled.npz``, what the ``distilled`` bot loads.

The deals are played in chunks, each from its own seed derived from the run's seed, so the data do not
depend on where the chunks run (here, or on Ray through a ``mapper`` such as
:func:`cardroom.arena.ray_backend.ray_map`). After every round ``OUT/checkpoint.npz`` (network, optimiser,
round, settings), ``OUT/value.npz`` (the network alone, what the ``value`` bot loads; ``distilled.npz``
for the distilled target) and
``OUT/progress.json`` are written; a run resumed from the checkpoint ends exactly where the same run
uninterrupted would have.
"""

from __future__ import annotations

import hashlib
import json
import random
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, NamedTuple

import numpy as np
import numpy.typing as npt

from cardroom.bots import distilled
from cardroom.bots.distilling import gain_examples
from cardroom.bots.evaluation import places_value, position_value
from cardroom.bots.fitting import selfplay_deals
from cardroom.bots.value_net import DEFAULT_HIDDEN, INPUTS, Adam, ValueNet, encode_all
from cardroom.guandan.deal import Phase
from cardroom.guandan.ruleset import COMPETITION

CHECKPOINT = "checkpoint.npz"
NETWORK = "value.npz"
PROGRESS = "progress.json"


class TrainingError(RuntimeError):
    """A run that cannot start or go on (an existing run not resumed, settings that do not match)."""


class Examples(NamedTuple):
    """Positions read for one seat each: inputs, the real outcome for the seat's team, whether the
    position is a trick start, and the fitted evaluation's value there (NaN where not computed). For
    the distilled target: an alternative's inputs and the search's gain (never a trick start)."""

    inputs: npt.NDArray[np.float32]
    targets: npt.NDArray[np.float64]
    trick_starts: npt.NDArray[np.bool_]
    fitted: npt.NDArray[np.float64]

    def __len__(self) -> int:
        return int(self.targets.shape[0])


class Chunk(NamedTuple):
    """Deals of self-play to play in one task, from their own seed."""

    deals: int
    seed: int
    fitted: bool
    """Whether the fitted evaluation is read at the trick starts too (where the target has them)."""
    target: str = "value"


Mapper = Callable[[Callable[[Chunk], Examples], Sequence[Chunk]], Iterator[tuple[int, Examples]]]
"""Runs a function over chunks, yielding ``(index, result)`` in any order (:func:`local_map`, or Ray's)."""


@dataclass(frozen=True)
class TrainConfig:
    """The settings of a run. All but ``rounds`` must match when a run is resumed."""

    deals: int
    rounds: int
    seed: int = 1
    epochs: int = 4
    batch: int = 256
    rate: float = 1e-3
    hidden: tuple[int, ...] = DEFAULT_HIDDEN
    held_out_deals: int = 0
    """Deals of the held-out set; 0: a quarter of ``deals`` (at least 1)."""
    chunk_deals: int = 25
    target: str = "value"
    """One of :data:`TARGETS`."""

    def __post_init__(self) -> None:
        checks = {
            "deals": self.deals >= 1,
            "rounds": self.rounds >= 1,
            "epochs": self.epochs >= 1,
            "batch": self.batch >= 1,
            "rate": self.rate > 0,
            "hidden": bool(self.hidden) and all(size >= 1 for size in self.hidden),
            "held_out_deals": self.held_out_deals >= 0,
            "chunk_deals": self.chunk_deals >= 1,
            "target": self.target in TARGETS,
        }
        bad = [name for name, ok in checks.items() if not ok]
        if bad:
            raise ValueError(f"invalid training settings: {', '.join(bad)} ({self})")

    @property
    def held_out(self) -> int:
        return self.held_out_deals or max(1, self.deals // 4)

    def matches(self, other: TrainConfig) -> bool:
        return asdict(self) | {"rounds": 0} == asdict(other) | {"rounds": 0}


@dataclass
class RoundReport:
    """What one round did."""

    round: int
    examples: int
    train_loss: float
    held_out_loss: float
    held_out_trick_start_loss: float | None
    """``None`` for the distilled target (no trick starts)."""
    seconds: float


@dataclass
class Baseline:
    """The held-out set and what simpler predictors score on it (mean squared error of the outcome)."""

    examples: int
    trick_starts: int
    fitted_trick_start_loss: float | None
    """The fitted evaluation's own prediction, on the trick starts (``None`` for the distilled target)."""
    mean_loss: float
    """Predicting the held-out mean outcome (the mean gain, for the distilled target) everywhere."""


@dataclass
class RunState:
    """Where a run stands: the network, its optimiser and the rounds done."""

    net: ValueNet
    adam: Adam
    rounds_done: int = 0
    history: list[RoundReport] = field(default_factory=list)


def derived_seed(seed: int, *parts: object) -> int:
    """A 64-bit seed for one part of a run (the same on every machine and Python)."""
    text = "/".join(str(part) for part in (seed, *parts))
    return int.from_bytes(hashlib.sha256(text.encode()).digest()[:8], "big")


def selfplay_examples(chunk: Chunk) -> Examples:
    """The examples of one chunk of deals, as its target makes them (:data:`TARGETS`)."""
    return TARGETS[chunk.target].examples(chunk)


def outcome_examples(chunk: Chunk) -> Examples:
    """Every play-phase decision point of ``chunk.deals`` deals of heuristic self-play, read for each of
    the four seats and labelled with the deal's real outcome; with ``chunk.fitted``, the fitted
    evaluation's value at trick starts too."""
    rules = COMPETITION
    inputs: list[npt.NDArray[np.float64]] = []
    targets: list[float] = []
    starts: list[bool] = []
    fitted: list[float] = []
    for match, deal, bots in selfplay_deals(chunk.deals, random.Random(chunk.seed), rules):
        first = len(inputs)
        while (seat := match.current_player) is not None:
            if deal.phase is Phase.PLAY:
                planner = bots[seat].planner(deal.level)
                inputs.append(encode_all(deal, planner))
                start = deal.last_play is None
                starts += [start] * 4
                fitted += [
                    position_value(deal, valued, planner) if start and chunk.fitted else float("nan")
                    for valued in range(4)
                ]
            match.apply(bots[seat].act(match.observation(seat)))
        if deal.result is None:
            raise RuntimeError("a self-play deal ended without a result")
        outcome = [places_value(deal.result.places, valued, rules) for valued in range(4)]
        targets += outcome * (len(inputs) - first)
    return Examples(
        np.concatenate(inputs).astype(np.float32) if inputs else np.zeros((0, len(INPUTS)), np.float32),
        np.array(targets, dtype=np.float64),
        np.array(starts, dtype=bool),
        np.array(fitted, dtype=np.float64),
    )


def gain_chunk_examples(chunk: Chunk) -> Examples:
    """Every alternative the search weighed in ``chunk.deals`` deals of search self-play, labelled with
    the gain it measured (:func:`cardroom.bots.distilling.gain_examples`); none is a trick start."""
    rows, gains = gain_examples(chunk.deals, chunk.seed)
    return Examples(rows, gains, np.zeros(len(gains), bool), np.full(len(gains), np.nan))


class Target(NamedTuple):
    """What a run trains: the file it writes, the inputs the network reads, how a chunk's examples are
    made."""

    network: str
    inputs: int
    examples: Callable[[Chunk], Examples]


TARGETS = {
    "value": Target(NETWORK, len(INPUTS), outcome_examples),
    "distilled": Target("distilled.npz", len(distilled.INPUTS), gain_chunk_examples),
}
"""What a run can train: the value network (on heuristic self-play, labelled with real outcomes) or the
distilled network (on search self-play, labelled with the search's gains)."""


def local_map(
    function: Callable[[Chunk], Examples], chunks: Sequence[Chunk]
) -> Iterator[tuple[int, Examples]]:
    """Run the chunks one after another in this process."""
    for index, chunk in enumerate(chunks):
        yield index, function(chunk)


def gather(
    chunks: Sequence[Chunk], mapper: Mapper, progress: Callable[[int], None] | None = None
) -> Examples:
    """The chunks' examples, in chunk order whatever order they finished in."""
    found: dict[int, Examples] = {}
    for index, examples in mapper(selfplay_examples, chunks):
        found[index] = examples
        if progress is not None:
            progress(chunks[index].deals)
    parts = [found[index] for index in range(len(chunks))]
    return Examples(*(np.concatenate([getattr(part, name) for part in parts]) for name in Examples._fields))


def chunks_of(
    deals: int, size: int, seed: int, *parts: object, fitted: bool = False, target: str = "value"
) -> list[Chunk]:
    """``deals`` split into chunks of at most ``size``, each seeded from ``seed`` and ``parts``."""
    return [
        Chunk(min(size, deals - start), derived_seed(seed, *parts, index), fitted, target)
        for index, start in enumerate(range(0, deals, size))
    ]


def baseline_of(held_out: Examples) -> Baseline:
    starts = held_out.trick_starts
    return Baseline(
        examples=len(held_out),
        trick_starts=int(starts.sum()),
        fitted_trick_start_loss=_mean_or_none((held_out.fitted[starts] - held_out.targets[starts]) ** 2),
        mean_loss=float(np.var(held_out.targets)),
    )


def _mean_or_none(values: npt.NDArray[np.float64]) -> float | None:
    """The mean; ``None`` for no values (the distilled target has no trick starts)."""
    return float(values.mean()) if len(values) else None


def train_round(net: ValueNet, adam: Adam, data: Examples, config: TrainConfig, round_: int) -> None:
    """``config.epochs`` passes of minibatch Adam over the round's data, shuffled from the run's seed."""
    shuffle = np.random.default_rng(derived_seed(config.seed, "shuffle", round_))
    inputs = data.inputs.astype(np.float64)
    for _ in range(config.epochs):
        order = shuffle.permutation(len(data))
        for start in range(0, len(order), config.batch):
            batch = order[start : start + config.batch]
            _, grads = net.gradients(inputs[batch], data.targets[batch])
            adam.step(net, grads)


def held_out_losses(net: ValueNet, held_out: Examples) -> tuple[float, float | None]:
    """The network's mean squared error on the held-out set, and on its trick starts."""
    errors = (net.predict(held_out.inputs.astype(np.float64)) - held_out.targets) ** 2
    return float(errors.mean()), _mean_or_none(errors[held_out.trick_starts])


def train(
    config: TrainConfig,
    out: Path,
    *,
    resume: bool = False,
    mapper: Mapper = local_map,
    on_baseline: Callable[[Baseline], None] | None = None,
    on_round: Callable[[RoundReport], None] | None = None,
    progress: Callable[[int], None] | None = None,
) -> RunState:
    """Train for ``config.rounds`` rounds (those not done yet with ``resume``), writing the checkpoint,
    the network and the progress file into ``out`` after each; ``progress`` is called with the deals
    played as chunks finish."""
    out.mkdir(parents=True, exist_ok=True)
    state = _start(config, out, resume)
    held_out = gather(
        chunks_of(
            config.held_out,
            config.chunk_deals,
            config.seed,
            "held-out",
            fitted=True,
            target=config.target,
        ),
        mapper,
        progress,
    )
    baseline = baseline_of(held_out)
    if on_baseline is not None:
        on_baseline(baseline)
    for round_ in range(state.rounds_done, config.rounds):
        began = time.perf_counter()
        data = gather(
            chunks_of(config.deals, config.chunk_deals, config.seed, "round", round_, target=config.target),
            mapper,
            progress,
        )
        if len(data) == 0:
            raise TrainingError(f"round {round_ + 1} produced no positions")
        if round_ == 0:
            state.net.standardise(data.inputs.astype(np.float64))
        train_round(state.net, state.adam, data, config, round_)
        loss, start_loss = held_out_losses(state.net, held_out)
        report = RoundReport(
            round=round_ + 1,
            examples=len(data),
            train_loss=state.net.loss(data.inputs.astype(np.float64), data.targets),
            held_out_loss=loss,
            held_out_trick_start_loss=start_loss,
            seconds=round(time.perf_counter() - began, 2),
        )
        state.rounds_done = round_ + 1
        state.history.append(report)
        _save(state, config, baseline, out)
        if on_round is not None:
            on_round(report)
    return state


def _start(config: TrainConfig, out: Path, resume: bool) -> RunState:
    checkpoint = out / CHECKPOINT
    if not resume:
        if checkpoint.exists():
            raise TrainingError(
                f"{checkpoint} exists: pass --resume to continue that run, or choose another --out"
            )
        return RunState(
            ValueNet.initial(TARGETS[config.target].inputs, config.hidden, seed=config.seed),
            Adam(rate=config.rate),
        )
    if not checkpoint.exists():
        raise TrainingError(f"nothing to resume: {checkpoint} does not exist")
    with np.load(checkpoint) as named:
        saved = _config_from_json(str(named["config"]))
        if not saved.matches(config):
            raise TrainingError(
                f"the checkpoint in {out} was made with other settings ({saved}); resume with the same "
                "settings (only --rounds may change)"
            )
        net = ValueNet.from_arrays(named, str(checkpoint), TARGETS[config.target].inputs)
        adam = Adam.from_arrays(named)
        rounds_done = int(named["rounds_done"])
    history = [RoundReport(**entry) for entry in json.loads((out / PROGRESS).read_text())["rounds"]]
    return RunState(net, adam, rounds_done, history[:rounds_done])


def _config_from_json(text: str) -> TrainConfig:
    raw: dict[str, Any] = json.loads(text)
    raw["hidden"] = tuple(raw["hidden"])
    return TrainConfig(**raw)


def _save(state: RunState, config: TrainConfig, baseline: Baseline, out: Path) -> None:
    """Write the checkpoint, the network and the progress file, each by replacing the old one whole."""
    extra = {
        **state.adam.arrays(),
        "rounds_done": np.array(state.rounds_done),
        "config": np.array(json.dumps(asdict(config))),
    }
    _replace(out / CHECKPOINT, lambda path: state.net.save(path, extra))
    _replace(out / TARGETS[config.target].network, state.net.save)
    progress = {
        "config": asdict(config),
        "rounds_done": state.rounds_done,
        "held_out": asdict(baseline),
        "rounds": [asdict(report) for report in state.history],
    }
    _replace(out / PROGRESS, lambda path: path.write_text(json.dumps(progress, indent=2) + "\n"))


def _replace(path: Path, write: Callable[[Path], object]) -> None:
    partial = path.with_name(path.name + ".partial")
    write(partial)
    partial.replace(path)


__all__ = [
    "TARGETS",
    "Baseline",
    "Chunk",
    "Examples",
    "Mapper",
    "RoundReport",
    "Target",
    "TrainConfig",
    "TrainingError",
    "derived_seed",
    "local_map",
    "selfplay_examples",
    "train",
]
