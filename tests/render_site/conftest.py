"""Hand-built LeagueStates for the site tests (no ledger, no workbooks)."""
from __future__ import annotations

import datetime as dt
from pathlib import Path

import pytest

from pipeline.issues import issue
from pipeline.model import CellRef, Entry, Match, MatchResult, Outcome, Person, Round, SideResult
from pipeline.score.base import StandingRow
from pipeline.spec import Tournament, TournamentSpec, validated
from pipeline.state import AwardRow, EventState, LeagueState, StandingTable, Submission

EVIL = "<script>alert(1)</script>"
UNITS = [f"u{i:02d}" for i in range(1, 12)]
NOW = dt.datetime(2020, 11, 18, 20, 0)
UPDATED = dt.datetime(2020, 11, 18, 18, 5)


def _spec(script: str = "simplified") -> TournamentSpec:
    units = [{"id": u, "name": f"第{i}分工会", "short": f"分会{i}", "captain": f"队长{i}", "members": 80}
             for i, u in enumerate(UNITS, 1)]
    units[0]["short"] = EVIL   # injection through a spec string
    return validated(TournamentSpec, {
        "id": "t2020", "name": "第四届教职工棋牌联赛", "host": "校工会", "script": script,
        "units": units,
        "events": [
            {"id": "xiangqi", "name": "象棋", "game": "xiangqi",
             "quota": {"rule": "fixed", "per_branch": 2},
             "deadline": "2020-11-09T15:00:00",
             "format": {"type": "knockout_rr", "final_pool": 3}},
            {"id": "doudizhu", "name": "斗地主", "game": "doudizhu",
             "format": {"type": "tables_of_three"}},
            {"id": "go", "name": "围棋", "game": "go", "format": {"type": "swiss", "rounds": 3}},
        ],
    })


def _entry(event: str, branch: str, k: int, name: str | None = None) -> Entry:
    name = name or f"{event[:2]}{branch}{k}"
    return Entry(id=f"{event}:{branch}:{k}", event=event, branch=branch, team=name,
                 players=(Person(name=name, branch=branch, staff_id=f"{branch}{k:03d}"),))


def _win(m: Match, winner: int = 0) -> MatchResult:
    sides = tuple(SideResult(Outcome.WIN if i == winner else Outcome.LOSS, points=2 if i == winner else 0,
                             score=2 if i == winner else 0) for i in range(len(m.sides)))
    return MatchResult(match=m, sides=sides)


def _table_result(m: Match) -> MatchResult:
    sides = tuple(SideResult(Outcome.WIN if i == 0 else Outcome.LOSS, points=0, score=10 - 3 * i, place=i + 1)
                  for i in range(len(m.sides)))
    return MatchResult(match=m, sides=sides)


def knockout_event(spec, n_rounds_with_results: int = 6) -> EventState:
    """R2020-F1: 22 entries → 11 matches → 1 bye + 5 matches → 3 matches → round robin of 3."""
    ev = spec.event("xiangqi")
    entries = [_entry("xiangqi", u, k) for u in UNITS for k in (1, 2)]
    entries[0] = Entry(id=entries[0].id, event="xiangqi", branch=entries[0].branch, team=EVIL,
                       players=(Person(name=EVIL, branch=entries[0].branch),))
    ids = [e.id for e in entries]
    rounds: list[Round] = []
    results: dict[tuple, MatchResult] = {}
    alive = ids

    def play(stage, name, rno, pairs, bye=None):
        ms = [Match("xiangqi", stage, rno, "", t, p) for t, p in enumerate(pairs, 1)]
        if bye:
            ms.append(Match("xiangqi", stage, rno, "", len(ms) + 1, (bye,), bye=True))
        rnd = Round("xiangqi", stage, name, rno, tuple(ms), notes=(f"第{rno}轮抽签说明",))
        rounds.append(rnd)
        won = []
        for m in ms:
            if m.bye:
                won.append(m.sides[0])
                continue
            if rno <= n_rounds_with_results:
                results[m.key] = _win(m, 0)
                won.append(m.sides[0])
        return won

    alive = play("ko", "淘汰赛", 1, [(alive[i], alive[i + 1]) for i in range(0, 22, 2)])
    if n_rounds_with_results >= 1:
        # redraw by lot: reverse order so lines cross unless the layout reorders
        a = list(reversed(alive))
        alive = play("ko", "淘汰赛", 2, [(a[i], a[i + 1]) for i in range(1, 11, 2)], bye=a[0])
    if n_rounds_with_results >= 2:
        a = alive
        alive = play("ko", "淘汰赛", 3, [(a[i], a[i + 1]) for i in range(0, 6, 2)])
    standings = []
    if n_rounds_with_results >= 3:
        p = alive
        for rno, (x, y, b) in enumerate([(0, 1, 2), (1, 2, 0), (2, 0, 1)], 4):
            play("rr", "决赛循环赛", rno, [(p[x], p[y])], bye=p[b])
        standings.append(StandingTable("xiangqi", "rr", "决赛循环赛", "", tuple(
            StandingRow(entry=e, rank=i + 1, points=4 - 2 * i, played=2, wins=2 - i, losses=i,
                        tiebreaks={"direct": 1 - i, "wins": 2 - i, "sonneborn_berger": 5 - i})
            for i, e in enumerate(p)), ("direct", "wins", "sonneborn_berger")))
    complete = n_rounds_with_results >= 6
    return EventState(spec=ev, format_title="淘汰赛+决赛循环赛", entries=entries, rounds=rounds, results=results,
                      standings=standings, complete=complete,
                      session_of_round={1: "2020年11月10日 16:00—18:00"})


