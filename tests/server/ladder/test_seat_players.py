"""The bots that play the ladder one seat per connection (docs/ladder.md, "Over the competition
protocol"): ready with 2 × deal pairs idle connections, each seat given to one of them, ready again when
enough are idle, and never while too few are."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, cast

from cardroom.server.ladder import LadderService, LadderSettings
from cardroom.server.ladder.seat_players import BotIdentity, SeatPlayers

TAO = BotIdentity("bot:7", "ann", 1, "Little Tao")


@dataclass
class Ladder:
    """What the pool asks of the ladder service, noted."""

    settings: LadderSettings = field(default_factory=lambda: LadderSettings(deal_pairs=1))
    ready: dict[str, Any] = field(default_factory=dict)
    schedules: int = 0

    def mark_ready(self, bot: str, owner: str, generation: int, name: str, send: Any) -> None:
        self.ready[bot] = send

    def unready(self, bot: str, send: Any) -> None:
        if self.ready.get(bot) == send:
            del self.ready[bot]

    def schedule(self) -> list[str]:
        self.schedules += 1
        return []


@dataclass(eq=False)
class Player:
    seats: list[dict[str, Any]] = field(default_factory=list)

    def take_seat(self, notice: dict[str, Any]) -> None:
        self.seats.append(notice)


def test_a_bot_is_ready_with_a_connection_per_seat_and_each_seat_goes_to_one() -> None:
    ladder = Ladder()
    players = SeatPlayers(cast(LadderService, ladder))
    first, second, third = Player(), Player(), Player()
    players.add(TAO, first)
    assert players.needed == 2
    assert TAO.key not in ladder.ready, "one connection is not enough for a match's two seats"
    players.add(TAO, second)
    assert TAO.key in ladder.ready
    assert ladder.schedules == 1, "the ladder looks for a match at once"
    send = ladder.ready[TAO.key]
    send({"type": "seat", "table": "t1", "seat": 0, "token": "x"})
    assert TAO.key not in ladder.ready, "too few idle connections left"
    send({"type": "seat", "table": "t2", "seat": 1, "token": "y"})
    send({"type": "result", "match": "m"})
    assert [len(player.seats) for player in (first, second)] == [1, 1]
    assert players.idle(TAO.key) == 0
    players.add(TAO, third)
    players.done(TAO, first)
    assert TAO.key in ladder.ready, "idle again after its table"
    players.remove(TAO, third)
    assert TAO.key not in ladder.ready
    players.remove(TAO, first)
    players.remove(TAO, second)
    assert players.idle(TAO.key) == 0


def test_a_new_generations_connections_start_afresh() -> None:
    ladder = Ladder()
    players = SeatPlayers(cast(LadderService, ladder))
    players.add(TAO, Player())
    players.add(TAO, Player())
    rotated = BotIdentity(TAO.key, TAO.owner, 2, TAO.name)
    players.add(rotated, Player())
    assert TAO.key not in ladder.ready
    assert players.idle(TAO.key) == 1
