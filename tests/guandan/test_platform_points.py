"""One test per rule of the platform's rating points (docs/rules/platform.md#points-per-level to #titles),
each quoting the source's sentence, and hand-computed matches.

Matches are played through the public API: :func:`tests.guandan.scenario.play_match_deal` deals
shuffled hands and drives each deal (tribute and return included) so that a chosen seat takes 上游 and
its partner a chosen place. ``order_for(first, partner_place)`` gives the finishing order, so the 末游
of each deal is known: partner 三游 → ``first + 3``; 下游 → the partner; 二游 (双下) → ``first + 1``, as
the two left take places 3 and 4 in play order from the partner, the last player out.
"""

from __future__ import annotations

import random

import pytest

from cardroom.cards import Rank
from cardroom.guandan.match import Match, shuffled_hands
from cardroom.guandan.platform_points import (
    PLATFORM_POINTS,
    SEED_RULES,
    TITLES,
    MatchPoints,
    PlayerState,
    PointsRules,
    Reason,
    SeatEvent,
    event_points,
    match_points,
    title,
    title_gloss,
    title_of,
)
from cardroom.guandan.ruleset import RuleSet
from tests.guandan.scenario import play_match_deal

R = Rank
PLATFORM_LIKE = RuleSet(name="platform-like", partner_rises=(4, 2, 1))
"""双下 +4 (docs/rules/platform.md#level-up: 如果是双下，赢家升4级), as the platform's rule set has it."""


def played(outcomes: list[tuple[int, int]], rules: RuleSet | None = None, seed: int = 1) -> Match:
    """A match with one deal per outcome: (the seat that takes 上游, the place of its partner)."""
    match = Match(rules) if rules is not None else Match()
    rng = random.Random(seed)
    for first, partner_place in outcomes:
        play_match_deal(match, rng, first, partner_place)
    return match


def with_deal_in_play(match: Match, seed: int = 5) -> Match:
    """Start the next deal of ``match`` and leave it unplayed (a deal in progress)."""
    hands, (holder, _) = shuffled_hands(random.Random(seed))
    match.deal(hands, holder if match.needs_leader else None)
    return match


def streaks(points: MatchPoints) -> tuple[int, ...]:
    return tuple(state.last_place_streak for state in points.states)


def reasons(points: MatchPoints, seat: int) -> list[tuple[int, Reason, int]]:
    return [(item.deal_number, item.reason, item.points) for item in points.seats[seat].items]


# -- titles (级别) -----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("points", "name"),
    [
        (-50, "笨蛋"),
        (-1, "笨蛋"),
        (0, "笨蛋"),
        (1, "坏蛋"),
        (10, "坏蛋"),
        (11, "鸡蛋"),
        (100, "鸡蛋"),
        (101, "活珠"),
        (200, "活珠"),
        (201, "毛蛋"),
        (500, "毛蛋"),
        (501, "铁蛋"),
        (1000, "铁蛋"),
        (1001, "银蛋"),
        (2000, "银蛋"),
        (2001, "金蛋"),
        (5000, "金蛋"),
        (5001, "掼蛋"),
        (10**9, "掼蛋"),
    ],
)
def test_titles_by_points_at_each_boundary(points: int, name: str) -> None:
    """掼蛋方法规则 级别: 〈=0笨蛋 〈=10坏蛋 〈=100鸡蛋 〈=200活珠 〈=500毛蛋 〈=1000铁蛋 〈=2000银蛋
    〈=5000金蛋〉5000掼蛋 — each bound belongs to the title below it; negative points are 笨蛋."""
    assert title(points) == name
    assert PlayerState(points=points).title == name


