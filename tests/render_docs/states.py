"""Small hand-made LeagueStates for the document tests (no other stage is run).

- ``t2020_state()``: Simplified, 4 branches, 象棋 knockout (a bye, notes, seed/hash, a
  player named ``<script>alert(1)</script>``), 双升 pairs, standings with a playoff mark,
  awards with prizes and a branch award.
- ``t2015_state()``: Traditional script, quota bands (R2015-Q3), a budget with two
  funding sources (R2015-B1), discretionary awards.
- ``t2016_state()``: pairs with bus pick-up points (R2016-Q2).
- ``t2011_spec()``: the T2011 budget (R2011-B1, total 1600).
"""
from __future__ import annotations

import datetime as dt
from pathlib import Path

from pipeline.model import Entry, Match, MatchResult, Outcome, Person, Round, SideResult
from pipeline.score.base import StandingRow
from pipeline.spec import Tournament, TournamentSpec, validated
from pipeline.state import AwardRow, EventState, LeagueState, StandingTable

EVIL = "<script>alert(1)</script>"
RANKED_2020 = {"scheme": "ranked", "places": [{"award": "一等奖", "count": 1}, {"award": "二等奖", "count": 2},
                                              {"award": "三等奖", "count": 3}],
               "prizes": {"一等奖": 300, "二等奖": 200, "三等奖": 100}}


def _tournament(raw: dict) -> Tournament:
    return Tournament(Path("/nonexistent/tournament"), validated(TournamentSpec, raw), b"x" * 32)


def t2020_spec_raw() -> dict:
    return {
        "id": "t2020-mini", "name": "第四届教职工棋牌联赛", "host": "学校工会", "organizer": "工会办公室",
        "theme": "传承国粹经典，弘扬民族文化", "notice_date": "2020-10-30",
        "purpose": "为了丰富我校广大教职工业余文化生活，更好地展示我校教职工精神风貌",
        "committee": [{"role": "组长", "names": ["李琰霞"]}, {"role": "副组长", "names": ["牛俊旺", "焦万芳"]}],
        "contact": "工会办公室 成洁（钉钉）", "one_event_per_person": True,
        "units": [
            {"id": "u1", "name": "行政第一分工会", "short": "行政一", "captain": "庞雪平", "members": 40},
            {"id": "u2", "name": "行政第二分工会", "short": "行政二", "captain": "顾现伟", "members": 35},
            {"id": "u3", "name": "基础教学部分工会", "short": "基础部", "captain": "李佳", "members": 50},
            {"id": "u4", "name": "机电工程学院分工会", "short": "机电学院", "captain": "朱跃飞", "members": 60},
        ],
        "sessions": [{"date": "2020-11-10", "start": "16:00", "end": "18:00", "venue": "工会活动室"},
                     {"date": "2020-11-11", "start": "16:00", "end": "18:00", "venue": "工会活动室"}],
        "events": [
            {"id": "xiangqi", "name": "象棋", "game": "xiangqi", "quota": {"rule": "fixed", "per_branch": 2},
             "deadline": "2020-11-09T15:00:00+08:00", "format": {"type": "knockout", "final_pool": 3},
             "awards": RANKED_2020, "referee": "王军"},
            {"id": "shuangsheng", "name": "双升", "game": "shuangsheng", "team_size": 2,
             "quota": {"rule": "fixed", "per_branch": 2}, "deadline": "2020-11-09T15:00:00+08:00",
             "format": {"type": "knockout", "final_pool": 3}, "awards": RANKED_2020},
        ],
        "notes": ["比赛过程中，各分工会必须严格按照工会已定的比赛规则进行比赛。", "所有比赛应服从裁判。"],
        "branch_award": "组织奖",
    }


def _p(name: str, branch: str, **kw) -> Person:
    return Person(name=name, branch=branch, display_name=name, **kw)


