"""Bot accounts over the API (docs/ladder.md, "Bot accounts"; docs/accounts.md): create, list, edit,
rotate, revoke and delete a bot; its token shown once and stored only as a hash; what a bot may and
may not do with it (casual tables yes, rated tables and managing bots no)."""

from __future__ import annotations

import hashlib
from dataclasses import replace
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import text

from cardroom.server.accounts.bots import MAX_BOTS, MAX_DESCRIPTION, MAX_LINK, TOKEN_PREFIX
from cardroom.server.api.app import create_app
from cardroom.server.storage.store import Store
from tests.server.conftest import CHEAP, FAST, Headers, create_table, signed_in

Body = dict[str, Any]


def bearer(token: str) -> Headers:
    return {"Authorization": f"Bearer {token}"}


def new_bot(client: TestClient, owner: Headers, name: str = "Deep Tao", **fields: Any) -> Body:
    response = client.post("/api/account/bots", json={"name": name, **fields}, headers=owner)
    assert response.status_code == 201, response.text
    created: Body = response.json()
    return created


def whoami(client: TestClient, token: str) -> Any:
    response = client.get("/api/account", headers=bearer(token))
    return response.status_code, response.json()


def test_a_bot_is_created_with_its_token_shown_once(client: TestClient) -> None:
    ann = signed_in(client, "Ann")
    created = new_bot(client, ann, description="plays its bombs late", link="https://example.org/tao")
    bot, token = created["bot"], created["token"]
    assert token.startswith(TOKEN_PREFIX)
    assert len(token) > len(TOKEN_PREFIX) + 40
    assert bot["name"] == "Deep Tao"
    assert bot["owner"] == "Ann"
    assert bot["generation"] == 1
    assert bot["active"] is True
    assert bot["key"] == f"bot:{bot['id']}"
    assert bot["description"] == "plays its bombs late"
    assert bot["link"] == "https://example.org/tao"
    listed = client.get("/api/account/bots", headers=ann).json()["bots"]
    assert listed == [bot]
    assert token not in client.get("/api/account/bots", headers=ann).text
    assert whoami(client, token) == (
        200,
        {
            "account": {"key": bot["key"], "name": "Deep Tao", "role": "player", "bot": True, "owner": "Ann"},
            "csrf": None,
        },
    )


def test_the_database_keeps_only_the_tokens_hash(client: TestClient, database_url: str) -> None:
    ann = signed_in(client, "Ann")
    token = new_bot(client, ann)["token"]
    store = Store(database_url)
    try:
        with store.engine.connect() as connection:
            rows = [
                str(value)
                for table in ("bots", "accounts")
                for row in connection.execute(text(f"SELECT * FROM {table}"))
                for value in row
            ]
            stored = connection.execute(text("SELECT token_hash FROM bots")).scalar_one()
    finally:
        store.close()
    assert not any(token in value or token[len(TOKEN_PREFIX) :] in value for value in rows)
    assert stored == hashlib.sha256(token.encode()).hexdigest()
    with open(database_url.removeprefix("sqlite:///"), "rb") as database:
        assert token.encode() not in database.read()


def test_the_token_is_taken_only_from_a_bearer_header(client: TestClient) -> None:
    token = new_bot(client, signed_in(client, "Ann"))["token"]
    for query in ("token", "access_token", "api_token"):
        answer = client.get(f"/api/account?{query}={token}")
        assert answer.json() == {"account": None, "csrf": None}, query
    assert client.get("/api/account", headers={"Authorization": f"Basic {token}"}).status_code == 401
    assert client.get("/api/account", headers={"Authorization": "Bearer"}).status_code == 401
    status, body = whoami(client, TOKEN_PREFIX + "x" * 43)
    assert status == 401
    assert "no bot's" in body["detail"]


def test_a_wrong_bearer_token_is_401_on_every_api_route_a_public_one_included(client: TestClient) -> None:
    ann = signed_in(client, "Ann")
    token = new_bot(client, ann)["token"]
    wrong = bearer(TOKEN_PREFIX + "x" * 43)
    for path in ("/api/ladder", "/api/presets", "/api/tables", "/api/leaderboard", "/api/account"):
        assert client.get(path).status_code == 200, path
        assert client.get(path, headers=bearer(token)).status_code == 200, path
        answer = client.get(path, headers=wrong)
        assert answer.status_code == 401, path
        assert "no bot's" in answer.json()["detail"]
        assert client.get(path, headers={**ann, **wrong}).status_code == 401, "a cookie does not hide it"
    assert client.get("/api/ladder", headers={"Authorization": "Basic dXNlcjpwYXNz"}).status_code == 200, (
        "a proxy's own scheme is no bot token"
    )