def doudizhu_event(spec) -> EventState:
    ev = spec.event("doudizhu")
    entries = [_entry("doudizhu", u, 1) for u in UNITS[:9]]
    ids = [e.id for e in entries]
    m1 = [Match("doudizhu", "r1", 1, "", t + 1, tuple(ids[3 * t:3 * t + 3])) for t in range(3)]
    r1 = Round("doudizhu", "r1", "第一轮", 1, tuple(m1))
    results = {m.key: _table_result(m) for m in m1}
    fin = Match("doudizhu", "final", 2, "", 1, tuple(m.sides[0] for m in m1))
    r2 = Round("doudizhu", "final", "决赛桌", 2, (fin,))
    return EventState(spec=ev, format_title="三人桌淘汰", entries=entries, rounds=[r1, r2], results=results)


def swiss_event(spec) -> EventState:
    ev = spec.event("go")
    entries = [_entry("go", u, 1) for u in UNITS[:4]]
    ids = [e.id for e in entries]
    m = [Match("go", "swiss", 1, "", 1, (ids[0], ids[1])), Match("go", "swiss", 1, "", 2, (ids[2], ids[3]))]
    r1 = Round("go", "swiss", "瑞士制", 1, tuple(m))
    results = {m[0].key: _win(m[0], 1)}
    return EventState(spec=ev, format_title="瑞士制", entries=entries, rounds=[r1], results=results)


def make_state(script: str = "simplified", ko_rounds: int = 6, folder: Path | None = None) -> LeagueState:
    """A T2020-like state: a finished 22-entry knockout, a tables-of-three event, a Swiss
    event half-played, submissions in every status and issues of every severity."""
    spec = _spec(script)
    tour = Tournament(folder or Path("/nonexistent"), spec, b"0123456789abcdef0123")
    events = {"xiangqi": knockout_event(spec, ko_rounds), "doudizhu": doudizhu_event(spec),
              "go": swiss_event(spec)}
    entries = [e for es in events.values() for e in es.entries]
    t = dt.datetime(2020, 11, 1, 9, 0)
    subs = [
        Submission("a" * 64, "分会1报名表.xlsx", "u01", t, "cap1@example.edu.cn", "superseded",
                   returned_path="returned/u01/分会1报名表 批注.xlsx"),
        Submission("b" * 64, "分会1报名表v2.xlsx", "u01", t + dt.timedelta(days=1), "cap1@example.edu.cn",
                   "accepted", returned_path="returned/u01/分会1报名表v2 批注.xlsx"),
        Submission("c" * 64, "u02.xlsx", "u02", t, "x@example.edu.cn", "rejected",
                   returned_path="returned/u02/u02 批注.xlsx"),
        Submission("d" * 64, "坏文件.xlsx", "", t, "who@example.com", "unreadable"),
    ]
    issues = [
        issue("QUOTA_EXCEEDED", "报名表!B7 “象棋” 超出名额：本分工会已报 3 人，限 2 人。请删去 1 人。",
              at=CellRef("u02.xlsx", "报名表", "B7"), branch="u02"),
        issue("MISSING_VALUE", "报名表!D12 姓名为空，请填写。", at=CellRef("u02.xlsx", "报名表", "D12"),
              branch="u02"),
        issue("BAD_VALUE", f"报名表!D9 “{EVIL}” 不是有效的姓名，请修改。", at=CellRef("u02.xlsx", "报名表", "D9"),
              branch="u02"),
        issue("QUOTA_SHORT", "跳棋 只报了 1 人（名额 2 人）。如确认，无需修改。", at=CellRef("分会1报名表v2.xlsx", "报名表", ""),
              branch="u01"),
        issue("SUPERSEDED", "“分会1报名表.xlsx” 已被 “分会1报名表v2.xlsx” 取代。", branch="u01"),
        issue("UNREADABLE_FILE", "“坏文件.xlsx” 无法打开，请另存为 .xlsx 后重新发送。", at=CellRef("坏文件.xlsx")),
    ]
    awards = [
        AwardRow("xiangqi", "", "一等奖", 1, "象棋u01", "u03", "象棋u01", prize=300),
        AwardRow("xiangqi", "", "二等奖", 2, EVIL, "u01", EVIL, prize=200),
        AwardRow("xiangqi", "", "二等奖", 3, "象棋u05", "u05", "象棋u05", prize=200),
        AwardRow("xiangqi", "", "三等奖", 4, "象棋u07", "u07", "象棋u07", prize=100),
        AwardRow("xiangqi", "", "三等奖", 5, "象棋u08", "u03", "象棋u08", prize=100),
    ]
    return LeagueState(tournament=tour, now=NOW, updated=UPDATED, submissions=subs, entries=entries,
                       issues=issues, events=events, awards=awards,
                       branch_awards=[AwardRow("", "", "组织奖", 0, "", "u04", "")])


@pytest.fixture
def state() -> LeagueState:
    return make_state()
