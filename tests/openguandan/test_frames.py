"""OpenGuanDan's frames built and read (docs/openguandan-protocol.md): ours carry the recorded fields in
the recorded order, our client's answers are the recorded client's frames byte for byte, and client
frames the server cannot take are refused saying why."""

from __future__ import annotations

import json
from typing import Any

import pytest

from cardroom.cards import Card, Rank
from cardroom.openguandan import frames
from cardroom.openguandan.frames import (
    Answer,
    CreateRoom,
    FrameError,
    FrameType,
    JoinRoom,
    NotJsonError,
    RoomTally,
    parse_client_frame,
)
from tests.openguandan.recordings import ONE_GAME, TWO_GAMES, lines


def _dump(frame: object) -> str:
    return json.dumps(frame, ensure_ascii=False, separators=(",", ":"))


def _first(name: str, seat: int, **fields: object) -> dict[str, Any]:
    return next(
        line.frame
        for line in lines(name)
        if line.seat == seat
        and line.direction == "in"
        and all(line.frame.get(k) == v for k, v in fields.items())
    )


def test_beginning_is_the_recorded_frame() -> None:
    recorded = _first(TWO_GAMES, 3, stage="beginning")
    hand = [Card.parse(name) for name in reversed(recorded["handCards"])]
    assert _dump(frames.beginning(3, hand, Rank.TWO)) == _dump(recorded)


def test_replies_to_create_and_join_are_the_recorded_frames() -> None:
    assert _dump(frames.created(2, 0, "u0", None)) == _dump(_first(TWO_GAMES, 0, type="CREATE_ROOM"))
    assert _dump(frames.joined(2, 3)) == _dump(_first(TWO_GAMES, 3, type="JOIN_ROOM"))
    assert _dump(frames.join_notice(2)) == _dump(_first(TWO_GAMES, 1, type="JOIN"))


def test_the_end_of_a_room_is_the_recorded_frames() -> None:
    """gameResult and gameOver of the two-game room: team 0 won the last game at A against T, the teams
    rose 18 and 20 levels and won a game each, and the seats took 上游 6, 9, 4 and 4 times."""
    tally = RoomTally(0, (Rank.ACE, Rank.TEN), (18, 20), (1, 1), (6, 9, 4, 4))
    assert _dump(frames.game_result(tally)) == _dump(_first(TWO_GAMES, 2, stage="gameResult"))
    assert _dump(frames.game_over(2)) == _dump(_first(TWO_GAMES, 2, stage="gameOver"))


def test_notifications_are_the_recorded_frames() -> None:
    tribute = _first(TWO_GAMES, 1, type="notify", stage="tribute")
    result = [(giver, receiver, Card.parse(card)) for giver, receiver, card in tribute["result"]]
    assert _dump(frames.notify_tribute(result)) == _dump(tribute)
    back = _first(TWO_GAMES, 1, type="notify", stage="back")
    result = [(giver, receiver, Card.parse(card)) for giver, receiver, card in back["result"]]
    assert _dump(frames.notify_back(result, 27)) == _dump(back)
    anti = _first(TWO_GAMES, 0, stage="anti-tribute")
    assert _dump(frames.notify_anti_tribute([3, 1])) == _dump(anti)
    over = _first(TWO_GAMES, 0, stage="episodeOver")
    rest = [(seat, [Card.parse(card) for card in cards]) for seat, cards in over["restCards"]]
    assert _dump(frames.episode_over(over["order"], Rank.TWO, rest)) == _dump(over)
    play = _first(TWO_GAMES, 2, type="notify", stage="play", curPos=1)
    greater = (play["greaterPos"], play["greaterAction"])
    assert _dump(frames.notify_play(1, play["curAction"], greater)) == _dump(play)
    lead = _first(TWO_GAMES, 2, type="notify", stage="play", curPos=0)
    assert _dump(frames.notify_play(0, lead["curAction"], None)) == _dump(lead)


def _requests_and_answers(name: str) -> list[tuple[dict[str, Any], dict[str, Any]]]:
    """Each recorded answer with the request it answers."""
    pairs = []
    last: dict[int, dict[str, Any]] = {}
    for line in lines(name):
        if line.direction == "in" and line.frame.get("type") == "act":
            last[line.seat] = line.frame
        elif line.direction == "out" and line.frame["type"] in ("PLAY", "TRIBUTE", "PAYTRIBUTE"):
            pairs.append((last[line.seat], line.frame))
    return pairs


