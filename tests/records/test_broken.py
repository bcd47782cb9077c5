"""Broken records: bad JSON, a wrong format or version, missing or malformed fields — each a
RecordError that names the field (its JSON path) and what is wrong."""

from __future__ import annotations

import copy
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from cardroom.records import RecordError, read_record, replay, write_record

Record = dict[str, Any]


def setting(path: str, value: object) -> Callable[[Record], None]:
    """A mutation that sets ``a.b[1].c`` (or deletes it when ``value`` is ``DELETE``)."""

    def mutate(record: Record) -> None:
        parts = path.replace("[", ".").replace("]", "").split(".")
        target: Any = record
        for part in parts[:-1]:
            target = target[int(part)] if isinstance(target, list) else target[part]
        last: Any = int(parts[-1]) if isinstance(target, list) else parts[-1]
        if value is DELETE:
            del target[last]
        else:
            target[last] = value

    return mutate


DELETE = object()


def swap_card(record: Record) -> None:
    """Seat 0 holds a third copy of a card in place of one of its own: 108 cards, not both decks."""
    hands = record["deals"][0]["hands"]
    first = hands[0].split()
    other = hands[1].split()[0]
    hands[0] = " ".join([other, *first[1:]])


def drop_card(record: Record) -> None:
    hands = record["deals"][0]["hands"]
    hands[0] = " ".join(hands[0].split()[1:])


def leader_without_turned_card(record: Record) -> None:
    deal = record["deals"][0]
    absent = next(
        card
        for card in deal["hands"][(deal["leader"] + 1) % 4].split()
        if card not in deal["hands"][deal["leader"]].split()
    )
    deal["turned_card"] = absent


@pytest.mark.parametrize(
    ("mutate", "path", "words"),
    [
        (setting("format", "cardroom-shengji-match"), "format", 'expected "cardroom-guandan-match"'),
        (setting("format", DELETE), "format", "missing"),
        (setting("version", 2), "version", "knows version 1, got 2"),
        (setting("version", "1"), "version", 'got "1"'),
        (setting("version", DELETE), "version", "missing"),
        (setting("seats", DELETE), "seats", "missing"),
        (setting("deals", DELETE), "deals", "missing"),
        (setting("rules", DELETE), "rules", "missing"),
        (setting("extra", 1), "", "unknown field extra"),
        (setting("rules.foo", 1), "rules", "unknown rule-set parameters: foo"),
        (setting("rules.return_limit", "sometimes"), "rules", "return_limit"),
        (setting("rules.ace_failure_limit", "x"), "rules", ""),
        (setting("rules.name", 5), "rules.name", 'expected a value like "competition", got 5'),
        (setting("rules.tie_extra_deal", 1), "rules.tie_extra_deal", "expected a value like true, got 1"),
        (setting("rules.pass_ace_partner_place", 3.0), "rules.pass_ace_partner_place", "got 3.0"),
        (setting("rules.partner_rises", [3.5, 2, 1]), "rules.partner_rises", "like [3, 2, 1]"),
        (setting("rules.pass_ace_partner_place", 5), "rules", "pass_ace_partner_place must be 2, 3 or 4"),
        (setting("rules", "competition"), "rules", "must be a JSON object"),
        (setting("seats", ["a", "b", "c"]), "seats", "four seat names, got 3"),
        (setting("seats[2]", 7), "seats[2]", "a seat name is a string"),
        (setting("max_deals", 0), "max_deals", "at least 1"),
        (setting("seed", 1.5), "seed", "an integer or null"),
        (setting("deals", {}), "deals", "expected a JSON array"),
        (
            setting("deals[1].hands[2]", "S2 X1 S3"),
            "deals[1].hands[2]",
            "seat 2's hand: cannot read card 'X1'",
        ),
        (setting("deals[0].hands[3]", ["S2"]), "deals[0].hands[3]", "seat 3's hand is one string"),
        (setting("deals[0].hands", []), "deals[0].hands", "four hands"),
        (drop_card, "deals[0].hands[0]", "seat 0's hand has 26 cards"),
        (swap_card, "deals[0].hands", "not the 108 cards of two decks"),
        (setting("deals[0].leader", DELETE), "deals[0].leader", "first deal names its leader"),
        (setting("deals[0].leader", 4), "deals[0].leader", "a seat 0–3, got 4"),
        (setting("deals[1].leader", 0), "deals[1].leader", "only the first deal names a leader"),
        (setting("deals[1].turned_card", "SA"), "deals[1].turned_card", "only the first deal"),
        (setting("deals[0].turned_card", "Q"), "deals[0].turned_card", "cannot read card 'Q'"),
        (leader_without_turned_card, "deals[0].turned_card", "not in the leader's hand"),
        (setting("deals[0].actions", DELETE), "deals[0].actions", "missing"),
        (setting("deals[0].score", 3), "deals[0]", "unknown field score"),
        (setting("deals[0].actions[0].seat", DELETE), "deals[0].actions[0].seat", "missing"),
        (setting("deals[0].actions[0].seat", True), "deals[0].actions[0].seat", "a seat 0–3, got true"),
        (setting("deals[0].actions[1].tribute", "HA"), "deals[0].actions[1]", "exactly one of"),
        (setting("deals[0].actions[1].card", "HA"), "deals[0].actions[1]", "unknown field card"),
        (setting("deals[0].actions[1].play", "C4"), "deals[0].actions[1].play", "triple [type, rank, cards]"),
        (
            setting("deals[0].actions[1].play[0]", "Kicker"),
            "deals[0].actions[1].play[0]",
            "unknown play type",
        ),
        (setting("deals[0].actions[1].play[1]", "Z"), "deals[0].actions[1].play[1]", "unknown rank 'Z'"),
        (setting("deals[0].actions[1].play[2]", []), "deals[0].actions[1].play[2]", "the cards played"),
        (setting("deals[0].actions[1].play[2][0]", "C44"), "deals[0].actions[1].play[2][0]", "(seat 2)"),
        (setting("deals[0].actions[0].play", ["PASS", "", []]), "deals[0].actions[0].play", "a pass is"),
        (setting("deals[1].actions[0].tribute", "HRR"), "deals[1].actions[0].tribute", "cannot read card"),
        (setting("deals[1].actions[1].return", 3), "deals[1].actions[1].return", "one card"),
        (setting("result", [1]), "result", "must be a JSON object"),
        (setting("meta", "x"), "meta", "must be a JSON object"),
    ],
)
def test_a_broken_field_is_named(
    legal: Record, mutate: Callable[[Record], None], path: str, words: str
) -> None:
    mutate(legal)
    with pytest.raises(RecordError) as caught:
        replay(legal)
    assert caught.value.path == path
    assert words in str(caught.value)
    assert str(caught.value).startswith(f"{path}: " if path else "")


