"""One room of OpenGuanDan's platform refereed by our rules core: four seats, games to A, and the frames
each seat is sent (docs/openguandan-protocol.md). Pure: no I/O, no clock; the deals come from an
injected :data:`Dealer`, so randomness stays outside.

A :class:`Room` takes events — a seat joins (:meth:`Room.join`), leaves (:meth:`Room.leave`) or answers
its request (:meth:`Room.answer`) — and returns its :data:`Outbox`: the frames to send, seat by seat,
in order. A room asks one seat at a time: the request it owes is kept (:meth:`Room.request_of`), and
an answer is taken only when it is an entry of that request's ``actionList``; anything else raises
:class:`RefusedError`, leaving the room as it was. Frames are built in :mod:`cardroom.openguandan.frames`;
the websocket I/O is :mod:`cardroom.openguandan.server`.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from enum import Enum
from typing import Any, Final

from cardroom.cards import Rank
from cardroom.guandan.deal import Action, Deal, EventKind, Phase, PlayAction, ReturnAction, TributeAction
from cardroom.guandan.match import Match
from cardroom.guandan.plays import PlayKind
from cardroom.guandan.ruleset import COMPETITION, RuleSet
from cardroom.guandan.tribute import TributePlan, partner, team_of
from cardroom.openguandan.frames import (
    Answer,
    Frame,
    FrameType,
    Ranks,
    RoomTally,
    Transfer,
    act_back,
    act_play,
    act_tribute,
    beginning,
    created,
    episode_over,
    game_over,
    game_result,
    join_notice,
    joined,
    notify_anti_tribute,
    notify_back,
    notify_play,
    notify_tribute,
    short,
)
from cardroom.openguandan.wire import action_entry, java_order, play_triple

Outbox = list[tuple[int, Frame]]
"""Frames to send: (seat, frame), in order."""
Dealer = Callable[[Match], Deal]
"""Deals the next deal of a match (``match.deal_random(rng)``, or given hands in tests)."""

JAVA_TYPES: Final = {
    PlayKind.PASS: 0,
    PlayKind.SINGLE: 1,
    PlayKind.PAIR: 2,
    PlayKind.TRIPLE: 3,
    PlayKind.FULL_HOUSE: 4,
    PlayKind.PLATE: 5,
    PlayKind.TUBE: 6,
    PlayKind.STRAIGHT: 7,
    PlayKind.STRAIGHT_FLUSH: 8,
    PlayKind.BOMB: 9,
    PlayKind.FOUR_JOKERS: 10,
}
"""The Java server's numbering of the play types (``Single`` 1 … ``FourKings`` 10): our lists go by it."""
OTHER_TYPES: Final = 11
"""Kinds the platform does not know (rule sets beyond the competition's) come after."""


def random_dealer(rng: random.Random) -> Dealer:
    """Shuffle each deal with ``rng``; the first deal of a game turns a card for its leader."""
    return lambda match: match.deal_random(rng)


class RefusedError(Exception):
    """A request the room does not take; the message says why (sent back with ``code: -1``)."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


class RoomPhase(Enum):
    WAITING = "waiting"
    PLAYING = "playing"
    OVER = "over"


@dataclass
class Sitter:
    """Who holds a seat, and whether their connection is here."""

    user_id: str
    user_name: str | None
    present: bool = True


@dataclass(frozen=True)
class Request:
    """What a seat owes: the answer's type, the ``act`` frame sent, its entries and their actions."""

    kind: FrameType
    frame: Frame
    entries: list[list[Any]]
    actions: Sequence[Action]

    def entry_index(self, entry: object) -> int | None:
        """The index of ``entry`` in the list sent (by equality), or ``None``."""
        try:
            return self.entries.index(entry)  # type: ignore[arg-type]
        except ValueError:
            return None

    def action_of(self, seat: int, answer: Answer) -> Action:
        """The action ``answer`` chose; :class:`RefusedError` when it is of another type than owed, copies
        another tribute than the request's, or ``act`` is not an entry of the list sent."""
        if answer.kind is not self.kind:
            raise RefusedError(f"seat {seat} owes a {self.kind.value}, not a {answer.kind.value}")
        if answer.kind is FrameType.PAYTRIBUTE:
            sent = (self.frame["tributePos"], self.frame["tribute"])
            if (answer.tribute_pos, answer.tribute) != sent:
                raise RefusedError(
                    f"tributePos and tribute must be those of the request ({sent[0]}, {sent[1]!r}), "
                    f"got ({answer.tribute_pos}, {answer.tribute!r})"
                )
        index = self.entry_index(answer.act)
        if index is None:
            raise RefusedError(
                f"{short(answer.act)} is not an entry of the actionList sent to seat {seat} "
                f"({len(self.entries)} entries; copy one exactly)"
            )
        return self.actions[index]


