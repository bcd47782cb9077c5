"""The online platform's rating points (积分) and titles (级别): docs/rules/platform.md#points-per-level.

A pure function of a :class:`~cardroom.guandan.match.Match` (finished or not), the seat events the server
records (a player who left or disconnected) and each player's state before the match (points so far and
how many deals in a row the player finished 末游). :func:`match_points` returns, per seat, the points
change with an itemised list of reasons and the state to carry into the player's next match.

掼蛋方法规则's rules and how they are read here (``docs/platform-points.md`` gives the reasons):

1. 赢方每升一级加1分，输方扣1分 — each winner +1 per level the winners actually rose (after the cap at A),
   each loser −1 per such level (``PointsRules.loss_per_level``; off: −1 per deal that raised the winners).
2. 打牌期间退出或逃跑(掉线2分钟不上线续玩)扣4分 — leaving, or a disconnection not back within 2 minutes,
   while a deal is being played: −4.
3. 牌局中途退出扣2分 — leaving (or a disconnection not back within 2 minutes) between two deals of an
   unfinished match: −2.
4. 打到K以上中途退出或掉线逃跑扣10分 — either, when the leaver's team's level is K or A: −10 instead.
5. 打到A，胜方加10分，输方不扣分 — the deal that passes A (打过A): each winner +10, the losers lose nothing.
6. 为避免炒分，末游7次以上不再扣分和反加分 — a deal whose 末游 (下游) finishes 末游 for the 7th time or more
   in a row moves no points at all: the losers lose nothing and the winners gain nothing.

Titles: ≤0 笨蛋, ≤10 坏蛋, ≤100 鸡蛋, ≤200 活珠, ≤500 毛蛋, ≤1000 铁蛋, ≤2000 银蛋, ≤5000 金蛋, >5000 掼蛋.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from enum import Enum
from typing import Final, Literal

from cardroom.cards import Rank
from cardroom.guandan.match import DealSummary, Match
from cardroom.guandan.tribute import team_of

SEATS: Final = 4

# -- titles (级别) -----------------------------------------------------------------------------------


@dataclass(frozen=True)
class Title:
    """A title (级别) and the points it covers: up to ``upper`` inclusive (``None``: no upper bound)."""

    name: str
    gloss: str
    upper: int | None


TITLES: Final = (
    Title("笨蛋", "dunce (lit. stupid egg)", 0),
    Title("坏蛋", "rascal (lit. bad egg)", 10),
    Title("鸡蛋", "hen's egg", 100),
    Title("活珠", "live pearl (a fertilised egg)", 200),
    Title("毛蛋", "downy egg (an egg with a feathered chick)", 500),
    Title("铁蛋", "iron egg", 1000),
    Title("银蛋", "silver egg", 2000),
    Title("金蛋", "golden egg", 5000),
    Title("掼蛋", "Guandan master (the game's own name)", None),
)
"""掼蛋方法规则's 级别, lowest first: 〈=0笨蛋 〈=10坏蛋 〈=100鸡蛋 〈=200活珠 〈=500毛蛋 〈=1000铁蛋
〈=2000银蛋〈=5000金蛋 〉5000掼蛋."""


def title_of(points: int) -> Title:
    """The title of a player with ``points`` (negative points are 笨蛋)."""
    for candidate in TITLES:
        if candidate.upper is None or points <= candidate.upper:
            return candidate
    raise AssertionError("the last title has no upper bound")


def title(points: int) -> str:
    """The title's name: ``title(0) == "笨蛋"``, ``title(11) == "鸡蛋"``, ``title(5001) == "掼蛋"``."""
    return title_of(points).name


def title_gloss(points: int) -> str:
    """The title in English: ``title_gloss(0) == "dunce (lit. stupid egg)"``."""
    return title_of(points).gloss