def test_titles_are_the_nine_of_the_seed_in_order_with_english_glosses() -> None:
    """掼蛋方法规则 级别: nine titles, from 笨蛋 to 掼蛋."""
    assert [entry.name for entry in TITLES] == [
        "笨蛋",
        "坏蛋",
        "鸡蛋",
        "活珠",
        "毛蛋",
        "铁蛋",
        "银蛋",
        "金蛋",
        "掼蛋",
    ]
    assert [entry.upper for entry in TITLES] == [0, 10, 100, 200, 500, 1000, 2000, 5000, None]
    assert title_gloss(0).startswith("dunce")
    assert title_gloss(5001).startswith("Guandan")
    assert title_of(150).gloss == "live pearl (a fertilised egg)"
    assert all(entry.gloss for entry in TITLES)


# -- rule 1: 赢方每升一级加1分，输方扣1分 --------------------------------------------------------------


@pytest.mark.parametrize(("partner_place", "rise"), [(2, 3), (3, 2), (4, 1)])
def test_the_winners_gain_one_point_per_level_risen(partner_place: int, rise: int) -> None:
    """掼蛋方法规则 积分 1: 赢方每升一级加1分 — both players of the 上游's team gain 1 per level their team
    rose."""
    points = match_points(played([(1, partner_place)]))
    assert points.changes[1] == points.changes[3] == rise
    assert reasons(points, 1) == [(1, Reason.WON_LEVELS, rise)]


def test_a_double_down_worth_four_levels_earns_four_points() -> None:
    """掼蛋方法规则 积分 1 with 升级规则: 如果是双下，赢家升4级 — the points follow the rule set's levels."""
    points = match_points(played([(0, 2)], PLATFORM_LIKE))
    assert points.changes == (4, -4, 4, -4)


@pytest.mark.parametrize(("partner_place", "rise"), [(2, 3), (3, 2), (4, 1)])
def test_the_losers_lose_one_point_per_level_the_winners_rose(partner_place: int, rise: int) -> None:
    """掼蛋方法规则 积分 1: 赢方每升一级加1分，输方扣1分 — read under the same 每升一级: each loser −1 per
    level the winners rose, so a deal's points add up to zero."""
    points = match_points(played([(1, partner_place)]))
    assert points.changes == (-rise, rise, -rise, rise)
    assert reasons(points, 0) == [(1, Reason.LOST_LEVELS, -rise)]


def test_the_per_deal_reading_of_the_loss_is_a_parameter() -> None:
    """掼蛋方法规则 积分 1: 输方扣1分 read literally (one point per deal lost) with
    ``loss_per_level=False``."""
    points = match_points(played([(1, 2)]), rules=PointsRules(loss_per_level=False))
    assert points.changes == (-1, 3, -1, 3)


def test_levels_cut_by_the_cap_at_ace_earn_nothing() -> None:
    """掼蛋方法规则 积分 1: 每升一级 — only the levels really risen count: J + 双下 (+3) is A, 3 levels; K +
    双下 is A too, only 1 level."""
    to_king = [(0, 2), (0, 2), (0, 2), (0, 3)]  # 2 → 5 → 8 → J → K
    match = played([*to_king, (0, 2)])  # K → A: 1 level
    assert match.summaries[-1].levels_after[0] == R.ACE
    points = match_points(match)
    assert points.deal_changes(5) == (1, -1, 1, -1)
    assert points.changes == (3 + 3 + 3 + 2 + 1, -12, 12, -12)


def test_a_deal_won_at_ace_without_passing_it_earns_nothing() -> None:
    """掼蛋方法规则 积分 1: 每升一级 — the 上游's team at its own A with the partner 下游 neither passes A nor
    rises: no level, no points."""
    to_ace = [(0, 2)] * 4  # 2 → 5 → 8 → J → A
    match = played([*to_ace, (0, 4)])
    assert not match.is_over
    points = match_points(match)
    assert points.deal_changes(5) == (0, 0, 0, 0)
    assert reasons(points, 0)[-1] == (5, Reason.WON_LEVELS, 0)
    assert reasons(points, 1)[-1] == (5, Reason.LOST_LEVELS, 0)


