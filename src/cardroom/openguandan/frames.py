"""OpenGuanDan's frames (docs/openguandan-protocol.md), built and read. Pure: no I/O.

Server frames are built with their fields in the order the Java server writes them (its maps' order,
as the recordings show), so that ours read the same field by field. Client frames are read into one
frozen value per type (:func:`parse_client_frame`); a frame that is JSON but not a usable request
raises :class:`FrameError`, which the server answers with a refusal (``code: -1``); text that is not
JSON raises :class:`NotJsonError`, on which the server closes the connection, as the Java server does.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Any, Final

from cardroom.cards import Card, Rank
from cardroom.openguandan.wire import PASS_TRIPLE, card_names

Frame = dict[str, Any]
"""One frame, as a JSON object."""

OK: Final = 200
REFUSED: Final = -1
SEATS: Final = range(4)


class FrameType(StrEnum):
    """The ``type`` of a client frame, and of the server's reply to it."""

    CREATE_ROOM = "CREATE_ROOM"
    JOIN_ROOM = "JOIN_ROOM"
    PLAY = "PLAY"
    TRIBUTE = "TRIBUTE"
    PAYTRIBUTE = "PAYTRIBUTE"


ANSWERS: Final = (FrameType.PLAY, FrameType.TRIBUTE, FrameType.PAYTRIBUTE)
"""The frame types that answer an ``act`` request."""


class Stage(StrEnum):
    """The ``stage`` of a server's ``notify`` or ``act`` frame."""

    BEGINNING = "beginning"
    PLAY = "play"
    TRIBUTE = "tribute"
    ANTI_TRIBUTE = "anti-tribute"
    BACK = "back"
    EPISODE_OVER = "episodeOver"
    GAME_RESULT = "gameResult"
    GAME_OVER = "gameOver"


ANSWER_OF_STAGE: Final = {
    Stage.PLAY: FrameType.PLAY,
    Stage.TRIBUTE: FrameType.TRIBUTE,
    Stage.BACK: FrameType.PAYTRIBUTE,
}
"""The frame that answers an ``act`` request of each stage."""


# --- replies to CREATE_ROOM and JOIN_ROOM, and refusals ------------------------------------------------


def created(room: int, seat: int, user_id: str, user_name: str | None) -> Frame:
    """The reply to ``CREATE_ROOM``: the new room and the creator's seat (``userNum``)."""
    data = {"userNum": seat, "userName": user_name, "userId": user_id, "roomId": room}
    return {"code": OK, "data": data, "type": FrameType.CREATE_ROOM.value}


def joined(room: int, seat: int) -> Frame:
    """The reply to ``JOIN_ROOM``: the room and the seat taken (``userNum``)."""
    return {"code": OK, "data": {"userNum": seat, "roomId": room}, "type": FrameType.JOIN_ROOM.value}


def join_notice(room: int) -> Frame:
    """``JOIN``: sent to the seats already in a room when another joins it."""
    return {"code": OK, "data": {"roomId": room}, "type": "JOIN"}


def refusal(frame_type: str | None, message: str) -> Frame:
    """A refusal of a client frame: its ``type``, ``code: -1`` and ``data.msg`` saying why."""
    return {"code": REFUSED, "data": {"msg": message}, "type": frame_type}


# --- notify frames ----------------------------------------------------------------------------------------


def beginning(seat: int, hand: Iterable[Card], level: Rank) -> Frame:
    """``notify``/``beginning``: the seat's dealt hand and the deal's level (``levelCard``)."""
    return {
        "myPos": seat,
        "stage": Stage.BEGINNING.value,
        "levelCard": level.letter,
        "handCards": card_names(hand),
        "type": "notify",
    }


def notify_play(seat: int, triple: list[Any], greater: tuple[int, list[Any]] | None) -> Frame:
    """``notify``/``play``: ``seat`` played ``triple`` (or passed); ``greater`` is the trick's best play
    *before* this one and who made it (``-1`` and the pass triple at a trick's first play)."""
    return {
        "curPos": seat,
        "stage": Stage.PLAY.value,
        "greaterPos": greater[0] if greater is not None else -1,
        "greaterAction": greater[1] if greater is not None else list(PASS_TRIPLE),
        "type": "notify",
        "curAction": triple,
    }


