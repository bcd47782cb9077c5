"""What a round prints for its tables: the pairing list (编排表) with every seat by direction, a table
card (桌牌) per table, and a blank score sheet (记分表) per table — each card and sheet a printed page.

Seats by direction follow :mod:`cardroom.tournament.seating` (docs/tournaments.md, "Seats by direction");
the sheet's content follows :mod:`cardroom.tournament.sheets` (docs/tournaments.md, "Score sheets").
"""

from __future__ import annotations

from collections.abc import Iterator

from cardroom.guandan.ruleset import COMPETITION
from cardroom.tournament.director import PenaltyEntry
from cardroom.tournament.event import Event, Team
from cardroom.tournament.formats import MatchFormat, level_name
from cardroom.tournament.lateness import late_foul_deals
from cardroom.tournament.pairing import Pairing
from cardroom.tournament.printouts.markup import DEFAULT_STYLESHEET, cell, clock, label, page, table, text
from cardroom.tournament.rounds import Round
from cardroom.tournament.seating import (
    CHECKER,
    RECORDER,
    SIDE_NAMES,
    SIDE_WINDS,
    TableSeat,
    Wind,
    table_seats,
)

OPEN_FORMAT_LINES = 24
"""Deal lines on a sheet when the format sets no number of deals (to A, or timed only)."""

TIE_LINES = 2
"""Lines beyond a fixed number of deals, for the deals added when the levels are equal."""

BLANK_PENALTY_LINES = 3
"""Empty penalty lines on a sheet, below the penalties recorded when it was printed."""

START_LEVEL = 2
""""双方从打2开始" (docs/rules/competition.md#levels)."""


def team_label(event: Event, team: Team) -> str:
    """A team's name as printed (escaped), marked 退赛 or 取消资格 when it is out of the event."""
    out = (
        f' <span class="out">{text(event.withdrawal_of(team.id).label)}</span>'
        if event.is_out(team.id)
        else ""
    )
    return f'<span class="team">{text(team.display)}</span>{out}'


def reason_text(entry: PenaltyEntry) -> str:
    """A penalty's reason as printed (escaped HTML): 累计 for an escalation, else the offence and the
    reason (the offence once: a lateness reason reads 迟到5分01秒 by itself)."""
    if entry.escalated:
        return label("累计", "accumulated")
    if entry.reason.startswith(entry.offence.label):
        return text(entry.reason)
    return text(f"{entry.offence.label}: {entry.reason}")


def wind_label(wind: Wind) -> str:
    return label(wind.chinese, wind.english)


def side_label(side: int) -> str:
    return label(*SIDE_NAMES[side])


def round_title(played: Round) -> str:
    return label(f"第{played.number}轮", f"Round {played.number}")


def _event_name(event: Event) -> str:
    return event.config.name or "赛事"


def _seats(event: Event, pairing: Pairing) -> dict[Wind, TableSeat]:
    return table_seats(event, pairing)


def _pairing_rows(event: Event, played: Round) -> Iterator[list[str]]:
    for pairing in sorted(played.pairings, key=lambda p: p.table):
        seats = _seats(event, pairing)
        row = [cell(text(pairing.table), "number")]
        for side in (0, 1):
            team = seats[SIDE_WINDS[side][0]].team
            row.append(cell(team_label(event, team), "name"))
            row += [cell(text(seats[wind].player.display), "name") for wind in SIDE_WINDS[side]]
        yield row


def _bye(event: Event, played: Round) -> list[str]:
    if played.draw.bye is None:
        return []
    team = event.team(played.draw.bye)
    return [f'<p class="bye">{label("轮空", "Bye")}: {team_label(event, team)}</p>']


def _round_state(played: Round) -> str:
    if played.started_at is None:
        return label("已公布，未开始", "published, not started")
    return label("开始", "started") + " " + text(clock(played.started_at))


def pairing_list(event: Event, round_number: int, *, stylesheet: str = DEFAULT_STYLESHEET) -> str:
    """A round's pairing list (编排表): each table's number, its two teams, and every player at the
    direction where they sit (南北: the pairing's first team; 东西: the second), then the bye."""
    played = event.round(round_number)
    headers = [label("桌号", "Table")]
    for side in (0, 1):
        headers.append(side_label(side))
        headers += [wind_label(wind) for wind in SIDE_WINDS[side]]
    body = [
        f"<h1>{text(_event_name(event))}</h1>",
        f"<h2>{round_title(played)} {label('编排', 'pairings')}</h2>",
        f'<p class="meta">{_round_state(played)} · '
        f"{label('按桌号和方向入座', 'sit at your table and direction')} · "
        f"{label('出牌逆时针：北、西、南、东', 'play goes counter-clockwise: N, W, S, E')}</p>",
        table(headers, _pairing_rows(event, played), "pairings"),
        *_bye(event, played),
    ]
    title = f"{_event_name(event)} — 第{played.number}轮编排 Round {played.number} pairings"
    return page(title, body, stylesheet=stylesheet, kind="pairing-list")