# -- rule 5: 打到A，胜方加10分，输方不扣分 -------------------------------------------------------------


def test_passing_ace_gives_the_winners_ten_and_costs_the_losers_nothing() -> None:
    """掼蛋方法规则 积分 5: 打到A，胜方加10分，输方不扣分(鼓励打完全局) — the deal that passes A (and ends the
    match): each winner +10, each loser 0."""
    match = played([(0, 2)] * 4 + [(2, 3)])
    assert match.is_over
    assert match.passed_ace
    points = match_points(match)
    assert points.deal_changes(5) == (10, 0, 10, 0)
    assert reasons(points, 2)[-1] == (5, Reason.PASSED_ACE, 10)
    assert reasons(points, 3)[-1] == (5, Reason.OPPONENTS_PASSED_ACE, 0)
    assert points.changes == (22, -12, 22, -12)


def test_the_pass_ace_bonus_goes_to_the_match_winner_only_when_it_passes_ace() -> None:
    """掼蛋方法规则 积分 5: 打到A — a match ended by its deal limit passes no A and earns no bonus."""
    match = Match(max_deals=2)
    rng = random.Random(3)
    play_match_deal(match, rng, 0, 2)
    play_match_deal(match, rng, 0, 2)
    assert match.is_over
    assert not match.passed_ace
    assert match_points(match).changes == (6, -6, 6, -6)


# -- rule 6: 为避免炒分，末游7次以上不再扣分和反加分 ------------------------------------------------------


def test_the_seventh_last_place_in_a_row_moves_no_points() -> None:
    """掼蛋方法规则 积分 6: 为避免炒分，末游7次以上不再扣分和反加分 — from the 7th deal in a row that a player
    finishes 末游 (7次以上: 7 included), that deal costs the losers nothing and earns the winners nothing."""
    before = (PlayerState(), PlayerState(), PlayerState(), PlayerState(points=50, last_place_streak=6))
    points = match_points(played([(0, 3)]), states=before)  # order 0, 1, 2, 3: seat 3 末游
    assert points.changes == (0, 0, 0, 0)
    assert all(reasons(points, seat) == [(1, Reason.LAST_PLACE_CAP, 0)] for seat in range(4))
    assert points.states[3] == PlayerState(points=50, last_place_streak=7)
    assert "7 times in a row" in points.seats[0].items[0].describe()


def test_the_sixth_last_place_in_a_row_still_counts() -> None:
    """掼蛋方法规则 积分 6: 末游7次以上 — the first six in a row count as usual."""
    before = (PlayerState(), PlayerState(), PlayerState(), PlayerState(last_place_streak=5))
    points = match_points(played([(0, 3)]), states=before)
    assert points.changes == (2, -2, 2, -2)
    assert streaks(points) == (0, 0, 0, 6)


def test_the_cap_also_holds_back_the_pass_ace_bonus() -> None:
    """掼蛋方法规则 积分 6: 不再扣分和反加分 — no points are added for a deal whose 末游 is capped, the +10 of
    passing A included."""
    match = played([(2, 2)] * 3 + [(0, 3)], PLATFORM_LIKE)  # 2 → 6 → T → A, then pass A; seat 3 always 末游
    assert match.passed_ace
    fresh = match_points(match)
    assert fresh.changes == (22, -12, 22, -12)
    assert streaks(fresh) == (0, 0, 0, 4)
    before = (PlayerState(), PlayerState(), PlayerState(), PlayerState(last_place_streak=3))
    capped = match_points(match, states=before)
    assert capped.changes == (12, -12, 12, -12)
    assert capped.deal_changes(4) == (0, 0, 0, 0)


