"""Accounts (issue 25; docs/accounts.md): registering and signing in through the API, the session
cookie and its CSRF token, sessions that expire, passwords kept only as argon2id hashes; guests
still welcome at casual tables but not under an account's name; rated seats taken only by their
signed-in owner, who may take a new token for the seat; the operator's ``cardroom accounts``."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from argon2 import PasswordHasher
from fastapi.testclient import TestClient
from sqlalchemy import text
from typer.testing import CliRunner

from cardroom.cli import app as cli
from cardroom.server.accounts.accounts import SESSION_DAYS, AccountError, Accounts
from cardroom.server.api.app import create_app
from cardroom.server.api.requests import SESSION_COOKIE
from cardroom.server.storage.store import Store, make_engine, migrate
from cardroom.server.tables.config import TableConfig
from cardroom.server.tables.guandan import Table
from tests.server.conftest import (
    CHEAP,
    FAST,
    Peer,
    create_table,
    guandan_table_of,
    password_of,
    signed_in,
    sit,
)

ANN = {"name": "Ann", "password": password_of("Ann")}


# -- registering and signing in ---------------------------------------------------------------------------


def test_registering_signs_in_with_a_secure_cookie_and_keeps_only_a_hash(client: TestClient) -> None:
    response = client.post("/api/accounts", json=ANN)
    assert response.status_code == 201, response.text
    assert response.json()["account"] == {"key": "ann", "name": "Ann", "role": "player"}
    cookie = response.headers["set-cookie"]
    for flag in ("HttpOnly", "SameSite=lax", "Path=/", f"Max-Age={SESSION_DAYS * 24 * 3600}"):
        assert flag in cookie, cookie
    assert "Secure" not in cookie, "plain HTTP here: a Secure cookie would never come back"
    me = client.get("/api/account").json()
    assert me == {"account": {"key": "ann", "name": "Ann", "role": "player"}, "csrf": response.json()["csrf"]}
    store: Store = client.app.state.rooms.store  # type: ignore[attr-defined]
    row = store.account("ann")
    assert row is not None
    assert row.password_hash.startswith("$argon2id$")
    assert ANN["password"] not in row.password_hash
    with store.engine.connect() as connection:
        stored = connection.execute(text("SELECT token_hash FROM sessions")).scalars().all()
    assert client.cookies[SESSION_COOKIE] not in stored, "the store keeps the session's hash only"


@pytest.mark.parametrize(
    ("body", "status", "named"),
    [
        ({"name": "Bo", "password": "short"}, 400, "password: 8 to 256"),
        ({"name": "Bo", "password": "x" * 257}, 400, "password: 8 to 256"),
        ({"name": "Bo", "password": 12345678}, 400, "password: a string"),
        ({"name": "", "password": "long enough"}, 400, "name: 1 to 40"),
        ({"name": "a\x07b", "password": "long enough"}, 400, "control characters"),
        ({"name": "Sneaky Bot", "password": "long enough"}, 400, "the bots'"),
        ({"name": "ANN", "password": "long enough"}, 409, "'ANN' is taken"),
    ],
)
def test_registering_refuses_bad_fields_and_a_taken_name(
    client: TestClient, body: dict[str, object], status: int, named: str
) -> None:
    signed_in(client, "Ann")
    response = client.post("/api/accounts", json=body)
    assert response.status_code == status, response.text
    assert named in response.json()["detail"]


def test_signing_in_and_out(client: TestClient) -> None:
    signed_in(client, "Ann")
    for wrong in ({"name": "Ann", "password": "not the one"}, {"name": "Nobody", "password": "whatever1"}):
        response = client.post("/api/session", json=wrong)
        assert response.status_code == 401
        assert response.json()["detail"] == "wrong name or password", "which one is not told"
    response = client.post("/api/session", json={"name": "aNN", "password": ANN["password"]})
    assert response.status_code == 200
    assert response.json()["account"]["name"] == "Ann"
    old = client.cookies[SESSION_COOKIE]
    client.post("/api/session", json=ANN)
    stale = client.get("/api/account", headers={"Cookie": f"{SESSION_COOKIE}={old}"}).json()
    assert stale["account"] is None, "signing in again ends the browser's previous session"
    again = client.post("/api/session", json=ANN)  # the answer above cleared the jar's cookie
    old = client.cookies[SESSION_COOKIE]
    csrf = {"X-CSRF-Token": again.json()["csrf"]}
    assert client.delete("/api/session", headers=csrf).status_code == 204
    assert SESSION_COOKIE not in client.cookies
    assert client.get("/api/account").json() == {"account": None, "csrf": None}
    dead = {"Cookie": f"{SESSION_COOKIE}={old}"}
    replayed = client.get("/api/account", headers=dead)
    assert replayed.json()["account"] is None, "a signed-out session is gone, not only its cookie"
    assert f'{SESSION_COOKIE}=""' in replayed.headers["set-cookie"], "and its cookie is cleared"
    table = {"name": "Mine", "seats": [{"kind": "human"}] * 4}
    assert client.post("/api/tables", json=table, headers=dead).status_code == 201, (
        "a dead cookie is a guest's"
    )


def test_a_signed_in_change_needs_its_csrf_token(client: TestClient) -> None:
    """Another site can make the browser send the cookie, not the header: refused with 403."""
    headers = signed_in(client, "Ann")
    cookie_only = {"Cookie": headers["Cookie"]}
    body = {"name": "Mine", "seats": [{"kind": "human"}] * 4}
    for bad in (cookie_only, {**cookie_only, "X-CSRF-Token": "0" * 64}):
        response = client.post("/api/tables", json=body, headers=bad)
        assert response.status_code == 403
        assert "X-CSRF-Token" in response.json()["detail"]
        assert client.delete("/api/session", headers=bad).status_code == 403
    assert client.get("/api/tables").json()["tables"] == [], "nothing was created"
    assert client.post("/api/tables", json=body, headers=headers).status_code == 201
    assert client.post("/api/tables", json=body).status_code == 201, "a guest has no session to forge"


def test_another_sites_page_cannot_sign_a_visitor_in(client: TestClient) -> None:
    """Login CSRF: a form on another site posting the attacker's name and password is refused."""
    signed_in(client, "Mallory")
    credentials = {"name": "Mallory", "password": password_of("Mallory")}
    response = client.post("/api/session", json=credentials, headers={"Origin": "https://evil.example"})
    assert response.status_code == 403
    assert SESSION_COOKIE not in response.cookies
    same_site = {"Origin": "http://testserver"}
    assert client.post("/api/session", json=credentials, headers=same_site).status_code == 200


