"""What both games' records share: :class:`RecordError` naming a field by its JSON path, the small
shape checks that raise it, and the comparison of a recorded ``result`` with the replayed one."""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from typing import Any, Protocol, Self, TypeVar

from cardroom.cards import ALL_CARDS, Card, NotationError


class RecordError(ValueError):
    """A record that cannot be read: bad JSON, a wrong format or version, a missing or malformed field.

    ``path`` names the field (``deals[0].hands[2]``, ``rules``; empty for the file as a whole).
    """

    def __init__(self, path: str, message: str) -> None:
        self.path = path
        self.message = message
        super().__init__(f"{path}: {message}" if path else message)


# -- small checks ----------------------------------------------------------------------------------


def json_object(raw: object, path: str, what: str) -> Mapping[str, Any]:
    if not isinstance(raw, dict):
        raise RecordError(path, f"{what} must be a JSON object, got {json_text(raw)}")
    return raw


def json_array(raw: object, path: str) -> Sequence[Any]:
    if not isinstance(raw, list):
        raise RecordError(path, f"expected a JSON array, got {json_text(raw)}")
    return raw


def check_keys(value: Mapping[str, Any], path: str, required: Sequence[str], optional: Sequence[str]) -> None:
    prefix = f"{path}." if path else ""
    for key in required:
        if key not in value:
            raise RecordError(f"{prefix}{key}", "missing")
    unknown = sorted(set(value) - set(required) - set(optional))
    if unknown:
        known = ", ".join((*required, *optional))
        raise RecordError(path, f"unknown field {', '.join(unknown)} (known: {known})")


def is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def optional_int(value: object, path: str, minimum: int | None = None) -> int | None:
    if value is None:
        return None
    if not is_int(value):
        raise RecordError(path, f"an integer or null, got {json_text(value)}")
    assert isinstance(value, int)
    if minimum is not None and value < minimum:
        raise RecordError(path, f"at least {minimum}, got {value}")
    return value


def card_at(text: str, path: str, seat: int | None = None) -> Card:
    """One card in notation; a bad token is a :class:`RecordError` on ``path`` (naming the seat)."""
    try:
        return Card.parse(text)
    except NotationError as error:
        suffix = f" (seat {seat})" if seat is not None else ""
        raise RecordError(path, f"{error}{suffix}") from None


def json_type(value: object) -> str:
    if isinstance(value, bool):
        return "true or false"
    if isinstance(value, int):
        return "an integer"
    if isinstance(value, float):
        return "a number"
    if isinstance(value, str):
        return "a string"
    if isinstance(value, list):
        return "an array"
    return "an object" if isinstance(value, dict) else "null"


def json_text(value: object) -> str:
    """A value as JSON for a message, cut short when long."""
    try:
        text = json.dumps(value, ensure_ascii=False)
    except (TypeError, ValueError):
        text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


# -- results ---------------------------------------------------------------------------------------


def differences(path: str, recorded: object, replayed: object) -> list[str]:
    """Where two JSON values differ, as ``path: the record says X, the replay gives Y`` lines."""
    if isinstance(recorded, dict) and isinstance(replayed, dict):
        found: list[str] = []
        for key in [*replayed, *(key for key in recorded if key not in replayed)]:
            if key not in recorded:
                found.append(
                    f"{path}.{key}: missing in the record (the replay gives {_short(replayed[key])})"
                )
            elif key not in replayed:
                found.append(f"{path}.{key}: not a result field (the record says {_short(recorded[key])})")
            else:
                found += differences(f"{path}.{key}", recorded[key], replayed[key])
        return found
    if isinstance(recorded, list) and isinstance(replayed, list):
        structured = all(isinstance(item, dict | list) for item in (*recorded, *replayed))
        if structured and len(recorded) != len(replayed):
            return [f"{path}: the record has {len(recorded)} entries, the replay gives {len(replayed)}"]
        if structured:
            found = []
            for index, (left, right) in enumerate(zip(recorded, replayed, strict=True)):
                found += differences(f"{path}[{index}]", left, right)
            return found
    if _same(recorded, replayed):
        return []
    return [f"{path}: the record says {_short(recorded)}, the replay gives {_short(replayed)}"]


def _same(left: object, right: object) -> bool:
    """JSON equality that tells ``true`` from ``1``."""
    if isinstance(left, list) and isinstance(right, list):
        return len(left) == len(right) and all(_same(a, b) for a, b in zip(left, right, strict=True))
    if isinstance(left, dict) and isinstance(right, dict):
        return left.keys() == right.keys() and all(_same(left[key], right[key]) for key in left)
    return type(left) is type(right) and left == right


def _short(value: object) -> str:
    text = json.dumps(value, ensure_ascii=False)
    return text if len(text) <= 80 else text[:77] + "..."


# -- shared fields ---------------------------------------------------------------------------------


