"""Golden tests named after the client rules they reproduce."""
from __future__ import annotations

import random
from collections import Counter

import pytest

from pipeline.draw import FORMATS
from pipeline.draw.base import Waiting
from pipeline.draw.common import PlayoffWaiting, shown_list
from pipeline.model import MatchResult, Outcome, Playoff, SideResult

from .helpers import EVENT, add_merged_entries, bye_result, make_entries, new_state, simulate


def _sizes(rnd):
    return (sum(not m.bye for m in rnd.matches), sum(m.bye for m in rnd.matches))


def test_R2020_F1_round_sizes():
    s = simulate("knockout", make_entries(22, branches=11), seed=2020, allow_draw=False)
    assert [(r.stage, _sizes(r)) for r in s.rounds] == [
        ("ko", (11, 0)), ("ko", (5, 1)), ("ko", (3, 0)),
        ("final", (1, 1)), ("final", (1, 1)), ("final", (1, 1))]
    # two entries of one branch never meet in round 1 (11 branches × 2)
    for m in s.rounds[0].matches:
        assert s.branch_of(m.sides[0]) != s.branch_of(m.sides[1])
    assert "晋级签" in s.rounds[1].notes[0]
    pool = s.rounds[3].plan["pool"]
    assert set(pool) == {s.results[m.key].winner() for m in s.rounds[2].matches}
    pl = FORMATS.get("knockout").placements(s)
    assert {p.entry for p in pl[:3]} == set(pool)
    losers63 = {x for m in s.rounds[2].matches for x in m.sides} - set(pool)
    assert {p.entry for p in pl[3:6]} == losers63 and all("6进3" in p.tier for p in pl[3:6])


def test_R2020_F1_knockout_draw_waits_for_playoff():
    st = new_state(make_entries(4))
    fmt = FORMATS.get("knockout")
    r1 = fmt.next_round(st, random.Random(1))
    st.rounds.append(r1)
    m0, m1 = r1.matches
    st.results[m0.key] = MatchResult(m0, (SideResult(Outcome.DRAW, 1), SideResult(Outcome.DRAW, 1)))
    st.results[m1.key] = MatchResult(m1, (SideResult(Outcome.WIN, 2), SideResult(Outcome.LOSS, 0)))
    with pytest.raises(PlayoffWaiting) as w:
        fmt.next_round(st, random.Random(1))
    assert "加赛" in str(w.value) and w.value.ties[0][2] == m0.sides
    st.playoffs.append(Playoff(EVENT, "ko", "", (m0.sides[1], m0.sides[0])))
    final = fmt.next_round(st, random.Random(1))
    assert set(final.matches[0].sides) == {m0.sides[1], m1.sides[0]}


def test_R2020_D1_tables_revival():
    s = simulate("tables_of_three", make_entries(22, branches=11), seed=2020)
    assert [(r.stage, _sizes(r)) for r in s.rounds] == [
        ("tables", (7, 1)), ("tables", (3, 0)), ("final", (1, 0))]
    r1, r2, final = s.rounds
    assert len(r2.plan["revived"]) == 1
    revived = r2.plan["revived"][0]
    assert revived in r1.entries() and revived != s.results[
        next(m for m in r1.matches if revived in m.sides).key].winner()
    assert any("复活" in n for n in r2.notes)
    bye = next(m.sides[0] for m in r1.matches if m.bye)
    assert bye in r2.entries()
    # R2020-D2: final table by place, then the three round-2 runners-up
    pl = FORMATS.get("tables_of_three").placements(s)
    res = s.results[final.matches[0].key]
    by_place = [sid for sid, sr in sorted(zip(final.matches[0].sides, res.sides), key=lambda x: x[1].place)]
    assert [p.entry for p in pl[:3]] == by_place
    runners = {sid for m in r2.matches for sid, sr in zip(m.sides, s.results[m.key].sides) if sr.place == 2}
    assert {p.entry for p in pl[3:6]} == runners


def test_R2020_D2_a_round_1_winner_corrected_after_round_2_is_not_placed_last():
    """Table 1 of round 1 corrected after round 2 was published (its winner swapped with the
    runner-up; the draw is not redrawn): the corrected winner, in no later round, is placed
    with round 1's table winners (before its runners-up), not below every entry."""
    import dataclasses

    from pipeline.model import MatchResult

    s = simulate("tables_of_three", make_entries(22, branches=11), seed=2020)
    r1 = s.rounds[0]
    m = next(m for m in r1.matches if not m.bye and not set(m.sides) <= set(s.rounds[1].entries()))
    res = s.results[m.key]
    first = next(i for i, sr in enumerate(res.sides) if sr.place == 1)
    second = next(i for i, sr in enumerate(res.sides) if sr.place == 2)
    sides = list(res.sides)
    sides[first], sides[second] = (dataclasses.replace(res.sides[first], place=2),
                                   dataclasses.replace(res.sides[second], place=1))
    s.results[m.key] = MatchResult(m, tuple(sides))
    corrected = m.sides[second]
    assert corrected not in s.rounds[1].entries()
    pl = FORMATS.get("tables_of_three").placements(s)
    mine = next(p for p in pl if p.entry == corrected)
    assert mine.tier == f"{r1.stage_name}第1名"
    r1_runners = [p for p in pl if p.tier == f"{r1.stage_name}第2名"]
    assert r1_runners and mine.rank < min(p.rank for p in r1_runners)
    assert [p for p in pl if p.tier == ""] == []


def test_R2020_D1_fill_by_bye():
    s = simulate("tables_of_three", make_entries(22), {"fill": "bye"}, seed=1)
    assert _sizes(s.rounds[1]) == (2, 2)       # 8 advance: 2 tables + 2 byes
    assert not s.rounds[1].plan["revived"]


def _decisive(st, rnd, winners):
    st.rounds.append(rnd)
    for m in rnd.matches:
        if m.bye:
            st.results[m.key] = bye_result(m)
            continue
        a, b = m.sides
        if winners(m) == "draw":
            sides = (SideResult(Outcome.DRAW, 1), SideResult(Outcome.DRAW, 1))
        elif winners(m) == a:
            sides = (SideResult(Outcome.WIN, 3), SideResult(Outcome.LOSS, 0))
        else:
            sides = (SideResult(Outcome.LOSS, 0), SideResult(Outcome.WIN, 3))
        st.results[m.key] = MatchResult(m, sides)


def test_R2011_F2_halves_and_third_place():
    fmt = FORMATS.get("groups_knockout")
    st = new_state(make_entries(16, branches=4), {"groups": 4})
    rng = random.Random(2011)
    while True:                              # group stage: lower id always wins → no ties
        r = fmt.next_round(st, rng)
        if r.stage != "group":
            break
        _decisive(st, r, lambda m: min(m.sides))
    groups = st.rounds[0].plan["groups"]
    assert len(groups) == 4 and all(len(g) == 4 for g in groups.values())
    winners = {min(g) for g in groups.values()}
    assert r.stage_name.startswith("半决赛")
    assert {x for slot in r.plan["bracket"] for x in slot} == winners
    assert any("上半区" in n for n in r.notes)
    _decisive(st, r, lambda m: max(m.sides))
    final = fmt.next_round(st, rng)
    assert final.plan["final"] and final.stage == "final"
    semi_losers = {min(m.sides) for m in r.matches}
    third = [m for m in final.matches if m.group == "三四名"]
    assert len(third) == 1 and set(third[0].sides) == semi_losers
    assert {x for x in final.matches[0].sides} == {max(m.sides) for m in r.matches}
    _decisive(st, final, lambda m: min(m.sides))
    assert fmt.next_round(st, rng) is None
    pl = fmt.placements(st)
    assert pl[0].entry == min(final.matches[0].sides) and pl[2].entry == min(third[0].sides)
    assert [p.rank for p in pl[:4]] == [1, 2, 3, 4]


def test_R2011_F2_a_double_forfeit_keeps_the_halves_apart():
    """Both sides of a quarter-final absent: its neighbour in the same half has a bye into the
    final, and the other half's winners play the semi-final (the winners were once closed
    up, and a top-half winner met a bottom-half one)."""
    fmt = FORMATS.get("groups_knockout")
    st = new_state(make_entries(16, branches=16), {"groups": 8})
    rng = random.Random(1)
    while True:
        r = fmt.next_round(st, rng)
        if r.stage != "group":
            break
        _decisive(st, r, lambda m: min(m.sides))
    qf = r.plan["bracket"]
    assert len(qf) == 4 and all(len(slot) == 2 for slot in qf)
    st.rounds.append(r)
    for i, m in enumerate(r.matches):
        if i == 1:
            st.results[m.key] = MatchResult(m, (SideResult(Outcome.ABSENT), SideResult(Outcome.ABSENT)))
        else:
            st.results[m.key] = MatchResult(m, (SideResult(Outcome.WIN, 3), SideResult(Outcome.LOSS, 0)))
    top = r.matches[0].sides[0]
    bottom = [m.sides[0] for m in r.matches[2:]]
    semi = fmt.next_round(st, rng)
    assert semi.plan["bracket"] == [[top], bottom]
    assert [set(m.sides) for m in semi.matches if not m.bye] == [set(bottom)]
    assert any("均弃权或缺席" in n for n in semi.notes)
    _decisive(st, semi, lambda m: min(m.sides))
    final = fmt.next_round(st, rng)
    assert final.plan["final"] and set(final.matches[0].sides) == {top, min(bottom)}


