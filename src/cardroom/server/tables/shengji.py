"""One Shengji (升级) table: a Shengji match on the seats and append-only log of
:class:`~cardroom.server.tables.seated.SeatedTable`.

The cards are dealt one by one at the table's pace (``deal_pace``): after each card its receiver may
declare (叫主, 定主, 反主: docs/rules/shengji.md#declaring) or let the dealing go on. A person who could
declare has the
``declare`` clock to do it, then the dealing goes on by itself; a seat with nothing to declare, a bot
or a seat in 托管 takes the pace. The dealer buries the kitty (扣底) on the ``bury`` clock, then the
tricks are played on the lead and follow clocks; a clock that runs out puts the seat in 托管 (the
heuristic bot plays for it until the player is back), as at a Guandan table.

The log's entries (docs/protocol.md, "Shengji tables"): ``deal`` (the 108 cards in dealing order and
the first deal's first drawer: never sent), ``action`` (a record action: ``declare``, ``pass``,
``bury``, ``play``; a burial's cards are the dealer's alone), ``deal_end`` (the deal's result with the
kitty revealed) and ``match_end``. What a viewer sees is :mod:`cardroom.server.tables.shengji_views`.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from typing import Any, ClassVar, cast

from cardroom.cards import format_cards, format_in_order, parse_in_order
from cardroom.records.shengji import (
    ShengjiAction,
    deal_result_json,
    parse_shengji_action,
    shengji_record_of,
)
from cardroom.server.tables import shengji_views
from cardroom.server.tables.codec import ProtocolError, read_cards
from cardroom.server.tables.config import TableConfig
from cardroom.server.tables.entries import (
    SHENGJI_ENTRIES,
    ActionEntry,
    AutoEntry,
    By,
    Entry,
    LogEntry,
    MatchEndEntry,
    Reader,
    ShengjiDealEndEntry,
    ShengjiDealEntry,
)
from cardroom.server.tables.seated import Due, SeatedTable
from cardroom.shengji import (
    Action,
    Bury,
    Declare,
    Match,
    MatchPhase,
    Observation,
    Pass,
    Phase,
    Play,
    ShengjiRuleError,
    preset,
    shuffled_deck,
)

ACTION_TYPES = ("declare", "pass", "bury", "play")
"""What a player may send in an ``act`` message at a Shengji table."""


def read_shengji_action(seat: int, value: object) -> Action:
    """A client's action (``{"type": "play", "cards": ["SA", "SA"]}``; ``declare`` and ``bury`` the
    same, ``{"type": "pass"}``) as an engine action; a malformed one is a ``bad_message``."""
    if not isinstance(value, Mapping):
        raise ProtocolError(
            "bad_message", f'action: an object like {{"type": "play", "cards": [...]}}, got {value!r}'
        )
    kind = value.get("type")
    if kind not in ACTION_TYPES:
        raise ProtocolError("bad_message", f"action.type: one of {', '.join(ACTION_TYPES)}, got {kind!r}")
    if kind == "pass":
        return Pass(seat)
    cards = value.get("cards")
    if not isinstance(cards, list) or not cards or len(cards) > 33:
        raise ProtocolError("bad_message", f"action.cards: a list of 1 to 33 cards, got {cards!r}")
    read = read_cards(cards, "action.cards")
    if kind == "declare":
        return Declare(seat, read)
    if kind == "bury":
        return Bury(seat, read)
    return Play(seat, read)


def shengji_action_json(action: Action) -> dict[str, Any]:
    """An engine action in the client's shape (hints)."""
    if isinstance(action, Pass):
        return {"type": "pass"}
    kind = "declare" if isinstance(action, Declare) else "bury" if isinstance(action, Bury) else "play"
    return {"type": kind, "cards": [str(card) for card in action.cards]}


