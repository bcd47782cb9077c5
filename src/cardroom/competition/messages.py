"""The Guandan AI competition's JSON messages (docs/competition-protocol.md), built and read. Pure: no
I/O, no clock; the server and the client do the sending.

Every server message is a JSON object with ``type`` (``notify``, ``act``, or our ``error``) and ``stage``
(``beginning``, ``play``, ``tribute``, ``anti-tribute``, ``back``, ``episodeOver``, ``gameOver``,
``gameResult``). An ``act`` message lists the legal actions as ``[type, rank, cards]`` triples in
``actionList``; the client answers ``{"actIndex": i}``.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final

from cardroom.cards import Card, NotationError, Rank
from cardroom.competition.order import wire_cards
from cardroom.guandan.deal import (
    Action,
    Deal,
    Event,
    EventKind,
    Phase,
    PlayAction,
    ReturnAction,
    TributeAction,
)
from cardroom.guandan.observation import Observation, ObservedPhase
from cardroom.guandan.plays import PASS, Play, PlayKind, rank_order
from cardroom.guandan.ruleset import COMPETITION, RuleSet
from cardroom.guandan.tribute import TributePlan
from cardroom.guandan.triple import from_triple, to_triple

Message = dict[str, Any]
"""One protocol message, as a JSON object."""

PASS_TRIPLE: Final = ("PASS", "PASS", "PASS")
FOUR_KINGS_WIRE: Final = ("Bomb", "JOKER")
"""The competition server's name for 天王炸: ``["Bomb", "JOKER", ["SB", "SB", "HR", "HR"]]``."""
STAGE_OF_PHASE: Final[dict[ObservedPhase, str]] = {
    Phase.TRIBUTE: "tribute",
    Phase.RETURN: "back",
    Phase.PLAY: "play",
}
"""The act stage of each deal phase (``Observation.phase``)."""
RECEIVED_LIMIT: Final = 200
"""Characters of a bad answer echoed back in an error message."""


# --- cards and triples ----------------------------------------------------------------------------------


def card_key(card: Card, level: Rank, rules: RuleSet = COMPETITION) -> tuple[int, int]:
    """How the server sorts cards: by the order of ranks at this level (the level rank above A, then the
    jokers), suits ♠♥♣♦ within a rank."""
    return rank_order(card.rank, level, rules), card.suit if card.suit is not None else 0


def hand_cards(cards: Iterable[Card], level: Rank, rules: RuleSet = COMPETITION) -> list[str]:
    """``handCards``: the cards lowest first, as the competition server sends them (at level 5:
    ``H2 S3 … DA H5 C5 SB HR HR``)."""
    return [str(card) for card in sorted(cards, key=lambda card: card_key(card, level, rules))]


def wire_triple(play: Play) -> list[Any]:
    """The triple of a play as the competition server writes it: :func:`to_triple` with the cards in the
    simulator's order (:func:`cardroom.competition.order.wire_cards`), four jokers called
    ``["Bomb", "JOKER", cards]``."""
    triple = to_triple(play)
    if play.kind is PlayKind.PASS:
        return triple
    cards = [str(card) for card in wire_cards(play)]
    if play.kind is PlayKind.FOUR_JOKERS:
        return [*FOUR_KINGS_WIRE, cards]
    return [triple[0], triple[1], cards]


def tribute_triple(card: Card) -> list[Any]:
    return ["tribute", "tribute", [str(card)]]


def back_triple(card: Card) -> list[Any]:
    return ["back", "back", [str(card)]]


def action_triple(action: Action) -> list[Any]:
    """The ``actionList`` entry of an action: a play's triple, ``["tribute", "tribute", [card]]`` or
    ``["back", "back", [card]]``."""
    if isinstance(action, TributeAction):
        return tribute_triple(action.card)
    if isinstance(action, ReturnAction):
        return back_triple(action.card)
    return wire_triple(action.play)


def play_of_triple(triple: object, level: Rank, rules: RuleSet = COMPETITION) -> Play:
    """The play a wire triple names (``["Bomb", "JOKER", …]`` read as four jokers); ``TripleError``
    (a ``ValueError``) says what is wrong."""
    if isinstance(triple, list | tuple) and len(triple) == 3 and tuple(triple[:2]) == FOUR_KINGS_WIRE:
        triple = ["FourKings", "B", triple[2]]
    return from_triple(triple, level, rules)


