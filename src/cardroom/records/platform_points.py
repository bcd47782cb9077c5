"""The platform's rating points (积分, docs/rules/platform.md#points-per-level) of a recorded match.

:func:`points_of_record` replays a match record through the rules core (:func:`cardroom.records.replay`)
and applies :func:`cardroom.guandan.platform_points.match_points` to the replayed match. The seat events
(a player who left or disconnected) are passed in, or kept in the record's free-form ``meta`` under
``"seat_events"``: a list of objects such as ``{"seat": 1, "kind": "left", "deal_number": 3,
"level_of_leaver_team": "K", "during_play": true}``.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any, Final

from cardroom.cards import NotationError, Rank
from cardroom.guandan.platform_points import (
    PLATFORM_POINTS,
    SEAT_EVENT_KINDS,
    MatchPoints,
    PlayerState,
    PointsRules,
    SeatEvent,
    check_event,
    match_points,
)
from cardroom.records.replay import replay
from cardroom.records.schema import MatchRecord, RecordError, parse_record

META_KEY: Final = "seat_events"
"""Where a record's ``meta`` keeps the seat events."""

_EVENT_KEYS: Final = ("seat", "kind", "deal_number", "level_of_leaver_team", "during_play")


def points_of_record(
    record: object,
    events: Iterable[SeatEvent] | None = None,
    states: Sequence[PlayerState] | None = None,
    rules: PointsRules = PLATFORM_POINTS,
) -> MatchPoints:
    """The points of a recorded match (the JSON value, or a read :class:`MatchRecord`).

    ``events`` default to the record's ``meta.seat_events`` (none when absent). Raises
    :class:`RecordError` for a broken record, for a record with an illegal action or whose ``result``
    differs from the replay (no points come from a record the referee refuses), and for malformed or
    impossible seat events (``meta.seat_events[1]: …``).
    """
    parsed = record if isinstance(record, MatchRecord) else parse_record(record)
    report = replay(parsed)
    if report.violation is not None:
        violation = report.violation
        raise RecordError(
            violation.path,
            f"illegal action ({violation.rule}: {violation.message}): no points from an illegal record",
        )
    if report.mismatches:
        raise RecordError("result", f"the result differs from the replay: {report.mismatches[0]}")
    path = f"meta.{META_KEY}"
    if events is None:
        meta = parsed.meta or {}
        chosen = seat_events_from_json(meta.get(META_KEY, []), path)
    else:
        chosen = tuple(events)
        path = "events"
    seen: set[int] = set()
    for index, event in enumerate(chosen):
        if event.seat in seen:
            raise RecordError(f"{path}[{index}]", f"seat {event.seat} has two events; a player leaves once")
        seen.add(event.seat)
        try:
            check_event(report.match, event)
        except ValueError as error:
            raise RecordError(f"{path}[{index}]", str(error)) from None
    return match_points(report.match, chosen, states, rules)


def seat_event_to_json(event: SeatEvent) -> dict[str, Any]:
    """The JSON object of a seat event (the level as a rank letter)."""
    return {
        "seat": event.seat,
        "kind": event.kind,
        "deal_number": event.deal_number,
        "level_of_leaver_team": event.level_of_leaver_team.letter,
        "during_play": event.during_play,
    }


def seat_events_from_json(raw: object, path: str = f"meta.{META_KEY}") -> tuple[SeatEvent, ...]:
    """Read a list of seat events; :class:`RecordError` names the bad field (``meta.seat_events[0].seat``)."""
    if not isinstance(raw, list):
        raise RecordError(path, f"a list of seat events, got {raw!r}")
    return tuple(_event(item, f"{path}[{index}]") for index, item in enumerate(raw))


def _event(raw: object, path: str) -> SeatEvent:
    if not isinstance(raw, Mapping):
        raise RecordError(path, f"a seat event is an object, got {raw!r}")
    unknown = sorted(set(raw) - set(_EVENT_KEYS))
    if unknown:
        raise RecordError(path, f"unknown field {', '.join(unknown)} (known: {', '.join(_EVENT_KEYS)})")
    for key in _EVENT_KEYS[:4]:
        if key not in raw:
            raise RecordError(f"{path}.{key}", "missing")
    seat, kind, number, level_text = (raw[key] for key in _EVENT_KEYS[:4])
    during_play = raw.get("during_play", True)
    if not _is_int(seat) or seat not in range(4):
        raise RecordError(f"{path}.seat", f"a seat 0–3, got {seat!r}")
    if kind not in SEAT_EVENT_KINDS:
        raise RecordError(f"{path}.kind", f"'left' or 'disconnected', got {kind!r}")
    if not _is_int(number) or number < 1:
        raise RecordError(f"{path}.deal_number", f"a deal number from 1, got {number!r}")
    if not isinstance(level_text, str):
        raise RecordError(f"{path}.level_of_leaver_team", f"a rank letter 2…A, got {level_text!r}")
    try:
        level = Rank.from_letter(level_text)
    except NotationError as error:
        raise RecordError(f"{path}.level_of_leaver_team", str(error)) from None
    if level.is_joker:
        raise RecordError(f"{path}.level_of_leaver_team", f"a level is 2…A, got {level_text!r}")
    if not isinstance(during_play, bool):
        raise RecordError(f"{path}.during_play", f"true or false, got {during_play!r}")
    return SeatEvent(seat, kind, number, level, during_play)


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


__all__ = ["META_KEY", "points_of_record", "seat_event_to_json", "seat_events_from_json"]