def test_a_bot_has_no_password_to_sign_in_with(client: TestClient) -> None:
    bot = new_bot(client, signed_in(client, "Ann"))["bot"]
    for name in (bot["name"], bot["key"]):
        for password in ("", "!bot account: signs in with its API token only", "secret of Deep Tao"):
            answer = client.post("/api/session", json={"name": name, "password": password})
            assert answer.status_code == 401, (name, password)


@pytest.mark.parametrize(
    ("body", "status", "says"),
    [
        ({}, 400, "name: a string"),
        ({"name": ""}, 400, "name: 1 to 40 characters"),
        ({"name": "x" * 41}, 400, "name: 1 to 40 characters"),
        ({"name": "Tao\u202e"}, 400, "name: control characters"),
        ({"name": "Ann"}, 409, "the account 'Ann'"),
        ({"name": "Аnn"}, 409, "the account 'Ann'"),  # a Cyrillic А
        ({"name": "heuristic bot"}, 409, "a house bot's name"),
        ({"name": "Tao", "description": 5}, 400, "description: a string"),
        ({"name": "Tao", "description": "x" * (MAX_DESCRIPTION + 1)}, 400, "description: at most"),
        ({"name": "Tao", "description": "hi\u3164there"}, 400, "description: invisible"),
        ({"name": "Tao", "link": "ftp://example.org/"}, 400, "link: an http:// or https://"),
        ({"name": "Tao", "link": "javascript:alert(1)"}, 400, "link: an http:// or https://"),
        ({"name": "Tao", "link": "example.org"}, 400, "link: an http:// or https://"),
        ({"name": "Tao", "link": "https://"}, 400, "link: the address has no host"),
        ({"name": "Tao", "link": "https://ann@evil.example/"}, 400, "link: no user name"),
        ({"name": "Tao", "link": "https://a.example/ b"}, 400, "link: no spaces"),
        ({"name": "Tao", "link": "https://a.example:port/"}, 400, "link: not a URL"),
        ({"name": "Tao", "link": "https://a.example/" + "x" * MAX_LINK}, 400, "link: at most"),
        ({"name": "Tao", "link": ["https://a.example/"]}, 400, "link: a string"),
        ({"name": "Tao", "owner": "Bo"}, 400, "unknown field 'owner'"),
    ],
)
def test_a_bad_bot_is_refused_naming_what_is_wrong(
    client: TestClient, body: Body, status: int, says: str
) -> None:
    ann = signed_in(client, "Ann")
    answer = client.post("/api/account/bots", json=body, headers=ann)
    assert answer.status_code == status, answer.text
    assert says in answer.json()["detail"]
    assert client.get("/api/account/bots", headers=ann).json()["bots"] == []


def test_bot_names_are_everyones_names(client: TestClient) -> None:
    ann = signed_in(client, "Ann")
    new_bot(client, ann, "Deep Tao")
    for taken in ("deep tao", "Dееp Tao"):  # any case; Cyrillic е
        answer = client.post("/api/account/bots", json={"name": taken}, headers=signed_in(client, "Bo"))
        assert answer.status_code == 409
        assert "Deep Tao" in answer.json()["detail"]
    person = client.post("/api/accounts", json={"name": "DEEP TAO", "password": "a long password 1"})
    assert person.status_code == 409
    guest = create_table(client)["id"]
    assert client.post(f"/api/tables/{guest}/seats/0", json={"name": "Deep Tao"}).status_code == 409
    named_bot = {"kind": "bot", "bot": "heuristic", "name": "Deep Tao"}
    answer = client.post("/api/tables", json={"name": "t", "seats": [named_bot] + [{"kind": "human"}] * 3})
    assert answer.status_code == 409
    refused = client.post("/api/accounts", json={"name": "bot:abc", "password": "a long password 1"})
    assert refused.status_code == 400
    assert "bot accounts' keys" in refused.json()["detail"]


