"""Ladder tables (docs/ladder.md, "Ladder tables"): one Guandan deal, casual, at the room's ladder clock
and the documented fault limit; a deal pair's two tables share one secret seed, so the same cards are
dealt to the same seats, and the seed is in no view of either table."""

from __future__ import annotations

import json

import pytest
from fastapi.testclient import TestClient

from cardroom.server.tables.config import FAULT_LIMIT, Clocks, LadderLink, TableConfig, bot_seat
from cardroom.server.tables.guandan import Table
from tests.server.conftest import create_table, rooms_of
from tests.server.tables.test_guandan import play_out

LINK = LadderLink("m1", 0, False)
SEATS = (bot_seat(), bot_seat("random"), bot_seat(), bot_seat("random"))


def ladder_config(link: LadderLink = LINK, values: dict[str, object] | None = None) -> TableConfig:
    fields: dict[str, object] = {"max_deals": 1, "seats": SEATS, "bot_delay": 0.0, "deal_pause": 0.0}
    fields.update(values or {})
    return TableConfig(ladder=link, **fields)  # type: ignore[arg-type]


def test_a_ladder_table_reads_back_and_names_its_match_and_pair() -> None:
    config = ladder_config(LadderLink("m1", 1, True))
    assert config.to_dict()["ladder"] == {"match": "m1", "pair": 1, "swapped": True}
    assert TableConfig.from_dict(config.to_dict()) == config
    assert TableConfig().to_dict()["ladder"] is None
    quick = ladder_config(values={"clocks": Clocks(bot=0.5)})
    assert TableConfig.from_dict(quick.to_dict()).clocks.bot == 0.5, "the room's --ladder-clock"


@pytest.mark.parametrize(
    ("values", "problem"),
    [
        ({"max_deals": 2}, "one Guandan deal"),
        ({"rated": True}, "not rated"),
        ({"fault_limit": FAULT_LIMIT + 1}, "fault limit"),
    ],
)
def test_a_ladder_table_keeps_its_one_deal_casual_and_the_documented_fault_limit(
    values: dict[str, object], problem: str
) -> None:
    with pytest.raises(ValueError, match=problem):
        ladder_config(LINK, values)


@pytest.mark.parametrize(
    ("link", "problem"),
    [
        ({"match": "", "pair": 0, "swapped": False}, "ladder.match"),
        ({"match": "m", "pair": -1, "swapped": False}, "ladder.pair"),
        ({"match": "m", "pair": 0, "swapped": "yes"}, "ladder.swapped"),
        ({"match": "m", "pair": 0}, "ladder: expected"),
    ],
)
def test_a_bad_ladder_link_is_refused_by_name(link: dict[str, object], problem: str) -> None:
    with pytest.raises(ValueError, match=problem):
        TableConfig.from_dict({"max_deals": 1, "ladder": link})


def test_a_pairs_two_tables_deal_the_same_cards_to_the_same_seats_from_their_shared_secret() -> None:
    direct = Table("t1", ladder_config(), seed="pair-secret")
    swapped = Table("t2", ladder_config(LadderLink("m1", 0, True)), seed="pair-secret")
    other = Table("t3", ladder_config(LadderLink("m1", 1, False)), seed="another-secret")
    dealt = []
    for table in (direct, swapped, other):
        table.start_if_ready(1.0)
        dealt.append(next(entry["hands"] for entry in table.log if entry["type"] == "deal"))
        play_out(table)
        assert table.status == "finished"
        assert len(table.match.summaries) == 1
    assert dealt[0] == dealt[1]
    assert dealt[0] != dealt[2]
    for table in (direct, swapped):
        seen = json.dumps([event for _, event in table.events_for(None, 0, table.number)])
        seen += json.dumps(table.view(None, 2.0)) + json.dumps(table.record())
        assert "pair-secret" not in seen


def test_the_lobby_may_not_make_a_ladder_table(client: TestClient) -> None:
    response = client.post("/api/tables", json={"name": "Mine", "max_deals": 1, "ladder": LINK.to_dict()})
    assert response.status_code == 400, response.text
    assert response.json()["reason"] == "ladder_table"
    assert rooms_of(client).rooms == {}
    assert create_table(client)["id"]