def test_the_cap_holds_when_the_last_place_is_on_the_winning_team() -> None:
    """掼蛋方法规则 积分 6: 末游7次以上不再扣分和反加分 — the 末游's deal moves no points whichever team it is
    on (here the 上游's partner finished 末游)."""
    before = (PlayerState(), PlayerState(), PlayerState(last_place_streak=6), PlayerState())
    points = match_points(played([(0, 4)]), states=before)  # order 0, 1, 3, 2: seat 2 末游
    assert points.changes == (0, 0, 0, 0)
    assert streaks(points) == (0, 0, 7, 0)


def test_a_streak_counts_within_a_match_and_resets_when_the_player_is_not_last() -> None:
    """掼蛋方法规则 积分 6: 末游7次以上 read as 7 in a row (so a weak player is not capped for good): the
    count grows with each 末游 and goes back to 0 after any other place."""
    match = played([(0, 3)] * 6 + [(0, 3)])  # seat 3 末游 seven times; team 0 2 → … → A, then passes A
    points = match_points(match)
    assert points.changes == (12, -12, 12, -12)  # six deals of +2, the seventh capped (no +10)
    assert points.deal_changes(7) == (0, 0, 0, 0)
    assert streaks(points) == (0, 0, 0, 7)
    reset = match_points(played([(0, 3), (1, 2)]), states=[PlayerState(last_place_streak=6)] * 4)
    assert streaks(reset) == (0, 0, 1, 0)  # deal 1: seat 3 末游 (7th: capped); deal 2: seat 2 末游
    assert reset.deal_changes(1) == (0, 0, 0, 0)
    assert reset.deal_changes(2) == (-3, 3, -3, 3)


def test_no_cap_when_the_parameter_is_off() -> None:
    """掼蛋方法规则 积分 6 as a parameter: ``last_place_cap=None`` counts every deal."""
    before = (PlayerState(), PlayerState(), PlayerState(), PlayerState(last_place_streak=20))
    points = match_points(played([(0, 3)]), states=before, rules=PointsRules(last_place_cap=None))
    assert points.changes == (2, -2, 2, -2)


# -- rules 2, 3 and 4: leaving ----------------------------------------------------------------------


def test_leaving_between_deals_costs_two() -> None:
    """掼蛋方法规则 积分 3: 牌局中途退出扣2分 — leaving the match (牌局) midway, between two deals."""
    match = played([(0, 3)])
    event = SeatEvent(1, "left", 1, R.TWO, during_play=False)
    points = match_points(match, [event])
    assert reasons(points, 1) == [(1, Reason.LOST_LEVELS, -2), (1, Reason.LEFT_BETWEEN_DEALS, -2)]
    assert points.changes == (2, -4, 2, -2)


def test_leaving_during_a_deal_costs_four() -> None:
    """掼蛋方法规则 积分 2: 打牌期间退出或逃跑(掉线2分钟不上线续玩)扣4分 — leaving while a deal is played."""
    match = with_deal_in_play(played([(0, 3)]))  # team 0 at 4
    points = match_points(match, [SeatEvent(2, "left", 2, R.FOUR)])
    assert reasons(points, 2) == [(1, Reason.WON_LEVELS, 2), (2, Reason.LEFT_DURING_PLAY, -4)]
    assert points.changes == (2, -2, -2, -2)


def test_a_disconnection_not_back_within_two_minutes_costs_four() -> None:
    """掼蛋方法规则 积分 2: 逃跑(掉线2分钟不上线续玩)扣4分 — a disconnection during a deal, not back within 2
    minutes."""
    match = with_deal_in_play(Match())
    points = match_points(match, [SeatEvent(3, "disconnected", 1, R.TWO)])
    assert points.changes == (0, 0, 0, -4)
    assert reasons(points, 3) == [(1, Reason.LEFT_DURING_PLAY, -4)]
    assert "2 minutes" in points.seats[3].items[0].describe()


