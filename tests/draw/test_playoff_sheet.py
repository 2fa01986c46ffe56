"""A 加赛 sheet that lists two drawn knockout tables of one round in one order settles
both tables (the side of each table that comes first advances)."""
from __future__ import annotations

import random

import pytest

from pipeline.draw import FORMATS
from pipeline.draw.base import Waiting
from pipeline.model import MatchResult, Outcome, Playoff, SideResult

from .helpers import bye_result, make_entries, new_state


def _draw(m):
    return MatchResult(m, (SideResult(Outcome.DRAW, 1), SideResult(Outcome.DRAW, 1)))


def test_one_playoff_order_settles_two_drawn_knockout_tables():
    fmt = FORMATS.get("knockout")
    state = new_state(make_entries(8, branches=8), {"final_pool": 2})
    rng = random.Random(3)
    r1 = fmt.next_round(state, rng)
    state.rounds.append(r1)
    real = [m for m in r1.matches if not m.bye]
    drawn = real[:2]
    for m in r1.matches:
        state.results[m.key] = (bye_result(m) if m.bye else _draw(m) if m in drawn
                                else MatchResult(m, (SideResult(Outcome.WIN, 2), SideResult(Outcome.LOSS, 0))))
    with pytest.raises(Waiting):
        fmt.next_round(state, rng)
    # one sheet: table 1's second side first, then table 2's first side, then the others
    order = (drawn[0].sides[1], drawn[1].sides[0], drawn[0].sides[0], drawn[1].sides[1])
    state.playoffs.append(Playoff(state.event_id, drawn[0].stage, "", order))
    r2 = fmt.next_round(state, rng)
    advanced = {s for m in r2.matches for s in m.sides}
    assert drawn[0].sides[1] in advanced and drawn[1].sides[0] in advanced
    assert drawn[0].sides[0] not in advanced and drawn[1].sides[1] not in advanced


def test_a_drawn_knockout_table_is_named_as_the_sheets_name_it():
    """The 加赛 a drawn knockout table waits for names it 第N桌, as the draw and result sheets
    do (it said 第1台)."""
    fmt = FORMATS.get("knockout")
    state = new_state(make_entries(8, branches=8), {"final_pool": 2})
    rng = random.Random(3)
    r1 = fmt.next_round(state, rng)
    state.rounds.append(r1)
    for m in r1.matches:
        state.results[m.key] = bye_result(m) if m.bye else _draw(m)
    with pytest.raises(Waiting) as w:
        fmt.next_round(state, rng)
    assert "第1轮第1桌（" in str(w.value) and "台" not in str(w.value)


def _won(m, first_wins: bool):
    a, b = (SideResult(Outcome.WIN, 2), SideResult(Outcome.LOSS, 0))
    return MatchResult(m, (a, b) if first_wins else (b, a))


def _to_the_end(fmt, state, rng, first_wins=lambda m: True) -> None:
    """Play the rounds from the last one drawn to the end: a table's first side wins where
    ``first_wins(match)``, else its second."""
    while True:
        for m in state.rounds[-1].matches:
            state.results[m.key] = bye_result(m) if m.bye else _won(m, first_wins(m))
        nxt = fmt.next_round(state, rng)
        if nxt is None:
            break
        state.rounds.append(nxt)


def _play_group_stage(fmt, state, rng, result, played_off=None) -> None:
    """Draw and play ``state``'s group stage until the format draws its first knockout round
    (appended, unplayed): ``result(m, i, j)`` is a match's result, ``i`` and ``j`` its
    sides' places in their group's sorted members.  A 加赛 the format waits for is
    entered by ``played_off(waiting)``; without it none may be needed."""
    from pipeline.draw.common import PlayoffWaiting

    while True:
        try:
            rnd = fmt.next_round(state, rng)
        except PlayoffWaiting as w:
            if played_off is None:
                raise AssertionError("no playoff is needed at the advancing place")
            played_off(w)
            continue
        except Waiting:
            raise AssertionError("the group stage waits for something else")
        state.rounds.append(rnd)
        if rnd.plan.get("kind") != "group":
            return
        for m in rnd.matches:
            if m.bye:
                state.results[m.key] = bye_result(m)
                continue
            members = sorted(state.rounds[0].plan["groups"][m.group])
            i, j = (members.index(s) for s in m.sides)
            state.results[m.key] = result(m, i, j)


