"""Conduct at the table (docs/rules/competition.md#clocks and #penalties): the clocks, and the escalation
警告 → 违例 → 犯规 → 判负 applied to timeouts, disconnections and late arrival, as a pure state machine
per match whose rulings are data a server applies.

摜彈's escalation, counted per side (一方) within one round (一轮比赛):

- 违例: "一方受到两次警告 … 记违例，由违规者的下家决定是否停止违规者一次出牌。如违规者应下圈牌领出，则按出牌
  顺序由非违规方领出牌。"
- 犯规: "一方被记两次违例 … 判犯规，本副牌结束，违规方双下，下副牌不进贡，由违规者的下家或裁判长指定首圈
  领出者。"
- 判负: "一方弃权或被判两次犯规的，判本轮比赛结束，非违规方胜" (scored by
  :meth:`cardroom.tournament.scoring.TableResult.forfeit`).

Seats are the match's (0–3, seat + 1 is the 下家); side 0 is seats 0 & 2.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from enum import Enum, IntEnum
from typing import Any

from cardroom.guandan.deal import Deal, DealResult, Phase, PlayAction
from cardroom.guandan.plays import PASS


class Penalty(IntEnum):
    """The penalties, mildest first."""

    WARNING = 1
    VIOLATION = 2
    FOUL = 3
    FORFEIT = 4

    @property
    def label(self) -> str:
        return {1: "警告", 2: "违例", 3: "犯规", 4: "判负"}[self.value]


class Offence(Enum):
    """What the penalty is for."""

    TIMEOUT = "timeout"
    """逾时: the clock and its countdown (读秒) ran out ("仍逾时，给予警告")."""
    DISCONNECTION = "disconnection"
    """掉线: a player's connection was lost (an online card room's offence; the event sets its penalty)."""
    LATE = "late"
    """迟到: a side not seated when the round starts."""
    MISCONDUCT = "misconduct"
    """Any other breach a referee penalises directly."""

    @property
    def label(self) -> str:
        return {"timeout": "逾时", "disconnection": "掉线", "late": "迟到", "misconduct": "违规"}[self.value]


@dataclass(frozen=True)
class Clocks:
    """摜彈's time limits (比赛时间): "进贡者应在抓完牌后20秒内贡牌，还牌者须在贡牌后40秒内还牌";
    "首圈领出者应在还牌后40秒内领出牌，下家应在上家出牌后20秒内出牌". ``countdown_s`` (读秒, its length
    unspecified by 摜彈) follows a limit before the timeout is penalised; later leads get
    ``play_s``."""

    tribute_s: int = 20
    return_s: int = 40
    first_lead_s: int = 40
    play_s: int = 20
    countdown_s: int = 10
    late_warning_minutes: float = 5
    """"迟到5分钟以内，给予警告"."""
    late_foul_minutes: float = 10
    """"迟到10分钟以内，判犯规。迟到超过10分钟，按弃权处理"."""

    def time_allowed(self, deal: Deal) -> int | None:
        """Seconds the player to act has (before the countdown); ``None`` when the deal is over."""
        if deal.phase is Phase.TRIBUTE:
            return self.tribute_s
        if deal.phase is Phase.RETURN:
            return self.return_s
        if deal.phase is Phase.PLAY:
            played = any(isinstance(action, PlayAction) for action in deal.actions)
            return self.play_s if played else self.first_lead_s
        return None


def late_penalty(late_s: float, clocks: Clocks | None = None) -> Penalty | None:
    """The penalty for a side seated ``late_s`` seconds after the start, judged by its own time alone:
    "迟到5分钟以内，给予警告。迟到10分钟以内，判犯规。迟到超过10分钟，按弃权处理。" (``None``: on time)."""
    limits = clocks or Clocks()
    if late_s <= 0:
        return None
    if late_s <= limits.late_warning_minutes * 60:
        return Penalty.WARNING
    if late_s <= limits.late_foul_minutes * 60:
        return Penalty.FOUL
    return Penalty.FORFEIT


@dataclass(frozen=True)
class ConductPolicy:
    """How the event penalises. ``timeout`` and ``disconnection``: the penalty each gives directly
    (``None``: none); ``escalate_after``: how many warnings make a violation, violations a foul, fouls
    a forfeit (摜彈: two each)."""

    timeout: Penalty | None = Penalty.WARNING
    disconnection: Penalty | None = Penalty.WARNING
    escalate_after: tuple[int, int, int] = (2, 2, 2)
    clocks: Clocks = field(default_factory=Clocks)

    def __post_init__(self) -> None:
        if any(count < 1 for count in self.escalate_after):
            raise ValueError("escalation counts are at least 1")

    def to_dict(self) -> dict[str, Any]:
        return {
            "timeout": None if self.timeout is None else self.timeout.name,
            "disconnection": None if self.disconnection is None else self.disconnection.name,
            "escalate_after": list(self.escalate_after),
            "clocks": vars(self.clocks).copy(),
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> ConductPolicy:
        def penalty(name: str | None) -> Penalty | None:
            return None if name is None else Penalty[name]

        first, second, third = data.get("escalate_after", (2, 2, 2))
        return cls(
            penalty(data.get("timeout", "WARNING")),
            penalty(data.get("disconnection", "WARNING")),
            (int(first), int(second), int(third)),
            Clocks(**data.get("clocks", {})),
        )


@dataclass(frozen=True)
class PenaltyRecord:
    """One penalty as the referee records it ("比赛中的判罚由裁判记录"): the side, the player's seat when
    known, the penalty, the offence, the time (seconds from the match's start), the deal (1-based; 0
    before the first) and whether it came from accumulated lesser penalties."""

    side: int
    seat: int | None
    penalty: Penalty
    offence: Offence
    at_s: float
    deal: int
    escalated: bool = False
    note: str = ""

    def describe(self) -> str:
        who = f"seat {self.seat}" if self.seat is not None else f"side {self.side}"
        how = "累计" if self.escalated else self.offence.label
        return f"第{self.deal}副 {self.at_s:.0f}s {who}: {self.penalty.label} ({how})"

    def to_dict(self) -> dict[str, Any]:
        return {
            "side": self.side,
            "seat": self.seat,
            "penalty": self.penalty.name,
            "offence": self.offence.value,
            "at_s": self.at_s,
            "deal": self.deal,
            "escalated": self.escalated,
            "note": self.note,
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> PenaltyRecord:
        return cls(
            int(data["side"]),
            data.get("seat"),
            Penalty[data["penalty"]],
            Offence(data["offence"]),
            float(data["at_s"]),
            int(data["deal"]),
            bool(data.get("escalated", False)),
            str(data.get("note", "")),
        )


# -- effects: what the server applies -------------------------------------------------------------


@dataclass(frozen=True)
class NoEffect:
    """A warning (or no penalty): recorded, play goes on."""


@dataclass(frozen=True)
class SkipTurn:
    """违例: ``chooser`` (the offender's 下家) decides whether the offender's next turn is skipped. When
    the offender would lead, the lead passes to the next player in play order (the other side).
    ``offender`` and ``chooser`` are ``None`` for a side penalised without a seat (late arrival)."""

    side: int
    offender: int | None
    chooser: int | None


@dataclass(frozen=True)
class EndDeal:
    """犯规: the deal ends now with the offending side 双下 (:func:`foul_places`), no tribute next deal,
    whose first leader the offender's 下家 (``chooser``) or the chief referee names."""

    side: int
    offender: int | None
    chooser: int | None
    no_tribute_next: bool = True


@dataclass(frozen=True)
class EndMatch:
    """判负: the round's match ends, the other side wins (:meth:`TableResult.forfeit`)."""

    side: int


Effect = NoEffect | SkipTurn | EndDeal | EndMatch


@dataclass(frozen=True)
class Ruling:
    """What one offence brought: the penalties recorded (the direct one, then any escalation) and the
    effect of the gravest."""

    records: tuple[PenaltyRecord, ...]
    effect: Effect

    @property
    def penalty(self) -> Penalty | None:
        return max((record.penalty for record in self.records), default=None)


def _effect(penalty: Penalty | None, side: int, seat: int | None) -> Effect:
    chooser = None if seat is None else (seat + 1) % 4
    if penalty is Penalty.VIOLATION:
        return SkipTurn(side, seat, chooser)
    if penalty is Penalty.FOUL:
        return EndDeal(side, seat, chooser)
    if penalty is Penalty.FORFEIT:
        return EndMatch(side)
    return NoEffect()


@dataclass(frozen=True)
class MatchConduct:
    """The penalties of one match (one round at one table) so far."""

    policy: ConductPolicy = field(default_factory=ConductPolicy)
    records: tuple[PenaltyRecord, ...] = ()

    def count(self, side: int, penalty: Penalty) -> int:
        return sum(1 for record in self.records if record.side == side and record.penalty is penalty)

    @property
    def forfeited(self) -> int | None:
        """The side that lost the match by 判负, if any."""
        for record in self.records:
            if record.penalty is Penalty.FORFEIT:
                return record.side
        return None

    def penalise(
        self,
        offence: Offence,
        *,
        at_s: float,
        deal: int,
        seat: int | None = None,
        side: int | None = None,
        penalty: Penalty | None = None,
        note: str = "",
    ) -> tuple[MatchConduct, Ruling]:
        """Record an offence by ``seat`` (or by ``side`` when no player is named). The penalty is
        ``penalty`` when given (a referee's call), else the policy's for a timeout or disconnection.
        Escalation follows: the warning that makes two is also a violation, and so on up to 判负."""
        if self.forfeited is not None:
            raise ValueError("the match is already over by 判负")
        if seat is not None:
            if seat not in range(4):
                raise ValueError(f"a seat is 0–3, got {seat}")
            if side is not None and side != seat % 2:
                raise ValueError(f"seat {seat} is not on side {side}")
            side = seat % 2
        if side not in (0, 1):
            raise ValueError("name the offender's seat or side (0 or 1)")
        if penalty is None:
            if offence is Offence.TIMEOUT:
                penalty = self.policy.timeout
            elif offence is Offence.DISCONNECTION:
                penalty = self.policy.disconnection
            else:
                raise ValueError(f"a {offence.value} offence needs the referee's penalty")
        if penalty is None:
            return self, Ruling((), NoEffect())
        records = [PenaltyRecord(side, seat, penalty, offence, at_s, deal, False, note)]
        state = replace(self, records=(*self.records, records[0]))
        while penalty < Penalty.FORFEIT:
            threshold = self.policy.escalate_after[penalty - 1]
            if state.count(side, penalty) % threshold:
                break
            penalty = Penalty(penalty + 1)
            records.append(PenaltyRecord(side, seat, penalty, offence, at_s, deal, True, note))
            state = replace(state, records=(*state.records, records[-1]))
        return state, Ruling(tuple(records), _effect(penalty, side, seat))

    def late(
        self, side: int, minutes: float, *, other_side_minutes: float | None = None, at_s: float = 0.0
    ) -> tuple[MatchConduct, Ruling]:
        """A side seated ``minutes`` late (迟到): up to 5 minutes a warning, up to 10 a foul, more a
        forfeit (按弃权处理). "如双方均迟到，较早到的一方给予警告，较晚到的一方按迟到时间给予判罚。" """
        if minutes <= 0:
            return self, Ruling((), NoEffect())
        earlier = other_side_minutes is not None and minutes < other_side_minutes
        penalty = Penalty.WARNING if earlier else late_penalty(minutes * 60, self.policy.clocks)
        assert penalty is not None
        note = f"迟到{minutes:g}分钟"
        return self.penalise(Offence.LATE, at_s=at_s, deal=0, side=side, penalty=penalty, note=note)

    def to_dict(self) -> dict[str, Any]:
        return {"policy": self.policy.to_dict(), "records": [record.to_dict() for record in self.records]}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> MatchConduct:
        records = tuple(PenaltyRecord.from_dict(record) for record in data.get("records", ()))
        return cls(ConductPolicy.from_dict(data.get("policy", {})), records)


# -- applying effects to the engine ---------------------------------------------------------------


def skip_turn_action(deal: Deal, seat: int) -> PlayAction | None:
    """The action that skips ``seat``'s turn now: a pass, when ``seat`` is to follow a play. ``None``
    when it is not ``seat``'s turn to play or ``seat`` would lead: passing the lead on needs an engine
    hook (``docs/tournaments.md``)."""
    if deal.phase is not Phase.PLAY or deal.current_player != seat or deal.previous is None:
        return None
    return PlayAction(seat, PASS)


def foul_places(offender: int, finished: tuple[int, ...] | list[int] = ()) -> tuple[int, int, int, int]:
    """The finishing order of a deal ended by the offender's foul: "违规方双下". The other side takes
    places 1 and 2 (a player of it already out first), then the offender's partner, then the offender."""
    if offender not in range(4):
        raise ValueError(f"a seat is 0–3, got {offender}")
    side = offender % 2
    others = [seat for seat in finished if seat % 2 != side]
    others += [
        seat for step in range(1, 4) if (seat := (offender + step) % 4) % 2 != side and seat not in others
    ]
    places = [*others, (offender + 2) % 4, offender]
    return places[0], places[1], places[2], places[3]


def foul_result(offender: int, finished: tuple[int, ...] | list[int] = ()) -> DealResult:
    """The engine's :class:`~cardroom.guandan.deal.DealResult` of a deal ended by a foul: the other side
    rises as for 双下 (+3 in the competition rules)."""
    return DealResult(foul_places(offender, finished))


__all__ = [
    "Clocks",
    "ConductPolicy",
    "Effect",
    "EndDeal",
    "EndMatch",
    "MatchConduct",
    "NoEffect",
    "Offence",
    "Penalty",
    "PenaltyRecord",
    "Ruling",
    "SkipTurn",
    "foul_places",
    "foul_result",
    "late_penalty",
    "skip_turn_action",
]
