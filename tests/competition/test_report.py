"""``cardroom connect``'s summary: each connection labelled with its number and seat, nouns in plural."""

from __future__ import annotations

from rich.console import Console

from cardroom.competition.client import ConnectReport
from cardroom.competition.report import print_connect_report


def test_each_connection_s_summary_says_which_connection_and_seat_it_is() -> None:
    console = Console(record=True, width=300)
    print_connect_report(ConnectReport(seat=0, deals=1, decisions=16, episodes=1), console)
    print_connect_report(ConnectReport(seat=2, number=1), console)
    text = console.export_text()
    assert "Connection 1 (seat 0): 0 matches, 1 deal, 16 decisions;" in text
    assert "Connection 2 (seat 2): 0 matches, 0 deals, 0 decisions;" in text
    assert "matchs" not in text
