"""Maximum-cardinality matching in a general graph (Edmonds' blossom algorithm), for Swiss pairing.

Vertices are ``0 … n−1``; ``allowed[v]`` is the set of neighbours of ``v``. The pairing asks one question
over and over: how many pairs of a set of teams can meet for the first time at most? With that number
it can pair from the top of the standings and keep the fewest repeat pairings possible.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable, Sequence


def maximum_matching(allowed: Sequence[Iterable[int]], vertices: Iterable[int] | None = None) -> list[int]:
    """A maximum matching of the graph restricted to ``vertices`` (all by default): ``mate[v]`` is the
    vertex matched to ``v``, or −1."""
    n = len(allowed)
    alive = [False] * n
    for v in range(n) if vertices is None else vertices:
        alive[v] = True
    adjacency = [[w for w in allowed[v] if alive[w] and w != v] if alive[v] else [] for v in range(n)]
    mate = [-1] * n
    for v in range(n):  # a greedy start; the augmenting paths do the rest
        if alive[v] and mate[v] == -1:
            for w in adjacency[v]:
                if mate[w] == -1:
                    mate[v], mate[w] = w, v
                    break
    for root in range(n):
        if alive[root] and mate[root] == -1:
            _augment(adjacency, mate, root)
    return mate


def matching_size(allowed: Sequence[Iterable[int]], vertices: Iterable[int] | None = None) -> int:
    """The number of pairs in a maximum matching of the graph restricted to ``vertices``."""
    return sum(1 for w in maximum_matching(allowed, vertices) if w != -1) // 2


def _augment(adjacency: list[list[int]], mate: list[int], root: int) -> bool:
    """Search an augmenting path from the free vertex ``root`` (contracting blossoms) and flip it."""
    n = len(adjacency)
    parent = [-1] * n
    base = list(range(n))
    used = [False] * n
    used[root] = True
    queue = deque([root])

    def lowest_common_ancestor(a: int, b: int) -> int:
        seen = [False] * n
        while True:
            a = base[a]
            seen[a] = True
            if mate[a] == -1:
                break
            a = parent[mate[a]]
        while True:
            b = base[b]
            if seen[b]:
                return b
            b = parent[mate[b]]

    def mark_path(v: int, stem: int, child: int, blossom: list[bool]) -> None:
        while base[v] != stem:
            blossom[base[v]] = blossom[base[mate[v]]] = True
            parent[v] = child
            child = mate[v]
            v = parent[mate[v]]

    while queue:
        v = queue.popleft()
        for to in adjacency[v]:
            if base[v] == base[to] or mate[v] == to:
                continue
            if to == root or (mate[to] != -1 and parent[mate[to]] != -1):
                stem = lowest_common_ancestor(v, to)
                blossom = [False] * n
                mark_path(v, stem, to, blossom)
                mark_path(to, stem, v, blossom)
                for i in range(n):
                    if blossom[base[i]]:
                        base[i] = stem
                        if not used[i]:
                            used[i] = True
                            queue.append(i)
            elif parent[to] == -1:
                parent[to] = v
                if mate[to] == -1:
                    while to != -1:  # flip the path back to the root
                        previous = parent[to]
                        further = mate[previous]
                        mate[to], mate[previous] = previous, to
                        to = further
                    return True
                used[mate[to]] = True
                queue.append(mate[to])
    return False


__all__ = ["matching_size", "maximum_matching"]