Transfer = tuple[int, int, Card]
"""A tribute or a return: giver, receiver, card."""


def notify_tribute(result: Iterable[Transfer]) -> Frame:
    """``notify``/``tribute``: ``[payer, receiver, card]`` of each tribute, in the order paid."""
    return {"result": _transfers(result), "stage": Stage.TRIBUTE.value, "type": "notify"}


def notify_anti_tribute(seats: Sequence[int]) -> Frame:
    """``notify``/``anti-tribute`` (抗贡): the payers who hold the big jokers that excuse their side."""
    return {
        "antiNums": len(seats),
        "stage": Stage.ANTI_TRIBUTE.value,
        "antiPos": list(seats),
        "type": "notify",
    }


def notify_back(result: Iterable[Transfer], count: int) -> Frame:
    """``notify``/``back``: ``[returner, receiver, card]`` of each return, in the order made, and the
    number of cards the seat told now holds (``count``)."""
    return {"result": _transfers(result), "stage": Stage.BACK.value, "count": count, "type": "notify"}


def episode_over(order: Sequence[int], level: Rank, rest: Iterable[tuple[int, Iterable[Card]]]) -> Frame:
    """``notify``/``episodeOver``: the finishing order, the deal's level, and every seat's cards left."""
    return {
        "curRank": level.letter,
        "restCards": [[seat, card_names(cards)] for seat, cards in rest],
        "stage": Stage.EPISODE_OVER.value,
        "type": "notify",
        "order": list(order),
    }


@dataclass(frozen=True)
class RoomTally:
    """What ``gameResult`` reports: the winner of the game just over, both teams' levels, the levels
    each team rose over the room and the games each won, the deals each seat won as 上游."""

    victory: int
    levels: tuple[Rank, Rank]
    risen: tuple[int, int]
    games_won: tuple[int, int]
    firsts: tuple[int, int, int, int]


def game_result(tally: RoomTally) -> Frame:
    """``notify``/``gameResult``, sent after the room's last game: ``gameResult`` is the levels risen and
    the games won by team 0 and team 1, ``victoryNum`` the deals won as 上游 by each seat."""
    return {
        "stage": Stage.GAME_RESULT.value,
        "victory": tally.victory,
        "victoryRank": [tally.levels[0].letter, tally.levels[1].letter],
        "type": "notify",
        "gameResult": [*tally.risen, *tally.games_won],
        "victoryNum": list(tally.firsts),
        "gameRound": 1,
    }


def game_over(games: int, setting: int | None = None) -> Frame:
    """``notify``/``gameOver``: the room's ``games`` games are played; nothing follows (``setting``: the
    games the room was set to play, when not ``games``; 0 on the card room's ladder, which sets none)."""
    return {
        "curTimes": games,
        "stage": Stage.GAME_OVER.value,
        "settingTimes": games if setting is None else setting,
        "type": "notify",
        "gameRound": games,
    }


def _transfers(result: Iterable[Transfer]) -> list[list[Any]]:
    return [[giver, receiver, str(card)] for giver, receiver, card in result]


# --- act frames -----------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Ranks:
    """The ranks an ``act`` frame carries: the seat's team's level, the other team's, the deal's."""

    own: Rank
    other: Rank
    level: Rank


def act_play(
    hand: Iterable[Card],
    counts: Sequence[int],
    ranks: Ranks,
    last: tuple[int, list[Any]] | None,
    greater: tuple[int, list[Any]] | None,
    entries: list[list[Any]],
) -> Frame:
    """``act``/``play``: ``last`` is the play just made, when the previous action was a play (else
    ``curPos`` -1, ``curAction`` null); ``greater`` the trick's best play (null when the seat leads)."""
    return {
        "curPos": last[0] if last is not None else -1,
        "indexRange": _index_range(entries),
        "greaterAction": greater[1] if greater is not None else None,
        "publicInfo": [{"rest": count} for count in counts],
        "actionList": entries,
        "type": "act",
        "curAction": last[1] if last is not None else None,
        "curRank": ranks.level.letter,
        "oppoRank": ranks.other.letter,
        "selfRank": ranks.own.letter,
        "stage": Stage.PLAY.value,
        "greaterPos": greater[0] if greater is not None else -1,
        "handCards": card_names(hand),
    }


