"""What one viewer (a seat, or ``None`` for a spectator) sees of a Shengji table: each log entry as it
may see it (:func:`project`) and the ``state`` message (:func:`state`). Nothing here holds another
seat's cards, the deck, the kitty before the deal's end (but for the dealer), a token's hash or the
seed (docs/protocol.md, "Shengji tables")."""

from __future__ import annotations

from typing import Any, Protocol

from cardroom.cards import Card
from cardroom.records.shengji import deal_result_json
from cardroom.server.tables.entries import Entry
from cardroom.server.tables.seated import Due, public_entry
from cardroom.shengji import Declare, Match, Phase, ShengjiRules, TrickRules
from cardroom.shengji.deal import Deal


class ViewedShengjiTable(Protocol):
    """What the views read of a Shengji table (:class:`~cardroom.server.tables.shengji.ShengjiTable` is one;
    this module does not import it)."""

    @property
    def match(self) -> Match: ...

    @property
    def rules(self) -> ShengjiRules: ...

    @property
    def current_player(self) -> int | None: ...

    def due(self) -> Due | None: ...

    def outcome(self) -> dict[str, Any] | None: ...

    def state_head(self, viewer: int | None) -> dict[str, Any]: ...

    def seat_view(self, seat: int, cards: int) -> dict[str, Any]: ...


def project(table: ViewedShengjiTable, entry: Entry, viewer: int | None) -> Entry:
    """A log entry as ``viewer`` may see it: no deck, and a burial's cards only for its dealer."""
    kind = entry["type"]
    if kind == "deal":
        return {key: value for key, value in entry.items() if key != "deck"}
    if kind == "action" and "bury" in entry["action"] and viewer != entry["seat"]:
        return {**entry, "action": {"seat": entry["seat"], "bury": None}}
    return public_entry(entry)


def state(table: ViewedShengjiTable, viewer: int | None, now: float) -> dict[str, Any]:
    """The ``state`` message for ``viewer``: everything needed to draw a Shengji table."""
    match = table.match
    deal = match.deals[-1] if match.deals else None
    due = table.due()
    turn = table.current_player
    level = deal.level if deal is not None else match.level
    sorting = _trick_rules(deal)
    hand: list[Card] = []
    if viewer is not None and deal is not None:
        hand = sorted(deal.hand(viewer), key=sorting.sort_key) if sorting else list(deal.hand(viewer))
    declarations: list[list[str]] = []
    if viewer is not None and viewer == turn and deal is not None and deal.phase is Phase.DECLARE:
        declarations = [
            [str(card) for card in action.cards]
            for action in deal.legal_actions()
            if isinstance(action, Declare)
        ]
    settled = deal is not None and deal.phase is not Phase.DECLARE
    return {
        **table.state_head(viewer),
        "seats": [_seat(table, seat, deal) for seat in range(4)],
        "ladder": [rank.letter for rank in table.rules.levels],
        "must_play": [rank.letter for rank in table.rules.must_play],
        "level": level.letter,
        "dealer": deal.dealer if deal is not None else match.dealer,
        "turn": turn,
        "to_act": viewer is not None and viewer == turn,
        "deadline": due.at if due is not None and due.kind in ("clock", "pass") else None,
        "server_time": now,
        "hand": None if viewer is None else [str(card) for card in hand],
        "hand_suits": [sorting.suit_of(card).letter for card in hand] if sorting else [],
        "declarations": declarations,
        "declaration": _declaration(deal),
        "trump_settled": settled,
        "trump": deal.trump.letter if settled and deal is not None and deal.trump is not None else None,
        "turned_card": str(deal.turned_card) if deal is not None and deal.turned_card else None,
        "kitty": _kitty(deal, viewer),
        "trick": _trick(deal),
        "last_trick": _last_trick(deal),
        "failed_throw": _failed_throw(deal),
        "points": deal.attackers_points if deal is not None else 0,
        "penalty": deal.penalty if deal is not None else 0,
        "tricks_played": len(deal.tricks) if deal is not None else 0,
        "last_deal": _last_deal(table),
        "result": table.outcome(),
    }


def _trick_rules(deal: Deal | None) -> TrickRules | None:
    """How the hand is sorted: by the trump once settled, by the standing declaration before."""
    if deal is None:
        return None
    if deal.trick_rules is not None:
        return deal.trick_rules
    suit = deal.declaration.suit if deal.declaration is not None else None
    return TrickRules(deal.level, suit, deal.rules.skip_level_in_tractor)


def _seat(table: ViewedShengjiTable, seat: int, deal: Deal | None) -> dict[str, Any]:
    played = dict(deal.trick_plays) if deal is not None else {}
    return {
        **table.seat_view(seat, deal.card_count(seat) if deal is not None else 0),
        "dealer": deal is not None and deal.dealer == seat,
        "played": [str(card) for card in played[seat]] if seat in played else None,
    }


def _declaration(deal: Deal | None) -> dict[str, Any] | None:
    if deal is None or deal.declaration is None:
        return None
    return {"seat": deal.declaration.seat, "cards": [str(card) for card in deal.declaration.cards]}


def _kitty(deal: Deal | None, viewer: int | None) -> list[str]:
    """The kitty as this viewer knows it: the dealer's eight once taken (then the eight buried); the
    others see it only when the deal is over."""
    if deal is None:
        return []
    if deal.phase is Phase.OVER:
        return [str(card) for card in deal.buried]
    if viewer is not None and viewer == deal.dealer and deal.phase is not Phase.DECLARE:
        return [str(card) for card in (deal.buried or deal.kitty)]
    return []


def _trick(deal: Deal | None) -> dict[str, Any] | None:
    if deal is None or deal.phase is not Phase.TRICKS:
        return None
    return {
        "leader": deal.leader,
        "plays": [{"seat": seat, "cards": [str(card) for card in cards]} for seat, cards in deal.trick_plays],
    }


def _last_trick(deal: Deal | None) -> dict[str, Any] | None:
    if deal is None or not deal.tricks:
        return None
    trick = deal.tricks[-1]
    return {
        "leader": trick.leader,
        "plays": [{"seat": seat, "cards": [str(card) for card in cards]} for seat, cards in trick.plays],
        "winner": trick.winner,
        "points": trick.points,
    }


def _failed_throw(deal: Deal | None) -> dict[str, Any] | None:
    """The throw (甩牌) that failed in the trick on the table, or in the last one when none is led yet."""
    if deal is None:
        return None
    tricks_seen = 0
    for event in reversed(deal.events):
        if event.kind == "trick":
            tricks_seen += 1
            if tricks_seen > 1 or deal.trick_plays:
                return None
        if event.kind == "throw_failed":
            return {"seat": event.seat, "cards": [str(card) for card in event.cards], "penalty": event.points}
    return None


def _last_deal(table: ViewedShengjiTable) -> dict[str, Any] | None:
    """The last finished deal: its result, the kitty revealed and multiplied, the levels after."""
    match = table.match
    if not match.summaries:
        return None
    return {
        "deal_number": len(match.summaries),
        **deal_result_json(match.summaries[-1]),
        "kitty": [str(card) for card in match.deals[len(match.summaries) - 1].buried],
    }


__all__ = ["project", "state"]
