"""Records as files: UTF-8 JSON, indented, one action per line."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Final

from cardroom.records.schema import RecordError, parse_record

WIDTH: Final = 100
"""A JSON array or object whose one-line form fits in this width (with its indent) stays on one line."""


def dumps_record(record: dict[str, Any]) -> str:
    """The record as indented JSON text (non-ASCII kept), short arrays and objects on one line: each
    action is one line, each hand one line."""
    return _dump(record, 0) + "\n"


def _dump(value: object, indent: int) -> str:
    flat = json.dumps(value, ensure_ascii=False, separators=(", ", ": "))
    if not isinstance(value, dict | list) or not value or indent + len(flat) <= WIDTH:
        return flat
    inner = " " * (indent + 2)
    if isinstance(value, dict):
        items = [
            f"{inner}{json.dumps(key, ensure_ascii=False)}: {_dump(item, indent + 2)}"
            for key, item in value.items()
        ]
        return "{\n" + ",\n".join(items) + "\n" + " " * indent + "}"
    items = [f"{inner}{_dump(item, indent + 2)}" for item in value]
    return "[\n" + ",\n".join(items) + "\n" + " " * indent + "]"


def loads_record(text: str, source: str = "the record") -> dict[str, Any]:
    """Parse record text as a JSON object; bad JSON raises :class:`RecordError` with line and column."""
    try:
        value = json.loads(text)
    except json.JSONDecodeError as error:
        raise RecordError(
            "", f"{source} is not valid JSON: {error.msg} at line {error.lineno}, column {error.colno}"
        ) from None
    if not isinstance(value, dict):
        raise RecordError("", f"{source} must hold a JSON object, got a JSON {type(value).__name__}")
    return value


def read_record(path: str | Path) -> dict[str, Any]:
    """Read a record file (its JSON value; :func:`~cardroom.records.replay.replay` checks the rest)."""
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except UnicodeDecodeError as error:
        raise RecordError("", f"{path} is not UTF-8 text (byte {error.start})") from None
    except OSError as error:
        raise RecordError("", f"cannot read {path}: {error.strerror or error}") from None
    return loads_record(text, str(path))


def write_record(path: str | Path, record: dict[str, Any]) -> None:
    """Write a record file; the record's shape is checked first, so no broken record is written."""
    parse_record(record)
    Path(path).write_text(dumps_record(record), encoding="utf-8")
