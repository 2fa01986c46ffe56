"""R2016-F3 (3 rounds; cumulative score): a tie in a group's table is for a 加赛 only after
the group's last planned round.  T2016 audit: D组's two teams level at 68 after round 1 of 3
were 需加赛 on the event page and the standings (the group's rounds drawn so far were in)."""
from __future__ import annotations

import types

from pipeline.model import Match, MatchResult, Outcome, Round, SideResult
from pipeline.run import EventRunner

EV = "guandan"


def _table(rnd: int, t: int, a: str, b: str, sa: int) -> MatchResult:
    m = Match(EV, "group", rnd, "D", t, (a, b))
    w, lo = (Outcome.WIN, Outcome.LOSS) if sa > 50 else (Outcome.LOSS, Outcome.WIN)
    return MatchResult(m, (SideResult(w, sa, sa), SideResult(lo, 100 - sa, 100 - sa)))


def _runner(rounds_drawn: int, *, complete: bool = False):
    """D组 of six: d5 100, d1 and d3 level at 68 for 2nd (top 2 get awards) after each round."""
    results, rounds = {}, []
    for k in range(1, rounds_drawn + 1):
        rs = [_table(k, 1, "d1", "d2", 68), _table(k, 2, "d3", "d4", 68), _table(k, 3, "d5", "d6", 100)] \
            if k == 1 else [_table(k, 1, "d1", "d3", 52 if k == 2 else 48), _table(k, 2, "d5", "d2", 100),
                            _table(k, 3, "d4", "d6", 60)]
        results.update({r.match.key: r for r in rs})
        rounds.append(Round(EV, "group", f"分组赛第{k}轮", k, tuple(r.match for r in rs),
                            plan={"kind": "group", "groups": {"D": [f"d{i}" for i in range(1, 7)]},
                                  "round_no": k, "of": 3}))
    ns = types.SimpleNamespace(
        ev=types.SimpleNamespace(id=EV), LEAGUE_STAGES=EventRunner.LEAGUE_STAGES, results=results, playoffs=[], rounds=rounds, fmt=types.SimpleNamespace(name="groups_standings"),
        chain=("game_points", "direct", "playoff"), complete=complete, awaiting_playoff=False,
        points={"bye": 52}, withdrawn_ids=lambda: frozenset(), places_by_group=lambda: True,
        place_boundaries=lambda stage: {2, 3})
    ns.stage_last_rounds = lambda: EventRunner.stage_last_rounds(ns)
    return ns


def test_R2016_F3_no_playoff_after_round_1_of_3():
    (table,) = EventRunner.standings(_runner(1))
    assert "playoff" not in table.chain
    assert not any(r.playoff_required for r in table.rows)
    assert [r.rank for r in table.rows if r.entry in ("d1", "d3")] == [2, 2]     # level: the current order


def test_R2016_F3_playoff_due_after_the_last_planned_round():
    runner = _runner(3)
    (table,) = EventRunner.standings(runner)
    assert "playoff" in table.chain
    assert {r.entry for r in table.rows if r.playoff_required} == {"d1", "d3"}
