"""Refusals carry a reason code and its arguments (docs/server.md, "Errors"): one list of codes
(:data:`~cardroom.server.tables.refusals.REASONS`), words for each in both of the pages' languages, and
HTTP answers ``{"detail", "reason", "args"}`` whose ``detail`` keeps the English words."""

from __future__ import annotations

import random
import re
from dataclasses import replace
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from cardroom.server.api.app import create_app
from cardroom.server.events.event_state import DirectorError
from cardroom.server.live.limits import Rate
from cardroom.server.tables.refusals import REASONS, ROOM_REASONS, RefusedError
from cardroom.tournament import Event, EventConfig, Penalty, Player, Team
from cardroom.tournament.refusals import EVENT_REASONS, EventError, EventLookupError
from tests.server.conftest import CHEAP, FAST, signed_in
from tests.server.events.test_events import LONG, make_event, register

SRC = Path(__file__).resolve().parents[3] / "src" / "cardroom"
I18N = SRC / "server" / "web" / "i18n.js"

RAISED: re.Pattern[str] = re.compile(
    r"(?:RefusedError|DirectorError|AccountError)\(\s*[^,()]+,\s*\"([a-z_]+)\""
    r"|ProtocolError\.because\(\s*\"[a-z_]+\",\s*\"([a-z_]+)\""
    r"|require_account\(request, \"([a-z_]+)\"\)"
    r"|return \"([a-z_]+)\", \{"
    r"|(?:EventError|EventLookupError|CorrectionWindowError)\(\s*\"([a-z_]+)\""
)
"""A refusal raised with its code: ``RefusedError(404, "unknown_table", …)``, ``DirectorError(…)``,
``AccountError(…)``, ``ProtocolError.because(code, "reason", …)``, ``require_account(request, "…")``,
the passwords' ``return "reason", {…}`` and the tournament core's ``EventError("reason", …)``
(``EventLookupError``, ``CorrectionWindowError``)."""

CODED_CORE = ("event.py", "rounds.py", "director.py")
"""The tournament core's modules whose refusals reach a director's request: each raises with a code."""


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


def raised_codes(package: str) -> dict[str, str]:
    """The codes raised in ``src/cardroom/<package>``, each with the first file that raises it."""
    raised: dict[str, str] = {}
    for path in sorted((SRC / package).rglob("*.py")):
        for match in RAISED.finditer(path.read_text(encoding="utf-8")):
            code = next(group for group in match.groups() if group)
            raised.setdefault(code, str(path.relative_to(SRC)))
    return raised


def test_every_code_the_server_raises_is_defined() -> None:
    """A refusal raised with a code not in REASONS would have no words: every raise site's code is one,
    the card room's and the tournament core's."""
    raised = raised_codes("server")
    assert len(raised) > 80, "the pattern finds the raise sites"
    core = raised_codes("tournament")
    assert len(core) > 40, "the pattern finds the core's raise sites"
    assert set(core) <= set(EVENT_REASONS)
    unknown = {code: where for code, where in {**raised, **core}.items() if code not in REASONS}
    assert unknown == {}


def test_the_raise_check_finds_a_core_code_without_words() -> None:
    text = 'raise EventError("no_such_code", round=2)\nraise EventLookupError(\n    "no_team", team=t)\n'
    codes = {next(group for group in match.groups() if group) for match in RAISED.finditer(text)}
    assert codes == {"no_such_code", "no_team"}
    assert missing_words({"no_such_code"}, I18N.read_text(encoding="utf-8")) == [
        "en: error.no_such_code",
        "zh: error.no_such_code",
    ]


def test_the_core_codes_are_listed_once() -> None:
    """The card room's codes and the tournament core's are apart: REASONS is both, none defined twice."""
    assert set(ROOM_REASONS).isdisjoint(EVENT_REASONS)
    assert dict(REASONS) == {**ROOM_REASONS, **EVENT_REASONS}


def test_the_cores_refusals_all_carry_a_code() -> None:
    """No plain ``ValueError`` or ``KeyError`` is left where a director's request reaches the core: the
    page would show its English words only."""
    for name in CODED_CORE:
        text = (SRC / "tournament" / name).read_text(encoding="utf-8")
        assert not re.findall(r"raise (?:ValueError|KeyError)\(", text), name


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


# -- the tournament core's refusals, with their own reasons ------------------------------------------------


