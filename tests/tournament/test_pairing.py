"""Pairing: the blossom matching underneath, round robin completeness and sides, and Swiss pairing's
properties over many random events (Hypothesis)."""

from __future__ import annotations

import itertools
import random
from collections import Counter

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from cardroom.tournament import Entrant, RoundDraw, round_robin, swiss_round
from cardroom.tournament.matching import matching_size, maximum_matching
from cardroom.tournament.pairing import assign_sides, repeat_count

# -- the matching --------------------------------------------------------------------------------------


def brute_matching(allowed: list[set[int]], vertices: list[int]) -> int:
    if not vertices:
        return 0
    first, rest = vertices[0], vertices[1:]
    best = brute_matching(allowed, rest)
    for index, other in enumerate(rest):
        if other in allowed[first]:
            best = max(best, 1 + brute_matching(allowed, rest[:index] + rest[index + 1 :]))
    return best


@st.composite
def graphs(draw: st.DrawFn) -> tuple[list[set[int]], list[int]]:
    n = draw(st.integers(1, 10))
    allowed: list[set[int]] = [set() for _ in range(n)]
    for a, b in itertools.combinations(range(n), 2):
        if draw(st.booleans()):
            allowed[a].add(b)
            allowed[b].add(a)
    vertices = draw(st.lists(st.sampled_from(range(n)), unique=True))
    return allowed, sorted(vertices)


@settings(max_examples=300, deadline=None)
@given(graphs())
def test_blossom_matching_is_maximum(graph: tuple[list[set[int]], list[int]]) -> None:
    """Edmonds' algorithm finds as many pairs as an exhaustive search, and a valid matching."""
    allowed, vertices = graph
    mate = maximum_matching(allowed, vertices)
    for v, w in enumerate(mate):
        if w != -1:
            assert mate[w] == v
            assert w in allowed[v]
            assert v in vertices
            assert w in vertices
    assert matching_size(allowed, vertices) == brute_matching(allowed, vertices)


def test_blossom_on_an_odd_cycle_with_a_tail() -> None:
    """A five-cycle with a pendant vertex needs a blossom contraction to find the perfect matching."""
    edges = [(0, 1), (1, 2), (2, 3), (3, 4), (4, 0), (4, 5)]
    allowed: list[set[int]] = [set() for _ in range(6)]
    for a, b in edges:
        allowed[a].add(b)
        allowed[b].add(a)
    assert matching_size(allowed) == 3


# -- round robin ---------------------------------------------------------------------------------------