def act_tribute(hand: Iterable[Card], ranks: Ranks, entries: list[list[Any]]) -> Frame:
    """``act``/``tribute``: the payer's hand and the cards it may pay."""
    return {
        "curRank": ranks.level.letter,
        "oppoRank": ranks.other.letter,
        "indexRange": _index_range(entries),
        "selfRank": ranks.own.letter,
        "stage": Stage.TRIBUTE.value,
        "actionList": entries,
        "handCards": card_names(hand),
        "type": "act",
    }


def act_back(
    hand: Iterable[Card], ranks: Ranks, payer: int, tribute: Card, entries: list[list[Any]]
) -> Frame:
    """``act``/``back``: the receiver's hand, who paid it which card, and the cards it may return."""
    return {
        "curRank": ranks.level.letter,
        "oppoRank": ranks.other.letter,
        "tributePos": payer,
        "indexRange": _index_range(entries),
        "selfRank": ranks.own.letter,
        "stage": Stage.BACK.value,
        "actionList": entries,
        "handCards": card_names(hand),
        "type": "act",
        "tribute": str(tribute),
    }


def _index_range(entries: Sequence[object]) -> int:
    return max(len(entries) - 1, 0)


# --- client frames, as our client writes them ------------------------------------------------------------


def create_room(user_id: str, games: int, seat: int | None) -> Frame:
    """``CREATE_ROOM``: a room of ``games`` games (``round``), the creator at ``seat`` (any when None)."""
    data: dict[str, Any] = {"userId": user_id, "round": games}
    if seat is not None:
        data["seatNum"] = seat
    return {"type": FrameType.CREATE_ROOM.value, "data": data}


def join_room(user_id: str, room: int, seat: int | None) -> Frame:
    """``JOIN_ROOM``: a seat of room ``room`` (any free one when ``seat`` is None)."""
    data: dict[str, Any] = {"userId": user_id, "roomId": room}
    if seat is not None:
        data["seatNum"] = seat
    return {"type": FrameType.JOIN_ROOM.value, "data": data}


def answer(request: Mapping[str, Any], room: int, seat: int, entry: object) -> Frame:
    """The answer to an ``act`` request: ``PLAY``, ``TRIBUTE`` or ``PAYTRIBUTE`` (which copies the
    request's ``tributePos`` and ``tribute``) with ``entry``, an element of its ``actionList``."""
    kind = ANSWER_OF_STAGE[Stage(request["stage"])]
    data: dict[str, Any] = {"roomId": room, "player": seat}
    if kind is FrameType.PAYTRIBUTE:
        data["tributePos"] = request.get("tributePos")
        data["tribute"] = request.get("tribute")
    data["act"] = entry
    return {"type": kind.value, "data": data}


# --- reading client frames -------------------------------------------------------------------------------


class NotJsonError(ValueError):
    """A text frame that is not a JSON value."""


class FrameError(ValueError):
    """A JSON frame the server cannot take: ``frame_type`` is its ``type`` (for the refusal)."""

    def __init__(self, frame_type: str | None, message: str) -> None:
        super().__init__(message)
        self.frame_type = frame_type
        self.message = message


@dataclass(frozen=True)
class CreateRoom:
    """``CREATE_ROOM``: ``games`` is ``round`` (``None``: the server's default)."""

    user_id: str
    user_name: str | None
    games: int | None
    seat: int | None


@dataclass(frozen=True)
class JoinRoom:
    """``JOIN_ROOM``: a seat of room ``room_id`` (``seat`` None: the first free one)."""

    user_id: str
    user_name: str | None
    room_id: int
    seat: int | None


@dataclass(frozen=True)
class Answer:
    """``PLAY``, ``TRIBUTE`` or ``PAYTRIBUTE``: ``act`` is the chosen entry as sent;
    ``tribute_pos`` and ``tribute`` come with ``PAYTRIBUTE`` only."""

    kind: FrameType
    room_id: int
    player: int
    act: list[Any]
    tribute_pos: int | None = None
    tribute: str | None = None


ClientFrame = CreateRoom | JoinRoom | Answer
MAX_USER_ID: Final = 64
"""Longest ``userId`` (or ``userName``) taken, in characters."""


