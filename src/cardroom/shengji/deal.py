"""One deal (一副牌) of Shengji as an explicit phase machine: declare, kitty, tricks, over.

DECLARE: the 100 cards are dealt one at a time round the table from an injected order (25 each, 8 left
for the kitty, 底牌); after each card its receiver may declare trump or pass (:mod:`.declare`); after the
last card the table goes round until four seats pass in a row. First deal: the declarer becomes the dealer
(第一局翻主翻庄); later deals the dealer is given (第二局以後翻主不翻庄). Nobody declared: the dealer
turns the kitty's first card (翻底牌第一張牌花色為主; a joker: no trump) — in a first deal the first to
draw deals. KITTY: the dealer takes the 8 cards and buries 8 (扣底). TRICKS: the dealer leads the first
trick, each winner the next; a throw (甩牌) is checked against the other hands. OVER: :class:`DealResult`.

Each action is checked by one validator (:meth:`Deal.verify`) raising a ``ValueError`` subclass that
names the rule; :meth:`Deal.can` wraps it; :meth:`Deal.apply` validates, changes the state and appends
events to the log (:meth:`Deal.apply_verified` does the same for an action :meth:`Deal.verify` returned
in this state, without checking it again). A rejected action leaves the state unchanged.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass

from cardroom.cards import ALL_CARDS, Card, Rank, Suit, format_cards, sort_cards
from cardroom.shengji.actions import (
    DEALT,
    HAND_SIZE,
    KITTY_SIZE,
    SEATS,
    Action,
    Bury,
    Declare,
    Event,
    Pass,
    Phase,
    Play,
    legal_actions_of,
    legal_leads,
    sub_multisets,
)
from cardroom.shengji.deal_errors import EmptyPlayError, IllegalBuryError, OutOfTurnError, WrongPhaseError
from cardroom.shengji.declare import Declaration, read_declaration, verify_declaration
from cardroom.shengji.errors import NotHeldError
from cardroom.shengji.observation import Observation
from cardroom.shengji.order import TrickRules
from cardroom.shengji.ruleset import SHENGJI, ShengjiRules
from cardroom.shengji.scoring import Outcome, kitty_multiplier, outcome
from cardroom.shengji.tricks import (
    Lead,
    check_throw,
    points,
    trick_winner,
    verify_follow,
    verify_lead,
)


@dataclass(frozen=True)
class Trick:
    """A finished trick: who led, the plays in order (seat, cards), the lead as read, the winner and the
    points in it."""

    leader: int
    plays: tuple[tuple[int, tuple[Card, ...]], ...]
    lead: Lead
    winner: int
    points: int


@dataclass(frozen=True)
class FailedThrow:
    """甩牌失败: ``seat`` tried ``attempted``, played ``played`` and gave ``penalty`` to the other side."""

    seat: int
    attempted: tuple[Card, ...]
    played: tuple[Card, ...]
    penalty: int


def team_of(seat: int) -> int:
    """Seats 0 & 2 are team 0, seats 1 & 3 team 1."""
    return seat % 2


@dataclass(frozen=True)
class DealResult:
    """How a deal ended, from the attackers' (闲家, 抓分方) side.

    ``score`` = the card points the attackers won + the kitty's points × ``kitty_multiplier`` (0 unless
    they won the last trick: 摳底) + ``penalty`` (failed throws: + for the dealers', − for theirs)."""

    dealer: int
    level: Rank
    trump: Suit | None
    attackers_card_points: int
    dealers_card_points: int
    kitty_points: int
    kitty_multiplier: int
    penalty: int
    last_trick_winner: int
    last_trick_cards: tuple[Card, ...]
    """The cards the last trick's winner played."""

    @property
    def dealer_team(self) -> int:
        return team_of(self.dealer)

    @property
    def attackers_won_last_trick(self) -> bool:
        return team_of(self.last_trick_winner) != self.dealer_team

    @property
    def kitty_bonus(self) -> int:
        return self.kitty_points * self.kitty_multiplier

    @property
    def score(self) -> int:
        """The attackers' score read in the result table."""
        return self.attackers_card_points + self.kitty_bonus + self.penalty

    def last_trick_won_with(self, rank: Rank) -> bool:
        """Whether the last trick's winning play holds a card of ``rank`` (J 摳底, A 帶帽子)."""
        return any(card.rank == rank for card in self.last_trick_cards)

    def outcome(self, rules: ShengjiRules) -> Outcome:
        return outcome(self.score, rules)


class Deal:
    """A deal from the shuffled cards to its result.

    ``deck`` is the 108 cards in dealing order: card ``i`` < 100 goes to seat ``(first_drawer + i) % 4``,
    the last 8 are the kitty. ``dealer`` is ``None`` in the first deal (the declarer becomes the dealer);
    the first to draw is the dealer, or ``first_drawer`` (default 0) in a first deal.
    """

    def __init__(
        self,
        deck: Sequence[Card],
        level: Rank,
        rules: ShengjiRules = SHENGJI,
        *,
        dealer: int | None = None,
        first_drawer: int | None = None,
    ) -> None:
        if Counter(deck) != Counter(dict.fromkeys(ALL_CARDS, 2)):
            raise ValueError("the deck must hold both decks, each card exactly twice (108 cards)")
        if level.is_joker or level not in rules.levels:
            raise ValueError(f"the level must be on the rule set's ladder, got {level.name}")
        if dealer is not None and dealer not in range(SEATS):
            raise ValueError(f"the dealer must be a seat 0–3, got {dealer}")
        if first_drawer is None:
            first_drawer = 0 if dealer is None else dealer
        if first_drawer not in range(SEATS):
            raise ValueError(f"the first drawer must be a seat 0–3, got {first_drawer}")
        self._setup(level, rules, dealer, tuple(deck))
        self.first_drawer = first_drawer
        self._deal_next()

    def _setup(
        self, level: Rank, rules: ShengjiRules, dealer: int | None, deck: tuple[Card, ...] = ()
    ) -> None:
        self.rules = rules
        self.level = level
        self.deck = deck
        """The 108 cards in dealing order (empty for a position)."""
        self.first_drawer = 0
        self.dealer: int | None = dealer
        """The dealer (庄家); in a first deal ``None`` until declaring ends."""
        self.first_deal = dealer is None
        self.phase = Phase.DECLARE
        self.hands: list[Counter[Card]] = [Counter() for _ in range(SEATS)]
        self.dealt = 0
        self.declaration: Declaration | None = None
        """The declaration standing (叫主 / 定主 / 翻主)."""
        self.declarations: list[Declaration] = []
        self._passes = 0
        self.trump: Suit | None = None
        self.trick_rules: TrickRules | None = None
        """Level and trump for the tricks, once declaring is over."""
        self.turned_card: Card | None = None
        self.kitty = deck[DEALT:]
        """The 8 cards dealt to the kitty."""
        self.buried: tuple[Card, ...] = ()
        self.leader: int | None = None
        self.lead: Lead | None = None
        """The current trick's lead as played (after a failed throw, the forced unit)."""
        self.trick_plays: list[tuple[int, tuple[Card, ...]]] = []
        self.tricks: list[Trick] = []
        self.failed_throws: list[FailedThrow] = []
        self.attackers_points = 0
        self.dealers_points = 0
        self.penalty = 0
        """Net penalty points added to the attackers' score."""
        self.actions: list[Action] = []
        self.events: list[Event] = []
        self.result: DealResult | None = None
        self.current_player: int | None = None

    @classmethod
    def at_position(
        cls,
        hands: Sequence[Iterable[Card]],
        level: Rank,
        rules: ShengjiRules = SHENGJI,
        *,
        trump: Suit | None,
        dealer: int,
        leader: int,
        buried: Iterable[Card],
        attackers_points: int = 0,
        dealers_points: int = 0,
    ) -> Deal:
        """A deal in its tricks phase at the start of a trick: the hands now (equal sizes), trump, the
        dealer, who leads, the buried kitty and the points won so far — for scenarios and for search over
        hands sampled from what a seat cannot see. Its log starts here."""
        held = [Counter(hand) for hand in hands]
        buried_cards = sort_cards(buried)
        if len(held) != SEATS or len({sum(hand.values()) for hand in held}) != 1 or not held[0]:
            raise ValueError("a position needs four non-empty hands of equal size")
        if len(buried_cards) != KITTY_SIZE:
            raise ValueError(f"the buried kitty has {KITTY_SIZE} cards")
        if any(count > 2 for count in (sum(held, Counter()) + Counter(buried_cards)).values()):
            raise ValueError("two decks hold each card at most twice")
        if dealer not in range(SEATS) or leader not in range(SEATS):
            raise ValueError("the dealer and the leader are seats 0–3")
        deal = cls.__new__(cls)
        deal._setup(level, rules, dealer)
        deal.hands = held
        deal.trump = trump
        deal.trick_rules = TrickRules(level, trump, rules.skip_level_in_tractor)
        deal.kitty = deal.buried = buried_cards
        deal.attackers_points = attackers_points
        deal.dealers_points = dealers_points
        deal.phase = Phase.TRICKS
        deal.leader = deal.current_player = leader
        return deal

    # -- queries ---------------------------------------------------------------------------------

    def hand(self, seat: int) -> tuple[Card, ...]:
        """A seat's cards in print order."""
        return sort_cards(self.hands[seat].elements())

    def card_count(self, seat: int) -> int:
        return sum(self.hands[seat].values())

    @property
    def dealer_team(self) -> int | None:
        return None if self.dealer is None else team_of(self.dealer)

    def is_attacker(self, seat: int) -> bool:
        """闲家 (抓分方): not on the dealer's team (known once declaring is over)."""
        return self.dealer is not None and team_of(seat) != team_of(self.dealer)

    @property
    def kitty_points(self) -> int:
        return points(self.buried)

    def legal_actions(self) -> Iterator[Action]:
        """Every legal action of the player to act, lazily (burying and throwing have many)."""
        seat = self.current_player
        if seat is None:
            return iter(())
        return legal_actions_of(
            seat,
            self.phase,
            self.hands[seat],
            self.level,
            self.declaration,
            self.trick_rules,
            self.lead,
            self.rules,
        )

    def observation(self, seat: int, levels: tuple[Rank, Rank] | None = None) -> Observation:
        """What ``seat`` may know (see :mod:`cardroom.shengji.observation`), with both teams' ``levels``
        when the deal is part of a match."""
        if seat not in range(SEATS):
            raise ValueError(f"a seat is 0–3, got {seat}")
        settled = self.phase is not Phase.DECLARE
        kitty: tuple[Card, ...] = ()
        if seat == self.dealer and settled:
            kitty = self.buried if self.buried else self.kitty
        elif self.phase is Phase.OVER:
            kitty = self.buried
        counts = tuple(self.card_count(other) for other in range(SEATS))
        return Observation(
            seat=seat,
            phase=self.phase,
            level=self.level,
            rules=self.rules,
            hand=self.hand(seat),
            dealer=self.dealer,
            declaration=self.declaration,
            trump_settled=settled,
            trump=self.trump if settled else None,
            turned_card=self.turned_card,
            trick_rules=self.trick_rules,
            current_player=self.current_player,
            card_counts=(counts[0], counts[1], counts[2], counts[3]),
            leader=self.leader,
            lead=self.lead,
            trick_plays=tuple(self.trick_plays),
            tricks_played=len(self.tricks),
            attackers_points=self.attackers_points,
            dealers_points=self.dealers_points,
            penalty=self.penalty,
            kitty=kitty,
            history=tuple(event for event in self.events if event.visible_to(seat)),
            levels=levels,
        )

    # -- the validator ---------------------------------------------------------------------------

    def verify(self, action: Action) -> Action:
        """Raise a ``ValueError`` subclass naming the rule if ``action`` is not legal now; else return it.
        A throw that another hand beats is legal: applying it plays the forced unit with the penalty."""
        if self.phase is Phase.OVER:
            raise WrongPhaseError("the deal is over")
        if action.seat != self.current_player:
            raise OutOfTurnError(f"seat {action.seat} acted, but it is seat {self.current_player}'s turn")
        hand = self.hands[action.seat]
        if isinstance(action, Declare | Pass):
            if self.phase is not Phase.DECLARE:
                raise WrongPhaseError(f"declaring is over: the deal is in its {self.phase.value} phase")
            if isinstance(action, Declare):
                declaration = read_declaration(action.seat, action.cards, self.level)
                verify_declaration(declaration, hand, self.declaration, self.rules)
        elif isinstance(action, Bury):
            if self.phase is not Phase.KITTY:
                raise WrongPhaseError(f"no kitty to bury: the deal is in its {self.phase.value} phase")
            if len(action.cards) != KITTY_SIZE:
                raise IllegalBuryError(
                    f"the dealer buries exactly {KITTY_SIZE} cards, not {len(action.cards)}"
                )
            missing = Counter(action.cards) - hand
            if missing:
                raise NotHeldError(
                    f"not in hand: {format_cards(missing.elements())}",
                    {"cards": [str(card) for card in sorted(missing.elements())]},
                )
        elif isinstance(action, Play):
            if self.phase is not Phase.TRICKS:
                raise WrongPhaseError(f"no play yet: the deal is in its {self.phase.value} phase")
            assert self.trick_rules is not None
            held = tuple(hand.elements())
            if self.lead is None:
                if not action.cards:
                    raise EmptyPlayError(f"seat {action.seat} leads no cards")
                verify_lead(held, action.cards, self.trick_rules)
            else:
                verify_follow(held, self.lead, action.cards, self.trick_rules)
        else:
            raise TypeError(f"not a Shengji action: {action!r}")
        return action

    def can(self, action: Action) -> bool:
        """Whether ``action`` is legal now."""
        try:
            self.verify(action)
        except ValueError:
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
        if isinstance(action, Declare):
            declaration = read_declaration(action.seat, action.cards, self.level)
            self.declaration = declaration
            self.declarations.append(declaration)
            self.events.append(Event("declare", action.seat, declaration.cards, declaration.suit))
            self._passes = 0
            self._next_declarer()
        elif isinstance(action, Pass):
            self.events.append(Event("pass", action.seat))
            self._passes += 1
            self._next_declarer()
        elif isinstance(action, Bury):
            self._bury(action)
        else:
            self._play(action)

    # -- declaring -------------------------------------------------------------------------------

    def _deal_next(self) -> None:
        seat = (self.first_drawer + self.dealt) % SEATS
        card = self.deck[self.dealt]
        self.hands[seat][card] += 1
        self.dealt += 1
        self.events.append(Event("draw", seat, (card,), private_to=(seat,)))
        self.current_player = seat
        if self.dealt == DEALT:
            self._passes = 0

    def _next_declarer(self) -> None:
        if self.dealt < DEALT:
            self._deal_next()
        elif self._passes >= SEATS:
            self._end_declaring()
        else:
            assert self.current_player is not None
            self.current_player = (self.current_player + 1) % SEATS

    def _end_declaring(self) -> None:
        if self.declaration is not None:
            self.trump = self.declaration.suit
            if self.dealer is None:
                self.dealer = self.declaration.seat
        else:
            if self.dealer is None:
                self.dealer = self.first_drawer
            self.turned_card = self.kitty[0]
            self.trump = self.turned_card.suit
            self.events.append(Event("kitty_turned", self.dealer, (self.turned_card,), self.trump))
        dealer = self.dealer
        self.trick_rules = TrickRules(self.level, self.trump, self.rules.skip_level_in_tractor)
        self.events.append(Event("trump", dealer, suit=self.trump))
        self.hands[dealer].update(self.kitty)
        self.events.append(Event("kitty", dealer, sort_cards(self.kitty), private_to=(dealer,)))
        self.phase = Phase.KITTY
        self.current_player = dealer

    # -- the kitty -------------------------------------------------------------------------------

    def _bury(self, action: Bury) -> None:
        self.hands[action.seat].subtract(action.cards)
        self.hands[action.seat] = +self.hands[action.seat]
        self.buried = action.cards
        self.events.append(Event("bury", action.seat, action.cards, private_to=(action.seat,)))
        self.phase = Phase.TRICKS
        self.leader = self.current_player = action.seat

    # -- tricks ----------------------------------------------------------------------------------

    def _play(self, action: Play) -> None:
        rules = self.trick_rules
        assert rules is not None
        seat, cards = action.seat, action.cards
        if self.lead is None:
            lead = verify_lead(self.hands[seat].elements(), cards, rules)
            others = [tuple(self.hands[other].elements()) for other in range(SEATS) if other != seat]
            check = check_throw(lead, others, rules, penalty=self.rules.failed_throw_penalty)
            if not check.legal:
                cards = check.played.cards
                self.failed_throws.append(FailedThrow(seat, action.cards, cards, check.penalty))
                self.penalty += check.penalty if not self.is_attacker(seat) else -check.penalty
                self.events.append(Event("throw_failed", seat, action.cards, points=check.penalty))
            self.lead = check.played
            self.leader = seat
        self.hands[seat].subtract(cards)
        self.hands[seat] = +self.hands[seat]
        self.trick_plays.append((seat, cards))
        self.events.append(Event("play", seat, cards))
        if len(self.trick_plays) < SEATS:
            self.current_player = (seat + 1) % SEATS
            return
        self._end_trick()

    def _end_trick(self) -> None:
        rules, lead, leader = self.trick_rules, self.lead, self.leader
        assert rules is not None
        assert lead is not None
        assert leader is not None
        index = trick_winner(lead, [cards for _, cards in self.trick_plays[1:]], rules)
        winner, winning_cards = self.trick_plays[index]
        won = sum(points(cards) for _, cards in self.trick_plays)
        if self.is_attacker(winner):
            self.attackers_points += won
        else:
            self.dealers_points += won
        self.tricks.append(Trick(leader, tuple(self.trick_plays), lead, winner, won))
        self.events.append(Event("trick", winner, points=won))
        self.trick_plays = []
        self.lead = None
        if self.card_count(winner):
            self.leader = self.current_player = winner
            return
        self._finish(lead, winner, winning_cards)

    def _finish(self, lead: Lead, winner: int, winning_cards: tuple[Card, ...]) -> None:
        assert self.dealer is not None
        multiplier = 0
        if self.is_attacker(winner):
            as_single = lead.is_throw and self.rules.kitty_throw_as_single
            pairs = 0 if as_single else max(unit.pairs for unit in lead.units)
            multiplier = kitty_multiplier(pairs, self.rules)
        result = DealResult(
            dealer=self.dealer,
            level=self.level,
            trump=self.trump,
            attackers_card_points=self.attackers_points,
            dealers_card_points=self.dealers_points,
            kitty_points=self.kitty_points,
            kitty_multiplier=multiplier,
            penalty=self.penalty,
            last_trick_winner=winner,
            last_trick_cards=winning_cards,
        )
        self.events.append(Event("kitty_revealed", self.dealer, self.buried, points=result.kitty_bonus))
        self.events.append(Event("over", points=result.score))
        self.result = result
        self.phase = Phase.OVER
        self.current_player = self.leader = None


__all__ = [
    "DEALT",
    "HAND_SIZE",
    "KITTY_SIZE",
    "SEATS",
    "Action",
    "Bury",
    "Deal",
    "DealResult",
    "Declare",
    "Event",
    "FailedThrow",
    "Pass",
    "Phase",
    "Play",
    "Trick",
    "legal_actions_of",
    "legal_leads",
    "sub_multisets",
]