def is_pass_triple(triple: object) -> bool:
    return isinstance(triple, list | tuple) and len(triple) >= 1 and triple[0] == "PASS"


def is_empty_triple(triple: object) -> bool:
    """No action: ``null``, ``-1``, ``[]`` or ``[null, null, null]`` (servers write each)."""
    if triple is None or triple == -1:
        return True
    return isinstance(triple, list | tuple) and all(part is None for part in triple)


# --- notify messages ----------------------------------------------------------------------------------


def beginning(
    seat: int, hand: Iterable[Card], level: Rank, levels: Sequence[Rank], rules: RuleSet = COMPETITION
) -> Message:
    """``notify``/``beginning``: the seat's dealt hand and its seat number (``selfRank``, ``oppoRank``
    and ``curRank`` are our additions)."""
    return {
        "type": "notify",
        "stage": "beginning",
        "handCards": hand_cards(hand, level, rules),
        "myPos": seat,
        **_ranks(seat, level, levels),
    }


def notify_play(seat: int, play: Play, greater: tuple[int, Play] | None) -> Message:
    """``notify``/``play``: ``seat`` played ``play`` (or passed); ``greater`` is the trick's biggest play
    so far and who made it."""
    return {
        "type": "notify",
        "stage": "play",
        "curPos": seat,
        "curAction": wire_triple(play),
        "greaterPos": greater[0] if greater is not None else -1,
        "greaterAction": wire_triple(greater[1]) if greater is not None else None,
    }


def notify_tribute(results: Iterable[tuple[int, int, Card]]) -> Message:
    """``notify``/``tribute``: ``result`` lists ``[payer, receiver, card]``."""
    return {"type": "notify", "stage": "tribute", "result": [[a, b, str(card)] for a, b, card in results]}


def notify_anti_tribute(seats: Sequence[int]) -> Message:
    """``notify``/``anti-tribute``: the seats excused from paying (抗贡)."""
    return {"type": "notify", "stage": "anti-tribute", "antiNums": len(seats), "antiPos": list(seats)}


def notify_back(results: Iterable[tuple[int, int, Card]]) -> Message:
    """``notify``/``back``: ``result`` lists ``[returner, receiver, card]`` (those the seat may see)."""
    return {"type": "notify", "stage": "back", "result": [[a, b, str(card)] for a, b, card in results]}


def episode_over(
    places: Sequence[int],
    level: Rank,
    rest: Sequence[tuple[int, Iterable[Card]]],
    rules: RuleSet = COMPETITION,
) -> Message:
    """``notify``/``episodeOver``: the finishing order, the level played, and ``restCards``:
    ``[seat, cards]`` of the cards left (we send a seat only its own)."""
    return {
        "type": "notify",
        "stage": "episodeOver",
        "order": list(places),
        "curRank": level.letter,
        "restCards": [[seat, hand_cards(cards, level, rules)] for seat, cards in rest],
    }


def game_over(cur_times: int, setting_times: int) -> Message:
    """``notify``/``gameOver``: match ``cur_times`` of ``setting_times`` is over."""
    return {"type": "notify", "stage": "gameOver", "curTimes": cur_times, "settingTimes": setting_times}


def game_result(victories: Sequence[int], draws: Sequence[int]) -> Message:
    """``notify``/``gameResult``: matches won and drawn, per seat (partners count the same)."""
    return {"type": "notify", "stage": "gameResult", "victoryNum": list(victories), "draws": list(draws)}


def error_message(
    code: str,
    message: str,
    *,
    stage: str | None = None,
    received: str | None = None,
    substitute: int | None = None,
) -> Message:
    """Our ``error`` message: what was wrong with an answer (``code``, ``message``), the answer as
    received (cut to 200 characters) and the index the seat's bot played instead (``null`` if none)."""
    return {
        "type": "error",
        "stage": stage,
        "code": code,
        "message": message,
        "received": None if received is None else received[:RECEIVED_LIMIT],
        "actIndex": substitute,
    }


# --- act messages ----------------------------------------------------------------------------------------


