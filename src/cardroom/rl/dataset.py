"""Self-play datasets for training (docs/rl.md, "Datasets"): four copies of a bot play fresh deals; every
decision becomes a sample (the encoded observation, the legal mask over the action table, the chosen
index, the legal card-level actions' features, the seat, the deal and the team's reward), written as
NumPy ``.npz`` shards with a record per deal and a ``manifest.json``.

The deals are played here, in a process pool or as Ray tasks, in shards of a fixed number of deals; each
deal's chance comes from its own string seeds, so the same seed gives the same files, byte for byte,
whatever runs them. :func:`load_dataset` reads a dataset back and checks it against the manifest.
"""

from __future__ import annotations

import json
import multiprocessing
import random
import zipfile
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Final

import numpy as np
import numpy.typing as npt

from cardroom.arena.ray_backend import ray_map, ray_session
from cardroom.bots import BOTS, make_bot
from cardroom.guandan.match import Match, shuffled_hands
from cardroom.guandan.ruleset import COMPETITION, RuleSet
from cardroom.records import dumps_record, parse_record, record_of
from cardroom.rl.actions import NUM_ACTIONS, action_index, action_indices, check_rules, legal_action_mask
from cardroom.rl.encoding import (
    ACTION_FEATURE_SIZE,
    OBSERVATION_SIZE,
    encode_observation,
    legal_action_features,
)

FORMAT: Final = "cardroom-selfplay-dataset"
VERSION: Final = 1
SEED_PREFIX: Final = "cardroom-selfplay"
"""Not the arena's prefix: a dataset's deals are never the deals an arena run evaluates on."""
MANIFEST: Final = "manifest.json"
RECORDS: Final = "records"
SAMPLES: Final = "samples"

Array = npt.NDArray[Any]

ARRAYS: Final[dict[str, tuple[str, str, str]]] = {
    "observation": ("int8", "samples × observation_size", "encode_observation of the seat to act (0/1)"),
    "action_mask": ("int8", "samples × num_actions", "legal_action_mask: the legal table entries (0/1)"),
    "action": ("int64", "samples", "action_index of the action chosen"),
    "seat": ("int8", "samples", "the seat that chose (0–3; seats 0 & 2 are team 0)"),
    "deal": ("int64", "samples", "the deal's index in the run (its record is records/deal-NNNNN.json)"),
    "step": ("int32", "samples", "the decision's number within its deal, from 0"),
    "reward": ("float32", "samples", "the deal's reward for the seat's team: +rise if it won, -rise if not"),
    "legal_start": ("int64", "samples + 1", "sample i's legal actions: rows legal_start[i] to [i+1]"),
    "legal_index": ("int64", "legal actions", "action_index of each legal card-level action"),
    "legal_features": ("int8", "legal actions × action_feature_size", "action_features of each (0/1)"),
    "chosen": ("int64", "samples", "the chosen action's row among the sample's legal actions"),
}
"""Every array of a shard: dtype, shape and meaning (the last four only with features)."""
FEATURE_ARRAYS: Final = ("legal_start", "legal_index", "legal_features", "chosen")

SEEDING: Final = (
    f"cards of deal i: shuffled_hands(random.Random('{SEED_PREFIX}:SEED:deal:i')); bot at a seat: "
    f"make_bot(name, Random('{SEED_PREFIX}:SEED:deal:i:bot:SEAT').getrandbits(63))"
)
REWARD: Final = (
    "per deal (cardroom.rl.session, reward='deal'): the levels the 上游's team rises (rules.partner_rises, "
    "before the cap at A) for both partners of that team, its negative for the other team"
)


class DatasetError(ValueError):
    """A dataset folder that cannot be read: no manifest, another format or encoding, a missing or
    malformed shard."""


class SelfPlayError(RuntimeError):
    """A bot answered an action the rules refuse during self-play."""


