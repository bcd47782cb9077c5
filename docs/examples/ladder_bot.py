"""A complete bot for a card room's ladder over the card room's own protocol (docs/ladder.md, "The ladder
in the card room"), ready to run:

    pip install websockets httpx
    export ROOM=http://127.0.0.1:8000 CARDROOM_BOT_TOKEN=cardroom_bot_…
    python docs/examples/ladder_bot.py

It says it is ready on ``ws://HOST/ws/ladder`` and keeps that socket open with a ping every minute; each
``seat`` frame it is told there, it plays in a thread of its own at the table's websocket, asking
``legal`` once per decision and answering with a random legal action (put your bot in ``choose``). A
``rate_limited`` refusal is waited out (``retry_after``). With ``MATCHES=N`` it plays N matches: once
the Nth is seated it says ``unready`` (the room seats it in no other match), plays that match's tables
out and waits for its result; else it plays until Ctrl-C.
"""

from __future__ import annotations

import json
import os
import random
import sys
import threading
import time
from typing import Any

import httpx
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import ClientConnection, connect

ROOM = os.environ.get("ROOM", "http://127.0.0.1:8000").rstrip("/")
TOKEN = os.environ.get("CARDROOM_BOT_TOKEN", "")
MATCHES = int(os.environ.get("MATCHES", "0"))
PING_EVERY = 60.0
"""Seconds between pings on the ladder socket: the room closes a socket silent for 120 s (4408)."""
HEADERS = {"Authorization": f"Bearer {TOKEN}"}
SOCKETS = "ws" + ROOM.removeprefix("http")


def choose(state: dict[str, Any], actions: list[dict[str, Any]]) -> dict[str, Any]:
    """The action to play: here any legal one. ``state`` is the table's last ``state`` frame."""
    return random.choice(actions)


def ask_legal(ws: ClientConnection) -> None:
    ws.send(json.dumps({"type": "legal"}))


def play_table(seat: dict[str, Any]) -> None:
    """Sit where the ladder said and play the table's deal to its end."""
    name = f"table {seat['table']} seat {seat['seat']}"
    decisions = 0
    asked = 0  # the state whose decision `legal` was asked for: a state sent again is no new decision
    state: dict[str, Any] = {}
    with connect(f"{SOCKETS}/ws/tables/{seat['table']}", additional_headers=HEADERS) as ws:
        ws.send(json.dumps({"type": "join", "token": seat["token"], "since": 0}))
        for raw in ws:
            frame = json.loads(raw)
            kind = frame["type"]
            if kind == "state":
                state = frame
                if state["phase"] == "finished":
                    break
                if state["to_act"] and state["number"] > asked:
                    asked = state["number"]
                    ask_legal(ws)
            elif kind == "legal" and frame["actions"] and state.get("to_act"):
                decisions += 1
                ws.send(json.dumps({"type": "act", "action": choose(state, frame["actions"])}))
            elif kind == "error" and frame.get("code") == "rate_limited":
                time.sleep(frame.get("retry_after") or 1)
                if frame.get("refused") == "legal":
                    ask_legal(ws)
            elif kind == "error":  # e.g. out_of_turn after the clock ran out: no fault, nothing to do
                print(f"{name}: {frame.get('code')}: {frame.get('message')}", flush=True)
    print(f"{name}: the deal is over after {decisions} decisions", flush=True)


def outcome(match: dict[str, Any], me: str) -> str:
    """A rated match (``result`` frame or ``GET /api/ladder/{bot}`` match) from the bot's side."""
    name = f"match {match.get('id', match.get('match'))}"
    if match["winner"] is None:
        return f"{name}: a draw"
    mine = 0 if me in match["team_a"] else 1
    return f"{name}: {'won' if match['winner'] == mine else 'lost'} by {abs(match['margin'])} levels"


def main() -> int:
    if not TOKEN:
        print("set CARDROOM_BOT_TOKEN to the bot's API token (the account page shows it once)")
        return 2
    me = httpx.get(f"{ROOM}/api/account", headers=HEADERS, timeout=10)
    if me.status_code != 200:
        print(f"{ROOM} refused the token: HTTP {me.status_code} {me.text[:200]}")
        return 1
    key = me.json()["account"]["key"]
    entrant = ""
    seated: list[str] = []  # the matches the bot was seated in, in order
    told: set[str] = set()  # the matches whose result came
    tables: list[threading.Thread] = []
    with connect(f"{SOCKETS}/ws/ladder", additional_headers=HEADERS) as ladder:
        ladder.send(json.dumps({"type": "ready"}))
        last_ping = time.monotonic()
        while not (MATCHES and len(seated) >= MATCHES and told >= set(seated)):
            if time.monotonic() - last_ping >= PING_EVERY:
                ladder.send(json.dumps({"type": "ping"}))
                last_ping = time.monotonic()
            try:
                frame = json.loads(ladder.recv(timeout=PING_EVERY))
            except TimeoutError:
                continue
            except ConnectionClosed as closed:
                print(f"the ladder closed the socket: {closed}")
                return 1
            if frame["type"] == "ready":
                entrant = frame["entrant"]
                print(f"ready as {entrant} ({frame['name']}): waiting for a match", flush=True)
            elif frame["type"] == "seat":
                if frame["match"] not in seated:
                    seated.append(frame["match"])
                    if len(seated) == MATCHES:  # the last one: no other match after it
                        ladder.send(json.dumps({"type": "unready"}))
                tables.append(threading.Thread(target=play_table, args=(frame,), daemon=True))
                tables[-1].start()
            elif frame["type"] == "result":
                told.add(frame["match"])
                print(outcome(frame, entrant), flush=True)
            elif frame["type"] == "error":
                print(f"the ladder says {frame.get('code')}: {frame.get('message')}", flush=True)
    for table in tables:
        table.join(timeout=30)
    rated = httpx.get(f"{ROOM}/api/ladder/{key}", timeout=10).json()["entrants"]
    for row in rated:
        print(f"{row['key']}: rating {row['mu']:.1f}, {row['matches']} matches rated", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
