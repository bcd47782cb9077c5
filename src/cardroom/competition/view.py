"""One seat's view rebuilt from the competition protocol's messages, for our bots on a server that
speaks it (``cardroom connect``). Pure: feed it each message, ask it for the seat's
:class:`~cardroom.guandan.observation.Observation` when an ``act`` message comes.

The server's messages are all the view knows: the seat's hand (``handCards``), the ranks, the public
counts (``publicInfo``), and the log it rebuilds from ``notify`` messages (plays and passes, tributes,
returns it is shown). Plays are read at the deal's level once it is known (an ``act`` message's
``curRank``), so notifications that come before the level is known are kept as sent and read later.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from contextlib import suppress
from dataclasses import dataclass, field
from typing import Any, Final

from cardroom.cards import Card, Rank, full_deck
from cardroom.competition.messages import (
    FOUR_KINGS_WIRE,
    action_of_entry,
    is_empty_triple,
    is_pass_triple,
    play_of_triple,
    read_seat,
    read_transfers,
)
from cardroom.guandan.deal import Action, Event, EventKind, Phase, PlayAction
from cardroom.guandan.moves import legal_play_set
from cardroom.guandan.observation import Observation
from cardroom.guandan.plays import Play, PlayKind
from cardroom.guandan.ruleset import COMPETITION, RuleSet
from cardroom.guandan.tribute import team_of
from cardroom.guandan.triple import TYPE_NAMES

PHASE_OF_STAGE = {"tribute": Phase.TRIBUTE, "back": Phase.RETURN, "play": Phase.PLAY}
HAND_SIZE = 27


@dataclass
class _Logged:
    """A log entry as the server sent it; plays are read when the level is known."""

    kind: str
    seat: int
    triple: Any = None
    card: Card | None = None
    to: int | None = None
    private: bool = False
    read: tuple[Rank, Play | None] | None = None
    """The play read from ``triple`` and the level it was read at (``None`` play: unreadable)."""

    def play_at(self, level: Rank, rules: RuleSet) -> Play | None:
        """The play this entry names at ``level`` (read once a level); ``None`` if it cannot be read."""
        if self.read is None or self.read[0] != level:
            try:
                play: Play | None = play_of_triple(self.triple, level, rules)
            except ValueError:
                play = None
            self.read = (level, play)
        return self.read[1]


@dataclass
class SeatView:
    """What one seat has been told so far, turned into observations."""

    rules: RuleSet = COMPETITION
    seat: int | None = None
    hand: tuple[Card, ...] = ()
    level: Rank | None = None
    levels: tuple[Rank, Rank] = (Rank.TWO, Rank.TWO)
    level_team: int | None = None
    deal_number: int = 0
    counts: list[int] = field(default_factory=lambda: [HAND_SIZE] * 4)
    finished: list[int] = field(default_factory=list)
    log: list[_Logged] = field(default_factory=list)
    unread: int = 0
    """Log entries whose triple could not be read (a server whose plays our rules do not know)."""
    read_alone: int = 0
    """Entries of the last play-stage ``actionList`` that are not among the seat's own legal plays, read
    on their own (a server whose lists differ from ours)."""

    def update(self, message: Mapping[str, Any]) -> None:
        """Take in one server message (unknown messages change nothing)."""
        stage, kind = message.get("stage"), message.get("type")
        self._read_seat_and_ranks(message)
        if kind == "act":
            self._read_act(message)
        elif kind != "notify":
            return
        elif stage == "beginning":
            self._begin(message)
        elif stage == "play":
            self._read_play(message)
        elif stage in ("tribute", "back"):
            self._read_transfers(stage, message.get("result"))
        elif stage == "episodeOver":
            order = message.get("order")
            if isinstance(order, list) and order and isinstance(order[0], int) and 0 <= order[0] <= 3:
                self.level_team = team_of(order[0])

    # -- messages ----------------------------------------------------------------------------------

    def _read_seat_and_ranks(self, message: Mapping[str, Any]) -> None:
        seat = read_seat(message, "myPos")
        if seat is not None:
            self.seat = seat
        ranks = [_rank(message.get(name)) for name in ("selfRank", "oppoRank", "curRank")]
        own, other, level = ranks
        if level is not None:
            self.level = level
        if own is not None and other is not None and self.seat is not None:
            team = self.seat % 2
            self.levels = (own, other) if team == 0 else (other, own)
            if level is not None and own != other:
                if level == own:
                    self.level_team = team
                elif level == other:
                    self.level_team = 1 - team

    def _begin(self, message: Mapping[str, Any]) -> None:
        self.deal_number += 1
        self.hand = _cards(message.get("handCards"))
        self.counts = [HAND_SIZE] * 4
        self.finished = []
        self.log = []
        self.unread = 0
        if message.get("curRank") is None:
            self.level = None if self.deal_number > 1 else Rank.TWO

    def _read_act(self, message: Mapping[str, Any]) -> None:
        self.hand = _cards(message.get("handCards"))
        info = message.get("publicInfo")
        if isinstance(info, list) and len(info) == 4:
            for seat, entry in enumerate(info):
                rest = entry.get("rest") if isinstance(entry, dict) else None
                if isinstance(rest, int) and not isinstance(rest, bool) and rest >= 0:
                    self.counts[seat] = rest
            out = [seat for seat in self.finished if self.counts[seat] == 0]
            self.finished = out + [seat for seat in range(4) if self.counts[seat] == 0 and seat not in out]

    def _read_play(self, message: Mapping[str, Any]) -> None:
        seat = read_seat(message, "curPos")
        triple = message.get("curAction")
        if seat is None or is_empty_triple(triple):
            return
        if is_pass_triple(triple):
            self.log.append(_Logged("pass", seat))
            return
        self.log.append(_Logged("play", seat, triple=triple))
        cards = triple[2] if isinstance(triple, list) and len(triple) == 3 else None
        if isinstance(cards, list):
            self.counts[seat] = max(0, self.counts[seat] - len(cards))
            if self.counts[seat] == 0 and seat not in self.finished:
                self.finished.append(seat)

    def _read_transfers(self, stage: str, result: object) -> None:
        kind = "tribute" if stage == "tribute" else "return"
        for transfer in read_transfers(result):
            self.counts[transfer.giver] -= 1
            self.counts[transfer.receiver] += 1
            if transfer.card is not None:
                private = kind == "return"
                self.log.append(
                    _Logged(kind, transfer.giver, card=transfer.card, to=transfer.receiver, private=private)
                )

    # -- observations ------------------------------------------------------------------------------

    def legal_actions(self, message: Mapping[str, Any]) -> list[Action | None]:
        """Each ``actionList`` entry read as this seat's action (``None`` where it cannot be read).

        A play-stage list of :data:`LOOKUP_ENTRIES` entries or more is matched to the seat's own legal
        plays, listed in bulk by the compiled core, which also reads the entries and looks each up among
        them by its kind, key rank and cards (``PlaySet.match_entries``); only an entry not found there
        is read on its own (:func:`action_of_entry`), as every entry of a shorter list is."""
        entries = message.get("actionList")
        if not isinstance(entries, list) or self.seat is None:
            return []
        seat, level = self.seat, self.level or Rank.TWO
        looked_up = message.get("stage") == "play" and len(entries) >= LOOKUP_ENTRIES
        found: list[Action | None] = [None] * len(entries)
        if looked_up:
            plays = legal_play_set(self.hand, self._previous(message, level)[0], level, self.rules)
            actions = plays.actions(seat, PlayAction)
            matched = plays.match_entries(entries, WIRE_HEADS, CARD_INDICES)
            found = [actions[index] if index >= 0 else None for index in matched]
        self.read_alone = 0
        for index, action in enumerate(found):
            if action is None:
                if looked_up:
                    self.read_alone += 1
                with suppress(ValueError):
                    found[index] = action_of_entry(entries[index], seat, level, self.rules)
        return found

    def observation(self, message: Mapping[str, Any], legal: Sequence[Action]) -> Observation:
        """The seat's observation at an ``act`` message (after :meth:`update` took it in)."""
        if self.seat is None:
            raise ValueError("no seat yet: the server has sent neither beginning nor myPos")
        level = self.level or Rank.TWO
        history = self.history(level)
        previous, previous_seat = self._previous(message, level)
        stage = message.get("stage")
        return Observation(
            seat=self.seat,
            hand=self.hand,
            level=level,
            levels=self.levels,
            level_team=self.level_team,
            deal_number=self.deal_number,
            phase=PHASE_OF_STAGE.get(stage if isinstance(stage, str) else "", Phase.PLAY),
            current_player=self.seat,
            card_counts=(self.counts[0], self.counts[1], self.counts[2], self.counts[3]),
            finished=tuple(self.finished),
            previous=previous,
            previous_seat=previous_seat,
            history=history,
            legal_actions=tuple(legal),
            rules=self.rules,
        )

    def history(self, level: Rank) -> tuple[Event, ...]:
        """The deal's log as events, plays read at ``level`` (entries that cannot be read are left
        out and counted in :attr:`unread`)."""
        events: list[Event] = []
        unread = 0
        for entry in self.log:
            if entry.kind == "play":
                play = entry.play_at(level, self.rules)
                if play is None:
                    unread += 1
                    continue
                events.append(Event(EventKind.PLAY, seat=entry.seat, play=play))
            elif entry.kind in ("tribute", "return"):
                private = (entry.seat, entry.to) if entry.private and entry.to is not None else None
                events.append(
                    Event(
                        EventKind(entry.kind),
                        seat=entry.seat,
                        card=entry.card,
                        to=entry.to,
                        private_to=private,
                    )
                )
            else:
                events.append(Event(EventKind(entry.kind), seat=entry.seat))
        self.unread = unread
        return tuple(events)

    def _previous(self, message: Mapping[str, Any], level: Rank) -> tuple[Play | None, int | None]:
        seat = read_seat(message, "greaterPos")
        triple = message.get("greaterAction")
        if seat is None or seat == self.seat or is_empty_triple(triple) or is_pass_triple(triple):
            return None, None
        try:
            return play_of_triple(triple, level, self.rules), seat
        except ValueError:
            return None, None


