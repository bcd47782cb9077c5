"""How the records in ``tests/records/data/`` were made: a legal two-deal record from a seed, then each
mistake file is that record with one action edited (and cut short a few actions after it, without its
``result``). Run ``python -m tests.records.build_data`` from the repository root to rebuild them; the
tests hold the expected index, seat and rule of each, so a rebuild that moves them shows up there.
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from pathlib import Path
from typing import Any

from cardroom.cards import ALL_CARDS, Card
from cardroom.guandan.deal import Deal, Phase
from cardroom.guandan.plays import PlayKind, rank_order
from cardroom.records import dumps_record, play_random, replay, write_record

DATA = Path(__file__).parent / "data"
SEED = 1
SEATS = ("Ann", "Bo", "Chen 陈", "Dai")
KEEP_AFTER = 3

Record = dict[str, Any]


def legal() -> Record:
    """A fixed-deal match of two deals; the second starts with a single tribute."""
    return play_random(SEED, max_deals=2, seats=SEATS)


def replay_to(record: Record, deal_index: int, action_index: int) -> Deal:
    """The deal ``deal_index`` of ``record`` just before its action ``action_index``."""
    cut = copy.deepcopy(record)
    cut.pop("result", None)
    del cut["deals"][deal_index + 1 :]
    del cut["deals"][deal_index]["actions"][action_index:]
    report = replay(cut)
    assert report.ok
    return report.match.deals[deal_index]


def edited(record: Record, deal_index: int, action_index: int, action: dict[str, Any]) -> Record:
    """``record`` with one action replaced, cut short ``KEEP_AFTER`` actions later, without a result."""
    result = copy.deepcopy(record)
    result.pop("result", None)
    del result["deals"][deal_index + 1 :]
    actions = result["deals"][deal_index]["actions"]
    actions[action_index] = action
    del actions[action_index + 1 + KEEP_AFTER :]
    return result


def first(
    deal_index: int, record: Record, test: Callable[[Deal, dict[str, Any]], bool], start: int = 0
) -> int:
    """The first action index (from ``start``) of the deal where ``test`` holds before it."""
    actions = record["deals"][deal_index]["actions"]
    for index in range(start, len(actions)):
        if test(replay_to(record, deal_index, index), actions[index]):
            return index
    raise AssertionError("no such action")


def single(card: Card) -> list[object]:
    return ["Single", card.rank.letter, [str(card)]]


def build() -> dict[str, Record]:
    base = legal()
    files: dict[str, Record] = {"legal.json": base}

    # Seat acting out of turn: action 5 of deal 1 made by the next seat instead.
    moved = copy.deepcopy(base["deals"][0]["actions"][5])
    moved["seat"] = (moved["seat"] + 1) % 4
    files["out_of_turn.json"] = edited(base, 0, 5, moved)

    # The leader of the first trick passes.
    leader = base["deals"][0]["leader"]
    files["pass_on_lead.json"] = edited(base, 0, 0, {"seat": leader, "play": ["PASS", "PASS", "PASS"]})

    # A single that does not beat the single before it.
    def lower_single(deal: Deal, action: dict[str, Any]) -> bool:
        previous = deal.previous
        return previous is not None and previous.kind is PlayKind.SINGLE and _lowest(deal, action) is not None

    index = first(0, base, lower_single, start=10)
    deal = replay_to(base, 0, index)
    seat = base["deals"][0]["actions"][index]["seat"]
    low = _lowest(deal, base["deals"][0]["actions"][index])
    assert low is not None
    files["does_not_beat.json"] = edited(base, 0, index, {"seat": seat, "play": single(low)})

    # A lead of a card the seat does not hold.
    index = first(0, base, lambda deal, action: deal.previous is None, start=20)
    deal = replay_to(base, 0, index)
    seat = base["deals"][0]["actions"][index]["seat"]
    missing = next(card for card in ALL_CARDS if deal.hands[seat][card] == 0)
    files["not_held.json"] = edited(base, 0, index, {"seat": seat, "play": single(missing)})

    # A "pair" of two different ranks.
    index = first(0, base, lambda deal, action: deal.previous is None, start=30)
    deal = replay_to(base, 0, index)
    seat = base["deals"][0]["actions"][index]["seat"]
    hand = deal.hand(seat)
    low, high = hand[0], next(card for card in hand if card.rank != hand[0].rank)
    files["not_a_combination.json"] = edited(
        base, 0, index, {"seat": seat, "play": ["Pair", low.rank.letter, [str(low), str(high)]]}
    )

    # Deal 2 (tribute): the payer gives its lowest card, not its highest.
    tribute = base["deals"][1]["actions"][0]
    assert "tribute" in tribute
    deal = replay_to(base, 1, 0)
    payer = tribute["seat"]
    lowest = min(deal.hand(payer), key=lambda card: rank_order(card.rank, deal.level))
    files["tribute_not_highest.json"] = edited(base, 1, 0, {"seat": payer, "tribute": str(lowest)})

    # Deal 2: a play while the tribute is due.
    files["play_during_tribute.json"] = edited(base, 1, 0, {"seat": payer, "play": single(lowest)})

    # Deal 2: the payer is dealt both big jokers (抗贡: nobody pays) and pays anyway.
    anti = edited(base, 1, 0, tribute)
    hands = [text.split() for text in anti["deals"][1]["hands"]]
    holder = next(seat for seat in range(4) if seat != payer and "HR" in hands[seat])
    given = next(name for name in hands[payer] if name != "HR")
    hands[holder][hands[holder].index("HR")], hands[payer][hands[payer].index(given)] = given, "HR"
    anti["deals"][1]["hands"] = [" ".join(hand) for hand in hands]
    files["tribute_under_anti_tribute.json"] = anti

    # Deal 2: the receiver returns the tribute card itself (above 10).
    returned = base["deals"][1]["actions"][1]
    assert "return" in returned
    files["return_too_high.json"] = edited(
        base, 1, 1, {"seat": returned["seat"], "return": tribute["tribute"]}
    )

    # A card token nobody can read (a broken record, not an illegal action).
    index = next(
        number
        for number, action in enumerate(base["deals"][0]["actions"])
        if number >= 3 and action["play"][0] != "PASS"
    )
    broken = copy.deepcopy(base["deals"][0]["actions"][index])
    broken["play"][2][0] = "SX"
    files["bad_card_token.json"] = edited(base, 0, index, broken)

    # A legal record whose stored result is wrong in two places.
    wrong = copy.deepcopy(base)
    wrong["result"]["levels"] = ["A", "2"]
    wrong["result"]["deals"][0]["rise"] = 3
    files["result_mismatch.json"] = wrong

    # A legal record that stops in the middle of deal 2.
    unfinished = copy.deepcopy(base)
    del unfinished["result"]
    del unfinished["deals"][1]["actions"][20:]
    files["unfinished.json"] = unfinished
    return files


def _lowest(deal: Deal, action: dict[str, Any]) -> Card | None:
    """A card of the acting seat that does not beat the previous single."""
    previous = deal.previous
    assert previous is not None
    assert previous.rank is not None
    seat = action["seat"]
    if deal.phase is not Phase.PLAY or deal.current_player != seat:
        return None
    key = rank_order(previous.rank, deal.level)
    lower = [card for card in deal.hand(seat) if rank_order(card.rank, deal.level) < key]
    return lower[0] if lower else None


def main() -> None:
    DATA.mkdir(exist_ok=True)
    for name, record in build().items():
        if name == "bad_card_token.json":  # write_record refuses a broken record
            (DATA / name).write_text(dumps_record(record), encoding="utf-8")
        else:
            write_record(DATA / name, record)
        print(name)


if __name__ == "__main__":
    main()