def _compass(seats: dict[Wind, TableSeat], centre: str) -> str:
    parts = ['<div class="compass">']
    for wind in (Wind.NORTH, Wind.WEST, Wind.EAST, Wind.SOUTH):
        seat = seats[wind]
        parts.append(
            f'<div class="seat {wind.name.lower()}"><span class="wind">{wind_label(wind)}</span>'
            f'<span class="player">{text(seat.player.display)}</span>'
            f'<span class="team">{text(seat.team.display)}</span></div>'
        )
    parts.append(f'<div class="centre"><span>{centre}</span></div></div>')
    return "".join(parts)


def _sides(event: Event, seats: dict[Wind, TableSeat]) -> str:
    rows = []
    for side in (0, 1):
        first, second = (seats[wind] for wind in SIDE_WINDS[side])
        players = " · ".join(
            f"{wind_label(seat.wind)} {text(seat.player.display)}" for seat in (first, second)
        )
        rows.append(
            [cell(side_label(side)), cell(team_label(event, first.team), "name"), cell(players, "name")]
        )
    return table([label("方", "Side"), label("队", "Team"), label("牌手", "Players")], rows, "sides")


def table_cards(event: Event, round_number: int, *, stylesheet: str = DEFAULT_STYLESHEET) -> str:
    """A card per table of the round (one printed page each): the table number large, the event and
    round, the four seats laid out as at the table (North at the top), and the two teams."""
    played = event.round(round_number)
    body = []
    for pairing in sorted(played.pairings, key=lambda p: p.table):
        seats = _seats(event, pairing)
        number = f'<span class="number">{pairing.table}</span>'
        body.append(
            '<section class="page card">'
            f'<p class="event">{text(_event_name(event))} · {round_title(played)}</p>'
            f'<p class="table-number">{label("桌号", "Table")} {number}</p>'
            f"{_compass(seats, label('桌号', 'Table') + ' ' + number)}{_sides(event, seats)}</section>"
        )
    title = f"{_event_name(event)} — 第{played.number}轮桌牌 Round {played.number} table cards"
    return page(title, body, stylesheet=stylesheet, kind="table-cards")


def deal_line_count(fmt: MatchFormat) -> int:
    """How many deal lines a blank sheet has: the format's deals (and :data:`TIE_LINES` for the deals
    a tie adds), else :data:`OPEN_FORMAT_LINES`."""
    if fmt.deals is None:
        return OPEN_FORMAT_LINES
    return fmt.deals + (TIE_LINES if fmt.tie_extra_deal else 0)


def _penalty_row(event: Event, entry: PenaltyEntry, seats: dict[Wind, TableSeat]) -> list[str]:
    where = next((seat for seat in seats.values() if seat.player.id == entry.player), None)
    if where is None:
        side = next(side for side in (0, 1) if seats[SIDE_WINDS[side][0]].team.id == entry.team)
        who = f"{side_label(side)} {text(event.team(entry.team).display)}"
    else:
        who = f"{wind_label(where.wind)} {text(where.player.display)}"
    return [
        cell(text(clock(entry.at))),
        cell(who, "name"),
        cell(text(entry.label)),
        cell(reason_text(entry), "name"),
        cell(text(entry.by) if entry.by else label("规则", "the rules")),
    ]


def _late_foul_lines(sides: tuple[int, ...]) -> list[list[str]]:
    """The deal lines that fouls for lateness filled before the table plays (docs/rules/competition.md#late):
    each deal ends as the late side's 双下, the other side rising (#foul)."""
    lines = []
    for number, (side, summary) in enumerate(zip(sides, late_foul_deals(sides), strict=True), start=1):
        after = summary.levels_after
        lines.append(
            [
                cell(text(number), "number"),
                cell(text(level_name(int(summary.level)))),
                cell(text("—")),
                cell(side_label(1 - side)),
                cell(text(summary.result.rise(COMPETITION))),
                cell(text(level_name(int(after[0])))),
                cell(text(level_name(int(after[1])))),
                cell(text("—")),
                cell(f"{label('犯规', 'foul')} ({side_label(side)} {label('迟到', 'late')})", "name"),
            ]
        )
    return lines


