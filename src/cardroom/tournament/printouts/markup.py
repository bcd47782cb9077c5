"""The HTML pieces every printout is made of: a page with the stylesheet linked, bilingual labels
(Chinese first, then English in ``<span class="en">``), tables and cells.

Every text is escaped here; the pages carry no inline style or script (the card room serves them under a
Content-Security-Policy that allows only its own stylesheet), so their look is the stylesheet's
(``print.css``) by class names.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from datetime import datetime
from html import escape

DEFAULT_STYLESHEET = "/static/print.css"
"""Where the card room serves ``print.css``; a file printed elsewhere passes its own href."""


def text(value: object) -> str:
    """Any value as escaped HTML text."""
    return escape(str(value))


def label(chinese: str, english: str) -> str:
    """A bilingual label: ``桌号 <span class="en">Table</span>``."""
    return f'{escape(chinese)} <span class="en">{escape(english)}</span>'


def cell(content: str, css: str = "") -> str:
    """A ``<td>`` around HTML already escaped."""
    cls = f' class="{escape(css)}"' if css else ""
    return f"<td{cls}>{content}</td>"


def table(headers: Sequence[str], rows: Iterable[Sequence[str]], css: str = "") -> str:
    """A table: ``headers`` are HTML (:func:`label`; none: no header row), each row a sequence of
    :func:`cell`."""
    cls = f' class="{escape(css)}"' if css else ""
    head = "".join(f"<th>{header}</th>" for header in headers)
    thead = f"<thead><tr>{head}</tr></thead>" if headers else ""
    body = "".join("<tr>" + "".join(row) + "</tr>" for row in rows)
    return f"<table{cls}>{thead}<tbody>{body}</tbody></table>"


def page(title: str, body: Iterable[str], *, stylesheet: str = DEFAULT_STYLESHEET, kind: str) -> str:
    """A whole HTML document: ``kind`` names the printout (the ``<body>``'s class)."""
    return "\n".join(
        [
            "<!doctype html>",
            '<html lang="zh"><head><meta charset="utf-8">',
            f"<title>{escape(title)}</title>",
            f'<link rel="stylesheet" href="{escape(stylesheet)}"></head>',
            f'<body class="{escape(kind)}">',
            *body,
            "</body></html>",
        ]
    )


def clock(at: datetime | None) -> str:
    """A recorded time as written on paper, in its own time zone: ``2026-05-01 14:05:01``; ``-`` for none."""
    return "-" if at is None else at.strftime("%Y-%m-%d %H:%M:%S")


__all__ = ["DEFAULT_STYLESHEET", "cell", "clock", "label", "page", "table", "text"]