def test_a_core_refusal_keeps_its_english_words_and_carries_its_code() -> None:
    """The terminal prints the core's words as they were; the card room answers its code and arguments."""
    event = Event(EventConfig(rounds=1))
    for number in (1, 2):
        players = (f"a{number}", f"b{number}")
        event = event.register(Team(f"T{number}", (Player(players[0]), Player(players[1]))))
    event = event.start(random.Random(1)).pair_next_round()
    with pytest.raises(EventError) as refused:
        event.penalise(1, 1, "a1", Penalty.WARNING, " ")
    assert str(refused.value) == "a penalty needs its reason"
    assert (refused.value.reason, refused.value.details) == ("penalty_reason", {})
    with pytest.raises(KeyError) as missing:
        event.round(3)
    assert isinstance(missing.value, EventLookupError)
    assert missing.value.args == ("no round 3: 1 paired",)
    assert DirectorError.of_event(404, missing.value).body() == {
        "detail": "no round 3: 1 paired",
        "reason": "no_round",
        "args": {"round": 3, "paired": 1},
    }
    uncoded = DirectorError.of_event(409, ValueError("something else"))
    assert (uncoded.reason, uncoded.details) == ("event_refused", {"text": "something else"})


def test_the_cores_refusals_answer_their_own_reasons(client: TestClient) -> None:
    """Issue 44: a director's request the tournament core refuses is answered with the core's reason and
    arguments (the page's words), not a translated frame around English words (``event_refused``)."""
    swiss = client.post(
        "/api/events",
        json={"name": "x", "system": "swiss"},
        headers=signed_in(client, "Director", director=True),
    )
    assert (swiss.status_code, swiss.json()["reason"]) == (400, "swiss_needs_rounds")
    event_id, headers = make_event(client, conduct={"clocks": LONG}, rounds=2, system="swiss")
    for number in range(1, 5):
        register(client, event_id, headers, f"队{number}", {"name": f"A{number}"}, {"name": f"B{number}"})
    assert client.post(f"/api/events/{event_id}/start", json={}, headers=headers).status_code == 200
    assert client.post(f"/api/events/{event_id}/rounds", json={}, headers=headers).status_code == 201
    again = client.post(f"/api/events/{event_id}/rounds", json={}, headers=headers)
    assert again.status_code == 409
    assert again.json() == {
        "detail": "round 1 still has tables without a result",
        "reason": "round_incomplete",
        "args": {"round": 1},
    }
    nowhere = client.post(
        f"/api/events/{event_id}/rounds/1/tables/9/penalties",
        json={"player": "A1", "penalty": "WARNING", "reason": "x"},
        headers=headers,
    )
    assert nowhere.status_code == 404
    assert (nowhere.json()["reason"], nowhere.json()["args"]) == (
        "no_table",
        {"round": 1, "table": 9, "tables": "1, 2"},
    )
    tables = client.get(f"/api/events/{event_id}").json()["rounds"][0]["tables"]
    stranger = tables[1]["teams"][0]
    wrong = client.post(
        f"/api/events/{event_id}/appeals",
        json={"round": 1, "table": 1, "team": stranger, "text": "升级数有误"},
        headers=headers,
    )
    assert (wrong.status_code, wrong.json()["reason"]) == (409, "team_not_at_table")
    assert wrong.json()["args"] == {
        "team": stranger,
        "table": 1,
        "round": 1,
        "first": tables[0]["teams"][0],
        "second": tables[0]["teams"][1],
    }
    team = tables[0]["teams"][1]
    filed = client.post(
        f"/api/events/{event_id}/appeals",
        json={"round": 1, "table": 1, "team": team, "text": "升级数有误"},
        headers=headers,
    )
    assert filed.status_code == 201, filed.text
    ruling = {"ruling": "维持原判", "upheld": False}
    assert client.post(f"/api/events/{event_id}/appeals/1/ruling", json=ruling, headers=headers).is_success
    twice = client.post(f"/api/events/{event_id}/appeals/1/ruling", json=ruling, headers=headers)
    assert twice.status_code == 409
    assert twice.json() == {
        "detail": "appeal 1 is decided already: 维持原判",
        "reason": "appeal_decided",
        "args": {"appeal": 1, "ruling": "维持原判"},
    }
    unknown = client.post(f"/api/events/{event_id}/appeals/7/ruling", json=ruling, headers=headers)
    assert unknown.status_code == 404
    assert (unknown.json()["reason"], unknown.json()["args"]) == ("no_appeal", {"appeal": 7, "filed": 1})