def _sheet(event: Event, played: Round, pairing: Pairing) -> str:
    seats = _seats(event, pairing)
    fmt = event.config.format
    header = [
        [
            cell(label("赛事", "Event")),
            cell(text(_event_name(event)), "name"),
            cell(label("赛制", "Format")),
            cell(text(fmt.describe()), "name"),
        ],
        [
            cell(label("轮次", "Round")),
            cell(text(played.number)),
            cell(label("桌号", "Table")),
            cell(f'<span class="number">{pairing.table}</span>'),
        ],
    ]
    side_headers = [
        label("方", "Side"),
        label("队", "Team"),
        label("座位", "Seats"),
        label("开始级数", "Level at start"),
    ]
    side_rows = []
    for side in (0, 1):
        first, second = (seats[wind] for wind in SIDE_WINDS[side])
        players = " · ".join(f"{wind_label(s.wind)} {text(s.player.display)}" for s in (first, second))
        side_rows.append(
            [
                cell(side_label(side)),
                cell(team_label(event, first.team), "name"),
                cell(players, "name"),
                cell(text(level_name(START_LEVEL))),
            ]
        )
    recorder, checker = seats[RECORDER], seats[CHECKER]
    duty = (
        f'<p class="meta">{label("西家记录，北家复查", "West records each deal, North checks it")}: '
        f"{wind_label(RECORDER)} {text(recorder.player.display)} · {wind_label(CHECKER)} "
        f"{text(checker.player.display)}</p>"
    )
    deal_headers = [
        label("副", "Deal"),
        label("级牌", "Level played"),
        label("上游", "First out"),
        label("胜方", "Winning side"),
        label("升级", "Levels up"),
        label("南北级数", "N/S level after"),
        label("东西级数", "E/W level after"),
        label("北家复查", "North's check"),
        label("备注", "Note"),
    ]
    ruled = _late_foul_lines(played.late_fouls(pairing.table))
    deals = (
        ruled[n - 1] if n <= len(ruled) else [cell(text(n), "number")] + [cell("", "blank")] * 8
        for n in range(1, max(deal_line_count(fmt), len(ruled)) + 1)
    )
    penalty_headers = [
        label("时间", "Time"),
        label("牌手", "Player"),
        label("判罚", "Penalty"),
        label("原因", "Reason"),
        label("裁判", "Referee"),
    ]
    recorded = [_penalty_row(event, entry, seats) for entry in played.table_penalties(pairing.table)]
    blank = [[cell("", "blank")] * 5 for _ in range(BLANK_PENALTY_LINES)]
    result_headers = [
        label("南北级数", "N/S level"),
        label("东西级数", "E/W level"),
        label("副数", "Deals"),
        label("胜方", "Winner"),
        label("积分", "Round points"),
        label("28分制", "28-point score"),
    ]
    signatures = "".join(
        f'<div class="signature"><span class="line"></span>{caption}</div>'
        for caption in (
            f"{side_label(0)} {text(seats[Wind.NORTH].team.display)}",
            f"{side_label(1)} {text(seats[Wind.EAST].team.display)}",
            label("裁判", "Referee"),
        )
    )
    return "".join(
        [
            '<section class="page scoresheet">',
            f"<h1>{label('记分表', 'Score sheet')}</h1>",
            table([], header, "sheet-header"),
            table(side_headers, side_rows, "sides"),
            duty,
            table(deal_headers, deals, "deals"),
            f"<h2>{label('判罚', 'Penalties')}</h2>",
            table(penalty_headers, [*recorded, *blank], "penalties"),
            f"<h2>{label('成绩', 'Result')}</h2>",
            table(result_headers, [[cell("", "blank")] * 6], "result"),
            f"<h2>{label('签字确认', 'Signatures')}</h2>",
            f'<div class="signatures">{signatures}</div>',
            "</section>",
        ]
    )


def score_sheets(
    event: Event, round_number: int, table_number: int | None = None, *, stylesheet: str = DEFAULT_STYLESHEET
) -> str:
    """Blank score sheets (记分表) for the round's tables (or one table), one printed page each: the
    event, round, table, teams and seats, the levels at the start, a line per deal to fill in (西家
    records, 北家 checks: docs/tournaments.md, "Score sheets"), the penalties recorded so far and room for
    more, the result, and lines for both sides' and the referee's signatures."""
    played = event.round(round_number)
    pairings = sorted(played.pairings, key=lambda p: p.table)
    if table_number is not None:
        pairings = [played.pairing(table_number)]
    body = [_sheet(event, played, pairing) for pairing in pairings]
    title = f"{_event_name(event)} — 第{played.number}轮记分表 Round {played.number} score sheets"
    return page(title, body, stylesheet=stylesheet, kind="score-sheets")


__all__ = [
    "BLANK_PENALTY_LINES",
    "OPEN_FORMAT_LINES",
    "TIE_LINES",
    "deal_line_count",
    "pairing_list",
    "reason_text",
    "score_sheets",
    "table_cards",
    "team_label",
]
