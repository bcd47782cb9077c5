"""Clients of a real ``cardroom serve`` (tests/server/serving.py) as the limits see them: HTTP requests
that keep the answer's status and headers (and may carry a session), websockets opened from a chosen
loopback address (Linux answers on every 127.x.y.z, so each is a client address of its own without
trusting any header), frames read until an answer or the close."""

from __future__ import annotations

import contextlib
import json
import secrets
import socket
import urllib.error
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from websockets.exceptions import ConnectionClosed
from websockets.sync.client import ClientConnection, connect

from tests.server.serving import Server


@dataclass(frozen=True)
class Answer:
    """An HTTP answer: status, headers, JSON body (``None`` when empty)."""

    status: int
    headers: dict[str, str]
    body: Any


def call(
    server: Server,
    method: str,
    path: str,
    body: dict[str, Any] | None = None,
    headers: dict[str, str] | None = None,
) -> Answer:
    """One request to ``server``; an error status is an answer too."""
    data = json.dumps(body).encode() if body is not None else None
    request = urllib.request.Request(f"{server.url}{path}", data=data, method=method)
    request.add_header("Content-Type", "application/json")
    for name, value in (headers or {}).items():
        request.add_header(name, value)
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            raw = response.read()
            return Answer(response.status, dict(response.headers), json.loads(raw) if raw else None)
    except urllib.error.HTTPError as error:
        raw = error.read()
        return Answer(error.code, dict(error.headers), json.loads(raw) if raw else None)


def open_account(server: Server, name: str) -> dict[str, str]:
    """Register ``name`` (a random password): the headers of its signed-in requests (cookie, CSRF)."""
    answer = call(server, "POST", "/api/accounts", {"name": name, "password": secrets.token_urlsafe(18)})
    assert answer.status == 201, answer
    cookie = answer.headers["set-cookie"].split(";", 1)[0]
    return {"Cookie": cookie, "X-CSRF-Token": answer.body["csrf"]}


@contextlib.contextmanager
def websocket(server: Server, path: str, source: str = "127.0.0.1") -> Iterator[ClientConnection]:
    """A websocket to ``server`` at ``path`` from the loopback address ``source``."""
    sock = socket.socket()
    sock.bind((source, 0))
    sock.settimeout(10)
    sock.connect(("127.0.0.1", server.port))
    sock.settimeout(None)
    with connect(f"ws://127.0.0.1:{server.port}{path}", sock=sock, open_timeout=10) as ws:
        yield ws


def frame(ws: ClientConnection, timeout: float = 15.0) -> dict[str, Any]:
    """The next frame."""
    received: dict[str, Any] = json.loads(ws.recv(timeout=timeout))
    return received


def until(ws: ClientConnection, kind: str, timeout: float = 15.0) -> dict[str, Any]:
    """Read until a frame of type ``kind`` (an ``error`` on the way fails the test)."""
    while True:
        got = frame(ws, timeout)
        if got["type"] == kind:
            return got
        assert got["type"] != "error", got


def closing(ws: ClientConnection, timeout: float = 15.0) -> tuple[list[dict[str, Any]], int | None, str]:
    """Read until the server closes the socket: the frames read, the close code and reason."""
    frames: list[dict[str, Any]] = []
    with contextlib.suppress(ConnectionClosed):
        while True:
            frames.append(frame(ws, timeout))
    return frames, ws.protocol.close_code, ws.protocol.close_reason or ""


def joined(ws: ClientConnection, token: str | None) -> dict[str, Any]:
    """Join (``token``, or watch) and read up to the first state."""
    ws.send(json.dumps({"type": "join", "token": token, "since": 0}))
    return until(ws, "state")
