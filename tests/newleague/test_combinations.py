"""Property (issue 9): any league the registries allow — several events, each a registered
game × a format with the same seats × a small entry count × a quota rule — set up through
`league new` from answers alone, plays through the whole batch to the end: every event
complete, awards as the scheme says, no error-severity issue on any night."""
from __future__ import annotations

import math
import random
import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, Phase, example, given, settings
from hypothesis import strategies as st

from pipeline import newleague
from pipeline.draw import FORMATS
from pipeline.games import GAMES
from pipeline.issues import Severity
from pipeline.registries import fits
from pipeline.score import AWARD_SCHEMES
from pipeline.spec import load_tournament
from pipeline.validate.checks import quota_for

from .batch import play_to_completion
from .helpers import fill_registrations, small_answers

PAIRS = {"bridge", "guandan", "shuangsheng", "shuangkou"}
COMBOS = [(g, f) for g, game in GAMES.items() for f, fmt in FORMATS.items() if fits(game, fmt)]
RULES = ["fixed", "bands", "ratio", "open"]
SCHEMES = ["名次奖", "前N名", "小组前N名"]
UNITS = 8          # members 30, 40 … 100 (small_answers)

event_st = st.tuples(st.sampled_from(COMBOS), st.integers(min_value=4, max_value=16), st.sampled_from(RULES))
league_st = st.lists(event_st, min_size=1, max_size=3)

#: the issue's example: 围棋 by Swiss, 掼蛋 pairs in groups paired by standing, 斗地主 at
#: tables of three and 象棋 groups → knockout, quotas by band, ratio, fixed and open.
MIXED = [(("go", "swiss"), 10, "bands"), (("guandan", "groups_standings"), 8, "ratio"),
         (("doudizhu", "tables_of_three"), 9, "fixed"), (("xiangqi", "groups_knockout"), 12, "open")]


def quota_answer(rule: str, entries: int) -> str:
    """The quota as the office types it; every rule leaves room for ``entries`` over 8 units
    (bands give 1,1,1,2,2,2,3,3; ratio 5 % of 30…100 members gives ≥ 1 entry each)."""
    return {"fixed": f"fixed {math.ceil(entries / UNITS)}", "bands": "分档 0:1,60:2,90:3",
            "ratio": "比例 5%", "open": "open"}[rule]


def answers_for(league: list, scheme: str) -> dict:
    a = small_answers(UNITS)
    a["events"] = [{"name": f"{GAMES.get(g).title}{i + 1}", "game": g, "format": f,
                    "quota": quota_answer(rule, n), "team_size": 2 if g in PAIRS else 1}
                   for i, ((g, f), n, rule) in enumerate(league)]
    a["awards"] = scheme
    return a


def spread(folder: Path, league: list, rng: random.Random) -> dict[str, dict[str, int]]:
    """unit id → event id → entries: ``n`` entries per event dealt over the units within
    each unit's quota (fewer when the quotas hold fewer)."""
    t = load_tournament(folder)
    plan: dict[str, dict[str, int]] = {u.id: {} for u in t.spec.units}
    for ev, (_, n, _) in zip(t.spec.events, league):
        room = {u.id: quota_for(ev, u.unit()) for u in t.spec.units}
        order = [u.id for u in t.spec.units]
        rng.shuffle(order)
        left = n
        while left:
            free = [u for u in order if room[u] is None or plan[u].get(ev.id, 0) < room[u]]
            if not free:
                break
            for u in free[:left]:
                plan[u][ev.id] = plan[u].get(ev.id, 0) + 1
                left -= 1
    return plan


def expected_awards(ev, placements) -> list[tuple[str, int]]:
    """(award, rank) the scheme gives: slots in order over the placements best first,
    per group for group_top."""
    scheme = AWARD_SCHEMES.get(ev.awards.scheme)
    slots = [a for a, n in scheme.places(ev.awards.options) for _ in range(n)]
    groups = sorted({p.group for p in placements}) if ev.awards.scheme == "group_top" else [None]
    out = []
    for g in groups:
        ps = sorted((p for p in placements if g is None or p.group == g), key=lambda p: (p.rank, p.entry))
        out += [(a, p.rank) for a, p in zip(slots, ps)]
    return sorted(out)