def test_a_session_expires_and_a_changed_cost_rehashes_on_sign_in(tmp_path: Path) -> None:
    now = [datetime(2026, 12, 4, tzinfo=UTC)]
    with Store(f"sqlite:///{tmp_path}/a.sqlite3") as store:
        accounts = Accounts(store, CHEAP, clock=lambda: now[0])
        accounts.register("Ann", "long enough")
        _, secret = accounts.sign_in("ann", "long enough")
        assert accounts.session(secret) is not None
        now[0] += timedelta(days=SESSION_DAYS) - timedelta(seconds=1)
        assert accounts.session(secret) is not None
        now[0] += timedelta(seconds=1)
        assert accounts.session(secret) is None
        assert accounts.session(secret) is None, "and it was deleted"
        before = store.account("ann")
        stronger = Accounts(store, PasswordHasher(time_cost=2, memory_cost=1024, parallelism=1))
        stronger.sign_in("Ann", "long enough")
        after = store.account("ann")
        assert before is not None
        assert after is not None
        assert after.password_hash != before.password_hash
        assert "m=1024,t=2,p=1" in after.password_hash
        with pytest.raises(AccountError, match="wrong name or password"):
            stronger.sign_in("Ann", "not it at all")


# -- guests, rated seats and their owners -------------------------------------------------------------------


