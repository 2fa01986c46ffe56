"""draw.common.spread_tables (heap) seats exactly as the plain scan it replaced: the
same choices and the same random draws, so published lots stay reproducible — wherever the
scan already spread every branch evenly over the tables (always at tables of two).  Where it
did not (tables of three: 4 of A, B, C gave [A B C] [A A A]), seats are swapped after it
until every branch is even (test_spread_tables_units)."""
from __future__ import annotations

import random
from collections import Counter, defaultdict

from hypothesis import given, settings
from hypothesis import strategies as st

from pipeline.draw.common import spread_tables


def reference(ids, size, rng, branch_of):
    by_branch = defaultdict(list)
    for e in sorted(ids):
        by_branch[branch_of(e)].append(e)
    for lst in by_branch.values():
        rng.shuffle(lst)
    tie = {b: rng.random() for b in sorted(by_branch)}
    tables = []
    remaining = len(ids)
    while remaining:
        table, used = [], set()
        for _ in range(size):
            live = [b for b, lst in by_branch.items() if lst]
            fresh = [b for b in live if b not in used] or live
            b = min(fresh, key=lambda b: (-len(by_branch[b]), tie[b]))
            table.append(by_branch[b].pop())
            used.add(b)
            tie[b] = rng.random()
        remaining -= size
        rng.shuffle(table)
        tables.append(table)
    rng.shuffle(tables)
    return tables


def even(tables, branch_of) -> bool:
    """Whether no branch has two more entries at one table than at another."""
    counts = [Counter(branch_of(e) for e in t) for t in tables]
    return all(max(c[b] for c in counts) - min(c[b] for c in counts) < 2
               for b in {b for c in counts for b in c})


@settings(max_examples=300, deadline=None)
@given(sizes=st.lists(st.integers(1, 9), min_size=1, max_size=12), size=st.integers(2, 4), seed=st.integers(0, 10**6))
def test_heap_seats_like_the_scan(sizes, size, seed):
    ids = [f"b{b:02d}-{i}" for b, n in enumerate(sizes) for i in range(n)]
    ids = ids[: len(ids) - len(ids) % size] or ids[:0]
    if not ids:
        return
    branch = lambda e: e.split("-")[0]   # noqa: E731
    got, old = spread_tables(ids, size, random.Random(seed), branch), reference(ids, size, random.Random(seed), branch)
    assert even(got, branch)
    if size == 2:
        assert even(old, branch)
    if even(old, branch):
        assert got == old
    else:
        assert sorted(x for t in got for x in t) == sorted(ids)


def test_one_big_branch_is_spread_over_every_table():
    """6 of a, 2 of b, 1 of c: the scan seated [a a a] at one table; now 2 of a at each."""
    ids = [f"a-{i}" for i in range(6)] + ["b-0", "b-1", "c-0"]
    branch = lambda e: e.split("-")[0]   # noqa: E731
    for seed in range(50):
        got = spread_tables(ids, 3, random.Random(seed), branch)
        assert sorted(sorted(branch(x) for x in t) for t in got) == [["a", "a", "b"], ["a", "a", "b"], ["a", "a", "c"]]
        if even(reference(ids, 3, random.Random(seed), branch), branch):
            assert got == reference(ids, 3, random.Random(seed), branch)
