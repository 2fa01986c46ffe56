"""draw.common.spread_tables keeps players of one unit (branch) apart as far as possible at
tables of any size (R2020-D1, R2011-D1 tables of three by lot; handbook 对阵表: 同一单位的
选手尽量不同桌).  The fewest same-unit seat pairs: each unit spread as evenly as it can be
over the tables (q or q+1 at each) — that bound is reached jointly, and the draw reaches it."""
from __future__ import annotations

import itertools
import random
from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from pipeline.draw.common import spread_tables


def branch(e: str) -> str:
    return e.split("-")[0]


def same_pairs(tables) -> int:
    return sum(1 for t in tables for a, b in itertools.combinations(t, 2) if branch(a) == branch(b))


def bound(sizes, tables: int) -> int:
    """Each unit alone at its best: c players over T tables, q or q+1 at each."""
    out = 0
    for c in sizes:
        q, r = divmod(c, tables)
        out += r * (q + 1) * q // 2 + (tables - r) * q * (q - 1) // 2
    return out


def brute(ids, size) -> int:
    """The fewest same-unit pairs over every split of ``ids`` into tables of ``size``."""
    best = None

    def rec(rest, acc):
        nonlocal best
        if best == 0:
            return
        if not rest:
            best = acc if best is None else min(best, acc)
            return
        first, others = rest[0], rest[1:]
        for mates in itertools.combinations(others, size - 1):
            t = (first,) + mates
            left = [x for x in others if x not in mates]
            rec(left, acc + same_pairs([t]))

    rec(list(ids), 0)
    return best


def ids_of(sizes):
    return [f"b{b:02d}-{i}" for b, n in enumerate(sizes) for i in range(n)]


def test_R2020_D1_six_players_four_from_one_unit_never_a_whole_table():
    ids = ids_of([4, 1, 1])
    for seed in range(200):
        tables = spread_tables(ids, 3, random.Random(seed), branch)
        assert sorted(sorted(Counter(branch(x) for x in t).values()) for t in tables) == [[1, 2], [1, 2]], tables


def test_R2020_D1_fifteen_players_eight_from_one_unit_two_each_at_most():
    ids = ids_of([8, 3, 2, 2])
    for seed in range(200):
        tables = spread_tables(ids, 3, random.Random(seed), branch)
        assert max(max(Counter(branch(x) for x in t).values()) for t in tables) == 2, tables
        assert same_pairs(tables) == bound([8, 3, 2, 2], 5)


@settings(max_examples=400, deadline=None)
@given(sizes=st.lists(st.integers(1, 40), min_size=1, max_size=12), size=st.integers(2, 5),
       seed=st.integers(0, 10**6))
def test_R2011_D1_same_unit_pairs_are_the_fewest_possible(sizes, size, seed):
    ids = ids_of(sizes)
    ids = ids[: len(ids) - len(ids) % size]
    if not ids:
        return
    real = Counter(branch(e) for e in ids)
    tables = spread_tables(ids, size, random.Random(seed), branch)
    assert sorted(x for t in tables for x in t) == sorted(ids)
    assert all(len(t) == size for t in tables)
    assert same_pairs(tables) == bound(real.values(), len(ids) // size)


@settings(max_examples=150, deadline=None)
@given(sizes=st.lists(st.integers(1, 6), min_size=1, max_size=5), size=st.sampled_from([2, 3]),
       seed=st.integers(0, 10**6))
def test_the_bound_is_the_brute_force_minimum(sizes, size, seed):
    ids = ids_of(sizes)
    ids = ids[: len(ids) - len(ids) % size]
    if not ids or len(ids) > 9:
        return
    real = Counter(branch(e) for e in ids)
    best = brute(ids, size)
    assert best == bound(real.values(), len(ids) // size)
    assert same_pairs(spread_tables(ids, size, random.Random(seed), branch)) == best


def test_same_seed_same_tables():
    ids = ids_of([8, 3, 2, 2])
    for seed in range(20):
        assert spread_tables(ids, 3, random.Random(seed), branch) == spread_tables(list(reversed(ids)), 3, random.Random(seed), branch)