@dataclass
class Room:
    """A room of ``games`` games (each to A, or of ``max_deals`` deals), dealt by ``dealer``."""

    room_id: int
    games: int
    dealer: Dealer
    rules: RuleSet = COMPETITION
    max_deals: int | None = None
    seats: list[Sitter | None] = field(default_factory=lambda: [None] * 4)
    phase: RoomPhase = RoomPhase.WAITING
    matches: list[Match] = field(default_factory=list)
    """The games played so far, the one in play last."""
    risen: list[int] = field(default_factory=lambda: [0, 0])
    """Levels each team rose over the room, as ``gameResult`` counts them."""
    firsts: list[int] = field(default_factory=lambda: [0, 0, 0, 0])
    """Deals each seat won as 上游, as ``victoryNum`` counts them (a game's last deal left out)."""
    _request: tuple[int, Request] | None = field(default=None, init=False, repr=False)
    _last: tuple[int, list[Any]] | None = field(default=None, init=False, repr=False)
    _order: tuple[int, ...] = field(default=(), init=False, repr=False)
    """The last deal's finishing order as ``episodeOver`` gave it."""

    def __post_init__(self) -> None:
        if self.games < 1:
            raise ValueError(f"a room plays at least one game, got {self.games}")

    # -- seats ---------------------------------------------------------------------------------------

    def join(
        self, user_id: str, user_name: str | None, seat: int | None, *, creating: bool = False
    ) -> Outbox:
        """Seat ``user_id`` (at ``seat``, or the first free one): the reply to it, ``JOIN`` to the others
        and, at the fourth seat, the game's first frames. After the start only a seat whose connection
        dropped may be taken again, by the same ``userId``; it gets the request it owes again."""
        if self.phase is RoomPhase.OVER:
            raise RefusedError(f"room {self.room_id}'s games are over")
        if self.phase is RoomPhase.PLAYING:
            return self._rejoin(user_id, seat)
        for index, sitter in enumerate(self.seats):
            if sitter is not None and sitter.user_id == user_id:
                raise RefusedError(f"user {user_id!r} already holds seat {index} of room {self.room_id}")
        if seat is None:
            free = [index for index, sitter in enumerate(self.seats) if sitter is None]
            if not free:
                raise RefusedError(f"房间已满 (room {self.room_id} is full)")
            seat = free[0]
        elif self.seats[seat] is not None:
            raise RefusedError(f"座位号 {seat} 已被占用 (seat {seat} of room {self.room_id} is taken)")
        self.seats[seat] = Sitter(user_id, user_name)
        reply = created(self.room_id, seat, user_id, user_name) if creating else joined(self.room_id, seat)
        out: Outbox = [(seat, reply)]
        out += [(other, join_notice(self.room_id)) for other in self._present() if other != seat]
        if all(sitter is not None for sitter in self.seats):
            self.phase = RoomPhase.PLAYING
            self._new_game(out)
        return out

    def _rejoin(self, user_id: str, seat: int | None) -> Outbox:
        absent = [
            index
            for index, sitter in enumerate(self.seats)
            if sitter is not None and not sitter.present and (seat is None or index == seat)
        ]
        if seat is not None and not absent:
            raise RefusedError(f"座位号 {seat} 已被占用 (seat {seat} of room {self.room_id} is taken)")
        mine = [index for index in absent if self._sitter(index).user_id == user_id]
        if not mine:
            if seat is not None:
                owner = self._sitter(seat).user_id
                raise RefusedError(
                    f"seat {seat} of room {self.room_id} belongs to {owner!r}; only it may come back"
                )
            raise RefusedError(f"房间已满 (room {self.room_id} is full, and no seat of {user_id!r} is free)")
        seat = mine[0]
        self._sitter(seat).present = True
        out: Outbox = [(seat, joined(self.room_id, seat))]
        out += [(other, join_notice(self.room_id)) for other in self._present() if other != seat]
        request = self.request_of(seat)
        if request is not None:
            out.append((seat, request.frame))
        return out

    def leave(self, seat: int) -> None:
        """The seat's connection is gone: before the game starts the seat is free again (as on the Java
        server); after it, the seat is kept for its user to come back."""
        if self.seats[seat] is None:
            return
        if self.phase is RoomPhase.WAITING:
            self.seats[seat] = None
        else:
            self._sitter(seat).present = False

    @property
    def is_empty(self) -> bool:
        """No connection is here any more."""
        return not self._present()

    def sitter(self, seat: int) -> Sitter | None:
        return self.seats[seat]

    def _sitter(self, seat: int) -> Sitter:
        sitter = self.seats[seat]
        assert sitter is not None
        return sitter

    def _present(self) -> list[int]:
        return [index for index, sitter in enumerate(self.seats) if sitter is not None and sitter.present]

    # -- answers -------------------------------------------------------------------------------------

    def request_of(self, seat: int) -> Request | None:
        """The request ``seat`` owes now, if any."""
        if self._request is None or self._request[0] != seat:
            return None
        return self._request[1]

    def answer(self, seat: int, answer: Answer) -> Outbox:
        """Apply ``seat``'s answer and return what follows; :class:`RefusedError` (nothing changed) when the
        seat owes no answer, owes another type, or ``act`` is not an entry of the list it was sent."""
        if self.phase is not RoomPhase.PLAYING:
            state = "has not started" if self.phase is RoomPhase.WAITING else "is over"
            raise RefusedError(f"room {self.room_id}'s game {state}: no action is asked for")
        request = self.request_of(seat)
        if request is None:
            owing = "" if self._request is None else f"; seat {self._request[0]} is to act"
            raise RefusedError(f"no action is asked of seat {seat} now{owing}")
        action = request.action_of(seat, answer)
        self._request = None
        out: Outbox = []
        self._apply(action, out)
        return out

    # -- the game ------------------------------------------------------------------------------------

    @property
    def match(self) -> Match:
        return self.matches[-1]

    def _new_game(self, out: Outbox) -> None:
        self.matches.append(Match(self.rules, max_deals=self.max_deals))
        self._order = ()
        self._deal(out)

    def _deal(self, out: Outbox) -> None:
        deal = self.dealer(self.match)
        self._last = None
        out += [(seat, beginning(seat, deal.dealt_hands[seat], deal.level)) for seat in range(4)]
        excused = anti_tribute_seats(deal, self._order)
        if excused:
            out += self._to_all(notify_anti_tribute(excused))
        self._ask(out)

    def _ask(self, out: Outbox) -> None:
        seat, request = request_for(self.match, self._last)
        self._request = (seat, request)
        out.append((seat, request.frame))

    def _apply(self, action: Action, out: Outbox) -> None:
        match = self.match
        deal = match.deals[-1]
        before = deal.last_play
        match.apply(action)
        if isinstance(action, PlayAction):
            triple = play_triple(action.play)
            greater = None if before is None else (before[0], play_triple(before[1]))
            out += self._to_all(notify_play(action.seat, triple, greater))
            self._last = None if action.play.kind is PlayKind.PASS else (action.seat, triple)
        elif isinstance(action, TributeAction) and deal.phase is not Phase.TRIBUTE:
            out += self._to_all(notify_tribute(transfers(deal, EventKind.TRIBUTE)))
        elif isinstance(action, ReturnAction) and deal.phase is not Phase.RETURN:
            returns = transfers(deal, EventKind.RETURN)
            out += [(seat, notify_back(returns, deal.card_count(seat))) for seat in range(4)]
        if deal.phase is Phase.OVER:
            self._end_deal(deal, out)
        else:
            self._ask(out)

    def _end_deal(self, deal: Deal, out: Outbox) -> None:
        finished = list(deal.finished)
        order = (*finished, *(seat for seat in range(4) if seat not in finished))
        rest = [(seat, deal.hand(seat)) for seat in range(4) if deal.card_count(seat)]
        out += self._to_all(episode_over(order, deal.level, rest))
        self._order = order
        match = self.match
        summary = match.summaries[-1]
        winner = summary.result.winning_team
        if not match.is_over:
            self.firsts[order[0]] += 1
        failed_at_ace = summary.level_team == winner and deal.level is Rank.ACE and not summary.passed_ace
        if not summary.passed_ace and not failed_at_ace:
            self.risen[winner] += summary.result.rise(self.rules)
        if not match.is_over:
            self._deal(out)
        elif len(self.matches) < self.games:
            self._new_game(out)
        else:
            self.phase = RoomPhase.OVER
            out += self._to_all(game_result(self.tally()))
            out += self._to_all(game_over(len(self.matches)))

    def tally(self) -> RoomTally:
        """The room's ``gameResult`` as it stands (its last game's winner, -1 when undecided)."""
        won = [sum(1 for match in self.matches if match.winner == team) for team in (0, 1)]
        match = self.match
        levels = match.levels
        return RoomTally(
            victory=-1 if match.winner is None else match.winner,
            levels=(levels[0], levels[1]),
            risen=(self.risen[0], self.risen[1]),
            games_won=(won[0], won[1]),
            firsts=(self.firsts[0], self.firsts[1], self.firsts[2], self.firsts[3]),
        )

    def _to_all(self, frame: Frame) -> Outbox:
        return [(seat, frame) for seat in range(4)]