@pytest.mark.parametrize(
    "name", ["distilled", "Distilled", "distilled bot", "DMC", "search-value Bot", "rаndom", " heuristic "]
)
def test_a_bot_account_is_never_named_as_a_house_bot(client: TestClient, name: str) -> None:
    answer = client.post("/api/account/bots", json={"name": name}, headers=signed_in(client, "Ann"))
    assert answer.status_code == 409, name
    assert "is a house bot's name" in answer.json()["detail"]


def test_a_name_merely_containing_a_house_bots_is_a_bots_name(client: TestClient) -> None:
    assert new_bot(client, signed_in(client, "Ann"), "Distilled Tao")["bot"]["name"] == "Distilled Tao"


def test_only_a_signed_in_person_manages_bots(client: TestClient) -> None:
    ann = signed_in(client, "Ann")
    created = new_bot(client, ann)
    bot_id, token = created["bot"]["id"], created["token"]
    routes = [
        ("GET", "/api/account/bots", None),
        ("POST", "/api/account/bots", {"name": "Other"}),
        ("PATCH", f"/api/account/bots/{bot_id}", {"description": "mine now"}),
        ("POST", f"/api/account/bots/{bot_id}/token", None),
        ("DELETE", f"/api/account/bots/{bot_id}/token", None),
        ("DELETE", f"/api/account/bots/{bot_id}", None),
    ]
    bo = signed_in(client, "Bo")
    no_csrf = {"Cookie": ann["Cookie"]}
    for method, path, body in routes:
        assert client.request(method, path, json=body).status_code == 401, (method, path)
        by_bot = client.request(method, path, json=body, headers=bearer(token))
        assert by_bot.status_code == 403, path
        assert "sign in as its owner" in by_bot.json()["detail"], path
        if method != "GET":
            assert client.request(method, path, json=body, headers=no_csrf).status_code == 403, path
        if bot_id in path:
            by_other = client.request(method, path, json=body, headers=bo)
            assert by_other.status_code == 404, path
            assert bot_id in by_other.json()["detail"], path
    assert client.get("/api/account/bots", headers=bo).json()["bots"] == []
    assert whoami(client, token)[0] == 200
    assert client.get("/api/account/bots", headers=ann).json()["bots"] == [created["bot"]]


def test_rotating_starts_a_new_generation_and_ends_the_old_token(client: TestClient) -> None:
    ann = signed_in(client, "Ann")
    created = new_bot(client, ann)
    bot_id, old = created["bot"]["id"], created["token"]
    answer = client.post(f"/api/account/bots/{bot_id}/token", headers=ann)
    assert answer.status_code == 200
    bot, new = answer.json()["bot"], answer.json()["token"]
    assert bot["generation"] == 2
    assert bot["active"]
    assert new != old
    assert whoami(client, old)[0] == 401
    assert whoami(client, new)[1]["account"]["key"] == bot["key"]


def test_a_new_version_is_the_next_generation_with_the_same_token(client: TestClient) -> None:
    """docs/ladder.md, "Generations": the owner declares a new version; the token stays."""
    ann = signed_in(client, "Ann")
    created = new_bot(client, ann)
    bot_id, token = created["bot"]["id"], created["token"]
    answer = client.post(f"/api/account/bots/{bot_id}/version", headers=ann)
    assert answer.status_code == 200
    assert "token" not in answer.json()
    assert (answer.json()["bot"]["generation"], answer.json()["bot"]["active"]) == (2, True)
    assert whoami(client, token)[1]["account"]["key"] == created["bot"]["key"]
    rotated = client.post(f"/api/account/bots/{bot_id}/token", headers=ann).json()
    assert rotated["bot"]["generation"] == 3
    bob = signed_in(client, "Bob")
    assert client.post(f"/api/account/bots/{bot_id}/version", headers=bob).status_code == 404
    assert client.post(f"/api/account/bots/{bot_id}/version").status_code in (401, 403)