def test_a_guest_plays_casual_tables_but_not_under_an_accounts_name(client: TestClient) -> None:
    signed_in(client, "Ann")
    table_id = create_table(client)["id"]
    for name in ("Ann", " ann "):
        response = client.post(f"/api/tables/{table_id}/seats/0", json={"name": name})
        assert response.status_code == 409
        assert "is the account Ann's, or looks like it: sign in as Ann" in response.json()["detail"]
    assert client.post("/api/quick", json={"name": "ANN"}).status_code == 409
    sit(client, table_id, 0, "Bo")
    table = guandan_table_of(client, table_id)
    assert (table.names[0], table.accounts[0]) == ("Bo", None)


def test_signed_in_a_seat_is_the_accounts_under_its_name(client: TestClient) -> None:
    ann = signed_in(client, "Ann")
    table_id = create_table(client)["id"]
    answer = client.post(f"/api/tables/{table_id}/seats/1", json={"name": "Someone else"}, headers=ann)
    assert answer.status_code == 200, answer.text
    table = guandan_table_of(client, table_id)
    assert (table.names[1], table.accounts[1]) == ("Ann", "ann")
    sit_entry = next(entry for entry in table.log if entry["type"] == "sit")
    assert sit_entry["account"] == "ann"
    summary = client.get(f"/api/tables/{table_id}").json()
    assert summary["seats"][1]["account"] == "ann"
    assert summary["rated"] is False
    quick = client.post("/api/quick", json={"name": "ignored"}, headers=ann).json()
    assert client.get(f"/api/tables/{quick['id']}").json()["seats"][0]["name"] == "Ann"


def test_a_rated_seat_is_taken_only_by_its_signed_in_owner(client: TestClient) -> None:
    ann, bo = signed_in(client, "Ann"), signed_in(client, "Bo")
    table_id = create_table(client, ann, rated=True)["id"]
    response = client.post(f"/api/tables/{table_id}/seats/0", json={"name": "Guest"})
    assert response.status_code == 403
    assert "signed-in accounts" in response.json()["detail"]
    for seat in (-1, 4):
        assert client.post(f"/api/tables/{table_id}/seats/{seat}", json={}, headers=ann).status_code == 400
    first = client.post(f"/api/tables/{table_id}/seats/0", json={}, headers=ann).json()["token"]
    assert client.post(f"/api/tables/{table_id}/seats/0", json={}, headers=bo).status_code == 409
    # Ann on another device: a new token for her seat, the old one stops working
    second = client.post(f"/api/tables/{table_id}/seats/0", json={}, headers=ann).json()["token"]
    assert second != first
    table = guandan_table_of(client, table_id)
    assert table.seat_of(first) is None
    assert table.seat_of(second) == 0
    key = table.log[-1]
    assert (key["type"], key["seat"]) == ("key", 0)
    with client.websocket_connect(f"/ws/tables/{table_id}") as ws:
        peer = Peer(ws)
        assert peer.join(second)["seat"] == 0
        frames = [frame for frame in peer.frames if frame["type"] == "event"]
        keys = [frame["event"] for frame in frames if frame["event"]["type"] == "key"]
        assert keys == [{"type": "key", "seat": 0, "at": keys[0]["at"]}], "the key's hash is never sent"
    with client.websocket_connect(f"/ws/tables/{table_id}") as ws:
        peer = Peer(ws)
        peer.send({"type": "join", "token": first})
        assert peer.error()["code"] == "bad_token"


