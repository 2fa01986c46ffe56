"""R2011-F2 final places below the knockout (最终名次): the entries of one group place
(小组第2名 …) from groups of different sizes are compared by their group 得分率 first."""
from __future__ import annotations

import random

from pipeline.draw import FORMATS
from pipeline.model import MatchResult, Outcome, SideResult

from .helpers import make_entries, new_state


def _res(m, a, b):
    return MatchResult(m, (SideResult(a, {Outcome.WIN: 2, Outcome.DRAW: 1}.get(a, 0)),
                           SideResult(b, {Outcome.WIN: 2, Outcome.DRAW: 1}.get(b, 0))))


def _group_result(m, i, j, size):
    """Lower place wins — except in the 6-player group, where 1 and 2 draw and 3 beats 2:
    its 2nd (1) has 7 points from 5 games (7/5), the 5-player group's 2nd 6 from 4 (6/4)."""
    W, L, D = Outcome.WIN, Outcome.LOSS, Outcome.DRAW
    if size == 6 and {i, j} == {1, 2}:
        return _res(m, D, D)
    if size == 6 and {i, j} == {2, 3}:
        return _res(m, W, L) if i == 3 else _res(m, L, W)
    return _res(m, W, L) if i < j else _res(m, L, W)


def _event(groups: int, n: int, seed: int = 1):
    fmt = FORMATS.get("groups_knockout")
    state = new_state(make_entries(n, branches=n), {"groups": groups, "advance": 1, "third_place": False})
    rng = random.Random(seed)
    while (rnd := fmt.next_round(state, rng)) is not None:
        state.rounds.append(rnd)
        plan_groups = state.rounds[0].plan["groups"]
        for m in rnd.matches:
            if m.bye:
                # a group's rest (轮休) scores nothing; a knockout bye advances
                state.results[m.key] = MatchResult(m, (SideResult(Outcome.BYE, 0),))
            elif rnd.plan.get("kind") == "group":
                members = sorted(plan_groups[m.group])
                i, j = (members.index(s) for s in m.sides)
                state.results[m.key] = _group_result(m, i, j, len(members))
            else:
                state.results[m.key] = _res(m, Outcome.WIN, Outcome.LOSS)
    return fmt, state


def _points(state, e):
    """``e``'s group stage points."""
    group = {r.round for r in state.rounds if r.plan.get("kind") == "group"}
    return sum(r.sides[r.match.sides.index(e)].points for r in state.results.values()
               if e in r.match.sides and r.match.round in group)


def test_R2011_F2_group_places_of_unequal_groups_by_score_rate():
    """t2011 象棋 (groups of 6/5/5/6): a 6-player group's 2nd (7 points, 5 games) was placed
    above a 5-player group's 2nd (6 points, 4 games and a 0-point rest): raw points favour
    the bigger group.  Decision (handbook, 最终名次): 得分率 first, exact fractions."""
    fmt, state = _event(2, 11)
    groups = state.rounds[0].plan["groups"]
    assert sorted(len(v) for v in groups.values()) == [5, 6]
    places = sorted(fmt.placements(state), key=lambda p: p.rank)
    second = [p.entry for p in places if p.tier == "小组第2名"]
    big = next(g for g, v in groups.items() if len(v) == 6)
    assert [_points(state, e) for e in second] == ([6, 7] if second[0] not in groups[big] else [7, 6])
    assert second[0] not in groups[big], "6/4 beats 7/5"
    assert not any(p.tied for p in places if p.tier == "小组第2名")


def test_R2011_F2_group_places_of_equal_groups_unchanged():
    """Equal group sizes: the tier is ranked by the event's chain as before (points first)."""
    fmt, state = _event(2, 12)
    places = sorted(fmt.placements(state), key=lambda p: p.rank)
    second = [p.entry for p in places if p.tier == "小组第2名"]
    assert [_points(state, e) for e in second] == [7, 7]
    assert all(p.tied for p in places if p.tier == "小组第2名")


def test_R2011_F2_final_places_note_says_the_score_rate():
    """The standings' 最终名次 says how places of unequal groups are compared — only when the
    places shown follow it (kept places of an earlier version, PLACES_KEPT, may not)."""
    import dataclasses

    fmt, state = _event(2, 11)
    places = fmt.placements(state)
    points = {e.id: _points(state, e.id) for e in state.entries}
    [note] = fmt.placement_notes(state.rounds, places, points)
    assert "得分率" in note and "每人 5 局" in note and "每人 4 局" in note
    # the order raw points gave (the two 2nd places swapped): no note
    second = sorted((p for p in places if p.tier == "小组第2名"), key=lambda p: p.rank)
    swapped = {second[0].entry: second[1].rank, second[1].entry: second[0].rank}
    old = [dataclasses.replace(p, rank=swapped.get(p.entry, p.rank)) for p in places]
    assert fmt.placement_notes(state.rounds, old, points) == []
    fmt, state = _event(2, 12)
    points = {e.id: _points(state, e.id) for e in state.entries}
    assert fmt.placement_notes(state.rounds, fmt.placements(state), points) == []
