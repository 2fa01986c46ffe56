"""R2016-F3 / R2016-S1: a group's bye (52) scores once *its group's* part of the round is
played — the same in the event's placements (ranked over whole rounds) and in the group's
own table (its part of each round).  T2016 audit: round 1 in for A, C and D组, B组's sheet
still out — C组's table showed 信工6队 3rd with its bye's 52, the 当前名次 below it (whole
rounds: the bye held back by B组) put it 9th and last."""
from __future__ import annotations

import dataclasses

from pipeline.model import Match, MatchResult, Outcome, Round, SideResult
from pipeline.score.table import ScoreTable

EV = "guandan"


def _table(rnd: int, group: str, table: int, a: str, b: str, sa: int) -> MatchResult:
    m = Match(EV, "group", rnd, group, table, (a, b))
    win = Outcome.WIN if sa > 50 else Outcome.LOSS
    lose = Outcome.LOSS if sa > 50 else Outcome.WIN
    return MatchResult(m, (SideResult(win, sa, sa), SideResult(lose, 100 - sa, 100 - sa)))


def _round_one():
    c1 = _table(1, "C", 1, "c1", "c2", 68)
    b1 = Match(EV, "group", 1, "B", 1, ("b1", "b2"))            # B组's sheet not back
    bye_c = Match(EV, "group", 1, "C", 2, ("c3",), bye=True)
    bye_b = Match(EV, "group", 1, "B", 2, ("b3",), bye=True)
    rnd = Round(EV, "group", "分组赛第1轮", 1, (b1, bye_b, c1.match, bye_c),
                plan={"kind": "group", "round_no": 1, "of": 3})
    return rnd, {c1.match.key: c1}, bye_c, bye_b


def test_R2016_S1_group_bye_scores_once_its_group_is_in_whatever_other_groups_wait():
    rnd, results, bye_c, bye_b = _round_one()
    whole = ScoreTable([rnd], results, bye_points=52)
    assert whole.points["c3"] == 52                      # C组 played out: its bye counts
    assert whole.points["b3"] == 0                       # B组's table waits: its bye does not yet
    from pipeline.score.table import pending_byes

    assert pending_byes([rnd], results) == {bye_b.key}


def test_R2016_F3_whole_rounds_and_the_groups_own_table_agree_on_the_bye():
    rnd, results, _, _ = _round_one()
    whole = ScoreTable([rnd], results, bye_points=52)
    for g in ("B", "C"):
        own = ScoreTable([dataclasses.replace(rnd, matches=tuple(m for m in rnd.matches if m.group == g))],
                         results, bye_points=52)
        assert {e: p for e, p in whole.points.items() if e.startswith(g.lower())} == dict(own.points)


def test_R2016_S1_a_bye_of_a_round_just_drawn_scores_nothing():
    """Round 2 drawn, nothing of it played: its bye is not in the points yet."""
    rnd, results, _, _ = _round_one()
    r2 = Round(EV, "group", "分组赛第2轮", 2, (Match(EV, "group", 2, "C", 1, ("c3", "c1")),
                                              Match(EV, "group", 2, "C", 2, ("c2",), bye=True)),
               plan={"kind": "group", "round_no": 2, "of": 3})
    assert ScoreTable([rnd, r2], results, bye_points=52).points["c2"] == 32


def test_R2016_S1_a_group_whose_round_is_only_a_bye_scores_it_when_the_whole_round_is_in():
    """D组 down to one pair (the others withdrew): its part of round 2 is d1's bye alone.  Just
    drawn, C组's round-2 table not back: the bye scores nothing yet (handbook: 刚抽签、尚未比赛的
    一轮的轮空不计分) — there is no table of its own group to wait for, so it waits for the round."""
    from pipeline.score.table import pending_byes

    c1 = _table(1, "C", 1, "c1", "c2", 60)
    d1 = _table(1, "D", 1, "d1", "d2", 68)
    r1 = Round(EV, "group", "分组赛第1轮", 1, (c1.match, d1.match), plan={"kind": "group", "round_no": 1, "of": 3})
    c2 = Match(EV, "group", 2, "C", 1, ("c1", "c2"))
    bye = Match(EV, "group", 2, "D", 2, ("d1",), bye=True)
    r2 = Round(EV, "group", "分组赛第2轮", 2, (c2, bye), plan={"kind": "group", "round_no": 2, "of": 3})
    results = {c1.match.key: c1, d1.match.key: d1}
    assert ScoreTable([r1, r2], results, bye_points=52).points["d1"] == 68
    assert pending_byes([r1, r2], results) == {bye.key}
    # the round in: the bye counts
    c2r = _table(2, "C", 1, "c1", "c2", 55)
    done = {**results, c2.key: c2r}
    assert ScoreTable([r1, r2], done, bye_points=52).points["d1"] == 120
    assert pending_byes([r1, r2], done) == set()