def t2020_state() -> LeagueState:
    t = _tournament(t2020_spec_raw())
    names = {"u1": ["王军", EVIL], "u2": ["杨力", "王瑞"], "u3": ["张良", "宋旋"], "u4": ["高卫亮", "权印"]}
    xq = [Entry(f"xiangqi-{b}-{i}", "xiangqi", b, n, (_p(n, b, staff_id=f"{b}{i}"),))
          for b, ns in names.items() for i, n in enumerate(ns, 1)]
    pair_names = {"u1": ("金玉萍", "张斌"), "u2": ("梁卫军", "钱坤"), "u3": ("司小昆", "庞雪平"), "u4": ("顾现伟", "李佳")}
    ss = [Entry(f"shuangsheng-{b}-1", "shuangsheng", b, f"{t.spec.unit(b).short}1队",
                (_p(a, b), _p(c, b)), team_no="1") for b, (a, c) in pair_names.items()]
    ids = [e.id for e in xq]
    r1 = Round("xiangqi", "ko1", "淘汰赛第一轮", 1,
               tuple(Match("xiangqi", "ko1", 1, "", i + 1, (ids[2 * i], ids[2 * i + 1])) for i in range(4)),
               seed="t2020-mini/xiangqi/1", input_hash="ab12cd34ef56" * 4, notes=("同单位选手首轮不相遇。",))
    winners = [ids[0], ids[3], ids[4], ids[6]]
    r2 = Round("xiangqi", "ko2", "淘汰赛第二轮", 2,
               (Match("xiangqi", "ko2", 2, "", 1, (winners[0], winners[1]), first=1),
                Match("xiangqi", "ko2", 2, "", 2, (winners[2],), bye=True, note="抽得晋级签")),
               seed="t2020-mini/xiangqi/2", input_hash="9f" * 32,
               notes=("3名胜者中1名抽得晋级签（轮空），其余2名进行1场比赛。",))
    results = {m.key: MatchResult(m, (SideResult(Outcome.WIN, 2), SideResult(Outcome.LOSS, 0)))
               for m in r1.matches}
    rr = StandingTable("xiangqi", "rr", "循环赛", "", (
        StandingRow(ids[0], 1, 4, played=2, wins=2, tiebreaks={"direct": 0, "wins": 2, "sonneborn_berger": 4}),
        StandingRow(ids[3], 2, 1, played=2, draws=1, losses=1,
                    tiebreaks={"direct": 1, "wins": 0, "sonneborn_berger": 3}, playoff_required=True),
        StandingRow(ids[4], 2, 1, played=2, draws=1, losses=1,
                    tiebreaks={"direct": 1, "wins": 0, "sonneborn_berger": 3}, playoff_required=True),
    ), ("direct", "wins", "sonneborn_berger", "playoff"))
    events = {
        "xiangqi": EventState(t.spec.events[0], "淘汰赛", xq, [r1, r2], results, [rr], complete=False,
                              waiting="等待第2轮成绩", session_of_round={1: t.spec.sessions[0].label(),
                                                                  2: t.spec.sessions[1].label()}),
        "shuangsheng": EventState(t.spec.events[1], "淘汰赛", ss),
    }
    awards = [
        AwardRow("xiangqi", "", "一等奖", 1, "王军", "u1", "王军", 300, ids[0]),
        AwardRow("xiangqi", "", "二等奖", 2, "王瑞", "u2", "王瑞", 200, ids[3]),
        AwardRow("xiangqi", "", "二等奖", 3, "张良", "u3", "张良", 200, ids[4]),
        AwardRow("xiangqi", "", "三等奖", 4, EVIL, "u1", EVIL, 100, ids[1]),
        AwardRow("shuangsheng", "", "一等奖", 1, ss[2].team, "u3", ss[2].player_names, 300, ss[2].id),
    ]
    branch = [AwardRow("", "", "组织奖", 0, "", "u3", "", 0)]
    return LeagueState(t, now=dt.datetime(2020, 11, 12, 23, 0), updated=dt.datetime(2020, 11, 11, 18, 30),
                       submissions=[], entries=xq + ss, issues=[], events=events, awards=awards,
                       branch_awards=branch)


