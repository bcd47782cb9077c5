"""The pieces under issue 40's account rules, one rule a test: names' skeletons (lookalikes.py, after
Unicode TR39), people's and bots' names (seats.clean_name), common passwords (passwords.py), the 托管
share (fair_play.py), and the sweep that closes the sockets of sessions ended elsewhere
(session_sockets.py). docs/accounts.md says what a user sees of each."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from cardroom.server.accounts.fair_play import auto_share, mostly_auto
from cardroom.server.accounts.passwords import common_passwords, password_problem
from cardroom.server.live.session_sockets import SessionSockets
from cardroom.server.storage.store import AccountRow, Store
from cardroom.server.tables.codec import ProtocolError
from cardroom.server.tables.lookalikes import skeleton
from cardroom.server.tables.seats import clean_name, token_hash
from tests.server.conftest import run_coroutine


@pytest.mark.parametrize(
    ("name", "like"),
    [
        ("\u0410nn", "Ann"),  # Cyrillic А
        ("\u0391nn", "Ann"),  # Greek Α
        ("\uff21\uff4e\uff4e", "Ann"),  # full-width, NFKC
        ("A\u200bnn", "Ann"),  # zero width space
        ("Bi11", "Bill"),  # digits that read as letters
        ("Ann  Lee", "Ann Lee"),  # a run of spaces
        ("ANN", "ann"),  # case aside
    ],
)
def test_lookalike_names_share_a_skeleton(name: str, like: str) -> None:
    assert skeleton(name) == skeleton(like)


@pytest.mark.parametrize(
    ("name", "other"), [("Ann", "Anna"), ("Bob", "Rob"), ("张三", "张四"), ("Dai", "Dal")]
)
def test_different_names_keep_different_skeletons(name: str, other: str) -> None:
    assert skeleton(name) != skeleton(other)


def test_a_name_is_nfkc_normalised_and_refuses_control_bidi_and_invisible_characters() -> None:
    assert clean_name("  \uff21nn ") == "Ann"
    for bad, told in (
        ("\u202eAnn", "right-to-left"),
        ("A\u2067nn", "right-to-left"),
        ("An\x00n", "control characters"),
        ("A\u3164nn", "invisible characters"),
        ("A\u2800nn", "invisible characters"),
        ("\ud800", "lone surrogate"),
    ):
        with pytest.raises(ProtocolError, match=told):
            clean_name(bad)


def test_the_common_passwords_are_shipped_and_refused_case_aside() -> None:
    listed = common_passwords()
    assert len(listed) == 8354
    assert "password" in listed
    assert all(len(password) >= 8 for password in listed)
    assert password_problem("PassWord") is not None
    assert password_problem("correct horse battery") is None
    assert password_problem("short") == "password: 8 to 256 characters, got 5"


def test_the_auto_share_counts_the_seats_decisions_not_taken_by_its_player() -> None:
    log = [
        {"type": "action", "seat": 0, "by": "player"},
        {"type": "action", "seat": 0, "by": "auto"},
        {"type": "chosen", "seat": 0, "by": "default"},
        {"type": "action", "seat": 1, "by": "auto"},
        {"type": "auto", "seat": 0, "on": True},
    ]
    assert auto_share(log, 0) == (2, 3)
    assert mostly_auto(log, 0)
    assert not mostly_auto(log[:2], 0), "half is not more than half"
    assert not mostly_auto([], 2)


def test_the_sweep_closes_the_sockets_of_sessions_ended_elsewhere(tmp_path: Path) -> None:
    now = datetime.now(UTC)
    with Store(f"sqlite:///{tmp_path}/s.sqlite3") as store:
        store.create_account(AccountRow("ann", "Ann", "hash", "player", now, "ann"))
        store.create_session(token_hash("live"), "ann", now, now + timedelta(days=1))
        sockets = SessionSockets()
        closed: list[str] = []
        sockets.add("live", lambda: closed.append("live"))
        sockets.add("stale", lambda: closed.append("stale"))  # a guest's leftover cookie
        assert run_coroutine(sockets.sweep(store)) == 0
        assert sockets.sessions == {token_hash("live")}, "a cookie that signed no one in is forgotten"
        store.delete_sessions(key="ann")  # the operator's reset, in another process
        assert run_coroutine(sockets.sweep(store)) == 1
        assert closed == ["live"]
        assert sockets.sessions == set()