@pytest.mark.parametrize("count", range(2, 15))
def test_round_robin_is_complete(count: int) -> None:
    """循环赛 by the circle method: every two teams meet exactly once; each team plays every round but
    one bye when the number is odd; the sides even out (0&2 and 1&3 differ by at most one)."""
    teams = [f"T{i}" for i in range(count)]
    rounds = round_robin(teams)
    assert len(rounds) == (count - 1 if count % 2 == 0 else count)
    met = Counter(frozenset(pairing.teams) for draw in rounds for pairing in draw.pairings)
    assert set(met) == {frozenset(pair) for pair in itertools.combinations(teams, 2)}
    assert set(met.values()) == {1}
    byes = Counter(draw.bye for draw in rounds if draw.bye is not None)
    assert byes == (Counter(teams) if count % 2 else Counter())
    sides = {team: [0, 0] for team in teams}
    for draw in rounds:
        assert sorted(draw.teams()) == sorted(teams)
        assert [pairing.table for pairing in draw.pairings] == list(range(1, count // 2 + 1))
        for pairing in draw.pairings:
            for side, team in enumerate(pairing.teams):
                sides[team][side] += 1
    assert max(abs(first - second) for first, second in sides.values()) <= 1


def test_round_robin_rejects_duplicates() -> None:
    with pytest.raises(ValueError, match="distinct"):
        round_robin(["A", "A", "B"])


# -- sides -------------------------------------------------------------------------------------------


def test_sides_alternate() -> None:
    """The team with fewer rounds at 0 & 2 takes them; at equal counts the one that sat 1 & 3 last; then
    the higher team on odd tables, the lower on even tables."""
    fresh_a, fresh_b = Entrant("A"), Entrant("B")
    assert assign_sides(fresh_a, fresh_b, 1).teams == ("A", "B")
    assert assign_sides(fresh_a, fresh_b, 2).teams == ("B", "A")
    behind = Entrant("B", sides=(0, 1), last_side=1)
    ahead = Entrant("A", sides=(1, 0), last_side=0)
    assert assign_sides(ahead, behind, 1).teams == ("B", "A")
    last_13 = Entrant("B", sides=(1, 1), last_side=1)
    last_02 = Entrant("A", sides=(1, 1), last_side=0)
    assert assign_sides(last_02, last_13, 1).teams == ("B", "A")


# -- Swiss ---------------------------------------------------------------------------------------------


def fewest_repeats(entrants: list[Entrant]) -> int:
    """Exhaustive: the fewest repeat pairings (a second bye counting as one) of any pairing."""
    count = len(entrants)
    bye = count if count % 2 else None
    vertices = list(range(count)) + ([count] if bye is not None else [])

    def cost(a: int, b: int) -> int:
        if b == bye:
            return int(entrants[a].byes > 0)
        return int(entrants[b].team in entrants[a].opponents)

    def best(left: list[int]) -> int:
        if not left:
            return 0
        first, rest = left[0], left[1:]
        return min(cost(first, other) + best(rest[:i] + rest[i + 1 :]) for i, other in enumerate(rest))

    return best(vertices)


def severe_clash_avoidable(entrants: list[Entrant]) -> bool:
    """Exhaustive: whether some pairing with the fewest repeats seats no two teams together that are
    both two or more rounds off balance on the same side."""
    count = len(entrants)
    bye = count if count % 2 else None
    vertices = list(range(count)) + ([count] if bye is not None else [])

    def cost(a: int, b: int) -> tuple[int, int]:
        if b == bye:
            return int(entrants[a].byes > 0), 0
        first, second = entrants[a], entrants[b]
        severe = first.balance * second.balance > 0 and min(abs(first.balance), abs(second.balance)) >= 2
        return int(second.team in first.opponents), int(severe)

    def best(left: list[int]) -> tuple[int, int]:
        if not left:
            return 0, 0
        first, rest = left[0], left[1:]
        options = []
        for i, other in enumerate(rest):
            here, further = cost(first, other), best(rest[:i] + rest[i + 1 :])
            options.append((here[0] + further[0], here[1] + further[1]))
        return min(options)

    return best(vertices)[1] == 0


def simulate(count: int, rounds: int, seed: int, check: bool) -> tuple[list[RoundDraw], dict[str, Entrant]]:
    """A Swiss event of random results (win, draw or loss), pairing from standings by points then lot.
    With ``check``, each round's repeats are compared with the exhaustive fewest."""
    rng = random.Random(seed)
    state = {f"T{i}": Entrant(f"T{i}") for i in range(count)}
    lot = {team: index for index, team in enumerate(state)}
    draws = []
    for _ in range(rounds):
        ordered = sorted(state.values(), key=lambda e: (-e.score, lot[e.team]))
        draw = swiss_round(ordered)
        assert sorted(draw.teams()) == sorted(state)
        if check:
            assert repeat_count(draw, ordered) == fewest_repeats(ordered)
            if severe_clash_avoidable(ordered):
                for pairing in draw.pairings:
                    first, second = (state[team] for team in pairing.teams)
                    same_side = first.balance * second.balance > 0
                    assert not (same_side and min(abs(first.balance), abs(second.balance)) >= 2)
        for pairing in draw.pairings:
            first, second = (state[team] for team in pairing.teams)
            assert first.balance <= second.balance, "the team with fewer rounds at 0 & 2 takes them"
            outcome = rng.choice([0, 1, None])
            for side, (me, other) in enumerate(((first, second), (second, first))):
                points = 1 if outcome is None else (2 if outcome == side else 0)
                sides = (me.sides[0] + (side == 0), me.sides[1] + (side == 1))
                state[me.team] = Entrant(
                    me.team, me.score + points, me.opponents | {other.team}, me.byes, sides, side
                )
        if draw.bye is not None:
            me = state[draw.bye]
            state[me.team] = Entrant(me.team, me.score + 2, me.opponents, me.byes + 1, me.sides, me.last_side)
        draws.append(draw)
    return draws, state


@settings(max_examples=120, deadline=None)
@given(st.integers(2, 10), st.integers(1, 11), st.integers(0, 10**6))
@example(9, 10, 154405)  # round 10: every pairing a repeat; two teams two under at 1 & 3 met
def test_swiss_no_repeat_while_avoidable(count: int, rounds: int, seed: int) -> None:
    """Swiss: each round has the fewest repeat pairings possible (none while a repeat-free pairing
    exists), a bye going to a team without one while possible, and no two teams two rounds off balance
    on the same side meet while some pairing with the fewest repeats avoids it — against an exhaustive
    search."""
    simulate(count, rounds, seed, check=True)


@st.composite
def standings(draw: st.DrawFn) -> list[Entrant]:
    """Any standings: who has met whom, byes, sides and points drawn freely, so that many teams are far
    off balance and many pairs have met (states a simulated event reaches rarely)."""
    count = draw(st.integers(2, 10))
    teams = [f"T{i}" for i in range(count)]
    met: dict[str, set[str]] = {team: set() for team in teams}
    for a, b in itertools.combinations(teams, 2):
        if draw(st.booleans()):
            met[a].add(b)
            met[b].add(a)
    entrants = [
        Entrant(
            team,
            draw(st.integers(0, 6)),
            frozenset(met[team]),
            draw(st.integers(0, 1)),
            (draw(st.integers(0, 5)), draw(st.integers(0, 5))),
            draw(st.sampled_from([None, 0, 1])),
        )
        for team in teams
    ]
    return sorted(entrants, key=lambda entrant: -entrant.score)


@settings(max_examples=150, deadline=None)
@given(standings())
def test_swiss_guarantees_on_any_standings(entrants: list[Entrant]) -> None:
    """docs/tournaments.md (Swiss, Sides), on arbitrary standings: the fewest repeats possible, and no
    two teams two or more rounds off balance on the same side meet (first meeting or repeat) while
    some pairing with the fewest repeats avoids it — against the exhaustive search."""
    draw = swiss_round(entrants)
    assert sorted(draw.teams()) == sorted(entrant.team for entrant in entrants)
    assert repeat_count(draw, entrants) == fewest_repeats(entrants)
    if severe_clash_avoidable(entrants):
        by_team = {entrant.team: entrant for entrant in entrants}
        for pairing in draw.pairings:
            first, second = (by_team[team] for team in pairing.teams)
            assert not (
                first.balance * second.balance > 0 and min(abs(first.balance), abs(second.balance)) >= 2
            )


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 10**6))
def test_swiss_eight_teams_five_rounds_never_repeat(seed: int) -> None:
    """8 teams, 5 rounds: a repeat-free pairing always exists, so no two teams meet twice; sides stay
    within the chess-like bound (|rounds at 0&2 − rounds at 1&3| ≤ 3 over 5 rounds, usually 1)."""
    draws, state = simulate(8, 5, seed, check=False)
    met = Counter(frozenset(p.teams) for draw in draws for p in draw.pairings)
    assert set(met.values()) == {1}
    assert all(abs(entrant.balance) <= 3 for entrant in state.values())


