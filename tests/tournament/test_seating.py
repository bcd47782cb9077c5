"""Seats by direction (docs/tournaments.md, "Seats by direction"): play goes counter-clockwise
(docs/rules/competition.md#seats), partners sit opposite, the pairing's first team sits 南北."""

from __future__ import annotations

import pytest

from cardroom.tournament import EventConfig, PairingSystem
from cardroom.tournament.seating import (
    CHECKER,
    RECORDER,
    SEAT_WINDS,
    SIDE_WINDS,
    Wind,
    side_of_wind,
    table_seats,
    wind_of,
)
from tests.tournament.helpers import event_of

MAP_ANGLE = {Wind.EAST: 0, Wind.NORTH: 90, Wind.WEST: 180, Wind.SOUTH: 270}
"""Each direction's angle on a map seen from above, counter-clockwise from East."""


def test_rule_seats_play_goes_counter_clockwise_and_partners_sit_opposite() -> None:
    """seats: seat s + 1 (the 下家) is the next seat counter-clockwise; seat s + 2, the partner, opposite."""
    assert SEAT_WINDS == (Wind.NORTH, Wind.WEST, Wind.SOUTH, Wind.EAST)
    for seat in range(4):
        here = MAP_ANGLE[wind_of(seat)]
        assert MAP_ANGLE[wind_of((seat + 1) % 4)] == (here + 90) % 360, "the 下家 is counter-clockwise"
        assert MAP_ANGLE[wind_of((seat + 2) % 4)] == (here + 180) % 360, "partners opposite"
        assert wind_of(seat).seat == seat
    with pytest.raises(ValueError, match="a seat is 0–3"):
        wind_of(4)


def test_the_first_team_sits_north_south_and_the_sheet_duties_fall_to_both_sides() -> None:
    assert SIDE_WINDS == ((Wind.NORTH, Wind.SOUTH), (Wind.EAST, Wind.WEST))
    assert [side_of_wind(wind) for wind in SEAT_WINDS] == [0, 1, 0, 1]
    assert (RECORDER, CHECKER) == (Wind.WEST, Wind.NORTH)
    assert side_of_wind(RECORDER) != side_of_wind(CHECKER), "西家 records, 北家 of the other side checks"
    assert [wind.chinese for wind in Wind] == ["北", "西", "南", "东"]


def test_table_seats_put_each_player_at_a_direction() -> None:
    event = event_of(4, EventConfig(system=PairingSystem.ROUND_ROBIN)).pair_next_round()
    pairing = event.round(1).pairings[0]
    seats = table_seats(event, pairing)
    first, second = (event.team(team) for team in pairing.teams)
    assert [(seats[w].team, seats[w].player) for w in (Wind.NORTH, Wind.SOUTH)] == [
        (first, first.players[0]),
        (first, first.players[1]),
    ]
    assert [(seats[w].team, seats[w].player) for w in (Wind.WEST, Wind.EAST)] == [
        (second, second.players[0]),
        (second, second.players[1]),
    ]
    assert tuple(seats[wind].player for wind in SEAT_WINDS) == event.seat_players(pairing)
