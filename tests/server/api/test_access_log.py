"""Tokens kept out of the access log (docs/ladder.md, "Bot accounts"): a query key naming a token has its
value redacted, alone and in a real ``cardroom serve``'s log."""

from __future__ import annotations

from pathlib import Path

import pytest

from cardroom.server.api.access_log import REDACTED, redacted
from tests.server.clients import call
from tests.server.serving import Server


@pytest.mark.parametrize(
    ("path", "shown"),
    [
        ("/api/account?token=s3cret", f"/api/account?token={REDACTED}"),
        ("/api/x?a=1&API_Token=s3cret&b=2", f"/api/x?a=1&API_Token={REDACTED}&b=2"),
        ("/api/x?seat%5Ftoken=s3cret", f"/api/x?seat%5Ftoken={REDACTED}"),
        ("/api/ladder?page=2", "/api/ladder?page=2"),
        ("/api/ladder", "/api/ladder"),
        ("/api/x?token", "/api/x?token"),
    ],
)
def test_a_tokens_value_is_redacted_and_the_rest_kept(path: str, shown: str) -> None:
    assert redacted(path) == shown


@pytest.mark.server_process
def test_a_token_in_a_query_string_never_reaches_the_servers_log(tmp_path: Path) -> None:
    server = Server(tmp_path, "--log-level", "info")
    try:
        answer = call(server, "GET", "/api/account?token=crb_not-to-be-logged&keep=me")
        assert answer.status == 200, "signed out: no account"
    finally:
        server.stop()
    log = server.log.read_text()
    assert "crb_not-to-be-logged" not in log
    assert f"/api/account?token={REDACTED}&keep=me" in log, log