def anti_tribute_seats(deal: Deal, order: Sequence[int]) -> list[int]:
    """The seats named in ``anti-tribute`` at the start of ``deal``: the payers holding big jokers, 下游
    first (empty when the tribute is due, or at a game's first deal); ``order`` is the finishing order
    of the deal before (empty at a game's first deal)."""
    excused = [event.seat for event in deal.events if event.kind is EventKind.ANTI_TRIBUTE]
    if not excused or not order:
        return []
    payers = TributePlan.from_places(tuple(order)).payers
    if deal.tribute_plan is not None and deal.tribute_plan.payers:
        return [seat for seat in payers if seat in excused]
    last = order[3]
    return [
        seat
        for seat in (last, partner(last))
        if seat in payers and any(card.rank is Rank.BIG_JOKER for card in deal.dealt_hands[seat])
    ]


def request_for(match: Match, last: tuple[int, list[Any]] | None) -> tuple[int, Request]:
    """The seat to act in ``match``'s deal and the request it is sent (``last``: the play just made,
    when the action before was a play)."""
    deal = match.deals[-1]
    seat = deal.current_player
    assert seat is not None
    actions = list(deal.legal_actions())
    if deal.phase is Phase.PLAY:
        actions = order_plays(actions)
    levels = match.levels
    ranks = Ranks(levels[team_of(seat)], levels[1 - team_of(seat)], deal.level)
    entries = [action_entry(action) for action in actions]
    if deal.phase is Phase.TRIBUTE:
        return seat, Request(
            FrameType.TRIBUTE, act_tribute(deal.hand(seat), ranks, entries), entries, actions
        )
    if deal.phase is Phase.RETURN:
        payer, card = next(
            (event.seat, event.card)
            for event in deal.events
            if event.kind is EventKind.TRIBUTE and event.to == seat
        )
        assert payer is not None
        assert card is not None
        frame = act_back(deal.hand(seat), ranks, payer, card, entries)
        return seat, Request(FrameType.PAYTRIBUTE, frame, entries, actions)
    greater = None if deal.last_play is None else (deal.last_play[0], play_triple(deal.last_play[1]))
    counts = [deal.card_count(other) for other in range(4)]
    frame = act_play(deal.hand(seat), counts, ranks, last, greater, entries)
    return seat, Request(FrameType.PLAY, frame, entries, actions)


def transfers(deal: Deal, kind: EventKind) -> list[Transfer]:
    """The tributes (``kind`` TRIBUTE) or returns (RETURN) of ``deal``, in the order made."""
    found = []
    for event in deal.events:
        if event.kind is kind:
            assert event.seat is not None
            assert event.to is not None
            assert event.card is not None
            found.append((event.seat, event.to, event.card))
    return found


def order_plays(actions: Sequence[Action]) -> list[Action]:
    """A seat's legal plays as our ``actionList`` lists them: passing first, then by the Java server's
    type number (``Single`` … ``FourKings``), size, strength and cards."""

    def key(action: Action) -> tuple[int, int, int, list[tuple[int, int]]]:
        assert isinstance(action, PlayAction)
        play = action.play
        cards = [(int(card.rank), card.index) for card in java_order(play.cards)]
        return JAVA_TYPES.get(play.kind, OTHER_TYPES), len(play.cards), play.key, cards

    return sorted(actions, key=key)