def test_a_new_key_is_replayed_after_a_restart(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path}/room.sqlite3"
    with TestClient(create_app(url, settings=FAST, password_hasher=CHEAP)) as client:
        ann = signed_in(client, "Ann")
        table_id = create_table(client, ann, rated=True)["id"]
        client.post(f"/api/tables/{table_id}/seats/2", json={}, headers=ann)
        token = client.post(f"/api/tables/{table_id}/seats/2", json={}, headers=ann).json()["token"]
    with TestClient(create_app(url, settings=FAST, password_hasher=CHEAP)) as client:
        table = guandan_table_of(client, table_id)
        assert table.seat_of(token) == 2
        assert table.accounts[2] == "ann"
        assert client.get("/api/account", headers=ann).json()["account"]["name"] == "Ann"


def test_a_seat_without_an_account_takes_no_new_key() -> None:
    table = Table("t", TableConfig(), seed="s")
    table.sit(0, "Guest", 0.0)
    with pytest.raises(ValueError, match="not this account's"):
        table.new_key(0, "guest", 1.0)
    with pytest.raises(ValueError, match="has no account"):
        Table.replay(
            "t", TableConfig(), [*table.log, {"type": "key", "seat": 0, "token_hash": "x", "at": 1.0}]
        )


# -- the store's migration and the operator's command -------------------------------------------------------


def test_players_rated_before_accounts_are_migrated_as_guests(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path}/old.sqlite3"
    engine = make_engine(url)
    try:
        migrate(engine, "0002")
        with engine.begin() as connection:
            connection.execute(
                text(
                    "INSERT INTO players (key, name, mu, sigma, matches, wins, draws, losses, points, "
                    "last_place_streak, updated) VALUES ('ann', 'Ann', 25, 8, 4, 2, 0, 2, 10, 0, :t)"
                ),
                {"t": datetime(2026, 1, 1, tzinfo=UTC)},
            )
    finally:
        engine.dispose()
    with Store(url) as store:
        (row,) = store.players()
        assert (row.key, row.kind, row.matches) == ("ann", "guest", 4)
        assert store.players(listed=True) == []


def test_the_operator_names_directors_and_resets_passwords(tmp_path: Path) -> None:
    runner = CliRunner()
    data = ["--data", str(tmp_path)]
    created = runner.invoke(
        cli, ["accounts", "create", "Dora", "--password-stdin", *data], input="long enough\n"
    )
    assert created.exit_code == 0, created.output
    assert "Dora opened (player)" in created.output
    again = runner.invoke(
        cli, ["accounts", "create", "dora", "--password-stdin", *data], input="long enough\n"
    )
    assert again.exit_code == 1
    assert "'dora' is taken" in again.output
    assert runner.invoke(cli, ["accounts", "role", "DORA", "director", *data]).exit_code == 0
    bad = runner.invoke(cli, ["accounts", "role", "Dora", "admin", *data])
    assert bad.exit_code == 1
    assert "role: one of player, director" in bad.output
    listed = runner.invoke(cli, ["accounts", "list", *data])
    assert "│ Dora │ director │" in listed.output
    url = f"sqlite:///{tmp_path}/cardroom.sqlite3"
    with TestClient(create_app(url, settings=FAST)) as client:
        signed = client.post("/api/session", json={"name": "Dora", "password": "long enough"})
        assert signed.json()["account"]["role"] == "director"
        cookie = {"Cookie": f"{SESSION_COOKIE}={signed.cookies[SESSION_COOKIE]}"}
        client.cookies.clear()
        reset = runner.invoke(
            cli, ["accounts", "password", "Dora", "--password-stdin", *data], input="another one\n"
        )
        assert reset.exit_code == 0, reset.output
        assert client.get("/api/account", headers=cookie).json()["account"] is None, "signed out everywhere"
        assert (
            client.post("/api/session", json={"name": "Dora", "password": "another one"}).status_code == 200
        )
    missing = runner.invoke(cli, ["accounts", "password", "Nobody", "--password-stdin", *data], input="x" * 9)
    assert missing.exit_code == 1
    assert "no account 'Nobody'" in missing.output
