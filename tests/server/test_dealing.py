"""What the card room deals, played through a real server (``cardroom serve`` in a subprocess) and real
websockets (issue 40, "Correctness: what is dealt" and "A table's seed cannot be guessed").

Each game gets two tables of two deals, Ann at seat 0 (her short clocks hand her seat to 托管, so the
match plays itself) and three bots. Ann's websocket reads every frame until the match is over; the
record then says what was dealt. Every deal of both tables deals other cards, no Shengji deck is in
print order (a Shengji table once dealt the sorted deck: the same hands at every table, the eight aces
in the kitty), what Ann was shown is what the record says she was dealt, and the table's secret (the
``start`` entry's seed, read from the server's database) is in no frame and no HTTP answer, before the
match is over or after.
"""

from __future__ import annotations

import json
import zlib
from collections import Counter
from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient

from cardroom.cards import ALL_CARDS, Card, Rank, full_deck, parse_cards, parse_in_order
from cardroom.server.live.bot_runner import BotRunner
from cardroom.server.storage.store import Store
from tests.server.conftest import Peer, room_of
from tests.server.serving import Server

SHORT = {"tribute": 0.05, "return": 0.05, "lead": 0.05, "follow": 0.05, "declare": 0.05, "bury": 0.05}
"""Ann's clocks: each runs out at once and 托管 plays for her."""
SORTED_DECK = full_deck()


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    running = Server(tmp_path_factory.mktemp("dealing"))
    try:
        yield running
    finally:
        running.stop()


def play_a_table(server: Server, game: str) -> tuple[str, list[dict[str, Any]], list[str], dict[str, Any]]:
    """Create a two-deal table (Ann and three random bots), sit Ann, watch her websocket until the
    match is over; the table's id, her frames, every text the server sent on the way (the frames and
    the answers of the table's HTTP routes, asked while the match runs and after) and the record."""
    table = server.api(
        "POST",
        "/api/tables",
        {
            "name": f"{game} dealing",
            "game": game,
            "max_deals": 2,
            "clocks": SHORT,
            "seats": [{"kind": "human"}, *[{"kind": "bot", "bot": "random"}] * 3],
        },
    )
    table_id = table["id"]
    texts = [json.dumps(table)]
    frames: list[dict[str, Any]] = []
    seat = server.api("POST", f"/api/tables/{table_id}/seats/0", {"name": "Ann"})
    texts.append(json.dumps(seat))
    with server.socket(table_id) as ws:
        ws.send(json.dumps({"type": "join", "token": seat["token"], "since": 0}))
        asked = False
        while True:
            text = ws.recv(timeout=60)
            assert isinstance(text, str)
            texts.append(text)
            frame = json.loads(text)
            frames.append(frame)
            assert frame["type"] != "error", frame
            if frame["type"] == "state" and frame["phase"] not in ("waiting", "finished") and not asked:
                asked = True  # once, while the match runs
                for path in (f"/api/tables/{table_id}", f"/api/tables/{table_id}/record", "/api/tables"):
                    texts.append(json.dumps(server.api("GET", path)))
            if frame["type"] == "state" and frame["phase"] == "finished":
                break
    assert asked, "the match was seen running"
    record = server.api("GET", f"/api/tables/{table_id}/record")
    texts.append(json.dumps(record))
    if game == "shengji":
        for number in (1, 2):
            texts.append(json.dumps(server.api("GET", f"/api/tables/{table_id}/deals/{number}/replay")))
    texts.append(json.dumps(server.api("GET", f"/api/tables/{table_id}")))
    texts.append(json.dumps(server.api("GET", "/api/tables?status=finished")))
    return table_id, frames, texts, record


def stored_seed(server: Server, table_id: str) -> str:
    """The table's secret, as the server's database holds it (its ``start`` entry)."""
    store = Store(f"sqlite:///{server.log.parent / 'cardroom.sqlite3'}")
    try:
        start = next(entry for entry in store.entries(table_id) if entry["type"] == "start")
    finally:
        store.close()
    seed: str = start["seed"]
    return seed


def events(frames: list[dict[str, Any]], kind: str) -> list[dict[str, Any]]:
    return [frame["event"] for frame in frames if frame["type"] == "event" and frame["event"]["type"] == kind]


def assert_secret(seed: str, texts: list[str]) -> None:
    """The seed is 128 random bits from ``secrets`` (32 hex digits) and no text holds it."""
    assert len(seed) == 32, seed
    assert int(seed, 16) >= 0, seed
    leaks = [text[:200] for text in texts if seed in text]
    assert not leaks, f"the seed {seed} was sent: {leaks}"
    assert not any('"seed": "' in text or '"seed":"' in text for text in texts)