def test_R2011_F1_final_places_playoff_does_not_rerank_a_group():
    """R2011-F1: the 加赛 of the final places orders a tier (every group's level 2nd) and
    leaves each group's own table alone.  Two level 2nd of one group, ordered by it, became
    小组第2名 and 小组第3名: the tier it had ordered changed under it (found by CI)."""
    from pipeline.layout import FINAL_PLACES
    from pipeline.score.standings import rank_fn

    fmt = FORMATS.get("groups_knockout")
    state = new_state(make_entries(8, branches=8), {"groups": 2, "advance": 1, "third_place": False})
    state.rank = rank_fn(["playoff"], state.results, state.playoffs, 2)
    rng = random.Random(5)
    # group stage: in each group its first beats all, 2nd and 3rd draw
    _play_group_stage(fmt, state, rng, lambda m, i, j: _draw(m) if {i, j} == {1, 2} else _won(m, i < j))
    ko = state.rounds[-1]
    _to_the_end(fmt, state, rng)
    assert ko.plan.get("kind") == "ko"
    before = {p.entry: p.tier for p in fmt.placements(state)}
    second = sorted(e for e, t in before.items() if t == "小组第2名")
    assert len(second) == 4, before        # two level 2nd in each group
    state.playoffs.append(Playoff(state.event_id, FINAL_PLACES, "", tuple(reversed(second))))
    after = fmt.placements(state)
    assert {p.entry: p.tier for p in after} == before
    tier = [p.entry for p in sorted(after, key=lambda p: p.rank) if p.tier == "小组第2名"]
    assert tier == list(reversed(second))
    assert not any(p.tied for p in after if p.tier == "小组第2名")


@pytest.mark.parametrize("fmt_name,options", [("knockout", {"final_pool": 2}),
                                              ("groups_knockout", {"groups": 2, "advance": 2, "third_place": False})])
def test_R2011_F1_every_drawn_table_of_a_round_is_asked_for_at_once(fmt_name, options):
    """R2011-F1: two drawn knockout tables — the 加赛 of the first was asked, and the second's
    only the night after it was answered (its form never written: forms/ kept the first)."""
    from pipeline.draw.common import PlayoffWaiting

    fmt = FORMATS.get(fmt_name)
    state = new_state(make_entries(8, branches=8), options)
    rng = random.Random(3)
    while True:
        rnd = fmt.next_round(state, rng)
        state.rounds.append(rnd)
        real = [m for m in rnd.matches if not m.bye]
        if rnd.plan.get("kind") == "ko" and len(real) >= 2:
            break
        for m in rnd.matches:
            state.results[m.key] = bye_result(m) if m.bye else _won(m, True)
    drawn = real[:2]
    for m in rnd.matches:
        state.results[m.key] = bye_result(m) if m.bye else _draw(m) if m in drawn else _won(m, True)
    with pytest.raises(PlayoffWaiting) as w:
        fmt.next_round(state, rng)
    assert sorted(t[2] for t in w.value.ties) == sorted(tuple(m.sides) for m in drawn)
    assert str(w.value).count("未分胜负") == 2 and str(w.value).count("请录入加赛结果") == 1, str(w.value)


def test_R2011_A1_groups_standings_with_event_wide_awards_ranks_each_place_across_the_groups():
    """名次奖 over a 分组积分编排赛: the groups' 1st are placed first, then their 2nd …, each
    tier ranked across the groups by points — the group winners were ordered by entry id.
    A tie across groups takes the final places' 加赛, which re-ranks no group."""
    from pipeline.layout import FINAL_PLACES
    from pipeline.score.standings import rank_fn

    fmt = FORMATS.get("groups_standings")
    state = new_state(make_entries(8, branches=8), {"groups": 2, "rounds": 3})
    state.rank = rank_fn(["wins", "playoff"], state.results, state.playoffs, 2)
    state.places_by_group = False
    rng = random.Random(11)
    while (rnd := fmt.next_round(state, rng)) is not None:
        state.rounds.append(rnd)
        for m in rnd.matches:       # the smaller id wins, but in group B the larger
            first = (m.sides[0] < m.sides[1]) == (m.group != "B")
            state.results[m.key] = bye_result(m) if m.bye else _won(m, first)
    groups = state.rounds[0].plan["groups"]
    places = sorted(fmt.placements(state), key=lambda p: (p.rank, p.entry))
    assert {p.group for p in places} == {""}
    tiers = [p.tier for p in places]
    assert tiers == sorted(tiers, key=lambda t: int(t.removeprefix("各组第").removesuffix("名")))
    # every tier holds one of each group; equal wins across groups are level, then a 加赛 orders them
    first = [p for p in places if p.tier == "各组第1名"]
    assert {p.entry for p in first} == {min(groups["A"]), max(groups["B"])}
    assert all(p.tied for p in first) and first[0].rank == first[1].rank == 1
    order = (max(groups["B"]), min(groups["A"]))
    state.playoffs.append(Playoff(state.event_id, FINAL_PLACES, "", order))
    after = sorted(fmt.placements(state), key=lambda p: (p.rank, p.entry))
    assert [p.entry for p in after[:2]] == list(order) and not after[0].tied
    assert {p.entry: p.tier for p in after} == {p.entry: p.tier for p in places}
    # per group (各组前N名): each group placed apart, as before
    state.places_by_group = True
    assert {p.group for p in fmt.placements(state)} == {"A", "B"}


