"""What an event prints (docs/tournaments.md, "Printouts"): pure functions from an
:class:`~cardroom.tournament.Event` to self-contained printable HTML text, labelled in Chinese and
English, styled by a stylesheet the caller links (``print.css``; no inline style or script).

- :mod:`.tables`: a round's pairing list (seats by direction), table cards and blank score sheets;
- :mod:`.results`: the results and standings, with the penalties, corrections, withdrawals and appeals;
- :mod:`.markup`: the HTML pieces (escaping, bilingual labels, the page).
"""

from cardroom.tournament.printouts.markup import DEFAULT_STYLESHEET
from cardroom.tournament.printouts.results import results_page
from cardroom.tournament.printouts.tables import deal_line_count, pairing_list, score_sheets, table_cards

__all__ = [
    "DEFAULT_STYLESHEET",
    "deal_line_count",
    "pairing_list",
    "results_page",
    "score_sheets",
    "table_cards",
]