def test_a_disconnection_between_deals_counts_as_leaving_midway() -> None:
    """掼蛋方法规则 积分 3: 牌局中途退出扣2分 — between deals, a player gone for good has left the match
    midway, however (rule 4 names 中途退出 and 掉线逃跑 side by side)."""
    points = match_points(played([(0, 3)]), [SeatEvent(3, "disconnected", 1, R.TWO, during_play=False)])
    assert reasons(points, 3)[-1] == (1, Reason.LEFT_BETWEEN_DEALS, -2)


@pytest.mark.parametrize("kind", ["left", "disconnected"])
@pytest.mark.parametrize("during_play", [True, False])
def test_leaving_at_king_or_above_costs_ten(kind: str, during_play: bool) -> None:
    """掼蛋方法规则 积分 4: 打到K以上中途退出或掉线逃跑扣10分 — the leaver's team stands at K (以上: K
    included)."""
    match = played([(0, 2), (0, 2), (0, 2), (0, 3)])  # team 0: 2 → 5 → 8 → J → K
    assert match.levels[0] == R.KING
    if during_play:
        match = with_deal_in_play(match)
    number = 5 if during_play else 4
    event = SeatEvent(0, "left" if kind == "left" else "disconnected", number, R.KING, during_play)
    points = match_points(match, [event])
    assert reasons(points, 0)[-1] == (number, Reason.LEFT_AT_HIGH_LEVEL, -10)
    assert points.changes[0] == 11 - 10


def test_leaving_at_ace_costs_ten() -> None:
    """掼蛋方法规则 积分 4: 打到K以上 — A is above K."""
    match = with_deal_in_play(played([(0, 2)] * 4))
    assert match.levels[0] == R.ACE
    points = match_points(match, [SeatEvent(2, "left", 5, R.ACE)])
    assert points.changes[2] == 12 - 10


def test_the_level_of_the_leavers_own_team_decides_the_high_level_penalty() -> None:
    """掼蛋方法规则 积分 4: 打到K以上 — read as the leaver's team having played up to K (我们打到K了); an
    opponent of a team at K leaving costs the ordinary penalty."""
    match = with_deal_in_play(played([(0, 2), (0, 2), (0, 2), (0, 3)]))
    points = match_points(match, [SeatEvent(1, "left", 5, R.TWO)])
    assert reasons(points, 1)[-1] == (5, Reason.LEFT_DURING_PLAY, -4)


def test_the_high_level_penalty_replaces_the_others() -> None:
    """掼蛋方法规则 积分 2–4: one leave, one penalty — −10 at K or above instead of −4 or −2, not on top."""
    high = SeatEvent(0, "left", 3, R.KING)
    assert event_points(high).points == -10
    assert event_points(SeatEvent(0, "left", 3, R.QUEEN)).points == -4
    assert event_points(SeatEvent(0, "left", 3, R.QUEEN, during_play=False)).points == -2
    assert event_points(high).reason.seed_rule == SEED_RULES[Reason.LEFT_AT_HIGH_LEVEL]


def test_a_leaver_takes_no_part_in_later_deals() -> None:
    """After leaving, the seat's points and streak stay as they were: the deals finished after it (the
    deal it left included) belong to whoever plays on."""
    match = played([(3, 3), (0, 2), (0, 3)])  # deal 1: order 3, 0, 1, 2 (末游 2); then team 0 +3, +2
    before = [PlayerState(points=5, last_place_streak=2)] * 4
    early = SeatEvent(2, "left", 1, R.TWO, during_play=False)
    points = match_points(match, [early], states=before)
    assert reasons(points, 2) == [(1, Reason.LOST_LEVELS, -2), (1, Reason.LEFT_BETWEEN_DEALS, -2)]
    assert points.states[2] == PlayerState(points=1, last_place_streak=3)
    assert points.changes == (-2 + 3 + 2, 2 - 3 - 2, -4, 2 - 3 - 2)
    during = SeatEvent(0, "disconnected", 2, R.TWO)
    points = match_points(match, [during], states=before)
    assert reasons(points, 0) == [(1, Reason.LOST_LEVELS, -2), (2, Reason.LEFT_DURING_PLAY, -4)]
    assert points.states[0] == PlayerState(points=-1, last_place_streak=0)