def parse_client_frame(text: str | bytes) -> ClientFrame:
    """The request in one client frame; :class:`NotJsonError` or :class:`FrameError` say what is wrong."""
    try:
        value = json.loads(text)
    except (json.JSONDecodeError, UnicodeDecodeError) as error:
        raise NotJsonError(f"the frame is not JSON: {error}") from None
    if not isinstance(value, dict):
        raise FrameError(None, f'a frame is a JSON object {{"type": …, "data": {{…}}}}, got {_kind(value)}')
    raw_type = value.get("type")
    frame_type = raw_type if isinstance(raw_type, str) else None
    if raw_type is None:
        raise FrameError(None, 'the frame has no "type"')
    try:
        kind = FrameType(raw_type)
    except ValueError:
        known = ", ".join(member.value for member in FrameType)
        raise FrameError(frame_type, f"unknown type {raw_type!r}; this server takes {known}") from None
    data = value.get("data", {})
    if not isinstance(data, dict):
        raise FrameError(kind.value, f'"data" must be a JSON object, got {_kind(data)}')
    try:
        return _read(kind, data)
    except ValueError as error:
        raise FrameError(kind.value, str(error)) from None


def _read(kind: FrameType, data: Mapping[str, Any]) -> ClientFrame:
    if kind is FrameType.CREATE_ROOM:
        games = _integer(data, "round", required=False)
        if games is not None and games < 1:
            raise ValueError(f"round (the games to play) must be at least 1, got {games}")
        return CreateRoom(_user_id(data), _user_name(data), games, _seat(data))
    if kind is FrameType.JOIN_ROOM:
        room = _integer(data, "roomId")
        assert room is not None
        return JoinRoom(_user_id(data), _user_name(data), room, _seat(data))
    room = _integer(data, "roomId")
    player = _integer(data, "player")
    assert room is not None
    assert player is not None
    act = data.get("act")
    if not isinstance(act, list) or len(act) != 3:
        raise ValueError(f"act must be an entry of the actionList, [type, rank, cards], got {short(act)}")
    if kind is not FrameType.PAYTRIBUTE:
        return Answer(kind, room, player, act)
    tribute_pos = _integer(data, "tributePos")
    tribute = data.get("tribute")
    if not isinstance(tribute, str):
        raise ValueError(
            f"tribute must be the tribute card's name as the request gave it, got {short(tribute)}"
        )
    return Answer(kind, room, player, act, tribute_pos, tribute)


def _integer(data: Mapping[str, Any], name: str, *, required: bool = True) -> int | None:
    value = data.get(name)
    if value is None and not required:
        return None
    if isinstance(value, bool) or not isinstance(value, int):
        what = "missing" if value is None else f"not an integer: {short(value)}"
        raise ValueError(f"{name} is {what}")
    return value


def _seat(data: Mapping[str, Any]) -> int | None:
    seat = _integer(data, "seatNum", required=False)
    if seat is not None and seat not in SEATS:
        raise ValueError(f"座位号必须在0-3之间，当前值: {seat} (seatNum must be 0-3)")
    return seat


def _user_id(data: Mapping[str, Any]) -> str:
    value = data.get("userId")
    if isinstance(value, int) and not isinstance(value, bool):
        value = str(value)
    if not isinstance(value, str) or not value.strip():
        raise ValueError(f"userId must be a non-empty string, got {short(value)}")
    if len(value) > MAX_USER_ID:
        raise ValueError(f"userId may be at most {MAX_USER_ID} characters, got {len(value)}")
    return value


def _user_name(data: Mapping[str, Any]) -> str | None:
    value = data.get("userName")
    if value is None or (isinstance(value, str) and not value.strip()):
        return None
    if not isinstance(value, str) or len(value) > MAX_USER_ID:
        raise ValueError(f"userName must be a string of at most {MAX_USER_ID} characters, got {short(value)}")
    return value


def _kind(value: object) -> str:
    names = {list: "an array", str: "a string", bool: "a boolean", int: "a number", float: "a number"}
    return "null" if value is None else names.get(type(value), "a JSON value")


SHORT: Final = 80
"""Characters of a bad value quoted back in a refusal."""


def short(value: object) -> str:
    """A JSON value quoted in a message, cut to :data:`SHORT` characters."""
    text = json.dumps(value, ensure_ascii=False)
    return text if len(text) <= SHORT else text[: SHORT - 1] + "…"
