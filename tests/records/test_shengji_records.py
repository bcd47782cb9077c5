"""Shengji match records (``cardroom-shengji-match``): random matches round-trip, one mistake per
hand-written record names deal, action, seat and rule, malformed fields name their JSON path, and the
command line replays both games' records with the same exit codes."""

from __future__ import annotations

import copy
import json
import random
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from cardroom.cards import NATURAL_RANKS, Card, Rank, full_deck, parse_cards
from cardroom.cli import app
from cardroom.records import RecordError, read_record
from cardroom.records.shengji import (
    SHENGJI_FORMAT,
    ShengjiMatchRecord,
    parse_shengji_record,
    play_random_shengji,
    random_action,
    replay_shengji,
    shengji_record_of,
    write_shengji_record,
)
from cardroom.shengji import SECOND_TABLE, Bury, Match, Phase, Play, ShengjiRules

DATA = Path(__file__).parent / "data"
runner = CliRunner()
WIDE = {"COLUMNS": "200"}

# -- a hand-written deal -----------------------------------------------------------------------------
# Level 2, seat 0 draws first. Seat 0 is dealt H2 first (it declares hearts) and SA; seat 1 is dealt S2
# first, and holds S3 and C4; seat 2 holds both DA. The rest of both decks fill the hands in print order.

FIXED: dict[int, list[str]] = {0: ["H2", "SA"], 1: ["S2", "S3", "C4"], 2: ["DA", "DA"], 3: []}


def hand_written_deck() -> tuple[list[list[Card]], list[Card]]:
    """The four dealt hands (25 cards, in drawing order) and the kitty."""
    pool = Counter(full_deck())
    hands: list[list[Card]] = []
    for seat in range(4):
        cards = [Card.parse(text) for text in FIXED[seat]]
        pool.subtract(cards)
        hands.append(cards)
    rest = sorted(pool.elements())
    for seat in range(4):
        need = 25 - len(hands[seat])
        hands[seat] += rest[:need]
        rest = rest[need:]
    return hands, rest


