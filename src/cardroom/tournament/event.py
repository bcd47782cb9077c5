"""A tournament (赛事) as an immutable value: teams register, lots are drawn, rounds are paired
(round robin or Swiss), results are entered per table, and the standings follow.

Every change returns a new :class:`Event`; nothing reads a clock or draws a number except
:meth:`Event.start`, which takes a ``random.Random`` and writes the lots it drew into the event. The
event is plain data: ``to_dict()`` / ``from_dict()`` carry it through JSON, and replaying the same calls
on the same inputs gives the same event.
"""

from __future__ import annotations

import random
from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from enum import Enum
from typing import Any

from cardroom.tournament.conduct import ConductPolicy
from cardroom.tournament.formats import MatchFormat
from cardroom.tournament.pairing import Entrant, Pairing, RoundDraw, round_robin, swiss_round
from cardroom.tournament.scoring import COMPETITION_SCORING, ScoringRules, TableResult
from cardroom.tournament.standings import StandingRow, TeamRound, standings


class PairingSystem(Enum):
    """How rounds are paired: ``auto`` is a round robin when every team can meet every other within
    the rounds asked for (or no number is given), else Swiss."""

    AUTO = "auto"
    ROUND_ROBIN = "round_robin"
    SWISS = "swiss"


class EventPhase(Enum):
    REGISTRATION = "registration"
    RUNNING = "running"
    FINISHED = "finished"


@dataclass(frozen=True)
class Player:
    """A player: an id unique in the event, a display name, and the bot that plays the seat (a name of
    ``cardroom.bots``' registry) when no person does."""

    id: str
    name: str = ""
    bot: str | None = None

    @property
    def display(self) -> str:
        return self.name or self.id


@dataclass(frozen=True)
class Team:
    """A pair of partners (搭档)."""

    id: str
    players: tuple[Player, Player]
    name: str = ""

    @classmethod
    def of_bots(cls, team_id: str, bot: str = "heuristic", name: str = "") -> Team:
        """A team of two bots, to fill a field (e.g. instead of a bye)."""
        players = (Player(f"{team_id}-1", f"{bot} 1", bot), Player(f"{team_id}-2", f"{bot} 2", bot))
        return cls(team_id, players, name or f"{bot} bots")

    @property
    def display(self) -> str:
        return self.name or self.id

    @property
    def is_bot(self) -> bool:
        return all(player.bot is not None for player in self.players)


@dataclass(frozen=True)
class EventConfig:
    """What the organiser sets: the match format, the number of rounds (``None``: a full round robin),
    the pairing system, the scoring and the conduct policy."""

    name: str = ""
    format: MatchFormat = field(default_factory=MatchFormat.to_ace)
    rounds: int | None = None
    system: PairingSystem = PairingSystem.AUTO
    scoring: ScoringRules = COMPETITION_SCORING
    conduct: ConductPolicy = field(default_factory=ConductPolicy)

    def __post_init__(self) -> None:
        if self.rounds is not None and self.rounds < 1:
            raise ValueError(f"an event has at least one round, got {self.rounds}")
        if self.system is PairingSystem.SWISS and self.rounds is None:
            raise ValueError("a Swiss event needs its number of rounds")


@dataclass(frozen=True)
class Round:
    """A paired round and the results entered so far, one per table (``None``: not yet)."""

    number: int
    draw: RoundDraw
    results: tuple[TableResult | None, ...]

    @property
    def pairings(self) -> tuple[Pairing, ...]:
        return self.draw.pairings

    @property
    def complete(self) -> bool:
        return all(result is not None for result in self.results)

    def pairing(self, table: int) -> Pairing:
        for pairing in self.pairings:
            if pairing.table == table:
                return pairing
        raise KeyError(f"round {self.number} has no table {table}")

    def result(self, table: int) -> TableResult | None:
        return self.results[self.pairings.index(self.pairing(table))]


def round_robin_rounds(teams: int) -> int:
    """Rounds of a full round robin: n − 1, or n with an odd number of teams (one bye each)."""
    return teams - 1 if teams % 2 == 0 else teams