def test_R2011_F1_a_group_playoff_does_not_settle_a_later_tie_in_the_final_places():
    """R2011-F1: a group's 加赛 settles the tie for its advancing places, and nothing else.
    Three level 1st of group A (two advance) play off a > b > c; a and b then both lose their
    semi-finals (no 三四名 match) and are level again in the final places — a tie that 加赛
    was never played for: it is open (a 加赛 of the final places, 最终名次, settles it)."""
    from pipeline.layout import FINAL_PLACES
    from pipeline.score.standings import rank_fn

    fmt = FORMATS.get("groups_knockout")
    state = new_state(make_entries(8, branches=8), {"groups": 2, "advance": 2, "third_place": False})
    state.rank = rank_fn(["direct", "playoff"], state.results, state.playoffs, 2)
    rng = random.Random(5)

    def played_off(w):           # the group's 加赛, entered in the order the entries sort
        for _, g, tied in w.ties:
            state.playoffs.append(Playoff(state.event_id, "group", g, tuple(sorted(tied))))
    # group stage: the first three of each group draw, all beat the 4th
    _play_group_stage(fmt, state, rng, lambda m, i, j: _draw(m) if 3 not in (i, j) else _won(m, i < j), played_off)
    groups = state.rounds[0].plan["groups"]
    a, b = sorted(groups["A"])[:2]
    assert len(state.playoffs) == 2, state.playoffs      # one 加赛 per group, for its advancing places
    _to_the_end(fmt, state, rng, lambda m: m.sides[0] not in groups["A"])     # knockout: group A's all lose
    places = {p.entry: p for p in fmt.placements(state)}
    assert places[a].tier == places[b].tier == "半决赛负者"
    assert places[a].rank == places[b].rank == 3 and places[a].tied and places[b].tied, \
        "the group's 加赛 was applied to the final places' tie"
    state.playoffs.append(Playoff(state.event_id, FINAL_PLACES, "", (b, a)))
    places = {p.entry: p for p in fmt.placements(state)}
    assert (places[b].rank, places[a].rank) == (3, 4) and not places[a].tied


def test_R2011_F2_the_losers_of_one_knockout_round_are_ranked_together():
    """R2011-F2 without a 三四名 match: the two semi-final losers are one tier, ordered by the
    ranking (points over the event) — they were ordered by table (table 1's loser 3rd)."""
    from pipeline.score.standings import rank_fn

    fmt = FORMATS.get("groups_knockout")
    state = new_state(make_entries(8, branches=8), {"groups": 2, "advance": 2, "third_place": False})
    state.rank = rank_fn(["wins"], state.results, state.playoffs, 2)
    rng = random.Random(5)
    while (rnd := fmt.next_round(state, rng)) is not None:
        state.rounds.append(rnd)
        for m in rnd.matches:       # the smaller id wins, every round; table 2's semi-final loser scores 1 (3:1)
            won = _won(m, m.sides[0] < m.sides[1])
            if rnd.plan.get("kind") == "ko" and not rnd.plan.get("final") and m.table == 2:
                won = MatchResult(m, tuple(SideResult(s.outcome, s.points or 1) for s in won.sides))
            state.results[m.key] = bye_result(m) if m.bye else won
    semi = next(r for r in state.rounds if r.plan.get("kind") == "ko" and not r.plan.get("final"))
    first, second = (max(m.sides) for m in sorted(semi.matches, key=lambda m: m.table) if not m.bye)
    places = {p.entry: p for p in fmt.placements(state)}
    assert places[first].tier == places[second].tier == "半决赛负者"
    assert (places[second].rank, places[first].rank) == (3, 4), "ordered by table, not by points"


