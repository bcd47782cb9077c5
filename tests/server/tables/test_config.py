"""Table configurations and the defaults they take: the rules' clocks by default, round trips, named
errors."""

from __future__ import annotations

from typing import Any

import pytest

from cardroom.server.tables.config import Clocks, SeatConfig, TableConfig, TableDefaults, bot_seat


def test_the_default_clocks_are_the_conduct_rules() -> None:
    """docs/rules/competition.md#clocks: tribute 20 s, return 40 s, lead 40 s, follow 20 s (and Shengji's: 3 s
    to declare each time a card arrives, a minute to bury the kitty); a bot account's 5 s a decision
    (docs/ladder.md, "Clocks and faults")."""
    assert Clocks().to_dict() == {
        "tribute": 20,
        "return": 40,
        "lead": 40,
        "follow": 20,
        "declare": 3,
        "bury": 60,
        "bot": 5,
    }
    assert TableConfig().clocks == Clocks()


def test_a_config_round_trips_through_its_dict() -> None:
    config = TableConfig(
        name="Finals 决赛",
        rules="platform",
        max_deals=8,
        seats=(SeatConfig(), bot_seat("search"), SeatConfig(), bot_seat("random")),
        clocks=Clocks(10, 30, 30, 15),
        bot_delay=0.2,
        deal_pause=1.0,
        rated=True,
    )
    assert TableConfig.from_dict(config.to_dict()) == config
    assert config.is_rated
    assert config.human_seats == (0, 2)
    assert config.ruleset.name == "platform"


def test_a_lobby_request_takes_the_servers_defaults_for_what_it_leaves_out() -> None:
    defaults = TableDefaults(clocks=Clocks(lead=60), bot_delay=0.0, deal_pause=1.5)
    config = TableConfig.from_dict(
        {"name": " Evening ", "seats": [{"kind": "human"}, {"kind": "bot"}] * 2, "clocks": {"follow": 12}},
        defaults,
    )
    assert config.name == "Evening"
    assert config.rules == "competition"
    assert config.max_deals is None
    assert config.seats[1] == bot_seat("heuristic")
    assert config.clocks == Clocks(tribute=20, return_=40, lead=60, follow=12)
    assert (config.bot_delay, config.deal_pause) == (0.0, 1.5)


@pytest.mark.parametrize(
    ("values", "named"),
    [
        ([], "JSON object"),
        ({"rules": "shengji"}, "rules: unknown guandan rule set 'shengji'"),
        ({"rules": ["competition"]}, "rules"),
        ({"max_deals": 0}, "max_deals"),
        ({"max_deals": 2.5}, "max_deals"),
        ({"max_deals": True}, "max_deals"),
        ({"seats": [{"kind": "human"}] * 5}, "seats"),
        ({"seats": [{"kind": "robot"}] + [{"kind": "human"}] * 3}, "seats[0]"),
        (
            {"seats": [{"kind": "human"}] * 3 + [{"kind": "bot", "bot": "oracle"}]},
            "seats[3]: unknown bot 'oracle'",
        ),
        ({"seats": [{"kind": "human", "bot": "random"}] + [{}] * 3}, "seats[0]"),
        ({"seats": ["human"] * 4}, "seats[0]"),
        ({"clocks": {"lead": 0}}, "clocks.lead"),
        ({"clocks": {"lead": "slow"}}, "clocks.lead"),
        ({"clocks": {"lead": 4000}}, "clocks.lead"),
        ({"clocks": {"think": 5}}, "clocks: unknown clocks think"),
        ({"clocks": 5}, "clocks"),
        ({"bot_delay": -1}, "bot_delay"),
        ({"deal_pause": float("nan")}, "deal_pause"),
        ({"name": "x" * 41}, "name"),
        ({"name": 7}, "name"),
        ({"players": 4}, "unknown fields: players"),
        ({"rated": "yes"}, "rated: true or false"),
        ({"game": "shengji", "rated": True}, "rated: ratings are Guandan's"),
    ],
)
def test_a_bad_field_is_a_value_error_naming_it(values: Any, named: str) -> None:
    with pytest.raises(ValueError, match=named.replace("[", r"\[").replace("]", r"\]")):
        TableConfig.from_dict(values)


def test_table_defaults_are_checked() -> None:
    with pytest.raises(ValueError, match="bot_delay"):
        TableDefaults(bot_delay=-0.1)
