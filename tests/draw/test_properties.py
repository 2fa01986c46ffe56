"""Hypothesis property tests: every format, whole simulated events, random results."""
from __future__ import annotations

from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from pipeline.draw import FORMATS
from pipeline.draw.common import rounds_of

from .helpers import make_entries, simulate, summary
from .invariants import check_first_moves, check_placements, check_rematches, check_rounds

FAST = settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])

counts = st.integers(2, 500)
small = st.integers(2, 40)
seeds = st.integers(0, 10_000)
branches = st.integers(1, 12)


def _ids(n: int) -> set[str]:
    return {e.id for e in make_entries(n)}


@FAST
@given(n=counts, seed=seeds, b=branches, pool=st.integers(1, 5))
def test_knockout_whole_event(n, seed, b, pool):
    s = simulate("knockout", make_entries(n, b), {"final_pool": pool}, seed=seed, result_seed=seed + 1)
    check_rounds(s, "knockout")
    ko, rr = rounds_of(s, "ko"), rounds_of(s, "rr")
    size = len(rr[0].plan["pool"]) if rr else 1
    assert size <= pool and (size == n or len(ko[-1].plan["alive"]) > pool)
    if rr:
        assert len(rr) == rr[0].plan["of"]
    check_placements(s, "knockout", _ids(n))


@FAST
@given(n=st.integers(3, 500), seed=seeds, b=branches, fill=st.sampled_from(["revival", "bye"]))
def test_tables_of_three_whole_event(n, seed, b, fill):
    s = simulate("tables_of_three", make_entries(n, b), {"fill": fill}, seed=seed, result_seed=seed)
    check_rounds(s, "tables_of_three")
    final = s.rounds[-1]
    assert final.stage == "final" and len(final.matches) == 1 and len(final.matches[0].sides) == 3
    assert all(r.stage == "tables" for r in s.rounds[:-1])
    pl = FORMATS.get("tables_of_three").placements(s)
    assert [p.entry for p in pl[:3]] and {p.entry for p in pl[:3]} == set(final.matches[0].sides)
    check_placements(s, "tables_of_three", _ids(n))


@FAST
@given(n=counts, seed=seeds, b=branches, adv=st.integers(1, 3), third=st.booleans())
def test_groups_knockout_whole_event(n, seed, b, adv, third):
    s = simulate("groups_knockout", make_entries(n, b), {"advance": adv, "third_place": third},
                 seed=seed, result_seed=seed, no_draw_stages=("ko", "final"))
    check_rounds(s, "groups_knockout")
    final = [r for r in s.rounds if r.plan.get("final")]
    if final:
        assert final[0] is s.rounds[-1]
        thirds = [m for m in final[0].matches if m.group == "三四名"]
        assert len(thirds) <= (1 if third else 0)
    check_placements(s, "groups_knockout", _ids(n))


@FAST
@given(n=counts, seed=seeds, b=branches, rounds=st.integers(1, 5), groups=st.integers(1, 6),
       absent_rate=st.sampled_from([0.0, 0.1, 0.3]))
@example(n=6, seed=2, b=3, rounds=3, groups=2, absent_rate=0.3)    # a group left with one pair
def test_groups_standings_whole_event(n, seed, b, rounds, groups, absent_rate):
    import random
    entries = make_entries(n, b, team_size=2)
    r = random.Random(seed)
    absent = frozenset(p.key for e in entries for p in e.players if r.random() < absent_rate)
    s = simulate("groups_standings", entries, {"rounds": rounds, "groups": groups}, seed=seed,
                 result_seed=seed, absent=absent)
    check_rounds(s, "groups_standings")
    check_rematches(s)
    plan = s.rounds[0].plan
    present = {m["id"] for m in plan["merged"]}
    for e in entries:
        keys = [p.key for p in e.players]
        if all(k not in absent for k in keys):
            present.add(e.id)
    placed = {p.entry for p in FORMATS.get("groups_standings").placements(s)}
    assert placed == present
    # R2016-F2: no group is left with a single pair (it could not play), unless the whole
    # event is down to one pair
    assert all(len(m) > 1 for m in plan["groups"].values()) or len(present) == 1, plan["groups"]
    if not absent:          # R2016-F2: only the check-in moves a pair; groups drawn odd keep a bye
        assert plan["moved"] == []
    # R2016-F2: a group left odd sends one of its own pairs (at most one) to another group;
    # unless a pair then moved into it, it ends even (or empty)
    sources = [move["from"] for move in plan["moved"]]
    assert len(sources) == len(set(sources))
    last = {move["id"]: move["to"] for move in plan["moved"]}
    assert all(e in plan["groups"][g] for e, g in last.items())
    for move in plan["moved"]:
        assert move["to"] != move["from"]
        if not any(m["to"] == move["from"] for m in plan["moved"]):
            assert len(plan["groups"].get(move["from"], [])) % 2 == 0


@FAST
@given(n=counts, seed=seeds, b=branches)
def test_swiss_whole_event(n, seed, b):
    s = simulate("swiss", make_entries(n, b), seed=seed, result_seed=seed)
    check_rounds(s, "swiss")
    check_rematches(s)
    check_first_moves(s)
    check_placements(s, "swiss", _ids(n))


@FAST
@given(n=small, seed=seeds, b=branches, fmt=st.sampled_from(["round_robin", "pairs_movement"]))
def test_round_robins_whole_event(n, seed, b, fmt):
    s = simulate(fmt, make_entries(n, b), seed=seed, result_seed=seed)
    check_rounds(s, fmt)
    pairs = [frozenset(m.sides) for r in s.rounds for m in r.matches if not m.bye]
    assert len(pairs) == len(set(pairs)) == n * (n - 1) // 2
    check_placements(s, fmt, _ids(n))


@FAST
@given(n=counts, seed=seeds, fmt=st.sampled_from(["round_robin", "pairs_movement"]))
def test_round_robins_large_first_rounds(n, seed, fmt):
    s = simulate(fmt, make_entries(n), seed=seed, stop_after=3)
    check_rounds(s, fmt)


FORMAT_CASES = [("knockout", {}, 2, False), ("tables_of_three", {}, 3, False),
                ("groups_knockout", {"advance": 2}, 2, True), ("groups_standings", {}, 2, True),
                ("swiss", {}, 2, True), ("round_robin", {}, 2, True), ("pairs_movement", {}, 2, True)]


@settings(max_examples=20, deadline=None)
@given(case=st.sampled_from(FORMAT_CASES), n=st.integers(2, 60), seed=seeds)
def test_same_seed_same_draw_and_entry_order_irrelevant(case, n, seed):
    fmt, opts, lo, draws = case
    n = max(n, lo)
    team = 2 if fmt == "groups_standings" else 1
    nd = ("ko", "final") if fmt == "groups_knockout" else ("ko",)
    a = simulate(fmt, make_entries(n, team_size=team), opts, seed=seed, result_seed=seed, no_draw_stages=nd)
    b = simulate(fmt, make_entries(n, team_size=team), opts, seed=seed, result_seed=seed, no_draw_stages=nd)
    c = simulate(fmt, make_entries(n, team_size=team), opts, seed=seed, result_seed=seed, no_draw_stages=nd,
                 shuffle_entries=True)
    assert summary(a.rounds) == summary(b.rounds) == summary(c.rounds)
    assert [r.notes for r in a.rounds] == [r.notes for r in c.rounds]