def test_events_that_do_not_fit_the_match_are_refused() -> None:
    """An event names a deal that started (during play) or finished (between deals) in a match not yet
    over, and its team's level at that moment; one event per seat."""
    match = played([(0, 3)])  # team 0 at 4, deal 2 not dealt
    with pytest.raises(ValueError, match="1 deals started"):
        match_points(match, [SeatEvent(0, "left", 2, R.FOUR)])
    with pytest.raises(ValueError, match="1 deals finished"):
        match_points(match, [SeatEvent(0, "left", 2, R.FOUR, during_play=False)])
    with pytest.raises(ValueError, match="level 4 at deal 1, not 2"):
        match_points(match, [SeatEvent(0, "left", 1, R.TWO, during_play=False)])
    with pytest.raises(ValueError, match="two events"):
        match_points(match, [SeatEvent(1, "left", 1, R.TWO), SeatEvent(1, "disconnected", 1, R.TWO)])
    over = played([(0, 2)] * 4 + [(0, 2)])
    with pytest.raises(ValueError, match="the match was over"):
        match_points(over, [SeatEvent(1, "left", 5, R.TWO, during_play=False)])
    assert match_points(over, [SeatEvent(1, "left", 5, R.TWO)]).changes[1] == -12 - 4


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        ((4, "left", 1, R.TWO), "seat"),
        ((0, "quit", 1, R.TWO), "'left' or 'disconnected'"),
        ((0, "left", 0, R.TWO), "count from 1"),
        ((0, "left", 1, R.BIG_JOKER), "2…A"),
    ],
)
def test_a_seat_event_is_checked_when_made(arguments: tuple[object, ...], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        SeatEvent(*arguments)  # type: ignore[arg-type]


def test_the_points_rules_and_states_are_checked() -> None:
    with pytest.raises(ValueError, match="pass_ace_bonus"):
        PointsRules(pass_ace_bonus=-1)
    with pytest.raises(ValueError, match="high_level"):
        PointsRules(high_level=R.SMALL_JOKER)
    with pytest.raises(ValueError, match="last_place_cap"):
        PointsRules(last_place_cap=0)
    with pytest.raises(ValueError, match="last_place_streak"):
        PlayerState(last_place_streak=-1)
    with pytest.raises(ValueError, match="four player states"):
        match_points(Match(), states=[PlayerState()])
    assert PointsRules() == PLATFORM_POINTS


# -- hand-computed matches ---------------------------------------------------------------------------


def test_a_hand_computed_unfinished_match() -> None:
    """Four deals (competition levels):
    1. seat 1 上游, partner 三游: team 1 2 → 4; order 1, 2, 3, 0 (末游 0): team 1 +2, team 0 −2.
    2. seat 0 上游, partner 二游: team 0 2 → 5; order 0, 2, 3, 1 (末游 1): team 0 +3, team 1 −3.
    3. seat 0 上游, partner 下游: team 0 5 → 6; order 0, 1, 3, 2 (末游 2): team 0 +1, team 1 −1.
    4. seat 3 上游, partner 二游: team 1 4 → 7; order 3, 1, 2, 0 (末游 0): team 1 +3, team 0 −3.
    Team 0: −2 + 3 + 1 − 3 = −1; team 1: +1. Streaks: seat 0 末游 in deals 1 and 4 → 1 (not in a row)."""
    match = played([(1, 3), (0, 2), (0, 4), (3, 2)])
    assert match.levels == [R.SIX, R.SEVEN]
    points = match_points(match)
    assert [points.deal_changes(number) for number in (1, 2, 3, 4)] == [
        (-2, 2, -2, 2),
        (3, -3, 3, -3),
        (1, -1, 1, -1),
        (-3, 3, -3, 3),
    ]
    assert points.changes == (-1, 1, -1, 1)
    assert streaks(points) == (1, 0, 0, 0)
    assert [summary.result.places[3] for summary in match.summaries] == [0, 1, 2, 0]
    assert [item.describe() for item in points.seats[0].items] == [
        "deal 1: -2 the opponents rose 2 levels (输方扣1分)",
        "deal 2: +3 the winners rose 3 levels (赢方每升一级加1分)",
        "deal 3: +1 the winners rose 1 level (赢方每升一级加1分)",
        "deal 4: -3 the opponents rose 3 levels (输方扣1分)",
    ]
    per_deal = match_points(match, rules=PointsRules(loss_per_level=False))
    assert per_deal.changes == (-1 + 3 + 1 - 1, 2 - 1 - 1 + 3, 2, 3)


def test_a_hand_computed_match_to_ace_with_a_leaver() -> None:
    """Platform-like levels (双下 +4):
    1. seat 0 上游, partner 二游: team 0 2 → 6: +4 / −4 (末游 1).
    2. seat 1 上游, partner 下游: team 1 2 → 3: +1 / −1 (末游 3, partner of the 上游).
    3. seat 2 上游, partner 二游: team 0 6 → T: +4 / −4 (末游 3).
    Seat 3 disconnects during deal 4 (its team at 3): −4, and no part in later deals.
    4. seat 0 上游, partner 二游: team 0 T → A: +4 / −4 (末游 1; nothing for seat 3, gone).
    5. seat 2 上游, partner 三游: team 0 passes A: +10 / 0 (末游 1).
    Seat 0: 4 − 1 + 4 + 4 + 10 = 21; seat 1: −4 + 1 − 4 − 4 + 0 = −11; seat 3: −4 + 1 − 4 − 4 = −11."""
    match = played([(0, 2), (1, 4), (2, 2), (0, 2), (2, 3)], PLATFORM_LIKE)
    assert match.passed_ace
    assert match.winner == 0
    before = [PlayerState(points=p) for p in (0, 12, 100, 3)]
    points = match_points(match, [SeatEvent(3, "disconnected", 4, R.THREE)], states=before)
    assert points.changes == (21, -11, 21, -11)
    assert [state.points for state in points.states] == [21, 1, 121, -8]
    assert [state.title for state in points.states] == ["鸡蛋", "坏蛋", "活珠", "笨蛋"]
    assert streaks(points) == (0, 2, 0, 2)  # seat 1 末游 in deals 4 and 5; seat 3 in 2 and 3, then gone
    assert [summary.result.places[3] for summary in match.summaries] == [1, 3, 3, 1, 1]
    assert reasons(points, 3)[-1] == (4, Reason.LEFT_DURING_PLAY, -4)


def test_points_carry_from_match_to_match() -> None:
    """A player's state after one match is the state before the next: points add up and the 末游 streak
    runs on across matches."""
    first = match_points(played([(0, 3)] * 3))  # seat 3 末游 three times; team 0 2 → 8
    assert first.changes == (6, -6, 6, -6)
    assert streaks(first) == (0, 0, 0, 3)
    second = match_points(played([(0, 3)] * 4, seed=2), states=first.states)  # seat 3: 末游 4 … 7
    assert second.deal_changes(4) == (0, 0, 0, 0)  # the 7th in a row
    assert second.changes == (6, -6, 6, -6)
    assert [state.points for state in second.states] == [12, -12, 12, -12]
    assert [state.title for state in second.states] == ["鸡蛋", "笨蛋", "鸡蛋", "笨蛋"]


def test_a_match_in_progress_counts_its_finished_deals_only() -> None:
    match = with_deal_in_play(played([(2, 2)]))
    points = match_points(match)
    assert points.changes == (3, -3, 3, -3)
    assert points.deal_changes(2) == (0, 0, 0, 0)
    assert match_points(Match()).changes == (0, 0, 0, 0)
