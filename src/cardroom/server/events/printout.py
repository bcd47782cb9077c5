"""The printable results page of an event (``GET /events/{id}/print``): plain HTML rendered by the
server from the same data as the API — the standings, every round's tables and results, and the
penalties — styled for paper by ``web/print.css`` (no inline style: the pages' Content-Security-Policy
allows only the card room's own files)."""

from __future__ import annotations

from html import escape

from cardroom.server.events.director import LiveEvent
from cardroom.tournament import Criterion, level_name


def _cell(value: object, css: str = "") -> str:
    cls = f' class="{css}"' if css else ""
    return f"<td{cls}>{escape(str(value))}</td>"


def _row(cells: list[str]) -> str:
    return "<tr>" + "".join(cells) + "</tr>"


def print_page(live: LiveEvent) -> str:
    """The whole page as HTML text."""
    event = live.event
    config = event.config
    parts = [
        "<!doctype html>",
        '<html lang="zh"><head><meta charset="utf-8">',
        f"<title>{escape(live.name)} — 成绩</title>",
        '<link rel="stylesheet" href="/static/print.css"></head><body>',
        f"<h1>{escape(live.name)}</h1>",
        '<p class="meta">'
        + escape(
            f"赛制 {config.format.describe()} · {len(event.teams)} 队 · "
            f"{len(event.rounds)}/{event.total_rounds if event.lots else '?'} 轮 · {event.phase.value}"
        )
        + "</p>",
    ]
    if event.lots:
        parts.append("<h2>名次 Standings</h2><table><thead>")
        headers = [
            "名次",
            "队",
            "队员",
            "总积分",
            "去首累进分",
            "胜轮次",
            "级差分",
            "升级数",
            "28分制",
            "签号",
            "决定",
        ]
        parts.append(_row([f"<th>{escape(h)}</th>" for h in headers]) + "</thead><tbody>")
        for row in event.standings():
            team = event.team(row.team)
            tally = row.tally
            decided = "" if row.above is None else row.above.label
            parts.append(
                _row(
                    [
                        _cell(row.rank),
                        _cell(team.display, "name"),
                        _cell(" / ".join(p.name for p in team.players), "name"),
                        _cell(tally.points),
                        _cell(tally.progressive),
                        _cell(tally.wins),
                        _cell(tally.level_difference),
                        _cell(tally.levels_gained),
                        _cell(tally.score28),
                        _cell(tally.lot),
                        _cell(decided),
                    ]
                )
            )
        parts.append("</tbody></table>")
        order = " > ".join(criterion.label for criterion in Criterion)
        parts.append(f'<p class="meta">{escape("名次依次比较: " + order)}</p>')
    for played in event.rounds:
        parts.append(
            f'<section class="round"><h2>第{played.number}轮 Round {played.number}</h2><table><thead>'
        )
        headers = ["桌", "0/2 座", "1/3 座", "级数", "副数", "积分", "28分制", "26分制", "签字", "判罚"]
        parts.append(_row([f"<th>{escape(h)}</th>" for h in headers]) + "</thead><tbody>")
        for pairing, result in zip(played.pairings, played.results, strict=True):
            sheet = live.sheets.get((played.number, pairing.table))
            teams = [event.team(team_id).display for team_id in pairing.teams]
            if result is None:
                scores = ["进行中", "", "", "", ""]
            else:
                kind = "" if result.kind.value == "played" else " (弃权/判负)"
                scores = [
                    f"{level_name(result.levels[0])} : {level_name(result.levels[1])}{kind}",
                    str(result.deals),
                    f"{result.round_points[0]} : {result.round_points[1]}",
                    f"{result.score28[0]} : {result.score28[1]}",
                    f"{result.score26[0]} : {result.score26[1]}",
                ]
            signed = "" if sheet is None else " ".join("✓" if done else "—" for done in sheet.signed)
            penalties = "" if sheet is None else "; ".join(record.describe() for record in sheet.penalties)
            parts.append(
                _row(
                    [
                        _cell(pairing.table),
                        _cell(teams[0], "name"),
                        _cell(teams[1], "name"),
                        *(_cell(score) for score in scores),
                        _cell(signed),
                        _cell(penalties, "name"),
                    ]
                )
            )
        if played.draw.bye is not None:
            parts.append(
                _row([_cell("轮空"), _cell(event.team(played.draw.bye).display, "name")] + [_cell("")] * 8)
            )
        parts.append("</tbody></table></section>")
    parts.append("</body></html>")
    return "\n".join(parts)


__all__ = ["print_page"]