def t2015_spec_raw() -> dict:
    return {
        "id": "t2015-mini", "name": "2015年教职工棋牌比赛", "host": "校工会、校工会文体专委会",
        "organizer": "成都中医药大学工会委员会", "co_organizers": ["“远志”教工棋牌俱乐部"],
        "purpose": "为更好地推动教职工文体活动的开展，丰富教职工的业余生活", "notice_date": "2015-09-18",
        "script": "traditional", "contact": "医学技术学院 黄泽娟",
        "units": [{"id": "t01", "name": "基础医学院分工会", "short": "基础医学院", "members": 149},
                  {"id": "t02", "name": "临床医学院分工会", "short": "临床医学院", "members": 250},
                  {"id": "t08", "name": "马克思主义学院分工会", "short": "马院", "members": 49}],
        "events": [
            {"id": "go", "name": "围棋", "game": "go", "format": {"type": "swiss", "rounds": 5},
             "tiebreaks": ["buchholz", "progressive", "wins"],
             "awards": {"scheme": "ranked", "places": [{"award": "第一名", "count": 1}]}},
            {"id": "shuangkou", "name": "双扣", "game": "shuangkou", "team_size": 2,
             "quota": {"rule": "bands", "bands": [{"min_members": 0, "entries": 1}, {"min_members": 50, "entries": 2},
                                                   {"min_members": 100, "entries": 3}], "extra_every": 50},
             "format": {"type": "round_robin"},
             "awards": {"scheme": "ranked", "places": [{"award": "第一名", "count": 1}], "prizes": {"第一名": 500}}},
        ],
        "discretionary_awards": ["风尚奖", "潜力选手奖", "优胜奖", "特别贡献奖"], "branch_award": "组织奖",
        "budget": [{"name": "围棋用具", "quantity": 10, "unit": "副", "unit_price": 60, "source": "文体活动费"},
                   {"name": "预赛场地", "quantity": 3, "unit": "次", "unit_price": 100, "source": "分工会活动费"}],
        "prize_budget_source": "文体活动费",
    }


def t2015_state() -> LeagueState:
    t = _tournament(t2015_spec_raw())
    go = [Entry("go-t01-1", "go", "t01", "周明远", (_p("周明远", "t01"),)),
          Entry("go-t02-1", "go", "t02", "陈晓岚", (_p("陈晓岚", "t02"),))]
    sk = [Entry("shuangkou-t01-1", "shuangkou", "t01", "基础医学院1队", (_p("刘建川", "t01"), _p("杨蓉", "t01")))]
    rnd = Round("go", "swiss", "瑞士制", 1, (Match("go", "swiss", 1, "", 1, ("go-t01-1", "go-t02-1")),),
                seed="t2015-mini/go/1", input_hash="00ff" * 16)
    st = StandingTable("go", "swiss", "瑞士制", "", (
        StandingRow("go-t01-1", 1, 2, played=1, wins=1, tiebreaks={"buchholz": 0, "progressive": 2, "wins": 1}),
        StandingRow("go-t02-1", 2, 0, played=1, losses=1, tiebreaks={"buchholz": 2, "progressive": 0, "wins": 0}),
    ), ("buchholz", "progressive", "wins"))
    events = {"go": EventState(t.spec.events[0], "瑞士制", go, [rnd], {}, [st], complete=True,
                               session_of_round={1: "2015年11月7日 09:00—12:00"}),
              "shuangkou": EventState(t.spec.events[1], "循环赛", sk)}
    awards = [AwardRow("go", "", "第一名", 1, "周明远", "t01", "周明远", 0, "go-t01-1"),
              AwardRow("go", "", "风尚奖", 0, "陈晓岚", "t02", "陈晓岚", 0, "go-t02-1"),
              AwardRow("shuangkou", "", "第一名", 1, "基础医学院1队", "t01", "刘建川/杨蓉", 500, "shuangkou-t01-1")]
    branch = [AwardRow("", "", "组织奖", 0, "", "t02", "", 0)]
    return LeagueState(t, now=dt.datetime(2015, 12, 6), updated=dt.datetime(2015, 12, 5, 17, 0), submissions=[],
                       entries=go + sk, issues=[], events=events, awards=awards, branch_awards=branch)


