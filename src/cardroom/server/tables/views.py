"""What one viewer (a seat, or ``None`` for a spectator) sees of a Guandan table: each log entry as it may
see it (:func:`project`) and the ``state`` message (:func:`state`). Nothing here ever holds another seat's
cards, a seat token's hash or the shuffle's seed (docs/protocol.md).

The table is read through its public face only (:class:`ViewedTable`, which
:class:`~cardroom.server.tables.guandan.Table` is), so this module does not import the table."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol

from cardroom.guandan.deal import Deal, Event, EventKind, Phase, PlayAction
from cardroom.guandan.match import Match
from cardroom.guandan.plays import PASS
from cardroom.guandan.ruleset import RuleSet
from cardroom.server.tables.codec import (
    card_names,
    hand_order,
    hide_card,
    play_json,
    read_hand,
    wild_card,
)
from cardroom.server.tables.conduct import Choice
from cardroom.server.tables.config import TableConfig
from cardroom.server.tables.entries import Entry
from cardroom.server.tables.seated import Due, Status, public_entry
from cardroom.tournament.conduct import Penalty, PenaltyRecord


class ViewedTable(Protocol):
    """What the views read of a Guandan table."""

    @property
    def match(self) -> Match: ...

    @property
    def rules(self) -> RuleSet: ...

    @property
    def status(self) -> Status: ...

    @property
    def config(self) -> TableConfig: ...

    @property
    def penalties(self) -> Sequence[PenaltyRecord]: ...

    def due(self) -> Due | None: ...

    def outcome(self) -> dict[str, Any] | None: ...

    def state_head(self, viewer: int | None) -> dict[str, Any]: ...

    def elapsed(self, now: float) -> float: ...

    def choice_for(self, seat: int | None) -> Choice | None: ...

    def waits_for_choice(self) -> bool: ...

    def fallback_plays(self, seat: int) -> bool: ...

    def seat_view(self, seat: int, cards: int) -> dict[str, Any]: ...


def project(table: ViewedTable, entry: Entry, viewer: int | None) -> Entry:
    """A log entry as ``viewer`` may see it: no token hash, no seed, only the viewer's own dealt hand,
    a tribute or return card only to the seats it passes between."""
    kind = entry["type"]
    if kind == "deal":
        seen = {key: value for key, value in entry.items() if key != "hands"}
        if viewer is None:
            seen["hand"] = None
        else:
            level = table.match.deals[entry["deal_number"] - 1].level
            seen["hand"] = card_names(hand_order(read_hand(entry["hands"][viewer]), level, table.rules))
        return seen
    if kind == "action" and "private_to" in entry and viewer not in entry["private_to"]:
        return {**entry, "action": hide_card(entry["action"])}
    return public_entry(entry)


def state(table: ViewedTable, viewer: int | None, now: float) -> dict[str, Any]:
    """The ``state`` message for ``viewer``: everything needed to draw the table."""
    match = table.match
    deal = match.deals[-1] if match.deals else None
    in_deal = match.current_deal
    opening = _opening(deal)
    level = in_deal.level if in_deal is not None else match.level
    due = table.due()
    turn = in_deal.current_player if in_deal is not None and table.status == "running" else None
    hand: list[str] | None = None
    if viewer is not None:
        hand = card_names(hand_order(deal.hand(viewer), level, table.rules)) if deal is not None else []
    last_deal = None
    if match.summaries:
        summary = match.summaries[-1]
        last_deal = {
            "deal_number": len(match.summaries),
            "places": list(summary.result.places),
            "rise": summary.result.rise(table.rules),
            "levels": [rank.letter for rank in summary.levels_after],
            "foul": _foul(table.penalties, summary.result.foul_by, len(match.summaries)),
        }
    result = table.outcome()
    config = table.config
    return {
        **table.state_head(viewer),
        "seats": [_seat(table, seat, deal) for seat in range(4)],
        "level": level.letter,
        "level_team": match.level_team,
        "turn": turn,
        "deadline": due.at if due is not None and due.kind == "clock" else None,
        "server_time": now,
        "hand": hand,
        "wild": str(wild_card(level)),
        **_to_act(table, viewer, turn),
        "to_beat": _to_beat(in_deal),
        "last_trick": _last_trick(in_deal),
        "tributes": _tributes(opening, viewer),
        "returns": _returns(opening, viewer),
        "anti_tribute": [event.seat for event in opening if event.kind == EventKind.ANTI_TRIBUTE],
        "last_deal": last_deal,
        "result": result,
        "event": None if config.event is None else config.event.to_dict(),
        "penalties": [penalty_json(record) for record in table.penalties],
        "elapsed": table.elapsed(now) if table.status == "running" else None,
        "choice": _choice(table, viewer),
    }


def _to_act(table: ViewedTable, viewer: int | None, turn: int | None) -> dict[str, Any]:
    """Whether the viewer is to act now (``to_act``: not while its 下家 chooses whether its turn is
    skipped, nor while the fallback plays its move after a fault), may pass (``can_pass``), and the
    cards it may give in tribute or return (``options``). Plays are not listed: the page asks the
    server (``check``)."""
    to_act = (
        viewer is not None
        and viewer == turn
        and not table.waits_for_choice()
        and not table.fallback_plays(viewer)
    )
    deal = table.match.current_deal
    if not to_act or deal is None or viewer is None:
        return {"to_act": False, "can_pass": False, "options": []}
    if deal.phase in (Phase.TRIBUTE, Phase.RETURN):
        cards = {action.card for action in deal.legal_actions() if not isinstance(action, PlayAction)}
        ordered = dict.fromkeys(
            card for card in hand_order(deal.hand(viewer), deal.level, table.rules) if card in cards
        )
        return {"to_act": True, "can_pass": False, "options": card_names(ordered)}
    return {"to_act": True, "can_pass": table.match.can(PlayAction(viewer, PASS)), "options": []}


def _choice(table: ViewedTable, viewer: int | None) -> dict[str, Any] | None:
    """The viewer's open choice (违例: skip the offender's turn?; 犯规: who leads next?), its own only."""
    choice = table.choice_for(viewer)
    return None if choice is None else choice.to_json()


def _foul(records: Sequence[PenaltyRecord], seat: int | None, deal_number: int) -> dict[str, Any] | None:
    """Why a deal ended by a foul (犯规): the offender's seat and side and the offence of the side's
    foul that ended it (``late``: lateness, docs/rules/competition.md#late); ``None`` for a deal
    played out."""
    if seat is None:
        return None
    fouls = [r for r in records if r.side == seat % 2 and r.penalty is Penalty.FOUL and r.deal <= deal_number]
    offence = fouls[-1].offence.value if fouls else None
    return {"seat": seat, "side": seat % 2, "offence": offence}


def penalty_json(record: PenaltyRecord) -> dict[str, Any]:
    """A penalty record as the state and the score sheet show it."""
    return {**record.to_dict(), "label": record.penalty.label, "text": record.describe()}


def _seat(table: ViewedTable, seat: int, deal: Deal | None) -> dict[str, Any]:
    place = None
    if deal is not None:
        if deal.result is not None:
            place = deal.result.places.index(seat) + 1
        elif seat in deal.finished:
            place = deal.finished.index(seat) + 1
    return {
        **table.seat_view(seat, deal.card_count(seat) if deal is not None else 0),
        "last": _last_play(seat, deal),
        "place": place,
    }


def _last_play(seat: int, deal: Deal | None) -> dict[str, Any] | None:
    """The seat's play (or pass) in the trick on the table."""
    if deal is None:
        return None
    for event in reversed(deal.events):
        if event.kind == EventKind.TRICK:
            return None
        if event.seat == seat and event.kind in (EventKind.PLAY, EventKind.PASS):
            return play_json(event.play) if event.play is not None else {"type": "pass"}
    return None


def _last_trick(deal: Deal | None) -> dict[str, Any] | None:
    """The deal's last finished trick: its ``winner``, the ``leader`` of the next, each seat's last
    play or pass in it (``plays``; ``null``: none) and every play and pass in the order made
    (``order``, the lead first); ``None`` before the first trick ends."""
    if deal is None:
        return None
    end = next(
        (i for i in range(len(deal.events) - 1, -1, -1) if deal.events[i].kind == EventKind.TRICK), None
    )
    if end is None:
        return None
    order: list[dict[str, Any]] = []
    for event in reversed(deal.events[:end]):
        if event.kind == EventKind.TRICK:
            break
        if event.seat is not None and event.kind in (EventKind.PLAY, EventKind.PASS):
            shown = play_json(event.play) if event.play is not None else {"type": "pass"}
            order.insert(0, {"seat": event.seat, "play": shown})
    plays: list[dict[str, Any] | None] = [None] * 4
    for made in order:
        plays[made["seat"]] = made["play"]
    trick = deal.events[end]
    return {"winner": trick.seat, "leader": trick.to, "plays": plays, "order": order}


def _to_beat(deal: Deal | None) -> dict[str, Any] | None:
    """The play to beat and who made it; ``None`` when the player to act leads."""
    if deal is None or deal.last_play is None:
        return None
    seat, play = deal.last_play
    return {"seat": seat, "play": play_json(play)}


def _opening(deal: Deal | None) -> list[Event]:
    """The deal's events before its first play: 抗贡, tributes and returns all come before it (a state
    is drawn after every action, so this does not scan the whole deal each time)."""
    if deal is None:
        return []
    opening: list[Event] = []
    for event in deal.events:
        if event.kind in (EventKind.PLAY, EventKind.PASS):
            break
        opening.append(event)
    return opening


def _tributes(opening: list[Event], viewer: int | None) -> list[dict[str, Any]]:
    """The tributes handed over; before that, a face-down one with its card for its payer only."""
    handed = [
        {"from": event.seat, "to": event.to, "card": str(event.card)}
        for event in opening
        if event.kind == EventKind.TRIBUTE
    ]
    if handed:
        return handed
    return [
        {"from": event.seat, "to": None, "card": str(event.card) if viewer == event.seat else None}
        for event in opening
        if event.kind == EventKind.TRIBUTE_PAID
    ]


def _returns(opening: list[Event], viewer: int | None) -> list[dict[str, Any]]:
    """The returns, each card shown only to the two seats it passes between."""
    return [
        {
            "from": event.seat,
            "to": event.to,
            "card": str(event.card) if viewer is not None and event.visible_to(viewer) else None,
        }
        for event in opening
        if event.kind == EventKind.RETURN
    ]
