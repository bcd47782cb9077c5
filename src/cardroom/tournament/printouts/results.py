"""The printable results of an event (成绩): the standings with their tie-breaks, every round's tables
and results, and what the director recorded — the penalties (by hand, by lateness, and those on the
tables' score sheets), the corrections of results, the withdrawals and disqualifications, and the
appeals with their rulings (docs/tournaments.md, "The director's day").
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping

from cardroom.tournament.conduct import PenaltyRecord
from cardroom.tournament.director import PenaltyEntry
from cardroom.tournament.event import Event, EventPhase
from cardroom.tournament.formats import level_name
from cardroom.tournament.pairing import Pairing
from cardroom.tournament.printouts.markup import DEFAULT_STYLESHEET, cell, clock, label, page, table, text
from cardroom.tournament.printouts.tables import reason_text, round_title, side_label, team_label, wind_label
from cardroom.tournament.rounds import Round
from cardroom.tournament.scoring import ResultKind, TableResult
from cardroom.tournament.seating import wind_of
from cardroom.tournament.sheets import ScoreSheet
from cardroom.tournament.standings import Criterion

Sheets = Mapping[tuple[int, int], ScoreSheet]
"""Score sheets by (round, table), where the caller keeps them (the card room does)."""

PHASES = {
    EventPhase.REGISTRATION: ("报名", "registration"),
    EventPhase.RUNNING: ("进行中", "running"),
    EventPhase.FINISHED: ("已结束", "finished"),
}


def _pair(values: tuple[int, int]) -> str:
    return f"{values[0]} : {values[1]}"


def result_text(result: TableResult) -> str:
    """A result as the table shows it, side 0 first: ``过A : Q``, with ``(弃权/判负)`` for a forfeit."""
    kind = " (弃权/判负)" if result.kind is ResultKind.FORFEIT else ""
    return f"{level_name(result.levels[0])} : {level_name(result.levels[1])}{kind}"


def who(event: Event, pairing: Pairing, team_id: str, player_id: str | None, seat: int | None) -> str:
    """Who a penalty is for, as HTML: the player at a direction, or the side's team."""
    if player_id is not None:
        player = next((p.display for p in event.team(team_id).players if p.id == player_id), player_id)
        where = "" if seat is None else wind_label(wind_of(seat)) + " "
        return f"{where}{text(player)}"
    side = pairing.teams.index(team_id)
    return f"{side_label(side)} {text(event.team(team_id).display)}"


def entry_text(event: Event, pairing: Pairing, entry: PenaltyEntry) -> str:
    """A director's penalty as listed at its table (HTML): who, the penalty, the reason."""
    person = who(event, pairing, entry.team, entry.player, entry.seat)
    return f"{person} {text(entry.label)} ({reason_text(entry)})"


def record_text(event: Event, pairing: Pairing, record: PenaltyRecord) -> str:
    """A penalty written on the score sheet by the table's clocks (HTML): the deal, who, the penalty."""
    if record.seat is not None:
        player = event.seat_players(pairing)[record.seat]
        name = f"{wind_label(wind_of(record.seat))} {text(player.display)}"
    else:
        name = f"{side_label(record.side)} {text(event.team(pairing.teams[record.side]).display)}"
    how = "累计" if record.escalated else record.offence.label
    return f"第{record.deal}副 {record.at_s:.0f}s {name}: {text(record.penalty.label)} ({text(how)})"


def _meta(event: Event) -> str:
    config = event.config
    total = event.total_rounds if event.lots else "?"
    phase = label(*PHASES[event.phase])
    points = config.scoring.level_table
    return (
        f'<p class="meta">{label("赛制", "Format")} {text(config.format.describe())} · '
        f"{len(event.teams)} {label('队', 'teams')} · {len(event.rounds)}/{total} {label('轮', 'rounds')} · "
        f"{label(f'级差分按{points}分制', f'level difference in the {points}-point table')} · {phase}</p>"
    )


def _team_penalties(event: Event, team_id: str) -> str:
    return "; ".join(
        f"R{played.number} {entry.label}"
        for played in event.rounds
        for entry in played.penalties
        if entry.team == team_id
    )