def test_swiss_side_balance_over_many_events() -> None:
    """Sides alternate as evenly as the pairings allow: over 300 events of 8–12 teams and 5 rounds,
    every team ends one round off balance (the fewest with 5 rounds)."""
    for seed in range(300):
        _, state = simulate(8 + 2 * (seed % 3), 5, seed, check=False)
        assert all(abs(entrant.balance) == 1 for entrant in state.values()), seed


def test_swiss_keeps_two_teams_off_balance_on_one_side_apart() -> None:
    """Two leaders both two rounds over at 0 & 2 would push one of them three over: while a pairing
    without a repeat avoids it, each meets a team that wants 0 & 2 instead, though that costs a score
    gap; where only a repeat would avoid it, they meet."""

    def entrant(team: str, score: int, over: bool, met: str = "") -> Entrant:
        sides, last = ((3, 1), 0) if over else ((1, 3), 1)
        return Entrant(team, score, frozenset(met), 0, sides, last)

    apart = swiss_round(
        [entrant("A", 8, True), entrant("B", 8, True), entrant("C", 0, False), entrant("D", 0, False)]
    )
    assert {frozenset(p.teams) for p in apart.pairings} == {frozenset("AC"), frozenset("BD")}
    assert all(p.teams[0] in "CD" for p in apart.pairings)
    together = swiss_round(
        [
            entrant("A", 8, True, "CD"),
            entrant("B", 8, True, "CD"),
            entrant("C", 0, False, "AB"),
            entrant("D", 0, False, "AB"),
        ]
    )
    assert {frozenset(p.teams) for p in together.pairings} == {frozenset("AB"), frozenset("CD")}