@pytest.mark.parametrize("name", [ONE_GAME, TWO_GAMES])
def test_our_answers_are_the_recorded_client_frames(name: str) -> None:
    """Given the request and the entry chosen, our client's frame is the recorded one, field by field
    and in the same order: PLAY, TRIBUTE, and PAYTRIBUTE copying tributePos and tribute."""
    pairs = _requests_and_answers(name)
    kinds = set()
    for request, recorded in pairs:
        data = recorded["data"]
        ours = frames.answer(request, data["roomId"], data["player"], data["act"])
        assert _dump(ours) == _dump(recorded)
        kinds.add(recorded["type"])
    assert kinds == {"PLAY", "TRIBUTE", "PAYTRIBUTE"}
    create = next(line.frame for line in lines(name) if line.direction == "out")
    assert _dump(frames.create_room("u0", create["data"]["round"], 0)) == _dump(create)
    join = next(line.frame for line in lines(name) if line.direction == "out" and line.seat == 2)
    assert _dump(frames.join_room("u2", join["data"]["roomId"], 2)) == _dump(join)


@pytest.mark.parametrize("name", [ONE_GAME, TWO_GAMES])
def test_every_recorded_client_frame_is_read(name: str) -> None:
    for line in lines(name):
        if line.direction != "out":
            continue
        read = parse_client_frame(json.dumps(line.frame))
        data = line.frame["data"]
        if isinstance(read, CreateRoom):
            assert (read.user_id, read.games, read.seat) == (data["userId"], data["round"], data["seatNum"])
        elif isinstance(read, JoinRoom):
            assert (read.user_id, read.room_id, read.seat) == (
                data["userId"],
                data["roomId"],
                data["seatNum"],
            )
        else:
            assert (read.kind.value, read.room_id, read.player, read.act) == (
                line.frame["type"],
                data["roomId"],
                data["player"],
                data["act"],
            )
            assert (read.tribute_pos, read.tribute) == (data.get("tributePos"), data.get("tribute"))


@pytest.mark.parametrize(
    ("text", "frame_type", "message"),
    [
        ("[1, 2]", None, "a frame is a JSON object"),
        ('{"data": {}}', None, 'the frame has no "type"'),
        ('{"type": 7}', None, "unknown type 7"),
        ('{"type": "LOGIN", "data": {}}', "LOGIN", "unknown type 'LOGIN'; this server takes CREATE_ROOM"),
        ('{"type": "JOIN_ROOM", "data": []}', "JOIN_ROOM", '"data" must be a JSON object, got an array'),
        ('{"type": "JOIN_ROOM", "data": {"userId": "u"}}', "JOIN_ROOM", "roomId is missing"),
        ('{"type": "JOIN_ROOM", "data": {"userId": "u", "roomId": "1"}}', "JOIN_ROOM", 'not an integer: "1"'),
        (
            '{"type": "JOIN_ROOM", "data": {"userId": "u", "roomId": true}}',
            "JOIN_ROOM",
            "not an integer: true",
        ),
        ('{"type": "JOIN_ROOM", "data": {"roomId": 1}}', "JOIN_ROOM", "userId must be a non-empty string"),
        (
            '{"type": "JOIN_ROOM", "data": {"userId": "u", "roomId": 1, "seatNum": 7}}',
            "JOIN_ROOM",
            "座位号必须在0-3之间，当前值: 7",
        ),
        ('{"type": "CREATE_ROOM", "data": {"userId": "u", "round": 0}}', "CREATE_ROOM", "round (the games"),
        ('{"type": "PLAY", "data": {"roomId": 1, "player": 0}}', "PLAY", "act must be an entry"),
        ('{"type": "PLAY", "data": {"roomId": 1, "player": 0, "act": 3}}', "PLAY", "got 3"),
        (
            '{"type": "PLAY", "data": {"roomId": 1, "player": 1.5, "act": []}}',
            "PLAY",
            "player is not an integer",
        ),
        (
            '{"type": "PAYTRIBUTE", "data": {"roomId": 1, "player": 0, "tributePos": 1, '
            '"act": ["back", "back", ["S2"]]}}',
            "PAYTRIBUTE",
            "tribute must be the tribute card's name",
        ),
    ],
)
def test_a_frame_the_server_cannot_take_is_refused_saying_why(
    text: str, frame_type: str | None, message: str
) -> None:
    with pytest.raises(FrameError, match=message.replace("(", r"\(").replace("[", r"\[")) as caught:
        parse_client_frame(text)
    assert caught.value.frame_type == frame_type


def test_text_that_is_not_json_is_its_own_error() -> None:
    for text in ("hello", "{bad", b"\xff\xfe"):
        with pytest.raises(NotJsonError, match="not JSON"):
            parse_client_frame(text)


def test_an_answer_keeps_the_entry_as_sent() -> None:
    text = (
        '{"type": "PAYTRIBUTE", "data": {"roomId": 4, "player": 3, "tributePos": 0, "tribute": "SB", '
        '"act": ["back", "back", ["C8"]]}}'
    )
    assert parse_client_frame(text) == Answer(FrameType.PAYTRIBUTE, 4, 3, ["back", "back", ["C8"]], 0, "SB")
    assert parse_client_frame('{"type": "JOIN_ROOM", "data": {"userId": 12, "roomId": 1}}') == JoinRoom(
        "12", None, 1, None
    )
