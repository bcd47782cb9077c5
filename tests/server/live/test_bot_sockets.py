"""The websockets each bot's API token opened (docs/ladder.md, "Bot accounts"): a socket is noted
under its token only while the token is live, so that rotating or revoking it cuts the socket off at
once, even when the token ends while the socket is signing in."""

from __future__ import annotations

from fastapi.testclient import TestClient

from cardroom.server.accounts.bots import BotAccounts
from cardroom.server.live.bot_sockets import BotSockets
from tests.server.accounts.test_bot_accounts import new_bot
from tests.server.conftest import run_coroutine, signed_in


def test_a_token_revoked_while_its_socket_signs_in_leaves_nothing_noted(client: TestClient) -> None:
    bots: BotAccounts = client.app.state.bots  # type: ignore[attr-defined]
    ann = signed_in(client, "Ann")
    created = new_bot(client, ann)
    bot_id, token = created["bot"]["id"], created["token"]
    sockets: BotSockets = client.app.state.bot_sockets  # type: ignore[attr-defined]
    cut_off: list[str] = []
    live = bots.signed_in(token)
    assert live is not None
    assert run_coroutine(sockets.add_live(bots.store, live.token_hash, cut_off.append))
    assert sockets.tokens == {live.token_hash}
    assert sockets.close([live.token_hash], "rotated") == 1
    assert cut_off == ["rotated"]

    signing_in = bots.signed_in(token)  # the sign-in reads the token: still live
    assert signing_in is not None
    assert client.delete(f"/api/account/bots/{bot_id}/token", headers=ann).status_code == 200
    # the revocation closed the token's sockets noted so far, not this one: it is looked up again
    assert not run_coroutine(sockets.add_live(bots.store, signing_in.token_hash, cut_off.append))
    assert sockets.tokens == set()
    assert cut_off == ["rotated"], "a socket refused at sign-in is not cut off as well"