# -- parameters ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class PointsRules:
    """The numbers of 掼蛋方法规则's 积分 rules, with the readings chosen where 掼蛋方法规则 is ambiguous."""

    per_level: int = 1
    """Points each winner gains per level the winners rose (赢方每升一级加1分)."""

    loss_per_level: bool = True
    """The losers lose ``per_level`` per level the winners rose (输方扣1分 read under 每升一级); off, 1 per
    deal that raised the winners."""

    pass_ace_bonus: int = 10
    """Each winner's points for the deal that passes A (打到A，胜方加10分); the losers lose nothing."""

    penalty_between_deals: int = 2
    """Leaving between two deals of an unfinished match (牌局中途退出扣2分)."""

    penalty_during_play: int = 4
    """Leaving, or a disconnection not back within 2 minutes, while a deal is played (打牌期间退出或逃跑
    扣4分)."""

    penalty_high_level: int = 10
    """Either, when the leaver's team stands at ``high_level`` or above (打到K以上…扣10分); replaces the
    other penalties."""

    high_level: Rank = Rank.KING
    """The level from which the high-level penalty applies (K: 以上 includes K)."""

    last_place_cap: int | None = 7
    """A deal whose 末游 is 末游 for this many times in a row or more moves no points (末游7次以上不再扣分
    和反加分); ``None``: no cap."""

    def __post_init__(self) -> None:
        numbers = {
            "per_level": self.per_level,
            "pass_ace_bonus": self.pass_ace_bonus,
            "penalty_between_deals": self.penalty_between_deals,
            "penalty_during_play": self.penalty_during_play,
            "penalty_high_level": self.penalty_high_level,
        }
        for name, value in numbers.items():
            if value < 0:
                raise ValueError(f"{name} must be at least 0, got {value}")
        if not Rank.TWO <= self.high_level <= Rank.ACE:
            raise ValueError(f"high_level must be a level 2…A, got {self.high_level.name}")
        if self.last_place_cap is not None and self.last_place_cap < 1:
            raise ValueError(f"last_place_cap must be at least 1 or None, got {self.last_place_cap}")


PLATFORM_POINTS: Final = PointsRules()
"""掼蛋方法规则's numbers."""


# -- inputs ----------------------------------------------------------------------------------------

SeatEventKind = Literal["left", "disconnected"]
SEAT_EVENT_KINDS: Final[tuple[SeatEventKind, ...]] = ("left", "disconnected")


@dataclass(frozen=True)
class SeatEvent:
    """A player leaving the match before its end, as the server records it.

    ``kind``: ``left`` (退出: the player quit) or ``disconnected`` (掉线逃跑: the connection dropped and
    the player was not back within 2 minutes). ``deal_number`` counts deals from 1: the deal being
    played when ``during_play``, else the deal just finished (the player left before the next one).
    ``level_of_leaver_team`` is the level of the leaver's team at that moment (the level it stood at
    when that deal started, or after the deal just finished).
    """

    seat: int
    kind: SeatEventKind
    deal_number: int
    level_of_leaver_team: Rank
    during_play: bool = True

    def __post_init__(self) -> None:
        if self.seat not in range(SEATS):
            raise ValueError(f"a seat is 0–3, got {self.seat}")
        if self.kind not in SEAT_EVENT_KINDS:
            raise ValueError(f"a seat event is 'left' or 'disconnected', got {self.kind!r}")
        if self.deal_number < 1:
            raise ValueError(f"deal numbers count from 1, got {self.deal_number}")
        if not Rank.TWO <= self.level_of_leaver_team <= Rank.ACE:
            raise ValueError(f"a team's level is 2…A, got {self.level_of_leaver_team.name}")


@dataclass(frozen=True)
class PlayerState:
    """What the points rules remember of a player between matches: the points so far and how many of
    the player's last deals in a row ended with the player 末游 (下游)."""

    points: int = 0
    last_place_streak: int = 0

    def __post_init__(self) -> None:
        if self.last_place_streak < 0:
            raise ValueError(f"last_place_streak must be at least 0, got {self.last_place_streak}")

    @property
    def title(self) -> str:
        return title(self.points)


# -- outputs ---------------------------------------------------------------------------------------


class Reason(Enum):
    """Why a seat's points changed (or did not) in one item."""

    WON_LEVELS = "won_levels"
    LOST_LEVELS = "lost_levels"
    PASSED_ACE = "passed_ace"
    OPPONENTS_PASSED_ACE = "opponents_passed_ace"
    LAST_PLACE_CAP = "last_place_cap"
    LEFT_BETWEEN_DEALS = "left_between_deals"
    LEFT_DURING_PLAY = "left_during_play"
    LEFT_AT_HIGH_LEVEL = "left_at_high_level"

    @property
    def seed_rule(self) -> str:
        """掼蛋方法规则's sentence behind this reason."""
        return SEED_RULES[self]


SEED_RULES: Final[dict[Reason, str]] = {
    Reason.WON_LEVELS: "赢方每升一级加1分",
    Reason.LOST_LEVELS: "输方扣1分",
    Reason.PASSED_ACE: "打到A，胜方加10分",
    Reason.OPPONENTS_PASSED_ACE: "输方不扣分(鼓励打完全局)",
    Reason.LAST_PLACE_CAP: "为避免炒分，末游7次以上不再扣分和反加分",
    Reason.LEFT_BETWEEN_DEALS: "牌局中途退出扣2分",
    Reason.LEFT_DURING_PLAY: "打牌期间退出或逃跑(掉线2分钟不上线续玩)扣4分",
    Reason.LEFT_AT_HIGH_LEVEL: "打到K以上中途退出或掉线逃跑扣10分",
}