class ShengjiTable(SeatedTable):
    """A Shengji table: seats, the match (until a team passes the top level, or ``max_deals`` deals),
    the clocks of declaring, burying and tricks, and the log."""

    ENTRIES: ClassVar[Mapping[str, Reader]] = SHENGJI_ENTRIES
    match: Match

    def __init__(self, table_id: str, config: TableConfig, *, seed: str | None = None) -> None:
        super().__init__(table_id, config, seed=seed)
        self.rules = preset(config.rules)
        self.match = Match(self.rules)

    @property
    def current_player(self) -> int | None:
        return self.match.current_player if self.status == "running" else None

    def observation(self, seat: int) -> Observation:
        return self.match.observation(seat)

    def action_json(self, action: Action) -> dict[str, Any]:
        return shengji_action_json(action)

    # -- actions ---------------------------------------------------------------------------------

    def verify(self, seat: int, action: object) -> Action:
        """The seat's action read and checked by the rules; a refused one raises :class:`ProtocolError`
        naming the rule (nothing changes)."""
        self.check_turn(seat)
        engine_action = read_shengji_action(seat, action)
        try:
            return self.match.verify(engine_action)
        except ShengjiRuleError as error:
            raise ProtocolError.refused(error) from None

    def check(self, seat: int, action: object) -> dict[str, Any]:
        """Whether ``act`` would take this action now (the ``checked`` message's fields)."""
        self.verify(seat, action)
        return {"ok": True}

    def legal_actions_json(self, seat: int) -> list[dict[str, Any]]:
        """The seat's legal declarations and passes while declaring (``[]`` otherwise, and unless it is
        to act): the lists of burials, leads and follows are too large to send."""
        deal = self.match.current_deal
        if self.current_player != seat or deal is None or deal.phase is not Phase.DECLARE:
            return []
        return [shengji_action_json(action) for action in deal.legal_actions()]

    def act(self, seat: int, action: object, now: float) -> list[Entry]:
        """A seated player's action; it ends the seat's 托管."""
        legal = self.verify(seat, action)
        before = self.number
        if self.auto[seat]:
            self._record(AutoEntry(seat, False, now))
        self._play(legal, "player", now)
        return self.log[before:]

    def forfeit(self, side: int, now: float, note: str = "") -> list[Entry]:
        """End a running match by a forfeit of ``side``: the other side wins."""
        if self.status != "running":
            return []
        return [self._record(self._match_end("forfeit", 1 - side, now, forfeited_by=side, note=note))]

    # -- what happens by itself ------------------------------------------------------------------

    def clock(self) -> float | None:
        """Seconds the person to act has: to declare (each time a card arrives), to bury, to lead or
        to follow."""
        deal = self.match.current_deal
        if deal is None or self.status != "running":
            return None
        clocks = self.config.clocks
        if deal.phase is Phase.DECLARE:
            return clocks.declare
        if deal.phase is Phase.KITTY:
            return clocks.bury
        return clocks.follow if deal.trick_plays else clocks.lead

    def due(self) -> Due | None:
        if self.status != "running":
            return None
        if self.match.phase is MatchPhase.DEALING:
            return Due(self.deal_ended + self.config.deal_pause, "deal")
        deal = self.match.current_deal
        assert deal is not None
        seat = deal.current_player
        assert seat is not None
        declaring = deal.phase is Phase.DECLARE
        pace = self.config.deal_pace if declaring else self.config.bot_delay
        if self.config.seats[seat].kind == "bot":
            return Due(self.turn_started + pace, "bot", seat)
        if self.auto[seat]:
            return Due(self.turn_started + pace, "auto", seat)
        if declaring:
            can_declare = any(isinstance(action, Declare) for action in deal.legal_actions())
            window = self.config.clocks.declare if can_declare else self.config.deal_pace
            return Due(self.turn_started + window, "pass", seat)
        allowed = self.clock()
        assert allowed is not None
        return Due(self.turn_started + allowed, "clock", seat)

    def apply_due(self, due: Due, action: Any, now: float) -> list[Entry]:
        if self.due() != due:
            return []
        before = self.number
        if due.kind == "deal":
            self._deal(now)
            return self.log[before:]
        assert due.seat is not None
        if due.kind == "pass":
            self._play(self.match.verify(Pass(due.seat)), "auto", now)
            return self.log[before:]
        chosen: Action | None = None
        if action is not None:
            try:
                chosen = self.match.verify(action)
            except ShengjiRuleError:
                chosen = None
        if chosen is None:
            chosen = self.match.verify(next(self.match.legal_actions()))
        if due.kind == "clock":
            self._record(AutoEntry(due.seat, True, now))
        self._play(chosen, "bot" if due.kind == "bot" else "auto", now)
        return self.log[before:]

    # -- writing the log -------------------------------------------------------------------------

    def _deal(self, now: float) -> None:
        assert self.seed is not None
        number = len(self.match.deals) + 1
        rng = random.Random(f"{self.seed}:{number}")
        deck = shuffled_deck(rng)
        self._record(
            ShengjiDealEntry(
                number,
                self.match.level.letter,
                format_in_order(deck),
                rng.randrange(4) if self.match.dealer is None else None,
                self.match.dealer,
                now,
            )
        )

    def _play(self, action: Action, by: By, now: float) -> None:
        """Record an action the rules verified in this very state (it is applied as it is)."""
        self._record(ActionEntry(action.seat, ShengjiAction.of(action).to_json(), by, now, verified=action))
        if self.match.phase is MatchPhase.DEAL:
            return
        summary = self.match.summaries[-1]
        self._record(
            ShengjiDealEndEntry(
                len(self.match.summaries),
                deal_result_json(summary),
                format_cards(self.match.deals[-1].buried),
                now,
            )
        )
        if self.match.is_over:
            self._record(self._match_end("passed_top", self.match.winner, now))
        elif self.config.max_deals is not None and len(self.match.summaries) >= self.config.max_deals:
            first, second = (self.rules.levels.index(level) for level in self.match.levels)
            winner = None if first == second else 0 if first > second else 1
            self._record(self._match_end("deal_limit", winner, now))

    def _match_end(
        self,
        reason: str,
        winner: int | None,
        now: float,
        *,
        forfeited_by: int | None = None,
        note: str | None = None,
    ) -> MatchEndEntry:
        levels = tuple(level.letter for level in self.match.levels)
        return MatchEndEntry(winner, levels, reason, now, forfeited_by=forfeited_by, note=note)

    def _appliers(self) -> dict[type[Any], Callable[[Any], LogEntry | None]]:
        return {
            **super()._appliers(),
            ShengjiDealEntry: self._apply_deal,
            ActionEntry: self._apply_action,
            ShengjiDealEndEntry: self._apply_deal_end,
            MatchEndEntry: self._apply_match_end,
        }

    def _apply_deal(self, entry: ShengjiDealEntry) -> None:
        self.match.deal(parse_in_order(entry.deck), entry.first_drawer)
        self.turn_started = entry.at

    def _apply_action(self, entry: ActionEntry) -> None:
        if entry.verified is not None:
            self.match.apply_verified(cast(Action, entry.verified))
        else:
            self.match.apply(parse_shengji_action(dict(entry.action)).engine_action())
        self.turn_started = entry.at

    def _apply_deal_end(self, entry: ShengjiDealEndEntry) -> None:
        if len(self.match.summaries) != entry.deal_number:
            raise ValueError("the deal is not over")
        if self.match.summaries[-1].result.score != entry.result["score"]:
            raise ValueError("the deal's score differs from the log")
        self.deal_ended = entry.at

    def _apply_match_end(self, entry: MatchEndEntry) -> None:
        if entry.reason == "passed_top" and not self.match.is_over:
            raise ValueError("the match is not over")
        self._finish(entry)

    # -- what a viewer sees ----------------------------------------------------------------------

    def project(self, entry: Entry, viewer: int | None) -> Entry:
        return shengji_views.project(self, entry, viewer)

    def view(self, viewer: int | None, now: float) -> dict[str, Any]:
        """The ``state`` message for ``viewer``."""
        return shengji_views.state(self, viewer, now)

    def outcome(self) -> dict[str, Any] | None:
        """The state's ``result``: winner, levels and why the match ended."""
        end = self.end
        if end is None:
            return None
        return {
            "winner": end.winner,
            "levels": list(end.levels),
            "reason": end.reason,
            "forfeited_by": end.forfeited_by,
        }

    # -- records ---------------------------------------------------------------------------------

    def _match_record(self, names: list[str], meta: dict[str, Any]) -> dict[str, Any]:
        return shengji_record_of(self.match, names, meta=meta)


__all__ = ["ACTION_TYPES", "ShengjiTable", "read_shengji_action", "shengji_action_json"]