# No shrinking (a failing league is printed as generated; shrinking whole batches takes
# minutes) and no example database (the run leaves nothing in the checkout).
@settings(max_examples=5, deadline=None, database=None, phases=[Phase.explicit, Phase.generate],
          suppress_health_check=[HealthCheck.too_slow])
@example(league=MIXED, scheme="名次奖", seed=9)
# found by CI: a group's 加赛 ranked one of three later level in the final places, and was taken
# for a half-filled 加赛 of that tie (BAD_VALUE) before the final places' own sheet came
@example(league=[(("guandan", "pairs_movement"), 12, "fixed"), (("checkers", "groups_knockout"), 16, "fixed"),
                 (("shuangsheng", "swiss"), 9, "ratio")], scheme="前N名", seed=11009)
# found by CI (session 18): a 加赛 form of two ties, and two of them (2nd of each) tied again
# later: the form was taken for their playoff, and called wrong for giving both 名次 2
@example(league=[(("go", "groups_standings"), 8, "ratio"), (("checkers", "groups_knockout"), 16, "open")],
         scheme="小组前N名", seed=442)
# found by CI (session 19): 双升 groups → knockout with 小组前N名; a group's 加赛 left
# "第3分工会1队" without a 名次 (BAD_VALUE) though the referee filled every row
@example(league=[(("checkers", "groups_standings"), 7, "ratio"), (("shuangsheng", "groups_knockout"), 10, "ratio"),
                 (("guandan", "groups_standings"), 12, "fixed")], scheme="小组前N名", seed=19874)
@given(league=league_st, scheme=st.sampled_from(SCHEMES), seed=st.integers(0, 2**16))
def test_any_league_of_registered_combinations_runs_to_the_end(league, scheme, seed):
    rng = random.Random(seed)
    a = answers_for(league, scheme)
    if newleague.scheme_problem(newleague.v_scheme(scheme), a["events"]):
        # awards by group for a format that places no group apart (a knockout's places, a
        # Swiss) are refused at setup: that league is played with awards by place
        with tempfile.TemporaryDirectory() as tmp, pytest.raises(newleague.NewLeagueError, match="按小组颁奖"):
            newleague.create(Path(tmp) / "prop", answers=a)
        a = answers_for(league, "名次奖")
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp) / "prop"
        newleague.create(folder, answers=a)
        plan = spread(folder, league, rng)
        wanted = sum(sum(p.values()) for p in plan.values())
        assert fill_registrations(folder, rng, plan=plan) == wanted
        played = play_to_completion(folder, Path(tmp) / "out", seed=str(seed))
        state = played.state
        errors = [f"{i.code} {i.file}!{i.sheet}!{i.cell}: {i.message}" for i in played.issues if i.severity == Severity.ERROR]
        assert not errors, errors
        t = load_tournament(folder)
        for ev, ((game, fmt), n, rule) in zip(t.spec.events, league):
            es = state.events[ev.id]
            what = f"{game} × {fmt} × {rule} ({len(es.entries)} entries)"
            assert len(es.entries) == sum(p.get(ev.id, 0) for p in plan.values()) >= min(n, 8), what
            assert es.complete, f"{what} not complete after {played.runs} runs: {es.waiting}"
            ids = {e.id for e in es.entries}
            assert {p.entry for p in es.placements} <= ids, what
            for r in es.rounds:
                seated = [s for m in r.matches for s in m.sides]
                assert len(seated) == len(set(seated)), f"{what}: round {r.round} seats someone twice"
            got = sorted((row.award, row.rank) for row in state.awards if row.event == ev.id)
            assert got == expected_awards(ev, es.placements), what
            assert got, f"{what}: no awards"
            for row in state.awards:
                if row.event == ev.id:
                    assert row.prize == ev.awards.prizes.get(row.award, 0)