@dataclass(frozen=True)
class PointsItem:
    """One line of a seat's points: the deal it belongs to, the points (maybe 0), why, and a detail."""

    deal_number: int
    reason: Reason
    points: int
    detail: str

    def describe(self) -> str:
        """``deal 3: +2 the winners rose 2 levels (赢方每升一级加1分)``."""
        return f"deal {self.deal_number}: {self.points:+d} {self.detail} ({self.reason.seed_rule})"


@dataclass(frozen=True)
class SeatPoints:
    """One seat's points from a match: the state before and after and every item in order."""

    seat: int
    before: PlayerState
    after: PlayerState
    items: tuple[PointsItem, ...]

    @property
    def change(self) -> int:
        return sum(item.points for item in self.items)


@dataclass(frozen=True)
class MatchPoints:
    """The points of a match, per seat (seat 0 to 3)."""

    seats: tuple[SeatPoints, SeatPoints, SeatPoints, SeatPoints]

    @property
    def changes(self) -> tuple[int, int, int, int]:
        """Each seat's points change."""
        first, second, third, fourth = (seat.change for seat in self.seats)
        return first, second, third, fourth

    @property
    def states(self) -> tuple[PlayerState, PlayerState, PlayerState, PlayerState]:
        """Each seat's state after the match, to pass to the player's next match."""
        first, second, third, fourth = (seat.after for seat in self.seats)
        return first, second, third, fourth

    def deal_changes(self, deal_number: int) -> tuple[int, int, int, int]:
        """Each seat's points from one deal (its result and any penalty recorded at it)."""
        first, second, third, fourth = (
            sum(item.points for item in seat.items if item.deal_number == deal_number) for seat in self.seats
        )
        return first, second, third, fourth


# -- the rules -------------------------------------------------------------------------------------


def levels_gained(levels_before: tuple[Rank, Rank], summary: DealSummary) -> int:
    """Levels the deal's winners actually rose: after the cap at A, none for the deal that passes A
    (which ends the match) or for a deal won at A without passing it."""
    winner = summary.result.winning_team
    return max(0, summary.levels_after[winner] - levels_before[winner])


def deal_points(
    summary: DealSummary,
    levels_before: tuple[Rank, Rank],
    deal_number: int,
    rules: PointsRules = PLATFORM_POINTS,
) -> tuple[PointsItem, PointsItem, PointsItem, PointsItem]:
    """Each seat's item for one finished deal, before the 末游 cap (rules 1 and 5)."""
    winner = summary.result.winning_team
    items: list[PointsItem] = []
    if summary.passed_ace:
        bonus = PointsItem(deal_number, Reason.PASSED_ACE, rules.pass_ace_bonus, "the winners passed A")
        spared = PointsItem(deal_number, Reason.OPPONENTS_PASSED_ACE, 0, "the opponents passed A")
        items = [bonus if team_of(seat) == winner else spared for seat in range(SEATS)]
    else:
        gained = levels_gained(levels_before, summary)
        levels = "1 level" if gained == 1 else f"{gained} levels"
        loss = gained * rules.per_level if rules.loss_per_level else min(gained, 1) * rules.per_level
        for seat in range(SEATS):
            if team_of(seat) == winner:
                item = PointsItem(
                    deal_number, Reason.WON_LEVELS, gained * rules.per_level, f"the winners rose {levels}"
                )
            else:
                item = PointsItem(deal_number, Reason.LOST_LEVELS, -loss, f"the opponents rose {levels}")
            items.append(item)
    return items[0], items[1], items[2], items[3]


def event_points(event: SeatEvent, rules: PointsRules = PLATFORM_POINTS) -> PointsItem:
    """The penalty for leaving (rules 2, 3 and 4); the lobby can show it as soon as it happens."""
    how = "left" if event.kind == "left" else "disconnected and did not come back within 2 minutes"
    when = "during the deal" if event.during_play else "after the deal"
    if event.level_of_leaver_team >= rules.high_level:
        detail = f"{how} {when}, the team at level {event.level_of_leaver_team.letter}"
        return PointsItem(event.deal_number, Reason.LEFT_AT_HIGH_LEVEL, -rules.penalty_high_level, detail)
    if event.during_play:
        return PointsItem(
            event.deal_number, Reason.LEFT_DURING_PLAY, -rules.penalty_during_play, f"{how} {when}"
        )
    return PointsItem(
        event.deal_number, Reason.LEFT_BETWEEN_DEALS, -rules.penalty_between_deals, f"{how} {when}"
    )