def test_a_record_is_a_json_object() -> None:
    with pytest.raises(RecordError, match="the record must be a JSON object"):
        replay([1, 2])


def test_deals_must_follow_each_other(legal: Record) -> None:
    unfinished = copy.deepcopy(legal)
    del unfinished["deals"][0]["actions"][10:]
    with pytest.raises(RecordError, match=r"deals\[1\]: deal 1 \(deals\[0\]\) did not finish"):
        replay(unfinished)
    extra = copy.deepcopy(legal)
    extra["deals"].append(copy.deepcopy(extra["deals"][1]))
    with pytest.raises(RecordError, match=r"deals\[2\]: the match was over after 2 deals"):
        replay(extra)


def test_meta_is_free_form(legal: Record) -> None:
    legal["meta"] = {"table": "东风 1", "started": "2024-05-01T10:00:00+08:00"}
    assert replay(legal).ok


def test_bad_json_names_line_and_column(tmp_path: Path) -> None:
    path = tmp_path / "broken.json"
    path.write_text('{\n  "format": "cardroom-guandan-match",\n  "version": 1,,\n}\n', encoding="utf-8")
    with pytest.raises(RecordError, match=r"not valid JSON: .* at line 3, column 16"):
        read_record(path)


def test_unreadable_files(tmp_path: Path) -> None:
    with pytest.raises(RecordError, match="cannot read"):
        read_record(tmp_path / "missing.json")
    latin = tmp_path / "latin.json"
    latin.write_bytes('{"seats": ["Zoë"]}'.encode("latin-1"))
    with pytest.raises(RecordError, match="not UTF-8"):
        read_record(latin)
    array = tmp_path / "array.json"
    array.write_text("[]", encoding="utf-8")
    with pytest.raises(RecordError, match="must hold a JSON object, got a JSON list"):
        read_record(array)


def test_no_broken_record_is_written(tmp_path: Path, legal: Record) -> None:
    legal["version"] = 0
    with pytest.raises(RecordError, match="version"):
        write_record(tmp_path / "out.json", legal)
    assert not (tmp_path / "out.json").exists()