@dataclass(frozen=True)
class Event:
    """A tournament's whole state. Build it with ``Event(config)``, then :meth:`register` teams,
    :meth:`start` (draws the lots), and for each round :meth:`pair_next_round` and :meth:`record`."""

    config: EventConfig = field(default_factory=EventConfig)
    teams: tuple[Team, ...] = ()
    lots: tuple[str, ...] = ()
    """Team ids in the order of the lots drawn at the start (lot 1 first): the seeding of a Swiss
    round one and of the round robin's numbers, and the last tie-break."""
    system: PairingSystem | None = None
    """The pairing system in force, fixed at the start."""
    rounds: tuple[Round, ...] = ()

    # -- registration --------------------------------------------------------------------------------

    @property
    def phase(self) -> EventPhase:
        if not self.lots:
            return EventPhase.REGISTRATION
        if len(self.rounds) == self.total_rounds and self.rounds[-1].complete:
            return EventPhase.FINISHED
        return EventPhase.RUNNING

    def team(self, team_id: str) -> Team:
        for team in self.teams:
            if team.id == team_id:
                return team
        raise KeyError(f"no team {team_id!r}")

    def register(self, team: Team) -> Event:
        """Add a team before the start; team ids and player ids are unique in the event."""
        if self.phase is not EventPhase.REGISTRATION:
            raise ValueError("registration is closed: the event has started")
        if any(other.id == team.id for other in self.teams):
            raise ValueError(f"a team {team.id!r} is registered already")
        if team.players[0].id == team.players[1].id:
            raise ValueError("a team is two different players")
        taken = {player.id for other in self.teams for player in other.players}
        clash = [player.id for player in team.players if player.id in taken]
        if clash:
            raise ValueError(f"players already in another team: {clash}")
        return replace(self, teams=(*self.teams, team))

    def fill_with_bots(self, bot: str = "heuristic") -> Event:
        """Make the field even with a bot team (instead of a bye each round)."""
        if len(self.teams) % 2 == 0:
            return self
        return self.register(Team.of_bots(f"bots-{len(self.teams) + 1}", bot))

    # -- the draw ------------------------------------------------------------------------------------

    def start(self, rng: random.Random) -> Event:
        """Close registration: draw the lots with ``rng`` (recorded in ``lots``) and fix the system."""
        if self.phase is not EventPhase.REGISTRATION:
            raise ValueError("the event has started already")
        if len(self.teams) < 2:
            raise ValueError("an event needs two or more teams")
        order = [team.id for team in self.teams]
        rng.shuffle(order)
        full = round_robin_rounds(len(order))
        system, rounds = self.config.system, self.config.rounds
        if system is PairingSystem.AUTO:
            if rounds is not None and rounds > full:
                raise ValueError(f"{rounds} rounds is more than a round robin of {full}: choose Swiss")
            system = PairingSystem.ROUND_ROBIN if rounds is None or rounds == full else PairingSystem.SWISS
        if system is PairingSystem.ROUND_ROBIN and rounds is not None and rounds > full:
            raise ValueError(f"a round robin of {len(order)} teams has {full} rounds, not {rounds}")
        return replace(self, lots=tuple(order), system=system)

    def lot(self, team_id: str) -> int:
        """The team's lot number (1 first)."""
        return self.lots.index(team_id) + 1

    @property
    def total_rounds(self) -> int:
        full = round_robin_rounds(len(self.teams))
        if self.system is PairingSystem.ROUND_ROBIN:
            return min(full, self.config.rounds or full)
        return self.config.rounds or full

    # -- rounds --------------------------------------------------------------------------------------

    def round(self, number: int) -> Round:
        if not 1 <= number <= len(self.rounds):
            raise KeyError(f"no round {number}: {len(self.rounds)} paired")
        return self.rounds[number - 1]

    @property
    def current_round(self) -> Round | None:
        return self.rounds[-1] if self.rounds else None

    def pair_next_round(self) -> Event:
        """Pair the next round: the round robin's next round, or a Swiss round over the standings.
        The previous round must be complete (every table's result entered)."""
        if self.phase is not EventPhase.RUNNING:
            raise ValueError(f"cannot pair: the event is in {self.phase.value}")
        if self.rounds and not self.rounds[-1].complete:
            raise ValueError(f"round {len(self.rounds)} still has tables without a result")
        if len(self.rounds) >= self.total_rounds:
            raise ValueError("every round is paired")
        if self.system is PairingSystem.ROUND_ROBIN:
            draw = round_robin(self.lots)[len(self.rounds)]
        else:
            draw = swiss_round(self.entrants())
        paired = Round(len(self.rounds) + 1, draw, (None,) * len(draw.pairings))
        return replace(self, rounds=(*self.rounds, paired))

    def record(self, round_number: int, table: int, result: TableResult) -> Event:
        """Enter (or correct) a table's result; ``result``'s side 0 is the team at seats 0 & 2. A
        correction never changes pairings already made ("成绩更正不改变已公布的编排")."""
        played = self.round(round_number)
        index = played.pairings.index(played.pairing(table))
        results = list(played.results)
        results[index] = result
        rounds = list(self.rounds)
        rounds[round_number - 1] = replace(played, results=tuple(results))
        return replace(self, rounds=tuple(rounds))

    def record_forfeit(
        self,
        round_number: int,
        table: int,
        team_id: str,
        table_levels: tuple[int, int] = (2, 2),
        deals: int = 0,
    ) -> Event:
        """Enter a forfeit (判负 or 弃权) by ``team_id`` at ``table``; ``table_levels`` by side."""
        side = self.round(round_number).pairing(table).side_of(team_id)
        result = TableResult.forfeit(side, table_levels, deals, self.config.scoring)
        return self.record(round_number, table, result)

    def seat_players(self, pairing: Pairing) -> tuple[Player, Player, Player, Player]:
        """The players by seat 0–3: the first team's players at 0 and 2, the second's at 1 and 3."""
        first, second = (self.team(team_id).players for team_id in pairing.teams)
        return first[0], second[0], first[1], second[1]

    # -- standings -----------------------------------------------------------------------------------

    def team_rounds(self) -> dict[str, list[TeamRound]]:
        """Each team's entered results, byes included, as seen from its side."""
        entries: dict[str, list[TeamRound]] = {team.id: [] for team in self.teams}
        bye = TableResult.bye(self.config.scoring)
        for played in self.rounds:
            for pairing, result in zip(played.pairings, played.results, strict=True):
                if result is None:
                    continue
                first, second = pairing.teams
                entries[first].append(TeamRound(played.number, second, 0, result))
                entries[second].append(TeamRound(played.number, first, 1, result))
            if played.draw.bye is not None:
                entries[played.draw.bye].append(TeamRound(played.number, None, 0, bye))
        return entries

    def standings(self) -> tuple[StandingRow, ...]:
        """The ranking over the results entered so far (:func:`cardroom.tournament.standings.standings`)."""
        if not self.lots:
            raise ValueError("the standings need the lots: start the event")
        return standings(self.team_rounds(), {team_id: self.lot(team_id) for team_id in self.lots})

    def entrants(self) -> list[Entrant]:
        """What Swiss pairing needs of each team, in standings order."""
        met: dict[str, set[str]] = {team.id: set() for team in self.teams}
        sides: dict[str, list[int]] = {team.id: [0, 0] for team in self.teams}
        last: dict[str, int | None] = dict.fromkeys(met)
        byes = dict.fromkeys(met, 0)
        for played in self.rounds:
            for pairing in played.pairings:
                first, second = pairing.teams
                met[first].add(second)
                met[second].add(first)
                for side, team_id in enumerate(pairing.teams):
                    sides[team_id][side] += 1
                    last[team_id] = side
            if played.draw.bye is not None:
                byes[played.draw.bye] += 1
        return [
            Entrant(
                row.team,
                row.tally.points,
                frozenset(met[row.team]),
                byes[row.team],
                (sides[row.team][0], sides[row.team][1]),
                last[row.team],
            )
            for row in self.standings()
        ]

    # -- persistence ---------------------------------------------------------------------------------

    def to_dict(self) -> dict[str, Any]:
        """The event as JSON-ready data."""
        config = self.config
        return {
            "config": {
                "name": config.name,
                "format": config.format.to_dict(),
                "rounds": config.rounds,
                "system": config.system.value,
                "scoring": {
                    "win": config.scoring.win,
                    "draw": config.scoring.draw,
                    "loss": config.scoring.loss,
                    "forfeit_levels": config.scoring.forfeit_levels,
                    "forfeit_floor": config.scoring.forfeit_floor,
                    "forfeit_score": list(config.scoring.forfeit_score),
                },
                "conduct": config.conduct.to_dict(),
            },
            "teams": [
                {
                    "id": team.id,
                    "name": team.name,
                    "players": [{"id": p.id, "name": p.name, "bot": p.bot} for p in team.players],
                }
                for team in self.teams
            ],
            "lots": list(self.lots),
            "system": None if self.system is None else self.system.value,
            "rounds": [
                {
                    "number": played.number,
                    "pairings": [pairing.to_dict() for pairing in played.pairings],
                    "bye": played.draw.bye,
                    "results": [None if result is None else result.to_dict() for result in played.results],
                }
                for played in self.rounds
            ],
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Event:
        raw = data["config"]
        scoring = raw.get("scoring", {})
        win_score, loss_score = scoring.get("forfeit_score", (17, 0))
        config = EventConfig(
            raw.get("name", ""),
            MatchFormat.from_dict(raw.get("format", {})),
            raw.get("rounds"),
            PairingSystem(raw.get("system", "auto")),
            ScoringRules(
                scoring.get("win", 2),
                scoring.get("draw", 1),
                scoring.get("loss", 0),
                scoring.get("forfeit_levels", 4),
                scoring.get("forfeit_floor", 11),
                (int(win_score), int(loss_score)),
            ),
            ConductPolicy.from_dict(raw.get("conduct", {})),
        )
        teams = tuple(_team_from_dict(team) for team in data.get("teams", ()))
        rounds = tuple(
            Round(
                int(played["number"]),
                RoundDraw(tuple(Pairing.from_dict(p) for p in played["pairings"]), played.get("bye")),
                tuple(None if r is None else TableResult.from_dict(r) for r in played["results"]),
            )
            for played in data.get("rounds", ())
        )
        system = data.get("system")
        return cls(
            config,
            teams,
            tuple(data.get("lots", ())),
            None if system is None else PairingSystem(system),
            rounds,
        )


def _team_from_dict(data: dict[str, Any]) -> Team:
    first, second = (Player(p["id"], p.get("name", ""), p.get("bot")) for p in data["players"])
    return Team(data["id"], (first, second), data.get("name", ""))


def new_event(config: EventConfig, teams: Iterable[Team]) -> Event:
    """An event in registration with these teams."""
    event = Event(config)
    for team in teams:
        event = event.register(team)
    return event


__all__ = [
    "Event",
    "EventConfig",
    "EventPhase",
    "PairingSystem",
    "Player",
    "Round",
    "Team",
    "new_event",
    "round_robin_rounds",
]