@pytest.mark.server_process
def test_guandan_tables_deal_other_cards_each_deal_and_keep_the_seed(server: Server) -> None:
    """Rule: the cards are shuffled for every deal (docs/guandan.md; docs/server.md, "What it does")."""
    dealt: list[tuple[str, ...]] = []
    for _ in range(2):
        table_id, frames, texts, record = play_a_table(server, "guandan")
        assert len(record["deals"]) >= 2, "two deals, and one more while the levels are equal"
        shown = [event["hand"] for event in events(frames, "deal")]
        assert len(shown) == len(record["deals"]), "Ann's websocket was shown every deal"
        for deal, hand in zip(record["deals"], shown, strict=True):
            hands = tuple(deal["hands"])
            assert Counter(parse_cards(hands[0])) == Counter(parse_cards(" ".join(hand))), (
                "the record holds the hand Ann was dealt"
            )
            for seat in range(4):
                assert parse_cards(hands[seat]) != SORTED_DECK[seat::4], "a sorted deck dealt round"
                assert parse_cards(hands[seat]) != SORTED_DECK[27 * seat : 27 * seat + 27]
            dealt.append(hands)
        assert_secret(stored_seed(server, table_id), texts)
    assert len(set(dealt)) == len(dealt) >= 4, "two tables, two deals or more each: all different"


def in_print_order(deck: tuple[Card, ...]) -> bool:
    return list(deck) == sorted(deck, key=lambda card: card.index)


def plays_by_deal(frames: list[dict[str, Any]]) -> list[tuple[int, dict[int, list[Counter[Card]]]]]:
    """For each deal the websocket showed: the seat that buried the kitty (the dealer), and each seat's
    plays (a failed throw, 甩牌, as tried: cards the seat held)."""
    deals: list[tuple[int, dict[int, list[Counter[Card]]]]] = []
    dealer = -1
    played: dict[int, list[Counter[Card]]] = {seat: [] for seat in range(4)}
    for frame in frames:
        event = frame.get("event") if frame["type"] == "event" else None
        if event is None:
            continue
        if event["type"] == "action" and "bury" in event["action"]:
            dealer = event["seat"]
        elif event["type"] == "action" and "play" in event["action"]:
            played[event["seat"]].append(Counter(parse_cards(event["action"]["play"])))
        elif event["type"] == "deal_end":
            deals.append((dealer, played))
            dealer, played = -1, {seat: [] for seat in range(4)}
    return deals


@pytest.mark.server_process
def test_shengji_tables_deal_shuffled_decks_in_dealing_order_and_keep_the_seed(server: Server) -> None:
    """Rule: the 108 cards are shuffled and drawn one by one in turn from the first drawer, the last
    eight being the kitty (docs/shengji.md). The record's deck is in dealing order: every card a seat
    played, as the websocket showed it, came from its own draws (or the kitty, for the dealer)."""
    decks: list[tuple[Card, ...]] = []
    for _ in range(2):
        table_id, frames, texts, record = play_a_table(server, "shengji")
        assert len(record["deals"]) == 2
        deal_events = events(frames, "deal")
        shown = plays_by_deal(frames)
        assert len(deal_events) == len(shown) == 2
        for number, (deal, event, (dealer, played)) in enumerate(
            zip(record["deals"], deal_events, shown, strict=True), start=1
        ):
            assert "deck" not in event, "the deck is never sent"
            deck = parse_in_order(deal["deck"])
            assert Counter(deck) == Counter(dict.fromkeys(ALL_CARDS, 2))
            assert not in_print_order(deck), f"deal {number} dealt the sorted deck"
            assert Counter(card.rank for card in deck[100:]) != Counter({Rank.ACE: 8})
            first = event["first_drawer"] if event["first_drawer"] is not None else event["dealer"]
            assert first == (deal["first_drawer"] if number == 1 else dealer)
            for seat in range(4):
                drawn = Counter(deck[(seat - first) % 4 : 100 : 4])
                held = drawn + Counter(deck[100:]) if seat == dealer else drawn
                assert all(play <= held for play in played[seat]), f"deal {number}: seat {seat}"
                if seat != dealer:
                    seen = set().union(*played[seat])
                    assert seen == set(drawn), f"deal {number}: seat {seat} played all its draws"
            decks.append(deck)
        assert_secret(stored_seed(server, table_id), texts)
    assert len(set(decks)) == 4, "two tables, two deals each: four different decks"


def test_a_bots_seed_comes_from_the_tables_secret(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A bot's random choices cannot be foreseen either: the seed the server hands a bot mixes the
    table's secret into the table's id, the seat, the bot and the log's number (all of them public)."""
    seeds: list[int] = []
    decide = BotRunner.decide

    async def recording(self: BotRunner, game: str, name: str, seed: int, observation: Any) -> Any:
        seeds.append(seed)
        return await decide(self, game, name, seed, observation)

    monkeypatch.setattr(BotRunner, "decide", recording)
    bots = [{"kind": "bot", "bot": "random"}] * 4
    created = client.post("/api/tables", json={"name": "Bots", "seats": bots, "max_deals": 1})
    assert created.status_code == 201, created.text
    with client.websocket_connect(f"/ws/tables/{created.json()['id']}") as ws:
        watcher = Peer(ws)
        if watcher.join()["phase"] != "finished":
            watcher.next_state(lambda frame: frame["phase"] == "finished")
    table = room_of(client, created.json()["id"]).table
    actions = [entry for entry in table.log if entry["type"] == "action"]
    assert len(seeds) >= len(actions) > 0, "every action of the deal was a bot's decision"
    assert table.seed is not None
    numbers = range(table.number + 1)

    def seeds_of(prefix: str) -> set[int]:
        return {
            zlib.crc32(f"{prefix}{table.id}:{seat}:random:{number}".encode())
            for seat in range(4)
            for number in numbers
        }

    assert set(seeds) <= seeds_of(f"{table.seed}:")
    assert not set(seeds) & seeds_of("")