def _standings(event: Event) -> list[str]:
    points = event.config.scoring.level_table
    headers = [
        label("名次", "Rank"),
        label("队", "Team"),
        label("队员", "Players"),
        label("总积分", "Points"),
        label("去首累进分", "Progressive (cut 1)"),
        label("胜轮次", "Wins"),
        label(f"级差分（{points}分制）", f"Level difference ({points}-point)"),
        label("升级数", "Levels gained"),
        label("28分制", "28-point"),
        label("签号", "Lot"),
        label("决定", "Decided by"),
        label("状态", "Status"),
        label("判罚", "Penalties"),
    ]
    rows = []
    for row in event.standings():
        team = event.team(row.team)
        tally = row.tally
        status = event.withdrawal_of(team.id).label if event.is_out(team.id) else ""
        rows.append(
            [
                cell(text(row.rank)),
                cell(text(team.display), "name"),
                cell(text(" / ".join(p.display for p in team.players)), "name"),
                cell(text(tally.points)),
                cell(text(tally.progressive)),
                cell(text(tally.wins)),
                cell(text(tally.level_difference)),
                cell(text(tally.levels_gained)),
                cell(text(tally.score28)),
                cell(text(tally.lot)),
                cell(text("" if row.above is None else row.above.label)),
                cell(text(status)),
                cell(text(_team_penalties(event, team.id)), "name"),
            ]
        )
    order = " > ".join(criterion.label for criterion in Criterion)
    return [
        f"<h2>{label('名次', 'Standings')}</h2>",
        table(headers, rows, "standings"),
        f'<p class="meta">{label("名次依次比较", "ties are broken by")}: {text(order)}</p>',
    ]


def _table_rows(event: Event, played: Round, sheets: Sheets) -> Iterator[list[str]]:
    for pairing, result in zip(played.pairings, played.results, strict=True):
        sheet = sheets.get((played.number, pairing.table))
        if result is None:
            scores = [label("进行中", "playing"), "", "", "", ""]
        else:
            scores = [
                text(result_text(result)),
                text(result.deals),
                text(_pair(result.round_points)),
                text(_pair(result.score28)),
                text(_pair(result.score26)),
            ]
        signed = "" if sheet is None else " ".join("✓" if done else "—" for done in sheet.signed)
        penalties = [entry_text(event, pairing, e) for e in played.table_penalties(pairing.table)]
        if sheet is not None:
            penalties += [record_text(event, pairing, record) for record in sheet.penalties]
        yield [
            cell(text(pairing.table)),
            cell(team_label(event, event.team(pairing.teams[0])), "name"),
            cell(team_label(event, event.team(pairing.teams[1])), "name"),
            *(cell(score) for score in scores),
            cell(text(signed)),
            cell("; ".join(penalties), "name"),
        ]
    if played.draw.bye is not None:
        yield [cell(label("轮空", "Bye")), cell(team_label(event, event.team(played.draw.bye)), "name")] + [
            cell("")
        ] * 8


def _round(event: Event, played: Round, sheets: Sheets) -> str:
    headers = [
        label("桌", "Table"),
        f"{side_label(0)} 0/2",
        f"{side_label(1)} 1/3",
        label("级数", "Levels"),
        label("副数", "Deals"),
        label("积分", "Points"),
        label("28分制", "28-point"),
        label("26分制", "26-point"),
        label("签字", "Signed"),
        label("判罚", "Penalties"),
    ]
    return (
        f'<section class="round"><h2>{round_title(played)}</h2>'
        f"{table(headers, _table_rows(event, played, sheets), 'results')}</section>"
    )


def _penalties(event: Event, sheets: Sheets) -> list[str]:
    rows = []
    for played in event.rounds:
        for entry in played.penalties:
            pairing = played.pairing(entry.table)
            rows.append(
                [
                    cell(text(played.number)),
                    cell(text(entry.table)),
                    cell(who(event, pairing, entry.team, entry.player, entry.seat), "name"),
                    cell(text(entry.label)),
                    cell(reason_text(entry), "name"),
                    cell(text(clock(entry.at))),
                    cell(text(entry.by) if entry.by else label("规则", "the rules")),
                ]
            )
        for pairing in played.pairings:
            sheet = sheets.get((played.number, pairing.table))
            for record in () if sheet is None else sheet.penalties:
                rows.append(
                    [
                        cell(text(played.number)),
                        cell(text(pairing.table)),
                        cell(record_text(event, pairing, record), "name"),
                        cell(text(record.penalty.label)),
                        cell(text("累计" if record.escalated else record.offence.label), "name"),
                        cell(text(f"第{record.deal}副 {record.at_s:.0f}s")),
                        cell(label("计时", "the clocks")),
                    ]
                )
    if not rows:
        return []
    headers = [
        label("轮", "Round"),
        label("桌", "Table"),
        label("对象", "Player or side"),
        label("判罚", "Penalty"),
        label("原因", "Reason"),
        label("时间", "Time"),
        label("裁判", "By"),
    ]
    return [f"<h2>{label('判罚', 'Penalties')}</h2>", table(headers, rows, "penalties")]