def deck_text() -> str:
    hands, kitty = hand_written_deck()
    order = [hands[index % 4][index // 4] for index in range(100)] + kitty
    return " ".join(str(card) for card in order)


def declaring() -> list[dict[str, Any]]:
    """Seat 0 declares H2 on its first card; everyone else passes: 100 draws, then seats 0–2 pass."""
    actions: list[dict[str, Any]] = [{"seat": index % 4, "pass": True} for index in range(100)]
    actions[0] = {"seat": 0, "declare": "H2"}
    return actions + [{"seat": seat, "pass": True} for seat in (0, 1, 2)]


def hand_written() -> dict[str, Any]:
    """A legal, unfinished record: declaring (actions 0–102), the bury (103), SA led (104), S3 (105)."""
    _, kitty = hand_written_deck()
    actions = [
        *declaring(),
        {"seat": 0, "bury": " ".join(str(card) for card in kitty)},
        {"seat": 0, "play": "SA"},
        {"seat": 1, "play": "S3"},
    ]
    return {
        "format": SHENGJI_FORMAT,
        "version": 1,
        "rules": {"name": "shengji"},
        "seats": ["Ann", "Bo", "Chen 陈", "Dai"],
        "seed": None,
        "deals": [{"deck": deck_text(), "first_drawer": 0, "actions": actions}],
    }


def run(*args: str) -> tuple[int, str]:
    result = runner.invoke(app, list(args), env=WIDE)
    return result.exit_code, result.output


# -- round trips ---------------------------------------------------------------------------------------


@pytest.mark.parametrize("seed", [0, 1, 2, 3, 4, 5])
def test_a_random_match_round_trips(seed: int, tmp_path: Path) -> None:
    record = play_random_shengji(seed, max_deals=3)
    path = tmp_path / "match.json"
    write_shengji_record(path, record)
    read = read_record(path)
    assert read == record
    report = replay_shengji(read)
    assert report.ok, (report.violation, report.mismatches)
    assert report.result == record["result"]
    assert len(report.deals) == 3
    assert report.actions_applied == sum(len(deal["actions"]) for deal in record["deals"])
    assert shengji_record_of(report.match, record["seats"], seed=seed) == record
    assert play_random_shengji(seed, max_deals=3) == record, "a seed gives the same match"


def test_a_whole_random_match_round_trips() -> None:
    record = play_random_shengji(3, rules=SECOND_TABLE)
    assert record["result"]["finished"]
    assert record["rules"]["name"] == "shengji_second_table"
    report = replay_shengji(json.loads(json.dumps(record)))
    assert report.ok
    assert report.finished
    assert report.winner == record["result"]["winner"]
    assert report.result == record["result"]


OLD_DEFAULT = ShengjiRules(
    levels=NATURAL_RANKS,
    must_play=(Rank.TWO, Rank.FIVE, Rank.TEN, Rank.JACK, Rank.QUEEN, Rank.KING, Rank.ACE),
)
"""The default before 打升級's seven-level ladder: every rank 2…A, stops at 2, 5, 10, J, Q, K, A."""


def test_a_record_of_the_old_default_ladder_replays_under_its_own_rules() -> None:
    """A record holds every parameter of its rule set, so a record written under the old default ladder
    replays as played, with levels (3, 4) the seven-level ladder does not have; cut down to its name, its
    rules would be today's default and the same actions no longer give the recorded match."""
    record = json.loads(json.dumps(play_random_shengji(0, max_deals=4, rules=OLD_DEFAULT)))
    assert record["rules"]["levels"] == [rank.letter for rank in NATURAL_RANKS]
    assert record["result"]["levels"] == ["4", "3"]
    report = replay_shengji(record)
    assert report.ok, (report.violation, report.mismatches)
    assert report.match.rules == OLD_DEFAULT
    assert report.result == record["result"]
    cut = replay_shengji({**record, "rules": {"name": "shengji"}})
    assert not cut.ok


def test_the_record_keeps_the_dealing_order_and_the_first_drawer() -> None:
    record = play_random_shengji(11, max_deals=2)
    match = replay_shengji(record).match
    first, second = record["deals"]
    assert first["deck"].split() == [str(card) for card in match.deals[0].deck]
    assert first["first_drawer"] == match.deals[0].first_drawer
    assert second["first_drawer"] is None
    kinds = Counter(key for deal in record["deals"] for action in deal["actions"] for key in action)
    assert kinds["pass"] > 200
    assert kinds["bury"] == 2
    assert kinds["play"] > 50


def test_random_actions_are_uniform_over_small_choices() -> None:
    """A bury from 33 cards is drawn among the distinct multisets; check one against the core."""
    rng = random.Random(5)
    match = Match()
    deal = match.deal_random(rng)
    while deal.phase is Phase.DECLARE:
        match.apply(random_action(deal, rng))
    bury = random_action(deal, rng)
    assert isinstance(bury, Bury)
    assert len(bury.cards) == 8
    assert deal.can(bury)
    match.apply(bury)
    lead = random_action(deal, rng)
    assert isinstance(lead, Play)
    assert deal.can(lead)


def test_a_hand_written_record_is_legal() -> None:
    report = replay_shengji(hand_written())
    assert report.ok
    assert report.actions_applied == 106
    assert report.state == "deal 1 is in its tricks phase, seat 2 to act"
    assert not report.finished


# -- one mistake each ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("index", "action", "seat", "rule"),
    [
        (1, {"seat": 1, "declare": "S2"}, 1, "WeakOverturnError"),
        (0, {"seat": 0, "declare": "S2"}, 0, "NotHeldError"),
        (103, {"seat": 0, "bury": "SB"}, 0, "IllegalBuryError"),
        (104, {"seat": 0, "play": "DA"}, 0, "NotHeldError"),
        (105, {"seat": 1, "play": "C4"}, 1, "MustFollowSuitError"),
        (105, {"seat": 2, "play": "DA"}, 2, "OutOfTurnError"),
        (104, {"seat": 0, "declare": "H2"}, 0, "WrongPhaseError"),
    ],
    ids=["weak-overturn", "declare-not-held", "bury-count", "card-not-held", "revoke", "turn", "phase"],
)
def test_one_mistake_names_deal_action_seat_and_rule(
    index: int, action: dict[str, Any], seat: int, rule: str
) -> None:
    record = hand_written()
    if rule == "IllegalBuryError":
        _, kitty = hand_written_deck()
        action = {"seat": 0, "bury": " ".join(str(card) for card in kitty[:7])}
    record["deals"][0]["actions"][index] = action
    report = replay_shengji(record)
    violation = report.violation
    assert violation is not None
    assert not report.ok
    assert (violation.deal_index, violation.action_index, violation.overall_index) == (0, index, index)
    assert violation.seat == seat
    assert violation.rule == rule, violation.message
    assert violation.action == action
    assert violation.path == f"deals[0].actions[{index}]"
    assert report.actions_applied == index
    assert report.state == f"stopped at the illegal action deals[0].actions[{index}]"


def test_a_wrong_result_is_a_mismatch() -> None:
    record = play_random_shengji(2, max_deals=2)
    wrong = copy.deepcopy(record)
    wrong["result"]["levels"] = ["A", "2"]
    wrong["result"]["deals"][1]["score"] += 5
    report = replay_shengji(wrong)
    assert report.violation is None
    assert not report.ok
    levels = " : ".join(record["result"]["levels"])
    assert (
        f'result.levels: the record says ["A", "2"], the replay gives {json.dumps(levels.split(" : "))}'
        in (report.mismatches)
    )
    assert any(line.startswith("result.deals[1].score: the record says") for line in report.mismatches)


def test_an_unfinished_record_claiming_a_finish_is_a_mismatch() -> None:
    record = hand_written()
    record["result"] = {"finished": True, "winner": 0, "levels": ["2", "2"], "deals": []}
    report = replay_shengji(record)
    assert report.mismatches == (
        "result.finished: the record says true, the replay gives false",
        "result.winner: the record says 0, the replay gives null",
    )


# -- malformed fields ----------------------------------------------------------------------------------


def _set(record: dict[str, Any], path: list[str | int], value: object) -> None:
    target: Any = record
    for key in path[:-1]:
        target = target[key]
    target[path[-1]] = value


@pytest.mark.parametrize(
    ("path", "value", "where", "words"),
    [
        (["format"], "cardroom-guandan-match", "format", 'expected "cardroom-shengji-match"'),
        (["version"], 2, "version", "this reader knows version 1, got 2"),
        (["rules", "foo"], 1, "rules", "unknown rule-set parameters: foo"),
        (["rules", "max_rise"], "3", "rules.max_rise", "expected a value like 3"),
        (["rules", "levels"], ["2", "Z"], "rules", "bad value for rule-set parameter levels"),
        (["seats"], ["a", "b"], "seats", "four seat names, got 2"),
        (["seats", 3], 4, "seats[3]", "a seat name is a string"),
        (["seed"], "7", "seed", "an integer or null"),
        (["extra"], 1, "", "unknown field extra"),
        (["deals"], {}, "deals", "expected a JSON array"),
        (["deals", 0, "deck"], "SA SX", "deals[0].deck", "card 2 of the deck: cannot read card 'SX'"),
        (["deals", 0, "deck"], "SA SA", "deals[0].deck", "the deck has 2 cards"),
        (["deals", 0, "deck"], ["SA"], "deals[0].deck", "one string of 108 cards"),
        (["deals", 0, "first_drawer"], None, "deals[0].first_drawer", "missing: the first deal names"),
        (["deals", 0, "first_drawer"], 4, "deals[0].first_drawer", "a seat 0–3, got 4"),
        (["deals", 0, "hands"], [], "deals[0]", "unknown field hands"),
        (["deals", 0, "actions", 3, "seat"], 5, "deals[0].actions[3].seat", "a seat 0–3, got 5"),
        (["deals", 0, "actions", 3, "pass"], False, "deals[0].actions[3].pass", "a pass is written true"),
        (["deals", 0, "actions", 104, "play"], ["SA"], "deals[0].actions[104].play", "one string"),
        (["deals", 0, "actions", 104, "play"], "SX", "deals[0].actions[104].play", "cannot read card 'SX'"),
        (["deals", 0, "actions", 104, "bury"], "SA", "deals[0].actions[104]", "exactly one of"),
        (["deals", 0, "actions", 104, "lead"], "SA", "deals[0].actions[104]", "unknown field lead"),
        (["deals", 0, "actions", 0], [0, "H2"], "deals[0].actions[0]", "must be a JSON object"),
        (["result"], [], "result", "the result must be a JSON object"),
    ],
)
def test_a_malformed_field_names_its_path(
    path: list[str | int], value: object, where: str, words: str
) -> None:
    record = hand_written()
    _set(record, path, value)
    with pytest.raises(RecordError) as caught:
        replay_shengji(record)
    assert caught.value.path == where
    assert words in caught.value.message


def test_a_deck_that_is_not_both_decks_names_the_counts() -> None:
    record = hand_written()
    cards = record["deals"][0]["deck"].split()
    cards[cards.index("SB")] = "HR"
    record["deals"][0]["deck"] = " ".join(cards)
    with pytest.raises(RecordError, match=r"deals\[0\].deck: the deck is not the 108 cards .*SB ×1, HR ×3"):
        parse_shengji_record(record)


def test_deals_that_cannot_follow_each_other() -> None:
    record = hand_written()
    record["deals"].append({"deck": deck_text(), "actions": []})
    with pytest.raises(RecordError, match=r"^deals\[1\]: deal 1 \(deals\[0\]\) did not finish"):
        replay_shengji(record)
    record["deals"][1]["first_drawer"] = 0
    with pytest.raises(RecordError, match=r"^deals\[1\].first_drawer: only the first deal"):
        replay_shengji(record)


def test_a_parsed_record_writes_back_the_same_json() -> None:
    record = hand_written()
    parsed = parse_shengji_record(record)
    assert isinstance(parsed, ShengjiMatchRecord)
    assert parsed.to_json() == {**record, "rules": parsed.rules.to_dict()}
    assert parse_cards(record["deals"][0]["actions"][0]["declare"]) == parsed.deals[0].actions[0].cards


# -- the command line, both games ------------------------------------------------------------------------


def test_cli_replays_a_legal_shengji_record(tmp_path: Path) -> None:
    path = tmp_path / "shengji.json"
    code, output = run("play-random", "--game", "shengji", "--seed", "4", "--deals", "2", "--out", str(path))
    assert code == 0, output
    assert "Shengji, 2 deals" in output
    assert "unfinished" in output
    code, output = run("replay", str(path))
    assert code == 0, output
    assert "Shengji match record: rules shengji, seed 4, 2 deals" in output
    report = replay_shengji(read_record(path))
    for deal in report.deals:
        result = deal.summary.result
        assert f"seat {deal.summary.dealer} (seat {deal.summary.dealer})" in output
        assert f"{result.kitty_points} ×{result.kitty_multiplier}" in output
    assert "Unfinished match: 2 deals played; the next deal is not in the record" in output
    assert f"Legal record: all {report.actions_applied} actions replayed." in output


def test_cli_replays_a_whole_shengji_match(tmp_path: Path) -> None:
    path = tmp_path / "whole.json"
    code, output = run(
        "play-random",
        "--game",
        "shengji",
        "--seed",
        "3",
        "--rules",
        "shengji_second_table",
        "--out",
        str(path),
    )
    assert code == 0, output
    code, output = run("replay", str(path))
    assert code == 0, output
    assert "wins[/]" not in output
    assert " wins, passed A: levels " in output
    assert "no trump" in output or "♠ S" in output


def test_cli_exit_1_for_an_illegal_shengji_action(tmp_path: Path) -> None:
    record = hand_written()
    record["deals"][0]["actions"][105] = {"seat": 1, "play": "C4"}
    path = tmp_path / "revoke.json"
    path.write_text(json.dumps(record, ensure_ascii=False), encoding="utf-8")
    code, output = run("replay", str(path))
    assert code == 1, output
    assert "Illegal action at deals[0].actions[105]: deal 1, action 106 of the deal, action 106" in output
    assert "seat 1 (Bo): play C4" in output
    assert "rule broken: MustFollowSuitError: " in output


def test_cli_exit_1_for_a_wrong_shengji_result(tmp_path: Path) -> None:
    record = play_random_shengji(2, max_deals=1)
    record["result"]["deals"][0]["kitty_multiplier"] = 64
    path = tmp_path / "wrong.json"
    path.write_text(json.dumps(record), encoding="utf-8")
    code, output = run("replay", str(path))
    assert code == 1, output
    assert "The recorded result does not match the replay" in output
    assert "result.deals[0].kitty_multiplier: the record says 64" in output


@pytest.mark.parametrize(
    ("change", "words"),
    [
        ({"version": 3}, "version: this reader knows version 1, got 3"),
        ({"format": "cardroom-bridge-match"}, 'format: expected "cardroom-guandan-match" or '),
        ({"seats": []}, "seats: four seat names, got 0"),
    ],
)
def test_cli_exit_2_for_a_broken_shengji_record(change: dict[str, Any], words: str, tmp_path: Path) -> None:
    path = tmp_path / "broken.json"
    path.write_text(json.dumps({**hand_written(), **change}), encoding="utf-8")
    code, output = run("replay", str(path))
    assert code == 2, output
    assert "Broken record" in output
    assert words in output


def test_cli_exit_codes_for_guandan_records_are_unchanged(tmp_path: Path) -> None:
    assert run("replay", str(DATA / "legal.json"))[0] == 0
    assert run("replay", str(DATA / "out_of_turn.json"))[0] == 1
    assert run("replay", str(DATA / "result_mismatch.json"))[0] == 1
    assert run("replay", str(DATA / "bad_card_token.json"))[0] == 2
    path = tmp_path / "guandan.json"
    code, output = run("play-random", "--seed", "1", "--deals", "1", "--out", str(path))
    assert code == 0, output
    assert read_record(path)["format"] == "cardroom-guandan-match"
    code, output = run("replay", str(path))
    assert code == 0
    assert "Guandan match record" in output


def test_cli_refuses_an_unknown_game_or_preset(tmp_path: Path) -> None:
    code, output = run("play-random", "--game", "bridge", "--seed", "1", "--out", str(tmp_path / "x.json"))
    assert code == 2
    assert "unknown game" in output
    code, output = run(
        "play-random",
        "--game",
        "shengji",
        "--rules",
        "competition",
        "--seed",
        "1",
        "--out",
        str(tmp_path / "y"),
    )
    assert code == 2
    assert "unknown Shengji rule set" in output
    assert not (tmp_path / "x.json").exists()


def test_cli_exit_2_for_a_file_that_is_not_json(tmp_path: Path) -> None:
    path = tmp_path / "bad.json"
    path.write_text('{"format": "cardroom-shengji-match",', encoding="utf-8")
    code, output = run("replay", str(path))
    assert code == 2
    assert "is not valid JSON" in output


def test_a_drawn_multiset_is_uniform_over_the_distinct_ones() -> None:
    from cardroom.records.shengji import _draw_multiset

    items = [(Card.parse("SA"), 2), (Card.parse("HK"), 1), (Card.parse("C5"), 2)]
    rng = random.Random(1)
    counts = Counter(" ".join(map(str, _draw_multiset(items, 2, rng))) for _ in range(5000))
    assert set(counts) == {"SA SA", "SA HK", "SA C5", "HK C5", "C5 C5"}
    assert all(850 < count < 1150 for count in counts.values()), counts


def test_a_follow_among_many_is_drawn_and_legal() -> None:
    """A void seat answering an 8-card tractor has C(12, 8) = 495 follows: drawn, not listed."""
    from cardroom.cards import Rank, Suit
    from cardroom.shengji import Deal

    hands = [
        parse_cards("S3 S3 S4 S4 S5 S5 S6 S6 D3 D4 D5 D6"),
        parse_cards("C3 C4 C5 C6 C7 C8 C9 CT CJ CQ CK CA"),
        parse_cards("S7 S7 S8 S8 S9 S9 ST ST SJ SJ SQ SQ"),
        parse_cards("D7 D8 D9 DT DJ DQ DK DA D7 D8 D9 DT"),
    ]
    deal = Deal.at_position(
        hands, Rank.TWO, trump=Suit.HEARTS, dealer=0, leader=0, buried=parse_cards("H3 H4 H5 H6 H7 H8 H9 HT")
    )
    deal.apply(Play(0, parse_cards("S3 S3 S4 S4 S5 S5 S6 S6")))
    rng = random.Random(2)
    follows = {random_action(deal, rng) for _ in range(200)}
    assert len(follows) > 100
    assert all(isinstance(play, Play) and len(play.cards) == 8 and deal.can(play) for play in follows)