def act(observation: Observation, ordered: Sequence[Action]) -> Message:
    """``act``: the seat's hand, the public counts and the trick, the ranks, and ``ordered`` (the legal
    actions, see :func:`cardroom.competition.order.order_actions`) as ``actionList``."""
    seat, level, rules = observation.seat, observation.level, observation.rules
    trick = current_trick(observation.history)
    last = trick[-1] if trick else None
    previous = observation.previous
    return {
        "type": "act",
        "stage": STAGE_OF_PHASE[observation.phase],
        "myPos": seat,
        "handCards": hand_cards(observation.hand, level, rules),
        "publicInfo": public_info(observation.card_counts, trick),
        **_ranks(seat, level, observation.levels),
        "curPos": last.seat if last is not None else -1,
        "curAction": _event_triple(last) if last is not None else None,
        "greaterPos": observation.previous_seat if previous is not None else -1,
        "greaterAction": wire_triple(previous) if previous is not None else None,
        "actionList": [action_triple(action) for action in ordered],
        "indexRange": len(ordered) - 1,
    }


def current_trick(history: Sequence[Event]) -> list[Event]:
    """The plays and passes of the trick in progress (since the last ``trick`` event)."""
    trick: list[Event] = []
    for event in history:
        if event.kind == EventKind.TRICK:
            trick = []
        elif event.kind in (EventKind.PLAY, EventKind.PASS):
            trick.append(event)
    return trick


def public_info(counts: Sequence[int], trick: Sequence[Event]) -> list[dict[str, Any]]:
    """``publicInfo``: per seat, ``rest`` (cards held) and ``playArea`` (its last action in the trick in
    progress, ``null`` before it acts)."""
    areas: list[list[Any] | None] = [None] * 4
    for event in trick:
        assert event.seat is not None
        areas[event.seat] = _event_triple(event)
    return [{"rest": counts[seat], "playArea": areas[seat]} for seat in range(4)]


def _event_triple(event: Event) -> list[Any]:
    return (
        wire_triple(event.play)
        if event.kind == EventKind.PLAY and event.play is not None
        else list(PASS_TRIPLE)
    )


def _ranks(seat: int, level: Rank, levels: Sequence[Rank]) -> dict[str, str]:
    return {
        "selfRank": levels[seat % 2].letter,
        "oppoRank": levels[1 - seat % 2].letter,
        "curRank": level.letter,
    }


# --- what follows an action -----------------------------------------------------------------------------


def anti_tribute_seats(deal: Deal) -> list[int]:
    """The seats excused by 抗贡 at the start of a deal: the whole paying side, or single payers holding
    both small jokers where the rule set says so; empty when nobody was."""
    plan = deal.tribute_plan
    if plan is None:
        return []
    payers = TributePlan.from_places(plan.places).payers
    seats: list[int] = []
    for event in deal.events:
        if event.kind != EventKind.ANTI_TRIBUTE or event.seat is None:
            continue
        seats += [event.seat] if event.seat in payers else list(payers)
    return seats


def after_action(deal: Deal, action: Action, before: tuple[int, Play] | None) -> list[list[Message]]:
    """The notifications each seat gets once ``action`` is applied to ``deal`` (``before`` is the
    deal's ``last_play`` before it): the play or pass; the tributes once every payer has paid; the
    returns once all are made, each seat seeing only those it gives or receives."""
    messages: list[list[Message]] = [[] for _ in range(4)]
    if isinstance(action, PlayAction):
        greater = (action.seat, action.play) if not action.play.is_pass else before
        note = notify_play(action.seat, action.play, greater)
        for seat in range(4):
            messages[seat].append(note)
    elif isinstance(action, TributeAction) and deal.phase is not Phase.TRIBUTE:
        results = [_transfer(event) for event in deal.events if event.kind == EventKind.TRIBUTE]
        for seat in range(4):
            messages[seat].append(notify_tribute(results))
    elif isinstance(action, ReturnAction) and deal.phase is not Phase.RETURN:
        returns = [event for event in deal.events if event.kind == EventKind.RETURN]
        for seat in range(4):
            messages[seat].append(notify_back(_transfer(e) for e in returns if e.visible_to(seat)))
    return messages


def _transfer(event: Event) -> tuple[int, int, Card]:
    assert event.seat is not None
    assert event.to is not None
    assert event.card is not None
    return event.seat, event.to, event.card


# --- reading answers and messages ------------------------------------------------------------------------