@dataclass(frozen=True)
class SelfPlayConfig:
    """What decides a dataset's contents: the bot, the deals, the seed, the rule set, the shard size
    and whether the legal actions' features are kept (not where it runs)."""

    bot: str
    deals: int
    seed: int = 1
    rules: RuleSet = COMPETITION
    shard_deals: int = 50
    features: bool = True

    def __post_init__(self) -> None:
        if self.bot not in BOTS:
            raise ValueError(f"unknown bot {self.bot!r}; available: {', '.join(sorted(BOTS))}")
        if self.deals < 1 or self.shard_deals < 1:
            raise ValueError("at least one deal, and at least one deal a shard")
        check_rules(self.rules)

    @property
    def shards(self) -> int:
        return -(-self.deals // self.shard_deals)

    def shard_range(self, shard: int) -> range:
        """The deals of one shard."""
        return range(shard * self.shard_deals, min(self.deals, (shard + 1) * self.shard_deals))


def card_seed(seed: int, deal: int) -> str:
    return f"{SEED_PREFIX}:{seed}:deal:{deal}"


def bot_seed(seed: int, deal: int, seat: int) -> int:
    return random.Random(f"{SEED_PREFIX}:{seed}:deal:{deal}:bot:{seat}").getrandbits(63)


@dataclass(frozen=True)
class ShardJob:
    """One task: the shard's deals of a run, and whether to return their records."""

    config: SelfPlayConfig
    shard: int
    records: bool


@dataclass(frozen=True)
class ShardResult:
    """A played shard: its arrays and its records (file name, bytes)."""

    shard: int
    deals: range
    arrays: dict[str, Array]
    records: list[tuple[str, bytes]] = field(default_factory=list)

    @property
    def samples(self) -> int:
        return len(self.arrays["action"])

    @property
    def legal_actions(self) -> int:
        return len(self.arrays["legal_index"]) if "legal_index" in self.arrays else 0


def record_name(deal: int) -> str:
    return f"deal-{deal:05d}.json"


def shard_name(shard: int) -> str:
    return f"shard-{shard:05d}.npz"


def play_deal(config: SelfPlayConfig, deal: int, columns: dict[str, list[Any]]) -> Match:
    """Play one fresh deal (level 2, the turned card's holder leads) and append its samples."""
    match = Match(config.rules, max_deals=1)
    bots = [make_bot(config.bot, bot_seed(config.seed, deal, seat)) for seat in range(4)]
    hands, (holder, card) = shuffled_hands(random.Random(card_seed(config.seed, deal)))
    match.deal(hands, holder, card)
    seats: list[int] = []
    while (seat := match.current_player) is not None:
        observation = match.observation(seat)
        action = bots[seat].act(observation)
        if action not in observation.legal_actions:
            raise SelfPlayError(
                f"deal {deal}: bot {config.bot!r} at seat {seat} answered {action!r}, not legal"
            )
        columns["observation"].append(encode_observation(observation).astype(np.int8))
        columns["action_mask"].append(legal_action_mask(observation))
        columns["action"].append(action_index(action, observation))
        columns["step"].append(len(seats))
        if config.features:
            legal = observation.legal_actions
            columns["legal_index"].append(action_indices(observation))
            columns["legal_features"].append(legal_action_features(observation).astype(np.int8))
            columns["legal_count"].append(len(legal))
            columns["chosen"].append(legal.index(action))
        seats.append(seat)
        match.apply(action)
    result = match.summaries[0].result
    rise = float(result.rise(config.rules))
    columns["seat"] += seats
    columns["deal"] += [deal] * len(seats)
    columns["reward"] += [rise if seat % 2 == result.winning_team else -rise for seat in seats]
    return match


def play_shard(job: ShardJob) -> ShardResult:
    """Play a shard's deals (one pool or Ray task) and gather their arrays and records."""
    config = job.config
    columns: dict[str, list[Any]] = {name: [] for name in (*ARRAYS, "legal_count")}
    records: list[tuple[str, bytes]] = []
    deals = config.shard_range(job.shard)
    for deal in deals:
        match = play_deal(config, deal, columns)
        if job.records:
            meta = {
                "selfplay": {
                    "bot": config.bot,
                    "deal": deal,
                    "seed": config.seed,
                    "card_seed": card_seed(config.seed, deal),
                    "bot_seeds": [bot_seed(config.seed, deal, seat) for seat in range(4)],
                }
            }
            seats = tuple(f"{config.bot} {seat}" for seat in range(4))
            record = record_of(match, seats, seed=config.seed, meta=meta)
            parse_record(record)
            records.append((record_name(deal), dumps_record(record).encode("utf-8")))
    arrays: dict[str, Array] = {
        "observation": np.stack(columns["observation"]),
        "action_mask": np.stack(columns["action_mask"]),
    }
    for name in ("action", "seat", "deal", "step", "reward"):
        arrays[name] = np.asarray(columns[name], dtype=ARRAYS[name][0])
    if config.features:
        counts = np.asarray(columns["legal_count"], dtype=np.int64)
        arrays["legal_start"] = np.concatenate([[0], np.cumsum(counts)]).astype(np.int64)
        arrays["legal_index"] = np.concatenate(columns["legal_index"]).astype(np.int64)
        arrays["legal_features"] = np.concatenate(columns["legal_features"])
        arrays["chosen"] = np.asarray(columns["chosen"], dtype=np.int64)
    return ShardResult(job.shard, deals, arrays, records)


def run_shards(
    jobs: Sequence[ShardJob], *, workers: int = 1, ray_address: str | None = None
) -> Iterator[ShardResult]:
    """Play the jobs here (``workers`` 1), in a ``spawn`` process pool, or as Ray tasks
    (``ray_address``: ``"local"`` or a cluster's); yield each shard as it finishes."""
    if ray_address is not None:
        with ray_session(ray_address):
            for _, result in ray_map(play_shard, jobs):
                yield result
    elif workers <= 1 or len(jobs) <= 1:
        for job in jobs:
            yield play_shard(job)
    else:
        context = multiprocessing.get_context("spawn")
        with ProcessPoolExecutor(max_workers=min(workers, len(jobs)), mp_context=context) as pool:
            futures = [pool.submit(play_shard, job) for job in jobs]
            try:
                for future in as_completed(futures):
                    yield future.result()
            finally:
                for future in futures:
                    future.cancel()


def write_npz(path: Path, arrays: dict[str, Array]) -> None:
    """Like ``numpy.savez_compressed``, with fixed entry dates, so the same arrays give the same bytes."""
    with zipfile.ZipFile(path, "w", compression=zipfile.ZIP_DEFLATED) as archive:
        for name, array in arrays.items():
            info = zipfile.ZipInfo(f"{name}.npy", date_time=(1980, 1, 1, 0, 0, 0))
            info.compress_type = zipfile.ZIP_DEFLATED
            with archive.open(info, "w", force_zip64=True) as file:
                np.lib.format.write_array(file, np.ascontiguousarray(array), allow_pickle=False)


def clear_dataset(out: Path) -> None:
    """Remove what an earlier run wrote (the manifest, ``records/deal-*.json``, ``samples/shard-*.npz``)."""
    (out / MANIFEST).unlink(missing_ok=True)
    for pattern in (f"{RECORDS}/deal-*.json", f"{SAMPLES}/shard-*.npz"):
        for path in out.glob(pattern):
            path.unlink()


def write_dataset(
    config: SelfPlayConfig,
    out: Path,
    *,
    workers: int = 1,
    ray_address: str | None = None,
    records: bool = True,
    progress: Callable[[int], None] | None = None,
) -> dict[str, Any]:
    """Play the run and write ``out/samples/shard-*.npz``, ``out/records/deal-*.json`` (with
    ``records``) and, last, ``out/manifest.json``; return the manifest. ``progress`` is called with the
    number of deals just played."""
    out.mkdir(parents=True, exist_ok=True)
    clear_dataset(out)
    (out / SAMPLES).mkdir(exist_ok=True)
    if records:
        (out / RECORDS).mkdir(exist_ok=True)
    jobs = [ShardJob(config, shard, records) for shard in range(config.shards)]
    shards: list[dict[str, Any]] = []
    for result in run_shards(jobs, workers=workers, ray_address=ray_address):
        write_npz(out / SAMPLES / shard_name(result.shard), result.arrays)
        for name, data in result.records:
            (out / RECORDS / name).write_bytes(data)
        shards.append(
            {
                "file": f"{SAMPLES}/{shard_name(result.shard)}",
                "first_deal": result.deals.start,
                "deals": len(result.deals),
                "samples": result.samples,
                "legal_actions": result.legal_actions,
            }
        )
        if progress is not None:
            progress(len(result.deals))
    shards.sort(key=lambda shard: int(shard["first_deal"]))
    manifest = manifest_of(config, shards, records)
    (out / MANIFEST).write_text(json.dumps(manifest, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    return manifest


def encoding_sizes() -> dict[str, int]:
    """The sizes of this cardroom's encoding, which a dataset must have been written with."""
    return {
        "observation_size": OBSERVATION_SIZE,
        "num_actions": NUM_ACTIONS,
        "action_feature_size": ACTION_FEATURE_SIZE,
    }


def manifest_of(config: SelfPlayConfig, shards: list[dict[str, Any]], records: bool) -> dict[str, Any]:
    """The manifest: format and version, what decided the data, the encoding's sizes and the counts."""
    names = [name for name in ARRAYS if config.features or name not in FEATURE_ARRAYS]
    return {
        "format": FORMAT,
        "version": VERSION,
        "bot": config.bot,
        "deals": config.deals,
        "seed": config.seed,
        "rules": config.rules.to_dict(),
        "shard_deals": config.shard_deals,
        "features": config.features,
        "seeding": SEEDING,
        "reward": REWARD,
        "encoding": encoding_sizes(),
        "counts": {
            "deals": config.deals,
            "samples": sum(int(shard["samples"]) for shard in shards),
            "legal_actions": sum(int(shard["legal_actions"]) for shard in shards),
            "shards": len(shards),
            "records": config.deals if records else 0,
        },
        "arrays": {
            name: dict(zip(("dtype", "shape", "meaning"), ARRAYS[name], strict=True)) for name in names
        },
        "shards": shards,
    }


# -- reading -------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Dataset:
    """A dataset read back: its manifest and every array, the shards concatenated (``legal_start``
    rebased onto the concatenated ``legal_index`` and ``legal_features``)."""

    folder: Path
    manifest: dict[str, Any]
    arrays: dict[str, Array]

    def __len__(self) -> int:
        return len(self.arrays["action"])

    def __getitem__(self, name: str) -> Array:
        return self.arrays[name]

    def legal_rows(self, sample: int) -> slice:
        """The rows of ``legal_index`` and ``legal_features`` that hold sample ``sample``'s legal actions."""
        start = self.arrays["legal_start"]
        return slice(int(start[sample]), int(start[sample + 1]))


def _check(condition: bool, message: str) -> None:
    if not condition:
        raise DatasetError(message)


def read_manifest(folder: Path) -> dict[str, Any]:
    """The folder's manifest, checked: format, version, this cardroom's encoding sizes, the shards."""
    path = folder / MANIFEST
    try:
        value = json.loads(path.read_text(encoding="utf-8"))
    except OSError as error:
        raise DatasetError(f"cannot read {path}: {error.strerror or error}") from None
    except (UnicodeDecodeError, json.JSONDecodeError) as error:
        raise DatasetError(f"{path} is not a JSON manifest: {error}") from None
    _check(isinstance(value, dict), f"{path} must hold a JSON object")
    manifest: dict[str, Any] = value
    found = manifest.get("format")
    _check(found == FORMAT, f"{path}: format {found!r}, expected {FORMAT!r}")
    version = manifest.get("version")
    _check(version == VERSION, f"{path}: this reader knows version {VERSION}, got {version!r}")
    sizes = manifest.get("encoding")
    _check(
        sizes == encoding_sizes(),
        f"{path}: written with the encoding {sizes}, this cardroom encodes {encoding_sizes()}",
    )
    shards: Any = manifest.get("shards")
    counts: Any = manifest.get("counts")
    _check(isinstance(shards, list) and isinstance(counts, dict), f"{path}: no shards or counts")
    for entry in shards:
        _check(
            isinstance(entry, dict)
            and isinstance(entry.get("file"), str)
            and all(isinstance(entry.get(key), int) for key in ("samples", "legal_actions")),
            f"{path}: a shard entry without its file, samples and legal_actions: {entry!r}",
        )
    _check(len(shards) == counts.get("shards"), f"{path}: {len(shards)} shards listed, counts.shards differs")
    total = sum(entry["samples"] for entry in shards)
    _check(total == counts.get("samples"), f"{path}: the shards hold {total} samples, counts.samples differs")
    return manifest


def read_shard(folder: Path, shard: dict[str, Any], features: bool) -> dict[str, Array]:
    """One shard's arrays, checked against its manifest entry: names, dtypes and shapes."""
    path = folder / shard["file"]
    names = [name for name in ARRAYS if features or name not in FEATURE_ARRAYS]
    try:
        with np.load(path, allow_pickle=False) as archive:
            missing = [name for name in names if name not in archive.files]
            arrays = {name: archive[name] for name in names if name in archive.files}
    except (OSError, ValueError, zipfile.BadZipFile) as error:
        raise DatasetError(f"cannot read shard {path}: {error}") from None
    _check(not missing, f"{path}: no array {', '.join(missing)}")
    sizes = encoding_sizes()
    samples, legal = shard["samples"], shard["legal_actions"]
    shapes = {
        "observation": (samples, sizes["observation_size"]),
        "action_mask": (samples, sizes["num_actions"]),
        "legal_start": (samples + 1,),
        "legal_index": (legal,),
        "legal_features": (legal, sizes["action_feature_size"]),
    }
    for name, array in arrays.items():
        dtype, shape = ARRAYS[name][0], shapes.get(name, (samples,))
        _check(array.dtype == np.dtype(dtype), f"{path}: {name} is {array.dtype}, not {dtype}")
        _check(array.shape == shape, f"{path}: {name} has the shape {array.shape}, the manifest says {shape}")
    return arrays


def load_dataset(folder: str | Path, *, features: bool = True) -> Dataset:
    """Read a dataset written by :func:`write_dataset` (``features=False`` leaves out the legal actions'
    arrays); :class:`DatasetError` when the manifest or a shard does not check."""
    folder = Path(folder)
    manifest = read_manifest(folder)
    features = features and bool(manifest.get("features"))
    parts = [read_shard(folder, shard, features) for shard in manifest["shards"]]
    names = [name for name in ARRAYS if features or name not in FEATURE_ARRAYS]
    arrays: dict[str, Array] = {}
    for name in names:
        if name == "legal_start":
            offsets = [np.zeros(1, dtype=np.int64)]
            base = 0
            for part in parts:
                offsets.append(part[name][1:] + base)
                base += int(part[name][-1])
            arrays[name] = np.concatenate(offsets)
        else:
            arrays[name] = np.concatenate([part[name] for part in parts])
    return Dataset(folder, manifest, arrays)


__all__ = [
    "ARRAYS",
    "FORMAT",
    "MANIFEST",
    "VERSION",
    "Dataset",
    "DatasetError",
    "SelfPlayConfig",
    "SelfPlayError",
    "ShardJob",
    "ShardResult",
    "load_dataset",
    "play_shard",
    "read_manifest",
    "run_shards",
    "write_dataset",
]
