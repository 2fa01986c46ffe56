"""Shared helpers: answers for a small league, and filling registration templates the way
a captain does (by header label, like scripts/make_samples.py)."""
from __future__ import annotations

import datetime as dt
import os
import random
from pathlib import Path

import openpyxl

from pipeline import layout as L
from pipeline import newleague
from pipeline.spec import load_tournament
from pipeline.timeutil import TZ
from pipeline.validate.checks import quota_for

DEADLINE = dt.datetime(2026, 1, 10, 17, 0, tzinfo=TZ)
RECEIVED = dt.datetime(2026, 1, 5, 9, 0, tzinfo=TZ)
NOW = dt.datetime(2026, 1, 11, 9, 0, tzinfo=TZ)

SURNAMES = "王李张刘陈杨黄赵吴周徐孙马朱胡郭何高林罗郑梁谢宋唐许韩冯邓曹彭曾肖田董袁潘"
GIVEN = "伟芳娜敏静丽强磊军洋勇艳杰娟涛明超秀霞平刚桂英华玉兰萍红建文辉力鹏宇浩"


def small_answers(units: int = 6) -> dict:
    """Answers for a two-event league of ``units`` branches (text, as typed at the prompt)."""
    return {
        "name": "2026年教职工棋牌赛", "id": "t2026", "organizer": "校工会",
        "units": [{"name": f"第{i + 1}分工会", "captain": "王芳", "members": str(30 + 10 * i),
                   "email": f"u{i + 1}@union.example.edu.cn"} for i in range(units)],
        "events": [{"name": "象棋", "game": "象棋", "format": "淘汰赛", "quota": "fixed 2", "team_size": "1"},
                   {"name": "掼蛋", "game": "掼蛋", "format": "循环赛", "quota": "固定 1", "team_size": "2"}],
        "deadline": DEADLINE.strftime("%Y-%m-%d %H:%M"),
        "sessions": [{"date": "2026-01-17", "start": "8:30", "end": "12:00"}],
        "awards": "名次奖", "places": "一等奖1,二等奖2,三等奖3", "prizes": "一等奖=500,二等奖=300",
    }


def header(ws, label: str = "姓名") -> tuple[int, dict[str, int]]:
    for r in range(1, 60):
        vals = {str(c.value).strip(): c.column for c in ws[r] if c.value is not None}
        if label in vals:
            return r, vals
    raise ValueError(f"no header with {label}")


def fill_registrations(folder: Path, rng: random.Random, counts: dict[str, int] | None = None,
                       plan: dict[str, dict[str, int]] | None = None) -> int:
    """Fill each unit's template in folder/templates (entries up to the quota, or
    ``counts[event id]`` per unit, or ``plan[unit id][event id]``) and drop it in the
    inbox with a time before the deadline.  Returns the number of entries written."""
    t = load_tournament(folder)
    used: set[str] = set()
    total = 0
    sid = 1000
    for u in t.spec.units:
        path = next((folder / "templates").glob(f"{t.spec.id}-{u.id}-*.xlsx"))
        wb = openpyxl.load_workbook(path)
        ws = wb[L.REG_SHEET]
        hrow, col = header(ws)
        r = hrow + 1
        for ev in t.spec.events:
            q = quota_for(ev, u.unit())
            if plan is not None:
                n = plan.get(u.id, {}).get(ev.id, 0)
            else:
                n = counts.get(ev.id, 1) if counts is not None else (q if q is not None else 1)
            if q is not None:
                n = min(n, q)
            for team in range(1, n + 1):
                for _ in range(ev.team_size):
                    while True:
                        name = rng.choice(SURNAMES) + rng.choice(GIVEN) + rng.choice(GIVEN)
                        if name not in used:
                            used.add(name)
                            break
                    sid += 1
                    ws.cell(r, col["项目"]).value = ev.name
                    if "队号" in col and ev.team_size > 1:
                        ws.cell(r, col["队号"]).value = team
                    ws.cell(r, col["姓名"]).value = name
                    ws.cell(r, col["工号"]).value = f"{sid:06d}"
                    ws.cell(r, col["性别"]).value = rng.choice("男女")
                    ws.cell(r, col["联系电话"]).value = "138" + f"{sid:08d}"
                    if "乘车地点" in col and t.spec.pickup_points:
                        ws.cell(r, col["乘车地点"]).value = rng.choice(t.spec.pickup_points)
                    r += 1
                total += 1
        dest = folder / "inbox" / path.name
        wb.save(dest)
        ts = RECEIVED.timestamp()
        os.utime(dest, (ts, ts))
    return total


def answer_at_the_prompt(folder, script: list[str], defaults: bool):
    """``league new`` at the prompt, answered from ``script`` (a blank answer takes the
    prompt's default when ``defaults``); returns the tournament.yaml and what was said."""
    said: list[str] = []

    def ask(text, default=None, **kw):
        answer = script.pop(0)
        return default if defaults and not answer and default is not None else answer

    orig = newleague._echo
    newleague._echo = said.append
    try:
        return newleague.create(folder, ask=ask), said
    finally:
        newleague._echo = orig