@pytest.mark.parametrize("n, options, qualifiers", [(5, {"advance": 2}, 2), (6, {"groups": 1, "advance": 4}, 4)])
def test_R2011_F2_one_group_sending_several_plays_the_knockout(n, options, qualifiers):
    """One group with ``advance`` ≥ 2: its qualifiers play the knockout (the event once ended
    after the group, counting groups instead of qualifiers)."""
    st = simulate("groups_knockout", make_entries(n, n), options, seed=1)
    ko = [r for r in st.rounds if r.stage != "group"]
    assert ko, [r.stage_name for r in st.rounds]
    assert len({e for r in ko[:1] for m in r.matches for e in m.sides}) == qualifiers


@pytest.mark.parametrize("seed", range(6))
def test_R2011_F2_a_groups_two_qualifiers_are_drawn_into_different_halves(seed):
    """``advance: 2``: the halves were dealt in one run through the groups, so every group
    began on the same half — all the winners in one half, all the runners-up in the other
    (the winners knocked each other out, and a runner-up was sure to reach the final).  Each
    group's two qualifiers are now in different halves, and so are half of the winners."""
    import dataclasses

    st = simulate("groups_knockout", make_entries(16, 16), {"groups": 4, "advance": 2, "third_place": True}, seed=seed)
    first_ko = next(r for r in st.rounds if r.stage != "group")
    groups_done = dataclasses.replace(st, rounds=[r for r in st.rounds if r.stage == "group"])
    qual = FORMATS.get("groups_knockout").qualifiers(groups_done)       # each group: winner, runner-up
    slots = first_ko.plan["bracket"]
    half_of = {e: i * 2 // len(slots) for i, slot in enumerate(slots) for e in slot}
    assert len(qual) == 4 and all(half_of[w] != half_of[r] for _, (w, r) in qual), (qual, slots)
    assert sorted(half_of[w] for _, (w, _) in qual) == [0, 0, 1, 1], (qual, slots)    # two winners in each half


def test_R2011_F1_tie_for_first_waits_for_playoff():
    fmt = FORMATS.get("groups_knockout")
    st = new_state(make_entries(6), {"groups": 2, "advance": 1})     # (2 groups advance 2 by default)
    rng = random.Random(5)
    for _ in range(3):                          # two groups of 3: three Berger rounds
        r = fmt.next_round(st, rng)
        assert r.stage == "group"
        _decisive(st, r, lambda m: "draw")      # everyone level in both groups
    with pytest.raises(PlayoffWaiting) as w:
        fmt.next_round(st, rng)
    assert isinstance(w.value, Waiting) and "加赛" in str(w.value) and "A组第" in str(w.value)
    for stage, group, tied in w.value.ties:
        st.playoffs.append(Playoff(EVENT, stage, group, tuple(sorted(tied, reverse=True))))
    final = fmt.next_round(st, rng)
    groups = st.rounds[0].plan["groups"]
    assert set(final.matches[0].sides) == {max(g) for g in groups.values()}


def test_R2016_F1_groups_do_not_depend_on_the_check_in():
    """R2016-F1: the groups are the branch chairs' lot, drawn days before the event; the
    check-in (R2016-F2) only re-forms pairs within them.  The runner seeds round 1 from the
    inputs hash, which holds the check-in: with the same 34 pairs, one player absent dealt
    every group anew (auditor, repro_checkin.sh).  Now the groups are dealt with the lot's
    seed — round 1's seed with no one absent — whoever is absent."""
    from types import SimpleNamespace

    from pipeline.run import draw_inputs_hash, draw_seed

    t = SimpleNamespace(spec=SimpleNamespace(seed="t2016-poker", id="t2016-poker"))
    entries = make_entries(34, branches=12, team_size=2)
    fmt = FORMATS.get("groups_standings")
    lot = draw_seed(t, EVENT, 1, draw_inputs_hash(entries, [], {}, frozenset()))

    def drawn(absent: frozenset[str]) -> dict:
        st = new_state(entries, {"groups": 4}, absent)
        st.lot_seed = lot                      # as the runner's draw_state sets it
        seed = draw_seed(t, EVENT, 1, draw_inputs_hash(entries, [], {}, absent))   # the round's, as run.py
        return fmt.next_round(st, random.Random(int(seed, 16))).plan

    base = drawn(frozenset())
    group_of = {e: g for g, m in base["groups"].items() for e in m}
    assert sorted(group_of) == sorted(e.id for e in entries) and base["merged"] == base["moved"] == []
    # with no one absent the lot's seed is round 1's own: the groups are those drawn before the fix
    old = new_state(entries, {"groups": 4})
    assert fmt.next_round(old, random.Random(int(lot, 16))).plan["groups"] == base["groups"]
    p = [e.players for e in entries]
    for absent in (frozenset({p[5][0].key}),                                   # one player (the audit)
                   frozenset({p[7][0].key, p[7][1].key, p[20][1].key, p[31][0].key}),
                   frozenset({p[0][1].key, p[1][0].key, p[2][0].key, p[33][1].key})):
        plan = drawn(absent)
        touched = ({e.id for e in entries if any(x.key in absent for x in e.players)}   # removed, re-formed, dropped
                   | {m["id"] for m in plan["moved"]})
        now = {e: g for g, m in plan["groups"].items() for e in m if e in group_of}
        assert now == {e: g for e, g in group_of.items() if e not in touched}, sorted(absent)
        for m in plan["merged"]:               # a pair re-formed within a group stays in it
            origin = {group_of[f] for f in m["from"]}
            if len(origin) == 1 and m["id"] not in {mv["id"] for mv in plan["moved"]}:
                assert m["id"] in plan["groups"][origin.pop()]
    # the runner's seed of the lot is this one
    from pipeline.run import lot_seed
    assert lot_seed(t, EVENT, entries) == lot


def test_R2016_F2_checkin_reforms_pairs():
    entries = make_entries(6, team_size=2)
    absent = frozenset({entries[0].players[1].key, entries[1].players[0].key,
                        entries[2].players[0].key, entries[2].players[1].key})
    st = new_state(entries, {"groups": 1}, absent)
    r1 = FORMATS.get("groups_standings").next_round(st, random.Random(16))
    plan = r1.plan
    assert plan["removed"] == ["e002"]
    assert len(plan["merged"]) == 1
    m = plan["merged"][0]
    assert set(m["from"]) == {"e000", "e001"} and m["id"] == "+".join(m["from"])
    assert set(m["players"]) == {entries[0].players[0].key, entries[1].players[1].key}
    assert set(plan["groups"]["A"]) == {"e003", "e004", "e005", m["id"]}
    assert sorted(x for mm in r1.matches for x in mm.sides) == sorted(plan["groups"]["A"])
    assert any("重新组合" in n for n in r1.notes)
    add_merged_entries(st, r1)
    assert any(e.id == m["id"] for e in st.entries)


def test_R2016_F2_odd_pair_moves_to_group_with_fewer_tables():
    """Two groups the check-in left odd (a whole pair absent in each): one pair moves, both
    groups play without a bye."""
    entries = make_entries(12, team_size=2)
    fmt = FORMATS.get("groups_standings")
    groups = fmt.next_round(new_state(entries, {"groups": 2}), random.Random(3)).plan["groups"]
    assert sorted(len(g) for g in groups.values()) == [6, 6]
    gone = [groups["A"][0], groups["B"][0]]
    absent = frozenset(p.key for e in entries if e.id in gone for p in e.players)
    r1 = fmt.next_round(new_state(entries, {"groups": 2}, absent), random.Random(3))
    sizes = sorted(len(g) for g in r1.plan["groups"].values())
    assert sizes == [4, 6] and len(r1.plan["moved"]) == 1
    assert not any(m.bye for m in r1.matches)


@pytest.mark.parametrize("n, groups", [(13, 4), (10, 2), (7, 2)])
def test_R2016_F3_a_group_drawn_odd_keeps_its_bye_and_meets_no_one_twice(n, groups):
    """A group drawn odd (nobody absent) is not evened out by moving a pair: 13 pairs in 4
    groups once became 2/4/3/4, and the group of two met each other in all three rounds."""
    st = simulate("groups_standings", make_entries(n, branches=11, team_size=2), {"groups": groups, "rounds": 3}, seed=0)
    r1 = st.rounds[0]
    assert r1.plan["moved"] == []
    sizes = sorted(len(m) for m in r1.plan["groups"].values())
    assert sizes[-1] - sizes[0] <= 1
    met = Counter(frozenset(m.sides) for r in st.rounds for m in r.matches if not m.bye)
    assert max(met.values()) == 1


def test_R2016_F2_single_players_across_groups():
    entries = make_entries(16, team_size=2)
    fmt = FORMATS.get("groups_standings")
    groups = fmt.next_round(new_state(entries, {"groups": 2}), random.Random(7)).plan["groups"]
    a, b = groups["A"][0], groups["B"][0]
    absent = frozenset({entries[int(a[1:])].players[0].key, entries[int(b[1:])].players[1].key})
    r1 = fmt.next_round(new_state(entries, {"groups": 2}, absent), random.Random(7))
    merged = r1.plan["merged"]
    assert len(merged) == 1 and set(merged[0]["from"]) == {a, b}
    assert sum(len(g) for g in r1.plan["groups"].values()) == 15


def test_R2016_F3_standings_pairing_and_rematch_avoidance():
    fmt = FORMATS.get("groups_standings")
    st = new_state(make_entries(8, team_size=2), {"groups": 1})
    rng = random.Random(4)
    r1 = fmt.next_round(st, rng)
    order = r1.plan["groups"]["A"]
    assert [m.sides for m in r1.matches] == [tuple(order[i:i + 2]) for i in range(0, 8, 2)]
    assert [m.table for m in r1.matches] == [1, 2, 3, 4]
    o = order
    # tables 1 and 2 drawn, tables 3 and 4 won by the first side
    _decisive(st, r1, lambda m: "draw" if m.table <= 2 else m.sides[0])
    r2 = fmt.next_round(st, rng)
    standing = [o[4], o[6]] + sorted(o[:4]) + [o[5], o[7]]     # fake rank: points, then id
    standing[:2] = sorted(standing[:2])
    standing[6:] = sorted(standing[6:])
    mids = standing[2:6]
    assert r2.matches[0].sides == (standing[0], standing[1])
    assert r2.matches[3].sides == (standing[6], standing[7])
    met = {frozenset(m.sides) for m in r1.matches}
    assert all(frozenset(m.sides) not in met for m in r2.matches)
    naive = [frozenset(mids[0:2]), frozenset(mids[2:4])]
    if any(p in met for p in naive):
        assert any("避免重复对阵" in n for n in r2.notes)


def test_R2015_F1_pairs_movement_boards():
    s = simulate("pairs_movement", make_entries(5), {"boards_per_round": 4}, seed=1)
    assert len(s.rounds) == 5
    assert s.rounds[1].plan["boards"] == [5, 6, 7, 8]
    assert all(sum(m.bye for m in r.matches) == 1 for r in s.rounds)


def test_R2011_D2_a_tie_at_the_final_table_is_a_tie_not_a_seat_order():
    """Two finalists level on points share 2nd place at the final table: the placements
    say so (tied), so the awards wait for a 加赛 instead of giving 第二名 by seat."""
    s = simulate("tables_of_three", make_entries(9), seed=3)
    final = s.rounds[-1]
    assert final.plan.get("kind") == "final"
    m = final.matches[0]
    s.results[m.key] = MatchResult(m, (SideResult(Outcome.WIN, 3, score=20, place=1),
                                       SideResult(Outcome.LOSS, 2, score=5, place=2),
                                       SideResult(Outcome.LOSS, 2, score=5, place=2)))
    pl = FORMATS.get("tables_of_three").placements(s)
    assert [(p.entry, p.rank, p.tied) for p in pl[:3]] == [
        (m.sides[0], 1, False), (m.sides[1], 2, True), (m.sides[2], 2, True)]
    assert all(p.rank > 3 for p in pl[3:])
    # the place they share is named as shared: once a 加赛 ranks them 2 and 3, "决赛桌第2名"
    # beside rank 3 read as a mistake
    assert [p.tier for p in pl[:3]] == ["决赛桌第1名", "决赛桌第2–3名（同分）", "决赛桌第2–3名（同分）"]


def test_R2020_A1_a_corrected_round_1_result_leaves_no_one_unplaced():
    """A round-1 result corrected after later rounds were drawn: its new winner played no
    later round and lost no match, yet is placed — never dropped from the final order (an
    award of rank 0 before), and as far as the results say they got: with round 1's
    winners, before round 1's losers (it was placed last, below every loser)."""
    s = simulate("knockout", make_entries(22, branches=11), seed=2020, allow_draw=False)
    m = next(m for m in s.rounds[0].matches if not m.bye and s.results[m.key].winner() in s.rounds[3].plan["pool"])
    old = s.results[m.key]
    s.results[m.key] = MatchResult(m, tuple(reversed(old.sides)))        # the loser won after all
    pl = FORMATS.get("knockout").placements(s)
    assert sorted(p.entry for p in pl) == sorted(e.id for e in s.entries)
    r1 = s.rounds[0]
    mine = next(p for p in pl if p.entry == s.results[m.key].winner())
    assert mine.tier == f"{r1.stage_name}胜者"
    losers = [p.rank for p in pl if p.tier == f"{r1.stage_name}负者"]
    assert losers and mine.rank < min(losers) and pl[-1].tier == f"{r1.stage_name}负者"


def test_R2020_A1_the_last_knockout_rounds_corrected_winner_is_not_placed_last():
    """The same, for the knockout round just before the final round robin: its corrected
    winner is not in the pool, and was placed below every loser."""
    s = simulate("knockout", make_entries(22, branches=11), seed=2020, allow_draw=False)
    ko = [r for r in s.rounds if r.plan.get("kind") == "ko"]
    m = next(m for m in ko[-1].matches if not m.bye)
    s.results[m.key] = MatchResult(m, tuple(reversed(s.results[m.key].sides)))
    new = s.results[m.key].winner()
    assert new not in s.rounds[-1].plan["pool"]
    pl = FORMATS.get("knockout").placements(s)
    mine = next(p for p in pl if p.entry == new)
    assert mine.tier == f"{ko[-1].stage_name}胜者" and pl[-1].entry != new


def test_R2020_D1_the_revival_lot_is_drawn_among_losers_who_played():
    """A loser who was absent (弃权) is not revived: only one loser played, so that one is."""
    s = simulate("tables_of_three", make_entries(22, branches=11), seed=2020, stop_after=1)
    (r1,) = s.rounds
    present = None
    for m in r1.matches:
        if m.bye:
            continue
        sides = []
        for i, _ in enumerate(m.sides):
            if i == 0:
                sides.append(SideResult(Outcome.WIN, 3, score=10, place=1))
            elif present is None:
                present = m.sides[i]
                sides.append(SideResult(Outcome.LOSS, 1, score=2, place=2))
            else:
                sides.append(SideResult(Outcome.FORFEIT_LOSS, 0, place=3))
        s.results[m.key] = MatchResult(m, tuple(sides))
    r2 = FORMATS.get("tables_of_three").next_round(s, random.Random(7))
    assert r2.plan["revived"] == [present]


def _table_result(m, seats_played):
    """A 斗地主 table: seat 0 wins, the other seats lose (played) or 弃权 (not in seats_played)."""
    if m.bye:
        return bye_result(m)
    return MatchResult(m, tuple(SideResult(Outcome.WIN, 3, score=10, place=1) if i == 0 else
                                SideResult(Outcome.LOSS, 1, score=2, place=2) if i in seats_played else
                                SideResult(Outcome.FORFEIT_LOSS, 0, place=3) for i in range(len(m.sides))))


def test_R2020_D1_a_final_table_short_of_players_waits_with_why():
    """Four entrants (a table and a bye), two seats of the table 弃权: the two left were drawn
    to a final "table" of two (IndexError: the event's run failed every night).  Every seat
    of round 1 absent: a final table with no table was published, and placements failed."""
    fmt = FORMATS.get("tables_of_three")
    s = new_state(make_entries(4))
    s.rounds.append(fmt.next_round(s, random.Random(0)))
    for m in s.rounds[0].matches:
        s.results[m.key] = _table_result(m, {0})
    with pytest.raises(Waiting) as w:
        fmt.next_round(s, random.Random(0))
    assert "只剩" in str(w.value) and "2 名选手" in str(w.value) and "弃权" in str(w.value)
    assert fmt.placements(s)             # still in play, no traceback
    s = new_state(make_entries(6))
    s.rounds.append(fmt.next_round(s, random.Random(0)))
    for m in s.rounds[0].matches:
        s.results[m.key] = MatchResult(m, tuple(SideResult(Outcome.ABSENT, 0) for _ in m.sides))
    with pytest.raises(Waiting) as w:
        fmt.next_round(s, random.Random(0))
    assert "没有产生晋级选手" in str(w.value)
    assert fmt.placements(s)


def test_R2020_D1_a_final_table_is_filled_from_earlier_rounds_when_the_last_ones_losers_were_absent():
    """Round 2's two tables each won, their four other seats 弃权: one seat of the final
    table was left empty.  It is filled by lot among round 1's present losers (not the
    absent ones, not those who were absent later)."""
    fmt = FORMATS.get("tables_of_three")
    s = simulate("tables_of_three", make_entries(12), seed=5, stop_after=1)
    for m in s.rounds[0].matches:
        s.results[m.key] = _table_result(m, {1})         # seat 2 of every round-1 table absent
    r2 = fmt.next_round(s, random.Random(5))
    s.rounds.append(r2)
    assert sum(not m.bye for m in r2.matches) == 2
    for m in r2.matches:
        s.results[m.key] = _table_result(m, set())
    final = fmt.next_round(s, random.Random(5))
    (table,) = final.matches
    present_r1 = {m.sides[1] for m in s.rounds[0].matches if not m.bye}
    in_r2 = {x for m in r2.matches for x in m.sides}
    (revived,) = final.plan["revived"]
    assert revived in present_r1 - in_r2 and len(set(table.sides)) == 3
    assert any("此前各轮到场的负者" in n for n in final.notes), final.notes


def test_notes_count_pairs_as_pairs():
    """Seven bridge pairs in a round robin: “参赛者共 7 对”, not “7 名”."""
    from pipeline.draw.common import counted

    pairs = make_entries(7, team_size=2)
    assert counted(new_state(pairs), 7) == "7 对" and counted(new_state(make_entries(7)), 7) == "7 人"
    rnd = FORMATS.get("round_robin").next_round(new_state(pairs), random.Random(1))
    assert any("参赛者共 7 对（奇数）" in n for n in rnd.notes), rnd.notes


def test_R2016_F2_the_pair_that_moves_is_the_check_ins_odd_one():
    """30 pairs in 4 groups (8/8/7/7), one whole pair of an 8 absent: that group is left odd
    beside two groups drawn odd, and one of its own pairs moves out (into a 7, both have 3
    tables and are odd), whichever lot is drawn."""
    for seed in range(12):
        g8, plan = _first_pair_absent(30, seed, 8)
        assert len(plan["moved"]) == 1 and plan["moved"][0]["from"] == g8, (seed, plan["moved"])
        assert len(plan["groups"][g8]) == 6 and len(plan["groups"][plan["moved"][0]["to"]]) == 8


def _first_pair_absent(n, seed, size):
    """Draw ``n`` pairs into 4 groups, then again (same lot) with both players of the first
    pair of a group of ``size`` pairs absent.  Returns (that group, round 1's plan)."""
    entries = make_entries(n, team_size=2)
    fmt = FORMATS.get("groups_standings")
    groups = fmt.next_round(new_state(entries, {"groups": 4}), random.Random(seed)).plan["groups"]
    g = sorted(g for g, m in groups.items() if len(m) == size)[0]
    absent = frozenset(p.key for e in entries if e.id == groups[g][0] for p in e.players)
    return g, fmt.next_round(new_state(entries, {"groups": 4}, absent), random.Random(seed)).plan


def _half_absent(entries, groups, label, k=2):
    """One player absent from each of the first ``k`` pairs of group ``label`` (re-formed
    within the group into k // 2 pairs)."""
    gone = set(groups[label][:k])
    return frozenset(e.players[0].key for e in entries if e.id in gone)


def _checked_in(n, seed, pick, whole=()):
    """Draw ``n`` pairs into 4 groups, then draw again (same lot) with one player absent
    from each of two pairs of the group ``pick(groups)`` names (and every player of the
    entries ``whole(groups)`` names).  Returns (groups as drawn, that group, round 1)."""
    entries = make_entries(n, team_size=2)
    fmt = FORMATS.get("groups_standings")
    groups = fmt.next_round(new_state(entries, {"groups": 4}), random.Random(seed)).plan["groups"]
    src = pick(groups)
    gone = set(whole(groups)) if whole else set()
    absent = _half_absent(entries, groups, src) | {p.key for e in entries if e.id in gone for p in e.players}
    return groups, src, fmt.next_round(new_state(entries, {"groups": 4}, frozenset(absent)), random.Random(seed))


@pytest.mark.parametrize("seed", range(12))
def test_R2016_F2_a_group_left_odd_sends_one_of_its_own_pairs(seed):
    """The audit's case (the 2016 sample): 34 pairs drawn 8/8/9/9, one player absent from
    each of two pairs of an 8, re-formed into one pair: that group (now 7) is the one with
    the single pair — one of ITS pairs is drawn into the group with the fewest tables (the
    other 8 and both 9s have 4; a 9 is odd, so it is a 9), not a pair of a 9 moved into it."""
    drawn, src, r1 = _checked_in(34, seed, lambda g: sorted(k for k, m in g.items() if len(m) == 8)[0])
    assert sorted(len(m) for m in drawn.values()) == [8, 8, 9, 9]
    plan = r1.plan
    assert len(plan["merged"]) == 1 and plan["merged"][0]["group"] == src
    assert len(plan["moved"]) == 1, plan["moved"]
    move = plan["moved"][0]
    assert move["from"] == src and move["id"] in set(drawn[src]) | {plan["merged"][0]["id"]}
    assert len(drawn[move["to"]]) == 9 and move["id"] in plan["groups"][move["to"]]
    sizes = {g: len(m) for g, m in plan["groups"].items()}
    assert sizes[src] == 6 and sizes[move["to"]] == 10
    assert sorted(sizes.values()) == [6, 8, 9, 10]
    assert sum(m.bye for m in r1.matches) == 1         # the other 9 keeps its bye (R2016-F3)
    assert any(n.startswith(f"{src}组队数为单数，抽签由") and n.endswith(f"进入其余小组中桌数最少的{move['to']}组。")
               for n in r1.notes), r1.notes


def test_R2016_F2_a_group_alone_odd_sends_its_pair_to_a_group_drawn_by_lot():
    """32 pairs drawn 8/8/8/8 and one group left with 7: it is the only odd group, yet its
    single pair is still drawn into a group with the fewest tables (all three others have 4:
    one of them by lot, which then plays with a bye)."""
    seen = set()
    for seed in range(12):
        drawn, src, r1 = _checked_in(32, seed, lambda g: sorted(g)[0])
        assert sorted(len(m) for m in drawn.values()) == [8, 8, 8, 8]
        plan = r1.plan
        assert [m["from"] for m in plan["moved"]] == [src], (seed, plan["moved"])
        dst = plan["moved"][0]["to"]
        assert dst != src
        sizes = {g: len(m) for g, m in plan["groups"].items()}
        assert sizes[src] == 6 and sizes[dst] == 9 and sorted(sizes.values()) == [6, 8, 8, 9]
        seen.add(dst)
    assert len(seen) > 1            # the lot, not always the same group


@pytest.mark.parametrize("seed", range(6))
def test_R2016_F2_the_single_pair_goes_to_the_group_with_the_fewest_tables(seed):
    """32 pairs drawn 8/8/8/8: a group with two whole pairs absent (6, 3 tables, even) and
    another left with 7 by the re-forming: the 7 sends a pair to the 6 — the one group with
    the fewest tables — though that leaves the 6 odd."""
    pick = lambda g: sorted(g)[0]
    other = lambda g: g[sorted(g)[1]][:2]
    drawn, src, r1 = _checked_in(32, seed, pick, whole=other)
    six = sorted(drawn)[1]
    plan = r1.plan
    assert plan["moved"] == [{"id": plan["moved"][0]["id"], "from": src, "to": six}], plan["moved"]
    sizes = {g: len(m) for g, m in plan["groups"].items()}
    assert sizes[src] == 6 and sizes[six] == 7


@pytest.mark.parametrize("seed", range(12))
def test_R2016_F2_equal_tables_prefer_a_group_with_an_odd_pair(seed):
    """33 pairs drawn 9/8/8/8, an 8 left with 7: the 9 and the two other 8s all have 4
    tables; the single pair goes to the 9 (both groups end even, nobody sits out), never to
    an 8 — and no pair of the 9 is moved into the 7."""
    drawn, src, r1 = _checked_in(33, seed, lambda g: sorted(k for k, m in g.items() if len(m) == 8)[0])
    nine = next(g for g, m in drawn.items() if len(m) == 9)
    plan = r1.plan
    assert [(m["from"], m["to"]) for m in plan["moved"]] == [(src, nine)], plan["moved"]
    assert sorted(len(m) for m in plan["groups"].values()) == [6, 8, 8, 10]
    assert not any(m.bye for m in r1.matches)


def test_R2016_F2_a_group_drawn_odd_sends_no_pair():
    """34 pairs drawn 8/8/9/9, one whole pair of a 9 absent: the group drawn odd that the
    check-in made even moves nothing, and the other 9, as drawn, keeps its bye (R2016-F3)."""
    for seed in range(6):
        _, plan = _first_pair_absent(34, seed, 9)
        assert plan["moved"] == [] and sorted(len(m) for m in plan["groups"].values()) == [8, 8, 8, 9]


def _lone_after_check_in(n, groups, seed, absent_of):
    """Draw ``n`` pairs into ``groups`` groups, then simulate the whole event (same lot) with
    the players ``absent_of(entries, drawn)`` names absent.  Returns (groups as drawn, event)."""
    entries = make_entries(n, branches=n, team_size=2)
    fmt = FORMATS.get("groups_standings")
    opts = {"groups": groups, "rounds": 3}
    drawn = fmt.next_round(new_state(entries, opts), random.Random(seed)).plan["groups"]
    absent = frozenset(absent_of({e.id: e for e in entries}, drawn))
    return drawn, simulate("groups_standings", entries, opts, seed=seed, absent=absent)


def _whole(by_id, ids):
    return {p.key for e in ids for p in by_id[e].players}


def _played(st, entry):
    return any(entry in m.sides and not m.bye for r in st.rounds for m in r.matches)


@pytest.mark.parametrize("seed", range(12))
def test_R2016_F2_lone_pair_moves_to_fewest_tables(seed):
    """The audit's case: 6 pairs drawn 3/3; in group A one pair is all absent and one player
    of another (left alone, cannot play): A is left with a single pair.  It used to sit out
    every round with a bye and then take A's first place without a game; now it is drawn
    into the other group (the group with the fewest tables), which then plays 4 pairs, no bye."""
    drawn, st = _lone_after_check_in(6, 2, seed, lambda by, g: _whole(by, g["A"][:1]) | {by[g["A"][1]].players[0].key})
    plan = st.rounds[0].plan
    lone = drawn["A"][2]
    assert plan["moved"] == [{"id": lone, "from": "A", "to": "B"}], plan["moved"]
    assert plan["groups"] == {"B": drawn["B"] + [lone]}
    assert not any(m.bye for r in st.rounds for m in r.matches)
    placed = FORMATS.get("groups_standings").placements(st)
    assert {p.entry for p in placed} == set(drawn["B"]) | {lone} and all(_played(st, p.entry) for p in placed)
    assert any(n == f"A组只剩队{lone[1:]}一对，无法比赛，抽签进入其余小组中桌数最少的B组。"
               for n in st.rounds[0].notes), st.rounds[0].notes


@pytest.mark.parametrize("seed", range(12))
def test_R2016_F2_lone_pair_of_a_group_drawn_odd_goes_to_the_fewest_tables(seed):
    """10 pairs drawn 4/3/3, both whole pairs of a 3 absent: its single pair goes to the other
    3 (1 table, the fewest), not to the 4 (2 tables); both groups then play 4, no bye."""
    def absent(by, g):
        src = sorted(k for k, m in g.items() if len(m) == 3)[0]
        return _whole(by, g[src][:2])
    drawn, st = _lone_after_check_in(10, 3, seed, absent)
    assert sorted(len(m) for m in drawn.values()) == [3, 3, 4]
    src, other = sorted(k for k, m in drawn.items() if len(m) == 3)
    plan = st.rounds[0].plan
    assert plan["moved"] == [{"id": drawn[src][2], "from": src, "to": other}], plan["moved"]
    assert sorted(len(m) for m in plan["groups"].values()) == [4, 4] and src not in plan["groups"]
    assert not any(m.bye for r in st.rounds for m in r.matches)


@pytest.mark.parametrize("seed", range(12))
def test_R2016_F2_a_re_formed_pair_left_alone_moves(seed):
    """10 pairs drawn 4/3/3; in a 3, one pair is all absent and the two others each lose a
    player: the two single players are re-formed into one pair — the group's only pair, so
    that re-formed pair is drawn into the group with the fewest tables (the other 3)."""
    def absent(by, g):
        src = sorted(k for k, m in g.items() if len(m) == 3)[0]
        return _whole(by, g[src][:1]) | {by[e].players[1].key for e in g[src][1:]}
    drawn, st = _lone_after_check_in(10, 3, seed, absent)
    src, other = sorted(k for k, m in drawn.items() if len(m) == 3)
    plan = st.rounds[0].plan
    assert len(plan["merged"]) == 1 and plan["merged"][0]["group"] == src
    assert plan["moved"] == [{"id": plan["merged"][0]["id"], "from": src, "to": other}], plan["moved"]
    assert sorted(len(m) for m in plan["groups"].values()) == [4, 4]
    assert not any(m.bye for r in st.rounds for m in r.matches)


def test_R2016_F2_a_group_drawn_odd_and_left_odd_keeps_its_bye():
    """10 pairs drawn 5/5; in one, a pair all absent and two pairs re-formed into one: 3 pairs,
    odd as drawn — the check-in did not leave it odd, so it keeps its bye (R2016-F3) and sends
    no pair (that would leave two pairs to meet in every round)."""
    for seed in range(12):
        def absent(by, g):
            return _whole(by, g["A"][:1]) | {by[e].players[0].key for e in g["A"][1:3]}
        drawn, st = _lone_after_check_in(10, 2, seed, absent)
        plan = st.rounds[0].plan
        assert plan["moved"] == [] and sorted(len(m) for m in plan["groups"].values()) == [3, 5]
        assert all(sum(m.bye for m in r.matches) == 2 for r in st.rounds)


@pytest.mark.parametrize("n, groups", [(6, 2), (13, 4), (16, 4), (34, 4), (9, 3)])
def test_R2016_F2_nothing_absent_leaves_the_draw_as_dealt(n, groups):
    """Nobody absent: the check-in moves nothing, and the groups are exactly the lot's."""
    from pipeline.draw.common import deal_groups, group_label

    entries = make_entries(n, team_size=2)
    for seed in range(6):
        st = new_state(entries, {"groups": groups})
        r1 = FORMATS.get("groups_standings").next_round(st, random.Random(seed))
        dealt = deal_groups(sorted(e.id for e in entries), groups, random.Random(seed), st.branch_of)
        assert r1.plan["groups"] == {group_label(i): m for i, m in enumerate(dealt)}
        assert (r1.plan["moved"], r1.plan["merged"], r1.plan["removed"], r1.plan["dropped"]) == ([], [], [], [])


def test_R2016_F2_check_ins_without_a_single_pair_draw_as_before():
    """The fix for single pairs draws no other lot: check-ins that leave no group with a
    single pair (nobody absent, or the usual absences) give the very round 1 they gave
    before it (the digest of 400 simulated check-ins, taken on the code before; those
    whose re-forming leaves a group with one pair or none are left out, as a pair of single
    players from other groups may join an emptied group and be its only pair)."""
    import hashlib
    import json

    fmt = FORMATS.get("groups_standings")
    h, used = hashlib.sha256(), 0
    for k in range(400):
        r = random.Random(k)
        n, groups, rate = r.randint(4, 40), r.randint(1, 5), r.choice([0.0, 0.05, 0.15, 0.3])
        entries = make_entries(n, branches=r.randint(1, 12), team_size=2)
        absent = frozenset(p.key for e in entries for p in e.players if r.random() < rate)
        dealt = fmt.next_round(new_state(entries, {"groups": groups}), random.Random(k)).plan["groups"]
        if min(_pairs_after_check_in(members, entries, absent) for members in dealt.values()) <= 1:
            continue            # a group left with a single pair (or none, to take one from elsewhere)
        r1 = fmt.next_round(new_state(entries, {"groups": groups}, absent), random.Random(k))
        used += 1
        h.update(json.dumps([r1.plan, [[m.group, m.table, list(m.sides), m.bye] for m in r1.matches],
                             list(r1.notes)], sort_keys=True, ensure_ascii=False).encode())
    # ca0545b99ceeed75 before the notes said A组 for 第A组 (the same draws: the old digest comes
    # back when the notes are worded as before)
    assert (used, h.hexdigest()[:16]) == (362, 'b23ff6a01eabf586')


def _pairs_after_check_in(members, entries, absent):
    """How many pairs a group holds after the check-in removes its absent pairs and re-forms
    its pairs left with one player (before single players are paired across groups)."""
    by_id = {e.id: e for e in entries}
    present = [sum(p.key not in absent for p in by_id[e].players) for e in members]
    return present.count(2) + sum(k == 1 for k in present) // 2


@pytest.mark.parametrize("fmt, kind, scores", [
    ("knockout", "rr", False), ("knockout", "ko", True), ("round_robin", "rr", False),
    ("groups_knockout", "group", False), ("groups_knockout", "ko", True),
    ("groups_standings", "group", True), ("swiss", "swiss", True), ("tables_of_three", "tables", True)])
def test_R2020_F4_a_round_robins_round_off_is_a_rest_worth_nothing(fmt, kind, scores):
    """R2020-F4: the final round robin ranks by its matches' points — whoever sits a round out
    rests (FIDE: a round robin's bye scores nothing); a bye drawn in place of a game (Swiss,
    a knockout's 晋级签, tables of three, the R2016 groups) scores the event's bye points."""
    from pipeline.draw import bye_scores
    from pipeline.model import Round

    assert bye_scores(fmt, Round(EVENT, "s", "x", 1, (), plan={"kind": kind})) is scores


@pytest.mark.parametrize("fmt, options, n", [("swiss", {"rounds": 4}, 5), ("groups_standings", {"groups": 1, "rounds": 3}, 5)])
def test_R2015_F1_R2016_F3_no_bye_for_an_entry_that_did_not_turn_up(fmt, options, n):
    """A bye is a free win: the entry that forfeited last round (it stopped coming) does not
    get it, though it ranks last without one — it once took the round's bye and finished
    above a player who played every round.  The draw sheet says why it was passed over."""
    f = FORMATS.get(fmt)
    st = new_state(make_entries(n, branches=n, team_size=2 if fmt == "groups_standings" else 1), options)
    rng = random.Random(7)
    r1 = f.next_round(st, rng)
    st.rounds.append(r1)
    for m in r1.matches:
        st.results[m.key] = bye_result(m) if m.bye else MatchResult(
            m, (SideResult(Outcome.WIN, 2), SideResult(Outcome.LOSS, 0)))
    r2 = f.next_round(st, rng)
    st.rounds.append(r2)
    for m in r2.matches:
        st.results[m.key] = bye_result(m) if m.bye else MatchResult(
            m, (SideResult(Outcome.WIN, 2), SideResult(Outcome.LOSS, 0)))
    # the entry next in line for the bye (last, none yet) did not turn up to round 2
    had = {m.sides[0] for r in (r1, r2) for m in r.matches if m.bye}
    gone = next(r.entry for r in reversed(st.rank([e.id for e in st.entries], st.rounds)) if r.entry not in had)
    m = next(m for m in r2.matches if gone in m.sides)
    st.results[m.key] = MatchResult(m, tuple(SideResult(Outcome.FORFEIT_LOSS, 0) if s == gone
                                             else SideResult(Outcome.FORFEIT_WIN, 2) for s in m.sides))
    assert st.rank([e.id for e in st.entries], st.rounds)[-1].entry == gone
    r3 = f.next_round(st, rng)
    bye = next(m.sides[0] for m in r3.matches if m.bye)
    assert bye != gone
    assert any("上一轮弃权或缺席" in n for n in r3.notes), r3.notes


@pytest.mark.parametrize("fmt, options, n, size", [
    ("swiss", {"rounds": 4}, 8, 1), ("groups_standings", {"groups": 2, "rounds": 3}, 8, 2),
    ("knockout", {"final_pool": 2}, 8, 1), ("tables_of_three", {}, 9, 1)])
def test_a_withdrawn_entry_is_not_drawn_again(fmt, options, n, size):
    """tournament.yaml's withdrawn: an entry that played round 1 (and won it, where winners go
    on) is in no later round; the draw sheet says so."""
    f = FORMATS.get(fmt)
    st = new_state(make_entries(n, branches=n, team_size=size), options)
    rng = random.Random(3)
    r1 = f.next_round(st, rng)
    st.rounds.append(r1)
    for m in r1.matches:
        st.results[m.key] = bye_result(m) if m.bye else MatchResult(m, tuple(
            SideResult(Outcome.WIN if i == 0 else Outcome.LOSS, 2 if i == 0 else 0, place=i + 1)
            for i in range(len(m.sides))))
    gone = next(m for m in r1.matches if not m.bye).sides[0]       # a winner of round 1
    st.withdrawn = frozenset({gone})
    r2 = f.next_round(st, rng)
    assert gone not in {s for m in r2.matches for s in m.sides}
    assert any("已退赛，不再编排" in note for note in r2.notes), r2.notes


@pytest.mark.parametrize("groups, dead, vacant", [
    (8, {0, 1}, [2, 4, 7, 8]),      # both quarter-finals of the top half forfeited by both sides
    (4, {0}, [2, 4])])              # one semi-final forfeited by both
def test_R2011_F2_R2011_R1_forfeits_that_empty_a_half(groups, dead, vacant):
    """Double forfeits emptying a half (R2011-R1, the office's decision: handbook 缺席、弃权和退赛):
    the other half's winner takes the final by walkover and the semi-finals' loser left the
    third-place match; the places the absentees would have had stay vacant.  (The event once
    ended after the semi-final, its winner first and no word of a final; then the other
    half's semi-final was played as the final and the quarter-finals' losers played for third.)"""
    from pipeline.draw.common import is_walkover

    fmt = FORMATS.get("groups_knockout")
    st = new_state(make_entries(2 * groups, 2 * groups), {"groups": groups})
    rng = random.Random(1)
    first_ko = None
    while True:
        r = fmt.next_round(st, rng)
        if r is None:
            break
        st.rounds.append(r)
        if r.plan["kind"] == "ko" and first_ko is None:
            first_ko = r
        for i, m in enumerate(r.matches):
            if m.bye:
                st.results[m.key] = bye_result(m)
            elif r is first_ko and i in dead:
                st.results[m.key] = MatchResult(m, (SideResult(Outcome.ABSENT), SideResult(Outcome.ABSENT)))
            else:
                st.results[m.key] = MatchResult(m, (SideResult(Outcome.WIN, 3), SideResult(Outcome.LOSS, 0)))
    last = st.rounds[-1]
    assert last.plan["final"] and [m.group for m in last.matches] == ["", "三四名"]
    assert all(m.bye and is_walkover(m) for m in last.matches)
    pl = sorted(fmt.placements(st), key=lambda p: p.rank)
    assert pl[0].entry == last.matches[0].sides[0] and pl[0].tier == "决赛胜者（不战而胜）"
    assert pl[2].entry == last.matches[1].sides[0] and pl[2].tier == "三四名决赛胜者（不战而胜）"
    gone = {s for i, m in enumerate(first_ko.matches) if i in dead for s in m.sides}
    assert [p.rank for p in pl if p.vacant] == vacant and {p.entry for p in pl if p.vacant} == gone


def test_R2011_F2_a_withdrawn_group_winner_is_replaced_by_the_next_in_its_group():
    """groups → knockout: the office withdraws a group winner before the knockout — the
    group's runner-up goes on in its place (it was drawn into the knockout as if present)."""
    fmt = FORMATS.get("groups_knockout")
    st = new_state(make_entries(8, 8), {"groups": 2})
    rng = random.Random(5)
    while True:
        r = fmt.next_round(st, rng)
        if r.stage != "group":
            break
        _decisive(st, r, lambda m: min(m.sides))          # lower id always wins
    groups = st.rounds[0].plan["groups"]
    winner = {g: sorted(m)[0] for g, m in groups.items()}
    gone = winner["A"]
    st.withdrawn = frozenset({gone})
    ko = fmt.next_round(st, rng)
    sides = {s for m in ko.matches for s in m.sides}
    assert gone not in sides and sorted(groups["A"])[1] in sides and winner["B"] in sides
    assert any("已退赛" in n for n in ko.notes)


def test_R2011_F2_withdrawals_in_the_knockout():
    """A withdrawn semi-final winner is still in the final (a finalist who does not come
    forfeits it) and the losers play for third; a withdrawn quarter-final winner leaves its
    slot empty and is placed above the player it beat (it was placed below him)."""
    fmt = FORMATS.get("groups_knockout")

    def play(groups, withdraw_after):
        st = new_state(make_entries(2 * groups, 2 * groups), {"groups": groups})
        rng = random.Random(2)
        while True:
            r = fmt.next_round(st, rng)
            if r is None:
                return st
            _decisive(st, r, lambda m: min(m.sides))
            if r.stage_name.startswith(withdraw_after) and not st.withdrawn:
                first_match = next(m for m in r.matches if not m.bye)
                st.withdrawn = frozenset({min(first_match.sides)})      # its winner

    st = play(4, "半决赛")
    final = st.rounds[-1]
    assert final.plan["final"] and any(m.group == "三四名" for m in final.matches)
    (gone,) = st.withdrawn
    assert gone in final.matches[0].sides
    st = play(8, "四分之一决赛")
    (gone,) = st.withdrawn
    qf = next(r for r in st.rounds if r.stage_name.startswith("四分之一决赛"))
    assert all(gone not in m.sides for r in st.rounds if r.round > qf.round for m in r.matches)
    beaten = next(max(m.sides) for m in qf.matches if gone in m.sides)
    rank = {p.entry: p.rank for p in fmt.placements(st)}
    assert rank[gone] < rank[beaten]


def test_R2011_F1_a_withdrawn_group_member_is_in_no_playoff():
    """Every group level (all draws): a group whose members are withdrawn but one sends that
    one on without a 加赛; the other group's tie still waits for its 加赛, naming its own only."""
    fmt = FORMATS.get("groups_knockout")
    st = new_state(make_entries(8, 8), {"groups": 2})
    rng = random.Random(4)
    for _ in range(3):                           # two groups of four: three Berger rounds
        r = fmt.next_round(st, rng)
        assert r.stage == "group"
        _decisive(st, r, lambda m: "draw")
    groups = st.rounds[0].plan["groups"]
    keep = sorted(groups["A"])[0]
    st.withdrawn = frozenset(e for e in groups["A"] if e != keep)
    with pytest.raises(PlayoffWaiting) as w:
        fmt.next_round(st, rng)
    assert [g for _, g, _ in w.value.ties] == ["B"]


def _doudizhu_to_the_final(round2):
    """22 players of 斗地主 (tables of three, revival) played to the end with the real game,
    rank function and awards: round 1 (12/-3/-9 at every table), round 2 as given, the final
    9/3/-12.  Returns (state, the 加赛 list the rank function reads, round 2's tables)."""
    from pipeline.games import GAMES
    from pipeline.games.base import ResultRow
    from pipeline.score.standings import rank_fn

    game, fmt = GAMES.get("doudizhu"), FORMATS.get("tables_of_three")
    st = new_state(make_entries(22, branches=11), {"fill": "revival"})
    playoffs: list = []
    st.rank = rank_fn(["game_points", "playoff"], st.results, playoffs)
    rng = random.Random(3)

    def play(rnd, rows):
        st.rounds.append(rnd)
        rows = [ResultRow(m, v if isinstance(v, dict) else dict(zip(("甲得分", "乙得分", "丙得分"), v)))
                for m, v in zip([m for m in rnd.matches if not m.bye], rows)]
        results, problems = game.parse_round(rnd, rows, {}, {})
        assert not problems
        st.results.update({r.match.key: r for r in results})
        st.results.update({m.key: bye_result(m) for m in rnd.matches if m.bye})

    play(fmt.next_round(st, rng), [(12, -3, -9)] * 7)
    r2 = fmt.next_round(st, rng)
    play(r2, round2)
    play(fmt.next_round(st, rng), [(9, 3, -12)])
    return st, playoffs, [m.sides for m in r2.matches if not m.bye]


_D2_AWARDS = {"places": [{"award": "一等奖", "count": 1}, {"award": "二等奖", "count": 2},
                         {"award": "三等奖", "count": 3}], "rest": "决赛参与奖"}


def test_R2020_D2_one_third_prize_for_each_round_2_tables_runner_up():
    """R2020-D2: "the three round-2 table runners-up receive the 3rd prizes" — one per table.
    Two level 2nd at one table (table 1: -10/-10) got two 三等奖 and a clear runner-up of
    another table (table 2: -11) none, and a tie at table 3 was decided by round-1 points,
    without a word.  Now: the clear runner-up gets 三等奖; each table's level 2nd are one
    place, to be played off (Placement.settle, the awards wait); after the 加赛, one per table."""
    from pipeline.layout import FINAL_PLACES
    from pipeline.score import AWARD_SCHEMES
    from pipeline.spec import AwardSpec

    fmt, scheme = FORMATS.get("tables_of_three"), AWARD_SCHEMES.get("ranked")
    st, playoffs, (t1, t2, t3) = _doudizhu_to_the_final([(20, -10, -10), (25, -11, -14), (10, -5, -5)])
    awards = AwardSpec(scheme="ranked", extra=_D2_AWARDS)
    pl = fmt.placements(st)
    assert pl[3].entry == t2[1] and not pl[3].tied          # table 2's runner-up: 三等奖 whatever the others
    assert sorted(scheme.undecided(awards, pl)) == sorted([("", 5, tuple(sorted(t1[1:])), ("三等奖",)),
                                                           ("", 7, tuple(sorted(t3[1:])), ("三等奖",))])
    _, problems = scheme.assign(awards, pl, st.entries)     # (said as one table's level 2nd, not a boundary)
    assert len(problems) == 2 and all("是同一桌的并列第2名，只有一人能得三等奖" in i.message for i in problems)
    playoffs += [Playoff(EVENT, FINAL_PLACES, "", (t1[2], t1[1])), Playoff(EVENT, FINAL_PLACES, "", (t3[1], t3[2]))]
    pl = fmt.placements(st)
    assert scheme.undecided(awards, pl) == []
    rows, problems = scheme.assign(awards, pl, st.entries)
    third = {r.entry for r in rows if r.award == "三等奖"}
    assert third == {t1[2], t2[1], t3[1]} and not problems
    assert {r.award for r in rows if r.entry in (t1[1], t3[2], t2[2])} == {"决赛参与奖"}


def test_R2020_D2_R2011_R1_a_seat_not_played_is_no_runner_up():
    """Two 弃权 at one round-2 table share its place 2: they were made a tie to play off,
    and every award of the event waited for a 加赛 between two who never came.  A seat not
    played is no table's runner-up: the table has none, and its 三等奖 stays vacant (R2011-R1,
    the office's decision: nobody below moves up — a table's 3rd took it); the two absentees
    stand on their table's vacant places, its 2nd and 3rd, and have no award at all."""
    from pipeline.score import AWARD_SCHEMES
    from pipeline.spec import AwardSpec

    fmt, scheme = FORMATS.get("tables_of_three"), AWARD_SCHEMES.get("ranked")
    st, _, (t1, t2, t3) = _doudizhu_to_the_final([(20, -7, -13), (25, -11, -14), {"弃权": "乙丙"}])
    awards = AwardSpec(scheme="ranked", extra=_D2_AWARDS)
    pl = fmt.placements(st)
    assert scheme.undecided(awards, pl) == []
    rows, _ = scheme.assign(awards, pl, st.entries)
    third = [r for r in rows if r.award == "三等奖"]
    assert {r.entry for r in third if not r.vacant} == {t1[1], t2[1]} and [r.vacant for r in third] == [False, False, True]
    assert not {r.entry for r in rows} & set(t3[1:])                 # not even the 决赛参与奖
    absent = sorted((p for p in pl if p.vacant), key=lambda p: p.rank)
    assert {p.entry for p in absent} == set(t3[1:]) and [p.rank for p in absent] == [6, 9]


def _groups_then_first_ko(n, options, seed):
    """Play the group stage of ``n`` entries with random results (ties played off by lot)
    and draw the first knockout round (None: the event ends with the groups)."""
    fmt = FORMATS.get("groups_knockout")
    st = new_state(make_entries(n, branches=5), options)
    draw_rng, res_rng = random.Random(seed), random.Random(seed + 1)
    while True:
        try:
            r = fmt.next_round(st, draw_rng)
        except PlayoffWaiting as w:
            for stage, group, tied in w.ties:
                st.playoffs.append(Playoff(EVENT, stage, group, tuple(tied)))
            continue
        if r is None or r.stage != "group":
            return fmt, st, r
        _decisive(st, r, lambda m: res_rng.choice([*m.sides, "draw"]))


@pytest.mark.parametrize("n", range(3, 41))
def test_R2011_F2_every_first_knockout_round_draws_each_qualifier_once(n):
    """Every entry count × group count × advance the format accepts draws its first
    knockout round, halves within one of each other and one group's qualifiers split
    between them as evenly as they can be (groups 3/2/3 with advance 3 dealt halves of 5
    and 3, and the draw asked for −1 byes: ValueError, the event never reached its knockout)."""
    for groups in range(1, n // 2 + 1):          # (more groups than n // 2 are drawn as n // 2)
        for advance in (None, 1, 2, 3, 4, 6):
            options = {"groups": groups} | ({"advance": advance} if advance else {})
            fmt, st, ko = _groups_then_first_ko(n, options, seed=n * 100 + groups)
            import dataclasses
            done = dataclasses.replace(st, rounds=[r for r in st.rounds if r.stage == "group"])
            qual = fmt.qualifiers(done)
            q = [e for _, a in qual for e in a]
            if len(q) < 2:
                assert ko is None, options
                continue
            slots = ko.plan["bracket"]
            drawn = [e for slot in slots for e in slot]
            assert sorted(drawn) == sorted(q), (n, options)
            assert len(slots) & (len(slots) - 1) == 0 and all(1 <= len(s) <= 2 for s in slots)
            if len(slots) > 1:
                half_of = {e: i * 2 // len(slots) for i, slot in enumerate(slots) for e in slot}
                top = sum(half_of[e] == 0 for e in q)
                assert abs(top - (len(q) - top)) <= 1, (n, options, slots)
                for _, a in qual:
                    in_top = sum(half_of[e] == 0 for e in a)
                    assert abs(in_top - (len(a) - in_top)) <= 1, (n, options, qual, slots)


def test_R2011_F2_two_groups_have_semifinals_and_third_place_match():
    """R2011-F2 "winners play the final, losers play for third place": 9 entries are 2 groups
    by default, and their 2 winners played only a final — third place went to the better
    runner-up on raw points, 9 from 4 games beating 6 from 3.  By default the top 2 of each
    group now advance, crossed A1–B2 and B1–A2, and the semi-final losers play for third."""
    fmt, st, semi = _groups_then_first_ko(9, {}, seed=3)
    groups = st.rounds[0].plan["groups"]
    assert sorted(len(m) for m in groups.values()) == [4, 5]
    assert st.rounds[0].plan["advance"] == 2
    assert semi.stage_name == "半决赛" and all(len(slot) == 2 for slot in semi.plan["bracket"])
    import dataclasses
    qual = dict(fmt.qualifiers(dataclasses.replace(st, rounds=list(st.rounds))))
    (a1, a2), (b1, b2) = qual["A"], qual["B"]
    assert sorted(map(set, semi.plan["bracket"]), key=sorted) == sorted([{a1, b2}, {b1, a2}], key=sorted)
    _decisive(st, semi, lambda m: min(m.sides))
    final = fmt.next_round(st, random.Random(0))
    third = [m for m in final.matches if m.group == "三四名"]
    assert final.plan["final"] and len(third) == 1
    assert set(third[0].sides) == {max(m.sides) for m in semi.matches}
    _decisive(st, final, lambda m: max(m.sides))
    pl = fmt.placements(st)
    assert [p.tier for p in pl[:4]] == ["决赛胜者", "决赛负者", "三四名决赛胜者", "三四名决赛负者"]
    assert pl[2].entry == max(third[0].sides) and [p.rank for p in pl[:4]] == [1, 2, 3, 4]


def test_R2011_F2_an_explicit_advance_is_kept_and_says_what_third_place_is():
    """An explicit ``advance: 1`` with 2 groups is the spec's choice: a final only (no
    semi-final, no third-place match), and the notice says how third place is then decided."""
    fmt, st, final = _groups_then_first_ko(9, {"advance": 1}, seed=3)
    assert final.plan["final"] and len(final.matches) == 1 and final.plan["third"] is None
    assert st.rounds[0].plan["advance"] == 1
    text = fmt.describe({"advance": 1})
    assert "不设三四名决赛" in text and "小组积分" in text
    assert "不设三四名决赛" not in fmt.describe({"groups": 4, "advance": 1})


def test_R2011_F1_a_group_stage_published_without_its_advance_keeps_the_old_default():
    """Groups drawn by older code record no advance: they were drawn under the default of
    that time (the group winners), and the knockout still takes the winners — a new
    default never changes an event under way."""
    fmt = FORMATS.get("groups_knockout")
    st = new_state(make_entries(9, branches=5), {})
    rng = random.Random(4)
    while True:
        r = fmt.next_round(st, rng)
        if r.stage != "group":
            break
        plan = {k: v for k, v in r.plan.items() if k != "advance"}
        import dataclasses
        _decisive(st, dataclasses.replace(r, plan=plan), lambda m: min(m.sides))
    assert r.plan["final"] and {e for m in r.matches for e in m.sides} == {
        min(g) for g in st.rounds[0].plan["groups"].values()}


def test_R2011_F1_the_notice_gives_the_group_sizes_that_are_drawn():
    """The notice said 每组约 4 至 6 人, while the default drew groups of 3 for 14–15 and
    27–31 entries and of 7 for 13: it now gives the sizes the default draws."""
    from pipeline.draw.groups_knockout import default_group_count

    text = FORMATS.get("groups_knockout").describe({})
    assert "3 至 7 人" in text and "不足 7 人时为一个组" in text
    for n in range(7, 501):
        g = default_group_count(n)
        assert g > 1 and 3 <= n // g and -(-n // g) <= 7, n
    assert all(default_group_count(n) == 1 for n in range(2, 7))


def _play_withdrawing_a_bye(fmt_name: str, options: dict, n: int, before_played: bool) -> tuple:
    """An event played to its end (the lower id wins every table, places 1, 2, 3 at a table
    of three) where the office withdraws the first holder of a 晋级签 of a knockout round or
    a round of tables — before that round is played (its bye then not scored: the runner's
    result for it an absence, :meth:`pipeline.run.EventRunner.unscored_byes`) or after.
    Returns (state, the bye holder, the round)."""
    from pipeline.draw import bye_scores

    fmt = FORMATS.get(fmt_name)
    st = new_state(make_entries(n, branches=n), options)
    rng = random.Random(7)
    gone, at = None, None
    while (r := fmt.next_round(st, rng)) is not None:
        st.rounds.append(r)
        byes = [m for m in r.matches if m.bye and r.plan.get("kind") in ("ko", "tables") and bye_scores(fmt_name, r)]
        if gone is None and byes:
            gone, at = byes[0].sides[0], r
            st.withdrawn = frozenset({gone})
        for m in r.matches:
            if m.bye:
                st.results[m.key] = (MatchResult(m, (SideResult(Outcome.ABSENT),)) if before_played and gone in m.sides
                                     else bye_result(m))
                continue
            order = sorted(m.sides)
            st.results[m.key] = MatchResult(m, tuple(
                SideResult(Outcome.WIN if order.index(s) == 0 else Outcome.LOSS, 3 if order.index(s) == 0 else 0,
                           place=order.index(s) + 1) for s in m.sides))
    assert gone is not None
    return st, gone, at


@pytest.mark.parametrize("fmt, options, n", [
    ("knockout", {"final_pool": 2}, 6), ("groups_knockout", {"groups": 3}, 9), ("tables_of_three", {}, 8)])
@pytest.mark.parametrize("before_played", [True, False])
def test_R2020_F1_a_bye_holder_withdrawn_is_placed_as_far_as_it_got(fmt, options, n, before_played):
    """R2020-F1 / R2020-D1 with the handbook's 缺席、弃权和退赛: a 晋级签 holder the office
    withdrew goes no further; withdrawn before its round was played, its bye is not scored and
    it is placed with the round's losers (a table of three's: below every seat of the round);
    withdrawn after, with the round's winners (it went through).  It was placed last, below the
    first round's losers, either way.  A withdrawal is the office's decision, no absence: its
    place is never vacant (R2011-R1's 空缺 is for one who lost a match by not coming)."""
    st, gone, at = _play_withdrawing_a_bye(fmt, options, n, before_played)
    assert all(gone not in m.sides for r in st.rounds if r.round > at.round for m in r.matches)
    places = {p.entry: p for p in FORMATS.get(fmt).placements(st)}
    tier = places[gone].tier
    assert not places[gone].vacant and not any(p.vacant for p in places.values())
    assert tier.startswith(at.stage_name), (tier, at.stage_name)
    assert tier.endswith(("负者", "晋级签（已退赛，不晋级）") if before_played else ("胜者", "第1名")), tier
    # the round's losers at a table: below it when it went through, beside it when it did not
    beaten = [s for m in at.matches if not m.bye for s in m.sides if s != min(m.sides)]
    if before_played and fmt == "tables_of_three":
        assert all(places[gone].rank > places[s].rank for m in at.matches if not m.bye for s in m.sides)
    elif before_played:
        assert any(places[s].tier == tier for s in beaten)
    else:
        assert all(places[gone].rank < places[s].rank for s in beaten)


@pytest.mark.parametrize("fmt, options, n", [
    ("knockout", {"final_pool": 2}, 7), ("groups_knockout", {"groups": 3}, 9), ("tables_of_three", {}, 8),
    ("tables_of_three", {"fill": "bye"}, 10)])
@pytest.mark.parametrize("before_played", [True, False])
def test_R2020_F1_the_next_draw_says_a_withdrawn_bye_holder_withdrew(fmt, options, n, before_played):
    """R2020-F1 with the handbook's 缺席、弃权和退赛: the round drawn after a 晋级签 whose holder
    the office withdrew says so (已退赛，不再编排) — also when it was withdrawn before the round
    was played and its bye is not scored (winner_of gives no winner for it)."""
    st, gone, at = _play_withdrawing_a_bye(fmt, options, n, before_played)
    nxt = next(r for r in st.rounds if r.round == at.round + 1)
    name = shown_list(st, [gone])
    assert any(name in nt and "已退赛，不再编排" in nt for nt in nxt.notes), (name, nxt.notes)


@pytest.mark.parametrize("n, groups, rests", [(28, 4, 4), (27, 4, 3), (25, 4, 1), (26, 4, 2)])
def test_a_group_rounds_rests_are_one_note(n, groups, rests):
    """The bench's 象棋团体 (eight groups of 7): each round four notes “F组共7人（奇数），按
    贝格尔编排许欣本轮轮空。” repeated the 轮空 list printed above them, and its draw sheet ran
    onto a page 2 of two notes and the seed line.  Several groups with a rest are one note
    naming the groups (their rests are the round's byes); one group's names who rests."""
    from pipeline.draw.common import shown

    st = simulate("groups_knockout", make_entries(n, 11), {"groups": groups}, seed=3, stop_after=2)
    sizes = {g: len(m) for g, m in st.rounds[0].plan["groups"].items()}
    for rnd in st.rounds:
        resting = [m for m in rnd.matches if m.bye]
        assert len(resting) == rests, sizes
        said = [x for x in rnd.notes if "轮空" in x]
        assert len(said) == 1, rnd.notes
        if rests == 1:
            assert shown(st, resting[0].sides[0]) in said[0] and "按贝格尔编排" in said[0], said
        else:
            assert all(f"{m.group}组" in said[0] for m in resting), said
            assert not any(shown(st, m.sides[0]) in said[0] for m in resting), said
            assert said[0].endswith("按贝格尔编排每组 1 人本轮轮空。"), said
        assert sum("抽签序号" in x for x in rnd.notes) == (groups if rnd.round == 1 else 0), rnd.notes


def test_R2020_D2_each_tables_level_runners_up_are_asked_alike_and_settled_alone():
    """R2020-D2, every round-2 table 4/-2/-2: each table has two level 2nd, who play for its one
    三等奖.  The three 加赛 were asked as 第4名（三等奖）, 第6名（三等奖/决赛参与奖）, 第8名（三等奖）
    — provisional places by table order, read as if both got the prize; after one of them was
    played the others were asked again under other places.  Each is asked by its table, the
    same way, saying only one of the two gets the 三等奖; one table's 加赛 settles its pair alone."""
    from types import SimpleNamespace

    from pipeline.layout import FINAL_PLACES
    from pipeline.run import _tie_notes
    from pipeline.score import AWARD_SCHEMES
    from pipeline.spec import AwardSpec

    fmt, scheme = FORMATS.get("tables_of_three"), AWARD_SCHEMES.get("ranked")
    st, playoffs, tables = _doudizhu_to_the_final([(4, -2, -2)] * 3)
    awards = AwardSpec(scheme="ranked", extra=_D2_AWARDS)

    def notes():
        pl = fmt.placements(st)
        pending = scheme.undecided(awards, pl)
        assert {kinds for *_, kinds in pending} <= {("三等奖",)}
        ev = SimpleNamespace(ties=[(FINAL_PLACES, g, ids) for g, _, ids, _ in pending],
                             spec=SimpleNamespace(awards=awards), placements=pl)
        return {ids: said for (_, _, ids), (said, _) in _tie_notes(ev).items()}

    asked = {frozenset(t[1:]): f"第2轮第{n}桌第2名并列（三等奖只能由其中一人获得）" for n, t in enumerate(tables, 1)}
    assert notes() == asked
    t1, t2, t3 = tables
    playoffs.append(Playoff(EVENT, FINAL_PLACES, "", (t2[2], t2[1])))
    assert notes() == {k: v for k, v in asked.items() if k != frozenset(t2[1:])}
    playoffs += [Playoff(EVENT, FINAL_PLACES, "", (t1[1], t1[2])), Playoff(EVENT, FINAL_PLACES, "", (t3[2], t3[1]))]
    assert notes() == {}
    rows, problems = scheme.assign(awards, fmt.placements(st), st.entries)
    assert {r.entry for r in rows if r.award == "三等奖"} == {t1[1], t2[2], t3[2]} and not problems