@pytest.mark.parametrize("issued_at", [1, None])
def test_R2011_D2_a_tables_playoff_settles_its_own_round_only(issued_at):
    """R2011-D2: two level at the top of a round-1 table play an extra hand (a first); b,
    revived, is level with a at the top of a round-2 table again: that table needs its own
    加赛 — round 1's settled it (a went on without playing).  Whether the form says its round
    (_meta) or not (a hand-made sheet: it is the earlier table's)."""
    from pipeline.draw.common import PlayoffWaiting, winner_of
    from pipeline.model import Match, Round

    state = new_state(make_entries(6, branches=6))
    a, b, c, d = (e.id for e in state.entries[:4])

    def table(k: int, sides) -> Match:
        m = Match(state.event_id, "tables", k, "", 1, sides)
        state.rounds.append(Round(state.event_id, "tables", f"第{k}轮", k, (m,)))
        state.results[m.key] = MatchResult(m, (SideResult(Outcome.DRAW, 0, 6), SideResult(Outcome.DRAW, 0, 6),
                                               SideResult(Outcome.LOSS, 0, -12, place=3)))
        return m

    first = table(1, (a, b, c))
    said = {"round": issued_at} if issued_at else {}
    state.playoffs.append(Playoff(state.event_id, "tables", "", (a, b), places=(1, 2), **said))
    assert winner_of(state, first) == a
    second = table(2, (b, a, d))
    with pytest.raises(PlayoffWaiting) as w:
        winner_of(state, second)
    assert w.value.ties == [("tables", "", (b, a, d))]
    state.playoffs.append(Playoff(state.event_id, "tables", "", (b, a), places=(1, 2), **({"round": 2} if said else {})))
    assert winner_of(state, second) == b and winner_of(state, first) == a


@pytest.mark.parametrize("label", ["blank group", "another group"])
def test_R2011_F1_a_playoff_labelled_for_no_tie_orders_no_tier(label):
    """R2011-F1 (一次加赛只决定它所针对的那次并列): a 加赛 row whose 阶段/组别 names no tie the
    event has — 阶段 group with 组别 blank (the group stage is played in groups A, B …), or a
    group its two players were not both in — settles nothing.  The t2011 sample's sheet held
    such rows beside group C's playoff; nobody had asked for them, yet they ordered the level
    小组第2名 tier across the groups (shared 7th became 7th and 8th) without a word."""
    from pipeline.layout import FINAL_PLACES
    from pipeline.score.standings import rank_fn

    fmt = FORMATS.get("groups_knockout")
    state = new_state(make_entries(8, branches=8), {"groups": 2, "advance": 1, "third_place": False})
    state.rank = rank_fn(["playoff"], state.results, state.playoffs, 2)
    rng = random.Random(5)
    _play_group_stage(fmt, state, rng, lambda m, i, j: _draw(m) if {i, j} == {1, 2} else _won(m, i < j))
    _to_the_end(fmt, state, rng)
    groups = state.rounds[0].plan["groups"]
    before = {p.entry: (p.rank, p.tied) for p in fmt.placements(state)}
    tier = sorted(p.entry for p in fmt.placements(state) if p.tier == "小组第2名")
    a = next(e for e in tier if e in groups["A"])
    b = next(e for e in tier if e in groups["B"])
    assert len(tier) == 4 and all(before[e][1] and before[e][0] == before[a][0] for e in tier), before
    # the four level 2nd of both groups ranked 1–4 under one group label
    group = "" if label == "blank group" else "A"
    order = tuple(sorted(tier, key=lambda e: e != b))
    state.playoffs.append(Playoff(state.event_id, "group", group, order, places=(1, 2, 3, 4)))
    after = {p.entry: (p.rank, p.tied) for p in fmt.placements(state)}
    assert after == before, "a 加赛 addressing no tie ordered the final places"
    # the final places' 加赛 (阶段 最终名次) of the same level entries does order them
    state.playoffs.append(Playoff(state.event_id, FINAL_PLACES, "", order))
    after = {p.entry: p for p in fmt.placements(state)}
    assert after[b].rank < after[a].rank


def test_R2011_F1_a_knockout_playoff_of_another_group_decides_no_table():
    """R2011-F1: a 加赛 row of a knockout table's two sides whose 组别 names a group the table is
    not of (the knockout has none) is no playoff of that table: the draw still waits."""
    fmt = FORMATS.get("knockout")
    state = new_state(make_entries(8, branches=8), {"final_pool": 2})
    rng = random.Random(3)
    r1 = fmt.next_round(state, rng)
    state.rounds.append(r1)
    drawn = next(m for m in r1.matches if not m.bye)
    for m in r1.matches:
        state.results[m.key] = (bye_result(m) if m.bye else _draw(m) if m is drawn
                                else MatchResult(m, (SideResult(Outcome.WIN, 2), SideResult(Outcome.LOSS, 0))))
    state.playoffs.append(Playoff(state.event_id, drawn.stage, "B", tuple(reversed(drawn.sides))))
    with pytest.raises(Waiting):
        fmt.next_round(state, rng)
    state.playoffs.append(Playoff(state.event_id, drawn.stage, "", tuple(reversed(drawn.sides))))
    assert drawn.sides[1] in {s for m in fmt.next_round(state, rng).matches for s in m.sides}
