"""The four client tournaments under ``sample_sheets/`` load, and their rule data is right.

Expected numbers are worked out by hand from the rules (R2015-Q3, R2016-Q1, R2011-B1,
R2020-Q1, R2020-S1) and written out literally, so a wrong band, ratio or price in a
``tournament.yaml`` fails here.
"""
from __future__ import annotations

import datetime as dt
import math
import re
from pathlib import Path

import pytest
import yaml

from pipeline.spec import QuotaSpec, Tournament, TournamentSpec, load_tournament, validated

SAMPLES = Path(__file__).resolve().parents[2] / "sample_sheets"
IDS = ["t2020-league", "t2015-tcm", "t2011-court", "t2016-poker"]
CST = dt.timezone(dt.timedelta(hours=8))

# Names the colleagues' registries provide (brief of this sample set); a sample must use only these.
FORMATS = {"knockout", "round_robin", "groups_knockout", "tables_of_three", "groups_standings",
           "swiss", "pairs_movement"}
GAMES = {"xiangqi", "go", "checkers", "shuangsheng", "shuangkou", "guandan", "doudizhu", "bridge"}
TIEBREAKS = {"direct", "wins", "buchholz", "buchholz_cut1", "sonneborn_berger", "progressive",
             "black_wins", "game_points", "playoff"}
AWARD_SCHEMES = {"ranked", "group_top"}


def raw_spec(tid: str) -> dict:
    """The parsed YAML of one sample, without registry checks."""
    return yaml.safe_load((SAMPLES / tid / "tournament.yaml").read_text(encoding="utf-8"))


def spec_of(tid: str) -> TournamentSpec:
    """The structurally validated spec of one sample (pydantic only)."""
    return validated(TournamentSpec, raw_spec(tid))


