"""Conduct at a tournament table: penalties and their rulings (违例's skipped turn, 犯规's ended deal,
判负), and the choices the rules give the offender's 下家.

The functions here act on a :class:`~cardroom.server.table.Table` through its log: the live side
records ``penalty``, ``ruling``, ``choice`` and ``chosen`` entries (docs/protocol.md), the ``apply_*``
side is how the table applies them, live or replayed. The table's public methods (``penalise``,
``choose``, ``choice_for``, ``waits_for_choice``) delegate here.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Final

from cardroom.guandan.deal import Deal, EventKind, Phase
from cardroom.guandan.match import MatchPhase
from cardroom.guandan.rulings import FoulRuling, SkipTurnRuling
from cardroom.server import outcomes
from cardroom.server.codec import ChoiceKind, ProtocolError, read_choice
from cardroom.tournament.conduct import (
    EndDeal,
    EndMatch,
    MatchConduct,
    NoEffect,
    Offence,
    PenaltyRecord,
    SkipTurn,
)

if TYPE_CHECKING:
    from cardroom.server.table import Entry, Table

EFFECT_NAMES: Final = {NoEffect: "none", SkipTurn: "skip_turn", EndDeal: "end_deal", EndMatch: "end_match"}
"""How a ruling's effect is named in a ``penalty`` entry."""


@dataclass(frozen=True)
class Choice:
    """A decision the seed gives the offender's 下家 (``seat``), open until ``deadline``: after a 违例,
    whether the offender's next turn in play is skipped (``skip_turn``, "由违规者的下家决定是否停止违规者
    一次出牌"); after a 犯规, who leads the next deal (``leader``, "由违规者的下家…指定首圈领出者"). Only a
    person is asked (a bot or a seat in 托管 takes the default at once, without a ``choice`` entry); the
    default, at the deadline, is to skip, or the chooser itself leads."""

    kind: ChoiceKind
    seat: int
    offender: int
    deadline: float

    def to_json(self) -> dict[str, Any]:
        """The state's ``choice`` (shown to the chooser only)."""
        value: dict[str, Any] = {"kind": self.kind, "offender": self.offender, "deadline": self.deadline}
        if self.kind == "leader":
            value["seats"] = [0, 1, 2, 3]
        return value


# -- the 下家's choices ---------------------------------------------------------------------------


def choose(table: Table, seat: int, message: Mapping[str, Any], now: float) -> list[Entry]:
    """A ``choose`` message (:meth:`Table.choose`)."""
    kind, value = read_choice(message)
    if table.status != "running":
        raise ProtocolError("wrong_phase", f"the table is {table.status}: there is no choice to make")
    choice = open_choice(table, seat, kind)
    if choice is None:
        other = next((open_ for open_ in table.choices if open_.kind == kind), None)
        what = "whether the offender's turn is skipped" if kind == "skip_turn" else "the next leader"
        if other is not None:
            raise ProtocolError(
                "out_of_turn",
                f"seat {other.seat} ({table.names[other.seat]}) chooses {what}, not seat {seat}",
            )
        raise ProtocolError("wrong_phase", f"no choice of {what} is open")
    before = table.number
    answer(table, choice, value, "player", now)
    return table.log[before:]


def choice_for(table: Table, seat: int | None) -> Choice | None:
    """The seat's open choice (the first, should it have two), or ``None``."""
    if seat is None or table.status != "running":
        return None
    return next((choice for choice in table.choices if choice.seat == seat), None)


def waits_for_choice(table: Table) -> bool:
    """Whether play waits for a choice (:meth:`Table.waits_for_choice`)."""
    deal = table.match.current_deal
    if table.status != "running" or deal is None or deal.phase is not Phase.PLAY:
        return False
    return open_skip(table, deal.current_player) is not None


def open_choice(table: Table, seat: int, kind: ChoiceKind) -> Choice | None:
    return next((c for c in table.choices if c.seat == seat and c.kind == kind), None)


def open_skip(table: Table, offender: int | None) -> Choice | None:
    return next((c for c in table.choices if c.kind == "skip_turn" and c.offender == offender), None)


