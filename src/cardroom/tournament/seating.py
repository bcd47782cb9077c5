"""Seats by direction (方位) at an event's tables: which player sits North, West, South and East.

The rules seat players "按照公布的桌号和方向" (by the published table and direction) but do not say which
team takes which direction (docs/tournaments.md, "Seats by direction"). The reading here: the table is
laid out as a map seen from above (North opposite South, East on North's left), play goes
counter-clockwise (docs/rules/competition.md#seats), so in play order the seats are 北 → 西 → 南 → 东.
Engine seat 0 sits North: the team at seats 0 & 2 (a pairing's first team, side 0) sits 南北 (N/S),
the team at seats 1 & 3 sits 东西 (E/W). 西家 records the score sheet and 北家 checks it, one player of
each side.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from cardroom.tournament.event import Event, Player, Team
from cardroom.tournament.pairing import Pairing


class Wind(Enum):
    """A direction at the table (方位), by its Chinese name and English letter."""

    NORTH = ("北", "N")
    WEST = ("西", "W")
    SOUTH = ("南", "S")
    EAST = ("东", "E")

    @property
    def chinese(self) -> str:
        return self.value[0]

    @property
    def letter(self) -> str:
        return self.value[1]

    @property
    def english(self) -> str:
        return self.name.title()

    @property
    def seat(self) -> int:
        """The engine seat (0–3) that sits here."""
        return SEAT_WINDS.index(self)


SEAT_WINDS: tuple[Wind, Wind, Wind, Wind] = (Wind.NORTH, Wind.WEST, Wind.SOUTH, Wind.EAST)
"""The direction of engine seats 0–3: play order counter-clockwise, 北 → 西 → 南 → 东 (seat s + 1 is the
下家 of seat s, on its right)."""

SIDE_WINDS: tuple[tuple[Wind, Wind], tuple[Wind, Wind]] = ((Wind.NORTH, Wind.SOUTH), (Wind.EAST, Wind.WEST))
"""Side 0 (seats 0 & 2) sits North and South; side 1 (seats 1 & 3) East and West; in the order the
pairs are named, 南北 and 东西."""

SIDE_NAMES: tuple[tuple[str, str], tuple[str, str]] = (("南北", "N/S"), ("东西", "E/W"))
"""Each side's name: Chinese, English."""

RECORDER: Wind = Wind.WEST
""""由西家在记分表上工整记录逐副比赛结果" (docs/tournaments.md, "Score sheets")."""

CHECKER: Wind = Wind.NORTH
""""北家复查": the checker of the sheet, of the other side."""


def wind_of(seat: int) -> Wind:
    """The direction of engine seat ``seat`` (0–3)."""
    if not 0 <= seat <= 3:
        raise ValueError(f"a seat is 0–3, got {seat}")
    return SEAT_WINDS[seat]


def side_of_wind(wind: Wind) -> int:
    """The side (0: seats 0 & 2, 1: seats 1 & 3) that sits at ``wind``."""
    return wind.seat % 2


@dataclass(frozen=True)
class TableSeat:
    """One seat at a table: its direction, engine seat, side, team and player."""

    wind: Wind
    team: Team
    player: Player

    @property
    def seat(self) -> int:
        return self.wind.seat

    @property
    def side(self) -> int:
        return self.seat % 2


def table_seats(event: Event, pairing: Pairing) -> dict[Wind, TableSeat]:
    """Who sits where at ``pairing``'s table, by direction (in the order 北, 西, 南, 东: play order)."""
    players = event.seat_players(pairing)
    teams = tuple(event.team(team_id) for team_id in pairing.teams)
    return {wind: TableSeat(wind, teams[seat % 2], players[seat]) for seat, wind in enumerate(SEAT_WINDS)}


__all__ = [
    "CHECKER",
    "RECORDER",
    "SEAT_WINDS",
    "SIDE_NAMES",
    "SIDE_WINDS",
    "TableSeat",
    "Wind",
    "side_of_wind",
    "table_seats",
    "wind_of",
]