def _corrections(event: Event) -> list[str]:
    rows = []
    for played in event.rounds:
        for change in played.changes:
            if change.previous is None:
                continue
            late = f" ({label('逾时更正', 'past the window, overridden')})" if change.override else ""
            rows.append(
                [
                    cell(text(played.number)),
                    cell(text(change.table)),
                    cell(text(result_text(change.previous))),
                    cell(text(result_text(change.result))),
                    cell(text(clock(change.at))),
                    cell(text(change.by) if change.by else label("规则", "the rules")),
                    cell(text(change.reason) + late, "name"),
                ]
            )
    if not rows:
        return []
    headers = [
        label("轮", "Round"),
        label("桌", "Table"),
        label("原成绩", "Was"),
        label("更正为", "Now"),
        label("时间", "Time"),
        label("更正人", "By"),
        label("原因", "Reason"),
    ]
    return [f"<h2>{label('成绩更正', 'Corrections')}</h2>", table(headers, rows, "corrections")]


def _withdrawals(event: Event) -> list[str]:
    if not event.withdrawals:
        return []
    rows = [
        [
            cell(text(event.team(out.team).display), "name"),
            cell(text(out.label)),
            cell(text(out.last_round)),
            cell(text(out.reason), "name"),
            cell(text(clock(out.at))),
            cell(text(out.by)),
        ]
        for out in event.withdrawals
    ]
    headers = [
        label("队", "Team"),
        label("类别", "Kind"),
        label("完成轮次", "After round"),
        label("原因", "Reason"),
        label("时间", "Time"),
        label("记录人", "By"),
    ]
    return [f"<h2>{label('退赛与取消资格', 'Withdrawals and disqualifications')}</h2>", table(headers, rows)]


def _appeals(event: Event) -> list[str]:
    if not event.appeals:
        return []
    rows = []
    for appeal in event.appeals:
        if appeal.ruling is None:
            verdict, ruling = label("待裁决", "pending"), ""
        else:
            verdict = label("维持申诉", "upheld") if appeal.upheld else label("驳回", "dismissed")
            ruling = f"{text(appeal.ruling)} ({text(appeal.ruled_by)}, {text(clock(appeal.ruled_at))})"
        late = f" ({label('逾期受理', 'accepted past the window')})" if appeal.override else ""
        rows.append(
            [
                cell(text(appeal.number)),
                cell(text(appeal.round)),
                cell(text(appeal.table)),
                cell(text(event.team(appeal.team).display), "name"),
                cell(text(appeal.text) + late, "name"),
                cell(text(clock(appeal.filed_at))),
                cell(verdict),
                cell(ruling, "name"),
            ]
        )
    headers = [
        label("号", "No."),
        label("轮", "Round"),
        label("桌", "Table"),
        label("申诉方", "Team"),
        label("内容", "Appeal"),
        label("提出", "Filed"),
        label("结果", "Outcome"),
        label("裁决", "Ruling"),
    ]
    return [f"<h2>{label('申诉', 'Appeals')}</h2>", table(headers, rows, "appeals")]


def results_page(
    event: Event,
    *,
    title: str | None = None,
    sheets: Sheets | None = None,
    stylesheet: str = DEFAULT_STYLESHEET,
) -> str:
    """The event's results as a printable page: the standings (once the lots are drawn) with each
    team's status and penalties, every round's tables (levels, deals, round points, 28- and 26-point
    scores, the sheets' signatures, the penalties), then the penalties, corrections, withdrawals and
    appeals recorded. ``title`` defaults to the event's name; ``sheets`` are the tables' score sheets
    by (round, table), where the caller keeps them."""
    name = title if title is not None else (event.config.name or "赛事")
    kept: Sheets = sheets or {}
    body = [f"<h1>{text(name)}</h1>", _meta(event)]
    if event.lots:
        body += _standings(event)
    body += [_round(event, played, kept) for played in event.rounds]
    body += _penalties(event, kept)
    body += _corrections(event)
    body += _withdrawals(event)
    body += _appeals(event)
    return page(f"{name} — 成绩 Results", body, stylesheet=stylesheet, kind="results")


__all__ = ["PHASES", "Sheets", "entry_text", "record_text", "result_text", "results_page", "who"]
