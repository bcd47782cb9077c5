"""Refusals carry a reason code and its arguments (docs/server.md, "Errors"): one list of codes
(:data:`~cardroom.server.tables.refusals.REASONS`), words for each in both of the pages' languages, and
HTTP answers ``{"detail", "reason", "args"}`` whose ``detail`` keeps the English words."""

from __future__ import annotations

import re
from dataclasses import replace
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from cardroom.server.api.app import create_app
from cardroom.server.live.limits import Rate
from cardroom.server.tables.refusals import REASONS, RefusedError
from tests.server.conftest import CHEAP, FAST, signed_in
from tests.server.events.test_events import make_event, register

SRC = Path(__file__).resolve().parents[3] / "src" / "cardroom"
I18N = SRC / "server" / "web" / "i18n.js"

RAISED: re.Pattern[str] = re.compile(
    r"(?:RefusedError|DirectorError|AccountError)\(\s*[^,()]+,\s*\"([a-z_]+)\""
    r"|ProtocolError\.because\(\s*\"[a-z_]+\",\s*\"([a-z_]+)\""
    r"|require_account\(request, \"([a-z_]+)\"\)"
    r"|return \"([a-z_]+)\", \{"
)
"""A refusal raised with its code: ``RefusedError(404, "unknown_table", …)``, ``DirectorError(…)``,
``AccountError(…)``, ``ProtocolError.because(code, "reason", …)``, ``require_account(request, "…")`` and
the passwords' ``return "reason", {…}``."""


def words_by_language(text: str) -> dict[str, set[str]]:
    """The keys of i18n.js's tables by language: each ``en: {`` or ``zh: {`` block's ``"key":`` lines."""
    keys: dict[str, set[str]] = {"en": set(), "zh": set()}
    language = None
    for line in text.splitlines():
        opened = re.match(r"^  (en|zh): \{$", line)
        if opened:
            language = opened.group(1)
        elif line.startswith(("  }", "}")):
            language = None
        elif language is not None:
            key = re.match(r'^\s+"([^"]+)":', line)
            if key:
                keys[language].add(key.group(1))
    return keys


def missing_words(codes: set[str], text: str) -> list[str]:
    """``error.<code>`` keys that one language or the other lacks, as ``"zh: error.x"``."""
    keys = words_by_language(text)
    return sorted(
        f"{lang}: error.{code}"
        for code in codes
        for lang in ("en", "zh")
        if f"error.{code}" not in keys[lang]
    )


def test_every_reason_code_has_english_and_chinese_words() -> None:
    """Issue 44 ("every server message is translated"): each code of REASONS has its ``error.<code>``
    words in i18n.js, in English and in Chinese."""
    assert missing_words(set(REASONS), I18N.read_text(encoding="utf-8")) == []


def test_the_words_check_finds_a_missing_language() -> None:
    text = (
        'const X = {\n  en: {\n    "error.a": "A",\n    "error.b": "B",\n  },\n'
        '  zh: {\n    "error.a": "甲",\n  },\n};\n'
    )
    assert missing_words({"a", "b"}, text) == ["zh: error.b"]
    assert missing_words({"a"}, text) == []
    keys = words_by_language(I18N.read_text(encoding="utf-8"))
    assert "error.unknown_event" in keys["en"], "the parser reads the file"
    assert "error.unknown_event" in keys["zh"]


def test_every_code_the_server_raises_is_defined() -> None:
    """A refusal raised with a code not in REASONS would have no words: every raise site's code is one."""
    raised: dict[str, str] = {}
    for path in (SRC / "server").rglob("*.py"):
        for match in RAISED.finditer(path.read_text(encoding="utf-8")):
            code = next(group for group in match.groups() if group)
            raised.setdefault(code, str(path.relative_to(SRC)))
    assert len(raised) > 80, "the pattern finds the raise sites"
    unknown = {code: where for code, where in raised.items() if code not in REASONS}
    assert unknown == {}


def test_a_refusal_keeps_the_english_words_and_its_arguments() -> None:
    refusal = RefusedError(404, "unknown_table", table="abc")
    assert refusal.body() == {
        "detail": "unknown table 'abc'",
        "reason": "unknown_table",
        "args": {"table": "abc"},
    }
    with pytest.raises(KeyError):
        RefusedError(400, "no_such_reason")


# -- over HTTP ----------------------------------------------------------------------------------------


def test_an_unknown_table_is_refused_with_its_reason(client: TestClient) -> None:
    response = client.get("/api/tables/nope")
    assert response.status_code == 404
    assert response.json() == {
        "detail": "unknown table 'nope'",
        "reason": "unknown_table",
        "args": {"table": "nope"},
    }


def test_a_wrong_sign_in_and_a_taken_name_carry_their_reasons(client: TestClient) -> None:
    signed_in(client, "Wendy")
    client.cookies.clear()
    wrong = client.post("/api/session", json={"name": "Wendy", "password": "not her password"})
    assert (wrong.status_code, wrong.json()["reason"]) == (401, "wrong_sign_in")
    assert wrong.json()["detail"] == "wrong name or password"
    taken = client.post("/api/accounts", json={"name": "wendy", "password": "another long secret"})
    assert taken.status_code == 409
    assert (taken.json()["reason"], taken.json()["args"]) == ("name_taken", {"name": "wendy"})
    short = client.post("/api/accounts", json={"name": "Xavier", "password": "short"})
    assert short.json()["reason"] == "password_length"
    assert short.json()["args"] == {"least": 8, "most": 256, "length": 5}
    assert short.json()["detail"] == "password: 8 to 256 characters, got 5"


def test_a_directors_refusals_carry_their_reasons(client: TestClient) -> None:
    event_id, headers = make_event(client, rounds=1)
    unknown = client.get("/api/events/nothing-here")
    assert (unknown.status_code, unknown.json()["reason"]) == (404, "unknown_event")
    assert unknown.json()["args"] == {"event": "nothing-here"}
    guest = client.post(f"/api/events/{event_id}/start", json={})
    assert (guest.status_code, guest.json()["reason"]) == (403, "director_only")
    register(
        client,
        event_id,
        headers,
        "Team 1",
        {"bot": "heuristic", "name": "Alpha bot"},
        {"bot": "heuristic", "name": "Beta bot"},
    )
    again = client.post(
        f"/api/events/{event_id}/teams",
        json={"id": "T1", "name": "Team 1", "players": [{"bot": "heuristic"}, {"bot": "heuristic"}]},
        headers=headers,
    )
    assert again.status_code == 409
    assert again.json() == {
        "detail": "a team 'T1' is registered already",
        "reason": "team_registered",
        "args": {"team": "T1"},
    }
    field = client.post(f"/api/events/{event_id}/rounds", json={"start": "yes"}, headers=headers)
    assert field.status_code == 400
    assert (field.json()["reason"], field.json()["args"]) == ("bad_bool", {"field": "start", "value": "yes"})


def test_a_rate_limit_says_how_long_to_wait(database_url: str) -> None:
    settings = replace(FAST, sign_in_rate=Rate(2, 0.01))
    with TestClient(create_app(database_url, settings=settings, password_hasher=CHEAP)) as client:
        answers = [client.post("/api/session", json={"name": "Nobody", "password": "x"}) for _ in range(3)]
    assert [answer.status_code for answer in answers] == [401, 401, 429]
    body = answers[-1].json()
    assert body["reason"] == "rate_limited"
    assert body["args"]["wait"] > 0
    assert body["detail"].startswith("too many")
    assert answers[-1].headers["Retry-After"].isdigit()
