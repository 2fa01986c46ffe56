"""R2016-S1: the standings' 含轮空 1 轮 (and the event page's 轮空1, the caption 积分含轮空，
轮空按52分计) count only the byes the table's points hold.  T2016 audit: after round 1, with
round 2 drawn and 外语1队 sitting it out, 截至分组赛第1轮 showed 外语1队 积分 4 with
含轮空 1 轮 — a bye not played yet, not in its 4 points."""
from __future__ import annotations

from pipeline.model import Match, MatchResult, Outcome, Round, SideResult
from pipeline.render.site_vm import Names, standing_vms
from pipeline.render.viewmodels import scored_byes, standing_table
from pipeline.score.base import StandingRow
from pipeline.state import StandingTable

from .states import t2016_state

EV = "guandan"


def _state():
    state = t2016_state()
    es = state.events[EV]
    a, b = (e.id for e in es.entries)
    # round 1: C组 a v b (b loses 96:4); round 2 drawn: a v x, b sits out with the bye, not yet played
    m1 = Match(EV, "group", 1, "C", 1, (a, b))
    m2 = Match(EV, "group", 2, "C", 1, (a, "guandan-x"))
    es.results = {m1.key: MatchResult(m1, (SideResult(Outcome.WIN, 96, 96), SideResult(Outcome.LOSS, 4, 4)))}
    plan = {"kind": "group", "groups": {"C": [a, b]}, "of": 3}
    es.rounds[:] = [Round(EV, "group", "分组赛第1轮", 1, (m1,), plan={**plan, "round_no": 1}),
                    Round(EV, "group", "分组赛第2轮", 2, (m2, Match(EV, "group", 2, "C", 2, (b,), bye=True)),
                          plan={**plan, "round_no": 2})]
    st = StandingTable(EV, "group", "分组赛", "C", (StandingRow(a, 1, 96, 96, 1, 1, 0, 0),
                                                   StandingRow(b, 2, 4, 4, 1, 0, 0, 1)), ())
    es.standings = [st]
    return state, es, st, b, m2


def test_R2016_S1_a_bye_of_a_round_drawn_not_played_is_not_said_in_the_points():
    state, es, st, b, m2 = _state()
    assert not scored_byes(es, st)
    table = standing_table(state, es, st)
    assert "含轮空" not in "".join(str(c) for row in table.rows for c in row)
    assert "积分含轮空" not in table.caption
    vm = standing_vms([st], Names(state), es)[0]
    assert all("轮空" not in r.record for r in vm.rows)


def test_R2016_S1_the_bye_is_said_once_its_groups_round_is_played():
    state, es, st, b, m2 = _state()
    es.results = {**es.results, m2.key: MatchResult(m2, (SideResult(Outcome.WIN, 68, 68), SideResult(Outcome.LOSS, 32, 32)))}
    assert scored_byes(es, st) == {b: 1}