WIRE_HEADS: Final = {
    name: {rank.letter: int(kind) << 5 | int(rank) for rank in Rank} for kind, name in TYPE_NAMES.items()
}
"""Each play type's name and key rank letter on the wire, as the core keys a play (kind << 5 | rank)."""
WIRE_HEADS[FOUR_KINGS_WIRE[0]][FOUR_KINGS_WIRE[1]] = int(PlayKind.FOUR_JOKERS) << 5 | Rank.SMALL_JOKER
WIRE_HEADS[TYPE_NAMES[PlayKind.PASS]] = {"PASS": int(PlayKind.PASS) << 5}
CARD_INDICES: Final = {str(card): card.index for card in set(full_deck())}
LOOKUP_ENTRIES: Final = 50
"""Below this many entries, reading each on its own costs no more than listing the seat's plays."""


def _rank(value: object) -> Rank | None:
    if not isinstance(value, str):
        return None
    try:
        rank = Rank.from_letter(value)
    except ValueError:
        return None
    return None if rank.is_joker else rank


def _cards(value: object) -> tuple[Card, ...]:
    if not isinstance(value, list):
        return ()
    cards: list[Card] = []
    for name in value:
        if isinstance(name, str):
            try:
                cards.append(Card.parse(name))
            except ValueError:
                continue
    return tuple(cards)
