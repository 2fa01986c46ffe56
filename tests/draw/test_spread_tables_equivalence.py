"""draw.common.spread_tables (heap) seats exactly as the plain scan it replaced: the
same choices and the same random draws, so published lots stay reproducible."""
from __future__ import annotations

import random
from collections import defaultdict

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


@settings(max_examples=300, deadline=None)
@given(sizes=st.lists(st.integers(1, 9), min_size=1, max_size=12), size=st.integers(2, 4), seed=st.integers(0, 10**6))
def test_heap_seats_like_the_scan(sizes, size, seed):
    ids = [f"b{b:02d}-{i}" for b, n in enumerate(sizes) for i in range(n)]
    ids = ids[: len(ids) - len(ids) % size] or ids[:0]
    if not ids:
        return
    branch = lambda e: e.split("-")[0]   # noqa: E731
    assert spread_tables(ids, size, random.Random(seed), branch) == reference(ids, size, random.Random(seed), branch)


def test_one_big_branch_falls_back_to_sharing_a_table():
    ids = [f"a-{i}" for i in range(6)] + ["b-0", "b-1", "c-0"]
    branch = lambda e: e.split("-")[0]   # noqa: E731
    for seed in range(50):
        assert spread_tables(ids, 3, random.Random(seed), branch) == reference(ids, 3, random.Random(seed), branch)
