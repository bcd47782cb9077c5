"""Client messages read once into one frozen dataclass per kind (docs/protocol.md, "Client → server"):
every kind, and every malformed field named in its ``bad_message``."""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest

from cardroom.server.tables.codec import (
    CHAT_PHRASES,
    MESSAGE_TYPES,
    Act,
    Auto,
    Chat,
    Check,
    Choose,
    Hint,
    Join,
    Legal,
    Ping,
    ProtocolError,
    Resume,
    read_message,
)


@pytest.mark.parametrize(
    ("message", "expected"),
    [
        ({"type": "join", "token": "abc", "since": 7}, Join("abc", 7)),
        ({"type": "join", "token": None}, Join(None, 0)),
        ({"type": "act", "action": {"type": "pass"}}, Act({"type": "pass"})),
        ({"type": "check", "action": {"type": "pass"}, "id": "sel-1"}, Check({"type": "pass"}, "sel-1")),
        ({"type": "check", "action": {"type": "pass"}, "id": 3}, Check({"type": "pass"}, 3)),
        ({"type": "check"}, Check(None, None)),
        ({"type": "legal"}, Legal()),
        ({"type": "choose", "skip": True}, Choose("skip_turn", True)),
        ({"type": "choose", "leader": 2}, Choose("leader", 2)),
        ({"type": "resume"}, Resume()),
        ({"type": "auto", "on": False}, Auto(False)),
        ({"type": "chat", "phrase": "gg"}, Chat("gg")),
        ({"type": "hint"}, Hint()),
        ({"type": "ping", "v": 1}, Ping()),
    ],
)
def test_every_kind_reads_as_its_own_frozen_value(message: dict[str, Any], expected: object) -> None:
    read = read_message(message)
    assert read == expected
    assert type(read) is type(expected)
    assert message["type"] == read.KIND
    with pytest.raises(dataclasses.FrozenInstanceError):
        read.KIND = "other"  # type: ignore[misc]


def test_every_type_the_protocol_names_has_a_kind() -> None:
    assert MESSAGE_TYPES == (
        "join",
        "act",
        "check",
        "legal",
        "choose",
        "resume",
        "auto",
        "chat",
        "hint",
        "ping",
    )
    needed: dict[str, dict[str, Any]] = {
        "act": {"action": None},
        "choose": {"skip": False},
        "auto": {"on": True},
        "chat": {"phrase": CHAT_PHRASES[0]},
    }
    for kind in MESSAGE_TYPES:
        assert kind == read_message({"type": kind, **needed.get(kind, {})}).KIND


@pytest.mark.parametrize(
    ("message", "named"),
    [
        ({"type": "dance"}, "unknown message type 'dance'; known: join, act"),
        ({"type": "join", "token": 5}, "join.token: a string or null, got 5"),
        ({"type": "join", "since": "3"}, "join.since"),
        ({"type": "join", "since": -1}, "join.since"),
        ({"type": "join", "since": True}, "join.since"),
        ({"type": "act"}, 'act: the message has no "action"'),
        ({"type": "check", "id": True}, "check.id"),
        ({"type": "check", "id": "x" * 65}, "check.id"),
        ({"type": "check", "id": [1]}, "check.id"),
        ({"type": "choose"}, 'choose: send exactly one of "skip"'),
        ({"type": "choose", "skip": True, "leader": 1}, 'choose: send exactly one of "skip"'),
        ({"type": "choose", "skip": "yes"}, "choose.skip: true or false, got 'yes'"),
        ({"type": "choose", "leader": 4}, "choose.leader: a seat 0 to 3, got 4"),
        ({"type": "choose", "leader": True}, "choose.leader"),
        ({"type": "auto"}, "auto.on: true (托管 on) or false (off), got None"),
        ({"type": "auto", "on": 1}, "auto.on"),
        ({"type": "chat", "phrase": "hi there"}, "chat.phrase: one of hello"),
        ({"type": "chat"}, "chat.phrase"),
    ],
)
def test_a_malformed_message_is_bad_message_naming_the_field(message: dict[str, Any], named: str) -> None:
    with pytest.raises(ProtocolError) as refused:
        read_message(message)
    assert refused.value.code == "bad_message"
    assert named in refused.value.message
    assert refused.value.reason is None
