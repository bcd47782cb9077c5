"""One deal (一副牌) of Guandan as an explicit phase machine: tribute, return, play, over.

The deal starts with the four hands already dealt (the match deals them with injected randomness).
Each action is checked by one validator (:meth:`Deal.verify`) that raises a :class:`RuleError`
subclass naming the rule broken; :meth:`Deal.can` wraps it; :meth:`Deal.apply` validates, changes the
state and appends events to the log (:meth:`Deal.apply_verified` does the same for an action
:meth:`Deal.verify` returned in this state, without checking it again). A rejected action leaves the
state unchanged. The referee's
rulings (:mod:`cardroom.guandan.rulings`: a skipped turn, a foul) have their own validator
(:meth:`Deal.verify_ruling`) and go into the same log. The legal plays come as :class:`LegalPlays`, made
on access from a packed play set (:mod:`cardroom.guandan.native`); :func:`random_playout` plays a
position on at random without touching it.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from enum import Enum
from typing import overload

from cardroom.cards import ALL_CARDS, Card, Rank, format_cards, sort_cards
from cardroom.guandan import native
from cardroom.guandan.errors import (
    IllegalReturnError,
    IllegalTributeError,
    OutOfTurnError,
    RuleError,
    RulingError,
    SkipTurnError,
    WrongPhaseError,
)
from cardroom.guandan.moves import legal_play_set, verify_play
from cardroom.guandan.native import PlaySet
from cardroom.guandan.plays import PASS, Play, PlayKind
from cardroom.guandan.ruleset import COMPETITION, RuleSet
from cardroom.guandan.rulings import DealRuling, FoulRuling, SkipTurnRuling, foul_places, skipped_lead_to
from cardroom.guandan.tribute import TributePlan, partner, return_cards, team_of, tribute_cards

SEATS = 4
HAND_SIZE = 27


class Phase(Enum):
    """The phases of a deal."""

    TRIBUTE = "tribute"
    RETURN = "return"
    PLAY = "play"
    OVER = "over"


@dataclass(frozen=True)
class TributeAction:
    """进贡: ``seat`` pays ``card``."""

    seat: int
    card: Card


@dataclass(frozen=True)
class ReturnAction:
    """还贡: ``seat`` returns ``card`` to the player who paid it."""

    seat: int
    card: Card


@dataclass(frozen=True)
class PlayAction:
    """``seat`` plays ``play`` (which may be PASS)."""

    seat: int
    play: Play


Action = TributeAction | ReturnAction | PlayAction


class LegalPlays(Sequence[PlayAction]):
    """The legal plays of the seat to act, as actions made on access: a packed play set underneath
    (:func:`cardroom.guandan.moves.legal_play_set`), so that choosing one of a thousand leads makes one
    action, not a thousand. Compares equal to any sequence of the same actions."""

    __slots__ = ("_plays", "seat")

    def __init__(self, seat: int, plays: PlaySet) -> None:
        self.seat = seat
        self._plays = plays

    @property
    def plays(self) -> PlaySet:
        """The plays themselves, no action made (for a tool that compares or counts plays)."""
        return self._plays

    def __len__(self) -> int:
        return len(self._plays)

    @overload
    def __getitem__(self, index: int) -> PlayAction: ...
    @overload
    def __getitem__(self, index: slice) -> list[PlayAction]: ...
    def __getitem__(self, index: int | slice) -> PlayAction | list[PlayAction]:
        if isinstance(index, slice):
            return [PlayAction(self.seat, play) for play in self._plays.to_list()[index]]
        return PlayAction(self.seat, self._plays[index])

    def __iter__(self) -> Iterator[PlayAction]:
        return iter(self._plays.actions(self.seat, PlayAction))

    def __contains__(self, action: object) -> bool:
        """Found in the play set, not by making every action."""
        if not isinstance(action, PlayAction) or action.seat != self.seat:
            return False
        try:
            return self._plays[self._plays.index(action.play)] == action.play
        except (ValueError, TypeError):
            return False

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Sequence) or isinstance(other, str):
            return NotImplemented
        return len(self) == len(other) and all(
            mine == theirs for mine, theirs in zip(self, other, strict=True)
        )

    __hash__ = None  # type: ignore[assignment]

    def __reduce__(self) -> tuple[type[tuple[PlayAction, ...]], tuple[tuple[PlayAction, ...]]]:
        """Pickled as the tuple of its actions (the core's play set does not pickle)."""
        return tuple, (tuple(self),)

    def __repr__(self) -> str:
        return f"<LegalPlays of seat {self.seat}: {len(self)} plays>"


class EventKind(Enum):
    """The kinds of entry in a deal's log (:class:`Event`); written in records and messages as their
    values."""

    ANTI_TRIBUTE = "anti_tribute"
    TRIBUTE_PAID = "tribute_paid"
    TRIBUTE = "tribute"
    RETURN = "return"
    PLAY = "play"
    PASS = "pass"
    TRICK = "trick"
    OUT = "out"
    OVER = "over"
    SKIP_TURN = "skip_turn"
    FOUL = "foul"
    NO_TRIBUTE = "no_tribute"
    FORFEIT = "forfeit"


@dataclass(frozen=True)
class Event:
    """One entry of the deal's log.

    ``kind`` (an :class:`EventKind`, named here by its value) is one of ``anti_tribute`` (抗贡: the
    paying side is excused, ``seat`` the 上游 who then leads; or one payer excused on its own, ``seat``
    that payer); ``tribute_paid`` (a tribute laid face down while the other payer of a double tribute
    has yet to pay, seen by its payer only);
    ``tribute`` (a tribute handed to its receiver, public once every payer has paid); ``return``;
    ``play``; ``pass``; ``trick``; ``out``; ``over``; and the rulings: ``skip_turn`` (``seat``'s turn
    skipped; ``to`` the new leader when it was a lead, else a ``pass`` follows), ``foul`` (``seat``
    fouled; ``over`` follows), ``no_tribute`` (the deal after a foul, ``seat`` the named leader),
    ``forfeit`` (``side`` forfeited the match). ``private_to`` names the seats that may see it
    (``None``: everyone), as a return card is passed face down."""

    kind: EventKind
    seat: int | None = None
    card: Card | None = None
    play: Play | None = None
    to: int | None = None
    place: int | None = None
    private_to: tuple[int, ...] | None = None
    side: int | None = None

    def visible_to(self, seat: int) -> bool:
        return self.private_to is None or seat in self.private_to


@dataclass(frozen=True)
class DealResult:
    """How a deal ended: seats in finishing order (上游, 二游, 三游, 下游) and what it means;
    ``foul_by`` is the offender when a foul (犯规) ended it."""

    places: tuple[int, int, int, int]
    foul_by: int | None = None

    @property
    def winning_team(self) -> int:
        """The 上游's team."""
        return team_of(self.places[0])

    @property
    def partner_place(self) -> int:
        """Where the 上游's partner finished: 2, 3 or 4."""
        return self.places.index(partner(self.places[0])) + 1

    @property
    def double_down(self) -> bool:
        """双下: one team took places 1 and 2."""
        return self.partner_place == 2

    def rise(self, rules: RuleSet) -> int:
        """Levels the 上游's team rises before the cap at A."""
        return rules.partner_rises[self.partner_place - 2]


class Deal:
    """A deal from the dealt hands to its result.

    The first deal of a match names its ``leader`` (the holder of the turned card); every later deal
    passes the previous deal's ``previous_places`` and starts with tribute (or 抗贡), except the deal
    after a foul (``after_foul``): no tribute, and the ``leader`` named by the referee leads.
    """

    turned_card: Card | None
    """The first deal's turned card, which its leader holds (``None`` when not drawn by one)."""
    tribute_plan: TributePlan | None
    """Who pays whom (exempt payers removed); ``None`` for a first deal or a position."""

    def __init__(
        self,
        hands: Sequence[Iterable[Card]],
        level: Rank,
        rules: RuleSet = COMPETITION,
        *,
        leader: int | None = None,
        previous_places: Sequence[int] | None = None,
        turned_card: Card | None = None,
        after_foul: bool = False,
    ) -> None:
        held = [Counter(hand) for hand in hands]
        if len(held) != SEATS or any(sum(hand.values()) != HAND_SIZE for hand in held):
            raise ValueError(f"a deal needs four hands of {HAND_SIZE} cards")
        if sum(held, Counter()) != Counter(dict.fromkeys(ALL_CARDS, 2)):
            raise ValueError("the four hands must hold both decks, each card exactly twice")
        if level.is_joker:
            raise ValueError(f"the level must be a rank from 2 to A, got {level.name}")
        if (leader is None) == (previous_places is None):
            raise ValueError("give either the first leader or the previous deal's places")
        if leader is not None and leader not in range(SEATS):
            raise ValueError(f"the leader must be a seat 0–3, got {leader}")
        if turned_card is not None and (leader is None or not held[leader][turned_card]):
            raise ValueError("the turned card must be in the first leader's hand")
        if after_foul and (leader is None or turned_card is not None):
            raise ValueError("the deal after a foul names its leader and turns no card")
        self._setup(held, level, rules)
        self.turned_card = turned_card
        self.after_foul = after_foul
        if leader is not None:
            if after_foul:
                self.events.append(Event(EventKind.NO_TRIBUTE, seat=leader))
            self._start_play(leader)
            return
        assert previous_places is not None
        plan = TributePlan.from_places(previous_places)
        dealt = [self.hand(seat) for seat in range(SEATS)]
        if plan.is_anti_tribute(dealt, rules):
            self.tribute_plan = plan.without(plan.payers)
            self.events.append(Event(EventKind.ANTI_TRIBUTE, seat=plan.receivers[0]))
            self._start_play(plan.receivers[0])
            return
        exempt = plan.exempt_payers(dealt, rules)
        for payer in exempt:
            self.events.append(Event(EventKind.ANTI_TRIBUTE, seat=payer))
        plan = self.tribute_plan = plan.without(exempt)
        if not plan.payers:
            self._start_play(plan.receivers[0])
        else:
            self.phase = Phase.TRIBUTE
            self.current_player: int | None = plan.payers[0]

    def _setup(self, held: list[Counter[Card]], level: Rank, rules: RuleSet) -> None:
        self.rules = rules
        self.level = level
        self.hands = held
        self.dealt_hands = tuple(sort_cards(hand.elements()) for hand in held)
        """The four hands as dealt, before tribute."""
        self.turned_card = None
        self.after_foul = False
        """The deal after a foul (犯规): no tribute, a named leader."""
        self.actions: list[Action | DealRuling] = []
        """Every action and ruling applied, in order."""
        self.events: list[Event] = []
        self._visible: list[tuple[int, tuple[Event, ...]]] = [(0, ())] * SEATS
        self.leader: int | None = None
        self.finished: list[int] = []
        self.last_play: tuple[int, Play] | None = None
        self.passes = 0
        self.tribute_plan = None
        self._paid: dict[int, Card] = {}
        self._receiver_of: dict[int, int] = {}
        self._returns_due: list[int] = []
        self.result: DealResult | None = None

    @classmethod
    def at_position(
        cls,
        hands: Sequence[Iterable[Card]],
        level: Rank,
        rules: RuleSet = COMPETITION,
        *,
        current_player: int,
        finished: Sequence[int] = (),
        last_play: tuple[int, Play] | None = None,
        passes: int = 0,
    ) -> Deal:
        """A deal in its play phase at a given position — the hands now, who has gone out, the play to
        beat and how many have passed on it — for search over hands sampled from what a seat cannot
        see. Its log starts here; ``dealt_hands`` are the hands given."""
        held = [Counter(hand) for hand in hands]
        if len(held) != SEATS:
            raise ValueError("a position needs four hands")
        if current_player not in range(SEATS) or current_player in finished:
            raise ValueError(f"seat {current_player} cannot be the player to act")
        if any(held[seat] for seat in finished) or any(
            not held[s] for s in range(SEATS) if s not in finished
        ):
            raise ValueError("exactly the seats that have gone out hold no cards")
        if any(partner(seat) in finished for seat in finished):
            raise ValueError("a team with both players out has ended the deal")
        active = [seat for seat in range(SEATS) if seat not in finished]
        if last_play is not None and not 0 <= passes < len([s for s in active if s != last_play[0]]):
            raise ValueError(f"{passes} passes cannot follow a play still to be answered")
        deal = cls.__new__(cls)
        deal._setup(held, level, rules)
        deal.finished = list(finished)
        deal.last_play = last_play
        deal.passes = passes
        deal._start_play(current_player)
        return deal

    def _start_play(self, leader: int) -> None:
        self.phase = Phase.PLAY
        self.current_player = leader
        self.leader = leader

    # -- queries ---------------------------------------------------------------------------------

    def hand(self, seat: int) -> tuple[Card, ...]:
        """A seat's cards in print order."""
        return sort_cards(self.hands[seat].elements())

    def history(self, seat: int) -> tuple[Event, ...]:
        """The log as ``seat`` may see it (a return card only to the two seats it passes between); the
        log only grows, so each seat's view is extended, not filtered again."""
        seen, visible = self._visible[seat]
        if seen < len(self.events):
            visible += tuple(event for event in self.events[seen:] if event.visible_to(seat))
            self._visible[seat] = (len(self.events), visible)
        return visible

    def card_count(self, seat: int) -> int:
        return sum(self.hands[seat].values())

    @property
    def pending_tributes(self) -> dict[int, Card]:
        """Tributes paid face down while another payer of a double tribute has yet to pay."""
        return dict(self._paid) if self.phase is Phase.TRIBUTE else {}

    @property
    def previous(self) -> Play | None:
        """The play to beat, or ``None`` when the player to act leads."""
        return self.last_play[1] if self.last_play is not None else None

    def legal_actions(self) -> Sequence[Action]:
        """Every legal action of the player to act (none when the deal is over); plays as a
        :class:`LegalPlays`, which makes each action when asked for it."""
        seat = self.current_player
        if seat is None:
            return []
        if self.phase is Phase.TRIBUTE:
            return [
                TributeAction(seat, card) for card in tribute_cards(self.hand(seat), self.level, self.rules)
            ]
        if self.phase is Phase.RETURN:
            return [ReturnAction(seat, card) for card in self._return_cards(seat)]
        return LegalPlays(seat, legal_play_set(self.hands[seat], self.previous, self.level, self.rules))

    def listed_actions(self, seat: int) -> Sequence[Action]:
        """What an observation of ``seat`` lists: :meth:`legal_actions` when it is to act (plays left as
        the :class:`LegalPlays` they are, the others as a tuple), else none."""
        if self.current_player != seat:
            return ()
        actions = self.legal_actions()
        return actions if isinstance(actions, LegalPlays) else tuple(actions)

    def _return_cards(self, seat: int) -> list[Card]:
        payer = self._payer_to(seat)
        return return_cards(self.hand(seat), self.level, self.rules, to_partner=payer == partner(seat))

    def _payer_to(self, receiver: int) -> int:
        return next(payer for payer, to in self._receiver_of.items() if to == receiver)

    # -- the validator ---------------------------------------------------------------------------

    def verify(self, action: Action) -> Action:
        """Raise a :class:`RuleError` subclass naming the rule if ``action`` is not legal now; else
        return it as the engine reads it (a play with the engine's reading of its wild cards)."""
        if not isinstance(action, TributeAction | ReturnAction | PlayAction):
            raise TypeError(f"not a Guandan action: {action!r}")
        if self.phase is Phase.OVER:
            raise WrongPhaseError("the deal is over")
        if isinstance(action, TributeAction) and (excused := self._excused(action.seat)):
            raise WrongPhaseError(f"seat {action.seat} pays no tribute: {excused}")
        if action.seat != self.current_player:
            raise OutOfTurnError(f"seat {action.seat} acted, but it is seat {self.current_player}'s turn")
        if isinstance(action, TributeAction):
            if self.phase is not Phase.TRIBUTE:
                raise WrongPhaseError(f"no tribute is due: the deal is in its {self.phase.value} phase")
            allowed = tribute_cards(self.hand(action.seat), self.level, self.rules)
            if action.card not in allowed:
                raise IllegalTributeError(
                    f"the tribute must be one of the highest cards ({format_cards(allowed)}), "
                    f"the ♥ level cards excepted; {action.card} is not"
                )
        elif isinstance(action, ReturnAction):
            if self.phase is not Phase.RETURN:
                raise WrongPhaseError(f"no return is due: the deal is in its {self.phase.value} phase")
            allowed = self._return_cards(action.seat)
            if action.card not in allowed:
                raise IllegalReturnError(
                    f"the return card must be at most {self.rules.return_limit_rank.letter} "
                    f"(or the lowest card if none is): {action.card} is not among {format_cards(allowed)}"
                )
        else:
            if self.phase is not Phase.PLAY:
                raise WrongPhaseError(f"no play yet: the deal is in its {self.phase.value} phase")
            play = verify_play(self.hands[action.seat], action.play, self.previous, self.level, self.rules)
            if play is not action.play:
                return PlayAction(action.seat, play)
        return action

    def _excused(self, seat: int) -> str | None:
        """Why ``seat``, a payer of this deal's tribute, pays none (抗贡); ``None`` when it is not excused."""
        plan = self.tribute_plan
        if plan is None or seat not in TributePlan.from_places(plan.places).payers:
            return None
        for event in self.events:
            if event.kind is not EventKind.ANTI_TRIBUTE:
                continue
            if event.seat == seat:
                return "抗贡: it holds both small jokers, which excuse a payer on its own"
            if not plan.payers:
                jokers = "both big jokers" if self.rules.anti_tribute_big_jokers == 2 else "a big joker"
                return f"抗贡: the paying side holds {jokers}, so nobody pays; seat {event.seat} (上游) leads"
        return None

    def can(self, action: Action) -> bool:
        """Whether ``action`` is legal now."""
        try:
            self.verify(action)
        except RuleError:
            return False
        return True

    # -- applying --------------------------------------------------------------------------------

    def apply(self, action: Action) -> None:
        """Validate and apply ``action``; the log gains its events."""
        self.apply_verified(self.verify(action))

    def apply_verified(self, action: Action) -> None:
        """Apply an action as :meth:`verify` returned it in this very state, without checking it again
        (a caller that verified it once, such as a server table, hands it on); the log gains its
        events."""
        self.actions.append(action)
        if isinstance(action, TributeAction):
            self._apply_tribute(action)
        elif isinstance(action, ReturnAction):
            self._apply_return(action)
        else:
            self._apply_play(action)

    def _apply_tribute(self, action: TributeAction) -> None:
        plan = self.tribute_plan
        assert plan is not None
        self.hands[action.seat][action.card] -= 1
        self._paid[action.seat] = action.card
        waiting = [payer for payer in plan.payers if payer not in self._paid]
        if waiting:
            self.events.append(
                Event(EventKind.TRIBUTE_PAID, seat=action.seat, card=action.card, private_to=(action.seat,))
            )
            self.current_player = waiting[0]
            return
        self._receiver_of = plan.assign(self._paid, self.level, self.rules)
        for payer in plan.payers:
            receiver = self._receiver_of[payer]
            self.hands[receiver][self._paid[payer]] += 1
            self.events.append(Event(EventKind.TRIBUTE, seat=payer, card=self._paid[payer], to=receiver))
        self._returns_due = [
            receiver for receiver in plan.receivers if receiver in self._receiver_of.values()
        ]
        self.phase = Phase.RETURN
        self.current_player = self._returns_due[0]

    def _apply_return(self, action: ReturnAction) -> None:
        payer = self._payer_to(action.seat)
        self.hands[action.seat][action.card] -= 1
        self.hands[payer][action.card] += 1
        self.events.append(
            Event(
                EventKind.RETURN,
                seat=action.seat,
                card=action.card,
                to=payer,
                private_to=(action.seat, payer),
            )
        )
        self._returns_due.remove(action.seat)
        if self._returns_due:
            self.current_player = self._returns_due[0]
            return
        assert self.tribute_plan is not None
        self._start_play(self.tribute_plan.leader(self._receiver_of, self.rules))

    def _apply_play(self, action: PlayAction) -> None:
        seat, play = action.seat, action.play
        if play.kind is PlayKind.PASS:
            self._pass(seat)
            return
        hand = self.hands[seat]
        for card in play.cards:
            hand[card] -= 1
        self.events.append(Event(EventKind.PLAY, seat=seat, play=play))
        self.last_play = (seat, play)
        self.passes = 0
        if not any(hand.values()):
            self.hands[seat] = Counter()
            self.finished.append(seat)
            self.events.append(Event(EventKind.OUT, seat=seat, place=len(self.finished)))
            if partner(seat) in self.finished:
                self._end_deal(seat)
                return
        self.current_player = self._next_active(seat)

    def _pass(self, seat: int) -> None:
        self.events.append(Event(EventKind.PASS, seat=seat))
        self.passes += 1
        assert self.last_play is not None
        winner = self.last_play[0]
        if self.passes >= len([s for s in self._active() if s != winner]):
            self._end_trick(winner)
        else:
            self.current_player = self._next_active(seat)

    def _active(self) -> list[int]:
        return [seat for seat in range(SEATS) if seat not in self.finished]

    def _next_active(self, seat: int) -> int:
        for step in range(1, SEATS + 1):
            candidate = (seat + step) % SEATS
            if candidate not in self.finished:
                return candidate
        raise AssertionError("no player is left")

    def _end_trick(self, winner: int) -> None:
        if winner in self.finished:
            leader = partner(winner) if self.rules.lead_passes_to_partner else self._next_active(winner)
        else:
            leader = winner
        self.events.append(Event(EventKind.TRICK, seat=winner, to=leader))
        self.last_play = None
        self.passes = 0
        self.current_player = leader

    def _end_deal(self, last_out: int) -> None:
        remaining = [(last_out + step) % SEATS for step in range(1, SEATS)]
        places = [*self.finished, *(seat for seat in remaining if seat not in self.finished)]
        self._over(DealResult((places[0], places[1], places[2], places[3])))

    def _over(self, result: DealResult | None) -> None:
        self.result = result
        if result is not None:
            self.events.append(Event(EventKind.OVER))
        self.phase = Phase.OVER
        self.current_player = None

    # -- rulings ---------------------------------------------------------------------------------

    def verify_ruling(self, ruling: DealRuling) -> None:
        """Raise a :class:`RuleError` subclass naming the rule if the referee's ``ruling`` cannot apply
        now: a turn is skipped only in the play phase and only the player to act's (违例); a foul ends a
        deal not yet over, whatever its phase (犯规)."""
        if not isinstance(ruling, SkipTurnRuling | FoulRuling):
            raise TypeError(f"not a deal ruling: {ruling!r}")
        if self.phase is Phase.OVER:
            raise WrongPhaseError("the deal is over")
        if ruling.seat not in range(SEATS):
            raise RulingError(f"the offender must be a seat 0–3, got {ruling.seat}")
        if isinstance(ruling, SkipTurnRuling):
            if self.phase is not Phase.PLAY:
                raise WrongPhaseError(
                    f"违例 skips a turn to play: the deal is in its {self.phase.value} phase"
                )
            if ruling.seat != self.current_player:
                raise SkipTurnError(
                    f"违例 stops the offender's own turn to play (停止违规者一次出牌): seat {ruling.seat} "
                    f"is not to act, seat {self.current_player} is"
                )

    def can_ruling(self, ruling: DealRuling) -> bool:
        """Whether ``ruling`` can apply now."""
        try:
            self.verify_ruling(ruling)
        except RuleError:
            return False
        return True

    def apply_ruling(self, ruling: DealRuling) -> None:
        """Validate and apply the referee's ``ruling``; the log gains its events (all public)."""
        self.verify_ruling(ruling)
        self.actions.append(ruling)
        seat = ruling.seat
        if isinstance(ruling, FoulRuling):
            self.events.append(Event(EventKind.FOUL, seat=seat))
            places = foul_places(seat, self.finished)
            self._over(DealResult(places, foul_by=seat))
        elif self.last_play is not None:
            self.events.append(Event(EventKind.SKIP_TURN, seat=seat))
            self._pass(seat)
        else:
            leader = skipped_lead_to(seat, self.finished)
            self.events.append(Event(EventKind.SKIP_TURN, seat=seat, to=leader))
            self.current_player = leader

    def stop_by_forfeit(self, side: int) -> None:
        """Stop the deal without a result: ``side`` forfeited the match (called by the match)."""
        if self.phase is not Phase.OVER:
            self.events.append(Event(EventKind.FORFEIT, side=side))
            self._over(None)


def random_playout(deal: Deal, seed: int, *, trick_only: bool = False) -> list[PlayAction]:
    """The actions of a uniformly random continuation of a deal in its play phase, to the end of the
    deal (or of the trick, ``trick_only``); the deal itself is left as it is. Played inside the compiled
    core where it serves, else by the pure machine on a copy; the same seed gives the same continuation
    with the same engine."""
    if deal.phase is not Phase.PLAY or deal.current_player is None:
        raise WrongPhaseError(
            f"a playout starts in the play phase: the deal is in its {deal.phase.value} phase"
        )
    if native.serves(deal.rules):
        actions, _ = native.random_playout(
            deal.hands,
            deal.level,
            deal.rules,
            current=deal.current_player,
            finished=deal.finished,
            last_play=deal.last_play,
            passes=deal.passes,
            seed=seed,
            trick_only=trick_only,
        )
        return [PlayAction(seat, play) for seat, play in actions]
    copy = Deal.at_position(
        [deal.hand(seat) for seat in range(SEATS)],
        deal.level,
        deal.rules,
        current_player=deal.current_player,
        finished=deal.finished,
        last_play=deal.last_play,
        passes=deal.passes,
    )
    rng = random.Random(seed)
    played: list[PlayAction] = []
    while copy.phase is not Phase.OVER and not (trick_only and played and copy.last_play is None):
        action = rng.choice(copy.legal_actions())
        assert isinstance(action, PlayAction)
        copy.apply(action)
        played.append(action)
    return played


__all__ = [
    "PASS",
    "Action",
    "Deal",
    "DealResult",
    "Event",
    "EventKind",
    "Phase",
    "PlayAction",
    "ReturnAction",
    "TributeAction",
    "random_playout",
]