def allowed_entries(quota: QuotaSpec, members: int, team_size: int) -> int | None:
    """Entries a branch may field, read literally from the QuotaSpec docstring (None = open).

    >>> allowed_entries(QuotaSpec(rule="fixed", per_branch=2), 80, 1)
    2
    """
    if quota.rule == "open":
        return None
    if quota.rule == "fixed":
        return quota.per_branch
    if quota.rule == "bands":
        band = max((b for b in quota.bands if b.min_members <= members), key=lambda b: b.min_members)
        extra = (members - band.min_members) // quota.extra_every if quota.extra_every else 0
        return band.entries + extra
    rounding = {"floor": math.floor, "ceil": math.ceil, "round": round}[quota.rounding]
    players = rounding(quota.ratio * members)
    return max(quota.minimum, players // team_size)


# -- every sample loads ----------------------------------------------------------------------

@pytest.mark.parametrize("tid", IDS)
def test_sample_loads_with_load_tournament(tid: str) -> None:
    """The full loader (structure + registry names + secret) accepts every sample."""
    t = load_tournament(SAMPLES / tid)
    assert isinstance(t, Tournament)
    assert t.spec.id == tid
    assert len(t.secret) == 40


@pytest.mark.parametrize("tid", IDS)
def test_sample_structure(tid: str) -> None:
    """Structure, secret and names are sound even before the registries are filled."""
    spec = spec_of(tid)
    assert spec.id == tid and spec.seed == tid
    assert re.fullmatch(r"[0-9a-f]{40}", (SAMPLES / tid / "secret.key").read_text().strip())
    for ev in spec.events:
        assert ev.game in GAMES, ev.game
        assert ev.format.type in FORMATS, ev.format.type
        assert set(ev.tiebreaks or ()) <= TIEBREAKS, ev.tiebreaks
        assert ev.awards.scheme in AWARD_SCHEMES, ev.awards.scheme
        assert ev.deadline is not None and ev.deadline.utcoffset() == dt.timedelta(hours=8)
        # finals sessions remain after every deadline (T2015: Shuangkou closes later)
        later = [s for s in spec.sessions if dt.datetime.combine(s.date, s.start, CST) > ev.deadline]
        assert len(later) >= 2 or len(spec.sessions) == 1 and later, (ev.id, ev.deadline)
    for u in spec.units:
        assert u.members > 0 and u.captain and u.emails, u.id
        assert all(re.fullmatch(r"[a-z0-9.]+@[a-z0-9.-]+\.example\.[a-z.]+", e) for e in u.emails), u.emails
    for s in spec.sessions:
        assert s.start < s.end


@pytest.mark.parametrize("tid", IDS)
def test_yaml_values_are_simplified_chinese(tid: str) -> None:
    """Specs are written in simplified Chinese; a traditional script is the renderer's job."""
    import opencc

    t2s = opencc.OpenCC("t2s")

    def strings(node):
        if isinstance(node, dict):
            for v in node.values():
                yield from strings(v)
        elif isinstance(node, list):
            for v in node:
                yield from strings(v)
        elif isinstance(node, str):
            yield node

    for s in strings(raw_spec(tid)):
        assert t2s.convert(s) == s, s


# -- T2020 -----------------------------------------------------------------------------------

def test_R2020_Q1_fixed_quotas() -> None:
    """R2020-Q1: 2 players for Xiangqi, Checkers, Doudizhu; 4 players = 2 pairs for Shuangsheng."""
    spec = spec_of("t2020-league")
    players = {ev.id: allowed_entries(ev.quota, 0, ev.team_size) * ev.team_size for ev in spec.events}
    assert players == {"xiangqi": 2, "checkers": 2, "shuangsheng": 4, "doudizhu": 2}
    assert spec.event("双升").team_size == 2
    assert all(ev.quota.short_warning for ev in spec.events)
    assert spec.one_event_per_person   # R2020-Q2
    assert spec.late_policy == "reject"  # R2020-Q4


def test_R2020_Q4_deadline_and_S1_sessions() -> None:
    """R2020-Q4 deadline 2020-11-09 15:00 +08:00; R2020-S1 five sessions 16:00–18:00."""
    spec = spec_of("t2020-league")
    assert {ev.deadline for ev in spec.events} == {dt.datetime(2020, 11, 9, 15, 0, tzinfo=CST)}
    assert [s.date for s in spec.sessions] == [dt.date(2020, 11, d) for d in (10, 11, 12, 17, 18)]
    assert {(s.start, s.end) for s in spec.sessions} == {(dt.time(16), dt.time(18))}


def test_R2020_units_and_committee_from_the_document() -> None:
    """The 11 teams in document order with their captains, who also sit on the committee."""
    spec = spec_of("t2020-league")
    assert [(u.id, u.name, u.captain) for u in spec.units] == [
        ("b01", "行政第一分工会", "庞雪平"), ("b02", "行政第二分工会", "顾现伟"),
        ("b03", "基础教学部分工会", "李佳"), ("b04", "机电工程学院分工会", "朱跃飞"),
        ("b05", "汽车工程学院分工会", "房舒"), ("b06", "交通工程学院分工会", "张静"),
        ("b07", "经济管理学院分工会", "李扬"), ("b08", "马克思主义学院分工会", "李君"),
        ("b09", "智能工程学院分工会", "李硕"), ("b10", "公共体育部分工会", "崔萃"),
        ("b11", "艺术设计与教育分工会", "张晓平"),
    ]
    roles = {r.role: r.names for r in spec.committee}
    assert roles["组长"] == ["李琰霞"] and roles["副组长"] == ["牛俊旺", "焦万芳"]
    assert len(roles["成员"]) == 24 and {u.captain for u in spec.units} <= set(roles["成员"])
    assert "成洁" in spec.contact and "钉钉" in spec.contact


def test_R2020_F1_D1_A1_formats_and_awards() -> None:
    """R2020-F1 knockout to a pool of 3; R2020-D1 tables of three with revival; R2020-A1 awards."""
    spec = spec_of("t2020-league")
    for key in ("象棋", "跳棋", "双升"):
        assert spec.event(key).format.type == "knockout"
        assert spec.event(key).format.options == {"final_pool": 3}
    assert spec.event("斗地主").format.options == {"fill": "revival"}
    for ev in spec.events:
        assert ev.awards.scheme == "ranked"
        assert [(p["award"], p["count"]) for p in ev.awards.options["places"]] == [
            ("一等奖", 1), ("二等奖", 2), ("三等奖", 3)]
        assert ev.awards.options["rest"] == "决赛参与奖"


# -- T2015 -----------------------------------------------------------------------------------

def test_R2015_Q3_band_edges() -> None:
    """R2015-Q3: N<50 → 1, 50–99 → 2, 100–149 → 3, then +1 per further 50 (by hand)."""
    spec = spec_of("t2015-tcm")
    quota = spec.event("shuangkou").quota
    by_hand = {"t01": (149, 3), "t02": (250, 6), "t03": (151, 4), "t04": (100, 3),
               "t05": (150, 4), "t06": (99, 2), "t07": (50, 2), "t08": (49, 1),
               "t09": (23, 1), "t10": (200, 5)}
    got = {u.id: (u.members, allowed_entries(quota, u.members, 2)) for u in spec.units}
    assert got == by_hand
    # the band edges themselves, independent of the invented branches
    edges = {0: 1, 49: 1, 50: 2, 99: 2, 100: 3, 149: 3, 150: 4, 199: 4, 200: 5, 249: 5, 250: 6}
    assert {n: allowed_entries(quota, n, 2) for n in edges} == edges


def test_R2015_Q1_Q2_open_entry_and_deadlines() -> None:
    """R2015-Q1/Q2: Go, Xiangqi, Bridge open entry by 10-30; Bridge pairs across branches;
    R2015-Q3 Shuangkou pairs by 11-14."""
    spec = spec_of("t2015-tcm")
    assert spec.script == "traditional"
    for key in ("go", "xiangqi", "bridge"):
        ev = spec.event(key)
        assert ev.quota.rule == "open" and allowed_entries(ev.quota, 500, ev.team_size) is None
        assert ev.deadline.date() == dt.date(2015, 10, 30)
    assert spec.event("bridge").cross_branch and spec.event("bridge").team_size == 2
    assert spec.event("shuangkou").team_size == 2
    assert spec.event("shuangkou").deadline.date() == dt.date(2015, 11, 14)
    assert all(dt.date(2015, 11, 1) <= s.date <= dt.date(2015, 12, 31) for s in spec.sessions)


def test_R2015_A1_B1_awards_and_budget_sources() -> None:
    """R2015-A1 top three + discretionary and branch awards; R2015-B1 two fund sources."""
    spec = spec_of("t2015-tcm")
    for ev in spec.events:
        assert sum(p["count"] for p in ev.awards.options["places"]) == 3
    assert spec.discretionary_awards == ["风尚奖", "潜力选手奖", "优胜奖", "特别贡献奖"]
    assert spec.branch_award == "组织奖"
    assert {b.source for b in spec.budget} == {"分工会活动费", "文体活动费"}
    assert all(b.total > 0 for b in spec.budget)


# -- T2011 -----------------------------------------------------------------------------------

def test_R2011_B1_budget_reproduces_1600() -> None:
    """R2011-B1: 20 decks × 10 = 200; 5 sets × 40 = 200; prizes 2 × (300+200+100) = 1200; 1600."""
    spec = spec_of("t2011-court")
    items = {b.name: (b.quantity, b.unit_price, b.total) for b in spec.budget}
    assert items == {"扑克牌": (20, 10, 200), "中国象棋": (5, 40, 200)}
    prizes = 0
    for ev in spec.events:
        counts = {p["award"]: p["count"] for p in ev.awards.options["places"]}
        assert ev.awards.prizes == {"第一名": 300, "第二名": 200, "第三名": 100}   # R2011-A1
        prizes += sum(counts[a] * yuan for a, yuan in ev.awards.prizes.items())
    assert prizes == 1200
    assert sum(b.total for b in spec.budget) + prizes == 1600


def test_R2011_F1_D1_formats_points_and_options() -> None:
    """R2011-F1 groups + 3/1/0 + playoff; R2011-F2 two halves and third place; R2011-D1 start 10."""
    spec = spec_of("t2011-court")
    assert spec.unit_word == "部门" and spec.venue == "大礼堂"
    xq = spec.event("中国象棋")
    assert xq.format.type == "groups_knockout" and xq.format.options["third_place"] is True
    assert (xq.points["win"], xq.points["draw"], xq.points["loss"]) == (3, 1, 0)
    assert xq.tiebreaks[-1] == "playoff"
    ddz = spec.event("斗地主")
    assert ddz.format.type == "tables_of_three" and ddz.game_options["start_points"] == 10
    assert ddz.game_options["scoring"] == "R2011" and ddz.game_options["early_end"] is True  # R2011-D2
    assert ddz.tiebreaks[-1] == "playoff"
    assert all(s.date.year == 2011 and s.date.month == 5 and 11 <= s.date.day <= 20
               for s in spec.sessions)


# -- T2016 -----------------------------------------------------------------------------------

def test_R2016_Q1_ratio_quota_by_hand() -> None:
    """R2016-Q1: players ≤ floor(0.15 N); pairs = max(1, players // 2) (worked out by hand)."""
    spec = spec_of("t2016-poker")
    ev = spec.event("guandan")
    assert (ev.quota.rule, ev.quota.ratio, ev.quota.rounding, ev.quota.minimum) == ("ratio", 0.15, "floor", 1)
    # unit: (members, max players, max pairs)
    by_hand = {"g01": (40, 6, 3), "g02": (27, 4, 2), "g03": (60, 9, 4), "g04": (53, 7, 3),
               "g05": (47, 7, 3), "g06": (33, 4, 2), "g07": (20, 3, 1), "g08": (13, 1, 1),
               "g09": (80, 12, 6), "g10": (6, 0, 1), "g11": (100, 15, 7), "g12": (14, 2, 1)}
    got = {u.id: (u.members, math.floor(ev.quota.ratio * u.members),
                  allowed_entries(ev.quota, u.members, ev.team_size)) for u in spec.units}
    assert got == by_hand
    assert sum(p for _, _, p in by_hand.values()) == 34


def test_R2016_Q2_F1_pickups_groups_and_day() -> None:
    """R2016-Q2 pick-up points; R2016-F1/F3 four groups, 3 rounds; one day at 8:40; A1 top 2."""
    spec = spec_of("t2016-poker")
    assert spec.pickup_points == ["福建路、花园路", "镇江", "桥头", "自行到达"]
    ev = spec.event("guandan")
    assert ev.game == "guandan" and ev.team_size == 2
    assert ev.format.type == "groups_standings"
    assert (ev.format.options["groups"], ev.format.options["rounds"]) == (4, 3)
    assert ev.awards.scheme == "group_top" and ev.awards.options["count"] == 2
    assert [(s.date, s.start) for s in spec.sessions] == [(dt.date(2016, 11, 26), dt.time(8, 40))]
    assert spec.sessions[0].venue == "仙林校区教工食堂"
    assert ev.deadline < dt.datetime(2016, 11, 18, 10, 30, tzinfo=CST)   # before the chairs' draw


# -- the pipeline's own quota functions agree with the hand-worked numbers -----------------

HAND_QUOTAS = {
    # R2015-Q3 (pairs), worked out by hand from the invented member counts
    ("t2015-tcm", "shuangkou"): {"t01": 3, "t02": 6, "t03": 4, "t04": 3, "t05": 4, "t06": 2,
                                 "t07": 2, "t08": 1, "t09": 1, "t10": 5},
    # R2016-Q1 (pairs)
    ("t2016-poker", "guandan"): {"g01": 3, "g02": 2, "g03": 4, "g04": 3, "g05": 3, "g06": 2,
                                 "g07": 1, "g08": 1, "g09": 6, "g10": 1, "g11": 7, "g12": 1},
    # R2020-Q1 (entries; Shuangsheng counts pairs)
    **{("t2020-league", e): {f"b{i:02d}": 2 for i in range(1, 12)}
       for e in ("xiangqi", "checkers", "shuangsheng", "doudizhu")},
    # R2015-Q1/Q2 open entry
    **{("t2015-tcm", e): {f"t{i:02d}": None for i in range(1, 11)} for e in ("go", "xiangqi", "bridge")},
    # T2011: the document sets no quota (组数视比赛人数而定): open entry
    ("t2011-court", "xiangqi"): {f"d{i:02d}": None for i in range(1, 12)},
    ("t2011-court", "doudizhu"): {f"d{i:02d}": None for i in range(1, 12)},
}


def test_hand_quota_table_covers_every_event() -> None:
    """Every event of every sample has hand-worked quotas for every unit."""
    keys = {(tid, ev.id) for tid in IDS for ev in spec_of(tid).events}
    assert keys == set(HAND_QUOTAS)
    for (tid, _), table in HAND_QUOTAS.items():
        assert set(table) == {u.id for u in spec_of(tid).units}


@pytest.mark.parametrize("tid,event", sorted(HAND_QUOTAS))
def test_validator_quota_matches_hand_numbers(tid: str, event: str) -> None:
    """validate.checks.quota_for (enforced) and the notice's branch_quota (printed) give the
    hand-worked numbers (R2015-Q3, R2016-Q1, R2020-Q1)."""
    from pipeline.render.viewmodels import branch_quota
    from pipeline.validate.checks import quota_for

    spec = spec_of(tid)
    ev = spec.event(event)
    enforced = {u.id: quota_for(ev, u) for u in spec.units}
    printed = {u.id: branch_quota(ev, u) for u in spec.units}
    mine = {u.id: allowed_entries(ev.quota, u.members, ev.team_size) for u in spec.units}
    assert enforced == printed == mine == HAND_QUOTAS[(tid, event)]