def choice_clock(table: Table) -> float:
    """Seconds a 下家 has to answer: the follow clock (a tournament table's ``play_s`` plus its
    countdown)."""
    if table.conduct is not None:
        clocks = table.conduct.policy.clocks
        return float(clocks.play_s + clocks.countdown_s)
    return table.config.clocks.follow


def in_person(table: Table, seat: int) -> bool:
    """Whether a choice of ``seat`` is asked of its player: a person's seat, not in 托管."""
    return table.config.seats[seat].kind == "human" and not table.auto[seat]


def ask(table: Table, chooser: int, kind: ChoiceKind, offender: int, now: float) -> None:
    """Open a choice of ``chooser`` (a person) with a deadline; a bot's or a 托管 seat's is its
    default, taken at once: a skip (already pending), or the chooser leads."""
    if not in_person(table, chooser):
        return
    table._record(
        {
            "type": "choice",
            "kind": kind,
            "seat": chooser,
            "offender": offender,
            "deadline": now + choice_clock(table),
            "at": now,
        }
    )


def answer(table: Table, choice: Choice, value: bool | int, by: str, now: float) -> None:
    """Record the answer to an open choice (``by``: ``player`` or ``default``); a skip is applied at
    once when the offender is to play."""
    entry: Entry = {
        "type": "chosen",
        "kind": choice.kind,
        "seat": choice.seat,
        "offender": choice.offender,
        "by": by,
        "at": now,
    }
    if choice.kind == "skip_turn":
        entry["skip"] = bool(value)
    else:
        entry["leader"] = int(value)
    table._record(entry)
    if choice.kind == "skip_turn" and value:
        skip_if_due(table, choice.offender, now)


# -- penalties and rulings ------------------------------------------------------------------------


def penalise(table: Table, seat: int, offence: Offence, now: float) -> list[Entry]:
    """Penalise ``seat`` for ``offence`` (:meth:`Table.penalise`)."""
    if table.conduct is None or table.status != "running":
        return []
    before = table.number
    effect = penalise_offence(table, seat, offence, now)
    if isinstance(effect, SkipTurn):
        skip_if_due(table, seat, now)
    return table.log[before:]


def penalise_offence(
    table: Table, seat: int, offence: Offence, now: float
) -> NoEffect | SkipTurn | EndDeal | EndMatch:
    """Record the penalty entry of an offence and carry out an ``EndDeal`` or ``EndMatch``; for a
    ``SkipTurn`` ask the 下家 (a ``choice`` entry) when it is a person. The effect is returned (a skip
    is left to the caller and to :func:`cardroom.server.clocks.due`)."""
    assert table.conduct is not None
    deal_number = len(table.match.deals)
    asked = seat in table.pending_skip or open_skip(table, seat) is not None
    _state, ruling = table.conduct.penalise(offence, at_s=table.elapsed(now), deal=deal_number, seat=seat)
    if not ruling.records:
        return ruling.effect
    table._record(
        {
            "type": "penalty",
            "seat": seat,
            "side": seat % 2,
            "offence": offence.value,
            "records": [record.to_dict() for record in ruling.records],
            "effect": EFFECT_NAMES[type(ruling.effect)],
            "deal_number": deal_number,
            "at": now,
        }
    )
    effect = ruling.effect
    if isinstance(effect, EndMatch):
        outcomes.end_by_forfeit(table, effect.side, now)
    elif isinstance(effect, EndDeal) and table.match.current_deal is not None:
        foul(table, seat, now)
    elif isinstance(effect, SkipTurn) and effect.chooser is not None and not asked:
        ask(table, effect.chooser, "skip_turn", seat, now)
    return effect


def skip_if_due(table: Table, seat: int, now: float) -> bool:
    """Skip the seat's turn now if a skip is pending and it is to play."""
    deal = table.match.current_deal
    if table.status != "running" or deal is None or seat not in table.pending_skip:
        return False
    if not can_skip(deal, seat):
        return False
    skip(table, seat, now)
    return True


