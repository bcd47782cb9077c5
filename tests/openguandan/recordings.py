"""The recordings of OpenGuanDan's Java server (``data/*.jsonl.gz``), read for the scripted peers.

Each line is ``{"seat", "dir", "t", "frame"}``: ``in`` a frame the server sent that seat's connection,
``out`` one its client sent, ``note`` the recorder's own remark. The recorder of the one-game room
stopped at ``gameResult``; the Java server follows it with ``gameOver`` (its code, and a one-game room
played against the jar: ``{"curTimes": 1, "settingTimes": 1, "gameRound": 1}``), which
:func:`seat_script` adds.

:func:`differences` compares one of our frames with the recorded one field by field, allowing only
the differences docs/openguandan-protocol.md lists ("What we do differently"), each checked for what
it must be.
"""

from __future__ import annotations

import gzip
import json
from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from cardroom.cards import Card, Rank
from cardroom.guandan.deal import Deal
from cardroom.guandan.match import Match
from cardroom.guandan.plays import PlayKind
from cardroom.guandan.triple import from_triple

DATA = Path(__file__).parent / "data"
ONE_GAME = "openguandan-room-1game.jsonl.gz"
TWO_GAMES = "openguandan-room-2games.jsonl.gz"


@dataclass(frozen=True)
class Line:
    seat: int
    direction: str
    frame: Any


@cache
def lines(name: str) -> tuple[Line, ...]:
    with gzip.open(DATA / name, "rt", encoding="utf-8") as file:
        rows = [json.loads(text) for text in file]
    return tuple(Line(row["seat"], row["dir"], row["frame"]) for row in rows if row["dir"] != "note")


def seat_script(name: str, seat: int) -> list[Line]:
    """What ``seat``'s connection saw and sent, in order (``gameOver`` added where the recorder
    stopped before it)."""
    script = [line for line in lines(name) if line.seat == seat]
    last = script[-1].frame
    if last.get("stage") == "gameResult":
        games = sum(last["gameResult"][2:])
        game_over = {
            "curTimes": games,
            "stage": "gameOver",
            "settingTimes": games,
            "type": "notify",
            "gameRound": games,
        }
        script.append(Line(seat, "in", game_over))
    return script


def hands(name: str) -> list[tuple[tuple[Card, ...], ...]]:
    """The four dealt hands of each deal of the room, in order."""
    by_seat: list[list[tuple[Card, ...]]] = [[] for _ in range(4)]
    for line in lines(name):
        if line.direction == "in" and line.frame.get("stage") == "beginning":
            by_seat[line.seat].append(tuple(Card.parse(name) for name in line.frame["handCards"]))
    return [tuple(deal) for deal in zip(*by_seat, strict=True)]


class RecordedDealer:
    """Deals the recorded hands in order; the first deal of each game is led by seat 0, as the Java
    server does."""

    def __init__(self, name: str) -> None:
        self._deals: Iterator[tuple[tuple[Card, ...], ...]] = iter(hands(name))

    def __call__(self, match: Match) -> Deal:
        dealt = next(self._deals)
        return match.deal(dealt, 0) if match.needs_leader else match.deal(dealt)


def games_of(name: str) -> int:
    create = next(line.frame for line in lines(name) if line.direction == "out")
    games: int = create["data"]["round"]
    return games


# --- comparing frames ---------------------------------------------------------------------------------


def identity(entry: Sequence[Any], level: Rank) -> tuple[Any, ...]:
    """An entry as a play regardless of the order of its cards."""
    if entry[0] in ("tribute", "back", "PASS"):
        return (entry[0], tuple(entry[2]))
    play = from_triple(entry, level)
    return (play.kind, play.rank, tuple(sorted(play.cards)))


def java_omits(entry: Sequence[Any], level: Rank) -> bool:
    """Plays the Java server does not list that the competition rules allow (docs/openguandan-protocol.md):
    a plain straight of five cards of one suit, a wild ♥ level card among them, and a full house whose
    pair is of its triple's rank (five cards of one rank, wild ones included)."""
    play = from_triple(entry, level)
    if play.kind is PlayKind.STRAIGHT:
        return len({card.suit for card in play.cards}) == 1 and play.wild_count > 0
    if play.kind is PlayKind.FULL_HOUSE:
        return len({card.rank for card in play.cards}) == 1
    return False


def differences(ours: Any, recorded: Any) -> list[str]:
    """How our frame differs from the recorded one beyond what the docs allow; empty when alike."""
    if not isinstance(ours, dict):
        return [f"not a JSON object: {ours!r}"]
    if list(ours) != list(recorded):
        return [f"fields {list(ours)} != recorded {list(recorded)}"]
    found = []
    skip: set[str] = set()
    kind, stage = recorded.get("type"), recorded.get("stage")
    if kind == "act":
        skip = {"actionList", "indexRange"}
        found += _entries(ours, recorded)
        if stage == "back":
            skip.add("handCards")
            expected = Counter(recorded["handCards"]) + Counter([recorded["tribute"]])
            if Counter(ours["handCards"]) != expected:
                found.append(f"back handCards {ours['handCards']} != recorded + the tribute")
    elif kind == "notify" and stage in ("tribute", "back"):
        skip = {"result"}
        if Counter(map(tuple, ours["result"])) != Counter(map(tuple, recorded["result"])):
            found.append(f"result {ours['result']} != recorded {recorded['result']}")
    for key in recorded:
        if key not in skip and ours[key] != recorded[key]:
            found.append(f"{key}: {ours[key]!r} != recorded {recorded[key]!r}")
    return found


def _entries(ours: dict[str, Any], recorded: dict[str, Any]) -> list[str]:
    level = Rank.from_letter(recorded["curRank"])
    mine = [identity(entry, level) for entry in ours["actionList"]]
    theirs = {identity(entry, level) for entry in recorded["actionList"]}
    found = []
    if ours["indexRange"] != max(len(mine) - 1, 0):
        found.append(f"indexRange {ours['indexRange']} for {len(mine)} entries")
    if len(set(mine)) != len(mine):
        found.append("our actionList repeats an entry")
    if missing := theirs - set(mine):
        found.append(f"entries the recording lists and we do not: {sorted(map(str, missing))[:5]}")
    extra = [entry for entry, key in zip(ours["actionList"], mine, strict=True) if key not in theirs]
    stage = recorded["stage"]
    if stage == "play":
        unexplained = [entry for entry in extra if not java_omits(entry, level)]
    elif stage == "back":
        unexplained = [entry for entry in extra if entry[2] != [recorded["tribute"]]]
    else:
        paid = Card.parse(recorded["actionList"][0][2][0]).rank
        unexplained = [entry for entry in extra if Card.parse(entry[2][0]).rank != paid]
    if unexplained:
        found.append(f"entries we list and the recording does not: {unexplained[:5]}")
    return found