def test_swiss_keeps_teams_off_balance_apart_among_repeats() -> None:
    """docs/tournaments.md (Sides): the rule holds for repeat pairings too. Every team has met every
    other, so each pairing is a repeat; C and D are both two rounds over at 1 & 3, and pairing by score
    alone (A–B, C–D) would seat them together although A–C, B–D (or A–D, B–C) repeats no more."""
    everyone = frozenset("ABCD")

    def entrant(team: str, score: int, sides: tuple[int, int], last: int) -> Entrant:
        return Entrant(team, score, everyone - {team}, 0, sides, last)

    entrants = [
        entrant("A", 8, (2, 2), 0),
        entrant("B", 6, (2, 2), 1),
        entrant("C", 4, (1, 3), 1),
        entrant("D", 4, (1, 3), 1),
    ]
    draw = swiss_round(entrants)
    assert repeat_count(draw, entrants) == 2
    met = {frozenset(p.teams) for p in draw.pairings}
    assert frozenset("CD") not in met
    assert met == {frozenset("AC"), frozenset("BD")}
    assert all(p.teams[0] in "CD" for p in draw.pairings)


def test_swiss_round_one_is_dutch() -> None:
    """Round one, all on 0 points, in lot order: the top half meets the bottom half (1–5, 2–6, …)."""
    draw = swiss_round([Entrant(f"T{i}") for i in range(1, 9)])
    assert [frozenset(p.teams) for p in draw.pairings] == [
        frozenset({"T1", "T5"}),
        frozenset({"T2", "T6"}),
        frozenset({"T3", "T7"}),
        frozenset({"T4", "T8"}),
    ]
    assert [p.teams[0] for p in draw.pairings] == ["T1", "T6", "T3", "T8"]


def test_swiss_score_groups_and_bye() -> None:
    """Winners meet winners, the odd team floats down, the lowest team without a bye gets it."""
    entrants = [
        Entrant("A", 2, frozenset({"E"})),
        Entrant("B", 2, frozenset({"D"})),
        Entrant("C", 2, byes=1),
        Entrant("D", 0, frozenset({"B"})),
        Entrant("E", 0, frozenset({"A"})),
    ]
    draw = swiss_round(entrants)
    assert draw.bye == "E"
    assert [frozenset(p.teams) for p in draw.pairings] == [frozenset({"A", "B"}), frozenset({"C", "D"})]


def test_swiss_bye_goes_to_the_lowest_team_when_the_rest_pair_without_repeats() -> None:
    """docs/tournaments.md: the bye goes to the lowest team without one, as long as the others can still
    be paired with the fewest repeats — not to a team tied above it whose usual opponent suits a side
    preference better (C and D both want seats 1 & 3; E wants 0 & 2)."""
    entrants = [
        Entrant("A", 2, frozenset({"B", "D"}), sides=(1, 0), last_side=0),
        Entrant("B", 2, frozenset({"A"}), sides=(0, 1), last_side=1),
        Entrant("C", 0, frozenset({"E"}), sides=(1, 0), last_side=0),
        Entrant("D", 0, frozenset({"A"}), sides=(1, 0), last_side=0),
        Entrant("E", 0, frozenset({"C"}), sides=(0, 1), last_side=1),
    ]
    draw = swiss_round(entrants)
    assert draw.bye == "E"
    assert repeat_count(draw, entrants) == 0


def test_swiss_bye_skips_the_lowest_when_that_would_force_a_repeat() -> None:
    """The lowest team takes the bye only while the rest can be paired with the fewest repeats: D has met
    every team but E, so E's bye would force D to a repeat; D takes the bye."""
    entrants = [
        Entrant("A", 2, frozenset({"B", "D"})),
        Entrant("B", 2, frozenset({"A", "D"})),
        Entrant("C", 0, frozenset({"D"})),
        Entrant("D", 0, frozenset({"C", "A", "B"})),
        Entrant("E", 0),
    ]
    draw = swiss_round(entrants)
    assert repeat_count(draw, entrants) == 0
    assert draw.bye == "D"


def test_swiss_rejects_duplicates() -> None:
    with pytest.raises(ValueError, match="distinct"):
        swiss_round([Entrant("A"), Entrant("A")])