def can_skip(deal: Deal, seat: int) -> bool:
    """Whether a pending skip can be applied now: ``seat`` is to play (not tribute or return)."""
    return deal.phase is Phase.PLAY and deal.current_player == seat


def skip(table: Table, seat: int, now: float) -> None:
    """违例's effect (when the offender's 下家 chose it, or took the default): the seat's turn to play
    is skipped, a pass when it follows; when it leads, the lead goes to the other side."""
    table._record({"type": "ruling", "kind": "skip_turn", "seat": seat, "at": now})


def foul(table: Table, seat: int, now: float) -> None:
    """犯规's effect: the deal ends at once, the offender's side 双下; the next deal has no tribute,
    and its leader is named by the offender's 下家 (asked when it is a person)."""
    table._record({"type": "ruling", "kind": "foul", "seat": seat, "at": now})
    table._deal_ended(now)
    chooser = table.match.leader_chooser
    if table.status == "running" and table.match.phase is MatchPhase.DEALING and chooser is not None:
        ask(table, chooser, "leader", seat, now)


# -- applying the entries (live or replayed) ------------------------------------------------------


def apply_penalty(table: Table, entry: Entry) -> None:
    if table.conduct is None:
        raise ValueError("a penalty at a table without a conduct policy")
    records = tuple(PenaltyRecord.from_dict(record) for record in entry["records"])
    table.conduct = MatchConduct(table.conduct.policy, table.conduct.records + records)
    if entry["effect"] == "skip_turn":
        table.pending_skip.add(int(entry["seat"]))


def apply_ruling(table: Table, entry: Entry) -> None:
    seat = int(entry["seat"])
    deal = table.match.current_deal
    if deal is None:
        raise ValueError("a ruling outside a deal")
    before = len(deal.events)
    if entry["kind"] == "skip_turn":
        table.pending_skip.discard(seat)
        table.match.apply_ruling(SkipTurnRuling(seat))
        lead = [event.to for event in deal.events[before:] if event.kind == EventKind.SKIP_TURN]
        if lead and lead[0] is not None:
            entry["lead_to"] = lead[0]
    elif entry["kind"] == "foul":
        table.pending_skip.clear()
        table.choices = [choice for choice in table.choices if choice.kind != "skip_turn"]
        table.match.apply_ruling(FoulRuling(seat))
        assert deal.result is not None
        entry["places"] = list(deal.result.places)
    else:
        raise ValueError(f"unknown ruling {entry['kind']!r}")


def apply_choice(table: Table, entry: Entry) -> None:
    kind = entry["kind"]
    if kind not in ("skip_turn", "leader"):
        raise ValueError(f"unknown choice {kind!r}")
    choice = Choice(kind, int(entry["seat"]), int(entry["offender"]), float(entry["deadline"]))
    if table.status != "running" or open_choice(table, choice.seat, kind) is not None:
        raise ValueError(f"seat {choice.seat} cannot be asked this choice now")
    if kind == "leader" and table.match.phase is not MatchPhase.DEALING:
        raise ValueError("a leader is chosen between deals")
    if kind == "skip_turn":
        table.pending_skip.discard(choice.offender)  # until the 下家 answers
    table.choices.append(choice)


def apply_chosen(table: Table, entry: Entry, at: float) -> None:
    kind = entry["kind"]
    choice = open_choice(table, int(entry["seat"]), kind)
    if choice is None:
        raise ValueError(f"seat {entry['seat']} has no open {kind!r} choice")
    if kind == "skip_turn":
        if not isinstance(entry["skip"], bool):
            raise ValueError("skip: true or false")
        table.choices.remove(choice)
        if entry["skip"]:
            table.pending_skip.add(choice.offender)
        deal = table.match.current_deal
        if deal is not None and deal.phase is Phase.PLAY and deal.current_player == choice.offender:
            table.turn_started = at  # play waited: the offender's clock starts now
    else:
        leader = entry["leader"]
        if isinstance(leader, bool) or not isinstance(leader, int) or leader not in range(4):
            raise ValueError(f"leader: a seat 0 to 3, got {leader!r}")
        table.choices.remove(choice)
        table.named_leader = leader