class AnswerError(ValueError):
    """An answer to an ``act`` message the server cannot use; ``code`` names the fault."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


def parse_answer(text: str | bytes, index_range: int) -> int:
    """The index in ``{"actIndex": i}``; :class:`AnswerError` with code ``malformed-json``,
    ``not-an-object``, ``missing-actIndex``, ``not-an-integer`` or ``out-of-range``."""
    try:
        value = json.loads(text)
    except (json.JSONDecodeError, UnicodeDecodeError) as error:
        where = f" at column {error.colno}" if isinstance(error, json.JSONDecodeError) else ""
        reason = error.msg if isinstance(error, json.JSONDecodeError) else "not UTF-8"
        raise AnswerError("malformed-json", f"the answer is not valid JSON: {reason}{where}") from None
    if not isinstance(value, dict):
        raise AnswerError(
            "not-an-object",
            f'the answer must be a JSON object like {{"actIndex": 0}}, got {_json_kind(value)}',
        )
    if "actIndex" not in value:
        raise AnswerError("missing-actIndex", 'the answer has no "actIndex"')
    index = value["actIndex"]
    if isinstance(index, bool) or not isinstance(index, int):
        raise AnswerError("not-an-integer", f"actIndex must be an integer, got {json.dumps(index)}")
    if not 0 <= index <= index_range:
        raise AnswerError("out-of-range", f"actIndex {index} is outside the actionList (0…{index_range})")
    return index


def _json_kind(value: object) -> str:
    names = {list: "an array", str: "a string", int: "a number", float: "a number", bool: "a boolean"}
    return "null" if value is None else names.get(type(value), "a JSON value")


def parse_message(text: str | bytes) -> Message:
    """A server message as a JSON object; ``ValueError`` when it is not one."""
    value = json.loads(text)
    if not isinstance(value, dict):
        raise ValueError(f"a message is a JSON object, got {_json_kind(value)}")
    return value


def action_of_entry(entry: object, seat: int, level: Rank, rules: RuleSet = COMPETITION) -> Action:
    """The action an ``actionList`` entry names for ``seat``; ``ValueError`` when it names none."""
    if not isinstance(entry, list | tuple) or len(entry) != 3:
        raise ValueError(f"an action is [type, rank, cards], got {entry!r}")
    if entry[0] in ("tribute", "back"):
        cards = entry[2]
        if not isinstance(cards, list | tuple) or len(cards) != 1 or not isinstance(cards[0], str):
            raise ValueError(f"a {entry[0]} names one card, got {entry!r}")
        try:
            card = Card.parse(cards[0])
        except NotationError as error:
            raise ValueError(str(error)) from None
        return TributeAction(seat, card) if entry[0] == "tribute" else ReturnAction(seat, card)
    if is_pass_triple(entry):
        return PlayAction(seat, PASS)
    return PlayAction(seat, play_of_triple(entry, level, rules))


def action_identity(action: Action) -> tuple[Any, ...]:
    """What makes two actions the same entry: the kind, the key rank and the cards."""
    if isinstance(action, TributeAction):
        return ("tribute", action.card)
    if isinstance(action, ReturnAction):
        return ("back", action.card)
    play = action.play
    return ("play", play.kind, play.rank, tuple(sorted(play.cards)))


@dataclass(frozen=True)
class Transfer:
    """A tribute or return as a notify message's ``result`` names it."""

    giver: int
    receiver: int
    card: Card | None


def read_transfers(result: object) -> list[Transfer]:
    """``result`` of a ``tribute`` or ``back`` notify: ``[[giver, receiver, card], …]``; entries that
    cannot be read are skipped, a hidden card (``null``) is kept as ``None``."""
    transfers: list[Transfer] = []
    if not isinstance(result, list):
        return transfers
    for entry in result:
        if not isinstance(entry, list | tuple) or len(entry) != 3:
            continue
        giver, receiver, name = entry
        if not (_is_seat(giver) and _is_seat(receiver)):
            continue
        card: Card | None = None
        if isinstance(name, str):
            try:
                card = Card.parse(name)
            except NotationError:
                continue
        transfers.append(Transfer(giver, receiver, card))
    return transfers


def _is_seat(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and 0 <= value <= 3


def read_seat(message: Mapping[str, Any], field: str) -> int | None:
    """A seat field (``myPos``, ``curPos``, ``greaterPos``): ``None`` for ``-1``, ``null`` or junk."""
    value = message.get(field)
    return value if _is_seat(value) else None