def test_revoking_leaves_the_bot_without_a_token_until_rotated(client: TestClient) -> None:
    ann = signed_in(client, "Ann")
    created = new_bot(client, ann)
    bot_id, token = created["bot"]["id"], created["token"]
    answer = client.delete(f"/api/account/bots/{bot_id}/token", headers=ann)
    assert answer.status_code == 200
    assert answer.json()["bot"]["active"] is False
    assert "token" not in answer.json()
    assert whoami(client, token)[0] == 401
    again = client.delete(f"/api/account/bots/{bot_id}/token", headers=ann)
    assert again.status_code == 409
    assert "no token to revoke" in again.json()["detail"]
    rotated = client.post(f"/api/account/bots/{bot_id}/token", headers=ann).json()
    assert rotated["bot"]["generation"] == 2
    assert whoami(client, rotated["token"])[0] == 200


def test_editing_changes_the_description_and_link_only(client: TestClient) -> None:
    ann = signed_in(client, "Ann")
    bot_id = new_bot(client, ann)["bot"]["id"]
    path = f"/api/account/bots/{bot_id}"
    answer = client.patch(path, json={"description": " new plan \nline two", "link": ""}, headers=ann)
    assert answer.status_code == 200
    assert answer.json()["bot"]["description"] == "new plan \nline two"
    assert answer.json()["bot"]["link"] == ""
    for body, says in [
        ({"name": "Other"}, "name: a bot keeps its name"),
        ({}, "send description, link or both"),
        ({"colour": "red"}, "send description, link or both"),
        ({"link": "mailto:ann@example.org"}, "link: an http:// or https://"),
    ]:
        refused = client.patch(path, json=body, headers=ann)
        assert refused.status_code == 400, body
        assert says in refused.json()["detail"], body
    assert client.patch("/api/account/bots/nope", json={"link": ""}, headers=ann).status_code == 404
    assert (
        client.get("/api/account/bots", headers=ann).json()["bots"][0]["description"] == "new plan \nline two"
    )


def test_deleting_frees_the_name_and_ends_the_token(client: TestClient) -> None:
    ann = signed_in(client, "Ann")
    created = new_bot(client, ann)
    bot_id, token = created["bot"]["id"], created["token"]
    assert client.delete(f"/api/account/bots/{bot_id}", headers=ann).status_code == 204
    assert whoami(client, token)[0] == 401
    assert client.delete(f"/api/account/bots/{bot_id}", headers=ann).status_code == 404
    assert client.get("/api/account/bots", headers=ann).json()["bots"] == []
    again = new_bot(client, ann)["bot"]
    assert again["id"] != bot_id
    assert again["name"] == "Deep Tao"


def test_an_account_owns_at_most_so_many_bots(database_url: str) -> None:
    unlimited = replace(FAST, create_rate=None)
    with TestClient(create_app(database_url, settings=unlimited, password_hasher=CHEAP)) as client:
        ann = signed_in(client, "Ann")
        for number in range(MAX_BOTS):
            new_bot(client, ann, f"Tao {number}")
        answer = client.post("/api/account/bots", json={"name": "One more"}, headers=ann)
        assert answer.status_code == 409
        assert f"at most {MAX_BOTS} bots" in answer.json()["detail"]


def test_a_bot_sits_at_casual_tables_but_not_at_rated_ones(client: TestClient) -> None:
    """docs/accounts.md, "What a rating counts": only people are rated."""
    ann = signed_in(client, "Ann")
    token = new_bot(client, ann)["token"]
    rated = create_table(client, ann, rated=True)["id"]
    answer = client.post(f"/api/tables/{rated}/seats/1", json={}, headers=bearer(token))
    assert answer.status_code == 403
    assert "rated table is for people" in answer.json()["detail"]
    body = {"name": "t", "rated": True, "seats": [{"kind": "human"}] * 4}
    answer = client.post("/api/tables", json=body, headers=bearer(token))
    assert answer.status_code == 403
    assert "rated table is for people" in answer.json()["detail"]
    casual = create_table(client)["id"]
    seat = client.post(f"/api/tables/{casual}/seats/2", json={"name": "ignored"}, headers=bearer(token))
    assert seat.status_code == 200
    assert seat.json()["seat"] == 2
    shown = client.get(f"/api/tables/{casual}").json()["seats"][2]
    assert shown["name"] == "Deep Tao"
    assert shown["account"].startswith("bot:")
    assert shown["kind"] == "human"
    again = client.post(f"/api/tables/{casual}/seats/2", json={}, headers=bearer(token)).json()["token"]
    assert again != seat.json()["token"]