def t2016_state() -> LeagueState:
    raw = {
        "id": "t2016-mini", "name": "2016年教职工扑克牌比赛", "organizer": "校工会",
        "pickup_points": ["福建路、花园路", "镇江", "桥头", "自行到达"],
        "units": [{"id": "b1", "name": "文学院分工会", "members": 40}, {"id": "b2", "name": "商学院分工会", "members": 70}],
        "events": [{"id": "guandan", "name": "掼蛋", "game": "guandan", "team_size": 2,
                    "quota": {"rule": "ratio", "ratio": 0.15}, "format": {"type": "groups_standings", "groups": 4}}],
    }
    t = _tournament(raw)
    e1 = Entry("guandan-b1-1", "guandan", "b1", "文学院1队",
               (_p("甲一", "b1", pickup="镇江", phone="13800000001"), _p("甲二", "b1", pickup="桥头")))
    e2 = Entry("guandan-b2-1", "guandan", "b2", "商学院1队",
               (_p("乙一", "b2", pickup="镇江"), _p("乙二", "b2")))
    events = {"guandan": EventState(t.spec.events[0], "分组积分赛", [e1, e2])}
    return LeagueState(t, now=dt.datetime(2016, 11, 20), updated=dt.datetime(2016, 11, 18, 10, 0), submissions=[],
                       entries=[e1, e2], issues=[], events=events, awards=[])


def t2016_full_round_state() -> LeagueState:
    """A 掼蛋 groups round as the t2016 sample draws it: 32 pairs, 16 tables in 4 groups."""
    state = t2016_state()
    es = state.events["guandan"]
    units = ("b1", "b2")
    entries = [Entry(f"guandan-{units[i % 2]}-{i + 1}", "guandan", units[i % 2], f"{'文学院' if i % 2 == 0 else '商学院'}{i + 1}队",
                     (_p(f"选手{i}甲", units[i % 2]), _p(f"选手{i}乙", units[i % 2])), team_no=str(i + 1))
               for i in range(32)]
    ids = [e.id for e in entries]
    matches = tuple(Match("guandan", "g", 1, "ABCD"[k // 4], k % 4 + 1, (ids[2 * k], ids[2 * k + 1]))
                    for k in range(16))
    es.entries[:] = entries
    es.rounds.append(Round("guandan", "g", "分组赛第1轮", 1, matches, seed="s", input_hash="ab" * 32,
                           notes=("A组抽签顺序：……",)))
    state.entries = entries
    return state


def t2011_state() -> LeagueState:
    raw = {
        "id": "t2011-mini", "name": "XX单位棋牌比赛", "organizer": "院工会", "unit_word": "部门",
        "units": [{"id": "d01", "name": "立案庭"}],
        "events": [{"id": eid, "name": name, "game": eid, "format": {"type": "round_robin"},
                    "awards": {"scheme": "ranked", "places": [{"award": "第一名", "count": 1},
                                                              {"award": "第二名", "count": 1},
                                                              {"award": "第三名", "count": 1}],
                               "prizes": {"第一名": 300, "第二名": 200, "第三名": 100}}}
                   for eid, name in (("xiangqi", "中国象棋"), ("doudizhu", "斗地主"))],
        "budget": [{"name": "扑克牌", "quantity": 20, "unit": "副", "unit_price": 10},
                   {"name": "中国象棋", "quantity": 5, "unit": "副", "unit_price": 40}],
    }
    t = _tournament(raw)
    return LeagueState(t, now=dt.datetime(2011, 5, 1), updated=dt.datetime(2011, 5, 1), submissions=[],
                       entries=[], issues=[], events={}, awards=[])