def levels_at(match: Match, deal_number: int, *, during_play: bool) -> tuple[Rank, Rank]:
    """Both teams' levels when deal ``deal_number`` started (``during_play``), or after it finished."""
    finished = deal_number if not during_play else deal_number - 1
    if finished == 0:
        return Rank.TWO, Rank.TWO
    return match.summaries[finished - 1].levels_after


def check_event(match: Match, event: SeatEvent) -> None:
    """Raise ``ValueError`` if ``event`` cannot have happened in ``match``: a deal not yet started, a
    leave after the match's end (not 中途), or a level its team did not stand at."""
    number = event.deal_number
    if event.during_play and number > len(match.deals):
        raise ValueError(f"seat {event.seat} left during deal {number}, but {len(match.deals)} deals started")
    if not event.during_play:
        if number > len(match.summaries):
            raise ValueError(
                f"seat {event.seat} left after deal {number}, but {len(match.summaries)} deals finished"
            )
        if number == len(match.summaries) and match.is_over:
            raise ValueError(f"seat {event.seat} left after deal {number}, when the match was over")
    level = levels_at(match, number, during_play=event.during_play)[team_of(event.seat)]
    if event.level_of_leaver_team != level:
        raise ValueError(
            f"seat {event.seat}'s team stood at level {level.letter} at deal {number}, "
            f"not {event.level_of_leaver_team.letter}"
        )


def match_points(
    match: Match,
    events: Iterable[SeatEvent] = (),
    states: Sequence[PlayerState] | None = None,
    rules: PointsRules = PLATFORM_POINTS,
) -> MatchPoints:
    """The points of ``match`` (finished or not) for the four seats.

    ``states`` are the players' states before the match (seat 0 to 3; fresh ones by default). Every
    finished deal gives each seat present at its end one item (rules 1, 5, and 6 when its 末游 has been
    末游 ``rules.last_place_cap`` times in a row); each event gives its seat a penalty (rules 2–4), and
    the seat takes no part in the deals that finish after it (its streak stays as it was). At most one
    event per seat; ``ValueError`` for an event that does not fit the match (:func:`check_event`).
    """
    before = tuple(states) if states is not None else (PlayerState(),) * SEATS
    if len(before) != SEATS:
        raise ValueError(f"four player states (seat 0 to 3), got {len(before)}")
    by_seat: dict[int, SeatEvent] = {}
    for event in events:
        if event.seat in by_seat:
            raise ValueError(f"seat {event.seat} has two events; a player leaves a match once")
        check_event(match, event)
        by_seat[event.seat] = event
    items: list[list[PointsItem]] = [[] for _ in range(SEATS)]
    streaks = [state.last_place_streak for state in before]
    present = [True] * SEATS

    def leave(number: int, during_play: bool) -> None:
        for seat, event in by_seat.items():
            if present[seat] and event.deal_number == number and event.during_play is during_play:
                items[seat].append(event_points(event, rules))
                present[seat] = False

    levels: tuple[Rank, Rank] = (Rank.TWO, Rank.TWO)
    for number in range(1, len(match.deals) + 1):
        leave(number, True)
        if number > len(match.summaries):
            break
        summary = match.summaries[number - 1]
        last = summary.result.places[3]
        for seat in range(SEATS):
            if present[seat]:
                streaks[seat] = streaks[seat] + 1 if seat == last else 0
        capped = rules.last_place_cap is not None and present[last] and streaks[last] >= rules.last_place_cap
        if capped:
            detail = f"seat {last} finished 末游 {streaks[last]} times in a row"
            deal_items = (PointsItem(number, Reason.LAST_PLACE_CAP, 0, detail),) * SEATS
        else:
            deal_items = deal_points(summary, levels, number, rules)
        for seat in range(SEATS):
            if present[seat]:
                items[seat].append(deal_items[seat])
        levels = summary.levels_after
        leave(number, False)
    seats = []
    for seat in range(SEATS):
        change = sum(item.points for item in items[seat])
        after = replace(before[seat], points=before[seat].points + change, last_place_streak=streaks[seat])
        seats.append(SeatPoints(seat, before[seat], after, tuple(items[seat])))
    return MatchPoints((seats[0], seats[1], seats[2], seats[3]))


__all__ = [
    "PLATFORM_POINTS",
    "SEAT_EVENT_KINDS",
    "SEED_RULES",
    "TITLES",
    "MatchPoints",
    "PlayerState",
    "PointsItem",
    "PointsRules",
    "Reason",
    "SeatEvent",
    "SeatEventKind",
    "SeatPoints",
    "Title",
    "check_event",
    "deal_points",
    "event_points",
    "levels_at",
    "levels_gained",
    "match_points",
    "title",
    "title_gloss",
    "title_of",
]