def check_header(top: Mapping[str, Any], record_format: str, version: int) -> None:
    """The record's ``format`` and ``version``, which a reader checks before anything else."""
    if "format" not in top:
        raise RecordError("format", f'missing: a match record says "format": {json_text(record_format)}')
    if top["format"] != record_format:
        raise RecordError("format", f"expected {json_text(record_format)}, got {json_text(top['format'])}")
    if "version" not in top:
        raise RecordError("version", f"missing: this reader knows version {version}")
    if not is_int(top["version"]) or top["version"] != version:
        raise RecordError("version", f"this reader knows version {version}, got {json_text(top['version'])}")


def optional_object(top: Mapping[str, Any], key: str, what: str) -> dict[str, Any] | None:
    """The JSON object at ``key`` (``result``, ``meta``), or ``None`` when the record leaves it out."""
    value = top.get(key)
    return None if value is None else dict(json_object(value, key, what))


def optional_fields(**fields: dict[str, Any] | None) -> dict[str, Any]:
    """The record's optional objects (``result``, ``meta``) that are there, in order."""
    return {key: value for key, value in fields.items() if value is not None}


class RuleSetType(Protocol):
    """What a game's rule-set class gives records: its defaults as JSON values, and reading them back."""

    def to_dict(self) -> dict[str, Any]: ...

    @classmethod
    def from_dict(cls, values: dict[str, Any]) -> Self: ...


RulesT = TypeVar("RulesT", bound=RuleSetType)


def read_rules(raw: object, rules_type: type[RulesT]) -> RulesT:
    """The rule set; a parameter the record leaves out takes its default. Each value must have the JSON
    type that the defaults' ``to_dict()`` writes for it; ``from_dict`` checks the rest."""
    values = json_object(raw, "rules", f"the rule set ({rules_type.__name__}.to_dict())")
    check_like_defaults(values, rules_type().to_dict(), "rules")
    try:
        return rules_type.from_dict(dict(values))
    except (TypeError, ValueError) as error:
        raise RecordError("rules", str(error)) from None


def seat_at(value: object, path: str) -> int:
    """A seat number, 0 to 3."""
    if not is_int(value) or value not in range(4):
        raise RecordError(path, f"a seat 0–3, got {json_text(value)}")
    assert isinstance(value, int)
    return value


def action_kind(
    raw: object, path: str, kinds: Sequence[str], example: str
) -> tuple[Mapping[str, Any], int, str]:
    """An action's object, its seat and its one kind among ``kinds`` (the key that holds its value);
    ``example`` shows the shape in the message for a value that is no object."""
    action = json_object(raw, path, f"an action ({example})")
    if "seat" not in action:
        raise RecordError(f"{path}.seat", "missing: the seat that acts")
    seat = seat_at(action["seat"], f"{path}.seat")
    unknown = sorted(set(action) - {"seat", *kinds})
    if unknown:
        raise RecordError(path, f"unknown field {', '.join(unknown)} (seat {seat})")
    present = [key for key in kinds if key in action]
    if len(present) != 1:
        raise RecordError(path, f"an action has exactly one of {', '.join(kinds)} (seat {seat})")
    return action, seat, present[0]


def check_like_defaults(values: Mapping[str, Any], defaults: Mapping[str, Any], path: str) -> None:
    """Each rule-set value must have the JSON type its default has in ``to_dict()`` (``null`` and
    unknown names are left to the rule set's ``from_dict``)."""
    for name, value in values.items():
        default = defaults.get(name)
        if default is None or value is None:
            continue
        same = json_type(value) == json_type(default)
        if same and isinstance(default, list) and default:
            same = all(json_type(item) == json_type(default[0]) for item in value)
        if not same:
            raise RecordError(
                f"{path}.{name}", f"expected a value like {json_text(default)}, got {json_text(value)}"
            )


def seat_names(raw: object, path: str = "seats") -> tuple[str, str, str, str]:
    """Four seat names, seat 0 to 3."""
    seats = json_array(raw, path)
    if len(seats) != 4:
        raise RecordError(path, f"four seat names, got {len(seats)}")
    for index, name in enumerate(seats):
        if not isinstance(name, str):
            raise RecordError(f"{path}[{index}]", f"a seat name is a string, got {json_text(name)}")
    return (seats[0], seats[1], seats[2], seats[3])


def two_decks_error(cards: Iterable[Card]) -> str | None:
    """``None`` when ``cards`` are both decks (each of the 54 cards twice), else which counts are off."""
    counts = Counter(cards)
    wrong = [(card, counts[card]) for card in ALL_CARDS if counts[card] != 2]
    if not wrong:
        return None
    listed = ", ".join(f"{card} ×{count}" for card, count in wrong[:8])
    more = f" and {len(wrong) - 8} more" if len(wrong) > 8 else ""
    return f"{listed}{more}"
